//! Secrets the server must read back, sealed before they are stored.
//!
//! Some secrets cannot be kept as a hash because the server needs them
//! again: a staff member's two-factor (TOTP) secret, an endpoint's webhook
//! signing secret, an owner's Mailchimp API key. Anyone holding a copy of
//! the database (a leaked backup, a read-only replica, a support dump)
//! could otherwise sign in as staff past their second factor, forge
//! webhooks, or use the owner's Mailchimp account.
//!
//! They are stored sealed with AES-256-GCM under the server's data key
//! (`CA_DATA_KEY`, or a key made on first start and kept in the data
//! directory), as `ca1.<key id>.<nonce and ciphertext, base64url>`. The key
//! never goes into the database. Each value is bound to where it is kept
//! (table, column and row), so a sealed value copied into another row does
//! not open there.
//!
//! Keys can be changed: the new key goes into `CA_DATA_KEY` and the old one
//! into `CA_DATA_KEY_PREVIOUS`; values sealed with an old key still open,
//! and each domain re-seals its values with the new key when the server
//! starts. Values stored before sealing existed (plain text) open as they
//! are and are sealed on the next start.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::Sha256;

/// What every sealed value starts with (format version 1).
pub const PREFIX: &str = "ca1.";
/// The shortest data key accepted, in characters.
pub const MIN_KEY_CHARS: usize = 32;
const NONCE_BYTES: usize = 12;

/// Why a stored value could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// Sealed with a key this server does not have.
    #[error(
        "sealed with data key {0}, which is neither CA_DATA_KEY nor one of CA_DATA_KEY_PREVIOUS"
    )]
    UnknownKey(String),
    /// Not a sealed value this server wrote: altered, truncated, or copied
    /// from another row.
    #[error("the sealed value was altered or belongs to another row")]
    Tampered,
}

/// A value opened: its text, and whether it is sealed with the current key
/// (if not, it should be sealed again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub text: String,
    pub current: bool,
}

struct DataKey {
    id: String,
    cipher: Aes256Gcm,
}

impl DataKey {
    /// The AES key and its id, both derived from the configured text with
    /// HKDF-SHA256, so the id tells keys apart without revealing them.
    fn derive(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        if text.chars().count() < MIN_KEY_CHARS {
            anyhow::bail!("a data key must be at least {MIN_KEY_CHARS} characters");
        }
        let hk = hkdf::Hkdf::<Sha256>::new(None, text.as_bytes());
        let mut key = [0u8; 32];
        let mut id = [0u8; 4];
        hk.expand(b"convertassist sealed secrets v1", &mut key)
            .map_err(|_| anyhow::anyhow!("deriving the data key"))?;
        hk.expand(b"convertassist data key id v1", &mut id)
            .map_err(|_| anyhow::anyhow!("deriving the data key's id"))?;
        Ok(Self {
            id: hex::encode(id),
            cipher: Aes256Gcm::new(&key.into()),
        })
    }
}

/// The server's data keys: the one that seals, and older ones that still open.
pub struct DataKeys {
    current: DataKey,
    previous: Vec<DataKey>,
}

