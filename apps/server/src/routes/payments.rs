//! `/api/payment/*` and `/payment/verify`: buying a plan through PayU's hosted
//! page, PayU's return and webhook, verification, status, history and
//! invoices. `/payment/simulator` is the built-in stand-in of PayU's hosted
//! page (mode `simulator`), served as plain HTML.

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::{HttpResponse, get, post, web};
use ca_billing::dto::{
    HistoryResponse, InitializeIn, InitializeResponse, InvoiceResponse, StatusResponse, VerifyIn,
    VerifyResponse,
};
use ca_billing::payments::CallbackRefused;
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use crate::error::{ApiError, ErrorBody};
use crate::extract::{BuyerBrowser, CurrentUser};
use crate::state::AppState;

/// Start paying for a plan: creates the pending payment and answers the
/// hosted page's URL and the signed form fields to post there. The amount
/// comes from the plan: a monthly plan costs its price for a month, or 10 ×
/// its price for a year (`udf4 = annual`); a yearly plan costs its price for
/// a year (`udf4` left out or `annual`; `monthly` is refused). Checkout
/// charges INR only: a plan priced in another currency is refused (422,
/// code `checkout_currency`) and is arranged with sales.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    request_body = InitializeIn,
    responses(
        (status = 200, description = "Post `params` as a form to `action`", body = InitializeResponse),
        (status = 400, description = "No plan chosen, an unknown cycle, or monthly for a yearly plan", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Invite-only plan without an invitation", body = ErrorBody),
        (status = 404, description = "No such plan", body = ErrorBody),
        (status = 409, description = "Already on this plan", body = ErrorBody),
        (status = 422, description = "Free or contact-sales plan, or a plan not priced in INR", body = ErrorBody),
        (status = 429, description = "More than 10 checkouts started in a minute", body = ErrorBody),
    )
)]
#[post("/initialize")]
pub async fn initialize(
    state: web::Data<AppState>,
    user: CurrentUser,
    browser: BuyerBrowser,
    body: web::Json<InitializeIn>,
) -> Result<web::Json<InitializeResponse>, ApiError> {
    Ok(web::Json(InitializeResponse {
        success: true,
        data: state
            .billing
            .initialize(&user.0, body.into_inner(), browser.0)
            .await?,
    }))
}

async fn verify_payment(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<VerifyIn>,
) -> Result<web::Json<VerifyResponse>, ApiError> {
    Ok(web::Json(state.billing.verify(&user.0, &body.txnid).await?))
}

/// The owner's payment, settled from PayU's answer (`verify_payment`) when it
/// was still pending. `data.status` says how it ended.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    request_body = VerifyIn,
    responses(
        (status = 200, description = "The payment", body = VerifyResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[post("/verify")]
pub async fn verify(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<VerifyIn>,
) -> Result<web::Json<VerifyResponse>, ApiError> {
    verify_payment(state, user, body).await
}

/// The same as `POST /api/payment/verify`, at the path existing clients call.
#[utoipa::path(
    tag = "payments",
    operation_id = "payment_verify_root",
    security(("bearer" = [])),
    request_body = VerifyIn,
    responses(
        (status = 200, description = "The payment", body = VerifyResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[post("/payment/verify")]
pub async fn verify_root(
    state: web::Data<AppState>,
    user: CurrentUser,
    body: web::Json<VerifyIn>,
) -> Result<web::Json<VerifyResponse>, ApiError> {
    verify_payment(state, user, body).await
}

/// The owner's payment status; while pending, PayU is asked at most every few seconds.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    params(("txnid" = String, Path, description = "Transaction id")),
    responses(
        (status = 200, description = "Status", body = StatusResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent or not yours", body = ErrorBody),
    )
)]
#[get("/status/{txnid}")]
pub async fn status(
    state: web::Data<AppState>,
    user: CurrentUser,
    txnid: web::Path<String>,
) -> Result<web::Json<StatusResponse>, ApiError> {
    Ok(web::Json(StatusResponse {
        success: true,
        data: state.billing.status(&user.0, &txnid).await?,
    }))
}

/// The owner's payments, newest first.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Payments", body = HistoryResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
    )
)]
#[get("/history")]
pub async fn history(
    state: web::Data<AppState>,
    user: CurrentUser,
) -> Result<web::Json<HistoryResponse>, ApiError> {
    Ok(web::Json(HistoryResponse {
        success: true,
        data: state.billing.history(&user.0).await?,
    }))
}

