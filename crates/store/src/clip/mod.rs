//! The clip area's tables, one module per sub-feature; mixing projects and their variants are the
//! area's core and read as `store::clip::*`.

pub mod intellect;
pub mod one_touch;
mod projects;
pub mod risk;
pub mod slicing;
pub mod templates;

pub use projects::*;
