//! The events owners' endpoints receive, and storing them (the outbox).
//! Every payload is `{id, type, timestamp, data}`; `id` is stable: it is the
//! `webhook-id` of every delivery of the event, retries and resends
//! included, so a receiver can drop duplicates.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, LockBehavior, LockType, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::entities::{delivery, endpoint, event};

/// The kinds of event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum EventType {
    /// A visitor left their email through a campaign: a new customer.
    #[serde(rename = "lead.created")]
    LeadCreated,
    /// A customer's status or lead score changed.
    #[serde(rename = "lead.updated")]
    LeadUpdated,
    /// A visitor's conversation with the assistant ended.
    #[serde(rename = "conversation.completed")]
    ConversationCompleted,
    /// A purchase the site reported was attributed to a campaign.
    #[serde(rename = "purchase.attributed")]
    PurchaseAttributed,
    /// The owner's campaigns reached the plan's monthly visitors.
    #[serde(rename = "campaign.limit_reached")]
    CampaignLimitReached,
    /// "Send test event": sent to one endpoint on the owner's request.
    #[serde(rename = "webhook.test")]
    Test,
}

impl EventType {
    /// Every type, with the schema of its `data` (the OpenAPI document's
    /// `webhooks` section is built from this list).
    pub const DOCUMENTED: [(EventType, &'static str, &'static str); 6] = [
        (
            EventType::LeadCreated,
            "LeadCreated",
            "A visitor left their email through a campaign: a new customer, the form's fields, the campaign and the page.",
        ),
        (
            EventType::LeadUpdated,
            "LeadUpdated",
            "A customer's status or lead score changed.",
        ),
        (
            EventType::ConversationCompleted,
            "ConversationCompleted",
            "A visitor's conversation with the assistant ended: its transcript and outcome.",
        ),
        (
            EventType::PurchaseAttributed,
            "PurchaseAttributed",
            "An order the site reported was counted as a campaign's revenue.",
        ),
        (
            EventType::CampaignLimitReached,
            "CampaignLimitReached",
            "The owner's campaigns reached the plan's monthly visitors.",
        ),
        (
            EventType::Test,
            "TestEvent",
            "Sent to one endpoint when the owner presses \"Send test event\".",
        ),
    ];

    /// The types an endpoint can subscribe to.
    pub const ALL: [EventType; 5] = [
        EventType::LeadCreated,
        EventType::LeadUpdated,
        EventType::ConversationCompleted,
        EventType::PurchaseAttributed,
        EventType::CampaignLimitReached,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::LeadCreated => "lead.created",
            Self::LeadUpdated => "lead.updated",
            Self::ConversationCompleted => "conversation.completed",
            Self::PurchaseAttributed => "purchase.attributed",
            Self::CampaignLimitReached => "campaign.limit_reached",
            Self::Test => "webhook.test",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// A campaign, as events name it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[schema(as = WebhookCampaign)]
pub struct CampaignRef {
    pub id: String,
    pub name: String,
}

/// The customer a lead made or changed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CustomerData {
    pub id: String,
    pub email: String,
    pub name: Option<String>,
    pub phone: Option<String>,
    pub company: Option<String>,
    /// `lead`, `prospect`, `customer` or `churned`.
    pub status: String,
    /// 0–100.
    pub lead_score: i32,
}

/// `lead.created`: the new customer, the form's fields as the visitor
/// filled them, the campaign and the page it happened on.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LeadCreated {
    pub customer: CustomerData,
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
    pub campaign: CampaignRef,
    pub page_url: Option<String>,
    pub conversation_id: Option<String>,
}

/// `lead.updated`: the customer now, and what it was before.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LeadUpdated {
    pub customer: CustomerData,
    pub previous_status: String,
    pub previous_lead_score: i32,
}

/// One message of a conversation's transcript.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct TranscriptLine {
    /// `visitor` or `assistant`.
    pub role: String,
    pub text: String,
    pub at: DateTime<Utc>,
}

/// `conversation.completed`: the conversation, how it ended and its
/// transcript.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ConversationCompleted {
    pub conversation_id: String,
    pub campaign: CampaignRef,
    /// `conversion`, `dismissal` or `none`.
    pub outcome: String,
    #[schema(value_type = Object)]
    pub collected_data: Map<String, Value>,
    pub transcript: Vec<TranscriptLine>,
    pub started_at: DateTime<Utc>,
    pub completed_at: DateTime<Utc>,
}

/// `purchase.attributed`: an order the site reported, counted as the
/// campaign's revenue.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseAttributed {
    pub order_id: String,
    /// Rupees, as the site reported.
    pub value: f64,
    pub currency: String,
    pub campaign: CampaignRef,
    pub visitor_id: String,
}

