//! Auditions are free and use the one built-in engine, so each merchant gets one at a time and ten
//! a minute; beyond that a 429 says which and when to try again. Counted per process (the engine is
//! per process too).

use crate::error::{ApiError, ApiResult};
use crate::limits::{Clock, LoginLimits, Rule};
use domain::i18n::Msg;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// A merchant's auditions: ten at once, then ten a minute.
pub const PER_MERCHANT: Rule = Rule {
    burst: 10.0,
    per_min: 10.0,
};

/// No limit across merchants: the engine's turns share it between them.
const ALL_MERCHANTS: Rule = Rule {
    burst: 1e12,
    per_min: 1e12,
};

pub struct Auditions {
    rate: LoginLimits,
    playing: Arc<Mutex<HashSet<i64>>>,
}

/// A merchant's audition in flight; dropping it (when the engine has finished) lets the next start.
pub struct Playing {
    playing: Arc<Mutex<HashSet<i64>>>,
    mid: i64,
}

impl Drop for Playing {
    fn drop(&mut self) {
        lock(&self.playing).remove(&self.mid);
    }
}

fn lock(s: &Mutex<HashSet<i64>>) -> std::sync::MutexGuard<'_, HashSet<i64>> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

impl Auditions {
    pub fn new(clock: Clock) -> Auditions {
        Auditions {
            rate: LoginLimits::with_rules(clock, PER_MERCHANT, ALL_MERCHANTS),
            playing: Arc::default(),
        }
    }

    /// One more audition of `mid`: refused while one of theirs is in flight, or past the minute's
    /// budget.
    pub fn start(&self, mid: i64) -> ApiResult<Playing> {
        let playing = self.play(mid)?;
        self.rate.take(&mid.to_string()).map_err(|r| {
            ApiError::TooMany(
                Msg::AuditionsPerMinute,
                vec![
                    ("max", (PER_MERCHANT.per_min as i64).to_string()),
                    ("seconds", ((r.wait_ms + 999) / 1000).max(1).to_string()),
                ],
            )
        })?;
        Ok(playing)
    }

    /// A streamed audition's URL: it takes from the budget now, and plays (in flight) when fetched.
    pub fn admit(&self, mid: i64) -> ApiResult<()> {
        self.start(mid).map(drop)
    }

    /// Marks `mid`'s audition in flight, unless one already is.
    pub fn play(&self, mid: i64) -> ApiResult<Playing> {
        if !lock(&self.playing).insert(mid) {
            return Err(ApiError::TooMany(Msg::AuditionPlaying, vec![]));
        }
        Ok(Playing {
            playing: self.playing.clone(),
            mid,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn one_at_a_time_and_ten_a_minute_per_merchant() {
        let t = Arc::new(AtomicI64::new(1_000_000));
        let t2 = t.clone();
        let a = Auditions::new(Arc::new(move || t2.load(Ordering::SeqCst)));
        let first = a.start(1).unwrap();
        assert!(matches!(
            a.start(1),
            Err(ApiError::TooMany(Msg::AuditionPlaying, _))
        ));
        assert!(a.start(2).is_ok(), "another merchant is not held up");
        drop(first);
        for _ in 1..10 {
            a.start(1).unwrap();
        }
        match a.start(1) {
            Err(ApiError::TooMany(Msg::AuditionsPerMinute, args)) => {
                assert_eq!(args[1], ("seconds", "6".to_string()))
            }
            _ => panic!("the 11th in a minute is refused"),
        }
        t.fetch_add(6_000, Ordering::SeqCst);
        assert!(a.start(1).is_ok());
    }
}
