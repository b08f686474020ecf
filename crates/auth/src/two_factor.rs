//! Two-factor sign-in (an authenticator app's 6-digit codes): set-up with a
//! QR code and ten one-time recovery codes, turning it on and off, the
//! second step of signing in, and the rule that staff (admins and
//! superusers) must have it once their grace period is over. The grace
//! period is a platform setting the superuser chooses; it counts from when
//! the rule came in or from the account's creation, whichever is later.

use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use ca_core::rate_limit::Limit;
use ca_core::sealed::{DataKeys, Resealing};

use crate::challenge::token_hash;
use crate::dto::{
    AuthResponse, TwoFactorEnabledOut, TwoFactorSetupOut, TwoFactorStatus, TwoFactorVerifyIn,
    UserOut,
};
use crate::entities::{two_factor_challenge, two_factor_recovery_code, two_factor_secret, user};
use crate::service::Role;
use crate::{AuthError, AuthService, totp};

/// How many recovery codes a set-up gives.
pub const RECOVERY_CODES: usize = 10;
/// Wrong codes a sign-in challenge takes before it is locked.
pub const CHALLENGE_ATTEMPTS: i32 = 5;
pub use crate::challenge::CHALLENGE_TTL_MINUTES;
/// Wrong codes allowed per account in the window, over all its challenges:
/// signing in again with the password does not give a guesser more tries.
pub const WRONG_CODES_PER_ACCOUNT: Limit = Limit::new(15, 60 * 60);
/// The longest grace period staff may be given to enrol, in days.
pub const MAX_GRACE_DAYS: i64 = 90;
/// The grace period until a superuser chooses one, in days.
pub const DEFAULT_GRACE_DAYS: i64 = 14;

const POLICY_KEY: &str = "staff_two_factor";

/// The rule for staff: how many days they have to turn two-factor sign-in
/// on, counted from `since` (when the rule came in) or from the account's
/// creation, whichever is later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffTwoFactorPolicy {
    /// 0 to 90 days; 0 requires it at once.
    #[schema(minimum = 0, maximum = 90)]
    pub grace_days: i64,
    /// When the rule came in.
    pub since: DateTime<Utc>,
}

/// `PUT /api/admin/settings/two-factor`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffTwoFactorPolicyIn {
    /// 0 to 90 days; 0 requires it at once.
    #[schema(minimum = 0, maximum = 90)]
    pub grace_days: i64,
}

/// The staff rule in force.
pub async fn policy<C: ConnectionTrait>(conn: &C) -> Result<StaffTwoFactorPolicy, AuthError> {
    let saved = crate::settings::get(conn, POLICY_KEY)
        .await?
        .and_then(|value| serde_json::from_str::<StaffTwoFactorPolicy>(&value).ok());
    Ok(saved.unwrap_or(StaffTwoFactorPolicy {
        grace_days: DEFAULT_GRACE_DAYS,
        since: DateTime::<Utc>::UNIX_EPOCH,
    }))
}

/// Saves a new grace period (the day the rule came in stays).
pub async fn save_policy<C: ConnectionTrait>(
    conn: &C,
    input: StaffTwoFactorPolicyIn,
) -> Result<StaffTwoFactorPolicy, AuthError> {
    if !(0..=MAX_GRACE_DAYS).contains(&input.grace_days) {
        return Err(AuthError::field(
            "graceDays",
            "The grace period must be 0 to 90 days",
        ));
    }
    let mut saved = policy(conn).await?;
    saved.grace_days = input.grace_days;
    let value = serde_json::to_string(&saved).map_err(|e| AuthError::internal(e.to_string()))?;
    crate::settings::put(conn, POLICY_KEY, &value).await?;
    Ok(saved)
}

/// When `user` must have two-factor sign-in on: staff only.
pub fn required_from(policy: &StaffTwoFactorPolicy, user: &user::Model) -> Option<DateTime<Utc>> {
    Role::is_staff(&user.role)
        .then(|| std::cmp::max(policy.since, user.created_at) + Duration::days(policy.grace_days))
}

/// Whether `user` has two-factor sign-in on.
pub async fn is_enabled<C: ConnectionTrait>(conn: &C, user_id: &str) -> Result<bool, AuthError> {
    crate::challenge::second_factor_on(conn, user_id).await
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes
}

/// A recovery code as shown: ten base32 letters and digits in two groups.
fn new_recovery_code() -> String {
    let text = totp::base32_encode(&random_bytes::<7>()).to_lowercase();
    format!("{}-{}", &text[..5], &text[5..10])
}

/// A recovery code as typed, in the one form its hash is taken of.
fn normalize_recovery_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn unix_now(now: DateTime<Utc>) -> u64 {
    u64::try_from(now.timestamp()).unwrap_or(0)
}

