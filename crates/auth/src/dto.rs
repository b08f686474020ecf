//! Wire types of the accounts API (camelCase, the field names existing
//! clients already use).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::Validate;

use crate::entities::user;
use crate::rules;

/// `POST /api/auth/register`.
#[derive(Debug, Clone, Deserialize, ToSchema, Validate)]
pub struct RegisterIn {
    #[serde(default)]
    #[validate(custom(function = "rules::name"))]
    #[schema(required = true, min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    #[serde(default)]
    #[validate(custom(function = "rules::email"))]
    #[schema(required = true, format = "email", max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[validate(custom(function = "rules::password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
    /// Country code and number, e.g. `+91 9876543210`.
    #[serde(default)]
    #[validate(custom(function = "rules::phone"))]
    #[schema(
        required = true,
        max_length = 32,
        pattern = r"^ *\+?[ ()\-]*(?:[0-9][ ()\-]*){6,15}$"
    )]
    pub phone: String,
}

/// `POST /api/auth/login`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct LoginIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub password: String,
}

/// `PUT /api/auth/me`: only the fields present change.
#[derive(Debug, Clone, Default, Deserialize, ToSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub struct UpdateMeIn {
    #[validate(custom(function = "rules::optional_name"))]
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: Option<String>,
    #[validate(custom(function = "rules::optional_phone"))]
    #[schema(max_length = 32, pattern = r"^ *\+?[ ()\-]*(?:[0-9][ ()\-]*){6,15}$")]
    pub phone: Option<String>,
    /// Receive account and campaign emails.
    pub email_notifications: Option<bool>,
    /// Receive browser push notifications.
    pub push_notifications: Option<bool>,
}

/// `POST /api/auth/change-password`.
#[derive(Debug, Clone, Deserialize, ToSchema, Validate)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub current_password: String,
    #[serde(default)]
    #[validate(custom(function = "rules::password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub new_password: String,
}

/// `POST /api/auth/forgot-password`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ForgotPasswordIn {
    #[serde(default)]
    #[schema(required = true, format = "email", max_length = 254)]
    pub email: String,
}

/// `POST /api/auth/reset-password`.
#[derive(Debug, Clone, Deserialize, ToSchema, Validate)]
pub struct ResetPasswordIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub token: String,
    #[serde(default)]
    #[validate(custom(function = "rules::password"))]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
}

/// A user as the dashboard reads it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserOut {
    #[serde(rename = "_id")]
    pub underscore_id: String,
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    /// `user`, `admin` or `superuser`.
    pub role: String,
    pub plan_id: String,
    /// Status as of now.
    pub subscription_status: SubscriptionStatus,
    pub is_in_trial: bool,
    pub trial_ends_at: Option<DateTime<Utc>>,
    /// Whole days left in the trial, rounded up; 0 outside a trial.
    pub trial_remaining_days: i64,
    pub subscription_ends_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub email_notifications: bool,
    pub push_notifications: bool,
}

impl UserOut {
    /// The user as of `now`: an ended trial reads as `free`, an active
    /// subscription past its end date as `expired`.
    pub fn from_model(m: &user::Model, now: DateTime<Utc>) -> Self {
        let (status, in_trial, remaining) = effective_status(m, now);
        Self {
            underscore_id: m.id.clone(),
            id: m.id.clone(),
            name: m.name.clone(),
            email: m.email.clone(),
            phone: m.phone.clone(),
            role: m.role.clone(),
            plan_id: m.plan_id.clone(),
            subscription_status: status,
            is_in_trial: in_trial,
            trial_ends_at: m.trial_ends_at,
            trial_remaining_days: remaining,
            subscription_ends_at: m.subscription_ends_at,
            created_at: m.created_at,
            email_notifications: m.email_notifications,
            push_notifications: m.push_notifications,
        }
    }
}

/// An account's subscription as of now. `trial` and `active` give the
/// trial's or the plan's limits; every other status gives the free plan's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    /// On the free plan.
    Free,
    /// In a trial that has not ended.
    Trial,
    /// On a plan whose period has not ended.
    Active,
    /// Cancelled by staff: the plan stays until its end date
    /// (`subscriptionEndsAt`), then the free plan's limits apply.
    Cancelled,
    /// A plan whose period ended without a new payment.
    Expired,
    /// A payment is due and not yet made (set by staff): the free plan's
    /// limits until the owner pays.
    PastDue,
}

impl SubscriptionStatus {
    /// How it is stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Trial => "trial",
            Self::Active => "active",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
            Self::PastDue => "past_due",
        }
    }

    /// The status stored as `text`; anything unknown is the free plan.
    pub fn stored(text: &str) -> Self {
        match text {
            "trial" => Self::Trial,
            "active" => Self::Active,
            "cancelled" => Self::Cancelled,
            "expired" => Self::Expired,
            "past_due" => Self::PastDue,
            _ => Self::Free,
        }
    }
}

impl std::fmt::Display for SubscriptionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `(status, isInTrial, trialRemainingDays)` of a stored user at `now`: a
/// trial past its end is `free`, an active plan past its end `expired`.
pub fn effective_status(m: &user::Model, now: DateTime<Utc>) -> (SubscriptionStatus, bool, i64) {
    match SubscriptionStatus::stored(&m.subscription_status) {
        SubscriptionStatus::Trial => match m.trial_ends_at {
            Some(end) if end > now => {
                let secs = (end - now).num_seconds();
                (SubscriptionStatus::Trial, true, (secs + 86_399) / 86_400)
            }
            _ => (SubscriptionStatus::Free, false, 0),
        },
        SubscriptionStatus::Active if m.subscription_ends_at.is_some_and(|end| end <= now) => {
            (SubscriptionStatus::Expired, false, 0)
        }
        other => (other, false, 0),
    }
}

