//! `/rating`, `/top`, `/stats` and the rating graph: scopes, provisional marks, ranks.

use super::*;

const A: Table = Table {
    channel: "console:#a",
    community: Some("console:#a"),
};
const B: Table = Table {
    channel: "console:#b",
    community: Some("console:#b"),
};

/// Play rated rapid games among `players` at `t`, three a pair a day (the most that count
/// fully), the one listed first winning two of three, until every rating has settled (no
/// "?"); returns the days it took.
async fn settle(f: &Fixture, t: Table, players: [&'static str; 3]) -> usize {
    for day in 1..=12 {
        for (w, l) in [(0, 1), (0, 2), (1, 2)] {
            // The stronger wins two of three.
            for loser in [l, l, w] {
                let (red, black) = (players[w], players[l]);
                let end = End::Resign(players[loser], 4);
                game_at(f, t, red, black, "10+5 rated", end).await;
            }
        }
        let mut settled = true;
        for p in players {
            let r = ask_at(f, t, p, "/rating rapid").await;
            let shown = r.split("Rapid: ").nth(1).and_then(|s| s.split(' ').next());
            settled &= shown.is_some_and(|n| !n.ends_with('?'));
        }
        if settled {
            return day;
        }
        f.advance(DAY);
    }
    panic!("the ratings never settled");
}

#[tokio::test]
async fn provisional_ratings_are_marked_and_kept_off_the_leaderboard() {
    let f = Fixture::new(false);
    game_at(&f, A, "ann", "ben", "10+5 rated", End::Resign("ben", 4)).await;
    let r = ask_at(&f, A, "ann", "/rating").await;
    assert!(r.contains("Ratings of ann on console"), "{r}");
    assert!(r.contains("?"), "{r}");
    assert!(
        r.contains("1 game(s) · not ranked until the rating settles"),
        "{r}"
    );
    let t = ask_at(&f, A, "ann", "/top").await;
    assert!(
        t.contains("Nobody is on the Rapid leaderboard here yet"),
        "{t}"
    );
    let r = ask_at(&f, A, "cid", "/rating").await;
    assert!(r.contains("cid has no rated games yet"), "{r}");
}

#[tokio::test]
async fn leaderboards_per_group_and_platform_with_ranks_and_activity() {
    let f = Fixture::new(false);
    let days = settle(&f, A, ["ann", "ben", "cid"]).await;
    assert!(days >= 2, "settled after {days} day(s)");
    settle(&f, B, ["dan", "eve", "fay"]).await;
    let top_a = ask_at(&f, A, "ann", "/top").await;
    assert!(
        top_a.contains("Leaderboard — Rapid here (page 1):"),
        "{top_a}"
    );
    let order: Vec<&str> = top_a
        .lines()
        .skip(1)
        .filter_map(|l| l.split(' ').nth(1))
        .collect();
    assert_eq!(order, ["ann", "ben", "cid"], "{top_a}");
    let top_b = ask_at(&f, B, "ann", "/top rapid").await;
    assert!(
        top_b.contains("1. dan") && !top_b.contains("ann"),
        "{top_b}"
    );
    let global = ask_at(&f, A, "ann", "/top global").await;
    assert!(global.contains("on all of console"), "{global}");
    assert_eq!(global.lines().count(), 7, "{global}");
    assert!(ask_at(&f, A, "ann", "/top 2")
        .await
        .contains("Nobody is on"));
    assert!(ask_at(&f, A, "ann", "/top blitz")
        .await
        .contains("Nobody is on the Blitz"));
    // Ranks: here, and on the whole platform where the player never played.
    let r = ask_at(&f, A, "ben", "/rating").await;
    assert!(r.contains("· #2 here"), "{r}");
    let r = ask_at(&f, B, "ben", "/rating @ann").await;
    assert!(
        r.contains("Ratings of ann") && r.contains("on all of console"),
        "{r}"
    );
    // Thirty-one days without a rated game: off the boards, and told why.
    f.advance(31 * DAY);
    assert!(ask_at(&f, A, "ann", "/top").await.contains("Nobody is on"));
    let r = ask_at(&f, A, "ann", "/rating").await;
    assert!(
        r.contains("not ranked (no rated game in the last 30 days)"),
        "{r}"
    );
    // Words /top does not read are answered with its usage.
    let r = ask_at(&f, A, "ann", "/top fastest").await;
    assert!(
        r.contains("could not understand \"fastest\"") && r.contains("/top ["),
        "{r}"
    );
}

#[tokio::test]
async fn stats_by_colour_ending_streaks_and_head_to_head() {
    let f = Fixture::new(false);
    game(&f, "ann", "ben", "10+5", End::Resign("ben", 4)).await;
    game(&f, "ben", "ann", "10+5 rated", End::Draw).await;
    game(&f, "ann", "ben", "10+5", End::Resign("ann", 2)).await;
    game(&f, "ann", "cid", "", End::Resign("cid", 4)).await;
    let s = ask(&f, "ann", "/stats").await;
    assert!(s.contains("ann: 4 games — 2 won, 1 drawn, 1 lost"), "{s}");
    assert!(
        s.contains("As Red: 2 won, 0 drawn, 1 lost. As Black: 0 won, 1 drawn, 0 lost."),
        "{s}"
    );
    assert!(s.contains("Rated games: 1."), "{s}");
    assert!(s.contains("agreed draw 0-1-0, resignation 2-0-1"), "{s}");
    assert!(
        s.contains(
            "Streak now: 1 win(s) in a row; longest winning streak 1, longest losing streak 1."
        ),
        "{s}"
    );
    let h = ask(&f, "cid", "/stats @ann @ben").await;
    assert!(h.contains("ann vs ben: 3 game(s) — ann 1 won, 1 drawn, ben 1 won. With ann as Red: 1 won, 0 drawn, 1 lost."), "{h}");
    let h = ask(&f, "cid", "/stats @ben @ann").await;
    assert!(
        h.contains("With ben as Red: 0 won, 1 drawn, 0 lost."),
        "{h}"
    );
    assert!(ask(&f, "ann", "/stats @ben @dan")
        .await
        .contains("have not finished a game against each other"));
    assert!(ask(&f, "ann", "/stats @dan")
        .await
        .contains("dan has not finished a game yet"));
    assert!(ask(&f, "ann", "/stats soon")
        .await
        .contains("/stats [@player] [@opponent]"));
}

#[tokio::test]
async fn the_rating_graph_is_a_png_of_the_history() {
    let f = Fixture::new(true);
    for i in 0..5 {
        let end = if i % 2 == 0 {
            End::Resign("ben", 4)
        } else {
            End::Resign("ann", 4)
        };
        game(&f, "ann", "ben", "10+5 rated", end).await;
        f.advance(DAY);
    }
    let replies = say_at(&f, HERE, "ann", "/rating rapid").await;
    let r = &replies[0];
    assert!(r.text.contains("Ratings of ann"), "{}", r.text);
    let img = r.image.as_ref().expect("a graph");
    assert!(
        img.alt
            .contains("Rapid rating over the last 5 rated game(s)"),
        "{}",
        img.alt
    );
    let mut dec = png::Decoder::new(std::io::Cursor::new(img.bytes.as_slice()));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!((info.width, info.height), (720, 360));
    let px: Vec<&[u8]> = buf[..info.buffer_size()].chunks(3).collect();
    let count = |rgb: [u8; 3]| px.iter().filter(|p| **p == rgb).count();
    assert!(count([0x1F, 0x5F, 0xB0]) > 200, "the rating line is drawn");
    assert!(count([0x2E, 0x8B, 0x3E]) > 20, "wins are marked");
    assert!(count([0xC8, 0x2A, 0x22]) > 20, "losses are marked");
    // With no history there is no graph, only the words.
    let none = say_at(&f, HERE, "cid", "/rating").await;
    assert!(none[0].image.is_none());
}

#[tokio::test]
async fn help_lists_the_commands_and_results_speak_the_channels_language() {
    let f = Fixture::new(false);
    for lang in ["vi", "en", "zh"] {
        ask(&f, "ann", &format!("/lang {lang}")).await;
        let help = ask(&f, "ann", "/help").await;
        for word in ["/rating", "/top", "/stats", "[rated]"] {
            assert!(help.contains(word), "{lang}: {help}");
        }
    }
    // The channel now speaks Chinese.
    let out = game(&f, "ann", "ben", "10+5 rated", End::Resign("ben", 4)).await;
    assert!(out.contains("等级分（快棋）：ann 1500? → "), "{out}");
    let top = ask(&f, "ann", "/top").await;
    assert!(top.contains("排行榜上还没有人"), "{top}");
    ask(&f, "ann", "/lang vi").await;
    let s = ask(&f, "ann", "/stats").await;
    assert!(s.starts_with("ann: 1 ván — thắng 1, hòa 0, thua 0"), "{s}");
    let r = ask(&f, "ann", "/rating").await;
    assert!(
        r.contains("Điểm của ann trên console") && r.contains("Cờ nhanh: "),
        "{r}"
    );
}
