//! Errors of the webhooks calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("Endpoint not found")]
    EndpointNotFound,
    #[error("Delivery not found")]
    DeliveryNotFound,
    #[error("An owner can have at most {0} endpoints")]
    TooManyEndpoints(usize),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for WebhookError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl WebhookError {
    pub(crate) fn field(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        let mut errors = FieldErrors::new();
        errors.insert(field.into(), vec![message.clone()]);
        Self::Validation { message, errors }
    }
}

impl DomainError for WebhookError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::EndpointNotFound | Self::DeliveryNotFound => ErrorKind::NotFound,
            Self::TooManyEndpoints(_) => ErrorKind::BusinessRule,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::EndpointNotFound => "endpoint_not_found",
            Self::DeliveryNotFound => "delivery_not_found",
            Self::TooManyEndpoints(_) => "too_many_endpoints",
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
