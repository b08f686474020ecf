//! Errors of the push calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("This browser is not subscribed")]
    SubscriptionNotFound,
    #[error("An account can receive notifications in at most {0} browsers")]
    TooManyBrowsers(u64),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for PushError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl DomainError for PushError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::SubscriptionNotFound => ErrorKind::NotFound,
            Self::TooManyBrowsers(_) => ErrorKind::BusinessRule,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::SubscriptionNotFound => "subscription_not_found",
            Self::TooManyBrowsers(_) => "too_many_browsers",
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            _ => None,
        }
    }
}
