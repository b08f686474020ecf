//! Wire types of the admin calls.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use ca_billing::dto::PlanOut;

/// `GET /api/admin/dashboard/stats`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DashboardStats {
    pub total_users: u64,
    pub new_users_last30_days: u64,
    /// Admins and superusers.
    pub total_admins: u64,
    pub total_campaigns: u64,
    /// Accounts on a paid plan now, whether paid for or set by staff by
    /// hand ("On a paid plan, incl. set by staff"); the paying ones alone
    /// are the superadmin figures' `revenue.activeSubscriptions`.
    pub active_subscriptions: u64,
    pub total_conversations: u64,
    pub total_customers: u64,
    /// Owners (not staff) in a trial now.
    pub trial_users: u64,
    /// Rupees from successful payments this calendar month.
    pub revenue_this_month: f64,
}

/// An account as staff see it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AdminUser {
    #[serde(rename = "_id")]
    pub underscore_id: String,
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    /// `user`, `admin` or `superuser`.
    pub role: String,
    pub plan_id: String,
    /// As of now.
    pub subscription_status: ca_auth::dto::SubscriptionStatus,
    /// Active, but cancelled: ends at `subscriptionEndsAt`.
    pub cancel_at_period_end: bool,
    pub subscription_ends_at: Option<DateTime<Utc>>,
    pub trial_ends_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub last_login_at: Option<DateTime<Utc>>,
    pub campaign_count: u64,
    /// Successful payments.
    pub total_payments: u64,
    /// Rupees of successful payments.
    pub total_revenue: f64,
    pub last_payment_date: Option<DateTime<Utc>>,
    /// When staff suspended the account (it cannot sign in); none when it
    /// is not suspended.
    pub suspended_at: Option<DateTime<Utc>>,
    /// Whether the owner's widget is paused while the account is suspended.
    pub widget_paused: bool,
}

/// Query of the user list.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct UserListQuery {
    /// From 1.
    pub page: Option<String>,
    /// 1–100 (default 10).
    pub limit: Option<String>,
    /// Part of the name, email or phone.
    pub search: Option<String>,
    /// `user`, `admin` or `superuser`.
    pub role: Option<String>,
    /// `free`, `trial`, `active`, `cancelled`, `past_due` or `expired`.
    pub subscription_status: Option<String>,
    /// The id of the plan the accounts are on.
    pub plan_id: Option<String>,
    /// Accounts that signed up on or after this day (`2026-11-01`) or
    /// moment (RFC 3339).
    pub from: Option<String>,
    /// Accounts that signed up up to this day, inclusive (`2026-11-30`), or
    /// before this moment (RFC 3339); not before `from`.
    pub to: Option<String>,
    /// `name`, `email`, `role`, `plan`, `status`, `createdAt` (sign-up date,
    /// the default) or `lastLoginAt`.
    pub sort: Option<String>,
    /// `asc` or `desc`; by default newest first for dates and A to Z otherwise.
    /// Accounts that never signed in come last either way.
    pub order: Option<String>,
}

/// Query of the user list's CSV export: the list's filters and order, every
/// matching account (no pages).
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct UserExportQuery {
    /// Part of the name, email or phone.
    pub search: Option<String>,
    /// `user`, `admin` or `superuser`.
    pub role: Option<String>,
    /// `free`, `trial`, `active`, `cancelled`, `past_due` or `expired`.
    pub subscription_status: Option<String>,
    /// The id of the plan the accounts are on.
    pub plan_id: Option<String>,
    /// Signed up on or after this day (`2026-11-01`) or moment (RFC 3339).
    pub from: Option<String>,
    /// Signed up up to this day, inclusive, or before this moment.
    pub to: Option<String>,
    /// As the list's `sort`.
    pub sort: Option<String>,
    /// `asc` or `desc`.
    pub order: Option<String>,
}

impl From<&UserExportQuery> for UserListQuery {
    fn from(q: &UserExportQuery) -> Self {
        Self {
            page: None,
            limit: None,
            search: q.search.clone(),
            role: q.role.clone(),
            subscription_status: q.subscription_status.clone(),
            plan_id: q.plan_id.clone(),
            from: q.from.clone(),
            to: q.to.clone(),
            sort: q.sort.clone(),
            order: q.order.clone(),
        }
    }
}

/// `POST /api/admin/users/bulk/send-password-reset`: the accounts chosen.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkUsersIn {
    /// 1 to 100 account ids.
    #[serde(default)]
    pub user_ids: Vec<String>,
}

