//! Session token tampering: every forged or stale token is a 401.

use chrono::Utc;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use crate::helpers::{SECRET, spawn_app};

fn sign(alg: Algorithm, secret: &str, claims: &Value) -> String {
    jsonwebtoken::encode(
        &Header::new(alg),
        claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .expect("sign")
}

fn b64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

#[tokio::test]
async fn forged_and_stale_tokens_are_refused() {
    let app = spawn_app().await;
    let (good, user) = app.register("tokens@example.in", "secret1").await;
    let (_, other) = app.register("other-tokens@example.in", "secret1").await;
    assert_eq!(app.get("/api/auth/me", Some(&good)).await.status, 200);

    let now = Utc::now().timestamp();
    let claims = |overrides: Value| {
        let mut c = json!({
            "sub": user["id"], "ver": 0, "iss": "convertassist",
            "aud": "convertassist-dashboard", "iat": now, "exp": now + 3600
        });
        for (k, v) in overrides.as_object().expect("object") {
            c[k] = v.clone();
        }
        c
    };

    // A correctly made token is accepted, so each refusal below is due to its one defect.
    let control = sign(Algorithm::HS256, SECRET, &claims(json!({})));
    assert_eq!(app.get("/api/auth/me", Some(&control)).await.status, 200);

    let forged = [
        (
            "other secret",
            sign(
                Algorithm::HS256,
                "some-other-secret-some-other-secret",
                &claims(json!({})),
            ),
        ),
        (
            "expired",
            sign(
                Algorithm::HS256,
                SECRET,
                &claims(json!({"iat": now - 7200, "exp": now - 3600})),
            ),
        ),
        (
            "wrong audience",
            sign(
                Algorithm::HS256,
                SECRET,
                &claims(json!({"aud": "someone-else"})),
            ),
        ),
        (
            "wrong issuer",
            sign(Algorithm::HS256, SECRET, &claims(json!({"iss": "evil"}))),
        ),
        (
            "other algorithm",
            sign(Algorithm::HS512, SECRET, &claims(json!({}))),
        ),
        (
            "stale version",
            sign(Algorithm::HS256, SECRET, &claims(json!({"ver": 7}))),
        ),
        (
            "unknown user",
            sign(
                Algorithm::HS256,
                SECRET,
                &claims(json!({"sub": "00000000-0000-7000-8000-000000000000"})),
            ),
        ),
        (
            "alg none",
            format!(
                "{}.{}.",
                b64(br#"{"alg":"none","typ":"JWT"}"#),
                b64(claims(json!({})).to_string().as_bytes())
            ),
        ),
        ("swapped payload", {
            let parts: Vec<&str> = good.split('.').collect();
            let payload = b64(claims(json!({"sub": other["id"]})).to_string().as_bytes());
            format!("{}.{}.{}", parts[0], payload, parts[2])
        }),
        ("garbage", "not.a.token".to_string()),
    ];
    for (what, token) in forged {
        let reply = app.get("/api/auth/me", Some(&token)).await;
        assert_eq!(
            reply.error(401, "invalid_token"),
            "Your session has expired. Please sign in again.",
            "{what}"
        );
    }
}
