//! `/api/push/*`: browser push notifications: the server's public key, and
//! the owner's browsers that receive notifications of new leads and
//! successful payments.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use ca_push::dto::{
    PushEndpointQuery, PushSubscriptionIn, PushSubscriptionList, PushSubscriptionResponse,
    VapidKeyOut,
};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::MessageOut;
use crate::state::AppState;

/// The server's public key (VAPID), the `applicationServerKey` a browser
/// subscribes with.
#[utoipa::path(
    operation_id = "push_vapid_public_key",
    tag = "push",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The key", body = VapidKeyOut),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/vapid-public-key")]
pub async fn vapid_public_key(
    state: web::Data<AppState>,
    _user: CurrentUser,
) -> web::Json<VapidKeyOut> {
    web::Json(VapidKeyOut {
        success: true,
        public_key: state.push.public_key().to_string(),
    })
}

/// The browsers that receive the owner's notifications, newest first.
#[utoipa::path(
    operation_id = "push_list_subscriptions",
    tag = "push",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The browsers", body = PushSubscriptionList),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/subscriptions")]
pub async fn list_subscriptions(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<PushSubscriptionList>, ApiError> {
    Ok(web::Json(PushSubscriptionList {
        success: true,
        data: state.push.subscriptions(&user.0.id).await?,
    }))
}

/// Notify this browser of new leads and successful payments: stores its
/// subscription (`PushSubscription.toJSON()`). Subscribing again replaces
/// its keys; a browser stored for another account moves to this one.
#[utoipa::path(
    operation_id = "push_subscribe",
    tag = "push",
    security(("bearer" = [])),
    request_body = PushSubscriptionIn,
    responses(
        (status = 201, description = "Stored", body = PushSubscriptionResponse),
        (status = 400, description = "Not a valid subscription (the push service's address must be https outside this server's network; keys of the right length, base64url)", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 422, description = "Too many browsers", body = ErrorBody),
    )
)]
#[post("/subscriptions")]
pub async fn subscribe(
    state: web::Data<AppState>,
    user: CurrentUser,
    req: HttpRequest,
    body: web::Json<PushSubscriptionIn>,
) -> Result<HttpResponse, ApiError> {
    let user_agent = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok());
    let saved = state
        .push
        .subscribe(
            &user.0.id,
            body.into_inner(),
            user_agent,
            chrono::Utc::now(),
        )
        .await?;
    Ok(HttpResponse::Created().json(PushSubscriptionResponse {
        success: true,
        data: saved,
    }))
}

/// Stop notifying the browser whose push-service address is `endpoint`.
#[utoipa::path(
    operation_id = "push_unsubscribe",
    tag = "push",
    security(("bearer" = [])),
    params(PushEndpointQuery),
    responses(
        (status = 200, description = "Removed", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Not a browser of this account", body = ErrorBody),
    )
)]
#[delete("/subscriptions")]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PushEndpointQuery>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.push.unsubscribe(&user.0.id, &query.endpoint).await?;
    Ok(web::Json(MessageOut::ok(
        "Push notifications are off in this browser",
    )))
}
