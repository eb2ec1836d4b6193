//! Matrix benchmarks (issue: matrix publishing). Prints DESIGN.md §9 lines:
//!   bench: plan_1000x30x3_ms <ms> ms      — distribution plan of 1,000 accounts × 30 days × 3 a day
//!   bench: plan_vs_sort_floor <ratio> x   — the same against sorting 90,000 timestamps (measured in this run)
//!   bench: publish_items_per_s <n>        — items taken from "due" to "published" (verified in the
//!                                           account's work list) by the real publisher + sandbox
//!   bench: publish_vs_raw_adapter <ratio> x — against calling upload+create+list directly (same run)
//!   bench: publish_peak_rss_mb <n> MB
//! Usage: cargo run --release -p app --example publish_bench   (BENCH_PUBLISH_ITEMS, default 10000)

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

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

fn bench_plan() {
    use domain::matrix::*;
    let s = Schedule {
        mode: TimeMode::Random,
        start_day: day_of(domain::now_ms()) + 1,
        days: 30,
        daily: 3,
        times: vec![],
    };
    let n = 1000 * 30 * 3;
    let t = Instant::now();
    let d = distribute(1000, n, n, &s, 0, &HashSet::new(), 42);
    let plan_ms = t.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(d.slots.len(), n);
    let mut v: Vec<i64> = d.slots.iter().map(|x| x.at ^ 0x5555).collect();
    let t = Instant::now();
    v.sort_unstable();
    let floor_ms = t.elapsed().as_secs_f64() * 1000.0;
    println!("bench: plan_1000x30x3_ms {plan_ms:.1} ms");
    println!(
        "bench: plan_vs_sort_floor {:.1} x",
        plan_ms / floor_ms.max(0.001)
    );
}

