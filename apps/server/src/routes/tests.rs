//! `/api/campaigns/{id}/tests/*`: the owner's A/B tests of a campaign:
//! list, start, read the results and the call, change how a test ends,
//! pause or resume, edit the variants (the test's next version), promote
//! the winner into the campaign.

use actix_web::{HttpResponse, get, patch, post, web};
use ca_experiments::dto::{PromoteIn, TestChangeIn, TestIn, TestListResponse, TestResponse};

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::state::AppState;

/// The campaign's tests, newest first, each with its results.
#[utoipa::path(
    operation_id = "tests_list",
    tag = "tests",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "The tests, newest first", body = TestListResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/tests")]
pub async fn list(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<TestListResponse>, ApiError> {
    Ok(web::Json(TestListResponse {
        success: true,
        data: state.experiments.list(&user.0.id, &id).await?,
    }))
}

/// Start a test: the control (the campaign as it is, `overrides: {}`) and 1
/// to 3 variants, each a partial campaign `settings` object; weights are
/// whole percent adding up to 100. A campaign runs one test at a time.
/// `maxDays` (14 to 90, 30 when left out) is how long the test may run
/// without a winner before it is called inconclusive; with `autoPromote` the
/// winner is written into the campaign as soon as it is called. Either way
/// the owner is told of the call by email (and in their browsers with
/// notifications on).
#[utoipa::path(
    operation_id = "tests_create",
    tag = "tests",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Campaign id")),
    request_body = TestIn,
    responses(
        (status = 201, description = "Started", body = TestResponse),
        (status = 400, description = "A field breaks a rule (weights not adding up to 100, an override of a setting a test cannot change, a maximum duration that is not a whole number of days from 14 to 90, an autoPromote that is not true or false…); nothing is stored", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Campaign absent or not yours", body = ErrorBody),
        (status = 422, description = "The campaign already has a running or paused test", body = ErrorBody),
    )
)]
#[post("/{id}/tests")]
pub async fn create(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<TestIn>,
) -> Result<HttpResponse, ApiError> {
    let created = state
        .experiments
        .create(&user.0.id, &id, body.into_inner())
        .await?;
    Ok(HttpResponse::Created().json(TestResponse {
        success: true,
        data: created,
    }))
}

/// One test with per-variant results and the call (`decision`), made by an
/// always-valid test after at least 7 days and enough visitors, or
/// inconclusive after the test's maximum duration. Reading never records
/// the call: the server records it within about a minute of it being due and
/// tells the owner then (`notifiedAt`).
#[utoipa::path(
    operation_id = "tests_get",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "Test id"),
    ),
    responses(
        (status = 200, description = "The test and its results", body = TestResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/{id}/tests/{testId}")]
pub async fn get_one(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<web::Json<TestResponse>, ApiError> {
    let (id, test_id) = path.into_inner();
    Ok(web::Json(TestResponse {
        success: true,
        data: state.experiments.get(&user.0.id, &id, &test_id).await?,
    }))
}

/// Change how a running or paused test ends: its maximum duration
/// (`maxDays`, 14 to 90 days) and whether the winner is promoted by itself
/// (`autoPromote`). Either or both may be sent; the test keeps its version,
/// its counts and its start. A longer maximum duration takes back an
/// inconclusive call that it makes early: the test goes on.
#[utoipa::path(
    operation_id = "tests_change",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "Test id"),
    ),
    request_body = TestChangeIn,
    responses(
        (status = 200, description = "Changed", body = TestResponse),
        (status = 400, description = "Neither field sent, a maximum duration that is not a whole number of days from 14 to 90, or an autoPromote that is not true or false; nothing is changed", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
        (status = 422, description = "The test is closed", body = ErrorBody),
    )
)]
#[patch("/{id}/tests/{testId}")]
pub async fn change(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
    body: web::Json<TestChangeIn>,
) -> Result<web::Json<TestResponse>, ApiError> {
    let (id, test_id) = path.into_inner();
    Ok(web::Json(TestResponse {
        success: true,
        data: state
            .experiments
            .change(&user.0.id, &id, &test_id, body.into_inner())
            .await?,
    }))
}

