//! Reports end to end against the in-process sandbox, on both databases: rendered variants are
//! published over three simulated days, the statistics sync rolls them up, and every report's figures
//! equal the sandbox's own totals; the exports read back (a small reader of the stored-entry xlsx
//! below) hold the list's rows; staff without the report menus are refused; another merchant sees
//! nothing. Each app has its own platform clock.

use crate::common;
use common::publish::{
    authorize_dy, authorize_oauth, authorize_qr, past_the_plan, soon, task, videos, wait_items,
};
use common::*;
use serde_json::{Value, json};
use std::time::Duration;

fn today(app: &TestApp) -> i64 {
    domain::matrix::day_of(app.db.clock.platform_now())
}

async fn items(app: &TestApp, t: &str, task_id: i64) -> Vec<Value> {
    let r = app
        .post(
            "/task.merchant_forward_task/forward_video_release",
            Some(t),
            json!({"task_id": task_id, "limit": 100}),
        )
        .await;
    r.ok()["rows"].as_array().unwrap().clone()
}

/// Waits until `n` items of the task went out.
async fn wait_published(app: &TestApp, t: &str, task_id: i64, n: usize) {
    for _ in 0..1200 {
        let rows = items(app, t, task_id).await;
        let out = rows
            .iter()
            .filter(|i| ["published", "released"].contains(&i["state"].as_str().unwrap()))
            .count();
        if out >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "{n} items were not published: {:#?}",
        items(app, t, task_id).await
    );
}

