//! Cross-cutting HTTP behaviour: probes, metrics, the OpenAPI document,
//! security headers, CORS, body errors and unknown routes.

use serde_json::json;

use crate::helpers::{Reply, spawn_app};

#[tokio::test]
async fn probes_metrics_and_docs() {
    let app = spawn_app().await;
    let health = app.get("/healthz", None).await;
    assert_eq!(health.status, 200);
    assert_eq!(health.body["status"], "ok");
    let ready = app.get("/readyz", None).await;
    assert_eq!(ready.status, 200);

    app.login("nobody@example.in", "whatever").await;
    let metrics = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .expect("metrics");
    assert_eq!(metrics.status(), 200);
    let text = metrics.text().await.expect("text");
    assert!(text.contains("convertassist_http_requests_total"), "{text}");
    assert!(text.contains("endpoint=\"/api/auth/login\""));
    // The server's own figures are there too.
    for name in [
        "convertassist_widget_events_stored_total",
        "convertassist_widget_events_busy_total",
        "convertassist_widget_events_not_stored_total",
        "convertassist_widget_event_write_failures_total",
        "convertassist_widget_events_queued",
        "convertassist_widget_events_journalled",
        "convertassist_process_resident_memory_bytes",
        "convertassist_sqlite_wal_bytes",
    ] {
        assert!(
            text.contains(&format!("\n{name} ")),
            "{name} missing:\n{text}"
        );
    }

    // Paths no route matches share one series: a scan of random paths must
    // not add a series (and memory) per path.
    for i in 0..40 {
        app.get(&format!("/scan-{i}/wp-login.php"), None).await;
        app.get(&format!("/api/nothing-{i}"), None).await;
    }
    let text = app.metrics().await;
    assert!(
        !text.contains("scan-"),
        "a series per unmatched path:\n{text}"
    );
    assert!(
        !text.contains("nothing-"),
        "a series per unmatched path:\n{text}"
    );

    let doc = app.get("/api/openapi.json", None).await;
    assert_eq!(doc.status, 200);
    assert_eq!(doc.body["openapi"], "3.1.0");
    assert!(doc.body["paths"]["/api/auth/login"]["post"].is_object());
    // The generated client keys operations by id: a repeated id silently
    // gives one call another's types.
    let mut ids = std::collections::HashMap::new();
    for (path, item) in doc.body["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("item") {
            if let Some(id) = op["operationId"].as_str() {
                let previous = ids.insert(id.to_string(), format!("{method} {path}"));
                assert!(
                    previous.is_none(),
                    "operationId {id} used by {previous:?} and {method} {path}"
                );
            }
        }
    }
    let docs = app
        .client
        .get(app.url("/api/docs"))
        .send()
        .await
        .expect("docs");
    assert_eq!(docs.status(), 200);
    let html = docs.text().await.expect("html");
    assert!(
        html.contains("<html") && html.contains("ConvertAssist API"),
        "{html}"
    );
}

#[tokio::test]
async fn the_checked_in_openapi_document_matches_the_code() {
    let generated =
        ca_server::openapi::to_pretty_json(&ca_server::openapi_document()).expect("json");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../openapi/openapi.json");
    let checked_in = std::fs::read_to_string(path).expect("openapi/openapi.json");
    assert!(
        generated == checked_in,
        "openapi/openapi.json is stale: run `cargo xtask openapi`"
    );
}

