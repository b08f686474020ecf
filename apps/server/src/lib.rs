//! The ConvertAssist HTTP server: a thin actix-web layer over the domain crates.

pub mod cli;
pub mod demo_data;
pub mod error;
pub mod extract;
pub mod metrics;
pub mod openapi;
pub mod routes;
pub mod state;
pub mod web;
pub mod workers;

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, HttpResponse, HttpServer, web as aweb};
use anyhow::Context;
use ca_auth::{AuthService, JwtKeys, Mailer};
use ca_billing::BillingService;
use ca_campaigns::CampaignService;
use ca_conversations::assistant::openai::ProviderConfig;
use ca_conversations::{ConversationService, Limits};
use ca_core::Config;
use ca_core::rate_limit::RateLimiter;
use ca_customers::CustomerService;
use ca_migrations::{Migrator, MigratorTrait};
use ca_tracking::writer::{EventWriter, WriterConfig};
use ca_tracking::{TrackingConfig, TrackingService};
use tracing_actix_web::TracingLogger;
use utoipa::OpenApi;
use utoipa_actix_web::{AppExt, scope};

use crate::openapi::ApiDoc;
use crate::state::AppState;

/// Before serving: seals with the current data key the secrets stored in
/// plain text (before sealing existed) or under a previous key, in one
/// transaction. Fails, writing nothing, when some were sealed with a key
/// this server does not have, as serving would lock staff out of two-factor
/// sign-in and fail every webhook. Only a serving server does this: a
/// command-line task run with other settings changes no secret.
pub async fn seal_stored_secrets(state: &AppState) -> anyhow::Result<()> {
    let keys = &state.data_keys;
    tracing::info!(key = keys.current_id(), "data key ready");
    let txn = ca_core::db::begin_write(&state.db).await?;
    ca_auth::two_factor::reseal_secrets(&txn, keys).await?;
    ca_webhooks::endpoints::reseal_secrets(&txn, keys).await?;
    txn.commit().await?;
    Ok(())
}

