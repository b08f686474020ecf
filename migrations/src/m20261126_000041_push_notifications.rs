//! Browser push notifications: the browsers each owner switched them on in
//! (one row per push-service address), the outbox of facts to tell owners
//! of (written in the transaction of the fact), and each notification's
//! delivery to each browser.

use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PushSubscriptions {
    Table,
    Id,
    OwnerId,
    Endpoint,
    P256dh,
    Auth,
    UserAgent,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PushEvents {
    Table,
    Id,
    OwnerId,
    Kind,
    Detail,
    CreatedAt,
    NotifiedAt,
}

#[derive(DeriveIden)]
enum PushDeliveries {
    Table,
    Id,
    OwnerId,
    SubscriptionId,
    Payload,
    Status,
    Attempts,
    NextAttemptAt,
    ClaimedUntil,
    LastStatus,
    CreatedAt,
    UpdatedAt,
}

fn ts(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn ts_null(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .null()
        .to_owned()
}

fn id(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .string_len(36)
        .not_null()
        .primary_key()
        .to_owned()
}

fn owner(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string_len(36).not_null().to_owned()
}

fn owner_fk(name: &str, table: impl IntoIden, col: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(table, col)
        .to(Users::Table, Users::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PushSubscriptions::Table)
                    .col(id(PushSubscriptions::Id))
                    .col(owner(PushSubscriptions::OwnerId))
                    .col(
                        ColumnDef::new(PushSubscriptions::Endpoint)
                            .string_len(2048)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PushSubscriptions::P256dh)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PushSubscriptions::Auth)
                            .string_len(40)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PushSubscriptions::UserAgent)
                            .string_len(300)
                            .null(),
                    )
                    .col(ts(PushSubscriptions::CreatedAt))
                    .col(ts(PushSubscriptions::UpdatedAt))
                    .foreign_key(&mut owner_fk(
                        "fk_push_subscriptions_owner",
                        PushSubscriptions::Table,
                        PushSubscriptions::OwnerId,
                    ))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_push_subscriptions_endpoint")
                    .table(PushSubscriptions::Table)
                    .col(PushSubscriptions::Endpoint)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_push_subscriptions_owner")
                    .table(PushSubscriptions::Table)
                    .col(PushSubscriptions::OwnerId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(PushEvents::Table)
                    .col(id(PushEvents::Id))
                    .col(owner(PushEvents::OwnerId))
                    .col(
                        ColumnDef::new(PushEvents::Kind)
                            .string_len(10)
                            .not_null()
                            .check(Expr::col(PushEvents::Kind).is_in(["lead", "payment"])),
                    )
                    .col(ColumnDef::new(PushEvents::Detail).text().not_null())
                    .col(ts(PushEvents::CreatedAt))
                    .col(ts_null(PushEvents::NotifiedAt))
                    .foreign_key(&mut owner_fk(
                        "fk_push_events_owner",
                        PushEvents::Table,
                        PushEvents::OwnerId,
                    ))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_push_events_waiting")
                    .table(PushEvents::Table)
                    .col(PushEvents::NotifiedAt)
                    .col(PushEvents::OwnerId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(PushDeliveries::Table)
                    .col(id(PushDeliveries::Id))
                    .col(owner(PushDeliveries::OwnerId))
                    .col(
                        ColumnDef::new(PushDeliveries::SubscriptionId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(ColumnDef::new(PushDeliveries::Payload).text().not_null())
                    .col(
                        ColumnDef::new(PushDeliveries::Status)
                            .string_len(10)
                            .not_null()
                            .check(
                                Expr::col(PushDeliveries::Status)
                                    .is_in(["pending", "sent", "failed"]),
                            ),
                    )
                    .col(
                        ColumnDef::new(PushDeliveries::Attempts)
                            .integer()
                            .not_null(),
                    )
                    .col(ts_null(PushDeliveries::NextAttemptAt))
                    .col(ts_null(PushDeliveries::ClaimedUntil))
                    .col(ColumnDef::new(PushDeliveries::LastStatus).integer().null())
                    .col(ts(PushDeliveries::CreatedAt))
                    .col(ts(PushDeliveries::UpdatedAt))
                    .foreign_key(&mut owner_fk(
                        "fk_push_deliveries_owner",
                        PushDeliveries::Table,
                        PushDeliveries::OwnerId,
                    ))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_push_deliveries_subscription")
                            .from(PushDeliveries::Table, PushDeliveries::SubscriptionId)
                            .to(PushSubscriptions::Table, PushSubscriptions::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_push_deliveries_due")
                    .table(PushDeliveries::Table)
                    .col(PushDeliveries::Status)
                    .col(PushDeliveries::NextAttemptAt)
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            PushDeliveries::Table.into_iden(),
            PushEvents::Table.into_iden(),
            PushSubscriptions::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(t).to_owned())
                .await?;
        }
        Ok(())
    }
}