#[tokio::test]
async fn every_answer_carries_security_headers_and_a_request_id() {
    let app = spawn_app().await;
    for path in ["/healthz", "/api/auth/me", "/api/nothing-here"] {
        let reply = app.get(path, None).await;
        let h = &reply.headers;
        let csp = h["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("default-src 'self'"));
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin");
        let id = h["x-request-id"].to_str().expect("request id");
        assert_eq!(id.len(), 36, "{id}");
    }
}

#[tokio::test]
async fn unknown_api_routes_are_json_404s() {
    let app = spawn_app().await;
    let reply = app.get("/api/nothing-here", None).await;
    assert_eq!(reply.error(404, "not_found"), "Not found");
}

#[tokio::test]
async fn malformed_json_and_oversized_bodies_are_refused() {
    let app = spawn_app().await;
    let malformed = Reply::from(
        app.client
            .post(app.url("/api/auth/login"))
            .header("content-type", "application/json")
            .body("{\"email\": ")
            .send()
            .await
            .expect("send"),
    )
    .await;
    malformed.error(400, "malformed_json");

    let wrong_type = Reply::from(
        app.client
            .post(app.url("/api/auth/login"))
            .header("content-type", "text/plain")
            .body("email=a")
            .send()
            .await
            .expect("send"),
    )
    .await;
    wrong_type.error(400, "unsupported_content_type");

    let huge = "x".repeat(64 * 1024);
    let big = app
        .post(
            "/api/auth/register",
            json!({"name": huge, "email": "big@example.in", "password": "secret1", "phone": "+91 9876543210"}),
        )
        .await;
    assert_eq!(
        big.error(413, "payload_too_large"),
        "The request body is too large"
    );
    app.login("big@example.in", "secret1")
        .await
        .error(401, "invalid_credentials");
}

#[tokio::test]
async fn the_api_grants_cors_only_to_its_own_origin() {
    let app = spawn_app().await;
    let preflight = |origin: &str| {
        app.client
            .request(reqwest::Method::OPTIONS, app.url("/api/auth/login"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type")
            .send()
    };
    let own = preflight(&app.base).await.expect("send");
    assert_eq!(
        own.headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some(app.base.as_str())
    );
    let foreign = preflight("https://evil.example").await.expect("send");
    assert!(
        foreign
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );

    let cross = app
        .client
        .post(app.url("/api/auth/login"))
        .header("Origin", "https://evil.example")
        .json(&json!({"email": "a@example.in", "password": "x"}))
        .send()
        .await
        .expect("send");
    assert!(cross.headers().get("access-control-allow-origin").is_none());
}

/// Every type in the OpenAPI document has its own name: two types sharing a
/// name would silently become one schema (an answer pointing at the other
/// type's fields). Reads the sources: each `ToSchema` type's name, or its
/// `#[schema(as = …)]`.
#[test]
fn schema_names_are_unique() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("apps/server/src"), &mut files);
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let mut pending = false;
        let mut alias: Option<String> = None;
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[derive(") && line.contains("ToSchema") {
                pending = true;
                alias = None;
                continue;
            }
            if !pending {
                continue;
            }
            if let Some(rest) = line.strip_prefix("#[schema(")
                && let Some(at) = rest.find("as = ")
            {
                let name: String = rest[at + 5..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                alias = name.rsplit("::").next().map(str::to_string);
            }
            for kind in ["pub struct ", "pub enum ", "struct ", "enum "] {
                if let Some(rest) = line.strip_prefix(kind) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    seen.entry(alias.take().unwrap_or(name))
                        .or_default()
                        .push(file.display().to_string());
                    pending = false;
                    break;
                }
            }
        }
    }
    assert!(seen.len() > 100, "found only {} schema types", seen.len());
    let twice: Vec<_> = seen.iter().filter(|(_, files)| files.len() > 1).collect();
    assert!(twice.is_empty(), "schema names used twice: {twice:?}");
}

#[tokio::test]
async fn metrics_ask_for_their_token_when_one_is_set() {
    let app =
        crate::helpers::spawn_app_with(|c| c.metrics_token = Some("scrape-me-1234".into())).await;
    let get = |auth: Option<&'static str>| {
        let mut req = app.client.get(app.url("/metrics"));
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        async move { Reply::from(req.send().await.expect("send")).await }
    };
    app.get("/healthz", None).await;
    get(None).await.error(401, "metrics_token_required");
    get(Some("Bearer wrong"))
        .await
        .error(401, "metrics_token_required");
    let ok = get(Some("Bearer scrape-me-1234")).await;
    assert_eq!(ok.status, 200);
    assert!(
        ok.body
            .as_str()
            .is_some_and(|t| t.contains("convertassist_http_requests_total"))
    );
}

#[tokio::test]
async fn without_a_token_metrics_answer_only_direct_local_callers() {
    let app = spawn_app().await;
    let relayed = app
        .client
        .get(app.url("/metrics"))
        .header("x-forwarded-for", "203.0.113.9")
        .send()
        .await
        .expect("send");
    Reply::from(relayed).await.error(403, "metrics_local_only");
    let direct = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .expect("send");
    assert_eq!(direct.status(), 200);
}

