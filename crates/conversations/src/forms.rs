//! When the assistant offers a conversion form (the campaign's form display rules),
//! decided on the server so every client obeys it.

use ca_campaigns::settings::{ConversionForm, FormSettings};

/// What has happened in a conversation so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormState {
    /// Visitor messages, counting the one being answered.
    pub visitor_messages: i64,
    /// Ids of the forms offered so far, in order.
    pub offered: Vec<String>,
    /// `visitor_messages` when the last form was offered.
    pub last_offer_at: Option<i64>,
}

fn keyword_hit(form: &ConversionForm, message: &str) -> bool {
    let words: Vec<String> = message
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    form.trigger_keywords.iter().any(|k| {
        let k = k.to_lowercase();
        if k.contains(' ') {
            message.to_lowercase().contains(&k)
        } else {
            words
                .iter()
                .any(|w| *w == k || w.strip_suffix('s') == Some(k.as_str()))
        }
    })
}

/// The form to offer with this reply, if any: never past the cap, never within
/// the cooldown, never the same form twice; a trigger keyword in `message`
/// offers its form at once, otherwise a form comes after the minimum number of
/// visitor messages; the default form first.
pub fn next_offer<'a>(
    settings: &'a FormSettings,
    state: &FormState,
    message: &str,
) -> Option<&'a ConversionForm> {
    let candidates = open_candidates(settings, state)?;
    if let Some(form) = candidates.iter().find(|f| keyword_hit(f, message)) {
        return Some(form);
    }
    if state.visitor_messages >= settings.form_display_rules.min_messages_before_form {
        return candidates.first().copied();
    }
    None
}

/// The forms that may still be offered now, the default first; `None` when
/// the cap is reached or the cooldown since the last form is running.
fn open_candidates<'a>(
    settings: &'a FormSettings,
    state: &FormState,
) -> Option<Vec<&'a ConversionForm>> {
    let rules = &settings.form_display_rules;
    if i64::try_from(state.offered.len()).unwrap_or(i64::MAX) >= rules.max_forms_per_conversation {
        return None;
    }
    if let Some(at) = state.last_offer_at
        && state.visitor_messages - at < rules.cooldown_between_forms
    {
        return None;
    }
    let mut candidates: Vec<&ConversionForm> = settings
        .conversion_forms
        .iter()
        .filter(|f| f.active && !state.offered.contains(&f.id))
        .collect();
    // Stable: the default first, then the owner's order.
    candidates.sort_by_key(|f| !f.is_default);
    Some(candidates)
}

/// What a visitor told us through forms (a conversation's `collectedData`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectedData {
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub company: Option<String>,
    /// Values of the owner's own fields, by field name.
    pub other: Vec<(String, String)>,
}

/// A form value as one line: every field is a single-line input, and the
/// values go into the owner's lead emails and exports, where a line break or
/// control character typed by a visitor could pass for the platform's own
/// text. Runs of spaces, line breaks and control characters become one space.
fn single_line(value: &str) -> String {
    value
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks a submitted form against its field definitions (required, email,
/// phone) and returns the collected data, or the field errors.
pub fn validate_submission(
    form: &ConversionForm,
    values: &[(String, String)],
) -> Result<CollectedData, ca_core::FieldErrors> {
    let mut errors = ca_core::FieldErrors::new();
    let mut data = CollectedData::default();
    for field in &form.fields {
        let value = values
            .iter()
            .find(|(k, _)| *k == field.name)
            .map(|(_, v)| single_line(v))
            .unwrap_or_default();
        let label = if field.label.is_empty() {
            &field.name
        } else {
            &field.label
        };
        if value.is_empty() {
            if field.required {
                errors.insert(field.name.clone(), vec![format!("{label} is required")]);
            }
            continue;
        }
        if value.chars().count() > 500 {
            errors.insert(field.name.clone(), vec![format!("{label} is too long")]);
            continue;
        }
        let ok = match field.field_type.as_str() {
            "email" => validator::ValidateEmail::validate_email(&value),
            "phone" => ca_core::validation::phone(&value).is_ok(),
            _ => true,
        };
        if !ok {
            let what = if field.field_type == "email" {
                "email address"
            } else {
                "phone number"
            };
            errors.insert(
                field.name.clone(),
                vec![format!("Please enter a valid {what}")],
            );
            continue;
        }
        let value = if field.field_type == "email" {
            value.to_lowercase()
        } else {
            value
        };
        match field.name.as_str() {
            "name" => data.name = Some(value),
            "email" => data.email = Some(value),
            "phone" => data.phone = Some(value),
            "company" => data.company = Some(value),
            other => data.other.push((other.to_string(), value)),
        }
    }
    if errors.is_empty() {
        Ok(data)
    } else {
        Err(errors)
    }
}

/// The lead form to offer when the assistant asked for the visitor's email:
/// the cap, the cooldown and "never twice" still hold, the message count does not.
pub fn lead_offer<'a>(settings: &'a FormSettings, state: &FormState) -> Option<&'a ConversionForm> {
    open_candidates(settings, state)?.first().copied()
}
