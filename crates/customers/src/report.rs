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
    /// (campaign id, campaign name) → customers, for campaigns with a name:
    /// one entry per campaign however often it was renamed (under the name
    /// most of its customers came in with; the caller may know a newer one),
    /// and per name for deleted campaigns.
    campaigns: Vec<(Option<String>, String, u64)>,
}

async fn totals<C: ConnectionTrait>(conn: &C, owner_id: &str) -> Result<Totals, CustomerError> {
    let rows = customer_count::Entity::find()
        .filter(customer_count::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?;
    let mut t = Totals::default();
    // By campaign id (or by name once the campaign is gone): the customers
    // under each name it had.
    let mut campaigns: BTreeMap<(String, String), BTreeMap<String, u64>> = BTreeMap::new();
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
            let key = if row.campaign_id.is_empty() {
                (String::new(), row.campaign_name.clone())
            } else {
                (row.campaign_id, String::new())
            };
            *campaigns
                .entry(key)
                .or_default()
                .entry(row.campaign_name)
                .or_default() += n;
        }
    }
    t.campaigns = campaigns
        .into_iter()
        .map(|((id, _), names)| {
            let n = names.values().sum();
            let name = names
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                .map(|(name, _)| name)
                .unwrap_or_default();
            ((!id.is_empty()).then_some(id), name, n)
        })
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
    // Four independent counts, run side by side on the pool.
    let (later, later_buyers, new, active) = tokio::try_join!(
        mine()
            .filter(customer::Column::CreatedAt.gte(to))
            .count(conn),
        mine()
            .filter(customer::Column::ConversionStatus.eq("customer"))
            .filter(customer::Column::CreatedAt.gte(to))
            .count(conn),
        mine()
            .filter(customer::Column::CreatedAt.gte(from))
            .filter(customer::Column::CreatedAt.lt(to))
            .count(conn),
        mine()
            .filter(customer::Column::ConversionStatus.eq("lead"))
            .filter(customer::Column::LastConversationDate.gte(from))
            .filter(customer::Column::LastConversationDate.lt(to))
            .count(conn),
    )?;
    let total = totals.all.saturating_sub(later);
    let buyers = totals.stats.customer.saturating_sub(later_buyers);
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
    page: Page,
}

enum Page {
    /// PostgreSQL: the rows as they come.
    Rows(Vec<sea_orm::QueryResult>),
    /// SQLite: the page as one JSON array of rows built by SQLite itself
    /// (`json_group_array`), with its row count and last id: one value per
    /// page instead of one per cell, which is what made the export slow.
    Json {
        text: String,
        rows: u64,
        last: Option<String>,
    },
}

impl ExportRows {
    /// The id the next page starts after, when a page may follow.
    pub fn next(&self) -> Option<String> {
        match &self.page {
            Page::Rows(rows) if rows.len() as u64 == EXPORT_ROWS => rows
                .last()
                .and_then(|r| r.try_get_by_index::<String>(16).ok()),
            Page::Json { rows, last, .. } if *rows == EXPORT_ROWS => last.clone(),
            _ => None,
        }
    }
}

/// One customer's cells, in the order of [`CSV_HEADER`].
struct Line<'a> {
    name: Option<&'a str>,
    email: &'a str,
    phone: Option<&'a str>,
    company: Option<&'a str>,
    status: &'a str,
    lead_score: i64,
    conversations: i64,
    page_views: i64,
    session_seconds: i64,
    sessions: i64,
    purchases: i64,
    revenue_paise: i64,
    source_campaign: Option<&'a str>,
    last_active: Option<DateTime<Utc>>,
    since: DateTime<Utc>,
    notes: Option<&'a str>,
}

/// A date as SQLite stores it: text in one of the forms SQLite's date
/// functions know, or seconds since 1970, or a Julian day number (the same
/// forms the database driver reads).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum StoredDate<'a> {
    Text(#[serde(borrow)] std::borrow::Cow<'a, str>),
    Seconds(i64),
    Julian(f64),
}

