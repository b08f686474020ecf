//! CSV exports that a spreadsheet opens safely.

/// A cell a spreadsheet will not run: a leading `=`, `+`, `-`, `@`, tab or
/// carriage return gets a `'` in front.
pub fn safe_cell(value: &str) -> String {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{value}"),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("+91 98290"), "'+91 98290");
        assert_eq!(safe_cell("-2+3"), "'-2+3");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("\t=1"), "'\t=1");
        assert_eq!(safe_cell("meera@kesar.in"), "meera@kesar.in");
        assert_eq!(safe_cell(""), "");
    }
}
