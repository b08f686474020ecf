//! The lead score: how promising a customer is, from what they told us and
//! how they engaged, as a rule in Rust and the same rule as SQL over the
//! stored columns (so a write that moves a counter sets the score in place).

use sea_orm::sea_query::Expr;
use sea_orm::{ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use crate::entities::customer;

/// What a customer's lead score is computed from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Engagement {
    pub has_email: bool,
    pub has_name: bool,
    pub has_phone: bool,
    pub has_company: bool,
    pub messages: i64,
    pub page_views: i64,
    /// Average session length in seconds.
    pub average_session_seconds: i64,
    pub purchases: i64,
}

/// The lead score, 0–100:
///
/// | signal | points |
/// |---|---|
/// | data collected | email 20, name 10, phone 15, company 5 |
/// | chat messages sent | 2 each, at most 20 |
/// | page views | 1 each, at most 10 |
/// | average session time | 1 per 30 s, at most 10 |
/// | purchases | 10 each, at most 20 |
///
/// (A maximum of 110, capped at 100: a buyer who gave everything is a 100.)
pub fn lead_score(e: &Engagement) -> i32 {
    let data = [
        (e.has_email, 20),
        (e.has_name, 10),
        (e.has_phone, 15),
        (e.has_company, 5),
    ]
    .iter()
    .filter(|(has, _)| *has)
    .map(|(_, p)| p)
    .sum::<i64>();
    let score = data
        + (e.messages.max(0) * 2).min(20)
        + e.page_views.clamp(0, 10)
        + (e.average_session_seconds.max(0) / 30).min(10)
        + (e.purchases.max(0) * 10).min(20);
    i32::try_from(score.min(100)).unwrap_or(100)
}

/// [`lead_score`] as SQL over the row's own columns, so a write that changes a
/// counter can set the score from the values it just stored (one atomic
/// `UPDATE`, never a score computed from an earlier read).
pub static LEAD_SCORE_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let sum = "(CASE WHEN email <> '' THEN 20 ELSE 0 END) \
+ (CASE WHEN COALESCE(name, '') <> '' THEN 10 ELSE 0 END) \
+ (CASE WHEN COALESCE(phone, '') <> '' THEN 15 ELSE 0 END) \
+ (CASE WHEN COALESCE(company, '') <> '' THEN 5 ELSE 0 END) \
+ (CASE WHEN total_messages >= 10 THEN 20 WHEN total_messages > 0 THEN total_messages * 2 ELSE 0 END) \
+ (CASE WHEN total_page_views >= 10 THEN 10 WHEN total_page_views > 0 THEN total_page_views ELSE 0 END) \
+ (CASE WHEN sessions > 0 AND total_session_seconds > 0 THEN \
(CASE WHEN total_session_seconds / sessions >= 300 THEN 10 ELSE total_session_seconds / sessions / 30 END) ELSE 0 END) \
+ (CASE WHEN total_purchases >= 2 THEN 20 WHEN total_purchases > 0 THEN total_purchases * 10 ELSE 0 END)";
    // Capped at 100 (no LEAST/MIN that both databases share).
    format!("(CASE WHEN ({sum}) > 100 THEN 100 ELSE ({sum}) END)")
});

/// Sets the lead score of the customers `filter` picks from their stored
/// columns (inside the caller's transaction, after it changed them).
pub async fn refresh_lead_scores<C: ConnectionTrait>(
    conn: &C,
    filter: sea_orm::Condition,
) -> Result<(), DbErr> {
    customer::Entity::update_many()
        .col_expr(
            customer::Column::LeadScore,
            Expr::cust(LEAD_SCORE_SQL.as_str()),
        )
        .filter(filter)
        .exec(conn)
        .await?;
    Ok(())
}

/// `column + n`, for counters moved in place.
pub(crate) fn plus(column: customer::Column, n: i64) -> sea_orm::sea_query::SimpleExpr {
    sea_orm::sea_query::ExprTrait::add(Expr::col(column), n)
}

/// The engagement a stored customer shows.
pub fn engagement_of(c: &customer::Model) -> Engagement {
    Engagement {
        has_email: !c.email.is_empty(),
        has_name: c.name.as_deref().is_some_and(|v| !v.is_empty()),
        has_phone: c.phone.as_deref().is_some_and(|v| !v.is_empty()),
        has_company: c.company.as_deref().is_some_and(|v| !v.is_empty()),
        messages: c.total_messages,
        page_views: c.total_page_views,
        average_session_seconds: if c.sessions > 0 {
            c.total_session_seconds / c.sessions
        } else {
            0
        },
        purchases: c.total_purchases,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_follows_the_documented_rule() {
        assert_eq!(lead_score(&Engagement::default()), 0);
        let email_only = Engagement {
            has_email: true,
            ..Engagement::default()
        };
        assert_eq!(lead_score(&email_only), 20);
        let chatty = Engagement {
            has_email: true,
            has_name: true,
            messages: 4,
            page_views: 3,
            average_session_seconds: 95,
            ..Engagement::default()
        };
        assert_eq!(lead_score(&chatty), 20 + 10 + 8 + 3 + 3);
        let everything = Engagement {
            has_email: true,
            has_name: true,
            has_phone: true,
            has_company: true,
            messages: 50,
            page_views: 50,
            average_session_seconds: 3600,
            purchases: 5,
        };
        assert_eq!(lead_score(&everything), 100);
    }
}
