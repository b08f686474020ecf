//! One way to change anything from the admin area: check the role, open a
//! write transaction, do the change, record it in the audit log with the
//! values before and after, and commit, so a change is never stored without
//! its audit entry nor an entry without its change. A change the caller's
//! role may not make is refused, and the refusal is on record too.

use sea_orm::DatabaseTransaction;

use crate::AdminError;
use ca_core::{DomainError, ErrorKind};

use crate::access::{self, Permission};
use crate::audit::{self, Actor, Entry};
use crate::service::AdminService;

/// What an audited change did: the row it changed, that row before and
/// after, and the call's answer.
pub struct Done<T> {
    pub target_id: String,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
    pub value: T,
}

impl<T> Done<T> {
    /// A change of `target_id` answering `value`.
    pub fn new(target_id: impl Into<String>, value: T) -> Self {
        Self {
            target_id: target_id.into(),
            before: None,
            after: None,
            value,
        }
    }

    /// The changed row's state before the change.
    pub fn before(mut self, before: Option<serde_json::Value>) -> Self {
        self.before = before;
        self
    }

    /// The changed row's state after the change.
    pub fn after(mut self, after: Option<serde_json::Value>) -> Self {
        self.after = after;
        self
    }
}

/// The action an audited change is recorded as, and what it is done to.
#[derive(Debug, Clone, Copy)]
pub struct Action {
    /// `update_user`, `create_plan`, …
    pub name: &'static str,
    /// `user`, `plan` or `settings`.
    pub target_type: &'static str,
    /// What the permission table must allow the caller; `None` for what is
    /// recorded of anyone (a write made while signed in as an owner).
    pub need: Option<Permission>,
}

impl AdminService {
    /// Does `change` as `actor` in one write transaction with its audit entry.
    pub(crate) async fn audited<T>(
        &self,
        actor: &Actor,
        action: Action,
        change: impl AsyncFnOnce(&DatabaseTransaction) -> Result<Done<T>, AdminError>,
    ) -> Result<T, AdminError> {
        self.audited_on(actor, action, "", change).await
    }

    /// Like [`Self::audited`] for a change of `target` (an account or plan
    /// id), which a refusal is recorded against.
    pub(crate) async fn audited_on<T>(
        &self,
        actor: &Actor,
        action: Action,
        target: &str,
        change: impl AsyncFnOnce(&DatabaseTransaction) -> Result<Done<T>, AdminError>,
    ) -> Result<T, AdminError> {
        match self.attempt(actor, action, change).await {
            Err(e) if matches!(e.kind(), ErrorKind::Forbidden) => {
                self.record_refusal(actor, action, target, &e).await?;
                Err(e)
            }
            other => other,
        }
    }

    async fn attempt<T>(
        &self,
        actor: &Actor,
        action: Action,
        change: impl AsyncFnOnce(&DatabaseTransaction) -> Result<Done<T>, AdminError>,
    ) -> Result<T, AdminError> {
        if let Some(need) = action.need {
            access::check(actor, need)?;
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        let done = change(&txn).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: action.name,
                target_type: action.target_type,
                target_id: &done.target_id,
                before: done.before,
                after: done.after,
            },
        )
        .await?;
        txn.commit().await?;
        // Staff changes reach accounts, plans and campaigns the widget's
        // calls keep in memory.
        ca_core::freshness::changed();
        Ok(done.value)
    }

    /// Records that `actor` was refused `action` on `target`, and why.
    async fn record_refusal(
        &self,
        actor: &Actor,
        action: Action,
        target: &str,
        refusal: &AdminError,
    ) -> Result<(), AdminError> {
        let txn = ca_core::db::begin_write(&self.db).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: &format!("{}_refused", action.name),
                target_type: action.target_type,
                target_id: target.trim(),
                before: None,
                after: Some(serde_json::json!({
                    "refused": refusal.code(),
                    "reason": refusal.to_string(),
                })),
            },
        )
        .await?;
        txn.commit().await?;
        tracing::info!(actor = %actor.person_id(), action = action.name, "admin action refused");
        Ok(())
    }
}
