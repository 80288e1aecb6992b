//! A finished rated game record, written straight to storage (whose transaction applies its
//! rating update): for building large rated histories quickly in tests and benches.

use xiangqi_bot::game::{
    Changes, GameRecord, GameStatus, PlayerRef, Storage, TimeControl, SCHEMA_VERSION,
};

/// Game `id` between `red` and `black`, ended at `at_ms` with `result` (`red_wins`,
/// `black_wins`, `draw`) by `reason`, rapid (10+5), in `community`.
pub fn rated(
    id: u64,
    players: (PlayerRef, PlayerRef),
    result: &str,
    reason: &str,
    at_ms: u64,
    community: &str,
) -> GameRecord {
    let (red, black) = players;
    GameRecord {
        v: SCHEMA_VERSION,
        id,
        channel: "dc:100".into(),
        red,
        black,
        ruleset: xiangqi_bot::arbiter::RulesetName::Official,
        start_fen: None,
        moves: ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
            .map(String::from)
            .to_vec(),
        time_control: TimeControl::Fischer {
            base_ms: 600_000,
            increment_ms: 5_000,
        },
        clock: None,
        status: GameStatus::Finished {
            result: match result {
                "red_wins" => xiangqi_bot::arbiter::Outcome::RedWins,
                "black_wins" => xiangqi_bot::arbiter::Outcome::BlackWins,
                _ => xiangqi_bot::arbiter::Outcome::Draw,
            },
            reason: xiangqi_bot::game::EndReason::parse(reason).expect("a reason"),
        },
        draw_offer: None,
        takeback_request: None,
        last_refusal: None,
        takebacks: false,
        created_ms: at_ms,
        updated_ms: at_ms,
        rated: true,
        community: Some(community.into()),
        lang: None,
        idle_after_ms: None,
        turn_since_ms: None,
        bot_memory: None,
        hints: None,
        tournament: None,
        first_move_ms: None,
        venue: None,
    }
}

/// Rounds of rated games among `players` players (`dc:0`, `dc:1`…), one day apart from
/// `start`: in each round every player meets another; player `i` plays its first `rounds(i)`
/// rounds only, so that deviations and last games differ.
#[allow(dead_code)]
pub fn league(
    players: usize,
    rounds: impl Fn(usize) -> usize,
    start: u64,
    scope: &str,
) -> Vec<GameRecord> {
    const DAY: u64 = 86_400_000;
    let last = (0..players).map(&rounds).max().unwrap_or(0);
    let mut games = Vec::new();
    let mut id = 1;
    for round in 0..last {
        for i in 0..players {
            if round >= rounds(i) {
                continue;
            }
            let j = (i + 1 + round * 11) % players;
            let result = ["red_wins", "black_wins", "draw"][(i * 7 + j * 3 + round) % 3];
            let result = if i % 5 < j % 5 { "red_wins" } else { result };
            let at = start + round as u64 * DAY + (i as u64) * 1_000;
            let who = |i: usize| PlayerRef::new(format!("dc:{i}"), &format!("p{i}"));
            games.push(rated(
                id,
                (who(i), who(j)),
                result,
                "resignation",
                at,
                scope,
            ));
            id += 1;
        }
    }
    games
}

/// Write `games` to `storage`, `per_write` to a transaction (each applies its rating updates).
#[allow(dead_code)]
pub async fn store(storage: &dyn Storage, games: &[GameRecord], per_write: usize) {
    for chunk in games.chunks(per_write) {
        storage
            .persist(Changes {
                games: chunk.to_vec(),
                ..Changes::default()
            })
            .await
            .expect("persist");
    }
}
