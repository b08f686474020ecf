//! Errors of the visitor-side calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum TrackingError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("This campaign does not exist")]
    CampaignNotFound,
    /// The owner switched the campaign off: its widget shows nothing and
    /// nothing it reports is counted.
    #[error("This campaign is switched off; its events are not counted")]
    CampaignInactive,
    /// The request came from a site that is not the campaign's.
    #[error("Events for this campaign are only accepted from its website")]
    ForeignOrigin,
    #[error("Too many requests. Please wait a moment and try again.")]
    RateLimited(std::time::Duration),
    /// The event could not be stored (the writer stopped or the database
    /// refused it): it was not counted, and the sender may send it again.
    #[error("The event could not be stored; try again shortly")]
    NotStored,
    /// The server is behind with storing events and turned this one away
    /// rather than accept what it might not store.
    #[error("The server is busy; send the event again in a moment")]
    Busy,
    /// The conversation side refused the step (e.g. an unknown conversation
    /// or a form field that breaks a rule); its answer is passed on as is.
    #[error(transparent)]
    Conversation(#[from] ca_conversations::ConversationError),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for TrackingError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_billing::BillingError> for TrackingError {
    fn from(err: ca_billing::BillingError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl From<ca_campaigns::CampaignError> for TrackingError {
    fn from(err: ca_campaigns::CampaignError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl From<serde_json::Error> for TrackingError {
    fn from(err: serde_json::Error) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl TrackingError {
    pub(crate) fn invalid(errors: FieldErrors) -> Self {
        Self::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        }
    }
}

impl DomainError for TrackingError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::CampaignNotFound => ErrorKind::NotFound,
            Self::CampaignInactive => ErrorKind::Conflict,
            Self::ForeignOrigin => ErrorKind::Forbidden,
            Self::RateLimited(d) => ErrorKind::RateLimited(*d),
            Self::NotStored => ErrorKind::Unavailable(std::time::Duration::from_secs(5)),
            Self::Busy => ErrorKind::Unavailable(std::time::Duration::from_secs(1)),
            Self::Conversation(e) => e.kind(),
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::CampaignNotFound => "campaign_not_found",
            Self::CampaignInactive => "campaign_inactive",
            Self::ForeignOrigin => "origin_not_allowed",
            Self::RateLimited(_) => "rate_limited",
            Self::NotStored => "not_stored",
            Self::Busy => "busy",
            Self::Conversation(e) => e.code(),
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            Self::Conversation(e) => e.field_errors(),
            _ => None,
        }
    }

    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        match self {
            Self::Conversation(e) => e.details(),
            _ => serde_json::Map::new(),
        }
    }
}
