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
