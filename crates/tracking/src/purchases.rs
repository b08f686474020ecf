//! Purchases reported from the owner's thank-you page (`caTrack`), and the
//! revenue they attribute to the campaign the visitor last interacted with.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use ca_core::FieldErrors;

use crate::TrackingError;
use crate::dto::{PurchaseIn, PurchaseOut};
use crate::entities::{campaign_touch, purchase};
use crate::service::TrackingService;

/// Rupees (a JSON number or numeric string, at most 2 decimals) to paise.
fn paise(value: Option<&serde_json::Value>) -> Option<i64> {
    let text = match value? {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    let d: Decimal = text.parse().ok()?;
    if d <= Decimal::ZERO || d.scale() > 2 || d > Decimal::new(10_000_000_000, 0) {
        return None;
    }
    (d * Decimal::new(100, 0)).round().to_i64()
}

impl TrackingService {
    /// Records a purchase reported from the owner's thank-you page. The same
    /// order id never counts twice; the value goes to the campaign the visitor
    /// last interacted with inside the attribution window.
    pub async fn purchase(
        &self,
        input: PurchaseIn,
        origin: Option<&str>,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<PurchaseOut, TrackingError> {
        let mut errors = FieldErrors::new();
        if !ca_core::validation::client_token(&input.visitor_id) {
            errors.insert(
                "visitorId".into(),
                vec!["Visitor id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        let order_id = input.order_id.trim().to_string();
        if order_id.is_empty() || order_id.chars().count() > 100 {
            errors.insert(
                "orderId".into(),
                vec!["Order id is required (at most 100 characters)".into()],
            );
        }
        let value = paise(input.value.as_ref());
        if value.is_none() {
            errors.insert(
                "value".into(),
                vec!["Value must be a positive amount in rupees with at most 2 decimals".into()],
            );
        }
        let currency = input
            .currency
            .as_deref()
            .map(|c| c.trim().to_uppercase())
            .unwrap_or_else(|| "INR".into());
        if currency != "INR" {
            errors.insert(
                "currency".into(),
                vec!["Only INR purchases are tracked".into()],
            );
        }
        if !errors.is_empty() {
            return Err(TrackingError::invalid(errors));
        }
        let value = value.unwrap_or(0);
        let campaign = self.campaign(&input.campaign_id).await?;
        self.check_origin(origin, &campaign.website_url)?;
        self.throttle(ip, &campaign.id).await?;
        let owner_id = campaign.owner_id.clone();
        // The visitor's A/B test variant on this campaign, when it counts.
        let arm = self
            .arms
            .get(&self.db, &campaign.id, input.variant_id.as_deref())
            .await?;
        let window = now - chrono::Duration::days(self.config.attribution_days);
        let txn = ca_core::db::begin_write(&self.db).await?;
        let exists = purchase::Entity::find()
            .filter(purchase::Column::OwnerId.eq(&owner_id))
            .filter(purchase::Column::OrderId.eq(&order_id))
            .one(&txn)
            .await?;
        if exists.is_some() {
            txn.rollback().await?;
            return Ok(PurchaseOut {
                success: true,
                duplicate: true,
                attributed_campaign_id: None,
                held: false,
            });
        }
        let touch = campaign_touch::Entity::find()
            .filter(campaign_touch::Column::OwnerId.eq(&owner_id))
            .filter(campaign_touch::Column::VisitorId.eq(&input.visitor_id))
            .filter(campaign_touch::Column::LastAt.gte(window))
            .order_by_desc(campaign_touch::Column::LastAt)
            .one(&txn)
            .await?;
        let attributed = touch.map(|t| t.campaign_id);
        // The site reports the value and nobody checks it: an order above the
        // attributed campaign's largest believable value is kept, not counted.
        let held = match &attributed {
            Some(id) => ca_campaigns::counters::max_order_paise(&txn, id)
                .await?
                .is_some_and(|max| value > max),
            None => false,
        };
        let inserted = purchase::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            owner_id: Set(owner_id.clone()),
            order_id: Set(order_id.clone()),
            campaign_id: Set(attributed.clone()),
            visitor_id: Set(input.visitor_id.clone()),
            value_paise: Set(value),
            currency: Set(currency),
            attributed: Set(attributed.is_some()),
            held: Set(held),
            created_at: Set(now),
        }
        .insert(&txn)
        .await;
        if let Err(err) = inserted {
            // A concurrent report of the same order won the unique index.
            txn.rollback().await?;
            let dup = purchase::Entity::find()
                .filter(purchase::Column::OwnerId.eq(&owner_id))
                .filter(purchase::Column::OrderId.eq(&order_id))
                .one(&self.db)
                .await?
                .is_some();
            if dup {
                return Ok(PurchaseOut {
                    success: true,
                    duplicate: true,
                    attributed_campaign_id: None,
                    held: false,
                });
            }
            return Err(err.into());
        }
        if let Some(campaign_id) = attributed.as_ref().filter(|_| !held) {
            ca_campaigns::counters::add_revenue(&txn, campaign_id, value).await?;
            ca_customers::record_purchase(&txn, &owner_id, &input.visitor_id, value, now).await?;
            let name = ca_campaigns::entities::campaign::Entity::find_by_id(campaign_id.clone())
                .one(&txn)
                .await?
                .map(|c| c.name)
                .unwrap_or_default();
            ca_webhooks::enqueue(
                &txn,
                &owner_id,
                ca_webhooks::Event::PurchaseAttributed(ca_webhooks::events::PurchaseAttributed {
                    order_id: order_id.clone(),
                    value: value as f64 / 100.0,
                    currency: "INR".into(),
                    campaign: ca_webhooks::events::CampaignRef {
                        id: campaign_id.clone(),
                        name,
                    },
                    visitor_id: input.visitor_id.clone(),
                }),
                now,
            )
            .await?;
        }
        if let Some(arm) = &arm {
            // The variant's revenue keeps the campaign's rule: an order above
            // its largest believable value counts nothing.
            let believable = if attributed.as_deref() == Some(campaign.id.as_str()) {
                !held
            } else {
                ca_campaigns::counters::max_order_paise(&txn, &campaign.id)
                    .await?
                    .is_none_or(|max| value <= max)
            };
            if believable {
                let squares = ca_experiments::service::purchase_squares(
                    &txn,
                    &arm.test_id,
                    &input.visitor_id,
                    value,
                )
                .await?;
                ca_experiments::service::record(
                    &txn,
                    &arm.test_id,
                    &arm.variant_id,
                    now.date_naive(),
                    ca_experiments::service::Tally {
                        purchases: 1,
                        revenue_paise: value,
                        revenue_squares: Some(squares),
                        ..Default::default()
                    },
                )
                .await?;
            }
        }
        txn.commit().await?;
        tracing::debug!(order = %order_id, campaign = ?attributed, held, "purchase recorded");
        Ok(PurchaseOut {
            success: true,
            duplicate: false,
            attributed_campaign_id: attributed,
            held,
        })
    }
}

impl TrackingService {
    /// The owner's held orders on one campaign (see [`ca_campaigns::dto::HeldOrders`]).
    pub async fn held_orders(
        &self,
        owner_id: &str,
        campaign_id: &str,
    ) -> Result<ca_campaigns::dto::HeldOrders, TrackingError> {
        let held = purchase::Entity::find()
            .filter(purchase::Column::OwnerId.eq(owner_id))
            .filter(purchase::Column::CampaignId.eq(campaign_id))
            .filter(purchase::Column::Held.eq(true))
            .all(&self.db)
            .await?;
        let paise: i64 = held.iter().map(|p| p.value_paise).sum();
        Ok(ca_campaigns::dto::HeldOrders {
            orders: held.len() as u64,
            value: Decimal::new(paise, 2),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_rupees_with_two_decimals() {
        use serde_json::json;
        assert_eq!(paise(Some(&json!(1499))), Some(149_900));
        assert_eq!(paise(Some(&json!(1499.5))), Some(149_950));
        assert_eq!(paise(Some(&json!("999.99"))), Some(99_999));
        assert_eq!(paise(Some(&json!(0))), None);
        assert_eq!(paise(Some(&json!(-5))), None);
        assert_eq!(paise(Some(&json!(1.234))), None);
        assert_eq!(paise(Some(&json!("abc"))), None);
        assert_eq!(paise(None), None);
    }
}
