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

/// [`PERIODS`] as the API document lists them (a query parameter's values).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub enum PeriodName {
    #[serde(rename = "1d")]
    D1,
    #[serde(rename = "7d")]
    D7,
    #[serde(rename = "30d")]
    D30,
    #[serde(rename = "90d")]
    D90,
    #[serde(rename = "365d")]
    D365,
}

/// The only export format, as the API document lists it.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum ExportFormat {
    Csv,
}
