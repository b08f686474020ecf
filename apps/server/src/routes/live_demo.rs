//! `/live-demo`: the landing page's Watch Demo. A sample shop page with the
//! real widget on it, where a prospect moves the pointer out of the window
//! (or flicks up on a phone), sees the popup, asks the assistant and leaves
//! an email, with a caption of what is happening at each step.
//!
//! The widget talks to `/live-demo/api/widget/…`, which answers the widget's
//! calls for the demo campaign only and keeps nothing: no campaign, visitor,
//! conversation, lead or event is stored, so nothing done there counts in any
//! owner's figures. The assistant is the builtin one answering from the
//! sample shop's knowledge base, so the demo works on a fresh install with no
//! model configured.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use ca_campaigns::settings::CampaignSettings;
use ca_conversations::ConversationError;
use ca_conversations::assistant::{Brief, Request};
use ca_conversations::dto::{
    CollectedDataOut, MessageIn, OkOut, PublicForm, ReplyOut, StartOut, SubmitIn, SubmitOut,
    TimingOut, email_capture_form,
};
use ca_conversations::forms::{FormState, lead_offer, next_offer, validate_submission};
use ca_core::rate_limit::{Limit, RateLimiter};
use ca_tracking::dto::{PublicCampaign, PublicConfigOut};

use crate::error::ApiError;
use crate::extract::ClientIp;
use crate::state::AppState;

/// The demo campaign's id, as the widget on the page names it.
pub const CAMPAIGN_ID: &str = "live-demo";
/// Where the page's widget sends its calls.
const API_PREFIX: &str = "/live-demo";
/// Widget calls per client address per minute on the demo.
const CALLS_PER_MINUTE: u32 = 60;

/// The demo campaign: the sample shop's knowledge base and first-order offer,
/// armed at once and shown again after a minute (a prospect may try twice).
fn settings() -> CampaignSettings {
    let mut s = crate::demo_data::settings();
    s.exit_intent.delay = 0;
    s.exit_intent.cooldown = 1;
    s.targeting.min_time_on_page = 0;
    s.targeting.cooldown_minutes = 1;
    s.targeting.max_displays_per_session = 10;
    s.targeting.devices = vec!["desktop".into(), "mobile".into(), "tablet".into()];
    s.targeting.include_pages = Vec::new();
    s.targeting.exclude_pages = Vec::new();
    s
}

/// The demo's own count of calls per address (it stores nothing else, so it
/// needs no shared store).
fn limiter() -> &'static RateLimiter {
    static LIMITER: std::sync::OnceLock<RateLimiter> = std::sync::OnceLock::new();
    LIMITER.get_or_init(RateLimiter::memory)
}

async fn throttle(ip: &str) -> Result<(), ApiError> {
    limiter()
        .hit(
            &format!("live-demo:ip:{ip}"),
            Limit::new(CALLS_PER_MINUTE, 60),
        )
        .await
        .map_err(|retry| ConversationError::RateLimited(retry).into())
}

fn demo_only(id: &str) -> Result<(), ApiError> {
    if id.trim() == CAMPAIGN_ID {
        Ok(())
    } else {
        Err(ConversationError::CampaignNotFound.into())
    }
}

/// The demo campaign's widget configuration.
pub async fn config(path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    demo_only(&path)?;
    let s = settings();
    let out = PublicConfigOut {
        success: true,
        active: true,
        reason: None,
        campaign: Some(PublicCampaign {
            id: CAMPAIGN_ID.into(),
            exit_intent: s.exit_intent.clone(),
            popup: s.popup.clone(),
            targeting: s.targeting.clone(),
            greeting: s.greeting(),
            email_capture: PublicForm::of(&email_capture_form(&s)),
            test: None,
        }),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(out))
}

/// Page views, impressions and engaged time on the demo: answered, never
/// stored or counted.
pub async fn event(ip: ClientIp) -> Result<HttpResponse, ApiError> {
    throttle(&ip.limit_key()).await?;
    Ok(HttpResponse::Accepted().json(serde_json::json!({"success": true, "counted": false})))
}

/// The popup opened: a conversation id for the page, nothing stored.
pub async fn start(
    ip: ClientIp,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    throttle(&ip.limit_key()).await?;
    demo_only(
        body.get("campaignId")
            .and_then(|v| v.as_str())
            .unwrap_or(""),
    )?;
    Ok(HttpResponse::Created().json(StartOut {
        success: true,
        conversation_id: format!("demo_{}", ca_core::ids::new_id().simple()),
        greeting: settings().greeting(),
        ai_available: true,
        notice: None,
        form: None,
    }))
}

