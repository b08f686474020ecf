//! Session tokens: HS256 JWTs with `exp`, `iss`, `aud` and the user's token version.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::AuthError;

/// The issuer every token carries.
pub const ISSUER: &str = "convertassist";
/// The audience of dashboard session tokens.
pub const AUDIENCE: &str = "convertassist-dashboard";

/// What a session token says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// The user's token version when issued; a higher stored version revokes it.
    pub ver: i32,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    /// Who is acting: a superuser signed in as this user ("login as user").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<String>,
    /// The acting superuser's token version when issued: signing out
    /// everywhere (or any change that revokes their sessions) also ends
    /// the sessions they opened as someone else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act_ver: Option<i32>,
    /// The "login as user" session this token belongs to: ending that
    /// session (Return to admin) ends this token alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<String>,
}

/// Signing and checking keys, with the pinned algorithm.
#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: chrono::Duration,
}

impl JwtKeys {
    /// Keys for an HS256 secret; tokens live `ttl_hours`.
    pub fn new(secret: &str, ttl_hours: i64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Self {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            validation,
            ttl: chrono::Duration::hours(ttl_hours),
        }
    }

    /// A token for `user_id` at `version`, issued at `now`.
    pub fn issue(
        &self,
        user_id: &str,
        version: i32,
        now: DateTime<Utc>,
    ) -> Result<String, AuthError> {
        self.issue_acting(user_id, version, None, now)
    }

    /// A token for `user_id` used by `actor` (a superuser signed in as them,
    /// with the superuser's token version); it expires within an hour.
    pub fn issue_acting(
        &self,
        user_id: &str,
        version: i32,
        actor: Option<(&str, i32)>,
        now: DateTime<Utc>,
    ) -> Result<String, AuthError> {
        self.issue_claims(user_id, version, actor, None, now)
    }

    /// A token of the "login as user" session `session_id`: `user_id` used
    /// by `actor` (id and token version), valid at most an hour.
    pub fn issue_login_as(
        &self,
        user_id: &str,
        version: i32,
        actor: (&str, i32),
        session_id: &str,
        now: DateTime<Utc>,
    ) -> Result<String, AuthError> {
        self.issue_claims(user_id, version, Some(actor), Some(session_id), now)
    }

    /// When a token issued at `now` stops working: an hour at most when
    /// someone acts as the user.
    pub fn expiry(&self, acting: bool, now: DateTime<Utc>) -> DateTime<Utc> {
        now + if acting {
            std::cmp::min(self.ttl, chrono::Duration::hours(1))
        } else {
            self.ttl
        }
    }

    fn issue_claims(
        &self,
        user_id: &str,
        version: i32,
        actor: Option<(&str, i32)>,
        jti: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<String, AuthError> {
        let claims = Claims {
            sub: user_id.to_string(),
            ver: version,
            iss: ISSUER.to_string(),
            aud: AUDIENCE.to_string(),
            iat: now.timestamp(),
            exp: self.expiry(actor.is_some(), now).timestamp(),
            act: actor.map(|(id, _)| id.to_string()),
            act_ver: actor.map(|(_, ver)| ver),
            jti: jti.map(str::to_string),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AuthError::internal(format!("jwt encode: {e}")))
    }

    /// The claims of a valid token; any defect is [`AuthError::InvalidToken`].
    pub fn verify(&self, token: &str) -> Result<Claims, AuthError> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|_| AuthError::InvalidToken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "an-hs256-secret-that-is-long-enough-for-tests";

    #[test]
    fn round_trip() {
        let keys = JwtKeys::new(SECRET, 1);
        let token = keys.issue("u1", 3, Utc::now()).expect("issue");
        let claims = keys.verify(&token).expect("verify");
        assert_eq!(claims.sub, "u1");
        assert_eq!(claims.ver, 3);
    }

    #[test]
    fn rejects_other_secret_expired_and_none() {
        let keys = JwtKeys::new(SECRET, 1);
        let other = JwtKeys::new("another-secret-another-secret-another", 1);
        let token = other.issue("u1", 0, Utc::now()).expect("issue");
        assert!(keys.verify(&token).is_err());

        let old = keys
            .issue("u1", 0, Utc::now() - chrono::Duration::hours(2))
            .expect("issue");
        assert!(keys.verify(&old).is_err());

        // alg: none, with a valid-looking payload and no signature.
        let valid = keys.issue("u1", 0, Utc::now()).expect("issue");
        let payload = valid.split('.').nth(1).expect("payload");
        let none_header = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0";
        assert!(keys.verify(&format!("{none_header}.{payload}.")).is_err());
    }
}
