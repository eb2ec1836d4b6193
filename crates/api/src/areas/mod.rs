pub mod activities;
pub mod auth;
pub mod clip;
pub mod content;
pub mod materials;
pub mod matrix;
pub mod nfc;
pub mod seo;
