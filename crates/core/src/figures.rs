//! Figures shown to owners, computed one way everywhere.

/// `part` per 100 of `whole`, rounded to 2 decimals; 0 when `whole` is 0.
pub fn percent(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        return 0.0;
    }
    round(part as f64 / whole as f64 * 100.0, 2)
}

/// `value` rounded to `places` decimals.
pub fn round(value: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (value * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_to_two_decimals() {
        assert_eq!(percent(0, 0), 0.0);
        assert_eq!(percent(1, 3), 33.33);
        assert_eq!(percent(2, 3), 66.67);
        assert_eq!(percent(5, 5), 100.0);
        assert_eq!(round(4.25, 1), 4.3);
    }
}
