//! `/api/admin/*`, the plan administration calls (`POST/PUT/DELETE /api/plans`)
//! and the simple staff-only `/api/users` calls. Every call checks the
//! caller's role on the server: owners get 403, and what only a superuser
//! may do says so.

use actix_web::{delete, get, post, put, web};
use ca_admin::dto::{
    AdSpendIn, AdminUser, AuditLogPage, AuditLogQuery, BulkChangePlanIn, BulkOutcome, BulkUsersIn,
    ChangePlanIn, CreateAdminIn, CreateUserIn, DashboardStats, LoginAsIn, NoteIn, NoteOut,
    PermissionsOut, RefundIn, RefundResponse, SimpleUserIn, SimpleUserList, SimpleUserResponse,
    SuperadminFigures, SuspendIn, SystemHealth, UserChangeIn, UserData, UserDetail,
    UserExportQuery, UserList, UserListQuery,
};
use ca_auth::dto::{AuthResponse, ImpersonatedBy};
use ca_auth::trial::TrialSettings;
use ca_auth::two_factor::{StaffTwoFactorPolicy, StaffTwoFactorPolicyIn};
use ca_billing::dto::PlanOut;
use ca_billing::staff::{AdminPlanOut, PlanIn};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::MessageOut;
use crate::state::AppState;

/// `{success, data}` answers, one named type each (the OpenAPI document
/// and the generated client key types by name).
macro_rules! data_responses {
    ($($name:ident => $ty:ty),* $(,)?) => {$(
        #[doc = concat!("`{success, data}` with ", stringify!($ty), ".")]
        #[derive(Debug, Serialize, ToSchema)]
        pub struct $name {
            pub success: bool,
            pub data: $ty,
        }

        impl From<$ty> for $name {
            fn from(data: $ty) -> Self {
                Self { success: true, data }
            }
        }
    )*};
}

data_responses! {
    StatsResponse => DashboardStats,
    UserListResponse => UserList,
    UserDetailResponse => UserDetail,
    AdminUserResponse => UserData,
    AdminPlansResponse => Vec<AdminPlanOut>,
    LoginAsResponse => LoginAsData,
    HealthResponse => SystemHealth,
    SuperadminResponse => SuperadminFigures,
    TrialSettingsResponse => TrialSettings,
    StaffTwoFactorResponse => StaffTwoFactorPolicy,
    PlanSavedResponse => PlanOut,
    MetaOutboxResponse => ca_meta::outbox::OutboxView,
    MetaRequeueResponse => ca_meta::outbox::RequeueOut,
    EmailRequeueResponse => ca_admin::dto::EmailRequeueOut,
    TestEmailResponse => ca_admin::dto::TestEmailOut,
    PermissionsResponse => PermissionsOut,
    AuditLogResponse => AuditLogPage,
    NotesResponse => Vec<NoteOut>,
    NoteResponse => NoteOut,
    BulkOutcomeResponse => BulkOutcome,
}

fn ok<T, R: From<T>>(data: T) -> web::Json<R> {
    web::Json(R::from(data))
}

/// The token of the session as the user, the user, and who is signed in
/// as them (the dashboard's banner names them).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginAsData {
    pub token: String,
    pub user: ca_auth::dto::UserOut,
    pub impersonated_by: ImpersonatedBy,
}

/// `{success, message, ownersOnPlan, data: plan}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanDeactivatedResponse {
    pub success: bool,
    /// Says how many owners are on the plan; they keep it until their period ends.
    pub message: String,
    /// Owners on the plan when it was deactivated.
    pub owners_on_plan: u64,
    pub data: PlanOut,
}

/// What deactivating a plan tells staff: who is still on it.
fn deactivated_message(plan: &PlanOut, owners: u64) -> String {
    match owners {
        0 => format!(
            "The {} plan is deactivated. No owners are on this plan.",
            plan.display_name
        ),
        1 => format!(
            "The {} plan is deactivated. 1 owner is on this plan; they keep it until their period ends.",
            plan.display_name
        ),
        n => format!(
            "The {} plan is deactivated. {n} owners are on this plan; they keep it until their period ends.",
            plan.display_name
        ),
    }
}