/// Whether the account has its plan's limits at `now`: an active plan whose
/// period has not ended, or a plan staff cancelled, until its end date.
pub fn on_plan(m: &user::Model, now: DateTime<Utc>) -> bool {
    match effective_status(m, now).0 {
        SubscriptionStatus::Active => true,
        SubscriptionStatus::Cancelled => m.subscription_ends_at.is_some_and(|end| end > now),
        _ => false,
    }
}

/// `{success, token, user}`: the answer to register, login and reset.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthResponse {
    pub success: bool,
    pub token: String,
    pub user: UserOut,
}

/// The staff member signed in as the user ("login as user").
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct ImpersonatedBy {
    pub id: String,
    pub email: String,
}

/// `{success, user}`; under a "login as user" session also `impersonatedBy`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeResponse {
    pub success: bool,
    pub user: UserOut,
    /// Who is signed in as this user; only under a "login as user" session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonated_by: Option<ImpersonatedBy>,
    /// Two-factor sign-in for this account.
    pub two_factor: TwoFactorStatus,
}

/// `{success, message, token}`: a new token replaces the revoked ones.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangePasswordOut {
    pub success: bool,
    pub message: String,
    pub token: String,
}

/// `{success, message, token, user}`: the reset worked and the user is
/// signed in. An account with two-factor sign-in on gets no `token` nor
/// `user`: it signs in with the new password and a code.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResetPasswordOut {
    pub success: bool,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<UserOut>,
}

/// The answer to a right password: a session, or, with two-factor sign-in
/// on, a challenge to answer with a code at `POST /api/auth/2fa/verify`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginOut {
    Session(Box<AuthResponse>),
    Challenge(TwoFactorChallengeOut),
}

/// `{success, twoFactorRequired, challengeToken}`: the password was right;
/// send a code from the authenticator app (or a recovery code) with the
/// token. The token works once, for 5 minutes, and 5 wrong codes lock it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorChallengeOut {
    pub success: bool,
    /// Always `true`.
    pub two_factor_required: bool,
    pub challenge_token: String,
}

/// `POST /api/auth/2fa/verify`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorVerifyIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub challenge_token: String,
    /// The 6-digit code the app shows, or an unused recovery code.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 32)]
    pub code: String,
}

/// `POST /api/auth/2fa/enable` and `/disable`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct TwoFactorCodeIn {
    /// The 6-digit code the app shows (to turn it off, a recovery code also works).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 32)]
    pub code: String,
}

/// `{secret, otpauthUrl, recoveryCodes, qrSvg}`: what the authenticator app
/// needs (scan the QR code or type the secret) and ten one-time recovery
/// codes, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorSetupOut {
    pub success: bool,
    /// Base32, for typing into the app.
    pub secret: String,
    /// The `otpauth://` link the QR code holds.
    pub otpauth_url: String,
    /// Ten codes, each usable once instead of the app's code.
    pub recovery_codes: Vec<String>,
    /// The QR code of `otpauthUrl`, as an SVG image.
    pub qr_svg: String,
}

/// `{success, message, token}`: two-factor sign-in is on; every other
/// session was signed out and this token replaces the caller's.
#[derive(Debug, Serialize, ToSchema)]
pub struct TwoFactorEnabledOut {
    pub success: bool,
    pub message: String,
    pub token: String,
}

/// Where the user stands with two-factor sign-in.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorStatus {
    /// It is on.
    pub enabled: bool,
    /// Staff must have it (admins and superusers).
    pub required: bool,
    /// From when staff must have it (the end of their grace period).
    pub required_from: Option<DateTime<Utc>>,
    /// Past the grace period without it: only setting it up is possible.
    pub enrolment_required: bool,
}

/// One message of the email outbox.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMessage {
    pub id: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// `kept` (no mail server configured), `pending`, `sent` or `failed`.
    pub status: String,
    /// Attempts made to hand it to the mail server.
    pub attempts: i32,
    pub sent_at: Option<DateTime<Utc>>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
}

/// The email outbox as staff see it on the System tab.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailHealth {
    /// Whether a mail server is configured (`CA_SMTP_URL`); without one
    /// emails are kept in the outbox and never sent.
    pub mail_server: bool,
    /// Emails waiting to be handed to the mail server (first tries and retries).
    pub waiting: u64,
    /// How long the oldest waiting email has waited, in seconds (0 when none waits).
    pub oldest_waiting_seconds: u64,
    /// Emails given up in the last 7 days: refused by the mail server, or
    /// out of retries.
    pub failed_last7_days: u64,
    /// The newest email given up in the last 7 days.
    pub last_failure: Option<EmailFailure>,
}

/// An email that was given up.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailFailure {
    /// When the email was written.
    pub created_at: DateTime<Utc>,
    /// When it was given up.
    pub failed_at: DateTime<Utc>,
    /// Its subject, each email address in it shown as its first letter and
    /// domain (a lead email's subject names the lead).
    pub subject: String,
    /// The mail server's last answer, or why there was none (addresses
    /// masked the same way).
    pub error: String,
}
