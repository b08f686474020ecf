//! A campaign's `settings`: one typed structure with the defaults a new
//! campaign starts with (the wizard and the popup designer show the same ones)
//! and the server-side bounds of every field (in `check`).

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// Exit-intent sensitivities.
pub const SENSITIVITIES: [&str; 3] = ["low", "medium", "high"];
/// Popup sizes and their pixel dimensions (width, height).
pub const POPUP_SIZES: [(&str, u32, u32); 3] = [
    ("small", 480, 580),
    ("medium", 560, 680),
    ("large", 640, 780),
];
/// Fonts the designer offers.
pub const FONTS: [&str; 5] = ["Inter", "Arial", "Helvetica", "Georgia", "Times New Roman"];
/// Devices a campaign can target.
pub const DEVICES: [&str; 3] = ["desktop", "mobile", "tablet"];
/// Conversion form field types.
pub const FIELD_TYPES: [&str; 3] = ["email", "text", "phone"];
/// Conversion form types: the four templates and hand-made forms.
pub const FORM_TYPES: [&str; 5] = ["coupon", "lead_magnet", "giveaway", "demo", "custom"];
/// The assistant's greeting when the campaign sets none.
pub const DEFAULT_GREETING: &str = "Hi! I noticed you're about to leave. What can I help you with?";

/// Longest assistant texts an owner can enter, in characters.
pub const INITIAL_MESSAGE_MAX: usize = 1000;
pub const KNOWLEDGE_BASE_MAX: usize = 10_000;
pub const BUSINESS_INFO_MAX: usize = 2000;
pub const CUSTOM_INSTRUCTIONS_MAX: usize = 1000;

/// Everything a campaign can be set to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CampaignSettings {
    pub exit_intent: ExitIntentSettings,
    pub popup: PopupSettings,
    pub targeting: TargetingSettings,
    pub ai_settings: AiSettings,
    pub forms: FormSettings,
    pub revenue: RevenueSettings,
}

/// Revenue the owner's site reports with `caTrack('purchase', …)`. The site
/// says what the order was worth and nobody checks it, so an order above the
/// largest believable value is kept (listed as held) but never added to the
/// campaign's or the customer's revenue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct RevenueSettings {
    /// The largest order, in rupees, counted as revenue (1 to 1,00,00,000).
    #[schema(minimum = 1, maximum = 10_000_000)]
    #[schema(minimum = 1, maximum = 10000000)]
    pub max_order_value: i64,
}

/// The largest order counted unless the owner sets another: ₹5,00,000.
pub const DEFAULT_MAX_ORDER_VALUE: i64 = 500_000;

impl Default for RevenueSettings {
    fn default() -> Self {
        Self {
            max_order_value: DEFAULT_MAX_ORDER_VALUE,
        }
    }
}

/// When the popup may open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ExitIntentSettings {
    pub enabled: bool,
    /// `low`, `medium` or `high`.
    pub sensitivity: String,
    /// Milliseconds after page load before exit intent is armed.
    #[schema(minimum = 0, maximum = 600000)]
    pub delay: i64,
    /// Minutes between two displays to the same visitor.
    #[schema(minimum = 1, maximum = 525600)]
    pub cooldown: i64,
}

impl Default for ExitIntentSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            sensitivity: "medium".into(),
            delay: 1000,
            cooldown: 60,
        }
    }
}

/// The popup, with the legacy top-level fields kept as fallbacks for `design`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct PopupSettings {
    pub title: String,
    pub message: String,
    pub button_text: String,
    pub button_color: String,
    pub background_color: String,
    pub text_color: String,
    pub position: String,
    pub show_close_button: bool,
    pub design: PopupDesign,
}

impl Default for PopupSettings {
    fn default() -> Self {
        Self {
            title: "Wait! Before you go...".into(),
            message: String::new(),
            button_text: String::new(),
            button_color: String::new(),
            background_color: "#ffffff".into(),
            text_color: "#1f2937".into(),
            position: "center".into(),
            show_close_button: true,
            design: PopupDesign::default(),
        }
    }
}

/// A trust badge under the popup header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct TrustBadge {
    pub icon: String,
    pub text: String,
}

