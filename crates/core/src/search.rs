//! Substring search in text columns, and the search of an owner's lists
//! (customers, conversations): the term as typed, the list filters, and the
//! trigram index each database answers it from.

use sea_orm::DbBackend;
use sea_orm::sea_query::{Alias, Condition, Expr, ExprTrait, Func, LikeExpr, SimpleExpr};

use crate::FieldErrors;
use crate::paging::{Counted, count_capped};

/// The longest search term, in characters.
pub const TERM_MAX: usize = 100;

/// The shortest term the trigram indexes can look up; shorter ones scan the
/// owner's rows.
pub const INDEXED_TERM: usize = 3;

/// The search term of a list query: trimmed and lower-cased, with control
/// characters as spaces (a line break separates the fields in the search
/// indexes, so no term holds one). Blank means no search; a term over
/// [`TERM_MAX`] characters is an error under `search`.
pub fn term(raw: Option<&str>, errors: &mut FieldErrors) -> Option<String> {
    let term = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.replace(char::is_control, " ").to_lowercase());
    if term.as_ref().is_some_and(|s| s.chars().count() > TERM_MAX) {
        errors.insert(
            "search".into(),
            vec![format!("Search can be at most {TERM_MAX} characters")],
        );
    }
    term
}

/// A list filter of a query (`status=`, `outcome=`, `role=`): blank or
/// `all` means no filter.
pub fn chosen(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|s| !s.is_empty() && *s != "all")
}

/// The trigram search over one owner-scoped table. On PostgreSQL a `pg_trgm`
/// GIN index is built on `pg_text`; on SQLite an FTS5 `trigram` table
/// (`fts_index`) is keyed to the rows through `fts_keys` (`rid` → the row's
/// id in `fts_key`, with its `owner_id`). Every name comes from the owning
/// crate, never from input.
#[derive(Debug, Clone, Copy)]
pub struct Trigram {
    pub table: &'static str,
    /// The expression the PostgreSQL index is built on; the query must use
    /// exactly this text for the index to be used.
    pub pg_text: &'static str,
    pub fts_index: &'static str,
    pub fts_keys: &'static str,
    pub fts_key: &'static str,
    /// Whether rows reach the SQLite index a moment after they are written
    /// (`fts_keys.pending` is 1 until then): waiting rows are tested on
    /// their columns (`scan`) so that they are found all the same.
    pub fts_pending: bool,
}

impl Trigram {
    fn owner_is(&self, owner_id: &str) -> SimpleExpr {
        Expr::col((Alias::new(self.table), Alias::new("owner_id"))).eq(owner_id)
    }

    /// Whether `term` is long enough for the index.
    pub fn indexed(&self, backend: DbBackend, term: &str) -> bool {
        term.chars().count() >= INDEXED_TERM
            && matches!(backend, DbBackend::Postgres | DbBackend::Sqlite)
    }

    /// The owner's rows holding `term`: through the index when the term is
    /// long enough, otherwise `scan` (the crate's own test of each row's
    /// columns, owner included).
    pub fn matches(
        &self,
        backend: DbBackend,
        owner_id: &str,
        term: &str,
        scan: Condition,
    ) -> Condition {
        if !self.indexed(backend, term) {
            return scan;
        }
        match backend {
            DbBackend::Postgres => {
                Condition::all()
                    .add(self.owner_is(owner_id))
                    .add(Expr::cust_with_values(
                        format!("{} LIKE $1", self.pg_text),
                        [contains_pattern(term)],
                    ))
            }
            // A quoted FTS5 phrase of trigrams matches that exact substring,
            // case-folded. The unary `+` keeps SQLite from walking the
            // owner's index (all their rows) instead of starting from the
            // matches.
            _ => {
                let indexed = Condition::all()
                    .add(Expr::cust_with_values(
                        format!("+\"{}\".\"owner_id\" = ?", self.table),
                        [owner_id],
                    ))
                    .add(Expr::cust_with_values(
                        format!(
                            "\"{table}\".\"id\" IN (SELECT k.{key} FROM {keys} k WHERE k.owner_id = ? \
                             AND k.rid IN (SELECT rowid FROM {index} WHERE {index} MATCH ?))",
                            table = self.table,
                            key = self.fts_key,
                            keys = self.fts_keys,
                            index = self.fts_index,
                        ),
                        [owner_id.to_string(), fts_phrase(term)],
                    ));
                if !self.fts_pending {
                    return indexed;
                }
                Condition::any().add(indexed).add(
                    Condition::all()
                        .add(Expr::cust_with_values(
                            format!(
                                "\"{table}\".\"id\" IN (SELECT k.{key} FROM {keys} k \
                                 WHERE k.owner_id = ? AND k.pending = 1)",
                                table = self.table,
                                key = self.fts_key,
                                keys = self.fts_keys,
                            ),
                            [owner_id],
                        ))
                        .add(scan),
                )
            }
        }
    }

    /// Whether some of the owner's rows wait for the SQLite index.
    async fn has_pending<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        owner_id: &str,
    ) -> Result<bool, sea_orm::DbErr> {
        if !self.fts_pending {
            return Ok(false);
        }
        let row = conn
            .query_one_raw(sea_orm::Statement::from_sql_and_values(
                DbBackend::Sqlite,
                format!(
                    "SELECT EXISTS (SELECT 1 FROM {} WHERE owner_id = ? AND pending = 1) AS waiting",
                    self.fts_keys
                ),
                [owner_id.into()],
            ))
            .await?;
        row.map_or(Ok(false), |r| r.try_get::<bool>("", "waiting"))
    }

    /// The same rows as [`Self::matches`], tested one row at a time, for
    /// walking a list's sort order when many rows match (the page is found
    /// after a few rows instead of sorting every match). On PostgreSQL the
    /// expression is changed just enough that the planner walks the sort
    /// index; on SQLite each row's own columns are tested (`scan`), since
    /// probing the full-text index once per row costs far more than reading
    /// the row.
    pub fn matches_row(
        &self,
        backend: DbBackend,
        owner_id: &str,
        term: &str,
        scan: Condition,
    ) -> Condition {
        match backend {
            DbBackend::Postgres => {
                Condition::all()
                    .add(self.owner_is(owner_id))
                    .add(Expr::cust_with_values(
                        format!("({} || '') LIKE $1", self.pg_text),
                        [contains_pattern(term)],
                    ))
            }
            _ => scan,
        }
    }

    /// How many of the owner's rows holding `term` the search `query`
    /// selects, counted up to the cap. On SQLite, when no other filter
    /// narrows the search (`unfiltered`) and none of the owner's rows waits
    /// for the index, the count comes from the index alone (see
    /// [`fts_count_capped`]): no searched row is read.
    pub async fn count<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        owner_id: &str,
        term: &str,
        unfiltered: bool,
        query: sea_orm::sea_query::SelectStatement,
    ) -> Result<Counted, sea_orm::DbErr> {
        let backend = conn.get_database_backend();
        if unfiltered
            && backend == DbBackend::Sqlite
            && self.indexed(backend, term)
            && !self.has_pending(conn, owner_id).await?
        {
            fts_count_capped(conn, self.fts_index, self.fts_keys, owner_id, term).await
        } else {
            count_capped(conn, query).await
        }
    }
}

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
