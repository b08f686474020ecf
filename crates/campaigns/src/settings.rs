//! A campaign's `settings`: one typed structure with the product's defaults
//! (seed 000 §9 for new campaigns, §2.11 for the popup design) and the
//! server-side bounds of seed 000 §5.

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use ca_core::FieldErrors;

/// Exit-intent sensitivities.
pub const SENSITIVITIES: [&str; 3] = ["low", "medium", "high"];
/// Popup sizes and their pixel dimensions (seed 000 §9).
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

/// AI text limits (seed 000 §5).
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
}

/// When the popup may open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ExitIntentSettings {
    pub enabled: bool,
    /// `low`, `medium` or `high`.
    pub sensitivity: String,
    /// Milliseconds after page load before exit intent is armed.
    pub delay: i64,
    /// Minutes between two displays to the same visitor.
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
    pub max_width: i64,
    /// Pixels.
    pub padding: i64,
    /// Pixels, 0 to 32.
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
    pub devices: Vec<String>,
    /// Seconds on the page before the popup may open.
    pub min_time_on_page: i64,
    pub max_displays_per_session: i64,
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
    pub min_messages_before_form: i64,
    pub max_forms_per_conversation: i64,
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
    pub name: String,
    pub label: String,
    /// `email`, `text` or `phone`.
    #[serde(rename = "type")]
    pub field_type: String,
    pub required: bool,
    pub placeholder: String,
}

/// A form the assistant can offer (coupon, lead magnet, giveaway, demo, …).
/// A form sent without `active` is active.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ConversionForm {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub form_type: String,
    pub title: String,
    pub subtitle: String,
    pub button_text: String,
    pub success_message: String,
    pub follow_up_message: String,
    pub fields: Vec<FormField>,
    /// Also accepted as one comma-separated string.
    #[serde(deserialize_with = "keywords")]
    #[schema(value_type = Vec<String>)]
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

/// Collects field errors under dotted paths such as `settings.exitIntent.delay`.
struct Check {
    errors: FieldErrors,
}

impl Check {
    fn fail(&mut self, path: &str, message: impl Into<String>) {
        self.errors
            .entry(path.to_string())
            .or_default()
            .push(message.into());
    }

    fn range(&mut self, path: &str, label: &str, value: i64, min: i64, max: i64) {
        if value < min {
            self.fail(path, format!("{label} must be at least {min}"));
        } else if value > max {
            self.fail(path, format!("{label} must be at most {max}"));
        }
    }

    fn text(&mut self, path: &str, label: &str, value: &str, max: usize) {
        let n = value.chars().count();
        if n > max {
            self.fail(
                path,
                format!("{label} must be at most {max} characters (it has {n})"),
            );
        }
    }

    fn one_of(&mut self, path: &str, label: &str, value: &str, allowed: &[&str]) {
        if !allowed.contains(&value) {
            self.fail(
                path,
                format!("{label} must be one of: {}", allowed.join(", ")),
            );
        }
    }

    fn color(&mut self, path: &str, label: &str, value: &str, optional: bool) {
        if optional && value.is_empty() {
            return;
        }
        if !is_hex_color(value) {
            self.fail(
                path,
                format!("{label} must be a hex colour such as #ff6b6b"),
            );
        }
    }
}

/// `#rgb` or `#rrggbb`.
pub fn is_hex_color(value: &str) -> bool {
    let Some(hex) = value.strip_prefix('#') else {
        return false;
    };
    matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit())
}

