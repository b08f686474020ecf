//! Tables owned by the customers crate.

pub mod customer;
