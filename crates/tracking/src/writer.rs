//! The batched writer for page views, impressions and engaged time. An event
//! is acknowledged only once it is safe from a crash of the server:
//!
//! - Once it is appended to the server's event journal ([`crate::journal`]):
//!   beside the database for an SQLite file, in the server's data directory
//!   on PostgreSQL (each server its own). A second thread stores journalled
//!   events in large batches behind the answers, and the next start stores
//!   whatever a crash left in the journal. One writer answers many more
//!   events per second this way than by waiting for its commits.
//! - Without a journal (an in-memory SQLite database, a journal another
//!   process holds, or `CA_EVENT_JOURNAL=false`), once it is stored (group
//!   commit): the writer takes every event waiting, writes them in one
//!   transaction, and then answers each caller, so under load one commit
//!   carries thousands of events.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ConnectionTrait, DatabaseConnection, DbErr, EntityTrait};
use tokio::sync::{mpsc, oneshot};

use ca_campaigns::counters::SeenVisitor;
use ca_campaigns::counters::period_of;
use ca_customers::EngagedTime;

use crate::entities::campaign_touch;
use crate::event::{Arm, Event, Kind};
use crate::journal::{self, Journal};

enum Msg {
    Event(Event, oneshot::Sender<bool>),
    Flush(oneshot::Sender<()>),
}

/// Why an event was not stored. Either way it was not counted and the sender
/// was told so: an event is never acknowledged and then lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStored {
    /// The writer is behind (its queue is full): the sender should wait a
    /// moment and send again.
    Busy,
    /// The database refused the event's batch for longer than the writer
    /// keeps trying, or the writer stopped.
    Failed,
}

/// The writer's running totals, for `/metrics` and the admin System tab.
#[derive(Debug, Default)]
pub struct WriterStats {
    /// Events stored (and acknowledged).
    pub stored: AtomicU64,
    /// Batches committed.
    pub batches: AtomicU64,
    /// Failed attempts to write a batch (each one retried).
    pub write_failures: AtomicU64,
    /// Events turned away because the queue was full (answered 503 busy).
    pub refused_busy: AtomicU64,
    /// Events whose batch could not be stored in time (answered 503).
    pub not_stored: AtomicU64,
    /// Events in the batch being written now (0 when idle).
    pub writing: AtomicU64,
    /// Whether the writer is retrying a failed batch right now.
    pub retrying: AtomicBool,
    /// Events answered and journalled but not yet stored in the database
    /// (always 0 without a journal).
    pub journalled: AtomicU64,
}

/// Handle to the writer task.
#[derive(Clone)]
pub struct EventWriter {
    tx: mpsc::Sender<Msg>,
    stats: Arc<WriterStats>,
    hand_over: Duration,
    /// The most events kept journalled and not yet stored (0 without a journal).
    journal_backlog: u64,
}

/// Batch size, queue length and how long to keep trying.
#[derive(Debug, Clone, Copy)]
pub struct WriterConfig {
    /// Most events in one transaction.
    pub max_batch: usize,
    /// Events waiting for the writer; when it is full, a caller waits up to
    /// `hand_over` and is then told the server is busy.
    pub queue: usize,
    /// How long a caller waits for room in a full queue.
    pub hand_over: Duration,
    /// How long the writer keeps retrying a batch the database refuses
    /// (with growing pauses) before telling its senders it was not stored.
    /// Journalled events were answered already: they are retried for as
    /// long as it takes.
    pub keep_trying: Duration,
    /// With a journal, the most events answered and not yet stored; past
    /// it, new events wait in the queue (and a full queue answers busy)
    /// until the database catches up.
    pub journal_backlog: u64,
    /// With a journal, how long the store thread waits for more events when
    /// it holds fewer than a tenth of `max_batch` (the events were answered
    /// already, so only the dashboards see them that much later): a
    /// database shared by several instances gets a few large commits
    /// instead of many small ones.
    pub store_linger: Duration,
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            max_batch: 5000,
            queue: 50_000,
            hand_over: Duration::from_secs(1),
            keep_trying: Duration::from_secs(30),
            journal_backlog: 200_000,
            store_linger: Duration::from_millis(20),
        }
    }
}

