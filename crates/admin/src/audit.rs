//! The audit log: what staff did, and what a superuser did while signed in
//! as someone else.

use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use ca_auth::entities::user;

use crate::AdminError;
use crate::dto::{AuditOut, AuditRequest};
use crate::entities::audit_entry;

/// The action of a write made while signed in as an owner.
pub const REQUEST_AS_USER: &str = "request_as_user";

/// Who is acting: the signed-in account, and the superuser behind it when
/// the session is a "login as user" one.
#[derive(Debug, Clone)]
pub struct Actor {
    pub user: user::Model,
    /// The superuser acting as `user`.
    pub acting_for: Option<String>,
}

impl Actor {
    pub fn is_staff(&self) -> bool {
        matches!(self.user.role.as_str(), "admin" | "superuser")
    }

    pub fn is_superuser(&self) -> bool {
        self.user.role == "superuser"
    }

    /// The person behind the request: the superuser when signed in as
    /// someone, else the signed-in account. Rules about oneself ("nobody
    /// deletes or demotes themselves") are about this person.
    pub fn person_id(&self) -> &str {
        self.acting_for.as_deref().unwrap_or(&self.user.id)
    }
}

/// One entry to record.
pub struct Entry<'a> {
    pub action: &'a str,
    pub target_type: &'a str,
    pub target_id: &'a str,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

/// Records `entry` by `actor`, in the caller's transaction.
pub async fn record<C: ConnectionTrait>(
    conn: &C,
    actor: &Actor,
    entry: Entry<'_>,
) -> Result<(), AdminError> {
    // The person is the superuser behind an impersonated session, if any.
    let (actor_id, acting_as) = match &actor.acting_for {
        Some(real) => (real.clone(), Some(actor.user.id.clone())),
        None => (actor.user.id.clone(), None),
    };
    // Name and email are kept with the entry: they stay readable after the
    // person's account is deleted.
    let (actor_name, actor_email) = if actor.acting_for.is_some() {
        user::Entity::find_by_id(actor_id.clone())
            .one(conn)
            .await?
            .map_or_else(|| (actor_id.clone(), String::new()), |u| (u.name, u.email))
    } else {
        (actor.user.name.clone(), actor.user.email.clone())
    };
    audit_entry::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        actor_id: Set(actor_id),
        actor_name: Set(actor_name.chars().take(120).collect()),
        actor_email: Set(actor_email.chars().take(254).collect()),
        acting_as_id: Set(acting_as),
        action: Set(entry.action.chars().take(64).collect()),
        target_type: Set(entry.target_type.into()),
        target_id: Set(entry.target_id.chars().take(64).collect()),
        before: Set(entry.before.map(|v| v.to_string())),
        after: Set(entry.after.map(|v| v.to_string())),
        created_at: Set(Utc::now()),
    }
    .insert(conn)
    .await?;
    Ok(())
}

pub(crate) fn out(m: audit_entry::Model) -> AuditOut {
    let after: Option<serde_json::Value> = m.after.and_then(|a| serde_json::from_str(&a).ok());
    // A write made while signed in as someone keeps its request, which is
    // no field of any record: it is shown as the request, not as a change.
    let (after, request) = if m.action == REQUEST_AS_USER {
        (
            None,
            after.and_then(|a| serde_json::from_value::<AuditRequest>(a).ok()),
        )
    } else {
        (after, None)
    };
    AuditOut {
        id: m.id,
        actor_id: m.actor_id,
        actor_name: m.actor_name,
        actor_email: m.actor_email,
        acting_as_id: m.acting_as_id,
        action: m.action,
        target_type: m.target_type,
        target_id: m.target_id,
        before: m.before.and_then(|b| serde_json::from_str(&b).ok()),
        after,
        request,
        created_at: m.created_at,
    }
}

/// Entries about `user_id`: done to the account, or done while acting as it.
pub async fn about<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    limit: u64,
) -> Result<Vec<AuditOut>, AdminError> {
    Ok(audit_entry::Entity::find()
        .filter(
            Condition::any()
                .add(audit_entry::Column::TargetId.eq(user_id))
                .add(audit_entry::Column::ActingAsId.eq(user_id)),
        )
        .order_by_desc(audit_entry::Column::CreatedAt)
        .limit(limit)
        .all(conn)
        .await?
        .into_iter()
        .map(out)
        .collect())
}
