//! Pages of a list: the `page`/`limit` query numbers and the `pagination`
//! object every list answer carries.

use sea_orm::sea_query::{Alias, Expr, Query, SelectStatement};
use sea_orm::{ConnectionTrait, DbErr};
use serde::Serialize;
use utoipa::ToSchema;

use crate::FieldErrors;

/// A search counts its matches up to this many and stops: past it the list
/// says "10,000+" and the search is worth narrowing. Counting every one of a
/// hundred thousand matches would make each keystroke wait for it.
pub const COUNT_CAP: u64 = 10_000;

/// How many items a list holds, counted up to [`COUNT_CAP`] for searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// The count, or [`COUNT_CAP`] when there are more.
    pub total: u64,
    /// Whether there are more than [`COUNT_CAP`].
    pub capped: bool,
}

impl Counted {
    /// An exact count.
    pub fn exact(total: u64) -> Self {
        Self {
            total,
            capped: false,
        }
    }

    /// `found` rows counted with a limit of [`COUNT_CAP`] + 1.
    pub fn from_limited(found: u64) -> Self {
        if found > COUNT_CAP {
            Self {
                total: COUNT_CAP,
                capped: true,
            }
        } else {
            Self::exact(found)
        }
    }
}

/// Counts the rows `query` selects, stopping after [`COUNT_CAP`] + 1 so a
/// search that matches very many rows costs no more than one that matches
/// the cap. `query`'s own columns and order are ignored.
pub async fn count_capped<C: ConnectionTrait>(
    conn: &C,
    mut query: SelectStatement,
) -> Result<Counted, DbErr> {
    query
        .clear_selects()
        .clear_order_by()
        .expr(Expr::val(1))
        .limit(COUNT_CAP + 1);
    let outer = Query::select()
        .expr_as(Expr::cust("COUNT(*)"), Alias::new("n"))
        .from_subquery(query, Alias::new("matches"))
        .to_owned();
    let backend = conn.get_database_backend();
    let row = conn.query_one_raw(backend.build(&outer)).await?;
    let n: i64 = match row {
        Some(r) => r.try_get("", "n")?,
        None => 0,
    };
    Ok(Counted::from_limited(u64::try_from(n).unwrap_or(0)))
}

/// Page information of a list answer.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Pagination {
    /// The page shown, from 1.
    pub page: u64,
    /// Items per page.
    pub limit: u64,
    /// Items in the whole list.
    pub total: u64,
    /// Pages in the whole list (0 when it is empty).
    pub pages: u64,
    /// True when a search matched more than it counts (10,000): `total` and
    /// `pages` are then what was counted, and there are more.
    pub capped: bool,
}

impl Pagination {
    /// Page `page` of `total` items, `limit` a page.
    pub fn new(page: u64, limit: u64, total: u64) -> Self {
        Self {
            page,
            limit,
            total,
            pages: total.div_ceil(limit.max(1)),
            capped: false,
        }
    }

    /// Page `page` of a list counted up to [`COUNT_CAP`].
    pub fn counted(page: u64, limit: u64, counted: Counted) -> Self {
        Self {
            capped: counted.capped,
            ..Self::new(page, limit, counted.total)
        }
    }

    /// How many items come before this page.
    pub fn offset(&self) -> u64 {
        (self.page.saturating_sub(1)).saturating_mul(self.limit)
    }
}

/// The API document's schema of a whole-number query parameter that may also
/// be sent empty (meaning the default), as [`whole_number`] reads it.
fn blank_or_whole(min: u64, max: Option<u64>) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
    let number = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Integer))
        .minimum(Some(min as f64))
        .maximum(max.map(|m| m as f64));
    let blank = ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .enum_values(Some([""]));
    Schema::OneOf(OneOfBuilder::new().item(number).item(blank).build())
}

/// The API document's schema of a query parameter that takes one of
/// `values`, or empty (the same as leaving it out).
pub fn blank_or_one_of(values: &[&str]) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
    let mut all = vec![""];
    all.extend_from_slice(values);
    Schema::Object(
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .enum_values(Some(all))
            .build(),
    )
}

/// `page`: from 1 to 1,000,000, or empty for the first page.
pub fn page_schema() -> utoipa::openapi::schema::Schema {
    blank_or_whole(1, Some(1_000_000))
}

/// `limit`: from 1 to 100, or empty for the list's default.
pub fn limit_schema() -> utoipa::openapi::schema::Schema {
    blank_or_whole(1, Some(100))
}

/// A row id from 1 up (within the integers a JSON number holds exactly),
/// or empty for none.
pub fn id_schema() -> utoipa::openapi::schema::Schema {
    blank_or_whole(1, Some((1 << 53) - 1))
}

/// A whole number from a query string: `default` when absent or blank; out of
/// `min..=max` or not a number records an error under `field` and gives `default`.
pub fn whole_number(
    raw: Option<&str>,
    field: &str,
    default: u64,
    min: u64,
    max: u64,
    errors: &mut FieldErrors,
) -> u64 {
    match raw.map(str::trim).filter(|v| !v.is_empty()) {
        None => default,
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => n,
            _ => {
                errors.insert(
                    field.into(),
                    vec![format!(
                        "{field} must be a whole number from {min} to {max}"
                    )],
                );
                default
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_default_and_bounds() {
        let mut errors = FieldErrors::new();
        assert_eq!(whole_number(None, "page", 1, 1, 10, &mut errors), 1);
        assert_eq!(whole_number(Some(" "), "page", 1, 1, 10, &mut errors), 1);
        assert_eq!(whole_number(Some("7"), "page", 1, 1, 10, &mut errors), 7);
        assert!(errors.is_empty());
        assert_eq!(whole_number(Some("11"), "limit", 5, 1, 10, &mut errors), 5);
        assert_eq!(
            errors["limit"],
            vec!["limit must be a whole number from 1 to 10".to_string()]
        );
        assert_eq!(whole_number(Some("-1"), "page", 1, 1, 10, &mut errors), 1);
        assert!(errors.contains_key("page"));
    }

    #[test]
    fn pages_round_up() {
        assert_eq!(Pagination::new(1, 10, 0).pages, 0);
        assert_eq!(Pagination::new(1, 10, 10).pages, 1);
        assert_eq!(Pagination::new(2, 10, 11).pages, 2);
        assert_eq!(Pagination::new(3, 20, 100).offset(), 40);
    }

    #[test]
    fn counts_past_the_cap_say_so() {
        assert_eq!(Counted::from_limited(COUNT_CAP), Counted::exact(COUNT_CAP));
        let over = Counted::from_limited(COUNT_CAP + 1);
        assert_eq!((over.total, over.capped), (COUNT_CAP, true));
        let p = Pagination::counted(1, 20, over);
        assert_eq!((p.total, p.pages, p.capped), (10_000, 500, true));
        assert!(!Pagination::new(1, 20, 5).capped);
    }
}
