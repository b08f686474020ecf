//! ConvertAssist A/B tests.
//!
//! `stats` holds the numbers a test is read and decided by: per-arm rates
//! with 95 % intervals, an always-valid comparison of each variant with the
//! control (so a test can be looked at every day without inflating false
//! winners), probability to be best, and the rules for when a call may be
//! made (a minimum of days and of visitors, a maximum duration).
//!
//! `service` holds the owner's tests of a campaign (the tables
//! `experiment_tests`, `experiment_variants`, `experiment_counts` and
//! `experiment_exposures`), the per-variant counters the widget's traffic
//! feeds (each visitor counted once per test), and what the widget's
//! public config carries while a test runs.
//!
//! `decisions` is the worker that records a test's call when it is due and
//! tells the owner (email and browser notice), promoting the winner by
//! itself when the owner chose so. Reading results writes nothing.
//!
//! `arms` checks the variant a visitor's widget reports (kept in memory
//! for a few seconds), before anything is counted for it.

pub mod arms;
pub mod decisions;
pub mod dto;
pub mod entities;
pub mod error;
pub mod retention;
pub mod service;
pub mod stats;

pub use arms::ArmCache;
pub use error::ExperimentError;
pub use service::ExperimentService;
