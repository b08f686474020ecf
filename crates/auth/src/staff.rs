//! Account administration for staff: listing, changing and deleting accounts.
//! The admin area decides who may do what; these functions do it to the
//! users table, which this crate owns, inside the caller's transaction.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};

use crate::AuthError;
use crate::entities::user;

/// Filters of the staff's user list.
#[derive(Debug, Clone, Default)]
pub struct UserFilter {
    /// Part of the name, email or phone (case-insensitive).
    pub search: Option<String>,
    pub role: Option<String>,
    /// `free`, `trial`, `active`, `cancelled` (set by staff, or active with
    /// the cancellation given as `cancelled_owner_ids`), `past_due` or
    /// `expired`, as of `now`.
    pub status: Option<String>,
    /// The plan the account is on (its stored plan id).
    pub plan_id: Option<String>,
    /// Signed up at or after this moment.
    pub created_from: Option<DateTime<Utc>>,
    /// Signed up before this moment.
    pub created_before: Option<DateTime<Utc>>,
}

/// A column the staff's user list can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortColumn {
    Name,
    Email,
    Role,
    Plan,
    /// The stored subscription status.
    Status,
    /// The sign-up date.
    #[default]
    CreatedAt,
    LastLoginAt,
}

impl SortColumn {
    /// Every column with its name in the API.
    pub const ALL: [(&'static str, Self); 7] = [
        ("name", Self::Name),
        ("email", Self::Email),
        ("role", Self::Role),
        ("plan", Self::Plan),
        ("status", Self::Status),
        ("createdAt", Self::CreatedAt),
        ("lastLoginAt", Self::LastLoginAt),
    ];

    /// The column named `name` in the API.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
    }
}

/// The order of the staff's user list: a column, ascending or descending;
/// ties (and accounts that never signed in, always last) are broken by the
/// newest sign-up, then the id, so pages never overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserSort {
    pub column: SortColumn,
    pub descending: bool,
}

impl Default for UserSort {
    fn default() -> Self {
        Self {
            column: SortColumn::CreatedAt,
            descending: true,
        }
    }
}

fn sorted(q: sea_orm::Select<user::Entity>, sort: UserSort) -> sea_orm::Select<user::Entity> {
    use sea_orm::Order;
    use sea_orm::sea_query::{Func, NullOrdering};
    let order = if sort.descending {
        Order::Desc
    } else {
        Order::Asc
    };
    let q = match sort.column {
        // Case-insensitive, the same on both databases.
        SortColumn::Name => q.order_by(Func::lower(Expr::col(user::Column::Name)), order),
        SortColumn::Email => q.order_by(user::Column::Email, order),
        SortColumn::Role => q.order_by(user::Column::Role, order),
        SortColumn::Plan => q.order_by(user::Column::PlanId, order),
        SortColumn::Status => q.order_by(user::Column::SubscriptionStatus, order),
        SortColumn::CreatedAt => q.order_by(user::Column::CreatedAt, order),
        SortColumn::LastLoginAt => {
            q.order_by_with_nulls(user::Column::LastLoginAt, order, NullOrdering::Last)
        }
    };
    q.order_by_desc(user::Column::CreatedAt)
        .order_by_desc(user::Column::Id)
}

fn filtered(
    backend: sea_orm::DbBackend,
    f: &UserFilter,
    now: DateTime<Utc>,
    cancelled: &[String],
) -> Condition {
    let mut c = Condition::all();
    if let Some(term) = f.search.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        // Whatever the case, non-ASCII letters too, on both databases.
        let mut any = Condition::any();
        for col in [user::Column::Name, user::Column::Email, user::Column::Phone] {
            any = any.add(ca_core::search::contains_any_case(
                backend,
                Expr::col(col),
                term,
            ));
        }
        c = c.add(any);
    }
    if let Some(role) = &f.role {
        c = c.add(user::Column::Role.eq(role));
    }
    if let Some(plan) = &f.plan_id {
        c = c.add(user::Column::PlanId.eq(plan));
    }
    if let Some(from) = f.created_from {
        c = c.add(user::Column::CreatedAt.gte(from));
    }
    if let Some(before) = f.created_before {
        c = c.add(user::Column::CreatedAt.lt(before));
    }
    match f.status.as_deref() {
        Some("trial") => {
            c = c
                .add(user::Column::SubscriptionStatus.eq("trial"))
                .add(user::Column::TrialEndsAt.gt(now));
        }
        Some("active") => {
            c = c.add(user::Column::SubscriptionStatus.eq("active")).add(
                Condition::any()
                    .add(user::Column::SubscriptionEndsAt.is_null())
                    .add(user::Column::SubscriptionEndsAt.gt(now)),
            );
        }
        Some("cancelled") => {
            // Cancelled by the owner (running to the period's end) or set by staff.
            c = c.add(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(user::Column::SubscriptionStatus.eq("active"))
                            .add(user::Column::SubscriptionEndsAt.gt(now))
                            .add(user::Column::Id.is_in(cancelled.to_vec())),
                    )
                    .add(user::Column::SubscriptionStatus.eq("cancelled")),
            );
        }
        Some("past_due") => {
            c = c.add(user::Column::SubscriptionStatus.eq("past_due"));
        }
        Some("expired") => {
            c = c.add(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(user::Column::SubscriptionStatus.eq("active"))
                            .add(user::Column::SubscriptionEndsAt.lte(now)),
                    )
                    .add(user::Column::SubscriptionStatus.eq("expired")),
            );
        }
        Some("free") => {
            c = c.add(
                Condition::any()
                    .add(user::Column::SubscriptionStatus.eq("free"))
                    .add(
                        Condition::all()
                            .add(user::Column::SubscriptionStatus.eq("trial"))
                            .add(
                                Condition::any()
                                    .add(user::Column::TrialEndsAt.is_null())
                                    .add(user::Column::TrialEndsAt.lte(now)),
                            ),
                    ),
            );
        }
        _ => {}
    }
    c
}

