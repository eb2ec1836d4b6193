pub mod auth;
pub mod clip;
pub mod materials;
