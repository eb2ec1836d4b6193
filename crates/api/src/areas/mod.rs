pub mod auth;
pub mod materials;