fn demo_conversation(id: &str) -> Result<(), ApiError> {
    if id.starts_with("demo_") && id.len() <= 64 {
        Ok(())
    } else {
        Err(ConversationError::NotFound.into())
    }
}

/// A question to the assistant: the builtin assistant answers from the sample
/// shop's texts, and the offer form comes with the answer as it would on a
/// real campaign (a trigger word, or the assistant asking for the email).
/// Answered as JSON, or as the widget's event stream when it asks for one.
pub async fn message(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    path: web::Path<String>,
    body: web::Json<MessageIn>,
) -> Result<HttpResponse, ApiError> {
    throttle(&ip.limit_key()).await?;
    demo_conversation(&path)?;
    let text = body.message.trim().to_string();
    if text.is_empty() {
        return Err(ConversationError::field("message", "Please type a message").into());
    }
    let max = state.config.widget_message_max_chars;
    if text.chars().count() > max {
        return Err(ConversationError::field(
            "message",
            &format!("Messages can be at most {max} characters"),
        )
        .into());
    }
    let s = settings();
    let forms = FormState {
        visitor_messages: 1,
        offered: Vec::new(),
        last_offer_at: None,
    };
    let offer = next_offer(&s.forms, &forms, &text);
    let hint = offer.map(|f| {
        format!(
            "Right after your answer the visitor will see the form \"{}\" ({}). You may mention it in one short sentence.",
            f.title, f.subtitle
        )
    });
    let assistant = ca_conversations::assistant::from_config(None, state.config.llm_history_tokens)
        .map_err(ApiError::internal)?;
    let ai = &s.ai_settings;
    let request = Request {
        brief: Brief {
            business_info: &ai.business_info,
            knowledge_base: &ai.knowledge_base,
            custom_instructions: &ai.custom_instructions,
            form_hint: hint.as_deref(),
            form_title: offer.map(|f| f.title.as_str()),
        },
        history: &[],
        message: &text,
    };
    let answer = assistant.reply(&request, &mut |_| {}).await;
    let form = offer.or_else(|| {
        answer
            .asks_for_email
            .then(|| lead_offer(&s.forms, &forms))
            .flatten()
    });
    let out = ReplyOut {
        success: true,
        reply: answer.text,
        form: form.map(PublicForm::of),
        source: "builtin".into(),
        timing: TimingOut {
            first_token_ms: 0,
            total_ms: 0,
        },
        total_messages: 3,
    };
    let streams = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"));
    if !streams {
        return Ok(HttpResponse::Ok().json(out));
    }
    let token = serde_json::json!({ "text": out.reply });
    let done = serde_json::to_string(&out).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(format!(
            "event: token\ndata: {token}\n\nevent: done\ndata: {done}\n\n"
        )))
}

/// The prospect left their details: checked like a real form, then
/// forgotten (the page says so).
pub async fn submit(
    ip: ClientIp,
    path: web::Path<String>,
    body: web::Json<SubmitIn>,
) -> Result<web::Json<SubmitOut>, ApiError> {
    throttle(&ip.limit_key()).await?;
    demo_conversation(&path)?;
    let s = settings();
    let input = body.into_inner();
    let form_id = input
        .form_id
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty());
    let form = match form_id {
        None | Some(ca_conversations::dto::EMAIL_CAPTURE_ID) => email_capture_form(&s),
        Some(id) => s
            .forms
            .conversion_forms
            .iter()
            .find(|f| f.id == id && f.active)
            .cloned()
            .ok_or(ConversationError::FormNotFound)?,
    };
    let values: Vec<(String, String)> = input.values.into_iter().collect();
    let data = validate_submission(&form, &values).map_err(ConversationError::invalid)?;
    let mut collected = CollectedDataOut::default();
    collected.merge(&data);
    Ok(web::Json(SubmitOut {
        success: true,
        message: form.success_message,
        follow_up_message: (!form.follow_up_message.trim().is_empty())
            .then(|| form.follow_up_message.trim().to_string()),
        collected_data: collected,
    }))
}

/// The prospect closed the popup.
pub async fn dismiss(ip: ClientIp, path: web::Path<String>) -> Result<web::Json<OkOut>, ApiError> {
    throttle(&ip.limit_key()).await?;
    demo_conversation(&path)?;
    Ok(web::Json(OkOut { success: true }))
}

