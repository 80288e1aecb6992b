//! Occupancy-indexed tables for the line pieces: given the occupancy of a rank (9 bits) or a
//! file (10 bits) and a point on it, the points a chariot slides to (up to and including the
//! first piece each way) and the points a cannon captures on (the first piece after the
//! screen each way). Built at compile time; positions keep each rank's and file's occupancy up
//! to date, so line moves and line attacks need no scanning.

/// Bits of a rank (bit = file) or a file (bit = rank).
pub(crate) type LineMask = u16;

/// What a line piece on one point of a line does, for one occupancy of the line: the points a
/// chariot slides to (empty points each way, plus the first occupied one) and the points a
/// cannon captures on (the second occupied point each way). Kept side by side, so that the
/// two answers for one point and occupancy share a cache line.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineEntry {
    pub slide: LineMask,
    pub cannon: LineMask,
}

/// [`LineEntry`] for every point of a line of up to ten points and each of its `N` occupancies
/// (512 for a rank of nine points, 1024 for a file of ten).
pub(crate) struct LineTable<const N: usize> {
    pub rows: [[LineEntry; N]; 10],
}

impl<const N: usize> LineTable<N> {
    /// The entry of point `p` under occupancy `occ` (`occ` is masked to the line's points,
    /// which also spares the bounds test).
    #[inline(always)]
    pub(crate) fn get(&self, p: usize, occ: LineMask) -> LineEntry {
        self.rows[p][occ as usize & (N - 1)]
    }
}

/// From `p` one way along a line of `len` points with occupancy `occ`: the points a chariot
/// slides to (up to and including the first piece) and the one a cannon hits (the second
/// piece), as masks.
const fn ray(occ: usize, p: usize, len: usize, up: bool) -> (LineMask, LineMask) {
    let mut slide: LineMask = 0;
    let mut seen = 0;
    let mut i = p;
    loop {
        if up {
            if i + 1 >= len {
                break;
            }
            i += 1;
        } else {
            if i == 0 {
                break;
            }
            i -= 1;
        }
        if seen == 0 {
            slide |= 1 << i;
        }
        if occ & (1 << i) != 0 {
            seen += 1;
            if seen == 2 {
                return (slide, 1 << i);
            }
        }
    }
    (slide, 0)
}

const fn build<const N: usize>(len: usize) -> LineTable<N> {
    let mut t = LineTable {
        rows: [[LineEntry {
            slide: 0,
            cannon: 0,
        }; N]; 10],
    };
    let mut p = 0;
    while p < len {
        let mut occ = 0;
        while occ < N {
            let (up_slide, up_cannon) = ray(occ, p, len, true);
            let (down_slide, down_cannon) = ray(occ, p, len, false);
            t.rows[p][occ] = LineEntry {
                slide: up_slide | down_slide,
                cannon: up_cannon | down_cannon,
            };
            occ += 1;
        }
        p += 1;
    }
    t
}

/// Along a rank: indexed by file and the rank's occupancy.
pub(crate) static RANK_LINES: LineTable<512> = build(9);
/// Along a file: indexed by rank and the file's occupancy.
pub(crate) static FILE_LINES: LineTable<1024> = build(10);

/// The occupancy of every rank and file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Occupancy {
    /// Bit `file` of `ranks[rank]`.
    pub ranks: [LineMask; 10],
    /// Bit `rank` of `files[file]`.
    pub files: [LineMask; 9],
}

impl Occupancy {
    /// The occupancy of a board.
    #[cfg(test)]
    pub(crate) fn of(board: &[u8; 90]) -> Occupancy {
        let mut o = Occupancy::default();
        for (sq, &c) in board.iter().enumerate() {
            if c != 0 {
                o.set(sq);
            }
        }
        o
    }

    #[inline]
    pub(crate) fn set(&mut self, sq: usize) {
        self.ranks[sq / 9] |= 1 << (sq % 9);
        self.files[sq % 9] |= 1 << (sq / 9);
    }

    #[inline]
    pub(crate) fn clear(&mut self, sq: usize) {
        self.ranks[sq / 9] &= !(1 << (sq % 9));
        self.files[sq % 9] &= !(1 << (sq / 9));
    }

    /// Whether a piece stands on `sq`.
    #[inline]
    pub(crate) fn has(&self, sq: usize) -> bool {
        self.ranks[sq / 9] & (1 << (sq % 9)) != 0
    }

    /// Chariot slides from `sq`: `(along the rank, along the file)`.
    #[inline]
    pub(crate) fn slides(&self, sq: usize) -> (LineMask, LineMask) {
        let (rank, file) = self.lines(sq);
        (rank.slide, file.slide)
    }

    /// Cannon capture points from `sq`: `(along the rank, along the file)`.
    #[inline]
    pub(crate) fn cannon_hits(&self, sq: usize) -> (LineMask, LineMask) {
        let (rank, file) = self.lines(sq);
        (rank.cannon, file.cannon)
    }

    /// Both answers for `sq`: `(along the rank, along the file)`.
    #[inline]
    pub(crate) fn lines(&self, sq: usize) -> (LineEntry, LineEntry) {
        let (f, r) = (sq % 9, sq / 9);
        (
            RANK_LINES.get(f, self.ranks[r]),
            FILE_LINES.get(r, self.files[f]),
        )
    }
}

/// Call `f` with the board point of every bit of `mask` on rank `rank`.
#[inline]
pub(crate) fn for_rank_bits(mut mask: LineMask, rank: usize, mut f: impl FnMut(usize)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(rank * 9 + i);
    }
}

/// Call `f` with the board point of every bit of `mask` on file `file`.
#[inline]
pub(crate) fn for_file_bits(mut mask: LineMask, file: usize, mut f: impl FnMut(usize)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(i * 9 + file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_stop_at_the_first_piece_and_cannons_jump_one() {
        // Rank occupancy: pieces on files 1, 3, 4, 7; a piece on file 5 looks both ways.
        let occ = 0b1001_1010usize | 1 << 5;
        assert_eq!(RANK_LINES.rows[5][occ].slide, 1 << 4 | 1 << 6 | 1 << 7);
        assert_eq!(RANK_LINES.rows[5][occ].cannon, 1 << 3);
        // On a file, from rank 0 with pieces on ranks 2 and 9.
        let occ = 1usize << 2 | 1 << 9 | 1;
        assert_eq!(FILE_LINES.rows[0][occ].slide, 1 << 1 | 1 << 2);
        assert_eq!(FILE_LINES.rows[0][occ].cannon, 1 << 9);
    }

    #[test]
    fn occupancy_follows_the_board() {
        let p = crate::core::Position::startpos();
        let o = Occupancy::of(&p.board);
        assert_eq!(o.ranks[0], 0x1FF);
        assert_eq!(o.ranks[2], 1 << 1 | 1 << 7);
        assert_eq!(o.files[4], 1 << 0 | 1 << 3 | 1 << 6 | 1 << 9);
    }
}
