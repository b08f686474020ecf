//! Bounds of every campaign setting, checked section by section; each failure
//! is a field error under its dotted path (`settings.exitIntent.delay`).

use ca_core::FieldErrors;

use super::{
    AiSettings, BUSINESS_INFO_MAX, CUSTOM_INSTRUCTIONS_MAX, CampaignSettings, ConversionForm,
    DEVICES, ExitIntentSettings, FIELD_TYPES, FONTS, FORM_TYPES, FormField, FormSettings,
    INITIAL_MESSAGE_MAX, KNOWLEDGE_BASE_MAX, POPUP_SIZES, PopupDesign, PopupSettings,
    SENSITIVITIES, TargetingSettings, TrustBadge,
};

/// Collects field errors under dotted paths such as `settings.exitIntent.delay`.
pub(super) struct Check {
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
    /// field errors of everything else, one check per settings section.
    pub fn normalize_and_check(&mut self) -> FieldErrors {
        let mut c = Check {
            errors: FieldErrors::new(),
        };
        exit_intent(&mut c, &mut self.exit_intent);
        popup(&mut c, &mut self.popup);
        targeting(&mut c, &mut self.targeting);
        ai(&mut c, &self.ai_settings);
        forms(&mut c, &mut self.forms);
        c.range(
            "settings.revenue.maxOrderValue",
            "Largest order counted",
            self.revenue.max_order_value,
            1,
            10_000_000,
        );
        c.errors
    }
}

/// When the popup may open: sensitivity, delay, cooldown.
fn exit_intent(c: &mut Check, ei: &mut ExitIntentSettings) {
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
}

/// The popup's texts, colours, position and design, and its trust badges.
fn popup(c: &mut Check, popup: &mut PopupSettings) {
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
    design(c, &mut popup.design);
}

/// The popup's design: size, spacing, font, colours, texts and trust badges.
fn design(c: &mut Check, d: &mut PopupDesign) {
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
    trust_badges(c, &mut d.trust_badges);
}

/// At most eight badges, each with a short text and icon.
fn trust_badges(c: &mut Check, badges: &mut [TrustBadge]) {
    if badges.len() > 8 {
        c.fail(
            "settings.popup.design.trustBadges",
            "At most 8 trust badges",
        );
    }
    for (i, b) in badges.iter_mut().enumerate() {
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
}

/// Who sees the popup: devices, time on page, displays, cooldown, page rules.
fn targeting(c: &mut Check, t: &mut TargetingSettings) {
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
}

/// The assistant's texts, each within its length limit.
fn ai(c: &mut Check, ai: &AiSettings) {
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
}

/// The form display rules and every conversion form with its fields.
fn forms(c: &mut Check, settings: &mut FormSettings) {
    let rules = &settings.form_display_rules;
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
    let forms = &mut settings.conversion_forms;
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
        conversion_form(
            c,
            &format!("settings.forms.conversionForms.{i}"),
            f,
            &mut ids,
        );
    }
}

/// One conversion form at `p`: id (unique among `ids`, made when blank), name,
/// type, texts and its fields.
fn conversion_form(c: &mut Check, p: &str, f: &mut ConversionForm, ids: &mut Vec<String>) {
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
    form_fields(c, p, &mut f.fields);
}

/// A form's fields: named, each name once, a known type, short label and placeholder.
fn form_fields(c: &mut Check, p: &str, fields: &mut [FormField]) {
    let mut names: Vec<String> = Vec::new();
    for (j, field) in fields.iter_mut().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_rules() {
        assert!(is_page_rule("/checkout"));
        assert!(is_page_rule("https://shop.example.in/blog/*"));
        assert!(!is_page_rule("javascript:alert(1)"));
        assert!(!is_page_rule("not a url"));
    }
}
