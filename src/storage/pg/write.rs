//! [`Storage::persist`](crate::game::Storage::persist) on PostgreSQL: every change of a
//! command in one transaction, committed before the caller hears back. Records are encoded
//! before the transaction starts (as JSON, the sled storage's encoding); a record kind is a
//! table and one loop here.

use deadpool_postgres::{GenericClient, Object, Transaction};
use tokio_postgres::types::ToSql;

use super::{big, err, exec, GAME_NUMBER};
use crate::game::{Changes, GameRecord, GameStatus, StorageError};

/// Parameters of one row, for [`each`].
macro_rules! row {
    ($($p:expr),* $(,)?) => {
        vec![$($p as &(dyn ToSql + Sync)),*]
    };
}

/// Taken (for the transaction) by a write that ends rated games: rating updates read and
/// write the same profiles and bands, so they run one at a time, as on sled's one writer
/// thread, also across processes sharing the database.
const RATINGS_LOCK: i64 = 0x5851_5241_5449_4e47; // "XQRATING"

/// A game's row: id, channel, whether in progress, record, its two players.
type GameRow = (i64, String, bool, Vec<u8>, [String; 2]);

/// Rows as they are written: the parameters, encoded.
struct Encoded {
    games: Vec<GameRow>,
    channels: Vec<(String, Vec<u8>)>,
    users: Vec<(String, Vec<u8>)>,
    add_deadlines: Vec<(i64, i64, i16, String)>,
    remove_deadlines: Vec<(i64, i64, i16)>,
    outbox: Vec<(String, i64, Vec<u8>)>,
    delivered: Vec<(String, i64)>,
    seen: Vec<(String, i64)>,
    reviews: Vec<(i64, bool, Vec<u8>)>,
    puzzle_players: Vec<(String, Vec<u8>)>,
    puzzle_standings: Vec<(String, Vec<u8>)>,
    game_number: Option<i64>,
    inbox: Vec<(String, Vec<u8>)>,
    inbox_done: Vec<String>,
}

fn json(v: &impl serde::Serialize) -> Result<Vec<u8>, StorageError> {
    serde_json::to_vec(v).map_err(err)
}

/// Records kept by a text key (channels, users, puzzle records), encoded.
fn keyed<K: AsRef<str>, T: serde::Serialize>(
    records: &[(K, T)],
) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
    records
        .iter()
        .map(|(k, r)| Ok((k.as_ref().to_owned(), json(r)?)))
        .collect()
}

fn encode(c: &Changes) -> Result<Encoded, StorageError> {
    // Every field named: a new kind of change does not build until it is written here.
    let Changes {
        games: _,
        channels: _,
        users: _,
        add_deadlines: _,
        remove_deadlines: _,
        aliases: _,
        outbox: _,
        delivered: _,
        seen: _,
        game_number: _,
        reviews: _,
        puzzle_players: _,
        puzzle_standings: _,
        inbox: _,
        inbox_done: _,
    } = c;
    let deadline = |d: &crate::game::Deadline| -> Result<(i64, i64, i16), StorageError> {
        Ok((big(d.at_ms)?, big(d.id)?, i16::from(d.kind as u8)))
    };
    Ok(Encoded {
        games: c
            .games
            .iter()
            .map(|g| {
                Ok((
                    big(g.id)?,
                    g.channel.to_string(),
                    g.status == GameStatus::Active,
                    json(g)?,
                    [g.red.id.to_string(), g.black.id.to_string()],
                ))
            })
            .collect::<Result<_, StorageError>>()?,
        channels: keyed(&c.channels)?,
        users: keyed(&c.users)?,
        add_deadlines: c
            .add_deadlines
            .iter()
            .map(|d| {
                let (at, id, kind) = deadline(d)?;
                Ok((at, id, kind, d.channel.to_string()))
            })
            .collect::<Result<_, StorageError>>()?,
        remove_deadlines: c
            .remove_deadlines
            .iter()
            .map(deadline)
            .collect::<Result<_, StorageError>>()?,
        outbox: c
            .outbox
            .iter()
            .map(|(k, v)| Ok((k.channel.to_string(), big(k.seq)?, v.clone())))
            .collect::<Result<_, StorageError>>()?,
        delivered: c
            .delivered
            .iter()
            .map(|k| Ok((k.channel.to_string(), big(k.seq)?)))
            .collect::<Result<_, StorageError>>()?,
        seen: c
            .seen
            .iter()
            .map(|(id, at)| Ok((id.clone(), big(*at)?)))
            .collect::<Result<_, StorageError>>()?,
        reviews: c
            .reviews
            .iter()
            .map(|r| Ok((big(r.game)?, r.done.is_some(), json(r)?)))
            .collect::<Result<_, StorageError>>()?,
        puzzle_players: keyed(&c.puzzle_players)?,
        puzzle_standings: keyed(&c.puzzle_standings)?,
        game_number: c.game_number.map(big).transpose()?,
        inbox: c.inbox.clone(),
        inbox_done: c.inbox_done.clone(),
    })
}

