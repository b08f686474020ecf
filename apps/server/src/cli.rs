//! Operator commands: `serve`, `migrate`, `demo`, `create-superuser`, `openapi`, `outbox`.

use std::io::BufRead;
use std::net::TcpListener;
use std::path::PathBuf;

use anyhow::{Context, bail};
use ca_auth::{NewAccount, Role};
use ca_core::Config;
use ca_migrations::{Migrator, MigratorTrait};
use clap::{Parser, Subcommand};
use rand::Rng;
use rand::distributions::Alphanumeric;

/// ConvertAssist server and operator commands.
#[derive(Debug, Parser)]
#[command(name = "ca-server", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API and the dashboard (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Migrate; on a database with no accounts, create a demo superuser and owner and print their credentials.
    Demo,
    /// Create a superuser (staff) account.
    CreateSuperuser {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        /// Country code and number, e.g. "+91 9876543210".
        #[arg(long)]
        phone: String,
        /// Read from standard input when omitted.
        #[arg(long)]
        password: Option<String>,
    },
    /// Print the OpenAPI document, or write it to a file.
    Openapi {
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print the newest messages of the email outbox as JSON, with their delivery status.
    Outbox {
        /// Only messages to this address.
        #[arg(long)]
        to: Option<String>,
        #[arg(long, default_value_t = 10)]
        limit: u64,
    },
}

/// Logs to stderr, so commands that print JSON keep stdout clean.
pub fn init_tracing(config: &Config) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // Colours only on a terminal: a log file or journal gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let result = if config.log_format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    if result.is_err() {
        eprintln!("tracing was already initialised");
    }
}

