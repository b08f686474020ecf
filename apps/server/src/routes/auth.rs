//! `/api/auth/*`: sign-up, sign-in (with its two-factor step), the current
//! user, password change and reset, and setting up two-factor sign-in.

use actix_web::{HttpResponse, get, post, put, web};
use ca_auth::dto::{
    AuthResponse, ChangePasswordIn, ChangePasswordOut, ForgotPasswordIn, LoginIn, LoginOut,
    MeResponse, RegisterIn, ResetPasswordIn, ResetPasswordOut, TwoFactorCodeIn,
    TwoFactorEnabledOut, TwoFactorSetupOut, TwoFactorVerifyIn, UpdateMeIn, UserOut,
};

use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientIp, CurrentUser};
use crate::routes::MessageOut;
use crate::state::AppState;

/// The same answer whether or not the account exists.
pub const FORGOT_PASSWORD_MESSAGE: &str =
    "If an account exists for that email, a password reset link has been sent.";

/// Create an owner account and start its 3-day trial.
#[utoipa::path(
    tag = "auth",
    request_body = RegisterIn,
    responses(
        (status = 201, description = "Signed up and signed in", body = AuthResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 409, description = "The email is taken", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address", body = ErrorBody),
    )
)]
#[post("/register")]
pub async fn register(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<RegisterIn>,
) -> Result<HttpResponse, ApiError> {
    let session = state
        .auth
        .register(body.into_inner(), &ip.limit_key())
        .await?;
    Ok(HttpResponse::Created().json(session))
}

/// Sign in with email and password. With two-factor sign-in on, the answer
/// is `{success, twoFactorRequired: true, challengeToken}` and no session:
/// send a code with the token to `POST /api/auth/2fa/verify`.
#[utoipa::path(
    tag = "auth",
    request_body = LoginIn,
    responses(
        (status = 200, description = "Signed in, or the password was right and a code comes next", body = LoginOut),
        (status = 400, description = "Email or password missing", body = ErrorBody),
        (status = 401, description = "Wrong email or password", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    )
)]
#[post("/login")]
pub async fn login(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<LoginIn>,
) -> Result<web::Json<LoginOut>, ApiError> {
    Ok(web::Json(
        state.auth.login(body.into_inner(), &ip.limit_key()).await?,
    ))
}

/// The second step of signing in: the challenge token from sign-in and the
/// 6-digit code from the authenticator app, or one unused recovery code
/// (each works once). Answers the usual sign-in body. Five wrong codes lock
/// the challenge (`two_factor_locked`); sign in again then.
#[utoipa::path(
    tag = "auth",
    request_body = TwoFactorVerifyIn,
    responses(
        (status = 200, description = "Signed in", body = AuthResponse),
        (status = 400, description = "Wrong code (`invalid_two_factor_code`)", body = ErrorBody),
        (status = 401, description = "Unknown, used or expired challenge (`invalid_challenge`)", body = ErrorBody),
        (status = 403, description = "Five wrong codes: the challenge is locked (`two_factor_locked`)", body = ErrorBody),
        (status = 429, description = "Too many wrong codes for this account", body = ErrorBody),
    )
)]
#[post("/2fa/verify")]
pub async fn verify_two_factor(
    state: web::Data<AppState>,
    body: web::Json<TwoFactorVerifyIn>,
) -> Result<web::Json<AuthResponse>, ApiError> {
    Ok(web::Json(
        state.auth.verify_two_factor(body.into_inner()).await?,
    ))
}

/// Start setting up two-factor sign-in: a new secret for the authenticator
/// app (as text, an `otpauth://` link and its QR code) and ten one-time
/// recovery codes, shown only in this answer. It is on once a code from the
/// app is sent to `POST /api/auth/2fa/enable`; asking again replaces both.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Secret and recovery codes", body = TwoFactorSetupOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Signed in as this account by staff (`not_while_acting_as`)", body = ErrorBody),
        (status = 409, description = "Already on (`two_factor_already_enabled`)", body = ErrorBody),
    )
)]
#[post("/2fa/setup")]
pub async fn setup_two_factor(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<TwoFactorSetupOut>, ApiError> {
    user.owner_in_person()?;
    Ok(web::Json(state.auth.setup_two_factor(&user.0).await?))
}

/// Turn two-factor sign-in on with a code from the app just set up. Every
/// other session is signed out; the answer's token replaces the caller's.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    request_body = TwoFactorCodeIn,
    responses(
        (status = 200, description = "On", body = TwoFactorEnabledOut),
        (status = 400, description = "Wrong code (`invalid_two_factor_code`)", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Signed in as this account by staff (`not_while_acting_as`)", body = ErrorBody),
        (status = 409, description = "Already on (`two_factor_already_enabled`)", body = ErrorBody),
        (status = 422, description = "Not set up yet (`two_factor_not_set_up`)", body = ErrorBody),
    )
)]
#[post("/2fa/enable")]
pub async fn enable_two_factor(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<TwoFactorCodeIn>,
) -> Result<web::Json<TwoFactorEnabledOut>, ApiError> {
    user.owner_in_person()?;
    Ok(web::Json(
        state.auth.enable_two_factor(user.0, &body.code).await?,
    ))
}

