use sqlx::AnyPool;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The pool plus which backend it talks to, for the few statements that must differ.
#[derive(Clone)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// The cluster locks this node holds (`Db::lead`).
    pub(crate) leader: std::sync::Arc<crate::ops::Leader>,
    /// The application's clock (the platform and product time every area reads), shared with the
    /// sandbox and the platform adapters: opened with the database, so each app has its own.
    pub clock: domain::clock::Clock,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    /// One round trip to the database (the health check).
    pub async fn ping(&self) -> sqlx::Result<()> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Connects by URL (`sqlite://path` or `postgres://...`); a missing SQLite file is created.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            anyhow::bail!(
                "CLIPMATRIX_DATABASE_URL must start with sqlite:// or postgres://, got {url}"
            );
        };
        let url = match backend {
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_string(),
        };
        if backend == Backend::Sqlite
            && let Some(path) = url
                .strip_prefix("sqlite://")
                .and_then(|p| p.split('?').next())
            && let Some(dir) = std::path::Path::new(path).parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)?;
        }
        let max = if backend == Backend::Sqlite { 8 } else { 16 };
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the single writer; busy_timeout queues writers
                        // instead of failing them.
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA busy_timeout = 10000",
                            "PRAGMA foreign_keys = ON",
                            "PRAGMA synchronous = NORMAL",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        Ok(Db {
            pool,
            backend,
            leader: Default::default(),
            clock: Default::default(),
        })
    }

    /// A write transaction. On SQLite it takes the write lock up front (`BEGIN IMMEDIATE`), so a
    /// transaction that reads before it writes waits for the lock instead of failing with SQLITE_BUSY.
    pub async fn begin(&self) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Any>> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&self.pool).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
        }
        Ok(())
    }

    /// An operator setting (the title provider, the SMS gateway …), if set.
    pub async fn setting(&self, key: &str) -> sqlx::Result<Option<String>> {
        sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
    }

    /// Every setting whose key starts with `prefix` (one read for a family of keys).
    pub async fn settings_with_prefix(&self, prefix: &str) -> sqlx::Result<Vec<(String, String)>> {
        sqlx::query_as("SELECT key, value FROM settings WHERE key LIKE $1")
            .bind(format!("{prefix}%"))
            .fetch_all(&self.pool)
            .await
    }

    pub async fn set_setting(&self, key: &str, value: &str) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn delete_setting(&self, key: &str) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM settings WHERE key = $1")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A setting, created with `init` the first time it is read (e.g. the token signing key).
    pub async fn setting_or_init(
        &self,
        key: &str,
        init: impl FnOnce() -> String,
    ) -> sqlx::Result<String> {
        if let Some(v) =
            sqlx::query_scalar::<_, String>("SELECT value FROM settings WHERE key = $1")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?
        {
            return Ok(v);
        }
        let v = init();
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(&v)
        .execute(&self.pool)
        .await?;
        sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_one(&self.pool)
            .await
    }
}

/// The table and columns of the unique constraint an error violated, when the backend says
/// (SQLite in its message, PostgreSQL in the error's detail).
pub fn unique_columns(e: &sqlx::Error) -> Option<(String, Vec<String>)> {
    let sqlx::Error::Database(d) = e else {
        return None;
    };
    // SQLite: "UNIQUE constraint failed: matrix_groups.merchant_id, matrix_groups.name".
    if let Some((_, cols)) = d.message().split_once("UNIQUE constraint failed: ") {
        let cols: Vec<(&str, &str)> = cols
            .split(", ")
            .filter_map(|c| c.trim().split_once('.'))
            .collect();
        let table = cols.first()?.0.to_string();
        return Some((table, cols.iter().map(|(_, c)| c.to_string()).collect()));
    }
    // PostgreSQL: "Key (merchant_id, name)=(1, 华东门店) already exists."
    let pg = d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()?;
    let (cols, _) = pg.detail()?.strip_prefix("Key (")?.split_once(")=")?;
    Some((
        pg.table()?.to_string(),
        cols.split(", ").map(str::to_string).collect(),
    ))
}

/// True when the error is a unique-constraint violation (both backends).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            matches!(d.kind(), sqlx::error::ErrorKind::UniqueViolation)
                || d.message().contains("UNIQUE constraint failed")
        }
        _ => false,
    }
}

/// Deletes `owner`'s rows of `table` by id, all or none: false (and nothing deleted) when one of the ids
/// is not a row of `owner`'s, so a request naming another tenant's id answers "not found" and never
/// removes half of what it named. Repeated ids count once.
pub async fn delete_owned(db: &Db, table: &str, owner: i64, ids: &[i64]) -> sqlx::Result<bool> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut tx = db.begin().await?;
    for id in &ids {
        let n = sqlx::query(crate::sqlf!(
            "DELETE FROM {table} WHERE id = $1 AND merchant_id = $2"
        ))
        .bind(id)
        .bind(owner)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}
