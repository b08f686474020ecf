//! Secrets the server reads back (two-factor secrets, webhook signing
//! secrets, Mailchimp keys) are stored sealed with the data key: a copy of
//! the database gives none of them away, a value moved to another row does
//! not open there, values stored before sealing are sealed when the server
//! starts, a new key takes over from a previous one, and a server without
//! the key they were sealed with refuses to start instead of locking people
//! out.

use ca_auth::entities::two_factor_secret;
use ca_core::sealed::DataKeys;
use ca_webhooks::entities::endpoint;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::admin::account;
use crate::helpers::{TestApp, spawn_app_with};
use crate::two_factor::{PASSWORD, challenge, code_now, enrol, verify};
use crate::webhooks::{
    Receiver, Then, add_endpoint, owner_with_campaign, rotate_secret, verified_by,
};

const FIRST_KEY: &str = "the-first-data-key-of-this-test-0000000000";
const SECOND_KEY: &str = "the-second-data-key-of-this-test-111111111";
const STRANGER_KEY: &str = "a-key-this-database-never-saw-2222222222222";

fn keys(current: &str, previous: &[&str]) -> DataKeys {
    DataKeys::new(
        current,
        &previous.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
    )
    .expect("keys")
}

/// Another server on `app`'s database with its own data key settings (as an
/// upgraded or re-keyed install starts); answers its address, or why it
/// would not start.
async fn restart_with(
    app: &TestApp,
    key: &str,
    previous: Option<&str>,
) -> anyhow::Result<(String, ca_server::workers::Workers)> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}", listener.local_addr()?);
    let data = std::env::temp_dir().join(format!("ca-it-sealed-{}", uuid::Uuid::now_v7()));
    let config = ca_core::Config {
        database_url: app.db.url.clone(),
        bind: base.trim_start_matches("http://").into(),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some(crate::helpers::SECRET.into()),
        data_key: Some(key.into()),
        data_key_previous: previous.map(String::from),
        static_dir: data.join("none"),
        webhooks_allow_private: true,
        ..ca_core::Config::default()
    };
    let state = ca_server::prepare(config).await?;
    ca_server::seal_stored_secrets(&state).await?;
    let workers = ca_server::workers::Workers::start(&state);
    tokio::spawn(ca_server::serve(state, listener)?);
    Ok((base, workers))
}

async fn stored_secret(app: &TestApp, user_id: &str) -> String {
    two_factor_secret::Entity::find_by_id(user_id.to_string())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("secret row")
        .secret
}

async fn set_stored_secret(app: &TestApp, user_id: &str, value: &str) {
    two_factor_secret::Entity::update_many()
        .col_expr(two_factor_secret::Column::Secret, Expr::value(value))
        .filter(two_factor_secret::Column::UserId.eq(user_id))
        .exec(&app.db.conn)
        .await
        .expect("update");
}

async fn endpoint_row(app: &TestApp, id: &str) -> endpoint::Model {
    endpoint::Entity::find_by_id(id.to_string())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("endpoint")
}

/// Signs in through the server at `base` with the password and `code`.
async fn sign_in_at(base: &str, email: &str, code: &str) -> (u16, Value) {
    let client = reqwest::Client::new();
    let login: Value = client
        .post(format!("{base}/api/auth/login"))
        .json(&json!({"email": email, "password": PASSWORD}))
        .send()
        .await
        .expect("login")
        .json()
        .await
        .expect("json");
    let token = login["challengeToken"].as_str().expect("challenge");
    let res = client
        .post(format!("{base}/api/auth/2fa/verify"))
        .json(&json!({"challengeToken": token, "code": code}))
        .send()
        .await
        .expect("verify");
    let status = res.status().as_u16();
    (status, res.json().await.expect("json"))
}

