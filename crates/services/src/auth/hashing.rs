//! Password hashes run off the async threads, at most `2 × cores` at once: each costs tens of ms of
//! a core and 19 MB of work memory, so a flood of sign-ins from many addresses must queue, not fill
//! the memory. A check waits its turn for up to `QUEUE_MS`, then answers 429. Its slot is held by
//! the hashing thread itself, so a client that gives up does not free a slot still hashing. Devices
//! that signed in before have a few slots of their own, so a flood does not keep their owners out.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a check waits for a slot before it is refused.
pub const QUEUE_MS: u64 = 5_000;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Hashes at once: twice the cores (within the pool of work memory `store::auth::password` keeps).
pub fn slots() -> usize {
    (2 * cores()).min(store::auth::password::POOL / 2)
}

/// Checks at once for devices that signed in before, besides [`slots`].
pub fn known_slots() -> usize {
    cores().min(store::auth::password::POOL / 4)
}

static GATE: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(slots()));
static KNOWN: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(known_slots()));

/// Runs one hash on a blocking thread once a slot of `gate` is free.
async fn run<R: Send + 'static>(
    gate: &'static Semaphore,
    f: impl FnOnce() -> R + Send + 'static,
) -> ApiResult<R> {
    let permit = tokio::time::timeout(Duration::from_millis(QUEUE_MS), gate.acquire())
        .await
        .map_err(|_| {
            ApiError::TooMany(
                Msg::PasswordChecksBusy,
                vec![("seconds", (QUEUE_MS / 1000).to_string())],
            )
        })?
        .map_err(|e| ApiError::Internal(e.into()))?;
    tokio::task::spawn_blocking(move || {
        let _slot = permit;
        f()
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))
}

/// Whether `password` matches the PHC string.
pub async fn verify(password: &str, phc: &str) -> ApiResult<bool> {
    verify_in(&GATE, password, phc).await
}

/// [`verify`] for a device that signed in before (its own slots).
pub async fn verify_known(password: &str, phc: &str) -> ApiResult<bool> {
    verify_in(&KNOWN, password, phc).await
}

async fn verify_in(gate: &'static Semaphore, password: &str, phc: &str) -> ApiResult<bool> {
    let (password, phc) = (password.to_string(), phc.to_string());
    run(gate, move || store::auth::password::verify(&password, &phc)).await
}

/// A new PHC string for `password`.
pub async fn hash(password: &str) -> ApiResult<String> {
    let password = password.to_string();
    run(&GATE, move || store::auth::password::hash(&password)).await
}

#[cfg(test)]
mod tests {
    /// Resident and peak resident memory of this process, in MB.
    fn rss_mb() -> (u64, u64) {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb = |key: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (kb("VmRSS:") / 1024, kb("VmHWM:") / 1024)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_burst_of_checks_stays_within_the_slots_and_gives_the_memory_back() {
        let phc = store::auth::password::hash("right-password-1");
        let (before, _) = rss_mb();
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..40 {
            let phc = phc.clone();
            tasks.spawn(async move { super::verify(&format!("wrong-{i}"), &phc).await });
        }
        let mut answered = 0;
        while let Some(r) = tasks.join_next().await {
            // Refused checks (busy) are fine; a wrong password never matches.
            if let Ok(ok) = r.unwrap() {
                assert!(!ok);
                answered += 1;
            }
        }
        assert!(answered > 0);
        let (after, peak) = rss_mb();
        eprintln!(
            "rss before {before} MB, peak {peak} MB, after {after} MB ({} slots)",
            super::slots()
        );
        // One work memory (19 MB) per slot at most, plus the runtime's own growth.
        let budget = 20 * (super::slots() + super::known_slots()) as u64 + 40;
        assert!(peak <= before + budget, "peak {peak} MB from {before} MB");
        assert!(after <= before + budget, "idle {after} MB from {before} MB");
    }
}
