//! Board renderer: PNG render + encode for the start and a mid-game position with the strip cache
//! off (every picture deflated whole: the cold cost), a whole game rendered ply by ply as a
//! player sees it (a fresh renderer per game, so only strips of that game's earlier boards are
//! cached), a 100-ply GIF, and the first picture of a renderer (its templates and sprites drawn
//! first). Sizes are printed once before timing. Run with
//! `cargo bench --bench render`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
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

/// Every board of `moves` as the service sends them: the side to move at the bottom, the last
/// move marked, names, and clocks that tick.
fn play_through(renderer: &Renderer, moves: &[Move]) -> usize {
    let mut pos = Position::startpos();
    let mut bytes = 0;
    for (i, &m) in moves.iter().enumerate() {
        pos.play_unchecked(m);
        let mut req = request(&pos, Some(m));
        req.viewer = pos.turn();
        let secs = 600 - 3 * i;
        req.red.clock = Some(format!("{}:{:02}", secs / 60, secs % 60));
        req.black.clock = Some(format!("{}:{:02}", (secs - 1) / 60, (secs - 1) % 60));
        bytes += renderer.png(&req).map_or(0, |p| p.len());
    }
    bytes
}

fn bench(c: &mut Criterion) {
    // The cold cost: no strip cache, so every picture is deflated whole.
    let renderer = Renderer::with_cache_bytes(0);
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
    let in_play = Renderer::new();
    let bytes = play_through(&in_play, &game);
    let stats = in_play.cache_stats();
    eprintln!(
        "a {}-ply game ply by ply: {} B a board on average; strips {} cached, {} deflated ({:.0}% hits)",
        game.len(),
        bytes / game.len().max(1),
        stats.hits,
        stats.misses,
        100.0 * stats.hits as f64 / (stats.hits + stats.misses).max(1) as f64
    );
    // The first picture of a theme and piece style: the board template, labels, marks and the
    // fourteen discs are drawn before it (once per renderer, not per move).
    let mut first = c.benchmark_group("first picture");
    first.sample_size(10);
    first.bench_function("png start, templates and sprites drawn first", |b| {
        b.iter_batched(
            || Renderer::with_cache_bytes(0),
            |r| r.png(&request(&start, None)),
            BatchSize::PerIteration,
        )
    });
    first.bench_function("warm_up: every theme and piece style", |b| {
        b.iter_batched(
            || Renderer::with_cache_bytes(0),
            |r| r.warm_up(),
            BatchSize::PerIteration,
        )
    });
    first.finish();
    c.bench_function("png start (no cache)", |b| {
        b.iter(|| renderer.png(&request(&start, None)))
    });
    c.bench_function("png mid-game (no cache)", |b| {
        b.iter(|| renderer.png(&request(&mid, mid_moves.last().copied())))
    });
    let mut per_game = c.benchmark_group("png in play");
    per_game.sample_size(20);
    per_game.throughput(criterion::Throughput::Elements(game.len() as u64));
    per_game.bench_function("100 boards of one game, fresh cache", |b| {
        b.iter_batched(
            || {
                let r = Renderer::new();
                r.warm_up();
                r
            },
            |r| play_through(&r, &game),
            BatchSize::PerIteration,
        )
    });
    per_game.finish();
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

/// A review's evaluation graph as `/review` draws it: 101 positions, a dozen marks, at the
/// scale that reads on a phone (1080×540).
fn graph(c: &mut Criterion) {
    use xiangqi_bot::render::chart::{line_chart, Chart, Mark, MarkKind};
    let chart = Chart {
        title: "Advantage (above the line: Red is better)".into(),
        points: (0..=100)
            .map(|i| {
                let x = f64::from(i);
                (x, 60.0 * (x / 9.0).sin() * (x / 100.0))
            })
            .collect(),
        marks: (0..12)
            .map(|k| Mark {
                index: 7 * k + 3,
                kind: if k % 3 == 0 {
                    MarkKind::Neutral
                } else {
                    MarkKind::Bad
                },
            })
            .collect(),
        baseline: Some(0.0),
        y_range: Some((-100.0, 100.0)),
        x_labels: (0..=100)
            .step_by(20)
            .map(|p| (f64::from(p), (p / 2 + 1).to_string()))
            .collect(),
        scale: 1.5,
        ..Chart::default()
    };
    let png = line_chart(&chart).expect("drawn");
    eprintln!("review graph: {} bytes", png.len());
    c.bench_function("review graph 100 plies (1080x540)", |b| {
        b.iter(|| line_chart(&chart))
    });
}

criterion_group!(benches, bench, graph);
criterion_main!(benches);