/// Runs the account's statistics sync (which rolls the reports up) and waits for it.
async fn sync(app: &TestApp, account: i64) {
    let job = store::jobs::NewJob::new(domain::jobs::Job::MatrixSync(domain::jobs::AccountRef {
        account_id: account,
    }));
    let id = store::jobs::submit(&app.db, &job).await.unwrap();
    for _ in 0..600 {
        if store::jobs::get(&app.db, id).await.unwrap().unwrap().state
            == domain::jobs::JobState::Done
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("sync did not finish");
}

/// The sandbox's own figures of an account's works now: (plays, likes, comments, shares) per work.
async fn sandbox_works(app: &TestApp) -> Vec<(i64, i64, i64, i64)> {
    let c: Value = app
        .http
        .get(app.url("/sandbox/_control/counts"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    c["works"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["platform"] == "dy")
        .map(|w| {
            let s = &w["stats"];
            let n = |k: &str| s[k].as_i64().unwrap();
            (n("play"), n("like"), n("comment"), n("share"))
        })
        .collect()
}

/// The rows of the first sheet of an xlsx written with stored (uncompressed) zip entries, as text.
fn xlsx_rows(bytes: &[u8]) -> Vec<Vec<String>> {
    // Walk the zip's local file headers to the worksheet part.
    let mut i = 0;
    let sheet = loop {
        assert!(i + 30 <= bytes.len(), "no worksheet in the file");
        assert_eq!(&bytes[i..i + 4], b"PK\x03\x04", "a local file header");
        let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]) as usize;
        let u32_at = |o: usize| {
            u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]) as usize
        };
        assert_eq!(u16_at(i + 8), 0, "stored entries");
        let (size, name_len, extra) = (u32_at(i + 18), u16_at(i + 26), u16_at(i + 28));
        let name = std::str::from_utf8(&bytes[i + 30..i + 30 + name_len]).unwrap();
        let data = i + 30 + name_len + extra;
        if name == "xl/worksheets/sheet1.xml" {
            break std::str::from_utf8(&bytes[data..data + size]).unwrap();
        }
        i = data + size;
    };
    let unescape = |s: &str| {
        s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    };
    sheet
        .split("<row ")
        .skip(1)
        .map(|row| {
            row.split("<c ")
                .skip(1)
                .map(|c| {
                    let inner = |open: &str, close: &str| {
                        c.find(open).map(|a| {
                            let rest = &c[a..];
                            let start = rest.find('>').unwrap() + 1;
                            unescape(&rest[start..rest.find(close).unwrap()])
                        })
                    };
                    inner("<t", "</t>")
                        .or_else(|| inner("<v", "</v>"))
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}

/// CSV rows (no quoted commas in these reports), without the byte-order mark.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

async fn export(app: &TestApp, t: &str, q: &str, lang: &str) -> (String, Vec<u8>) {
    let r = app
        .http
        .get(app.url(&format!("/api/common.merchant_report/export?{q}")))
        .header("accept-language", lang)
        .bearer_auth(t)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{q}");
    let ct = r.headers()["content-type"].to_str().unwrap().to_string();
    (ct, r.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn published_days_roll_up_into_reports_equal_to_the_platforms_totals() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        at_china_time(&app, 9, 0);
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "shop18").await;
        let dy = authorize_dy(&app, &t).await;

        // Three rendered variants of a three-group project: each knows its clips and groups.
        let (groups, _clips) = shot_groups(
            &app,
            &t,
            &[
                ("门头", &["red", "orange"][..]),
                ("产品", &["green"][..]),
                ("环境", &["blue", "white"][..]),
            ],
            "1",
        )
        .await;
        let pid = plain_project(&app, &t, "春季上新", &groups).await;
        app.post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 3}),
        )
        .await
        .ok();
        let variants = wait_variants(&app, &t, pid, 3).await;
        let vids: Vec<i64> = variants.iter().map(|v| v["id"].as_i64().unwrap()).collect();

        // One post a day for three days at 09:30 China time.
        let day0 = today(&app);
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                json!({
                    "name": "三天发布", "titles": "春天的第一杯奶茶#周末就来这里#新品上市", "topics": ["探店"],
                    "top_comments": "", "at_users": [], "mount_type": "none", "time_mode": "timed",
                    "times": ["09:30"], "start_date": domain::matrix::fmt_day(day0), "daily_quantity": 1,
                    "days": 3, "account_ids": [dy], "video_ids": vids,
                }),
            )
            .await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        for d in 0..3 {
            app.db
                .clock
                .advance_to(domain::matrix::at(day0 + d, 9 * 60 + 31));
            wait_published(&app, &t, tid, d as usize + 1).await;
            // Watched for a few hours, then read by the sync.
            app.db.clock.advance(3 * 3_600_000);
            sync(&app, dy).await;
        }
        // The next morning, a last read. The sandbox's figures move by the minute of the platform
        // clock (wall time plus the offset), so the read counts when the platform's own figures were
        // the same just before and just after it.
        app.db
            .clock
            .advance_to(domain::matrix::at(day0 + 3, 8 * 60));
        let works = loop {
            let before = sandbox_works(&app).await;
            sync(&app, dy).await;
            if sandbox_works(&app).await == before {
                break before;
            }
        };
        assert_eq!(works.len(), 3);
        let sum = |f: fn(&(i64, i64, i64, i64)) -> i64| works.iter().map(f).sum::<i64>();
        let (plays, likes, comments, shares) =
            (sum(|w| w.0), sum(|w| w.1), sum(|w| w.2), sum(|w| w.3));
        assert!(plays > 0 && likes > 0 && shares > 0, "{works:?}");

        // The rollup: one row per day of the account, and the same rows when it runs again.
        let rows = || async {
            sqlx::query_as::<_, (i64, i64, i64, i64)>(
                "SELECT day, posts, plays, shares FROM report_daily WHERE account_id = $1 ORDER BY day",
            )
            .bind(dy)
            .fetch_all(&app.db.pool)
            .await
            .unwrap()
        };
        let before = rows().await;
        assert_eq!(
            before.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(),
            vec![(day0, 1), (day0 + 1, 1), (day0 + 2, 1)]
        );
        services::reports::rollup(&app.db, dy).await.unwrap();
        assert_eq!(
            rows().await,
            before,
            "re-running the rollup changes nothing"
        );

        // Overview over the three days (custom) equals the sandbox's totals.
        let span = json!({"platform": "dy", "span": "custom", "start": domain::matrix::fmt_day(day0),
                          "end": domain::matrix::fmt_day(day0 + 2)});
        let o = app
            .get_q("/common.merchant_report/overview", Some(&t), span.clone())
            .await;
        let o = o.ok();
        assert_eq!(o["series"]["posts"], json!([1, 1, 1]), "{o}");
        assert_eq!(
            (
                o["totals"]["plays"].as_i64(),
                o["totals"]["likes"].as_i64(),
                o["totals"]["comments"].as_i64(),
                o["totals"]["shares"].as_i64()
            ),
            (Some(plays), Some(likes), Some(comments), Some(shares)),
            "{o}"
        );
        assert_eq!(
            (o["accounts"].as_i64(), o["active_accounts"].as_i64()),
            (Some(1), Some(1))
        );
        // The account is the sandbox's: the figures are simulated, and the page is told.
        assert_eq!(o["simulated_accounts"].as_i64(), Some(1));
        // The period before had nothing to compare with.
        assert_eq!(o["previous"]["posts"], 0);
        assert_eq!(o["change"][1]["pct"], Value::Null);
        // Another platform's page shows none of it.
        let ks = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&t),
                json!({"platform": "ks", "span": "custom", "start": domain::matrix::fmt_day(day0),
                       "end": domain::matrix::fmt_day(day0 + 2)}),
            )
            .await;
        assert_eq!(ks.ok()["totals"]["posts"], 0);

        // Rankings: the account, and the three videos best first with the sandbox's own figures.
        let a = app
            .get_q("/common.merchant_report/accounts", Some(&t), span.clone())
            .await;
        assert_eq!(a.ok()["total"], 1);
        assert_eq!(a.ok()["rows"][0]["plays"].as_i64(), Some(plays));
        assert_eq!(a.ok()["rows"][0]["posts"].as_i64(), Some(3));
        assert_eq!(a.ok()["rows"][0]["sandbox"], true);
        let v = app
            .get_q("/common.merchant_report/videos", Some(&t), span.clone())
            .await;
        let vrows = v.ok()["rows"].as_array().unwrap().clone();
        let mut got: Vec<i64> = vrows.iter().map(|r| r["plays"].as_i64().unwrap()).collect();
        assert!(got.windows(2).all(|w| w[0] >= w[1]), "best first: {got:?}");
        let mut want: Vec<i64> = works.iter().map(|w| w.0).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        let uv = app
            .get_q(
                "/externalApi/getUserVideo",
                Some(&t),
                json!({"account_id": dy, "span": "month"}),
            )
            .await;
        assert_eq!(uv.ok()["total"], 3);

        // The dashboard's 30 days hold the three posts and their plays.
        let d = app
            .get_q("/index/dashboard", Some(&t), json!({"days": 30}))
            .await;
        let d = d.ok();
        let total = |v: &Value| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_i64().unwrap())
                .sum::<i64>()
        };
        assert_eq!(d["publish"]["days"].as_array().unwrap().len(), 30);
        assert_eq!(total(&d["publish"]["success"]), 3, "{d}");
        assert_eq!(total(&d["video"]["plays"]), plays, "{d}");
        app.get_q("/index/dashboard", Some(&t), json!({"days": 9}))
            .await
            .expect(422);

        // Attribution: every variant used one clip of each group, so each group has the three posts;
        // the clips share them out; the title is the same for all three here.
        let by = |dim: &str| {
            let mut q = span.clone();
            q["dimension"] = json!(dim);
            q
        };
        let g = app
            .get_q("/common.merchant_report/attribution", Some(&t), by("group"))
            .await;
        let g = g.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(g.len(), 3, "{g:?}");
        assert!(
            g.iter()
                .all(|r| r["posts"] == 3 && r["plays"].as_i64() == Some(plays))
        );
        assert!(g.iter().any(|r| r["label"] == "产品"));
        let c = app
            .get_q("/common.merchant_report/attribution", Some(&t), by("clip"))
            .await;
        let c = c.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(
            c.iter().map(|r| r["posts"].as_i64().unwrap()).sum::<i64>(),
            9,
            "three clips per post: {c:?}"
        );
        let per: Vec<i64> = c.iter().map(|r| r["per_post"].as_i64().unwrap()).collect();
        assert!(per.windows(2).all(|w| w[0] >= w[1]), "{per:?}");
        let p = app
            .get_q(
                "/common.merchant_report/attribution",
                Some(&t),
                by("project"),
            )
            .await;
        assert_eq!(p.ok()["rows"][0]["label"], "春季上新");
        assert_eq!(p.ok()["rows"][0]["per_post"].as_i64(), Some(plays / 3));

        // Delivery: planned 3, published 3, none failed.
        let dl = app
            .get_q(
                "/common.merchant_report/delivery",
                Some(&t),
                json!({"span": "month"}),
            )
            .await;
        let dl = &dl.ok()["rows"][0];
        assert_eq!(
            (
                dl["planned"].as_i64(),
                dl["published"].as_i64(),
                dl["failed"].as_i64()
            ),
            (Some(3), Some(3), Some(0)),
            "{dl}"
        );

        // Exports: the same rows as the list, xlsx and CSV, in the reader's language.
        let q = format!(
            "report=videos&format=xlsx&platform=dy&span=custom&start={}&end={}",
            domain::matrix::fmt_day(day0),
            domain::matrix::fmt_day(day0 + 2)
        );
        let (ct, bytes) = export(&app, &t, &q, "en").await;
        assert!(ct.contains("spreadsheetml"), "{ct}");
        let sheet = xlsx_rows(&bytes);
        assert_eq!(sheet[0][0], "Title");
        assert_eq!(sheet.len(), 1 + vrows.len());
        for (row, v) in sheet[1..].iter().zip(&vrows) {
            assert_eq!(row[0], v["title"].as_str().unwrap());
            assert_eq!(row[4], v["plays"].as_i64().unwrap().to_string());
            assert_eq!(row[7], v["shares"].as_i64().unwrap().to_string());
        }
        let (_, csv) = export(&app, &t, &q.replace("xlsx", "csv"), "zh-CN").await;
        let csv = csv_rows(std::str::from_utf8(&csv).unwrap());
        assert_eq!(csv[0][0], "标题");
        assert_eq!(csv[1..], sheet[1..]);
        let (_, o_x) = export(
            &app,
            &t,
            &q.replace("report=videos", "report=overview"),
            "en",
        )
        .await;
        let days = xlsx_rows(&o_x);
        assert_eq!(days.len(), 4);
        assert_eq!(
            days[1..]
                .iter()
                .map(|r| r[1].parse::<i64>().unwrap())
                .sum::<i64>(),
            plays
        );
        for bad in [
            "report=pie",
            "report=videos&format=pdf",
            "report=videos&span=year",
        ] {
            let r = app
                .http
                .get(app.url(&format!("/api/common.merchant_report/export?{bad}")))
                .bearer_auth(&t)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 422, "{bad}");
        }

        // The data screen: counters and the top videos.
        let s = app.get("/databoard.index/index", Some(&t)).await;
        assert_eq!(s.ok()["accounts"], 1);
        assert_eq!(s.ok()["top"].as_array().unwrap().len(), 3);

        // Another merchant sees none of it, even naming the account.
        let o2 = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&other),
                span.clone(),
            )
            .await;
        assert_eq!(o2.ok()["totals"]["plays"], 0);
        assert_eq!(o2.ok()["accounts"], 0);
        let v2 = app
            .get_q(
                "/externalApi/getUserVideo",
                Some(&other),
                json!({"account_id": dy, "span": "month"}),
            )
            .await;
        assert_eq!(v2.ok()["total"], 0);
        let a2 = app
            .get_q(
                "/common.merchant_report/attribution",
                Some(&other),
                by("clip"),
            )
            .await;
        assert_eq!(a2.ok()["total"], 0);
        let s2 = app.get("/databoard.index/index", Some(&other)).await;
        assert_eq!(
            (
                s2.ok()["accounts"].as_i64(),
                s2.ok()["top"].as_array().unwrap().len()
            ),
            (Some(0), 0)
        );
        let (_, x2) = export(&app, &other, &q, "en").await;
        assert_eq!(xlsx_rows(&x2).len(), 1, "only the header");
        let d2 = app
            .get_q("/index/dashboard", Some(&other), json!({"days": 30}))
            .await;
        assert_eq!(total(&d2.ok()["video"]["plays"]), 0);
    }
}

