//! `xiangqi-bot export FILE` and `xiangqi-bot import FILE`: sled's own export
//! ([`sled::Db::export`]: every tree, every key and value as stored) in a file, and its import
//! into a new, empty database directory.
//!
//! The file: a first line naming the format, then for each tree `C` (its kind and name), for
//! each record `K` (key and value), each part a 32-bit big-endian length and the bytes; last,
//! `E` with the number of records, the highest id the database had handed out, sled's checksum
//! of the whole database, and a CRC-32 of every byte before it. An import reads the whole file
//! and checks it before writing anything, and compares sled's checksum of the copy at the end.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::{err, guard, marker, SledStorage, Trees, GAME_NUMBER, IDS_OFFSET};
use crate::game::StorageError;

/// The first line of an export file.
const MAGIC: &[u8] = b"xiangqi-bot sled export 1\n";
/// Records handed to sled's import at a time.
const CHUNK: usize = 4096;
/// The longest key or value read back (sled's own limit is far above any record of ours).
const MAX_PART: u32 = 1 << 30;

/// What an export holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Trees.
    pub trees: u64,
    /// Records in all trees.
    pub records: u64,
    /// A number above every id the database handed out.
    pub ids: u64,
    /// sled's checksum of every tree name, key and value.
    pub checksum: u32,
}

/// A writer that keeps a CRC-32 of what went through it.
struct Summed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.crc.update(bytes);
        self.inner.write_all(bytes)
    }

    fn part(&mut self, bytes: &[u8]) -> io::Result<()> {
        let len = u32::try_from(bytes.len()).map_err(|_| io::Error::other("a record over 4 GB"))?;
        self.put(&len.to_be_bytes())?;
        self.put(bytes)
    }
}

/// A reader that keeps a CRC-32 of what it read.
struct Read32<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read32<R> {
    fn exact<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut b = [0u8; N];
        self.inner
            .read_exact(&mut b)
            .map_err(|e| format!("the file is damaged or cut short: it ends too soon ({e})"))?;
        self.crc.update(&b);
        Ok(b)
    }

    fn part(&mut self) -> Result<Vec<u8>, String> {
        let len = u32::from_be_bytes(self.exact::<4>()?);
        if len > MAX_PART {
            return Err(format!("a record of {len} bytes: the file is damaged"));
        }
        let mut b = vec![0u8; len as usize];
        self.inner
            .read_exact(&mut b)
            .map_err(|e| format!("the file is damaged or cut short: it ends too soon ({e})"))?;
        self.crc.update(&b);
        Ok(b)
    }
}

/// One item of the file.
enum Item {
    Tree(Vec<u8>, Vec<u8>),
    Record(Vec<u8>, Vec<u8>),
    End,
}

/// Read the file's items in order, giving each to `each`; checks the first line, the end
/// record and the CRC.
fn read_items(
    file: &Path,
    mut each: impl FnMut(Item) -> Result<(), String>,
) -> Result<Summary, String> {
    let f =
        std::fs::File::open(file).map_err(|e| format!("cannot open {}: {e}", file.display()))?;
    let mut r = Read32 {
        inner: BufReader::new(f),
        crc: crc32fast::Hasher::new(),
    };
    let mut magic = [0u8; MAGIC.len()];
    if r.inner.read_exact(&mut magic).is_err() || magic != MAGIC {
        return Err(format!(
            "{} is not an export of xiangqi-bot",
            file.display()
        ));
    }
    r.crc.update(&magic);
    let (mut trees, mut records) = (0u64, 0u64);
    loop {
        match r.exact::<1>()?[0] {
            b'C' => {
                trees += 1;
                let kind = r.part()?;
                let name = r.part()?;
                each(Item::Tree(kind, name))?;
            }
            b'K' => {
                records += 1;
                let k = r.part()?;
                let v = r.part()?;
                each(Item::Record(k, v))?;
            }
            b'E' => {
                let stored = u64::from_be_bytes(r.exact::<8>()?);
                let ids = u64::from_be_bytes(r.exact::<8>()?);
                let checksum = u32::from_be_bytes(r.exact::<4>()?);
                let crc = r.crc.clone().finalize();
                let mut tail = [0u8; 4];
                r.inner.read_exact(&mut tail).map_err(|e| {
                    format!("the file is damaged or cut short: it ends too soon ({e})")
                })?;
                if u32::from_be_bytes(tail) != crc {
                    return Err("the file is damaged (its checksum does not match)".into());
                }
                if stored != records {
                    return Err(format!(
                        "the file is damaged: it holds {records} records, its end says {stored}"
                    ));
                }
                let mut more = [0u8; 1];
                if r.inner.read(&mut more).map_err(|e| e.to_string())? != 0 {
                    return Err("the file goes on after its end".into());
                }
                let summary = Summary {
                    trees,
                    records,
                    ids,
                    checksum,
                };
                each(Item::End)?;
                return Ok(summary);
            }
            other => return Err(format!("the file is damaged (an item of kind {other})")),
        }
    }
}

