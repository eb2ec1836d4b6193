//! Reports benchmark (issue 18). A merchant with 1,000 accounts and a year of posts (one post per
//! account per day: 365,000 published items with figures) on SQLite. Prints DESIGN.md §9 lines:
//!   bench: rollup_s_1000_accounts_365_days <s>   — building `report_daily` from the items, account by
//!                                                 account (what the statistics sync does for one)
//!   bench: report_ms_1000_accounts_365_days <ms> — the month view: overview (30 days per day, the 30
//!                                                 days before, account counts, followers per day from
//!                                                 a count per account and day) + the first page of the
//!                                                 account ranking, median of 20 (target ≤ 200 ms)
//!   bench: report_raw_items_ms <ms>              — baseline, this run: the same month's series and
//!                                                 ranking page straight from the items
//!   bench: report_vs_raw <ratio> x
//! Usage: cargo run --release -p app --example reports_bench   (BENCH_ACCOUNTS, BENCH_DAYS, BENCH_POSTS,
//! BENCH_FOLLOWERS=0 without follower counts)

use std::time::Instant;

fn env(name: &str, default: i64) -> i64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let accounts = env("BENCH_ACCOUNTS", 1000);
    let days = env("BENCH_DAYS", 365);
    // Posts per account per day (SPEC's daily limit is 3); the rollup has one row per account and day
    // whatever this is, the items grow with it.
    let posts = env("BENCH_POSTS", 1);
    let dir = std::env::temp_dir().join(format!("cm-reportbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let cfg = app::Config::build(&[app::Layer {
        data_dir: Some(dir.clone()),
        demo_password: Some("Demo12345".into()),
        admin_password: Some("Admin12345".into()),
        ..Default::default()
    }]);
    let db = app::open_db(&cfg).await?;
    app::first_run(&db, &cfg).await?;
    let mid: i64 = sqlx::query_scalar("SELECT id FROM merchants ORDER BY id LIMIT 1")
        .fetch_one(&db.pool)
        .await?;
    let now = db.clock.platform_now();
    let today = domain::matrix::day_of(now);

    // ---- the data: accounts over four platforms, one post per account per day ----
    let t = Instant::now();
    let platforms = ["dy", "ks", "xhs", "sph"];
    let mut tx = db.begin().await?;
    for a in 0..accounts {
        sqlx::query(
            "INSERT INTO matrix_accounts (merchant_id, platform, open_id, nickname, province, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6)",
        )
        .bind(mid)
        .bind(platforms[(a % 4) as usize])
        .bind(format!("open{a}"))
        .bind(format!("账号{a}"))
        .bind(["浙江", "广东", "四川", "北京"][(a % 4) as usize])
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    let ids: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, platform FROM matrix_accounts WHERE merchant_id = $1 ORDER BY id",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await?;
    const BATCH: usize = 400;
    for (n, (acc, platform)) in ids.iter().enumerate() {
        let mut tx = db.begin().await?;
        let rows: Vec<(i64, i64)> = (0..days)
            .flat_map(|d| (0..posts).map(move |k| (d, k)))
            .collect();
        for chunk in rows.chunks(BATCH) {
            let mut sql = String::from(
                "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, title, scheduled_at, \
                 review_state, state, published_at, plays, likes, comment_count, shares, created_at, updated_at) VALUES ",
            );
            for (i, (d, k)) in chunk.iter().enumerate() {
                let day = today - d;
                let at = domain::matrix::at(day, 8 * 60 + (*acc as u32 % 600) + *k as u32 * 61);
                let plays = 100 + (acc * 7 + d * 13) % 5000;
                if i > 0 {
                    sql.push(',');
                }
                sql.push_str(&format!(
                    "({mid}, 1, {acc}, '{platform}', 'b:{acc}:{d}:{k}', 'title {d}', {at}, 'approved', 'released', {at}, \
                     {plays}, {}, {}, {}, {at}, {at})",
                    plays / 20,
                    plays / 300,
                    plays / 800
                ));
            }
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        if n % 250 == 249 {
            eprintln!("  {} accounts of items", n + 1);
        }
    }
    eprintln!(
        "data: {accounts} accounts x {days} days x {posts} = {} items in {:.1} s",
        accounts * days * posts,
        t.elapsed().as_secs_f64()
    );

    // ---- a follower count per account and day (what the statistics sync stores; BENCH_FOLLOWERS=0
    // leaves them out, to see what they add to the month view) ----
    let t = Instant::now();
    let follower_ids = if env("BENCH_FOLLOWERS", 1) == 0 {
        &ids[..0]
    } else {
        &ids[..]
    };
    for (acc, platform) in follower_ids {
        let mut sql = String::from(
            "INSERT INTO account_followers (account_id, day, merchant_id, platform, followers, gain) VALUES ",
        );
        for d in 0..days {
            if d > 0 {
                sql.push(',');
            }
            let n = 1000 + acc * 3 + (days - d) * 7;
            let gain = if d + 1 < days { 7 } else { 0 };
            sql.push_str(&format!(
                "({acc}, {}, {mid}, '{platform}', {n}, {gain})",
                today - d
            ));
        }
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&db.pool)
            .await?;
    }
    eprintln!(
        "followers: {} snapshots in {:.1} s",
        follower_ids.len() as i64 * days,
        t.elapsed().as_secs_f64()
    );

    // ---- the rollup ----
    let t = Instant::now();
    for (acc, _) in &ids {
        services::reports::rollup(&db, *acc).await?;
    }
    let rollup_s = t.elapsed().as_secs_f64();
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM report_daily")
        .fetch_one(&db.pool)
        .await?;
    assert_eq!(rows, accounts * days, "one row per account and day");

    // ---- the month view from the rollup, and the same from the items ----
    let month =
        domain::reports::range("month", "", "", today).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let mut report = vec![];
    let mut check = (0, 0);
    for _ in 0..20 {
        let t = Instant::now();
        let o = services::reports::overview(&db, Some(mid), "", month).await?;
        let (page, _) =
            services::reports::account_rank(&db, Some(mid), "", month, "plays", (0, 10)).await?;
        report.push(t.elapsed().as_secs_f64() * 1000.0);
        check = (o.totals.plays, page.len() as i64);
    }
    let mut raw = vec![];
    let mut raw_plays = 0;
    let (from, to) = month.millis();
    for _ in 0..20 {
        let t = Instant::now();
        let s = store::reports::series_from_items(&db, mid, "", month.first, month.last).await?;
        let p = month.previous();
        store::reports::series_from_items(&db, mid, "", p.first, p.last).await?;
        store::reports::account_counts(&db, Some(mid), "").await?;
        // The ranking page from the items: what the rollup saves a report from doing.
        let _: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT account_id, CAST(SUM(plays) AS BIGINT) AS p FROM matrix_items WHERE merchant_id = $1 \
             AND published_at >= $2 AND published_at < $3 GROUP BY account_id ORDER BY p DESC LIMIT 10",
        )
        .bind(mid)
        .bind(from)
        .bind(to)
        .fetch_all(&db.pool)
        .await?;
        raw.push(t.elapsed().as_secs_f64() * 1000.0);
        raw_plays = s.iter().map(|r| r.2).sum::<i64>();
    }
    assert_eq!(check.0, raw_plays, "the rollup and the items agree");
    assert_eq!(check.1, 10);
    let (report_ms, raw_ms) = (median(report), median(raw));
    println!("bench: rollup_s_1000_accounts_365_days {rollup_s:.2}   ({rows} rows)");
    println!("bench: report_ms_1000_accounts_365_days {report_ms:.1}   (target <= 200)");
    println!("bench: report_raw_items_ms {raw_ms:.1}   (baseline, this run)");
    println!("bench: report_vs_raw {:.1} x", raw_ms / report_ms);
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}