/// What the sandbox says an account's followers were at the end of a day.
async fn sandbox_followers(app: &TestApp, account: i64, day: i64) -> i64 {
    let (platform, open_id): (String, String) =
        sqlx::query_as("SELECT platform, open_id FROM matrix_accounts WHERE id = $1")
            .bind(account)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    let v: Value = app
        .http
        .get(app.url("/sandbox/_control/followers"))
        .query(&[
            ("platform", platform.as_str()),
            ("open_id", open_id.as_str()),
            ("day", domain::matrix::fmt_day(day).as_str()),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["total"].as_i64().unwrap()
}

/// An overview's followers and follower gain per day.
async fn follower_series(app: &TestApp, t: &str, q: Value) -> (Vec<i64>, Vec<i64>) {
    let o = app
        .get_q("/common.merchant_report/overview", Some(t), q)
        .await;
    (
        ints(&o.ok()["series"]["followers"]),
        ints(&o.ok()["series"]["follower_gain"]),
    )
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn followers_per_platform_are_the_platforms_counts_by_day_and_against_the_period_before() {
    for backend in backends() {
        let app = TestApp::spawn_with_browser(backend).await;
        at_china_time(&app, 10, 0);
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "fans18").await;
        let dy = authorize_dy(&app, &t).await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let xhs = authorize_qr(&app, &t, "xhs").await;
        let bjh = app
            .post(
                "/task.merchant_group_user/bjhLogin",
                Some(&t),
                json!({"app_id": "fans-app", "app_token": common::bjh_app_token()}),
            )
            .await;
        let bjh = bjh.ok()["id"].as_i64().unwrap();

        // Read today and again the next morning (KS's token lives 48 h: no refresh in between).
        let day0 = today(&app);
        for a in [dy, ks, xhs, bjh] {
            sync(&app, a).await;
        }
        app.db
            .clock
            .advance_to(domain::matrix::at(day0 + 1, 9 * 60));
        for a in [dy, ks, xhs, bjh] {
            sync(&app, a).await;
        }
        let overview = |platform: &str, first: i64, last: i64| {
            json!({"platform": platform, "span": "custom", "start": domain::matrix::fmt_day(first),
                   "end": domain::matrix::fmt_day(last)})
        };

        // Douyin's fans data gives the last 7 days: each day's total and gain are the platform's.
        let (first, last) = (day0 - 4, day0 + 1);
        let o = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&t),
                overview("dy", first, last),
            )
            .await;
        let o = o.ok().clone();
        let mut want = vec![];
        let mut gains = vec![];
        for d in first..=last {
            let n = sandbox_followers(&app, dy, d).await;
            gains.push(n - sandbox_followers(&app, dy, d - 1).await);
            want.push(n);
        }
        assert_eq!(ints(&o["series"]["followers"]), want, "{o}");
        assert_eq!(ints(&o["series"]["follower_gain"]), gains, "{o}");
        assert!(gains.iter().all(|g| *g > 0), "{gains:?}");
        assert_eq!(o["totals"]["followers"].as_i64(), want.last().copied());
        assert_eq!(
            o["totals"]["follower_gain"].as_i64(),
            Some(gains.iter().sum())
        );
        assert_eq!(o["has_followers"], true);
        // The 6 days before: the first read (on day0) reached back to day0 - 6, so the previous
        // period knows its last two days: one day's gain to compare with.
        let (b5, b6) = (
            sandbox_followers(&app, dy, day0 - 5).await,
            sandbox_followers(&app, dy, day0 - 6).await,
        );
        assert_eq!(o["previous"]["followers"].as_i64(), Some(b5));
        assert_eq!(o["previous"]["follower_gain"].as_i64(), Some(b5 - b6));
        let pct = |o: &Value, f: &str| {
            o["change"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["figure"] == f)
                .unwrap()["pct"]
                .as_i64()
        };
        let gained: i64 = gains.iter().sum();
        assert_eq!(
            pct(&o, "follower_gain"),
            Some((gained - (b5 - b6)) * 100 / (b5 - b6))
        );
        assert_eq!(pct(&o, "followers"), Some((want[5] - b5) * 100 / b5));

        // KS and XHS tell the count now: a snapshot per read, the gain between the two reads.
        for (platform, id) in [("ks", ks), ("xhs", xhs)] {
            let o = app
                .get_q(
                    "/common.merchant_report/overview",
                    Some(&t),
                    overview(platform, day0 - 1, day0 + 1),
                )
                .await;
            let (n0, n1) = (
                sandbox_followers(&app, id, day0).await,
                sandbox_followers(&app, id, day0 + 1).await,
            );
            assert_eq!(
                ints(&o.ok()["series"]["followers"]),
                vec![0, n0, n1],
                "{platform}: {}",
                o.body
            );
            assert_eq!(
                ints(&o.ok()["series"]["follower_gain"]),
                vec![0, 0, n1 - n0]
            );
        }

        // Baijiahao tells apps no follower count: the page says so rather than showing 0.
        let b = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&t),
                overview("bjh", day0, day0 + 1),
            )
            .await;
        assert_eq!(b.ok()["has_followers"], false);
        assert_eq!(b.ok()["totals"]["followers"], 0);

        // Every platform together, the account ranking and the data screen add up the same counts.
        let mut sum_today = 0;
        for id in [dy, ks, xhs] {
            sum_today += sandbox_followers(&app, id, day0 + 1).await;
        }
        let all = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&t),
                overview("", day0, day0 + 1),
            )
            .await;
        assert_eq!(all.ok()["totals"]["followers"].as_i64(), Some(sum_today));
        let a = app
            .get_q(
                "/common.merchant_report/accounts",
                Some(&t),
                overview("dy", first, last),
            )
            .await;
        // The rollup has no row for an account without posts: the ranking lists accounts with posts.
        let listed = a.ok()["rows"].as_array().unwrap().clone();
        for r in &listed {
            assert_eq!(r["followers"].as_i64(), want.last().copied(), "{r}");
        }
        let s = app.get("/databoard.index/index", Some(&t)).await;
        assert_eq!(s.ok()["week_totals"]["followers"].as_i64(), Some(sum_today));

        // The export carries the figure with its header in the reader's language; BJH's has none.
        let q = format!(
            "report=overview&format=csv&platform=dy&span=custom&start={}&end={}",
            domain::matrix::fmt_day(first),
            domain::matrix::fmt_day(last)
        );
        let (_, csv) = export(&app, &t, &q, "en").await;
        let csv = csv_rows(std::str::from_utf8(&csv).unwrap());
        let col = csv[0].iter().position(|h| h == "Followers").unwrap();
        assert_eq!(csv[0][col + 1], "Follower gain");
        let got: Vec<i64> = csv[1..].iter().map(|r| r[col].parse().unwrap()).collect();
        assert_eq!(got, want);
        let (_, zh) = export(&app, &t, &q, "zh-CN").await;
        assert!(std::str::from_utf8(&zh).unwrap().contains("粉丝数"));
        let (_, b) = export(&app, &t, &q.replace("platform=dy", "platform=bjh"), "en").await;
        assert!(!std::str::from_utf8(&b).unwrap().contains("Followers"));

        // The operator reads every merchant's figures (as the dashboard and the data screen sum
        // them), or one merchant's when naming it; every report answers, none is refused.
        let mid = |name: &'static str| {
            let db = app.db.clone();
            async move {
                sqlx::query_scalar::<_, i64>("SELECT merchant_id FROM users WHERE username = $1")
                    .bind(name)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap()
            }
        };
        let (demo_mid, other_mid) = (mid("demo").await, mid("fans18").await);
        let op = |m: i64| {
            let mut q = overview("", day0, day0 + 1);
            if m != 0 {
                q["merchant_id"] = json!(m);
            }
            q
        };
        for (m, want) in [(0, sum_today), (demo_mid, sum_today), (other_mid, 0)] {
            let r = app
                .get_q("/common.merchant_report/overview", Some(&admin), op(m))
                .await;
            assert_eq!(r.ok()["totals"]["followers"].as_i64(), Some(want), "{m}");
        }
        for call in ["accounts", "videos", "attribution", "delivery", "staff"] {
            app.get_q(
                &format!("/common.merchant_report/{call}"),
                Some(&admin),
                op(0),
            )
            .await
            .ok();
        }
        // A merchant naming another merchant still reads its own.
        let r = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&other),
                op(demo_mid),
            )
            .await;
        assert_eq!(r.ok()["totals"]["followers"], 0);

        // Two days without a read: the last count carries forward (no gain); the next read fills
        // the missed day with the count before it, and the gain lands on the day it was read.
        app.db
            .clock
            .advance_to(domain::matrix::at(day0 + 3, 9 * 60));
        let (n0, n1) = (
            sandbox_followers(&app, xhs, day0).await,
            sandbox_followers(&app, xhs, day0 + 1).await,
        );
        assert_eq!(
            follower_series(&app, &t, overview("xhs", day0 + 1, day0 + 3)).await,
            (vec![n1, n1, n1], vec![n1 - n0, 0, 0])
        );
        sync(&app, xhs).await;
        let n3 = sandbox_followers(&app, xhs, day0 + 3).await;
        assert_eq!(
            follower_series(&app, &t, overview("xhs", day0 + 1, day0 + 3)).await,
            (vec![n1, n1, n3], vec![n1 - n0, 0, n3 - n1])
        );

        // Another merchant sees none of these followers.
        let o2 = app
            .get_q(
                "/common.merchant_report/overview",
                Some(&other),
                overview("", day0, day0 + 1),
            )
            .await;
        assert_eq!(o2.ok()["totals"]["followers"], 0);
        assert_eq!(ints(&o2.ok()["series"]["followers"]), vec![0, 0]);
    }
}

