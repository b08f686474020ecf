//! Signing per the Standard Webhooks specification (the one Svix, Resend
//! and others use): a secret `whsec_<base64 of 32 random bytes>`, and on
//! every delivery the headers `webhook-id`, `webhook-timestamp` (unix
//! seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
//! "{id}.{timestamp}.{body}">`, keyed with the secret's decoded bytes.
//! During a rotation's overlap both secrets sign, space-separated.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

/// What every signing secret starts with.
pub const PREFIX: &str = "whsec_";

/// A new signing secret: `whsec_` and 32 random bytes in base64.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("{PREFIX}{}", STANDARD.encode(bytes))
}

/// `v1,<signature>` of the message `id` sent at `timestamp` with `body`.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> String {
    let key = STANDARD
        .decode(secret.strip_prefix(PREFIX).unwrap_or(secret))
        .unwrap_or_else(|_| secret.as_bytes().to_vec());
    let mut mac = match Hmac::<Sha256>::new_from_slice(&key) {
        Ok(mac) => mac,
        // HMAC takes keys of any length; this cannot happen.
        Err(_) => return String::new(),
    };
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// The `webhook-signature` header: one signature per secret that signs now,
/// space-separated.
pub fn signature_header(secrets: &[&str], id: &str, timestamp: i64, body: &str) -> String {
    secrets
        .iter()
        .map(|s| sign(s, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    // Computed once with the `standardwebhooks` Python package
    // (`Webhook(secret).sign(msg_id, datetime.fromtimestamp(1674087231), payload)`);
    // the package is not needed to run the tests.
    const ID: &str = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
    const TS: i64 = 1_674_087_231;
    const BODY: &str = r#"{"type":"lead.created","timestamp":"2023-01-19T00:13:51Z","data":{"email":"asha@example.in"},"id":"msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"}"#;

    #[test]
    fn signatures_match_the_standard_webhooks_library() {
        assert_eq!(
            sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", ID, TS, BODY),
            "v1,0fGzgqnGHT/RBI28CQlB/k/9GeASztYl5lu+70qf6gs="
        );
        assert_eq!(
            sign("whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD", ID, TS, BODY),
            "v1,oPCilmeCdz/v14dNnDyfh9EjOvcEOSjRr8yR3WlsIUY="
        );
    }

    #[test]
    fn both_secrets_sign_during_a_rotation() {
        assert_eq!(
            signature_header(
                &[
                    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                    "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"
                ],
                ID,
                TS,
                BODY
            ),
            "v1,0fGzgqnGHT/RBI28CQlB/k/9GeASztYl5lu+70qf6gs= v1,oPCilmeCdz/v14dNnDyfh9EjOvcEOSjRr8yR3WlsIUY="
        );
    }

    #[test]
    fn new_secrets_are_32_random_bytes() {
        let s = new_secret();
        assert!(s.starts_with(PREFIX));
        let bytes = STANDARD.decode(&s[PREFIX.len()..]).expect("base64");
        assert_eq!(bytes.len(), 32);
        assert_ne!(s, new_secret());
    }
}
