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

pub fn phone(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() {
        return Err(error("required", "Phone number is required"));
    }
    ca_core::validation::phone(value)
        .map_err(|_| error("phone", "Please enter a valid phone number"))
}

pub fn optional_name(value: &str) -> Result<(), ValidationError> {
    name(value)
}

pub fn optional_phone(value: &str) -> Result<(), ValidationError> {
    phone(value)
}
