//! Chat starts written together: when many visitors open the chat at once,
//! the server writes their conversations in one transaction instead of one
//! each. A start waits in a queue with its answer channel; one task takes
//! every start waiting (up to [`MAX_BATCH`]), takes each owner's AI
//! conversations for all of that owner's starts with one counter update,
//! stores the conversations and their greetings with one insert each (sent
//! together with the counter's update in one round trip where the database
//! allows it), adds the A/B test variants' conversation counts, commits, and
//! then answers each visitor. Under light load a batch is one start,
//! written as soon as it arrives.
//!
//! Between batches the writer also brings the search index up to date (see
//! [`crate::search_index`]).
//!
//! A visitor sees exactly what a start written on its own would give: the
//! first starts of an owner, in the order they arrived, get the assistant
//! while the month's allowance lasts, the rest the notice.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::sea_query::{CommonTableExpression, WithClause};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DbBackend, DbErr, EntityTrait, QueryTrait, Set, Statement,
    Value,
};
use tokio::sync::{mpsc, oneshot};

use crate::entities::{conversation, message};
use crate::search_index;

/// What the visitor sees instead of the assistant when the owner's plan has no
/// AI conversations left this month.
pub const AI_LIMIT_NOTICE: &str = "Thanks for stopping by! Our assistant is busy right now. Leave your email and our team will get back to you personally.";

/// Most starts written in one transaction.
pub const MAX_BATCH: usize = 512;

/// Starts waiting for the writer; past it, a start waits for room.
const QUEUE: usize = 10_000;

/// Rows per insert statement, well under SQLite's limit of bound values
/// (a conversation row has 21, a greeting 9).
const ROWS_PER_INSERT: usize = 500;

/// A conversation to store, with what decides its greeting.
#[derive(Debug, Clone)]
pub(crate) struct NewStart {
    /// The conversation's stored id.
    pub id: String,
    /// The id the widget uses.
    pub conversation_id: String,
    pub campaign_id: String,
    pub owner_id: String,
    /// The owner's monthly AI conversations (negative: unlimited).
    pub ai_conversations: i64,
    pub visitor_id: String,
    pub session_id: Option<String>,
    /// The visitor's context, as JSON.
    pub user_context: String,
    /// The greeting when the assistant answers (the variant's, or the campaign's).
    pub greeting: String,
    /// The visitor's A/B test and variant, when the conversation counts for it.
    pub arm: Option<(String, String)>,
    pub now: DateTime<Utc>,
}

impl NewStart {
    /// The stored greeting: the assistant's, or the notice when the
    /// allowance is used up.
    fn greeting(&self, ai_enabled: bool) -> &str {
        if ai_enabled {
            &self.greeting
        } else {
            AI_LIMIT_NOTICE
        }
    }
}

type Answer = oneshot::Sender<Result<bool, DbErr>>;

/// Handle to the chat-start writer task; the task stops once every handle
/// is dropped, after answering the starts still queued.
#[derive(Clone)]
pub(crate) struct StartWriter {
    tx: mpsc::Sender<(NewStart, Answer)>,
    stats: Arc<StartStats>,
}

/// The writer's running totals.
#[derive(Debug, Default)]
pub struct StartStats {
    /// Starts stored.
    pub stored: AtomicU64,
    /// Transactions that stored them.
    pub batches: AtomicU64,
}

