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

/// Headers every answer carries unless a handler set its own.
pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::CONTENT_SECURITY_POLICY, CSP))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ))
}

/// The API reference page loads its viewer from a CDN, so it gets its own policy.
const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; \
style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; \
font-src 'self' data: https://fonts.gstatic.com https://cdn.jsdelivr.net; img-src 'self' data:; \
connect-src 'self'; frame-ancestors 'none'";

/// Copies the request id that tracing gave the request into `x-request-id`,
/// sets cache headers for the dashboard's files and the API reference's policy.
pub async fn response_headers(
    req: ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let request_id = req.extensions().get::<RequestId>().copied();
    let is_asset = req.path().starts_with("/assets/");
    let is_widget = req.path().starts_with("/widget/");
    let is_widget_loader = req.path() == "/widget/ca-widget.js";
    let is_docs = req.path() == "/api/docs";
    let mut res = next.call(req).await?;
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

fn json_error(err: JsonPayloadError) -> ApiError {
    match err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            ApiError::new(
                ErrorKind::TooLarge,
                "payload_too_large",
                "The request body is too large",
            )
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
    Files::new("/widget", widget_dir)
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
