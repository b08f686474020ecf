//! The error kinds shared by every domain crate. Each domain crate keeps its own
//! `thiserror` enum and says, through [`DomainError`], which kind each variant is;
//! the server turns kinds into HTTP statuses in one place.

use std::collections::BTreeMap;
use std::time::Duration;

/// Field name → human messages, serialised as `errors: {field: [msg]}`.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// What went wrong, independent of transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is malformed or breaks a rule (400).
    Validation,
    /// No credentials, or credentials that are not valid (401).
    Unauthorized,
    /// Authenticated but not allowed, including plan limits (403).
    Forbidden,
    /// Absent, or owned by someone else (404).
    NotFound,
    /// Clashes with something already stored (409).
    Conflict,
    /// The request body is too large (413).
    TooLarge,
    /// Well-formed but refused by a business rule (422).
    BusinessRule,
    /// Too many attempts; retry after the given time (429).
    RateLimited(Duration),
    /// Could not be done now; the caller may try again after the given time (503).
    Unavailable(Duration),
    /// A fault of ours; the message is never shown to the caller (500).
    Internal,
}

/// Implemented by every domain error so the server can map it without knowing it.
pub trait DomainError: std::error::Error {
    /// The kind, which decides the HTTP status.
    fn kind(&self) -> ErrorKind;
    /// A stable snake_case code clients can switch on.
    fn code(&self) -> &'static str;
    /// Per-field messages for validation errors.
    fn field_errors(&self) -> Option<&FieldErrors> {
        None
    }
    /// Extra top-level fields of the error body (e.g. `upgradeRequired`).
    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}

/// Failures of the shared infrastructure (database, cache) that domain crates wrap.
#[derive(Debug, thiserror::Error)]
pub enum InfraError {
    #[error("database error: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("cache error: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("{0}")]
    Other(String),
}
