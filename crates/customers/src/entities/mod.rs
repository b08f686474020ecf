//! Tables owned by the customers crate.

pub mod customer;
pub mod customer_count;
