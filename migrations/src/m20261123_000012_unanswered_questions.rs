use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ConversationMessages {
    Table,
    ConversationId,
    UnansweredKey,
}

/// Marks the visitor messages the assistant could not answer from the
/// owner's texts, with the question in the form its repeats share, so the
/// owner can list them grouped and counted.
#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(ConversationMessages::Table)
                    .add_column(ColumnDef::new(ConversationMessages::UnansweredKey).string_len(200))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_conversation_messages_unanswered")
                    .table(ConversationMessages::Table)
                    .col(ConversationMessages::UnansweredKey)
                    .col(ConversationMessages::ConversationId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("ix_conversation_messages_unanswered")
                    .table(ConversationMessages::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(ConversationMessages::Table)
                    .drop_column(ConversationMessages::UnansweredKey)
                    .to_owned(),
            )
            .await
    }
}
