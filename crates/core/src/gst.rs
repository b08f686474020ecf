//! India's GST facts the invoices need: the states and union territories
//! with their GST state codes, and checking a GSTIN (its format, its check
//! character, and the state it was issued in).

/// A state or union territory and its GST state code (the first two digits
/// of every GSTIN registered there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub code: &'static str,
    pub name: &'static str,
}

/// The states and union territories a buyer or seller can be in, by GST
/// state code. Codes no longer issued (25 Daman and Diu, merged into 26;
/// 28, the undivided Andhra Pradesh) are not offered.
pub const STATES: &[State] = &[
    State {
        code: "01",
        name: "Jammu and Kashmir",
    },
    State {
        code: "02",
        name: "Himachal Pradesh",
    },
    State {
        code: "03",
        name: "Punjab",
    },
    State {
        code: "04",
        name: "Chandigarh",
    },
    State {
        code: "05",
        name: "Uttarakhand",
    },
    State {
        code: "06",
        name: "Haryana",
    },
    State {
        code: "07",
        name: "Delhi",
    },
    State {
        code: "08",
        name: "Rajasthan",
    },
    State {
        code: "09",
        name: "Uttar Pradesh",
    },
    State {
        code: "10",
        name: "Bihar",
    },
    State {
        code: "11",
        name: "Sikkim",
    },
    State {
        code: "12",
        name: "Arunachal Pradesh",
    },
    State {
        code: "13",
        name: "Nagaland",
    },
    State {
        code: "14",
        name: "Manipur",
    },
    State {
        code: "15",
        name: "Mizoram",
    },
    State {
        code: "16",
        name: "Tripura",
    },
    State {
        code: "17",
        name: "Meghalaya",
    },
    State {
        code: "18",
        name: "Assam",
    },
    State {
        code: "19",
        name: "West Bengal",
    },
    State {
        code: "20",
        name: "Jharkhand",
    },
    State {
        code: "21",
        name: "Odisha",
    },
    State {
        code: "22",
        name: "Chhattisgarh",
    },
    State {
        code: "23",
        name: "Madhya Pradesh",
    },
    State {
        code: "24",
        name: "Gujarat",
    },
    State {
        code: "26",
        name: "Dadra and Nagar Haveli and Daman and Diu",
    },
    State {
        code: "27",
        name: "Maharashtra",
    },
    State {
        code: "29",
        name: "Karnataka",
    },
    State {
        code: "30",
        name: "Goa",
    },
    State {
        code: "31",
        name: "Lakshadweep",
    },
    State {
        code: "32",
        name: "Kerala",
    },
    State {
        code: "33",
        name: "Tamil Nadu",
    },
    State {
        code: "34",
        name: "Puducherry",
    },
    State {
        code: "35",
        name: "Andaman and Nicobar Islands",
    },
    State {
        code: "36",
        name: "Telangana",
    },
    State {
        code: "37",
        name: "Andhra Pradesh",
    },
    State {
        code: "38",
        name: "Ladakh",
    },
    State {
        code: "97",
        name: "Other Territory",
    },
];

/// The state with GST code `code` (`"29"`; `"9"` is read as `"09"`).
pub fn state(code: &str) -> Option<&'static State> {
    let code = code.trim();
    let code = if code.len() == 1 {
        format!("0{code}")
    } else {
        code.to_string()
    };
    STATES.iter().find(|s| s.code == code)
}

/// The state named by `text`: its GST code or its name (any case).
pub fn find_state(text: &str) -> Option<&'static State> {
    let text = text.trim();
    state(text).or_else(|| STATES.iter().find(|s| s.name.eq_ignore_ascii_case(text)))
}

