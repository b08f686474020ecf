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

/// `term` as a quoted SQLite FTS5 phrase: with the `trigram` tokenizer it
/// matches exactly the texts that hold `term` (case-folded).
pub fn fts_phrase(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
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
    fn wildcards_are_taken_literally() {
        assert_eq!(contains_pattern("ab"), "%ab%");
        assert_eq!(contains_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
