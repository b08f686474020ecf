//! Accounts for ConvertAssist: users and roles, argon2id password hashing, JWT
//! sessions with per-user revocation, password reset links and the email outbox.

mod challenge;
pub mod dto;
pub mod entities;
pub mod error;
pub mod jwt;
pub mod links;
pub mod mailer;
pub mod password;
mod rules;
pub mod service;
pub mod settings;
pub mod staff;
pub mod subscription;
pub mod suspension;
pub mod totp;
pub mod trial;
pub mod two_factor;

pub use error::AuthError;
pub use jwt::{Claims, JwtKeys};
pub use mailer::Mailer;
pub use service::{AuthService, NewAccount, Role};
