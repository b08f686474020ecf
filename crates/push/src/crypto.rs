//! Message encryption for Web Push (RFC 8291 with the `aes128gcm` content
//! coding of RFC 8188): only the browser that subscribed can read what is
//! sent; the push service carries bytes it cannot open.
//!
//! For each message a new key pair and a new 16-byte salt are made; the
//! shared secret of that key pair and the browser's `p256dh` key, mixed with
//! the browser's `auth` secret, gives the content key and nonce. The body
//! is one record: the salt, the record size, the sender's public key, then
//! the encrypted text with its padding delimiter.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use hkdf::Hkdf;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// The record size written in the header (one record carries everything
/// a notification holds).
pub const RECORD_SIZE: u32 = 4096;
/// The most plaintext one message may carry: a record of [`RECORD_SIZE`]
/// less the delimiter and the 16-byte tag, and well under what push
/// services accept (4 KiB bodies).
pub const MAX_PLAINTEXT: usize = 3000;

/// Why a message cannot be encrypted or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CryptoError {
    #[error("the browser's key is not a P-256 public key")]
    BadPublicKey,
    #[error("the browser's auth secret must be 16 bytes")]
    BadAuthSecret,
    #[error("the message is too long for one push")]
    TooLong,
    #[error("the body is not an aes128gcm message for this key")]
    Undecryptable,
}

/// Encrypts `plaintext` for a browser whose subscription keys are
/// `ua_public` (65 bytes, uncompressed) and `auth` (16 bytes), with a new
/// key pair and salt.
pub fn encrypt(plaintext: &[u8], ua_public: &[u8], auth: &[u8]) -> Result<Vec<u8>, CryptoError> {
    let sender = SecretKey::random(&mut rand::rngs::OsRng);
    let mut salt = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut salt);
    encrypt_with(plaintext, ua_public, auth, &sender, &salt)
}

