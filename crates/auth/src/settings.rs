//! Platform-wide settings staff change, one text value per key in
//! `platform_settings`: the trial new owners get (`trial`), the ad spend the
//! acquisition cost is computed from, and whatever staff set next. Other
//! crates read and write them through these functions.

use chrono::Utc;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ConnectionTrait, DbErr, EntityTrait, Set};

use crate::entities::platform_setting;

/// The value saved under `key`, if any.
pub async fn get<C: ConnectionTrait>(conn: &C, key: &str) -> Result<Option<String>, DbErr> {
    Ok(platform_setting::Entity::find_by_id(key.to_string())
        .one(conn)
        .await?
        .map(|row| row.value))
}

/// Saves `value` under `key`, replacing what was there.
pub async fn put<C: ConnectionTrait>(conn: &C, key: &str, value: &str) -> Result<(), DbErr> {
    platform_setting::Entity::insert(platform_setting::ActiveModel {
        key: Set(key.to_string()),
        value: Set(value.to_string()),
        updated_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::column(platform_setting::Column::Key)
            .update_columns([
                platform_setting::Column::Value,
                platform_setting::Column::UpdatedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(conn)
    .await?;
    Ok(())
}