/// `POST /api/admin/users/bulk/change-plan`: the accounts chosen and the
/// plan, status and end date each of them gets (as the one-account call).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkChangePlanIn {
    /// 1 to 100 account ids.
    #[serde(default)]
    pub user_ids: Vec<String>,
    #[serde(default)]
    pub plan_id: String,
    /// `free`, `trial`, `active`, `cancelled`, `past_due` or `expired`.
    #[serde(default)]
    pub subscription_status: String,
    /// Required when active; in the future.
    #[serde(default, deserialize_with = "ca_core::validation::optional_datetime")]
    pub subscription_ends_at: Option<DateTime<Utc>>,
}

/// An account a bulk action was done to.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BulkDone {
    pub id: String,
    pub email: String,
}

/// An account a bulk action left alone, and why.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BulkSkipped {
    pub id: String,
    /// None when there is no such account.
    pub email: Option<String>,
    /// The error code the one-account call answers, such as `superuser_required`.
    pub code: String,
    /// Why, in words.
    pub reason: String,
}

/// What a bulk action did: the accounts done, those skipped (each refusal
/// is in the audit log too) and a summary.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BulkOutcome {
    pub done: Vec<BulkDone>,
    pub skipped: Vec<BulkSkipped>,
    /// Such as "Plan changed for 2 users; 1 skipped".
    pub message: String,
}

/// Pages of the user list.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UserPagination {
    pub total_users: u64,
    pub current_page: u64,
    pub total_pages: u64,
    pub has_prev: bool,
    pub has_next: bool,
    pub limit: u64,
}

/// `{users, pagination}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserList {
    pub users: Vec<AdminUser>,
    pub pagination: UserPagination,
}

/// One of the user's campaigns with its figures.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserCampaign {
    pub id: String,
    pub name: String,
    pub is_active: bool,
    pub created_at: DateTime<Utc>,
    pub conversations_count: u64,
    pub customers_count: u64,
    /// Rupees attributed to the campaign.
    pub revenue: f64,
    /// Conversions per 100 impressions.
    pub conversion_rate: f64,
    pub impressions: i64,
    pub conversions: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ThisMonth {
    pub this_month: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RevenuePerCustomer {
    /// Attributed revenue ÷ customers, rupees.
    pub average_per_customer: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UsageFigures {
    pub campaign_usage: i64,
    pub campaign_limit: i64,
    pub visitor_usage: i64,
    pub visitor_limit: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct UserAnalytics {
    pub conversations: ThisMonth,
    pub customers: ThisMonth,
    pub revenue: RevenuePerCustomer,
    pub usage: UsageFigures,
}

/// Something that happened on the account.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct ActivityItem {
    /// `conversation`, `customer` or `payment` (staff actions are the
    /// detail's `audit` entries).
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub description: String,
    pub timestamp: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub total_conversations: u64,
    pub total_customers: u64,
    /// Rupees attributed to the owner's campaigns.
    pub total_revenue: f64,
    /// Conversions per 100 impressions over all campaigns.
    pub conversion_rate: f64,
    pub active_campaigns: u64,
    /// Days since sign-up.
    pub account_age: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserSubscription {
    pub status: String,
    pub current_period_start: DateTime<Utc>,
    pub current_period_end: DateTime<Utc>,
    /// `monthly` or `annual`.
    pub interval: String,
    pub cancel_at_period_end: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserPayment {
    #[serde(rename = "_id")]
    pub id: String,
    pub status: ca_billing::entities::payment::PaymentStatus,
    pub productinfo: String,
    pub txnid: String,
    pub mihpayid: Option<String>,
    /// Rupees.
    pub amount: f64,
    pub paid_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub payment_mode: Option<String>,
    pub plan_id: String,
    /// Why it did not go through (failed or not completed).
    pub reason: Option<String>,
    pub refunded_at: Option<DateTime<Utc>>,
    /// Refunded, and the owner kept the period it paid for.
    pub refund_keeps_access: Option<bool>,
    /// PayU reported it paid after it had failed or expired.
    pub late_success_at: Option<DateTime<Utc>>,
    /// Where it was made: `simulator`, `demo`, `test` (PayU's test
    /// environment) or `live`.
    pub mode: ca_billing::entities::payment::CheckoutMode,
    /// A refund PayU accepted and has not made yet: when staff asked for
    /// it. The payment is refunded once PayU says the money went back.
    pub refund_requested_at: Option<DateTime<Utc>>,
    /// Why PayU could not make the last refund asked of it (it can be
    /// asked again).
    pub refund_error: Option<String>,
}

/// `POST /api/admin/payments/{txnid}/refund`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundIn {
    /// Let the owner keep the period the payment paid for (default: the
    /// unused part of it ends now).
    pub keep_access: Option<bool>,
}

/// `{success, data: payment}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefundResponse {
    pub success: bool,
    pub data: UserPayment,
}

/// An audit log entry.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AuditOut {
    pub id: String,
    pub actor_id: String,
    pub actor_name: String,
    pub actor_email: String,
    /// The account the actor was signed in as, if any.
    pub acting_as_id: Option<String>,
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    /// The changed record's fields before the change (only real fields).
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The changed record's fields after the change (only real fields).
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
    /// The request a write made while signed in as the account
    /// (`request_as_user`): it changed no field the entry knows of.
    pub request: Option<AuditRequest>,
    pub created_at: DateTime<Utc>,
}

/// A request made while signed in as someone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct AuditRequest {
    pub method: String,
    pub path: String,
}

