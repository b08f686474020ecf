//! Shared building blocks of ConvertAssist: ids, time, the error kinds every
//! domain error maps to, typed configuration, the database pool and rate limits.

pub mod config;
pub mod db;
pub mod error;
pub mod ids;
pub mod rate_limit;
pub mod spreadsheet;
pub mod validation;

pub use config::Config;
pub use error::{DomainError, ErrorKind, FieldErrors};