impl StartWriter {
    /// Starts the writer task on the current runtime.
    pub(crate) fn start(db: DatabaseConnection) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        let stats = Arc::new(StartStats::default());
        tokio::spawn(run(db, rx, stats.clone()));
        Self { tx, stats }
    }

    pub(crate) fn stats(&self) -> &StartStats {
        &self.stats
    }

    /// Stores the start once its batch commits: whether the assistant answers.
    pub(crate) async fn write(&self, start: NewStart) -> Result<bool, DbErr> {
        let (done, answer) = oneshot::channel();
        self.tx
            .send((start, done))
            .await
            .map_err(|_| DbErr::Custom("the chat-start writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| DbErr::Custom("the chat-start writer has stopped".into()))?
    }
}

async fn run(
    db: DatabaseConnection,
    mut rx: mpsc::Receiver<(NewStart, Answer)>,
    stats: Arc<StartStats>,
) {
    let mut starts: Vec<NewStart> = Vec::with_capacity(MAX_BATCH);
    let mut answers: Vec<Answer> = Vec::with_capacity(MAX_BATCH);
    // Between batches the writer also keeps the search index caught up: on
    // SQLite in this loop (through the same write gate as the starts, in
    // small steps), on PostgreSQL in a task beside it, on a pace shared
    // with the other servers on the database.
    let sqlite = db.get_database_backend() == DbBackend::Sqlite;
    let mut tick = tokio::time::interval(if sqlite {
        search_index::INDEX_EVERY
    } else {
        search_index::CLEAN_BUSY_EVERY
    });
    let mut pace = search_index::CleanPace::new(std::time::Instant::now());
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut cleaning: Option<tokio::task::JoinHandle<bool>> = None;
    let mut clean = true;
    loop {
        let (first, done) = tokio::select! {
            biased;
            _ = tick.tick() => {
                if sqlite {
                    if let Err(err) = search_index::catch_up(&db, search_index::INDEX_BATCH).await {
                        tracing::warn!(%err, "indexing conversations for search failed; trying again shortly");
                    }
                } else if clean {
                    if let Some(done) = cleaning.take_if(|h| h.is_finished()) {
                        clean = done.await.unwrap_or(false);
                    }
                    if clean && cleaning.is_none() && pace.due(std::time::Instant::now()) {
                        pace.cleaning(std::time::Instant::now());
                        let db = db.clone();
                        cleaning = Some(tokio::spawn(async move {
                            match search_index::catch_up(&db, 0).await {
                                Ok(_) => true,
                                Err(err) => {
                                    // The index's own maintenance cleans it instead.
                                    tracing::warn!(%err, "cleaning the conversation search index failed; leaving it to PostgreSQL");
                                    false
                                }
                            }
                        }));
                    }
                }
                continue;
            }
            next = rx.recv() => match next {
                Some(next) => next,
                None => break,
            },
        };
        starts.push(first);
        answers.push(done);
        while starts.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok((start, done)) => {
                    starts.push(start);
                    answers.push(done);
                }
                Err(_) => break,
            }
        }
        match write(&db, &starts).await {
            Ok(ai) => {
                pace.wrote();
                stats.batches.fetch_add(1, Ordering::Relaxed);
                stats
                    .stored
                    .fetch_add(starts.len() as u64, Ordering::Relaxed);
                for (done, ai_enabled) in answers.drain(..).zip(ai) {
                    let _ = done.send(Ok(ai_enabled));
                }
            }
            Err(err) if starts.len() > 1 => {
                // One bad start must not fail the others: each is written
                // again on its own and answered with its own outcome.
                tracing::warn!(%err, starts = starts.len(), "a batch of chat starts failed; writing them one by one");
                for (start, done) in starts.iter().zip(answers.drain(..)) {
                    let one = write(&db, std::slice::from_ref(start))
                        .await
                        .map(|ai| ai.first().copied().unwrap_or(false));
                    if one.is_ok() {
                        pace.wrote();
                        stats.batches.fetch_add(1, Ordering::Relaxed);
                        stats.stored.fetch_add(1, Ordering::Relaxed);
                    }
                    let _ = done.send(one);
                }
            }
            Err(err) => {
                for done in answers.drain(..) {
                    let _ = done.send(Err(DbErr::Custom(err.to_string())));
                }
            }
        }
        starts.clear();
    }
}

