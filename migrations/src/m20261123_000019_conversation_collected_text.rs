//! What a conversation collected, as searchable text: the values only (no
//! JSON keys or punctuation), lower-cased with Unicode rules, one per line.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Conversations {
    Table,
    CollectedText,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Conversations::Table)
                    .add_column(
                        ColumnDef::new(Conversations::CollectedText)
                            .text()
                            .not_null()
                            .default(""),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        let backend = db.get_database_backend();
        let rows = db
            .query_all_raw(Statement::from_string(
                backend,
                "SELECT id, collected_data FROM conversations WHERE collected_data <> '{}'",
            ))
            .await?;
        for row in rows {
            let id: String = row.try_get("", "id")?;
            let data: String = row.try_get("", "collected_data")?;
            let update = Query::update()
                .table(Conversations::Table)
                .value(
                    Conversations::CollectedText,
                    ca_core::search::values_text(&data),
                )
                .and_where(Expr::col(Alias::new("id")).eq(id))
                .to_owned();
            db.execute(&update).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Conversations::Table)
                    .drop_column(Conversations::CollectedText)
                    .to_owned(),
            )
            .await
    }
}
