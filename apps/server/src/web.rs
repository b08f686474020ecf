//! Cross-cutting HTTP concerns: security headers, request ids, JSON body
//! errors, CORS for the dashboard API, and the dashboard's static files.

use std::path::PathBuf;

use actix_cors::Cors;
use actix_files::{Files, NamedFile};
use actix_web::dev::{ServiceRequest, ServiceResponse, fn_service};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::DefaultHeaders;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, error::JsonPayloadError, web};
use ca_core::ErrorKind;
use tracing_actix_web::RequestId;

use crate::error::ApiError;

/// The dashboard's Content-Security-Policy. Mantine sets inline styles, so
/// styles allow 'unsafe-inline'; scripts come only from this origin; forms
/// may post to PayU's hosted payment pages (test and live).
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; \
base-uri 'self'; form-action 'self' https://test.payu.in https://secure.payu.in; frame-ancestors 'none'";

/// Headers every answer carries unless a handler set its own; behind an
/// https public URL also HSTS (browsers then refuse plain http for a year).
pub fn security_headers(https: bool) -> DefaultHeaders {
    let headers = if https {
        DefaultHeaders::new().add((
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        ))
    } else {
        DefaultHeaders::new()
    };
    headers
        .add((header::CONTENT_SECURITY_POLICY, CSP))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ))
}

/// The API reference page: scripts, data and everything else only from this
/// server (its viewer sets styles inline, as the dashboard's components do).
const DOCS_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; \
base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The calls that answer with a new session token.
const ISSUES_TOKENS: [&str; 3] = [
    "/api/auth/login",
    "/api/auth/register",
    "/api/auth/reset-password",
];

/// A request slower than this to answer is logged at warn (every request is
/// counted in `/metrics`; nothing else is logged per request, so a busy site
/// does not fill the disk).
pub const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_secs(1);

/// Copies the request id that tracing gave the request into `x-request-id`,
/// sets cache headers for the dashboard's files and the API reference's
/// policy, and logs slow requests.
pub async fn response_headers(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let request_id = req.extensions().get::<RequestId>().copied();
    let is_asset = req.path().starts_with("/assets/");
    // The dashboard's service worker (push notifications) keeps its name
    // across builds: a browser must check for a new one each time.
    let is_service_worker = req.path() == "/sw.js";
    let is_widget = req.path().starts_with("/widget/");
    let is_widget_loader = req.path() == "/widget/ca-widget.js";
    let is_docs = req.path() == "/api/docs";
    // Answers to a signed-in caller, and the answers that hand out a
    // session token, hold someone's data: no cache may keep them.
    let private =
        req.headers().contains_key(header::AUTHORIZATION) || ISSUES_TOKENS.contains(&req.path());
    let started = std::time::Instant::now();
    let method = req.method().clone();
    let path = req.path().to_string();
    let mut res = next.call(req).await?;
    let took = started.elapsed();
    if took >= SLOW_REQUEST {
        tracing::warn!(%method, %path, status = res.status().as_u16(), ms = took.as_millis() as u64, "slow request");
    }
    let headers = res.headers_mut();
    if let Some(id) = request_id
        && let Ok(value) = HeaderValue::from_str(&id.to_string())
    {
        headers.insert(HeaderName::from_static("x-request-id"), value);
    }
    if is_docs {
        res.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DOCS_CSP),
        );
    }
    if is_widget {
        let headers = res.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("cross-origin"),
        );
        if res.status().is_success() || res.status() == actix_web::http::StatusCode::NOT_MODIFIED {
            // The loader's URL never changes: revalidate it often (ETag). Chunks
            // carry a content hash in their names: keep them forever.
            let cache = if is_widget_loader {
                "public, max-age=300"
            } else {
                "public, max-age=31536000, immutable"
            };
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        }
    }
    // Pages (the dashboard's index and the prerendered landing page) name
    // the current build's files: a browser must check for a new one each time.
    let is_html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_html && !res.headers().contains_key(header::CACHE_CONTROL) {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    if private {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if is_service_worker && res.status().is_success() {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    if is_asset && res.status().is_success() {
        res.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    Ok(res)
}

/// JSON bodies: a size limit (413) and JSON errors for malformed input (400).
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(|err, _req| json_error(err).into())
}

fn too_large() -> ApiError {
    ApiError::new(
        ErrorKind::TooLarge,
        "payload_too_large",
        "The request body is too large",
    )
}

fn json_error(err: JsonPayloadError) -> ApiError {
    match err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            too_large()
        }
        JsonPayloadError::ContentType => ApiError::new(
            ErrorKind::Validation,
            "unsupported_content_type",
            "The request body must be JSON (Content-Type: application/json)",
        ),
        JsonPayloadError::Deserialize(e) => ApiError::new(
            ErrorKind::Validation,
            "malformed_json",
            format!("The request body is not valid JSON for this call: {e}"),
        ),
        other => ApiError::new(
            ErrorKind::Validation,
            "malformed_json",
            format!("The request body could not be read: {other}"),
        ),
    }
}

