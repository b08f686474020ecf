//! Field rules with the messages the dashboard shows.

use validator::{ValidateEmail, ValidationError};

fn error(code: &'static str, message: &'static str) -> ValidationError {
    ValidationError::new(code).with_message(message.into())
}

pub const PASSWORD_MIN: usize = 6;
pub const PASSWORD_MAX: usize = 128;

pub fn name(value: &str) -> Result<(), ValidationError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(error("required", "Name is required"));
    }
    if v.chars().count() > 100 {
        return Err(error("length", "Name must be at most 100 characters long"));
    }
    // The name goes into the account's emails: a line break in it could pass
    // for the platform's own text.
    if v.chars().any(char::is_control) {
        return Err(error("format", "Name must be on one line"));
    }
    Ok(())
}

pub fn email(value: &str) -> Result<(), ValidationError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(error("required", "Email is required"));
    }
    if v.len() > 254 || !v.validate_email() {
        return Err(error("email", "Please enter a valid email address"));
    }
    Ok(())
}

pub fn password(value: &str) -> Result<(), ValidationError> {
    let n = value.chars().count();
    if n < PASSWORD_MIN {
        return Err(error(
            "length",
            "Password must be at least 6 characters long",
        ));
    }
    if n > PASSWORD_MAX {
        return Err(error(
            "length",
            "Password must be at most 128 characters long",
        ));
    }
    Ok(())
}

/// The message for a phone number [`e164`] cannot read.
pub const PHONE_INVALID: &str = "Please enter a valid phone number";

/// A phone number as accounts store it, in E.164 (`+919876543210`), or
/// `None` when it is not one (see [`ca_core::validation::phone_e164`]).
pub fn e164(value: &str) -> Option<String> {
    ca_core::validation::phone_e164(value)
}

pub fn phone(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() {
        return Err(error("required", "Phone number is required"));
    }
    e164(value)
        .map(|_| ())
        .ok_or_else(|| error("phone", PHONE_INVALID))
}

/// `value` as stored: empty stays empty, anything else in E.164 (checked
/// beforehand with [`phone`]; a number that is not one is kept as typed).
pub fn stored_phone(value: &str) -> String {
    let v = value.trim();
    if v.is_empty() {
        return String::new();
    }
    e164(v).unwrap_or_else(|| v.to_string())
}

pub fn optional_name(value: &str) -> Result<(), ValidationError> {
    name(value)
}

pub fn optional_phone(value: &str) -> Result<(), ValidationError> {
    phone(value)
}

#[cfg(test)]
mod name_tests {
    use super::name;

    #[test]
    fn a_name_is_one_line() {
        assert!(name("Ravi Kumar").is_ok());
        assert!(name("  Ravi Kumar  ").is_ok());
        for bad in [
            "Ravi\nKumar",
            "Ravi\r\n\nYour account is locked",
            "Ravi\u{1b}[2J",
            "Ravi\tKumar",
        ] {
            let err = name(bad).expect_err(bad);
            assert_eq!(
                err.message.as_deref(),
                Some("Name must be on one line"),
                "{bad:?}"
            );
        }
    }
}

#[cfg(test)]
mod phone_tests {
    use super::e164;

    #[test]
    fn phones_are_stored_in_e164() {
        for (typed, stored) in [
            ("9876543210", "+919876543210"),
            ("+91 98765 43210", "+919876543210"),
            ("+91-9876543210", "+919876543210"),
            ("09876543210", "+919876543210"),
            ("919876543210", "+919876543210"),
            ("+44 7700 900123", "+447700900123"),
            ("+1 (415) 555-0100", "+14155550100"),
        ] {
            assert_eq!(e164(typed).as_deref(), Some(stored), "{typed}");
        }
        for bad in [
            "abc",
            "",
            "12",
            "1234567890",
            "+91 12345 67890",
            "98765+43210",
            "+0123456789",
            "+1234567890123456",
            "5876543210",
        ] {
            assert_eq!(e164(bad), None, "{bad}");
        }
    }
}
