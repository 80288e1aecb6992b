//! Board renderer: PNG render + encode for the start and a mid-game position, and a 100-ply GIF.
//! Sizes are printed once before timing. Run with `cargo bench --bench render`.

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_bot::core::{Color, Move, Position};
use xiangqi_bot::render::{BoardRequest, PieceStyle, Player, Renderer, Theme};

/// A reproducible game: a small LCG picks among the legal moves, preferring quiet ones so
/// material lasts like in a real game.
fn sample_game(plies: usize, mut seed: u64) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    while out.len() < plies {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut m = moves[(seed >> 33) as usize % moves.len()];
        if pos.piece_at(m.to).is_some() && !(seed >> 20).is_multiple_of(3) {
            if let Some(&quiet) = moves.iter().find(|q| pos.piece_at(q.to).is_none()) {
                m = quiet;
            }
        }
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

fn play(moves: &[Move]) -> Position {
    let mut pos = Position::startpos();
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

fn request<'a>(pos: &'a Position, last: Option<Move>) -> BoardRequest<'a> {
    let mut req = BoardRequest::new(pos);
    req.last_move = last;
    req.red = Player {
        name: "Lý Thường Kiệt".into(),
        clock: Some("9:58".into()),
    };
    req.black = Player {
        name: "Wang Tianyi".into(),
        clock: Some("10:00".into()),
    };
    req
}

fn bench(c: &mut Criterion) {
    let renderer = Renderer::new();
    renderer.warm_up();
    let start = Position::startpos();
    let mid_moves = sample_game(40, 7);
    let mid = play(&mid_moves);
    let game = sample_game(100, 11);
    let start_png = renderer.png(&request(&start, None)).unwrap_or_default();
    let mid_png = renderer
        .png(&request(&mid, mid_moves.last().copied()))
        .unwrap_or_default();
    let gif = renderer
        .gif(
            &start,
            &game,
            Color::Red,
            Theme::Wood,
            PieceStyle::Traditional,
        )
        .unwrap_or_default();
    eprintln!(
        "sizes: start PNG {} B, mid-game PNG {} B ({} pieces), GIF {} plies {} B",
        start_png.len(),
        mid_png.len(),
        mid.pieces().count(),
        game.len(),
        gif.len()
    );
    c.bench_function("png start", |b| {
        b.iter(|| renderer.png(&request(&start, None)))
    });
    c.bench_function("png mid-game", |b| {
        b.iter(|| renderer.png(&request(&mid, mid_moves.last().copied())))
    });
    let mut slow = c.benchmark_group("gif");
    slow.sample_size(10);
    slow.bench_function("gif 100 plies", |b| {
        b.iter(|| {
            renderer.gif(
                &start,
                &game,
                Color::Red,
                Theme::Wood,
                PieceStyle::Traditional,
            )
        })
    });
    slow.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
