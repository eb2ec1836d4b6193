//! The system area's tables: dictionaries, menus, the operation log, the points ledger and the
//! merchants' banned words.

pub mod banned_words;
pub mod dict;
pub mod menus;
pub mod oplog;
pub mod points;
