//! Wire types of the public widget conversation calls.

use std::collections::BTreeMap;

use ca_campaigns::settings::{CampaignSettings, ConversionForm};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::forms::CollectedData;

/// Where the visitor is: page, referrer, device (a conversation's `userContext`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UserContext {
    /// `desktop`, `mobile` or `tablet`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ca_campaigns::settings::Device>, inline)]
    pub device_type: Option<String>,
    /// The page the visitor was on (http or https, at most 500 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        max_length = 500,
        pattern = r"^https?://(localhost|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)(/[A-Za-z0-9._~/-]*)?$"
    )]
    pub current_url: Option<String>,
}

/// `POST /api/widget/conversations`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub campaign_id: String,
    /// The widget's first-party visitor id (8–64 letters, digits, `-` or `_`).
    #[serde(default)]
    #[schema(required = true, pattern = r"^[A-Za-z0-9_\-]{8,64}$")]
    pub visitor_id: String,
    /// The widget's per-tab session id (same alphabet), optional.
    #[serde(default)]
    #[schema(pattern = r"^[A-Za-z0-9_\-]{8,64}$")]
    pub session_id: Option<String>,
    #[serde(default)]
    pub user_context: UserContext,
    /// The A/B test variant the widget assigned this visitor (an `id` of the
    /// public config's `campaign.test.variants`). While it is an unpaused
    /// variant of the campaign's running test the conversation counts for
    /// it, its lead counts for it too, and the chat answers with that
    /// variant's greeting and forms; any other value is ignored (never an
    /// error).
    #[serde(default, deserialize_with = "ca_core::validation::lenient")]
    #[schema(max_length = 64)]
    pub variant_id: Option<String>,
}

/// A conversion form as the widget shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PublicForm {
    pub id: String,
    pub name: String,
    /// `lead`, `coupon`, … (the owner's form type).
    #[serde(rename = "type")]
    pub form_type: String,
    pub title: String,
    pub subtitle: String,
    pub button_text: String,
    pub success_message: String,
    pub fields: Vec<PublicField>,
}

/// One field of a [`PublicForm`].
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PublicField {
    pub name: String,
    pub label: String,
    /// `text`, `email`, `phone`, …
    #[serde(rename = "type")]
    pub field_type: String,
    pub required: bool,
    pub placeholder: String,
}

/// The id of the email-capture form every popup has (the popup design's form
/// title and submit button), also used when the campaign defines no form.
pub const EMAIL_CAPTURE_ID: &str = "email-capture";

impl PublicForm {
    pub fn of(form: &ConversionForm) -> Self {
        Self {
            id: form.id.clone(),
            name: form.name.clone(),
            form_type: form.form_type.clone(),
            title: form.title.clone(),
            subtitle: form.subtitle.clone(),
            button_text: form.button_text.clone(),
            success_message: form.success_message.clone(),
            fields: form
                .fields
                .iter()
                .map(|f| PublicField {
                    name: f.name.clone(),
                    label: f.label.clone(),
                    field_type: f.field_type.clone(),
                    required: f.required,
                    placeholder: f.placeholder.clone(),
                })
                .collect(),
        }
    }
}

/// The popup's own email capture as a form definition.
pub fn email_capture_form(settings: &CampaignSettings) -> ConversionForm {
    use ca_campaigns::settings::FormField;
    let design = &settings.popup.design;
    ConversionForm {
        id: EMAIL_CAPTURE_ID.into(),
        name: "Email capture".into(),
        form_type: "lead".into(),
        title: design.form_title.clone(),
        subtitle: design.form_subtitle.clone(),
        button_text: design.submit_button_text.clone(),
        success_message: "Thank you! We'll be in touch soon.".into(),
        follow_up_message: String::new(),
        fields: vec![FormField {
            name: "email".into(),
            label: "Email".into(),
            field_type: "email".into(),
            required: true,
            placeholder: "Enter your email".into(),
        }],
        trigger_keywords: Vec::new(),
        is_default: false,
        active: true,
    }
}

/// The lead form: the default active form, else the first active one, else
/// the popup's email capture.
pub fn lead_form(settings: &CampaignSettings) -> ConversionForm {
    let active = settings.forms.conversion_forms.iter().filter(|f| f.active);
    active
        .clone()
        .find(|f| f.is_default)
        .or_else(|| active.clone().next())
        .cloned()
        .unwrap_or_else(|| email_capture_form(settings))
}

/// `201` answer of a started conversation.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartOut {
    pub success: bool,
    pub conversation_id: String,
    /// The campaign's initial message (its A/B test variant's, when the
    /// visitor's variant counts and changes it), or the default greeting.
    pub greeting: String,
    /// False when the owner is past the plan's monthly AI conversations: the
    /// widget shows `notice` and `form` instead of the chat.
    pub ai_available: bool,
    /// Shown instead of the chat when the assistant is not available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// The lead form to show at once (only when the assistant is not available).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<PublicForm>,
}

/// `POST /api/widget/conversations/{conversationId}/messages`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageIn {
    /// The visitor's message (1–1,000 characters).
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub message: String,
}

/// How long a reply took.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TimingOut {
    pub first_token_ms: i64,
    pub total_ms: i64,
}

/// The assistant's reply (the JSON answer, and the SSE `done` event's data).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyOut {
    pub success: bool,
    pub reply: String,
    /// The form to show under the reply, if the form rules offer one now.
    pub form: Option<PublicForm>,
    /// `builtin`, `provider` or `limit` (plan's AI conversations used up).
    pub source: String,
    pub timing: TimingOut,
    /// Messages in the conversation after this reply.
    pub total_messages: i64,
}

/// `POST /api/widget/conversations/{conversationId}/forms`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitIn {
    /// The form's id; absent or `email-capture` means the popup's email field.
    #[serde(default)]
    pub form_id: Option<String>,
    /// Field name → value.
    #[serde(default)]
    pub values: BTreeMap<String, String>,
    /// Honeypot: hidden from people, filled by bots. A filled one is accepted
    /// silently and stored nowhere.
    #[serde(default)]
    pub website: Option<String>,
}

/// Contact data the visitor left in forms (a conversation's `collectedData`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CollectedDataOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// The owner's own fields.
    #[serde(default, flatten)]
    pub other: BTreeMap<String, String>,
}

impl CollectedDataOut {
    /// Adds newly collected values over the stored ones.
    pub fn merge(&mut self, new: &CollectedData) {
        if new.name.is_some() {
            self.name.clone_from(&new.name);
        }
        if new.email.is_some() {
            self.email.clone_from(&new.email);
        }
        if new.phone.is_some() {
            self.phone.clone_from(&new.phone);
        }
        if new.company.is_some() {
            self.company.clone_from(&new.company);
        }
        for (k, v) in &new.other {
            self.other.insert(k.clone(), v.clone());
        }
    }
}

/// Answer of an accepted form.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitOut {
    pub success: bool,
    /// The form's success message.
    pub message: String,
    /// The form's follow-up message, shown in the chat after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_up_message: Option<String>,
    pub collected_data: CollectedDataOut,
}

/// `{success}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OkOut {
    pub success: bool,
}
