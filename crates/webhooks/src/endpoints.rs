//! The owner's endpoints: add, change, delete, the signing secret (shown
//! when created, revealed on request, rotated with a 24-hour overlap during
//! which both secrets sign), and "Send test event". Every query filters by
//! the owner in the query itself.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
};

use ca_core::FieldErrors;
use ca_core::error::InfraError;
use ca_core::sealed::{DataKeys, Resealing};
use sea_orm::sea_query::Expr;

use crate::WebhookError;
use crate::dto::{EndpointIn, EndpointOut, SecretOut};
use crate::entities::endpoint;
use crate::events::{self, Event, EventType, TestEvent};
use crate::safety;
use crate::service::WebhookService;
use crate::signing;

/// Endpoints an owner may have.
pub const MAX_ENDPOINTS: usize = 20;
/// After a rotation the previous secret signs for this long too.
pub const ROTATION_OVERLAP_HOURS: i64 = 24;
/// The events a Mailchimp audience push takes (it adds or updates members).
const MAILCHIMP_EVENTS: [EventType; 2] = [EventType::LeadCreated, EventType::LeadUpdated];

fn out(e: &endpoint::Model, now: DateTime<Utc>) -> EndpointOut {
    EndpointOut {
        id: e.id.clone(),
        kind: e.kind.clone(),
        url: e.url.clone(),
        description: e.description.clone(),
        event_types: serde_json::from_str::<Vec<String>>(&e.event_types)
            .unwrap_or_default()
            .iter()
            .filter_map(|t| EventType::parse(t))
            .collect(),
        enabled: e.enabled,
        disabled_reason: e.disabled_reason.clone(),
        failing_since: e.failing_since,
        previous_secret_expires_at: e.previous_secret_expires_at.filter(|at| *at > now),
        list_id: e.list_id.clone(),
        secret: None,
        created_at: e.created_at,
        updated_at: e.updated_at,
    }
}

/// Where an endpoint's secret (signing secret or Mailchimp key) is sealed
/// for, and its secret before the last rotation: each opens in no other
/// place.
fn secret_context(id: &str) -> String {
    format!("webhook_endpoints.secret:{id}")
}

fn previous_secret_context(id: &str) -> String {
    format!("webhook_endpoints.previous_secret:{id}")
}

/// The endpoint as stored, its secrets opened for signing or showing. A
/// previous secret that does not open is dropped (it only signs for a day
/// after a rotation); a current one that does not open is an error.
pub(crate) fn opened(
    keys: &DataKeys,
    mut e: endpoint::Model,
) -> Result<endpoint::Model, WebhookError> {
    e.secret = keys
        .open(&e.secret, &secret_context(&e.id))
        .map_err(|err| {
            tracing::error!(endpoint = %e.id, %err, "an endpoint's secret does not open");
            InfraError::Other(format!(
                "the secret of endpoint {} does not open: {err}",
                e.id
            ))
        })?
        .text;
    e.previous_secret = e
        .previous_secret
        .take()
        .and_then(|p| keys.open(&p, &previous_secret_context(&e.id)).ok())
        .map(|o| o.text);
    Ok(e)
}

/// Seals every endpoint secret not yet sealed with the current data key
/// (stored in plain text before sealing existed, or with a previous key);
/// run when the server starts. Answers how many values were sealed again.
/// Fails, naming the key, when secrets were sealed with a key this server
/// does not have: every delivery would fail.
pub async fn reseal_secrets<C: sea_orm::ConnectionTrait>(
    conn: &C,
    keys: &DataKeys,
) -> anyhow::Result<usize> {
    let mut resealing = Resealing::new(keys, "webhook and Mailchimp secrets");
    for e in endpoint::Entity::find().all(conn).await? {
        if let Some(sealed) = resealing.next(&e.secret, &secret_context(&e.id)) {
            let done = endpoint::Entity::update_many()
                .col_expr(endpoint::Column::Secret, Expr::value(sealed))
                .filter(endpoint::Column::Id.eq(&e.id))
                .filter(endpoint::Column::Secret.eq(&e.secret))
                .exec(conn)
                .await?;
            resealing.rewritten(done.rows_affected);
        }
        if let Some(previous) = &e.previous_secret
            && let Some(sealed) = resealing.next(previous, &previous_secret_context(&e.id))
        {
            let done = endpoint::Entity::update_many()
                .col_expr(endpoint::Column::PreviousSecret, Expr::value(sealed))
                .filter(endpoint::Column::Id.eq(&e.id))
                .filter(endpoint::Column::PreviousSecret.eq(previous))
                .exec(conn)
                .await?;
            resealing.rewritten(done.rows_affected);
        }
    }
    resealing.finish()
}

