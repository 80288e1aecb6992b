//! The rules of [`apply()`] on an in-memory key space run exactly as the storage runs it.

use std::collections::BTreeMap;

use super::*;

const HOUR: u64 = 3_600_000;

#[derive(Default)]
struct Store(BTreeMap<Vec<u8>, Vec<u8>>);

impl Store {
    fn get<T: serde::de::DeserializeOwned>(&self, k: &[u8]) -> Option<T> {
        self.0.get(k).map(|v| decode(v).expect("decode"))
    }

    /// As the storage does: skip a game already applied, read, apply, write.
    fn run(&mut self, e: &Ending) -> GameEnd {
        if let Some(end) = self.get::<GameEnd>(&keys::end(e.game)) {
            return end;
        }
        let before = Before {
            red: self.get(&keys::profile(&e.red.id)),
            black: self.get(&keys::profile(&e.black.id)),
            pair: self.get(&keys::pair(&e.red.id, &e.black.id)),
        };
        let out = apply(e, before);
        for w in out.writes {
            match w {
                Write::Put(k, v) => {
                    self.0.insert(k, v);
                }
                Write::Remove(k) => {
                    self.0.remove(&k);
                }
            }
        }
        out.end
    }

    /// Give `ids` settled ratings (deviation 60, 1500) in `families`, as after many games.
    fn settle(&mut self, ids: &[&str], families: &[Family]) {
        for id in ids {
            let mut p = Profile::default();
            for f in families {
                p.ratings.insert(
                    *f,
                    FamilyRating {
                        glicko: Glicko {
                            deviation: 60.0,
                            ..Glicko::default()
                        },
                        games: 30,
                        ..FamilyRating::default()
                    },
                );
            }
            self.0
                .insert(keys::profile(id), serde_json::to_vec(&p).expect("encode"));
        }
    }

    fn profile(&self, id: &str) -> Profile {
        self.get(&keys::profile(id)).expect("profile")
    }

    fn board(&self, scope: &str, family: Family) -> Vec<(String, i64)> {
        let p = keys::board_prefix(scope, family);
        self.0
            .range(p.clone()..)
            .take_while(|(k, _)| k.starts_with(&p))
            .map(|(k, v)| {
                let who = keys::board_player(k, p.len()).expect("player");
                let e = Entry::decode(who.clone(), v).expect("entry");
                (who, e.glicko.shown())
            })
            .collect()
    }
}

fn ending(game: u64, red: &str, black: &str, red_score: Score, at_ms: u64) -> Ending {
    Ending {
        game,
        red: Side {
            id: red.into(),
            name: red.trim_start_matches("dc:").into(),
        },
        black: Side {
            id: black.into(),
            name: black.trim_start_matches("dc:").into(),
        },
        red_score: Some(red_score),
        reason: "checkmate".into(),
        plies: 40,
        ended_ms: at_ms,
        rated: true,
        pace: Some(Pace::Live {
            estimated_secs: 800,
        }),
        ruleset: "official".into(),
        set_up: false,
        community: Some("dc:g:1".into()),
    }
}

fn rated(end: &GameEnd) -> Option<(f64, Change, Change)> {
    match end.outcome {
        RatedOutcome::Rated {
            weight, red, black, ..
        } => Some((weight, red, black)),
        _ => None,
    }
}

