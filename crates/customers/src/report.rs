//! The analytics overview and the CSV export of an owner's customers.

use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;

use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, Statement,
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

/// Customers per page of the export.
pub const EXPORT_ROWS: u64 = 5000;

/// One page of the export's rows, as read: [`encode_export`] writes them
/// as CSV, which can run while the next page is read.
pub struct ExportRows {
    rows: Vec<sea_orm::QueryResult>,
}

impl ExportRows {
    /// The id the next page starts after, when a page may follow.
    pub fn next(&self) -> Option<String> {
        if (self.rows.len() as u64) < EXPORT_ROWS {
            return None;
        }
        self.rows
            .last()
            .and_then(|r| r.try_get_by_index::<String>(16).ok())
    }
}

/// The export's columns, in the order of [`CSV_HEADER`], then the id.
const EXPORT_COLUMNS: &str = "name, email, phone, company, conversion_status, lead_score, \
     total_conversations, total_page_views, total_session_seconds, sessions, total_purchases, \
     revenue_paise, source_campaign, last_conversation_date, created_at, notes, id";

fn fail(e: csv::Error) -> CustomerError {
    CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string()))
}

/// Writes `value` as a cell a spreadsheet will not run (see [`safe_cell`]),
/// copying it only when it needs the leading `'`.
fn cell<W: std::io::Write>(w: &mut csv::Writer<W>, value: &str) -> Result<(), CustomerError> {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => w.write_field(safe_cell(value)),
        _ => w.write_field(value),
    }
    .map_err(fail)
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

    /// The next page of the CSV export: the owner's customers after `after`
    /// (by id), [`EXPORT_ROWS`] at most, read as plain columns for
    /// [`encode_export`].
    pub async fn export_rows(
        &self,
        owner_id: &str,
        after: Option<&str>,
    ) -> Result<ExportRows, CustomerError> {
        let backend = self.db.get_database_backend();
        let (sql, values): (String, Vec<sea_orm::Value>) = match (backend, after) {
            (DbBackend::Postgres, Some(after)) => (
                format!(
                    "SELECT {EXPORT_COLUMNS} FROM customers WHERE owner_id = $1 AND id > $2 \
                     ORDER BY id LIMIT {EXPORT_ROWS}"
                ),
                vec![owner_id.into(), after.into()],
            ),
            (DbBackend::Postgres, None) => (
                format!(
                    "SELECT {EXPORT_COLUMNS} FROM customers WHERE owner_id = $1 \
                     ORDER BY id LIMIT {EXPORT_ROWS}"
                ),
                vec![owner_id.into()],
            ),
            (_, Some(after)) => (
                format!(
                    "SELECT {EXPORT_COLUMNS} FROM customers WHERE owner_id = ? AND id > ? \
                     ORDER BY id LIMIT {EXPORT_ROWS}"
                ),
                vec![owner_id.into(), after.into()],
            ),
            (_, None) => (
                format!(
                    "SELECT {EXPORT_COLUMNS} FROM customers WHERE owner_id = ? \
                     ORDER BY id LIMIT {EXPORT_ROWS}"
                ),
                vec![owner_id.into()],
            ),
        };
        let rows = self
            .db
            .query_all_raw(Statement::from_sql_and_values(backend, sql, values))
            .await?;
        Ok(ExportRows { rows })
    }
}

/// One page of the export as CSV lines (the header first when `header`),
/// plain columns written straight into the CSV.
pub fn encode_export(page: ExportRows, header: bool) -> Result<Vec<u8>, CustomerError> {
    let rows = page.rows;
    let mut w = csv::WriterBuilder::new()
        .buffer_capacity(1 << 16)
        .from_writer(Vec::with_capacity(rows.len() * 160 + 256));
    if header {
        w.write_record(CSV_HEADER).map_err(fail)?;
    }
    let mut number = String::with_capacity(32);
    for r in rows {
        let text = |i: usize| r.try_get_by_index::<Option<String>>(i);
        let int = |i: usize| r.try_get_by_index::<i64>(i);
        let mut put_number = |w: &mut csv::Writer<Vec<u8>>,
                              args: std::fmt::Arguments<'_>|
         -> Result<(), CustomerError> {
            use std::fmt::Write as _;
            number.clear();
            let _ = number.write_fmt(args);
            w.write_field(number.as_bytes()).map_err(fail)
        };
        cell(&mut w, text(0)?.as_deref().unwrap_or(""))?;
        cell(&mut w, &r.try_get_by_index::<String>(1)?)?;
        cell(&mut w, text(2)?.as_deref().unwrap_or(""))?;
        cell(&mut w, text(3)?.as_deref().unwrap_or(""))?;
        w.write_field(r.try_get_by_index::<String>(4)?)
            .map_err(fail)?;
        put_number(&mut w, format_args!("{}", r.try_get_by_index::<i32>(5)?))?;
        for i in [6, 7] {
            put_number(&mut w, format_args!("{}", int(i)?))?;
        }
        let (seconds, sessions) = (int(8)?, int(9)?);
        let average = if sessions > 0 { seconds / sessions } else { 0 };
        put_number(&mut w, format_args!("{average}"))?;
        put_number(&mut w, format_args!("{}", int(10)?))?;
        put_number(&mut w, format_args!("{:.2}", int(11)? as f64 / 100.0))?;
        cell(&mut w, text(12)?.as_deref().unwrap_or(""))?;
        let last: Option<DateTime<Utc>> = r.try_get_by_index(13)?;
        w.write_field(last.map(|d| d.to_rfc3339()).unwrap_or_default())
            .map_err(fail)?;
        let since: DateTime<Utc> = r.try_get_by_index(14)?;
        w.write_field(since.to_rfc3339()).map_err(fail)?;
        cell(&mut w, text(15)?.as_deref().unwrap_or(""))?;
        w.write_record(None::<&[u8]>).map_err(fail)?;
    }
    w.into_inner()
        .map_err(|e| CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}
