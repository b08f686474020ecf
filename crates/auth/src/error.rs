//! Errors of the accounts domain.

use std::time::Duration;

use ca_core::error::InfraError;
use ca_core::{DomainError, ErrorKind, FieldErrors};

/// Everything an accounts call can refuse with.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Input breaks a rule; `message` is the first field message.
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("An account with this email already exists")]
    EmailTaken,
    #[error("Invalid email or password")]
    InvalidCredentials,
    #[error("Authentication required")]
    MissingToken,
    #[error("Your session has expired. Please sign in again.")]
    InvalidToken,
    #[error("Current password is incorrect")]
    WrongCurrentPassword,
    #[error("Invalid or expired reset token")]
    InvalidResetToken,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(Duration),
    #[error("You don't have permission to do this")]
    Forbidden,
    #[error("User not found")]
    UserNotFound,
    /// Refused under a "login as user" session: what only the account's
    /// owner may do (their password, their other sessions).
    #[error("This can only be done by the account's owner, not while signed in as them")]
    NotWhileActingAs,
    /// Return to admin, with a token that is not a "login as user" one.
    #[error("This session is not a login as another user")]
    NotActingAs,
    /// Staff may sign in as owners only, never as other staff.
    #[error("Only owner accounts can be signed in as")]
    LoginAsOwnersOnly,
    /// Sign-in to an account staff have suspended.
    #[error("This account has been suspended. Please contact support to restore access.")]
    AccountSuspended,
    /// Set-up asked for while two-factor sign-in is already on.
    #[error("Two-factor sign-in is already on. Turn it off first to set up a new app.")]
    TwoFactorAlreadyEnabled,
    #[error("Set up two-factor sign-in first")]
    TwoFactorNotSetUp,
    #[error("Two-factor sign-in is not on")]
    TwoFactorNotEnabled,
    #[error("That code is not right. Check your authenticator app and try again.")]
    InvalidTwoFactorCode,
    /// The sign-in's second step is unknown, used or past its 5 minutes.
    #[error("This sign-in has expired. Please sign in again.")]
    InvalidChallenge,
    /// Five wrong codes: this sign-in is over.
    #[error("Too many wrong codes. Please sign in again.")]
    TwoFactorLocked,
    /// Staff past their grace period without two-factor sign-in.
    #[error("Staff accounts must turn on two-factor sign-in. Set it up to continue.")]
    TwoFactorEnrolmentRequired,
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for AuthError {
    fn from(err: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(err))
    }
}

impl AuthError {
    /// A validation error on one field.
    pub fn field(field: &str, message: &str) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.to_string(), vec![message.to_string()]);
        Self::Validation {
            message: message.to_string(),
            errors,
        }
    }

    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self::Infra(InfraError::Other(message.into()))
    }
}

impl DomainError for AuthError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. }
            | Self::WrongCurrentPassword
            | Self::InvalidResetToken
            | Self::InvalidTwoFactorCode => ErrorKind::Validation,
            Self::TwoFactorAlreadyEnabled => ErrorKind::Conflict,
            Self::TwoFactorNotSetUp | Self::TwoFactorNotEnabled => ErrorKind::BusinessRule,
            Self::InvalidChallenge => ErrorKind::Unauthorized,
            Self::TwoFactorLocked | Self::TwoFactorEnrolmentRequired => ErrorKind::Forbidden,
            Self::EmailTaken => ErrorKind::Conflict,
            Self::InvalidCredentials | Self::MissingToken | Self::InvalidToken => {
                ErrorKind::Unauthorized
            }
            Self::RateLimited(retry) => ErrorKind::RateLimited(*retry),
            Self::Forbidden
            | Self::NotWhileActingAs
            | Self::LoginAsOwnersOnly
            | Self::AccountSuspended => ErrorKind::Forbidden,
            Self::UserNotFound => ErrorKind::NotFound,
            Self::NotActingAs => ErrorKind::BusinessRule,
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::EmailTaken => "email_taken",
            Self::InvalidCredentials => "invalid_credentials",
            Self::MissingToken => "missing_token",
            Self::InvalidToken => "invalid_token",
            Self::WrongCurrentPassword => "wrong_password",
            Self::InvalidResetToken => "invalid_reset_token",
            Self::RateLimited(_) => "rate_limited",
            Self::Forbidden => "forbidden",
            Self::UserNotFound => "user_not_found",
            Self::NotWhileActingAs => "not_while_acting_as",
            Self::LoginAsOwnersOnly => "login_as_owners_only",
            Self::NotActingAs => "not_acting_as",
            Self::AccountSuspended => "account_suspended",
            Self::TwoFactorAlreadyEnabled => "two_factor_already_enabled",
            Self::TwoFactorNotSetUp => "two_factor_not_set_up",
            Self::TwoFactorNotEnabled => "two_factor_not_enabled",
            Self::InvalidTwoFactorCode => "invalid_two_factor_code",
            Self::InvalidChallenge => "invalid_challenge",
            Self::TwoFactorLocked => "two_factor_locked",
            Self::TwoFactorEnrolmentRequired => "two_factor_enrolment_required",
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