/// Where a user's two-factor secret is sealed for: it opens in no other row.
fn secret_context(user_id: &str) -> String {
    format!("two_factor_secrets.secret:{user_id}")
}

/// Whether `code` is the secret's current code and was not used before;
/// if so, records its step so it cannot be used again. A secret that does
/// not open (altered in the database) matches no code, so a recovery code
/// still signs the person in.
async fn take_totp<C: ConnectionTrait>(
    conn: &C,
    keys: &DataKeys,
    secret: &two_factor_secret::Model,
    code: &str,
    now: DateTime<Utc>,
) -> Result<bool, AuthError> {
    let opened = match keys.open(&secret.secret, &secret_context(&secret.user_id)) {
        Ok(opened) => opened.text,
        Err(err) => {
            tracing::error!(user_id = %secret.user_id, %err, "a two-factor secret does not open");
            return Ok(false);
        }
    };
    let Some(key) = totp::base32_decode(&opened) else {
        return Err(AuthError::internal(
            "stored two-factor secret is not base32",
        ));
    };
    let Some(step) = totp::matching_step(&key, code, unix_now(now)) else {
        return Ok(false);
    };
    let step = i64::try_from(step).unwrap_or(i64::MAX);
    // Claim the step atomically: a code works once, even under two requests.
    let claimed = two_factor_secret::Entity::update_many()
        .col_expr(two_factor_secret::Column::LastUsedStep, Expr::value(step))
        .col_expr(two_factor_secret::Column::UpdatedAt, Expr::value(now))
        .filter(two_factor_secret::Column::UserId.eq(&secret.user_id))
        .filter(
            two_factor_secret::Column::LastUsedStep
                .is_null()
                .or(two_factor_secret::Column::LastUsedStep.lt(step)),
        )
        .exec(conn)
        .await?;
    Ok(claimed.rows_affected == 1)
}

/// Seals every two-factor secret not yet sealed with the current data key
/// (stored in plain text before sealing existed, or with a previous key);
/// run when the server starts. Answers how many were sealed again. A row
/// changed meanwhile (by another server starting) is left to that change.
/// Fails, naming the key, when secrets were sealed with a key this server
/// does not have: starting would lock their owners out.
pub async fn reseal_secrets<C: ConnectionTrait>(
    conn: &C,
    keys: &DataKeys,
) -> anyhow::Result<usize> {
    let mut resealing = Resealing::new(keys, "two-factor secrets");
    for secret in two_factor_secret::Entity::find().all(conn).await? {
        let Some(sealed) = resealing.next(&secret.secret, &secret_context(&secret.user_id)) else {
            continue;
        };
        let done = two_factor_secret::Entity::update_many()
            .col_expr(two_factor_secret::Column::Secret, Expr::value(sealed))
            .filter(two_factor_secret::Column::UserId.eq(&secret.user_id))
            .filter(two_factor_secret::Column::Secret.eq(&secret.secret))
            .exec(conn)
            .await?;
        resealing.rewritten(done.rows_affected);
    }
    resealing.finish()
}

/// Whether `code` is one of the user's unused recovery codes; if so, it is
/// used up.
async fn take_recovery_code<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    code: &str,
    now: DateTime<Utc>,
) -> Result<bool, AuthError> {
    let normalized = normalize_recovery_code(code);
    if normalized.len() != 10 {
        return Ok(false);
    }
    let used = two_factor_recovery_code::Entity::update_many()
        .col_expr(two_factor_recovery_code::Column::UsedAt, Expr::value(now))
        .filter(two_factor_recovery_code::Column::UserId.eq(user_id))
        .filter(two_factor_recovery_code::Column::CodeHash.eq(token_hash(&normalized)))
        .filter(two_factor_recovery_code::Column::UsedAt.is_null())
        .exec(conn)
        .await?;
    Ok(used.rows_affected == 1)
}

impl AuthService {
    /// Where `user` stands with two-factor sign-in, for the dashboard.
    pub async fn two_factor_status(
        &self,
        user: &user::Model,
    ) -> Result<TwoFactorStatus, AuthError> {
        let enabled = is_enabled(self.db(), &user.id).await?;
        let required_from = required_from(&policy(self.db()).await?, user);
        Ok(TwoFactorStatus {
            enabled,
            required: required_from.is_some(),
            required_from,
            enrolment_required: !enabled && required_from.is_some_and(|at| at <= Utc::now()),
        })
    }

    /// Refuses a staff session whose grace period is over and who has not
    /// turned two-factor sign-in on: it may only set it up.
    pub async fn check_two_factor_enrolment(&self, user: &user::Model) -> Result<(), AuthError> {
        if !Role::is_staff(&user.role) {
            return Ok(());
        }
        if self.two_factor_status(user).await?.enrolment_required {
            return Err(AuthError::TwoFactorEnrolmentRequired);
        }
        Ok(())
    }

