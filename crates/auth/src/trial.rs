//! The trial new owners get: how long, how many campaigns and visitors, and
//! whether it starts on sign-up. Staff change it; registration and the plan
//! limits read it.

use sea_orm::ConnectionTrait;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AuthError;

const KEY: &str = "trial";

/// Features a trial can include.
pub const TRIAL_FEATURES: [&str; 6] = [
    "basic_conversations",
    "basic_analytics",
    "single_campaign",
    "campaign_creation",
    "email_support",
    "widget_customization",
];

/// The trial settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrialSettings {
    /// 1 to 30 days.
    #[schema(minimum = 1, maximum = 30)]
    pub trial_duration_days: i64,
    /// 1 to 5 campaigns.
    #[schema(minimum = 1, maximum = 5)]
    pub trial_campaign_limit: i32,
    /// Monthly visitors: at least 100, in steps of 100.
    #[schema(minimum = 100, multiple_of = 100)]
    pub trial_visitor_limit: i64,
    /// New owners start on the trial; otherwise on the free plan.
    pub auto_start_trial: bool,
    pub trial_features: Vec<String>,
}

impl Default for TrialSettings {
    fn default() -> Self {
        Self {
            trial_duration_days: 3,
            trial_campaign_limit: 1,
            trial_visitor_limit: 1000,
            auto_start_trial: true,
            trial_features: TRIAL_FEATURES[..4].iter().map(|f| f.to_string()).collect(),
        }
    }
}

impl TrialSettings {
    /// Checks every field; the errors name the fields.
    pub fn check(&mut self) -> Result<(), AuthError> {
        let mut errors = ca_core::FieldErrors::new();
        if !(1..=30).contains(&self.trial_duration_days) {
            errors.insert(
                "trialDurationDays".into(),
                vec!["Trial duration must be 1 to 30 days".into()],
            );
        }
        if !(1..=5).contains(&self.trial_campaign_limit) {
            errors.insert(
                "trialCampaignLimit".into(),
                vec!["Trial campaign limit must be 1 to 5".into()],
            );
        }
        if self.trial_visitor_limit < 100 || self.trial_visitor_limit % 100 != 0 {
            errors.insert(
                "trialVisitorLimit".into(),
                vec!["Trial visitor limit must be at least 100, in steps of 100".into()],
            );
        }
        let mut features: Vec<String> = Vec::new();
        for f in &self.trial_features {
            let f = f.trim();
            if !TRIAL_FEATURES.contains(&f) {
                errors.insert(
                    "trialFeatures".into(),
                    vec![format!("Unknown trial feature \"{f}\"")],
                );
            } else if !features.iter().any(|x| x == f) {
                features.push(f.to_string());
            }
        }
        self.trial_features = features;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(AuthError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            })
        }
    }
}

/// The trial settings in force (the defaults until staff save some).
pub async fn settings<C: ConnectionTrait>(conn: &C) -> Result<TrialSettings, AuthError> {
    Ok(crate::settings::get(conn, KEY)
        .await?
        .and_then(|value| serde_json::from_str(&value).ok())
        .unwrap_or_default())
}

/// Checks and saves the trial settings; they apply to owners who sign up
/// from now on, and to the limits of trials running now.
pub async fn save<C: ConnectionTrait>(
    conn: &C,
    mut input: TrialSettings,
) -> Result<TrialSettings, AuthError> {
    input.check()?;
    let value = serde_json::to_string(&input).map_err(|e| AuthError::internal(e.to_string()))?;
    crate::settings::put(conn, KEY, &value).await?;
    Ok(input)
}