/// Pause a running test (every visitor sees the campaign as it is) or resume
/// a paused one.
#[utoipa::path(
    operation_id = "tests_pause",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "Test id"),
    ),
    responses(
        (status = 200, description = "Paused or resumed", body = TestResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
        (status = 422, description = "The test is closed, or another test of the campaign runs", body = ErrorBody),
    )
)]
#[post("/{id}/tests/{testId}/pause")]
pub async fn pause(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
) -> Result<web::Json<TestResponse>, ApiError> {
    let (id, test_id) = path.into_inner();
    Ok(web::Json(TestResponse {
        success: true,
        data: state.experiments.pause(&user.0.id, &id, &test_id).await?,
    }))
}

/// Pause one variant of an open test (its share of visitors sees the
/// campaign as it is and counts for no arm) or resume it. The control
/// cannot be paused: pause the test instead.
#[utoipa::path(
    operation_id = "tests_pause_variant",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "Test id"),
        ("variantId" = String, Path, description = "Variant id (not the control)"),
    ),
    responses(
        (status = 200, description = "The variant is paused or resumed", body = TestResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours, or not one of the test's variants", body = ErrorBody),
        (status = 422, description = "The test is closed, or the variant is the control", body = ErrorBody),
    )
)]
#[post("/{id}/tests/{testId}/variants/{variantId}/pause")]
pub async fn pause_variant(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<TestResponse>, ApiError> {
    let (id, test_id, variant_id) = path.into_inner();
    Ok(web::Json(TestResponse {
        success: true,
        data: state
            .experiments
            .pause_variant(&user.0.id, &id, &test_id, &variant_id)
            .await?,
    }))
}

/// Promote a variant: its overrides are written into the campaign's
/// settings and the test is closed (it stays readable).
#[utoipa::path(
    operation_id = "tests_promote",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "Test id"),
    ),
    request_body = PromoteIn,
    responses(
        (status = 200, description = "Promoted; the test is closed", body = TestResponse),
        (status = 400, description = "Not one of the test's variants", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
        (status = 422, description = "The test is already closed", body = ErrorBody),
    )
)]
#[post("/{id}/tests/{testId}/promote")]
pub async fn promote(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
    body: web::Json<PromoteIn>,
) -> Result<web::Json<TestResponse>, ApiError> {
    let (id, test_id) = path.into_inner();
    Ok(web::Json(TestResponse {
        success: true,
        data: state
            .experiments
            .promote(&user.0.id, &id, &test_id, body.into_inner())
            .await?,
    }))
}

/// Edit the variants of a running or paused test: its next version starts
/// with the edited arms (the body is a new test's: name, metric, the control
/// and 1 to 3 variants, weights adding up to 100, and how it ends) and
/// counts from zero under a new id, so every visitor is assigned again. The
/// edited test is closed in the same step with no decision, keeps its own
/// results and names its successor (`replacedBy`): results of different
/// variants are never mixed.
#[utoipa::path(
    operation_id = "tests_new_version",
    tag = "tests",
    security(("bearer" = [])),
    params(
        ("id" = String, Path, description = "Campaign id"),
        ("testId" = String, Path, description = "The open test whose variants are edited"),
    ),
    request_body = TestIn,
    responses(
        (status = 201, description = "The next version, running", body = TestResponse),
        (status = 400, description = "A field breaks a rule, as for a new test; nothing is changed", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
        (status = 422, description = "The test is closed (promoted, or already replaced)", body = ErrorBody),
    )
)]
#[post("/{id}/tests/{testId}/versions")]
pub async fn new_version(
    state: web::Data<AppState>,
    user: CurrentUser,
    path: web::Path<(String, String)>,
    body: web::Json<TestIn>,
) -> Result<HttpResponse, ApiError> {
    let (id, test_id) = path.into_inner();
    let created = state
        .experiments
        .new_version(&user.0.id, &id, &test_id, body.into_inner())
        .await?;
    Ok(HttpResponse::Created().json(TestResponse {
        success: true,
        data: created,
    }))
}
