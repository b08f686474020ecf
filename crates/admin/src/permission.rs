//! The permission table itself: each action of the admin area and the
//! roles that may do it. [`crate::access`] applies it; the dashboard reads it.

use serde::Serialize;
use utoipa::ToSchema;

/// Something done in the admin area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Permission {
    /// Open the admin area: figures, accounts, plans, system health, trial settings.
    ViewAdmin,
    /// Change, delete or set the plan of an owner (or of oneself), and create owners.
    EditUsers,
    /// Create admin accounts, or make an owner an admin.
    CreateAdmins,
    /// Create superuser accounts, or make someone a superuser.
    GrantSuperuser,
    /// Change, demote, set the plan of or delete another staff account.
    ManageStaff,
    /// Sign in as an owner ("login as user").
    LoginAs,
    /// The business figures (revenue, churn, trial conversion).
    ViewBusiness,
    /// Change platform settings: the trial new owners get, the ad spend,
    /// staff's grace period for two-factor sign-in.
    EditSettings,
    /// Create, change and deactivate plans.
    ManagePlans,
    /// Refund an owner's payment.
    RefundPayments,
    /// Put failed Meta events back in the queue.
    RequeueMetaEvents,
    /// Put failed account emails back in the queue, and send oneself a test email.
    RequeueEmails,
    /// Read the audit log of every staff action and every write made while
    /// signed in as someone.
    ViewAudit,
    /// Suspend an account (sign-in refused, sessions ended) and restore it.
    SuspendUsers,
}

const STAFF: &[&str] = &["admin", "superuser"];
const SUPERUSER: &[&str] = &["superuser"];

/// The table: each action and the roles that may do it.
pub const TABLE: &[(Permission, &[&str])] = &[
    (Permission::ViewAdmin, STAFF),
    (Permission::EditUsers, STAFF),
    (Permission::CreateAdmins, STAFF),
    (Permission::GrantSuperuser, SUPERUSER),
    (Permission::ManageStaff, SUPERUSER),
    (Permission::LoginAs, SUPERUSER),
    (Permission::ViewBusiness, SUPERUSER),
    (Permission::EditSettings, SUPERUSER),
    (Permission::ManagePlans, SUPERUSER),
    (Permission::RefundPayments, STAFF),
    (Permission::RequeueMetaEvents, STAFF),
    (Permission::RequeueEmails, STAFF),
    (Permission::ViewAudit, SUPERUSER),
    (Permission::SuspendUsers, STAFF),
];
