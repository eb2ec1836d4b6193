//! Request budgets shared by areas (sign-in failures, the NFC tap page, auditions, API tokens). How fast
//! sign-ins may fail: every password check costs an argon2 hash (tens of ms of a core and 19 MB),
//! so failed sign-ins are rationed before any hash runs: per client address, and for the whole server
//! so that many addresses together cannot fill the cores either. A successful sign-in gives its
//! attempt back: only failures use the budget. The clock is injected so tests move time, not wait.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Unix ms; `domain::now_ms` in the server, a hand-moved value in tests.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// A token bucket: `burst` attempts at once, then `per_min` a minute.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub burst: f64,
    pub per_min: f64,
}

/// One address: 10 failures at once, then one every 6 s.
pub const PER_ADDRESS: Rule = Rule {
    burst: 10.0,
    per_min: 10.0,
};
/// The whole server: 30 at once, then 10 a second (about a third of one core of hashing).
pub const SERVER: Rule = Rule {
    burst: 30.0,
    per_min: 600.0,
};
/// One personal API token: 120 calls at once, then 10 a second (an agent's pace, not a flood).
pub const PER_TOKEN: Rule = Rule {
    burst: 120.0,
    per_min: 600.0,
};

/// The budgets of API tokens: each token's own (`LoginLimits::take_own` with the token's key); the
/// server's shared budget is not used.
pub fn per_token(clock: Clock) -> LoginLimits {
    LoginLimits::with_rules(clock, PER_TOKEN, SERVER)
}

/// Addresses remembered at most; full buckets are forgotten first (they hold nothing).
const TRACKED: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Level {
    tokens: f64,
    at: i64,
}

impl Level {
    fn full(rule: Rule, now: i64) -> Level {
        Level {
            tokens: rule.burst,
            at: now,
        }
    }
    fn refill(&mut self, rule: Rule, now: i64) {
        let gained = (now - self.at).max(0) as f64 * rule.per_min / 60_000.0;
        self.tokens = (self.tokens + gained).min(rule.burst);
        self.at = now.max(self.at);
    }
    /// Ms until one attempt is available again.
    fn wait_ms(&self, rule: Rule) -> i64 {
        ((1.0 - self.tokens).max(0.0) * 60_000.0 / rule.per_min).ceil() as i64
    }
}

/// Which budget ran out, and when the next attempt is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    pub wait_ms: i64,
}

pub struct LoginLimits {
    clock: Clock,
    address: Rule,
    server: Rule,
    levels: Mutex<(Level, HashMap<String, Level>)>,
}

impl LoginLimits {
    pub fn new(clock: Clock) -> LoginLimits {
        Self::with_rules(clock, PER_ADDRESS, SERVER)
    }

    pub fn with_rules(clock: Clock, address: Rule, server: Rule) -> LoginLimits {
        let now = clock();
        LoginLimits {
            clock,
            address,
            server,
            levels: Mutex::new((Level::full(server, now), HashMap::new())),
        }
    }

    pub fn now(&self) -> i64 {
        (self.clock)()
    }

    /// Takes one attempt from the address's budget and the server's, or refuses without taking any.
    pub fn take(&self, addr: &str) -> Result<(), Refused> {
        self.take_from(addr, true)
    }

    /// Takes one attempt from `key`'s own budget only: a device that signed in before is not held
    /// back by what other clients spend of the server's budget.
    pub fn take_own(&self, key: &str) -> Result<(), Refused> {
        self.take_from(key, false)
    }

    fn take_from(&self, addr: &str, shared: bool) -> Result<(), Refused> {
        let now = self.now();
        let mut guard = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        let (server, addresses) = &mut *guard;
        server.refill(self.server, now);
        let mine = addresses
            .entry(addr.to_string())
            .or_insert(Level::full(self.address, now));
        mine.refill(self.address, now);
        if mine.tokens < 1.0 {
            return Err(Refused {
                wait_ms: mine.wait_ms(self.address),
            });
        }
        if shared && server.tokens < 1.0 {
            return Err(Refused {
                wait_ms: server.wait_ms(self.server),
            });
        }
        mine.tokens -= 1.0;
        if shared {
            server.tokens -= 1.0;
        }
        if addresses.len() > TRACKED {
            let rule = self.address;
            addresses.retain(|_, l| {
                l.refill(rule, now);
                l.tokens < rule.burst
            });
        }
        Ok(())
    }

