//! Board renderer: decode what it writes and look at the pixels that matter.
//!
//! The golden image is `tests/data/render_golden.png`; regenerate it after an intended change of
//! look with `UPDATE_GOLDEN=1 cargo test --test render`, and look at it before committing.

use std::io::Cursor;
use std::path::PathBuf;

use xiangqi_bot::cli::render::{run, RenderArgs};
use xiangqi_bot::core::{Color, Move, Position, Square};
use xiangqi_bot::i18n::Lang;
use xiangqi_bot::render::{
    describe, text_board, Arrow, ArrowStyle, BoardRequest, Coordinates, Layout, PieceStyle, Player,
    RenderError, Renderer, Rgb, Theme,
};

const R: u32 = 35; // piece radius, see src/render/layout.rs

struct Image {
    w: u32,
    h: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn at(&self, x: u32, y: u32) -> Rgb {
        let i = ((y * self.w + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn decode_png(bytes: &[u8]) -> Image {
    let mut dec = png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("a PNG header");
    assert_eq!(reader.info().color_type, png::ColorType::Indexed);
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Image {
        w: info.width,
        h: info.height,
        rgb: buf,
    }
}

/// Decode a GIF and composite its frames (each is a sub-rectangle with transparent pixels over
/// the previous one); returns the frame count and the final picture.
fn decode_gif(bytes: &[u8]) -> (usize, Image) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts.read_info(bytes).expect("a GIF header");
    let (w, h) = (u32::from(dec.width()), u32::from(dec.height()));
    let pal = dec.global_palette().expect("a global palette").to_vec();
    let mut img = Image {
        w,
        h,
        rgb: vec![0; (w * h * 3) as usize],
    };
    let mut frames = 0;
    while let Some(f) = dec.read_next_frame().expect("a frame") {
        frames += 1;
        for y in 0..u32::from(f.height) {
            for x in 0..u32::from(f.width) {
                let idx = f.buffer[(y * u32::from(f.width) + x) as usize];
                if Some(idx) == f.transparent {
                    continue;
                }
                let o = (((u32::from(f.top) + y) * w + u32::from(f.left) + x) * 3) as usize;
                let p = usize::from(idx) * 3;
                img.rgb[o..o + 3].copy_from_slice(&pal[p..p + 3]);
            }
        }
    }
    (frames, img)
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("a point")
}

fn after(moves: &[&str]) -> (Position, Vec<Move>) {
    let mut pos = Position::startpos();
    let mut played = Vec::new();
    for m in moves {
        let m = Move::parse_iccs(m).expect("ICCS");
        pos.play(m).expect("legal");
        played.push(m);
    }
    (pos, played)
}

/// How many pixels within the disc at `p` have exactly colour `c`.
fn count_in_disc(img: &Image, p: (u32, u32), c: Rgb) -> usize {
    let mut n = 0;
    for y in p.1 - R..p.1 + R {
        for x in p.0 - R..p.0 + R {
            if img.at(x, y) == c {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn png_marks_the_last_move_and_draws_pieces_where_they_stand() {
    let renderer = Renderer::new();
    let (pos, moves) = after(&["h2e2", "h9g7"]);
    for viewer in Color::ALL {
        let mut req = BoardRequest::new(&pos);
        req.last_move = moves.last().copied();
        req.viewer = viewer;
        let img = decode_png(&renderer.png(&req).expect("a PNG"));
        let layout = Layout::PNG;
        assert_eq!((img.w, img.h), (layout.width(), layout.height()));
        assert!(img.w >= 720);
        let c = Theme::Wood.colors();
        // The last move h9g7: a dot on the empty from-point, brackets at both corners.
        let from = layout.point(sq("h9"), viewer);
        let to = layout.point(sq("g7"), viewer);
        assert_eq!(img.at(from.0, from.1), c.highlight, "{viewer:?}");
        assert_eq!(img.at(from.0 + 34, from.1 + 34), c.highlight);
        assert_eq!(img.at(to.0 - 35, to.1 - 35), c.highlight);
        assert_eq!(img.at(to.0 + 34, to.1 - 35), c.highlight);
        assert_eq!(img.at(to.0 - 35, to.1 + 34), c.highlight);
        // Red's general stands on e0: rim colour on its edge, red ink inside; the horse on g7 is
        // written in black ink.
        let e0 = layout.point(sq("e0"), viewer);
        assert_eq!(img.at(e0.0 + R - 2, e0.1), c.red_rim);
        assert!(count_in_disc(&img, e0, c.red_ink) > 150);
        assert_eq!(count_in_disc(&img, e0, c.black_ink), 0);
        assert!(count_in_disc(&img, to, c.black_ink) > 150);
        // The viewer's general is in the lower half.
        assert_eq!(e0.1 > img.h / 2, viewer == Color::Red);
        // An empty point away from everything shows the board.
        let d5 = layout.point(sq("d5"), viewer);
        assert_eq!(img.at(d5.0 + 20, d5.1 + 20), c.board);
    }
}

#[test]
fn a_general_in_check_is_ringed_in_both_themes() {
    let renderer = Renderer::new();
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").expect("FEN");
    for theme in Theme::ALL {
        let mut req = BoardRequest::new(&pos);
        req.theme = theme;
        req.pieces = PieceStyle::LettersWxf;
        req.coordinates = Coordinates::Iccs;
        let img = decode_png(&renderer.png(&req).expect("a PNG"));
        let k = Layout::PNG.point(sq("e9"), Color::Red);
        let c = theme.colors();
        assert_eq!(img.at(k.0 + R + 2, k.1), c.check, "{theme}");
        assert_eq!(img.at(k.0, k.1 + R + 2), c.check, "{theme}");
        // Red's general (not in check) has no ring.
        let g = Layout::PNG.point(sq("d0"), Color::Red);
        assert_ne!(img.at(g.0 + R + 2, g.1), c.check, "{theme}");
    }
}

#[test]
fn hostile_names_are_drawn_safely() {
    let renderer = Renderer::new();
    let pos = Position::startpos();
    let names = [
        "😀👍🏽👨‍👩‍👧 family",
        "مرحبا بالعالم שלום",
        "\u{202E}evil\u{202C} \u{0007}bell\u{0000}",
        &"Z\u{0336}\u{0335}\u{0334}".repeat(300),
        &"W".repeat(5000),
        "Lý Thường Kiệt 王天一",
        "",
    ];
    for name in names {
        let mut req = BoardRequest::new(&pos);
        req.red = Player {
            name: name.to_string(),
            clock: Some("99:59:59".into()),
        };
        req.black = Player {
            name: name.to_string(),
            clock: Some(name.to_string()),
        };
        let img = decode_png(&renderer.png(&req).expect("a PNG"));
        assert_eq!(img.w, Layout::PNG.width());
    }
}

#[test]
fn gif_has_one_frame_per_ply_and_ends_on_the_final_position() {
    let renderer = Renderer::new();
    let (pos, moves) = after(&[
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h6", "b7a7", "e2e6",
    ]);
    let start = Position::startpos();
    for viewer in Color::ALL {
        let bytes = renderer
            .gif(&start, &moves, viewer, Theme::Wood, PieceStyle::Traditional)
            .expect("a GIF");
        let (frames, img) = decode_gif(&bytes);
        assert_eq!(frames, moves.len() + 1);
        assert_eq!((img.w, img.h), (Layout::GIF.width(), Layout::GIF.height()));
        // The last frame is the PNG's board area, pixel for pixel.
        let mut req = BoardRequest::new(&pos);
        req.last_move = moves.last().copied();
        req.viewer = viewer;
        let png = decode_png(&renderer.png(&req).expect("a PNG"));
        let band = Layout::PNG.band();
        let mut differing = 0;
        for y in 0..img.h {
            for x in 0..img.w {
                if img.at(x, y) != png.at(x, y + band) {
                    differing += 1;
                }
            }
        }
        assert_eq!(differing, 0, "{viewer:?}");
        let to = Layout::GIF.point(sq("e6"), viewer);
        assert_eq!(img.at(to.0 - 35, to.1 - 35), Theme::Wood.colors().highlight);
    }
}

#[test]
fn gif_refuses_illegal_and_overlong_replays() {
    let renderer = Renderer::new();
    let start = Position::startpos();
    let bad = [Move::new(sq("h2"), sq("e2")), Move::new(sq("h2"), sq("e2"))];
    let err = renderer.gif(
        &start,
        &bad,
        Color::Red,
        Theme::Wood,
        PieceStyle::Traditional,
    );
    assert!(
        matches!(err, Err(RenderError::IllegalMove { ply: 2, .. })),
        "{err:?}"
    );
    let long = vec![Move::new(sq("h2"), sq("e2")); 5000];
    let err = renderer.gif(
        &start,
        &long,
        Color::Red,
        Theme::Wood,
        PieceStyle::Traditional,
    );
    assert!(matches!(err, Err(RenderError::TooLong { .. })));
}

#[test]
fn every_theme_and_style_renders() {
    let renderer = Renderer::new();
    renderer.warm_up();
    let (pos, moves) = after(&["h2e2"]);
    for theme in Theme::ALL {
        for pieces in PieceStyle::ALL {
            let mut req = BoardRequest::new(&pos);
            req.theme = theme;
            req.pieces = pieces;
            req.last_move = moves.last().copied();
            let bytes = renderer.png(&req).expect("a PNG");
            assert!(
                bytes.len() < 60 * 1024,
                "{theme} {pieces:?}: {} bytes",
                bytes.len()
            );
        }
    }
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/render_golden.png")
}

#[test]
fn golden_image_matches() {
    let renderer = Renderer::new();
    let (pos, moves) = after(&["h2e2", "h9g7", "h0g2", "g6g5", "e2e6", "a9a8"]);
    let mut req = BoardRequest::new(&pos);
    req.last_move = moves.last().copied();
    req.red = Player {
        name: "Lý Thường Kiệt".into(),
        clock: Some("4:58".into()),
    };
    req.black = Player {
        name: "Wang Tianyi".into(),
        clock: Some("5:00".into()),
    };
    let bytes = renderer.png(&req).expect("a PNG");
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &bytes).expect("write the golden image");
        return;
    }
    let golden = decode_png(
        &std::fs::read(&path).expect("tests/data/render_golden.png (UPDATE_GOLDEN=1 makes it)"),
    );
    let img = decode_png(&bytes);
    assert_eq!((img.w, img.h), (golden.w, golden.h));
    // Tolerate anti-aliasing noise (a font rasteriser update), not a changed picture.
    let (tolerance, budget) = (40u8, (img.w * img.h / 2000) as usize);
    let differing = img
        .rgb
        .chunks_exact(3)
        .zip(golden.rgb.chunks_exact(3))
        .filter(|(a, b)| {
            a.iter()
                .zip(b.iter())
                .any(|(p, q)| p.abs_diff(*q) > tolerance)
        })
        .count();
    assert!(
        differing <= budget,
        "{differing} pixels differ from the golden image (budget {budget}); if the change is \
         intended, run UPDATE_GOLDEN=1 cargo test --test render and look at the new image"
    );
}

#[test]
fn text_versions_list_the_pieces() {
    let (pos, moves) = after(&["h2e2"]);
    let grid = text_board(&pos, moves.last().copied(), Color::Red);
    assert!(grid.contains("2 ＋炮＋＋炮＋＋〇＋"), "{grid}");
    assert!(grid.ends_with("→ h2e2\n"));
    let en = describe(&pos, Lang::En);
    assert!(en.starts_with("Black to move."));
    assert!(en.contains("Cannons b2, e2"), "{en}");
    let mate = Position::from_fen("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1").expect("FEN");
    assert!(
        describe(&mate, Lang::En).contains("Black is checkmated."),
        "{}",
        describe(&mate, Lang::En)
    );
}

fn args(moves: &[&str], gif: bool, output: PathBuf) -> RenderArgs {
    RenderArgs {
        fen: None,
        moves: moves.iter().map(|s| s.to_string()).collect(),
        flip: true,
        theme: Theme::HighContrast,
        pieces: PieceStyle::Simplified,
        coords: Coordinates::Traditional,
        red_name: "Red".into(),
        black_name: "Black".into(),
        red_clock: None,
        black_clock: None,
        arrows: Vec::new(),
        gif,
        output,
    }
}

#[test]
fn command_line_writes_png_and_gif_and_names_the_bad_ply() {
    let dir = std::env::temp_dir().join(format!("xq-render-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png_path = dir.join("b.png");
    assert_eq!(
        run(args(&["h2e2 h9g7", "h0g2"], false, png_path.clone())),
        0
    );
    let img = decode_png(&std::fs::read(&png_path).expect("written"));
    assert_eq!(img.w, Layout::PNG.width());
    let gif_path = dir.join("b.gif");
    assert_eq!(run(args(&["h2e2", "h9g7"], true, gif_path.clone())), 0);
    let (frames, _) = decode_gif(&std::fs::read(&gif_path).expect("written"));
    assert_eq!(frames, 3);
    assert_eq!(run(args(&["h2e2", "h2e2"], false, dir.join("x.png"))), 2);
    assert_eq!(run(args(&["h2e2", "zz"], false, dir.join("x.png"))), 2);
    assert!(!dir.join("x.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Colours equal within the palette's rounding (a blend is matched to the nearest of ~250
/// colours).
fn close(a: Rgb, b: Rgb) -> bool {
    a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 12)
}

/// The pixel `along` pixels from `from` towards `to` and `across` to the side of that line.
fn on_arrow(from: (u32, u32), to: (u32, u32), along: f32, across: f32) -> (u32, u32) {
    let (fx, fy) = (from.0 as f32, from.1 as f32);
    let (dx, dy) = (to.0 as f32 - fx, to.1 as f32 - fy);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let x = fx + ux * along - uy * across;
    let y = fy + uy * along + ux * across;
    (x.floor() as u32, y.floor() as u32)
}

/// The pixel `along` pixels from the first point of the ICCS move `m` towards its second, and
/// `across` to the side, on a PNG board seen by `viewer`.
fn on_move(img: &Image, m: &str, viewer: Color, along: f32, across: f32) -> Rgb {
    let (from, to) = (
        Layout::PNG.point(sq(&m[..2]), viewer),
        Layout::PNG.point(sq(&m[2..]), viewer),
    );
    let p = on_arrow(from, to, along, across);
    img.at(p.0, p.1)
}

fn arrow(m: &str, style: ArrowStyle) -> Arrow {
    Arrow::of_move(Move::parse_iccs(m).expect("ICCS"), style)
}

#[test]
fn arrows_are_drawn_over_pieces_in_both_orientations_and_themes() {
    let renderer = Renderer::new();
    let pos = Position::startpos();
    for theme in Theme::ALL {
        let c = theme.colors();
        for viewer in Color::ALL {
            let mut req = BoardRequest::new(&pos);
            req.viewer = viewer;
            req.theme = theme;
            req.arrows = vec![
                arrow("h2e2", ArrowStyle::Hint),
                arrow("b0c2", ArrowStyle::Best),
                arrow("i3i5", ArrowStyle::Mistake),
            ];
            let img = decode_png(&renderer.png(&req).expect("a PNG"));
            let layout = Layout::PNG;
            let at = |p: (u32, u32)| img.at(p.0, p.1);
            let why = format!("{theme} {viewer:?}");

            // The cannon's arrow h2 -> e2: along its shaft over the empty board (off the rank
            // line), over the cannon's own face, and in its head just short of e2.
            let (h2, e2) = (
                layout.point(sq("h2"), viewer),
                layout.point(sq("e2"), viewer),
            );
            let hint = |under: Rgb| c.arrow_over(ArrowStyle::Hint, under);
            for along in [60.0, 100.0, 140.0, 180.0] {
                let p = on_arrow(h2, e2, along, 4.0);
                assert!(
                    close(at(p), hint(c.board)),
                    "{why}: shaft at {along}: {:?}",
                    at(p)
                );
                // Beside the shaft: the board, untouched.
                let beside = on_arrow(h2, e2, along, 12.0);
                assert_eq!(at(beside), c.board, "{why}: beside the shaft at {along}");
            }
            let p = on_arrow(h2, e2, 30.0, 3.0);
            assert!(
                close(at(p), hint(c.red_face)),
                "{why}: over the cannon: {:?}",
                at(p)
            );
            // The head: 30 pixels long, 42 wide at its base, its tip 4 pixels short of e2.
            let tip = 228.0 - 4.0;
            for across in [-12.0, -6.0, 6.0, 12.0] {
                let p = on_arrow(h2, e2, tip - 24.0, across);
                assert!(
                    close(at(p), hint(c.board)),
                    "{why}: head at {across}: {:?}",
                    at(p)
                );
            }
            let wide = on_arrow(h2, e2, tip - 27.0, 15.0);
            assert!(close(at(wide), hint(c.board)), "{why}: head's wing");
            let past = on_arrow(h2, e2, tip + 3.0, 5.0);
            assert!(!close(at(past), hint(c.board)), "{why}: past the tip");

            // The horse's arrow b0 -> c2 is green, partly over the horse.
            let (b0, c2) = (
                layout.point(sq("b0"), viewer),
                layout.point(sq("c2"), viewer),
            );
            let p = on_arrow(b0, c2, 100.0, 3.0);
            let best = c.arrow_over(ArrowStyle::Best, c.board);
            assert!(close(at(p), best), "{why}: the horse's arrow: {:?}", at(p));

            // The soldier's arrow i3 -> i5 crosses the river: a mistake's colour.
            let (i3, i5) = (
                layout.point(sq("i3"), viewer),
                layout.point(sq("i5"), viewer),
            );
            let p = on_arrow(i3, i5, 76.0, 4.0);
            let mistake = c.arrow_over(ArrowStyle::Mistake, c.board);
            assert!(
                close(at(p), mistake),
                "{why}: the soldier's arrow: {:?}",
                at(p)
            );

            // The three styles look different.
            assert!(
                !close(hint(c.board), best)
                    && !close(best, mistake)
                    && !close(mistake, hint(c.board))
            );
        }
    }
}

#[test]
fn arrows_change_only_the_strips_they_cross() {
    let cached = Renderer::new();
    let uncached = Renderer::with_cache_bytes(0);
    let pos = Position::startpos();
    let plain = BoardRequest::new(&pos);
    let mut with_arrow = BoardRequest::new(&pos);
    // The cannon h2 up to h6: from the strip of rank 2 to the strip of rank 6, five in all.
    with_arrow.arrows = vec![arrow("h2h6", ArrowStyle::Hint)];

    let before = cached.png(&plain).expect("a PNG");
    let s0 = cached.cache_stats();
    let drawn = cached.png(&with_arrow).expect("a PNG");
    let s1 = cached.cache_stats();
    assert_eq!(
        (s1.hits - s0.hits, s1.misses - s0.misses),
        (7, 5),
        "{s0:?} {s1:?}"
    );
    // The same bytes as a picture deflated whole, and the arrow is there.
    assert_eq!(drawn, uncached.png(&with_arrow).expect("a PNG"));
    let (a, b) = (decode_png(&before), decode_png(&drawn));
    let rows_changed: Vec<u32> = (0..a.h)
        .filter(|&y| (0..a.w).any(|x| a.at(x, y) != b.at(x, y)))
        .collect();
    let (h2, h6) = (
        Layout::PNG.point(sq("h2"), Color::Red),
        Layout::PNG.point(sq("h6"), Color::Red),
    );
    let (first, last) = (rows_changed[0], rows_changed[rows_changed.len() - 1]);
    assert!(first >= h6.1 && first < h6.1 + 6, "{first} vs {h6:?}");
    assert!(last < h2.1 - 20 && last > h2.1 - 40, "{last} vs {h2:?}");

    // Both pictures again: every strip from the cache, the same bytes.
    assert_eq!(cached.png(&plain).expect("a PNG"), before);
    assert_eq!(cached.png(&with_arrow).expect("a PNG"), drawn);
    let s2 = cached.cache_stats();
    assert_eq!((s2.hits - s1.hits, s2.misses - s1.misses), (24, 0));
}

#[test]
fn arrows_from_a_point_to_itself_or_past_the_limit_are_left_out() {
    let renderer = Renderer::new();
    let pos = Position::startpos();
    let plain = renderer.png(&BoardRequest::new(&pos)).expect("a PNG");
    let mut req = BoardRequest::new(&pos);
    req.arrows = vec![Arrow {
        from: sq("e0"),
        to: sq("e0"),
        style: ArrowStyle::Hint,
    }];
    assert_eq!(renderer.png(&req).expect("a PNG"), plain);
    // Nine arrows: the ninth (on the a-file) is not drawn.
    let mut req = BoardRequest::new(&pos);
    req.arrows = [
        "b0b1", "c0c1", "d0d1", "e0e1", "f0f1", "g0g1", "h0h1", "i0i1", "a0a1",
    ]
    .iter()
    .map(|m| arrow(m, ArrowStyle::Best))
    .collect();
    let img = decode_png(&renderer.png(&req).expect("a PNG"));
    let c = Theme::Wood.colors();
    // In the heads (50 of 76 pixels along, 8 to the side): the eighth arrow, not the ninth.
    let eighth = on_move(&img, "i0i1", Color::Red, 50.0, 8.0);
    assert!(close(eighth, c.arrow_over(ArrowStyle::Best, c.board)));
    assert_eq!(on_move(&img, "a0a1", Color::Red, 50.0, 8.0), c.board);
}

#[test]
fn command_line_draws_arrows_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("xq-render-arrows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let with = |arrows: &[&str], gif: bool, name: &str| {
        let mut a = args(&["h2e2"], gif, dir.join(name));
        a.flip = false;
        a.theme = Theme::Wood;
        a.arrows = arrows.iter().map(|s| s.to_string()).collect();
        a
    };
    assert_eq!(run(with(&["h9g7", "b9c7:mistake"], false, "a.png")), 0);
    let img = decode_png(&std::fs::read(dir.join("a.png")).expect("written"));
    let c = Theme::Wood.colors();
    for (m, style) in [("h9g7", ArrowStyle::Hint), ("b9c7", ArrowStyle::Mistake)] {
        let got = on_move(&img, m, Color::Red, 100.0, 3.0);
        assert!(close(got, c.arrow_over(style, c.board)), "{m}: {got:?}");
    }
    for bad in [
        &["h2h2"][..],
        &["h2e2:nice"],
        &["zz"],
        &["h2e"],
        &["h2e2é"],
        &["a0a1"; 9],
    ] {
        assert_eq!(run(with(bad, false, "x.png")), 2, "{bad:?}");
    }
    assert_eq!(run(with(&["h2e2"], true, "x.gif")), 2);
    assert!(!dir.join("x.png").exists() && !dir.join("x.gif").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
