//! Errors of the campaigns domain.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};
use serde_json::{Map, Value, json};

/// Message when a free or trial owner is at the campaign limit (the
/// dashboard shows it as is and offers an upgrade).
pub const FREE_LIMIT_MESSAGE: &str =
    "You've reached your free plan limit. Upgrade to create more campaigns.";
/// Message when a paid owner is at the campaign limit.
pub const PAID_LIMIT_MESSAGE: &str = "Campaign limit exceeded. Please upgrade your plan.";

/// Everything a campaign call can refuse with.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("Campaign not found")]
    NotFound,
    /// The owner's plan allows no more campaigns.
    #[error("{}", if *is_free_plan { FREE_LIMIT_MESSAGE } else { PAID_LIMIT_MESSAGE })]
    LimitReached { is_free_plan: bool, limit: i32 },
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for CampaignError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_billing::BillingError> for CampaignError {
    fn from(err: ca_billing::BillingError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl CampaignError {
    pub(crate) fn invalid(errors: FieldErrors) -> Self {
        Self::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        }
    }
}

impl DomainError for CampaignError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::NotFound => ErrorKind::NotFound,
            Self::LimitReached { .. } => ErrorKind::Forbidden,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::NotFound => "campaign_not_found",
            Self::LimitReached { .. } => "plan_limit_reached",
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
        match self {
            Self::LimitReached {
                is_free_plan,
                limit,
            } => {
                let mut m = Map::new();
                m.insert("upgradeRequired".into(), json!(true));
                m.insert("isFreePlan".into(), json!(is_free_plan));
                m.insert("limit".into(), json!(limit));
                m
            }
            _ => Map::new(),
        }
    }
}
