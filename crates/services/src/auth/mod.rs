//! Auth: sign-in and sessions, the signed-in user's own account, staff, the failed-sign-in budgets.

pub mod account;
pub mod hashing;
pub mod signin;
pub mod staff;