impl EventWriter {
    /// Starts the writer task on the current runtime.
    pub fn start(db: DatabaseConnection, config: WriterConfig) -> Self {
        let (tx, rx) = mpsc::channel(config.queue);
        let stats = Arc::new(WriterStats::default());
        tokio::spawn(run(db, rx, config, stats.clone()));
        Self {
            tx,
            stats,
            hand_over: config.hand_over,
            journal_backlog: 0,
        }
    }

    /// Starts the writer with the event journal in `folder` (an SQLite file
    /// database): first stores whatever the journal holds that the database
    /// does not (events answered before a crash), then appends and answers
    /// new events on one thread while another stores them.
    pub async fn start_journaled(
        db: DatabaseConnection,
        folder: &Path,
        config: WriterConfig,
    ) -> Result<Self, JournalError> {
        let journal_id = journal::id_of(folder)?;
        let stored = journal::stored_through(&db, journal_id).await?;
        let (journal, backlog) = {
            let folder = folder.to_path_buf();
            tokio::task::spawn_blocking(move || Journal::open(&folder, stored))
                .await
                .map_err(|e| JournalError::Io(std::io::Error::other(e.to_string())))?
                .map_err(|e| {
                    if e.kind() == std::io::ErrorKind::WouldBlock {
                        JournalError::InUse(e.to_string())
                    } else {
                        JournalError::Io(e)
                    }
                })?
        };
        if backlog.skipped > 0 {
            tracing::warn!(
                lines = backlog.skipped,
                "event journal lines cut short by a crash were skipped (they were never answered)"
            );
        }
        if !backlog.events.is_empty() {
            tracing::info!(
                events = backlog.events.len(),
                "storing widget events journalled before the last stop"
            );
        }
        for chunk in backlog.events.chunks(config.max_batch.max(1)) {
            let events: Vec<Event> = chunk.iter().map(|(_, e)| e.clone()).collect();
            let through = chunk.last().map_or(stored, |(seq, _)| *seq);
            store(&db, &events, Some((journal_id, through))).await?;
        }
        for segment in &backlog.segments {
            if segment != journal.current_segment() {
                std::fs::remove_file(segment)?;
            }
        }
        let (tx, rx) = mpsc::channel(config.queue);
        let (to_store, stored_rx) = mpsc::unbounded_channel();
        let stats = Arc::new(WriterStats::default());
        let store_stats = stats.clone();
        std::thread::Builder::new()
            .name("ca-event-store".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(store_journalled(
                        db,
                        journal_id,
                        stored_rx,
                        config,
                        store_stats,
                    )),
                    Err(err) => tracing::error!(%err, "the event store thread could not start"),
                }
            })?;
        let append_stats = stats.clone();
        std::thread::Builder::new()
            .name("ca-event-journal".into())
            .spawn(move || append_loop(journal, rx, to_store, config, append_stats))?;
        Ok(Self {
            tx,
            stats,
            hand_over: config.hand_over,
            journal_backlog: config.journal_backlog,
        })
    }

    /// Stores an event: `Ok` once it is committed (or journalled); otherwise why not (it was
    /// not counted, and the sender may send it again).
    pub async fn push(&self, event: Event) -> Result<(), NotStored> {
        let (done, stored) = oneshot::channel();
        match self
            .tx
            .send_timeout(Msg::Event(event, done), self.hand_over)
            .await
        {
            Ok(()) => {}
            Err(mpsc::error::SendTimeoutError::Timeout(_)) => {
                self.stats.refused_busy.fetch_add(1, Ordering::Relaxed);
                return Err(NotStored::Busy);
            }
            Err(mpsc::error::SendTimeoutError::Closed(_)) => return Err(NotStored::Failed),
        }
        match stored.await {
            Ok(true) => Ok(()),
            _ => Err(NotStored::Failed),
        }
    }

    /// Events accepted and not yet taken by the writer, and the queue's size.
    pub fn queue(&self) -> (u64, u64) {
        let capacity = self.tx.max_capacity() as u64;
        (capacity.saturating_sub(self.tx.capacity() as u64), capacity)
    }

    /// Events accepted and not yet stored in the database (queued, or
    /// journalled and waiting for the store thread), and how many may be.
    pub fn unstored(&self) -> (u64, u64) {
        let (queued, capacity) = self.queue();
        (
            queued + self.stats.journalled.load(Ordering::Relaxed),
            capacity + self.journal_backlog,
        )
    }

    /// The running totals.
    pub fn stats(&self) -> &WriterStats {
        &self.stats
    }

    /// Writes everything queued so far and waits until it is stored.
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Msg::Flush(done)).await.is_ok() {
            let _ = wait.await;
        }
    }
}

