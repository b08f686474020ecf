//! The server's health as staff see it in the System tab: database
//! latency and pool, the process, the event writer's backlog and the disk.

use std::time::Instant;

use chrono::Utc;
use sea_orm::DbBackend;

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::dto::*;
use crate::service::AdminService;

impl AdminService {
    /// The server's health, measured now.
    pub async fn health(&self, actor: &Actor) -> Result<SystemHealth, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let started = Instant::now();
        let reachable = ca_core::db::ping(&self.db).await;
        let latency_ms = (started.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
        let backend = self.db.get_database_backend();
        let (pool_size, pool_idle) = match backend {
            DbBackend::Sqlite => {
                let p = self.db.get_sqlite_connection_pool();
                (p.size(), u32::try_from(p.num_idle()).unwrap_or(u32::MAX))
            }
            DbBackend::Postgres => {
                let p = self.db.get_postgres_connection_pool();
                (p.size(), u32::try_from(p.num_idle()).unwrap_or(u32::MAX))
            }
            _ => (0, 0),
        };
        let (memory_bytes, cpu_percent, threads) = {
            let mut sys = self.system.lock().map_err(|_| {
                AdminError::Infra(ca_core::error::InfraError::Other(
                    "system probe poisoned".into(),
                ))
            })?;
            match sysinfo::get_current_pid() {
                Ok(pid) => {
                    sys.refresh_processes(sysinfo::ProcessesToUpdate::Some(&[pid]), true);
                    sys.process(pid).map_or((0, 0.0, 0), |p| {
                        (
                            p.memory(),
                            f64::from((p.cpu_usage() * 10.0).round() / 10.0),
                            p.tasks().map_or(0, |t| t.len() as u64),
                        )
                    })
                }
                Err(_) => (0, 0.0, 0),
            }
        };
        let dir = std::fs::canonicalize(&self.data_dir).unwrap_or_else(|_| self.data_dir.clone());
        let disks = sysinfo::Disks::new_with_refreshed_list();
        let disk = disks
            .list()
            .iter()
            .filter(|d| dir.starts_with(d.mount_point()))
            .max_by_key(|d| d.mount_point().as_os_str().len());
        let (queue_depth, queue_capacity) = (self.writer)();
        let (last_reconciliation, pending_over15_minutes) =
            self.billing.reconciliation_state(Utc::now()).await?;
        let email = self.auth.mailer().health(&self.db, Utc::now()).await?;
        Ok(SystemHealth {
            status: if reachable {
                "ok".into()
            } else {
                "degraded".into()
            },
            version: env!("CARGO_PKG_VERSION").into(),
            uptime_seconds: self.started.elapsed().as_secs(),
            database: DatabaseHealth {
                backend: match backend {
                    DbBackend::Postgres => "postgres".into(),
                    _ => "sqlite".into(),
                },
                latency_ms,
                pool_size,
                pool_idle,
            },
            process: ProcessHealth {
                memory_bytes,
                cpu_percent,
                threads,
            },
            event_writer: WriterHealth {
                queue_depth,
                queue_capacity,
            },
            disk: DiskHealth {
                free_bytes: disk.map_or(0, |d| d.available_space()),
                total_bytes: disk.map_or(0, |d| d.total_space()),
                path: dir.display().to_string(),
            },
            payments: PaymentsHealth {
                pending_over15_minutes,
                last_reconciliation,
            },
            email,
            checked_at: Utc::now(),
        })
    }
}

impl AdminService {
    /// Puts the failed emails of the last 7 days back in the queue (staff),
    /// once whatever made the mail server refuse them is fixed. Emails whose
    /// link has expired stay failed. Audited; refused without a mail server,
    /// since nothing would be sent.
    pub async fn requeue_failed_emails(
        &self,
        actor: &Actor,
    ) -> Result<EmailRequeueOut, AdminError> {
        let action = crate::audited::Action {
            name: "requeue_emails",
            target_type: "emails",
            need: Some(Permission::RequeueEmails),
        };
        let mail_server = self.auth.mailer().uses_smtp();
        self.audited(actor, action, async |txn| {
            if !mail_server {
                return Err(AdminError::NoMailServer);
            }
            let (requeued, left_failed) = ca_auth::mailer::requeue_failed(txn, Utc::now()).await?;
            let out = EmailRequeueOut {
                requeued,
                left_failed,
            };
            Ok(crate::audited::Done::new("", out.clone()).after(Some(
                serde_json::json!({"requeued": requeued, "leftFailed": left_failed}),
            )))
        })
        .await
    }

    /// Emails a test message to the staff member asking (staff), through the
    /// outbox like every account email, so the Email card shows within
    /// seconds whether the mail server takes it. Audited; refused without a
    /// mail server. Answers the address it goes to.
    pub async fn send_test_email(&self, actor: &Actor) -> Result<String, AdminError> {
        let action = crate::audited::Action {
            name: "send_test_email",
            target_type: "emails",
            need: Some(Permission::RequeueEmails),
        };
        let mailer = self.auth.mailer().clone();
        let to = actor.user.email.clone();
        let name = actor.user.name.clone();
        self.audited(actor, action, async |txn| {
            if !mailer.uses_smtp() {
                return Err(AdminError::NoMailServer);
            }
            let now = Utc::now();
            let body = format!(
                "Hi {name},\n\nThis is a test email you asked for from the ConvertAssist admin area \
                 at {} UTC. If it reached you, the mail server takes ConvertAssist's emails.\n\n— ConvertAssist",
                now.format("%-d %b %Y, %H:%M")
            );
            mailer
                .send(txn, &to, "ConvertAssist test email", &body)
                .await?;
            Ok(crate::audited::Done::new("", to.clone())
                .after(Some(serde_json::json!({"to": to}))))
        })
        .await
    }
}