/// Write `changes` in one transaction, their outbox entries delivered by process `owner`;
/// `Ok` once it is committed, with the stamps the channels written now have (see `fleet.rs`).
pub(super) async fn commit(
    client: &mut Object,
    changes: &Changes,
    owner: &str,
) -> Result<Vec<(String, i64)>, StorageError> {
    let tx = client.transaction().await.map_err(err)?;
    write_changes(&tx, changes, true, owner).await?;
    let stamps = bump_stamps(&tx, changes).await.map_err(err)?;
    tx.commit().await.map_err(err)?;
    Ok(stamps)
}

/// Count one more write to every channel whose record or game `changes` writes.
async fn bump_stamps(
    tx: &Transaction<'_>,
    changes: &Changes,
) -> Result<Vec<(String, i64)>, tokio_postgres::Error> {
    let mut channels: Vec<&str> = changes
        .channels
        .iter()
        .map(|(k, _)| k.as_str())
        .chain(changes.games.iter().map(|g| g.channel.as_str()))
        .collect();
    // In one order everywhere, so two writes never wait on each other's rows in turn.
    channels.sort();
    channels.dedup();
    let mut out = Vec::with_capacity(channels.len());
    if channels.is_empty() {
        return Ok(out);
    }
    let statement = tx
        .prepare_cached(
            "INSERT INTO channel_stamps (channel, stamp) VALUES ($1, 1)
             ON CONFLICT (channel) DO UPDATE SET stamp = channel_stamps.stamp + 1
             RETURNING stamp",
        )
        .await?;
    for channel in channels {
        let row = tx.query_one(&statement, &[&channel]).await?;
        out.push((channel.to_owned(), row.try_get(0)?));
    }
    Ok(out)
}

/// Write `changes` in the transaction `tx`; with `rate`, games written as ended for the first
/// time get their rating update (a copy from another storage brings the updates along). Their
/// outbox entries are delivered by process `owner` ('': by the first process to ask).
pub(super) async fn write_changes(
    tx: &Transaction<'_>,
    changes: &Changes,
    rate: bool,
    owner: &str,
) -> Result<(), StorageError> {
    let rows = encode(changes)?;
    let endings: Vec<crate::rating::Ending> = if rate {
        changes
            .games
            .iter()
            .filter_map(GameRecord::ending)
            .collect()
    } else {
        Vec::new()
    };
    if !endings.is_empty() {
        exec(tx, "SELECT pg_advisory_xact_lock($1)", &[&RATINGS_LOCK])
            .await
            .map_err(err)?;
    }
    write_rows(tx, &rows, owner).await.map_err(err)?;
    let aliases: Vec<(&String, &str)> = changes
        .aliases
        .iter()
        .map(|(h, p)| (h, p.as_str()))
        .collect();
    each(
        tx,
        "INSERT INTO aliases (handle, player) VALUES ($1, $2)
         ON CONFLICT (handle) DO UPDATE SET player = EXCLUDED.player",
        aliases.iter().map(|(h, p)| row![h, p]).collect(),
    )
    .await
    .map_err(err)?;
    super::ratings::apply_ends(tx, &endings).await
}

