//! `/api/conversations/*`: the owner's view of visitor conversations.

use actix_web::{HttpResponse, delete, get, web};
use ca_conversations::dashboard::dto::{
    ConversationAnalyticsResponse, ConversationListResponse, ConversationResponse, ListQuery,
    MessagesQuery, PeriodQuery,
};
use ca_conversations::dashboard::export::{ExportPage, ExportQuery, csv_chunk};
use ca_conversations::dashboard::period;

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::{MessageOut, csv_format, csv_pipeline};
use crate::state::AppState;

/// The owner's conversations, newest first.
#[utoipa::path(
    operation_id = "conversations_list",
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
        state.conversations.list(&user.0.id, None, &query).await?,
    ))
}

/// One campaign's conversations, newest first.
#[utoipa::path(
    operation_id = "conversations_by_campaign",
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
        state
            .conversations
            .list(&user.0.id, Some(&id), &query)
            .await?,
    ))
}

/// Conversation figures over a period, for all campaigns.
#[utoipa::path(
    operation_id = "conversations_analytics",
    tag = "conversations",
    security(("bearer" = [])),
    params(PeriodQuery),
    responses(
        (status = 200, description = "The figures", body = ConversationAnalyticsResponse),
        (status = 400, description = "Unknown period", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/analytics")]
pub async fn analytics(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PeriodQuery>,
) -> Result<web::Json<ConversationAnalyticsResponse>, ApiError> {
    let (name, length) = period(query.period.as_deref())?;
    Ok(web::Json(
        state
            .conversations
            .analytics(&user.0.id, None, name, length, chrono::Utc::now())
            .await?,
    ))
}

/// Conversation figures over a period, for one campaign.
#[utoipa::path(
    operation_id = "conversations_campaign_analytics",
    tag = "conversations",
    security(("bearer" = [])),
    params(("campaignId" = String, Path, description = "Campaign id"), PeriodQuery),
    responses(
        (status = 200, description = "The figures", body = ConversationAnalyticsResponse),
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
) -> Result<web::Json<ConversationAnalyticsResponse>, ApiError> {
    let (name, length) = period(query.period.as_deref())?;
    Ok(web::Json(
        state
            .conversations
            .analytics(
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
    operation_id = "conversations_get_one",
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
        conversation: state.conversations.get(&user.0.id, &id, &query).await?,
    }))
}

/// Delete a conversation and its messages.
#[utoipa::path(
    operation_id = "conversations_remove",
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
    state.conversations.delete(&user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("Conversation deleted")))
}

const EXPORT_PAGE: u64 = 500;

async fn export_csv(
    state: web::Data<AppState>,
    user: CurrentUser,
    campaign_id: Option<String>,
    format: Option<String>,
) -> Result<HttpResponse, ApiError> {
    csv_format(format.as_deref())?;
    let owner = user.0.id.clone();
    state
        .conversations
        .export_check(&owner, campaign_id.as_deref())
        .await?;
    let names = std::sync::Arc::new(state.conversations.campaign_names(&owner).await?);
    let service = state.conversations.clone();
    let file = match &campaign_id {
        Some(_) => "campaign-conversations.csv",
        None => "conversations.csv",
    };
    Ok(csv_pipeline(
        file,
        move |after: Option<String>| {
            let (service, owner, campaign_id) =
                (service.clone(), owner.clone(), campaign_id.clone());
            async move {
                service
                    .export_page(
                        &owner,
                        campaign_id.as_deref(),
                        after.as_deref(),
                        EXPORT_PAGE,
                    )
                    .await
            }
        },
        // A short page is the last one.
        |page: &ExportPage| {
            ((page.conversations.len() as u64) == EXPORT_PAGE)
                .then(|| page.conversations.last().map(|c| c.id.clone()))
                .flatten()
        },
        move |page: ExportPage, header| csv_chunk(&page, &names, header),
    ))
}

/// Every conversation of the owner as `conversations.csv` (one row each,
/// with the transcript), streamed page by page. Formula-like cells get a `'`.
#[utoipa::path(
    operation_id = "conversations_export",
    tag = "conversations",
    security(("bearer" = [])),
    params(ExportQuery),
    responses(
        (status = 200, description = "The CSV file", content_type = "text/csv", body = String),
        (status = 400, description = "Unknown format", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/export")]
pub async fn export(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    export_csv(state, user, None, query.into_inner().format).await
}

/// The conversations of one of the owner's campaigns as CSV.
#[utoipa::path(
    operation_id = "conversations_export_campaign",
    tag = "conversations",
    security(("bearer" = [])),
    params(("campaignId" = String, Path, description = "The campaign's `_id`"), ExportQuery),
    responses(
        (status = 200, description = "The CSV file", content_type = "text/csv", body = String),
        (status = 400, description = "Unknown format", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "No such campaign of yours", body = ErrorBody),
    )
)]
#[get("/export/{campaignId}")]
pub async fn export_campaign(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<String>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    export_csv(
        state,
        user,
        Some(path.into_inner()),
        query.into_inner().format,
    )
    .await
}