    /// A sign-in that succeeded: its attempt goes back to both budgets.
    pub fn give_back(&self, addr: &str) {
        self.give_back_to(addr, true)
    }

    /// Gives back an attempt taken by [`LoginLimits::take_own`].
    pub fn give_back_own(&self, key: &str) {
        self.give_back_to(key, false)
    }

    fn give_back_to(&self, addr: &str, shared: bool) {
        let mut guard = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        let (server, addresses) = &mut *guard;
        if shared {
            server.tokens = (server.tokens + 1.0).min(self.server.burst);
        }
        if let Some(l) = addresses.get_mut(addr) {
            l.tokens = (l.tokens + 1.0).min(self.address.burst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI64, Ordering};

    fn clock() -> (Arc<AtomicI64>, Clock) {
        let t = Arc::new(AtomicI64::new(1_000_000));
        let t2 = t.clone();
        (t, Arc::new(move || t2.load(Ordering::SeqCst)))
    }

    #[test]
    fn one_address_gets_ten_failures_then_one_every_six_seconds() {
        let (t, c) = clock();
        let l = LoginLimits::new(c);
        for i in 0..10 {
            assert!(l.take("1.1.1.1").is_ok(), "attempt {i}");
        }
        assert_eq!(l.take("1.1.1.1"), Err(Refused { wait_ms: 6000 }));
        // Another address is not affected.
        assert!(l.take("2.2.2.2").is_ok());
        t.fetch_add(5_999, Ordering::SeqCst);
        assert_eq!(l.take("1.1.1.1"), Err(Refused { wait_ms: 1 }));
        t.fetch_add(1, Ordering::SeqCst);
        assert!(l.take("1.1.1.1").is_ok());
        assert!(l.take("1.1.1.1").is_err());
        // After a quiet minute the whole burst is back.
        t.fetch_add(60_000, Ordering::SeqCst);
        for _ in 0..10 {
            assert!(l.take("1.1.1.1").is_ok());
        }
    }

    #[test]
    fn the_server_limit_holds_across_addresses() {
        let (t, c) = clock();
        let l = LoginLimits::new(c);
        for i in 0..30 {
            assert!(l.take(&format!("10.0.0.{i}")).is_ok(), "attempt {i}");
        }
        let r = l.take("10.0.1.1").unwrap_err();
        assert_eq!(r.wait_ms, 100);
        t.fetch_add(100, Ordering::SeqCst);
        assert!(l.take("10.0.1.1").is_ok());
        assert!(l.take("10.0.1.2").is_err());
        // A refusal takes nothing: the address still has its whole burst when the server has room.
        t.fetch_add(10_000, Ordering::SeqCst);
        for _ in 0..10 {
            assert!(l.take("10.0.1.2").is_ok());
        }
    }

    #[test]
    fn successful_sign_ins_do_not_use_the_budget() {
        let (_, c) = clock();
        let l = LoginLimits::new(c);
        for _ in 0..100 {
            l.take("1.1.1.1").unwrap();
            l.give_back("1.1.1.1");
        }
        assert!(l.take("1.1.1.1").is_ok());
    }

    #[test]
    fn an_own_budget_ignores_the_servers() {
        let (_, c) = clock();
        let l = LoginLimits::new(c);
        for i in 0..30 {
            l.take(&format!("10.0.0.{i}")).unwrap();
        }
        assert!(l.take("10.0.1.1").is_err());
        // A known device still has its own ten, and spends none of the server's.
        for _ in 0..10 {
            assert!(l.take_own("device:1").is_ok());
        }
        assert!(l.take_own("device:1").is_err());
        l.give_back_own("device:1");
        assert!(l.take_own("device:1").is_ok());
        assert!(l.take("10.0.1.1").is_err());
    }

    #[test]
    fn many_addresses_do_not_grow_memory_forever() {
        let (t, c) = clock();
        let l = LoginLimits::new(c);
        for i in 0..(TRACKED + 1) {
            l.take(&format!("a{i}")).unwrap();
            if i % 25 == 24 {
                t.fetch_add(3_000, Ordering::SeqCst);
            }
        }
        let tracked = l.levels.lock().unwrap().1.len();
        assert!(tracked < TRACKED, "{tracked}");
    }
}
