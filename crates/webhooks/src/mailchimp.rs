//! The ready-made Mailchimp destination: each lead is added to (or updated
//! in) the owner's Mailchimp audience through Mailchimp's Marketing API:
//! `PUT /3.0/lists/{list_id}/members/{subscriber_hash}` (the hash is the MD5
//! of the lower-cased email) with `status_if_new: "subscribed"` and the
//! merge fields `FNAME` and `PHONE`, then the campaign's name as a tag
//! (`POST …/members/{subscriber_hash}/tags`). The API key's suffix names the
//! data centre (`…-us21` → `us21.api.mailchimp.com`); it is sent as HTTP
//! basic auth. Deliveries go through the same retries and log as webhooks.

use md5::{Digest, Md5};
use serde_json::{Value, json};

use crate::answer::Answer;
use crate::config::WebhookConfig;
use crate::entities::{endpoint, event};

/// Mailchimp's member id: the MD5 of the lower-cased email, in hex.
pub fn subscriber_hash(email: &str) -> String {
    hex::encode(Md5::digest(email.trim().to_lowercase().as_bytes()))
}

/// What is sent for the lead in `payload` (`lead.created` or
/// `lead.updated`): the member, and the tag to add.
pub fn member(payload: &Value) -> Option<(String, Value, Option<String>)> {
    let customer = payload.get("data")?.get("customer")?;
    let email = customer.get("email")?.as_str()?.to_string();
    let mut merge = serde_json::Map::new();
    if let Some(name) = customer
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
    {
        merge.insert(
            "FNAME".into(),
            json!(name.split_whitespace().next().unwrap_or(name)),
        );
    }
    if let Some(phone) = customer
        .get("phone")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
    {
        merge.insert("PHONE".into(), json!(phone));
    }
    let tag = payload
        .get("data")
        .and_then(|d| d.get("campaign"))
        .and_then(|c| c.get("name"))
        .and_then(Value::as_str)
        .map(|n| n.chars().take(100).collect());
    Some((
        email.clone(),
        json!({
            "email_address": email,
            "status_if_new": "subscribed",
            "merge_fields": merge,
        }),
        tag,
    ))
}

/// Pushes the lead in `ev` to the audience of `e`.
pub(crate) async fn push(config: &WebhookConfig, e: &endpoint::Model, ev: &event::Model) -> Answer {
    if ev.event_type == "webhook.test" {
        // The audience is asked about itself: the key and list are right.
        return get(config, &e.url, &e.secret).await;
    }
    let payload: Value = serde_json::from_str(&ev.payload).unwrap_or(Value::Null);
    let Some((email, body, tag)) = member(&payload) else {
        return Answer::Refused {
            status: None,
            body: "The event has no email to add".into(),
        };
    };
    let client = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(config.timeout)
        .build()
    {
        Ok(c) => c,
        Err(err) => {
            return Answer::Retry {
                status: None,
                body: err.without_url().to_string(),
            };
        }
    };
    let member_url = format!("{}/members/{}", e.url, subscriber_hash(&email));
    let answer = send(
        client
            .put(&member_url)
            .basic_auth("convertassist", Some(&e.secret))
            .json(&body),
        config,
    )
    .await;
    match (&answer, tag) {
        (Answer::Delivered { .. }, Some(tag)) => {
            send(
                client
                    .post(format!("{member_url}/tags"))
                    .basic_auth("convertassist", Some(&e.secret))
                    .json(&json!({"tags": [{"name": tag, "status": "active"}]})),
                config,
            )
            .await
        }
        _ => answer,
    }
}

async fn get(config: &WebhookConfig, url: &str, key: &str) -> Answer {
    match reqwest::Client::builder().timeout(config.timeout).build() {
        Ok(client) => {
            send(
                client.get(url).basic_auth("convertassist", Some(key)),
                config,
            )
            .await
        }
        Err(err) => Answer::Retry {
            status: None,
            body: err.without_url().to_string(),
        },
    }
}

async fn send(req: reqwest::RequestBuilder, config: &WebhookConfig) -> Answer {
    match req.send().await {
        Ok(res) => Answer::of(res).await,
        Err(err) => Answer::Retry {
            status: None,
            body: if err.is_timeout() {
                format!("No answer within {} s", config.timeout.as_secs())
            } else {
                format!("Could not connect: {}", err.without_url())
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_keyed_by_the_md5_of_the_lowercased_email() {
        // Mailchimp's documented example hash for "urist.mcvankab@freddiesjokes.com".
        assert_eq!(
            subscriber_hash("Urist.McVankab@FreddiesJokes.com"),
            "62eeb292278cc15f5817cb78f7790b08"
        );
    }
}
