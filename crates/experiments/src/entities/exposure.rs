//! `experiment_exposures`: the visitors a test has already counted, one row
//! per test and visitor (a visitor counts once for the test, on the day and
//! for the variant they first saw), with their first lead and their
//! revenue so far, so leads and the spread of revenue are per visitor too.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "experiment_exposures")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub test_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub visitor_id: String,
    pub variant_id: String,
    pub first_at: DateTimeUtc,
    /// When the test counted the visitor's first lead (later ones add nothing).
    pub led_at: Option<DateTimeUtc>,
    /// The visitor's revenue in the test so far, in paise.
    pub revenue_paise: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