/// [`encrypt`] with a given sender key and salt (the RFC's worked example
/// fixes both).
pub fn encrypt_with(
    plaintext: &[u8],
    ua_public: &[u8],
    auth: &[u8],
    sender: &SecretKey,
    salt: &[u8; 16],
) -> Result<Vec<u8>, CryptoError> {
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(CryptoError::TooLong);
    }
    let ua = PublicKey::from_sec1_bytes(ua_public).map_err(|_| CryptoError::BadPublicKey)?;
    if auth.len() != 16 {
        return Err(CryptoError::BadAuthSecret);
    }
    let as_public = sender.public_key().to_encoded_point(false);
    let (cek, nonce) = keys(sender, &ua, ua_public, as_public.as_bytes(), auth, salt)?;
    let mut record = Vec::with_capacity(plaintext.len() + 1);
    record.extend_from_slice(plaintext);
    // The last (and only) record ends with 0x02, no padding after it.
    record.push(2);
    let cipher = Aes128Gcm::new_from_slice(&cek).map_err(|_| CryptoError::Undecryptable)?;
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .map_err(|_| CryptoError::Undecryptable)?;
    let mut body = Vec::with_capacity(16 + 4 + 1 + 65 + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(as_public.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The browser's side: reads a message sent to the key pair whose private
/// half is `ua_private`, with the subscription's `auth` secret. Used to
/// check what is sent (a stand-in push service in the tests decrypts each
/// message with it).
pub fn decrypt(body: &[u8], ua_private: &SecretKey, auth: &[u8]) -> Result<Vec<u8>, CryptoError> {
    if body.len() < 16 + 4 + 1 {
        return Err(CryptoError::Undecryptable);
    }
    let salt: [u8; 16] = body[..16]
        .try_into()
        .map_err(|_| CryptoError::Undecryptable)?;
    let id_len = usize::from(body[20]);
    let rest = &body[21..];
    if rest.len() < id_len {
        return Err(CryptoError::Undecryptable);
    }
    let (as_public, sealed) = rest.split_at(id_len);
    let sender = PublicKey::from_sec1_bytes(as_public).map_err(|_| CryptoError::Undecryptable)?;
    let ua_public = ua_private.public_key().to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(ua_private.to_nonzero_scalar(), sender.as_affine());
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        ua_public.as_bytes(),
        as_public,
        auth,
        &salt,
    )?;
    let cipher = Aes128Gcm::new_from_slice(&cek).map_err(|_| CryptoError::Undecryptable)?;
    let mut record = cipher
        .decrypt(Nonce::from_slice(&nonce), sealed)
        .map_err(|_| CryptoError::Undecryptable)?;
    // Padding is zeros after the 0x02 delimiter of the last record.
    while record.last() == Some(&0) {
        record.pop();
    }
    if record.pop() != Some(2) {
        return Err(CryptoError::Undecryptable);
    }
    Ok(record)
}

fn keys(
    sender: &SecretKey,
    ua: &PublicKey,
    ua_public: &[u8],
    as_public: &[u8],
    auth: &[u8],
    salt: &[u8; 16],
) -> Result<([u8; 16], [u8; 12]), CryptoError> {
    let shared = p256::ecdh::diffie_hellman(sender.to_nonzero_scalar(), ua.as_affine());
    derive(shared.raw_secret_bytes(), ua_public, as_public, auth, salt)
}

/// RFC 8291 section 3.4: the input keying material from the shared secret
/// and the auth secret, then RFC 8188's content key and nonce.
fn derive(
    ecdh_secret: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    auth: &[u8],
    salt: &[u8; 16],
) -> Result<([u8; 16], [u8; 12]), CryptoError> {
    // The lengths asked for are all valid for HKDF-SHA-256: these never fail.
    let bad = |_| CryptoError::Undecryptable;
    let mut key_info = Vec::with_capacity(14 + 65 + 65);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(ua_public);
    key_info.extend_from_slice(as_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), ecdh_secret)
        .expand(&key_info, &mut ikm)
        .map_err(bad)?;
    let content = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    content
        .expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .map_err(bad)?;
    let mut nonce = [0u8; 12];
    content
        .expand(b"Content-Encoding: nonce\0", &mut nonce)
        .map_err(bad)?;
    Ok((cek, nonce))
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    use super::*;

    fn b64(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).expect("base64url")
    }

    // RFC 8291 Appendix A, line breaks removed.
    const PLAINTEXT: &str = "When I grow up, I want to be a watermelon";
    const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
    const AS_PUBLIC: &str =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
    const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
    const UA_PUBLIC: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
    const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
    const BODY: &str = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

    #[test]
    fn the_rfc_8291_worked_example_is_reproduced_byte_for_byte() {
        let sender = SecretKey::from_slice(&b64(AS_PRIVATE)).expect("key");
        assert_eq!(
            sender.public_key().to_encoded_point(false).as_bytes(),
            b64(AS_PUBLIC).as_slice()
        );
        let salt: [u8; 16] = b64(SALT).try_into().expect("16 bytes");
        let body = encrypt_with(
            PLAINTEXT.as_bytes(),
            &b64(UA_PUBLIC),
            &b64(AUTH),
            &sender,
            &salt,
        )
        .expect("encrypt");
        assert_eq!(URL_SAFE_NO_PAD.encode(&body), BODY);
    }

    #[test]
    fn the_browser_reads_the_rfc_example_and_what_we_send() {
        let ua = SecretKey::from_slice(&b64(UA_PRIVATE)).expect("key");
        assert_eq!(
            decrypt(&b64(BODY), &ua, &b64(AUTH)).expect("decrypt"),
            PLAINTEXT.as_bytes()
        );
        let sent = encrypt(b"{\"title\":\"New lead\"}", &b64(UA_PUBLIC), &b64(AUTH)).expect("enc");
        assert_eq!(
            decrypt(&sent, &ua, &b64(AUTH)).expect("decrypt"),
            b"{\"title\":\"New lead\"}"
        );
        // A new key and salt every time: the same text never gives the same bytes.
        let again = encrypt(b"{\"title\":\"New lead\"}", &b64(UA_PUBLIC), &b64(AUTH)).expect("enc");
        assert_ne!(sent, again);
        // Another auth secret cannot read it.
        assert_eq!(
            decrypt(&sent, &ua, &[7u8; 16]),
            Err(CryptoError::Undecryptable)
        );
    }

    #[test]
    fn bad_keys_and_long_messages_are_refused() {
        assert_eq!(
            encrypt(b"x", &[4u8; 65], &b64(AUTH)),
            Err(CryptoError::BadPublicKey)
        );
        assert_eq!(
            encrypt(b"x", &b64(UA_PUBLIC), &[1u8; 8]),
            Err(CryptoError::BadAuthSecret)
        );
        assert_eq!(
            encrypt(&[b'a'; MAX_PLAINTEXT + 1], &b64(UA_PUBLIC), &b64(AUTH)),
            Err(CryptoError::TooLong)
        );
    }
}
