//! The platform clock: wall time plus an offset the sandbox can move (PLATFORMS.md "injectable
//! clock"). Token lifetimes, publish schedules and platform review use it; sessions, job leases and
//! logs keep using real time (`crate::now_ms`), so moving the sandbox clock by days does not sign
//! anyone out. In a real deployment the offset stays 0.
//!
//! Two readings: [`sandbox_now`] is the simulated platforms' time and always carries the offset;
//! [`platform_now`] is the product's own time (activities, coupons, release dates, schedules) and
//! carries it only when the test/demo setting [`set_app_follows`] is on (off by default), so a
//! sandbox clock moved forward does not end every tenant's activities.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

static OFFSET_MS: AtomicI64 = AtomicI64::new(0);
static APP_FOLLOWS: AtomicBool = AtomicBool::new(false);

/// Unix ms on the product's clock: the sandbox's when the product follows it, else wall time.
pub fn platform_now() -> i64 {
    crate::now_ms() + app_offset_ms()
}

/// Unix ms on the simulated platforms' clock.
pub fn sandbox_now() -> i64 {
    crate::now_ms() + OFFSET_MS.load(Ordering::Relaxed)
}

/// The sandbox clock's offset from wall time.
pub fn offset_ms() -> i64 {
    OFFSET_MS.load(Ordering::Relaxed)
}

/// The product clock's offset: the sandbox's when it follows it, else 0.
pub fn app_offset_ms() -> i64 {
    if APP_FOLLOWS.load(Ordering::Relaxed) {
        offset_ms()
    } else {
        0
    }
}

/// Whether moving the sandbox clock also moves the product's own time (a test/demo setting).
pub fn set_app_follows(on: bool) {
    APP_FOLLOWS.store(on, Ordering::Relaxed);
}

pub fn app_follows() -> bool {
    APP_FOLLOWS.load(Ordering::Relaxed)
}

/// Moves the clock forward (a negative step is ignored: going back is [`set_offset`]'s, on purpose).
pub fn advance(ms: i64) -> i64 {
    OFFSET_MS.fetch_add(ms.max(0), Ordering::Relaxed) + ms.max(0)
}

/// Sets the offset (never before wall time): 0 puts a clock moved forward back to real time.
pub fn set_offset(ms: i64) {
    OFFSET_MS.store(ms.max(0), Ordering::Relaxed);
}

/// Moves the platform clock forward to the instant `ms` (nothing when it is already past it).
/// Tests pin the time of day they run at with it, so they pass at any wall-clock hour.
pub fn advance_to(ms: i64) -> i64 {
    advance(ms - sandbox_now())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one test touching the process-wide clock in this crate.
    #[test]
    fn the_product_follows_the_sandbox_clock_only_when_asked() {
        let hour = 3_600_000;
        set_offset(0);
        advance(8 * 24 * hour);
        assert!(sandbox_now() - crate::now_ms() >= 8 * 24 * hour - 1000);
        assert!(
            (platform_now() - crate::now_ms()).abs() < 1000,
            "off by default"
        );
        set_app_follows(true);
        assert!(platform_now() - crate::now_ms() >= 8 * 24 * hour - 1000);
        set_app_follows(false);
        set_offset(0);
        assert!((sandbox_now() - crate::now_ms()).abs() < 1000, "set back");
    }
}
