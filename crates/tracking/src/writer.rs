//! The batched writer for page views, impressions and engaged time. An event
//! is acknowledged only once it is stored (group commit): the writer takes
//! every event waiting, writes them in one transaction, and then answers each
//! caller, so a crash right after a 202 loses nothing, and under load one
//! commit carries thousands of events.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{DatabaseConnection, DbErr, EntityTrait};
use tokio::sync::{mpsc, oneshot};

use ca_campaigns::counters::SeenVisitor;
use ca_campaigns::service::period_of;
use ca_customers::EngagedTime;

use crate::entities::campaign_touch;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PageView,
    Impression,
    /// Engaged time on a page, in whole seconds; `new_session` when the
    /// report began a new browsing session.
    Engagement {
        seconds: u32,
        new_session: bool,
    },
}

/// One accepted event.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: Kind,
    pub owner_id: String,
    pub campaign_id: String,
    pub visitor_id: String,
    pub at: DateTime<Utc>,
}

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
}

/// Handle to the writer task.
#[derive(Clone)]
pub struct EventWriter {
    tx: mpsc::Sender<Msg>,
    stats: Arc<WriterStats>,
    hand_over: Duration,
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
    pub keep_trying: Duration,
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            max_batch: 5000,
            queue: 50_000,
            hand_over: Duration::from_secs(1),
            keep_trying: Duration::from_secs(30),
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
        }
    }

    /// Stores an event: `Ok` once it is committed; otherwise why not (it was
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
        let mut next = Some(first);
        while let Some(msg) = next {
            match msg {
                Msg::Event(e, done) => {
                    batch.push(e);
                    acks.push(done);
                }
                Msg::Flush(done) => waiters.push(done),
            }
            next = if batch.len() < config.max_batch {
                rx.try_recv().ok()
            } else {
                None
            };
        }
        if !batch.is_empty() {
            stats.writing.store(batch.len() as u64, Ordering::Relaxed);
            let stored = write_with_retry(&db, &batch, config.keep_trying, &stats).await;
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

/// Writes a batch, retrying with growing pauses (50 ms doubling up to 2 s)
/// for as long as `keep_trying`; its senders wait meanwhile, and new events
/// queue behind it (a full queue answers "busy").
async fn write_with_retry(
    db: &DatabaseConnection,
    events: &[Event],
    keep_trying: Duration,
    stats: &WriterStats,
) -> bool {
    let started = Instant::now();
    let mut pause = Duration::from_millis(50);
    for attempt in 1u32.. {
        match write(db, events).await {
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
                if started.elapsed() + pause > keep_trying {
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
    let mut visitors: HashMap<(String, String, String), DateTime<Utc>> = HashMap::new();
    let mut page_views: HashMap<String, HashMap<String, i64>> = HashMap::new();
    let mut impressions: HashMap<String, i64> = HashMap::new();
    let mut touches: HashMap<(String, String), (String, DateTime<Utc>)> = HashMap::new();
    let mut engaged: HashMap<String, HashMap<String, EngagedTime>> = HashMap::new();
    let mut first_views: HashMap<String, DateTime<Utc>> = HashMap::new();
    for e in events {
        match e.kind {
            Kind::PageView => {
                let first = first_views.entry(e.campaign_id.clone()).or_insert(e.at);
                *first = std::cmp::Ord::min(*first, e.at);
                visitors
                    .entry((e.owner_id.clone(), period_of(e.at), e.visitor_id.clone()))
                    .or_insert(e.at);
                *page_views
                    .entry(e.owner_id.clone())
                    .or_default()
                    .entry(e.visitor_id.clone())
                    .or_default() += 1;
            }
            Kind::Impression => {
                *impressions.entry(e.campaign_id.clone()).or_default() += 1;
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
    if visitors.is_empty() && impressions.is_empty() && engaged.is_empty() {
        return Ok(());
    }
    let txn = ca_core::db::begin_write(db).await?;
    // Campaigns deleted (and owners removed) since their events were queued are skipped.
    let live =
        ca_campaigns::counters::existing(&txn, impressions.keys().cloned().collect()).await?;
    impressions.retain(|id, _| live.contains(id));
    touches.retain(|(id, _), _| live.contains(id));
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
    for (owner, views) in page_views {
        ca_customers::add_page_views(&txn, &owner, &views).await?;
    }
    for (owner, times) in engaged {
        ca_customers::add_engaged_time(&txn, &owner, &times).await?;
    }
    for (campaign_id, n) in impressions {
        ca_campaigns::counters::add_impressions(&txn, &campaign_id, n).await?;
    }
    if !touches.is_empty() {
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
    txn.commit().await
}
