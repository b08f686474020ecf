//! The accounts service: registration, sign-in, sessions, profile, password
//! change and reset. Handlers call one method each.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use rand::RngCore;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QuerySelect, Set, SqlErr,
};
use validator::Validate;

use ca_core::rate_limit::{Limit, RateLimiter};
use ca_core::sealed::DataKeys;
use ca_core::validation::{field_errors, first_message};

use crate::challenge::token_hash;
use crate::dto::{
    AuthResponse, ChangePasswordIn, ChangePasswordOut, ForgotPasswordIn, ImpersonatedBy, LoginIn,
    LoginOut, RegisterIn, ResetPasswordIn, ResetPasswordOut, UpdateMeIn, UserOut,
};
use crate::entities::{login_as_session, password_reset_token, user};
use crate::{AuthError, JwtKeys, Mailer, password};

/// How long a trial started at registration lasts.
pub const TRIAL_DAYS: i64 = 3;
/// How long a password reset link works.
pub const RESET_LINK_TTL_MINUTES: i64 = 60;
/// How long the link of an account staff created works: the new owner
/// chooses their first password with it (a week, as invitations go).
pub const INVITE_LINK_TTL_MINUTES: i64 = 7 * 24 * 60;

/// Failed sign-ins allowed per email from one client IP in the window: a
/// guesser is stopped, and a stranger's failures lock only their own address
/// out of the account, never the owner's.
pub const LOGIN_FAILURES_PER_EMAIL_AND_IP: Limit = Limit::new(5, 15 * 60);
/// Failed sign-ins allowed per email from all addresses together: slow
/// enough for guessing from many addresses to get nowhere, high enough that
/// denying the owner takes a hundred failures an hour.
pub const LOGIN_FAILURES_PER_EMAIL: Limit = Limit::new(100, 60 * 60);
/// Failed sign-ins allowed per client IP in the window.
pub const LOGIN_FAILURES_PER_IP: Limit = Limit::new(20, 15 * 60);
/// Reset requests allowed per email in the window.
pub const RESET_REQUESTS_PER_EMAIL: Limit = Limit::new(3, 60 * 60);
/// Reset requests allowed per client IP in the window.
pub const RESET_REQUESTS_PER_IP: Limit = Limit::new(10, 60 * 60);
/// Failed reset attempts (bad tokens) allowed per client IP in the window.
pub const RESET_FAILURES_PER_IP: Limit = Limit::new(20, 60 * 60);
/// Registrations allowed per client IP in the window, unless configured.
pub const REGISTRATIONS_PER_IP: Limit = Limit::new(30, 60 * 60);

/// The three roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Admin,
    Superuser,
}

impl Role {
    /// The stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Admin => "admin",
            Self::Superuser => "superuser",
        }
    }

    /// Whether this role may use the admin area.
    pub fn is_staff(role: &str) -> bool {
        matches!(role, "admin" | "superuser")
    }
}

/// An account created by an operator (CLI, demo data) rather than by sign-up.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub password: String,
    pub role: Role,
}

/// The accounts service.
#[derive(Clone)]
pub struct AuthService {
    db: DatabaseConnection,
    keys: JwtKeys,
    mailer: Mailer,
    limiter: Arc<RateLimiter>,
    public_url: String,
    registrations_per_ip: Limit,
    data_keys: Arc<DataKeys>,
}

fn validate<T: Validate>(input: &T) -> Result<(), AuthError> {
    input.validate().map_err(|e| {
        let errors = field_errors(&e);
        AuthError::Validation {
            message: first_message(&errors),
            errors,
        }
    })
}

fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn rate_limited(result: Result<(), std::time::Duration>) -> Result<(), AuthError> {
    result.map_err(AuthError::RateLimited)
}

impl AuthService {
    /// A service over `db`, signing with `keys`, mailing through `mailer`;
    /// links in emails start with `public_url`.
    pub fn new(
        db: DatabaseConnection,
        keys: JwtKeys,
        mailer: Mailer,
        limiter: Arc<RateLimiter>,
        public_url: &str,
    ) -> Self {
        Self {
            db,
            keys,
            mailer,
            limiter,
            public_url: public_url.trim_end_matches('/').to_string(),
            registrations_per_ip: REGISTRATIONS_PER_IP,
            data_keys: Arc::new(DataKeys::random()),
        }
    }

