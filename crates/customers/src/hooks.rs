//! What the owner's webhooks hear about customers: a customer as events
//! carry it, and `lead.updated` when a customer's status or lead score
//! changed (reported in the transaction that changed it).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DbErr};

use ca_webhooks::events::{CustomerData, Event, LeadUpdated};

use crate::entities::customer;

/// A customer as webhook events carry it.
pub fn customer_data(c: &customer::Model) -> CustomerData {
    CustomerData {
        id: c.id.clone(),
        email: c.email.clone(),
        name: c.name.clone(),
        phone: c.phone.clone(),
        company: c.company.clone(),
        status: c.conversion_status.clone(),
        lead_score: c.lead_score,
    }
}

/// Reports `lead.updated` when `after`'s status or lead score differs from
/// `before`'s, in the caller's transaction.
pub async fn lead_updated<C: ConnectionTrait>(
    conn: &C,
    before: &customer::Model,
    after: &customer::Model,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    if before.conversion_status == after.conversion_status && before.lead_score == after.lead_score
    {
        return Ok(());
    }
    ca_webhooks::enqueue(
        conn,
        &after.owner_id,
        Event::LeadUpdated(LeadUpdated {
            customer: customer_data(after),
            previous_status: before.conversion_status.clone(),
            previous_lead_score: before.lead_score,
        }),
        now,
    )
    .await?;
    Ok(())
}
