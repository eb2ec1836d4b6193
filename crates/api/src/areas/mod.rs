//! The areas' routers, handlers and views: handlers call `services` only, and answer views of their own.

/// A view built from a services read model of the same fields, copied by name (the read models are
/// not schemas; the view is, with the same JSON shape).
macro_rules! view_of {
    ($row:path => $view:ident { $($f:ident),* $(,)? }) => {
        impl From<$row> for $view {
            fn from(r: $row) -> Self {
                $view { $($f: r.$f),* }
            }
        }
    };
}

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
