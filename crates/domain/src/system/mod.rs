//! The system area (operator and merchant administration): the points ledger's reasons, the SMS
//! gateway.

pub mod points;
pub mod sms;
