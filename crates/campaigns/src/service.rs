//! The owner's campaign calls. Every query filters by the owner in the query
//! itself.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use ca_auth::entities::user;
use ca_billing::plans::entitlement;
use ca_core::FieldErrors;

use crate::CampaignError;
use crate::dto::{CampaignAnalytics, CampaignIn, CampaignOut};
use crate::entities::campaign;
use crate::settings::CampaignSettings;

/// The owner's campaign calls.
#[derive(Clone)]
pub struct CampaignService {
    db: DatabaseConnection,
}

/// Checks name, website URL and settings; returns the cleaned input.
fn check(mut input: CampaignIn) -> Result<CampaignIn, CampaignError> {
    let mut errors = FieldErrors::new();
    input.name = input.name.trim().to_string();
    input.website_url = input.website_url.trim().to_string();
    if input.name.is_empty() {
        errors.insert("name".into(), vec!["Campaign name is required".into()]);
    } else if input.name.chars().count() > 120 {
        errors.insert(
            "name".into(),
            vec!["Campaign name must be at most 120 characters".into()],
        );
    }
    if input.website_url.is_empty() {
        errors.insert("websiteUrl".into(), vec!["Website URL is required".into()]);
    } else if !is_website(&input.website_url) {
        errors.insert(
            "websiteUrl".into(),
            vec!["Please enter a valid website URL, such as https://www.example.in".into()],
        );
    }
    errors.extend(input.settings.normalize_and_check());
    if errors.is_empty() {
        Ok(input)
    } else {
        Err(CampaignError::invalid(errors))
    }
}

/// An absolute http(s) URL with a host, at most 500 characters.
pub fn is_website(value: &str) -> bool {
    value.len() <= 500
        && url::Url::parse(value).is_ok_and(|u| {
            matches!(u.scheme(), "http" | "https")
                && u.host_str()
                    .is_some_and(|h| h.contains('.') || h == "localhost")
        })
}

