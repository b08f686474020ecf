//! The tables `ca-experiments` owns.

pub mod count;
pub mod exposure;
pub mod test;
pub mod variant;
