//! Activities and NFC benchmarks (issue: activities and NFC). Prints DESIGN.md §9 lines:
//!   bench: draws_per_second <n>            — concurrent draws (64 at a time, 1,000 customers) through
//!                                            the real draw transaction on SQLite
//!   bench: draws_vs_write_floor <ratio> x  — the same against bare one-row write transactions at the
//!                                            same concurrency (the database's ceiling, this run)
//!   bench: tap_page_ms <median> ms (p95 <ms>) — GET /t/<code> from a new phone (its second request,
//!                                            with the device cookie the first set): a video reserved, a
//!                                            signed Douyin share made through the sandbox, the page
//!   bench: tap_vs_health <ratio> x         — against GET /healthz on the same server (this run)
//! Usage: cargo run --release -p app --example activities_bench   (BENCH_DRAWS, default 5000)

use std::sync::Arc;
use std::time::Instant;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let draws: usize = std::env::var("BENCH_DRAWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let dir = std::env::temp_dir().join(format!("cm-actbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let cfg = app::Config::build(&[app::Layer {
        data_dir: Some(dir.clone()),
        demo_password: Some("Demo12345".into()),
        admin_password: Some("Admin12345".into()),
        ..Default::default()
    }]);
    let db = app::open_db(&cfg).await?;
    app::first_run(&db, &cfg).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    let mut state = api::AppState::new(db.clone(), app::settings(&cfg, &addr)).await?;
    // Every phone here comes from 127.0.0.1: the per-address budget would measure itself.
    state.public_limits = Arc::new(services::nfc::PublicLimits::unbounded());
    let router =
        api::app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mid: i64 = sqlx::query_scalar("SELECT id FROM merchants ORDER BY id LIMIT 1")
        .fetch_one(&db.pool)
        .await?;
    let now = db.clock.platform_now();

    // ---- draws ----
    let input = domain::activities::ActivityInput {
        name: "bench".into(),
        starts_at: now - 3_600_000,
        ends_at: now + 86_400_000 * 30,
        who: "anyone".into(),
        per_person: 1000,
        per_day: 100,
        color: String::new(),
        rules_text: String::new(),
        prizes: vec![domain::activities::PrizeInput {
            id: None,
            name: "coupon".into(),
            kind: "coupon".into(),
            odds: 20.0,
            stock: 100,
            per_person: 100,
            per_day: 100,
            description: String::new(),
            valid_days: 7,
        }],
    };
    let full = services::activities::add(&db, mid, &input, now).await?;
    let row = Arc::new(full.row);
    let sem = Arc::new(tokio::sync::Semaphore::new(64));
    let t = Instant::now();
    let mut tasks = vec![];
    for i in 0..draws {
        let (db, row, sem) = (db.clone(), row.clone(), sem.clone());
        tasks.push(tokio::spawn(async move {
            let _p = sem.acquire().await.unwrap();
            let person = format!("p{}", i % 1000);
            services::activities::draw(&db, &row, &person, "page", 0, now)
                .await
                .is_ok()
        }));
    }
    let mut ok = 0;
    for t in tasks {
        ok += t.await? as usize;
    }
    let draw_s = t.elapsed().as_secs_f64();
    let (orphans, over, coupons) = store::activities::integrity(&db, row.id).await?;
    assert_eq!((orphans, over, ok), (0, 0, draws), "draws went wrong");
    assert_eq!(coupons, 100, "the stock of 100 is issued exactly");
    // The floor: one-row write transactions at the same concurrency.
    let t = Instant::now();
    let mut tasks = vec![];
    for i in 0..draws {
        let (db, sem) = (db.clone(), sem.clone());
        tasks.push(tokio::spawn(async move {
            let _p = sem.acquire().await.unwrap();
            let mut tx = db.begin().await.unwrap();
            sqlx::query(
                "INSERT INTO activity_quota (scope, person, day, used) VALUES ('floor', $1, '', 1)",
            )
            .bind(format!("f{i}"))
            .execute(&mut *tx)
            .await
            .unwrap();
            tx.commit().await.unwrap();
        }));
    }
    for t in tasks {
        t.await?;
    }
    let floor_s = t.elapsed().as_secs_f64();
    let dps = draws as f64 / draw_s;
    println!("bench: draws_per_second {dps:.0}");
    println!(
        "bench: draws_vs_write_floor {:.2} x   (floor {:.0} tx/s)",
        floor_s / draw_s,
        draws as f64 / floor_s
    );

    // ---- tap page ----
    let taps = 300usize;
    let file = dir.join("v.mp4");
    std::fs::write(&file, vec![0u8; 64 * 1024])?;
    state.storage.put_file("bench/v.mp4", &file).await?;
    let group: i64 = sqlx::query_scalar(
        "INSERT INTO resource_groups (merchant_id, kind, name, created_at, updated_at) VALUES ($1, 'video', 'bench', $2, $2) RETURNING id",
    )
    .bind(mid)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    for i in 0..taps + 10 {
        sqlx::query(
            "INSERT INTO media_files (merchant_id, library, kind, group_id, name, original_name, storage_key, mime, size, \
             duration_ms, state, created_at, updated_at) VALUES ($1, 'resource', 'video', $2, $3, 'v.mp4', 'bench/v.mp4', \
             'video/mp4', 65536, 1000, 'ready', $4, $4)",
        )
        .bind(mid)
        .bind(group)
        .bind(format!("v{i}"))
        .bind(now)
        .execute(&db.pool)
        .await?;
    }
    let tag = services::nfc::add(
        &db,
        mid,
        &services::nfc::TagInput {
            name: "bench".into(),
            platform: "dy".into(),
            pool_kind: "group".into(),
            pool_id: group,
            activity_id: row.id,
            topics: vec!["探店".into()],
            enabled: true,
        },
        now,
    )
    .await?;
    let http = reqwest::Client::new();
    let url = format!("http://{addr}/t/{}", tag.row.code);
    let mut ms = vec![];
    for i in 0..taps {
        let t = Instant::now();
        let r = http
            .get(&url)
            // A phone on its second request: with the device cookie its first one was given.
            .header(
                "cookie",
                format!(
                    "cm_dev={}",
                    services::nfc::sign_device(&state.jwt_key, &format!("benchdevice{i:08}"))
                ),
            )
            .send()
            .await?;
        assert_eq!(r.status(), 200);
        let body = r.text().await?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(body.contains("snssdk1128://"), "a share link on the page");
    }
    let mut health = vec![];
    for _ in 0..taps {
        let t = Instant::now();
        http.get(format!("http://{addr}/healthz"))
            .send()
            .await?
            .text()
            .await?;
        health.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let p95 = {
        let mut v = ms.clone();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() * 95 / 100]
    };
    let (tap_ms, health_ms) = (median(&mut ms), median(&mut health));
    println!("bench: tap_page_ms {tap_ms:.1} ms (p95 {p95:.1} ms)");
    println!(
        "bench: tap_vs_health {:.1} x   (healthz {health_ms:.2} ms)",
        tap_ms / health_ms.max(0.001)
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
