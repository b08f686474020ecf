//! The event journal: on SQLite, the widget's events are appended to a file
//! beside the database and answered once the append returned, then stored in
//! the database in large batches behind the answer.
//!
//! A server killed at any moment loses nothing it answered: the appended
//! bytes are in the operating system's hands once `write` returns (the same
//! promise SQLite's own write-ahead log gives in the `synchronous = NORMAL`
//! mode the server runs it in), and the next start stores every journalled
//! event the database does not have yet before it accepts new ones. Each
//! event carries a sequence number, and the database keeps the highest one
//! stored in the same transaction as the events, so an event is never
//! counted twice.
//!
//! The journal is a folder of segment files, each named by the sequence
//! number of its first event and holding one JSON line per event; a segment
//! is deleted once everything in it is stored. A line cut short by the crash
//! was never answered and is skipped.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ConnectionTrait, DbErr, EntityTrait, Set};
use serde::{Deserialize, Serialize};

use crate::entities::event_journal;
use crate::event::{Arm, Event, Kind};

/// A segment is closed and a new one started past this size, so stored
/// events do not keep disk space for long.
pub const SEGMENT_BYTES: u64 = 16 * 1024 * 1024;

/// One journalled event, as a JSON line.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// Sequence number, one more than the event before.
    q: u64,
    /// `pageview`, `impression` or `engagement`.
    k: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    s: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    n: bool,
    /// Not counted toward the monthly visitors (see `Event::counts_visitor`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    x: bool,
    o: String,
    c: String,
    v: String,
    t: DateTime<Utc>,
    /// The A/B test and variant an impression counts for, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    e: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    a: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The JSON line (with its newline) that journals `event` as number `seq`.
pub fn encode(seq: u64, event: &Event) -> Vec<u8> {
    let (k, s, n) = match event.kind {
        Kind::PageView => ("pageview", 0, false),
        Kind::Impression => ("impression", 0, false),
        Kind::Engagement {
            seconds,
            new_session,
        } => ("engagement", seconds, new_session),
    };
    let record = Record {
        q: seq,
        k: k.into(),
        s,
        n,
        x: !event.counts_visitor,
        o: event.owner_id.clone(),
        c: event.campaign_id.clone(),
        v: event.visitor_id.clone(),
        t: event.at,
        e: event.arm.as_ref().map(|a| a.test_id.clone()),
        a: event.arm.as_ref().map(|a| a.variant_id.clone()),
    };
    let mut line = serde_json::to_vec(&record).unwrap_or_default();
    line.push(b'\n');
    line
}

fn decode(line: &[u8]) -> Option<(u64, Event)> {
    let r: Record = serde_json::from_slice(line).ok()?;
    let kind = match r.k.as_str() {
        "pageview" => Kind::PageView,
        "impression" => Kind::Impression,
        "engagement" => Kind::Engagement {
            seconds: r.s,
            new_session: r.n,
        },
        _ => return None,
    };
    Some((
        r.q,
        Event {
            kind,
            owner_id: r.o,
            campaign_id: r.c,
            visitor_id: r.v,
            at: r.t,
            counts_visitor: !r.x,
            arm: r.e.zip(r.a).map(|(test_id, variant_id)| Arm {
                test_id,
                variant_id,
            }),
        },
    ))
}

/// The journal folder for an SQLite database file: `<file>-events`, beside
/// its `-wal` and `-shm` files.
pub fn folder_for(database_file: &Path) -> PathBuf {
    let mut name = database_file.as_os_str().to_owned();
    name.push("-events");
    PathBuf::from(name)
}

/// The journal of an SQLite database file (there is one per file).
pub const FILE_JOURNAL: i32 = 1;

/// Which journal a folder holds, as the database knows it: the number in the
/// folder's `id` file, or [`FILE_JOURNAL`] when it has none (an SQLite
/// database's journal sits beside its file and needs no other name).
pub fn id_of(folder: &Path) -> std::io::Result<i32> {
    let path = folder.join("id");
    match std::fs::read_to_string(&path) {
        Ok(text) => text.trim().parse().map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} does not hold a journal number", path.display()),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(FILE_JOURNAL),
        Err(e) => Err(io_context(e, "reading", &path)),
    }
}