/// Turn two-factor sign-in off with a code from the app or an unused
/// recovery code. Staff past their grace period can then only set it up again.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    request_body = TwoFactorCodeIn,
    responses(
        (status = 200, description = "Off", body = MessageOut),
        (status = 400, description = "Wrong code (`invalid_two_factor_code`)", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Signed in as this account by staff (`not_while_acting_as`)", body = ErrorBody),
        (status = 422, description = "Not on (`two_factor_not_enabled`)", body = ErrorBody),
    )
)]
#[post("/2fa/disable")]
pub async fn disable_two_factor(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<TwoFactorCodeIn>,
) -> Result<web::Json<MessageOut>, ApiError> {
    user.owner_in_person()?;
    state.auth.disable_two_factor(&user.0, &body.code).await?;
    Ok(web::Json(MessageOut::ok("Two-factor sign-in is off")))
}

/// The signed-in user; under a "login as user" session also who is signed
/// in as them (`impersonatedBy`), for the dashboard's banner.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The user", body = MeResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/me")]
pub async fn me(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<MeResponse>, ApiError> {
    let impersonated_by = match &user.1 {
        Some(actor) => Some(state.auth.impersonator(actor).await?),
        None => None,
    };
    let two_factor = state.auth.two_factor_status(&user.0).await?;
    Ok(web::Json(MeResponse {
        success: true,
        user: UserOut::from_model(&user.0, chrono::Utc::now()),
        impersonated_by,
        two_factor,
    }))
}

/// Change the signed-in user's name, phone or notification choices.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    request_body = UpdateMeIn,
    responses(
        (status = 200, description = "Saved", body = MeResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[put("/me")]
pub async fn update_me(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<UpdateMeIn>,
) -> Result<web::Json<MeResponse>, ApiError> {
    let impersonated_by = match &user.1 {
        Some(actor) => Some(state.auth.impersonator(actor).await?),
        None => None,
    };
    let two_factor = state.auth.two_factor_status(&user.0).await?;
    let user = state.auth.update_me(user.0, body.into_inner()).await?;
    Ok(web::Json(MeResponse {
        success: true,
        user,
        impersonated_by,
        two_factor,
    }))
}

/// Change the password; every other session is signed out and a new token returned.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    request_body = ChangePasswordIn,
    responses(
        (status = 200, description = "Changed", body = ChangePasswordOut),
        (status = 400, description = "Wrong current password or weak new one", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Signed in as this account by staff (`not_while_acting_as`)", body = ErrorBody),
    )
)]
#[post("/change-password")]
pub async fn change_password(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<ChangePasswordIn>,
) -> Result<web::Json<ChangePasswordOut>, ApiError> {
    user.owner_in_person()?;
    Ok(web::Json(
        state
            .auth
            .change_password(user.0, body.into_inner())
            .await?,
    ))
}

/// Sign out of every device: all tokens of the user stop working.
#[utoipa::path(
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Signed out everywhere", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Signed in as this account by staff (`not_while_acting_as`)", body = ErrorBody),
    )
)]
#[post("/logout-all")]
pub async fn logout_all(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<MessageOut>, ApiError> {
    user.owner_in_person()?;
    state.auth.logout_all(user.0).await?;
    Ok(web::Json(MessageOut::ok("Signed out of all devices")))
}

/// Email a password reset link (valid 1 hour, single use) if the account exists.
#[utoipa::path(
    tag = "auth",
    request_body = ForgotPasswordIn,
    responses(
        (status = 200, description = "Sent if the account exists", body = MessageOut),
        (status = 400, description = "Email missing or malformed", body = ErrorBody),
        (status = 429, description = "Too many requests", body = ErrorBody),
    )
)]
#[post("/forgot-password")]
pub async fn forgot_password(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<ForgotPasswordIn>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state
        .auth
        .forgot_password(body.into_inner(), &ip.limit_key())
        .await?;
    Ok(web::Json(MessageOut::ok(FORGOT_PASSWORD_MESSAGE)))
}

/// Set a new password with a reset link's token; signs the user in, unless
/// two-factor sign-in is on (then sign in with the new password and a code).
#[utoipa::path(
    tag = "auth",
    request_body = ResetPasswordIn,
    responses(
        (status = 200, description = "Reset and signed in", body = ResetPasswordOut),
        (status = 400, description = "Invalid, used or expired token, or weak password", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    )
)]
#[post("/reset-password")]
pub async fn reset_password(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<ResetPasswordIn>,
) -> Result<web::Json<ResetPasswordOut>, ApiError> {
    Ok(web::Json(
        state
            .auth
            .reset_password(body.into_inner(), &ip.limit_key())
            .await?,
    ))
}