/// `campaign.limit_reached`: the owner's campaigns had as many visitors this
/// month as the plan allows; the popup keeps showing up to `stopAt`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CampaignLimitReached {
    pub visitors: i64,
    pub limit: i64,
    pub stop_at: i64,
    pub reset_date: DateTime<Utc>,
}

/// `webhook.test`: a sample so the receiver can be tried.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct TestEvent {
    pub message: String,
}

/// An event with its data.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    LeadCreated(LeadCreated),
    LeadUpdated(LeadUpdated),
    ConversationCompleted(ConversationCompleted),
    PurchaseAttributed(PurchaseAttributed),
    CampaignLimitReached(CampaignLimitReached),
    Test(TestEvent),
}

impl Event {
    pub fn event_type(&self) -> EventType {
        match self {
            Self::LeadCreated(_) => EventType::LeadCreated,
            Self::LeadUpdated(_) => EventType::LeadUpdated,
            Self::ConversationCompleted(_) => EventType::ConversationCompleted,
            Self::PurchaseAttributed(_) => EventType::PurchaseAttributed,
            Self::CampaignLimitReached(_) => EventType::CampaignLimitReached,
            Self::Test(_) => EventType::Test,
        }
    }

    pub(crate) fn data(&self) -> Value {
        match self {
            Self::LeadCreated(d) => serde_json::to_value(d),
            Self::LeadUpdated(d) => serde_json::to_value(d),
            Self::ConversationCompleted(d) => serde_json::to_value(d),
            Self::PurchaseAttributed(d) => serde_json::to_value(d),
            Self::CampaignLimitReached(d) => serde_json::to_value(d),
            Self::Test(d) => serde_json::to_value(d),
        }
        .unwrap_or(Value::Null)
    }
}

/// Every payload: the event's stable id, its type, when it happened, and its data.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Payload<T> {
    /// `msg_…`: the same on every delivery of this event (`webhook-id`).
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: EventType,
    pub timestamp: DateTime<Utc>,
    pub data: T,
}

/// A new event id.
pub fn new_event_id() -> String {
    format!("msg_{}", ca_core::ids::new_id().simple())
}

/// Whether `endpoint` wants events of `kind`.
pub fn wants(endpoint: &endpoint::Model, kind: EventType) -> bool {
    wants_type(endpoint, kind.as_str())
}

fn wants_type(endpoint: &endpoint::Model, event_type: &str) -> bool {
    serde_json::from_str::<Vec<String>>(&endpoint.event_types)
        .map(|types| types.iter().any(|t| t == event_type))
        .unwrap_or(false)
}

/// Which of `owner_ids` have an enabled endpoint that wants `kind` (so
/// callers build costly payloads, such as transcripts, only for them).
pub async fn owners_wanting<C: ConnectionTrait>(
    conn: &C,
    kind: EventType,
    owner_ids: Vec<String>,
) -> Result<std::collections::HashSet<String>, DbErr> {
    if owner_ids.is_empty() {
        return Ok(Default::default());
    }
    Ok(endpoint::Entity::find()
        .filter(endpoint::Column::OwnerId.is_in(owner_ids))
        .filter(endpoint::Column::Enabled.eq(true))
        .all(conn)
        .await?
        .into_iter()
        .filter(|e| wants(e, kind))
        .map(|e| e.owner_id)
        .collect())
}

/// Stores `event` of `owner_id` in the caller's transaction, if the owner
/// has an enabled endpoint that wants it: it is sent only if the fact it
/// reports is stored, and never lost once it is (a server stopped right
/// after still delivers it when it starts again). One statement, with no
/// read before it, so the visitor's request barely waits for it; the
/// delivery worker gives the event one delivery per endpoint that wants it
/// ([`fan_out`]). An owner with no such endpoint stores nothing. Returns the
/// event id when it was stored.
pub async fn enqueue<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    event: Event,
    now: DateTime<Utc>,
) -> Result<Option<String>, DbErr> {
    let kind = event.event_type();
    let id = new_event_id();
    let payload = serde_json::to_string(&Payload {
        id: id.clone(),
        event_type: kind,
        timestamp: now,
        data: event.data(),
    })
    .unwrap_or_default();
    let wanted = Query::select()
        .expr(Expr::val(1))
        .from(endpoint::Entity)
        .and_where(endpoint::Column::OwnerId.eq(owner_id))
        .and_where(endpoint::Column::Enabled.eq(true))
        .and_where(endpoint::Column::EventTypes.like(wanted_pattern(kind.as_str())))
        .to_owned();
    let row = Query::select()
        .exprs([
            Expr::val(id.clone()),
            Expr::val(owner_id),
            Expr::val(kind.as_str()),
            Expr::val(payload),
            Expr::val(now),
            Expr::val(false),
        ])
        .and_where(Expr::exists(wanted))
        .to_owned();
    let insert = Query::insert()
        .into_table(event::Entity)
        .columns([
            event::Column::Id,
            event::Column::OwnerId,
            event::Column::EventType,
            event::Column::Payload,
            event::Column::CreatedAt,
            event::Column::FannedOut,
        ])
        .select_from(row)
        .map_err(|e| DbErr::Custom(e.to_string()))?
        .to_owned();
    let stored = conn.execute(&insert).await?.rows_affected() == 1;
    Ok(stored.then_some(id))
}