/// Same-origin only: a browser on another site gets no CORS grant. The origin
/// counts as ours when it is the public URL or matches the request's own host.
pub fn same_origin_cors(public_url: String) -> Cors {
    Cors::default()
        .allowed_origin_fn(move |origin, head| {
            let Ok(origin) = origin.to_str() else {
                return false;
            };
            if origin == public_url {
                return true;
            }
            let host = head
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok());
            host.is_some_and(|h| {
                origin.strip_prefix("http://") == Some(h)
                    || origin.strip_prefix("https://") == Some(h)
            })
        })
        .allowed_methods(["GET", "POST", "PUT", "PATCH", "DELETE"])
        .allowed_headers([header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT])
        .max_age(3600)
}

/// The widget's calls: any origin may call them, without credentials (the
/// widget runs on the owners' own sites).
pub fn public_cors() -> Cors {
    Cors::default()
        .allow_any_origin()
        .send_wildcard()
        .allowed_methods(["GET", "POST"])
        .allowed_headers([header::CONTENT_TYPE, header::ACCEPT])
        .expose_headers([header::RETRY_AFTER, HeaderName::from_static("x-request-id")])
        .max_age(86_400)
}

/// The built widget at `/widget/`: the loader `ca-widget.js` and its chunks.
pub fn widget_files(widget_dir: PathBuf) -> Files {
    widget_files_at("/widget", widget_dir)
}

/// The built widget under `mount` (the live demo's widget loads its popup
/// from beside the calls it makes, `/live-demo/widget/`).
pub fn widget_files_at(mount: &str, widget_dir: PathBuf) -> Files {
    Files::new(mount, widget_dir)
        .use_etag(true)
        .use_last_modified(true)
        .default_handler(fn_service(|req: ServiceRequest| async move {
            let (req, _) = req.into_parts();
            let res = HttpResponse::NotFound()
                .content_type("text/plain; charset=utf-8")
                .body(
                    "Not found. If this is ca-widget.js, build the widget: `cargo xtask run` does.",
                );
            Ok(ServiceResponse::new(req, res))
        }))
}

/// The built dashboard, with every unknown non-API path answered by
/// `index.html` so the client router can take it; unknown API paths get a JSON 404.
pub fn dashboard_files(static_dir: PathBuf) -> Files {
    let index = static_dir.join("index.html");
    Files::new("/", static_dir)
        .index_file("index.html")
        .default_handler(fn_service(move |req: ServiceRequest| {
            let index = index.clone();
            async move {
                let (req, _) = req.into_parts();
                let res = spa_fallback(&req, &index).await;
                Ok(ServiceResponse::new(req, res))
            }
        }))
}

async fn spa_fallback(req: &HttpRequest, index: &std::path::Path) -> HttpResponse {
    let path = req.path();
    if path.starts_with("/api/") || path == "/api" || path.starts_with("/assets/") {
        return actix_web::ResponseError::error_response(&ApiError::not_found());
    }
    match NamedFile::open(index) {
        Ok(file) => {
            let mut res = file.into_response(req);
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            res
        }
        Err(_) => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("The dashboard is not built. Run `cargo xtask run`, or set CA_STATIC_DIR to the built dashboard."),
    }
}

/// JSON 404 for unknown API routes.
pub async fn api_not_found() -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::not_found())
}

/// The API's operations, path template by path template, with their methods
/// (from the OpenAPI document), so a known path called with another method
/// is answered 405 with `Allow` instead of 404.
#[derive(Debug, Clone, Default)]
pub struct Operations {
    routes: Vec<(Vec<Segment>, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Fixed(String),
    Param,
}

impl Operations {
    /// Reads the operations of `doc`.
    pub fn of(doc: &utoipa::openapi::OpenApi) -> Self {
        let routes = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let segments = path
                    .split('/')
                    .map(|s| {
                        if s.starts_with('{') && s.ends_with('}') {
                            Segment::Param
                        } else {
                            Segment::Fixed(s.to_string())
                        }
                    })
                    .collect();
                let methods = [
                    ("GET", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                ]
                .iter()
                .filter(|(_, has)| *has)
                .map(|(m, _)| (*m).to_string())
                .collect();
                (segments, methods)
            })
            .collect();
        Self { routes }
    }

