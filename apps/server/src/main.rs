//! `ca-server`: see `ca-server --help`.

use ca_server::cli::{Cli, init_tracing, run};
use clap::Parser;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let config = ca_core::Config::load()?;
    init_tracing(&config);
    run(cli, config).await
}