/// Gives the journal in `folder` a number of its own on first use, so that
/// several servers on one PostgreSQL database each keep their own place in
/// the `event_journal` table (each server has its own data directory, and so
/// its own journal). Returns the folder's number.
pub fn name_instance_journal(folder: &Path) -> std::io::Result<i32> {
    std::fs::create_dir_all(folder)
        .map_err(|e| io_context(e, "creating the event journal", folder))?;
    let path = folder.join("id");
    if path.exists() {
        return id_of(folder);
    }
    // A random positive number other than the file journal's.
    let id = (rand::random::<i32>() & i32::MAX).max(2);
    let tmp = folder.join("id.new");
    std::fs::write(&tmp, id.to_string()).map_err(|e| io_context(e, "writing", &tmp))?;
    std::fs::rename(&tmp, &path).map_err(|e| io_context(e, "naming", &path))?;
    Ok(id)
}

/// The highest sequence number of journal `id` stored in the database (0
/// when none).
pub async fn stored_through<C: ConnectionTrait>(conn: &C, id: i32) -> Result<u64, DbErr> {
    Ok(event_journal::Entity::find_by_id(id)
        .one(conn)
        .await?
        .map_or(0, |r| u64::try_from(r.stored_through).unwrap_or(0)))
}

/// Records, in the caller's transaction, that every event of journal `id` up
/// to `seq` is stored.
pub async fn mark_stored<C: ConnectionTrait>(conn: &C, id: i32, seq: u64) -> Result<(), DbErr> {
    event_journal::Entity::insert(event_journal::ActiveModel {
        id: Set(id),
        stored_through: Set(i64::try_from(seq).unwrap_or(i64::MAX)),
    })
    .on_conflict(
        OnConflict::column(event_journal::Column::Id)
            .update_column(event_journal::Column::StoredThrough)
            .to_owned(),
    )
    .exec_without_returning(conn)
    .await?;
    Ok(())
}

/// The open journal: its folder (locked against a second server) and the
/// segment being appended to.
pub struct Journal {
    folder: PathBuf,
    _lock: File,
    file: File,
    path: PathBuf,
    len: u64,
    next_seq: u64,
}

/// What [`Journal::open`] found: the events not yet stored, in order, each
/// with its sequence number, and the segments they came from.
pub struct Backlog {
    pub events: Vec<(u64, Event)>,
    pub segments: Vec<PathBuf>,
    /// Lines that could not be read (a line cut short by a crash).
    pub skipped: usize,
}

fn segment_name(first_seq: u64) -> String {
    format!("{first_seq:020}.log")
}