    /// The methods `path` answers to, when it is one of the API's paths.
    pub fn allowed(&self, path: &str) -> Option<Vec<String>> {
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        let mut found: Vec<String> = Vec::new();
        // A fixed segment beats a parameter: `/api/conversations/user` is not
        // `/api/conversations/{id}`.
        let mut best: Option<usize> = None;
        for (segments, methods) in &self.routes {
            if segments.len() != parts.len() {
                continue;
            }
            let mut fixed = 0;
            let matches = segments.iter().zip(&parts).all(|(s, p)| match s {
                Segment::Fixed(f) => {
                    fixed += 1;
                    f == p
                }
                Segment::Param => !p.is_empty(),
            });
            if !matches {
                continue;
            }
            match best {
                Some(b) if b > fixed => {}
                Some(b) if b == fixed => found.extend(methods.iter().cloned()),
                _ => {
                    best = Some(fixed);
                    found = methods.clone();
                }
            }
        }
        found.sort();
        found.dedup();
        best.map(|_| found)
    }
}

fn nul_error() -> ApiError {
    ApiError::new(
        ErrorKind::Validation,
        "invalid_character",
        "Text may not contain the NUL character (\\u0000)",
    )
}

/// Whether a JSON text holds a `\u0000` escape (an escaped backslash followed
/// by `u0000` is ordinary text) or a raw NUL byte.
fn json_has_nul(body: &[u8]) -> bool {
    if body.contains(&0) {
        return true;
    }
    let text = body;
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\\' {
            // Count this run of backslashes.
            let start = i;
            while i < text.len() && text[i] == b'\\' {
                i += 1;
            }
            let run = i - start;
            if run % 2 == 1 && text[i..].starts_with(b"u0000") {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}

/// JSON has one kind of number: `5.0` is the whole number 5, and a field that
/// takes whole numbers accepts it (serde alone refuses it for an integer).
/// The body is rewritten only when it holds such a number; anything that is
/// not JSON is left for the handler to refuse.
fn whole_numbers(body: actix_web::web::Bytes) -> actix_web::web::Bytes {
    fn has_fraction_or_exponent(body: &[u8]) -> bool {
        body.windows(2)
            .any(|w| w[0].is_ascii_digit() && matches!(w[1], b'.' | b'e' | b'E'))
    }
    fn fix(value: &mut serde_json::Value) -> bool {
        match value {
            serde_json::Value::Number(n) if n.is_f64() => {
                let f = n.as_f64().unwrap_or(f64::NAN);
                // Exactly representable as i64 (|f| < 2^63), no fraction.
                if f.fract() == 0.0 && f.abs() < 9.223_372_036_854_775e18 {
                    *value = serde_json::Value::from(f as i64);
                    true
                } else {
                    false
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().fold(false, |c, v| fix(v) | c),
            serde_json::Value::Object(map) => map.values_mut().fold(false, |c, v| fix(v) | c),
            _ => false,
        }
    }
    if !has_fraction_or_exponent(&body) {
        return body;
    }
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return body;
    };
    if !fix(&mut value) {
        return body;
    }
    serde_json::to_vec(&value).map_or(body, actix_web::web::Bytes::from)
}

fn percent_has_nul(text: &[u8]) -> bool {
    text.windows(3).any(|w| w.eq_ignore_ascii_case(b"%00"))
}

/// Checks every request before a handler sees it: no NUL character in the
/// path, query or body (PostgreSQL cannot store it in text, and no field
/// needs it), and a body within the size limit; each refusal is the API's
/// JSON error. A documented path called with a method it doesn't take is
/// answered 405 with `Allow`.
pub async fn request_guard(
    mut req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    use futures_util::StreamExt;
    let refuse = |req: ServiceRequest, err: ApiError| {
        let (req, _) = req.into_parts();
        let res = actix_web::ResponseError::error_response(&err);
        Ok(ServiceResponse::new(req, res).map_into_right_body())
    };
    let uri = req.uri().to_string();
    if percent_has_nul(uri.as_bytes()) {
        return refuse(req, nul_error());
    }
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let checked = content_type.starts_with("application/json")
        || content_type.starts_with("text/plain")
        || content_type.starts_with("application/x-www-form-urlencoded");
    let limit = body_limit_of(&req);
    if checked {
        let mut payload = req.take_payload();
        let mut body = actix_web::web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk?;
            if body.len() + chunk.len() > limit {
                return refuse(req, too_large());
            }
            body.extend_from_slice(&chunk);
        }
        let body = body.freeze();
        let nul = if content_type.starts_with("application/x-www-form-urlencoded") {
            percent_has_nul(&body) || body.contains(&0)
        } else {
            json_has_nul(&body)
        };
        if nul {
            return refuse(req, nul_error());
        }
        let body = if content_type.starts_with("application/x-www-form-urlencoded") {
            body
        } else {
            whole_numbers(body)
        };
        req.set_payload(actix_web::dev::Payload::from(body));
    }
    let path = req.path().to_string();
    let method = req.method().clone();
    let operations = req.app_data::<actix_web::web::Data<Operations>>().cloned();
    let res = next.call(req).await?;
    if matches!(
        res.status(),
        actix_web::http::StatusCode::NOT_FOUND | actix_web::http::StatusCode::METHOD_NOT_ALLOWED
    ) && method != actix_web::http::Method::OPTIONS
        && let Some(allowed) = operations.and_then(|o| o.allowed(&path))
        && !allowed.iter().any(|m| m == method.as_str())
    {
        let (req, _) = res.into_parts();
        let err = ApiError::new(
            ErrorKind::Validation,
            "method_not_allowed",
            format!("{method} is not allowed here; use {}", allowed.join(", ")),
        );
        let mut out = actix_web::ResponseError::error_response(&err);
        *out.status_mut() = actix_web::http::StatusCode::METHOD_NOT_ALLOWED;
        if let Ok(value) = HeaderValue::from_str(&allowed.join(", ")) {
            out.headers_mut().insert(header::ALLOW, value);
        }
        return Ok(ServiceResponse::new(req, out).map_into_right_body());
    }
    Ok(res.map_into_left_body())
}

/// The body limit the server was configured with.
fn body_limit_of(req: &ServiceRequest) -> usize {
    req.app_data::<actix_web::web::Data<BodyLimit>>()
        .map_or(256 * 1024, |l| l.0)
}

/// The largest request body the server reads.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Query strings that don't fit a call's parameters: the API's JSON error.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        ApiError::new(
            ErrorKind::Validation,
            "invalid_query",
            format!("The query string is not valid for this call: {err}"),
        )
        .into()
    })
}

