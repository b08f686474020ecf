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

fn cycle_months(cycle: &str) -> u32 {
    if cycle == "annual" { 12 } else { 1 }
}

/// The end of a period of `cycle` starting at `start`.
pub fn period_end(start: DateTime<Utc>, cycle: &str) -> DateTime<Utc> {
    start
        .checked_add_months(Months::new(cycle_months(cycle)))
        .unwrap_or(start)
}

/// The end of the period of `cycle` that follows one ending at
/// `current_end`, for a subscription first started at `anchor`. Periods keep
/// the day of the month the subscription started on: one started on 31
/// January runs to 28 February, then to 31 March (not 28 March), so a
/// subscriber never loses days to a short month. A period end that is not on
/// the subscription's day (a refund shortened it) is extended as it is.
pub fn renewal_end(
    anchor: DateTime<Utc>,
    current_end: DateTime<Utc>,
    cycle: &str,
) -> DateTime<Utc> {
    let elapsed = (current_end.year() - anchor.year()) * 12 + current_end.month() as i32
        - anchor.month() as i32;
    let on_the_day = u32::try_from(elapsed)
        .ok()
        .filter(|k| *k > 0)
        .filter(|k| anchor.checked_add_months(Months::new(*k)) == Some(current_end));
    match on_the_day.and_then(|k| anchor.checked_add_months(Months::new(k + cycle_months(cycle)))) {
        Some(end) => end,
        None => period_end(current_end, cycle),
    }
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

    fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 9, 30, 0)
            .single()
            .expect("date")
    }

    #[test]
    fn renewals_keep_the_day_the_subscription_started_on() {
        let anchor = at(2027, 1, 31);
        let first = period_end(anchor, "monthly");
        assert_eq!(first, at(2027, 2, 28));
        let second = renewal_end(anchor, first, "monthly");
        assert_eq!(
            second,
            at(2027, 3, 31),
            "not 28 March: no days lost to February"
        );
        let third = renewal_end(anchor, second, "monthly");
        assert_eq!(third, at(2027, 4, 30));
        assert_eq!(renewal_end(anchor, third, "monthly"), at(2027, 5, 31));
        // Switching to annual billing from the end of a paid month.
        assert_eq!(renewal_end(anchor, first, "annual"), at(2028, 2, 29));
        // A leap day anchor comes back to 29 February in a leap year.
        let leap = at(2028, 2, 29);
        let year = period_end(leap, "annual");
        assert_eq!(year, at(2029, 2, 28));
        assert_eq!(renewal_end(leap, year, "annual"), at(2030, 2, 28));
        assert_eq!(
            renewal_end(leap, at(2031, 2, 28), "annual"),
            at(2032, 2, 29)
        );
    }

    #[test]
    fn a_period_end_off_the_subscription_day_is_extended_as_it_is() {
        // A refund moved the end to the 12th: the next period runs a month from there.
        let anchor = at(2027, 1, 31);
        assert_eq!(
            renewal_end(anchor, at(2027, 3, 12), "monthly"),
            at(2027, 4, 12)
        );
        // Same time of day but another time: also off the day.
        let odd = Utc
            .with_ymd_and_hms(2027, 2, 28, 10, 0, 0)
            .single()
            .expect("date");
        assert_eq!(renewal_end(anchor, odd, "monthly"), odd + Months::new(1));
        // An end before or at the anchor.
        assert_eq!(renewal_end(anchor, anchor, "monthly"), at(2027, 2, 28));
    }
}