/// The invoice of one of the owner's successful (or since refunded)
/// payments, as it was issued: seller, buyer, place of supply, SAC, taxable
/// value, CGST and SGST (buyer in the seller's state) or IGST, total in
/// words, and the credit note when the payment was refunded.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    params(("txnid" = String, Path, description = "Transaction id")),
    responses(
        (status = 200, description = "Invoice", body = InvoiceResponse),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent, not yours, or not a successful payment", body = ErrorBody),
    )
)]
#[get("/invoice/{txnid}")]
pub async fn invoice(
    state: web::Data<AppState>,
    user: CurrentUser,
    txnid: web::Path<String>,
) -> Result<web::Json<InvoiceResponse>, ApiError> {
    Ok(web::Json(InvoiceResponse {
        success: true,
        data: state.billing.invoice(&user.0, &txnid).await?,
    }))
}

/// The tax invoice of one of the owner's successful (or since refunded)
/// payments as an A4 PDF, as it was issued.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    params(("txnid" = String, Path, description = "Transaction id")),
    responses(
        (status = 200, description = "The invoice as an A4 PDF", content_type = "application/pdf", body = String),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent, not yours, or not a successful payment", body = ErrorBody),
    )
)]
#[get("/invoice/{txnid}/pdf")]
pub async fn invoice_pdf(
    state: web::Data<AppState>,
    user: CurrentUser,
    txnid: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (name, bytes) = state.billing.document_pdf(&user.0, &txnid, false).await?;
    Ok(pdf_response(&name, bytes))
}

/// The credit note issued when one of the owner's payments was refunded, as
/// an A4 PDF.
#[utoipa::path(
    tag = "payments",
    security(("bearer" = [])),
    params(("txnid" = String, Path, description = "Transaction id")),
    responses(
        (status = 200, description = "The credit note as an A4 PDF", content_type = "application/pdf", body = String),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 404, description = "Absent, not yours, or not refunded", body = ErrorBody),
    )
)]
#[get("/invoice/{txnid}/credit-note/pdf")]
pub async fn credit_note_pdf(
    state: web::Data<AppState>,
    user: CurrentUser,
    txnid: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (name, bytes) = state.billing.document_pdf(&user.0, &txnid, true).await?;
    Ok(pdf_response(&name, bytes))
}

fn pdf_response(name: &str, bytes: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(bytes)
}

fn form_fields(body: &[u8]) -> HashMap<String, String> {
    serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
        .unwrap_or_default()
        .into_iter()
        .collect()
}

fn log_refused(kind: &str, refused: &CallbackRefused) {
    tracing::warn!(callback = kind, reason = %refused, "payment callback refused; nothing changed");
}

fn see_other(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

fn query(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// Where PayU returns the buyer (both `surl` and `furl`): a form POST with the
/// result and its hash. It is applied once when it checks out, then the
/// browser goes to the success, failure or status page. A forged, tampered
/// or unknown callback changes nothing.
#[utoipa::path(
    tag = "payments",
    request_body(content = Option<String>, content_type = "application/x-www-form-urlencoded", description = "PayU's result fields; a browser that arrives without them is sent to the failure page"),
    responses(
        (status = 303, description = "To /payment/success, /payment/failure or /payment/status"),
    )
)]
#[post("/return")]
pub async fn payu_return(state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    let fields = form_fields(&body);
    match state.billing.callback(&fields).await {
        Ok(s) => match s.status.as_str() {
            "success" => see_other(format!(
                "/payment/success?{}",
                query(&[("txnid", &s.txnid)])
            )),
            "failure" => {
                let error = fields
                    .get("unmappedstatus")
                    .cloned()
                    .unwrap_or_else(|| "failure".into());
                let message = s.error.unwrap_or_default();
                see_other(format!(
                    "/payment/failure?{}",
                    query(&[
                        ("txnid", &s.txnid),
                        ("error", &error),
                        ("error_Message", &message),
                    ])
                ))
            }
            _ => see_other(format!(
                "/payment/status?{}",
                query(&[("txnid", &s.txnid), ("status", "pending")])
            )),
        },
        Err(CallbackRefused::NotStored { txnid }) => see_other(format!(
            "/payment/status?{}",
            query(&[("txnid", &txnid), ("status", "pending")])
        )),
        Err(refused) => {
            log_refused("return", &refused);
            see_other(format!(
                "/payment/failure?{}",
                query(&[
                    ("error", "verification_failed"),
                    (
                        "error_Message",
                        "We could not verify this payment's details. If money was taken, contact support.",
                    ),
                ])
            ))
        }
    }
}