/// Path segments that don't fit a call's parameters: the API's JSON error.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| {
        ApiError::new(
            ErrorKind::Validation,
            "invalid_path",
            format!("The address is not valid for this call: {err}"),
        )
        .into()
    })
}

/// Headers with which proxies and CDNs pass the original client on: a
/// request carrying any of them was relayed.
const RELAY_HEADERS: [&str; 11] = [
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-real-ip",
    "true-client-ip",
    "cf-connecting-ip",
    "x-client-ip",
    "x-cluster-client-ip",
    "fastly-client-ip",
    "x-original-forwarded-for",
];

/// `/metrics` answers a caller with the configured bearer token, or, when no
/// token is configured, only callers on this machine (loopback, not relayed
/// by a proxy); others get the API's JSON 401/403.
pub async fn metrics_guard(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    if req.path() != "/metrics" {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let token = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()
        .and_then(|s| s.config.metrics_token.clone());
    let refusal = match token {
        Some(expected) => {
            let sent = req
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            let matches = sent.is_some_and(|s| {
                use subtle::ConstantTimeEq;
                s.as_bytes().ct_eq(expected.as_bytes()).into()
            });
            (!matches).then(|| {
                ApiError::new(
                    ErrorKind::Unauthorized,
                    "metrics_token_required",
                    "The metrics need the token set in CA_METRICS_TOKEN",
                )
            })
        }
        None => {
            // A request relayed by a proxy on this machine comes from loopback
            // too; any of the headers proxies use to pass the client on says
            // it is not local.
            let relayed = RELAY_HEADERS
                .iter()
                .any(|name| req.headers().contains_key(*name));
            let local = !relayed && req.peer_addr().is_some_and(|a| a.ip().is_loopback());
            (!local).then(|| {
                ApiError::new(
                    ErrorKind::Forbidden,
                    "metrics_local_only",
                    "The metrics answer only this machine unless CA_METRICS_TOKEN is set",
                )
            })
        }
    };
    match refusal {
        Some(err) => {
            let (req, _) = req.into_parts();
            let res = actix_web::ResponseError::error_response(&err);
            Ok(ServiceResponse::new(req, res).map_into_right_body())
        }
        None => Ok(next.call(req).await?.map_into_left_body()),
    }
}

#[cfg(test)]
mod guard_tests {
    use super::*;

    #[test]
    fn nul_escapes_are_found_and_escaped_backslashes_are_not() {
        assert!(json_has_nul(br#"{"a":"x\u0000y"}"#));
        assert!(json_has_nul(br#"{"a":"\\\u0000"}"#));
        assert!(json_has_nul(b"{\"a\":\"\0\"}"));
        assert!(!json_has_nul(br#"{"a":"\\u0000"}"#));
        assert!(!json_has_nul(br#"{"a":"u0000 \u00e9"}"#));
        assert!(!json_has_nul(br#"{"a":"\u"}"#));
        assert!(percent_has_nul(b"/api/plans/a%00b"));
        assert!(!percent_has_nul(b"/api/plans/a%200"));
    }
}