    /// Seals two-factor secrets with the server's data keys (without it, a
    /// random key that lives as long as the process: for tests only).
    pub fn with_data_keys(mut self, keys: Arc<DataKeys>) -> Self {
        self.data_keys = keys;
        self
    }

    pub(crate) fn data_keys(&self) -> &DataKeys {
        &self.data_keys
    }

    /// Allows `per_hour` sign-ups from one IP an hour instead of the default.
    pub fn with_registrations_per_ip(mut self, per_hour: u32) -> Self {
        self.registrations_per_ip = Limit::new(per_hour, 60 * 60);
        self
    }

    /// The mailer (SMTP or the outbox table).
    pub fn mailer(&self) -> &Mailer {
        &self.mailer
    }

    /// The database this service uses.
    pub fn db(&self) -> &DatabaseConnection {
        &self.db
    }

    pub(crate) fn keys(&self) -> &JwtKeys {
        &self.keys
    }

    pub(crate) fn limiter(&self) -> &RateLimiter {
        &self.limiter
    }

    fn session(&self, user: &user::Model, now: DateTime<Utc>) -> Result<AuthResponse, AuthError> {
        Ok(AuthResponse {
            success: true,
            token: self.keys.issue(&user.id, user.token_version, now)?,
            user: UserOut::from_model(user, now),
        })
    }

    /// Signs a new owner up and starts their trial.
    pub async fn register(&self, input: RegisterIn, ip: &str) -> Result<AuthResponse, AuthError> {
        validate(&input)?;
        rate_limited(
            self.limiter
                .hit(&format!("register:ip:{ip}"), self.registrations_per_ip)
                .await,
        )?;
        let now = Utc::now();
        let (status, trial_end) = new_owner_trial(&self.db, now).await?;
        let user = insert_user(
            &self.db,
            NewAccount {
                name: input.name,
                email: input.email,
                phone: input.phone,
                password: input.password,
                role: Role::User,
            },
            status,
            trial_end,
            now,
        )
        .await?;
        tracing::info!(user_id = %user.id, "owner registered");
        self.session(&user, now)
    }

    /// Creates an account for an operator; staff accounts start without a
    /// trial. The phone may be left out (it is checked when given).
    pub async fn create_account(&self, account: NewAccount) -> Result<user::Model, AuthError> {
        self.create_account_in(&self.db, account).await
    }

    /// [`Self::create_account`] in the caller's transaction, so the account
    /// and what the caller records about it are stored together.
    pub async fn create_account_in<C: ConnectionTrait>(
        &self,
        conn: &C,
        account: NewAccount,
    ) -> Result<user::Model, AuthError> {
        let input = RegisterIn {
            name: account.name.clone(),
            email: account.email.clone(),
            password: account.password.clone(),
            phone: if account.phone.trim().is_empty() {
                // Stand-in that passes the phone rule; the account keeps no phone.
                "+91 9000000000".to_string()
            } else {
                account.phone.clone()
            },
        };
        validate(&input)?;
        let now = Utc::now();
        let (status, trial_end) = match account.role {
            Role::User => new_owner_trial(conn, now).await?,
            Role::Admin | Role::Superuser => ("free", None),
        };
        insert_user(conn, account, status, trial_end, now).await
    }

    /// Creates an account for staff with the subscription fields they chose
    /// (the plan itself is billing's to set).
    pub async fn create_account_with_status(
        &self,
        account: NewAccount,
        status: &str,
        trial_ends_at: Option<DateTime<Utc>>,
    ) -> Result<user::Model, AuthError> {
        let input = RegisterIn {
            name: account.name.clone(),
            email: account.email.clone(),
            password: account.password.clone(),
            phone: account.phone.clone(),
        };
        validate(&input)?;
        insert_user(&self.db, account, status, trial_ends_at, Utc::now()).await
    }

