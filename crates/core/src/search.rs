//! Substring search in text columns.

use sea_orm::sea_query::LikeExpr;

/// `%term%` with the LIKE wildcards in `term` escaped by a backslash, so a
/// visitor's `%` or `_` is looked for as typed.
pub fn contains_pattern(term: &str) -> String {
    let escaped: String = term
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            other => vec![other],
        })
        .collect();
    format!("%{escaped}%")
}

/// A LIKE that matches text containing `term` (see [`contains_pattern`]).
pub fn contains(term: &str) -> LikeExpr {
    LikeExpr::new(contains_pattern(term)).escape('\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_are_taken_literally() {
        assert_eq!(contains_pattern("ab"), "%ab%");
        assert_eq!(contains_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
