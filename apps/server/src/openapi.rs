//! The OpenAPI 3.1 document. Paths come from the routes themselves (every
//! route is registered through utoipa-actix-web), so none can escape it.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::error::ErrorBody;

/// Document-level information; paths are added when the app is built.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "ConvertAssist API",
        description = "Exit-intent campaigns, leads and payments. Errors are always `{success: false, message, code, errors?}`."
    ),
    components(schemas(
        ErrorBody,
        ca_webhooks::events::LeadCreated,
        ca_webhooks::events::LeadUpdated,
        ca_webhooks::events::ConversationCompleted,
        ca_webhooks::events::PurchaseAttributed,
        ca_webhooks::events::CampaignLimitReached,
        ca_webhooks::events::TestEvent,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and sessions"),
        (name = "plans", description = "Plans owners can buy"),
        (name = "billing", description = "Usage, checkout, the subscription and cancelling"),
        (name = "payments", description = "Paying for a plan through PayU: initialize, PayU's return and webhook, verify, status, history, invoices"),
        (name = "campaigns", description = "Exit-intent campaigns"),
        (name = "tests", description = "A/B tests of a campaign: variants, per-variant results and an always-valid call, promotion of the winner"),
        (name = "customers", description = "The leads and buyers campaigns produce"),
        (name = "conversations", description = "Visitors' chats with the assistant, read-only"),
        (name = "widget", description = "Public calls of the embedded widget (any origin, no credentials)"),
        (name = "admin", description = "Running the platform: staff only, some calls superusers only"),
        (name = "webhooks", description = "Sending leads, conversations and purchases to the owner's own tools: signed webhooks (Standard Webhooks) with retries and a delivery log, and a Mailchimp audience push"),
        (name = "push", description = "Browser push notifications of new leads and successful payments: the server's public key (VAPID) and the browsers an owner switched them on in"),
        (name = "meta", description = "Ad tracking: the dashboard's own events for Meta's Conversions API"),
        (name = "health", description = "Probes"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The document as pretty JSON with a trailing newline (the checked-in
/// form), with its `webhooks` section: what owners' endpoints receive.
pub fn to_pretty_json(doc: &utoipa::openapi::OpenApi) -> anyhow::Result<String> {
    let mut value = serde_json::to_value(doc)?;
    if let Some(root) = value.as_object_mut() {
        root.insert("webhooks".into(), webhooks());
    }
    let mut json = serde_json::to_string_pretty(&value)?;
    json.push('\n');
    Ok(json)
}

/// The OpenAPI 3.1 `webhooks` section (utoipa has no model of it): one
/// entry per event type, each a signed `POST` of `{id, type, timestamp,
/// data}` whose `data` is the event's schema.
fn webhooks() -> serde_json::Value {
    use serde_json::json;
    let headers = json!({
        "webhook-id": {"description": "The event's id: the same on every delivery of it, retries and resends included", "required": true, "schema": {"type": "string"}},
        "webhook-timestamp": {"description": "Seconds since 1970 when this attempt was signed", "required": true, "schema": {"type": "string"}},
        "webhook-signature": {"description": "`v1,<base64 HMAC-SHA256 of \"{id}.{timestamp}.{body}\">` with the endpoint's secret (without `whsec_`, base64-decoded); space-separated signatures during a rotation's overlap", "required": true, "schema": {"type": "string"}},
    });
    let mut section = serde_json::Map::new();
    for (kind, schema, description) in ca_webhooks::EventType::DOCUMENTED {
        let name = kind.as_str();
        let parameters: Vec<serde_json::Value> = headers
            .as_object()
            .into_iter()
            .flatten()
            .map(|(header, spec)| {
                let mut p = spec.clone();
                p["name"] = json!(header);
                p["in"] = json!("header");
                p
            })
            .collect();
        section.insert(
            name.into(),
            json!({
                "post": {
                    "operationId": format!("webhook_{}", name.replace('.', "_")),
                    "summary": name,
                    "description": description,
                    "tags": ["webhooks"],
                    "parameters": parameters,
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": {
                            "type": "object",
                            "required": ["id", "type", "timestamp", "data"],
                            "properties": {
                                "id": {"type": "string", "description": "`msg_…`, the `webhook-id`"},
                                "type": {"type": "string", "const": name},
                                "timestamp": {"type": "string", "format": "date-time"},
                                "data": {"$ref": format!("#/components/schemas/{schema}")},
                            },
                        }}},
                    },
                    "responses": {
                        "2XX": {"description": "Delivered"},
                        "429": {"description": "Tried again later"},
                        "5XX": {"description": "Tried again later (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)"},
                        "default": {"description": "Any other answer is a failure and is not tried again"},
                    },
                }
            }),
        );
    }
    serde_json::Value::Object(section)
}

/// Declares the answers every operation can get from the layers in front of
/// its handler, where the handler's own list leaves them out: 400 for a body,
/// query or path that doesn't fit (malformed JSON, a wrong content type, a
/// NUL character), 413 for a body over the limit, and 401 when it needs a
/// session. Each is the API's JSON error body.
pub fn declare_common_errors(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{RefOr, ResponseBuilder, content::ContentBuilder};
    let error = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(utoipa::openapi::Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build(),
        )
    };
    for item in doc.paths.paths.values_mut() {
        for op in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            let has_body = op.request_body.is_some();
            let has_params = op.parameters.as_ref().is_some_and(|p| !p.is_empty());
            let secured = op.security.as_ref().is_some_and(|s| !s.is_empty());
            let responses = &mut op.responses.responses;
            if has_body || has_params {
                responses.entry("400".into()).or_insert_with(|| {
                    error(
                        "The request does not fit the call (body, query or path; a NUL character)",
                    )
                });
            }
            if has_body {
                responses
                    .entry("413".into())
                    .or_insert_with(|| error("The request body is too large"));
            }
            if secured {
                responses
                    .entry("401".into())
                    .or_insert_with(|| error("No valid session"));
            }
        }
    }
}
