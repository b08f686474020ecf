//! The browsers an owner receives notifications in. Switching the toggle on
//! in a browser stores that browser's subscription (its push service's
//! address and message keys); switching it off removes it. One browser
//! belongs to one account: subscribing a browser already stored for
//! another account moves it (the account signed in last is told).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};

use ca_core::FieldErrors;

use crate::PushError;
use crate::dto::{PushSubscriptionIn, PushSubscriptionOut};
use crate::entities::subscription;
use crate::service::PushService;

/// The most browsers one account receives notifications in.
pub const MAX_BROWSERS: u64 = 20;
/// The longest push-service address kept.
pub const MAX_ENDPOINT_CHARS: usize = 2048;

/// A subscription whose fields were checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

/// Checks a subscription as a browser sends it: an https push-service
/// address outside this server's network (plain http and local addresses
/// only when private destinations are allowed), a P-256 public key of 65
/// bytes and an auth secret of 16 bytes, both base64url.
pub fn check(input: &PushSubscriptionIn, allow_private: bool) -> Result<Checked, PushError> {
    let mut errors = FieldErrors::new();
    let mut fail = |field: &str, message: String| {
        errors.entry(field.to_string()).or_default().push(message);
    };
    let endpoint = input.endpoint.as_deref().map(str::trim).unwrap_or_default();
    if endpoint.is_empty() {
        fail("endpoint", "The push service address is required".into());
    } else if endpoint.chars().count() > MAX_ENDPOINT_CHARS {
        fail(
            "endpoint",
            format!("The push service address can be at most {MAX_ENDPOINT_CHARS} characters"),
        );
    } else if let Err(why) = ca_webhooks::safety::check_url(endpoint, allow_private) {
        fail("endpoint", format!("Push service address: {why}"));
    }
    let keys = input.keys.clone().unwrap_or_default();
    let p256dh = decode(keys.p256dh.as_deref());
    match &p256dh {
        None => fail(
            "keys.p256dh",
            "The browser's key (p256dh) is required".into(),
        ),
        Some(Err(())) => fail(
            "keys.p256dh",
            "The browser's key (p256dh) must be base64url".into(),
        ),
        Some(Ok(bytes))
            if bytes.len() != 65 || p256::PublicKey::from_sec1_bytes(bytes).is_err() =>
        {
            fail(
                "keys.p256dh",
                "The browser's key (p256dh) must be an uncompressed P-256 public key of 65 bytes"
                    .into(),
            )
        }
        Some(Ok(_)) => {}
    }
    let auth = decode(keys.auth.as_deref());
    match &auth {
        None => fail("keys.auth", "The browser's auth secret is required".into()),
        Some(Err(())) => fail(
            "keys.auth",
            "The browser's auth secret must be base64url".into(),
        ),
        Some(Ok(bytes)) if bytes.len() != 16 => fail(
            "keys.auth",
            "The browser's auth secret must be 16 bytes".into(),
        ),
        Some(Ok(_)) => {}
    }
    if let Some(message) = errors.values().flatten().next().cloned() {
        return Err(PushError::Validation { message, errors });
    }
    let encode = |v: Option<Result<Vec<u8>, ()>>| {
        v.and_then(Result::ok)
            .map(|b| URL_SAFE_NO_PAD.encode(b))
            .unwrap_or_default()
    };
    Ok(Checked {
        endpoint: endpoint.to_string(),
        p256dh: encode(p256dh),
        auth: encode(auth),
    })
}

/// Decodes base64url with or without padding.
fn decode(value: Option<&str>) -> Option<Result<Vec<u8>, ()>> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    Some(
        URL_SAFE_NO_PAD
            .decode(value.trim_end_matches('='))
            .map_err(|_| ()),
    )
}

fn out(s: subscription::Model) -> PushSubscriptionOut {
    PushSubscriptionOut {
        id: s.id,
        endpoint: s.endpoint,
        user_agent: s.user_agent,
        created_at: s.created_at,
    }
}

