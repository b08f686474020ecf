//! Typed configuration: defaults, then an optional `ca.toml`, then `CA_*`
//! environment variables, read once at start.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use figment::providers::{Format, Serialized, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};
use rand::RngCore;
use serde::{Deserialize, Serialize};

/// Everything the server reads from its environment.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// `sqlite://…` (embedded default) or `postgres://…` (production).
    pub database_url: String,
    /// Address the HTTP server listens on.
    pub bind: String,
    /// The URL visitors and owners reach this server at (links in emails, embed tags).
    pub public_url: Option<String>,
    /// Local state: the SQLite file, the generated JWT secret, demo credentials.
    pub data_dir: PathBuf,
    /// HS256 secret; generated once into `data_dir` when unset.
    pub jwt_secret: Option<String>,
    /// The key that seals secrets the server keeps in the database (two-factor
    /// secrets, webhook signing secrets, Mailchimp keys); generated once into
    /// `data_dir/data-key` when unset. Every instance on one database needs
    /// the same key.
    pub data_key: Option<String>,
    /// Earlier data keys, comma-separated: values sealed with them still open
    /// and are sealed again with `data_key` when the server starts.
    pub data_key_previous: Option<String>,
    /// Lifetime of a session token, in hours.
    pub jwt_ttl_hours: i64,
    /// The built dashboard (`frontend/app/dist`).
    pub static_dir: PathBuf,
    /// `smtp://user:pass@host:587` or `smtps://…`; unset means the email outbox table.
    pub smtp_url: Option<String>,
    /// Sender of outgoing email.
    pub smtp_from: String,
    /// Shared rate-limit counters; unset means in-process counters.
    pub redis_url: Option<String>,
    /// Tracing filter, e.g. `info` or `ca_server=debug,info`.
    pub log: String,
    /// `text` or `json`.
    pub log_format: String,
    /// Take the client IP from `Forwarded`/`X-Forwarded-For` (only behind a trusted proxy).
    pub trust_proxy: bool,
    /// Bearer token `/metrics` asks for; unset, it answers only callers on
    /// this machine (loopback).
    pub metrics_token: Option<String>,
    /// Largest accepted JSON body, in bytes.
    pub body_limit: usize,
    /// PayU merchant key; unset means the built-in simulator of PayU's hosted
    /// page (and the demo payment page) stand in.
    pub payu_key: Option<String>,
    /// PayU salt (with the key).
    pub payu_salt: Option<String>,
    /// `test`, `live` or `simulator`; unset means `test` with a key and
    /// `simulator` without one.
    pub payu_mode: Option<String>,
    /// Overrides PayU's server-to-server URL (`verify_payment`), e.g. for a
    /// local stand-in in tests.
    pub payu_verify_url: Option<String>,
    /// Meta pixel (dataset) id and Conversions API token; unset means events
    /// are stored and not forwarded.
    pub meta_pixel_id: Option<String>,
    pub meta_access_token: Option<String>,
    /// The Graph API's address (a local stand-in in tests).
    pub meta_graph_url: String,
    pub meta_api_version: String,
    /// Meta's test-events code, while testing the integration.
    pub meta_test_event_code: Option<String>,
    /// Let owners' webhooks reach private, loopback and link-local addresses
    /// (for trying endpoints on one's own machine; never on a shared server).
    pub webhooks_allow_private: bool,
    /// The contact push services see in every browser notification's token
    /// (`mailto:…` or `https://…`); the public URL when unset.
    pub push_contact: Option<String>,
    /// `ca-server demo` also gives the demo owner a month of sample activity
    /// (a campaign, customers, conversations, purchases, a paid plan) on a
    /// new database; never while real payments are configured.
    pub demo_data: bool,
    /// Mailchimp's API address, `{dc}` standing for the data centre the
    /// owner's API key names (a local stand-in in tests).
    pub mailchimp_api_url: String,
    /// The seller on invoices: legal name, postal address and GSTIN.
    pub invoice_name: String,
    pub invoice_address: String,
    #[serde(default)]
    pub invoice_gstin: Option<String>,
    /// The seller's state or union territory: its GST code (`29`) or name
    /// (`Karnataka`); unset, the state the GSTIN was issued in.
    #[serde(default)]
    pub invoice_state: Option<String>,
    /// The SAC (services accounting code) printed on invoices.
    pub invoice_sac: String,
    /// The GST rate on plans, in percent.
    pub gst_rate: f64,
    /// Plan prices include GST (the buyer pays the price; the tax is taken
    /// out of it); otherwise GST is added to the price at checkout.
    pub prices_include_gst: bool,
    /// OpenAI-compatible server for the assistant, e.g. `https://api.openai.com`
    /// or `http://127.0.0.1:11434` (Ollama); unset means the builtin assistant.
    pub llm_base_url: Option<String>,
    /// Bearer key for the model server.
    pub llm_api_key: Option<String>,
    pub llm_model: String,
    /// Longest wait for a reply to start, and between two streamed pieces, in seconds.
    pub llm_timeout_secs: u64,
    pub llm_max_tokens: u32,
    pub llm_temperature: f32,
    /// Conversation history sent to the model, in tokens (about 4 characters each).
    pub llm_history_tokens: usize,
    /// Widget calls per visitor IP per minute.
    pub widget_ip_per_minute: u32,
    /// Sign-ups allowed from one IP per hour.
    pub registrations_per_ip_per_hour: u32,
    /// Widget calls per campaign per minute, all visitors together.
    pub widget_campaign_per_minute: u32,
    /// Longest visitor chat message, in characters.
    pub widget_message_max_chars: usize,
    /// Visitor messages per conversation.
    pub widget_messages_per_conversation: i64,
    /// Minutes without activity after which a conversation is completed.
    pub conversation_idle_minutes: u64,
    /// Milliseconds between the comment heartbeats of a streamed reply.
    pub sse_heartbeat_ms: u64,
    /// The built widget (`frontend/widget/dist`), served at `/widget/`.
    pub widget_dir: PathBuf,
    /// Seconds a campaign's public configuration is reused before it is read again.
    pub widget_config_cache_secs: u64,
    /// On PostgreSQL, answer widget events once they are in this server's
    /// event journal (in the data directory) and store them behind the
    /// answers; `false` answers them only once committed, for a server whose
    /// data directory does not survive a restart. An SQLite file always
    /// keeps its journal beside the database.
    pub event_journal: bool,
    /// Page views, impressions and purchases per visitor IP per minute.
    pub widget_events_ip_per_minute: u32,
    /// Page views, impressions and purchases per campaign per minute.
    pub widget_events_campaign_per_minute: u32,
    /// New visitors one client address adds to an owner's monthly visitors
    /// per campaign per day; more are served but not counted.
    pub widget_new_visitors_per_address: u32,
    /// Days after a visitor's last interaction with a campaign in which their
    /// purchases count as the campaign's revenue.
    pub attribution_days: i64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: "sqlite://data/convertassist.db?mode=rwc".into(),
            bind: "127.0.0.1:8080".into(),
            public_url: None,
            data_dir: PathBuf::from("data"),
            jwt_secret: None,
            data_key: None,
            data_key_previous: None,
            jwt_ttl_hours: 24 * 7,
            static_dir: PathBuf::from("frontend/app/dist"),
            smtp_url: None,
            smtp_from: "ConvertAssist <no-reply@convertassist.local>".into(),
            redis_url: None,
            log: "info".into(),
            log_format: "text".into(),
            trust_proxy: false,
            metrics_token: None,
            body_limit: 256 * 1024,
            payu_key: None,
            payu_salt: None,
            payu_mode: None,
            payu_verify_url: None,
            meta_pixel_id: None,
            meta_access_token: None,
            meta_graph_url: "https://graph.facebook.com".into(),
            meta_api_version: "v21.0".into(),
            meta_test_event_code: None,
            webhooks_allow_private: false,
            push_contact: None,
            demo_data: false,
            mailchimp_api_url: "https://{dc}.api.mailchimp.com".into(),
            invoice_name: "ConvertAssist".into(),
            invoice_address: String::new(),
            invoice_gstin: None,
            invoice_state: None,
            // Information technology design and development services, under
            // which software offered as a subscription is commonly invoiced.
            invoice_sac: "998314".into(),
            gst_rate: 18.0,
            prices_include_gst: true,
            llm_base_url: None,
            llm_api_key: None,
            llm_model: "gpt-4o-mini".into(),
            llm_timeout_secs: 20,
            llm_max_tokens: 300,
            llm_temperature: 0.4,
            llm_history_tokens: 2000,
            widget_ip_per_minute: 60,
            registrations_per_ip_per_hour: 30,
            widget_campaign_per_minute: 1200,
            widget_message_max_chars: 1000,
            widget_messages_per_conversation: 40,
            conversation_idle_minutes: 30,
            sse_heartbeat_ms: 15_000,
            widget_dir: PathBuf::from("frontend/widget/dist"),
            widget_config_cache_secs: 10,
            event_journal: true,
            widget_events_ip_per_minute: 300,
            widget_events_campaign_per_minute: 60_000,
            widget_new_visitors_per_address: 20,
            attribution_days: 30,
        }
    }
}