const ALPHABET: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The check character of the first 14 characters of a GSTIN: each
/// character's value (0–9, then A–Z as 10–35) is multiplied by 1 and 2 in
/// turn, each product's base-36 digits are added up, and the check character
/// is the one that brings the sum to a multiple of 36.
pub fn gstin_check_char(first14: &str) -> Option<char> {
    let mut sum = 0u32;
    for (i, c) in first14.bytes().enumerate() {
        let value = ALPHABET.iter().position(|&a| a == c)? as u32;
        let product = value * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    Some(ALPHABET[((36 - sum % 36) % 36) as usize] as char)
}

/// Why a GSTIN was refused, in words for the person who typed it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GstinError {
    #[error(
        "A GSTIN has 15 characters: the 2-digit state code, the 10-character PAN, the entity number, Z and a check character (e.g. 29ABCDE1234F1Z5)"
    )]
    Format,
    #[error("This GSTIN's check character is wrong; please check it for a typing mistake")]
    CheckDigit,
    #[error("This GSTIN starts with {0}, which is not a GST state code")]
    UnknownState(String),
    #[error("This GSTIN is registered in {gstin_state} (code {gstin_code}), not in {state}")]
    StateMismatch {
        gstin_code: String,
        gstin_state: String,
        state: String,
    },
}

/// Checks `text` as a GSTIN and answers it upper-cased without spaces.
pub fn check_gstin(text: &str) -> Result<String, GstinError> {
    let gstin: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let b = gstin.as_bytes();
    let well_formed = b.len() == 15
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[2..7].iter().all(u8::is_ascii_uppercase)
        && b[7..11].iter().all(u8::is_ascii_digit)
        && b[11].is_ascii_uppercase()
        && (b[12].is_ascii_uppercase() || (b'1'..=b'9').contains(&b[12]))
        && b[13] == b'Z'
        && (b[14].is_ascii_uppercase() || b[14].is_ascii_digit());
    if !well_formed {
        return Err(GstinError::Format);
    }
    if state(&gstin[..2]).is_none() {
        return Err(GstinError::UnknownState(gstin[..2].to_string()));
    }
    if gstin_check_char(&gstin[..14]) != Some(b[14] as char) {
        return Err(GstinError::CheckDigit);
    }
    Ok(gstin)
}

/// Checks that the GSTIN `gstin` (already checked) was issued in the state `code`.
pub fn check_gstin_state(gstin: &str, code: &str) -> Result<(), GstinError> {
    let own = &gstin[..2];
    if own == code {
        return Ok(());
    }
    let name = |c: &str| state(c).map_or_else(|| c.to_string(), |s| s.name.to_string());
    Err(GstinError::StateMismatch {
        gstin_code: own.to_string(),
        gstin_state: name(own),
        state: name(code),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_gstins_pass_their_check_character() {
        for g in ["27AAPFU0939F1ZV", "29AAGCB7383J1Z4", "24AAACC1206D1ZM"] {
            assert_eq!(check_gstin(g).as_deref(), Ok(g));
        }
        assert_eq!(
            check_gstin(" 27aapfu0939f1zv ").as_deref(),
            Ok("27AAPFU0939F1ZV")
        );
    }

    #[test]
    fn typos_and_bad_shapes_are_refused() {
        assert_eq!(check_gstin("27AAPFU0939F1ZW"), Err(GstinError::CheckDigit));
        assert_eq!(check_gstin("27AAPFU0939F1Z"), Err(GstinError::Format));
        assert_eq!(check_gstin("27AAPFU0939F1XV"), Err(GstinError::Format));
        assert_eq!(check_gstin("271234567890123"), Err(GstinError::Format));
        assert_eq!(
            check_gstin("99AAPFU0939F1ZV"),
            Err(GstinError::UnknownState("99".into()))
        );
        assert!(matches!(
            check_gstin_state("27AAPFU0939F1ZV", "29"),
            Err(GstinError::StateMismatch { .. })
        ));
        assert_eq!(check_gstin_state("27AAPFU0939F1ZV", "27"), Ok(()));
    }

    #[test]
    fn states_by_code_or_name() {
        assert_eq!(state("9").map(|s| s.name), Some("Uttar Pradesh"));
        assert_eq!(find_state("karnataka").map(|s| s.code), Some("29"));
        assert_eq!(find_state("29").map(|s| s.name), Some("Karnataka"));
        assert!(find_state("28").is_none());
    }
}