#[test]
fn a_rated_game_moves_both_ratings_stats_history_and_boards() {
    let mut s = Store::default();
    let end = s.run(&ending(1, "dc:a", "dc:b", Score::Win, 1000));
    let (w, red, black) = rated(&end).expect("rated");
    assert_eq!(w, 1.0);
    assert_eq!(red.before, Glicko::default());
    assert!(
        red.delta() > 0 && red.delta() == -black.delta(),
        "{red:?} {black:?}"
    );
    let a = s.profile("dc:a");
    assert_eq!(a.ratings[&Family::Rapid].games, 1);
    assert_eq!(a.ratings[&Family::Rapid].communities, vec!["dc:g:1"]);
    assert_eq!(a.stats.rated.wins, 1);
    assert_eq!(s.profile("dc:b").stats.as_black.losses, 1);
    // Provisional ratings stay off the boards (they could not be listed).
    assert!(s.board("dc", Family::Rapid).is_empty());
    let end2 = s.run(&ending(2, "dc:b", "dc:a", Score::Win, 2000));
    let (_, _, a2) = rated(&end2).expect("rated");
    assert_eq!(a2.before.rating, red.after.rating);
    let hist: Vec<_> =
        s.0.keys()
            .filter(|k| k.starts_with(&keys::history_prefix("dc:a", Family::Rapid)))
            .collect();
    assert_eq!(hist.len(), 2);
    // Settled players: on the platform's and the server's boards, highest first.
    s.settle(&["dc:c", "dc:d"], &[Family::Rapid]);
    let end = s.run(&ending(3, "dc:c", "dc:d", Score::Win, 3000));
    let (_, c, _) = rated(&end).expect("rated");
    for scope in ["dc", "dc:g:1"] {
        let b = s.board(scope, Family::Rapid);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].0, "dc:c");
        assert_eq!(b[0].1, c.after.shown());
    }
    // A second game moves the entries (no stale copy left behind).
    let end = s.run(&ending(4, "dc:d", "dc:c", Score::Win, 4000));
    let (_, d, _) = rated(&end).expect("rated");
    let b = s.board("dc:g:1", Family::Rapid);
    assert_eq!(b.len(), 2);
    assert!(b.iter().any(|(p, r)| p == "dc:d" && *r == d.after.shown()));
}

#[test]
fn the_same_game_is_never_counted_twice() {
    let mut s = Store::default();
    let e = ending(7, "dc:a", "dc:b", Score::Draw, 1000);
    let first = s.run(&e);
    let snapshot = s.0.clone();
    let again = s.run(&e);
    assert_eq!(first, again);
    assert_eq!(s.0, snapshot);
}

#[test]
fn what_is_never_rated() {
    let mut s = Store::default();
    let why = |s: &mut Store, e: Ending| match s.run(&e).outcome {
        RatedOutcome::NotRated { why } => Some(why),
        _ => None,
    };
    let mut e = ending(1, "dc:a", "dc:b", Score::Win, 1000);
    e.plies = 3;
    assert_eq!(why(&mut s, e), Some(NotRated::TooFewMoves));
    let mut e = ending(2, "dc:a", "dc:b", Score::Win, 1000);
    e.red_score = None;
    assert_eq!(why(&mut s, e), Some(NotRated::Aborted));
    let mut e = ending(3, "dc:a", "dc:b", Score::Win, 1000);
    e.ruleset = "casual".into();
    assert_eq!(why(&mut s, e), Some(NotRated::CasualRules));
    let mut e = ending(4, "dc:a", "dc:b", Score::Win, 1000);
    e.pace = None;
    assert_eq!(why(&mut s, e), Some(NotRated::NoClock));
    let mut e = ending(5, "dc:a", "dc:b", Score::Win, 1000);
    e.set_up = true;
    assert_eq!(why(&mut s, e), Some(NotRated::SetUp));
    let e = ending(6, "dc:a", "bot:engine", Score::Win, 1000);
    assert_eq!(why(&mut s, e), Some(NotRated::Bot));
    let mut e = ending(8, "dc:a", "dc:b", Score::Win, 1000);
    e.rated = false;
    assert_eq!(s.run(&e).outcome, RatedOutcome::Casual);
    // None of them touched a rating; the finished ones count in the statistics.
    let a = s.profile("dc:a");
    assert!(a.ratings.is_empty());
    assert_eq!(a.stats.all.games(), 6, "every finished game, rated or not");
    assert!(s.board("dc", Family::Rapid).is_empty());
}

