//! Account phone numbers in one format: E.164 (`+919876543210`). Until now
//! they were kept as typed (`+91 98765 43210`, `9876543210`, …); each one
//! that reads as a phone number is rewritten, and one that does not is
//! left as it is for staff to correct.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    Phone,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let rows = db
            .query_all_raw(Statement::from_string(
                db.get_database_backend(),
                "SELECT id, phone FROM users WHERE phone <> ''",
            ))
            .await?;
        for row in rows {
            let id: String = row.try_get("", "id")?;
            let phone: String = row.try_get("", "phone")?;
            let Some(stored) = ca_core::validation::phone_e164(&phone) else {
                continue;
            };
            if stored == phone {
                continue;
            }
            let update = Query::update()
                .table(Users::Table)
                .value(Users::Phone, stored)
                .and_where(Expr::col(Users::Id).eq(id))
                .to_owned();
            db.execute(&update).await?;
        }
        Ok(())
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // The typed forms are gone; E.164 numbers are valid phone numbers as they are.
        Ok(())
    }
}