#[tokio::test]
async fn posts_of_imported_library_videos_are_an_attribution_row_of_their_own() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let dy = authorize_dy(&app, &t).await;
        let mid = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[],
                "shop-front.mp4",
                clip("navy", "2"),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.wait_ready(&t, &[mid]).await;
        let r = app
            .post(
                "/clip.merchant_video_library/add",
                Some(&t),
                json!({"ids": [mid]}),
            )
            .await;
        let v_id = r.ok()["variant_ids"][0].as_i64().unwrap();
        let mut body = task(&app, &[dy], &[], soon(&app));
        body["video_ids"] = json!([v_id]);
        let r = app
            .post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                body,
            )
            .await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        past_the_plan(&app, &t, tid).await;
        let it = wait_items(&app, &t, tid, &["published", "released", "failed"]).await;
        assert!(it.iter().all(|i| i["state"] != "failed"), "{it:?}");
        sync(&app, dy).await;
        let plays: i64 = sandbox_works(&app).await.iter().map(|w| w.0).sum();

        // Every dimension but the title puts the post in one row of its own, so the rows add up to
        // all posts and plays; the title is the post's own.
        for (dim, lang, label) in [
            (
                "project",
                "en",
                "Imported or uploaded videos (no mixing recipe)",
            ),
            ("clip", "zh-CN", "导入或上传的视频（无混剪配方）"),
            (
                "group",
                "en",
                "Imported or uploaded videos (no mixing recipe)",
            ),
        ] {
            let r = app
                .call(
                    "GET",
                    "/common.merchant_report/attribution",
                    Some(&t),
                    Some(json!({"span": "week", "dimension": dim})),
                    lang,
                )
                .await;
            let rows = r.ok()["rows"].as_array().unwrap().clone();
            assert_eq!(rows.len(), 1, "{dim}: {rows:?}");
            assert_eq!(
                (
                    rows[0]["id"].as_i64(),
                    rows[0]["label"].as_str(),
                    rows[0]["posts"].as_i64(),
                    rows[0]["plays"].as_i64()
                ),
                (Some(0), Some(label), Some(1), Some(plays)),
                "{dim}"
            );
        }
        let r = app
            .get_q(
                "/common.merchant_report/attribution",
                Some(&t),
                json!({"span": "week", "dimension": "title"}),
            )
            .await;
        assert_eq!(r.ok()["rows"][0]["posts"], 1);
        assert_ne!(r.ok()["rows"][0]["id"].as_i64(), None);
    }
}