/// Connects to the database, runs pending migrations and builds the services.
pub async fn prepare(config: Config) -> anyhow::Result<aweb::Data<AppState>> {
    let db = ca_core::db::connect(&config.database_url).await?;
    Migrator::up(&db, None)
        .await
        .context("running migrations")?;
    // SQLite's log is copied into the database beside the writers, not in
    // the commit of whichever request crosses its limit.
    ca_core::db::checkpoint_in_background(&config.database_url).await?;
    let keys = JwtKeys::new(&config.jwt_secret()?, config.jwt_ttl_hours);
    // Secrets the server reads back (two-factor, webhook and Mailchimp) are
    // kept sealed with the data key ([`seal_stored_secrets`]).
    let data_keys = Arc::new(config.data_keys()?);
    let mailer = Mailer::new(config.smtp_url.as_deref(), &config.smtp_from)?;
    if !mailer.uses_smtp() {
        tracing::info!(
            "CA_SMTP_URL is not set: emails go to the local email_outbox table (see `ca-server outbox`)"
        );
    }
    let limiter = Arc::new(RateLimiter::from_config(config.redis_url.as_deref()).await?);
    let meta = ca_meta::MetaService::new(
        db.clone(),
        ca_meta::Outbox::new(
            db.clone(),
            ca_meta::MetaConfig {
                pixel_id: config.meta_pixel_id.clone(),
                access_token: config.meta_access_token.clone(),
                graph_url: config.meta_graph_url.clone(),
                api_version: config.meta_api_version.clone(),
                test_event_code: config.meta_test_event_code.clone(),
                timeout: Duration::from_secs(30),
            },
        ),
        limiter.clone(),
        config.public_url(),
    );
    if !meta.outbox().configured() {
        tracing::info!(
            "CA_META_PIXEL_ID is not set: ad-tracking events are stored and not forwarded to Meta"
        );
    }
    let auth = AuthService::new(
        db.clone(),
        keys,
        mailer,
        limiter.clone(),
        &config.public_url(),
    )
    .with_registrations_per_ip(config.registrations_per_ip_per_hour)
    .with_data_keys(data_keys.clone());
    let conversations = ConversationService::new(
        db.clone(),
        assistant(&config)?,
        limiter.clone(),
        Limits {
            message_max_chars: config.widget_message_max_chars,
            messages_per_conversation: config.widget_messages_per_conversation,
            ip_per_minute: config.widget_ip_per_minute,
            campaign_per_minute: config.widget_campaign_per_minute,
            idle: Duration::from_secs(config.conversation_idle_minutes * 60),
            campaign_cache: Duration::from_secs(config.widget_config_cache_secs),
        },
    )
    // Visitors opening the chat at once are written in one transaction, on
    // SQLite over a connection of the writer's own.
    .with_batched_starts(ca_core::db::connect_writer(&config.database_url).await?);
    tracing::info!(
        assistant = conversations.assistant_name(),
        "visitor assistant ready"
    );
    let tracking = TrackingService::new(
        db.clone(),
        limiter.clone(),
        event_writer(&db, &config).await?,
        conversations.clone(),
        TrackingConfig {
            public_url: config.public_url(),
            config_cache: Duration::from_secs(config.widget_config_cache_secs),
            attribution_days: config.attribution_days,
            events_ip_per_minute: config.widget_events_ip_per_minute,
            events_campaign_per_minute: config.widget_events_campaign_per_minute,
            new_visitors_per_address: config.widget_new_visitors_per_address,
            address_secret: format!("visitor-addresses|{}", config.jwt_secret()?),
        },
    );
    let billing = BillingService::new(
        db.clone(),
        billing_config(&config)?,
        Arc::new(ca_campaigns::counters::Meter(db.clone())),
    )
    .with_limiter(limiter.clone());
    let writer = tracking.writer().clone();
    let admin = ca_admin::AdminService::new(
        db.clone(),
        auth.clone(),
        billing.clone(),
        config.data_dir.clone(),
        Arc::new(move || writer.unstored()),
    );
    if matches!(billing.gateway(), ca_billing::Gateway::Simulator) {
        tracing::info!(
            "CA_PAYU_KEY is not set: checkout uses the built-in PayU simulator at /payment/simulator (no real money moves)"
        );
    }
    let webhooks = ca_webhooks::WebhookService::new(
        db.clone(),
        ca_webhooks::WebhookConfig {
            public_url: config.public_url(),
            allow_private: config.webhooks_allow_private,
            mailchimp_url: config.mailchimp_api_url.clone(),
            data_keys: data_keys.clone(),
            ..Default::default()
        },
        auth.mailer().clone(),
    );
    let push = ca_push::PushService::new(
        db.clone(),
        ca_push::PushConfig {
            subject: push_contact(&config),
            allow_private: config.webhooks_allow_private,
            ..Default::default()
        },
        ca_push::VapidKeys::load_or_create(&config.data_dir.join("vapid-private-key"))?,
    );
    Ok(aweb::Data::new(AppState {
        config: Arc::new(config),
        data_keys,
        billing,
        campaigns: CampaignService::new(db.clone()),
        experiments: ca_experiments::ExperimentService::new(db.clone()),
        customers: CustomerService::new(db.clone()),
        db,
        auth,
        conversations,
        tracking,
        admin,
        meta,
        webhooks,
        push,
    }))
}

/// The contact push services are shown: `CA_PUSH_CONTACT`, else the public
/// URL when it is https, else a `mailto:` at its host.
fn push_contact(config: &Config) -> String {
    if let Some(contact) = config.push_contact.as_deref().map(str::trim)
        && !contact.is_empty()
    {
        return contact.to_string();
    }
    let public = config.public_url();
    if public.starts_with("https://") {
        return public;
    }
    "mailto:push@localhost".to_string()
}

