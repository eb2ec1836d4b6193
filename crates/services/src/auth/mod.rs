//! Auth: sign-in and sessions, the signed-in user's own account, staff, the failed-sign-in budgets.

pub mod account;
pub mod hashing;
pub mod signin;
pub mod sms;
pub mod staff;
pub mod tokens;

pub use store::auth::users::{Merchant, User};
/// What the auth calls read: a menu, a role, a user, a merchant, a line of the points ledger.
pub use store::system::menus::{Menu, Role};
pub use store::system::points::Entry;
