//! What signing in needs to know of the second factor: whether an account
//! has it on, and opening the challenge a right password gives such an
//! account. Also the one way secrets handed to clients are kept (a SHA-256
//! hash), shared by reset links, recovery codes and challenges.

use chrono::{Duration, Utc};
use rand::RngCore;
use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Set};
use sha2::{Digest, Sha256};

use crate::AuthError;
use crate::dto::TwoFactorChallengeOut;
use crate::entities::{two_factor_challenge, two_factor_secret};

/// How long the second step of a sign-in may take.
pub const CHALLENGE_TTL_MINUTES: i64 = 5;

/// How a secret handed to a client is stored: its SHA-256, in hex.
pub(crate) fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether the account has two-factor sign-in on.
pub(crate) async fn second_factor_on<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
) -> Result<bool, AuthError> {
    Ok(two_factor_secret::Entity::find_by_id(user_id.to_string())
        .one(conn)
        .await?
        .is_some_and(|s| s.enabled_at.is_some()))
}

/// The second step a right password opens for an account with two-factor
/// sign-in on: a token the client sends back with a code.
pub(crate) async fn open<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
) -> Result<TwoFactorChallengeOut, AuthError> {
    let now = Utc::now();
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    two_factor_challenge::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        user_id: Set(user_id.to_string()),
        token_hash: Set(token_hash(&token)),
        failed_attempts: Set(0),
        expires_at: Set(now + Duration::minutes(CHALLENGE_TTL_MINUTES)),
        used_at: Set(None),
        created_at: Set(now),
    }
    .insert(conn)
    .await?;
    Ok(TwoFactorChallengeOut {
        success: true,
        two_factor_required: true,
        challenge_token: token,
    })
}
