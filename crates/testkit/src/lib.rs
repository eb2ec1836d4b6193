//! What the crates' tests share (a dev-dependency only, never linked into the server): a fresh
//! PostgreSQL database, the first-run users' sign-ins, and the word distance the speech tests measure.

use sqlx::Connection;

/// The first-run users a test server is started with (`CLIPMATRIX_DEMO_PASSWORD`,
/// `CLIPMATRIX_ADMIN_PASSWORD`): the demo merchant's owner and the operator.
pub const DEMO_USER: &str = "demo";
pub const DEMO_PW: &str = "Demo12345";
pub const ADMIN_USER: &str = "admin";
pub const ADMIN_PW: &str = "Admin12345";

/// A database of its own on the PostgreSQL server of `pg` (a URL naming any database there), empty:
/// its URL. Its name is `cm_test_…` (what a cleanup may drop).
pub async fn fresh_pg_database(pg: &str) -> String {
    let mut admin = sqlx::postgres::PgConnection::connect(pg)
        .await
        .expect("the PostgreSQL URL must be reachable");
    let name = format!("cm_test_{}", unique_suffix());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .expect("the test role may create databases");
    let _ = admin.close().await;
    format!(
        "{}/{name}",
        pg.rsplit_once('/').expect("a URL with a database").0
    )
}

/// Lower-case letters and digits unique to this call: the process, the time and a counter.
fn unique_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!(
        "{:x}{:x}{n:x}",
        std::process::id(),
        nanos & 0xffff_ffff_ffff
    )
}

/// Edit distance over words (or any items: characters, syllables): substitutions, insertions, deletions.
pub fn word_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, y) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(x != y))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn word_distance_counts_edits() {
        let w = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(super::word_distance(&w("a b c"), &w("a b c")), 0);
        assert_eq!(super::word_distance(&w("a b c"), &w("a x c d")), 2);
        assert_eq!(super::word_distance(&[], &w("a b")), 2);
    }
}