impl std::fmt::Debug for DataKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataKeys")
            .field("current", &self.current.id)
            .field(
                "previous",
                &self.previous.iter().map(|k| &k.id).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl DataKeys {
    /// Keys from their configured text: `current` seals, `previous` open too.
    pub fn new(current: &str, previous: &[String]) -> anyhow::Result<Self> {
        Ok(Self {
            current: DataKey::derive(current)?,
            previous: previous
                .iter()
                .map(|k| DataKey::derive(k))
                .collect::<anyhow::Result<_>>()?,
        })
    }

    /// A random key, for tests and tools that keep nothing.
    pub fn random() -> Self {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        Self::new(&hex::encode(bytes), &[]).unwrap_or_else(|_| unreachable!("64 characters"))
    }

    /// The id of the key that seals (shown in logs, never the key).
    pub fn current_id(&self) -> &str {
        &self.current.id
    }

    /// `text` sealed for the place named by `context` (for example
    /// `two_factor_secrets.secret:<user id>`).
    pub fn seal(&self, text: &str, context: &str) -> String {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::thread_rng().fill_bytes(&mut nonce);
        let sealed = self
            .current
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: text.as_bytes(),
                    aad: context.as_bytes(),
                },
            )
            .unwrap_or_else(|_| unreachable!("AES-GCM seals any text of this size"));
        let mut body = nonce.to_vec();
        body.extend_from_slice(&sealed);
        format!(
            "{PREFIX}{}.{}",
            self.current.id,
            URL_SAFE_NO_PAD.encode(body)
        )
    }

    /// Whether `stored` is sealed with the current key (nothing to redo).
    pub fn is_current(&self, stored: &str) -> bool {
        stored
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split_once('.'))
            .is_some_and(|(id, _)| id == self.current.id)
    }

    /// The text of a stored value. A value stored before sealing existed
    /// (plain text) opens as it is, marked as not current.
    pub fn open(&self, stored: &str, context: &str) -> Result<Opened, SealError> {
        let Some(rest) = stored.strip_prefix(PREFIX) else {
            return Ok(Opened {
                text: stored.to_string(),
                current: false,
            });
        };
        let (id, body) = rest.split_once('.').ok_or(SealError::Tampered)?;
        let key = std::iter::once(&self.current)
            .chain(&self.previous)
            .find(|k| k.id == id)
            .ok_or_else(|| SealError::UnknownKey(id.to_string()))?;
        let body = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| SealError::Tampered)?;
        if body.len() < NONCE_BYTES {
            return Err(SealError::Tampered);
        }
        let (nonce, sealed) = body.split_at(NONCE_BYTES);
        let text = key
            .cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| SealError::Tampered)?;
        Ok(Opened {
            text: String::from_utf8(text).map_err(|_| SealError::Tampered)?,
            current: key.id == self.current.id,
        })
    }
}

/// One kind of secret sealed again with the current key when the server
/// starts: which values to rewrite, and whether any were sealed with a key
/// this server does not have.
pub struct Resealing<'k> {
    keys: &'k DataKeys,
    what: &'static str,
    resealed: usize,
    unknown: std::collections::BTreeMap<String, usize>,
}

impl<'k> Resealing<'k> {
    /// Re-sealing `what` (for example "two-factor secrets") with `keys`.
    pub fn new(keys: &'k DataKeys, what: &'static str) -> Self {
        Self {
            keys,
            what,
            resealed: 0,
            unknown: Default::default(),
        }
    }

    /// What to store instead of `stored`: `None` when it is already sealed
    /// with the current key, or does not open (noted, and left as it is).
    pub fn next(&mut self, stored: &str, context: &str) -> Option<String> {
        if self.keys.is_current(stored) {
            return None;
        }
        match self.keys.open(stored, context) {
            Ok(opened) => Some(self.keys.seal(&opened.text, context)),
            Err(SealError::UnknownKey(id)) => {
                *self.unknown.entry(id).or_default() += 1;
                None
            }
            Err(SealError::Tampered) => {
                tracing::error!(
                    context,
                    "a sealed {} does not open: left as it is",
                    self.what
                );
                None
            }
        }
    }

    /// Counts a value rewritten (the update found the row as it was read).
    pub fn rewritten(&mut self, rows: u64) {
        self.resealed += usize::try_from(rows).unwrap_or(0);
    }

