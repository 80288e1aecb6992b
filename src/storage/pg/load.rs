//! Loading a [`Dump`] of a sled database into an empty PostgreSQL database, in one
//! transaction (see `src/storage/copy.rs`).

use tokio_postgres::types::ToSql;

use super::write::{each, write_changes};
use super::{big, err, PgStorage};
use crate::game::StorageError;
use crate::storage::copy::{Dump, KeyValues};

impl PgStorage {
    /// Write everything in `dump`, as it is (rating updates come along; none is applied
    /// again), and move the id sequences above every number sled handed out. Gives the dump
    /// back, to check the copy against.
    ///
    /// # Errors
    /// When this database already holds games, channels or ratings, or on a storage failure.
    pub fn load(&self, dump: Dump) -> Result<Dump, StorageError> {
        let held: Option<i64> = self.one(
            "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM channels)
                  + (SELECT count(*) FROM ratings)",
            super::params![],
        )?;
        if held.unwrap_or(0) > 0 {
            return Err(err(
                "the PostgreSQL database is not empty; nothing was copied",
            ));
        }
        let above = big(dump.ids_above)?;
        let meta: Vec<(String, i64)> = dump
            .meta
            .iter()
            .map(|(k, v)| Ok((k.clone(), big(*v)?)))
            .collect::<Result<_, StorageError>>()?;
        self.bridge.wait(move |mut client| async move {
            let tx = client.transaction().await.map_err(err)?;
            write_changes(&tx, &dump.changes, false, "").await?;
            each(
                &tx,
                "INSERT INTO ratings (k, v) VALUES ($1, $2)",
                dump.ratings
                    .iter()
                    .map(|(k, v)| vec![k as &(dyn ToSql + Sync), v])
                    .collect(),
            )
            .await
            .map_err(err)?;
            each(
                &tx,
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                meta.iter()
                    .map(|(k, v)| vec![k as &(dyn ToSql + Sync), v])
                    .collect(),
            )
            .await
            .map_err(err)?;
            tx.execute(
                "SELECT setval('ids', greatest($1, (SELECT last_value FROM ids))),
                        setval('outbox_seq', greatest($1, (SELECT last_value FROM outbox_seq)))",
                &[&above],
            )
            .await
            .map_err(err)?;
            tx.commit().await.map_err(err)?;
            Ok(dump)
        })
    }

    /// Every row of the ratings key space, in key order (to check a copy).
    ///
    /// # Errors
    /// On a storage failure.
    pub fn rating_rows(&self) -> Result<KeyValues, StorageError> {
        self.bridge
            .query("SELECT k, v FROM ratings ORDER BY k", super::params![])?
            .iter()
            .map(|r| Ok((r.try_get(0).map_err(err)?, r.try_get(1).map_err(err)?)))
            .collect()
    }
}
