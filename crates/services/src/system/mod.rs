//! System: merchants, roles and menus, the job monitor, the operation log, dictionaries, maintenance.

pub mod banned_words;
pub mod dict;
pub mod jobs;
pub mod maintenance;
pub mod merchants;
pub mod oplog;
pub mod roles;