async fn qr_account(
    ad: &Arc<dyn platforms::Adapter>,
    http: &reqwest::Client,
    n: usize,
) -> platforms::TokenSet {
    let q = ad.start_qr_login().await.unwrap();
    // The sandbox names the account after the nickname: one nickname per account.
    http.post(&q.qr_url)
        .form(&[("nickname", format!("bench{n}"))])
        .send()
        .await
        .unwrap();
    match ad.poll_qr_login(&q.login_id, None).await.unwrap() {
        platforms::SessionState::LoggedIn { session } => session,
        s => panic!("{s:?}"),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    bench_plan();
    let items: usize = std::env::var("BENCH_PUBLISH_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let accounts = (items / 100).max(1);
    let server::Server {
        dir,
        db,
        state,
        addr,
    } = server::start("pubbench").await?;
    // Platform review never decides during the run: items stop at "published" (verified).
    let mut auth = reqwest::header::HeaderMap::new();
    auth.insert(
        platforms::sandbox::access::TOKEN_HEADER,
        state.sandbox_token.parse()?,
    );
    let http = reqwest::Client::builder().default_headers(auth).build()?;
    http.post(format!("http://{addr}/sandbox/_control/review"))
        .json(&serde_json::json!({"delay_ms": 86_400_000i64 * 365}))
        .send()
        .await?;

    // One small video file; every item gets its own media row (a video is published once).
    let file = dir.join("v.mp4");
    std::fs::write(&file, vec![0u8; 64 * 1024])?;
    let key = "bench/v.mp4";
    state.storage.put_file(key, &file).await?;
    let mid: i64 = sqlx::query_scalar("SELECT id FROM merchants LIMIT 1")
        .fetch_one(&db.pool)
        .await?;
    let (ad, _) = state
        .hub
        .adapter(platforms::Platform::Xhs)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut account_ids = vec![];
    for n in 0..accounts {
        let t = qr_account(&ad, &http, n).await;
        account_ids.push(
            state
                .hub
                .save_authorized(mid, platforms::Platform::Xhs, &t, 0, true)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?,
        );
    }
    let now = domain::now_ms();
    let mut new_items = vec![];
    for i in 0..items {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO media_files (merchant_id, library, kind, name, original_name, storage_key, mime, size, state, created_at, updated_at) \
             VALUES ($1, 'resource', 'video', $2, 'v.mp4', $3, 'video/mp4', 65536, 'ready', $4, $4) RETURNING id",
        )
        .bind(mid)
        .bind(format!("v{i}"))
        .bind(key)
        .bind(now)
        .fetch_one(&db.pool)
        .await?;
        new_items.push(store::matrix::NewItem {
            account_id: account_ids[i % accounts],
            platform: platforms::Platform::Xhs,
            video_key: format!("m:{id}"),
            video_name: format!("v{i}"),
            title: format!("bench post {i}"),
            comments: vec![],
            scheduled_at: now,
            post: None,
        });
    }
    let task = store::matrix::NewTask {
        name: "bench".into(),
        platform: domain::platform::TaskPlatform::Xhs,
        kind: domain::matrix::TaskKind::Video,
        config: domain::matrix::TaskConfig {
            topics: vec!["bench".into()],
            ..Default::default()
        },
        time_mode: domain::matrix::TimeMode::Timed,
        start_date: domain::matrix::fmt_day(domain::matrix::day_of(now)),
        days: 1,
        daily_quantity: 3,
        review_due_at: now,
        seed: 1,
        user_id: 0,
    };
    let tid = store::matrix::insert_task(&db, mid, &task, &new_items)
        .await?
        .expect("task stored");

    // Baseline in the same run: the adapter calls alone (upload + create + list), sequential per
    // account like the publisher, over 200 posts on a fresh account.
    let base_n = 200.min(items);
    let t = ad.clone();
    let creds = {
        let s = qr_account(&ad, &http, usize::MAX).await;
        platforms::Creds {
            open_id: s.open_id,
            token: s.access_token,
            ..Default::default()
        }
    };
    let req = platforms::PublishReq {
        video_path: state.storage.local_copy(key).await?.path().to_path_buf(),
        title: "raw".into(),
        topics: vec!["bench".into()],
        ..Default::default()
    };
    let started = Instant::now();
    for _ in 0..base_n {
        let v = t.upload(&creds, &req).await.unwrap();
        let id = t.create(&creds, &v, &req).await.unwrap();
        assert!(
            t.list_works(&creds, 50)
                .await
                .unwrap()
                .iter()
                .any(|w| w.item_id == id)
        );
    }
    let raw_per_s = base_n as f64 / started.elapsed().as_secs_f64();

    // The real publisher: approve, then the dispatcher + workers take every item to "published".
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let wcfg = store::jobs::WorkerConfig {
        poll_ms: 20,
        concurrency: 16,
        ..Default::default()
    };
    let started = Instant::now();
    store::matrix::decide_review(
        &db,
        tid,
        domain::matrix::Review::Approved,
        "",
        db.clock.platform_now(),
    )
    .await?;
    // decide_review() spaces overdue items a minute apart from now; the bench wants them all due now.
    sqlx::query("UPDATE matrix_items SET scheduled_at = $1 WHERE task_id = $2")
        .bind(now)
        .bind(tid)
        .execute(&db.pool)
        .await?;
    let d = tokio::spawn(services::matrix::publish::dispatch_loop(
        state.hub.clone(),
        Duration::from_millis(1000),
        stop_rx.clone(),
    ));
    let w = tokio::spawn(store::jobs::run_worker(
        db.clone(),
        services::jobs::registry(&state),
        wcfg,
        stop_rx,
    ));
    loop {
        let c = store::matrix::item_counts(&db, tid).await?;
        if c.published + c.released + c.failed == c.total {
            assert_eq!(c.failed, 0, "no item may fail");
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let per_s = items as f64 / started.elapsed().as_secs_f64();
    let _ = stop_tx.send(true);
    let _ = tokio::join!(d, w);
    let counts: serde_json::Value = http
        .get(format!("http://{addr}/sandbox/_control/counts"))
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(
        counts["total_creates"].as_u64(),
        Some((items + base_n) as u64),
        "every item exactly once"
    );
    println!("bench: publish_items_per_s {per_s:.0}");
    println!("bench: publish_vs_raw_adapter {:.2} x", per_s / raw_per_s);
    println!("bench: publish_peak_rss_mb {} MB", peak_rss_mb());
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
