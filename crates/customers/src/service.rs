//! The owner's customer calls. Every query filters by the owner in SQL.

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DbBackend,
    EntityTrait, Order, QueryFilter, QueryOrder, QuerySelect, QueryTrait, Set,
};

use ca_core::FieldErrors;
use ca_core::paging::{Counted, Pagination, whole_number};
use ca_core::search::{self, Trigram, contains_any_case};

use crate::dto::{CustomerListResponse, CustomerOut, CustomerUpdate, ListQuery, STATUSES};
use crate::entities::{customer, customer_count};
use crate::error::CustomerError;

/// The owner's customer calls: the list, one customer, changes, deletion,
/// the overview and the export (the last two in `report`).
#[derive(Clone)]
pub struct CustomerService {
    pub(crate) db: DatabaseConnection,
}

impl CustomerService {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }
}

/// A checked list query.
#[derive(Debug, Clone)]
pub struct Listing {
    pub page: u64,
    pub limit: u64,
    pub search: Option<String>,
    pub status: Option<String>,
    pub sort: customer::Column,
    pub descending: bool,
}

/// Checks the query of `GET /api/customers/user`.
pub fn listing(q: &ListQuery) -> Result<Listing, CustomerError> {
    let mut errors = FieldErrors::new();
    let page = whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
    let limit = whole_number(q.limit.as_deref(), "limit", 20, 1, 100, &mut errors);
    let search = search::term(q.search.as_deref(), &mut errors);
    let status = search::chosen(q.status.as_deref()).map(str::to_string);
    if let Some(s) = &status
        && !STATUSES.contains(&s.as_str())
    {
        errors.insert(
            "status".into(),
            vec!["Status must be lead, prospect, customer or churned".into()],
        );
    }
    let sort = match q.sort_by.as_deref().map(str::trim).unwrap_or("") {
        "" | "lastConversationDate" => customer::Column::LastConversationDate,
        "leadScore" => customer::Column::LeadScore,
        "totalConversations" => customer::Column::TotalConversations,
        "createdAt" => customer::Column::CreatedAt,
        _ => {
            errors.insert(
                "sortBy".into(),
                vec![
                    "Sort by lastConversationDate, leadScore, totalConversations or createdAt"
                        .into(),
                ],
            );
            customer::Column::LastConversationDate
        }
    };
    let descending = match q.sort_order.as_deref().map(str::trim).unwrap_or("") {
        "" | "desc" => true,
        "asc" => false,
        _ => {
            errors.insert(
                "sortOrder".into(),
                vec!["Sort order must be asc or desc".into()],
            );
            true
        }
    };
    if !errors.is_empty() {
        return Err(CustomerError::invalid(errors));
    }
    Ok(Listing {
        page,
        limit,
        search,
        status,
        sort,
        descending,
    })
}

/// The text the search looks in on PostgreSQL: the expression its trigram
/// index is built on (migration `m20261122_000009`), so it must stay the same.
pub const PG_SEARCH_TEXT: &str = "lower(COALESCE(name, '') || E'\\n' || email || E'\\n' || \
     COALESCE(phone, '') || E'\\n' || COALESCE(company, ''))";

/// The customers' trigram search (PostgreSQL and SQLite indexes).
const TRIGRAM: Trigram = Trigram {
    table: "customers",
    pg_text: PG_SEARCH_TEXT,
    fts_index: "customers_search",
    fts_keys: "customer_search_keys",
    fts_key: "customer_id",
    fts_pending: false,
};

/// How many of the owner's customers (with `status`, when given) hold
/// `term`, counted up to the cap.
async fn search_count<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    term: &str,
    status: Option<&str>,
) -> Result<Counted, CustomerError> {
    let backend = conn.get_database_backend();
    let mut q = customer::Entity::find().filter(search_condition(backend, owner_id, term));
    if let Some(status) = status {
        q = q.filter(customer::Column::ConversionStatus.eq(status));
    }
    Ok(TRIGRAM
        .count(conn, owner_id, term, status.is_none(), q.into_query())
        .await?)
}

/// The owner's customers whose name, email, phone or company holds `term`
/// (lower-cased).
pub fn search_condition(backend: DbBackend, owner_id: &str, term: &str) -> Condition {
    TRIGRAM.matches(
        backend,
        owner_id,
        term,
        like_condition(backend, owner_id, term),
    )
}

