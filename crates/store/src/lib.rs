//! Database access for every area, on SQLite or PostgreSQL through one code path (sqlx `Any`).
//! Portable SQL: `$n` placeholders, integer unix-ms times, JSON as TEXT, BIGINT on PostgreSQL.

/// `format!` for SQL whose variable parts are our own constants and whitelisted names, never user text.
#[macro_export]
macro_rules! sqlf {
    ($($t:tt)*) => { sqlx::AssertSqlSafe(format!($($t)*)) };
}

pub mod activities;
pub mod ai;
pub mod auth;
pub mod clip;
pub mod content;
pub mod db;
pub mod engagement;
pub mod jobs;
pub mod list;
pub mod materials;
pub mod matrix;
pub mod nfc;
pub mod ops;
pub mod reports;
pub mod secrets;
pub mod seo;
pub mod system;

pub use db::{Backend, Db};
pub use list::{ListParams, ListQuery};

/// A random URL-safe token of `n` bytes of entropy.
pub fn random_token(n: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..n * 4 / 3 + 1)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
