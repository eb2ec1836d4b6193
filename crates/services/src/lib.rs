//! The use cases and background jobs of clipmatrix, one folder per area with the same names as
//! `web/src/pages` (DESIGN.md §4). Between `api` (HTTP only: routers, extractors, guard) and `store`
//! (SQL only); the rules themselves are in `domain`. [`App`] is the application opened once;
//! [`jobs::registry`] names every job kind's handler and [`background`] starts the worker and the
//! schedulers, for `serve` and `worker` alike.

// The application, its jobs and background work.
pub mod aigc;
pub mod app;
pub mod jobs;

// Shared by several areas: errors, request budgets, media links, the platform gateway, the copy
// precheck.
pub mod compliance;
pub mod error;
pub mod limits;
pub mod links;
pub mod platform;

pub mod activities;
pub mod ai;
pub mod auth;
pub mod clip;
pub mod content;
pub mod engagement;
pub mod materials;
pub mod matrix;
pub mod nfc;
pub mod reports;
pub mod seo;
pub mod system;
pub mod ticker;
pub mod writer;

pub use app::{App, AppConfig, background};
pub use error::{ApiError, ApiResult};
/// Paging, sorting and filters of a list call, and its total: what every list use case takes and gives.
pub use store::list::{self, ListParams, ListQuery};