#[tokio::test]
async fn two_factor_secrets_are_sealed_and_survive_upgrades_and_a_new_key() {
    let app = spawn_app_with(|c| c.data_key = Some(FIRST_KEY.into())).await;
    let (token, root) = account(&app, "root@example.in", "superuser").await;
    let (_, secret, _) = enrol(&app, &token, &root).await;

    // Stored sealed with the first key, bound to its row.
    let stored = stored_secret(&app, &root).await;
    assert!(stored.starts_with("ca1."), "{stored}");
    assert!(!stored.contains(&secret), "the secret is not in the row");
    let first = keys(FIRST_KEY, &[]);
    assert!(first.is_current(&stored));
    let context = format!("two_factor_secrets.secret:{root}");
    assert_eq!(first.open(&stored, &context).expect("opens").text, secret);
    let code = code_now(&app, &root, &secret).await;
    let ch = challenge(&app, "root@example.in").await;
    assert_eq!(verify(&app, &ch, &code).await.status, 200);

    // Someone who can write to the database copies the superuser's sealed
    // secret onto their own account: it does not open there, so the
    // superuser's codes do not pass for them; their recovery code still does.
    let (mine, admin) = account(&app, "admin@example.in", "admin").await;
    let (_, _, recovery) = enrol(&app, &mine, &admin).await;
    set_stored_secret(&app, &admin, &stored).await;
    let stolen = code_now(&app, &root, &secret).await;
    let ch = challenge(&app, "admin@example.in").await;
    verify(&app, &ch, &stolen)
        .await
        .error(400, "invalid_two_factor_code");
    assert_eq!(verify(&app, &ch, &recovery[0]).await.status, 200);

    // A secret stored before sealing existed (plain text) is sealed when an
    // upgraded server starts, here one given a new key with the first one
    // as its previous key: both rows end up sealed with the new key.
    set_stored_secret(&app, &root, &secret).await;
    let (second, _workers) = restart_with(&app, SECOND_KEY, Some(FIRST_KEY))
        .await
        .expect("starts");
    let now_keys = keys(SECOND_KEY, &[]);
    let resealed = stored_secret(&app, &root).await;
    assert!(now_keys.is_current(&resealed), "{resealed}");
    assert_eq!(
        now_keys.open(&resealed, &context).expect("opens").text,
        secret
    );
    // The copied row does not open, so it is left as it was, not re-sealed.
    assert_eq!(stored_secret(&app, &admin).await, stored);
    // Signing in goes on working on the re-keyed server.
    let code = code_now(&app, &root, &secret).await;
    let (status, body) = sign_in_at(&second, "root@example.in", &code).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["token"].is_string());

    // A server that has neither key refuses to start, naming the key the
    // secrets need, and changes nothing.
    let err = restart_with(&app, STRANGER_KEY, Some(FIRST_KEY))
        .await
        .err()
        .expect("does not start");
    let said = format!("{err:#}");
    assert!(said.contains(now_keys.current_id()), "{said}");
    assert!(said.contains("CA_DATA_KEY"), "{said}");
    assert_eq!(stored_secret(&app, &root).await, resealed);
}

