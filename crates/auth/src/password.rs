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

/// Hashes a password into a PHC string. The work (tens of milliseconds of
/// CPU) runs on the blocking pool, so the thread answering other requests
/// (widget configurations, events) is never held up by sign-ins.
pub async fn hash(password: &str) -> Result<String, AuthError> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        hasher()?
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AuthError::internal(format!("argon2 hash: {e}")))
    })
    .await
    .map_err(|e| AuthError::internal(format!("argon2 hash: {e}")))?
}

/// Whether `password` matches the stored PHC string (on the blocking pool,
/// as [`hash`]).
pub async fn verify(password: &str, stored: &str) -> bool {
    let (password, stored) = (password.to_string(), stored.to_string());
    tokio::task::spawn_blocking(move || {
        let Ok(parsed) = PasswordHash::new(&stored) else {
            return false;
        };
        hasher()
            .map(|h| h.verify_password(password.as_bytes(), &parsed).is_ok())
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

/// Spends the time of one verification, so that an unknown email takes as long
/// to refuse as a wrong password.
pub async fn burn_time(password: &str) {
    const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$J0mSXBo3kT4v9d2cZ0Yg3l0h6j5QpYw9s3m2bYgq0xY";
    let _ = verify(password, DUMMY).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hash_and_verify() {
        let h = hash("s3cret-pass").await.expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify("s3cret-pass", &h).await);
        assert!(!verify("wrong", &h).await);
        assert!(!verify("s3cret-pass", "not a hash").await);
    }

    /// On a single-threaded runtime (as each of the server's worker threads
    /// is), other work goes on while a password is hashed or checked: the
    /// task below runs before the hash is done, not after.
    #[tokio::test(flavor = "current_thread")]
    async fn other_requests_go_on_while_a_password_is_hashed() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let ran = Arc::new(AtomicUsize::new(0));
        let other = ran.clone();
        tokio::spawn(async move {
            other.fetch_add(1, Ordering::SeqCst);
        });
        let h = hash("s3cret-pass").await.expect("hash");
        assert_eq!(ran.load(Ordering::SeqCst), 1, "held up by hashing");
        let other = ran.clone();
        tokio::spawn(async move {
            other.fetch_add(1, Ordering::SeqCst);
        });
        assert!(verify("s3cret-pass", &h).await);
        assert_eq!(ran.load(Ordering::SeqCst), 2, "held up by checking");
    }
}