/// The Mailchimp data centre an API key names (`…-us21` → `us21`).
pub fn mailchimp_dc(api_key: &str) -> Option<&str> {
    let (_, dc) = api_key.rsplit_once('-')?;
    (!dc.is_empty() && dc.len() <= 8 && dc.chars().all(|c| c.is_ascii_alphanumeric())).then_some(dc)
}

/// What an endpoint is, checked.
struct Checked {
    url: Option<String>,
    description: Option<String>,
    event_types: Option<Vec<EventType>>,
    api_key: Option<String>,
    list_id: Option<String>,
}

impl WebhookService {
    fn check(
        &self,
        kind: &str,
        input: &EndpointIn,
        creating: bool,
    ) -> Result<Checked, WebhookError> {
        let mut errors = FieldErrors::new();
        let mut url = None;
        let mut api_key = None;
        let mut list_id = None;
        match kind {
            "webhook" => {
                match input
                    .url
                    .as_deref()
                    .map(str::trim)
                    .filter(|u| !u.is_empty())
                {
                    Some(u) if u.len() > 2048 => {
                        errors.insert(
                            "url".into(),
                            vec!["The URL can be at most 2,048 characters".into()],
                        );
                    }
                    Some(u) => match safety::check_url(u, self.config.allow_private) {
                        Ok(parsed) => url = Some(parsed.to_string()),
                        Err(why) => {
                            errors.insert("url".into(), vec![why.to_string()]);
                        }
                    },
                    None if creating => {
                        errors.insert("url".into(), vec!["Enter the URL to send events to".into()]);
                    }
                    None => {}
                }
            }
            "mailchimp" => {
                match input
                    .api_key
                    .as_deref()
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                {
                    Some(k) if k.len() > 100 || mailchimp_dc(k).is_none() => {
                        errors.insert(
                            "apiKey".into(),
                            vec![
                                "A Mailchimp API key ends with its data centre, like …-us21".into(),
                            ],
                        );
                    }
                    Some(k) => api_key = Some(k.to_string()),
                    None if creating => {
                        errors.insert("apiKey".into(), vec!["Enter your Mailchimp API key".into()]);
                    }
                    None => {}
                }
                match input
                    .list_id
                    .as_deref()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                {
                    Some(l) if l.len() > 64 || !l.chars().all(|c| c.is_ascii_alphanumeric()) => {
                        errors.insert(
                            "listId".into(),
                            vec!["The audience id is letters and digits (Audience → Settings → Audience name and defaults)".into()],
                        );
                    }
                    Some(l) => list_id = Some(l.to_string()),
                    None if creating => {
                        errors.insert(
                            "listId".into(),
                            vec!["Enter the id of the audience to add leads to".into()],
                        );
                    }
                    None => {}
                }
            }
            _ => {
                errors.insert(
                    "kind".into(),
                    vec!["The kind is webhook or mailchimp".into()],
                );
            }
        }
        let description = input.description.as_deref().map(|d| d.trim().to_string());
        if description
            .as_ref()
            .is_some_and(|d| d.chars().count() > 200)
        {
            errors.insert(
                "description".into(),
                vec!["The description can be at most 200 characters".into()],
            );
        }
        let mut event_types = input.event_types.clone().map(|types| {
            let mut unique: Vec<EventType> = Vec::new();
            for t in types {
                if !unique.contains(&t) {
                    unique.push(t);
                }
            }
            unique
        });
        if kind == "mailchimp" && creating && event_types.is_none() {
            event_types = Some(MAILCHIMP_EVENTS.to_vec());
        }
        match &event_types {
            Some(types) if types.is_empty() => {
                errors.insert(
                    "eventTypes".into(),
                    vec!["Choose at least one event".into()],
                );
            }
            Some(types) if types.contains(&EventType::Test) => {
                errors.insert(
                    "eventTypes".into(),
                    vec!["webhook.test is sent only by Send test event".into()],
                );
            }
            Some(types)
                if kind == "mailchimp" && types.iter().any(|t| !MAILCHIMP_EVENTS.contains(t)) =>
            {
                errors.insert(
                    "eventTypes".into(),
                    vec!["A Mailchimp audience takes lead.created and lead.updated".into()],
                );
            }
            None if creating => {
                errors.insert(
                    "eventTypes".into(),
                    vec!["Choose at least one event".into()],
                );
            }
            _ => {}
        }
        if !errors.is_empty() {
            return Err(WebhookError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        Ok(Checked {
            url,
            description,
            event_types,
            api_key,
            list_id,
        })
    }

    /// The owner's endpoint `id`, its secrets opened.
    async fn owned(&self, owner_id: &str, id: &str) -> Result<endpoint::Model, WebhookError> {
        let e = endpoint::Entity::find()
            .filter(endpoint::Column::Id.eq(id.trim()))
            .filter(endpoint::Column::OwnerId.eq(owner_id))
            .one(&self.db)
            .await?
            .ok_or(WebhookError::EndpointNotFound)?;
        opened(&self.config.data_keys, e)
    }

    /// The owner's endpoints, oldest first.
    pub async fn list(&self, owner_id: &str) -> Result<Vec<EndpointOut>, WebhookError> {
        let now = Utc::now();
        Ok(endpoint::Entity::find()
            .filter(endpoint::Column::OwnerId.eq(owner_id))
            .order_by_asc(endpoint::Column::CreatedAt)
            .all(&self.db)
            .await?
            .iter()
            .map(|e| out(e, now))
            .collect())
    }

    /// Adds an endpoint; the answer carries its signing secret.
    pub async fn create(
        &self,
        owner_id: &str,
        input: EndpointIn,
    ) -> Result<EndpointOut, WebhookError> {
        let kind = input
            .kind
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .unwrap_or("webhook")
            .to_string();
        let checked = self.check(&kind, &input, true)?;
        let count = endpoint::Entity::find()
            .filter(endpoint::Column::OwnerId.eq(owner_id))
            .count(&self.db)
            .await?;
        if count as usize >= MAX_ENDPOINTS {
            return Err(WebhookError::TooManyEndpoints(MAX_ENDPOINTS));
        }
        let now = Utc::now();
        let (url, secret) = match kind.as_str() {
            "mailchimp" => {
                let key = checked.api_key.clone().unwrap_or_default();
                let dc = mailchimp_dc(&key).unwrap_or("us1").to_string();
                (
                    format!(
                        "{}/3.0/lists/{}",
                        self.config.mailchimp_url.replace("{dc}", &dc),
                        checked.list_id.clone().unwrap_or_default()
                    ),
                    key,
                )
            }
            _ => (
                checked.url.clone().unwrap_or_default(),
                signing::new_secret(),
            ),
        };
        let id = ca_core::ids::new_id().to_string();
        let model = endpoint::ActiveModel {
            secret: Set(self.config.data_keys.seal(&secret, &secret_context(&id))),
            id: Set(id),
            owner_id: Set(owner_id.to_string()),
            kind: Set(kind.clone()),
            url: Set(url),
            description: Set(checked.description.unwrap_or_default()),
            event_types: Set(types_json(&checked.event_types.unwrap_or_default())),
            enabled: Set(input.enabled.unwrap_or(true)),
            previous_secret: Set(None),
            previous_secret_expires_at: Set(None),
            list_id: Set(checked.list_id),
            failing_since: Set(None),
            disabled_reason: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await?;
        tracing::info!(owner = %owner_id, endpoint = %model.id, kind = %kind, "webhook endpoint added");
        let mut shown = out(&model, now);
        // A Mailchimp key is the owner's own secret: never shown back.
        if kind == "webhook" {
            shown.secret = Some(secret);
        }
        Ok(shown)
    }

    /// Changes an endpoint (what is sent is kept as it is).
    pub async fn update(
        &self,
        owner_id: &str,
        id: &str,
        input: EndpointIn,
    ) -> Result<EndpointOut, WebhookError> {
        let current = self.owned(owner_id, id).await?;
        if input
            .kind
            .as_deref()
            .is_some_and(|k| k.trim() != current.kind)
        {
            return Err(WebhookError::field(
                "kind",
                "An endpoint's kind cannot change; add a new one",
            ));
        }
        let checked = self.check(&current.kind, &input, false)?;
        let now = Utc::now();
        let mut active: endpoint::ActiveModel = current.clone().into();
        if let Some(url) = checked.url {
            active.url = Set(url);
        }
        if let Some(d) = checked.description {
            active.description = Set(d);
        }
        if let Some(types) = checked.event_types {
            active.event_types = Set(types_json(&types));
        }
        if let Some(enabled) = input.enabled {
            active.enabled = Set(enabled);
            if enabled {
                // Switched back on: a fresh start.
                active.disabled_reason = Set(None);
                active.failing_since = Set(None);
            }
        }
        if current.kind == "mailchimp" {
            let key = checked.api_key.clone().unwrap_or(current.secret.clone());
            let list = checked
                .list_id
                .clone()
                .or(current.list_id.clone())
                .unwrap_or_default();
            let dc = mailchimp_dc(&key).unwrap_or("us1").to_string();
            active.secret = Set(self
                .config
                .data_keys
                .seal(&key, &secret_context(&current.id)));
            active.list_id = Set(Some(list.clone()));
            active.url = Set(format!(
                "{}/3.0/lists/{list}",
                self.config.mailchimp_url.replace("{dc}", &dc)
            ));
        }
        active.updated_at = Set(now);
        let saved = active.update(&self.db).await?;
        Ok(out(&saved, now))
    }

    /// Deletes an endpoint with its deliveries.
    pub async fn delete(&self, owner_id: &str, id: &str) -> Result<(), WebhookError> {
        let e = self.owned(owner_id, id).await?;
        endpoint::Entity::delete_by_id(e.id.clone())
            .exec(&self.db)
            .await?;
        tracing::info!(owner = %owner_id, endpoint = %e.id, "webhook endpoint deleted");
        Ok(())
    }

    /// The endpoint's signing secret.
    pub async fn reveal_secret(&self, owner_id: &str, id: &str) -> Result<SecretOut, WebhookError> {
        let e = self.owned(owner_id, id).await?;
        if e.kind != "webhook" {
            return Err(WebhookError::field(
                "id",
                "A Mailchimp audience push has no signing secret",
            ));
        }
        Ok(SecretOut {
            secret: e.secret,
            previous_secret_expires_at: e.previous_secret_expires_at.filter(|at| *at > Utc::now()),
        })
    }

    /// A new signing secret; the old one keeps signing for 24 hours, so
    /// receivers can switch without missing an event.
    pub async fn rotate_secret(&self, owner_id: &str, id: &str) -> Result<SecretOut, WebhookError> {
        let e = self.owned(owner_id, id).await?;
        if e.kind != "webhook" {
            return Err(WebhookError::field(
                "id",
                "A Mailchimp audience push has no signing secret",
            ));
        }
        let now = Utc::now();
        let until = now + Duration::hours(ROTATION_OVERLAP_HOURS);
        let secret = signing::new_secret();
        let mut active: endpoint::ActiveModel = e.clone().into();
        let keys = &self.config.data_keys;
        active.previous_secret = Set(Some(keys.seal(&e.secret, &previous_secret_context(&e.id))));
        active.previous_secret_expires_at = Set(Some(until));
        active.secret = Set(keys.seal(&secret, &secret_context(&e.id)));
        active.updated_at = Set(now);
        active.update(&self.db).await?;
        tracing::info!(owner = %owner_id, endpoint = %id, "webhook signing secret rotated");
        Ok(SecretOut {
            secret,
            previous_secret_expires_at: Some(until),
        })
    }

    /// "Send test event": a `webhook.test` event to this endpoint alone.
    pub async fn send_test(&self, owner_id: &str, id: &str) -> Result<String, WebhookError> {
        let e = self.owned(owner_id, id).await?;
        let now = Utc::now();
        let txn = ca_core::db::begin_write(&self.db).await?;
        let event_id = events::store_event(
            &txn,
            owner_id,
            &Event::Test(TestEvent {
                message: "A test event from ConvertAssist: your endpoint is reachable.".into(),
            }),
            now,
        )
        .await?;
        events::new_delivery(&txn, &event_id, &e, EventType::Test.as_str(), now).await?;
        txn.commit().await?;
        Ok(event_id)
    }
}

fn types_json(types: &[EventType]) -> String {
    serde_json::to_string(&types.iter().map(|t| t.as_str()).collect::<Vec<_>>())
        .unwrap_or_else(|_| "[]".into())
}