/// Why the journalled writer could not start.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Another process (a second server on the same database) holds it.
    #[error("{0}")]
    InUse(String),
    #[error("event journal: {0}")]
    Io(#[from] std::io::Error),
    #[error("storing the event journal's backlog: {0}")]
    Db(#[from] DbErr),
}

/// What the journal thread hands the store thread, in order.
enum ToStore {
    /// Journalled events, the last numbered `through`.
    Events(Vec<Event>, u64),
    /// A full segment, to delete once everything up to `through` is stored.
    Segment(PathBuf, u64),
    /// Answer once everything before it is stored.
    Flush(oneshot::Sender<()>),
}

/// Takes `first` and whatever else is already waiting, up to `max` events:
/// events that arrive while a batch is written form the next one.
fn take_waiting(
    first: Msg,
    rx: &mut mpsc::Receiver<Msg>,
    max: usize,
    events: &mut Vec<Event>,
    acks: &mut Vec<oneshot::Sender<bool>>,
    flushes: &mut Vec<oneshot::Sender<()>>,
) {
    let mut next = Some(first);
    while let Some(msg) = next {
        match msg {
            Msg::Event(e, done) => {
                events.push(e);
                acks.push(done);
            }
            Msg::Flush(done) => flushes.push(done),
        }
        next = if events.len() < max {
            rx.try_recv().ok()
        } else {
            None
        };
    }
}

/// The journal thread: takes every event waiting, appends them in one
/// write, answers their senders and hands them to the store thread.
fn append_loop(
    mut journal: Journal,
    mut rx: mpsc::Receiver<Msg>,
    to_store: mpsc::UnboundedSender<ToStore>,
    config: WriterConfig,
    stats: Arc<WriterStats>,
) {
    let mut events: Vec<Event> = Vec::new();
    let mut acks: Vec<oneshot::Sender<bool>> = Vec::with_capacity(config.max_batch);
    let mut flushes: Vec<oneshot::Sender<()>> = Vec::new();
    loop {
        // Far behind: let the queue fill (its senders are then told the
        // server is busy) until the database catches up.
        while stats.journalled.load(Ordering::Relaxed) >= config.journal_backlog {
            std::thread::sleep(Duration::from_millis(5));
        }
        let Some(first) = rx.blocking_recv() else {
            break;
        };
        take_waiting(
            first,
            &mut rx,
            config.max_batch,
            &mut events,
            &mut acks,
            &mut flushes,
        );
        if !events.is_empty() {
            let refs: Vec<&Event> = events.iter().collect();
            match journal.append(&refs) {
                Ok(through) => {
                    let n = events.len() as u64;
                    stats.journalled.fetch_add(n, Ordering::Relaxed);
                    for ack in acks.drain(..) {
                        let _ = ack.send(true);
                    }
                    // Handed over at about their own size (the buffer grows
                    // with what each append takes, never set aside for a
                    // whole batch), so a backlog of small appends waiting to
                    // be stored holds memory for its events only.
                    let batch = std::mem::take(&mut events);
                    let _ = to_store.send(ToStore::Events(batch, through));
                }
                Err(err) => {
                    tracing::error!(%err, events = events.len(), "widget events could not be journalled (their senders were answered 503 and nothing was counted)");
                    stats
                        .not_stored
                        .fetch_add(events.len() as u64, Ordering::Relaxed);
                    events.clear();
                    for ack in acks.drain(..) {
                        let _ = ack.send(false);
                    }
                }
            }
            match journal.rotate_if_full() {
                Ok(Some((full, through))) => {
                    let _ = to_store.send(ToStore::Segment(full, through));
                }
                Ok(None) => {}
                Err(err) => tracing::warn!(%err, "starting a new event journal segment failed"),
            }
        }
        for done in flushes.drain(..) {
            let _ = to_store.send(ToStore::Flush(done));
        }
    }
}

/// The store thread: stores journalled events in batches of up to
/// `max_batch`, each with the journal position it reaches, retrying a
/// refused batch for as long as it takes (its events were answered).
async fn store_journalled(
    db: DatabaseConnection,
    journal_id: i32,
    mut rx: mpsc::UnboundedReceiver<ToStore>,
    config: WriterConfig,
    stats: Arc<WriterStats>,
) {
    let mut batch: Vec<Event> = Vec::with_capacity(config.max_batch);
    let mut through = 0u64;
    let mut stored_through = 0u64;
    let mut full: Vec<(PathBuf, u64)> = Vec::new();
    let mut waiters: Vec<oneshot::Sender<()>> = Vec::new();
    while let Some(first) = rx.recv().await {
        let linger_until = tokio::time::Instant::now() + config.store_linger;
        let mut next = Some(first);
        while let Some(msg) = next {
            match msg {
                ToStore::Events(events, last) => {
                    batch.extend(events);
                    through = last;
                }
                ToStore::Segment(path, last) => full.push((path, last)),
                ToStore::Flush(done) => waiters.push(done),
            }
            next = if batch.len() >= config.max_batch {
                None
            } else if let Ok(msg) = rx.try_recv() {
                Some(msg)
            } else if !batch.is_empty() && batch.len() < config.max_batch / 10 && waiters.is_empty()
            {
                // A small batch waits a moment for company (nothing waits
                // on it: its events were answered once journalled).
                tokio::time::timeout_at(linger_until, rx.recv())
                    .await
                    .ok()
                    .flatten()
            } else {
                None
            };
        }
        if !batch.is_empty() {
            stats.writing.store(batch.len() as u64, Ordering::Relaxed);
            // Answered already: kept in the journal and retried until stored.
            write_with_retry(&db, &batch, Some((journal_id, through)), None, &stats).await;
            stats.writing.store(0, Ordering::Relaxed);
            let n = batch.len() as u64;
            stats.batches.fetch_add(1, Ordering::Relaxed);
            stats.stored.fetch_add(n, Ordering::Relaxed);
            stats.journalled.fetch_sub(n, Ordering::Relaxed);
            stored_through = through;
            batch.clear();
            // Hand the batch's memory back when a backlog made it large.
            if batch.capacity() > config.max_batch {
                batch.shrink_to(config.max_batch);
            }
        }
        full.retain(|(path, last)| {
            if *last > stored_through {
                return true;
            }
            if let Err(err) = std::fs::remove_file(path) {
                tracing::warn!(%err, path = %path.display(), "removing a stored event journal segment failed");
            }
            false
        });
        for w in waiters.drain(..) {
            let _ = w.send(());
        }
    }
}

async fn run(
    db: DatabaseConnection,
    mut rx: mpsc::Receiver<Msg>,
    config: WriterConfig,
    stats: Arc<WriterStats>,
) {
    let mut batch: Vec<Event> = Vec::with_capacity(config.max_batch);
    let mut acks: Vec<oneshot::Sender<bool>> = Vec::with_capacity(config.max_batch);
    let mut waiters: Vec<oneshot::Sender<()>> = Vec::new();
    // Waits for the first message, then takes whatever else is already
    // waiting: events that arrive during a commit form the next batch.
    while let Some(first) = rx.recv().await {
        take_waiting(
            first,
            &mut rx,
            config.max_batch,
            &mut batch,
            &mut acks,
            &mut waiters,
        );
        if !batch.is_empty() {
            stats.writing.store(batch.len() as u64, Ordering::Relaxed);
            let stored =
                write_with_retry(&db, &batch, None, Some(config.keep_trying), &stats).await;
            stats.writing.store(0, Ordering::Relaxed);
            let counter = if stored {
                stats.batches.fetch_add(1, Ordering::Relaxed);
                &stats.stored
            } else {
                &stats.not_stored
            };
            counter.fetch_add(batch.len() as u64, Ordering::Relaxed);
            batch.clear();
            for ack in acks.drain(..) {
                let _ = ack.send(stored);
            }
            // Hand the batch's memory back when a burst made it large.
            if batch.capacity() > config.max_batch {
                batch.shrink_to(config.max_batch);
                acks.shrink_to(config.max_batch);
            }
        }
        for w in waiters.drain(..) {
            let _ = w.send(());
        }
    }
}

/// Writes a batch (with the journal position it reaches, if journalled),
/// retrying with growing pauses (50 ms doubling up to 2 s) for as long as
/// `keep_trying`, or until stored when `None`; its senders wait meanwhile,
/// and new events queue behind it (a full queue answers "busy").
async fn write_with_retry(
    db: &DatabaseConnection,
    events: &[Event],
    journal_through: Option<(i32, u64)>,
    keep_trying: Option<Duration>,
    stats: &WriterStats,
) -> bool {
    let started = Instant::now();
    let mut pause = Duration::from_millis(50);
    for attempt in 1u32.. {
        match store(db, events, journal_through).await {
            Ok(()) => {
                if attempt > 1 {
                    stats.retrying.store(false, Ordering::Relaxed);
                    tracing::warn!(
                        attempt,
                        events = events.len(),
                        "widget events stored after retrying"
                    );
                }
                return true;
            }
            Err(err) => {
                stats.write_failures.fetch_add(1, Ordering::Relaxed);
                stats.retrying.store(true, Ordering::Relaxed);
                tracing::warn!(%err, attempt, events = events.len(), "writing widget events failed; retrying");
                if keep_trying.is_some_and(|limit| started.elapsed() + pause > limit) {
                    break;
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
    stats.retrying.store(false, Ordering::Relaxed);
    tracing::error!(
        events = events.len(),
        seconds = started.elapsed().as_secs(),
        "widget events could not be stored (their senders were answered 503 and nothing was counted)"
    );
    false
}

/// Writes one batch in one transaction.
pub async fn write(db: &DatabaseConnection, events: &[Event]) -> Result<(), DbErr> {
    store(db, events, None).await
}

/// Writes one batch in one transaction; with `journal_through` (a journal
/// and a sequence number), records in the same transaction that the journal
/// is stored up to that number.
async fn store(
    db: &DatabaseConnection,
    events: &[Event],
    journal_through: Option<(i32, u64)>,
) -> Result<(), DbErr> {
    let mut visitors: HashMap<(String, String, String), DateTime<Utc>> = HashMap::new();
    let mut page_views: HashMap<String, HashMap<String, i64>> = HashMap::new();
    let mut impressions: HashMap<String, i64> = HashMap::new();
    let mut touches: HashMap<(String, String), (String, DateTime<Utc>)> = HashMap::new();
    let mut engaged: HashMap<String, HashMap<String, EngagedTime>> = HashMap::new();
    let mut first_views: HashMap<String, DateTime<Utc>> = HashMap::new();
    // Impressions per A/B test arm and day (UTC), with the arm's campaign.
    let mut arm_impressions: HashMap<(&Arm, NaiveDate), (&str, i64)> = HashMap::new();
    // Who saw each arm (a test counts each visitor once), with the campaign.
    let mut exposures: Vec<(&str, ca_experiments::service::Exposure)> = Vec::new();
    for e in events {
        match e.kind {
            Kind::PageView => {
                let first = first_views.entry(e.campaign_id.clone()).or_insert(e.at);
                *first = std::cmp::Ord::min(*first, e.at);
                if e.counts_visitor {
                    visitors
                        .entry((e.owner_id.clone(), period_of(e.at), e.visitor_id.clone()))
                        .or_insert(e.at);
                }
                *page_views
                    .entry(e.owner_id.clone())
                    .or_default()
                    .entry(e.visitor_id.clone())
                    .or_default() += 1;
            }
            Kind::Impression => {
                *impressions.entry(e.campaign_id.clone()).or_default() += 1;
                if let Some(arm) = &e.arm {
                    arm_impressions
                        .entry((arm, e.at.date_naive()))
                        .or_insert((e.campaign_id.as_str(), 0))
                        .1 += 1;
                    exposures.push((
                        e.campaign_id.as_str(),
                        ca_experiments::service::Exposure {
                            test_id: arm.test_id.clone(),
                            variant_id: arm.variant_id.clone(),
                            visitor_id: e.visitor_id.clone(),
                            at: e.at,
                        },
                    ));
                }
                let t = touches
                    .entry((e.campaign_id.clone(), e.visitor_id.clone()))
                    .or_insert((e.owner_id.clone(), e.at));
                t.1 = std::cmp::Ord::max(t.1, e.at);
            }
            Kind::Engagement {
                seconds,
                new_session,
            } => {
                let t = engaged
                    .entry(e.owner_id.clone())
                    .or_default()
                    .entry(e.visitor_id.clone())
                    .or_default();
                t.seconds += i64::from(seconds);
                t.new_sessions += i64::from(new_session);
            }
        }
    }
    if visitors.is_empty()
        && impressions.is_empty()
        && engaged.is_empty()
        && journal_through.is_none()
    {
        return Ok(());
    }
    let txn = ca_core::db::begin_background_write(db).await?;
    // Campaigns deleted (and owners removed) since their events were queued are skipped.
    let live =
        ca_campaigns::counters::existing(&txn, impressions.keys().cloned().collect()).await?;
    impressions.retain(|id, _| live.contains(id));
    touches.retain(|(id, _), _| live.contains(id));
    arm_impressions.retain(|_, (id, _)| live.contains(*id));
    exposures.retain(|(id, _)| live.contains(*id));
    let owners = ca_auth::service::existing_users(
        &txn,
        visitors
            .keys()
            .map(|(o, _, _)| o.clone())
            .chain(engaged.keys().cloned())
            .collect(),
    )
    .await?;
    visitors.retain(|(o, _, _), _| owners.contains(o));
    // Owners removed since their events were queued are skipped too.
    page_views.retain(|o, _| owners.contains(o));
    engaged.retain(|o, _| owners.contains(o));
    ca_campaigns::counters::record_visitors(
        &txn,
        visitors
            .into_iter()
            .map(|((owner_id, _, visitor_id), at)| SeenVisitor {
                owner_id,
                visitor_id,
                at,
            })
            .collect(),
    )
    .await?;
    ca_campaigns::counters::record_first_page_views(&txn, &first_views).await?;
    // Each visitor's page views and engaged time in the batch, as one row.
    let mut activity: HashMap<(String, String), ca_customers::VisitorActivity> = HashMap::new();
    for (owner, views) in page_views {
        for (visitor, n) in views {
            activity
                .entry((owner.clone(), visitor.clone()))
                .or_insert_with(|| ca_customers::VisitorActivity {
                    owner_id: owner.clone(),
                    visitor_id: visitor,
                    page_views: 0,
                    engaged: None,
                })
                .page_views += n;
        }
    }
    for (owner, times) in engaged {
        for (visitor, t) in times {
            activity
                .entry((owner.clone(), visitor.clone()))
                .or_insert_with(|| ca_customers::VisitorActivity {
                    owner_id: owner.clone(),
                    visitor_id: visitor,
                    page_views: 0,
                    engaged: None,
                })
                .engaged = Some(t);
        }
    }
    ca_customers::add_activity(&txn, &activity.into_values().collect::<Vec<_>>()).await?;
    ca_campaigns::counters::add_impressions_many(&txn, &impressions).await?;
    // The visitors each arm sees for the first time (a visitor counts once
    // for a test, however many pages they see its popup on).
    let exposures: Vec<_> = exposures.into_iter().map(|(_, e)| e).collect();
    let gained = ca_experiments::service::first_exposures(&txn, &exposures).await?;
    // One counter update per arm and day, however many impressions it had,
    // in a fixed order (after the campaigns' counters, as every other
    // writer of both takes them).
    let mut arm_impressions: Vec<_> = arm_impressions.into_iter().collect();
    arm_impressions.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for ((arm, day), (_, n)) in arm_impressions {
        let visitors = gained
            .get(&(arm.test_id.clone(), arm.variant_id.clone(), day))
            .copied()
            .unwrap_or(0);
        ca_experiments::service::record(
            &txn,
            &arm.test_id,
            &arm.variant_id,
            day,
            ca_experiments::service::Tally {
                visitors,
                impressions: n,
                ..Default::default()
            },
        )
        .await?;
    }
    if !touches.is_empty() && txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        // One statement for the batch (its text never changes, so it is
        // prepared once per connection), rows in key order.
        let mut rows: Vec<serde_json::Value> = touches
            .into_iter()
            .map(|((campaign_id, visitor), (owner, at))| {
                serde_json::json!({"c": campaign_id, "v": visitor, "o": owner, "at": at})
            })
            .collect();
        rows.sort_unstable_by(|a, b| {
            (a["c"].as_str(), a["v"].as_str()).cmp(&(b["c"].as_str(), b["v"].as_str()))
        });
        let json = serde_json::to_string(&rows).map_err(|e| DbErr::Custom(e.to_string()))?;
        txn.execute_raw(sea_orm::Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "INSERT INTO campaign_touches (campaign_id, visitor_id, owner_id, last_at) \
             SELECT x.c, x.v, x.o, x.at \
             FROM json_to_recordset($1::json) AS x(c text, v text, o text, at timestamptz) \
             ON CONFLICT (campaign_id, visitor_id) DO UPDATE SET last_at = excluded.last_at",
            [json.into()],
        ))
        .await?;
    } else if !touches.is_empty() {
        let rows: Vec<campaign_touch::ActiveModel> = touches
            .into_iter()
            .map(
                |((campaign_id, visitor), (owner, at))| campaign_touch::ActiveModel {
                    campaign_id: sea_orm::Set(campaign_id),
                    visitor_id: sea_orm::Set(visitor),
                    owner_id: sea_orm::Set(owner),
                    last_at: sea_orm::Set(at),
                },
            )
            .collect();
        for chunk in rows.chunks(1000) {
            campaign_touch::Entity::insert_many(chunk.to_vec())
                .on_conflict(
                    OnConflict::columns([
                        campaign_touch::Column::CampaignId,
                        campaign_touch::Column::VisitorId,
                    ])
                    .update_column(campaign_touch::Column::LastAt)
                    .to_owned(),
                )
                .exec_without_returning(&txn)
                .await?;
        }
    }
    if let Some((id, seq)) = journal_through {
        journal::mark_stored(&txn, id, seq).await?;
    }
    txn.commit().await
}