impl Default for TrustBadge {
    fn default() -> Self {
        Self {
            icon: "✨".into(),
            text: "New Badge".into(),
        }
    }
}

fn badge(icon: &str, text: &str) -> TrustBadge {
    TrustBadge {
        icon: icon.into(),
        text: text.into(),
    }
}

/// The popup's look (the designer's fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct PopupDesign {
    /// Pixels.
    #[schema(minimum = 280, maximum = 1200)]
    pub max_width: i64,
    /// Pixels.
    #[schema(minimum = 0, maximum = 96)]
    pub padding: i64,
    /// Pixels, 0 to 32.
    #[schema(minimum = 0, maximum = 32)]
    pub border_radius: i64,
    pub font_family: String,
    pub header_title: String,
    pub header_subtitle: String,
    pub primary_color: String,
    pub secondary_color: String,
    /// `small`, `medium` or `large`.
    pub popup_size: String,
    pub form_title: String,
    pub form_subtitle: String,
    pub submit_button_text: String,
    pub show_trust_badges: bool,
    pub trust_badges: Vec<TrustBadge>,
}

impl Default for PopupDesign {
    fn default() -> Self {
        Self {
            max_width: 450,
            padding: 32,
            border_radius: 12,
            font_family: "Inter".into(),
            header_title: "Wait! Before you go...".into(),
            header_subtitle: "Chat with our assistant for instant help".into(),
            primary_color: "#ff6b6b".into(),
            secondary_color: "#ee5a24".into(),
            popup_size: "medium".into(),
            form_title: "Get exclusive offers".into(),
            form_subtitle: "Leave your email and we'll send you our best deal".into(),
            submit_button_text: "Get My Offer".into(),
            show_trust_badges: true,
            trust_badges: vec![
                badge("🔒", "Secure"),
                badge("⚡", "Instant Help"),
                badge("🎁", "Free"),
            ],
        }
    }
}

/// Who sees the popup and how often.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct TargetingSettings {
    /// Any of `desktop`, `mobile`, `tablet`; at least one.
    #[schema(value_type = Vec<Device>, min_items = 1)]
    pub devices: Vec<String>,
    /// Seconds on the page before the popup may open.
    #[schema(minimum = 0, maximum = 3600)]
    pub min_time_on_page: i64,
    #[schema(minimum = 1, maximum = 100)]
    pub max_displays_per_session: i64,
    #[schema(minimum = 1, maximum = 525600)]
    pub cooldown_minutes: i64,
    /// URLs or patterns (`*` wildcard) where the popup never opens.
    pub exclude_pages: Vec<String>,
    /// URLs or patterns where it may open; empty means every page.
    pub include_pages: Vec<String>,
}

impl Default for TargetingSettings {
    fn default() -> Self {
        Self {
            devices: DEVICES.iter().map(|d| d.to_string()).collect(),
            min_time_on_page: 30,
            max_displays_per_session: 3,
            cooldown_minutes: 60,
            exclude_pages: Vec::new(),
            include_pages: Vec::new(),
        }
    }
}

/// What the assistant knows and how it greets.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AiSettings {
    /// The greeting; empty means the default greeting.
    pub initial_message: String,
    pub knowledge_base: String,
    pub business_info: String,
    pub custom_instructions: String,
}

/// Conversion forms and when the assistant offers them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct FormSettings {
    pub conversion_forms: Vec<ConversionForm>,
    pub form_display_rules: FormDisplayRules,
}

/// When forms are offered in a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct FormDisplayRules {
    #[schema(minimum = 0, maximum = 50)]
    pub min_messages_before_form: i64,
    #[schema(minimum = 1, maximum = 10)]
    pub max_forms_per_conversation: i64,
    #[schema(minimum = 0, maximum = 50)]
    pub cooldown_between_forms: i64,
}

impl Default for FormDisplayRules {
    fn default() -> Self {
        Self {
            min_messages_before_form: 3,
            max_forms_per_conversation: 2,
            cooldown_between_forms: 5,
        }
    }
}