impl StoredDate<'_> {
    fn read(&self) -> Result<DateTime<Utc>, CustomerError> {
        use chrono::{NaiveDateTime, TimeZone};
        let parsed = match self {
            Self::Text(t) => DateTime::parse_from_rfc3339(t)
                .map(|d| d.with_timezone(&Utc))
                .ok()
                .or_else(|| {
                    [
                        "%F %T%.f",
                        "%F %R",
                        "%F %RZ",
                        "%F %R%:z",
                        "%F %T%.fZ",
                        "%F %T%.f%:z",
                        "%FT%R",
                        "%FT%RZ",
                        "%FT%R%:z",
                        "%FT%T%.f",
                        "%FT%T%.fZ",
                        "%FT%T%.f%:z",
                    ]
                    .iter()
                    .find_map(|f| {
                        DateTime::parse_from_str(t, f)
                            .map(|d| d.with_timezone(&Utc))
                            .ok()
                            .or_else(|| {
                                NaiveDateTime::parse_from_str(t, f)
                                    .ok()
                                    .map(|n| n.and_utc())
                            })
                    })
                }),
            Self::Seconds(s) => Utc.timestamp_opt(*s, 0).single(),
            Self::Julian(days) => {
                let seconds = (days - 2_440_587.5) * 86_400.0;
                seconds.is_finite().then_some(()).and_then(|()| {
                    let nanos = (seconds.fract() * 1e9).abs() as u32;
                    Utc.timestamp_opt(seconds.trunc() as i64, nanos).single()
                })
            }
        };
        parsed.ok_or_else(|| {
            CustomerError::Infra(ca_core::error::InfraError::Other(
                "a stored date could not be read".into(),
            ))
        })
    }
}

/// One row of the SQLite page, as `json_array` wrote it.
#[derive(serde::Deserialize)]
struct JsonRow<'a>(
    #[serde(borrow)] Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)] std::borrow::Cow<'a, str>,
    #[serde(borrow)] Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)] Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)] std::borrow::Cow<'a, str>,
    i64,
    i64,
    i64,
    i64,
    i64,
    i64,
    i64,
    #[serde(borrow)] Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)] Option<StoredDate<'a>>,
    #[serde(borrow)] StoredDate<'a>,
    #[serde(borrow)] Option<std::borrow::Cow<'a, str>>,
);

/// The export's columns for SQLite's `json_array`, in the same order, without the id.
const EXPORT_JSON_COLUMNS: &str = "name, email, phone, company, conversion_status, lead_score, \
     total_conversations, total_page_views, total_session_seconds, sessions, total_purchases, \
     revenue_paise, source_campaign, last_conversation_date, created_at, notes";

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
    if ca_core::spreadsheet::needs_guard(value) {
        w.write_field(safe_cell(value))
    } else {
        w.write_field(value)
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
        let (current, previous) = tokio::try_join!(
            headline(&self.db, owner_id, &totals, now - length, end),
            headline(
                &self.db,
                owner_id,
                &totals,
                now - length - length,
                now - length
            ),
        )?;
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
            (_, after) => {
                // SQLite builds the page as one JSON value, in id order.
                let sql = format!(
                    "SELECT json_group_array(json_array({EXPORT_JSON_COLUMNS}) ORDER BY id) AS page, \
                     COUNT(*) AS n, MAX(id) AS last FROM (SELECT * FROM customers \
                     WHERE owner_id = ?{} ORDER BY id LIMIT {EXPORT_ROWS})",
                    if after.is_some() { " AND id > ?" } else { "" }
                );
                let mut values: Vec<sea_orm::Value> = vec![owner_id.into()];
                values.extend(after.map(sea_orm::Value::from));
                let row = self
                    .db
                    .query_one_raw(Statement::from_sql_and_values(backend, sql, values))
                    .await?;
                let (text, rows, last) = match row {
                    Some(r) => (
                        r.try_get::<Option<String>>("", "page")?.unwrap_or_default(),
                        r.try_get::<i64>("", "n")?,
                        r.try_get::<Option<String>>("", "last")?,
                    ),
                    None => (String::new(), 0, None),
                };
                return Ok(ExportRows {
                    page: Page::Json {
                        text,
                        rows: u64::try_from(rows).unwrap_or(0),
                        last,
                    },
                });
            }
        };
        let rows = self
            .db
            .query_all_raw(Statement::from_sql_and_values(backend, sql, values))
            .await?;
        Ok(ExportRows {
            page: Page::Rows(rows),
        })
    }
}

