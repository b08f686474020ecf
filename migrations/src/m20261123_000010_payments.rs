//! Payments (one row per checkout attempt, keyed by PayU's `txnid`), the
//! gap-free invoice number sequence, and each owner's subscription record
//! (billing cycle, period, cancellation).

use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Payments {
    Table,
    Id,
    Txnid,
    OwnerId,
    PlanId,
    Cycle,
    AmountPaise,
    Currency,
    Productinfo,
    Firstname,
    Email,
    Phone,
    Provider,
    Status,
    PaymentMode,
    Mihpayid,
    BankRefNum,
    UnmappedStatus,
    ErrorMessage,
    Raw,
    InvoiceNumber,
    PeriodStart,
    PeriodEnd,
    CreatedAt,
    UpdatedAt,
    SettledAt,
    CheckedAt,
}

#[derive(DeriveIden)]
enum InvoiceSequence {
    Table,
    Id,
    LastNumber,
}

#[derive(DeriveIden)]
enum Subscriptions {
    Table,
    OwnerId,
    PlanId,
    Cycle,
    Status,
    CurrentPeriodStart,
    CurrentPeriodEnd,
    CancelAtPeriodEnd,
    CancelledAt,
    LastTxnid,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Payments::Table)
                    .col(
                        ColumnDef::new(Payments::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Payments::Txnid).string_len(25).not_null())
                    .col(ColumnDef::new(Payments::OwnerId).string_len(36).not_null())
                    .col(ColumnDef::new(Payments::PlanId).string_len(64).not_null())
                    .col(
                        ColumnDef::new(Payments::Cycle)
                            .string_len(8)
                            .not_null()
                            .check(Expr::col(Payments::Cycle).is_in(["monthly", "annual"])),
                    )
                    .col(
                        ColumnDef::new(Payments::AmountPaise)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Payments::Currency).string_len(3).not_null())
                    .col(
                        ColumnDef::new(Payments::Productinfo)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Payments::Firstname)
                            .string_len(60)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Payments::Email).string_len(254).not_null())
                    .col(ColumnDef::new(Payments::Phone).string_len(20).not_null())
                    .col(
                        ColumnDef::new(Payments::Provider)
                            .string_len(16)
                            .not_null()
                            .check(Expr::col(Payments::Provider).is_in([
                                "payu",
                                "simulator",
                                "demo",
                            ])),
                    )
                    .col(
                        ColumnDef::new(Payments::Status)
                            .string_len(8)
                            .not_null()
                            .check(
                                Expr::col(Payments::Status)
                                    .is_in(["pending", "success", "failure"]),
                            ),
                    )
                    .col(ColumnDef::new(Payments::PaymentMode).string_len(32).null())
                    .col(ColumnDef::new(Payments::Mihpayid).string_len(64).null())
                    .col(ColumnDef::new(Payments::BankRefNum).string_len(64).null())
                    .col(
                        ColumnDef::new(Payments::UnmappedStatus)
                            .string_len(32)
                            .null(),
                    )
                    .col(ColumnDef::new(Payments::ErrorMessage).text().null())
                    .col(ColumnDef::new(Payments::Raw).text().null())
                    .col(ColumnDef::new(Payments::InvoiceNumber).big_integer().null())
                    .col(
                        ColumnDef::new(Payments::PeriodStart)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Payments::PeriodEnd)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Payments::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Payments::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Payments::SettledAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Payments::CheckedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_payments_owner")
                            .from(Payments::Table, Payments::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_payments_txnid")
                    .table(Payments::Table)
                    .col(Payments::Txnid)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_payments_invoice_number")
                    .table(Payments::Table)
                    .col(Payments::InvoiceNumber)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_payments_owner_created")
                    .table(Payments::Table)
                    .col(Payments::OwnerId)
                    .col(Payments::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_payments_status_created")
                    .table(Payments::Table)
                    .col(Payments::Status)
                    .col(Payments::CreatedAt)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(InvoiceSequence::Table)
                    .col(
                        ColumnDef::new(InvoiceSequence::Id)
                            .integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(InvoiceSequence::LastNumber)
                            .big_integer()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::insert()
                    .into_table(InvoiceSequence::Table)
                    .columns([InvoiceSequence::Id, InvoiceSequence::LastNumber])
                    .values_panic([1.into(), 0i64.into()])
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Subscriptions::Table)
                    .col(
                        ColumnDef::new(Subscriptions::OwnerId)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::PlanId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::Cycle)
                            .string_len(8)
                            .not_null()
                            .check(Expr::col(Subscriptions::Cycle).is_in(["monthly", "annual"])),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::Status)
                            .string_len(10)
                            .not_null()
                            .check(Expr::col(Subscriptions::Status).is_in(["active", "expired"])),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::CurrentPeriodStart)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::CurrentPeriodEnd)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::CancelAtPeriodEnd)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::CancelledAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::LastTxnid)
                            .string_len(25)
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Subscriptions::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_subscriptions_owner")
                            .from(Subscriptions::Table, Subscriptions::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Subscriptions::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(InvoiceSequence::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Payments::Table).to_owned())
            .await
    }
}
