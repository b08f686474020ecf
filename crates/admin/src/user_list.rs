//! The staff's user list beyond one page: its query (filters, sign-up
//! dates, order) checked in one place, the CSV export of every matching
//! account, and the bulk actions on chosen accounts. A bulk action is the
//! one-account call repeated, so each account gets the same role checks and
//! its own audit entry (a refusal included), and the accounts the caller
//! may not touch are skipped and named.

use chrono::{DateTime, SecondsFormat, Utc};

use ca_auth::staff::{SortColumn, UserFilter, UserSort};
use ca_core::paging::whole_number;
use ca_core::spreadsheet::safe_cell;
use ca_core::{DomainError, ErrorKind, FieldErrors, search};

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::audit_log::moment;
use crate::dto::{
    AdminUser, BulkChangePlanIn, BulkDone, BulkOutcome, BulkSkipped, BulkUsersIn, ChangePlanIn,
    UserExportQuery, UserListQuery,
};
use crate::service::AdminService;

/// The most accounts one bulk action takes (the list's largest page).
pub const BULK_MAX: usize = 100;

/// Accounts read at a time while exporting.
const EXPORT_CHUNK: u64 = 500;

/// A checked query of the user list.
pub(crate) struct ListRequest {
    pub filter: UserFilter,
    pub sort: UserSort,
    pub page: u64,
    pub limit: u64,
    /// Accounts that cancelled, for the `cancelled` status filter.
    pub cancelled: Vec<String>,
    pub now: DateTime<Utc>,
}

fn invalid(errors: FieldErrors) -> AdminError {
    AdminError::Validation {
        message: ca_core::validation::first_message(&errors),
        errors,
    }
}

