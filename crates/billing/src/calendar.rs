//! Calendar arithmetic billing shares: where a month starts (monthly
//! counters reset there) and where a paid period ends.

use chrono::{DateTime, Datelike, Months, TimeZone, Utc};

/// The first instant of the next calendar month (UTC): when monthly counters reset.
pub fn next_month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    let first = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now);
    first.checked_add_months(Months::new(1)).unwrap_or(first)
}

/// The first instant of the current calendar month (UTC).
pub fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

/// The end of a period of `cycle` starting at `start`.
pub fn period_end(start: DateTime<Utc>, cycle: &str) -> DateTime<Utc> {
    let months = if cycle == "annual" { 12 } else { 1 };
    start
        .checked_add_months(Months::new(months))
        .unwrap_or(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn month_boundaries() {
        let t = Utc
            .with_ymd_and_hms(2026, 12, 15, 10, 0, 0)
            .single()
            .expect("date");
        assert_eq!(
            next_month_start(t),
            Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0)
                .single()
                .expect("date")
        );
        assert_eq!(
            month_start(t),
            Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0)
                .single()
                .expect("date")
        );
    }
}