/// The admin dashboard's figures.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Figures", body = StatsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/dashboard/stats")]
pub async fn stats(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<StatsResponse>, ApiError> {
    Ok(ok(state.admin.stats(&user.actor()).await?))
}

/// Accounts, ten a page by default, newest first unless sorted otherwise;
/// filtered by name/email/phone, role, status, plan and sign-up dates.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(UserListQuery),
    responses(
        (status = 200, description = "One page", body = UserListResponse),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/users")]
pub async fn users(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<UserListQuery>,
) -> Result<web::Json<UserListResponse>, ApiError> {
    Ok(ok(state.admin.users(&user.actor(), &query).await?))
}

/// Every account the user list's filters match (no pages), in the list's
/// order, as a CSV file: dates in ISO 8601 (UTC), and a cell that starts
/// like a spreadsheet formula (`=`, `+`, `-`, `@`, tab, carriage return;
/// a phone number such as `+91 98290 12345` excepted) is written with a
/// leading `'`. The answer's `X-Total-Count` header is the number of accounts.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(UserExportQuery),
    responses(
        (status = 200, description = "The CSV file", content_type = "text/csv", body = String),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/users/export")]
pub async fn users_export(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<UserExportQuery>,
) -> Result<actix_web::HttpResponse, ApiError> {
    use actix_web::http::header;
    let (csv, count) = state.admin.users_csv(&user.actor(), &query).await?;
    let day = chrono::Utc::now().format("%Y-%m-%d");
    Ok(actix_web::HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"users-{day}.csv\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("X-Total-Count", count.to_string()))
        .body(csv))
}

/// Set the plan of several accounts at once, as the one-account change-plan
/// call does to each (same rules, one audit entry each). Accounts the caller
/// may not change (an admin and a superuser's or another staff member's
/// account) or that do not exist are skipped and named, with the reason;
/// each refusal is on the audit log.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = BulkChangePlanIn,
    responses(
        (status = 200, description = "Done; `skipped` names the accounts left alone", body = BulkOutcomeResponse),
        (status = 400, description = "A field breaks a rule; nothing was changed", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[post("/users/bulk/change-plan")]
pub async fn bulk_change_plan(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<BulkChangePlanIn>,
) -> Result<web::Json<BulkOutcomeResponse>, ApiError> {
    Ok(ok(state
        .admin
        .bulk_change_plan(&user.actor(), body.into_inner())
        .await?))
}

/// Email several accounts the usual password reset link (works once, for an
/// hour), as the one-account call does to each (one audit entry each).
/// Accounts the caller may not touch, or that do not exist, are skipped
/// and named, with the reason; each refusal is on the audit log.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = BulkUsersIn,
    responses(
        (status = 200, description = "Sent; `skipped` names the accounts left alone", body = BulkOutcomeResponse),
        (status = 400, description = "No accounts, or too many; nothing was sent", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[post("/users/bulk/send-password-reset")]
pub async fn bulk_send_password_reset(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<BulkUsersIn>,
) -> Result<web::Json<BulkOutcomeResponse>, ApiError> {
    Ok(ok(state
        .admin
        .bulk_send_password_reset(&user.actor(), body.into_inner())
        .await?))
}

/// Everything about one account: campaigns, figures, activity, subscription, payments, audit.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "The account", body = UserDetailResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[get("/users/{id}")]
pub async fn user_detail(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<UserDetailResponse>, ApiError> {
    Ok(ok(state.admin.user_detail(&user.actor(), &id).await?))
}

/// Change an account's name, email, phone or role.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    request_body = UserChangeIn,
    responses(
        (status = 200, description = "Changed", body = AdminUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser is concerned", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "Email taken", body = ErrorBody),
        (status = 422, description = "Demoting yourself or the last superuser", body = ErrorBody),
    )
)]
#[put("/users/{id}")]
pub async fn update_user(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<UserChangeIn>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state
        .admin
        .update_user(&user.actor(), &id, body.into_inner())
        .await?;
    Ok(ok(UserData { user }))
}

/// Delete an account with its campaigns, conversations, customers and payments.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Deleted", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser is concerned", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 422, description = "Yourself, or the last superuser", body = ErrorBody),
    )
)]
#[delete("/users/{id}")]
pub async fn delete_user(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.admin.delete_user(&user.actor(), &id).await?;
    Ok(web::Json(MessageOut::ok("User deleted")))
}

/// Create a staff account (a superuser account only by a superuser).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = CreateAdminIn,
    responses(
        (status = 200, description = "Created", body = AdminUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser account by an admin", body = ErrorBody),
        (status = 409, description = "Email taken", body = ErrorBody),
    )
)]
#[post("/users/create-admin")]
pub async fn create_admin(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<CreateAdminIn>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state
        .admin
        .create_admin(&user.actor(), body.into_inner())
        .await?;
    Ok(ok(UserData { user }))
}

/// Create an owner account, optionally on a plan.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = CreateUserIn,
    responses(
        (status = 200, description = "Created", body = AdminUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 409, description = "Email taken", body = ErrorBody),
    )
)]
#[post("/users/create-user")]
pub async fn create_user(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<CreateUserIn>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state
        .admin
        .create_user(&user.actor(), body.into_inner())
        .await?;
    Ok(ok(UserData { user }))
}

/// Set an owner's plan, status and end date by hand. Only an active plan can
/// be chosen (or the plan the owner is on). Statuses and their effects:
/// `free`: the free plan. `trial`: the trial's limits until
/// `subscriptionEndsAt` (default: the trial length from now). `active`: the
/// plan's limits until `subscriptionEndsAt` (required, in the future);
/// nothing is charged and nothing renews, so the owner sees no next billing
/// date and nothing to cancel. `cancelled`: the plan's limits until
/// `subscriptionEndsAt` (in the future; default: the end of the period the
/// owner is in), then the free plan's. `past_due`: a payment is due; the plan
/// stays named, with the free plan's limits until the owner pays. `expired`:
/// the plan ended; the free plan's limits until the owner buys a plan. A
/// status set by hand replaces any paid subscription record.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    request_body = ChangePlanIn,
    responses(
        (status = 200, description = "Changed", body = AdminUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser's account", body = ErrorBody),
        (status = 404, description = "No such account or plan", body = ErrorBody),
    )
)]
#[post("/users/{id}/change-plan")]
pub async fn change_plan(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<ChangePlanIn>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state
        .admin
        .change_plan(&user.actor(), &id, body.into_inner())
        .await?;
    Ok(ok(UserData { user }))
}

