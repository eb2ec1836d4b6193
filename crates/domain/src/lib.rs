//! Entities, validation rules, permissions and messages of clipmatrix. No I/O lives here.

pub mod actions;
pub mod activities;
pub mod ai;
pub mod clip;
pub mod clock;
pub mod compliance;
pub mod content;
pub mod engagement;
pub mod i18n;
pub mod jobs;
pub mod materials;
pub mod matrix;
pub mod menus;
pub mod permission;
pub mod platform;
pub mod reports;
pub mod seo;
pub mod sheet;
pub mod system;
pub mod text_enum;
pub mod validate;

/// Session lifetimes of SPEC §9.
pub const SESSION_MS: i64 = 6 * 3600 * 1000;
pub const REMEMBER_MS: i64 = 24 * 3600 * 1000;
/// One SMS code per phone per minute; codes live five minutes.
pub const SMS_RESEND_MS: i64 = 60 * 1000;
pub const SMS_TTL_MS: i64 = 5 * 60 * 1000;
/// Five wrong codes, or five wrong passwords for one username from one address, within 15 minutes
/// lock that login for 15 minutes.
pub const LOCK_AFTER_FAILURES: i64 = 5;
/// The slower per-username limit: this many wrong passwords from all addresses together.
pub const USER_LOCK_AFTER_FAILURES: i64 = 50;
pub const LOCK_MS: i64 = 15 * 60 * 1000;
pub const APP_VERSION: &str = "1.6.9";

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

crate::text_enum! {
    /// Who a signed-in caller is.
    pub enum UserKind {
        Operator = "operator",
        Merchant = "merchant",
        Staff = "staff",
    }
}
