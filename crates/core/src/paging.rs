//! Pages of a list: the `page`/`limit` query numbers and the `pagination`
//! object every list answer carries.

use serde::Serialize;
use utoipa::ToSchema;

use crate::FieldErrors;

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
}

impl Pagination {
    /// Page `page` of `total` items, `limit` a page.
    pub fn new(page: u64, limit: u64, total: u64) -> Self {
        Self {
            page,
            limit,
            total,
            pages: total.div_ceil(limit.max(1)),
        }
    }

    /// How many items come before this page.
    pub fn offset(&self) -> u64 {
        (self.page.saturating_sub(1)).saturating_mul(self.limit)
    }
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
}