impl AdminService {
    /// Checks every parameter of the user list (`paged`: page and limit
    /// too); a wrong one is answered with what is wrong, nothing is read.
    pub(crate) async fn list_request(
        &self,
        q: &UserListQuery,
        paged: bool,
    ) -> Result<ListRequest, AdminError> {
        let mut errors = FieldErrors::new();
        let (page, limit) = if paged {
            (
                whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors),
                whole_number(q.limit.as_deref(), "limit", 10, 1, 100, &mut errors),
            )
        } else {
            (1, EXPORT_CHUNK)
        };
        let role = search::chosen(q.role.as_deref());
        if role.is_some_and(|r| !matches!(r, "user" | "admin" | "superuser")) {
            errors.insert(
                "role".into(),
                vec!["Role must be user, admin or superuser".into()],
            );
        }
        let status = search::chosen(q.subscription_status.as_deref());
        if status.is_some_and(|s| {
            !matches!(
                s,
                "free" | "trial" | "active" | "cancelled" | "past_due" | "expired"
            )
        }) {
            errors.insert(
                "subscriptionStatus".into(),
                vec![
                    "Subscription status must be free, trial, active, cancelled, past_due or expired"
                        .into(),
                ],
            );
        }
        let plan = search::chosen(q.plan_id.as_deref());
        if let Some(plan) = plan {
            let known = plan.chars().count() <= 64
                && matches!(self.billing.get_plan(plan).await, Ok(p) if p.id == plan);
            if !known {
                errors.insert(
                    "planId".into(),
                    vec![format!(
                        "There is no plan with the id \"{}\"",
                        plan.chars().take(64).collect::<String>()
                    )],
                );
            }
        }
        let from = moment(q.from.as_deref(), "from", false, &mut errors);
        let to = moment(q.to.as_deref(), "to", true, &mut errors);
        if let (Some(f), Some(t)) = (from, to)
            && f >= t
        {
            errors.insert(
                "to".into(),
                vec![
                    "The sign-up date range ends before it starts: to must not be before from"
                        .into(),
                ],
            );
        }
        let column = match search::chosen(q.sort.as_deref()) {
            None => Some(SortColumn::CreatedAt),
            Some(name) => {
                let found = SortColumn::named(name);
                if found.is_none() {
                    errors.insert(
                        "sort".into(),
                        vec![
                            "sort must be one of name, email, role, plan, status, createdAt or lastLoginAt"
                                .into(),
                        ],
                    );
                }
                found
            }
        };
        let descending = match search::chosen(q.order.as_deref()) {
            None => matches!(
                column,
                Some(SortColumn::CreatedAt | SortColumn::LastLoginAt)
            ),
            Some("asc") => false,
            Some("desc") => true,
            Some(_) => {
                errors.insert("order".into(), vec!["order must be asc or desc".into()]);
                false
            }
        };
        let search = search::term(q.search.as_deref(), &mut errors);
        if !errors.is_empty() {
            return Err(invalid(errors));
        }
        Ok(ListRequest {
            filter: UserFilter {
                search,
                role: role.map(str::to_string),
                status: status.map(str::to_string),
                plan_id: plan.map(str::to_string),
                created_from: from,
                created_before: to,
            },
            sort: UserSort {
                column: column.unwrap_or_default(),
                descending,
            },
            page,
            limit,
            cancelled: ca_billing::staff::cancelled_owner_ids(&self.db).await?,
            now: Utc::now(),
        })
    }

    /// Every account the list's filters match, in its order, as CSV: a
    /// header row, then one row per account (CRLF lines). Dates are ISO 8601
    /// in UTC; a cell that a spreadsheet would run as a formula gets a `'`.
    pub async fn users_csv(
        &self,
        actor: &Actor,
        q: &UserExportQuery,
    ) -> Result<(Vec<u8>, u64), AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let list = self.list_request(&UserListQuery::from(q), false).await?;
        let mut out = String::new();
        push_row(&mut out, &CSV_COLUMNS.map(str::to_string));
        let mut written = 0;
        for page in 1.. {
            let (rows, total) = ca_auth::staff::list(
                &self.db,
                &list.filter,
                &list.cancelled,
                list.sort,
                page,
                EXPORT_CHUNK,
                list.now,
            )
            .await?;
            let n = rows.len() as u64;
            for u in self.admin_users(rows, list.now).await? {
                push_row(&mut out, &csv_row(&u));
            }
            written += n;
            if n < EXPORT_CHUNK || written >= total {
                break;
            }
        }
        Ok((out.into_bytes(), written))
    }

    /// Sets the plan of each chosen account as
    /// `POST /api/admin/users/{id}/change-plan` does, skipping (and naming)
    /// the accounts the caller may not change.
    pub async fn bulk_change_plan(
        &self,
        actor: &Actor,
        input: BulkChangePlanIn,
    ) -> Result<BulkOutcome, AdminError> {
        access::check(actor, Permission::EditUsers)?;
        let mut errors = FieldErrors::new();
        let ids = chosen_ids(&input.user_ids, &mut errors);
        let status = input.subscription_status.trim().to_string();
        if !matches!(
            status.as_str(),
            "free" | "trial" | "active" | "cancelled" | "past_due" | "expired"
        ) {
            errors.insert(
                "subscriptionStatus".into(),
                vec!["Status must be free, trial, active, cancelled, past_due or expired".into()],
            );
        }
        let plan_id = input.plan_id.trim().to_string();
        if plan_id.is_empty() {
            errors.insert("planId".into(), vec!["Choose a plan".into()]);
        } else if !matches!(self.billing.get_plan(&plan_id).await, Ok(p) if p.id == plan_id) {
            errors.insert(
                "planId".into(),
                vec![format!(
                    "There is no plan with the id \"{}\"",
                    plan_id.chars().take(64).collect::<String>()
                )],
            );
        }
        let now = Utc::now();
        match (status.as_str(), input.subscription_ends_at) {
            ("active", None) => {
                errors.insert(
                    "subscriptionEndsAt".into(),
                    vec!["An end date is required for an active subscription".into()],
                );
            }
            ("active" | "cancelled", Some(end)) if end <= now => {
                errors.insert(
                    "subscriptionEndsAt".into(),
                    vec!["The end date must be in the future".into()],
                );
            }
            _ => {}
        }
        if !errors.is_empty() {
            return Err(invalid(errors));
        }
        let change = ChangePlanIn {
            plan_id,
            subscription_status: status,
            subscription_ends_at: input.subscription_ends_at,
        };
        let mut outcome = Outcome::default();
        for id in ids {
            let result = self.change_plan(actor, &id, change.clone()).await;
            outcome.add(self, id, result.map(|u| u.email)).await?;
        }
        Ok(outcome.finish("Plan changed for"))
    }

    /// Emails each chosen account the usual password reset link, as
    /// `POST /api/admin/users/{id}/send-password-reset` does, skipping (and
    /// naming) the accounts the caller may not touch.
    pub async fn bulk_send_password_reset(
        &self,
        actor: &Actor,
        input: BulkUsersIn,
    ) -> Result<BulkOutcome, AdminError> {
        access::check(actor, Permission::EditUsers)?;
        let mut errors = FieldErrors::new();
        let ids = chosen_ids(&input.user_ids, &mut errors);
        if !errors.is_empty() {
            return Err(invalid(errors));
        }
        let mut outcome = Outcome::default();
        for id in ids {
            let result = match self.send_password_reset(actor, &id).await {
                Ok(()) => ca_auth::staff::get(&self.db, &id)
                    .await
                    .map(|u| u.email)
                    .map_err(AdminError::from),
                Err(e) => Err(e),
            };
            outcome.add(self, id, result).await?;
        }
        Ok(outcome.finish("Password reset email sent to"))
    }
}