/// Every plan, active or not, with how many accounts are on it.
#[utoipa::path(
    tag = "admin",
    operation_id = "admin_plans",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Plans", body = AdminPlansResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/plans")]
pub async fn plans(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<AdminPlansResponse>, ApiError> {
    Ok(ok(state.admin.plans(&user.actor()).await?))
}

/// A superuser signs in as another account. The token (valid an hour)
/// names the superuser too, and what it changes is on the audit log.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = LoginAsIn,
    responses(
        (status = 200, description = "A session as the user", body = LoginAsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 422, description = "Yourself", body = ErrorBody),
    )
)]
#[post("/login-as-user")]
pub async fn login_as(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<LoginAsIn>,
) -> Result<web::Json<LoginAsResponse>, ApiError> {
    let impersonated_by = ImpersonatedBy {
        id: user.0.id.clone(),
        email: user.0.email.clone(),
    };
    let AuthResponse { token, user, .. } =
        state.admin.login_as(&user.actor(), &body.user_id).await?;
    Ok(ok(LoginAsData {
        token,
        user,
        impersonated_by,
    }))
}

/// Return to admin: ends the "login as user" session whose token is sent
/// (later calls with that token get 401). The staff member's own session
/// was kept aside by the dashboard and goes on working, with no new sign-in.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The login-as session is over", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 422, description = "The token is not a login-as one", body = ErrorBody),
    )
)]
#[post("/return")]
pub async fn return_to_admin(
    state: web::Data<AppState>,
    user: CurrentUser,
    req: actix_web::HttpRequest,
) -> Result<web::Json<MessageOut>, ApiError> {
    let token = crate::extract::bearer(&req).ok_or(ca_auth::AuthError::MissingToken)?;
    state
        .admin
        .return_from_login_as(&user.actor(), &token)
        .await?;
    Ok(web::Json(MessageOut::ok("Returned to admin")))
}

