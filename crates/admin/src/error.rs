//! Errors of the admin calls.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("Only administrators and superusers can do this")]
    AdminRequired,
    #[error("Only a superuser can do this")]
    SuperuserRequired,
    #[error("You cannot {0} your own account")]
    SelfAction(&'static str),
    #[error("The last superuser cannot be removed or demoted")]
    LastSuperuser,
    #[error(
        "No mail server is set (CA_SMTP_URL): emails are kept in the outbox and cannot be sent"
    )]
    NoMailServer,
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error(transparent)]
    Auth(#[from] ca_auth::AuthError),
    #[error(transparent)]
    Billing(#[from] ca_billing::BillingError),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for AdminError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_campaigns::CampaignError> for AdminError {
    fn from(err: ca_campaigns::CampaignError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl From<ca_customers::CustomerError> for AdminError {
    fn from(err: ca_customers::CustomerError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl AdminError {
    pub(crate) fn field(field: &str, message: &str) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.into(), vec![message.into()]);
        Self::Validation {
            message: message.into(),
            errors,
        }
    }
}

impl DomainError for AdminError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::AdminRequired | Self::SuperuserRequired => ErrorKind::Forbidden,
            Self::SelfAction(_) | Self::LastSuperuser | Self::NoMailServer => {
                ErrorKind::BusinessRule
            }
            Self::Validation { .. } => ErrorKind::Validation,
            Self::Auth(e) => e.kind(),
            Self::Billing(e) => e.kind(),
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::AdminRequired => "admin_required",
            Self::SuperuserRequired => "superuser_required",
            Self::SelfAction(_) => "self_action",
            Self::LastSuperuser => "last_superuser",
            Self::NoMailServer => "no_mail_server",
            Self::Validation { .. } => "validation_failed",
            Self::Auth(e) => e.code(),
            Self::Billing(e) => e.code(),
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            Self::Auth(e) => e.field_errors(),
            Self::Billing(e) => e.field_errors(),
            _ => None,
        }
    }
}
