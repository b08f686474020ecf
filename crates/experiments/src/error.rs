//! Errors of the A/B test calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("Campaign not found")]
    CampaignNotFound,
    #[error("Test not found")]
    TestNotFound,
    #[error("This campaign already has a running test; pause or close it first")]
    AlreadyRunning,
    #[error("This test is closed")]
    Closed,
    #[error("Variant not found in this test")]
    VariantNotFound,
    #[error("The control cannot be paused; pause the test instead")]
    ControlNotPausable,
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for ExperimentError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_campaigns::CampaignError> for ExperimentError {
    fn from(err: ca_campaigns::CampaignError) -> Self {
        use ca_campaigns::CampaignError as E;
        match err {
            E::NotFound => Self::CampaignNotFound,
            E::Validation { message, errors } => Self::Validation { message, errors },
            E::Infra(e) => Self::Infra(e),
            other => Self::Infra(InfraError::Other(other.to_string())),
        }
    }
}

impl ExperimentError {
    pub(crate) fn field(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        let mut errors = FieldErrors::new();
        errors.insert(field.into(), vec![message.clone()]);
        Self::Validation { message, errors }
    }
}

impl DomainError for ExperimentError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::CampaignNotFound | Self::TestNotFound | Self::VariantNotFound => {
                ErrorKind::NotFound
            }
            Self::AlreadyRunning | Self::Closed | Self::ControlNotPausable => {
                ErrorKind::BusinessRule
            }
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::CampaignNotFound => "campaign_not_found",
            Self::TestNotFound => "test_not_found",
            Self::AlreadyRunning => "test_already_running",
            Self::Closed => "test_closed",
            Self::VariantNotFound => "variant_not_found",
            Self::ControlNotPausable => "control_not_pausable",
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