/// The assistant configuration asks for: the OpenAI-compatible provider when
/// `CA_LLM_BASE_URL` is set, the builtin one otherwise.
fn assistant(config: &Config) -> anyhow::Result<Arc<dyn ca_conversations::assistant::Assistant>> {
    let provider = config.llm_base_url.as_ref().map(|base| ProviderConfig {
        base_url: base.clone(),
        api_key: config.llm_api_key.clone(),
        model: config.llm_model.clone(),
        idle_timeout: Duration::from_secs(config.llm_timeout_secs),
        max_tokens: config.llm_max_tokens,
        temperature: config.llm_temperature,
    });
    ca_conversations::assistant::from_config(provider, config.llm_history_tokens)
        .map_err(|e| anyhow::anyhow!("assistant: {e}"))
}

/// Billing's settings: PayU (test or live) when configured, else the
/// built-in simulator; the simulator's salt is derived from the JWT secret so
/// nobody can sign a simulated result without it.
fn billing_config(config: &Config) -> anyhow::Result<ca_billing::BillingConfig> {
    use ca_billing::payu::{self, Credentials};
    use ca_billing::{BillingConfig, Gateway};
    let public_url = config.public_url();
    let mode = config.payu_mode();
    let gateway = match (mode.as_str(), &config.payu_key, &config.payu_salt) {
        ("test" | "live", Some(key), Some(salt)) => {
            let live = mode == "live";
            Gateway::Payu {
                credentials: Credentials {
                    key: key.clone(),
                    salt: salt.clone(),
                },
                payment_url: if live {
                    payu::LIVE_PAYMENT_URL
                } else {
                    payu::TEST_PAYMENT_URL
                }
                .into(),
                live,
                verify_url: config.payu_verify_url.clone().unwrap_or_else(|| {
                    if live {
                        payu::LIVE_VERIFY_URL
                    } else {
                        payu::TEST_VERIFY_URL
                    }
                    .into()
                }),
            }
        }
        _ => Gateway::Simulator,
    };
    let secret = config.jwt_secret()?;
    let salt = {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(
            format!("payu-simulator|{secret}").as_bytes(),
        ))
    };
    Ok(BillingConfig {
        public_url,
        gateway,
        simulator: Credentials {
            key: "ca-simulator".into(),
            salt,
        },
        demo_enabled: config.demo_payments_enabled(),
        seller: ca_billing::dto::Seller {
            name: config.invoice_name.clone(),
            address: config.invoice_address.clone(),
            gstin: config
                .invoice_gstin
                .as_deref()
                .and_then(|g| ca_core::gst::check_gstin(g).ok()),
            state_code: config.invoice_state_code(),
        },
        tax: ca_billing::config::TaxRules {
            gst_rate_bp: config.gst_rate_basis_points().unwrap_or(1800),
            prices_include_gst: config.prices_include_gst,
            sac: config.invoice_sac.trim().to_string(),
        },
    })
}

/// The widget events' writer: journalled (answered once appended to the
/// journal, stored behind the answers) when the journal can be kept: beside
/// an SQLite database file (on a connection of its own), or in the data
/// directory on PostgreSQL unless `CA_EVENT_JOURNAL=false`; otherwise, or
/// when another process holds the journal, group commit on the shared pool.
async fn event_writer(
    db: &sea_orm::DatabaseConnection,
    config: &Config,
) -> anyhow::Result<EventWriter> {
    let url = &config.database_url;
    let (writer_db, folder) = match (
        ca_core::db::sqlite_file(url),
        ca_core::db::connect_writer(url).await?,
    ) {
        (Some(file), Some(own)) => (own, ca_tracking::journal::folder_for(&file)),
        _ if ca_core::db::is_postgres(db) && config.event_journal => {
            let folder = config.data_dir.join("event-journal");
            ca_tracking::journal::name_instance_journal(&folder)
                .with_context(|| format!("naming the event journal {}", folder.display()))?;
            (ca_core::db::connect_one(url).await?, folder)
        }
        _ => return Ok(EventWriter::start(db.clone(), WriterConfig::default())),
    };
    match EventWriter::start_journaled(writer_db, &folder, WriterConfig::default()).await {
        Ok(writer) => Ok(writer),
        // Another server (or a command such as create-superuser run beside
        // one) on the same journal: it stores the journal; this process
        // answers its events once they are committed.
        Err(ca_tracking::writer::JournalError::InUse(why)) => {
            tracing::info!("{why}; this process stores widget events before answering them");
            Ok(EventWriter::start(db.clone(), WriterConfig::default()))
        }
        Err(err) => {
            Err(err).with_context(|| format!("opening the event journal {}", folder.display()))
        }
    }
}