fn io_context(e: std::io::Error, what: &str, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

impl Journal {
    /// Opens (creating) the journal folder, takes its lock, and reads every
    /// segment: events numbered above `stored` are the backlog to store
    /// before accepting new ones. New events are numbered from past
    /// everything seen.
    pub fn open(folder: &Path, stored: u64) -> std::io::Result<(Self, Backlog)> {
        std::fs::create_dir_all(folder)
            .map_err(|e| io_context(e, "creating the event journal", folder))?;
        let lock_path = folder.join("lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io_context(e, "opening", &lock_path))?;
        lock.try_lock().map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                format!(
                    "the event journal {} is in use by another server on this database",
                    folder.display()
                ),
            )
        })?;
        let mut segments: Vec<PathBuf> = std::fs::read_dir(folder)
            .map_err(|e| io_context(e, "reading", folder))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "log"))
            .collect();
        segments.sort();
        let mut backlog = Backlog {
            events: Vec::new(),
            segments: segments.clone(),
            skipped: 0,
        };
        let mut highest = stored;
        for path in &segments {
            let reader =
                BufReader::new(File::open(path).map_err(|e| io_context(e, "opening", path))?);
            for line in reader.split(b'\n') {
                let line = line.map_err(|e| io_context(e, "reading", path))?;
                if line.is_empty() {
                    continue;
                }
                match decode(&line) {
                    Some((seq, event)) => {
                        highest = highest.max(seq);
                        if seq > stored {
                            backlog.events.push((seq, event));
                        }
                    }
                    None => backlog.skipped += 1,
                }
            }
        }
        backlog.events.sort_by_key(|(seq, _)| *seq);
        let next_seq = highest + 1;
        let (file, path) = Self::create_segment(folder, next_seq)?;
        Ok((
            Self {
                folder: folder.to_path_buf(),
                _lock: lock,
                file,
                path,
                len: 0,
                next_seq,
            },
            backlog,
        ))
    }

    fn create_segment(folder: &Path, first_seq: u64) -> std::io::Result<(File, PathBuf)> {
        let path = folder.join(segment_name(first_seq));
        // A segment of this name can only hold lines that could not be read
        // (every event in it would be numbered from `first_seq` on); new
        // events must not follow a line cut short.
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| io_context(e, "removing", &path))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io_context(e, "creating", &path))?;
        Ok((file, path))
    }

    /// The segment being appended to.
    pub fn current_segment(&self) -> &Path {
        &self.path
    }

    /// Appends `events` in one write and returns the sequence number of the
    /// last one. On failure nothing of them stays in the journal.
    pub fn append(&mut self, events: &[&Event]) -> std::io::Result<u64> {
        let mut buf = Vec::with_capacity(events.len() * 160);
        let mut seq = self.next_seq;
        for e in events {
            buf.extend_from_slice(&encode(seq, e));
            seq += 1;
        }
        if let Err(e) = self.file.write_all(&buf) {
            // Cut off whatever part made it, so no unanswered event is
            // stored later.
            let _ = self.file.set_len(self.len);
            return Err(io_context(e, "appending to", &self.path));
        }
        self.len += buf.len() as u64;
        self.next_seq = seq;
        Ok(seq - 1)
    }

    /// When the segment is full, starts the next one and returns the full
    /// one's path and last sequence number (delete it once that is stored).
    pub fn rotate_if_full(&mut self) -> std::io::Result<Option<(PathBuf, u64)>> {
        if self.len < SEGMENT_BYTES {
            return Ok(None);
        }
        let (file, path) = Self::create_segment(&self.folder, self.next_seq)?;
        let old = std::mem::replace(&mut self.path, path);
        self.file = file;
        self.len = 0;
        Ok(Some((old, self.next_seq - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn impression(arm: Option<Arm>) -> Event {
        Event {
            kind: Kind::Impression,
            owner_id: "owner".into(),
            campaign_id: "campaign".into(),
            visitor_id: "v_visitor_1".into(),
            at: DateTime::parse_from_rfc3339("2026-11-27T10:00:00Z")
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or_default(),
            counts_visitor: true,
            arm,
        }
    }

    #[test]
    fn an_impressions_test_arm_survives_the_journal() {
        let arm = Arm {
            test_id: "test-1".into(),
            variant_id: "variant-b".into(),
        };
        let line = encode(7, &impression(Some(arm.clone())));
        let (seq, event) = decode(line.trim_ascii_end()).expect("decoded");
        assert_eq!(seq, 7);
        assert_eq!(event.arm, Some(arm));
        // Without an arm the line carries nothing more, and lines written
        // before arms existed read as events without one.
        let plain = encode(8, &impression(None));
        assert!(!String::from_utf8_lossy(&plain).contains("\"e\""));
        let old = br#"{"q":9,"k":"impression","o":"owner","c":"campaign","v":"v_visitor_1","t":"2026-11-27T10:00:00Z"}"#;
        let (_, event) = decode(old).expect("decoded");
        assert_eq!(event.arm, None);
        assert_eq!(event.kind, Kind::Impression);
    }
}
