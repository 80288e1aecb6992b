//! Which games are rated, the agreement, anti-farming, and exactly-once updates.

use std::sync::atomic::Ordering;

use xiangqi_bot::app::Action;
use xiangqi_bot::game::Changes;
use xiangqi_bot::rating::{Family, RatedOutcome};

use super::*;

#[tokio::test]
async fn a_rated_game_changes_both_ratings_and_the_result_says_by_how_much() {
    let f = Fixture::new(false);
    let c = ask(&f, "alice", "/play @bob red 10+5 rated").await;
    assert!(c.contains("Rated game (Rapid)"), "{c}");
    let r = ask(&f, "bob", "/accept").await;
    assert!(r.contains("Rated game (Rapid)"), "{r}");
    for (i, m) in OPENING.iter().enumerate() {
        ask(&f, if i % 2 == 0 { "alice" } else { "bob" }, m).await;
    }
    let out = ask(&f, "alice", "/resign").await;
    assert!(out.contains("Ratings (Rapid): alice 1500? → "), "{out}");
    let (a, b) = (change_of(&out, "alice"), change_of(&out, "bob"));
    assert!(a.is_some_and(|d| d < 0) && a.map(|d| -d) == b, "{out}");
    let p = profile(&f, "alice");
    assert_eq!(p.ratings[&Family::Rapid].games, 1);
    assert_eq!(p.stats.rated.losses, 1);
}

#[tokio::test]
async fn a_rated_request_needs_a_clock_real_rules_and_a_normal_start() {
    let f = Fixture::new(false);
    let r = ask(&f, "alice", "/play @bob rated").await;
    assert!(
        r.contains("cannot be rated: a rated game needs a clock"),
        "{r}"
    );
    let r = ask(&f, "alice", "/play @bob 10+5 casual rated").await;
    assert!(r.contains("the casual rules refuse fouls"), "{r}");
    let r = ask(
        &f,
        "alice",
        "/play @bob 10+5 rated 3k5/9/9/9/9/9/9/9/4R4/4K4 w",
    )
    .await;
    assert!(r.contains("set-up position are never rated"), "{r}");
    // Nothing was created: the channel is free for a good request.
    let r = ask(&f, "alice", "/play @bob 3+2 rated").await;
    assert!(r.contains("Rated game (Blitz)"), "{r}");
}

#[tokio::test]
async fn accepting_is_the_agreement_and_only_the_challenger_switches() {
    let f = Fixture::new(false);
    let replies = say_at(&f, HERE, "alice", "/play @bob red 10+5").await;
    assert!(joined(&replies).contains("Casual game (not rated)"));
    let switch = replies[0]
        .buttons
        .iter()
        .flatten()
        .find_map(|b| match b.action {
            a @ Action::SetRated { rated: true, .. } => Some((a, b.label.clone())),
            _ => None,
        })
        .expect("a button to make it rated");
    assert_eq!(switch.1, "Make it rated");
    let old_accept = replies[0].buttons[0][0].action;
    assert!(matches!(old_accept, Action::Accept { .. }));
    // The adapter showed the casual challenge as message "m1".
    assert!(replies[0].track);
    let retired = f
        .svc
        .shown(
            &HERE.channel.into(),
            &"console:alice".into(),
            old_accept,
            "m1".into(),
        )
        .await;
    assert!(retired.is_empty());
    let r = joined(&press(&f, HERE, "bob", switch.0).await);
    assert!(r.contains("Only the player who made the challenge"), "{r}");
    let now_rated = press(&f, HERE, "alice", switch.0).await;
    assert!(joined(&now_rated).contains("Rated game (Rapid)"));
    assert!(now_rated[0]
        .buttons
        .iter()
        .flatten()
        .any(|b| matches!(b.action, Action::SetRated { rated: false, .. })));
    // The casual message loses its buttons: nobody accepts terms that have changed.
    assert!(
        now_rated.iter().any(|r| r.retire == ["m1"]),
        "{now_rated:?}"
    );
    // The old buttons are stale now.
    let r = joined(&press(&f, HERE, "alice", switch.0).await);
    assert!(r.contains("earlier position"), "{r}");
    let r = joined(&press(&f, HERE, "bob", old_accept).await);
    assert!(r.contains("earlier position"), "{r}");
    // Without a clock there is nothing to switch.
    ask(&f, "alice", "/cancel").await;
    let none = say_at(&f, HERE, "alice", "/play @bob").await;
    assert!(!none[0]
        .buttons
        .iter()
        .flatten()
        .any(|b| matches!(b.action, Action::SetRated { .. })));
    ask(&f, "alice", "/cancel").await;
    let out = game(&f, "alice", "bob", "10+5 rated", End::Resign("bob", 4)).await;
    assert!(out.contains("Ratings (Rapid)"), "{out}");
}

