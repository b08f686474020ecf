//! Customers: the leads and buyers an owner's campaigns produce. The lead
//! score rule (`score`), creating and updating customers from leads and
//! purchases (`leads`), their page views and engaged time (`activity`), the
//! owner's customer calls (`service`, `report`), lead notifications, and
//! counts for staff (`counts`).

mod activity;
mod counts;
pub mod dto;
pub mod entities;
pub mod error;
pub mod hooks;
mod leads;
pub mod notifications;
pub mod report;
pub mod retention;
mod score;
pub mod service;

pub use activity::{EngagedTime, VisitorActivity, add_activity, add_engaged_time, add_page_views};
pub use counts::{count_all, count_by_campaign, count_since, recent};
pub use error::CustomerError;
pub use leads::{Lead, record_purchase, upsert_lead, upsert_lead_and_previous};
pub use score::{Engagement, LEAD_SCORE_SQL, engagement_of, lead_score, refresh_lead_scores};
pub use service::CustomerService;