/// One field of a conversion form.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct FormField {
    /// Unique within its form.
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub name: String,
    #[schema(max_length = 100)]
    pub label: String,
    #[serde(rename = "type")]
    #[schema(required = true, value_type = FieldType, inline)]
    pub field_type: String,
    pub required: bool,
    #[schema(max_length = 100)]
    pub placeholder: String,
}

/// The kinds of form field, for the API document.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum FieldType {
    Email,
    Text,
    Phone,
}

/// A form the assistant can offer (coupon, lead magnet, giveaway, demo, …).
/// A form sent without `active` is active.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ConversionForm {
    pub id: String,
    #[schema(required = true, min_length = 1, max_length = 100, pattern = r"\S")]
    pub name: String,
    #[serde(rename = "type")]
    pub form_type: String,
    #[schema(max_length = 200)]
    pub title: String,
    #[schema(max_length = 300)]
    pub subtitle: String,
    #[schema(max_length = 60)]
    pub button_text: String,
    #[schema(max_length = 500)]
    pub success_message: String,
    #[schema(max_length = 500)]
    pub follow_up_message: String,
    /// One to ten fields.
    #[schema(min_items = 1, max_items = 10)]
    pub fields: Vec<FormField>,
    /// At most 50; also accepted as one comma-separated string.
    #[serde(deserialize_with = "keywords")]
    #[schema(schema_with = keywords_schema)]
    pub trigger_keywords: Vec<String>,
    pub is_default: bool,
    pub active: bool,
}

impl Default for ConversionForm {
    fn default() -> Self {
        Self {
            id: String::new(),
            name: String::new(),
            form_type: String::new(),
            title: String::new(),
            subtitle: String::new(),
            button_text: String::new(),
            success_message: String::new(),
            follow_up_message: String::new(),
            fields: Vec::new(),
            trigger_keywords: Vec::new(),
            is_default: false,
            active: true,
        }
    }
}

/// The API document's trigger keywords: a list of at most 50, or one
/// comma-separated string.
fn keywords_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{
        ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
    };
    let text = || ObjectBuilder::new().schema_type(SchemaType::new(Type::String));
    Schema::OneOf(
        OneOfBuilder::new()
            .item(ArrayBuilder::new().items(text()).max_items(Some(50)))
            .item(text())
            .build(),
    )
}

fn keywords<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Keywords {
        List(Vec<String>),
        Text(String),
    }
    let raw = match Keywords::deserialize(d)? {
        Keywords::List(list) => list,
        Keywords::Text(text) => text.split(',').map(str::to_string).collect(),
    };
    Ok(raw
        .into_iter()
        .map(|k| k.trim().to_lowercase())
        .filter(|k| !k.is_empty())
        .collect())
}

impl CampaignSettings {
    /// What the assistant says first: the campaign's initial message, or the
    /// default greeting when it is blank.
    pub fn greeting(&self) -> String {
        let initial = self.ai_settings.initial_message.trim();
        if initial.is_empty() {
            DEFAULT_GREETING.to_string()
        } else {
            initial.to_string()
        }
    }
}

pub mod check;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_match_the_product_defaults() {
        let mut s = CampaignSettings::default();
        assert!(s.normalize_and_check().is_empty());
        assert_eq!(s.exit_intent.delay, 1000);
        assert_eq!(s.targeting.min_time_on_page, 30);
        assert_eq!(s.popup.design.border_radius, 12);
        assert_eq!(s.forms.form_display_rules.min_messages_before_form, 3);
    }

    #[test]
    fn partial_json_takes_defaults_and_keywords_may_be_text() {
        let s: CampaignSettings = serde_json::from_str(
            r#"{"exitIntent":{"delay":0},"forms":{"conversionForms":[{"name":"Coupon","triggerKeywords":"Discount, coupon ,,offer","fields":[{"name":"email","type":"email","required":true}]}]}}"#,
        )
        .expect("parse");
        assert_eq!(s.exit_intent.delay, 0);
        assert_eq!(s.exit_intent.sensitivity, "medium");
        assert_eq!(
            s.forms.conversion_forms[0].trigger_keywords,
            vec!["discount", "coupon", "offer"]
        );
    }
}

/// [`DEVICES`] as the API document lists them.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum Device {
    Desktop,
    Mobile,
    Tablet,
}
