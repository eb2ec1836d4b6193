//! The whole-app tests as one test binary: one compile and one link instead of one per area, and the
//! areas' tests share the test threads. Run one area with `cargo test -p app --test app <area>::`.

mod common;

mod activities;
mod ai;
mod aiclip;
mod auth;
mod cli;
mod clip;
mod content;
mod contract;
mod control_chars;
mod copy_precheck;
mod crash_cleanup;
mod engagement;
mod event_audience;
mod hotlists;
mod intellect;
mod list_engine;
mod materials;
mod matrix;
mod matrix_crash;
mod mcp;
mod multinode;
mod notes;
mod ops;
mod queue;
mod reports;
mod risk;
mod robustness;
mod sandbox_access;
mod senior;
mod seo;
mod sheets;
mod slice;
mod sms_gateway;
mod staff;
mod system;
mod tokens;
mod writer;