/// `GET /api/admin/permissions`: what the signed-in role may do in the
/// admin area, and the whole table of actions × roles the server checks.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct PermissionsOut {
    /// The caller's role.
    pub role: String,
    /// The actions the caller's role may do.
    pub allowed: Vec<crate::permission::Permission>,
    /// Every action with the roles that may do it.
    pub table: Vec<PermissionRow>,
}

/// One row of the permission table.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct PermissionRow {
    pub action: crate::permission::Permission,
    pub roles: Vec<String>,
}

/// `GET /api/admin/users/{id}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDetail {
    pub user: AdminUser,
    pub campaigns: Vec<UserCampaign>,
    pub analytics: UserAnalytics,
    pub activity_timeline: Vec<ActivityItem>,
    pub summary: UserSummary,
    pub subscription: Option<UserSubscription>,
    pub current_plan: Option<PlanOut>,
    pub payments: Vec<UserPayment>,
    pub audit: Vec<AuditOut>,
}

/// `PUT /api/admin/users/{id}`: what changes.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserChangeIn {
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    /// `user`, `admin` or `superuser`.
    pub role: Option<String>,
}

/// `POST /api/admin/users/create-admin`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateAdminIn {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub phone: String,
    /// `admin` (default) or `superuser`.
    pub role: Option<String>,
}

/// `POST /api/admin/users/create-user`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateUserIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, format = "email", max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
    /// Country code and number, e.g. `+91 9876543210`; empty for none.
    #[serde(default)]
    #[schema(
        max_length = 32,
        pattern = r"^(?: *\+?[ ()\-]*(?:[0-9][ ()\-]*){6,15})?$"
    )]
    pub phone: String,
    /// Default `free`.
    pub plan_id: Option<String>,
    /// `free`, `trial`, `active`, `cancelled`, `past_due` or `expired`, with
    /// the effects of change-plan (default: the trial settings decide).
    pub subscription_status: Option<String>,
    /// When an active subscription ends; empty or left out for none.
    #[serde(default, deserialize_with = "ca_core::validation::optional_datetime")]
    pub subscription_ends_at: Option<DateTime<Utc>>,
}

/// `POST /api/admin/users/{id}/change-plan`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePlanIn {
    #[serde(default)]
    pub plan_id: String,
    /// `free`, `trial`, `active`, `cancelled`, `past_due` or `expired` (the
    /// effects are in the operation's description).
    #[serde(default)]
    pub subscription_status: String,
    /// Required when active, and when cancelled unless the owner is in a
    /// period on the plan; in the future. Empty is the same as left out.
    #[serde(default, deserialize_with = "ca_core::validation::optional_datetime")]
    pub subscription_ends_at: Option<DateTime<Utc>>,
}

/// `POST /api/admin/login-as-user`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginAsIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub user_id: String,
}

/// `{user}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserData {
    pub user: AdminUser,
}

/// Database health.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseHealth {
    /// `sqlite` or `postgres`.
    pub backend: String,
    /// Round trip of a trivial query.
    pub latency_ms: f64,
    pub pool_size: u32,
    pub pool_idle: u32,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessHealth {
    /// Resident memory.
    pub memory_bytes: u64,
    /// CPU use since the previous health check, per 100 of one core.
    pub cpu_percent: f64,
    pub threads: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriterHealth {
    /// Page views and impressions accepted but not yet stored.
    pub queue_depth: u64,
    pub queue_capacity: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiskHealth {
    pub free_bytes: u64,
    pub total_bytes: u64,
    /// The data directory the figures are for.
    pub path: String,
}

/// What putting failed emails back in the queue did.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailRequeueOut {
    /// Failed emails of the last 7 days put back in the queue: the mail
    /// server is offered each again within a few seconds.
    pub requeued: u64,
    /// Failed emails left as they are: written more than 7 days ago, or
    /// carrying a link that has expired since.
    pub left_failed: u64,
}

/// A test email on its way.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestEmailOut {
    /// The address it goes to: the staff member's own.
    pub to: String,
}

/// `GET /api/admin/system/health`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemHealth {
    /// `ok`, or `degraded` when the database is unreachable.
    pub status: String,
    pub version: String,
    pub uptime_seconds: u64,
    pub database: DatabaseHealth,
    pub process: ProcessHealth,
    pub event_writer: WriterHealth,
    pub disk: DiskHealth,
    pub payments: PaymentsHealth,
    /// Account emails: the mail server, what waits, what was given up.
    pub email: ca_auth::dto::EmailHealth,
    pub checked_at: DateTime<Utc>,
}

