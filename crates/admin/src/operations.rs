//! What staff do to one account besides changing it: suspend and restore
//! it, email it a password reset link, sign it out everywhere, and keep
//! staff-only notes on it. Each is audited; the permission table decides
//! who may (an admin cannot suspend, reset or sign out another staff account).

use chrono::Utc;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde_json::json;

use crate::AdminError;
use crate::access::{self, Permission, may_manage};
use crate::audit::Actor;
use crate::audited::{Action, Done};
use crate::dto::{AdminUser, NoteIn, NoteOut, SuspendIn};
use crate::entities::admin_note;
use crate::service::AdminService;

/// The longest internal note, in characters.
pub const NOTE_MAX_CHARS: usize = 2000;

const fn action(name: &'static str, need: Permission) -> Action {
    Action {
        name,
        target_type: "user",
        need: Some(need),
    }
}

fn note_out(n: admin_note::Model) -> NoteOut {
    NoteOut {
        id: n.id,
        user_id: n.user_id,
        author_id: n.author_id,
        author_name: n.author_name,
        author_email: n.author_email,
        body: n.body,
        created_at: n.created_at,
    }
}

impl AdminService {
    /// Suspends an account: it cannot sign in (403 `account_suspended`), its
    /// sessions end at once, and its widget pauses if asked. Suspending a
    /// suspended account changes only whether its widget pauses.
    pub async fn suspend_user(
        &self,
        actor: &Actor,
        id: &str,
        input: SuspendIn,
    ) -> Result<AdminUser, AdminError> {
        let target = self
            .audited_on(
                actor,
                action("suspend_user", Permission::SuspendUsers),
                id,
                async |txn| {
                    let target = ca_auth::staff::get(txn, id).await?;
                    if target.id == actor.person_id() {
                        return Err(AdminError::SelfAction("suspend"));
                    }
                    may_manage(actor, &target)?;
                    let before = ca_auth::suspension::of(txn, &target.id).await?;
                    let now = Utc::now();
                    let stored = ca_auth::suspension::suspend(
                        txn,
                        &target,
                        actor.person_id(),
                        input.pause_widget,
                        now,
                    )
                    .await?;
                    Ok(Done::new(target.id.clone(), target)
                        .before(Some(json!({
                            "suspended": before.is_some(),
                            "widgetPaused": before.is_some_and(|s| s.pause_widget),
                        })))
                        .after(Some(json!({
                            "suspended": true,
                            "widgetPaused": stored.pause_widget,
                        }))))
                },
            )
            .await?;
        tracing::info!(actor = %actor.person_id(), user = %target.id, "account suspended by staff");
        let fresh = ca_auth::staff::get(&self.db, &target.id).await?;
        self.admin_user(fresh).await
    }

    /// Restores a suspended account: it can sign in again and its widget
    /// works again. Restoring an account that is not suspended changes nothing.
    pub async fn unsuspend_user(&self, actor: &Actor, id: &str) -> Result<AdminUser, AdminError> {
        let target = self
            .audited_on(
                actor,
                action("unsuspend_user", Permission::SuspendUsers),
                id,
                async |txn| {
                    let target = ca_auth::staff::get(txn, id).await?;
                    may_manage(actor, &target)?;
                    let before = ca_auth::suspension::of(txn, &target.id).await?;
                    ca_auth::suspension::unsuspend(txn, &target.id).await?;
                    Ok(Done::new(target.id.clone(), target)
                        .before(Some(json!({
                            "suspended": before.is_some(),
                            "widgetPaused": before.is_some_and(|s| s.pause_widget),
                        })))
                        .after(Some(json!({"suspended": false, "widgetPaused": false}))))
                },
            )
            .await?;
        self.admin_user(target).await
    }

    /// Emails the account the usual password reset link (it works once,
    /// for an hour), as "Forgot password" would.
    pub async fn send_password_reset(&self, actor: &Actor, id: &str) -> Result<(), AdminError> {
        self.audited_on(
            actor,
            action("send_password_reset", Permission::EditUsers),
            id,
            async |txn| {
                let target = ca_auth::staff::get(txn, id).await?;
                may_manage(actor, &target)?;
                self.auth.send_password_reset(txn, &target).await?;
                Ok(
                    Done::new(target.id.clone(), ())
                        .after(Some(json!({"emailedTo": target.email}))),
                )
            },
        )
        .await
    }

    /// Ends every session of the account (and any "login as user" session
    /// of it): each device must sign in again.
    pub async fn sign_out_everywhere(&self, actor: &Actor, id: &str) -> Result<(), AdminError> {
        self.audited_on(
            actor,
            action("sign_out_everywhere", Permission::EditUsers),
            id,
            async |txn| {
                let target = ca_auth::staff::get(txn, id).await?;
                may_manage(actor, &target)?;
                ca_auth::suspension::end_sessions(txn, &target, Utc::now()).await?;
                Ok(Done::new(target.id.clone(), ()))
            },
        )
        .await
    }

    /// The staff-only notes on an account, newest first.
    pub async fn notes(&self, actor: &Actor, id: &str) -> Result<Vec<NoteOut>, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let target = ca_auth::staff::get(&self.db, id).await?;
        Ok(admin_note::Entity::find()
            .filter(admin_note::Column::UserId.eq(target.id))
            .order_by_desc(admin_note::Column::CreatedAt)
            .order_by_desc(admin_note::Column::Id)
            .all(&self.db)
            .await?
            .into_iter()
            .map(note_out)
            .collect())
    }

    /// Adds a staff-only note to an account (owners never see notes).
    pub async fn add_note(
        &self,
        actor: &Actor,
        id: &str,
        input: NoteIn,
    ) -> Result<NoteOut, AdminError> {
        let body = input.body.trim().to_string();
        if body.is_empty() {
            return Err(AdminError::field("body", "Write a note first"));
        }
        if body.chars().count() > NOTE_MAX_CHARS {
            return Err(AdminError::field(
                "body",
                "A note can be at most 2,000 characters",
            ));
        }
        self.audited_on(
            actor,
            action("add_note", Permission::EditUsers),
            id,
            async |txn| {
                let target = ca_auth::staff::get(txn, id).await?;
                // The author is the person behind the request.
                let author = ca_auth::staff::get(txn, actor.person_id()).await?;
                let note = admin_note::ActiveModel {
                    id: Set(ca_core::ids::new_id().to_string()),
                    user_id: Set(target.id.clone()),
                    author_id: Set(author.id.clone()),
                    author_name: Set(author.name.chars().take(120).collect()),
                    author_email: Set(author.email.chars().take(254).collect()),
                    body: Set(body.clone()),
                    created_at: Set(Utc::now()),
                }
                .insert(txn)
                .await?;
                let out = note_out(note);
                Ok(
                    Done::new(target.id.clone(), out.clone())
                        .after(Some(json!({"note": out.body}))),
                )
            },
        )
        .await
    }
}
