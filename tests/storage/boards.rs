//! Ratings on PostgreSQL read exactly as on sled: the same rated games written to both give
//! the same profiles, records, histories, leaderboard pages and ranks, at several dates.
//! (sled's pages and ranks are checked against a board built by hand in tests/ratings.)

use std::sync::Arc;

use xiangqi_bot::game::{Changes, PlayerRef, Storage};
use xiangqi_bot::rating::Family;

use super::rated::{league, rated, store};

const SCOPE: &str = "dc:g:7";
/// More players than PostgreSQL reads in one page of a leaderboard walk.
const PLAYERS: usize = 80;
const DAY: u64 = 86_400_000;
const START: u64 = 1_700_000_000_000;

/// Rounds of rated games; players stop at different rounds, so that their deviations and last
/// games differ and some fall off the board before others.
async fn play(storage: &Arc<dyn Storage>) {
    let games = league(PLAYERS, |i| 7 + i % 5, START, SCOPE);
    store(storage.as_ref(), &games, 100).await;
}

/// Everything the ratings reads say at `now` about the board of `scope` and players `dc:0`
/// to `dc:{players - 1}`, as text to compare.
pub fn read_all(s: &dyn Storage, scope: &str, players: usize, now: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut board = Vec::new();
    s.leaderboard(scope, Family::Rapid, now, 1, &mut |rank, e| {
        board.push(format!("{rank} {} {:.4}", e.player, e.glicko.rating));
        true
    })
    .expect("board");
    out.push(format!("{} listed", board.len()));
    out.extend(board);
    for first in [2, 9, 40, 75, 200] {
        let mut page = Vec::new();
        s.leaderboard(scope, Family::Rapid, now, first, &mut |rank, e| {
            page.push(format!("{rank} {}", e.player));
            page.len() < 12
        })
        .expect("page");
        out.push(format!("from {first}: {page:?}"));
    }
    for i in 0..players {
        let id = format!("dc:{i}");
        let profile = s.profile(&id).expect("profile");
        out.push(format!("{profile:?}"));
        if let Some(fr) = profile.and_then(|p| p.ratings.get(&Family::Rapid).cloned()) {
            let rank = s.rank(scope, Family::Rapid, &id, fr.glicko.rating, now);
            out.push(format!("rank {id}: {:?}", rank.expect("rank")));
        }
        out.push(format!(
            "{:?}",
            s.rating_history(&id, Family::Rapid, 5).expect("history")
        ));
        let other = format!("dc:{}", (i + 12) % players);
        out.push(format!("{:?}", s.pair(&id, &other).expect("pair")));
    }
    for game in [1, 77, 400, 10_000] {
        out.push(format!("{:?}", s.game_end(game).expect("end")));
    }
    out.push(format!("{:?}", s.last_family(scope).expect("family")));
    out
}

#[tokio::test]
async fn leaderboards_ranks_and_records_equal_sleds_for_the_same_games() {
    let places = super::places("boards");
    let mut reads: Vec<(&str, Vec<Vec<String>>)> = Vec::new();
    for place in &places {
        let s = place.open();
        play(&s).await;
        // Written again (a retried write): the rating updates are not applied twice.
        play(&s).await;
        let dates = [
            START + 10 * DAY,
            START + 25 * DAY,
            START + 39 * DAY,
            START + 60 * DAY,
        ];
        reads.push((
            place.name(),
            dates
                .iter()
                .map(|&now| read_all(s.as_ref(), SCOPE, PLAYERS, now))
                .collect(),
        ));
    }
    let (sled, want) = &reads[0];
    assert!(want[0].len() > 100, "a board with players to compare");
    for (name, got) in &reads[1..] {
        for (date, (w, g)) in want.iter().zip(got).enumerate() {
            for (line, (a, b)) in w.iter().zip(g).enumerate() {
                assert_eq!(a, b, "{sled} and {name} differ at date {date}, line {line}");
            }
            assert_eq!(w.len(), g.len(), "{name} at date {date}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_ends_written_at_once_each_count_once() {
    for place in super::places("concurrent_ends") {
        let s = place.open();
        let who = |i: usize| PlayerRef::new(format!("dc:{i}"), &format!("p{i}"));
        // Player 1 against 24 others, the 24 ends written at once (each twice): every update
        // of player 1's profile counts.
        let writes = (0..48u64).map(|n| {
            let s = Arc::clone(&s);
            let k = n % 24;
            let players = (who(1), who(2 + k as usize));
            let game = rated(1 + k, players, "draw", "agreement", START + k, SCOPE);
            tokio::spawn(async move {
                s.persist(Changes {
                    games: vec![game],
                    ..Changes::default()
                })
                .await
            })
        });
        for w in writes.collect::<Vec<_>>() {
            w.await.expect("task").expect("persist");
        }
        let games = |player: &str| {
            s.profile(player)
                .expect("profile")
                .and_then(|p| p.ratings.get(&Family::Rapid).map(|r| r.games))
        };
        assert_eq!(games("dc:1"), Some(24), "{}", place.name());
        assert_eq!(games("dc:25"), Some(1), "{}", place.name());
    }
}