#[tokio::test]
async fn staff_without_the_report_menus_are_refused_and_bad_filters_name_their_field() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let demo = app.demo().await;
        let log = app.menu_id(&demo, "/log").await;
        let dy_num = app.menu_id(&demo, "/dy_num").await;
        let screen = app.menu_id(&demo, "/actual_screen").await;
        for (name, menus) in [
            ("nomenu", vec![log]),
            ("analyst", vec![dy_num]),
            ("tvscreen", vec![screen]),
        ] {
            app.post(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": menus}),
            )
            .await
            .ok();
        }
        let nomenu = app.login(3, "nomenu", "abc12345").await;
        let analyst = app.login(3, "analyst", "abc12345").await;
        let tv = app.login(3, "tvscreen", "abc12345").await;
        for path in [
            "/common.merchant_report/overview",
            "/common.merchant_report/accounts",
            "/common.merchant_report/videos",
            "/common.merchant_report/attribution",
            "/common.merchant_report/delivery",
            "/common.merchant_report/staff",
            "/common.merchant_report/export",
            "/externalApi/getUserVideo",
            "/databoard.index/index",
        ] {
            app.get(path, Some(&nomenu)).await.expect(403);
        }
        app.get("/common.merchant_report/overview", Some(&analyst))
            .await
            .ok();
        app.get("/databoard.index/index", Some(&analyst))
            .await
            .expect(403);
        app.get("/databoard.index/index", Some(&tv)).await.ok();
        app.get("/common.merchant_report/videos", Some(&tv))
            .await
            .expect(403);
        // The owner's staff report names who did what.
        let st = app
            .get_q(
                "/common.merchant_report/staff",
                Some(&demo),
                json!({"span": "day"}),
            )
            .await;
        assert!(
            st.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["username"] == "demo"),
            "{}",
            st.body
        );

        for (q, field) in [
            (json!({"span": "year"}), "span"),
            (
                json!({"span": "custom", "start": "2026-02-30", "end": "2026-03-01"}),
                "start",
            ),
            (
                json!({"span": "custom", "start": "2026-03-02", "end": "2026-03-01"}),
                "start",
            ),
            (
                json!({"span": "custom", "start": "2024-01-01", "end": "2026-03-01"}),
                "end",
            ),
            (json!({"platform": "tiktok"}), "platform"),
            (json!({"sort": "name"}), "sort"),
        ] {
            let r = app
                .get_q("/common.merchant_report/accounts", Some(&demo), q.clone())
                .await;
            r.expect(422);
            assert_eq!(r.data()["field"], field, "{q}: {}", r.body);
        }
        let r = app
            .get_q(
                "/common.merchant_report/attribution",
                Some(&demo),
                json!({"dimension": "colour"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "dimension");
    }
}

