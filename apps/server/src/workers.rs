//! The work the server does besides answering requests, each on its own
//! schedule: the Meta outbox, the email outbox, lead and receipt emails, completing idle
//! conversations, ending paid periods, reconciling pending payments with
//! PayU, delivering owners' webhooks and browser notifications, calling A/B
//! tests and telling their owners, warning owners near their monthly
//! visitors, forgetting old visitor data and (on
//! SQLite) emptying the write-ahead log. [`Workers::start`] starts them all
//! over the services the handlers use; [`Workers::stop`] (or dropping them)
//! stops them all. Commands other than `serve` start none.

use std::time::Duration;

use ca_auth::Mailer;
use ca_campaigns::CampaignService;
use ca_conversations::ConversationService;
use tokio::task::JoinHandle;

use crate::state::AppState;

/// The running background workers.
pub struct Workers {
    tasks: Vec<(&'static str, JoinHandle<()>)>,
}

impl Workers {
    /// Starts every worker.
    pub fn start(state: &AppState) -> Self {
        let db = state.db.clone();
        let mut tasks = vec![
            ("meta outbox", tokio::spawn(meta_outbox(state.meta.clone()))),
            (
                "notifications",
                tokio::spawn(notifications(
                    db.clone(),
                    state.auth.mailer().clone(),
                    state.config.public_url(),
                )),
            ),
            (
                "email outbox",
                tokio::spawn(email_outbox(db.clone(), state.auth.mailer().clone())),
            ),
            (
                "idle conversations",
                tokio::spawn(idle_conversations(state.conversations.clone())),
            ),
            (
                "retention",
                tokio::spawn(retention(db.clone(), state.config.attribution_days)),
            ),
            (
                "paid periods",
                tokio::spawn(paid_periods(state.campaigns.clone())),
            ),
            (
                "payment reconciliation",
                tokio::spawn(payment_reconciliation(state.billing.clone())),
            ),
            (
                "webhook deliveries",
                tokio::spawn(webhook_deliveries(state.webhooks.clone())),
            ),
            (
                "push notifications",
                tokio::spawn(push_notifications(state.push.clone())),
            ),
            (
                "test decisions",
                tokio::spawn(test_decisions(
                    db.clone(),
                    state.auth.mailer().clone(),
                    state.config.public_url(),
                )),
            ),
            (
                "visitor warnings",
                tokio::spawn(visitor_warnings(
                    db.clone(),
                    state.auth.mailer().clone(),
                    state.config.public_url(),
                )),
            ),
        ];
        if !ca_core::db::is_postgres(&db) {
            tasks.push(("wal checkpoints", tokio::spawn(wal_checkpoints(db))));
        }
        Self { tasks }
    }

    /// The workers' names, in start order.
    pub fn names(&self) -> Vec<&'static str> {
        self.tasks.iter().map(|(name, _)| *name).collect()
    }

    /// Stops the worker called `name` and waits until it has stopped;
    /// false when no worker has that name. The others keep running.
    pub async fn stop_one(&mut self, name: &str) -> bool {
        let Some(at) = self.tasks.iter().position(|(n, _)| *n == name) else {
            return false;
        };
        let (_, task) = self.tasks.remove(at);
        task.abort();
        if let Err(err) = task.await
            && !err.is_cancelled()
        {
            tracing::warn!(worker = name, %err, "background worker ended with an error");
        }
        true
    }

