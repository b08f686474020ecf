//! Errors of the customers calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum CustomerError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("Customer not found")]
    NotFound,
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for CustomerError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl CustomerError {
    pub(crate) fn invalid(errors: FieldErrors) -> Self {
        Self::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        }
    }
}

impl DomainError for CustomerError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::NotFound => ErrorKind::NotFound,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::NotFound => "customer_not_found",
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