/// Registers every API route (each documented) and returns the app with the
/// OpenAPI document built from them.
fn api_app(
    public_url: String,
) -> (
    App<
        impl actix_web::dev::ServiceFactory<
            actix_web::dev::ServiceRequest,
            Config = (),
            Response = actix_web::dev::ServiceResponse,
            Error = actix_web::Error,
            InitError = (),
        >,
    >,
    utoipa::openapi::OpenApi,
) {
    let (app, mut doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .service(routes::health::healthz)
        .service(routes::health::readyz)
        .service(
            scope::scope("/api/auth")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::auth::register)
                .service(routes::auth::login)
                .service(routes::auth::me)
                .service(routes::auth::update_me)
                .service(routes::auth::change_password)
                .service(routes::auth::logout_all)
                .service(routes::auth::forgot_password)
                .service(routes::auth::reset_password)
                .service(routes::auth::verify_two_factor)
                .service(routes::auth::setup_two_factor)
                .service(routes::auth::enable_two_factor)
                .service(routes::auth::disable_two_factor),
        )
        .service(
            scope::scope("/api/plans")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::billing::list_plans)
                .service(routes::billing::get_plan)
                .service(routes::admin::create_plan)
                .service(routes::admin::update_plan)
                .service(routes::admin::delete_plan),
        )
        .service(
            scope::scope("/api/admin")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::admin::stats)
                .service(routes::admin::users)
                .service(routes::admin::users_export)
                .service(routes::admin::bulk_change_plan)
                .service(routes::admin::bulk_send_password_reset)
                .service(routes::admin::create_admin)
                .service(routes::admin::create_user)
                .service(routes::admin::user_detail)
                .service(routes::admin::update_user)
                .service(routes::admin::delete_user)
                .service(routes::admin::change_plan)
                .service(routes::admin::suspend_user)
                .service(routes::admin::unsuspend_user)
                .service(routes::admin::send_password_reset)
                .service(routes::admin::sign_out_everywhere)
                .service(routes::admin::notes)
                .service(routes::admin::add_note)
                .service(routes::admin::audit_log)
                .service(routes::admin::plans)
                .service(routes::admin::login_as)
                .service(routes::admin::return_to_admin)
                .service(routes::admin::permissions)
                .service(routes::admin::health)
                .service(routes::admin::meta_events)
                .service(routes::admin::requeue_meta_events)
                .service(routes::admin::requeue_emails)
                .service(routes::admin::send_test_email)
                .service(routes::admin::refund_payment)
                .service(routes::admin::superadmin)
                .service(routes::admin::set_ad_spend)
                .service(routes::admin::trial_settings)
                .service(routes::admin::save_trial_settings)
                .service(routes::admin::two_factor_policy)
                .service(routes::admin::save_two_factor_policy),
        )
        .service(
            scope::scope("/api/meta")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::meta::track)
                .service(routes::meta::public_config),
        )
        .service(
            scope::scope("/api/users")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::admin::simple_list)
                .service(routes::admin::simple_create)
                .service(routes::admin::simple_get)
                .service(routes::admin::simple_update)
                .service(routes::admin::simple_delete),
        )
        .service(
            scope::scope("/api/billing")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::billing::billing_plans)
                .service(routes::billing::usage)
                .service(routes::billing::checkout)
                .service(routes::billing::mock_payment_success)
                .service(routes::billing::subscription)
                .service(routes::billing::cancel)
                .service(routes::billing::resume)
                .service(routes::billing::get_details)
                .service(routes::billing::put_details),
        )
        // PayU posts the result from its own site: no CORS check here; the
        // hash against the stored payment is what is trusted.
        .service(
            scope::scope("/api/payment/payu")
                .service(routes::payments::payu_return)
                .service(routes::payments::payu_webhook),
        )
        .service(
            scope::scope("/api/payment")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::payments::initialize)
                .service(routes::payments::verify)
                .service(routes::payments::status)
                .service(routes::payments::history)
                .service(routes::payments::invoice)
                .service(routes::payments::invoice_pdf)
                .service(routes::payments::credit_note_pdf),
        )
        // Only this one path: the rest of /payment/* is the dashboard's pages
        // and the simulator.
        .service(routes::payments::verify_root)
        .service(
            scope::scope("/api/campaigns")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::campaigns::list)
                .service(routes::campaigns::create)
                .service(routes::campaigns::defaults)
                .service(routes::campaigns::get_one)
                .service(routes::campaigns::update)
                .service(routes::campaigns::remove)
                .service(routes::campaigns::toggle)
                .service(routes::campaigns::analytics)
                .service(routes::campaigns::widget_script)
                .service(routes::campaigns::conversion_script)
                .service(routes::tests::list)
                .service(routes::tests::create)
                .service(routes::tests::get_one)
                .service(routes::tests::change)
                .service(routes::tests::pause)
                .service(routes::tests::pause_variant)
                .service(routes::tests::promote)
                .service(routes::tests::new_version)
                .service(routes::assistant::try_assistant)
                .service(routes::assistant::unanswered),
        )
        .service(
            scope::scope("/api/conversations")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::conversations::list)
                .service(routes::conversations::by_campaign)
                .service(routes::conversations::analytics)
                .service(routes::conversations::campaign_analytics)
                .service(routes::conversations::export)
                .service(routes::conversations::export_campaign)
                .service(routes::conversations::get_one)
                .service(routes::conversations::remove),
        )
        .service(
            scope::scope("/api/customers")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::customers::list)
                .service(routes::customers::overview)
                .service(routes::customers::export)
                .service(routes::customers::get_one)
                .service(routes::customers::update)
                .service(routes::customers::remove),
        )
        .service(
            scope::scope("/api/webhooks")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::webhooks::list_endpoints)
                .service(routes::webhooks::create_endpoint)
                .service(routes::webhooks::update_endpoint)
                .service(routes::webhooks::delete_endpoint)
                .service(routes::webhooks::reveal_secret)
                .service(routes::webhooks::rotate_secret)
                .service(routes::webhooks::send_test)
                .service(routes::webhooks::deliveries)
                .service(routes::webhooks::resend),
        )
        .service(
            scope::scope("/api/push")
                .wrap(web::same_origin_cors(public_url.clone()))
                .service(routes::push::vapid_public_key)
                .service(routes::push::list_subscriptions)
                .service(routes::push::subscribe)
                .service(routes::push::unsubscribe),
        )
        .service(
            scope::scope("/api/widget")
                .wrap(web::public_cors())
                .service(routes::widget::config)
                .service(routes::widget::record_event)
                .service(routes::widget::purchase)
                .service(routes::widget::start_conversation)
                .service(routes::widget::send_message)
                .service(routes::widget::submit_form)
                .service(routes::widget::dismiss),
        )
        .split_for_parts();
    openapi::declare_common_errors(&mut doc);
    (app, doc)
}

