//! The platform clock: wall time plus an offset the sandbox can advance (PLATFORMS.md "injectable
//! clock"). Token lifetimes, publish schedules and platform review use it; sessions, job leases and
//! logs keep using real time (`crate::now_ms`), so advancing the sandbox clock by days does not sign
//! anyone out. In a real deployment the offset stays 0.

use std::sync::atomic::{AtomicI64, Ordering};

static OFFSET_MS: AtomicI64 = AtomicI64::new(0);

/// Unix ms on the platform clock.
pub fn platform_now() -> i64 {
    crate::now_ms() + OFFSET_MS.load(Ordering::Relaxed)
}

pub fn offset_ms() -> i64 {
    OFFSET_MS.load(Ordering::Relaxed)
}

/// Moves the platform clock forward (never back, so nothing scheduled runs twice).
pub fn advance(ms: i64) -> i64 {
    OFFSET_MS.fetch_add(ms.max(0), Ordering::Relaxed) + ms.max(0)
}

pub fn set_offset(ms: i64) {
    OFFSET_MS.store(ms.max(0), Ordering::Relaxed);
}

/// Moves the platform clock forward to the instant `ms` (nothing when it is already past it).
/// Tests pin the time of day they run at with it, so they pass at any wall-clock hour.
pub fn advance_to(ms: i64) -> i64 {
    advance(ms - platform_now())
}