#[tokio::test]
async fn aborted_short_casual_and_bot_games_are_never_rated() {
    let f = Fixture::new(false);
    ask(&f, "alice", "/play @bob red 10+5 rated").await;
    ask(&f, "bob", "/accept").await;
    ask(&f, "alice", "h2e2").await;
    assert!(ask(&f, "alice", "/abort").await.contains("aborted"));
    let out = game(&f, "alice", "bob", "10+5 rated", End::Resign("alice", 3)).await;
    assert!(
        out.contains("Not rated: fewer than two moves were played by each side"),
        "{out}"
    );
    let out = game(&f, "alice", "bob", "10+5", End::Resign("alice", 4)).await;
    assert!(!out.contains("Rating") && !out.contains("rated"), "{out}");
    assert!(profile(&f, "alice").ratings.is_empty());
    // A game against the bot (whatever path creates it) is not rated even if flagged so.
    let mut rec = f
        .svc
        .storage()
        .game(
            f.svc
                .storage()
                .games_of(&"console:alice".into(), 1)
                .expect("games")[0],
        )
        .expect("read")
        .expect("game");
    rec.id = 9_999;
    rec.black = xiangqi_bot::game::PlayerRef::new("bot:engine", "Bot");
    rec.rated = true;
    f.svc
        .storage()
        .persist(Changes {
            games: vec![rec],
            ..Changes::default()
        })
        .await
        .expect("persist");
    let end = f.svc.storage().game_end(9_999).expect("read").expect("end");
    assert_eq!(
        end.outcome,
        RatedOutcome::NotRated {
            why: xiangqi_bot::rating::NotRated::Bot
        }
    );
}

#[tokio::test]
async fn repeated_games_between_two_players_count_less_within_a_day() {
    let f = Fixture::new(false);
    let mut notes = Vec::new();
    for _ in 0..6 {
        notes.push(game(&f, "alice", "bob", "10+5 rated", End::Resign("bob", 4)).await);
    }
    assert!(notes[2].contains("Ratings (Rapid)") && !notes[2].contains("Counted at"));
    assert!(notes[3].contains("Counted at 50%"), "{}", notes[3]);
    assert!(notes[4].contains("Counted at 25%"), "{}", notes[4]);
    assert!(
        notes[5].contains("Not rated: these two players have already played five rated games"),
        "{}",
        notes[5]
    );
    // Another pair is not affected, and a day later the pair counts fully again.
    let other = game(&f, "alice", "carol", "10+5 rated", End::Resign("carol", 4)).await;
    assert!(other.contains("Ratings (Rapid)") && !other.contains("Counted at"));
    f.advance(DAY);
    let later = game(&f, "alice", "bob", "10+5 rated", End::Resign("bob", 4)).await;
    assert!(
        later.contains("Ratings (Rapid)") && !later.contains("Counted at"),
        "{later}"
    );
    let p = profile(&f, "alice");
    assert_eq!(p.ratings[&Family::Rapid].games, 7);
    assert_eq!(p.stats.all.wins, 8);
}

