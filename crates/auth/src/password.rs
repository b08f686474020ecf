//! argon2id password hashing with the parameters of the architecture doc
//! (m = 19456 KiB, t = 2, p = 1).

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::AuthError;

fn hasher() -> Result<Argon2<'static>, AuthError> {
    let params = Params::new(19_456, 2, 1, None)
        .map_err(|e| AuthError::internal(format!("argon2 params: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes a password into a PHC string.
pub fn hash(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut OsRng);
    hasher()?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AuthError::internal(format!("argon2 hash: {e}")))
}

/// Whether `password` matches the stored PHC string.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    hasher()
        .map(|h| h.verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Spends the time of one verification, so that an unknown email takes as long
/// to refuse as a wrong password.
pub fn burn_time(password: &str) {
    const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$J0mSXBo3kT4v9d2cZ0Yg3l0h6j5QpYw9s3m2bYgq0xY";
    let _ = verify(password, DUMMY);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_and_verify() {
        let h = hash("s3cret-pass").expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify("s3cret-pass", &h));
        assert!(!verify("wrong", &h));
        assert!(!verify("s3cret-pass", "not a hash"));
    }
}