impl Config {
    /// Reads defaults, `ca.toml` (or the file in `CA_CONFIG`) and `CA_*` variables.
    pub fn load() -> anyhow::Result<Self> {
        let file = std::env::var("CA_CONFIG").unwrap_or_else(|_| "ca.toml".into());
        let env = EnvText::from_pairs(
            std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))),
        );
        Self::from_sources(Toml::file(file), env)
    }

    /// Defaults, then `file`, then `env`. Numbers and flags are read from
    /// the environment's text (`lossy`), so a setting that is text, like a
    /// pixel id, token or key made only of digits, stays exactly as given.
    fn from_sources(file: impl Provider, env: EnvText) -> anyhow::Result<Self> {
        let config: Config = Figment::from(Serialized::defaults(Config::default()))
            .merge(file)
            .merge(env)
            .extract_lossy()
            .context("invalid configuration")?;
        config.check()?;
        Ok(config)
    }

    fn check(&self) -> anyhow::Result<()> {
        if !(self.database_url.starts_with("sqlite:")
            || self.database_url.starts_with("postgres://")
            || self.database_url.starts_with("postgresql://"))
        {
            bail!("CA_DATABASE_URL must start with sqlite:, postgres:// or postgresql://");
        }
        if !matches!(self.log_format.as_str(), "text" | "json") {
            bail!("CA_LOG_FORMAT must be text or json");
        }
        if self.jwt_ttl_hours < 1 {
            bail!("CA_JWT_TTL_HOURS must be at least 1");
        }
        if let Some(secret) = &self.jwt_secret
            && secret.len() < 32
        {
            bail!("CA_JWT_SECRET must be at least 32 characters");
        }
        if let Some(key) = &self.data_key
            && key.trim().chars().count() < crate::sealed::MIN_KEY_CHARS
        {
            bail!("CA_DATA_KEY must be at least 32 characters");
        }
        if self
            .previous_data_keys()
            .iter()
            .any(|k| k.chars().count() < crate::sealed::MIN_KEY_CHARS)
        {
            bail!("each key in CA_DATA_KEY_PREVIOUS must be at least 32 characters");
        }
        if let Some(url) = &self.llm_base_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            bail!("CA_LLM_BASE_URL must start with http:// or https://");
        }
        if self.llm_timeout_secs == 0 || self.sse_heartbeat_ms == 0 {
            bail!("CA_LLM_TIMEOUT_SECS and CA_SSE_HEARTBEAT_MS must be at least 1");
        }
        if self.registrations_per_ip_per_hour == 0 {
            bail!("CA_REGISTRATIONS_PER_IP_PER_HOUR must be at least 1");
        }
        if self.widget_ip_per_minute == 0
            || self.widget_campaign_per_minute == 0
            || self.widget_message_max_chars == 0
            || self.widget_messages_per_conversation < 1
            || self.conversation_idle_minutes == 0
        {
            bail!("the CA_WIDGET_* limits and CA_CONVERSATION_IDLE_MINUTES must be at least 1");
        }
        if self.widget_events_ip_per_minute == 0
            || self.widget_events_campaign_per_minute == 0
            || self.widget_new_visitors_per_address == 0
            || !(1..=365).contains(&self.attribution_days)
        {
            bail!(
                "CA_WIDGET_EVENTS_* and CA_WIDGET_NEW_VISITORS_PER_ADDRESS must be at least 1 and CA_ATTRIBUTION_DAYS between 1 and 365"
            );
        }
        let mode = self.payu_mode();
        if !matches!(mode.as_str(), "test" | "live" | "simulator") {
            bail!("CA_PAYU_MODE must be test, live or simulator");
        }
        if mode != "simulator" && (self.payu_key.is_none() || self.payu_salt.is_none()) {
            bail!("CA_PAYU_MODE={mode} needs CA_PAYU_KEY and CA_PAYU_SALT");
        }
        if self.payu_key.is_some() != self.payu_salt.is_some() {
            bail!("set both CA_PAYU_KEY and CA_PAYU_SALT, or neither");
        }
        if self.meta_pixel_id.is_some() != self.meta_access_token.is_some() {
            bail!("set both CA_META_PIXEL_ID and CA_META_ACCESS_TOKEN, or neither");
        }
        if !(self.mailchimp_api_url.starts_with("http://")
            || self.mailchimp_api_url.starts_with("https://"))
        {
            bail!("CA_MAILCHIMP_API_URL must start with http:// or https://");
        }
        if !(self.meta_graph_url.starts_with("http://")
            || self.meta_graph_url.starts_with("https://"))
        {
            bail!("CA_META_GRAPH_URL must start with http:// or https://");
        }
        if let Some(url) = &self.payu_verify_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            bail!("CA_PAYU_VERIFY_URL must start with http:// or https://");
        }
        self.check_invoice_seller()?;
        Ok(())
    }

    /// The seller's GSTIN, state, SAC and GST rate must be usable on a tax invoice.
    fn check_invoice_seller(&self) -> anyhow::Result<()> {
        let gstin = match self.invoice_gstin.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(g) => Some(
                crate::gst::check_gstin(g).map_err(|e| anyhow::anyhow!("CA_INVOICE_GSTIN: {e}"))?,
            ),
        };
        if let Some(text) = self
            .invoice_state
            .as_deref()
            .filter(|s| !s.trim().is_empty())
        {
            let Some(state) = crate::gst::find_state(text) else {
                bail!(
                    "CA_INVOICE_STATE must be a GST state code (e.g. 29) or the name of an Indian state or union territory; {text:?} is neither"
                );
            };
            if let Some(gstin) = &gstin {
                crate::gst::check_gstin_state(gstin, state.code)
                    .map_err(|e| anyhow::anyhow!("CA_INVOICE_GSTIN and CA_INVOICE_STATE: {e}"))?;
            }
        }
        let sac = self.invoice_sac.trim();
        if sac.len() != 6 || !sac.starts_with("99") || !sac.bytes().all(|b| b.is_ascii_digit()) {
            bail!(
                "CA_INVOICE_SAC must be a 6-digit services accounting code starting with 99 (e.g. 998314)"
            );
        }
        if self.gst_rate_basis_points().is_none() {
            bail!(
                "CA_GST_RATE must be a percentage between 0 and 100 with at most two decimals (e.g. 18)"
            );
        }
        Ok(())
    }

    /// The GST rate in hundredths of a percent (18 % is 1800).
    pub fn gst_rate_basis_points(&self) -> Option<i64> {
        let bp = self.gst_rate * 100.0;
        ((0.0..=10_000.0).contains(&bp) && (bp - bp.round()).abs() < 1e-6)
            .then(|| bp.round() as i64)
    }

    /// The seller's GST state code: `CA_INVOICE_STATE`, else the one its
    /// GSTIN was issued in.
    pub fn invoice_state_code(&self) -> Option<String> {
        self.invoice_state
            .as_deref()
            .and_then(crate::gst::find_state)
            .map(|s| s.code.to_string())
            .or_else(|| {
                self.invoice_gstin
                    .as_deref()
                    .and_then(|g| crate::gst::check_gstin(g).ok())
                    .map(|g| g[..2].to_string())
            })
    }

    /// `test`, `live` or `simulator` (see [`Config::payu_mode`]).
    pub fn payu_mode(&self) -> String {
        match &self.payu_mode {
            Some(m) if !m.trim().is_empty() => m.trim().to_lowercase(),
            _ if self.payu_key.is_some() => "test".into(),
            _ => "simulator".into(),
        }
    }

    /// Whether the demo payment page may activate plans: only while no real
    /// payment provider is configured.
    pub fn demo_payments_enabled(&self) -> bool {
        self.payu_key.is_none()
    }

    /// The public base URL without a trailing slash.
    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.bind),
        }
    }

    /// The JWT secret: the configured one, or one generated once and kept in
    /// `data_dir/jwt-secret` so sessions survive restarts.
    pub fn jwt_secret(&self) -> anyhow::Result<String> {
        if let Some(secret) = &self.jwt_secret {
            return Ok(secret.clone());
        }
        load_or_create_secret(&self.data_dir.join("jwt-secret"), "JWT secret")
    }

    /// The keys that seal secrets kept in the database: the configured data
    /// key, or one generated once and kept in `data_dir/data-key` (keep it
    /// with the database's backups: without it those secrets cannot be
    /// read), and the earlier ones that still open.
    pub fn data_keys(&self) -> anyhow::Result<crate::sealed::DataKeys> {
        let current = match &self.data_key {
            Some(key) => key.clone(),
            None => {
                let path = self.data_dir.join("data-key");
                // Unlike the JWT secret, a damaged key file is never replaced:
                // a new key would leave every sealed secret unreadable.
                if let Ok(text) = std::fs::read_to_string(&path)
                    && text.trim().chars().count() < crate::sealed::MIN_KEY_CHARS
                {
                    bail!(
                        "{} holds fewer than {} characters: restore the data key from a backup (see \"Data key\" in docs/operations.md)",
                        path.display(),
                        crate::sealed::MIN_KEY_CHARS
                    );
                }
                load_or_create_secret(&path, "data key")?
            }
        };
        crate::sealed::DataKeys::new(&current, &self.previous_data_keys())
    }

    fn previous_data_keys(&self) -> Vec<String> {
        self.data_key_previous
            .as_deref()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(String::from)
            .collect()
    }
}