    /// The user behind a token, and who is acting when a superuser signed in
    /// as them. A "login as user" session lives only as long as its author
    /// may open it: the superuser must still exist, still be a superuser, and
    /// not have revoked their own sessions since (signing out everywhere, a
    /// new password, a role change); and it may only be an owner's.
    pub async fn authenticate_session(
        &self,
        token: &str,
    ) -> Result<(user::Model, Option<String>), AuthError> {
        let claims = self.keys.verify(token)?;
        let user = user::Entity::find_by_id(claims.sub.clone())
            .one(&self.db)
            .await?
            .ok_or(AuthError::InvalidToken)?;
        if user.token_version != claims.ver {
            return Err(AuthError::InvalidToken);
        }
        if let Some(actor_id) = &claims.act {
            let actor = user::Entity::find_by_id(actor_id.clone())
                .one(&self.db)
                .await?
                .ok_or(AuthError::InvalidToken)?;
            if actor.role != Role::Superuser.as_str()
                || claims.act_ver != Some(actor.token_version)
                || user.role != Role::User.as_str()
            {
                return Err(AuthError::InvalidToken);
            }
            // The session must still be open: Return to admin ends it.
            let open = match &claims.jti {
                Some(id) => login_as_session::Entity::find_by_id(id.clone())
                    .one(&self.db)
                    .await?
                    .is_some_and(|s| {
                        s.ended_at.is_none()
                            && s.actor_id == actor.id
                            && s.user_id == user.id
                            && s.expires_at > Utc::now()
                    }),
                None => false,
            };
            if !open {
                return Err(AuthError::InvalidToken);
            }
        }
        Ok((user, claims.act))
    }

    /// A session as the owner `target` for the superuser `actor`
    /// (short-lived, carrying the actor and their token version so what it
    /// does is attributed to them and it ends with their sessions). Staff
    /// accounts cannot be signed in as.
    pub async fn login_as<C: ConnectionTrait>(
        &self,
        conn: &C,
        actor: &user::Model,
        target_id: &str,
    ) -> Result<AuthResponse, AuthError> {
        let target = user::Entity::find_by_id(target_id.trim().to_string())
            .one(conn)
            .await?
            .ok_or(AuthError::UserNotFound)?;
        if target.role != Role::User.as_str() {
            return Err(AuthError::LoginAsOwnersOnly);
        }
        let now = Utc::now();
        let session_id = ca_core::ids::new_id().to_string();
        login_as_session::ActiveModel {
            id: Set(session_id.clone()),
            actor_id: Set(actor.id.clone()),
            user_id: Set(target.id.clone()),
            created_at: Set(now),
            expires_at: Set(self.keys.expiry(true, now)),
            ended_at: Set(None),
        }
        .insert(conn)
        .await?;
        Ok(AuthResponse {
            success: true,
            token: self.keys.issue_login_as(
                &target.id,
                target.token_version,
                (&actor.id, actor.token_version),
                &session_id,
                now,
            )?,
            user: UserOut::from_model(&target, now),
        })
    }

    /// Ends the "login as user" session of `token` (Return to admin): that
    /// token stops working at once; the staff member's own sessions and the
    /// owner's stay. Answers who was signed in as whom.
    pub async fn end_login_as<C: ConnectionTrait>(
        &self,
        conn: &C,
        token: &str,
    ) -> Result<(String, String), AuthError> {
        let claims = self.keys.verify(token)?;
        let (Some(actor), Some(id)) = (claims.act, claims.jti) else {
            return Err(AuthError::NotActingAs);
        };
        let ended = login_as_session::Entity::update_many()
            .col_expr(login_as_session::Column::EndedAt, Expr::value(Utc::now()))
            .filter(login_as_session::Column::Id.eq(id))
            .filter(login_as_session::Column::EndedAt.is_null())
            .exec(conn)
            .await?;
        if ended.rows_affected == 0 {
            return Err(AuthError::InvalidToken);
        }
        Ok((actor, claims.sub))
    }

    /// The staff member behind a "login as user" session, as the dashboard
    /// shows them in its banner.
    pub async fn impersonator(&self, actor_id: &str) -> Result<ImpersonatedBy, AuthError> {
        let actor = user::Entity::find_by_id(actor_id.to_string())
            .one(&self.db)
            .await?
            .ok_or(AuthError::InvalidToken)?;
        Ok(ImpersonatedBy {
            id: actor.id,
            email: actor.email,
        })
    }

