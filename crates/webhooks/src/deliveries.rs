//! The delivery log the owner reads (the last 30 days of attempts, newest
//! first) and "Resend", which sends an event to its endpoint again with the
//! same `webhook-id`.

use chrono::{Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};

use ca_core::FieldErrors;
use ca_core::paging::{Pagination, whole_number};

use crate::WebhookError;
use crate::dto::{DeliveryOut, DeliveryQuery};
use crate::entities::{attempt, delivery};
use crate::service::WebhookService;

/// How far back the log goes.
pub const LOG_DAYS: i64 = 30;

fn out(a: attempt::Model) -> DeliveryOut {
    DeliveryOut {
        id: a.id,
        endpoint_id: a.endpoint_id,
        event_id: a.event_id,
        event_type: a.event_type,
        attempt: a.attempt,
        status: a.status,
        response_status: a.response_status,
        duration_ms: a.duration_ms,
        next_attempt_at: a.next_attempt_at,
        response_excerpt: a.response_excerpt,
        created_at: a.created_at,
    }
}

impl WebhookService {
    /// One page of the owner's delivery log (of one endpoint when given).
    pub async fn deliveries(
        &self,
        owner_id: &str,
        q: &DeliveryQuery,
    ) -> Result<(Vec<DeliveryOut>, Pagination), WebhookError> {
        let mut errors = FieldErrors::new();
        let page = whole_number(q.page.as_deref(), "page", 1, 1, 100_000, &mut errors);
        let limit = whole_number(q.limit.as_deref(), "limit", 20, 1, 100, &mut errors);
        if !errors.is_empty() {
            return Err(WebhookError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        let mut query = attempt::Entity::find()
            .filter(attempt::Column::OwnerId.eq(owner_id))
            .filter(attempt::Column::CreatedAt.gte(Utc::now() - Duration::days(LOG_DAYS)));
        if let Some(endpoint) = q
            .endpoint_id
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            query = query.filter(attempt::Column::EndpointId.eq(endpoint));
        }
        let total = query.clone().count(&self.db).await?;
        let rows = query
            .order_by_desc(attempt::Column::CreatedAt)
            .order_by_desc(attempt::Column::Id)
            .offset((page - 1) * limit)
            .limit(limit)
            .all(&self.db)
            .await?;
        Ok((
            rows.into_iter().map(out).collect(),
            Pagination::new(page, limit, total),
        ))
    }

    /// Sends the event of the delivery attempt (or delivery) `id` to its
    /// endpoint again, now, with the same `webhook-id`; if that attempt
    /// fails for a moment, it is retried on the whole schedule again.
    pub async fn resend(&self, owner_id: &str, id: &str) -> Result<(), WebhookError> {
        let id = id.trim();
        let delivery_id = match attempt::Entity::find()
            .filter(attempt::Column::Id.eq(id))
            .filter(attempt::Column::OwnerId.eq(owner_id))
            .one(&self.db)
            .await?
        {
            Some(a) => a.delivery_id,
            None => id.to_string(),
        };
        let now = Utc::now();
        let moved = delivery::Entity::update_many()
            .col_expr(delivery::Column::Status, Expr::value("pending"))
            .col_expr(delivery::Column::NextAttemptAt, Expr::value(Some(now)))
            // A fresh retry schedule from this attempt on.
            .col_expr(
                delivery::Column::ScheduleFrom,
                Expr::col(delivery::Column::Attempts),
            )
            .col_expr(delivery::Column::UpdatedAt, Expr::value(now))
            .filter(delivery::Column::Id.eq(&delivery_id))
            .filter(delivery::Column::OwnerId.eq(owner_id))
            .exec(&self.db)
            .await?
            .rows_affected;
        if moved == 0 {
            return Err(WebhookError::DeliveryNotFound);
        }
        Ok(())
    }
}
