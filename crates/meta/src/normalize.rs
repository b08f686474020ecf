//! Meta's rules for customer information: normalise, then SHA-256 (lowercase
//! hex). A value that already is a 64-hex SHA-256 (or 32-hex MD5) passes
//! through. Checked against vectors from Meta's own `facebook-business`
//! normaliser.

use sha2::{Digest, Sha256};

fn is_hashed(v: &str) -> bool {
    matches!(v.len(), 32 | 64) && v.chars().all(|c| c.is_ascii_hexdigit())
}

/// SHA-256 of `v`, lowercase hex.
pub fn sha256(v: &str) -> String {
    hex::encode(Sha256::digest(v.as_bytes()))
}

/// The normalised form of `value` for the field `field` (`em`, `ph`, `fn`,
/// `ln`, `ct`, `st`, `zp`, `country`, `external_id`), or `None` when it is
/// empty or not valid for the field.
pub fn normalize(field: &str, value: &str) -> Option<String> {
    let v = value.trim().to_lowercase();
    if v.is_empty() {
        return None;
    }
    if is_hashed(&v) {
        return Some(v);
    }
    match field {
        "em" => {
            let (local, domain) = v.split_once('@')?;
            (!local.is_empty() && domain.contains('.') && !domain.ends_with('.')).then_some(v)
        }
        "ph" => {
            let cleaned: String = v
                .chars()
                .filter(|c| !matches!(c, ' ' | '-' | '(' | ')') && !c.is_whitespace())
                .collect();
            let cleaned = cleaned.strip_prefix('+').unwrap_or(&cleaned);
            let mut digits = cleaned;
            for _ in 0..2 {
                digits = digits.strip_prefix('0').unwrap_or(digits);
            }
            if digits.starts_with('0')
                || digits.len() < 7
                || !digits.chars().all(|c| c.is_ascii_digit())
            {
                return None;
            }
            Some(digits.to_string())
        }
        "ct" | "st" => {
            let out: String = v
                .chars()
                .filter(|c| {
                    !(c.is_ascii_digit() || c.is_whitespace() || matches!(c, '.' | '-' | '(' | ')'))
                })
                .collect();
            (!out.is_empty()).then_some(out)
        }
        "zp" => {
            let no_space: String = v.chars().filter(|c| !c.is_whitespace()).collect();
            let first = no_space.split('-').next().unwrap_or_default().to_string();
            (!first.is_empty()).then_some(first)
        }
        "country" => {
            let out: String = v.chars().filter(char::is_ascii_alphabetic).collect();
            (out.len() == 2).then_some(out)
        }
        _ => Some(v),
    }
}

/// An Indian number without a country code (10 digits, maybe a leading 0)
/// gets +91, the product's home country; others are kept as they are.
pub fn with_country_code(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let trimmed = phone.trim();
    if trimmed.starts_with('+') || trimmed.starts_with("00") {
        return trimmed.to_string();
    }
    let local = digits.strip_prefix('0').unwrap_or(&digits);
    if local.len() == 10 {
        format!("+91{local}")
    } else {
        trimmed.to_string()
    }
}

/// A stand-in number, not anyone's phone: its national part (the last ten
/// digits) is one digit repeated, like the `9999999999` a payment page is
/// given for a buyer without a phone.
pub fn is_placeholder_phone(phone: &str) -> bool {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    let national = &digits[digits.len().saturating_sub(10)..];
    national.len() < 7 || national.iter().all(|d| *d == national[0])
}

/// The hashed value Meta expects for `field`, or `None`.
pub fn hashed(field: &str, value: &str) -> Option<String> {
    normalize(field, value).map(|v| if is_hashed(&v) { v } else { sha256(&v) })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vectors computed once with Meta's `facebook-business` (Python,
    // `facebook_business.adobjects.serverside.normalize.Normalize.normalize_field`).
    #[test]
    fn matches_metas_normaliser() {
        let cases = [
            (
                "em",
                "  Meera.Iyer@Example.IN ",
                "eb430734f00d2bba7875e9a0df11c95c3271530d6c223b60cea69066c2007f6d",
            ),
            (
                "ph",
                "+91 98765-43210",
                "92b5072176e723878b5e06ff3ca61898e4eb74e8c46642a0f2db800b17364ab0",
            ),
            (
                "ph",
                "0091 98765 43210",
                "92b5072176e723878b5e06ff3ca61898e4eb74e8c46642a0f2db800b17364ab0",
            ),
            (
                "ph",
                "+91 (022) 2345-6789",
                "4d2b853bed00be708c235096fdf8694004d5d05458f669845360caf8aa319f06",
            ),
            (
                "fn",
                "  Meera ",
                "177b773d483d3fe541cd127ca95b62d7099e80651206c6ab7d6aa63eaa3bdc2c",
            ),
            (
                "ln",
                "IYER",
                "4b5abd746e2bea3498a7f3e213358fdb11cceec5846736fcec6dc61cb6c708b0",
            ),
            (
                "ct",
                "Navi Mumbai-2.",
                "1ed73e4d2a1038165b53fbd867d27ff0048e9e3abc211fccc3be3b5028957183",
            ),
            (
                "st",
                "Tamil Nadu",
                "ed611cd98ffaf965fa7986a13aca6ec570b7b0e80f14c67d8cad09dbfbb3694f",
            ),
            (
                "zp",
                "400 001",
                "a5bc8dcde81ed9dbad6edf4f14b3b8e1201702eaa27ab7f8cb708ffe7f49ddc9",
            ),
            (
                "zp",
                "560001-1234",
                "46fd88b706823ba8207001fbac1e4bed13a40364452be4095c221ee0f74b7ad9",
            ),
            (
                "country",
                "IN",
                "582967534d0f909d196b97f9e6921342777aea87b46fa52df165389db1fb8ccf",
            ),
            (
                "external_id",
                " User-42 ",
                "6d894aa3ee802549d7f340e7c1cf0d1c1cb14cd84f768d92ffaa6785337c4997",
            ),
            (
                "em",
                "B9678F097A1FBE1A2A33340363CBE255500D2B2F7B78B2CC783A6E933C0BE3F1",
                "b9678f097a1fbe1a2a33340363cbe255500d2b2f7b78b2cc783a6e933c0be3f1",
            ),
        ];
        for (field, input, expected) in cases {
            assert_eq!(
                hashed(field, input).as_deref(),
                Some(expected),
                "{field} {input:?}"
            );
        }
    }

    #[test]
    fn invalid_values_are_left_out() {
        assert_eq!(hashed("em", "not-an-email"), None);
        assert_eq!(hashed("ph", "0"), None);
        assert_eq!(hashed("country", "India"), None);
        assert_eq!(hashed("fn", "   "), None);
    }

    #[test]
    fn placeholder_numbers_are_recognised() {
        assert!(is_placeholder_phone("9999999999"));
        assert!(is_placeholder_phone("+91 99999 99999"));
        assert!(is_placeholder_phone("0000000000"));
        assert!(is_placeholder_phone(""));
        assert!(!is_placeholder_phone("+91 98765-43210"));
        assert!(!is_placeholder_phone("9876543210"));
    }

    #[test]
    fn indian_numbers_get_their_country_code() {
        assert_eq!(with_country_code("98765 43210"), "+919876543210");
        assert_eq!(with_country_code("098765-43210"), "+919876543210");
        assert_eq!(with_country_code("+44 20 7946 0958"), "+44 20 7946 0958");
    }
}
