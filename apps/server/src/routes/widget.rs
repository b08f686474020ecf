//! `/api/widget/*`: the public calls the embedded widget makes from owners'
//! sites. Any origin may call them (no credentials); every call is limited per
//! visitor IP and per campaign.

use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use ca_conversations::dto::{MessageIn, OkOut, ReplyOut, StartIn, StartOut, SubmitIn, SubmitOut};
use ca_core::ErrorKind;
use ca_tracking::dto::{AcceptedOut, EventIn, PublicConfigOut, PurchaseIn, PurchaseOut};
use futures_util::stream;
use serde::Serialize;

use crate::error::{ApiError, ErrorBody};
use crate::extract::ClientIp;
use crate::state::AppState;

/// A campaign's public configuration: what the widget needs to decide when
/// and how to show the popup. Cacheable: answers carry an ETag, and a matching
/// `If-None-Match` gets `304`.
#[utoipa::path(
    tag = "widget",
    params(("id" = String, Path, description = "Campaign id")),
    responses(
        (status = 200, description = "The configuration, or `active: false` with the reason", body = PublicConfigOut),
        (status = 304, description = "Unchanged since the ETag sent"),
        (status = 404, description = "`campaign_not_found`", body = ErrorBody),
    )
)]
#[get("/campaigns/{id}/config")]
pub async fn config(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let cached = state
        .tracking
        .public_config(&path, chrono::Utc::now())
        .await?;
    let matches = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == cached.etag));
    let mut res = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, cached.etag.clone()))
        .insert_header((header::CACHE_CONTROL, "public, max-age=60"));
    if matches {
        return Ok(res.finish());
    }
    Ok(res
        .content_type("application/json")
        .body(cached.body.as_ref().clone()))
}

/// Reads a JSON body sent as `application/json` or as `text/plain` (what
/// `navigator.sendBeacon` sends without a CORS preflight).
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::new(
            ErrorKind::Validation,
            "malformed_json",
            format!("The request body is not valid JSON for this call: {e}"),
        )
    })
}

fn origin(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Report a page view (counts the owner's monthly unique visitors), an
/// impression (the popup was shown) or engaged time on a page (the visitor's
/// session time, once they are a customer). Accepted only from the campaign's
/// website (and its subdomains) or this server, for a campaign that is
/// switched on. The answer comes once the event is stored, so an accepted
/// event is never lost. Events from the owner's Preview page are answered
/// but not counted (`counted: false`).
#[utoipa::path(
    tag = "widget",
    request_body = EventIn,
    responses(
        (status = 202, description = "Stored", body = AcceptedOut),
        (status = 400, description = "Bad event; `errors` names the field", body = ErrorBody),
        (status = 403, description = "`origin_not_allowed`: not sent from the campaign's website", body = ErrorBody),
        (status = 404, description = "`campaign_not_found`", body = ErrorBody),
        (status = 409, description = "`campaign_inactive`: the campaign is switched off; nothing is counted", body = ErrorBody),
        (status = 503, description = "`busy` (the server is behind with storing events) or `not_stored` (the database refused it): nothing was counted; send it again after `Retry-After` seconds", body = ErrorBody),
        (status = 429, description = "Too many events; see Retry-After", body = ErrorBody),
    )
)]
#[post("/events")]
pub async fn record_event(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: EventIn = json_body(&body)?;
    let counted = state
        .tracking
        .event(
            input,
            origin(&req).as_deref(),
            &ip.limit_key(),
            chrono::Utc::now(),
        )
        .await?;
    Ok(HttpResponse::Accepted().json(AcceptedOut {
        success: true,
        counted,
    }))
}

/// Record a purchase from the owner's thank-you page (`caTrack('purchase',
/// {value, currency, orderId})`). Its value goes to the campaign the visitor
/// converted on or interacted with within the attribution window (30 days by
/// default); an order id already recorded counts nothing again.
#[utoipa::path(
    tag = "widget",
    request_body = PurchaseIn,
    responses(
        (status = 200, description = "Recorded (or a duplicate)", body = PurchaseOut),
        (status = 400, description = "Bad purchase; `errors` names the field", body = ErrorBody),
        (status = 403, description = "`origin_not_allowed`", body = ErrorBody),
        (status = 404, description = "`campaign_not_found`", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/purchases")]
pub async fn purchase(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    body: web::Bytes,
) -> Result<web::Json<PurchaseOut>, ApiError> {
    let input: PurchaseIn = json_body(&body)?;
    Ok(web::Json(
        state
            .tracking
            .purchase(
                input,
                origin(&req).as_deref(),
                &ip.limit_key(),
                chrono::Utc::now(),
            )
            .await?,
    ))
}

/// Start a conversation with a campaign's assistant; answers the greeting.
///
/// When the owner's plan has no AI conversations left this month the
/// conversation still starts: `aiAvailable` is false and the answer carries a
/// `notice` and the lead `form` to show instead of the chat.
#[utoipa::path(
    tag = "widget",
    request_body = StartIn,
    responses(
        (status = 201, description = "Started", body = StartOut),
        (status = 400, description = "A field breaks a rule; `errors` names it", body = ErrorBody),
        (status = 403, description = "`campaign_inactive`: the campaign is switched off", body = ErrorBody),
        (status = 404, description = "`campaign_not_found`", body = ErrorBody),
        (status = 429, description = "Too many calls from this IP or for this campaign; see Retry-After", body = ErrorBody),
    )
)]
#[post("/conversations")]
pub async fn start_conversation(
    state: web::Data<AppState>,
    ip: ClientIp,
    body: web::Json<StartIn>,
) -> Result<HttpResponse, ApiError> {
    let out = state
        .conversations
        .start(body.into_inner(), &ip.limit_key(), chrono::Utc::now())
        .await?;
    Ok(HttpResponse::Created().json(out))
}

