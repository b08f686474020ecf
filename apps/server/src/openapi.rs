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
    components(schemas(ErrorBody)),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and sessions"),
        (name = "plans", description = "Plans owners can buy"),
        (name = "billing", description = "Usage, checkout, the subscription and cancelling"),
        (name = "payments", description = "Paying for a plan through PayU: initialize, PayU's return and webhook, verify, status, history, invoices"),
        (name = "campaigns", description = "Exit-intent campaigns"),
        (name = "customers", description = "The leads and buyers campaigns produce"),
        (name = "conversations", description = "Visitors' chats with the assistant, read-only"),
        (name = "widget", description = "Public calls of the embedded widget (any origin, no credentials)"),
        (name = "admin", description = "Running the platform: staff only, some calls superusers only"),
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

/// The document as pretty JSON with a trailing newline (the checked-in form).
pub fn to_pretty_json(doc: &utoipa::openapi::OpenApi) -> anyhow::Result<String> {
    let mut json = serde_json::to_string_pretty(doc)?;
    json.push('\n');
    Ok(json)
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