    /// Starts (or restarts) setting up two-factor sign-in: a new secret and
    /// ten new recovery codes, shown this once. It is not on until a code
    /// from the app is entered ([`Self::enable_two_factor`]).
    pub async fn setup_two_factor(
        &self,
        user: &user::Model,
    ) -> Result<TwoFactorSetupOut, AuthError> {
        let now = Utc::now();
        let secret = totp::base32_encode(&random_bytes::<20>());
        let sealed = self.data_keys().seal(&secret, &secret_context(&user.id));
        let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
        let txn = ca_core::db::begin_write(self.db()).await?;
        let existing = two_factor_secret::Entity::find_by_id(user.id.clone())
            .one(&txn)
            .await?;
        match existing {
            Some(s) if s.enabled_at.is_some() => {
                txn.rollback().await?;
                return Err(AuthError::TwoFactorAlreadyEnabled);
            }
            Some(s) => {
                let mut active: two_factor_secret::ActiveModel = s.into();
                active.secret = Set(sealed);
                active.last_used_step = Set(None);
                active.updated_at = Set(now);
                active.update(&txn).await?;
            }
            None => {
                two_factor_secret::ActiveModel {
                    user_id: Set(user.id.clone()),
                    secret: Set(sealed),
                    enabled_at: Set(None),
                    last_used_step: Set(None),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await?;
            }
        }
        two_factor_recovery_code::Entity::delete_many()
            .filter(two_factor_recovery_code::Column::UserId.eq(&user.id))
            .exec(&txn)
            .await?;
        for code in &codes {
            two_factor_recovery_code::ActiveModel {
                id: Set(ca_core::ids::new_id().to_string()),
                user_id: Set(user.id.clone()),
                code_hash: Set(token_hash(&normalize_recovery_code(code))),
                used_at: Set(None),
                created_at: Set(now),
            }
            .insert(&txn)
            .await?;
        }
        txn.commit().await?;
        let otpauth_url = totp::otpauth_url(&secret, &user.email);
        let qr_svg = totp::qr_svg(&otpauth_url)
            .ok_or_else(|| AuthError::internal("the QR code could not be drawn"))?;
        Ok(TwoFactorSetupOut {
            success: true,
            secret,
            otpauth_url,
            recovery_codes: codes,
            qr_svg,
        })
    }

    /// Turns two-factor sign-in on with a code from the app just set up.
    /// Every other session is signed out; the answer carries a new token.
    pub async fn enable_two_factor(
        &self,
        user: user::Model,
        code: &str,
    ) -> Result<TwoFactorEnabledOut, AuthError> {
        let now = Utc::now();
        let txn = ca_core::db::begin_write(self.db()).await?;
        let Some(secret) = two_factor_secret::Entity::find_by_id(user.id.clone())
            .one(&txn)
            .await?
        else {
            txn.rollback().await?;
            return Err(AuthError::TwoFactorNotSetUp);
        };
        if secret.enabled_at.is_some() {
            txn.rollback().await?;
            return Err(AuthError::TwoFactorAlreadyEnabled);
        }
        if !take_totp(&txn, self.data_keys(), &secret, code, now).await? {
            txn.rollback().await?;
            return Err(AuthError::InvalidTwoFactorCode);
        }
        two_factor_secret::Entity::update_many()
            .col_expr(two_factor_secret::Column::EnabledAt, Expr::value(now))
            .filter(two_factor_secret::Column::UserId.eq(&user.id))
            .exec(&txn)
            .await?;
        let version = user.token_version + 1;
        let mut active: user::ActiveModel = user.into();
        active.token_version = Set(version);
        active.updated_at = Set(now);
        let user = active.update(&txn).await?;
        txn.commit().await?;
        tracing::info!(user_id = %user.id, "two-factor sign-in turned on");
        Ok(TwoFactorEnabledOut {
            success: true,
            message: "Two-factor sign-in is on".into(),
            token: self.keys().issue(&user.id, user.token_version, now)?,
        })
    }

    /// Turns two-factor sign-in off with a code from the app or an unused
    /// recovery code; the secret and the recovery codes are deleted.
    pub async fn disable_two_factor(
        &self,
        user: &user::Model,
        code: &str,
    ) -> Result<(), AuthError> {
        let now = Utc::now();
        let txn = ca_core::db::begin_write(self.db()).await?;
        let secret = two_factor_secret::Entity::find_by_id(user.id.clone())
            .one(&txn)
            .await?
            .filter(|s| s.enabled_at.is_some());
        let Some(secret) = secret else {
            txn.rollback().await?;
            return Err(AuthError::TwoFactorNotEnabled);
        };
        let right = take_totp(&txn, self.data_keys(), &secret, code, now).await?
            || take_recovery_code(&txn, &user.id, code, now).await?;
        if !right {
            txn.rollback().await?;
            return Err(AuthError::InvalidTwoFactorCode);
        }
        two_factor_recovery_code::Entity::delete_many()
            .filter(two_factor_recovery_code::Column::UserId.eq(&user.id))
            .exec(&txn)
            .await?;
        two_factor_secret::Entity::delete_by_id(user.id.clone())
            .exec(&txn)
            .await?;
        txn.commit().await?;
        tracing::info!(user_id = %user.id, "two-factor sign-in turned off");
        Ok(())
    }

    /// The second step of signing in: a code from the app, or an unused
    /// recovery code (used up by this). Five wrong codes lock the
    /// challenge; the person then signs in again with their password.
    pub async fn verify_two_factor(
        &self,
        input: TwoFactorVerifyIn,
    ) -> Result<AuthResponse, AuthError> {
        let now = Utc::now();
        let token = input.challenge_token.trim();
        if token.is_empty() {
            return Err(AuthError::InvalidChallenge);
        }
        if input.code.trim().is_empty() {
            return Err(AuthError::field("code", "Enter the code from your app"));
        }
        let txn = ca_core::db::begin_write(self.db()).await?;
        let found = two_factor_challenge::Entity::find()
            .filter(two_factor_challenge::Column::TokenHash.eq(token_hash(token)))
            .one(&txn)
            .await?;
        let Some(challenge) = found.filter(|c| c.used_at.is_none() && c.expires_at > now) else {
            txn.rollback().await?;
            return Err(AuthError::InvalidChallenge);
        };
        // The try is taken before the code is checked, on the row itself:
        // codes sent in parallel wait for each other here, so together they
        // get the five tries, not five each.
        let tried = two_factor_challenge::Entity::update_many()
            .col_expr(
                two_factor_challenge::Column::FailedAttempts,
                Expr::col(two_factor_challenge::Column::FailedAttempts).add(1),
            )
            .filter(two_factor_challenge::Column::Id.eq(&challenge.id))
            .filter(two_factor_challenge::Column::UsedAt.is_null())
            .filter(two_factor_challenge::Column::FailedAttempts.lt(CHALLENGE_ATTEMPTS))
            .exec_with_returning(&txn)
            .await?;
        let Some(tries) = tried.first().map(|c| c.failed_attempts) else {
            txn.rollback().await?;
            return Err(AuthError::TwoFactorLocked);
        };
        // Likewise counted first for the account; a right code gives it back.
        let account_key = format!("2fa:wrong:{}", challenge.user_id);
        if let Err(wait) = self
            .limiter()
            .hit(&account_key, WRONG_CODES_PER_ACCOUNT)
            .await
        {
            txn.rollback().await?;
            return Err(AuthError::RateLimited(wait));
        }
        let secret = two_factor_secret::Entity::find_by_id(challenge.user_id.clone())
            .one(&txn)
            .await?
            .filter(|s| s.enabled_at.is_some());
        let user = user::Entity::find_by_id(challenge.user_id.clone())
            .one(&txn)
            .await?;
        let (Some(secret), Some(user)) = (secret, user) else {
            txn.rollback().await?;
            self.limiter().give_back(&account_key).await;
            return Err(AuthError::InvalidChallenge);
        };
        // Staff may have suspended the account since the password was
        // checked: the open challenge does not sign in then.
        if let Err(e) = crate::suspension::refuse_if_suspended(&txn, &user.id).await {
            txn.rollback().await?;
            self.limiter().give_back(&account_key).await;
            return Err(e);
        }
        let right = take_totp(&txn, self.data_keys(), &secret, &input.code, now).await?
            || take_recovery_code(&txn, &user.id, &input.code, now).await?;
        if !right {
            txn.commit().await?;
            tracing::info!(user_id = %challenge.user_id, "wrong two-factor code");
            return Err(if tries >= CHALLENGE_ATTEMPTS {
                AuthError::TwoFactorLocked
            } else {
                AuthError::InvalidTwoFactorCode
            });
        }
        self.limiter().give_back(&account_key).await;
        let claimed = two_factor_challenge::Entity::update_many()
            .col_expr(two_factor_challenge::Column::UsedAt, Expr::value(now))
            .filter(two_factor_challenge::Column::Id.eq(&challenge.id))
            .filter(two_factor_challenge::Column::UsedAt.is_null())
            .exec(&txn)
            .await?;
        if claimed.rows_affected != 1 {
            txn.rollback().await?;
            return Err(AuthError::InvalidChallenge);
        }
        let mut active: user::ActiveModel = user.into();
        active.last_login_at = Set(Some(now));
        let user = active.update(&txn).await?;
        txn.commit().await?;
        Ok(AuthResponse {
            success: true,
            token: self.keys().issue(&user.id, user.token_version, now)?,
            user: UserOut::from_model(&user, now),
        })
    }
}