/// The audit log (superusers): every staff action, every refusal, and every
/// write made while signed in as an owner (`viaLoginAs`), newest first,
/// filtered by actor, account, action and time. Entries are never changed
/// or removed: no call edits or deletes them.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(AuditLogQuery),
    responses(
        (status = 200, description = "One page of entries", body = AuditLogResponse),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
    )
)]
#[get("/audit")]
pub async fn audit_log(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<AuditLogQuery>,
) -> Result<web::Json<AuditLogResponse>, ApiError> {
    Ok(ok(state.admin.audit_log(&user.actor(), &query).await?))
}

/// Suspend an account: sign-in answers 403 `account_suspended`, every
/// session of it ends at once (later calls get 401), and its widget keeps
/// working unless `pauseWidget`. Reversible with `/unsuspend`. An admin
/// cannot suspend another admin or a superuser; nobody suspends themselves.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    request_body = SuspendIn,
    responses(
        (status = 200, description = "Suspended", body = AdminUserResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a staff account by an admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 422, description = "Yourself", body = ErrorBody),
    )
)]
#[post("/users/{id}/suspend")]
pub async fn suspend_user(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<SuspendIn>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state
        .admin
        .suspend_user(&user.actor(), &id, body.into_inner())
        .await?;
    Ok(ok(UserData { user }))
}

