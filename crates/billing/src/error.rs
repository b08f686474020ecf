//! Errors of the billing domain.

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind};

/// Everything a billing call can refuse with.
#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    #[error("Plan not found")]
    PlanNotFound,
    #[error("Please choose a plan")]
    MissingPlan,
    #[error("The free plan cannot be purchased")]
    FreePlan,
    #[error("This plan is invite-only. Please contact us for an invitation.")]
    InviteOnly,
    #[error("The {0} plan is sold through our sales team. Please contact sales.")]
    ContactSales(String),
    #[error("You are already subscribed to this plan")]
    AlreadySubscribed,
    #[error("Demo payments are turned off because a payment provider is configured")]
    DemoPaymentsDisabled,
    #[error("Billing cycle must be monthly or annual")]
    BadCycle,
    #[error("Payment not found")]
    PaymentNotFound,
    #[error("There is no paid subscription to cancel")]
    NothingToCancel,
    #[error("Your subscription is already cancelled and ends at the end of the paid period")]
    AlreadyCancelled,
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for BillingError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl From<ca_auth::AuthError> for BillingError {
    fn from(err: ca_auth::AuthError) -> Self {
        Self::Infra(InfraError::Other(err.to_string()))
    }
}

impl DomainError for BillingError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::PlanNotFound => ErrorKind::NotFound,
            Self::MissingPlan | Self::BadCycle => ErrorKind::Validation,
            Self::PaymentNotFound => ErrorKind::NotFound,
            Self::NothingToCancel | Self::AlreadyCancelled => ErrorKind::BusinessRule,
            Self::FreePlan | Self::ContactSales(_) => ErrorKind::BusinessRule,
            Self::InviteOnly | Self::DemoPaymentsDisabled => ErrorKind::Forbidden,
            Self::AlreadySubscribed => ErrorKind::Conflict,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::PlanNotFound => "plan_not_found",
            Self::MissingPlan => "validation_failed",
            Self::FreePlan => "free_plan",
            Self::InviteOnly => "invite_only",
            Self::ContactSales(_) => "contact_sales",
            Self::AlreadySubscribed => "already_subscribed",
            Self::DemoPaymentsDisabled => "demo_payments_disabled",
            Self::BadCycle => "validation_failed",
            Self::PaymentNotFound => "payment_not_found",
            Self::NothingToCancel => "nothing_to_cancel",
            Self::AlreadyCancelled => "already_cancelled",
            Self::Infra(_) => "internal_error",
        }
    }
}