/// Runs a parsed command.
pub async fn run(cli: Cli, config: Config) -> anyhow::Result<()> {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        Command::Migrate => {
            let db = ca_core::db::connect(&config.database_url).await?;
            Migrator::up(&db, None).await?;
            println!(
                "Migrations applied to {}",
                ca_core::db::redact(&config.database_url)
            );
            Ok(())
        }
        Command::Demo => demo(config).await,
        Command::CreateSuperuser {
            email,
            name,
            phone,
            password,
        } => {
            let password = match password {
                Some(p) => p,
                None => read_password()?,
            };
            let state = crate::prepare(config).await?;
            let user = state
                .auth
                .create_account(NewAccount {
                    name,
                    email,
                    phone,
                    password,
                    role: Role::Superuser,
                })
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!("Superuser {} created (id {})", user.email, user.id);
            Ok(())
        }
        Command::Openapi { out } => {
            let json = crate::openapi::to_pretty_json(&crate::openapi_document())?;
            match out {
                Some(path) => std::fs::write(&path, json)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => print!("{json}"),
            }
            Ok(())
        }
        Command::Outbox { to, limit } => {
            let db = ca_core::db::connect(&config.database_url).await?;
            Migrator::up(&db, None).await?;
            let messages = ca_auth::mailer::outbox(&db, to.as_deref(), limit.clamp(1, 1000))
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!("{}", serde_json::to_string_pretty(&messages)?);
            Ok(())
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let bind = config.bind.clone();
    let listener = TcpListener::bind(&bind).with_context(|| format!("binding {bind} (CA_BIND)"))?;
    let state = crate::prepare(config).await?;
    crate::seal_stored_secrets(&state).await?;
    let url = state.config.public_url();
    if !state.config.static_dir.join("index.html").exists() {
        tracing::warn!(dir = %state.config.static_dir.display(), "the dashboard is not built; only the API is served");
    }
    let events = state.tracking.writer().clone();
    let workers = crate::workers::Workers::start(&state);
    let server = crate::serve(state, listener)?;
    println!(
        "ConvertAssist listening on {url} (dashboard and API; API reference at {url}/api/docs)"
    );
    server.await?;
    workers.stop().await;
    // Requests in flight have finished; write the events they queued.
    events.flush().await;
    tracing::info!("server stopped");
    Ok(())
}

fn read_password() -> anyhow::Result<String> {
    eprintln!("Password for the new superuser (read from standard input):");
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    if password.is_empty() {
        bail!("no password given");
    }
    Ok(password)
}

fn random_password() -> String {
    rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(14)
        .map(char::from)
        .collect()
}

const DEMO_SUPERUSER: &str = "admin@demo.convertassist.local";
const DEMO_OWNER: &str = "owner@demo.convertassist.local";

/// A few sample owners, so the demo superuser's admin area has accounts,
/// campaigns and payments to show. Their passwords are random and never
/// printed; they are marked "(sample)".
async fn sample_owners(state: &crate::state::AppState) -> anyhow::Result<()> {
    let samples = [
        (
            "Kesar Sarees (sample)",
            "sample.kesar@convertassist.local",
            "https://kesar-sarees.example.in",
            true,
        ),
        (
            "Pune Yoga Studio (sample)",
            "sample.yoga@convertassist.local",
            "https://puneyoga.example.in",
            true,
        ),
        (
            "Gadget Bazaar (sample)",
            "sample.gadgets@convertassist.local",
            "https://gadgetbazaar.example.in",
            false,
        ),
    ];
    for (name, email, site, pays) in samples {
        let owner = state
            .auth
            .create_account(NewAccount {
                name: name.into(),
                email: email.into(),
                phone: "+91 9000000099".into(),
                password: random_password(),
                role: Role::User,
            })
            .await
            .map_err(|e| anyhow::anyhow!("creating {email}: {e}"))?;
        let owner = if pays && state.billing.demo_enabled() {
            state
                .billing
                .complete_demo_payment(&owner, "basic")
                .await
                .map_err(|e| anyhow::anyhow!("paying for {email}: {e}"))?
        } else {
            owner
        };
        let settings = ca_campaigns::settings::CampaignSettings::default();
        state
            .campaigns
            .create(
                &owner,
                ca_campaigns::dto::CampaignIn {
                    name: "Exit offer".into(),
                    website_url: site.into(),
                    is_active: Some(true),
                    settings,
                },
            )
            .await
            .map_err(|e| anyhow::anyhow!("campaign for {email}: {e}"))?;
    }
    Ok(())
}

/// The demo owner's sample month (CA_DEMO_DATA), on the new database only;
/// a line saying what was made, or why nothing was.
async fn demo_owner_data(
    state: &crate::state::AppState,
    owner: &ca_auth::entities::user::Model,
) -> anyhow::Result<String> {
    if !state.billing.demo_enabled() {
        return Ok("  (no demo data: real payments are configured with CA_PAYU_KEY)\n".into());
    }
    let made = crate::demo_data::seed(state, owner, chrono::Utc::now()).await?;
    Ok(format!(
        "  the owner has demo data: campaign \"{}\", {} customers, {} conversations, {} purchases\n",
        crate::demo_data::CAMPAIGN_NAME,
        made.customers_by_status.values().sum::<usize>(),
        made.conversations,
        made.purchases,
    ))
}

async fn demo(config: Config) -> anyhow::Result<()> {
    let credentials_file = config.data_dir.join("demo-credentials.txt");
    let state = crate::prepare(config).await?;
    let has_users = state
        .auth
        .has_users()
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if has_users {
        match std::fs::read_to_string(&credentials_file) {
            Ok(saved) => print!("Demo accounts (created earlier):\n{saved}"),
            Err(_) => println!("The database already has accounts; no demo accounts were created."),
        }
        return Ok(());
    }
    let admin_password = random_password();
    let owner_password = random_password();
    let mut owner = None;
    for (name, email, phone, password, role) in [
        (
            "Demo Admin",
            DEMO_SUPERUSER,
            "+91 9000000001",
            &admin_password,
            Role::Superuser,
        ),
        (
            "Demo Owner",
            DEMO_OWNER,
            "+91 9000000002",
            &owner_password,
            Role::User,
        ),
    ] {
        let account = state
            .auth
            .create_account(NewAccount {
                name: name.into(),
                email: email.into(),
                phone: phone.into(),
                password: password.clone(),
                role,
            })
            .await
            .map_err(|e| anyhow::anyhow!("creating {email}: {e}"))?;
        if email == DEMO_OWNER {
            owner = Some(account);
        }
    }
    sample_owners(&state).await?;
    let mut text = format!(
        "  superuser: {DEMO_SUPERUSER} / {admin_password}\n  owner:     {DEMO_OWNER} / {owner_password}\n"
    );
    if let Some(dir) = credentials_file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Kept before the demo data is made: the accounts exist whatever happens next.
    std::fs::write(&credentials_file, &text)
        .with_context(|| format!("writing {}", credentials_file.display()))?;
    if let Some(owner) = owner.filter(|_| state.config.demo_data) {
        text.push_str(&demo_owner_data(&state, &owner).await?);
        std::fs::write(&credentials_file, &text)
            .with_context(|| format!("writing {}", credentials_file.display()))?;
    }
    print!("Demo accounts created:\n{text}");
    Ok(())
}
