//! Database access for every area, on SQLite or PostgreSQL through one code path (sqlx `Any`).
//! Portable SQL: `$n` placeholders, integer unix-ms times, JSON as TEXT, BIGINT on PostgreSQL.

/// `format!` for SQL whose variable parts are our own constants and whitelisted names, never user text.
#[macro_export]
macro_rules! sqlf {
    ($($t:tt)*) => { sqlx::AssertSqlSafe(format!($($t)*)) };
}

pub mod activities;
pub mod ai;
pub mod ai_clips;
pub mod clip;
pub mod clip_templates;
pub mod content;
pub mod db;
pub mod dict;
pub mod engagement;
pub mod engagement_im;
pub mod hotlists;
pub mod intellect;
pub mod jobs;
pub mod list;
pub mod materials;
pub mod matrix;
pub mod menus;
pub mod nfc;
pub mod oplog;
pub mod ops;
pub mod password;
pub mod points;
pub mod reports;
pub mod secrets;
pub mod seo;
pub mod slice;
pub mod users;

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
