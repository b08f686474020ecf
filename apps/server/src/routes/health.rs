//! Liveness and readiness probes.

use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

/// A probe's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct HealthOut {
    /// `ok`, or `unavailable` with the failing dependency in `detail`.
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The process is up.
#[utoipa::path(tag = "health", responses((status = 200, description = "Alive", body = HealthOut)))]
#[get("/healthz")]
pub async fn healthz() -> web::Json<HealthOut> {
    web::Json(HealthOut {
        status: "ok".into(),
        detail: None,
    })
}

/// The process can serve requests: the database answers.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "Ready", body = HealthOut),
        (status = 503, description = "A dependency is down", body = HealthOut),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if ca_core::db::ping(&state.db).await {
        HttpResponse::Ok().json(HealthOut {
            status: "ok".into(),
            detail: None,
        })
    } else {
        HttpResponse::ServiceUnavailable().json(HealthOut {
            status: "unavailable".into(),
            detail: Some("database".into()),
        })
    }
}
