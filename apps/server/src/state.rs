//! What every handler can reach.

use std::sync::Arc;

use ca_auth::AuthService;
use ca_conversations::ConversationService;
use ca_core::Config;
use ca_tracking::TrackingService;
use sea_orm::DatabaseConnection;

/// Shared application state, built once at start.
pub struct AppState {
    pub config: Arc<Config>,
    pub db: DatabaseConnection,
    pub auth: AuthService,
    pub conversations: ConversationService,
    pub tracking: TrackingService,
}
