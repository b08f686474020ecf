//! Everything staff see about one account: its campaigns with their
//! figures, usage, subscription, payments, and a timeline of what happened.

use chrono::{Datelike, TimeZone, Utc};
use sea_orm::EntityTrait;

use ca_billing::dto::PlanOut;

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::{self, Actor};
use crate::dto::*;
use crate::service::AdminService;
use crate::users::rupees;

impl AdminService {
    /// Everything about one account.
    pub async fn user_detail(&self, actor: &Actor, id: &str) -> Result<UserDetail, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let now = Utc::now();
        let u = ca_auth::staff::get(&self.db, id).await?;
        let campaigns = ca_campaigns::counters::of_owner(&self.db, &u.id).await?;
        let conversations = ca_conversations::stats::count_by_campaign(&self.db, &u.id).await?;
        let customers = ca_customers::count_by_campaign(&self.db, &u.id).await?;
        let total_customers = ca_customers::service::count(&self.db, &u.id, None).await?;
        let month = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        let used = ca_campaigns::counters::used(&self.db, &u.id, now).await?;
        let usage = ca_billing::usage::usage(&self.db, &u, used, now).await?;
        let revenue_paise: i64 = campaigns.iter().map(|c| c.revenue_paise).sum();
        let impressions: i64 = campaigns.iter().map(|c| c.impressions).sum();
        let conversions: i64 = campaigns.iter().map(|c| c.conversions).sum();
        let total_conversations: u64 = conversations.values().sum();
        let payments = ca_billing::staff::payments_of(&self.db, &u.id).await?;
        let subscription = ca_billing::staff::subscription_of(&self.db, &u.id)
            .await?
            .filter(|s| s.status == "active")
            .map(|s| UserSubscription {
                status: s.status,
                current_period_start: s.current_period_start,
                current_period_end: s.current_period_end,
                interval: s.cycle,
                cancel_at_period_end: s.cancel_at_period_end,
            });
        let plan_id = if ca_auth::dto::on_plan(&u, now) {
            u.plan_id.clone()
        } else {
            "free".to_string()
        };
        let current_plan: Option<PlanOut> = ca_billing::entities::plan::Entity::find_by_id(plan_id)
            .one(&self.db)
            .await?
            .map(|p| PlanOut::from(&p));

        let audit_entries = audit::about(&self.db, &u.id, 50).await?;
        let timeline = self.timeline(&u.id, &payments).await?;

        let user_campaigns = campaigns
            .iter()
            .map(|c| UserCampaign {
                id: c.id.clone(),
                name: c.name.clone(),
                is_active: c.is_active,
                created_at: c.created_at,
                conversations_count: conversations.get(&c.id).copied().unwrap_or(0),
                customers_count: customers.get(&c.id).copied().unwrap_or(0),
                revenue: rupees(c.revenue_paise),
                conversion_rate: ca_core::figures::percent(c.conversions, c.impressions),
                impressions: c.impressions,
                conversions: c.conversions,
            })
            .collect();
        Ok(UserDetail {
            campaigns: user_campaigns,
            analytics: UserAnalytics {
                conversations: ThisMonth {
                    this_month: ca_conversations::stats::count_since(&self.db, &u.id, month)
                        .await?,
                },
                customers: ThisMonth {
                    this_month: ca_customers::count_since(&self.db, &u.id, month).await?,
                },
                revenue: RevenuePerCustomer {
                    average_per_customer: if total_customers > 0 {
                        ca_core::figures::round(rupees(revenue_paise) / total_customers as f64, 2)
                    } else {
                        0.0
                    },
                },
                usage: UsageFigures {
                    campaign_usage: usage.campaigns.current,
                    campaign_limit: usage.campaigns.limit,
                    visitor_usage: usage.visitors.current,
                    visitor_limit: usage.visitors.limit,
                },
            },
            activity_timeline: timeline,
            summary: UserSummary {
                total_conversations,
                total_customers,
                total_revenue: rupees(revenue_paise),
                conversion_rate: ca_core::figures::percent(conversions, impressions),
                active_campaigns: campaigns.iter().filter(|c| c.is_active).count() as u64,
                account_age: (now - u.created_at).num_days(),
            },
            subscription,
            current_plan,
            payments: payments.iter().map(crate::payments::user_payment).collect(),
            audit: audit_entries,
            user: self.admin_user(u).await?,
        })
    }

    /// The account's latest 20 happenings: conversations, customers and
    /// payments, newest first. Staff actions are not repeated here: the
    /// audit entries beside the timeline list each of them once.
    async fn timeline(
        &self,
        owner_id: &str,
        payments: &[ca_billing::entities::payment::Model],
    ) -> Result<Vec<ActivityItem>, AdminError> {
        let mut timeline: Vec<ActivityItem> = Vec::new();
        for c in ca_conversations::stats::recent(&self.db, owner_id, 10).await? {
            timeline.push(ActivityItem {
                kind: "conversation".into(),
                title: if c.outcome == "conversion" {
                    "Conversation converted".into()
                } else {
                    "New conversation".into()
                },
                description: c.last_message.chars().take(120).collect(),
                timestamp: c.created_at,
            });
        }
        for c in ca_customers::recent(&self.db, owner_id, 10).await? {
            timeline.push(ActivityItem {
                kind: "customer".into(),
                title: "New customer".into(),
                description: c.email.clone(),
                timestamp: c.created_at,
            });
        }
        for p in payments.iter().take(10) {
            timeline.push(ActivityItem {
                kind: "payment".into(),
                title: format!("Payment {}", p.status),
                description: format!("{} · ₹{:.2}", p.productinfo, rupees(p.amount_paise)),
                timestamp: p.settled_at.unwrap_or(p.created_at),
            });
        }
        timeline.sort_by_key(|i| std::cmp::Reverse(i.timestamp));
        timeline.truncate(20);
        Ok(timeline)
    }
}