/// Payments that may need a look: stuck pending, and the last run of the
/// reconciliation with PayU.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentsHealth {
    /// Payments still pending 15 minutes after they were made.
    pub pending_over15_minutes: u64,
    pub last_reconciliation: ca_billing::reconcile::Reconciliation,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct MonthUsers {
    /// `YYYY-MM`.
    pub month: String,
    pub users: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq, Default)]
pub struct UsersByRole {
    pub user: u64,
    pub admin: u64,
    pub superuser: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq, Default)]
pub struct UsersByStatus {
    pub free: u64,
    pub trial: u64,
    pub active: u64,
    pub expired: u64,
}

/// `GET /api/admin/superadmin`: platform figures, all measured.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuperadminFigures {
    #[serde(flatten)]
    pub revenue: ca_billing::staff::RevenueFigures,
    /// Owners in a trial now.
    pub trials_active: u64,
    /// Trials that have ended (the owner paid or not).
    pub trials_completed: u64,
    /// Owners who paid after a trial, per 100 completed trials.
    pub trial_conversion_rate: f64,
    pub new_users_last30_days: u64,
    /// Sign-ups of the last 12 months, oldest first.
    pub signups_by_month: Vec<MonthUsers>,
    pub users_by_role: UsersByRole,
    pub users_by_status: UsersByStatus,
    /// Entered by a superuser; null until then.
    pub ad_spend_last30_days: Option<f64>,
    /// Ad spend ÷ new paying owners in the last 30 days; null without ad spend.
    pub acquisition_cost: Option<f64>,
}

/// `PUT /api/admin/settings/ad-spend`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdSpendIn {
    /// Rupees spent on ads in the last 30 days, 0 or more.
    pub ad_spend_last30_days: f64,
}

/// The simple users calls' list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SimpleUserList {
    pub success: bool,
    pub users: Vec<AdminUser>,
    pub pagination: UserPagination,
}

/// `{success, user}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SimpleUserResponse {
    pub success: bool,
    pub user: AdminUser,
}

/// `POST /api/users`: an owner; without a password they get an email to choose one.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SimpleUserIn {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    pub password: Option<String>,
    #[serde(default)]
    pub phone: String,
}

/// `POST /api/admin/users/{id}/suspend`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuspendIn {
    /// Whether the owner's widget stops showing on their site while the
    /// account is suspended (default: it keeps working).
    #[serde(default)]
    pub pause_widget: bool,
}

/// `POST /api/admin/users/{id}/notes`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoteIn {
    /// The note, 1 to 2,000 characters.
    #[serde(default)]
    pub body: String,
}

/// A staff-only note on an account.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NoteOut {
    pub id: String,
    pub user_id: String,
    pub author_id: String,
    pub author_name: String,
    pub author_email: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// Query of the audit log. Every filter is optional; empty means any.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AuditLogQuery {
    /// The staff member who acted: their id, or part of their email.
    pub actor: Option<String>,
    /// The account acted on, or signed in as.
    pub target_user_id: Option<String>,
    /// One action, such as `update_user`, `suspend_user` or `request_as_user`.
    pub action: Option<String>,
    /// Entries from this day (`2026-11-01`) or moment (RFC 3339) on.
    pub from: Option<String>,
    /// Entries up to this day, inclusive (`2026-11-30`), or moment (RFC 3339).
    pub to: Option<String>,
    /// From 1.
    pub page: Option<String>,
    /// 1–200 (default 50).
    pub limit: Option<String>,
}

/// One entry of the audit log.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AuditLogEntry {
    pub id: String,
    /// When it was done.
    pub at: DateTime<Utc>,
    /// The staff member who acted (the superuser, when signed in as someone).
    pub actor_id: String,
    pub actor_email: String,
    pub actor_name: String,
    /// What was done, such as `update_user`; a refusal ends in `_refused`.
    pub action: String,
    /// The account acted on, or signed in as; none for plans and settings.
    pub target_user_id: Option<String>,
    /// `user`, `plan` or `settings`.
    pub target_type: String,
    /// The account, plan or setting acted on.
    pub target_id: String,
    /// The changed record's fields before the change.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The changed record's fields after the change.
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
    /// True when it was done while signed in as the target account ("login as user").
    pub via_login_as: bool,
    /// For a write made while signed in as someone: the request.
    pub request: Option<AuditRequest>,
}

/// A page of the audit log, newest first.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct AuditLogPage {
    pub entries: Vec<AuditLogEntry>,
    pub pagination: ca_core::paging::Pagination,
}
