//! The assistant. `builtin` answers from the campaign's own knowledge base and
//! business information without any network.

pub mod builtin;
pub mod retrieval;