fn wants_event_stream(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// One server-sent event.
fn sse(name: &str, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".into());
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

#[derive(Serialize)]
struct TokenEvent<'a> {
    text: &'a str,
}

#[derive(Serialize)]
struct ErrorEvent {
    message: String,
    code: String,
}

/// Send a visitor message; the assistant's reply comes back as server-sent
/// events when the request accepts `text/event-stream`, as JSON otherwise.
///
/// Events: `token` (`{text}`, pieces of the reply in order), then `done`
/// (the whole reply with the form to show, as in the JSON answer) or `error`
/// (`{message, code}`). A `: ping` comment line keeps the stream open every
/// 15 seconds while the assistant is thinking.
#[utoipa::path(
    tag = "widget",
    params(("conversationId" = String, Path, description = "The conversation's public id")),
    request_body = MessageIn,
    responses(
        (status = 200, description = "The reply (JSON), or its event stream", content(
            (ReplyOut = "application/json"),
            (String = "text/event-stream"),
        )),
        (status = 400, description = "Empty or too long message", body = ErrorBody),
        (status = 404, description = "`conversation_not_found`", body = ErrorBody),
        (status = 409, description = "`conversation_ended`: start a new conversation", body = ErrorBody),
        (status = 422, description = "`message_limit_reached`: the body's `form` is the lead form to show", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/conversations/{conversationId}/messages")]
pub async fn send_message(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    path: web::Path<String>,
    body: web::Json<MessageIn>,
) -> Result<HttpResponse, ApiError> {
    let now = chrono::Utc::now();
    let turn = state
        .conversations
        .begin(&path, body.into_inner(), &ip.limit_key(), now)
        .await?;
    if !wants_event_stream(&req) {
        let out = state.conversations.complete(turn, &mut |_| {}).await?;
        return Ok(HttpResponse::Ok().json(out));
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    let service = state.conversations.clone();
    let heartbeat = Duration::from_millis(state.config.sse_heartbeat_ms);
    actix_web::rt::spawn(async move {
        let token_tx = tx.clone();
        let mut on_token = move |t: &str| {
            let _ = token_tx.send(sse("token", &TokenEvent { text: t }));
        };
        let reply = service.complete(turn, &mut on_token);
        tokio::pin!(reply);
        let mut ticker =
            tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat);
        // The reply is stored even when the visitor has gone; only the sends fail.
        let result = loop {
            tokio::select! {
                result = &mut reply => break result,
                _ = ticker.tick() => {
                    let _ = tx.send(Bytes::from_static(b": ping\n\n"));
                }
            }
        };
        let _ = match result {
            Ok(out) => tx.send(sse("done", &out)),
            Err(err) => {
                let api: ApiError = ApiError::from(err);
                tx.send(sse(
                    "error",
                    &ErrorEvent {
                        message: api.message().to_string(),
                        code: api.code().to_string(),
                    },
                ))
            }
        };
    });
    let body = stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|chunk| (Ok::<_, actix_web::Error>(chunk), rx))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("x-accel-buffering", "no"))
        // Compression would hold tokens back; an explicit identity keeps it off.
        .insert_header((
            header::CONTENT_ENCODING,
            HeaderValue::from_static("identity"),
        ))
        .streaming(body))
}

/// Submit a conversion form (or the popup's email field: `formId` absent or
/// `email-capture`). Fields are checked against the form's definitions. A
/// form sent from the owner's own Preview page (this server's origin) is
/// answered the same but makes no lead, customer or conversion.
#[utoipa::path(
    tag = "widget",
    params(("conversationId" = String, Path, description = "The conversation's public id")),
    request_body = SubmitIn,
    responses(
        (status = 200, description = "Accepted", body = SubmitOut),
        (status = 400, description = "A field breaks a rule; `errors` names it", body = ErrorBody),
        (status = 404, description = "`conversation_not_found` or `form_not_found`", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/conversations/{conversationId}/forms")]
pub async fn submit_form(
    state: web::Data<AppState>,
    req: HttpRequest,
    ip: ClientIp,
    path: web::Path<String>,
    body: web::Json<SubmitIn>,
) -> Result<web::Json<SubmitOut>, ApiError> {
    let now = chrono::Utc::now();
    Ok(web::Json(
        state
            .tracking
            .submit_form(
                &path,
                body.into_inner(),
                &ip.limit_key(),
                origin(&req).as_deref(),
                now,
            )
            .await?,
    ))
}

/// The visitor closed the popup: the conversation ends with the outcome
/// `dismissal` (unless it already converted).
#[utoipa::path(
    tag = "widget",
    params(("conversationId" = String, Path, description = "The conversation's public id")),
    responses(
        (status = 200, description = "Recorded", body = OkOut),
        (status = 404, description = "`conversation_not_found`", body = ErrorBody),
        (status = 429, description = "Too many calls; see Retry-After", body = ErrorBody),
    )
)]
#[post("/conversations/{conversationId}/dismiss")]
pub async fn dismiss(
    state: web::Data<AppState>,
    ip: ClientIp,
    path: web::Path<String>,
) -> Result<web::Json<OkOut>, ApiError> {
    Ok(web::Json(
        state
            .conversations
            .dismiss(&path, &ip.limit_key(), chrono::Utc::now())
            .await?,
    ))
}
