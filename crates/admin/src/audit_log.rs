//! The audit log's page for superusers: every entry, filtered by actor,
//! account, action and time, newest first. Entries are only ever added
//! (by `audit::record`); nothing here or anywhere changes or removes one.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};

use ca_core::FieldErrors;
use ca_core::paging::{Pagination, whole_number};

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::{Actor, out};
use crate::dto::{AuditLogEntry, AuditLogPage, AuditLogQuery};
use crate::entities::audit_entry;
use crate::service::AdminService;

/// A day (`2026-11-01`, its start; with `end`, the start of the next day)
/// or an RFC 3339 moment; anything else records an error under `field`.
pub(crate) fn moment(
    raw: Option<&str>,
    field: &str,
    end: bool,
    errors: &mut FieldErrors,
) -> Option<DateTime<Utc>> {
    let raw = raw.map(str::trim).filter(|v| !v.is_empty())?;
    if let Ok(day) = NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        let start = day.and_hms_opt(0, 0, 0)?.and_utc();
        return Some(if end {
            start + Duration::days(1)
        } else {
            start
        });
    }
    match DateTime::parse_from_rfc3339(raw) {
        Ok(at) => Some(at.with_timezone(&Utc)),
        Err(_) => {
            errors.insert(
                field.into(),
                vec![format!(
                    "{field} must be a date such as 2026-11-30 or a date and time such as 2026-11-30T18:00:00Z"
                )],
            );
            None
        }
    }
}

fn log_entry(m: audit_entry::Model) -> AuditLogEntry {
    let via_login_as = m.acting_as_id.is_some();
    let target_user_id = match (&m.acting_as_id, m.target_type.as_str()) {
        (Some(acting_as), _) => Some(acting_as.clone()),
        (None, "user") if !m.target_id.is_empty() => Some(m.target_id.clone()),
        _ => None,
    };
    let o = out(m);
    AuditLogEntry {
        id: o.id,
        at: o.created_at,
        actor_id: o.actor_id,
        actor_email: o.actor_email,
        actor_name: o.actor_name,
        action: o.action,
        target_user_id,
        target_type: o.target_type,
        target_id: o.target_id,
        before: o.before,
        after: o.after,
        via_login_as,
        request: o.request,
    }
}

impl AdminService {
    /// A page of the audit log, newest first, filtered (superusers). The log
    /// is only ever added to: no call changes or removes an entry.
    pub async fn audit_log(
        &self,
        actor: &Actor,
        q: &AuditLogQuery,
    ) -> Result<AuditLogPage, AdminError> {
        access::check(actor, Permission::ViewAudit)?;
        let mut errors = FieldErrors::new();
        let page = whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
        let limit = whole_number(q.limit.as_deref(), "limit", 50, 1, 200, &mut errors);
        let from = moment(q.from.as_deref(), "from", false, &mut errors);
        let to = moment(q.to.as_deref(), "to", true, &mut errors);
        let text = |v: &Option<String>, field: &str, max: usize, errors: &mut FieldErrors| {
            let v = v.as_deref().map(str::trim).filter(|v| !v.is_empty())?;
            if v.chars().count() > max {
                errors.insert(
                    field.into(),
                    vec![format!("{field} must be at most {max} characters")],
                );
                return None;
            }
            Some(v.to_string())
        };
        let actor_term = text(&q.actor, "actor", 254, &mut errors);
        let target = text(&q.target_user_id, "targetUserId", 64, &mut errors);
        let action = text(&q.action, "action", 64, &mut errors);
        if let (Some(f), Some(t)) = (from, to)
            && f >= t
        {
            errors.insert("to".into(), vec!["to must not be before from".into()]);
        }
        if !errors.is_empty() {
            return Err(AdminError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        let mut c = Condition::all();
        if let Some(term) = actor_term {
            let backend = self.db.get_database_backend();
            c = c.add(
                Condition::any()
                    .add(audit_entry::Column::ActorId.eq(term.clone()))
                    .add(ca_core::search::contains_any_case(
                        backend,
                        Expr::col(audit_entry::Column::ActorEmail),
                        &term,
                    )),
            );
        }
        if let Some(target) = target {
            c = c.add(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(audit_entry::Column::TargetType.eq("user"))
                            .add(audit_entry::Column::TargetId.eq(target.clone())),
                    )
                    .add(audit_entry::Column::ActingAsId.eq(target)),
            );
        }
        if let Some(action) = action {
            c = c.add(audit_entry::Column::Action.eq(action));
        }
        if let Some(from) = from {
            c = c.add(audit_entry::Column::CreatedAt.gte(from));
        }
        if let Some(to) = to {
            c = c.add(audit_entry::Column::CreatedAt.lt(to));
        }
        let query = audit_entry::Entity::find().filter(c);
        let total = query.clone().count(&self.db).await?;
        let pagination = Pagination::new(page, limit, total);
        let entries = query
            .order_by_desc(audit_entry::Column::CreatedAt)
            .order_by_desc(audit_entry::Column::Id)
            .offset(pagination.offset())
            .limit(limit)
            .all(&self.db)
            .await?
            .into_iter()
            .map(log_entry)
            .collect();
        Ok(AuditLogPage {
            entries,
            pagination,
        })
    }
}
