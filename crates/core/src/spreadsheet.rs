//! CSV exports that a spreadsheet opens safely.

/// A cell a spreadsheet will not run: a leading `=`, `+`, `-`, `@`, tab or
/// carriage return gets a `'` in front, except a phone number (see
/// [`is_phone_number`]), which a spreadsheet shows as it is.
pub fn safe_cell(value: &str) -> String {
    if needs_guard(value) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

/// Whether `value` starts like a formula and so needs the leading `'`.
pub fn needs_guard(value: &str) -> bool {
    match value.chars().next() {
        Some('+') => !is_phone_number(value),
        Some('=' | '-' | '@' | '\t' | '\r') => true,
        _ => false,
    }
}

/// A phone number in international form: `+`, a digit, then only digits,
/// spaces, hyphens, dots and brackets (`+91 98290 12345`, `+1 (415) 555-0100`).
/// Nothing in it can call a function or reach another cell.
pub fn is_phone_number(value: &str) -> bool {
    let mut chars = value.chars();
    chars.next() == Some('+')
        && chars.next().is_some_and(|c| c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised() {
        assert_eq!(safe_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe_cell("+SUM(A1)"), "'+SUM(A1)");
        assert_eq!(safe_cell("+ 1"), "'+ 1");
        assert_eq!(safe_cell("+1+cmd|' /C calc'!A0"), "'+1+cmd|' /C calc'!A0");
        assert_eq!(safe_cell("+1*A1"), "'+1*A1");
        assert_eq!(safe_cell("-2+3"), "'-2+3");
        assert_eq!(safe_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe_cell("\t=1"), "'\t=1");
        assert_eq!(safe_cell("meera@kesar.in"), "meera@kesar.in");
        assert_eq!(safe_cell(""), "");
    }

    #[test]
    fn phone_numbers_are_written_as_they_are() {
        assert_eq!(safe_cell("+91 98290 12345"), "+91 98290 12345");
        assert_eq!(safe_cell("+919829012345"), "+919829012345");
        assert_eq!(safe_cell("+1 (415) 555-0100"), "+1 (415) 555-0100");
        assert_eq!(safe_cell("+44.20.7946.0958"), "+44.20.7946.0958");
        assert!(!needs_guard("98290 12345"));
        assert!(needs_guard("-98290"));
    }
}
