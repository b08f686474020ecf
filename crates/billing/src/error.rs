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
    #[error(
        "The {plan} plan is priced in {currency}, and online payments are charged in INR only. Please contact sales: our team will set the plan up for you."
    )]
    CheckoutCurrency { plan: String, currency: String },
    #[error("You are already subscribed to this plan")]
    AlreadySubscribed,
    #[error("Demo payments are turned off because a payment provider is configured")]
    DemoPaymentsDisabled,
    #[error("Billing cycle must be monthly or annual")]
    BadCycle,
    #[error("{message}")]
    Validation {
        message: String,
        errors: ca_core::FieldErrors,
    },
    #[error("A plan with the id {0} already exists")]
    PlanExists(String),
    #[error("The free plan stays free and active")]
    FreePlanFixed,
    #[error("Payment not found")]
    PaymentNotFound,
    #[error("There is no paid subscription to cancel")]
    NothingToCancel,
    #[error("Your subscription is already cancelled and ends at the end of the paid period")]
    AlreadyCancelled,
    #[error("There is no cancelled subscription to resume")]
    NothingToResume,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(std::time::Duration),
    #[error("Only a successful payment can be refunded")]
    NotRefundable,
    #[error("The refund was not made: {0}")]
    RefundRefused(String),
    #[error("A refund of this payment is already on its way to PayU; refresh in a minute")]
    RefundInProgress,
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

impl BillingError {
    /// A validation error on one field.
    pub fn field(field: &str, message: &str) -> Self {
        let mut errors = ca_core::FieldErrors::new();
        errors.insert(field.to_string(), vec![message.to_string()]);
        Self::invalid(errors)
    }

    pub(crate) fn invalid(errors: ca_core::FieldErrors) -> Self {
        Self::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        }
    }
}

impl DomainError for BillingError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::PlanNotFound => ErrorKind::NotFound,
            Self::MissingPlan | Self::BadCycle | Self::Validation { .. } => ErrorKind::Validation,
            Self::PlanExists(_) => ErrorKind::Conflict,
            Self::FreePlanFixed => ErrorKind::BusinessRule,
            Self::PaymentNotFound => ErrorKind::NotFound,
            Self::NothingToCancel | Self::AlreadyCancelled | Self::NothingToResume => {
                ErrorKind::BusinessRule
            }
            Self::FreePlan | Self::ContactSales(_) | Self::CheckoutCurrency { .. } => {
                ErrorKind::BusinessRule
            }
            Self::InviteOnly | Self::DemoPaymentsDisabled => ErrorKind::Forbidden,
            Self::AlreadySubscribed => ErrorKind::Conflict,
            Self::RateLimited(retry) => ErrorKind::RateLimited(*retry),
            Self::NotRefundable | Self::RefundRefused(_) => ErrorKind::BusinessRule,
            Self::RefundInProgress => ErrorKind::Conflict,
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
            Self::CheckoutCurrency { .. } => "checkout_currency",
            Self::AlreadySubscribed => "already_subscribed",
            Self::DemoPaymentsDisabled => "demo_payments_disabled",
            Self::BadCycle | Self::Validation { .. } => "validation_failed",
            Self::PlanExists(_) => "plan_exists",
            Self::FreePlanFixed => "free_plan_fixed",
            Self::PaymentNotFound => "payment_not_found",
            Self::NothingToCancel => "nothing_to_cancel",
            Self::AlreadyCancelled => "already_cancelled",
            Self::NothingToResume => "nothing_to_resume",
            Self::RateLimited(_) => "rate_limited",
            Self::NotRefundable => "not_refundable",
            Self::RefundRefused(_) => "refund_refused",
            Self::RefundInProgress => "refund_in_progress",
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&ca_core::FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            _ => None,
        }
    }
}