/// Restore a suspended account: it can sign in again and its widget works.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Restored", body = AdminUserResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a staff account by an admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[post("/users/{id}/unsuspend")]
pub async fn unsuspend_user(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<AdminUserResponse>, ApiError> {
    let user = state.admin.unsuspend_user(&user.actor(), &id).await?;
    Ok(ok(UserData { user }))
}

/// Email the account the usual password reset link (works once, for an hour).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Sent", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a staff account by an admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[post("/users/{id}/send-password-reset")]
pub async fn send_password_reset(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.admin.send_password_reset(&user.actor(), &id).await?;
    Ok(web::Json(MessageOut::ok("Password reset email sent")))
}

/// Sign the account out everywhere: every session of it ends at once.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Signed out", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a staff account by an admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[post("/users/{id}/sign-out-everywhere")]
pub async fn sign_out_everywhere(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.admin.sign_out_everywhere(&user.actor(), &id).await?;
    Ok(web::Json(MessageOut::ok("Signed out everywhere")))
}

/// The staff-only notes on an account, newest first.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Notes", body = NotesResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[get("/users/{id}/notes")]
pub async fn notes(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<NotesResponse>, ApiError> {
    Ok(ok(state.admin.notes(&user.actor(), &id).await?))
}

/// Add a staff-only note to an account (owners never see notes).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    request_body = NoteIn,
    responses(
        (status = 200, description = "Added", body = NoteResponse),
        (status = 400, description = "Empty or longer than 2,000 characters", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[post("/users/{id}/notes")]
pub async fn add_note(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<NoteIn>,
) -> Result<web::Json<NoteResponse>, ApiError> {
    Ok(ok(state
        .admin
        .add_note(&user.actor(), &id, body.into_inner())
        .await?))
}

/// What the signed-in role may do in the admin area (the dashboard hides
/// the rest), and the whole table of actions × roles the server checks.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's permissions", body = PermissionsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/permissions")]
pub async fn permissions(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> web::Json<PermissionsResponse> {
    ok(state.admin.permissions(&user.actor()))
}

/// The server's health, measured now.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Health", body = HealthResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/system/health")]
pub async fn health(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<HealthResponse>, ApiError> {
    Ok(ok(state.admin.health(&user.actor()).await?))
}

/// Refund one of an owner's successful payments (staff): the money goes back
/// through PayU (a simulated or demo payment is refunded at once), the
/// payment shows as refunded, and the unused part of the period it paid for
/// ends unless `keepAccess`.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(("txnid" = String, Path, description = "The payment's txnid")),
    request_body = RefundIn,
    responses(
        (status = 200, description = "Refunded", body = RefundResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such payment", body = ErrorBody),
        (status = 409, description = "`refund_in_progress`: a refund of this payment is already on its way to PayU (it is asked once, however many clicks)", body = ErrorBody),
        (status = 422, description = "Not a successful payment, or PayU refused the refund", body = ErrorBody),
    )
)]
#[post("/payments/{txnid}/refund")]
pub async fn refund_payment(
    state: web::Data<AppState>,
    user: CurrentUser,
    txnid: web::Path<String>,
    body: web::Json<RefundIn>,
) -> Result<web::Json<RefundResponse>, ApiError> {
    let payment = state
        .admin
        .refund_payment(&user.actor(), &txnid, body.into_inner())
        .await?;
    Ok(web::Json(RefundResponse {
        success: true,
        data: payment,
    }))
}

/// The Meta Conversions API outbox: whether events are forwarded (a pixel
/// id and access token are configured), whether sending is paused because
/// Meta rejected the access token, how many wait, went, failed, are kept
/// unforwarded or are never sent, and one page of the events, newest first,
/// all of them or those in one state (staff).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    params(ca_meta::outbox::OutboxQuery),
    responses(
        (status = 200, description = "The outbox", body = MetaOutboxResponse),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/meta/events")]
pub async fn meta_events(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<ca_meta::outbox::OutboxQuery>,
) -> Result<web::Json<MetaOutboxResponse>, ApiError> {
    ca_admin::access::check(&user.actor(), ca_admin::access::Permission::ViewAdmin)?;
    Ok(ok(state.meta.outbox().view(&query).await?))
}

/// Put the Meta events that failed back in the queue (staff): those Meta
/// still accepts (younger than 7 days) are sent again on the next round,
/// and a pause after a rejected access token is lifted.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "How many were re-queued, and how many were too old", body = MetaRequeueResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[post("/meta/events/requeue")]
pub async fn requeue_meta_events(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<MetaRequeueResponse>, ApiError> {
    ca_admin::access::check(
        &user.actor(),
        ca_admin::access::Permission::RequeueMetaEvents,
    )?;
    let out = state
        .meta
        .outbox()
        .requeue_failed(chrono::Utc::now())
        .await
        .map_err(ApiError::internal)?;
    tracing::info!(staff = %user.0.id, requeued = out.requeued, "Meta events re-queued");
    Ok(ok(out))
}

/// Put the failed account emails of the last 7 days back in the queue
/// (staff), once whatever made the mail server refuse them is fixed: each is
/// offered to the mail server again within a few seconds, with its retries
/// counted afresh. Emails whose link (a password reset, an invitation) has
/// expired stay failed.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "How many were re-queued, and how many stay failed", body = EmailRequeueResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 422, description = "No mail server is set (`no_mail_server`)", body = ErrorBody),
    )
)]
#[post("/system/emails/requeue")]
pub async fn requeue_emails(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<EmailRequeueResponse>, ApiError> {
    let out = state.admin.requeue_failed_emails(&user.actor()).await?;
    tracing::info!(staff = %user.0.id, requeued = out.requeued, "failed emails re-queued");
    Ok(ok(out))
}

/// Email oneself a test message (staff), through the outbox like every
/// account email: the System tab's Email card then shows within seconds
/// whether the mail server took it, and its answer if not.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Queued; where it goes", body = TestEmailResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 422, description = "No mail server is set (`no_mail_server`)", body = ErrorBody),
    )
)]
#[post("/system/emails/test")]
pub async fn send_test_email(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<TestEmailResponse>, ApiError> {
    let to = state.admin.send_test_email(&user.actor()).await?;
    Ok(ok(ca_admin::dto::TestEmailOut { to }))
}

/// The platform's business figures (superusers).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Figures", body = SuperadminResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
    )
)]
#[get("/superadmin")]
pub async fn superadmin(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<SuperadminResponse>, ApiError> {
    Ok(ok(state.admin.superadmin(&user.actor()).await?))
}

/// Record the last 30 days' ad spend, from which the acquisition cost is computed (superusers).
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = AdSpendIn,
    responses(
        (status = 200, description = "Figures with the acquisition cost", body = SuperadminResponse),
        (status = 400, description = "Not an amount", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
    )
)]
#[put("/settings/ad-spend")]
pub async fn set_ad_spend(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<AdSpendIn>,
) -> Result<web::Json<SuperadminResponse>, ApiError> {
    Ok(ok(state
        .admin
        .set_ad_spend(&user.actor(), body.into_inner())
        .await?))
}

