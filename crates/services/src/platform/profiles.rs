//! The cluster's copy of each creator-console account's browser login, sealed in the database
//! (`store::matrix::profiles`), and the lease that keeps two nodes from driving one account at once:
//! the [`ProfileStore`] the browser adapters of every node share.

use platforms::browser::{ProfileStore, StoredProfile};
use store::Db;
use store::secrets::Sealer;

pub struct DbProfiles {
    pub db: Db,
    pub sealer: Sealer,
}

#[async_trait::async_trait]
impl ProfileStore for DbProfiles {
    async fn load(&self, key: &str) -> Result<Option<StoredProfile>, String> {
        let row = store::matrix::profile_state(&self.db, key)
            .await
            .map_err(|e| e.to_string())?;
        Ok(row.and_then(|(version, sealed)| {
            // A state sealed under another key (the key changed) is as good as none.
            Some(StoredProfile {
                version,
                state: self.sealer.open(&sealed)?,
            })
        }))
    }

    async fn save(&self, key: &str, state: &str) -> Result<i64, String> {
        store::matrix::save_profile_state(
            &self.db,
            key,
            &self.sealer.seal(state),
            state.len() as i64,
        )
        .await
        .map_err(|e| e.to_string())
    }

    async fn lease(&self, key: &str, holder: &str, ttl_ms: i64) -> Result<bool, String> {
        store::matrix::take_profile_lease(&self.db, key, holder, ttl_ms)
            .await
            .map_err(|e| e.to_string())
    }

    async fn holder(&self, key: &str) -> Result<Option<String>, String> {
        store::matrix::profile_lease_holder(&self.db, key)
            .await
            .map_err(|e| e.to_string())
    }

    async fn take_over(
        &self,
        key: &str,
        from: &str,
        to: &str,
        ttl_ms: i64,
    ) -> Result<bool, String> {
        store::matrix::take_over_profile_lease(&self.db, key, from, to, ttl_ms)
            .await
            .map_err(|e| e.to_string())
    }

    async fn release(&self, key: &str, holder: &str) {
        if let Err(e) = store::matrix::drop_profile_lease(&self.db, key, holder).await {
            tracing::warn!(key, err = %e, "profile lease not given back; it runs out by itself");
        }
    }
}
