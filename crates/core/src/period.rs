//! Reporting periods (`7d`, `30d`, …) accepted by the analytics calls.

use chrono::Duration;

use crate::FieldErrors;

/// A period a call accepts, by its wire name and its length in days.
pub type PeriodChoice = (&'static str, i64);

/// The periods every analytics call accepts (customers and conversations
/// alike, so a dashboard can ask both for the same one).
pub const PERIODS: &[PeriodChoice] = &[
    ("1d", 1),
    ("7d", 7),
    ("30d", 30),
    ("90d", 90),
    ("365d", 365),
];

/// Reads `raw` as one of `allowed` (blank or absent means `default`); an
/// unknown period is a field error on `period` naming the accepted ones.
pub fn parse(
    raw: Option<&str>,
    allowed: &[PeriodChoice],
    default: &'static str,
) -> Result<(String, Duration), FieldErrors> {
    let p = raw
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .unwrap_or(default);
    match allowed.iter().find(|(name, _)| *name == p) {
        Some((name, days)) => Ok(((*name).to_string(), Duration::days(*days))),
        None => {
            let names: Vec<&str> = allowed.iter().map(|(n, _)| *n).collect();
            let list = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} or {last}", rest.join(", "))
                }
                _ => names.join(""),
            };
            let mut errors = FieldErrors::new();
            errors.insert("period".into(), vec![format!("Period must be {list}")]);
            Err(errors)
        }
    }
}

/// The API document's `period` parameter: one of [`PERIODS`]'s names, or empty.
pub fn period_schema() -> utoipa::openapi::schema::Schema {
    crate::paging::blank_or_one_of(&["1d", "7d", "30d", "90d", "365d"])
}

/// The API document's `format` parameter of exports: `csv`, or empty.
pub fn export_format_schema() -> utoipa::openapi::schema::Schema {
    crate::paging::blank_or_one_of(&["csv"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_parse_with_their_default_and_name_the_choices() {
        assert_eq!(
            parse(None, PERIODS, "30d").ok(),
            Some(("30d".to_string(), Duration::days(30)))
        );
        assert_eq!(
            parse(Some(" 1d "), PERIODS, "7d").ok(),
            Some(("1d".to_string(), Duration::days(1)))
        );
        let err = parse(Some("2d"), PERIODS, "7d").err();
        assert_eq!(
            err.map(|e| e["period"].clone()),
            Some(vec!["Period must be 1d, 7d, 30d, 90d or 365d".to_string()])
        );
    }
}