fn settings_json(settings: &CampaignSettings) -> Result<String, CampaignError> {
    serde_json::to_string(settings)
        .map_err(|e| CampaignError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}

async fn find_owned<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<campaign::Model, CampaignError> {
    campaign::Entity::find()
        .filter(campaign::Column::Id.eq(id))
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .one(conn)
        .await?
        .ok_or(CampaignError::NotFound)
}

impl CampaignService {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// The owner's campaigns, newest first.
    pub async fn list(&self, owner_id: &str) -> Result<Vec<CampaignOut>, CampaignError> {
        let rows = campaign::Entity::find()
            .filter(campaign::Column::OwnerId.eq(owner_id))
            .order_by_desc(campaign::Column::CreatedAt)
            .order_by_desc(campaign::Column::Id)
            .all(&self.db)
            .await?;
        Ok(rows.iter().map(CampaignOut::of).collect())
    }

    /// One of the owner's campaigns; another owner's is [`CampaignError::NotFound`].
    pub async fn get(&self, owner_id: &str, id: &str) -> Result<CampaignOut, CampaignError> {
        Ok(CampaignOut::of(&find_owned(&self.db, owner_id, id).await?))
    }

    /// Creates a campaign if the owner's plan allows another one.
    pub async fn create(
        &self,
        owner: &user::Model,
        input: CampaignIn,
    ) -> Result<CampaignOut, CampaignError> {
        self.create_at(owner, input, Utc::now()).await
    }

    /// [`Self::create`] as of `now`: the plan in force then decides, and the
    /// campaign is dated then (the demo data's campaign began weeks ago).
    pub async fn create_at(
        &self,
        owner: &user::Model,
        input: CampaignIn,
        now: DateTime<Utc>,
    ) -> Result<CampaignOut, CampaignError> {
        let input = check(input)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        // Lock the owner's row (PostgreSQL) so two concurrent creations cannot both pass the limit.
        let owner = user::Entity::find_by_id(owner.id.clone())
            .lock_exclusive()
            .one(&txn)
            .await?
            .ok_or(CampaignError::NotFound)?;
        let allowed = entitlement(&txn, &owner, now).await?;
        let count = campaign::Entity::find()
            .filter(campaign::Column::OwnerId.eq(&owner.id))
            .count(&txn)
            .await?;
        if count >= u64::try_from(allowed.campaigns.max(0)).unwrap_or(0) {
            txn.rollback().await?;
            return Err(CampaignError::LimitReached {
                is_free_plan: allowed.is_free,
                limit: allowed.campaigns,
            });
        }
        let model = campaign::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            owner_id: Set(owner.id.clone()),
            name: Set(input.name),
            website_url: Set(input.website_url),
            is_active: Set(input.is_active.unwrap_or(true)),
            settings: Set(settings_json(&input.settings)?),
            impressions: Set(0),
            conversions: Set(0),
            revenue_paise: Set(0),
            last_conversion_at: Set(None),
            first_page_view_at: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        tracing::info!(campaign = %model.id, owner = %model.owner_id, "campaign created");
        Ok(CampaignOut::of(&model))
    }

    /// Replaces name, URL, active flag and settings with the sent campaign.
    pub async fn update(
        &self,
        owner_id: &str,
        id: &str,
        input: CampaignIn,
    ) -> Result<CampaignOut, CampaignError> {
        let existing = find_owned(&self.db, owner_id, id).await?;
        let input = check(input)?;
        let mut active: campaign::ActiveModel = existing.into();
        active.name = Set(input.name);
        active.website_url = Set(input.website_url);
        if let Some(is_active) = input.is_active {
            active.is_active = Set(is_active);
        }
        active.settings = Set(settings_json(&input.settings)?);
        active.updated_at = Set(Utc::now());
        let saved = active.update(&self.db).await?;
        ca_core::freshness::changed();
        Ok(CampaignOut::of(&saved))
    }

    /// Deletes the campaign. Conversations and events that later features attach
    /// to a campaign are removed by their own crates' cleanup.
    pub async fn delete(&self, owner_id: &str, id: &str) -> Result<(), CampaignError> {
        let result = campaign::Entity::delete_many()
            .filter(campaign::Column::Id.eq(id))
            .filter(campaign::Column::OwnerId.eq(owner_id))
            .exec(&self.db)
            .await?;
        if result.rows_affected == 0 {
            return Err(CampaignError::NotFound);
        }
        ca_core::freshness::changed();
        tracing::info!(campaign = %id, owner = %owner_id, "campaign deleted");
        Ok(())
    }

    /// Switches the campaign between active and inactive.
    pub async fn toggle(&self, owner_id: &str, id: &str) -> Result<CampaignOut, CampaignError> {
        let existing = find_owned(&self.db, owner_id, id).await?;
        let flipped = !existing.is_active;
        let mut active: campaign::ActiveModel = existing.into();
        active.is_active = Set(flipped);
        active.updated_at = Set(Utc::now());
        let saved = active.update(&self.db).await?;
        ca_core::freshness::changed();
        Ok(CampaignOut::of(&saved))
    }

    /// The campaign's counters.
    pub async fn analytics(
        &self,
        owner_id: &str,
        id: &str,
    ) -> Result<CampaignAnalytics, CampaignError> {
        Ok(CampaignAnalytics::of(
            &find_owned(&self.db, owner_id, id).await?,
        ))
    }
}

impl CampaignService {
    /// Paid periods that ended without a new payment: the owners go back to
    /// the free plan, and their campaigns over its limit are paused (the
    /// newest stay on; nothing is deleted). Returns how many owners changed.
    pub async fn expire_subscriptions(&self, now: DateTime<Utc>) -> Result<usize, CampaignError> {
        let txn = ca_core::db::begin_write(&self.db).await?;
        let owners = ca_billing::subscriptions::expire_due(&txn, now).await?;
        for owner_id in &owners {
            pause_over_limit(&txn, owner_id, now).await?;
        }
        txn.commit().await?;
        if !owners.is_empty() {
            ca_core::freshness::changed();
        }
        Ok(owners.len())
    }
}

/// Pauses the owner's active campaigns beyond what their plan allows at
/// `now`, oldest first, keeping the newest ones running.
pub async fn pause_over_limit<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, CampaignError> {
    let Some(owner) = user::Entity::find_by_id(owner_id.to_string())
        .one(conn)
        .await?
    else {
        return Ok(0);
    };
    let allowed =
        usize::try_from(entitlement(conn, &owner, now).await?.campaigns.max(0)).unwrap_or(0);
    let over: Vec<String> = campaign::Entity::find()
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .filter(campaign::Column::IsActive.eq(true))
        .order_by_desc(campaign::Column::CreatedAt)
        .order_by_desc(campaign::Column::Id)
        .all(conn)
        .await?
        .into_iter()
        .skip(allowed)
        .map(|c| c.id)
        .collect();
    if over.is_empty() {
        return Ok(0);
    }
    let paused = campaign::Entity::update_many()
        .col_expr(
            campaign::Column::IsActive,
            sea_orm::sea_query::Expr::value(false),
        )
        .col_expr(
            campaign::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(now),
        )
        .filter(campaign::Column::Id.is_in(over))
        .exec(conn)
        .await?
        .rows_affected;
    tracing::info!(owner = %owner_id, paused, "campaigns over the plan's limit paused");
    Ok(paused)
}

/// The current names of the owner's campaigns among `ids` (reports that
/// keep the name a lead came in under show a renamed campaign by its name
/// now). Deleted campaigns are left out.
pub async fn names<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    ids: &[String],
) -> Result<std::collections::HashMap<String, String>, CampaignError> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    Ok(campaign::Entity::find()
        .select_only()
        .column(campaign::Column::Id)
        .column(campaign::Column::Name)
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .filter(campaign::Column::Id.is_in(ids.to_vec()))
        .into_tuple::<(String, String)>()
        .all(conn)
        .await?
        .into_iter()
        .collect())
}

/// The settings of one of the owner's campaigns, read on `conn` (the
/// caller's transaction when it goes on to change them).
pub async fn settings_of<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<CampaignSettings, CampaignError> {
    Ok(CampaignOut::of(&find_owned(conn, owner_id, id).await?).settings)
}

/// Replaces the settings of one of the owner's campaigns on `conn` (an A/B
/// test's promotion writes the winner with it in the transaction that closes
/// the test). The settings are checked as an owner's edit would be. The
/// caller calls `ca_core::freshness::changed()` after committing.
pub async fn write_settings<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
    mut settings: CampaignSettings,
) -> Result<(), CampaignError> {
    let existing = find_owned(conn, owner_id, id).await?;
    let errors = settings.normalize_and_check();
    if !errors.is_empty() {
        return Err(CampaignError::Validation {
            message: "The settings are not valid".into(),
            errors,
        });
    }
    let mut active: campaign::ActiveModel = existing.into();
    active.settings = Set(settings_json(&settings)?);
    active.updated_at = Set(Utc::now());
    active.update(conn).await?;
    Ok(())
}
