//! `POST /api/meta/track`: the dashboard's own conversion events for Meta's
//! Conversions API (no session needed).

use actix_web::{HttpRequest, post, web};
use ca_meta::{Origin, TrackIn, TrackOut};

use crate::error::{ApiError, ErrorBody};
use crate::extract::ClientIp;
use crate::state::AppState;

/// Report a sign-up (`Lead`, with the new account's id) or a verified
/// purchase (`Purchase`, with the payment's txnid and value). Checked,
/// stored, and sent to Meta in the background with the client's IP, user
/// agent and `_fbp`/`_fbc` cookies; a purchase that is not one of our
/// successful payments is refused.
#[utoipa::path(
    tag = "meta",
    request_body = TrackIn,
    responses(
        (status = 200, description = "Stored (and forwarded when Meta is configured)", body = TrackOut),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 422, description = "The purchase or lead could not be verified", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/track")]
pub async fn track(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
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
            .track(body.into_inner(), origin, chrono::Utc::now())
            .await?,
    ))
}
