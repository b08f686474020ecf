//! The batched writer for page views, impressions and engaged time. An event
//! is acknowledged only once it is stored (group commit): the writer takes
//! every event waiting, writes them in one transaction, and then answers each
//! caller, so a crash right after a 202 loses nothing, and under load one
//! commit carries thousands of events.

use std::collections::HashMap;
use std::time::Duration;

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

/// Handle to the writer task.
#[derive(Clone)]
pub struct EventWriter {
    tx: mpsc::Sender<Msg>,
}

/// Batch size and queue length.
#[derive(Debug, Clone, Copy)]
pub struct WriterConfig {
    /// Most events in one transaction.
    pub max_batch: usize,
    /// Events waiting for the writer before callers wait to hand theirs over.
    pub queue: usize,
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            max_batch: 5000,
            queue: 50_000,
        }
    }
}

impl EventWriter {
    /// Starts the writer task on the current runtime.
    pub fn start(db: DatabaseConnection, config: WriterConfig) -> Self {
        let (tx, rx) = mpsc::channel(config.queue);
        tokio::spawn(run(db, rx, config));
        Self { tx }
    }

    /// Stores an event: returns `true` once it is committed, `false` when it
    /// could not be stored (the writer stopped, or the database refused the
    /// batch five times).
    pub async fn push(&self, event: Event) -> bool {
        let (done, stored) = oneshot::channel();
        if self.tx.send(Msg::Event(event, done)).await.is_err() {
            return false;
        }
        stored.await.unwrap_or(false)
    }

    /// Events accepted and not yet taken by the writer, and the queue's size.
    pub fn queue(&self) -> (u64, u64) {
        let capacity = self.tx.max_capacity() as u64;
        (capacity.saturating_sub(self.tx.capacity() as u64), capacity)
    }

    /// Writes everything queued so far and waits until it is stored.
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Msg::Flush(done)).await.is_ok() {
            let _ = wait.await;
        }
    }
}

async fn run(db: DatabaseConnection, mut rx: mpsc::Receiver<Msg>, config: WriterConfig) {
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
            let stored = write_with_retry(&db, &batch).await;
            batch.clear();
            for ack in acks.drain(..) {
                let _ = ack.send(stored);
            }
        }
        for w in waiters.drain(..) {
            let _ = w.send(());
        }
    }
}

async fn write_with_retry(db: &DatabaseConnection, events: &[Event]) -> bool {
    for attempt in 1..=5u32 {
        match write(db, events).await {
            Ok(()) => return true,
            Err(err) => {
                tracing::warn!(%err, attempt, events = events.len(), "writing widget events failed");
                tokio::time::sleep(Duration::from_millis(100 * u64::from(attempt))).await;
            }
        }
    }
    tracing::error!(
        events = events.len(),
        "widget events refused after 5 failed writes (their senders were told)"
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
