//! Substring search in text columns.

use sea_orm::DbBackend;
use sea_orm::sea_query::{Condition, Expr, ExprTrait, Func, LikeExpr, SimpleExpr};

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

/// The most non-ASCII letters of a term whose other case is tried on
/// SQLite (2^6 = 64 spellings); letters past them are looked for lower-cased.
const VARIED_LETTERS: usize = 6;

/// The spellings of `term` (lower-cased) that differ only in the case of its
/// non-ASCII letters: SQLite's `LIKE` ignores the case of ASCII letters only,
/// so "é" must also be looked for as "É".
pub fn case_variants(term: &str) -> Vec<String> {
    let mut variants = vec![String::new()];
    let mut varied = 0;
    for c in term.to_lowercase().chars() {
        let upper: String = c.to_uppercase().collect();
        let forms: Vec<String> =
            if c.is_ascii() || upper == c.to_string() || varied == VARIED_LETTERS {
                vec![c.to_string()]
            } else {
                varied += 1;
                vec![c.to_string(), upper]
            };
        variants = variants
            .iter()
            .flat_map(|v| forms.iter().map(move |f| format!("{v}{f}")))
            .collect();
    }
    variants
}

/// `column` holds `term`, whatever the case of either, with Unicode rules on
/// both databases: PostgreSQL lower-cases both sides; on SQLite, whose
/// `lower()` and `LIKE` fold ASCII letters only, each spelling of the term's
/// non-ASCII letters is tried ([`case_variants`]).
pub fn contains_any_case(backend: DbBackend, column: SimpleExpr, term: &str) -> Condition {
    match backend {
        DbBackend::Sqlite => case_variants(term).iter().fold(Condition::any(), |any, v| {
            any.add(column.clone().like(contains(v)))
        }),
        _ => Condition::any()
            .add(Expr::expr(Func::lower(column)).like(contains(&term.to_lowercase()))),
    }
}

/// `term` as a quoted SQLite FTS5 phrase: with the `trigram` tokenizer it
/// matches exactly the texts that hold `term` (case-folded).
pub fn fts_phrase(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

/// On SQLite, how many of an owner's rows an FTS5 `index` matches for `term`,
/// counted up to [`crate::paging::COUNT_CAP`] (and one more, to tell the
/// count was capped). `keys` maps each index row (`rid`) to its owner
/// (`owner_id`), so no searched row is read and the matches stream from the
/// index until the cap. Both names come from the owning crate, never from
/// input.
pub async fn fts_count_capped<C: sea_orm::ConnectionTrait>(
    conn: &C,
    index: &'static str,
    keys: &'static str,
    owner_id: &str,
    term: &str,
) -> Result<crate::paging::Counted, sea_orm::DbErr> {
    let row = conn
        .query_one_raw(sea_orm::Statement::from_sql_and_values(
            conn.get_database_backend(),
            format!(
                "SELECT COUNT(*) AS n FROM (SELECT 1 FROM {index} \
                 CROSS JOIN {keys} k ON k.rid = {index}.rowid \
                 WHERE {index} MATCH ? AND k.owner_id = ? LIMIT {})",
                crate::paging::COUNT_CAP + 1
            ),
            [fts_phrase(term).into(), owner_id.into()],
        ))
        .await?;
    let n: i64 = row.map_or(Ok(0), |r| r.try_get("", "n"))?;
    Ok(crate::paging::Counted::from_limited(
        u64::try_from(n).unwrap_or(0),
    ))
}

/// The searchable text of a JSON object of collected values: the string
/// values only (no keys or JSON punctuation), lower-cased with Unicode
/// rules, one per line so a term never matches across two values.
pub fn values_text(json: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::Object(map)) => map
            .values()
            .filter_map(|v| v.as_str())
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_text_keeps_values_only() {
        assert_eq!(
            values_text(r#"{"email":"Asha@Example.in","name":"ÉLODIE Ñ","n":3}"#),
            "asha@example.in\nélodie ñ"
        );
        assert_eq!(values_text("not json"), "");
    }

    #[test]
    fn fts_phrases_quote_quotes() {
        assert_eq!(fts_phrase("mehta"), "\"mehta\"");
        assert_eq!(fts_phrase("a\"b"), "\"a\"\"b\"");
    }

    #[test]
    fn case_variants_vary_non_ascii_letters_only() {
        assert_eq!(case_variants("Ab"), vec!["ab"]);
        assert_eq!(case_variants("É"), vec!["é", "É"]);
        assert_eq!(case_variants("zoë"), vec!["zoë", "zoË"]);
        assert_eq!(case_variants("ñé"), vec!["ñé", "ñÉ", "Ñé", "ÑÉ"]);
        // Scripts without case have one spelling.
        assert_eq!(case_variants("नम"), vec!["नम"]);
        // Past six varied letters the rest are looked for lower-cased.
        assert_eq!(case_variants("ελένηελένη").len(), 64);
    }

    #[test]
    fn wildcards_are_taken_literally() {
        assert_eq!(contains_pattern("ab"), "%ab%");
        assert_eq!(contains_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