/// The data screen said "published today 6" beside "planned 2, published 1", the per-platform report
/// 0 plays beside the video list's 1,377 for the same videos (until the next statistics sync), and the
/// staff report 0 release tasks after one was created. Each figure has one source, the same at the
/// same moment: a post counts in the reports as soon as it is out (no sync has run here), and the
/// staff report counts the tasks each person created (not previews, whichever call made them).
#[tokio::test]
async fn the_pages_give_the_same_figures_at_the_same_moment() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        at_china_time(&app, 9, 0);
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let dy = authorize_dy(&app, &t).await;
        let vids = videos(&app, &t, 2).await;
        let day0 = today(&app);
        let body = json!({
            "name": "防晒帽两天", "titles": "夏季新款防晒帽", "topics": ["防晒"], "top_comments": "", "at_users": [],
            "mount_type": "none", "time_mode": "timed", "times": ["09:30"],
            "start_date": domain::matrix::fmt_day(day0), "daily_quantity": 1, "days": 2,
            "account_ids": [dy], "material_ids": vids,
        });
        let mut preview = body.clone();
        preview["preview"] = json!(true);
        let common = "/matrix.merchant_publish_management/createCommonPublishTask";
        app.post(common, Some(&t), preview).await.ok();
        let tid = app.post(common, Some(&t), body).await.ok()["task"]["id"]
            .as_i64()
            .unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        app.db
            .clock
            .advance_to(domain::matrix::at(day0, 9 * 60 + 31));
        wait_published(&app, &t, tid, 1).await;

        let s = app.get("/databoard.index/index", Some(&t)).await;
        let s = s.ok().clone();
        let day = json!({"platform": "dy", "span": "day"});
        let o = app
            .get_q("/common.merchant_report/overview", Some(&t), day.clone())
            .await;
        let v = app
            .get_q("/common.merchant_report/videos", Some(&t), day)
            .await;
        let listed: i64 = v.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["plays"].as_i64().unwrap())
            .sum();
        assert_eq!(
            (
                s["today_posts"].as_i64(),
                s["week"]["posts"]
                    .as_array()
                    .unwrap()
                    .last()
                    .unwrap()
                    .as_i64(),
                o.ok()["totals"]["posts"].as_i64(),
                v.ok()["total"].as_i64(),
            ),
            (Some(1), Some(1), Some(1), Some(1)),
            "screen {s} / overview {}",
            o.body
        );
        assert_eq!(
            (
                s["today_planned"].as_i64(),
                s["today_published"].as_i64(),
                s["today_posts_other_days"].as_i64()
            ),
            (Some(1), Some(1), Some(0))
        );
        assert_eq!(
            o.ok()["totals"]["plays"].as_i64(),
            Some(listed),
            "{}",
            o.body
        );

        let st = app
            .get_q(
                "/common.merchant_report/staff",
                Some(&t),
                json!({"span": "day"}),
            )
            .await;
        let me = st.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["username"] == "demo")
            .cloned()
            .unwrap();
        assert_eq!(me["tasks"], 1, "{me}");

        // A post due yesterday that went out today counts in "published today", not in today's
        // plan: the screen says how many of today's posts were due on another day, and the two
        // figures add up.
        sqlx::query(
            "UPDATE matrix_items SET scheduled_at = scheduled_at - 86400000 WHERE task_id = $1 \
             AND published_at IS NOT NULL",
        )
        .bind(tid)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let s = app.get("/databoard.index/index", Some(&t)).await;
        let s = s.ok().clone();
        assert_eq!(
            (
                s["today_posts"].as_i64(),
                s["today_published"].as_i64(),
                s["today_posts_other_days"].as_i64()
            ),
            (Some(1), Some(0), Some(1)),
            "{s}"
        );
    }
}
