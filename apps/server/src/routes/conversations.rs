//! `/api/conversations/*`: the owner's view of visitor conversations (seed 001 §7).

use actix_web::{delete, get, web};
use ca_conversations::owner::{
    self, AnalyticsResponse, ConversationListResponse, ConversationResponse, ListQuery,
    MessagesQuery, PeriodQuery,
};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::MessageOut;
use crate::state::AppState;

/// The owner's conversations, newest first.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "One page of conversations", body = ConversationListResponse),
        (status = 400, description = "A query parameter breaks a rule; `errors` names it", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/user")]
pub async fn list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<ConversationListResponse>, ApiError> {
    Ok(web::Json(
        owner::list(&state.db, &user.0.id, None, &query).await?,
    ))
}

/// One campaign's conversations, newest first.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id"), ListQuery),
    responses(
        (status = 200, description = "One page of conversations", body = ConversationListResponse),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
    )
)]
#[get("/campaign/{id}")]
pub async fn by_campaign(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
) -> Result<web::Json<ConversationListResponse>, ApiError> {
    Ok(web::Json(
        owner::list(&state.db, &user.0.id, Some(&id), &query).await?,
    ))
}

/// Conversation figures over a period, for all campaigns.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(PeriodQuery),
    responses(
        (status = 200, description = "The figures", body = AnalyticsResponse),
        (status = 400, description = "Unknown period", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/analytics")]
pub async fn analytics(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PeriodQuery>,
) -> Result<web::Json<AnalyticsResponse>, ApiError> {
    let (name, length) = owner::period(query.period.as_deref())?;
    Ok(web::Json(
        owner::analytics(
            &state.db,
            &user.0.id,
            None,
            name,
            length,
            chrono::Utc::now(),
        )
        .await?,
    ))
}

/// Conversation figures over a period, for one campaign.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(("campaignId" = String, Path, description = "Campaign id"), PeriodQuery),
    responses(
        (status = 200, description = "The figures", body = AnalyticsResponse),
        (status = 400, description = "Unknown period", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
    )
)]
#[get("/analytics/{campaignId}")]
pub async fn campaign_analytics(
    state: web::Data<AppState>,
    user: CurrentUser,
    campaign: web::Path<String>,
    query: web::Query<PeriodQuery>,
) -> Result<web::Json<AnalyticsResponse>, ApiError> {
    let (name, length) = owner::period(query.period.as_deref())?;
    Ok(web::Json(
        owner::analytics(
            &state.db,
            &user.0.id,
            Some(&campaign),
            name,
            length,
            chrono::Utc::now(),
        )
        .await?,
    ))
}

/// One conversation (by `_id` or `conversationId`) with the newest messages,
/// or those before `before`, oldest first.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Conversation `_id` or `conversationId`"), MessagesQuery),
    responses(
        (status = 200, description = "The conversation", body = ConversationResponse),
        (status = 400, description = "Bad `before` or `limit`", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    query: web::Query<MessagesQuery>,
) -> Result<web::Json<ConversationResponse>, ApiError> {
    Ok(web::Json(ConversationResponse {
        success: true,
        conversation: owner::get(&state.db, &user.0.id, &id, &query).await?,
    }))
}

/// Delete a conversation and its messages.
#[utoipa::path(
    tag = "conversations",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Conversation `_id` or `conversationId`")),
    responses(
        (status = 200, description = "Deleted", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[delete("/{id}")]
pub async fn remove(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    owner::delete(&state.db, &user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("Conversation deleted")))
}
