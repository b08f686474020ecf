//! What every handler can reach.

use std::sync::Arc;

use ca_auth::AuthService;
use ca_billing::BillingService;
use ca_campaigns::CampaignService;
use ca_conversations::ConversationService;
use ca_core::Config;
use ca_customers::CustomerService;
use ca_tracking::TrackingService;
use sea_orm::DatabaseConnection;

/// Shared application state, built once at start: one service per domain
/// crate, which the handlers call (the database connection is for health
/// checks and operator commands).
pub struct AppState {
    pub config: Arc<Config>,
    pub db: DatabaseConnection,
    /// The keys that seal secrets kept in the database.
    pub data_keys: Arc<ca_core::sealed::DataKeys>,
    pub auth: AuthService,
    pub billing: BillingService,
    pub campaigns: CampaignService,
    pub customers: CustomerService,
    pub conversations: ConversationService,
    pub tracking: TrackingService,
    pub admin: ca_admin::AdminService,
    pub meta: ca_meta::MetaService,
    pub webhooks: ca_webhooks::WebhookService,
    pub push: ca_push::PushService,
    pub experiments: ca_experiments::ExperimentService,
}
