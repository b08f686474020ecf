//! `/api/plans/*` and `/api/billing/*`: plans, usage, checkout and the demo payment.

use actix_web::{get, post, put, web};
use ca_auth::dto::UserOut;
use ca_billing::dto::UsageResponse;
use ca_billing::dto::{BillingDetailsIn, BillingDetailsResponse};
use ca_billing::dto::{
    CancelResponse, CheckoutData, CheckoutResponse, PlanChoiceIn, PlanResponse, PlansResponse,
    SubscriptionResponse,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::state::AppState;

/// Active plans in display order (no sign-in needed).
#[utoipa::path(tag = "plans", responses((status = 200, description = "Plans", body = PlansResponse)))]
#[get("")]
pub async fn list_plans(state: web::Data<AppState>) -> Result<web::Json<PlansResponse>, ApiError> {
    active_plans(&state).await
}

async fn active_plans(state: &AppState) -> Result<web::Json<PlansResponse>, ApiError> {
    Ok(web::Json(PlansResponse {
        success: true,
        data: state.billing.list_plans().await?,
    }))
}

/// One plan.
#[utoipa::path(
    tag = "plans",
    params(("id" = String, Path, description = "Plan id (its slug, e.g. basic)")),
    responses(
        (status = 200, description = "The plan", body = PlanResponse),
        (status = 404, description = "No such plan", body = ErrorBody),
    )
)]
#[get("/{id}")]
pub async fn get_plan(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<web::Json<PlanResponse>, ApiError> {
    Ok(web::Json(PlanResponse {
        success: true,
        data: state.billing.get_plan(&id).await?,
    }))
}

/// Active plans, for the billing screens (no sign-in needed).
#[utoipa::path(tag = "billing", responses((status = 200, description = "Plans", body = PlansResponse)))]
#[get("/plans")]
pub async fn billing_plans(
    state: web::Data<AppState>,
) -> Result<web::Json<PlansResponse>, ApiError> {
    active_plans(&state).await
}

/// The signed-in owner's plan usage (the creation gate reads it).
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Usage", body = UsageResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/usage")]
pub async fn usage(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<UsageResponse>, ApiError> {
    Ok(web::Json(UsageResponse {
        success: true,
        data: state.billing.usage(&user.0, chrono::Utc::now()).await?,
    }))
}

/// Start buying a plan: answers where to send the browser (the demo page
/// while no payment provider is configured; with PayU, a page that sends the
/// browser to PayU's checkout for the plan's price for its interval: a month,
/// or a year for a yearly plan). Checkout charges INR only: a plan priced in
/// another currency is refused (422, code `checkout_currency`) and is
/// arranged with sales.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    request_body = PlanChoiceIn,
    responses(
        (status = 200, description = "Checkout started", body = CheckoutResponse),
        (status = 400, description = "No plan chosen", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Invite-only plan without an invitation", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 409, description = "Already on this plan", body = ErrorBody),
        (status = 422, description = "Free or contact-sales plan, or a plan not priced in INR", body = ErrorBody),
        (status = 429, description = "More than 10 checkouts started in a minute", body = ErrorBody),
    )
)]
#[post("/checkout")]
pub async fn checkout(
    state: web::Data<AppState>,
    user: CurrentUser,
    browser: crate::extract::BuyerBrowser,
    body: web::Json<PlanChoiceIn>,
) -> Result<web::Json<CheckoutResponse>, ApiError> {
    let url = state
        .billing
        .checkout(&user.0, &body.plan_id, browser.0)
        .await?;
    Ok(web::Json(CheckoutResponse {
        success: true,
        data: CheckoutData { checkout_url: url },
    }))
}

/// The user after a completed payment.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaidUserData {
    pub user: UserOut,
}

/// `{success, message, data: {user}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MockPaymentResponse {
    pub success: bool,
    pub message: String,
    pub data: PaidUserData,
}

