//! Downloads of finished videos (issue 44, part 5). Prints DESIGN.md §9 lines:
//!   bench: zip_download_peak_rss_mb <n> MB — the peak resident memory of the whole process (server
//!                                            and the client reading the body) while a zip of 20 × 30 MB
//!                                            finished videos is downloaded once over HTTP; the
//!                                            issue's bound is 100 MB (the zip is streamed, never held)
//!   bench: zip_download_added_rss_mb <n> MB — of that peak, what the download added over the idle
//!                                            server's
//!   bench: zip_download_mb_per_s <n>       — that download's rate (local files, STORE)
//! Usage: cargo run --release -p app --example zip_bench   (BENCH_ZIP_FILES, BENCH_ZIP_MB: 20, 30)

use std::time::Instant;

#[path = "../common/server.rs"]
mod server;

fn peak_rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap_or("0")
                    .parse::<u64>()
                    .unwrap_or(0)
            })
        })
        .unwrap_or(0)
        / 1024
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let files = env("BENCH_ZIP_FILES", 20);
    let mb = env("BENCH_ZIP_MB", 30);
    let server::Server {
        dir,
        db,
        state,
        addr,
    } = server::start("zipbench").await?;
    let mid: i64 = sqlx::query_scalar("SELECT id FROM merchants ORDER BY id LIMIT 1")
        .fetch_one(&db.pool)
        .await?;

    // The finished videos, written to the store as a stream (never whole in memory), put into the
    // library as an import does.
    let mut ids = vec![];
    for i in 0..files {
        let key = media::Storage::new_key(mid, "mp4");
        let body: media::storage::Body = Box::pin(tokio::io::AsyncReadExt::take(
            tokio::io::repeat(b'a' + (i % 26) as u8),
            mb * 1_000_000,
        ));
        state.storage.store().put_stream(&key, body).await?;
        let id = store::clip::import_variant(&db, mid, 1_000_000 + i as i64, 1000, &key, "")
            .await?
            .expect("a new variant");
        ids.push(id);
    }
    let exp = domain::now_ms() + 3_600_000;
    let url = format!(
        "http://{addr}{}",
        services::links::zip_url(&state.jwt_key, mid, &ids, exp)
    );
    let before = peak_rss_mb();
    let http = reqwest::Client::new();
    let t = Instant::now();
    let mut res = http.get(&url).send().await?;
    anyhow::ensure!(res.status() == 200, "zip answered {}", res.status());
    let mut n = 0u64;
    while let Some(chunk) = res.chunk().await? {
        n += chunk.len() as u64;
    }
    let secs = t.elapsed().as_secs_f64();
    anyhow::ensure!(n >= files * mb * 1_000_000, "the zip was {n} bytes");
    let peak = peak_rss_mb();
    eprintln!("(peak before the download {before} MB; {n} bytes in {secs:.1} s)");
    println!("bench: zip_download_peak_rss_mb {peak} MB");
    // What the download itself added over the idle server's high-water mark (a debug build's idle
    // server alone is near 100 MB, its code pages included).
    println!(
        "bench: zip_download_added_rss_mb {} MB",
        peak.saturating_sub(before)
    );
    println!(
        "bench: zip_download_mb_per_s {:.0}",
        n as f64 / 1e6 / secs.max(0.001)
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
