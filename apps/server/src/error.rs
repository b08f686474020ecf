//! The one place where domain errors become HTTP answers. Every error body is
//! `{"success": false, "message", "code", "errors"?}`.

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::{HttpResponse, ResponseError};
use ca_core::{DomainError, ErrorKind, FieldErrors};
use serde::Serialize;
use utoipa::ToSchema;

/// The JSON body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always false.
    pub success: bool,
    /// Human text, safe to show.
    pub message: String,
    /// Stable snake_case code clients can switch on.
    pub code: String,
    /// Per-field messages for validation errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<FieldErrors>,
    /// Call-specific fields, e.g. `upgradeRequired` and `isFreePlan` on a plan limit.
    #[serde(flatten)]
    pub details: serde_json::Map<String, serde_json::Value>,
}

/// An error on its way to the client.
#[derive(Debug)]
pub struct ApiError {
    kind: ErrorKind,
    code: &'static str,
    message: String,
    errors: Option<FieldErrors>,
    details: serde_json::Map<String, serde_json::Value>,
}

const INTERNAL_MESSAGE: &str = "Something went wrong on our side. Please try again.";

impl ApiError {
    /// An error of `kind` with a stable `code` and a message safe to show.
    pub fn new(kind: ErrorKind, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            kind,
            code,
            message: message.into(),
            errors: None,
            details: serde_json::Map::new(),
        }
    }

    /// A JSON 404.
    pub fn not_found() -> Self {
        Self::new(ErrorKind::NotFound, "not_found", "Not found")
    }

    /// The same error shown to the caller with `message` (when the domain
    /// error's own text is for the log).
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// The message shown to the caller.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// A failure of ours; the details go to the log only.
    pub fn internal(err: impl std::fmt::Display) -> Self {
        tracing::error!(error = %err, "internal error");
        Self::new(ErrorKind::Internal, "internal_error", INTERNAL_MESSAGE)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl<E: DomainError> From<E> for ApiError {
    fn from(err: E) -> Self {
        if err.kind() == ErrorKind::Internal {
            return Self::internal(&err);
        }
        Self {
            kind: err.kind(),
            code: err.code(),
            message: err.to_string(),
            errors: err.field_errors().cloned(),
            details: err.details(),
        }
    }
}

/// The HTTP status of each error kind.
pub fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::Validation => StatusCode::BAD_REQUEST,
        ErrorKind::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorKind::BusinessRule => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        status_of(self.kind)
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        if let ErrorKind::RateLimited(retry) | ErrorKind::Unavailable(retry) = self.kind {
            let secs = retry.as_secs().max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&secs) {
                res.insert_header((RETRY_AFTER, value));
            }
        }
        res.json(ErrorBody {
            success: false,
            message: self.message.clone(),
            code: self.code.to_string(),
            errors: self.errors.clone(),
            details: self.details.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_kind_has_its_status() {
        let cases = [
            (ErrorKind::Validation, 400),
            (ErrorKind::Unauthorized, 401),
            (ErrorKind::Forbidden, 403),
            (ErrorKind::NotFound, 404),
            (ErrorKind::Conflict, 409),
            (ErrorKind::TooLarge, 413),
            (ErrorKind::BusinessRule, 422),
            (ErrorKind::RateLimited(Duration::from_secs(3)), 429),
            (ErrorKind::Unavailable(Duration::from_secs(1)), 503),
            (ErrorKind::Internal, 500),
        ];
        for (kind, status) in cases {
            assert_eq!(status_of(kind).as_u16(), status, "{kind:?}");
        }
    }

    #[test]
    fn internal_errors_hide_details() {
        let err = ApiError::internal("connection refused to 10.0.0.5");
        assert_eq!(err.message, INTERNAL_MESSAGE);
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn unavailable_sets_retry_after() {
        let err = ApiError::new(
            ErrorKind::Unavailable(Duration::from_secs(2)),
            "busy",
            "later",
        );
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            res.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()),
            Some("2")
        );
    }

    #[test]
    fn rate_limited_sets_retry_after() {
        let err = ApiError::new(
            ErrorKind::RateLimited(Duration::from_secs(42)),
            "rate_limited",
            "slow down",
        );
        let res = err.error_response();
        assert_eq!(
            res.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()),
            Some("42")
        );
    }
}