/// One page of the export as CSV lines (the header first when `header`).
pub fn encode_export(page: ExportRows, header: bool) -> Result<Vec<u8>, CustomerError> {
    let mut w = csv::WriterBuilder::new()
        .buffer_capacity(1 << 16)
        .from_writer(Vec::with_capacity(EXPORT_ROWS as usize * 160 + 256));
    if header {
        w.write_record(CSV_HEADER).map_err(fail)?;
    }
    let mut number = String::with_capacity(32);
    match page.page {
        Page::Rows(rows) => {
            for r in rows {
                let text = |i: usize| r.try_get_by_index::<Option<String>>(i);
                let int = |i: usize| r.try_get_by_index::<i64>(i);
                let (name, email, phone, company) = (
                    text(0)?,
                    r.try_get_by_index::<String>(1)?,
                    text(2)?,
                    text(3)?,
                );
                let (status, source, notes) =
                    (r.try_get_by_index::<String>(4)?, text(12)?, text(15)?);
                let line = Line {
                    name: name.as_deref(),
                    email: &email,
                    phone: phone.as_deref(),
                    company: company.as_deref(),
                    status: &status,
                    lead_score: i64::from(r.try_get_by_index::<i32>(5)?),
                    conversations: int(6)?,
                    page_views: int(7)?,
                    session_seconds: int(8)?,
                    sessions: int(9)?,
                    purchases: int(10)?,
                    revenue_paise: int(11)?,
                    source_campaign: source.as_deref(),
                    last_active: r.try_get_by_index(13)?,
                    since: r.try_get_by_index(14)?,
                    notes: notes.as_deref(),
                };
                write_line(&mut w, &mut number, &line)?;
            }
        }
        Page::Json { text, rows, .. } => {
            if rows > 0 {
                let parsed: Vec<JsonRow<'_>> = serde_json::from_str(&text).map_err(|e| {
                    CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string()))
                })?;
                for r in &parsed {
                    let line = Line {
                        name: r.0.as_deref(),
                        email: &r.1,
                        phone: r.2.as_deref(),
                        company: r.3.as_deref(),
                        status: &r.4,
                        lead_score: r.5,
                        conversations: r.6,
                        page_views: r.7,
                        session_seconds: r.8,
                        sessions: r.9,
                        purchases: r.10,
                        revenue_paise: r.11,
                        source_campaign: r.12.as_deref(),
                        last_active: r.13.as_ref().map(StoredDate::read).transpose()?,
                        since: r.14.read()?,
                        notes: r.15.as_deref(),
                    };
                    write_line(&mut w, &mut number, &line)?;
                }
            }
        }
    }
    w.into_inner()
        .map_err(|e| CustomerError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}

/// A moment as the export writes it: ISO 8601 in UTC to the second,
/// `2026-11-25T10:00:00Z` (what spreadsheets read as a date).
pub fn iso_date(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// One customer as a CSV line.
fn write_line(
    w: &mut csv::Writer<Vec<u8>>,
    number: &mut String,
    l: &Line<'_>,
) -> Result<(), CustomerError> {
    let mut put_number = |w: &mut csv::Writer<Vec<u8>>,
                          args: std::fmt::Arguments<'_>|
     -> Result<(), CustomerError> {
        use std::fmt::Write as _;
        number.clear();
        let _ = number.write_fmt(args);
        w.write_field(number.as_bytes()).map_err(fail)
    };
    cell(w, l.name.unwrap_or(""))?;
    cell(w, l.email)?;
    cell(w, l.phone.unwrap_or(""))?;
    cell(w, l.company.unwrap_or(""))?;
    w.write_field(l.status).map_err(fail)?;
    put_number(w, format_args!("{}", l.lead_score))?;
    put_number(w, format_args!("{}", l.conversations))?;
    put_number(w, format_args!("{}", l.page_views))?;
    let average = if l.sessions > 0 {
        l.session_seconds / l.sessions
    } else {
        0
    };
    put_number(w, format_args!("{average}"))?;
    put_number(w, format_args!("{}", l.purchases))?;
    put_number(w, format_args!("{:.2}", l.revenue_paise as f64 / 100.0))?;
    cell(w, l.source_campaign.unwrap_or(""))?;
    w.write_field(l.last_active.map(iso_date).unwrap_or_default())
        .map_err(fail)?;
    w.write_field(iso_date(l.since)).map_err(fail)?;
    cell(w, l.notes.unwrap_or(""))?;
    w.write_record(None::<&[u8]>).map_err(fail)
}

#[cfg(test)]
mod export_tests {
    use super::*;

    /// Dates written by other tools than this server read as the database
    /// driver reads them.
    #[test]
    fn stored_dates_read_in_every_form_sqlite_knows() {
        let at = |s: &str| {
            serde_json::from_str::<StoredDate<'_>>(s)
                .expect("json")
                .read()
                .expect("date")
                .to_rfc3339()
        };
        assert_eq!(
            at(r#""2026-11-25T10:00:00.123456+00:00""#),
            "2026-11-25T10:00:00.123456+00:00"
        );
        assert_eq!(at(r#""2026-11-25 10:00:00""#), "2026-11-25T10:00:00+00:00");
        assert_eq!(
            at(r#""2026-11-25 15:30:00+05:30""#),
            "2026-11-25T10:00:00+00:00"
        );
        assert_eq!(at(r#""2026-11-25T10:00Z""#), "2026-11-25T10:00:00+00:00");
        assert_eq!(at("1795600800"), "2026-11-25T10:00:00+00:00");
        // A Julian day number: 10:00 on 25 November 2026, to the float's precision.
        assert!(at("2461369.9166666665").starts_with("2026-11-25T09:59:59.99"));
        assert!(
            serde_json::from_str::<StoredDate<'_>>(r#""yesterday""#)
                .expect("json")
                .read()
                .is_err()
        );
    }
}
