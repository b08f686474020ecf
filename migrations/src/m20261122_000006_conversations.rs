use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Conversations {
    Table,
    Id,
    ConversationId,
    CampaignId,
    OwnerId,
    VisitorId,
    SessionId,
    Status,
    Outcome,
    AiEnabled,
    TotalMessages,
    VisitorMessages,
    FormsOffered,
    LastFormAt,
    CollectedData,
    UserContext,
    LastMessage,
    CreatedAt,
    LastActivityAt,
    CompletedAt,
}

#[derive(DeriveIden)]
enum ConversationMessages {
    Table,
    Id,
    ConversationId,
    Role,
    Content,
    FormId,
    Source,
    FirstTokenMs,
    TotalMs,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Conversations::Table)
                    .col(
                        ColumnDef::new(Conversations::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(Conversations::ConversationId)
                            .string_len(40)
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(Conversations::CampaignId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::VisitorId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Conversations::SessionId).string_len(64))
                    .col(
                        ColumnDef::new(Conversations::Status)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::Outcome)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::AiEnabled)
                            .boolean()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::TotalMessages)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Conversations::VisitorMessages)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Conversations::FormsOffered)
                            .text()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Conversations::LastFormAt).big_integer())
                    .col(
                        ColumnDef::new(Conversations::CollectedData)
                            .text()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Conversations::UserContext).text().not_null())
                    .col(ColumnDef::new(Conversations::LastMessage).text().not_null())
                    .col(
                        ColumnDef::new(Conversations::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Conversations::LastActivityAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Conversations::CompletedAt).timestamp_with_time_zone())
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_conversations_campaign")
                            .from(Conversations::Table, Conversations::CampaignId)
                            .to(Campaigns::Table, Campaigns::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_conversations_owner")
                            .from(Conversations::Table, Conversations::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, cols) in [
            (
                "ix_conversations_owner_created",
                vec![Conversations::OwnerId, Conversations::CreatedAt],
            ),
            (
                "ix_conversations_campaign_created",
                vec![Conversations::CampaignId, Conversations::CreatedAt],
            ),
            (
                "ix_conversations_status_activity",
                vec![Conversations::Status, Conversations::LastActivityAt],
            ),
            (
                "ix_conversations_owner_ai_created",
                vec![
                    Conversations::OwnerId,
                    Conversations::AiEnabled,
                    Conversations::CreatedAt,
                ],
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(Conversations::Table);
            for col in cols {
                index.col(col);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(ConversationMessages::Table)
                    .col(
                        ColumnDef::new(ConversationMessages::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(ConversationMessages::ConversationId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ConversationMessages::Role)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ConversationMessages::Content)
                            .text()
                            .not_null(),
                    )
                    .col(ColumnDef::new(ConversationMessages::FormId).string_len(64))
                    .col(ColumnDef::new(ConversationMessages::Source).string_len(16))
                    .col(ColumnDef::new(ConversationMessages::FirstTokenMs).big_integer())
                    .col(ColumnDef::new(ConversationMessages::TotalMs).big_integer())
                    .col(
                        ColumnDef::new(ConversationMessages::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_conversation_messages_conversation")
                            .from(
                                ConversationMessages::Table,
                                ConversationMessages::ConversationId,
                            )
                            .to(Conversations::Table, Conversations::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_conversation_messages_conversation")
                    .table(ConversationMessages::Table)
                    .col(ConversationMessages::ConversationId)
                    .col(ConversationMessages::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ConversationMessages::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Conversations::Table).to_owned())
            .await
    }
}
