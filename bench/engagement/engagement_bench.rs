//! Engagement benchmark (issue 16). Prints DESIGN.md §9 lines:
//!   bench: comments_synced_per_second <n>  — one account's first sync: every public work's comments
//!                                            read page by page from the sandbox and stored (SQLite)
//!   bench: auto_reply_latency_ms <median> ms (p95 <ms>) poll — a customer's comment on the platform
//!                                            to the account's reply on it, read by a sync started at
//!                                            once (the schedule's 5-minute poll interval not counted)
//!   bench: auto_reply_latency_ms <median> ms (p95 <ms>) webhook — the same pushed by DY's webhook
//! Usage: cargo run --release -p app --example engagement_bench   (BENCH_WORKS, default 40)

use std::time::{Duration, Instant};

#[path = "../common/server.rs"]
mod server;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let works: usize = std::env::var("BENCH_WORKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let server::Server {
        dir,
        db,
        state,
        addr,
    } = server::start("engbench").await?;
    let (_stop, rx) = tokio::sync::watch::channel(false);
    let wcfg = store::jobs::WorkerConfig {
        poll_ms: 50,
        ..app::worker_config()
    };
    tokio::spawn(store::jobs::run_worker(
        db.clone(),
        services::jobs::registry(&state),
        wcfg,
        rx,
    ));
    let mid: i64 = sqlx::query_scalar("SELECT id FROM merchants ORDER BY id LIMIT 1")
        .fetch_one(&db.pool)
        .await?;
    let hub = state.hub.clone();
    let base = format!("http://{addr}");
    // The clock moves below: the product's comment windows follow it (the test/demo setting).
    db.clock.set_app_follows(true);
    // The sandbox's controls open with the install's token.
    let mut auth = reqwest::header::HeaderMap::new();
    auth.insert(
        platforms::sandbox::access::TOKEN_HEADER,
        state.sandbox_token.parse()?,
    );
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(auth)
        .build()?;

    // A DY account authorized on the sandbox's consent page, as a person would.
    let (ad, _) = hub.adapter(platforms::Platform::Dy).await?;
    let url = ad.authorize_url(&format!("{base}/oauth/dy/callback"), "bench")?;
    let page = http.get(&url).send().await?.text().await?;
    let mut form = form_fields(&page);
    form.push(("action".into(), "approve".into()));
    let res = http.post(&url).form(&form).send().await?;
    let back = res.headers()["location"].to_str()?.to_string();
    let code = back
        .split(['?', '&'])
        .find_map(|kv| kv.strip_prefix("code="))
        .expect("code in the redirect")
        .to_string();
    let tokens = ad.exchange_code(&code).await?;
    let account = hub
        .save_authorized(mid, platforms::Platform::Dy, &tokens, 0, true)
        .await?;
    let a = store::matrix::account_by_id(&db, account)
        .await?
        .expect("account");
    let creds = hub.creds(&a);

    // `works` posts, public, with a day and a half of audience comments each.
    let file = dir.join("v.mp4");
    std::fs::write(&file, vec![0u8; 64 * 1024])?;
    let mut items = vec![];
    for i in 0..works {
        let req = platforms::PublishReq {
            video_path: file.clone(),
            title: format!("周末团购上新 {i}"),
            ..Default::default()
        };
        let vid = ad.upload(&creds, &req).await?;
        items.push(ad.create(&creds, &vid, &req).await?);
    }
    db.clock.advance(36 * 3_600_000);
    let t = Instant::now();
    let s = services::engagement::comments::sync_account(&hub, account)
        .await
        .map_err(|e| anyhow::anyhow!(e.message().to_string()))?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "bench: comments_synced_per_second {:.0}   ({} comments under {} works in {:.2} s)",
        s.added as f64 / secs,
        s.added,
        s.works,
        secs
    );

    // Auto-reply latency: a rule for the word only the measured comments carry.
    services::engagement::rules::add(
        &db,
        mid,
        &services::engagement::rules::RuleForm {
            name: "bench".into(),
            match_mode: "contains".into(),
            keywords: vec!["团购券".into()],
            replies: vec!["您好，价格已私信您".into()],
            end_minute: 1440,
            daily_cap: 1000,
            enabled: true,
            ..Default::default()
        },
    )
    .await?;
    // Let the first sync's auto-reply run settle the comments it read.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let control = |p: &str| format!("{base}/sandbox/_control/{p}");
    let replies = |http: reqwest::Client, url: String| async move {
        let v: serde_json::Value = http.get(url).send().await?.json().await?;
        anyhow::Ok(v["replies"].as_array().map_or(0, Vec::len))
    };
    for path in ["poll", "webhook"] {
        let hook = if path == "webhook" {
            format!("{base}/webhook/dy")
        } else {
            String::new()
        };
        http.post(control("webhook"))
            .json(&serde_json::json!({"url": hook, "duplicate_rate": 0.0}))
            .send()
            .await?;
        let mut ms = vec![];
        for i in 0..20 {
            // The platform answers at most 10 replies a minute per account.
            db.clock.advance(61_000);
            let before = replies(http.clone(), control("replies")).await?;
            let item = &items[i % items.len()];
            let t = Instant::now();
            http.post(control("comment"))
                .json(&serde_json::json!({"item_id": item, "content": format!("团购券多少钱 {path} {i}")}))
                .send()
                .await?;
            if path == "poll" {
                services::engagement::comments::sync_account(&hub, account)
                    .await
                    .map_err(|e| anyhow::anyhow!(e.message().to_string()))?;
            }
            loop {
                if replies(http.clone(), control("replies")).await? > before {
                    break;
                }
                anyhow::ensure!(t.elapsed() < Duration::from_secs(30), "no reply in 30 s");
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            ms.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "bench: auto_reply_latency_ms {:.0} ms (p95 {:.0} ms) {path}",
            ms[ms.len() / 2],
            ms[ms.len() * 95 / 100]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// What a browser submits from the consent page: its hidden and text inputs and ticked checkboxes.
fn form_fields(html: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    for part in html.split("<input").skip(1) {
        let tag = &part[..part.find('>').unwrap_or(part.len())];
        let attr = |name: &str| {
            let key = format!("{name}=\"");
            tag.find(&key).map(|i| {
                let rest = &tag[i + key.len()..];
                rest[..rest.find('"').unwrap_or(rest.len())]
                    .replace("&amp;", "&")
                    .replace("&quot;", "\"")
            })
        };
        if attr("type").as_deref() == Some("checkbox") && !tag.contains(" checked") {
            continue;
        }
        if let (Some(n), Some(v)) = (attr("name"), attr("value")) {
            out.push((n, v));
        }
    }
    out
}
