//! What owners are told of, and storing it (the outbox): the caller writes
//! a [`Notice`] in the transaction of the fact it reports, so a rolled-back
//! lead or payment is never announced and a committed one always is.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, Set,
};
use serde::{Deserialize, Serialize};

use crate::entities::{event, subscription};

/// A fact an owner is told of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Notice {
    /// A visitor left their email: a new customer.
    #[serde(rename = "lead", rename_all = "camelCase")]
    Lead {
        customer_id: String,
        name: Option<String>,
        email: String,
    },
    /// The owner's payment for a plan succeeded.
    #[serde(rename = "payment", rename_all = "camelCase")]
    Payment {
        txnid: String,
        amount_paise: i64,
        plan: String,
    },
    /// An A/B test of one of the owner's campaigns was called: a winner
    /// (`winner`: its name; the control's when every variant lost) or
    /// inconclusive (`winner: null`); `promoted` when the winner was written
    /// into the campaign by itself.
    #[serde(rename = "test", rename_all = "camelCase")]
    TestDecided {
        campaign_id: String,
        test_id: String,
        test_name: String,
        winner: Option<String>,
        promoted: bool,
    },
}

impl Notice {
    fn kind(&self) -> &'static str {
        match self {
            Self::Lead { .. } => "lead",
            Self::Payment { .. } => "payment",
            Self::TestDecided { .. } => "test",
        }
    }
}

/// Stores `notice` for `owner_id` in the caller's transaction, when the
/// owner receives notifications in at least one browser. Answers whether
/// it was stored.
pub async fn enqueue<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    notice: Notice,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let browsers = subscription::Entity::find()
        .filter(subscription::Column::OwnerId.eq(owner_id))
        .count(conn)
        .await?;
    if browsers == 0 {
        return Ok(false);
    }
    event::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        owner_id: Set(owner_id.to_string()),
        kind: Set(notice.kind().into()),
        detail: Set(serde_json::to_string(&notice).unwrap_or_default()),
        created_at: Set(now),
        notified_at: Set(None),
    }
    .insert(conn)
    .await?;
    Ok(true)
}
