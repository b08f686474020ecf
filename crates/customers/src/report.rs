//! The analytics overview and the CSV export of an owner's customers.

use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;

use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};

use crate::dto::{ConversionStats, Headline, OverviewResponse, TopCampaign};
use crate::entities::{customer, customer_count};
use crate::error::CustomerError;
use crate::service::CustomerService;

/// `1d`, `7d`, `30d`, `90d` or `365d` (default `30d`) as a duration.
pub fn period(raw: Option<&str>) -> Result<(String, Duration), CustomerError> {
    ca_core::period::parse(raw, ca_core::period::PERIODS, "30d").map_err(CustomerError::invalid)
}

/// The owner's totals now, from the counts the database keeps.
#[derive(Default)]
struct Totals {
    all: u64,
    stats: ConversionStats,
    /// (campaign id, campaign name) → customers, for campaigns with a name.
    campaigns: Vec<(Option<String>, String, u64)>,
}

async fn totals<C: ConnectionTrait>(conn: &C, owner_id: &str) -> Result<Totals, CustomerError> {
    let rows = customer_count::Entity::find()
        .filter(customer_count::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?;
    let mut t = Totals::default();
    let mut campaigns: BTreeMap<(String, String), u64> = BTreeMap::new();
    for row in rows {
        let n = u64::try_from(row.n).unwrap_or(0);
        t.all += n;
        match row.conversion_status.as_str() {
            "lead" => t.stats.lead += n,
            "prospect" => t.stats.prospect += n,
            "customer" => t.stats.customer += n,
            "churned" => t.stats.churned += n,
            _ => {}
        }
        if !row.campaign_name.is_empty() {
            *campaigns
                .entry((row.campaign_id, row.campaign_name))
                .or_default() += n;
        }
    }
    t.campaigns = campaigns
        .into_iter()
        .map(|((id, name), n)| ((!id.is_empty()).then_some(id), name, n))
        .collect();
    Ok(t)
}

/// The figures of the period `[from, to)`. Counts "before `to`" are the
/// totals less the (few, recent) customers from `to` on, so every query is a
/// range over an index rather than a count of all the owner's rows.
async fn headline<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    totals: &Totals,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Headline, CustomerError> {
    let mine = || customer::Entity::find().filter(customer::Column::OwnerId.eq(owner_id));
    let later = mine()
        .filter(customer::Column::CreatedAt.gte(to))
        .count(conn)
        .await?;
    let later_buyers = mine()
        .filter(customer::Column::ConversionStatus.eq("customer"))
        .filter(customer::Column::CreatedAt.gte(to))
        .count(conn)
        .await?;
    let total = totals.all.saturating_sub(later);
    let buyers = totals.stats.customer.saturating_sub(later_buyers);
    let new = mine()
        .filter(customer::Column::CreatedAt.gte(from))
        .filter(customer::Column::CreatedAt.lt(to))
        .count(conn)
        .await?;
    let active = mine()
        .filter(customer::Column::ConversionStatus.eq("lead"))
        .filter(customer::Column::LastConversationDate.gte(from))
        .filter(customer::Column::LastConversationDate.lt(to))
        .count(conn)
        .await?;
    Ok(Headline {
        total_customers: total,
        new_customers: new,
        conversion_rate: ca_core::figures::percent(buyers as i64, total as i64),
        active_leads: active,
    })
}

pub use ca_core::spreadsheet::safe_cell;

/// The CSV header row.
pub const CSV_HEADER: [&str; 15] = [
    "Name",
    "Email",
    "Phone",
    "Company",
    "Status",
    "Lead Score",
    "Conversations",
    "Page Views",
    "Average Session (s)",
    "Purchases",
    "Revenue (INR)",
    "Source Campaign",
    "Last Active",
    "Customer Since",
    "Notes",
];

fn row(c: &customer::Model) -> Vec<String> {
    let opt = |v: &Option<String>| safe_cell(v.as_deref().unwrap_or(""));
    vec![
        opt(&c.name),
        safe_cell(&c.email),
        opt(&c.phone),
        opt(&c.company),
        c.conversion_status.clone(),
        c.lead_score.to_string(),
        c.total_conversations.to_string(),
        c.total_page_views.to_string(),
        if c.sessions > 0 {
            (c.total_session_seconds / c.sessions).to_string()
        } else {
            "0".into()
        },
        c.total_purchases.to_string(),
        format!("{:.2}", c.revenue_paise as f64 / 100.0),
        opt(&c.source_campaign),
        c.last_conversation_date
            .map(|d| d.to_rfc3339())
            .unwrap_or_default(),
        c.created_at.to_rfc3339(),
        opt(&c.notes),
    ]
}

/// CSV lines for `rows` (with the header first when `header`).
pub fn csv_chunk(rows: &[customer::Model], header: bool) -> Result<Vec<u8>, CustomerError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail =
        |e: csv::Error| CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string()));
    if header {
        w.write_record(CSV_HEADER).map_err(fail)?;
    }
    for c in rows {
        w.write_record(row(c)).map_err(fail)?;
    }
    w.into_inner()
        .map_err(|e| CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}

impl CustomerService {
    /// The overview of the owner's customers over `length` ending at `now`.
    pub async fn overview(
        &self,
        owner_id: &str,
        name: String,
        length: Duration,
        now: DateTime<Utc>,
    ) -> Result<OverviewResponse, CustomerError> {
        let end = now + Duration::seconds(1);
        let totals = totals(&self.db, owner_id).await?;
        let current = headline(&self.db, owner_id, &totals, now - length, end).await?;
        let previous = headline(
            &self.db,
            owner_id,
            &totals,
            now - length - length,
            now - length,
        )
        .await?;
        let Totals {
            stats,
            campaigns: mut top,
            ..
        } = totals;
        top.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.1.cmp(&b.1)));
        top.truncate(5);
        Ok(OverviewResponse {
            success: true,
            period: name,
            total_customers: current.total_customers,
            new_customers: current.new_customers,
            conversion_rate: current.conversion_rate,
            active_leads: current.active_leads,
            conversion_stats: stats,
            top_campaigns: top
                .into_iter()
                .map(|(id, campaign_name, customers)| TopCampaign {
                    id,
                    campaign_name,
                    customers,
                })
                .collect(),
            previous,
        })
    }

    /// The next page of the export after `after` (by id), at most `size` rows.
    pub async fn export_page(
        &self,
        owner_id: &str,
        after: Option<&str>,
        size: u64,
    ) -> Result<Vec<customer::Model>, CustomerError> {
        let mut q = customer::Entity::find().filter(customer::Column::OwnerId.eq(owner_id));
        if let Some(after) = after {
            q = q.filter(customer::Column::Id.gt(after));
        }
        Ok(q.order_by_asc(customer::Column::Id)
            .limit(size)
            .all(&self.db)
            .await?)
    }
}
