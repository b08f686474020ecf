//! The admin service: what staff do to run the platform. Its calls live in
//! files named by what they do: `users` (accounts, login-as), `user_detail`,
//! `plans`, `payments` (refunds), `settings` (trial and ad spend), `figures`
//! (the dashboards) and `health`; every change goes through [`AdminService::audited`]
//! (`audited.rs`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use sea_orm::DatabaseConnection;

use ca_auth::AuthService;
use ca_billing::BillingService;

/// How full the event writer's queue is: (queued, capacity).
pub type WriterProbe = Arc<dyn Fn() -> (u64, u64) + Send + Sync>;

/// The admin service.
#[derive(Clone)]
pub struct AdminService {
    pub(crate) db: DatabaseConnection,
    pub(crate) auth: AuthService,
    pub(crate) billing: BillingService,
    pub(crate) data_dir: PathBuf,
    pub(crate) started: Instant,
    pub(crate) writer: WriterProbe,
    pub(crate) system: Arc<Mutex<sysinfo::System>>,
}

impl AdminService {
    pub fn new(
        db: DatabaseConnection,
        auth: AuthService,
        billing: BillingService,
        data_dir: PathBuf,
        writer: WriterProbe,
    ) -> Self {
        Self {
            db,
            auth,
            billing,
            data_dir,
            started: Instant::now(),
            writer,
            system: Arc::new(Mutex::new(sysinfo::System::new())),
        }
    }
}
