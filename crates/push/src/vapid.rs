//! This server's identity towards push services (VAPID, RFC 8292): one
//! P-256 key pair, made on first start and kept in the data directory
//! (`vapid-private-key`, readable by the server's user only). Browsers
//! subscribe with its public half (the `applicationServerKey`), and every
//! push carries a short-lived token signed with the private half
//! (`Authorization: vapid t=…, k=…`), so only this server can push to
//! them. A new key would end every browser's subscription: keep the file
//! with the database's backups.

use std::path::Path;

use anyhow::Context;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::SecretKey;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;

/// How long a push token is good for (RFC 8292 allows at most 24 hours).
pub const TOKEN_HOURS: i64 = 12;

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct VapidKeys {
    secret: SecretKey,
    public: String,
}

impl std::fmt::Debug for VapidKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKeys")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl VapidKeys {
    /// The key pair whose private key is `secret`.
    pub fn from_secret(secret: SecretKey) -> Self {
        let public = URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false).as_bytes());
        Self { secret, public }
    }

    /// A new random key pair.
    pub fn generate() -> Self {
        Self::from_secret(SecretKey::random(&mut rand::rngs::OsRng))
    }

    /// The key pair kept in `path` (the private key, base64url), made and
    /// written there (mode 0600) when the file does not exist yet.
    pub fn load_or_create(path: &Path) -> anyhow::Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let bytes = URL_SAFE_NO_PAD
                    .decode(text.trim())
                    .with_context(|| format!("{} is not a base64url key", path.display()))?;
                let secret = SecretKey::from_slice(&bytes)
                    .with_context(|| format!("{} is not a P-256 private key", path.display()))?;
                Ok(Self::from_secret(secret))
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating {}", dir.display()))?;
                }
                let keys = Self::generate();
                write_private(path, &URL_SAFE_NO_PAD.encode(keys.secret.to_bytes()))?;
                tracing::info!(path = %path.display(), "generated the VAPID key pair for browser push notifications");
                Ok(keys)
            }
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// The public key, uncompressed and base64url without padding: what a
    /// browser subscribes with and what `k=` carries.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header for a push to `endpoint`: a token for the
    /// endpoint's origin, expiring in [`TOKEN_HOURS`], naming `subject` (a
    /// `mailto:` or `https:` contact for the push service's operators).
    pub fn authorization(&self, endpoint: &url::Url, subject: &str, now_unix: i64) -> String {
        let token = self.token(
            &endpoint.origin().ascii_serialization(),
            subject,
            now_unix + TOKEN_HOURS * 3600,
        );
        format!("vapid t={token}, k={}", self.public)
    }

    /// An ES256 JSON Web Token with `aud`, `exp` and `sub`.
    pub fn token(&self, audience: &str, subject: &str, expires_unix: i64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = URL_SAFE_NO_PAD.encode(
            serde_json::json!({"aud": audience, "exp": expires_unix, "sub": subject}).to_string(),
        );
        let signing_input = format!("{header}.{claims}");
        let signature: Signature = SigningKey::from(&self.secret).sign(signing_input.as_bytes());
        format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature.to_bytes())
        )
    }
}

fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .with_context(|| format!("creating {}", path.display()))?;
        file.write_all(text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    #[cfg(not(unix))]
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_verifies_with_the_public_key_and_names_the_push_service() {
        let keys = VapidKeys::generate();
        let endpoint = url::Url::parse("https://fcm.googleapis.com/fcm/send/abc:def").expect("url");
        let now = 1_795_000_000;
        let header = keys.authorization(&endpoint, "mailto:ops@example.in", now);
        let (t, k) = header
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .expect("vapid t=…, k=…");
        assert_eq!(k, keys.public_key());
        // An independent JWT library checks the signature with the public
        // key's coordinates, as a push service does.
        let point = URL_SAFE_NO_PAD.decode(k).expect("base64url");
        assert_eq!((point.len(), point[0]), (65, 4));
        let decoding = jsonwebtoken::DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(&point[1..33]),
            &URL_SAFE_NO_PAD.encode(&point[33..]),
        )
        .expect("key");
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
        validation.set_audience(&["https://fcm.googleapis.com"]);
        validation.validate_exp = false;
        let claims = jsonwebtoken::decode::<serde_json::Value>(t, &decoding, &validation)
            .expect("the signature verifies")
            .claims;
        assert_eq!(claims["sub"], "mailto:ops@example.in");
        assert_eq!(claims["exp"], now + 12 * 3600);
        // Another key's token does not verify.
        let other = VapidKeys::generate().token("https://fcm.googleapis.com", "mailto:x@y.in", now);
        assert!(jsonwebtoken::decode::<serde_json::Value>(&other, &decoding, &validation).is_err());
    }

    #[test]
    fn the_key_pair_is_made_once_and_kept_private() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("vapid-private-key");
        let first = VapidKeys::load_or_create(&path).expect("create");
        let again = VapidKeys::load_or_create(&path).expect("load");
        assert_eq!(first.public_key(), again.public_key());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "not a key").expect("write");
        assert!(VapidKeys::load_or_create(&path).is_err());
    }
}