/// PayU's webhook (enter this URL in PayU's dashboard): the same fields and
/// hash as the return. Resends are answered 200 and change nothing.
#[utoipa::path(
    tag = "payments",
    request_body(content = Option<String>, content_type = "application/x-www-form-urlencoded", description = "PayU's result fields; a browser that arrives without them is sent to the failure page"),
    responses(
        (status = 200, description = "Applied, or already applied", body = WebhookOut),
        (status = 400, description = "Forged, tampered or unknown; nothing changed", body = ErrorBody),
        (status = 503, description = "Not stored this time; PayU resends", body = ErrorBody),
    )
)]
#[post("/webhook")]
pub async fn payu_webhook(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<web::Json<WebhookOut>, ApiError> {
    let fields = form_fields(&body);
    match state.billing.callback(&fields).await {
        Ok(s) => Ok(web::Json(WebhookOut {
            success: true,
            txnid: s.txnid,
            status: s.status,
            applied: s.applied,
        })),
        Err(refused) => {
            if !matches!(refused, CallbackRefused::NotStored { .. }) {
                log_refused("webhook", &refused);
            }
            let message = refused.public_message();
            Err(ApiError::from(refused).with_message(message))
        }
    }
}

/// What PayU's webhook is answered when the callback was applied (or had
/// been already).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct WebhookOut {
    pub success: bool,
    pub txnid: String,
    pub status: ca_billing::entities::payment::PaymentStatus,
    /// False for a resend or a late duplicate: nothing changed.
    pub applied: bool,
}

/// Once PayU is configured (test or live) the simulator does not exist: its
/// pages answer 404, so nobody can use it to get a plan without paying.
fn simulator_off() -> HttpResponse {
    use actix_web::ResponseError;
    ApiError::not_found().error_response()
}

const SIMULATOR_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; \
form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The checkout link's page posts its form to PayU's hosted checkout.
const CHECKOUT_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; \
form-action 'self' https://test.payu.in https://secure.payu.in; base-uri 'none'; frame-ancestors 'none'";

fn html_page(title: &str, body: &str) -> HttpResponse {
    html_page_with(title, body, SIMULATOR_CSP)
}