#[test]
fn repeated_games_within_a_day_count_less_then_not_at_all() {
    let mut s = Store::default();
    let mut weights = Vec::new();
    for i in 0..7u64 {
        let end = s.run(&ending(i + 1, "dc:a", "dc:b", Score::Win, 1000 + i * HOUR));
        weights.push(rated(&end).map_or(0.0, |(w, _, _)| w));
        if i == 5 {
            assert_eq!(
                end.outcome,
                RatedOutcome::NotRated {
                    why: NotRated::Farming
                }
            );
        }
    }
    assert_eq!(weights, [1.0, 1.0, 1.0, 0.5, 0.25, 0.0, 0.0]);
    assert_eq!(s.profile("dc:a").ratings[&Family::Rapid].games, 5);
    assert_eq!(s.profile("dc:a").stats.all.wins, 7);
    // Another opponent is not affected; a day after the first games, they count again.
    let other = s.run(&ending(20, "dc:a", "dc:c", Score::Win, 1000 + 7 * HOUR));
    assert_eq!(rated(&other).map(|r| r.0), Some(1.0));
    let later = s.run(&ending(21, "dc:a", "dc:b", Score::Win, 1000 + 30 * HOUR));
    assert_eq!(rated(&later).map(|r| r.0), Some(1.0));
}

#[test]
fn scopes_families_and_platforms_are_separate() {
    let mut s = Store::default();
    s.settle(
        &["dc:a", "dc:b", "dc:c", "tg:1", "tg:2"],
        &[Family::Rapid, Family::Blitz],
    );
    s.run(&ending(1, "dc:a", "dc:b", Score::Win, 1000));
    let mut other_server = ending(2, "dc:a", "dc:c", Score::Win, 2000);
    other_server.community = Some("dc:g:2".into());
    s.run(&other_server);
    let mut blitz = ending(3, "dc:a", "dc:b", Score::Win, 3000);
    blitz.pace = Some(Pace::Live {
        estimated_secs: 300,
    });
    s.run(&blitz);
    let mut tg = ending(4, "tg:1", "tg:2", Score::Win, 4000);
    tg.community = Some("tg:-100".into());
    s.run(&tg);
    let names = |v: Vec<(String, i64)>| v.into_iter().map(|(p, _)| p).collect::<Vec<_>>();
    assert_eq!(names(s.board("dc:g:1", Family::Rapid)), ["dc:a", "dc:b"]);
    assert_eq!(names(s.board("dc:g:2", Family::Rapid)), ["dc:a", "dc:c"]);
    assert_eq!(s.board("dc", Family::Rapid).len(), 3);
    assert_eq!(names(s.board("dc:g:1", Family::Blitz)), ["dc:a", "dc:b"]);
    assert!(s.board("dc:g:2", Family::Blitz).is_empty());
    assert_eq!(names(s.board("tg", Family::Rapid)), ["tg:1", "tg:2"]);
    let a = s.profile("dc:a");
    // 30 settled games before, then two rapid and one blitz.
    assert_eq!(a.ratings[&Family::Rapid].games, 32);
    assert_eq!(a.ratings[&Family::Blitz].games, 31);
    // The server remembers its last rated family.
    assert_eq!(
        s.0.get(&keys::community("dc:g:1")).map(|v| v[0]),
        Some(Family::Blitz.index())
    );
}

#[test]
fn head_to_head_is_kept_from_either_side() {
    let mut s = Store::default();
    s.run(&ending(1, "dc:b", "dc:a", Score::Win, 1000));
    s.run(&ending(2, "dc:a", "dc:b", Score::Draw, 2000));
    let p: PairRecord = s.get(&keys::pair("dc:a", "dc:b")).expect("pair");
    assert_eq!(
        p.results_of("dc:a"),
        Wdl {
            wins: 0,
            draws: 1,
            losses: 1
        }
    );
    assert_eq!(
        p.results_of("dc:b"),
        Wdl {
            wins: 1,
            draws: 1,
            losses: 0
        }
    );
    assert_eq!(p.a_as_red.games(), 1);
    // dc:a played Red once (the draw); dc:b played Red once (the win).
    assert_eq!(
        p.as_red_of("dc:a"),
        Wdl {
            wins: 0,
            draws: 1,
            losses: 0
        }
    );
    assert_eq!(
        p.as_red_of("dc:b"),
        Wdl {
            wins: 1,
            draws: 0,
            losses: 0
        }
    );
}