    /// Signs in with email and password. With two-factor sign-in on, the
    /// answer is a challenge instead of a session: the code comes next
    /// ([`Self::verify_two_factor`]).
    pub async fn login(&self, input: LoginIn, ip: &str) -> Result<LoginOut, AuthError> {
        let email = normalize_email(&input.email);
        if email.is_empty() || input.password.is_empty() {
            let mut errors = ca_core::FieldErrors::new();
            if email.is_empty() {
                errors.insert("email".into(), vec!["Email is required".into()]);
            }
            if input.password.is_empty() {
                errors.insert("password".into(), vec!["Password is required".into()]);
            }
            return Err(AuthError::Validation {
                message: "Email and password are required".into(),
                errors,
            });
        }
        let pair_key = format!("login:email-ip:{email}:{ip}");
        let email_key = format!("login:email:{email}");
        let ip_key = format!("login:ip:{ip}");
        // Every attempt is counted before the password is checked, so
        // guesses sent in parallel cannot all pass the limit while the
        // first are still being checked; a right password gives its count
        // back below. The attempt that goes over the limit is refused like
        // the ones after it. The caller's own address is counted first: one
        // refused there counts nothing against the account's email.
        rate_limited(self.limiter.hit(&ip_key, LOGIN_FAILURES_PER_IP).await)?;
        rate_limited(
            self.limiter
                .hit(&pair_key, LOGIN_FAILURES_PER_EMAIL_AND_IP)
                .await,
        )?;
        rate_limited(self.limiter.hit(&email_key, LOGIN_FAILURES_PER_EMAIL).await)?;

        let found = user::Entity::find()
            .filter(user::Column::Email.eq(&email))
            .one(&self.db)
            .await?;
        let verified = match &found {
            Some(u) => password::verify(&input.password, &u.password_hash).await,
            None => {
                password::burn_time(&input.password).await;
                false
            }
        };
        let Some(user) = found.filter(|_| verified) else {
            tracing::info!("failed sign-in");
            return Err(AuthError::InvalidCredentials);
        };
        self.limiter.reset(&pair_key).await;
        self.limiter.give_back(&email_key).await;
        self.limiter.give_back(&ip_key).await;
        crate::suspension::refuse_if_suspended(&self.db, &user.id).await?;
        if crate::challenge::second_factor_on(&self.db, &user.id).await? {
            return Ok(LoginOut::Challenge(
                crate::challenge::open(&self.db, &user.id).await?,
            ));
        }
        let now = Utc::now();
        let mut active: user::ActiveModel = user.clone().into();
        active.last_login_at = Set(Some(now));
        let user = active.update(&self.db).await?;
        Ok(LoginOut::Session(Box::new(self.session(&user, now)?)))
    }

    /// The user a bearer token belongs to, if the token is valid and not revoked.
    pub async fn authenticate(&self, token: &str) -> Result<user::Model, AuthError> {
        let claims = self.keys.verify(token)?;
        let user = user::Entity::find_by_id(claims.sub)
            .one(&self.db)
            .await?
            .ok_or(AuthError::InvalidToken)?;
        if user.token_version != claims.ver {
            return Err(AuthError::InvalidToken);
        }
        Ok(user)
    }

    /// Changes the caller's name, phone or notification choices.
    pub async fn update_me(
        &self,
        user: user::Model,
        input: UpdateMeIn,
    ) -> Result<UserOut, AuthError> {
        validate(&input)?;
        let mut active: user::ActiveModel = user.into();
        if let Some(name) = input.name {
            active.name = Set(name.trim().to_string());
        }
        if let Some(phone) = input.phone {
            active.phone = Set(crate::rules::stored_phone(&phone));
        }
        if let Some(v) = input.email_notifications {
            active.email_notifications = Set(v);
        }
        if let Some(v) = input.push_notifications {
            active.push_notifications = Set(v);
        }
        let now = Utc::now();
        active.updated_at = Set(now);
        let user = active.update(&self.db).await?;
        Ok(UserOut::from_model(&user, now))
    }