/// `LIKE` pattern matching an endpoint's stored list of event types (a JSON
/// array of strings) that names `event_type`: the quotes make it the whole
/// name.
fn wanted_pattern(event_type: &str) -> String {
    format!("%\"{event_type}\"%")
}

/// The most events given their deliveries in one round.
const FAN_OUT_PER_ROUND: u64 = 500;

/// Gives the events stored since the last round one pending delivery, due
/// now, per enabled endpoint of their owner that wants them and existed when
/// the event happened, and marks them
/// done, in one background write. With several servers on one PostgreSQL,
/// each event is taken by one of them (the others skip its locked row).
/// Returns how many events were handled.
pub async fn fan_out(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<usize, DbErr> {
    // Most rounds have nothing to do: a read, no write.
    let waiting = event::Entity::find()
        .select_only()
        .column(event::Column::Id)
        .filter(event::Column::FannedOut.eq(false))
        .limit(1)
        .into_tuple::<String>()
        .one(db)
        .await?;
    if waiting.is_none() {
        return Ok(0);
    }
    let txn = ca_core::db::begin_background_write(db).await?;
    let events = event::Entity::find()
        .filter(event::Column::FannedOut.eq(false))
        .order_by_asc(event::Column::CreatedAt)
        .limit(FAN_OUT_PER_ROUND)
        .lock_with_behavior(LockType::Update, LockBehavior::SkipLocked)
        .all(&txn)
        .await?;
    if events.is_empty() {
        txn.rollback().await?;
        return Ok(0);
    }
    let owners: std::collections::BTreeSet<&str> =
        events.iter().map(|e| e.owner_id.as_str()).collect();
    let endpoints = endpoint::Entity::find()
        .filter(endpoint::Column::OwnerId.is_in(owners))
        .filter(endpoint::Column::Enabled.eq(true))
        .all(&txn)
        .await?;
    let deliveries: Vec<delivery::ActiveModel> = events
        .iter()
        .flat_map(|ev| {
            endpoints
                .iter()
                // An endpoint hears of what happens once it exists.
                .filter(|e| {
                    e.owner_id == ev.owner_id
                        && e.created_at <= ev.created_at
                        && wants_type(e, &ev.event_type)
                })
                .map(|e| pending_delivery(&ev.id, e, &ev.event_type, now))
        })
        .collect();
    for chunk in deliveries.chunks(100) {
        delivery::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(&txn)
            .await?;
    }
    event::Entity::update_many()
        .col_expr(event::Column::FannedOut, Expr::value(true))
        .filter(event::Column::Id.is_in(events.iter().map(|e| e.id.clone())))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(events.len())
}

/// Stores `event` of `owner_id` with its payload, for a caller that makes
/// its delivery itself (the test event); answers its id.
pub(crate) async fn store_event<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    event: &Event,
    now: DateTime<Utc>,
) -> Result<String, DbErr> {
    let id = new_event_id();
    let payload = Payload {
        id: id.clone(),
        event_type: event.event_type(),
        timestamp: now,
        data: event.data(),
    };
    event::ActiveModel {
        id: Set(id.clone()),
        owner_id: Set(owner_id.to_string()),
        event_type: Set(event.event_type().as_str().into()),
        payload: Set(serde_json::to_string(&payload).unwrap_or_default()),
        created_at: Set(now),
        // Its caller makes its delivery itself.
        fanned_out: Set(true),
    }
    .insert(conn)
    .await?;
    Ok(id)
}

/// A pending delivery of the event `event_id` to `endpoint`, due now.
pub(crate) async fn new_delivery<C: ConnectionTrait>(
    conn: &C,
    event_id: &str,
    endpoint: &endpoint::Model,
    event_type: &str,
    now: DateTime<Utc>,
) -> Result<delivery::Model, DbErr> {
    pending_delivery(event_id, endpoint, event_type, now)
        .insert(conn)
        .await
}

fn pending_delivery(
    event_id: &str,
    endpoint: &endpoint::Model,
    event_type: &str,
    now: DateTime<Utc>,
) -> delivery::ActiveModel {
    delivery::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        event_id: Set(event_id.to_string()),
        endpoint_id: Set(endpoint.id.clone()),
        owner_id: Set(endpoint.owner_id.clone()),
        event_type: Set(event_type.to_string()),
        status: Set("pending".into()),
        attempts: Set(0),
        schedule_from: Set(0),
        next_attempt_at: Set(Some(now)),
        claimed_until: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
}
