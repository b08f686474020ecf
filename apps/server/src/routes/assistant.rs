//! `/api/campaigns/{id}/assistant/*`: the owner's tools for a campaign's
//! assistant: try it as a visitor would, and list the visitors' questions it
//! could not answer.

use actix_web::{get, post, web};
use ca_conversations::assistant::owner::{TryIn, TryOut, UnansweredQuery, UnansweredResponse};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::state::AppState;

/// Ask the campaign's assistant a question as a visitor would, from the saved
/// knowledge base and business information or from the unsaved ones sent.
/// Shows the passages the builtin assistant quoted. Stores nothing and counts
/// nothing towards the plan.
#[utoipa::path(
    operation_id = "assistant_try",
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    request_body = TryIn,
    responses(
        (status = 200, description = "The reply a visitor would get, and the passages it quotes", body = TryOut),
        (status = 400, description = "The question is empty or too long, or a text is over its limit; `errors` names it", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
        (status = 429, description = "Too many tries in a minute; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
#[post("/{id}/assistant/try")]
pub async fn try_assistant(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<TryIn>,
) -> Result<web::Json<TryOut>, ApiError> {
    Ok(web::Json(
        state
            .conversations
            .try_assistant(&user.0.id, &id, body.into_inner())
            .await?,
    ))
}

/// The visitors' questions the campaign's assistant could not answer from
/// the owner's texts, grouped by wording with how often each was asked,
/// newest first.
#[utoipa::path(
    operation_id = "assistant_unanswered",
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id"), UnansweredQuery),
    responses(
        (status = 200, description = "One page of unanswered questions", body = UnansweredResponse),
        (status = 400, description = "Bad `page` or `limit`", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/assistant/unanswered")]
pub async fn unanswered(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<UnansweredQuery>,
) -> Result<web::Json<UnansweredResponse>, ApiError> {
    Ok(web::Json(
        state
            .conversations
            .unanswered_questions(&user.0.id, &id, &query)
            .await?,
    ))
}
