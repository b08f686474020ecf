//! `event_journal`: how far each event journal is stored in the database (a
//! row per journal: one for an SQLite file, one per server on PostgreSQL);
//! see [`crate::journal`].

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "event_journal")]
pub struct Model {
    /// The journal's number (1 for an SQLite file's journal).
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    /// The highest journal sequence number whose event is stored.
    pub stored_through: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
