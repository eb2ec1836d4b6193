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
//! dies loses its lease when it runs out ([`LEASE_TTL_MS`]).

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

    /// Who holds a profile's lease now (None: nobody, or it ran out).
    pub fn holder(&self, key: &str) -> Option<String> {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        rows.get(key)
            .filter(|r| !r.1.is_empty() && r.2 >= Self::now())
            .map(|r| r.1.clone())
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