/// The trial new owners get.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Trial settings", body = TrialSettingsResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/settings/trial")]
pub async fn trial_settings(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<TrialSettingsResponse>, ApiError> {
    Ok(ok(state.admin.trial_settings(&user.actor()).await?))
}

/// Change the trial new owners get (superusers); sign-ups use it at once.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = TrialSettings,
    responses(
        (status = 200, description = "Saved", body = TrialSettingsResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
    )
)]
#[put("/settings/trial")]
pub async fn save_trial_settings(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<TrialSettings>,
) -> Result<web::Json<TrialSettingsResponse>, ApiError> {
    Ok(ok(state
        .admin
        .save_trial_settings(&user.actor(), body.into_inner())
        .await?))
}

/// The grace period staff (admins and superusers) have to turn on
/// two-factor sign-in, counted from when the rule came in or from their
/// account's creation, whichever is later.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The rule", body = StaffTwoFactorResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("/settings/two-factor")]
pub async fn two_factor_policy(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<StaffTwoFactorResponse>, ApiError> {
    Ok(ok(state.admin.two_factor_policy(&user.actor()).await?))
}

/// Set the grace period staff have to turn on two-factor sign-in
/// (superusers): 0 to 90 days, 0 requires it at once. Past it, a staff
/// session without the second factor can only set it up.
#[utoipa::path(
    tag = "admin",
    security(("bearer" = [])),
    request_body = StaffTwoFactorPolicyIn,
    responses(
        (status = 200, description = "Saved", body = StaffTwoFactorResponse),
        (status = 400, description = "Not 0 to 90 days", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
    )
)]
#[put("/settings/two-factor")]
pub async fn save_two_factor_policy(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<StaffTwoFactorPolicyIn>,
) -> Result<web::Json<StaffTwoFactorResponse>, ApiError> {
    Ok(ok(state
        .admin
        .save_two_factor_policy(&user.actor(), body.into_inner())
        .await?))
}

/// Create a plan (superusers). Its id is its name.
#[utoipa::path(
    tag = "plans",
    security(("bearer" = [])),
    request_body = PlanIn,
    responses(
        (status = 200, description = "Created", body = PlanSavedResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
        (status = 409, description = "The id is taken", body = ErrorBody),
    )
)]
#[post("")]
pub async fn create_plan(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<PlanIn>,
) -> Result<web::Json<PlanSavedResponse>, ApiError> {
    Ok(ok(state
        .admin
        .create_plan(&user.actor(), body.into_inner())
        .await?))
}

/// Change a plan (superusers); its id stays.
#[utoipa::path(
    tag = "plans",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Plan id")),
    request_body = PlanIn,
    responses(
        (status = 200, description = "Saved", body = PlanSavedResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 422, description = "The free plan must stay free and active", body = ErrorBody),
    )
)]
#[put("/{id}")]
pub async fn update_plan(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<PlanIn>,
) -> Result<web::Json<PlanSavedResponse>, ApiError> {
    Ok(ok(state
        .admin
        .update_plan(&user.actor(), &id, body.into_inner())
        .await?))
}