/// The steps the caption walks through, in order (the page script moves on
/// as the widget makes its calls).
const STEPS: [(&str, &str); 5] = [
    (
        "Browse",
        "You are a shopper on Kesar Handlooms, a sample shop. The ConvertAssist widget is on this page, watching quietly.",
    ),
    (
        "Leave",
        "Now move your pointer out through the top of the window, as if to close the tab (on a phone, flick the page up quickly).",
    ),
    (
        "Popup",
        "You were about to leave, so the popup opened. Ask the assistant something, like \"Is shipping free?\" or \"Is there a discount on my first order?\"",
    ),
    (
        "Answer",
        "The assistant answered from the shop's own knowledge base, in rupees. Leave an email in the form to claim the offer.",
    ),
    (
        "Lead",
        "That is a lead: on a real campaign it appears in the owner's Customers with this conversation. This demo keeps nothing you typed.",
    ),
];

const STYLE: &str = ".demo-bar{position:sticky;top:0;z-index:10;background:#1b1f3b;color:#fff;font-family:Arial,sans-serif;padding:12px 24px}\
.demo-bar a{color:#c5cae9}.demo-bar h1{font-size:15px;margin:0 0 6px}\
.demo-steps{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0 0 8px;padding:0;font-size:13px}\
.demo-steps li{padding:3px 10px;border-radius:999px;background:#2f355f;color:#c5cae9}\
.demo-steps li[aria-current=step]{background:#ffd166;color:#1b1f3b;font-weight:bold}\
.demo-caption{margin:0;font-size:15px;line-height:1.4;max-width:880px}\
.demo-top{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap;align-items:baseline}";

/// The demo page.
pub async fn page(state: web::Data<AppState>) -> HttpResponse {
    let base = state.config.public_url();
    let steps: String = STEPS
        .iter()
        .enumerate()
        .map(|(i, (name, caption))| {
            let current = if i == 0 { " aria-current=\"step\"" } else { "" };
            format!(
                "<li data-step=\"{i}\" data-caption=\"{}\"{current}>{}. {name}</li>",
                caption.replace('"', "&quot;"),
                i + 1
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>Live demo · ConvertAssist</title><style>{}{STYLE}</style></head><body>\
<section class=\"demo-bar\" aria-label=\"What is happening\"><div class=\"demo-top\"><h1>ConvertAssist live demo</h1><a href=\"/\">Back to ConvertAssist</a></div>\
<ol class=\"demo-steps\">{steps}</ol><p class=\"demo-caption\" id=\"demo-caption\" aria-live=\"polite\">{}</p></section>\
{}\
<script src=\"{base}/live-demo/captions.js\"></script>\
<script src=\"{base}/widget/ca-widget.js\" data-campaign-id=\"{CAMPAIGN_ID}\" data-api-url=\"{base}{API_PREFIX}\" async defer></script></body></html>",
        super::test_widget::STYLE,
        STEPS[0].1,
        super::test_widget::shop_body("sample shop for the live demo"),
    );
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html)
}

/// The page's caption script: it watches the widget's calls to the demo and
/// moves the caption to the step they show (loaded before the widget, so it
/// sees every call).
const CAPTIONS_JS: &str = r#"(function () {
  var steps = document.querySelectorAll("[data-step]");
  var caption = document.getElementById("demo-caption");
  var at = 0;
  function show(n) {
    if (n <= at) return;
    at = n;
    for (var i = 0; i < steps.length; i += 1) {
      var s = steps[i];
      if (String(n) === s.getAttribute("data-step")) {
        s.setAttribute("aria-current", "step");
        if (caption) caption.textContent = s.getAttribute("data-caption");
      } else {
        s.removeAttribute("aria-current");
      }
    }
  }
  var original = window.fetch;
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : input && input.url ? input.url : String(input);
    var answer = original.apply(this, arguments);
    if (url.indexOf("/live-demo/api/widget/") !== -1) {
      answer.then(function (res) {
        if (!res.ok) return;
        var body = init && typeof init.body === "string" ? init.body : "";
        if (/\/config(\?|$)/.test(url)) show(1);
        else if (/\/events$/.test(url) && body.indexOf('"impression"') !== -1) show(2);
        else if (/\/conversations$/.test(url)) show(2);
        else if (/\/messages$/.test(url)) show(3);
        else if (/\/forms$/.test(url)) show(4);
      }, function () {});
    }
    return answer;
  };
})();
"#;

/// The caption script.
pub async fn captions() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(CAPTIONS_JS)
}
