//! Matrix publishing rows: account groups, authorized accounts (tokens sealed), OAuth/QR states,
//! release tasks and their items, @-mention users, platform app credentials, webhook dedupe.
//! Every merchant-facing query takes the merchant id; the worker's calls are by primary key.
//!
//! One file per table group:
//! * `groups`: account groups;
//! * `accounts`: authorized accounts, their status, tokens, revocation and deletion;
//! * `states`: OAuth states and QR logins;
//! * `tasks`: release tasks, their creation, review, deletion and re-planning;
//! * `items`: release items and the dispatcher's and publisher's steps on them;
//! * `aite`: @-mention users;
//! * `apps`: platform app credentials (operator);
//! * `webhooks`: webhook dedupe and what a webhook changes;
//! * `shares`: H5 shares;
//! * `profiles`: creator-console accounts' browser logins for every node, and their leases;
//! * `stats`: account and work statistics, the dashboard's daily stats.

mod accounts;
mod aite;
mod apps;
mod groups;
mod items;
mod profiles;
mod shares;
mod states;
mod stats;
mod tasks;
mod webhooks;

pub use accounts::*;
pub use aite::*;
pub use apps::*;
pub use groups::*;
pub use items::*;
pub use profiles::*;
pub use shares::*;
pub use states::*;
pub use stats::*;
pub use tasks::*;
pub use webhooks::*;
