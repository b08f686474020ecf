//! `/api/webhooks/*`: the owner's webhook endpoints (and Mailchimp audience
//! pushes), their signing secrets, test events, and the delivery log.

use actix_web::{HttpResponse, delete, get, post, put, web};
use ca_core::paging::Pagination;
use ca_webhooks::dto::{
    DeliveryList, DeliveryQuery, EndpointIn, EndpointList, EndpointResponse, QueuedOut,
    QueuedResponse, SecretResponse,
};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::MessageOut;
use crate::state::AppState;

/// The owner's endpoints.
#[utoipa::path(
    operation_id = "webhooks_list_endpoints",
    tag = "webhooks",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The endpoints, oldest first", body = EndpointList),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/endpoints")]
pub async fn list_endpoints(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<EndpointList>, ApiError> {
    Ok(web::Json(EndpointList {
        success: true,
        data: state.webhooks.list(&user.0.id).await?,
    }))
}

/// Add an endpoint: a webhook (https; `http://localhost` only where the
/// server allows private destinations) or a Mailchimp audience push. The
/// answer alone carries the signing secret.
#[utoipa::path(
    operation_id = "webhooks_create_endpoint",
    tag = "webhooks",
    security(("bearer" = [])),
    request_body = EndpointIn,
    responses(
        (status = 201, description = "Added; `data.secret` is the signing secret", body = EndpointResponse),
        (status = 400, description = "A field breaks a rule (a URL of a private network, plain http, no events…)", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 422, description = "Too many endpoints", body = ErrorBody),
    )
)]
#[post("/endpoints")]
pub async fn create_endpoint(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<EndpointIn>,
) -> Result<HttpResponse, ApiError> {
    let created = state.webhooks.create(&user.0.id, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(EndpointResponse {
        success: true,
        data: created,
    }))
}

/// Change an endpoint.
#[utoipa::path(
    operation_id = "webhooks_update_endpoint",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Endpoint id")),
    request_body = EndpointIn,
    responses(
        (status = 200, description = "Changed", body = EndpointResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[put("/endpoints/{id}")]
pub async fn update_endpoint(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<EndpointIn>,
) -> Result<web::Json<EndpointResponse>, ApiError> {
    Ok(web::Json(EndpointResponse {
        success: true,
        data: state
            .webhooks
            .update(&user.0.id, &id, body.into_inner())
            .await?,
    }))
}

/// Delete an endpoint and its delivery log.
#[utoipa::path(
    operation_id = "webhooks_delete_endpoint",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "Deleted", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[delete("/endpoints/{id}")]
pub async fn delete_endpoint(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.webhooks.delete(&user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("Endpoint deleted")))
}

/// Reveal the endpoint's signing secret.
#[utoipa::path(
    operation_id = "webhooks_reveal_secret",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "The secret", body = SecretResponse),
        (status = 400, description = "A Mailchimp push has no signing secret", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/endpoints/{id}/secret")]
pub async fn reveal_secret(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<SecretResponse>, ApiError> {
    Ok(web::Json(SecretResponse {
        success: true,
        data: state.webhooks.reveal_secret(&user.0.id, &id).await?,
    }))
}

/// A new signing secret; the old one keeps signing for 24 hours (both sign
/// meanwhile).
#[utoipa::path(
    operation_id = "webhooks_rotate_secret",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "The new secret", body = SecretResponse),
        (status = 400, description = "A Mailchimp push has no signing secret", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[post("/endpoints/{id}/rotate-secret")]
pub async fn rotate_secret(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<SecretResponse>, ApiError> {
    Ok(web::Json(SecretResponse {
        success: true,
        data: state.webhooks.rotate_secret(&user.0.id, &id).await?,
    }))
}

/// "Send test event": a `webhook.test` event to this endpoint, sent at once.
#[utoipa::path(
    operation_id = "webhooks_send_test",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "Queued; see the delivery log", body = QueuedResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[post("/endpoints/{id}/test")]
pub async fn send_test(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<QueuedResponse>, ApiError> {
    let event_id = state.webhooks.send_test(&user.0.id, &id).await?;
    Ok(web::Json(QueuedResponse {
        success: true,
        data: QueuedOut { event_id },
    }))
}

/// The delivery log: the last 30 days of attempts, newest first (of one
/// endpoint with `endpointId`).
#[utoipa::path(
    operation_id = "webhooks_deliveries",
    tag = "webhooks",
    security(("bearer" = [])),
    params(DeliveryQuery),
    responses(
        (status = 200, description = "One page of attempts", body = DeliveryList),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/deliveries")]
pub async fn deliveries(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<DeliveryQuery>,
) -> Result<web::Json<DeliveryList>, ApiError> {
    let (data, pagination): (_, Pagination) = state.webhooks.deliveries(&user.0.id, &query).await?;
    Ok(web::Json(DeliveryList {
        success: true,
        data,
        pagination,
    }))
}

/// Send the event of a delivery again, now, with the same `webhook-id`.
#[utoipa::path(
    operation_id = "webhooks_resend",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "A delivery attempt's id (from the log)")),
    responses(
        (status = 200, description = "Queued", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[post("/deliveries/{id}/resend")]
pub async fn resend(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.webhooks.resend(&user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("The event is being sent again")))
}
