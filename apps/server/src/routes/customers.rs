//! `/api/customers/*`: the owner's customers.

use actix_web::{HttpResponse, delete, get, put, web};
use ca_customers::dto::{
    CustomerListResponse, CustomerResponse, CustomerUpdate, ExportQuery, ListQuery,
    OverviewResponse, PeriodQuery,
};
use ca_customers::report::{ExportRows, encode_export};
use ca_customers::{report, service};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::{MessageOut, csv_format, csv_pipeline};
use crate::state::AppState;

/// The owner's customers: search (name, email, phone, company), status
/// filter, sort and pages.
#[utoipa::path(
    operation_id = "customers_list",
    tag = "customers",
    security(("bearer" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "One page of customers", body = CustomerListResponse),
        (status = 400, description = "A query parameter breaks a rule; `errors` names it", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/user")]
pub async fn list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<CustomerListResponse>, ApiError> {
    let listing = service::listing(&query)?;
    Ok(web::Json(state.customers.list(&user.0.id, &listing).await?))
}

/// One customer.
#[utoipa::path(
    operation_id = "customers_get_one",
    tag = "customers",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Customer id")),
    responses(
        (status = 200, description = "The customer", body = CustomerResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<CustomerResponse>, ApiError> {
    Ok(web::Json(CustomerResponse {
        success: true,
        customer: state.customers.get(&user.0.id, &id).await?,
    }))
}

/// Change a customer's status, name, phone, company or notes.
#[utoipa::path(
    operation_id = "customers_update",
    tag = "customers",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Customer id")),
    request_body = CustomerUpdate,
    responses(
        (status = 200, description = "Updated", body = CustomerResponse),
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
    body: web::Json<CustomerUpdate>,
) -> Result<web::Json<CustomerResponse>, ApiError> {
    Ok(web::Json(CustomerResponse {
        success: true,
        customer: state
            .customers
            .update(&user.0.id, &id, body.into_inner())
            .await?,
    }))
}

/// Delete a customer.
#[utoipa::path(
    operation_id = "customers_remove",
    tag = "customers",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Customer id")),
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
    state.customers.delete(&user.0.id, &id).await?;
    Ok(web::Json(MessageOut::ok("Customer deleted")))
}

/// Headline figures, customers per status and the top campaigns over a
/// period, with the period before for change captions.
#[utoipa::path(
    operation_id = "customers_overview",
    tag = "customers",
    security(("bearer" = [])),
    params(PeriodQuery),
    responses(
        (status = 200, description = "The overview", body = OverviewResponse),
        (status = 400, description = "Unknown period", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/analytics/overview")]
pub async fn overview(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<PeriodQuery>,
) -> Result<web::Json<OverviewResponse>, ApiError> {
    let (name, length) = report::period(query.period.as_deref())?;
    let mut out = state
        .customers
        .overview(&user.0.id, name, length, chrono::Utc::now())
        .await?;
    // A renamed campaign shows under its name now.
    let ids: Vec<String> = out
        .top_campaigns
        .iter()
        .filter_map(|c| c.id.clone())
        .collect();
    let names = ca_campaigns::service::names(&state.db, &user.0.id, &ids).await?;
    for c in &mut out.top_campaigns {
        if let Some(now) = c.id.as_ref().and_then(|id| names.get(id)) {
            c.campaign_name.clone_from(now);
        }
    }
    Ok(web::Json(out))
}

/// Every customer as `customers.csv`, streamed page by page (constant memory).
/// Cells a spreadsheet would run as a formula get a leading `'`.
#[utoipa::path(
    operation_id = "customers_export",
    tag = "customers",
    security(("bearer" = [])),
    params(ExportQuery),
    responses(
        (status = 200, description = "The CSV file", content_type = "text/csv", body = String),
        (status = 400, description = "Unknown format", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/export/data")]
pub async fn export(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    csv_format(query.format.as_deref())?;
    let customers = state.customers.clone();
    let owner = user.0.id.clone();
    Ok(csv_pipeline(
        "customers.csv",
        move |after: Option<String>| {
            let (customers, owner) = (customers.clone(), owner.clone());
            async move { customers.export_rows(&owner, after.as_deref()).await }
        },
        ExportRows::next,
        encode_export,
    ))
}