/// The owner's customers whose name, email, phone or company holds `term`,
/// tested on each row's columns (whatever the case, non-ASCII letters too).
fn like_condition(backend: DbBackend, owner_id: &str, term: &str) -> Condition {
    let mut any = Condition::any();
    for col in [
        customer::Column::Email,
        customer::Column::Name,
        customer::Column::Phone,
        customer::Column::Company,
    ] {
        any = any.add(contains_any_case(backend, Expr::col(col), term));
    }
    Condition::all()
        .add(customer::Column::OwnerId.eq(owner_id))
        .add(any)
}

/// How many customers the owner has (with `status`, when given), from the
/// counts the database keeps, not by counting rows.
pub async fn count<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    status: Option<&str>,
) -> Result<u64, CustomerError> {
    let mut q = customer_count::Entity::find()
        .select_only()
        .column(customer_count::Column::N)
        .filter(customer_count::Column::OwnerId.eq(owner_id));
    if let Some(status) = status {
        q = q.filter(customer_count::Column::ConversionStatus.eq(status));
    }
    let counts: Vec<i64> = q.into_tuple().all(conn).await?;
    Ok(counts
        .into_iter()
        .map(|n| u64::try_from(n).unwrap_or(0))
        .sum())
}

async fn find<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<customer::Model, CustomerError> {
    customer::Entity::find()
        .filter(customer::Column::Id.eq(id.trim()))
        .filter(customer::Column::OwnerId.eq(owner_id))
        .one(conn)
        .await?
        .ok_or(CustomerError::NotFound)
}

fn text(
    value: Option<&String>,
    field: &str,
    label: &str,
    max: usize,
    errors: &mut FieldErrors,
) -> Option<Option<String>> {
    let v = value?.trim().to_string();
    if v.chars().count() > max {
        errors.insert(
            field.into(),
            vec![format!("{label} can be at most {max} characters")],
        );
    }
    Some((!v.is_empty()).then_some(v))
}

impl CustomerService {
    /// One page of the owner's customers.
    ///
    /// The page's ids come from an index in the list's order (ties broken
    /// by id) and only those rows are read, so a deep page skips index
    /// entries, not rows. A search that many customers match walks that
    /// order testing each row until the page is full; one few match sorts
    /// just the matches.
    pub async fn list(
        &self,
        owner_id: &str,
        l: &Listing,
    ) -> Result<CustomerListResponse, CustomerError> {
        let backend = self.db.get_database_backend();
        let scope = count(&self.db, owner_id, l.status.as_deref()).await?;
        let counted = match &l.search {
            Some(term) => search_count(&self.db, owner_id, term, l.status.as_deref()).await?,
            None => Counted::exact(scope),
        };
        let total = counted.total;
        let offset = (l.page - 1) * l.limit;
        // Rows walked to fill the page, about (offset + limit) × scope /
        // matches, each tested, against sorting all the matches. Past the
        // cap the matches are at least the cap, so walking costs at most
        // what that bound gives and sorting at least the cap.
        let walk =
            u128::from(offset + l.limit) * u128::from(scope) * if counted.capped { 1 } else { 4 }
                < u128::from(total) * u128::from(total);
        let mut rows = Vec::new();
        if offset < total || counted.capped {
            let condition = match &l.search {
                None => Condition::all().add(customer::Column::OwnerId.eq(owner_id)),
                Some(term) if TRIGRAM.indexed(backend, term) && walk => TRIGRAM.matches_row(
                    backend,
                    owner_id,
                    term,
                    like_condition(backend, owner_id, term),
                ),
                Some(term) => search_condition(backend, owner_id, term),
            };
            let mut query = customer::Entity::find()
                .select_only()
                .column(customer::Column::Id)
                .filter(condition);
            if let Some(status) = &l.status {
                query = query.filter(customer::Column::ConversionStatus.eq(status));
            }
            let order = if l.descending {
                Order::Desc
            } else {
                Order::Asc
            };
            let ids: Vec<String> = query
                .order_by(l.sort, order.clone())
                .order_by(customer::Column::Id, order)
                .offset(offset)
                .limit(l.limit)
                .into_tuple()
                .all(&self.db)
                .await?;
            if !ids.is_empty() {
                rows = customer::Entity::find()
                    .filter(customer::Column::OwnerId.eq(owner_id))
                    .filter(customer::Column::Id.is_in(ids.clone()))
                    .all(&self.db)
                    .await?;
                let at: std::collections::HashMap<&str, usize> = ids
                    .iter()
                    .enumerate()
                    .map(|(i, id)| (id.as_str(), i))
                    .collect();
                rows.sort_by_key(|r| at.get(r.id.as_str()).copied().unwrap_or(usize::MAX));
            }
        }
        Ok(CustomerListResponse {
            success: true,
            customers: rows.iter().map(CustomerOut::of).collect(),
            pagination: Pagination::counted(l.page, l.limit, counted),
        })
    }