/// Run `sql` (prepared once) for each row of parameters. (Rows come collected: a future
/// holding the closures that make them would not be `Send`, a known limit of the compiler.)
pub(super) async fn each<C: GenericClient + Sync>(
    tx: &C,
    sql: &str,
    rows: Vec<Vec<&(dyn ToSql + Sync)>>,
) -> Result<(), tokio_postgres::Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let statement = tx.prepare_cached(sql).await?;
    for params in rows {
        tx.execute(&statement, &params).await?;
    }
    Ok(())
}

/// Every row of `rows`: one statement per record kind. Removals of deadlines go before
/// additions, as on sled.
async fn write_rows<C: GenericClient + Sync>(
    tx: &C,
    rows: &Encoded,
    owner: &str,
) -> Result<(), tokio_postgres::Error> {
    each(
        tx,
        "INSERT INTO meta (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = greatest(meta.value, EXCLUDED.value)",
        rows.game_number
            .iter()
            .map(|n| row![&GAME_NUMBER, n])
            .collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO games (id, channel, active, record) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE
         SET channel = EXCLUDED.channel, active = EXCLUDED.active, record = EXCLUDED.record",
        rows.games
            .iter()
            .map(|(id, channel, active, record, _)| row![id, channel, active, record])
            .collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO user_games (player, game) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        rows.games
            .iter()
            .flat_map(|(id, _, _, _, players)| players.iter().map(move |p| row![p, id]))
            .collect(),
    )
    .await?;
    // Records kept by a text key: one upsert each, the same shape for every table.
    for (sql, records) in [
        (
            "INSERT INTO channels (key, record) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET record = EXCLUDED.record",
            &rows.channels,
        ),
        (
            "INSERT INTO users (key, record) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET record = EXCLUDED.record",
            &rows.users,
        ),
        (
            "INSERT INTO puzzle_players (player, record) VALUES ($1, $2)
             ON CONFLICT (player) DO UPDATE SET record = EXCLUDED.record",
            &rows.puzzle_players,
        ),
        (
            "INSERT INTO puzzle_standings (puzzle, record) VALUES ($1, $2)
             ON CONFLICT (puzzle) DO UPDATE SET record = EXCLUDED.record",
            &rows.puzzle_standings,
        ),
    ] {
        each(tx, sql, records.iter().map(|(k, r)| row![k, r]).collect()).await?;
    }
    each(
        tx,
        "DELETE FROM deadlines WHERE at_ms = $1 AND id = $2 AND kind = $3",
        rows.remove_deadlines
            .iter()
            .map(|(at, id, kind)| row![at, id, kind])
            .collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO deadlines (at_ms, id, kind, channel) VALUES ($1, $2, $3, $4)
         ON CONFLICT (at_ms, id, kind) DO UPDATE SET channel = EXCLUDED.channel",
        rows.add_deadlines
            .iter()
            .map(|(at, id, kind, channel)| row![at, id, kind, channel])
            .collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO outbox (channel, seq, reply, owner) VALUES ($1, $2, $3, $4)
         ON CONFLICT (channel, seq) DO UPDATE SET reply = EXCLUDED.reply, owner = EXCLUDED.owner",
        rows.outbox
            .iter()
            .map(|(c, seq, reply)| row![c, seq, reply, &owner])
            .collect(),
    )
    .await?;
    each(
        tx,
        "DELETE FROM outbox WHERE channel = $1 AND seq = $2",
        rows.delivered.iter().map(|(c, seq)| row![c, seq]).collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO inbox (key, event) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET event = EXCLUDED.event",
        rows.inbox.iter().map(|(k, v)| row![k, v]).collect(),
    )
    .await?;
    each(
        tx,
        "DELETE FROM inbox WHERE key = $1",
        rows.inbox_done.iter().map(|k| row![k]).collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO seen (id, at_ms) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET at_ms = EXCLUDED.at_ms",
        rows.seen.iter().map(|(id, at)| row![id, at]).collect(),
    )
    .await?;
    each(
        tx,
        "INSERT INTO reviews (game, done, record) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO UPDATE SET done = EXCLUDED.done, record = EXCLUDED.record",
        rows.reviews
            .iter()
            .map(|(g, done, r)| row![g, done, r])
            .collect(),
    )
    .await?;
    Ok(())
}
