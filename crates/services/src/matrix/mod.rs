//! Matrix: the publisher's jobs, and the use cases of accounts, release tasks, videos, review and
//! webhooks (the platform gateway they call is `crate::platform`).

pub mod accounts;
pub mod audit;
pub mod canary;
pub mod publish;
pub mod tasks;
pub mod videos;
pub mod webhook;

/// What the matrix calls read: an account, a group, a task, an item and a task's counts, an
/// @-mention user; and the platforms' own words (which platform, how it signs in, a place).
pub use platforms::{AuthKind, Platform, Poi};
pub use store::matrix::{Account, AiteUser, Group, Item, ItemCounts, Task};