    /// One of the owner's customers; another owner's is [`CustomerError::NotFound`].
    pub async fn get(&self, owner_id: &str, id: &str) -> Result<CustomerOut, CustomerError> {
        Ok(CustomerOut::of(&find(&self.db, owner_id, id).await?))
    }

    /// Changes status, name, phone, company and notes; recomputes the lead score.
    pub async fn update(
        &self,
        owner_id: &str,
        id: &str,
        input: CustomerUpdate,
    ) -> Result<CustomerOut, CustomerError> {
        let existing = find(&self.db, owner_id, id).await?;
        let mut errors = FieldErrors::new();
        let status = input
            .conversion_status
            .as_ref()
            .or(input.status.as_ref())
            .map(|s| s.trim().to_string());
        if let Some(s) = &status
            && !STATUSES.contains(&s.as_str())
        {
            errors.insert(
                "conversionStatus".into(),
                vec!["Status must be lead, prospect, customer or churned".into()],
            );
        }
        let name = text(input.name.as_ref(), "name", "Name", 200, &mut errors);
        let company = text(
            input.company.as_ref(),
            "company",
            "Company",
            200,
            &mut errors,
        );
        let notes = text(input.notes.as_ref(), "notes", "Notes", 5000, &mut errors);
        let phone = text(input.phone.as_ref(), "phone", "Phone", 40, &mut errors);
        if let Some(Some(p)) = &phone
            && ca_core::validation::phone(p).is_err()
        {
            errors.insert(
                "phone".into(),
                vec!["Please enter a valid phone number".into()],
            );
        }
        if !errors.is_empty() {
            return Err(CustomerError::invalid(errors));
        }
        let before = existing.clone();
        let mut after = existing.clone();
        if let Some(s) = status {
            after.conversion_status = s;
        }
        if let Some(v) = name {
            after.name = v;
        }
        if let Some(v) = phone {
            after.phone = v;
        }
        if let Some(v) = company {
            after.company = v;
        }
        if let Some(v) = notes {
            after.notes = v;
        }
        let id = existing.id.clone();
        let mut active: customer::ActiveModel = existing.into();
        active.conversion_status = Set(after.conversion_status);
        active.name = Set(after.name);
        active.phone = Set(after.phone);
        active.company = Set(after.company);
        active.notes = Set(after.notes);
        active.updated_at = Set(Utc::now());
        let txn = ca_core::db::begin_write(&self.db).await?;
        active.update(&txn).await?;
        // The score from the stored counters, which the widget may have moved meanwhile.
        crate::refresh_lead_scores(
            &txn,
            sea_orm::Condition::all().add(customer::Column::Id.eq(id.as_str())),
        )
        .await?;
        let stored = customer::Entity::find_by_id(id)
            .one(&txn)
            .await?
            .ok_or(CustomerError::NotFound)?;
        crate::hooks::lead_updated(&txn, &before, &stored, Utc::now()).await?;
        txn.commit().await?;
        Ok(CustomerOut::of(&stored))
    }

    /// Deletes one of the owner's customers.
    pub async fn delete(&self, owner_id: &str, id: &str) -> Result<(), CustomerError> {
        let result = customer::Entity::delete_many()
            .filter(customer::Column::Id.eq(id.trim()))
            .filter(customer::Column::OwnerId.eq(owner_id))
            .exec(&self.db)
            .await?;
        if result.rows_affected == 0 {
            return Err(CustomerError::NotFound);
        }
        Ok(())
    }
}
