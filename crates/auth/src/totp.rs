//! Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA1,
//! 30-second steps), the kind every authenticator app shows, and the base32
//! text (RFC 4648) their secrets are typed or scanned in.

use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;

/// Seconds per step.
pub const STEP_SECONDS: u64 = 30;
/// Digits of the codes people type.
pub const DIGITS: u32 = 6;
/// The name authenticator apps show next to the account.
pub const ISSUER: &str = "ConvertAssist";

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// `bytes` in base32 without padding, as authenticator apps take it.
pub fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let mut buffer: u32 = 0;
    let mut bits = 0u32;
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(BASE32[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(BASE32[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// The bytes of base32 `text` (any case; spaces, dashes and padding
/// ignored), or `None` when it holds another character.
pub fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let mut buffer: u32 = 0;
    let mut bits = 0u32;
    for c in text.chars() {
        if matches!(c, ' ' | '-' | '=') {
            continue;
        }
        let upper = c.to_ascii_uppercase() as u8;
        let value = BASE32.iter().position(|&b| b == upper)? as u32;
        buffer = (buffer << 5) | value;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push(((buffer >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// The HOTP value of `secret` at `counter`, `digits` long (RFC 4226).
pub fn hotp(secret: &[u8], counter: u64, digits: u32) -> String {
    // HMAC takes keys of any length.
    let Ok(mut mac) = <Hmac<Sha1> as KeyInit>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(&counter.to_be_bytes());
    let hash = mac.finalize().into_bytes();
    let offset = (hash[hash.len() - 1] & 0x0f) as usize;
    let binary = (u32::from(hash[offset] & 0x7f) << 24)
        | (u32::from(hash[offset + 1]) << 16)
        | (u32::from(hash[offset + 2]) << 8)
        | u32::from(hash[offset + 3]);
    let value = u64::from(binary) % 10u64.pow(digits);
    format!("{value:0width$}", width = digits as usize)
}

/// The step a Unix time falls in.
pub fn step_at(unix_seconds: u64) -> u64 {
    unix_seconds / STEP_SECONDS
}

/// The code `secret` shows at `unix_seconds`, `digits` long.
pub fn code_at(secret: &[u8], unix_seconds: u64, digits: u32) -> String {
    hotp(secret, step_at(unix_seconds), digits)
}

/// The step whose code `code` is, if it is the code of the step at
/// `unix_seconds` or of the one just before or after (a phone's clock may be
/// a little off). Compared in constant time.
pub fn matching_step(secret: &[u8], code: &str, unix_seconds: u64) -> Option<u64> {
    let code = code.trim();
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now = step_at(unix_seconds);
    let mut found = None;
    for step in [now.saturating_sub(1), now, now + 1] {
        let expected = hotp(secret, step, DIGITS);
        let same = expected
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
        if same && found.is_none() {
            found = Some(step);
        }
    }
    found
}

/// The `otpauth://` link authenticator apps read from the QR code.
pub fn otpauth_url(secret_base32: &str, account: &str) -> String {
    format!(
        "otpauth://totp/{issuer}:{account}?secret={secret_base32}&issuer={issuer}&algorithm=SHA1&digits={DIGITS}&period={STEP_SECONDS}",
        issuer = percent_encode(ISSUER),
        account = percent_encode(account),
    )
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'@') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `text` as an SVG QR code (for the enrolment page to show).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC_SECRET: &[u8] = b"12345678901234567890";

    #[test]
    fn rfc6238_appendix_b_sha1_vectors() {
        let vectors = [
            (59u64, "94287082"),
            (1_111_111_109, "07081804"),
            (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ];
        for (time, expected) in vectors {
            assert_eq!(code_at(RFC_SECRET, time, 8), expected, "time {time}");
        }
    }

    #[test]
    fn rfc4226_appendix_d_six_digits() {
        let expected = ["755224", "287082", "359152", "969429", "338314"];
        for (counter, code) in expected.iter().enumerate() {
            assert_eq!(hotp(RFC_SECRET, counter as u64, 6), *code);
        }
    }

    #[test]
    fn base32_round_trip_and_rfc4648_vectors() {
        assert_eq!(base32_encode(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32_encode(b"f"), "MY");
        assert_eq!(
            base32_decode("mzxw 6ytb-oi====").as_deref(),
            Some(&b"foobar"[..])
        );
        assert_eq!(base32_decode("MZ1W"), None);
        let secret: Vec<u8> = (0u8..20).collect();
        assert_eq!(base32_decode(&base32_encode(&secret)), Some(secret));
    }

    #[test]
    fn a_code_matches_its_step_and_the_neighbours_only() {
        let now = 1_234_567_890;
        let code = code_at(RFC_SECRET, now, DIGITS);
        assert_eq!(matching_step(RFC_SECRET, &code, now), Some(step_at(now)));
        assert_eq!(
            matching_step(RFC_SECRET, &code, now + STEP_SECONDS),
            Some(step_at(now))
        );
        assert_eq!(
            matching_step(RFC_SECRET, &code, now + 3 * STEP_SECONDS),
            None
        );
        assert_eq!(matching_step(RFC_SECRET, "12345", now), None);
        assert_eq!(matching_step(RFC_SECRET, "abcdef", now), None);
    }

    #[test]
    fn otpauth_url_names_issuer_and_account() {
        let url = otpauth_url("JBSWY3DPEHPK3PXP", "ana+staff@example.com");
        assert_eq!(
            url,
            "otpauth://totp/ConvertAssist:ana%2Bstaff@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ConvertAssist&algorithm=SHA1&digits=6&period=30"
        );
        assert!(qr_svg(&url).is_some_and(|svg| svg.contains("<svg")));
    }
}
