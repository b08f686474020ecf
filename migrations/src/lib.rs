//! Database migrations. One file per change; every migration runs on SQLite
//! and PostgreSQL (SQLite rules: one change per `ALTER TABLE`, foreign keys in
//! `Table::create`, no native enums, JSON as text).

pub use sea_orm_migration::prelude::*;

mod m20261122_000001_users;
mod m20261122_000002_password_reset_tokens;
mod m20261122_000003_email_outbox;
mod m20261122_000004_plans;
mod m20261122_000005_campaigns;
mod m20261122_000006_conversations;
mod m20261122_000007_customers_and_tracking;
mod m20261122_000008_customer_owner_id_index;
mod m20261122_000009_customer_counts_and_search;
mod m20261123_000010_payments;
mod m20261123_000011_admin;
mod m20261123_000012_unanswered_questions;
mod m20261123_000013_meta_events;
mod m20261123_000014_notifications;
mod m20261123_000015_campaign_last_conversion;
mod m20261123_000016_purchase_held;
mod m20261123_000017_visitor_activity;
mod m20261123_000018_campaign_first_page_view;
mod m20261123_000019_conversation_collected_text;
mod m20261123_000020_monthly_visitor_counts;
mod m20261123_000021_list_order_indexes;
mod m20261124_000022_conversation_search;
mod m20261125_000023_event_journal;
mod m20261126_000024_one_settings_table;
mod m20261126_000025_audit_actor_email;
mod m20261126_000026_meta_browser_copy;
mod m20261126_000027_visitor_quota_notices;
mod m20261126_000028_payment_lifecycle;
mod m20261126_000029_billing_jobs;
mod m20261126_000030_webhooks;
mod m20261126_000031_invoices;
mod m20261126_000032_meta_hardening;
mod m20261126_000033_account_phones_e164;
mod m20261126_000034_login_as_sessions;
mod m20261126_000036_ai_conversation_usage;
mod m20261126_000037_account_suspensions;
mod m20261126_000038_admin_notes;
mod m20261126_000039_staff_two_factor;
mod m20261126_000041_push_notifications;
mod m20261126_000042_webhook_fan_out;
mod m20261126_000043_experiments;
mod m20261127_000044_conversation_variants;
mod m20261127_000045_test_decisions;
mod m20261127_000046_test_versions;
mod m20261127_000047_search_indexed_later;
mod m20261127_000048_unanswered_index_partial;
mod m20261128_000049_search_index_cleans;
mod m20261128_000050_email_delivery;
mod m20261128_000051_experiment_visitors;
mod m20261128_000052_email_expiry;
mod m20261128_000053_sealed_two_factor_secrets;
mod m20261128_000054_exposure_outcomes;
mod m20261128_000055_webhook_resend_schedule;
mod m20261128_000056_meta_outbox_pages;
mod m20261128_000057_refund_in_progress;
mod m20261128_000058_email_failed_at;
mod m20261129_000059_refund_requests;

#[cfg(feature = "testing")]
pub mod testing;

/// All migrations in order.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_users::Migration),
            Box::new(m20261122_000002_password_reset_tokens::Migration),
            Box::new(m20261122_000003_email_outbox::Migration),
            Box::new(m20261122_000004_plans::Migration),
            Box::new(m20261122_000005_campaigns::Migration),
            Box::new(m20261122_000006_conversations::Migration),
            Box::new(m20261122_000007_customers_and_tracking::Migration),
            Box::new(m20261122_000008_customer_owner_id_index::Migration),
            Box::new(m20261122_000009_customer_counts_and_search::Migration),
            Box::new(m20261123_000010_payments::Migration),
            Box::new(m20261123_000011_admin::Migration),
            Box::new(m20261123_000012_unanswered_questions::Migration),
            Box::new(m20261123_000013_meta_events::Migration),
            Box::new(m20261123_000014_notifications::Migration),
            Box::new(m20261123_000015_campaign_last_conversion::Migration),
            Box::new(m20261123_000016_purchase_held::Migration),
            Box::new(m20261123_000017_visitor_activity::Migration),
            Box::new(m20261123_000018_campaign_first_page_view::Migration),
            Box::new(m20261123_000019_conversation_collected_text::Migration),
            Box::new(m20261123_000020_monthly_visitor_counts::Migration),
            Box::new(m20261123_000021_list_order_indexes::Migration),
            Box::new(m20261124_000022_conversation_search::Migration),
            Box::new(m20261125_000023_event_journal::Migration),
            Box::new(m20261126_000024_one_settings_table::Migration),
            Box::new(m20261126_000025_audit_actor_email::Migration),
            Box::new(m20261126_000026_meta_browser_copy::Migration),
            Box::new(m20261126_000027_visitor_quota_notices::Migration),
            Box::new(m20261126_000028_payment_lifecycle::Migration),
            Box::new(m20261126_000029_billing_jobs::Migration),
            Box::new(m20261126_000030_webhooks::Migration),
            Box::new(m20261126_000031_invoices::Migration),
            Box::new(m20261126_000032_meta_hardening::Migration),
            Box::new(m20261126_000033_account_phones_e164::Migration),
            Box::new(m20261126_000034_login_as_sessions::Migration),
            Box::new(m20261126_000036_ai_conversation_usage::Migration),
            Box::new(m20261126_000037_account_suspensions::Migration),
            Box::new(m20261126_000038_admin_notes::Migration),
            Box::new(m20261126_000039_staff_two_factor::Migration),
            Box::new(m20261126_000041_push_notifications::Migration),
            Box::new(m20261126_000042_webhook_fan_out::Migration),
            Box::new(m20261126_000043_experiments::Migration),
            Box::new(m20261127_000044_conversation_variants::Migration),
            Box::new(m20261127_000045_test_decisions::Migration),
            Box::new(m20261127_000046_test_versions::Migration),
            Box::new(m20261127_000047_search_indexed_later::Migration),
            Box::new(m20261127_000048_unanswered_index_partial::Migration),
            Box::new(m20261128_000049_search_index_cleans::Migration),
            Box::new(m20261128_000050_email_delivery::Migration),
            Box::new(m20261128_000051_experiment_visitors::Migration),
            Box::new(m20261128_000052_email_expiry::Migration),
            Box::new(m20261128_000053_sealed_two_factor_secrets::Migration),
            Box::new(m20261128_000054_exposure_outcomes::Migration),
            Box::new(m20261128_000055_webhook_resend_schedule::Migration),
            Box::new(m20261128_000056_meta_outbox_pages::Migration),
            Box::new(m20261128_000057_refund_in_progress::Migration),
            Box::new(m20261128_000058_email_failed_at::Migration),
            Box::new(m20261129_000059_refund_requests::Migration),
        ]
    }
}
