//! `POST /api/meta/track`: the dashboard's own conversion events for Meta's
//! Conversions API (no session needed), and `GET /api/meta/config`, the
//! public pixel id the dashboard's pages keep Meta's click cookies for.

use actix_web::{HttpRequest, get, post, web};
use ca_meta::{MetaPublicConfig, Origin, TrackIn, TrackOut};

use crate::error::{ApiError, ErrorBody};
use crate::extract::{ClientIp, CurrentUser};
use crate::state::AppState;

/// Report a sign-up (`Lead`, with the new account's id) or a verified
/// purchase (`Purchase`, with the payment's txnid and value, from the
/// signed-in owner who paid). Checked, stored, and sent to Meta in the
/// background with the client's IP, user agent and `_fbp`/`_fbc` cookies;
/// a purchase that is not one of the caller's successful payments is
/// refused. The first browser copy of an event counts: a later one changes
/// nothing.
#[utoipa::path(
    tag = "meta",
    request_body = TrackIn,
    responses(
        (status = 200, description = "Stored (and forwarded when Meta is configured)", body = TrackOut),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "A purchase reported without a session", body = ErrorBody),
        (status = 422, description = "The purchase or lead could not be verified", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/track")]
pub async fn track(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    signed_in: Option<CurrentUser>,
    body: web::Json<TrackIn>,
) -> Result<web::Json<TrackOut>, ApiError> {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.chars().take(500).collect::<String>())
    };
    let cookie = |name: &str| {
        req.cookie(name)
            .map(|c| c.value().chars().take(200).collect())
    };
    let origin = Origin {
        ip: ip.0,
        user_agent: header("user-agent"),
        fbp: cookie("_fbp"),
        fbc: cookie("_fbc"),
        referer: header("referer"),
    };
    Ok(web::Json(
        state
            .meta
            .track(
                body.into_inner(),
                origin,
                signed_in.as_ref().map(|u| &u.0),
                chrono::Utc::now(),
            )
            .await?,
    ))
}

/// The Meta pixel id while events are forwarded to Meta (null otherwise).
/// With it the dashboard's pages keep Meta's `_fbp` cookie and turn an ad
/// click's `fbclid` into `_fbc`, so sign-ups and purchases are attributed
/// to the ad. No session needed; nothing secret is in it.
#[utoipa::path(
    tag = "meta",
    responses(
        (status = 200, description = "The public pixel id, or null", body = MetaPublicConfig),
    )
)]
#[get("/config")]
pub async fn public_config(state: web::Data<AppState>) -> web::Json<MetaPublicConfig> {
    web::Json(state.meta.public_config())
}