    /// How many were sealed again; an error naming the key when some were
    /// sealed with a key this server does not have, as starting without it
    /// would lock people out or break deliveries.
    pub fn finish(self) -> anyhow::Result<usize> {
        if let Some((id, count)) = self.unknown.iter().next() {
            anyhow::bail!(
                "{count} {} are sealed with data key {id}, which is neither CA_DATA_KEY (key {}) nor in CA_DATA_KEY_PREVIOUS: start the server with the key they were sealed with (see \"Data key\" in docs/operations.md)",
                self.what,
                self.keys.current_id()
            );
        }
        if self.resealed > 0 {
            tracing::info!(
                count = self.resealed,
                key = self.keys.current_id(),
                "sealed {} with the current data key",
                self.what
            );
        }
        Ok(self.resealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "a-data-key-for-tests-a-data-key-for-tests";
    const OLD: &str = "the-previous-data-key-the-previous-data-key";

    fn keys() -> DataKeys {
        DataKeys::new(KEY, &[]).expect("key")
    }

    #[test]
    fn a_sealed_value_opens_only_in_its_own_place() {
        let keys = keys();
        let sealed = keys.seal("JBSWY3DPEHPK3PXP", "two_factor_secrets.secret:u1");
        assert!(sealed.starts_with(PREFIX));
        assert!(!sealed.contains("JBSWY3DPEHPK3PXP"));
        assert!(keys.is_current(&sealed));
        assert_eq!(
            keys.open(&sealed, "two_factor_secrets.secret:u1"),
            Ok(Opened {
                text: "JBSWY3DPEHPK3PXP".into(),
                current: true
            })
        );
        // Copied to another user's row, it does not open.
        assert_eq!(
            keys.open(&sealed, "two_factor_secrets.secret:u2"),
            Err(SealError::Tampered)
        );
        // Two seals of one text differ (a fresh nonce each time).
        assert_ne!(
            sealed,
            keys.seal("JBSWY3DPEHPK3PXP", "two_factor_secrets.secret:u1")
        );
    }

    #[test]
    fn an_altered_or_truncated_value_is_refused() {
        let keys = keys();
        let sealed = keys.seal("whsec_abc", "webhook_endpoints.secret:e1");
        let mut altered = sealed.clone().into_bytes();
        let last = altered.len() - 1;
        altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(altered).expect("text");
        assert_eq!(
            keys.open(&altered, "webhook_endpoints.secret:e1"),
            Err(SealError::Tampered)
        );
        assert_eq!(
            keys.open(&sealed[..sealed.len() - 30], "webhook_endpoints.secret:e1"),
            Err(SealError::Tampered)
        );
        assert_eq!(
            keys.open("ca1.nodot", "webhook_endpoints.secret:e1"),
            Err(SealError::Tampered)
        );
    }

    #[test]
    fn an_old_key_still_opens_and_another_key_does_not() {
        let old = DataKeys::new(OLD, &[]).expect("old");
        let sealed = old.seal("secret", "ctx");
        let rotated = DataKeys::new(KEY, &[OLD.to_string()]).expect("rotated");
        assert!(!rotated.is_current(&sealed));
        assert_eq!(
            rotated.open(&sealed, "ctx"),
            Ok(Opened {
                text: "secret".into(),
                current: false
            })
        );
        let stranger = keys();
        assert_eq!(
            stranger.open(&sealed, "ctx"),
            Err(SealError::UnknownKey(old.current_id().to_string()))
        );
    }

    #[test]
    fn plain_text_from_before_sealing_opens_as_not_current() {
        let keys = keys();
        assert_eq!(
            keys.open("JBSWY3DPEHPK3PXP", "ctx"),
            Ok(Opened {
                text: "JBSWY3DPEHPK3PXP".into(),
                current: false
            })
        );
        assert!(!keys.is_current("JBSWY3DPEHPK3PXP"));
    }

    /// A value sealed by the first version of this format, checked once
    /// against Python's `cryptography` (HKDF-SHA256, then AES-256-GCM with
    /// the context as associated data): later versions must still open it.
    #[test]
    fn a_value_sealed_by_the_first_version_still_opens() {
        let keys = keys();
        assert_eq!(keys.current_id(), "7987ab60");
        let stored = "ca1.7987ab60.CUY4_5_Tz0_xlrIyEQTTyy7-mY_0RgloIkulokujg3IrNVyBc1zp_aP00F4";
        assert_eq!(
            keys.open(stored, "two_factor_secrets.secret:u1"),
            Ok(Opened {
                text: "JBSWY3DPEHPK3PXP".into(),
                current: true
            })
        );
    }

    #[test]
    fn short_keys_are_refused_and_ids_are_stable() {
        assert!(DataKeys::new("too short", &[]).is_err());
        assert!(DataKeys::new(KEY, &["short".into()]).is_err());
        // The id is derived from the key: the same key gives the same id on
        // every server, another key another id.
        assert_eq!(keys().current_id(), keys().current_id());
        assert_ne!(
            keys().current_id(),
            DataKeys::new(OLD, &[]).expect("old").current_id()
        );
        assert_eq!(keys().current_id().len(), 8);
    }
}
