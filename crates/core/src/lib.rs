//! Shared building blocks of ConvertAssist: ids, time, the error kinds every
//! domain error maps to, typed configuration, the database pool, rate limits,
//! and the list helpers every owner-facing call shares (pages, periods, search,
//! figures).

pub mod config;
pub mod db;
pub mod error;
pub mod figures;
pub mod freshness;
pub mod gst;
pub mod ids;
pub mod paging;
pub mod period;
pub mod rate_limit;
pub mod sealed;
pub mod search;
pub mod spreadsheet;
pub mod validation;
pub mod write_gate;

pub use config::Config;
pub use error::{DomainError, ErrorKind, FieldErrors};