/// The OpenAPI document the server serves and `cargo xtask openapi` writes.
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    api_app("http://localhost".to_string()).1
}

/// Starts serving on `listener`. The returned server stops gracefully on
/// SIGINT/SIGTERM (actix waits for in-flight requests).
/// How long an idle keep-alive connection stays open.
pub const KEEP_ALIVE_SECS: u64 = 75;

pub fn serve(state: aweb::Data<AppState>, listener: TcpListener) -> anyhow::Result<Server> {
    let metrics = metrics::middleware(&state)?;
    let doc = api_app(state.config.public_url()).1;
    let doc_json = aweb::Data::new(openapi::to_pretty_json(&doc)?);
    let operations = aweb::Data::new(web::Operations::of(&doc));
    let https = state.config.public_url().starts_with("https://");
    let body_limit = state.config.body_limit;
    let public_url = state.config.public_url();
    let static_dir = state.config.static_dir.clone();
    let widget_dir = state.config.widget_dir.clone();
    let server = HttpServer::new(move || {
        let (app, _) = api_app(public_url.clone());
        app.app_data(state.clone())
            .app_data(web::json_config(body_limit))
            .app_data(aweb::PayloadConfig::new(body_limit))
            .app_data(web::query_config())
            .app_data(web::path_config())
            .app_data(aweb::Data::new(web::BodyLimit(body_limit)))
            .app_data(operations.clone())
            .app_data(doc_json.clone())
            .wrap(from_fn(web::request_guard))
            .wrap(Compress::default())
            .wrap(web::security_headers(https))
            .wrap(from_fn(web::response_headers))
            .wrap(TracingLogger::default())
            .wrap(metrics.clone())
            .wrap(from_fn(web::metrics_guard))
            .route("/api/openapi.json", aweb::get().to(openapi_json))
            .route("/api/docs", aweb::get().to(api_docs))
            .service(aweb::scope("/api").default_service(aweb::to(web::api_not_found)))
            .route("/test-widget", aweb::get().to(routes::test_widget::page))
            .route("/live-demo", aweb::get().to(routes::live_demo::page))
            .route(
                "/live-demo/captions.js",
                aweb::get().to(routes::live_demo::captions),
            )
            .service(
                aweb::scope("/live-demo/api/widget")
                    .route(
                        "/campaigns/{id}/config",
                        aweb::get().to(routes::live_demo::config),
                    )
                    .route("/events", aweb::post().to(routes::live_demo::event))
                    .route("/conversations", aweb::post().to(routes::live_demo::start))
                    .route(
                        "/conversations/{conversationId}/messages",
                        aweb::post().to(routes::live_demo::message),
                    )
                    .route(
                        "/conversations/{conversationId}/forms",
                        aweb::post().to(routes::live_demo::submit),
                    )
                    .route(
                        "/conversations/{conversationId}/dismiss",
                        aweb::post().to(routes::live_demo::dismiss),
                    ),
            )
            .route(
                "/payment/checkout/submit.js",
                aweb::get().to(routes::payments::checkout_script),
            )
            .route(
                "/payment/checkout/{txnid}",
                aweb::get().to(routes::payments::checkout_page),
            )
            .route(
                "/payment/simulator",
                aweb::post().to(routes::payments::simulator_page),
            )
            .route(
                "/payment/simulator/complete",
                aweb::post().to(routes::payments::simulator_complete),
            )
            .route(
                "/payment/simulator/submit.js",
                aweb::get().to(routes::payments::simulator_script),
            )
            .service(web::widget_files(widget_dir.clone()))
            .service(web::widget_files_at(
                "/live-demo/widget",
                widget_dir.clone(),
            ))
            .service(web::dashboard_files(static_dir.clone()))
    })
    // An idle connection stays open longer than browsers' and HTTP
    // clients' own idle timeouts (often 5 s), so a client never sends a
    // request on a connection the server is closing at that moment.
    .keep_alive(std::time::Duration::from_secs(KEEP_ALIVE_SECS))
    .listen(listener)?
    .shutdown_timeout(20)
    .run();
    Ok(server)
}

/// The API reference: a page that draws `/api/openapi.json` with the viewer
/// the dashboard's build copies to `/api-docs/scalar.js`. It runs only
/// scripts from this server (its policy, set in `web::response_headers`,
/// allows no other origin), so nothing third-party runs beside the
/// dashboard's session, and it works without internet.
async fn api_docs() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-cache"))
        .body(API_DOCS_PAGE)
}

const API_DOCS_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ConvertAssist API reference</title>
</head>
<body>
<noscript>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
<script id="api-reference" data-url="/api/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true,"telemetry":false,"showDeveloperTools":"never","agent":{"disabled":true},"mcp":{"disabled":true},"hideDarkModeToggle":true,"darkMode":false}'></script>
<script src="/api-docs/scalar.js"></script>
</body>
</html>
"#;

async fn openapi_json(doc: aweb::Data<String>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(doc.get_ref().clone())
}
