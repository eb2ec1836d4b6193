//! Matrix: the publisher's jobs, and the use cases of accounts, release tasks, videos, review and
//! webhooks (the platform gateway they call is `crate::platform`).

pub mod accounts;
pub mod audit;
pub mod publish;
pub mod tasks;
pub mod videos;
pub mod webhook;
