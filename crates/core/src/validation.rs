//! Helpers that turn `validator` results into the API's field-error map, and
//! small reusable rules.

use crate::FieldErrors;
use validator::{ValidationError, ValidationErrors};

/// Flattens `validator`'s errors into `{field: [messages]}`, using each rule's
/// message (every rule in this codebase carries one).
pub fn field_errors(errors: &ValidationErrors) -> FieldErrors {
    let mut out = FieldErrors::new();
    for (field, errs) in errors.field_errors() {
        let messages = errs
            .iter()
            .map(|e| {
                e.message
                    .as_ref()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| format!("{field} is invalid"))
            })
            .collect();
        out.insert(field.to_string(), messages);
    }
    out
}

/// The first message of a field-error map, used as the response's `message`.
pub fn first_message(errors: &FieldErrors) -> String {
    errors
        .values()
        .flat_map(|v| v.iter())
        .next()
        .cloned()
        .unwrap_or_else(|| "The request is invalid".to_string())
}

/// Rejects strings that are empty once trimmed.
pub fn not_blank(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() {
        return Err(ValidationError::new("blank"));
    }
    Ok(())
}

/// A phone number as the register form sends it: a `+` country code and the
/// number, digits with optional spaces, dashes or parentheses, 6 to 15 digits.
/// The longest phone number, spaces and punctuation included.
pub const PHONE_MAX: usize = 32;

pub fn phone(value: &str) -> Result<(), ValidationError> {
    let v = value.trim();
    let allowed = v
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '(' | ')'));
    let digits = v.chars().filter(char::is_ascii_digit).count();
    let plus_ok = v.rfind('+').is_none_or(|i| i == 0);
    // At most 32 characters as sent: what an account's phone column holds.
    if allowed && plus_ok && (6..=15).contains(&digits) && value.chars().count() <= PHONE_MAX {
        Ok(())
    } else {
        Err(ValidationError::new("phone"))
    }
}

/// A phone number as accounts store it, in E.164 (`+919876543210`), or
/// `None` when it is not one. Spaces, dashes and parentheses are dropped. A
/// number with `+` keeps its country code (7 to 15 digits, the first not 0);
/// one without is read as Indian: a 10-digit mobile number (starting 6 to
/// 9), alone, after a trunk 0, or after 91.
pub fn phone_e164(value: &str) -> Option<String> {
    let v = value.trim();
    if v.chars().count() > PHONE_MAX
        || !v
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '(' | ')'))
        || v.rfind('+').is_some_and(|i| i != 0)
    {
        return None;
    }
    let digits: String = v.chars().filter(char::is_ascii_digit).collect();
    let indian = |national: &str| {
        (national.len() == 10 && matches!(national.as_bytes()[0], b'6'..=b'9'))
            .then(|| format!("+91{national}"))
    };
    if v.starts_with('+') {
        if (7..=15).contains(&digits.len()) && !digits.starts_with('0') {
            // An Indian number is checked as one.
            return match digits.strip_prefix("91") {
                Some(national) if digits.len() == 12 => indian(national),
                _ => Some(format!("+{digits}")),
            };
        }
        return None;
    }
    match digits.len() {
        10 => indian(&digits),
        11 => digits.strip_prefix('0').and_then(indian),
        12 => digits.strip_prefix("91").and_then(indian),
        _ => None,
    }
}

/// A client-made id (the widget's visitor and session ids): 8 to 64 ASCII
/// letters, digits, `-` or `_`.
pub fn client_token(value: &str) -> bool {
    (8..=64).contains(&value.len())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Reads an optional date and time: null, left out or an empty string (a
/// cleared form field) are none; anything else must be RFC 3339, such as
/// `2026-12-31T23:59:59Z`.
pub fn optional_datetime<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, D::Error> {
    use serde::Deserialize as _;
    use serde::de::Error as _;
    let raw: Option<String> = Option::deserialize(d)?;
    match raw.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => chrono::DateTime::parse_from_rfc3339(v)
            .map(|at| Some(at.with_timezone(&chrono::Utc)))
            .map_err(|_| {
                D::Error::custom("a date and time such as 2026-12-31T23:59:59Z was expected")
            }),
    }
}

/// Reads one of a set of values (an enum) leniently: a value the enum does
/// not name, or one of another JSON type, reads as none, so the caller can
/// answer with a field error that names the allowed values instead of a
/// generic "malformed JSON".
pub fn lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::Deserialize as _;
    let raw = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(raw).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_enums_read_unknown_values_as_none() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum Kind {
            Pageview,
        }
        #[derive(serde::Deserialize)]
        struct In {
            #[serde(default, deserialize_with = "lenient")]
            kind: Option<Kind>,
        }
        let read = |json: &str| serde_json::from_str::<In>(json).expect("json").kind;
        assert_eq!(read(r#"{"kind":"pageview"}"#), Some(Kind::Pageview));
        assert_eq!(read(r#"{"kind":"click"}"#), None);
        assert_eq!(read(r#"{"kind":7}"#), None);
        assert_eq!(read("{}"), None);
    }

    #[test]
    fn phone_rules() {
        assert!(phone("+91 9876543210").is_ok());
        assert!(phone("+1 (415) 555-0100").is_ok());
        assert!(phone("+91 98765 43210 - - - - - - - - - -").is_err());
        assert!(phone("12345").is_err());
        assert!(phone("+91 98765abc10").is_err());
        assert!(phone("91+9876543210").is_err());
        assert!(phone("+91 1234567890123456").is_err());
    }

    #[test]
    fn blank_rule() {
        assert!(not_blank("  ").is_err());
        assert!(not_blank(" a ").is_ok());
    }

    #[test]
    fn client_tokens() {
        assert!(client_token("v_0123abcd"));
        assert!(!client_token("short"));
        assert!(!client_token("has space here"));
        assert!(!client_token(&"a".repeat(65)));
    }
}

#[cfg(test)]
mod datetime_tests {
    #[derive(serde::Deserialize)]
    struct In {
        #[serde(default, deserialize_with = "super::optional_datetime")]
        at: Option<chrono::DateTime<chrono::Utc>>,
    }

    #[test]
    fn empty_dates_are_none_and_bad_ones_say_what_was_expected() {
        let read = |j: &str| serde_json::from_str::<In>(j).map(|i| i.at.map(|a| a.to_rfc3339()));
        assert_eq!(read(r#"{}"#).expect("absent"), None);
        assert_eq!(read(r#"{"at": null}"#).expect("null"), None);
        assert_eq!(read(r#"{"at": " "}"#).expect("blank"), None);
        assert_eq!(
            read(r#"{"at": "2026-12-31T23:59:59+05:30"}"#).expect("date"),
            Some("2026-12-31T18:29:59+00:00".into())
        );
        let err = read(r#"{"at": "tomorrow"}"#).expect_err("not a date");
        assert!(
            err.to_string()
                .contains("a date and time such as 2026-12-31T23:59:59Z was expected"),
            "{err}"
        );
    }
}
