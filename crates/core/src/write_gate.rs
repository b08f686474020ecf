//! One queue for the writes to an SQLite database file.
//!
//! SQLite lets one transaction write at a time. Left to itself, every other
//! writer polls the lock with sleeps that grow to 100 ms, so under a burst
//! (visitors opening the chat together while the event store commits a
//! batch) the machine sits idle while requests wait, and the unlucky ones
//! wait hundreds of milliseconds. Here the writers of one process queue in
//! memory instead, first come first served, and each takes the lock the
//! moment the previous one lets go.
//!
//! Writes made while answering a request go first: background writers (the
//! event store's batches, clean-ups) step aside while a request write is
//! waiting, for at most [`YIELD_AT_MOST`], so they are never starved.
//!
//! Writers of another process on the same file (a second server, the command
//! line) are not in this queue; between processes SQLite's busy timeout
//! still does the waiting.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedMutexGuard};

/// How long a writer waits for its turn before giving up, as long as
/// SQLite's own busy timeout.
pub const WAIT_AT_MOST: Duration = Duration::from_secs(5);

/// How long a background writer lets request writes go first.
pub const YIELD_AT_MOST: Duration = Duration::from_millis(50);

/// Who is writing: a request someone is waiting for, or background work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Request,
    Background,
}

#[derive(Default)]
struct Gate {
    turn: Arc<tokio::sync::Mutex<()>>,
    /// Request writes waiting for their turn.
    waiting: AtomicUsize,
    /// Told when no request write is waiting any more.
    clear: Notify,
}

static GATES: LazyLock<Mutex<HashMap<PathBuf, Arc<Gate>>>> = LazyLock::new(Default::default);

fn gate(file: &Path) -> Arc<Gate> {
    let mut gates = GATES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(gate) = gates.get(file) {
        return gate.clone();
    }
    let gate = Arc::new(Gate::default());
    gates.insert(file.to_path_buf(), gate.clone());
    gate
}

/// A writer's turn on a database file; the next writer goes when it is dropped.
#[must_use = "the turn ends when this is dropped"]
pub struct Turn {
    _guard: OwnedMutexGuard<()>,
}

/// Takes away one waiting request write when dropped, also when the wait is
/// cancelled (the request went away).
struct Waiting<'a>(&'a Gate);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.0.waiting.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.clear.notify_waiters();
        }
    }
}

/// Waits for this writer's turn on `file`; `None` when [`WAIT_AT_MOST`] passed.
pub async fn take(file: &Path, lane: Lane) -> Option<Turn> {
    let gate = gate(file);
    match lane {
        Lane::Request => {
            gate.waiting.fetch_add(1, Ordering::AcqRel);
            let waiting = Waiting(&gate);
            let guard = tokio::time::timeout(WAIT_AT_MOST, gate.turn.clone().lock_owned()).await;
            drop(waiting);
            guard.ok().map(|guard| Turn { _guard: guard })
        }
        Lane::Background => {
            let until = tokio::time::Instant::now() + YIELD_AT_MOST;
            loop {
                let clear = gate.clear.notified();
                tokio::pin!(clear);
                clear.as_mut().enable();
                if gate.waiting.load(Ordering::Acquire) == 0 {
                    break;
                }
                if tokio::time::timeout_at(until, clear).await.is_err() {
                    break;
                }
            }
            let guard = tokio::time::timeout(WAIT_AT_MOST, gate.turn.clone().lock_owned()).await;
            guard.ok().map(|guard| Turn { _guard: guard })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn writers_take_turns_in_the_order_they_came() {
        let file = PathBuf::from("/nonexistent/turns-in-order.db");
        let first = take(&file, Lane::Request).await.expect("turn");
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..5 {
            let (file, order) = (file.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _turn = take(&file, Lane::Request).await.expect("turn");
                order.lock().expect("order").push(i);
            }));
            // Each one queued before the next comes.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        drop(first);
        for t in tasks {
            t.await.expect("join");
        }
        assert_eq!(*order.lock().expect("order"), vec![0, 1, 2, 3, 4]);
    }

    #[tokio::test]
    async fn a_background_writer_lets_a_waiting_request_write_go_first() {
        let file = PathBuf::from("/nonexistent/request-first.db");
        let holder = take(&file, Lane::Request).await.expect("turn");
        let order = Arc::new(Mutex::new(Vec::new()));
        let request = {
            let (file, order) = (file.clone(), order.clone());
            tokio::spawn(async move {
                let _turn = take(&file, Lane::Request).await.expect("turn");
                order.lock().expect("order").push("request");
            })
        };
        tokio::time::sleep(Duration::from_millis(5)).await;
        let background = {
            let (file, order) = (file.clone(), order.clone());
            tokio::spawn(async move {
                let _turn = take(&file, Lane::Background).await.expect("turn");
                order.lock().expect("order").push("background");
            })
        };
        tokio::time::sleep(Duration::from_millis(5)).await;
        drop(holder);
        request.await.expect("join");
        background.await.expect("join");
        assert_eq!(*order.lock().expect("order"), vec!["request", "background"]);
    }

    #[tokio::test]
    async fn a_background_writer_is_not_starved_by_request_writes() {
        let file = PathBuf::from("/nonexistent/not-starved.db");
        // Request writes one after another for 400 ms, each holding its turn
        // 5 ms, with two always waiting.
        let stream = {
            let file = file.clone();
            tokio::spawn(async move {
                let until = tokio::time::Instant::now() + Duration::from_millis(400);
                let mut queue = Vec::new();
                while tokio::time::Instant::now() < until {
                    while queue.len() < 3 {
                        let file = file.clone();
                        queue.push(tokio::spawn(async move {
                            let _turn = take(&file, Lane::Request).await.expect("turn");
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }));
                    }
                    queue.remove(0).await.expect("join");
                }
                for t in queue {
                    t.await.expect("join");
                }
                tokio::time::Instant::now()
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let _turn = take(&file, Lane::Background).await.expect("turn");
        let got_turn = tokio::time::Instant::now();
        drop(_turn);
        let stream_ended = stream.await.expect("join");
        assert!(
            got_turn < stream_ended,
            "the background write waited for every request write"
        );
    }

    #[tokio::test]
    async fn a_writer_gives_up_when_the_turn_never_comes() {
        tokio::time::pause();
        let file = PathBuf::from("/nonexistent/gives-up.db");
        let _holder = take(&file, Lane::Request).await.expect("turn");
        assert!(take(&file, Lane::Request).await.is_none());
        assert!(take(&file, Lane::Background).await.is_none());
        assert_eq!(gate(&file).waiting.load(Ordering::Acquire), 0);
    }

    #[tokio::test]
    async fn different_files_do_not_wait_for_each_other() {
        let _a = take(Path::new("/nonexistent/a.db"), Lane::Request)
            .await
            .expect("turn");
        let b = tokio::time::timeout(
            Duration::from_millis(100),
            take(Path::new("/nonexistent/b.db"), Lane::Request),
        )
        .await;
        assert!(matches!(b, Ok(Some(_))));
    }
}
