//! The system area (operator and merchant administration): the points ledger's reasons.

pub mod points;
