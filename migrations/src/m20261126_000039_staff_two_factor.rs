//! Two-factor sign-in: each account's authenticator secret (enabled once a
//! code from it was entered), its one-time recovery codes (hashes only), and
//! the sign-in challenges a password opens when the second factor is on.
//! Staff get the grace period to enrol from the day this is installed.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum TwoFactorSecrets {
    Table,
    UserId,
    Secret,
    EnabledAt,
    LastUsedStep,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum TwoFactorRecoveryCodes {
    Table,
    Id,
    UserId,
    CodeHash,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum TwoFactorChallenges {
    Table,
    Id,
    UserId,
    TokenHash,
    FailedAttempts,
    ExpiresAt,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum PlatformSettings {
    Table,
    Key,
    Value,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(TwoFactorSecrets::Table)
                    .col(
                        ColumnDef::new(TwoFactorSecrets::UserId)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorSecrets::Secret)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorSecrets::EnabledAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorSecrets::LastUsedStep)
                            .big_integer()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorSecrets::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorSecrets::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(TwoFactorRecoveryCodes::Table)
                    .col(
                        ColumnDef::new(TwoFactorRecoveryCodes::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorRecoveryCodes::UserId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorRecoveryCodes::CodeHash)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorRecoveryCodes::UsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorRecoveryCodes::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_two_factor_recovery_codes_user")
                    .table(TwoFactorRecoveryCodes::Table)
                    .col(TwoFactorRecoveryCodes::UserId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(TwoFactorChallenges::Table)
                    .col(
                        ColumnDef::new(TwoFactorChallenges::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::UserId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::TokenHash)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::FailedAttempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::UsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TwoFactorChallenges::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_two_factor_challenges_token_hash")
                    .table(TwoFactorChallenges::Table)
                    .col(TwoFactorChallenges::TokenHash)
                    .unique()
                    .to_owned(),
            )
            .await?;
        // Staff's grace period to enrol counts from now (14 days unless a
        // superuser changes it).
        let now = chrono::Utc::now();
        let value = format!(
            "{{\"graceDays\":14,\"since\":\"{}\"}}",
            now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        );
        let insert = Query::insert()
            .into_table(PlatformSettings::Table)
            .columns([
                PlatformSettings::Key,
                PlatformSettings::Value,
                PlatformSettings::UpdatedAt,
            ])
            .values_panic(["staff_two_factor".into(), value.into(), now.into()])
            .on_conflict(
                sea_query::OnConflict::column(PlatformSettings::Key)
                    .do_nothing()
                    .to_owned(),
            )
            .to_owned();
        manager.exec_stmt(insert).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            TwoFactorChallenges::Table.into_iden(),
            TwoFactorRecoveryCodes::Table.into_iden(),
            TwoFactorSecrets::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        let delete = Query::delete()
            .from_table(PlatformSettings::Table)
            .and_where(Expr::col(PlatformSettings::Key).eq("staff_two_factor"))
            .to_owned();
        manager.exec_stmt(delete).await
    }
}