/// Writes `starts` in one write transaction and returns, for each in order,
/// whether the assistant answers it.
pub(crate) async fn write(
    db: &DatabaseConnection,
    starts: &[NewStart],
) -> Result<Vec<bool>, DbErr> {
    let mut ai = vec![false; starts.len()];
    if starts.is_empty() {
        return Ok(ai);
    }
    // The starts of each owner and month, in arrival order.
    let mut owners: HashMap<(&str, String), Vec<usize>> = HashMap::new();
    for (i, s) in starts.iter().enumerate() {
        owners
            .entry((s.owner_id.as_str(), crate::allowance::period_of(s.now)))
            .or_default()
            .push(i);
    }
    // Counters are taken in a fixed order, so two servers' batches never
    // wait for each other in a circle.
    let mut owners: Vec<_> = owners.into_iter().collect();
    owners.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let txn = ca_core::db::begin_write(db).await?;
    // The counters' moves that can wait (SQLite's) go out with the inserts.
    let mut writes: Vec<Statement> = Vec::new();
    for (_, indexes) in &owners {
        let first = &starts[indexes[0]];
        let (granted, count) = crate::allowance::claim_many_later(
            &txn,
            &first.owner_id,
            first.ai_conversations,
            indexes.len() as u64,
            first.now,
        )
        .await?;
        writes.extend(count);
        for &i in indexes
            .iter()
            .take(usize::try_from(granted).unwrap_or(usize::MAX))
        {
            ai[i] = true;
        }
    }
    let conversations: Vec<conversation::ActiveModel> = starts
        .iter()
        .zip(&ai)
        .map(|(s, &ai_enabled)| conversation::ActiveModel {
            id: Set(s.id.clone()),
            conversation_id: Set(s.conversation_id.clone()),
            campaign_id: Set(s.campaign_id.clone()),
            owner_id: Set(s.owner_id.clone()),
            visitor_id: Set(s.visitor_id.clone()),
            session_id: Set(s.session_id.clone()),
            status: Set("active".into()),
            outcome: Set("none".into()),
            ai_enabled: Set(ai_enabled),
            total_messages: Set(1),
            visitor_messages: Set(0),
            forms_offered: Set("[]".into()),
            last_form_at: Set(None),
            collected_data: Set("{}".into()),
            collected_text: Set(String::new()),
            user_context: Set(s.user_context.clone()),
            last_message: Set(s.greeting(ai_enabled).chars().take(500).collect()),
            created_at: Set(s.now),
            last_activity_at: Set(s.now),
            completed_at: Set(None),
            variant_id: Set(s.arm.as_ref().map(|(_, v)| v.clone())),
        })
        .collect();
    let greetings: Vec<message::ActiveModel> = starts
        .iter()
        .zip(&ai)
        .map(|(s, &ai_enabled)| message::ActiveModel {
            conversation_id: Set(s.id.clone()),
            role: Set("assistant".into()),
            content: Set(s.greeting(ai_enabled).to_string()),
            form_id: Set(None),
            source: Set(Some("greeting".into())),
            first_token_ms: Set(None),
            total_ms: Set(None),
            unanswered_key: Set(None),
            created_at: Set(s.now),
            ..Default::default()
        })
        .collect();
    store(&txn, writes, &conversations, &greetings).await?;
    // One count update per variant and day, however many starts it had,
    // in a fixed order.
    let mut counts: HashMap<(&str, &str, NaiveDate), i64> = HashMap::new();
    for s in starts {
        if let Some((test, variant)) = &s.arm {
            *counts
                .entry((test.as_str(), variant.as_str(), s.now.date_naive()))
                .or_default() += 1;
        }
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_unstable();
    for ((test, variant, day), n) in counts {
        ca_experiments::service::record(
            &txn,
            test,
            variant,
            day,
            ca_experiments::service::Tally {
                conversations: n,
                ..Default::default()
            },
        )
        .await?;
    }
    txn.commit().await?;
    Ok(ai)
}

/// Sends a batch's writes to the database in as few round trips as it
/// takes: `first` (the allowance counters' moves), then the conversations
/// and their greetings, `ROWS_PER_INSERT` of each at a time. On SQLite they
/// go as one script of several statements; on PostgreSQL the conversations'
/// insert rides in the greetings' insert as a common table expression (the
/// greetings' reference to their conversation is checked at the end of the
/// statement, once both are in).
async fn store<C: ConnectionTrait>(
    txn: &C,
    first: Vec<Statement>,
    conversations: &[conversation::ActiveModel],
    greetings: &[message::ActiveModel],
) -> Result<(), DbErr> {
    let backend = txn.get_database_backend();
    let mut writes = first;
    for (rows, said) in conversations
        .chunks(ROWS_PER_INSERT)
        .zip(greetings.chunks(ROWS_PER_INSERT))
    {
        let rows = conversation::Entity::insert_many(rows.to_vec()).into_query();
        let mut said = message::Entity::insert_many(said.to_vec()).into_query();
        if backend == DbBackend::Postgres {
            said.with_cte(
                WithClause::new()
                    .cte(
                        CommonTableExpression::new()
                            .query(rows)
                            .table_name("new_conversations")
                            .to_owned(),
                    )
                    .to_owned(),
            );
            writes.push(backend.build(&said));
        } else {
            writes.push(backend.build(&rows));
            writes.push(backend.build(&said));
        }
    }
    if backend == DbBackend::Postgres {
        for write in writes {
            txn.execute_raw(write).await?;
        }
        return Ok(());
    }
    txn.execute_raw(script(backend, writes)).await?;
    Ok(())
}

/// SQLite statements joined into one script, their bound values in order
/// (each statement takes the values after the previous one's).
fn script(backend: DbBackend, statements: Vec<Statement>) -> Statement {
    let mut sql = String::new();
    let mut values: Vec<Value> = Vec::new();
    for statement in statements {
        if !sql.is_empty() {
            sql.push_str(";\n");
        }
        sql.push_str(&statement.sql);
        values.extend(statement.values.map(|v| v.0).unwrap_or_default());
    }
    Statement::from_sql_and_values(backend, sql, values)
}
