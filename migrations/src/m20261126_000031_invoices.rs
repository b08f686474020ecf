//! GST tax invoices: the owner's billing details (address, state, GSTIN),
//! and the issued documents (tax invoices and credit notes), each a copy of
//! the seller, the buyer and the tax as they were when it was issued, so a
//! later profile or configuration change never alters it.

use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum BillingDetails {
    Table,
    OwnerId,
    Address,
    StateCode,
    Gstin,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Payments {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Invoices {
    Table,
    Id,
    PaymentId,
    OwnerId,
    Kind,
    Number,
    OriginalNumber,
    IssuedAt,
    SellerName,
    SellerAddress,
    SellerGstin,
    SellerStateCode,
    BuyerName,
    BuyerEmail,
    BuyerPhone,
    BuyerAddress,
    BuyerStateCode,
    BuyerGstin,
    PlaceOfSupply,
    Sac,
    Description,
    GstRateBp,
    TaxablePaise,
    CgstPaise,
    SgstPaise,
    IgstPaise,
    TotalPaise,
}

fn text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).text().not_null().to_owned()
}

fn code(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string_len(2).null().to_owned()
}

fn paise(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).big_integer().not_null().to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(BillingDetails::Table)
                    .col(
                        ColumnDef::new(BillingDetails::OwnerId)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(text(BillingDetails::Address))
                    .col(
                        ColumnDef::new(BillingDetails::StateCode)
                            .string_len(2)
                            .not_null(),
                    )
                    .col(ColumnDef::new(BillingDetails::Gstin).string_len(15).null())
                    .col(
                        ColumnDef::new(BillingDetails::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_billing_details_owner")
                            .from(BillingDetails::Table, BillingDetails::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Invoices::Table)
                    .col(
                        ColumnDef::new(Invoices::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(Invoices::PaymentId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Invoices::OwnerId).string_len(36).not_null())
                    .col(ColumnDef::new(Invoices::Kind).string_len(16).not_null())
                    .col(ColumnDef::new(Invoices::Number).big_integer().not_null())
                    .col(
                        ColumnDef::new(Invoices::OriginalNumber)
                            .big_integer()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(Invoices::IssuedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(text(Invoices::SellerName))
                    .col(text(Invoices::SellerAddress))
                    .col(ColumnDef::new(Invoices::SellerGstin).string_len(15).null())
                    .col(code(Invoices::SellerStateCode))
                    .col(text(Invoices::BuyerName))
                    .col(text(Invoices::BuyerEmail))
                    .col(text(Invoices::BuyerPhone))
                    .col(ColumnDef::new(Invoices::BuyerAddress).text().null())
                    .col(code(Invoices::BuyerStateCode))
                    .col(ColumnDef::new(Invoices::BuyerGstin).string_len(15).null())
                    .col(code(Invoices::PlaceOfSupply))
                    .col(ColumnDef::new(Invoices::Sac).string_len(16).not_null())
                    .col(text(Invoices::Description))
                    .col(ColumnDef::new(Invoices::GstRateBp).integer().not_null())
                    .col(paise(Invoices::TaxablePaise))
                    .col(paise(Invoices::CgstPaise))
                    .col(paise(Invoices::SgstPaise))
                    .col(paise(Invoices::IgstPaise))
                    .col(paise(Invoices::TotalPaise))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_invoices_payment")
                            .from(Invoices::Table, Invoices::PaymentId)
                            .to(Payments::Table, Payments::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_invoices_number")
                    .table(Invoices::Table)
                    .col(Invoices::Number)
                    .unique()
                    .to_owned(),
            )
            .await?;
        // One tax invoice and at most one credit note per payment.
        manager
            .create_index(
                Index::create()
                    .name("ux_invoices_payment_kind")
                    .table(Invoices::Table)
                    .col(Invoices::PaymentId)
                    .col(Invoices::Kind)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_invoices_owner")
                    .table(Invoices::Table)
                    .col(Invoices::OwnerId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Invoices::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(BillingDetails::Table).to_owned())
            .await
    }
}