/// Complete a demo payment (only while no payment provider is configured):
/// the plan becomes active for one billing interval.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    request_body = PlanChoiceIn,
    responses(
        (status = 200, description = "Plan active", body = MockPaymentResponse),
        (status = 400, description = "No plan chosen", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Invite-only plan, or demo payments turned off", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 409, description = "Already on this plan", body = ErrorBody),
        (status = 422, description = "Free or contact-sales plan", body = ErrorBody),
    )
)]
#[post("/mock-payment-success")]
pub async fn mock_payment_success(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<PlanChoiceIn>,
) -> Result<web::Json<MockPaymentResponse>, ApiError> {
    let updated = state
        .billing
        .complete_demo_payment(&user.0, &body.plan_id)
        .await?;
    let plan = state.billing.get_plan(&updated.plan_id).await?;
    Ok(web::Json(MockPaymentResponse {
        success: true,
        message: format!(
            "Payment successful. Your {} plan is active.",
            plan.display_name
        ),
        data: PaidUserData {
            user: UserOut::from_model(&updated, chrono::Utc::now()),
        },
    }))
}

/// The owner's subscription: plan, status, cycle, the next billing date and
/// whether it was cancelled.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Subscription", body = SubscriptionResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/subscription")]
pub async fn subscription(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<SubscriptionResponse>, ApiError> {
    Ok(web::Json(SubscriptionResponse {
        success: true,
        data: state
            .billing
            .subscription(&user.0, chrono::Utc::now())
            .await?,
    }))
}

/// Cancel the paid subscription at the end of the period paid for: the plan
/// stays until `subscriptionEndsAt`, then the account is on the free plan.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Cancelled", body = CancelResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 422, description = "No paid subscription, or already cancelled", body = ErrorBody),
    )
)]
#[post("/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<CancelResponse>, ApiError> {
    let data = state.billing.cancel(&user.0, chrono::Utc::now()).await?;
    let ends = data
        .subscription_ends_at
        .map(|d| d.format("%-d %B %Y").to_string())
        .unwrap_or_default();
    Ok(web::Json(CancelResponse {
        success: true,
        message: format!(
            "Your subscription is cancelled. You keep your {} plan until {ends}.",
            data.plan_name
        ),
        data,
    }))
}

/// Take back a cancellation before the paid period ends: the plan goes on
/// and nothing is charged now.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Resumed", body = CancelResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 422, description = "Nothing cancelled to resume, or the period has ended", body = ErrorBody),
    )
)]
#[post("/resume")]
pub async fn resume(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<CancelResponse>, ApiError> {
    let data = state.billing.resume(&user.0, chrono::Utc::now()).await?;
    let ends = data
        .subscription_ends_at
        .map(|d| d.format("%-d %B %Y").to_string())
        .unwrap_or_default();
    Ok(web::Json(CancelResponse {
        success: true,
        message: format!(
            "Your {} plan is back on. Your next billing date is {ends}.",
            data.plan_name
        ),
        data,
    }))
}

/// The signed-in owner's billing details (address, state and optional
/// GSTIN their tax invoices are made out to), with the states to choose from.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The details; empty until saved", body = BillingDetailsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/details")]
pub async fn get_details(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<BillingDetailsResponse>, ApiError> {
    Ok(web::Json(BillingDetailsResponse {
        success: true,
        data: state.billing.billing_details(&user.0).await?,
    }))
}

/// Save the signed-in owner's billing details. The address and the state
/// are required; a GSTIN is optional and must be well formed, pass its check
/// character and have been issued in the chosen state. A refused input
/// changes nothing. Invoices already issued keep the details they were
/// issued with; the next payment's invoice uses these.
#[utoipa::path(
    tag = "billing",
    security(("bearer" = [])),
    request_body = BillingDetailsIn,
    responses(
        (status = 200, description = "Saved", body = BillingDetailsResponse),
        (status = 400, description = "A field breaks a rule (each field's message in `errors`)", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[put("/details")]
pub async fn put_details(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<BillingDetailsIn>,
) -> Result<web::Json<BillingDetailsResponse>, ApiError> {
    Ok(web::Json(BillingDetailsResponse {
        success: true,
        data: state
            .billing
            .save_billing_details(&user.0, body.into_inner())
            .await?,
    }))
}