impl PushService {
    /// The browsers the owner receives notifications in, newest first.
    pub async fn subscriptions(
        &self,
        owner_id: &str,
    ) -> Result<Vec<PushSubscriptionOut>, PushError> {
        Ok(subscription::Entity::find()
            .filter(subscription::Column::OwnerId.eq(owner_id))
            .order_by_desc(subscription::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(out)
            .collect())
    }

    /// Stores this browser's subscription for the owner (again: its keys
    /// are replaced).
    pub async fn subscribe(
        &self,
        owner_id: &str,
        input: PushSubscriptionIn,
        user_agent: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<PushSubscriptionOut, PushError> {
        let checked = check(&input, self.config.allow_private)?;
        let user_agent: Option<String> = user_agent.map(|ua| ua.chars().take(300).collect());
        let txn = ca_core::db::begin_write(&self.db).await?;
        let existing = subscription::Entity::find()
            .filter(subscription::Column::Endpoint.eq(&checked.endpoint))
            .one(&txn)
            .await?;
        let saved = match existing {
            Some(s) => {
                subscription::Entity::update_many()
                    .col_expr(subscription::Column::OwnerId, Expr::value(owner_id))
                    .col_expr(subscription::Column::P256dh, Expr::value(&checked.p256dh))
                    .col_expr(subscription::Column::Auth, Expr::value(&checked.auth))
                    .col_expr(
                        subscription::Column::UserAgent,
                        Expr::value(user_agent.clone()),
                    )
                    .col_expr(subscription::Column::UpdatedAt, Expr::value(now))
                    .filter(subscription::Column::Id.eq(&s.id))
                    .exec(&txn)
                    .await?;
                subscription::Model {
                    owner_id: owner_id.to_string(),
                    p256dh: checked.p256dh,
                    auth: checked.auth,
                    user_agent,
                    updated_at: now,
                    ..s
                }
            }
            None => {
                let count = subscription::Entity::find()
                    .filter(subscription::Column::OwnerId.eq(owner_id))
                    .count(&txn)
                    .await?;
                if count >= MAX_BROWSERS {
                    txn.rollback().await?;
                    return Err(PushError::TooManyBrowsers(MAX_BROWSERS));
                }
                subscription::ActiveModel {
                    id: Set(ca_core::ids::new_id().to_string()),
                    owner_id: Set(owner_id.to_string()),
                    endpoint: Set(checked.endpoint),
                    p256dh: Set(checked.p256dh),
                    auth: Set(checked.auth),
                    user_agent: Set(user_agent),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await?
            }
        };
        txn.commit().await?;
        Ok(out(saved))
    }

    /// Stops notifying the owner's browser whose push-service address is
    /// `endpoint` (its waiting notifications go with it).
    pub async fn unsubscribe(&self, owner_id: &str, endpoint: &str) -> Result<(), PushError> {
        let txn = ca_core::db::begin_write(&self.db).await?;
        let gone = subscription::Entity::delete_many()
            .filter(subscription::Column::OwnerId.eq(owner_id))
            .filter(subscription::Column::Endpoint.eq(endpoint.trim()))
            .exec(&txn)
            .await?
            .rows_affected;
        txn.commit().await?;
        if gone == 0 {
            return Err(PushError::SubscriptionNotFound);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::PushSubscriptionKeysIn;

    const P256DH: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

    fn input(endpoint: &str, p256dh: &str, auth: &str) -> PushSubscriptionIn {
        PushSubscriptionIn {
            endpoint: Some(endpoint.into()),
            keys: Some(PushSubscriptionKeysIn {
                p256dh: Some(p256dh.into()),
                auth: Some(auth.into()),
            }),
            expiration_time: None,
        }
    }

    fn fields(err: PushError) -> Vec<String> {
        match err {
            PushError::Validation { errors, .. } => errors.into_keys().collect(),
            other => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn a_browsers_subscription_is_checked() {
        let ok = check(
            &input("https://fcm.googleapis.com/fcm/send/abc", P256DH, AUTH),
            false,
        )
        .expect("valid");
        assert_eq!(ok.p256dh, P256DH);
        // Padding is accepted and dropped.
        let padded = check(
            &input(
                "https://fcm.googleapis.com/fcm/send/abc",
                P256DH,
                "BTBZMqHH6r4Tts7J_aSIgg==",
            ),
            false,
        )
        .expect("valid");
        assert_eq!(padded.auth, AUTH);
        for (endpoint, p256dh, auth, wrong) in [
            ("http://push.example.in/x", P256DH, AUTH, "endpoint"),
            ("https://127.0.0.1/x", P256DH, AUTH, "endpoint"),
            ("https://169.254.169.254/x", P256DH, AUTH, "endpoint"),
            ("", P256DH, AUTH, "endpoint"),
            ("https://push.example.in/x", "BCVx", AUTH, "keys.p256dh"),
            (
                "https://push.example.in/x",
                "not base64url!",
                AUTH,
                "keys.p256dh",
            ),
            // 65 bytes, but not a point of the curve.
            (
                "https://push.example.in/x",
                &URL_SAFE_NO_PAD.encode([4u8; 65]),
                AUTH,
                "keys.p256dh",
            ),
            ("https://push.example.in/x", P256DH, "c2hvcnQ", "keys.auth"),
            ("https://push.example.in/x", P256DH, "", "keys.auth"),
        ] {
            let err = check(&input(endpoint, p256dh, auth), false).expect_err(endpoint);
            assert_eq!(
                fields(err),
                vec![wrong.to_string()],
                "{endpoint} {p256dh} {auth}"
            );
        }
        // A stand-in push service on this machine, where allowed.
        assert!(check(&input("http://127.0.0.1:9000/push/1", P256DH, AUTH), true).is_ok());
        assert_eq!(
            fields(check(&PushSubscriptionIn::default(), false).expect_err("empty")),
            vec!["endpoint", "keys.auth", "keys.p256dh"]
        );
    }
}
