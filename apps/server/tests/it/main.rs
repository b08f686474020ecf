#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The one integration test binary: starts the whole app on a random port
//! against a fresh database (SQLite, or PostgreSQL when CA_TEST_POSTGRES_URL
//! is set) and speaks HTTP to it.

mod ab_decisions;
mod ab_tests;
mod admin;
mod admin_console;
mod admin_ops;
mod admin_users_table;
mod assistant;
mod auth;
mod billing;
mod campaigns;
mod cli;
mod conversations;
mod customers;
mod demo_data;
mod going_live;
mod helpers;
mod http;
mod invoices;
mod live_demo;
mod meta;
mod notifications;
mod payments;
mod plans_currency;
mod push;
mod robustness;
mod sealed_secrets;
mod security;
mod smtp;
mod tokens;
mod tracking;
mod two_factor;
mod webhooks;
mod widget;
