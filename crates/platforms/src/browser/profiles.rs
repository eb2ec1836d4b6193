//! Cluster-safe browser profiles: an account's login lives beyond the node that made it.
//!
//! A node keeps each account's chromium profile in its local cache (`<data>/browser/profiles/<key>`),
//! but the login itself — Playwright's storage state: cookies, local storage, IndexedDB — is written
//! back after every flow to a [`ProfileStore`] (the database, sealed with the secret key), so any
//! worker node can act for the account: a node whose cached copy is older than the stored one (or
//! that has none) gives the browser the stored state before the flow starts. Tools that drive these
//! consoles keep the same per-account state file (social-auto-upload's `cookies/*.json`, written by
//! `context.storage_state()` after its QR login and loaded with `new_context(storage_state=...)`).
//!
//! A lease in the same store keeps two nodes (or two jobs of one node) from driving one account at
//! once: taken before the browser opens, renewed while the flow runs, given back after; a node that
//! dies loses its lease when it runs out ([`LEASE_TTL_MS`]), or at once to a process on the same
//! machine that sees the holder's process gone (a worker restarted after a kill -9): a holder names
//! its host, pid and process start ([`holder_name`], [`is_dead_here`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

/// How long a lease lasts without renewal: a dead node's account is free again after this.
pub const LEASE_TTL_MS: i64 = 120_000;
/// How often a held lease is renewed.
pub const LEASE_RENEW_MS: u64 = 30_000;
/// The local cache's note of which stored version its profile holds.
pub const VERSION_FILE: &str = "clipmatrix-state-version";

/// A stored login state and its version (each save adds one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredProfile {
    pub version: i64,
    /// Playwright's storage state as JSON.
    pub state: String,
}

/// Where profiles' states and leases live for the whole cluster. Errors are strings: a store that
/// cannot answer is logged and the flow goes on with the local copy (a lease error waits and retries).
#[async_trait::async_trait]
pub trait ProfileStore: Send + Sync {
    /// The stored state of a profile key (None: nothing stored yet).
    async fn load(&self, key: &str) -> Result<Option<StoredProfile>, String>;
    /// Stores a new state of a profile key; its new version.
    async fn save(&self, key: &str, state: &str) -> Result<i64, String>;
    /// Takes (or renews) the lease of a profile key for `holder` until `ttl_ms` from now; false
    /// while another holder's lease runs.
    async fn lease(&self, key: &str, holder: &str, ttl_ms: i64) -> Result<bool, String>;
    /// Gives a lease back (nothing when `holder` no longer holds it).
    async fn release(&self, key: &str, holder: &str);
    /// Who holds a profile's lease now (None: nobody, or it ran out).
    async fn holder(&self, key: &str) -> Result<Option<String>, String>;
    /// Takes a lease from `from` (a holder known dead) for `to`; false when `from` no longer holds it.
    async fn take_over(&self, key: &str, from: &str, to: &str, ttl_ms: i64)
    -> Result<bool, String>;
}

fn this_host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// When a process started (clock ticks since boot, `/proc/<pid>/stat` field 22): tells a pid reused
/// by a new process from the one that held a lease.
fn process_start(pid: u32) -> Option<u64> {
    super::driver::proc_stat(pid, 19)?.parse().ok()
}

/// A lease holder's name for one use: `<host>/<pid>/<process start>/<random>`.
pub fn holder_name() -> String {
    let pid = std::process::id();
    format!(
        "{}/{pid}/{}/{:08x}",
        this_host(),
        process_start(pid).unwrap_or(0),
        rand::random::<u32>()
    )
}

/// Is `holder` a process of this machine that is gone (no such pid, or a pid now of a process
/// started later)? Holders of other machines are never judged: their leases run out.
pub fn is_dead_here(holder: &str) -> bool {
    let parts: Vec<&str> = holder.split('/').collect();
    let [host, pid, start, _] = parts[..] else {
        return false;
    };
    let (Ok(pid), Ok(start)) = (pid.parse::<u32>(), start.parse::<u64>()) else {
        return false;
    };
    host == this_host() && process_start(pid) != Some(start)
}