#[tokio::test]
async fn webhook_secrets_are_sealed_and_still_sign_after_an_upgrade() {
    let mut app = spawn_app_with(|c| c.data_key = Some(FIRST_KEY.into())).await;
    let receiver = Receiver::start(&[], Then::Status(200)).await;
    let (token, _) = owner_with_campaign(&app, "sealed-hooks@example.in").await;
    let t = Some(token.as_str());
    let added = add_endpoint(
        &app,
        &token,
        json!({"url": receiver.url, "eventTypes": ["lead.created"]}),
    )
    .await;
    let id = added["id"].as_str().expect("id").to_string();
    let old = added["secret"].as_str().expect("secret").to_string();
    let rotated = rotate_secret(&app, &token, &id).await;
    let new = rotated["secret"].as_str().expect("secret").to_string();

    let stored = endpoint_row(&app, &id).await;
    let first = keys(FIRST_KEY, &[]);
    let previous = stored.previous_secret.clone().expect("previous");
    for (value, plain) in [(&stored.secret, &new), (&previous, &old)] {
        assert!(first.is_current(value), "{value}");
        assert!(!value.contains(plain.trim_start_matches("whsec_")));
    }
    assert_eq!(
        first
            .open(&stored.secret, &format!("webhook_endpoints.secret:{id}"))
            .expect("opens")
            .text,
        new
    );
    // Changing the endpoint writes no secret back in plain text.
    let changed = app
        .send(
            "PUT",
            &format!("/api/webhooks/endpoints/{id}"),
            t,
            json!({"description": "Renamed"}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    let after = endpoint_row(&app, &id).await;
    assert_eq!(after.description, "Renamed");
    assert_eq!(
        (&after.secret, &after.previous_secret),
        (&stored.secret, &stored.previous_secret)
    );
    // The owner still sees the secret itself.
    let shown = app
        .get(&format!("/api/webhooks/endpoints/{id}/secret"), t)
        .await;
    assert_eq!(shown.body["data"]["secret"], new.as_str());

    // As stored before sealing existed: both secrets in plain text. The
    // upgraded server (with a new key) seals them and signs with both.
    endpoint::Entity::update_many()
        .col_expr(endpoint::Column::Secret, Expr::value(new.as_str()))
        .col_expr(endpoint::Column::PreviousSecret, Expr::value(old.as_str()))
        .filter(endpoint::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("update");
    app.stop_worker("webhook deliveries").await;
    let (second, _workers) = restart_with(&app, SECOND_KEY, Some(FIRST_KEY))
        .await
        .expect("starts");
    let upgraded = endpoint_row(&app, &id).await;
    let now_keys = keys(SECOND_KEY, &[]);
    assert!(now_keys.is_current(&upgraded.secret));
    assert!(now_keys.is_current(upgraded.previous_secret.as_deref().expect("previous")));
    let test: Value = reqwest::Client::new()
        .post(format!("{second}/api/webhooks/endpoints/{id}/test"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .expect("test")
        .json()
        .await
        .expect("json");
    assert!(test["data"]["eventId"].is_string(), "{test}");
    let got = receiver.wait_for(1, 15).await;
    assert_eq!(got[0].json()["type"], "webhook.test");
    assert_eq!(verified_by(&new, &got[0]), 1, "the current secret signs");
    assert_eq!(verified_by(&old, &got[0]), 1, "and the previous one");

    // Without the key, the server does not start (every delivery would fail).
    let err = restart_with(&app, STRANGER_KEY, None)
        .await
        .err()
        .expect("does not start");
    assert!(
        format!("{err:#}").contains(now_keys.current_id()),
        "{err:#}"
    );
}

// The command runs as a blocking child process: the server under test keeps
// running on worker threads meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_command_run_with_other_settings_seals_nothing() {
    let app = spawn_app_with(|c| c.data_key = Some(FIRST_KEY.into())).await;
    let (token, _) = owner_with_campaign(&app, "cli-sealed@example.in").await;
    let added = add_endpoint(
        &app,
        &token,
        json!({"url": "http://127.0.0.1:9/hooks", "eventTypes": ["lead.created"]}),
    )
    .await;
    let id = added["id"].as_str().expect("id").to_string();
    let plain = added["secret"].as_str().expect("secret").to_string();
    // As stored by a version before sealing.
    endpoint::Entity::update_many()
        .col_expr(endpoint::Column::Secret, Expr::value(plain.as_str()))
        .filter(endpoint::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("update");

    // An operator creates a superuser from another directory: the command
    // makes its own data key there, and must not seal the secret with it
    // (the server could then no longer read it).
    let data = std::env::temp_dir().join(format!("ca-cli-sealed-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&data).expect("dir");
    crate::cli::create_superuser(&app.db.url, &data, "ops@example.in", "ops-pass-1");
    assert_eq!(endpoint_row(&app, &id).await.secret, plain);
    let _ = std::fs::remove_dir_all(data);
}
