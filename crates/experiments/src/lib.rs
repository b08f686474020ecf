//! ConvertAssist A/B tests.
//!
//! `stats` holds the numbers a test is read and decided by: per-arm rates
//! with 95 % intervals, an always-valid comparison of each variant with the
//! control (so a test can be looked at every day without inflating false
//! winners), probability to be best, and the rules for when a call may be
//! made (a minimum of days and of visitors, a maximum duration).

pub mod stats;