    /// Stops every worker and waits until each has stopped.
    pub async fn stop(mut self) {
        for (_, task) in &self.tasks {
            task.abort();
        }
        for (name, task) in self.tasks.drain(..) {
            if let Err(err) = task.await
                && !err.is_cancelled()
            {
                tracing::warn!(worker = name, %err, "background worker ended with an error");
            }
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for (_, task) in &self.tasks {
            task.abort();
        }
    }
}

/// A ticker that waits out missed ticks instead of bursting.
fn every(period: Duration) -> tokio::time::Interval {
    let mut ticker = tokio::time::interval(period);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticker
}

/// Queues the server's purchases and sends due Meta events every few seconds.
async fn meta_outbox(meta: ca_meta::MetaService) {
    let mut ticker = every(Duration::from_secs(3));
    loop {
        ticker.tick().await;
        if let Err(err) = meta.tick(chrono::Utc::now()).await {
            tracing::warn!(%err, "Meta outbox round failed");
        }
    }
}

/// Delivers due webhooks and Mailchimp pushes twice a second, and again as
/// soon as a delivery ends (so a backlog drains as fast as the endpoint
/// answers, not four deliveries per round); a slow endpoint holds only its
/// own deliveries (each runs on its own task).
async fn webhook_deliveries(webhooks: ca_webhooks::WebhookService) {
    let mut ticker = every(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = ticker.tick() => {}
            () = webhooks.delivery_ended() => {}
        }
        if let Err(err) = webhooks.tick(chrono::Utc::now()).await {
            tracing::warn!(%err, "webhook delivery round failed");
        }
    }
}

/// Groups new leads and payments into browser notifications and sends
/// them, twice a second (each on its own task).
async fn push_notifications(push: ca_push::PushService) {
    let mut ticker = every(Duration::from_millis(500));
    loop {
        ticker.tick().await;
        if let Err(err) = push.tick(chrono::Utc::now()).await {
            tracing::warn!(%err, "push notification round failed");
        }
    }
}

/// Hands the due emails of the outbox to the mail server, every second
/// (nothing to do without one).
async fn email_outbox(db: sea_orm::DatabaseConnection, mailer: Mailer) {
    if !mailer.uses_smtp() {
        return;
    }
    let mut ticker = every(Duration::from_secs(1));
    loop {
        ticker.tick().await;
        if let Err(err) = mailer.tick(&db, chrono::Utc::now()).await {
            tracing::warn!(%err, "email outbox round failed");
        }
    }
}

/// Emails owners about new leads (single or digest) and sends payment
/// receipts, every half minute.
async fn notifications(db: sea_orm::DatabaseConnection, mailer: Mailer, public_url: String) {
    let mut ticker = every(Duration::from_secs(30));
    loop {
        ticker.tick().await;
        let now = chrono::Utc::now();
        if let Err(err) =
            ca_customers::notifications::send_due(&db, &mailer, &public_url, now).await
        {
            tracing::warn!(%err, "lead emails failed");
        }
        if let Err(err) = ca_billing::receipts::send_due(&db, &mailer, &public_url, now).await {
            tracing::warn!(%err, "receipts failed");
        }
    }
}

/// Completes idle conversations once a minute.
async fn idle_conversations(conversations: ConversationService) {
    let mut ticker = every(Duration::from_secs(60));
    loop {
        ticker.tick().await;
        match conversations.complete_idle(chrono::Utc::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(completed = n, "idle conversations completed"),
            Err(err) => tracing::warn!(%err, "idle conversation sweep failed"),
        }
    }
}

/// Every six hours, forgets what no figure or limit needs any more: visitors
/// of months before last month, the activity of visitors not seen for 90
/// days, campaign touches older than the attribution window, and the
/// visitor lists of closed A/B tests. Keeps the
/// tables the widget writes to from growing for ever.
async fn retention(db: sea_orm::DatabaseConnection, attribution_days: i64) {
    let mut ticker = every(Duration::from_secs(6 * 3600));
    loop {
        ticker.tick().await;
        let now = chrono::Utc::now();
        let results = [
            (
                "monthly visitors",
                ca_campaigns::retention::forget_old_visitors(&db, now).await,
            ),
            (
                "visitor activity",
                ca_customers::retention::forget_idle_visitors(&db, now).await,
            ),
            (
                "campaign touches",
                ca_tracking::retention::forget_old_touches(&db, attribution_days, now).await,
            ),
            (
                "webhook deliveries",
                ca_webhooks::retention::forget_old(&db, now).await,
            ),
            (
                "push notifications",
                ca_push::retention::forget_old(&db, now).await,
            ),
            (
                "delivered emails",
                ca_auth::mailer::forget_delivered(&db, now).await,
            ),
            (
                "visitor lists of closed A/B tests",
                ca_experiments::retention::forget_closed(&db, now).await,
            ),
        ];
        for (what, result) in results {
            match result {
                Ok(0) => {}
                Ok(rows) => tracing::info!(rows, "old {what} forgotten"),
                Err(err) => tracing::warn!(%err, "forgetting old {what} failed"),
            }
        }
    }
}