/// The version of the stored state the local profile holds (None: unknown, so restore).
pub fn local_version(profile: &Path) -> Option<i64> {
    std::fs::read_to_string(profile.join(VERSION_FILE))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Notes that the local profile holds stored version `v`.
pub fn set_local_version(profile: &Path, v: i64) {
    let _ = std::fs::create_dir_all(profile);
    let _ = std::fs::write(profile.join(VERSION_FILE), v.to_string());
}

/// A store in memory: one process's nodes share it (the platform tests' two drivers).
#[derive(Default)]
pub struct MemoryProfiles {
    /// key -> (state, lease holder, lease until)
    rows: Mutex<HashMap<String, (StoredProfile, String, i64)>>,
}

fn empty_row() -> (StoredProfile, String, i64) {
    let none = StoredProfile {
        version: 0,
        state: String::new(),
    };
    (none, String::new(), 0)
}

impl MemoryProfiles {
    fn now() -> i64 {
        domain::now_ms()
    }
}

#[async_trait::async_trait]
impl ProfileStore for MemoryProfiles {
    async fn load(&self, key: &str) -> Result<Option<StoredProfile>, String> {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        Ok(rows.get(key).map(|r| r.0.clone()).filter(|p| p.version > 0))
    }

    async fn save(&self, key: &str, state: &str) -> Result<i64, String> {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        let r = rows.entry(key.to_string()).or_insert_with(empty_row);
        r.0.version += 1;
        r.0.state = state.to_string();
        Ok(r.0.version)
    }

    async fn lease(&self, key: &str, holder: &str, ttl_ms: i64) -> Result<bool, String> {
        let now = Self::now();
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        let r = rows.entry(key.to_string()).or_insert_with(empty_row);
        if r.1.is_empty() || r.1 == holder || r.2 < now {
            r.1 = holder.to_string();
            r.2 = now + ttl_ms;
            return Ok(true);
        }
        Ok(false)
    }

    async fn release(&self, key: &str, holder: &str) {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = rows.get_mut(key)
            && r.1 == holder
        {
            r.1.clear();
            r.2 = 0;
        }
    }

    async fn holder(&self, key: &str) -> Result<Option<String>, String> {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        Ok(rows
            .get(key)
            .filter(|r| !r.1.is_empty() && r.2 >= Self::now())
            .map(|r| r.1.clone()))
    }

    async fn take_over(
        &self,
        key: &str,
        from: &str,
        to: &str,
        ttl_ms: i64,
    ) -> Result<bool, String> {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        match rows.get_mut(key) {
            Some(r) if r.1 == from => {
                r.1 = to.to_string();
                r.2 = Self::now() + ttl_ms;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lease_is_one_holders_until_given_back() {
        let s = MemoryProfiles::default();
        assert!(s.lease("k", "a", 60_000).await.unwrap());
        assert!(s.lease("k", "a", 60_000).await.unwrap(), "renewal");
        assert!(!s.lease("k", "b", 60_000).await.unwrap());
        s.release("k", "b").await;
        assert!(!s.lease("k", "b", 60_000).await.unwrap(), "not b's to give");
        s.release("k", "a").await;
        assert!(s.lease("k", "b", 60_000).await.unwrap());
        // A lease that ran out is anyone's.
        assert!(s.lease("j", "a", -1).await.unwrap());
        assert!(s.lease("j", "b", 60_000).await.unwrap());
    }

    #[test]
    fn only_a_gone_process_of_this_machine_is_dead() {
        let me = holder_name();
        assert!(!is_dead_here(&me), "{me}");
        let mut parts: Vec<String> = me.split('/').map(str::to_string).collect();
        parts[1] = "4194304".into(); // above pid_max's default: no such process
        assert!(is_dead_here(&parts.join("/")));
        parts[1] = std::process::id().to_string();
        parts[2] = "1".into(); // this pid, but a process started at another time
        assert!(is_dead_here(&parts.join("/")));
        parts[0] = "another-host".into();
        assert!(
            !is_dead_here(&parts.join("/")),
            "other machines' leases run out"
        );
        assert!(!is_dead_here("garbage"));
    }

    #[tokio::test]
    async fn saves_count_versions() {
        let s = MemoryProfiles::default();
        assert_eq!(s.load("k").await.unwrap(), None);
        s.lease("k", "a", 1000).await.unwrap();
        assert_eq!(s.load("k").await.unwrap(), None, "a lease stores no state");
        assert_eq!(s.save("k", "{}").await.unwrap(), 1);
        assert_eq!(s.save("k", "{\"a\":1}").await.unwrap(), 2);
        assert_eq!(s.load("k").await.unwrap().unwrap().state, "{\"a\":1}");
        let dir = std::env::temp_dir().join(format!("cm-prof-{}", std::process::id()));
        assert_eq!(local_version(&dir), None);
        set_local_version(&dir, 2);
        assert_eq!(local_version(&dir), Some(2));
        let _ = std::fs::remove_dir_all(dir);
    }
}