fn html_page_with(title: &str, body: &str, csp: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, csp))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title>\
<style>body{{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;color:#1b1f29}}\
main{{max-width:440px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 4px 24px rgba(0,0,0,.08)}}\
.tag{{display:inline-block;background:#fff3cd;color:#664d03;border-radius:6px;padding:4px 8px;font-size:13px}}\
dl{{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}}dt{{color:#5c6370}}dd{{margin:0;word-break:break-all}}\
button{{width:100%;padding:12px;border:0;border-radius:8px;font-size:16px;margin-top:12px;cursor:pointer}}\
.pay{{background:#1c7c54;color:#fff}}.fail{{background:#b42318;color:#fff}}.amount{{font-size:28px;font-weight:700}}</style>\
</head><body><main>{body}</main></body></html>",
            text(title)
        ))
}

fn hidden_inputs(fields: &[(String, String)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                attr(k),
                attr(v)
            )
        })
        .collect()
}

/// A checkout link (`/api/billing/checkout` answers it when PayU is
/// configured): a page that posts the stored payment's signed form to PayU,
/// by itself, or with its button where scripts do not run.
pub async fn checkout_page(state: web::Data<AppState>, txnid: web::Path<String>) -> HttpResponse {
    match state
        .billing
        .checkout_form(&txnid, chrono::Utc::now())
        .await
    {
        Ok((action, params)) => {
            let fields: Vec<(String, String)> = params.into_iter().collect();
            html_page_with(
                "Continue to payment",
                &format!(
                    "<h1>Continue to payment</h1><p>Taking you to PayU to pay securely…</p>\
<form id=\"pay\" method=\"post\" action=\"{action}\">{inputs}\
<button class=\"pay\" type=\"submit\">Continue to PayU</button></form>\
<script src=\"/payment/checkout/submit.js\"></script>",
                    action = attr(&action),
                    inputs = hidden_inputs(&fields),
                ),
                CHECKOUT_CSP,
            )
        }
        Err(_) => {
            let mut res = html_page_with(
                "Payment link expired",
                "<h1>This payment link has expired</h1><p>Start again from Billing in your dashboard.</p>\
<p><a href=\"/billing\">Go to Billing</a></p>",
                CHECKOUT_CSP,
            );
            *res.status_mut() = actix_web::http::StatusCode::NOT_FOUND;
            res
        }
    }
}

/// The checkout link page's script: posts the form.
pub async fn checkout_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body("document.getElementById('pay').submit();\n")
}

/// The simulator's hosted page (the `action` of a simulated checkout): shows
/// the order and lets the buyer pay or fail.
pub async fn simulator_page(state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    if !state.billing.simulator_enabled() {
        return simulator_off();
    }
    let request = form_fields(&body);
    match state.billing.simulator_order(&request).await {
        Ok(p) => {
            let mut fields: Vec<(String, String)> = request.into_iter().collect();
            fields.sort();
            let inputs = hidden_inputs(&fields);
            html_page(
                "PayU simulator",
                &format!(
                    "<p class=\"tag\">PayU simulator: no real money moves</p>\
<h1>Complete your payment</h1><p class=\"amount\">₹{amount}</p>\
<dl><dt>Order</dt><dd>{product}</dd><dt>Name</dt><dd>{name}</dd><dt>Email</dt><dd>{email}</dd>\
<dt>Transaction</dt><dd>{txnid}</dd></dl>\
<form method=\"post\" action=\"/payment/simulator/complete\">{inputs}\
<button class=\"pay\" name=\"outcome\" value=\"success\">Pay ₹{amount}</button>\
<button class=\"fail\" name=\"outcome\" value=\"failure\">Fail payment</button></form>",
                    amount = text(&ca_billing::payu::amount_text(p.amount_paise)),
                    product = text(&p.productinfo),
                    name = text(&p.firstname),
                    email = text(&p.email),
                    txnid = text(&p.txnid),
                ),
            )
        }
        Err(why) => html_page(
            "PayU simulator",
            &format!(
                "<p class=\"tag\">PayU simulator</p><h1>Payment request refused</h1><p>{}</p>",
                text(&why)
            ),
        ),
    }
}

/// The buyer pressed Pay or Fail: a page that posts PayU's signed result
/// back to the merchant's surl or furl, as PayU's page does.
pub async fn simulator_complete(state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    if !state.billing.simulator_enabled() {
        return simulator_off();
    }
    let mut request = form_fields(&body);
    let outcome = request.remove("outcome").unwrap_or_default();
    if let Err(why) = state.billing.simulator_order(&request).await {
        return html_page(
            "PayU simulator",
            &format!("<h1>Payment request refused</h1><p>{}</p>", text(&why)),
        );
    }
    let outcome = if outcome == "success" {
        "success"
    } else {
        "failure"
    };
    let (target, fields) = state.billing.simulator_result(&request, outcome);
    html_page(
        "Returning to the merchant",
        &format!(
            "<p class=\"tag\">PayU simulator</p><h1>Returning to the merchant…</h1>\
<form id=\"back\" method=\"post\" action=\"{}\">{}<button class=\"pay\">Continue</button></form>\
<script src=\"/payment/simulator/submit.js\"></script>",
            attr(&target),
            hidden_inputs(&fields)
        ),
    )
}

/// Submits the return form (a file, so the page needs no inline script).
pub async fn simulator_script(state: web::Data<AppState>) -> HttpResponse {
    if !state.billing.simulator_enabled() {
        return simulator_off();
    }
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .body("document.getElementById('back').submit();\n")
}