/// The `CA_*` environment variables, each kept as text. Figment's own
/// environment provider guesses types, so `CA_META_PIXEL_ID=1234567890123456`
/// became a number a text setting refused, and digits with a leading zero
/// would lose it; here the setting's own type decides.
struct EnvText(Dict);

impl EnvText {
    fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut dict = Dict::new();
        for (key, value) in pairs {
            let Some(name) = key.strip_prefix("CA_") else {
                continue;
            };
            let name = name.trim().to_ascii_lowercase();
            if name.is_empty() || name == "config" {
                continue;
            }
            dict.insert(name, Value::from(value));
        }
        Self(dict)
    }
}

impl Provider for EnvText {
    fn metadata(&self) -> Metadata {
        Metadata::named("`CA_` environment variable(s)")
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        Ok(Profile::Default.collect(self.0.clone()))
    }
}

fn load_or_create_secret(path: &Path, what: &str) -> anyhow::Result<String> {
    if let Ok(existing) = std::fs::read_to_string(path) {
        let existing = existing.trim().to_string();
        if existing.len() >= 32 {
            return Ok(existing);
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut bytes = [0u8; 48];
    rand::thread_rng().fill_bytes(&mut bytes);
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(path, &secret).with_context(|| format!("writing {}", path.display()))?;
    restrict_permissions(path);
    tracing::info!(path = %path.display(), "generated a new {what}");
    Ok(secret)
}

#[cfg(unix)]
fn restrict_permissions(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Err(err) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
        tracing::warn!(%err, path = %path.display(), "could not restrict a secret file's permissions");
    }
}

#[cfg(not(unix))]
fn restrict_permissions(_path: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_secret_is_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        let first = config.jwt_secret().expect("secret");
        let second = config.jwt_secret().expect("secret");
        assert_eq!(first, second);
        assert_eq!(first.len(), 96);
    }

    #[test]
    fn the_generated_data_key_is_kept_and_a_configured_one_wins() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        let first = config.data_keys().expect("keys");
        let sealed = first.seal("secret", "ctx");
        let again = config.data_keys().expect("keys");
        assert_eq!(again.current_id(), first.current_id());
        assert_eq!(again.open(&sealed, "ctx").expect("opens").text, "secret");
        assert_ne!(
            std::fs::read_to_string(dir.path().join("data-key")).expect("file"),
            config.jwt_secret().expect("jwt"),
            "the data key is not the JWT secret"
        );
        let configured = Config {
            data_key: Some("k".repeat(40)),
            data_key_previous: Some(format!(" {} , ", "p".repeat(32))),
            ..config
        };
        assert!(configured.check().is_ok());
        let keys = configured.data_keys().expect("keys");
        assert_ne!(keys.current_id(), first.current_id());
        assert_eq!(
            keys.current_id(),
            crate::sealed::DataKeys::new(&"k".repeat(40), &[])
                .expect("k")
                .current_id()
        );
    }

    #[test]
    fn a_damaged_data_key_file_is_never_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("data-key");
        std::fs::write(&path, "cut short").expect("write");
        let config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        let err = config.data_keys().expect_err("refused");
        assert!(err.to_string().contains("restore the data key"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).expect("file"), "cut short");
    }

    #[test]
    fn short_data_keys_are_refused() {
        for config in [
            Config {
                data_key: Some("short".into()),
                ..Config::default()
            },
            Config {
                data_key_previous: Some(format!("{},short", "p".repeat(32))),
                ..Config::default()
            },
        ] {
            assert!(config.check().is_err());
        }
    }

    #[test]
    fn rejects_short_secret_and_bad_url() {
        let short = Config {
            jwt_secret: Some("short".into()),
            ..Config::default()
        };
        assert!(short.check().is_err());
        let bad = Config {
            database_url: "mysql://x".into(),
            ..Config::default()
        };
        assert!(bad.check().is_err());
        assert!(Config::default().check().is_ok());
    }

    /// Every text setting given as digits is read as that text, leading
    /// zeros kept; numbers and flags are still read from their text.
    #[test]
    fn text_settings_made_of_digits_stay_text() {
        let digits = [
            ("CA_META_PIXEL_ID", "1234567890123456"),
            ("CA_META_ACCESS_TOKEN", "0987654321"),
            ("CA_META_TEST_EVENT_CODE", "12345"),
            ("CA_PAYU_KEY", "0012345"),
            ("CA_PAYU_SALT", "98765432109876543210"),
            ("CA_JWT_SECRET", "01234567890123456789012345678901234567890"),
            ("CA_METRICS_TOKEN", "4242"),
            ("CA_LLM_API_KEY", "0000111122223333"),
            ("CA_LLM_MODEL", "42"),
            ("CA_SMTP_FROM", "12345"),
            ("CA_INVOICE_NAME", "2026"),
            ("CA_JWT_TTL_HOURS", "12"),
            ("CA_TRUST_PROXY", "true"),
            ("CA_LLM_TEMPERATURE", "0.7"),
            ("CA_CONFIG", "ignored.toml"),
            ("PATH", "/usr/bin"),
        ];
        let env = EnvText::from_pairs(digits.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let c = Config::from_sources(Toml::string(""), env).expect("config");
        assert_eq!(c.meta_pixel_id.as_deref(), Some("1234567890123456"));
        assert_eq!(c.meta_access_token.as_deref(), Some("0987654321"));
        assert_eq!(c.meta_test_event_code.as_deref(), Some("12345"));
        assert_eq!(c.payu_key.as_deref(), Some("0012345"));
        assert_eq!(c.payu_salt.as_deref(), Some("98765432109876543210"));
        assert_eq!(
            c.jwt_secret.as_deref(),
            Some("01234567890123456789012345678901234567890")
        );
        assert_eq!(c.metrics_token.as_deref(), Some("4242"));
        assert_eq!(c.llm_api_key.as_deref(), Some("0000111122223333"));
        assert_eq!(c.llm_model, "42");
        assert_eq!(c.smtp_from, "12345");
        assert_eq!(c.invoice_name, "2026");
        assert_eq!(c.jwt_ttl_hours, 12);
        assert!(c.trust_proxy);
        assert!((c.llm_temperature - 0.7).abs() < f32::EPSILON);
        // A bad number still says which setting is wrong.
        let bad = EnvText::from_pairs([("CA_JWT_TTL_HOURS".to_string(), "soon".to_string())]);
        let err = format!(
            "{:#}",
            Config::from_sources(Toml::string(""), bad).expect_err("bad")
        );
        assert!(
            err.contains("jwt_ttl_hours") || err.contains("JWT_TTL_HOURS"),
            "{err}"
        );
    }

    #[test]
    // The closure's error type is figment's own.
    #[allow(clippy::result_large_err)]
    fn invoice_settings_given_as_digits_are_text() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("CA_INVOICE_SAC", "998315");
            jail.set_env("CA_INVOICE_NAME", "24681357");
            jail.set_env("CA_INVOICE_ADDRESS", "560001");
            jail.set_env("CA_INVOICE_STATE", "29");
            jail.set_env("CA_GST_RATE", "18");
            jail.set_env("CA_PRICES_INCLUDE_GST", "false");
            jail.set_env("CA_INVOICE_GSTIN", "29AAGCB7383J1Z4");
            let c = Config::load().expect("loads");
            assert_eq!(c.invoice_sac, "998315");
            assert_eq!(c.invoice_name, "24681357");
            assert_eq!(c.invoice_address, "560001");
            assert_eq!(c.invoice_state.as_deref(), Some("29"));
            assert_eq!(c.gst_rate_basis_points(), Some(1800));
            assert!(!c.prices_include_gst);
            assert_eq!(c.invoice_state_code().as_deref(), Some("29"));
            // A GSTIN of digits only is read as text, and refused as a GSTIN.
            jail.set_env("CA_INVOICE_GSTIN", "290123456789012");
            let err = Config::load().expect_err("not a GSTIN").to_string();
            assert!(
                err.contains("CA_INVOICE_GSTIN: A GSTIN has 15 characters"),
                "{err}"
            );
            Ok(())
        });
    }

    #[test]
    fn invoice_seller_is_checked() {
        let other_state = Config {
            invoice_gstin: Some("27AAPFU0939F1ZV".into()),
            invoice_state: Some("Karnataka".into()),
            ..Config::default()
        };
        let err = other_state
            .check()
            .expect_err("GSTIN of another state")
            .to_string();
        assert!(err.contains("registered in Maharashtra"), "{err}");
        let from_gstin = Config {
            invoice_gstin: Some("27AAPFU0939F1ZV".into()),
            ..Config::default()
        };
        assert!(from_gstin.check().is_ok());
        assert_eq!(from_gstin.invoice_state_code().as_deref(), Some("27"));
        for rate in [-1.0, 18.005, 101.0] {
            let c = Config {
                gst_rate: rate,
                ..Config::default()
            };
            assert!(c.check().is_err(), "{rate}");
        }
        let c = Config {
            invoice_sac: "12345".into(),
            ..Config::default()
        };
        assert!(c.check().is_err());
        assert_eq!(Config::default().gst_rate_basis_points(), Some(1800));
    }

    #[test]
    fn public_url_defaults_to_bind() {
        assert_eq!(Config::default().public_url(), "http://127.0.0.1:8080");
        let c = Config {
            public_url: Some("https://app.example.in/".into()),
            ..Config::default()
        };
        assert_eq!(c.public_url(), "https://app.example.in");
    }
}