    /// Changes the caller's password, revokes every older token and returns a new one.
    pub async fn change_password(
        &self,
        user: user::Model,
        input: ChangePasswordIn,
    ) -> Result<ChangePasswordOut, AuthError> {
        if !password::verify(&input.current_password, &user.password_hash).await {
            return Err(AuthError::WrongCurrentPassword);
        }
        validate(&input)?;
        // Hashed before the write transaction starts, so the database's
        // write lock is not held while it is computed.
        let hash = password::hash(&input.new_password).await?;
        let now = Utc::now();
        let txn = ca_core::db::begin_write(&self.db).await?;
        let user = self.set_password(&txn, user, hash, now).await?;
        txn.commit().await?;
        Ok(ChangePasswordOut {
            success: true,
            message: "Password changed successfully".into(),
            token: self.keys.issue(&user.id, user.token_version, now)?,
        })
    }

    async fn set_password<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        user: user::Model,
        password_hash: String,
        now: DateTime<Utc>,
    ) -> Result<user::Model, AuthError> {
        let version = user.token_version + 1;
        crate::links::end_open_links(conn, &user.id, now).await?;
        let mut active: user::ActiveModel = user.into();
        active.password_hash = Set(password_hash);
        active.token_version = Set(version);
        active.updated_at = Set(now);
        Ok(active.update(conn).await?)
    }

    /// Revokes every token of the caller ("sign out of all devices"), with
    /// the reset links and the half-finished two-factor sign-ins still open.
    pub async fn logout_all(&self, user: user::Model) -> Result<(), AuthError> {
        let now = Utc::now();
        let txn = ca_core::db::begin_write(&self.db).await?;
        crate::links::end_open_links(&txn, &user.id, now).await?;
        let version = user.token_version + 1;
        let mut active: user::ActiveModel = user.into();
        active.token_version = Set(version);
        active.updated_at = Set(now);
        active.update(&txn).await?;
        txn.commit().await?;
        Ok(())
    }

    /// Sends a reset link if the account exists; answers the same either way.
    pub async fn forgot_password(
        &self,
        input: ForgotPasswordIn,
        ip: &str,
    ) -> Result<(), AuthError> {
        let email = normalize_email(&input.email);
        if email.is_empty() {
            return Err(AuthError::field("email", "Email is required"));
        }
        if crate::rules::email(&email).is_err() {
            return Err(AuthError::field(
                "email",
                "Please enter a valid email address",
            ));
        }
        rate_limited(
            self.limiter
                .hit(&format!("reset:ip:{ip}"), RESET_REQUESTS_PER_IP)
                .await,
        )?;
        rate_limited(
            self.limiter
                .hit(&format!("reset:email:{email}"), RESET_REQUESTS_PER_EMAIL)
                .await,
        )?;
        let Some(user) = user::Entity::find()
            .filter(user::Column::Email.eq(&email))
            .one(&self.db)
            .await?
        else {
            tracing::info!("password reset asked for an unknown email");
            return Ok(());
        };
        // The link and its email are stored together.
        let txn = ca_core::db::begin_write(&self.db).await?;
        self.send_password_reset(&txn, &user).await?;
        txn.commit().await?;
        Ok(())
    }

    /// Emails `user` the usual password reset link (expires in 1 hour), in
    /// the caller's transaction: what "Forgot password" sends, and what
    /// staff send from the admin area.
    pub async fn send_password_reset<C: ConnectionTrait>(
        &self,
        conn: &C,
        user: &user::Model,
    ) -> Result<(), AuthError> {
        self.send_reset_link(
            conn,
            user,
            RESET_LINK_TTL_MINUTES,
            "Reset your ConvertAssist password",
            "Someone asked to reset the password of your ConvertAssist account.",
            "If you did not ask for this, you can ignore this email; your password stays as it is.",
        )
        .await
    }

    /// Emails `user` a one-time link to choose a password, working for
    /// `ttl_minutes`.
    async fn send_reset_link<C: ConnectionTrait>(
        &self,
        conn: &C,
        user: &user::Model,
        ttl_minutes: i64,
        subject: &str,
        intro: &str,
        outro: &str,
    ) -> Result<(), AuthError> {
        let token = random_token();
        let now = Utc::now();
        password_reset_token::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            user_id: Set(user.id.clone()),
            token_hash: Set(token_hash(&token)),
            expires_at: Set(now + Duration::minutes(ttl_minutes)),
            used_at: Set(None),
            created_at: Set(now),
        }
        .insert(conn)
        .await?;
        let link = format!("{}/reset-password?token={token}", self.public_url);
        let expires = if ttl_minutes % (24 * 60) == 0 {
            match ttl_minutes / (24 * 60) {
                1 => "1 day".to_string(),
                d => format!("{d} days"),
            }
        } else if ttl_minutes % 60 == 0 {
            match ttl_minutes / 60 {
                1 => "1 hour".to_string(),
                h => format!("{h} hours"),
            }
        } else {
            format!("{ttl_minutes} minutes")
        };
        let body = format!(
            "Hi {name},\n\n{intro}\n\
             Open this link to choose a new password (it works once and expires in {expires}):\n\n\
             {link}\n\n{outro}\n\n— ConvertAssist",
            name = user.name
        );
        self.mailer
            .send_expiring(
                conn,
                &user.email,
                subject,
                &body,
                Some(now + Duration::minutes(ttl_minutes)),
            )
            .await
    }

    /// Creates an owner account for staff without a password: a random one
    /// is set and the owner gets an email to choose theirs. Runs in the
    /// caller's transaction: the account, its link and the email are stored
    /// together.
    pub async fn invite_owner<C: ConnectionTrait>(
        &self,
        conn: &C,
        name: &str,
        email: &str,
        phone: &str,
    ) -> Result<user::Model, AuthError> {
        let now = Utc::now();
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(AuthError::field(
                "name",
                "Name is required (at most 100 characters)",
            ));
        }
        // The name opens the invitation email (see `rules::name`).
        if name.chars().any(char::is_control) {
            return Err(AuthError::field("name", "Name must be on one line"));
        }
        if crate::rules::email(&normalize_email(email)).is_err() {
            return Err(AuthError::field(
                "email",
                "Please enter a valid email address",
            ));
        }
        if !phone.trim().is_empty() && crate::rules::e164(phone).is_none() {
            return Err(AuthError::field("phone", crate::rules::PHONE_INVALID));
        }
        let (status, trial_end) = new_owner_trial(conn, now).await?;
        let user = insert_user(
            conn,
            NewAccount {
                name: name.to_string(),
                email: email.to_string(),
                phone: phone.to_string(),
                password: random_token(),
                role: Role::User,
            },
            status,
            trial_end,
            now,
        )
        .await?;
        self.send_reset_link(
            conn,
            &user,
            INVITE_LINK_TTL_MINUTES,
            "Your ConvertAssist account is ready",
            "An account was created for you on ConvertAssist.",
            "The link works once; afterwards use 'Forgot password' on the sign-in page.",
        )
        .await?;
        Ok(user)
    }

    /// Sets a new password from a reset link, revokes older tokens and every
    /// other outstanding link, and signs the user in.
    pub async fn reset_password(
        &self,
        input: ResetPasswordIn,
        ip: &str,
    ) -> Result<ResetPasswordOut, AuthError> {
        if input.token.trim().is_empty() {
            return Err(AuthError::field("token", "Invalid reset token"));
        }
        validate(&input)?;
        let ip_key = format!("reset-fail:ip:{ip}");
        rate_limited(self.limiter.check(&ip_key, RESET_FAILURES_PER_IP).await)?;
        // Hashed before the write transaction starts (see change_password).
        let hash = password::hash(&input.password).await?;
        let now = Utc::now();
        let txn = ca_core::db::begin_write(&self.db).await?;
        let found = password_reset_token::Entity::find()
            .filter(password_reset_token::Column::TokenHash.eq(token_hash(input.token.trim())))
            .one(&txn)
            .await?;
        let Some(link) = found.filter(|t| t.used_at.is_none() && t.expires_at > now) else {
            txn.rollback().await?;
            rate_limited(self.limiter.hit(&ip_key, RESET_FAILURES_PER_IP).await)?;
            return Err(AuthError::InvalidResetToken);
        };
        // Claim the link atomically so two concurrent resets cannot both use it.
        let claimed = password_reset_token::Entity::update_many()
            .col_expr(password_reset_token::Column::UsedAt, Expr::value(now))
            .filter(password_reset_token::Column::UserId.eq(&link.user_id))
            .filter(password_reset_token::Column::UsedAt.is_null())
            .exec(&txn)
            .await?;
        let user = user::Entity::find_by_id(link.user_id.clone())
            .one(&txn)
            .await?;
        let (Some(user), true) = (user, claimed.rows_affected > 0) else {
            txn.rollback().await?;
            return Err(AuthError::InvalidResetToken);
        };
        // A reset link signs in: not into a suspended account (the link
        // stays unused for when the account is restored).
        if let Err(e) = crate::suspension::refuse_if_suspended(&txn, &user.id).await {
            txn.rollback().await?;
            return Err(e);
        }
        let user = self.set_password(&txn, user, hash, now).await?;
        let second_factor = crate::challenge::second_factor_on(&txn, &user.id).await?;
        txn.commit().await?;
        tracing::info!(user_id = %user.id, "password reset");
        // A reset link alone never passes the second factor: those accounts
        // sign in with the new password and a code.
        if second_factor {
            return Ok(ResetPasswordOut {
                success: true,
                message: "Your password has been reset. Sign in with it and a code from your authenticator app.".into(),
                token: None,
                user: None,
            });
        }
        Ok(ResetPasswordOut {
            success: true,
            message: "Your password has been reset and you are now signed in.".into(),
            token: Some(self.keys.issue(&user.id, user.token_version, now)?),
            user: Some(UserOut::from_model(&user, now)),
        })
    }

    /// Whether any account exists (the demo setup runs only on a new database).
    pub async fn has_users(&self) -> Result<bool, AuthError> {
        Ok(user::Entity::find().count(&self.db).await? > 0)
    }
}

