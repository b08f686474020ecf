use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Plans {
    Table,
    Id,
    Name,
    DisplayName,
    Price,
    Currency,
    Interval,
    Features,
    LimitCampaigns,
    LimitVisitorsPerMonth,
    LimitAiConversations,
    CustomBranding,
    ApiAccess,
    WhiteLabel,
    PrioritySupport,
    PhoneSupport,
    Popular,
    Active,
    InviteOnly,
    ContactSales,
    SortOrder,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PlanInvitations {
    Table,
    Id,
    PlanId,
    Email,
    CreatedAt,
}

struct SeedPlan {
    id: &'static str,
    display_name: &'static str,
    price: i64,
    /// JSON array of feature lines.
    features: &'static str,
    /// campaigns, visitors per month, AI conversations (-1 unlimited).
    limits: (i32, i64, i64),
    /// custom branding, API access, white label, priority support, phone support.
    flags: [bool; 5],
    popular: bool,
    invite_only: bool,
    contact_sales: bool,
    sort_order: i32,
}

/// The plans the product starts with: free, basic, the invite-only beta and
/// the contact-sales enterprise plan.
const SEED: &[SeedPlan] = &[
    SeedPlan {
        id: "free",
        display_name: "Free",
        price: 0,
        features: r#"["Explore the dashboard","Upgrade any time to create campaigns"]"#,
        limits: (0, 0, 0),
        flags: [false; 5],
        popular: false,
        invite_only: false,
        contact_sales: false,
        sort_order: 0,
    },
    SeedPlan {
        id: "basic",
        display_name: "Basic",
        price: 999,
        features: r#"["1 campaign","10,000 monthly visitors","Advanced AI conversations","Analytics dashboard","Email support"]"#,
        limits: (1, 10_000, 1_000),
        flags: [false; 5],
        popular: true,
        invite_only: false,
        contact_sales: false,
        sort_order: 1,
    },
    SeedPlan {
        id: "beta",
        display_name: "Beta",
        price: 5000,
        features: r#"["Unlimited conversations","AI chatbot","WhatsApp integration","Real-time analytics"]"#,
        limits: (5, 50_000, -1),
        flags: [true, false, false, true, false],
        popular: false,
        invite_only: true,
        contact_sales: false,
        sort_order: 2,
    },
    SeedPlan {
        id: "enterprise",
        display_name: "Enterprise",
        price: 9999,
        features: r#"["25 campaigns","100,000 monthly visitors","10,000 AI conversations","Custom branding and white label","API access","Priority and phone support"]"#,
        limits: (25, 100_000, 10_000),
        flags: [true; 5],
        popular: false,
        invite_only: false,
        contact_sales: true,
        sort_order: 3,
    },
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Plans::Table)
                    .col(
                        ColumnDef::new(Plans::Id)
                            .string_len(64)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Plans::Name).string_len(64).not_null())
                    .col(
                        ColumnDef::new(Plans::DisplayName)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Plans::Price).big_integer().not_null())
                    .col(
                        ColumnDef::new(Plans::Currency)
                            .string_len(8)
                            .not_null()
                            .default("INR"),
                    )
                    .col(
                        ColumnDef::new(Plans::Interval)
                            .string_len(16)
                            .not_null()
                            .default("monthly")
                            .check(Expr::col(Plans::Interval).is_in(["monthly", "yearly"])),
                    )
                    .col(ColumnDef::new(Plans::Features).text().not_null())
                    .col(ColumnDef::new(Plans::LimitCampaigns).integer().not_null())
                    .col(
                        ColumnDef::new(Plans::LimitVisitorsPerMonth)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Plans::LimitAiConversations)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Plans::CustomBranding)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::ApiAccess)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::WhiteLabel)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::PrioritySupport)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::PhoneSupport)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::Popular)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::Active)
                            .boolean()
                            .not_null()
                            .default(true),
                    )
                    .col(
                        ColumnDef::new(Plans::InviteOnly)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::ContactSales)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .col(
                        ColumnDef::new(Plans::SortOrder)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Plans::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Plans::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        let now = chrono::Utc::now();
        let mut insert = Query::insert()
            .into_table(Plans::Table)
            .columns([
                Plans::Id,
                Plans::Name,
                Plans::DisplayName,
                Plans::Price,
                Plans::Currency,
                Plans::Interval,
                Plans::Features,
                Plans::LimitCampaigns,
                Plans::LimitVisitorsPerMonth,
                Plans::LimitAiConversations,
                Plans::CustomBranding,
                Plans::ApiAccess,
                Plans::WhiteLabel,
                Plans::PrioritySupport,
                Plans::PhoneSupport,
                Plans::Popular,
                Plans::Active,
                Plans::InviteOnly,
                Plans::ContactSales,
                Plans::SortOrder,
                Plans::CreatedAt,
                Plans::UpdatedAt,
            ])
            .to_owned();
        for p in SEED {
            insert.values_panic([
                p.id.into(),
                p.id.into(),
                p.display_name.into(),
                p.price.into(),
                "INR".into(),
                "monthly".into(),
                p.features.into(),
                p.limits.0.into(),
                p.limits.1.into(),
                p.limits.2.into(),
                p.flags[0].into(),
                p.flags[1].into(),
                p.flags[2].into(),
                p.flags[3].into(),
                p.flags[4].into(),
                p.popular.into(),
                true.into(),
                p.invite_only.into(),
                p.contact_sales.into(),
                p.sort_order.into(),
                now.into(),
                now.into(),
            ]);
        }
        manager.exec_stmt(insert).await?;

        manager
            .create_table(
                Table::create()
                    .table(PlanInvitations::Table)
                    .col(
                        ColumnDef::new(PlanInvitations::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(PlanInvitations::PlanId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PlanInvitations::Email)
                            .string_len(254)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PlanInvitations::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_plan_invitations_plan")
                            .from(PlanInvitations::Table, PlanInvitations::PlanId)
                            .to(Plans::Table, Plans::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_plan_invitations_plan_email")
                    .table(PlanInvitations::Table)
                    .col(PlanInvitations::PlanId)
                    .col(PlanInvitations::Email)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(PlanInvitations::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Plans::Table).to_owned())
            .await
    }
}