impl SledStorage {
    /// Write everything the database holds to `file` (created; an existing file is refused).
    ///
    /// # Errors
    /// On a file-system failure, or when sled cannot read a record.
    pub fn export(&self, file: &Path) -> Result<Summary, StorageError> {
        let t = &self.trees;
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(file)
            .map_err(|e| err(format!("cannot create {}: {e}", file.display())))?;
        let mut w = Summed {
            inner: BufWriter::new(f),
            crc: crc32fast::Hasher::new(),
        };
        let written = guard::quietly(|| -> Result<Summary, StorageError> {
            let failed = |e: io::Error| err(format!("cannot write {}: {e}", file.display()));
            w.put(MAGIC).map_err(failed)?;
            let (mut trees, mut records) = (0u64, 0u64);
            for (kind, name, items) in t.db.export() {
                trees += 1;
                w.put(b"C").map_err(failed)?;
                w.part(&kind).map_err(failed)?;
                w.part(&name).map_err(failed)?;
                for kv in items {
                    records += 1;
                    w.put(b"K").map_err(failed)?;
                    for part in &kv {
                        w.part(part).map_err(failed)?;
                    }
                }
            }
            let summary = Summary {
                trees,
                records,
                ids: t.generate()?,
                checksum: t.db.checksum().map_err(err)?,
            };
            w.put(b"E").map_err(failed)?;
            w.put(&summary.records.to_be_bytes()).map_err(failed)?;
            w.put(&summary.ids.to_be_bytes()).map_err(failed)?;
            w.put(&summary.checksum.to_be_bytes()).map_err(failed)?;
            let crc = w.crc.clone().finalize();
            w.inner.write_all(&crc.to_be_bytes()).map_err(failed)?;
            let f = w.inner.into_inner().map_err(|e| failed(e.into_error()))?;
            f.sync_all().map_err(failed)?;
            Ok(summary)
        });
        match written {
            Ok(r) => r,
            Err(panic) => Err(err(format!("sled could not read a record: {panic}"))),
        }
    }

    /// Check the export `file`, then load it into `dir`, which must be empty or absent, and
    /// mark the new database; the copy is compared with the export by sled's checksum.
    ///
    /// # Errors
    /// A message when `dir` is not empty, the file is damaged, or writing fails.
    pub fn import(dir: &Path, file: &Path) -> Result<Summary, String> {
        if let Ok(mut entries) = std::fs::read_dir(dir) {
            if entries.next().is_some() {
                return Err(format!(
                    "{} is not empty: an import goes into a new database only",
                    dir.display()
                ));
            }
        }
        // The whole file is checked before anything is written.
        let summary = read_items(file, |_| Ok(()))?;
        let trees = Trees::open_sled(dir).map_err(|e| e.to_string())?;
        let loaded = guard::quietly(|| load(&trees, file, summary));
        match loaded {
            Ok(r) => r?,
            Err(panic) => return Err(format!("sled could not write the import: {panic}")),
        }
        drop(trees);
        // Open it as the bot does: every record is read and the marker compared.
        SledStorage::open(dir).map_err(|e| e.to_string())?;
        Ok(summary)
    }
}

/// Load the checked file into the new database and write its marker file.
fn load(t: &Trees, file: &Path, summary: Summary) -> Result<(), String> {
    let mut tree: Option<(Vec<u8>, Vec<u8>)> = None;
    let mut chunk: Vec<Vec<Vec<u8>>> = Vec::new();
    let put = |tree: &Option<(Vec<u8>, Vec<u8>)>, chunk: &mut Vec<Vec<Vec<u8>>>| {
        if let Some((kind, name)) = tree {
            t.db.import(vec![(
                kind.clone(),
                name.clone(),
                std::mem::take(chunk).into_iter(),
            )]);
        }
    };
    read_items(file, |item| {
        match item {
            Item::Tree(kind, name) => {
                put(&tree, &mut chunk);
                tree = Some((kind, name));
            }
            Item::Record(k, v) => {
                chunk.push(vec![k, v]);
                if chunk.len() >= CHUNK {
                    put(&tree, &mut chunk);
                }
            }
            Item::End => put(&tree, &mut chunk),
        }
        Ok(())
    })?;
    let copied = t.db.checksum().map_err(|e| e.to_string())?;
    if copied != summary.checksum {
        return Err(format!(
            "the imported copy differs from the export (checksum {copied:08x}, expected {:08x})",
            summary.checksum
        ));
    }
    // Ids go on above the exported database's: sled's own counter starts again here.
    t.meta
        .insert(IDS_OFFSET, &summary.ids.to_be_bytes())
        .map_err(|e| e.to_string())?;
    let record = match t.meta.get(marker::RECORD_KEY).map_err(|e| e.to_string())? {
        Some(v) => marker::Record::decode(&v)?,
        None => return Err("the export has no database record: it was not made by export".into()),
    };
    let game_number = t
        .meta
        .get(GAME_NUMBER)
        .map_err(|e| e.to_string())?
        .and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
        .unwrap_or(0);
    t.db.flush().map_err(|e| e.to_string())?;
    let file_marker = marker::Marker {
        record,
        game_number,
        ids: summary.ids,
    };
    marker::write(&t.dir, &file_marker).map_err(|e| e.to_string())
}