/// Which of `ids` are accounts that still exist (events queued for an owner
/// who was removed meanwhile are dropped).
pub async fn existing_users<C: sea_orm::ConnectionTrait>(
    conn: &C,
    ids: Vec<String>,
) -> Result<std::collections::HashSet<String>, sea_orm::DbErr> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    // Only the ids: the rows' other columns (password hashes among them)
    // have no business in the event writer.
    Ok(user::Entity::find()
        .select_only()
        .column(user::Column::Id)
        .filter(user::Column::Id.is_in(ids))
        .into_tuple::<String>()
        .all(conn)
        .await?
        .into_iter()
        .collect())
}

/// A new owner's status and trial end, from the trial settings in force.
async fn new_owner_trial<C: ConnectionTrait>(
    conn: &C,
    now: DateTime<Utc>,
) -> Result<(&'static str, Option<DateTime<Utc>>), AuthError> {
    let trial = crate::trial::settings(conn).await?;
    Ok(if trial.auto_start_trial {
        (
            "trial",
            Some(now + Duration::days(trial.trial_duration_days)),
        )
    } else {
        ("free", None)
    })
}

async fn insert_user<C: ConnectionTrait>(
    conn: &C,
    account: NewAccount,
    status: &str,
    trial_ends_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<user::Model, AuthError> {
    let email = normalize_email(&account.email);
    let exists = user::Entity::find()
        .filter(user::Column::Email.eq(&email))
        .count(conn)
        .await?;
    if exists > 0 {
        return Err(AuthError::EmailTaken);
    }
    let hash = password::hash(&account.password).await?;
    let model = user::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        name: Set(account.name.trim().to_string()),
        email: Set(email),
        phone: Set(crate::rules::stored_phone(&account.phone)),
        password_hash: Set(hash),
        role: Set(account.role.as_str().to_string()),
        plan_id: Set("free".to_string()),
        subscription_status: Set(status.to_string()),
        trial_ends_at: Set(trial_ends_at),
        subscription_ends_at: Set(None),
        token_version: Set(0),
        email_notifications: Set(true),
        push_notifications: Set(false),
        last_login_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    };
    model.insert(conn).await.map_err(|err| {
        // Two sign-ups racing for one email: the unique index decides.
        if matches!(err.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) {
            AuthError::EmailTaken
        } else {
            AuthError::from(err)
        }
    })
}
