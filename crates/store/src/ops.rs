//! Running several nodes: cluster locks for the background loops, and the job figures `/metrics`
//! reads (from the database, so every API node reports the whole cluster).

use crate::Db;
use domain::jobs::JobState::{Dead, Done, Failed, Queued, Running};

/// The cluster-wide locks of one node: PostgreSQL advisory locks, all on one connection this node
/// keeps, so they go the moment the node dies (its connection closes) and another node takes over at
/// its next try. SQLite is one machine's database: its node always leads.
#[derive(Default)]
pub struct Leader {
    conn: tokio::sync::Mutex<Option<sqlx::pool::PoolConnection<sqlx::Any>>>,
    held: std::sync::Mutex<std::collections::HashSet<i64>>,
}

/// A lock's number: a stable hash of its name (FNV-1a), the same on every node and build.
pub fn lock_key(name: &str) -> i64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h as i64
}

/// The locks' connection is closed, not returned to the pool: back in the pool it would keep the locks
/// (they belong to the session) while this node no longer acts on them.
impl Drop for Leader {
    fn drop(&mut self) {
        if let Some(c) = self.conn.get_mut().take() {
            drop(c.detach());
        }
    }
}

impl Db {
    /// Closes the database: the cluster locks first (another node takes over at once), then the pool
    /// (which would otherwise wait for the locks' connection forever).
    pub async fn close(&self) {
        if let Some(mut c) = self.leader.conn.lock().await.take() {
            // Unlocked before the goodbye: the server ends a closed session a moment later.
            let _ = sqlx::query("SELECT pg_advisory_unlock_all()")
                .execute(&mut *c)
                .await;
            let _ = c.close().await;
        }
        self.pool.close().await;
    }

    /// Whether this node runs the cluster's one instance of `name` (the publish dispatcher, a
    /// scheduler) now. A database error counts as not leading: the loop skips a pass.
    pub async fn lead(&self, name: &str) -> bool {
        if self.backend == crate::Backend::Sqlite {
            return true;
        }
        let key = lock_key(name);
        let mut slot = self.leader.conn.lock().await;
        if slot.is_none() {
            match self.pool.acquire().await {
                Ok(c) => {
                    *slot = Some(c);
                    // A new connection holds nothing yet.
                    self.leader
                        .held
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .clear();
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cluster lock: no connection");
                    return false;
                }
            }
        }
        let Some(conn) = slot.as_mut() else {
            return false;
        };
        let held = self
            .leader
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&key);
        // Held already: the connection must still be alive for the lock to be ours.
        let r = if held {
            sqlx::query("SELECT 1")
                .execute(&mut **conn)
                .await
                .map(|_| true)
        } else {
            sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1)")
                .bind(key)
                .fetch_one(&mut **conn)
                .await
        };
        match r {
            Ok(won) => {
                if won && !held {
                    self.leader
                        .held
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(key);
                    tracing::info!(lock = name, "this node now runs it for the cluster");
                }
                won
            }
            Err(e) => {
                tracing::warn!(error = %e, lock = name, "cluster lock: connection lost");
                *slot = None;
                false
            }
        }
    }
}

/// Jobs waiting or running of one kind: how many, and since when the oldest one is due (queued) or
/// has been running.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct QueueDepth {
    #[sqlx(try_from = "String")]
    pub kind: domain::jobs::JobKind,
    #[sqlx(try_from = "String")]
    pub state: domain::jobs::JobState,
    pub count: i64,
    pub oldest: Option<i64>,
}

/// Queued (due and backed-off) and running jobs per kind.
pub async fn queue_depth(db: &Db, now: i64) -> sqlx::Result<Vec<QueueDepth>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT kind, CASE WHEN state = '{Running}' THEN 'running' ELSE 'queued' END AS state, \
           COUNT(*) AS count, \
           MIN(CASE WHEN state = '{Running}' THEN started_at WHEN run_at <= $1 THEN run_at END) AS oldest \
         FROM jobs WHERE state IN ('{Queued}', '{Failed}', '{Running}') AND {known} \
         GROUP BY kind, CASE WHEN state = '{Running}' THEN 'running' ELSE 'queued' END \
         ORDER BY kind, 2",
        known = crate::jobs::known_kinds()
    ))
    .bind(now)
    .fetch_all(&db.pool)
    .await
}

/// Run times (ms) of the jobs of `kinds` finished since `since`, newest first, at most `limit`.
pub async fn run_times(
    db: &Db,
    kind: domain::jobs::JobKind,
    since: i64,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(crate::sqlf!(
        "SELECT finished_at - started_at FROM jobs \
         WHERE finished_at >= $1 AND kind = $2 AND state = '{Done}' AND started_at IS NOT NULL \
         ORDER BY finished_at DESC LIMIT $3"
    ))
    .bind(since)
    .bind(kind.as_str())
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Jobs whose last attempt failed (waiting to retry, or dead), per kind and error text.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Failures {
    #[sqlx(try_from = "String")]
    pub kind: domain::jobs::JobKind,
    #[sqlx(try_from = "String")]
    pub state: domain::jobs::JobState,
    pub error: String,
    pub count: i64,
}

pub async fn failures(db: &Db, since: i64) -> sqlx::Result<Vec<Failures>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT kind, state, COALESCE(last_error, '') AS error, COUNT(*) AS count FROM jobs \
         WHERE state IN ('{Failed}', '{Dead}') AND updated_at >= $1 AND {known} \
         GROUP BY kind, state, COALESCE(last_error, '') ORDER BY 4 DESC LIMIT 500",
        known = crate::jobs::known_kinds()
    ))
    .bind(since)
    .fetch_all(&db.pool)
    .await
}