/// Deactivate a plan (superusers): nobody can buy it any more and staff can
/// no longer put owners on it; owners on it keep it until their period ends
/// (the answer says how many). Plans are never deleted outright, since
/// payments and invoices name them.
#[utoipa::path(
    tag = "plans",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "Plan id")),
    responses(
        (status = 200, description = "Deactivated", body = PlanDeactivatedResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not a superuser", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 422, description = "The free plan", body = ErrorBody),
    )
)]
#[delete("/{id}")]
pub async fn delete_plan(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<PlanDeactivatedResponse>, ApiError> {
    let (plan, owners) = state.admin.deactivate_plan(&user.actor(), &id).await?;
    Ok(web::Json(PlanDeactivatedResponse {
        success: true,
        message: deactivated_message(&plan, owners),
        owners_on_plan: owners,
        data: plan,
    }))
}

/// Accounts (staff only).
#[utoipa::path(
    tag = "admin",
    operation_id = "users_list",
    security(("bearer" = [])),
    params(UserListQuery),
    responses(
        (status = 200, description = "One page", body = SimpleUserList),
        (status = 400, description = "A query parameter breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
    )
)]
#[get("")]
pub async fn simple_list(
    state: web::Data<AppState>,
    user: CurrentUser,
    query: web::Query<UserListQuery>,
) -> Result<web::Json<SimpleUserList>, ApiError> {
    let list = state.admin.simple_users(&user.actor(), &query).await?;
    Ok(web::Json(SimpleUserList {
        success: true,
        users: list.users,
        pagination: list.pagination,
    }))
}

fn simple(user: AdminUser) -> web::Json<SimpleUserResponse> {
    web::Json(SimpleUserResponse {
        success: true,
        user,
    })
}

/// One account (staff only).
#[utoipa::path(
    tag = "admin",
    operation_id = "users_get",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "The account", body = SimpleUserResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    )
)]
#[get("/{id}")]
pub async fn simple_get(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<SimpleUserResponse>, ApiError> {
    Ok(simple(state.admin.simple_user(&user.actor(), &id).await?))
}

/// Create an owner (staff only); without a password they get an email to choose one.
#[utoipa::path(
    tag = "admin",
    operation_id = "users_create",
    security(("bearer" = [])),
    request_body = SimpleUserIn,
    responses(
        (status = 200, description = "Created", body = SimpleUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff", body = ErrorBody),
        (status = 409, description = "Email taken", body = ErrorBody),
    )
)]
#[post("")]
pub async fn simple_create(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<SimpleUserIn>,
) -> Result<web::Json<SimpleUserResponse>, ApiError> {
    Ok(simple(
        state
            .admin
            .simple_create(&user.actor(), body.into_inner())
            .await?,
    ))
}

/// Change an account (staff only), as `PUT /api/admin/users/{id}`.
#[utoipa::path(
    tag = "admin",
    operation_id = "users_update",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    request_body = UserChangeIn,
    responses(
        (status = 200, description = "Changed", body = SimpleUserResponse),
        (status = 400, description = "A field breaks a rule", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser is concerned", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "Email taken", body = ErrorBody),
        (status = 422, description = "Demoting yourself or the last superuser", body = ErrorBody),
    )
)]
#[put("/{id}")]
pub async fn simple_update(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
    body: web::Json<UserChangeIn>,
) -> Result<web::Json<SimpleUserResponse>, ApiError> {
    Ok(simple(
        state
            .admin
            .update_user(&user.actor(), &id, body.into_inner())
            .await?,
    ))
}

/// Delete an account (staff only), as `DELETE /api/admin/users/{id}`.
#[utoipa::path(
    tag = "admin",
    operation_id = "users_delete",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "User id")),
    responses(
        (status = 200, description = "Deleted", body = MessageOut),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not staff, or a superuser is concerned", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 422, description = "Yourself, or the last superuser", body = ErrorBody),
    )
)]
#[delete("/{id}")]
pub async fn simple_delete(
    state: web::Data<AppState>,
    user: CurrentUser,
    id: web::Path<String>,
) -> Result<web::Json<MessageOut>, ApiError> {
    state.admin.delete_user(&user.actor(), &id).await?;
    Ok(web::Json(MessageOut::ok("User deleted")))
}
