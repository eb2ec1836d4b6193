//! The auth area's tables: users, sessions, SMS codes and passwords.

pub mod password;
pub mod tokens;
pub mod users;