/// A page rule: an absolute http(s) URL, a path starting with `/`, or either with `*` wildcards.
pub fn is_page_rule(value: &str) -> bool {
    if value.len() > 500 || value.chars().any(char::is_whitespace) {
        return false;
    }
    if value.starts_with('/') {
        return true;
    }
    let probe = value.replace('*', "x");
    url::Url::parse(&probe)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

impl CampaignSettings {
    /// Cleans what can be cleaned without guessing (trims, drops blank page
    /// lines, makes the first form the default when none is) and returns the
    /// field errors of everything else.
    pub fn normalize_and_check(&mut self) -> FieldErrors {
        let mut c = Check {
            errors: FieldErrors::new(),
        };
        let ei = &mut self.exit_intent;
        ei.sensitivity = ei.sensitivity.trim().to_lowercase();
        c.one_of(
            "settings.exitIntent.sensitivity",
            "Sensitivity",
            &ei.sensitivity,
            &SENSITIVITIES,
        );
        c.range("settings.exitIntent.delay", "Delay", ei.delay, 0, 600_000);
        c.range(
            "settings.exitIntent.cooldown",
            "Cooldown",
            ei.cooldown,
            1,
            525_600,
        );

        let popup = &mut self.popup;
        c.text("settings.popup.title", "Popup title", &popup.title, 200);
        c.text(
            "settings.popup.message",
            "Popup message",
            &popup.message,
            1000,
        );
        c.text(
            "settings.popup.buttonText",
            "Button text",
            &popup.button_text,
            60,
        );
        c.color(
            "settings.popup.buttonColor",
            "Button colour",
            &popup.button_color,
            true,
        );
        c.color(
            "settings.popup.backgroundColor",
            "Background colour",
            &popup.background_color,
            true,
        );
        c.color(
            "settings.popup.textColor",
            "Text colour",
            &popup.text_color,
            true,
        );
        popup.position = popup.position.trim().to_lowercase();
        c.one_of(
            "settings.popup.position",
            "Position",
            &popup.position,
            &["center", "bottom-right", "bottom-left"],
        );
        let d = &mut popup.design;
        c.range(
            "settings.popup.design.maxWidth",
            "Popup width",
            d.max_width,
            280,
            1200,
        );
        c.range("settings.popup.design.padding", "Padding", d.padding, 0, 96);
        c.range(
            "settings.popup.design.borderRadius",
            "Border radius",
            d.border_radius,
            0,
            32,
        );
        c.one_of(
            "settings.popup.design.fontFamily",
            "Font",
            &d.font_family,
            &FONTS,
        );
        let sizes: Vec<&str> = POPUP_SIZES.iter().map(|s| s.0).collect();
        c.one_of(
            "settings.popup.design.popupSize",
            "Popup size",
            &d.popup_size,
            &sizes,
        );
        c.color(
            "settings.popup.design.primaryColor",
            "Primary colour",
            &d.primary_color,
            false,
        );
        c.color(
            "settings.popup.design.secondaryColor",
            "Secondary colour",
            &d.secondary_color,
            false,
        );
        c.text(
            "settings.popup.design.headerTitle",
            "Header title",
            &d.header_title,
            100,
        );
        c.text(
            "settings.popup.design.headerSubtitle",
            "Header subtitle",
            &d.header_subtitle,
            200,
        );
        c.text(
            "settings.popup.design.formTitle",
            "Form title",
            &d.form_title,
            100,
        );
        c.text(
            "settings.popup.design.formSubtitle",
            "Form subtitle",
            &d.form_subtitle,
            200,
        );
        c.text(
            "settings.popup.design.submitButtonText",
            "Button text",
            &d.submit_button_text,
            60,
        );
        if d.trust_badges.len() > 8 {
            c.fail(
                "settings.popup.design.trustBadges",
                "At most 8 trust badges",
            );
        }
        for (i, b) in d.trust_badges.iter_mut().enumerate() {
            b.text = b.text.trim().to_string();
            if b.text.is_empty() {
                c.fail(
                    &format!("settings.popup.design.trustBadges.{i}.text"),
                    "Badge text is required",
                );
            }
            c.text(
                &format!("settings.popup.design.trustBadges.{i}.text"),
                "Badge text",
                &b.text,
                40,
            );
            c.text(
                &format!("settings.popup.design.trustBadges.{i}.icon"),
                "Badge icon",
                &b.icon,
                8,
            );
        }

        let t = &mut self.targeting;
        let mut devices: Vec<String> = Vec::new();
        for dev in &t.devices {
            let dev = dev.trim().to_lowercase();
            if !DEVICES.contains(&dev.as_str()) {
                c.fail(
                    "settings.targeting.devices",
                    format!("Unknown device \"{dev}\": use desktop, mobile or tablet"),
                );
            } else if !devices.contains(&dev) {
                devices.push(dev);
            }
        }
        t.devices = devices;
        if t.devices.is_empty() {
            c.fail("settings.targeting.devices", "Choose at least one device");
        }
        c.range(
            "settings.targeting.minTimeOnPage",
            "Min time on page",
            t.min_time_on_page,
            0,
            3600,
        );
        c.range(
            "settings.targeting.maxDisplaysPerSession",
            "Max displays per session",
            t.max_displays_per_session,
            1,
            100,
        );
        c.range(
            "settings.targeting.cooldownMinutes",
            "Cooldown",
            t.cooldown_minutes,
            1,
            525_600,
        );
        for (name, list) in [
            ("includePages", &mut t.include_pages),
            ("excludePages", &mut t.exclude_pages),
        ] {
            let cleaned: Vec<String> = list
                .iter()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
            if cleaned.len() > 100 {
                c.fail(
                    &format!("settings.targeting.{name}"),
                    "At most 100 page rules",
                );
            }
            for rule in &cleaned {
                if !is_page_rule(rule) {
                    c.fail(
                        &format!("settings.targeting.{name}"),
                        format!("\"{rule}\" is not a page URL or path (use https://example.com/page, /page or /blog/*)"),
                    );
                }
            }
            *list = cleaned;
        }

        let ai = &self.ai_settings;
        c.text(
            "settings.aiSettings.initialMessage",
            "Initial message",
            &ai.initial_message,
            INITIAL_MESSAGE_MAX,
        );
        c.text(
            "settings.aiSettings.knowledgeBase",
            "Knowledge base",
            &ai.knowledge_base,
            KNOWLEDGE_BASE_MAX,
        );
        c.text(
            "settings.aiSettings.businessInfo",
            "Business information",
            &ai.business_info,
            BUSINESS_INFO_MAX,
        );
        c.text(
            "settings.aiSettings.customInstructions",
            "Custom instructions",
            &ai.custom_instructions,
            CUSTOM_INSTRUCTIONS_MAX,
        );

        let rules = &self.forms.form_display_rules;
        c.range(
            "settings.forms.formDisplayRules.minMessagesBeforeForm",
            "Messages before a form",
            rules.min_messages_before_form,
            0,
            50,
        );
        c.range(
            "settings.forms.formDisplayRules.maxFormsPerConversation",
            "Forms per conversation",
            rules.max_forms_per_conversation,
            1,
            10,
        );
        c.range(
            "settings.forms.formDisplayRules.cooldownBetweenForms",
            "Cooldown between forms",
            rules.cooldown_between_forms,
            0,
            50,
        );
        let forms = &mut self.forms.conversion_forms;
        if forms.len() > 20 {
            c.fail(
                "settings.forms.conversionForms",
                "At most 20 conversion forms",
            );
        }
        let defaults = forms.iter().filter(|f| f.is_default).count();
        if defaults > 1 {
            c.fail(
                "settings.forms.conversionForms",
                "Only one conversion form can be the default",
            );
        } else if defaults == 0
            && let Some(first) = forms.first_mut()
        {
            first.is_default = true;
        }
        let mut ids: Vec<String> = Vec::new();
        for (i, f) in forms.iter_mut().enumerate() {
            let p = format!("settings.forms.conversionForms.{i}");
            f.id = f.id.trim().to_string();
            if f.id.is_empty() {
                f.id = ca_core::ids::new_id().to_string();
            }
            if ids.contains(&f.id) {
                c.fail(&format!("{p}.id"), "Two forms share one id");
            }
            ids.push(f.id.clone());
            f.name = f.name.trim().to_string();
            if f.name.is_empty() {
                c.fail(&format!("{p}.name"), "Form name is required");
            }
            c.text(&format!("{p}.name"), "Form name", &f.name, 100);
            if f.form_type.is_empty() {
                f.form_type = "custom".into();
            }
            c.one_of(&format!("{p}.type"), "Form type", &f.form_type, &FORM_TYPES);
            c.text(&format!("{p}.title"), "Form title", &f.title, 200);
            c.text(&format!("{p}.subtitle"), "Form subtitle", &f.subtitle, 300);
            c.text(
                &format!("{p}.buttonText"),
                "Button text",
                &f.button_text,
                60,
            );
            c.text(
                &format!("{p}.successMessage"),
                "Success message",
                &f.success_message,
                500,
            );
            c.text(
                &format!("{p}.followUpMessage"),
                "Follow-up message",
                &f.follow_up_message,
                500,
            );
            if f.trigger_keywords.len() > 50 {
                c.fail(
                    &format!("{p}.triggerKeywords"),
                    "At most 50 trigger keywords",
                );
            }
            if f.fields.is_empty() {
                c.fail(&format!("{p}.fields"), "A form needs at least one field");
            }
            if f.fields.len() > 10 {
                c.fail(&format!("{p}.fields"), "At most 10 fields");
            }
            let mut names: Vec<String> = Vec::new();
            for (j, field) in f.fields.iter_mut().enumerate() {
                let fp = format!("{p}.fields.{j}");
                field.name = field.name.trim().to_string();
                if field.name.is_empty() {
                    c.fail(&format!("{fp}.name"), "Field name is required");
                } else if names.contains(&field.name) {
                    c.fail(
                        &format!("{fp}.name"),
                        format!("Field name \"{}\" is used twice", field.name),
                    );
                }
                names.push(field.name.clone());
                c.one_of(
                    &format!("{fp}.type"),
                    "Field type",
                    &field.field_type,
                    &FIELD_TYPES,
                );
                c.text(&format!("{fp}.label"), "Field label", &field.label, 100);
                c.text(
                    &format!("{fp}.placeholder"),
                    "Placeholder",
                    &field.placeholder,
                    100,
                );
            }
        }
        c.errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_match_the_seeds() {
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

    #[test]
    fn page_rules() {
        assert!(is_page_rule("/checkout"));
        assert!(is_page_rule("https://shop.example.in/blog/*"));
        assert!(!is_page_rule("javascript:alert(1)"));
        assert!(!is_page_rule("not a url"));
    }
}
