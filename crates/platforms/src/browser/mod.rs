//! Browser flows for the creator web consoles that have no publishing API (XHS, SPH, the shop
//! platform): PLATFORMS.md "Creator web consoles", STACK.md "Driving the creator consoles".
//!
//! - [`driver`]: Debian's chromium driven by playwright-core in a supervised Node sidecar (JSON lines
//!   over stdio), one persistent profile per account, a pool limit, per-account [`Identity`].
//! - [`flow`]: the [`Flow`] trait, one file per console holding every URL, selector and step of it,
//!   and step-named failures carrying [`Evidence`] (screenshot + HTML).
//! - [`adapter`]: [`BrowserAdapter`], the `crate::Adapter` of a platform with a flow: QR login with
//!   a live login page kept between polls, publish verified in the works list.
//! - [`profiles`]: cluster-safe profiles — each account's login stored for every node (sealed in
//!   the database by the services layer) and a lease so two nodes never drive one account at once.
//! - [`xhs`]: the Xiaohongshu creator console (creator.xiaohongshu.com).
//! - [`sph`]: the WeChat Channels console (channels.weixin.qq.com); [`shop`]: the shop platform's
//!   Douyin creator console (creator.douyin.com) with the product mount. `steps` holds what they
//!   share (step-named failures, the works list's rows).
//!
//! Sandbox consoles imitating the real ones are served under `{sandbox}/console/{platform code}`
//! (e.g. `http://127.0.0.1:8080/sandbox/console/xhs`), with the real console's paths beneath; a flow
//! built on that base URL drives them exactly as it drives the real host.

pub mod adapter;
pub mod driver;
pub mod flow;
pub mod profiles;
pub mod shop;
pub mod sph;
mod steps;
pub mod xhs;

pub use adapter::BrowserAdapter;
pub use driver::{DResult, Driver, DriverConfig, DriverError, Identity, Page};
pub use flow::{ConsoleProfile, Evidence, Flow, LoginStep, Step};
pub use profiles::{MemoryProfiles, ProfileStore, StoredProfile};
pub use shop::ShopFlow;
pub use sph::SphFlow;
pub use xhs::XhsFlow;

/// Where a platform's sandbox console lives under the sandbox root (`{sandbox}/console/{code}`).
pub fn sandbox_console_base(sandbox_base: &str, p: crate::Platform) -> String {
    format!(
        "{}/console/{}",
        sandbox_base.trim_end_matches('/'),
        p.code()
    )
}