/// One page of accounts in `sort`'s order, and how many match.
#[allow(clippy::too_many_arguments)]
pub async fn list<C: ConnectionTrait>(
    conn: &C,
    filter: &UserFilter,
    cancelled: &[String],
    sort: UserSort,
    page: u64,
    limit: u64,
    now: DateTime<Utc>,
) -> Result<(Vec<user::Model>, u64), AuthError> {
    let q = user::Entity::find().filter(filtered(
        conn.get_database_backend(),
        filter,
        now,
        cancelled,
    ));
    let total = q.clone().count(conn).await?;
    let rows = sorted(q, sort)
        .offset(page.saturating_sub(1) * limit)
        .limit(limit)
        .all(conn)
        .await?;
    Ok((rows, total))
}

/// One account.
pub async fn get<C: ConnectionTrait>(conn: &C, id: &str) -> Result<user::Model, AuthError> {
    user::Entity::find_by_id(id.trim().to_string())
        .one(conn)
        .await?
        .ok_or(AuthError::UserNotFound)
}

/// How many accounts have `role`.
pub async fn count_role<C: ConnectionTrait>(conn: &C, role: &str) -> Result<u64, AuthError> {
    Ok(user::Entity::find()
        .filter(user::Column::Role.eq(role))
        .count(conn)
        .await?)
}

/// All accounts, or those created since `since`.
pub async fn count_users<C: ConnectionTrait>(
    conn: &C,
    since: Option<DateTime<Utc>>,
) -> Result<u64, AuthError> {
    let mut q = user::Entity::find();
    if let Some(since) = since {
        q = q.filter(user::Column::CreatedAt.gte(since));
    }
    Ok(q.count(conn).await?)
}

/// Every account (for platform figures; a few columns are enough).
pub async fn all<C: ConnectionTrait>(conn: &C) -> Result<Vec<user::Model>, AuthError> {
    Ok(user::Entity::find().all(conn).await?)
}

/// What staff may change on an account.
#[derive(Debug, Clone, Default)]
pub struct AccountChange {
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub role: Option<String>,
}

/// Applies `change` to the account; a new role revokes its sessions.
pub async fn update<C: ConnectionTrait>(
    conn: &C,
    id: &str,
    change: AccountChange,
) -> Result<user::Model, AuthError> {
    let found = get(conn, id).await?;
    let mut errors = ca_core::FieldErrors::new();
    let mut active: user::ActiveModel = found.clone().into();
    if let Some(name) = change.name.map(|n| n.trim().to_string()) {
        if name.is_empty() || name.chars().count() > 100 {
            errors.insert(
                "name".into(),
                vec!["Name must be 1 to 100 characters".into()],
            );
        } else if name.chars().any(char::is_control) {
            // The name goes into the account's emails (see `rules::name`).
            errors.insert("name".into(), vec!["Name must be on one line".into()]);
        }
        active.name = Set(name);
    }
    let mut email_changed = false;
    if let Some(email) = change.email.map(|e| e.trim().to_lowercase()) {
        if !validator::ValidateEmail::validate_email(&email) || email.len() > 254 {
            errors.insert(
                "email".into(),
                vec!["Please enter a valid email address".into()],
            );
        } else if email != found.email {
            let taken = user::Entity::find()
                .filter(user::Column::Email.eq(&email))
                .count(conn)
                .await?
                > 0;
            if taken {
                return Err(AuthError::EmailTaken);
            }
            email_changed = true;
        }
        active.email = Set(email);
    }
    if let Some(phone) = change.phone.map(|p| p.trim().to_string()) {
        // Stored in E.164, like every account's phone; empty clears it.
        if !phone.is_empty() && crate::rules::e164(&phone).is_none() {
            errors.insert("phone".into(), vec![crate::rules::PHONE_INVALID.into()]);
        }
        active.phone = Set(crate::rules::stored_phone(&phone));
    }
    if let Some(role) = change.role.map(|r| r.trim().to_string()) {
        if !matches!(role.as_str(), "user" | "admin" | "superuser") {
            errors.insert(
                "role".into(),
                vec!["Role must be user, admin or superuser".into()],
            );
        } else if role != found.role {
            active.token_version = Set(found.token_version + 1);
        }
        active.role = Set(role);
    }
    if !errors.is_empty() {
        return Err(AuthError::Validation {
            message: ca_core::validation::first_message(&errors),
            errors,
        });
    }
    if email_changed {
        // Links already sent went to the old address.
        crate::links::end_open_links(conn, &found.id, Utc::now()).await?;
    }
    active.updated_at = Set(Utc::now());
    Ok(active.update(conn).await?)
}

/// Deletes the account; its campaigns, conversations, customers and
/// payments go with it (the database cascades from the users row).
pub async fn delete<C: ConnectionTrait>(conn: &C, id: &str) -> Result<(), AuthError> {
    let gone = user::Entity::delete_many()
        .filter(user::Column::Id.eq(id.trim()))
        .exec(conn)
        .await?
        .rows_affected;
    if gone == 0 {
        return Err(AuthError::UserNotFound);
    }
    Ok(())
}

/// Revokes every session of the account (e.g. after staff changed its plan by hand).
pub async fn revoke_sessions<C: ConnectionTrait>(conn: &C, id: &str) -> Result<(), AuthError> {
    user::Entity::update_many()
        .col_expr(
            user::Column::TokenVersion,
            Expr::col(user::Column::TokenVersion).add(1),
        )
        .filter(user::Column::Id.eq(id))
        .exec(conn)
        .await?;
    Ok(())
}