/// A flag settled by the timer and by a command at the same moment, a finished game written
/// again, and a restart: the game is rated once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_way_a_game_ends_rates_it_exactly_once() {
    let f = Fixture::new(false);
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
    ask(&f, "alice", "/play @bob red 1+0 rated").await;
    ask(&f, "bob", "/accept").await;
    for (i, m) in OPENING.iter().enumerate() {
        ask(&f, if i % 2 == 0 { "alice" } else { "bob" }, m).await;
    }
    // Red's minute runs out; the timer and a move race to settle the flag.
    f.advance(2 * MINUTE);
    let now = f.now();
    let svc = Arc::clone(&f.svc);
    let timer = tokio::spawn(async move { svc.process_due(now).await });
    let by_move = ask(&f, "alice", "h2h1").await;
    let acted = timer.await.expect("join").expect("due");
    let from_timer = if acted > 0 {
        joined(&outbox.recv().await.expect("flag").replies)
    } else {
        String::new()
    };
    let both = format!("{by_move}\n{from_timer}");
    assert_eq!(both.matches("alice ran out of time").count(), 1, "{both}");
    assert_eq!(both.matches("Ratings (Bullet)").count(), 1, "{both}");
    let id = f
        .svc
        .storage()
        .games_of(&"console:alice".into(), 1)
        .expect("ids")[0];
    let game = f.svc.storage().game(id).expect("read").expect("game");
    let before = profile(&f, "bob");
    // The finished game written again (a retried write, a channel moved) changes nothing.
    f.svc
        .storage()
        .persist(Changes {
            games: vec![game.clone(), game],
            ..Changes::default()
        })
        .await
        .expect("persist");
    let after = profile(&f, "bob");
    assert_eq!(before, after);
    assert_eq!(after.ratings[&Family::Bullet].games, 1);
    assert_eq!(f.clock.load(Ordering::SeqCst), now);
}

/// A flag that fell just before the bot went down is settled after the restart, once: the
/// game is rated once, and settling again (or another restart) changes nothing.
#[tokio::test]
async fn a_flag_that_fell_before_a_crash_is_rated_once_after_the_restart() {
    let f = Fixture::new(false);
    f.svc.recover().await.expect("recover");
    ask(&f, "alice", "/play @bob red 1+0 rated").await;
    ask(&f, "bob", "/accept").await;
    for (i, m) in OPENING.iter().enumerate() {
        ask(&f, if i % 2 == 0 { "alice" } else { "bob" }, m).await;
    }
    // Red's minute runs out and the bot is still up (its heartbeat says so), but dies before
    // its timer settles the flag.
    f.advance(2 * MINUTE);
    let alive = f.now();
    f.svc
        .storage()
        .set_meta("alive_ms", alive)
        .expect("heartbeat");
    f.svc.storage().flush().await.expect("flush");
    let f = f.restart(HOUR).await;
    let mut outbox = f.svc.subscribe(xiangqi_bot::platform::Platform::Console);
    assert_eq!(f.svc.process_due(f.now()).await.expect("due"), 1);
    let out = joined(&outbox.recv().await.expect("flag").replies);
    assert!(out.contains("alice ran out of time"), "{out}");
    assert!(out.contains("Ratings (Bullet)"), "{out}");
    assert_eq!(f.svc.process_due(f.now()).await.expect("due"), 0);
    let f = f.restart(HOUR).await;
    assert_eq!(f.svc.process_due(f.now()).await.expect("due"), 0);
    let r = ask(&f, "alice", "/resign").await;
    assert!(!r.contains("Ratings"), "{r}");
    for who in ["alice", "bob"] {
        let p = profile(&f, who);
        assert_eq!(p.ratings[&Family::Bullet].games, 1, "{who}");
        assert_eq!(p.stats.all.games(), 1, "{who}");
    }
}
