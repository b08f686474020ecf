//! One way to change anything from the admin area: check the role, open a
//! write transaction, do the change, record it in the audit log with the
//! values before and after, and commit, so a change is never stored without
//! its audit entry nor an entry without its change.

use sea_orm::DatabaseTransaction;

use crate::AdminError;
use crate::access::{self, Need};
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
    /// The role it needs.
    pub need: Need,
}

impl AdminService {
    /// Does `change` as `actor` in one write transaction with its audit entry.
    pub(crate) async fn audited<T>(
        &self,
        actor: &Actor,
        action: Action,
        change: impl AsyncFnOnce(&DatabaseTransaction) -> Result<Done<T>, AdminError>,
    ) -> Result<T, AdminError> {
        access::check(actor, action.need)?;
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
        Ok(done.value)
    }
}
