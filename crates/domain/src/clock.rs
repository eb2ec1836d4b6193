//! The platform clock: wall time plus an offset the sandbox can move (PLATFORMS.md "injectable
//! clock"). Token lifetimes, publish schedules and platform review use it; sessions, job leases and
//! logs keep using real time (`crate::now_ms`), so moving the sandbox clock by days does not sign
//! anyone out. In a real deployment the offset stays 0.
//!
//! Two readings: [`Clock::sandbox_now`] is the simulated platforms' time and always carries the
//! offset; [`Clock::platform_now`] is the product's own time (activities, coupons, release dates,
//! schedules) and carries it only when the test/demo setting [`Clock::set_app_follows`] is on (off by
//! default), so a sandbox clock moved forward does not end every tenant's activities.
//!
//! A clock is a value, opened once per application (`store::Db` carries it, the sandbox and the
//! platform adapters get a copy): two apps in one process (tests) each move their own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// One application's clock; clones share it.
#[derive(Clone, Debug, Default)]
pub struct Clock(Arc<Offsets>);

#[derive(Debug, Default)]
struct Offsets {
    sandbox_ms: AtomicI64,
    app_follows: AtomicBool,
}

impl Clock {
    /// A clock at wall time (offset 0), the product not following the sandbox.
    pub fn new() -> Clock {
        Clock::default()
    }

    /// Unix ms on the product's clock: the sandbox's when the product follows it, else wall time.
    pub fn platform_now(&self) -> i64 {
        crate::now_ms() + self.app_offset_ms()
    }

    /// Unix ms on the simulated platforms' clock.
    pub fn sandbox_now(&self) -> i64 {
        crate::now_ms() + self.offset_ms()
    }

    /// The sandbox clock's offset from wall time.
    pub fn offset_ms(&self) -> i64 {
        self.0.sandbox_ms.load(Ordering::Relaxed)
    }

    /// The product clock's offset: the sandbox's when it follows it, else 0.
    pub fn app_offset_ms(&self) -> i64 {
        if self.app_follows() {
            self.offset_ms()
        } else {
            0
        }
    }

    /// Whether moving the sandbox clock also moves the product's own time (a test/demo setting).
    pub fn set_app_follows(&self, on: bool) {
        self.0.app_follows.store(on, Ordering::Relaxed);
    }

    pub fn app_follows(&self) -> bool {
        self.0.app_follows.load(Ordering::Relaxed)
    }

    /// Moves the clock forward (a negative step is ignored: going back is [`Clock::set_offset`]'s,
    /// on purpose).
    pub fn advance(&self, ms: i64) -> i64 {
        self.0.sandbox_ms.fetch_add(ms.max(0), Ordering::Relaxed) + ms.max(0)
    }

    /// Sets the offset (never before wall time): 0 puts a clock moved forward back to real time.
    pub fn set_offset(&self, ms: i64) {
        self.0.sandbox_ms.store(ms.max(0), Ordering::Relaxed);
    }

    /// Moves the platform clock forward to the instant `ms` (nothing when it is already past it).
    /// Tests pin the time of day they run at with it, so they pass at any wall-clock hour.
    pub fn advance_to(&self, ms: i64) -> i64 {
        self.advance(ms - self.sandbox_now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_follows_the_sandbox_clock_only_when_asked() {
        let hour = 3_600_000;
        let clock = Clock::new();
        clock.advance(8 * 24 * hour);
        assert!(clock.sandbox_now() - crate::now_ms() >= 8 * 24 * hour - 1000);
        assert!(
            (clock.platform_now() - crate::now_ms()).abs() < 1000,
            "off by default"
        );
        clock.set_app_follows(true);
        assert!(clock.platform_now() - crate::now_ms() >= 8 * 24 * hour - 1000);
        clock.set_app_follows(false);
        clock.set_offset(0);
        assert!(
            (clock.sandbox_now() - crate::now_ms()).abs() < 1000,
            "set back"
        );
    }

    #[test]
    fn two_clocks_move_apart() {
        let (a, b) = (Clock::new(), Clock::new());
        a.advance(3_600_000);
        assert_eq!(b.offset_ms(), 0);
        let shared = a.clone();
        shared.advance(1);
        assert_eq!(a.offset_ms(), 3_600_001);
    }
}
