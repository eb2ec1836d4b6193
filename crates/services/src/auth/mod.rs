//! Auth: sign-in and sessions, the signed-in user's own account, staff, the failed-sign-in budgets.

pub mod account;
pub mod hashing;
pub mod limits;
pub mod signin;
pub mod staff;

/// What the auth calls read: a menu, a role, a user, a merchant, a line of the points ledger.
pub use store::menus::{Menu, Role};
pub use store::points::Entry;
pub use store::users::{Merchant, User};