/// The ids of a bulk action: trimmed, each once, 1 to [`BULK_MAX`].
fn chosen_ids(raw: &[String], errors: &mut FieldErrors) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.iter().map(|i| i.trim()) {
        if id.is_empty() || id.chars().count() > 64 {
            errors.insert(
                "userIds".into(),
                vec!["Each user id must be 1 to 64 characters".into()],
            );
            return Vec::new();
        }
        if !ids.iter().any(|i| i == id) {
            ids.push(id.to_string());
        }
    }
    if ids.is_empty() {
        errors.insert("userIds".into(), vec!["Choose at least one user".into()]);
    } else if ids.len() > BULK_MAX {
        errors.insert(
            "userIds".into(),
            vec![format!("Choose at most {BULK_MAX} users at a time")],
        );
    }
    ids
}

#[derive(Default)]
struct Outcome {
    done: Vec<BulkDone>,
    skipped: Vec<BulkSkipped>,
}

impl Outcome {
    /// Records one account's result; a fault of the server ends the action
    /// (what was done before it stays done, each on the audit log).
    async fn add(
        &mut self,
        service: &AdminService,
        id: String,
        result: Result<String, AdminError>,
    ) -> Result<(), AdminError> {
        match result {
            Ok(email) => self.done.push(BulkDone { id, email }),
            Err(e) if matches!(e.kind(), ErrorKind::Internal) => return Err(e),
            Err(e) => {
                let email = ca_auth::staff::get(&service.db, &id)
                    .await
                    .ok()
                    .map(|u| u.email);
                self.skipped.push(BulkSkipped {
                    id,
                    email,
                    code: e.code().to_string(),
                    reason: e.to_string(),
                });
            }
        }
        Ok(())
    }

    fn finish(self, what: &str) -> BulkOutcome {
        let users = |n: usize| {
            if n == 1 {
                "1 user".to_string()
            } else {
                format!("{n} users")
            }
        };
        let mut message = format!("{what} {}", users(self.done.len()));
        if !self.skipped.is_empty() {
            message.push_str(&format!(
                "; {} skipped: {}",
                users(self.skipped.len()),
                self.skipped
                    .iter()
                    .map(|s| format!("{} ({})", s.email.as_deref().unwrap_or(&s.id), s.reason))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        message.push('.');
        BulkOutcome {
            done: self.done,
            skipped: self.skipped,
            message,
        }
    }
}

/// The export's columns.
pub const CSV_COLUMNS: [&str; 16] = [
    "id",
    "name",
    "email",
    "phone",
    "role",
    "plan",
    "status",
    "cancels at period end",
    "suspended at",
    "campaigns",
    "payments",
    "paid (INR)",
    "last payment at",
    "subscription ends at",
    "signed up at",
    "last login at",
];

fn iso(at: Option<DateTime<Utc>>) -> String {
    at.map(|a| a.to_rfc3339_opts(SecondsFormat::Secs, true))
        .unwrap_or_default()
}

fn csv_row(u: &AdminUser) -> [String; 16] {
    [
        u.id.clone(),
        u.name.clone(),
        u.email.clone(),
        u.phone.clone(),
        u.role.clone(),
        u.plan_id.clone(),
        serde_json::to_value(u.subscription_status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        if u.cancel_at_period_end { "yes" } else { "no" }.into(),
        iso(u.suspended_at),
        u.campaign_count.to_string(),
        u.total_payments.to_string(),
        format!("{:.2}", u.total_revenue),
        iso(u.last_payment_date),
        iso(u.subscription_ends_at),
        iso(Some(u.created_at)),
        iso(u.last_login_at),
    ]
}

/// One CSV line: every cell made safe for spreadsheets, quoted when needed.
fn push_row(out: &mut String, cells: &[String]) {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let cell = safe_cell(cell);
        if cell.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&cell.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&cell);
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_quoted_and_formulas_neutralised() {
        let mut out = String::new();
        push_row(
            &mut out,
            &[
                "=HYPERLINK(\"x\")".into(),
                "a, b".into(),
                "-1".into(),
                "+91 98290 12345".into(),
                "\ttab".into(),
                "\rcr".into(),
            ],
        );
        assert_eq!(
            out,
            "\"'=HYPERLINK(\"\"x\"\")\",\"a, b\",'-1,+91 98290 12345,'\ttab,\"'\rcr\"\r\n"
        );
    }

    #[test]
    fn bulk_ids_are_trimmed_once_each_and_limited() {
        let mut errors = FieldErrors::new();
        assert_eq!(
            chosen_ids(&[" a ".into(), "a".into(), "b".into()], &mut errors),
            ["a", "b"]
        );
        assert!(errors.is_empty());
        chosen_ids(&[], &mut errors);
        assert!(errors.contains_key("userIds"));
        let mut errors = FieldErrors::new();
        chosen_ids(&["x".to_string()], &mut errors);
        assert!(errors.is_empty());
        let many: Vec<String> = (0..=BULK_MAX).map(|i| i.to_string()).collect();
        chosen_ids(&many, &mut errors);
        assert!(errors.contains_key("userIds"));
    }
}
