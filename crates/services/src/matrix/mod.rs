//! Matrix: the platform hub (adapters, sealed tokens), the publisher's jobs, and the use cases of
//! accounts, release tasks, videos, review and webhooks.

pub mod accounts;
pub mod audit;
pub mod hub;
pub mod publish;
pub mod tasks;
pub mod videos;
pub mod webhook;
