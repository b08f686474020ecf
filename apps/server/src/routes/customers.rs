//! `/api/customers/*`: the owner's customers.

use actix_web::{HttpResponse, delete, get, put, web};
use ca_customers::dto::{
    CustomerListResponse, CustomerResponse, CustomerUpdate, ExportQuery, ListQuery,
    OverviewResponse, PeriodQuery,
};
use ca_customers::error::CustomerError;
use ca_customers::report::{ExportRows, encode_export};
use ca_customers::{report, service};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::{MessageOut, csv_format, csv_response};
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
    Ok(web::Json(
        state
            .customers
            .overview(&user.0.id, name, length, chrono::Utc::now())
            .await?,
    ))
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
    // State: the next page's rows (read while the page before was written
    // as CSV), whether the header is still to come, and whether it ended.
    type Pending = Option<Result<ExportRows, CustomerError>>;
    let first: Pending = None;
    let body = futures_util::stream::unfold(
        (first, true, false),
        move |(pending, header, finished): (Pending, bool, bool)| {
            let customers = customers.clone();
            let owner = owner.clone();
            async move {
                if finished {
                    return None;
                }
                let rows = match pending {
                    Some(rows) => rows,
                    None => customers.export_rows(&owner, None).await,
                };
                let failed = |err: CustomerError| {
                    tracing::error!(%err, "CSV export failed");
                    Some((
                        Err(actix_web::error::ErrorInternalServerError("export failed")),
                        (None, false, true),
                    ))
                };
                let rows = match rows {
                    Ok(rows) => rows,
                    Err(err) => return failed(err),
                };
                let next = rows.next();
                // The CSV is written on another thread while the next page is read.
                let encode = tokio::task::spawn_blocking(move || encode_export(rows, header));
                let (bytes, pending) = match next {
                    Some(after) => {
                        let (bytes, rows) =
                            tokio::join!(encode, customers.export_rows(&owner, Some(&after)));
                        (bytes, Some(rows))
                    }
                    None => (encode.await, None),
                };
                let bytes = match bytes {
                    Ok(Ok(bytes)) => bytes,
                    Ok(Err(err)) => return failed(err),
                    Err(err) => {
                        return failed(CustomerError::Infra(ca_core::error::InfraError::Other(
                            err.to_string(),
                        )));
                    }
                };
                let finished = pending.is_none();
                Some((
                    Ok(actix_web::web::Bytes::from(bytes)),
                    (pending, false, finished),
                ))
            }
        },
    );
    Ok(csv_response("customers.csv", body))
}
