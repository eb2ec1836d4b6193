//! /test (Administrator): a self-test of what the production flows stand on — the database, the
//! file store, ffmpeg, the platform adapters' app calls and the hot-list cache — each check timed
//! and answered with what it saw, so the operator can tell a broken install from a broken flow.

use crate::platform::Hub;
use platforms::{Board, Platform};
use std::time::{Duration, Instant};

/// One check's outcome; `detail` is what it saw (a version, a count) or why it failed.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
    pub ms: i64,
}

async fn timed<F>(name: &'static str, f: F) -> Check
where
    F: std::future::Future<Output = Result<String, String>>,
{
    let t = Instant::now();
    let r = f.await;
    let ms = t.elapsed().as_millis() as i64;
    match r {
        Ok(detail) => Check {
            name,
            ok: true,
            detail,
            ms,
        },
        Err(detail) => Check {
            name,
            ok: false,
            detail,
            ms,
        },
    }
}

/// Runs every check, one after another (each is quick; together well under the request timeout).
pub async fn run(h: &Hub, storage: &media::Storage) -> Vec<Check> {
    let mut out = vec![
        timed("database", async {
            h.db.ping().await.map_err(|e| e.to_string())?;
            Ok(format!("{:?}", h.db.backend))
        })
        .await,
    ];
    out.push(
        timed("storage", async {
            let tmp = storage.temp_path("txt").await.map_err(|e| e.to_string())?;
            tokio::fs::write(&tmp, b"selftest")
                .await
                .map_err(|e| e.to_string())?;
            let key = format!("selftest/{}.txt", store::random_token(12).to_lowercase());
            let size = storage
                .put_file(&key, &tmp)
                .await
                .map_err(|e| e.to_string())?;
            let back = storage.exists(&key).await;
            storage.delete(&key).await.map_err(|e| e.to_string())?;
            if !back || size != 8 {
                return Err(format!("wrote {size} bytes, read back: {back}"));
            }
            Ok(format!("write, read and delete of {key}"))
        })
        .await,
    );
    out.push(
        timed("ffmpeg", async {
            let v = media::ffmpeg::run(
                "ffmpeg",
                &media::ffmpeg::args(["-version"]),
                Duration::from_secs(10),
            )
            .await
            .map_err(|e| e.to_string())?;
            Ok(String::from_utf8_lossy(&v)
                .lines()
                .next()
                .unwrap_or("")
                .to_string())
        })
        .await,
    );
    for (name, p) in [("platform_dy", Platform::Dy), ("platform_ks", Platform::Ks)] {
        out.push(
            timed(name, async {
                // the flag is "this is the sandbox", not "this is live"
                let (a, sandbox) = h.adapter(p).await.map_err(|e| e.to_string())?;
                let mode = if sandbox { "sandbox" } else { "live" };
                if p == Platform::Ks {
                    // Kuaishou's open platform has no app-level data call to probe
                    // (docs/seo-platforms.md): the adapter's configuration is what can be checked.
                    return Ok(format!("{mode}: adapter ready (no app-level data API)"));
                }
                let words = a.hot_search().await.map_err(|e| e.en.clone())?;
                Ok(format!("{mode}: hot search answered {} words", words.len()))
            })
            .await,
        );
    }
    out.push(
        timed("billboards", async {
            let (a, _) = h.adapter(Platform::Dy).await.map_err(|e| e.to_string())?;
            let rows = a
                .billboard(Board::HotVideo)
                .await
                .map_err(|e| e.en.clone())?;
            Ok(format!("hot-video board answered {} rows", rows.len()))
        })
        .await,
    );
    out.push(
        timed("hot_list_cache", async {
            let rows = store::content::hotlists::boards(&h.db)
                .await
                .map_err(|e| e.to_string())?;
            let all = domain::content::hotlists::all_boards().len();
            let read = rows.iter().filter(|r| r.fetched_at > 0).count();
            let failing = rows.iter().filter(|r| !r.last_error.is_empty()).count();
            if read == 0 {
                return Err(format!("0 of {all} boards read yet"));
            }
            Ok(format!("{read} of {all} boards read, {failing} failing"))
        })
        .await,
    );
    out
}
