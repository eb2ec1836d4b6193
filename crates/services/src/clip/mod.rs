//! Clip: mixing projects and their variants (the finished-video library), slicing projects; the render
//! job of mix variants and the slicing job.

pub mod intellect;
pub mod library;
pub mod one_touch;
pub mod projects;
pub mod render;
pub mod risk;
pub mod slice;
pub mod slicing;
pub mod slots;
pub mod templates;
