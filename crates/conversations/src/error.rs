//! Errors of the conversations domain. Every refusal carries a message the
//! widget can show the visitor as it is.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};
use serde_json::{Map, Value};

use crate::dto::PublicForm;

/// Everything a widget conversation call can refuse with.
#[derive(Debug, thiserror::Error)]
pub enum ConversationError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("This campaign does not exist")]
    CampaignNotFound,
    #[error("This campaign is not active right now")]
    CampaignInactive,
    #[error("This conversation does not exist")]
    NotFound,
    #[error("This conversation has ended. Start a new one to keep chatting.")]
    Ended,
    #[error("This form is not part of the campaign")]
    FormNotFound,
    /// The conversation reached its message cap; the lead form still works.
    #[error(
        "This chat has reached its message limit. Leave your email and the team will get back to you."
    )]
    MessageLimit { form: Box<PublicForm> },
    #[error("Too many requests. Please wait a moment and try again.")]
    RateLimited(std::time::Duration),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for ConversationError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_billing::BillingError> for ConversationError {
    fn from(err: ca_billing::BillingError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl From<serde_json::Error> for ConversationError {
    fn from(err: serde_json::Error) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl ConversationError {
    pub fn invalid(errors: FieldErrors) -> Self {
        Self::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        }
    }

    pub fn field(field: &str, message: &str) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.into(), vec![message.into()]);
        Self::invalid(errors)
    }
}

impl DomainError for ConversationError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::CampaignNotFound | Self::NotFound | Self::FormNotFound => ErrorKind::NotFound,
            Self::CampaignInactive => ErrorKind::Forbidden,
            Self::Ended => ErrorKind::Conflict,
            Self::MessageLimit { .. } => ErrorKind::BusinessRule,
            Self::RateLimited(retry) => ErrorKind::RateLimited(*retry),
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::CampaignNotFound => "campaign_not_found",
            Self::CampaignInactive => "campaign_inactive",
            Self::NotFound => "conversation_not_found",
            Self::Ended => "conversation_ended",
            Self::FormNotFound => "form_not_found",
            Self::MessageLimit { .. } => "message_limit_reached",
            Self::RateLimited(_) => "rate_limited",
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            _ => None,
        }
    }

    fn details(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if let Self::MessageLimit { form } = self
            && let Ok(form) = serde_json::to_value(form)
        {
            m.insert("form".into(), form);
        }
        m
    }
}
