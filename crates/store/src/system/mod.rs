//! The system area's tables: dictionaries, menus, the operation log and the points ledger.

pub mod dict;
pub mod menus;
pub mod oplog;
pub mod points;