#[tokio::test]
async fn hsts_only_behind_an_https_public_url() {
    let plain = spawn_app().await;
    let reply = plain.get("/healthz", None).await;
    assert!(!reply.headers.contains_key("strict-transport-security"));
    let https = crate::helpers::spawn_app_with(|c| {
        c.public_url = Some("https://app.convertassist.example".into())
    })
    .await;
    let reply = https.get("/healthz", None).await;
    assert_eq!(
        reply.headers["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
}

/// Every page of the dashboard (its index, the prerendered landing page)
/// is revalidated, so a deploy's new file names reach returning browsers;
/// hashed assets are kept.
#[tokio::test]
async fn pages_are_revalidated_and_assets_kept() {
    let dir = std::env::temp_dir().join(format!("ca-it-pages-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(dir.join("home")).expect("dir");
    std::fs::create_dir_all(dir.join("assets")).expect("dir");
    std::fs::write(dir.join("index.html"), "<!doctype html><title>app</title>").expect("index");
    std::fs::write(
        dir.join("home/index.html"),
        "<!doctype html><title>home</title>",
    )
    .expect("home");
    std::fs::write(dir.join("assets/app-abc123.js"), "console.log(1)").expect("asset");
    let static_dir = dir.clone();
    let app = crate::helpers::spawn_app_with(move |c| c.static_dir = static_dir).await;
    for (path, cache) in [
        ("/", "no-cache"),
        ("/home", "no-cache"),
        ("/home/", "no-cache"),
        ("/campaigns/abc/edit", "no-cache"),
        (
            "/assets/app-abc123.js",
            "public, max-age=31536000, immutable",
        ),
    ] {
        let res = app.client.get(app.url(path)).send().await.expect("get");
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(
            res.headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok()),
            Some(cache),
            "{path}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The sign-in pages are their own build with their own HTML files
/// (`dist/<page>/index.html`, written by `scripts/signin-pages.mjs`): each
/// path, with a query or a trailing slash too, is answered with its file,
/// revalidated like every page; the app's paths still get `index.html`.
#[tokio::test]
async fn sign_in_pages_get_their_own_html() {
    let dir = std::env::temp_dir().join(format!("ca-it-signin-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("index.html"), "<!doctype html><title>app</title>").expect("index");
    let pages = [
        "login",
        "register",
        "forgot-password",
        "reset-password",
        "auth",
    ];
    for page in pages {
        std::fs::create_dir_all(dir.join(page)).expect("dir");
        std::fs::write(
            dir.join(page).join("index.html"),
            format!("<!doctype html><title>{page}</title>"),
        )
        .expect("page");
    }
    let static_dir = dir.clone();
    let app = crate::helpers::spawn_app_with(move |c| c.static_dir = static_dir).await;
    let mut cases: Vec<(String, String)> = Vec::new();
    for page in pages {
        let title = format!("<title>{page}</title>");
        cases.push((format!("/{page}"), title.clone()));
        cases.push((format!("/{page}/"), title.clone()));
    }
    cases.push((
        "/reset-password?token=abc".into(),
        "<title>reset-password</title>".into(),
    ));
    cases.push(("/dashboard".into(), "<title>app</title>".into()));
    cases.push(("/login-help".into(), "<title>app</title>".into()));
    for (path, title) in cases {
        let res = app.client.get(app.url(&path)).send().await.expect("get");
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(
            res.headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok()),
            Some("no-cache"),
            "{path}"
        );
        let body = res.text().await.expect("body");
        assert!(body.contains(&title), "{path}: {body}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A connection left idle for longer than common clients' own idle timeout
/// (5 s) still answers: the server never closes a keep-alive connection a
/// client may be sending its next request on.
#[tokio::test]
async fn an_idle_keep_alive_connection_still_answers_after_six_seconds() {
    use std::io::{Read, Write};
    let app = spawn_app().await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let answers = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).expect("connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .expect("timeout");
        let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let mut answers = Vec::new();
        for pause in [0, 6] {
            std::thread::sleep(std::time::Duration::from_secs(pause));
            let mut buf = vec![0u8; 4096];
            let n = stream
                .write_all(request.as_bytes())
                .and_then(|()| stream.read(&mut buf))
                .unwrap_or(0);
            answers.push(String::from_utf8_lossy(&buf[..n]).to_string());
        }
        answers
    })
    .await
    .expect("join");
    assert!(answers[0].starts_with("HTTP/1.1 200"), "{}", answers[0]);
    assert!(
        answers[1].starts_with("HTTP/1.1 200"),
        "the idle connection was closed: {:?}",
        answers[1]
    );
}