/// Applies the end of paid periods once a minute (back to free, campaigns
/// over the free limit paused).
async fn paid_periods(campaigns: CampaignService) {
    let mut ticker = every(Duration::from_secs(60));
    loop {
        ticker.tick().await;
        match campaigns.expire_subscriptions(chrono::Utc::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(owners = n, "paid periods ended"),
            Err(err) => tracing::warn!(%err, "subscription expiry sweep failed"),
        }
    }
}

/// Settles payments nobody came back for, from PayU's answer, every half
/// minute (see `ca_billing::reconcile`), and records refunds PayU has made
/// (see `ca_billing::refunds`).
async fn payment_reconciliation(billing: ca_billing::BillingService) {
    let mut ticker = every(Duration::from_secs(30));
    loop {
        ticker.tick().await;
        match billing.reconcile(chrono::Utc::now()).await {
            Ok(run) if run.settled + run.expired > 0 => tracing::info!(
                checked = run.checked,
                settled = run.settled,
                expired = run.expired,
                "pending payments reconciled"
            ),
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "payment reconciliation failed"),
        }
        // Refunds PayU queued: recorded once PayU says the money went back.
        match billing.check_refunds(chrono::Utc::now()).await {
            Ok(round) if round.done + round.failed > 0 => tracing::info!(
                checked = round.checked,
                done = round.done,
                failed = round.failed,
                "refunds waiting on PayU checked"
            ),
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "checking refunds with PayU failed"),
        }
    }
}

/// Warns owners by email at 80 % and 100 % of their plan's monthly
/// visitors, once each a month, every minute.
async fn visitor_warnings(db: sea_orm::DatabaseConnection, mailer: Mailer, public_url: String) {
    let mut ticker = every(Duration::from_secs(60));
    loop {
        ticker.tick().await;
        match ca_campaigns::quota::notify_due(&db, &mailer, &public_url, chrono::Utc::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(sent = n, "monthly visitor warnings sent"),
            Err(err) => tracing::warn!(%err, "monthly visitor warnings failed"),
        }
    }
}

/// Records the A/B test calls that are due and tells their owners (and
/// promotes winners where the owner chose so), every minute.
async fn test_decisions(db: sea_orm::DatabaseConnection, mailer: Mailer, public_url: String) {
    let mut ticker = every(Duration::from_secs(60));
    loop {
        ticker.tick().await;
        match ca_experiments::decisions::decide_due(&db, &mailer, &public_url, chrono::Utc::now())
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(tests = n, "A/B test calls recorded and owners told"),
            Err(err) => tracing::warn!(%err, "A/B test decisions failed"),
        }
    }
}

/// On SQLite, empties the write-ahead log every half minute when nothing is
/// in the way (busy sites: as soon as a round finds a gap), so the log file
/// stays small instead of growing with every burst of events.
async fn wal_checkpoints(db: sea_orm::DatabaseConnection) {
    let mut ticker = every(Duration::from_secs(30));
    loop {
        ticker.tick().await;
        match ca_core::db::checkpoint(&db).await {
            Ok(true) => tracing::debug!("write-ahead log emptied"),
            Ok(false) => tracing::debug!("write-ahead log in use; emptied next round"),
            Err(err) => tracing::warn!(%err, "write-ahead log checkpoint failed"),
        }
    }
}
