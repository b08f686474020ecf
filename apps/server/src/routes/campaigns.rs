//! `/api/campaigns/*`: the owner's campaigns: list, create, read, change,
//! delete, switch on and off, analytics, and the two embed snippets.

use actix_web::{HttpResponse, delete, get, patch, post, put, web};
use ca_campaigns::dto::{
    CampaignAnalyticsResponse, CampaignIn, CampaignListResponse, CampaignResponse,
    ConversionScriptResponse, WidgetScriptResponse,
};
use ca_campaigns::scripts;
use ca_campaigns::settings::CampaignSettings;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::MessageOut;
use crate::state::AppState;

/// The owner's campaigns, newest first, with their plan usage.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Campaigns and usage", body = CampaignListResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("")]
pub async fn list(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<CampaignListResponse>, ApiError> {
    let campaigns = state.campaigns.list(&user.0.id).await?;
    let usage = state.billing.usage(&user.0, chrono::Utc::now()).await?;
    Ok(web::Json(CampaignListResponse {
        success: true,
        campaigns,
        usage,
    }))
}

/// Create a campaign (within the plan's campaign limit).
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    request_body = CampaignIn,
    responses(
        (status = 201, description = "Created", body = CampaignResponse),
        (status = 400, description = "A field breaks a rule; `errors` names it", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Plan limit: `upgradeRequired`, `isFreePlan`, `limit`", body = ErrorBody),
    )
)]
#[post("")]
pub async fn create(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<CampaignIn>,
) -> Result<HttpResponse, ApiError> {
    let campaign = state.campaigns.create(&user.0, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(CampaignResponse {
        success: true,
        campaign,
    }))
}

/// The settings a new campaign starts with, so clients
/// show the same defaults the server applies.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Default settings", body = DefaultSettingsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/defaults")]
pub async fn defaults(_user: CurrentUser) -> web::Json<DefaultSettingsResponse> {
    web::Json(DefaultSettingsResponse {
        success: true,
        settings: CampaignSettings::default(),
    })
}

/// `{success, settings}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DefaultSettingsResponse {
    pub success: bool,
    pub settings: CampaignSettings,
}

/// One campaign.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "The campaign", body = CampaignResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<CampaignResponse>, ApiError> {
    Ok(web::Json(CampaignResponse {
        success: true,
        campaign: state.campaigns.get(&user.0.id, &id).await?,
    }))
}

/// Replace the campaign with the sent (merged) campaign.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    request_body = CampaignIn,
    responses(
        (status = 200, description = "Saved", body = CampaignResponse),
        (status = 400, description = "A field breaks a rule; `errors` names it", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[put("/{id}")]
pub async fn update(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<CampaignIn>,
) -> Result<web::Json<CampaignResponse>, ApiError> {
    Ok(web::Json(CampaignResponse {
        success: true,
        campaign: state
            .campaigns
            .update(&user.0.id, &id, body.into_inner())
            .await?,
    }))
}

/// Delete the campaign.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
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
    state.campaigns.delete(&user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("Campaign deleted")))
}

/// Switch the campaign between active and inactive.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "Toggled", body = CampaignResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[patch("/{id}/toggle")]
pub async fn toggle(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<CampaignResponse>, ApiError> {
    Ok(web::Json(CampaignResponse {
        success: true,
        campaign: state.campaigns.toggle(&user.0.id, &id).await?,
    }))
}

/// The campaign's impressions, conversions, conversion rate and revenue.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "Analytics", body = CampaignAnalyticsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/analytics")]
pub async fn analytics(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<CampaignAnalyticsResponse>, ApiError> {
    let analytics = state.campaigns.analytics(&user.0.id, &id).await?;
    let assistant = state
        .conversations
        .reply_stats(&user.0.id, Some(&id))
        .await?;
    let held_orders = state.tracking.held_orders(&user.0.id, &id).await?;
    Ok(web::Json(CampaignAnalyticsResponse {
        success: true,
        analytics,
        assistant,
        held_orders,
    }))
}

/// The script tag to put on every page of the campaign's site.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "The embed tag", body = WidgetScriptResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/widget-script")]
pub async fn widget_script(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<WidgetScriptResponse>, ApiError> {
    let campaign = state.campaigns.get(&user.0.id, &id).await?;
    Ok(web::Json(WidgetScriptResponse {
        success: true,
        script: scripts::widget_script(&state.config.public_url(), &campaign.id),
    }))
}

/// The snippet for the owner's thank-you page, which records purchases.
#[utoipa::path(
    tag = "campaigns",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "The snippet", body = ConversionScriptResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/conversion-script")]
pub async fn conversion_script(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<ConversionScriptResponse>, ApiError> {
    let campaign = state.campaigns.get(&user.0.id, &id).await?;
    Ok(web::Json(ConversionScriptResponse {
        success: true,
        script_content: scripts::conversion_script(&state.config.public_url(), &campaign.id),
    }))
}
