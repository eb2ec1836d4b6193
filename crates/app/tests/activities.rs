//! Activities and NFC, whole app on SQLite and PostgreSQL: draws that never over-issue under 1,000
//! concurrent customers, the tap-to-post story (taps -> different videos -> posts through the
//! sandbox -> draws -> coupons redeemed), exports, tenancy, staff menus and bad input. Each app has
//! its own platform clock, so the tests that move it run side by side.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;

fn activity_body(app: &TestApp, who: &str, prizes: Value) -> Value {
    let now = app.db.clock.platform_now();
    json!({
        "name": "开业抽奖", "starts_at": now - HOUR, "ends_at": now + 30 * DAY, "who": who,
        "per_person": 3, "per_day": 2, "color": "#e4393c", "rules_text": "每人每天两次",
        "prizes": prizes,
    })
}

fn coupon(name: &str, odds: f64, stock: i64, per_person: i64, per_day: i64) -> Value {
    json!({"name": name, "kind": "coupon", "odds": odds, "stock": stock, "per_person": per_person,
           "per_day": per_day, "description": "到店出示", "valid_days": 7})
}

/// A video-library group holding `n` ready videos (one real upload, the rest rows pointing at it).
async fn video_group(app: &TestApp, t: &str, name: &str, n: usize) -> i64 {
    let (groups, clips) = shot_groups(app, t, &[(name, &["red"])], "1").await;
    for i in 1..n {
        sqlx::query(
            "INSERT INTO media_files (merchant_id, library, kind, group_id, name, original_name, storage_key, mime, size, width, \
               height, duration_ms, state, created_at, updated_at) \
             SELECT merchant_id, library, kind, group_id, name || $2, original_name, storage_key, mime, size, width, height, \
               duration_ms, state, created_at, updated_at FROM media_files WHERE id = $1",
        )
        .bind(clips[0])
        .bind(format!(" #{i}"))
        .execute(&app.db.pool)
        .await
        .unwrap();
    }
    groups[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_concurrent_draws_never_over_issue() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let a = app
            .post(
                "/task.merchant_forward_task_activities/add",
                Some(&t),
                activity_body(
                    &app,
                    "anyone",
                    json!([
                        coupon("免单券", 50.0, 10, 1, 1),
                        coupon("9折券", 30.0, 1000, 2, 1)
                    ]),
                ),
            )
            .await;
        let id = a.ok()["id"].as_i64().unwrap();
        let mid: i64 = sqlx::query_scalar("SELECT merchant_id FROM activities WHERE id = $1")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let row = store::activities::activity(&app.db, mid, id)
            .await
            .unwrap()
            .unwrap();
        // 1,000 draws at once from 300 customers (3-4 tries each against a limit of 2 a day).
        let now = app.db.clock.platform_now();
        let mut tasks = vec![];
        for i in 0..1000 {
            let db = app.db.clone();
            let row = row.clone();
            tasks.push(tokio::spawn(async move {
                let person = format!("person{:03}", i % 300);
                services::activities::draw(&db, &row, &person, "page", 0, now)
                    .await
                    .map(|r| (person, r.won))
            }));
        }
        let mut ok: HashMap<String, i64> = HashMap::new();
        let mut refused = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok((p, _)) => *ok.entry(p).or_default() += 1,
                Err(services::ApiError::Invalid { field, .. }) => {
                    assert_eq!(field, "activity");
                    refused += 1
                }
                Err(e) => panic!("{backend:?}: {e:?}"),
            }
        }
        // Each person drew exactly min(tries, 2) times: 100 tried 4 times, 200 tried 3 times.
        assert_eq!(ok.len(), 300, "{backend:?}");
        assert!(ok.values().all(|n| *n == 2), "{backend:?}: {ok:?}");
        assert_eq!(refused, 1000 - 600, "{backend:?}");
        let draws: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM activity_draws WHERE activity_id = $1")
                .bind(id)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(draws, 600, "{backend:?}");
        // The 50% prize with stock 10 ran out (≈300 picks) and was won exactly 10 times.
        let won: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT p.name, p.issued, (SELECT COUNT(*) FROM activity_coupons c WHERE c.prize_id = p.id) \
             FROM activity_prizes p WHERE p.activity_id = $1 ORDER BY p.sort",
        )
        .bind(id)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(won[0], ("免单券".into(), 10, 10), "{backend:?}");
        assert!(
            won[1].1 > 50 && won[1].1 == won[1].2,
            "{backend:?}: {won:?}"
        );
        // Nobody holds more than one coupon of a prize a day, and every coupon has its draw.
        let per_person: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM activity_coupons WHERE activity_id = $1 \
             GROUP BY person, prize_id) x",
        )
        .bind(id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(per_person, 1, "{backend:?}");
        let (orphans, over, coupons) = store::activities::integrity(&app.db, id).await.unwrap();
        assert_eq!((orphans, over), (0, 0), "{backend:?}");
        assert_eq!(coupons, won[0].1 + won[1].1, "{backend:?}");
        // The console shows the same figures.
        let info = app
            .post(
                "/task.merchant_forward_task_activities/info",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(info.ok()["draws"], 600);
        assert_eq!(info.ok()["wins"], coupons);
        assert_eq!(info.ok()["prizes"][0]["issued"], 10);
    }
}

/// The public page's parts a phone would read.
struct Tap {
    status: u16,
    html: String,
}

impl Tap {
    fn attr(&self, testid: &str, attr: &str) -> String {
        let at = self
            .html
            .find(&format!("data-testid=\"{testid}\""))
            .unwrap_or_else(|| panic!("{testid} in {}", self.html));
        let tag_start = self.html[..at].rfind('<').unwrap();
        let tag_end = at + self.html[at..].find('>').unwrap();
        let tag = &self.html[tag_start..tag_end];
        let key = format!("{attr}=\"");
        let from = tag
            .find(&key)
            .map(|i| i + key.len())
            .unwrap_or_else(|| panic!("{attr} in {tag}"));
        let to = from + tag[from..].find('"').unwrap();
        tag[from..to].replace("&amp;", "&").replace("&quot;", "\"")
    }
}

/// The cookie of a phone whose device cookie the server made for `device`.
fn cookie(app: &TestApp, device: &str) -> String {
    format!(
        "cm_dev={}",
        services::nfc::sign_device(&app.state.jwt_key, device)
    )
}

async fn tap(app: &TestApp, code: &str, device: &str) -> Tap {
    let r = app
        .http
        .get(app.url(&format!("/t/{code}")))
        .header("cookie", cookie(app, device))
        .send()
        .await
        .unwrap();
    Tap {
        status: r.status().as_u16(),
        html: r.text().await.unwrap(),
    }
}

async fn draw(app: &TestApp, key: &str, device: &str, lang: &str) -> Value {
    app.http
        .post(app.url(&format!("/t/a/{key}/draw")))
        .header("cookie", cookie(app, device))
        .header("accept-language", lang)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

fn device(i: usize) -> String {
    format!("device{i:04}abcdefghijkl")
}

/// A tag's pool cannot be emptied by a script: a request without the phone's cookie (or with one the
/// server did not make) takes no video; a phone gets its video on the second request, made with the
/// cookie the first one set; new devices are rationed per address.
#[tokio::test]
async fn a_script_cannot_empty_a_tags_pool() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, |s| {
            // The budgets' minutes do not pass during the test, however slow the machine.
            let frozen: services::limits::Clock = std::sync::Arc::new(|| 1_000_000);
            s.public_limits = std::sync::Arc::new(services::nfc::PublicLimits::new(frozen));
        })
        .await;
        app.start_worker();
        let t = app.demo().await;
        let group = video_group(&app, &t, "门店视频", 5).await;
        let tag = app
            .post(
                "/nfc.index/add",
                Some(&t),
                json!({"name": "收银台", "platform": "dy", "pool_kind": "group", "pool_id": group,
                       "activity_id": 0, "enabled": true}),
            )
            .await;
        let (id, code) = (
            tag.ok()["id"].clone(),
            tag.ok()["code"].as_str().unwrap().to_string(),
        );
        let left = || async {
            let info = app
                .post("/nfc.index/info", Some(&t), json!({"id": id}))
                .await;
            info.ok()["pool_left"].as_i64().unwrap()
        };
        let plain = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let url = app.url(&format!("/t/{code}"));

        // A phone: the first request sets the device cookie and sends the phone back with it.
        let first = plain.get(&url).send().await.unwrap();
        assert_eq!(first.status(), 303, "{backend:?}");
        assert_eq!(first.headers()["location"], format!("/t/{code}?d=1"));
        let set = first.headers()["set-cookie"].to_str().unwrap();
        let jar = set.split(';').next().unwrap().to_string();
        assert!(set.contains("HttpOnly"), "{set}");
        assert_eq!(left().await, 5, "nothing handed out yet");
        let again = plain
            .get(app.url(&format!("/t/{code}?d=1")))
            .header("cookie", &jar)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 200);
        assert!(again.text().await.unwrap().contains("snssdk1128://"));
        assert_eq!(left().await, 4);
        // A cookie of the pages' first version (the bare id) still names a phone that tapped.
        let bare = jar.split_once('.').unwrap().0.to_string();
        let legacy = plain
            .get(&url)
            .header("cookie", &bare)
            .send()
            .await
            .unwrap();
        assert_eq!(legacy.status(), 200);
        assert_eq!(left().await, 4);

        // A script: no cookie (following the redirect or not), or one it made up.
        let mut answers = vec![];
        for i in 0..30 {
            let r = match i % 3 {
                0 => plain.get(&url).send().await.unwrap(),
                1 => app.http.get(&url).send().await.unwrap(),
                _ => plain
                    .get(&url)
                    .header("cookie", format!("cm_dev=script{i:04}abcdefghijkl"))
                    .send()
                    .await
                    .unwrap(),
            };
            let status = r.status().as_u16();
            let html = r.text().await.unwrap();
            assert!(!html.contains("snssdk1128://"), "request {i} took a video");
            answers.push((status, html));
        }
        // A browser that keeps no cookie is told so.
        assert_eq!(answers[1].0, 400);
        assert!(answers[1].1.contains("请允许本页使用 Cookie 后重新打开"));
        // Ten new devices from one address, then "too fast".
        assert_eq!(answers.last().unwrap().0, 429);
        assert!(answers.last().unwrap().1.contains("操作太频繁"));
        assert_eq!(left().await, 4, "{backend:?}");
    }
}

#[tokio::test]
async fn taps_hand_out_different_videos_and_posts_unlock_draws() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let group = video_group(&app, &t, "门店视频", 25).await;
        let a = app
            .post(
                "/task.merchant_forward_task_activities/add",
                Some(&t),
                activity_body(&app, "posters", json!([coupon("免单券", 100.0, 3, 1, 1)])),
            )
            .await;
        let activity = a.ok().clone();
        let key = activity["public_url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        let tag = app
            .post(
                "/nfc.index/add",
                Some(&t),
                json!({"name": "收银台", "platform": "dy", "pool_kind": "group", "pool_id": group,
                       "activity_id": activity["id"], "topics": ["探店"], "enabled": true}),
            )
            .await;
        let tag = tag.ok().clone();
        assert_eq!(
            (tag["pool_size"].as_i64(), tag["pool_left"].as_i64()),
            (Some(25), Some(25))
        );
        let code = tag["code"].as_str().unwrap().to_string();
        assert!(
            tag["url"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/t/{code}"))
        );
        app.post(
            "/nfc.index/title_add",
            Some(&t),
            json!({"tag_id": tag["id"], "titles": ["来打卡", "", "好吃不贵"]}),
        )
        .await
        .ok();

        // 20 phones tap: 20 different videos, each with a title from the list and a signed share.
        let mut schemas = vec![];
        for i in 0..20 {
            let p = tap(&app, &code, &device(i)).await;
            assert_eq!(p.status, 200, "{}", p.html);
            let title = p
                .html
                .split("data-testid=\"tap-title\">")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            assert!(["来打卡", "好吃不贵"].contains(&title), "{title}");
            let schema = p.attr("post-douyin", "href");
            assert!(
                schema.starts_with("snssdk1128://openplatform/share?"),
                "{schema}"
            );
            assert!(!p.attr("tap-video", "src").is_empty());
            schemas.push(schema);
        }
        let keys: Vec<(String, String)> =
            sqlx::query_as("SELECT device, video_key FROM nfc_taps ORDER BY id")
                .fetch_all(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(keys.len(), 20);
        assert_eq!(
            keys.iter().map(|k| &k.1).collect::<HashSet<_>>().len(),
            20,
            "{backend:?}"
        );
        // The same phone tapping again sees its video again, not a new one.
        let again = tap(&app, &code, &device(0)).await;
        assert_eq!(again.attr("post-douyin", "href"), schemas[0]);
        // The page names the shop (the merchant's name), in both languages.
        assert!(
            again
                .html
                .contains("<header>演示商户 Demo · 碰一碰发视频</header>"),
            "{}",
            again.html
        );
        let en = app
            .http
            .get(app.url(&format!("/t/{code}?lang=en")))
            .header("cookie", cookie(&app, &device(0)))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            en.contains("<title>演示商户 Demo · tap to post a video</title>")
                && en.contains("<header>演示商户 Demo · tap to post a video</header>"),
            "{en}"
        );
        let info = app
            .post("/nfc.index/info", Some(&t), json!({"id": tag["id"]}))
            .await;
        assert_eq!(info.ok()["pool_left"], 5);

        // Before posting there is no draw.
        let r = draw(&app, &key, &device(0), "zh-CN").await;
        assert_eq!(r["code"], 422);
        assert_eq!(r["message"], "发布视频后才能抽奖");
        let r = draw(&app, &key, &device(0), "en").await;
        assert_eq!(r["message"], "Post the video first to draw");

        // Five customers post; the first report arrives twice.
        let webhook = app.url("/webhook/dy");
        for (i, schema) in schemas.iter().take(5).enumerate() {
            let rate = if i == 0 { 1.0 } else { 0.0 };
            app.http
                .post(app.url("/sandbox/_control/webhook"))
                .json(&json!({"url": webhook, "duplicate_rate": rate}))
                .send()
                .await
                .unwrap();
            let done = app
                .http
                .post(app.url("/sandbox/dy/h5_publish"))
                .json(&json!({"schema": schema, "nickname": format!("顾客{i}")}))
                .send()
                .await
                .unwrap();
            assert!(done.status().is_success(), "{}", done.text().await.unwrap());
        }
        let mut posted = 0;
        for _ in 0..200 {
            posted = 0;
            for i in 0..5 {
                let s: Value = app
                    .http
                    .get(app.url(&format!("/t/{code}/status")))
                    .header("cookie", cookie(&app, &device(i)))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                if s["state"] == "posted" {
                    assert_eq!(s["can_draw"], true);
                    posted += 1;
                }
            }
            if posted == 5 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(posted, 5, "{backend:?}");
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nfc_taps WHERE state = 'posted'")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(rows, 5);
        // The customers' posts count in the shop's publishing figures.
        let d = app.get("/index/dashboard", Some(&t)).await;
        assert_eq!(d.ok()["publish"]["success"][6], 5, "{backend:?}");

        // Draws unlock only for those five, once per post; the stock of 3 goes to the first three.
        let mut codes = vec![];
        for i in 0..5 {
            let r = draw(&app, &key, &device(i), "zh-CN").await;
            assert_eq!(r["code"], 200, "{r}");
            if r["data"]["won"] == true {
                codes.push(r["data"]["coupon"]["code"].as_str().unwrap().to_string());
            } else {
                assert_eq!(r["data"]["prize_name"], "谢谢参与");
            }
            let again = draw(&app, &key, &device(i), "zh-CN").await;
            assert_eq!(again["code"], 422, "{again}");
        }
        assert_eq!(codes.len(), 3, "{backend:?}");
        let r = draw(&app, &key, &device(7), "zh-CN").await;
        assert_eq!(r["code"], 422);
        // The activity's page lists the phone's coupon.
        let page = app
            .http
            .get(app.url(&format!("/t/a/{key}")))
            .header("cookie", cookie(&app, &device(0)))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(page.contains(&codes[0]), "{page}");

        // Redeemed at the counter, typed loosely; twice is refused; another shop cannot.
        let typed = codes[0].to_lowercase().replace('-', " ");
        let r = app
            .post(
                "/task.merchant_forward_task_activities/redeem",
                Some(&t),
                json!({"code": typed}),
            )
            .await;
        assert_eq!(r.ok()["state"], "redeemed");
        assert_eq!(r.ok()["code"], codes[0]);
        let r = app
            .post(
                "/task.merchant_forward_task_activities/redeem",
                Some(&t),
                json!({"code": codes[0]}),
            )
            .await;
        r.expect(422);
        assert!(r.message().starts_with("该券已于"), "{}", r.message());
        app.post(
            "/task.merchant_forward_task_activities/redeem",
            Some(&t),
            json!({"code": "AAAA-BBBB-CCCC"}),
        )
        .await
        .expect(422);
        let other = app.second_merchant(&app.admin().await, "shop7").await;
        let r = app
            .post_en(
                "/task.merchant_forward_task_activities/redeem",
                Some(&other),
                json!({"code": codes[1]}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.message(), "No coupon has this code");
        for (path, body) in [
            ("/nfc.index/info", json!({"id": tag["id"]})),
            ("/nfc.index/delete", json!({"id": tag["id"]})),
            ("/nfc.index/stats", json!({"id": tag["id"], "days": 7})),
            ("/nfc.index/titles", json!({"tag_id": tag["id"]})),
            (
                "/task.merchant_forward_task_activities/info",
                json!({"id": activity["id"]}),
            ),
            (
                "/task.merchant_forward_task_activities/delete",
                json!({"id": activity["id"]}),
            ),
        ] {
            app.post(path, Some(&other), body).await.expect(404);
        }
        let mine = app.post("/nfc.index/index", Some(&other), json!({})).await;
        assert_eq!(mine.ok()["total"], 0);
        let logs = app
            .post(
                "/task.merchant_forward_task/get_task_luck_draw_log",
                Some(&other),
                json!({}),
            )
            .await;
        assert_eq!(logs.ok()["total"], 0);
        // Another shop's tag cannot take this shop's pool or activity.
        app.post(
            "/nfc.index/add",
            Some(&other),
            json!({"name": "x", "platform": "dy", "pool_kind": "group", "pool_id": group, "activity_id": 0}),
        )
        .await
        .expect(422);

        // Figures per tag, and the draw log and coupons in the console.
        let s = app
            .post(
                "/nfc.index/stats",
                Some(&t),
                json!({"id": tag["id"], "days": 7}),
            )
            .await;
        let totals = &s.ok()["totals"];
        assert_eq!(
            [
                &totals["shares"],
                &totals["posts"],
                &totals["draws"],
                &totals["coupons"],
                &totals["redeemed"]
            ],
            [&json!(20), &json!(5), &json!(5), &json!(3), &json!(1)],
            "{backend:?}"
        );
        // 20 first taps, the same phone again, and its English view of the page.
        assert_eq!(totals["taps"], 22);
        assert_eq!(s.ok()["days"].as_array().unwrap().len(), 7);
        let today = s.ok()["days"][6].clone();
        assert_eq!(
            (today["posts"].as_i64(), today["draws"].as_i64()),
            (Some(5), Some(5))
        );
        let log = app
            .post(
                "/task.merchant_forward_task/get_task_luck_draw_log",
                Some(&t),
                json!({"activity_id": activity["id"]}),
            )
            .await;
        assert_eq!(log.ok()["total"], 5);
        assert_eq!(log.ok()["rows"][0]["tag_name"], "收银台");
        assert_eq!(log.ok()["rows"][0]["source"], "nfc");
        let won = app
            .post(
                "/task.merchant_forward_task/get_task_luck_draw_log",
                Some(&t),
                json!({"filterObj": {"won": "1|="}}),
            )
            .await;
        assert_eq!(won.ok()["total"], 3);
        let issued = app
            .post(
                "/task.merchant_forward_task_activities/coupons",
                Some(&t),
                json!({"state": "issued"}),
            )
            .await;
        assert_eq!(issued.ok()["total"], 2);

        // Exports carry the same rows as the list.
        let csv = app
            .http
            .get(app.url("/api/task.merchant_forward_task_activities/export_coupons?format=csv"))
            .bearer_auth(&t)
            .send()
            .await
            .unwrap();
        assert_eq!(csv.status(), 200);
        assert!(
            csv.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .contains(".csv"),
            "{:?}",
            csv.headers()
        );
        let text = csv.text().await.unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.contains(&codes[0]) && text.contains("已核销"));
        let xlsx = app
            .http
            .get(app.url("/api/task.merchant_forward_task_activities/export_draws?format=xlsx"))
            .header("accept-language", "en")
            .bearer_auth(&t)
            .send()
            .await
            .unwrap();
        assert_eq!(xlsx.status(), 200);
        let bytes = xlsx.bytes().await.unwrap();
        assert_eq!(&bytes[..2], b"PK");
        let sheet = String::from_utf8_lossy(&bytes);
        assert!(sheet.contains("Drawn at") && sheet.contains(&codes[2]));
        app.get_q(
            "/task.merchant_forward_task_activities/export_draws",
            Some(&t),
            json!({"format": "pdf"}),
        )
        .await
        .expect(422);

        // A week later unredeemed coupons have expired and are refused at the counter.
        app.db.clock.advance(8 * DAY);
        let r = app
            .post(
                "/task.merchant_forward_task_activities/redeem",
                Some(&t),
                json!({"code": codes[1]}),
            )
            .await;
        r.expect(422);
        assert!(r.message().starts_with("该券已于"), "{}", r.message());
        let expired = app
            .post(
                "/task.merchant_forward_task_activities/coupons",
                Some(&t),
                json!({"state": "expired"}),
            )
            .await;
        assert_eq!(expired.ok()["total"], 2);
    }
}

#[tokio::test]
async fn an_empty_pool_says_so_and_a_flooding_phone_is_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let group = video_group(&app, &t, "两个视频", 2).await;
    let tag = app
        .post(
            "/nfc.index/add",
            Some(&t),
            json!({"name": "门口", "platform": "dy", "pool_kind": "group", "pool_id": group, "activity_id": 0, "topics": []}),
        )
        .await;
    let code = tag.ok()["code"].as_str().unwrap().to_string();
    assert_eq!(tap(&app, &code, &device(1)).await.status, 200);
    assert_eq!(tap(&app, &code, &device(2)).await.status, 200);
    let third = tap(&app, &code, &device(3)).await;
    assert_eq!(third.status, 200);
    assert!(
        third.html.contains("data-testid=\"pool-empty\""),
        "{}",
        third.html
    );
    assert!(third.html.contains("视频已发完"));
    let r = app.post("/nfc.index/index", Some(&t), json!({})).await;
    assert_eq!(r.ok()["rows"][0]["pool_left"], 0);
    // A disabled tag is not in use.
    let mut body = tag.ok().clone();
    body["enabled"] = json!(false);
    app.post("/nfc.index/edit", Some(&t), body).await.ok();
    assert_eq!(tap(&app, &code, &device(1)).await.status, 404);
    // 100 taps in a burst from one phone: the first ones pass, the rest are told to wait.
    let mut statuses: HashMap<u16, usize> = HashMap::new();
    for _ in 0..100 {
        *statuses
            .entry(tap(&app, "no-such-tag", &device(9)).await.status)
            .or_default() += 1;
    }
    assert!(statuses[&429] >= 80, "{statuses:?}");
    // No video was handed out beyond the pool.
    let taps: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nfc_taps")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(taps, 2);
}

#[tokio::test]
async fn staff_need_the_menus_and_bad_input_names_the_field() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let demo = app.demo().await;
        let events = app.menu_id(&demo, "/Events").await;
        let log = app.menu_id(&demo, "/log").await;
        app.post(
            "/user.merchant_user_sub/add",
            Some(&demo),
            json!({"username":"nomenu","nickname":"N","password":"abc12345","menu_ids":[log]}),
        )
        .await
        .ok();
        app.post("/user.merchant_user_sub/add", Some(&demo), json!({"username":"cashier","nickname":"收银员","password":"abc12345","menu_ids":[events]}))
            .await
            .ok();
        let nomenu = app.login(3, "nomenu", "abc12345").await;
        let cashier = app.login(3, "cashier", "abc12345").await;
        for path in [
            "/task.merchant_forward_task_activities/index",
            "/task.merchant_forward_task_activities/add",
            "/task.merchant_forward_task_activities/redeem",
            "/task.merchant_forward_task_activities/coupons",
            "/task.merchant_forward_task/get_task_luck_draw_log",
            "/nfc.index/index",
            "/nfc.index/add",
            "/nfc.index/stats",
        ] {
            app.post(path, Some(&nomenu), json!({})).await.expect(403);
        }
        app.get_q(
            "/task.merchant_forward_task_activities/export_draws",
            Some(&nomenu),
            json!({"format": "csv"}),
        )
        .await
        .expect(403);
        // The activities menu grants activities, not NFC tags.
        app.post(
            "/task.merchant_forward_task_activities/index",
            Some(&cashier),
            json!({}),
        )
        .await
        .ok();
        app.post("/nfc.index/index", Some(&cashier), json!({}))
            .await
            .expect(403);
        let r = app.post("/nfc.index/add", Some(&cashier), json!({})).await;
        r.expect(403);
        assert!(r.message().contains("NFC"), "{}", r.message());

        // Bad input: 422 naming the field, in both languages.
        let add = "/task.merchant_forward_task_activities/add";
        let r = app
            .post(
                add,
                Some(&demo),
                activity_body(
                    &app,
                    "anyone",
                    json!([coupon("a", 60.0, 1, 1, 1), coupon("b", 50.0, 1, 1, 1)]),
                ),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "prizes");
        assert_eq!(r.message(), "所有奖品的中奖概率之和为 110%，不能超过 100%");
        let r = app
            .post_en(
                add,
                Some(&demo),
                activity_body(&app, "anyone", json!([coupon("a", 0.001, 1, 1, 1)])),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "odds");
        assert_eq!(
            r.message(),
            "Odds must be between 0.01% and 100%, with at most two decimals"
        );
        let mut b = activity_body(&app, "anyone", json!([coupon("a", 10.0, 1, 1, 1)]));
        b["name"] = json!("  ");
        let r = app.post_en(add, Some(&demo), b).await;
        r.expect(422);
        assert_eq!(r.data()["field"], "name");
        let mut b = activity_body(&app, "everyone", json!([coupon("a", 10.0, 1, 1, 1)]));
        b["who"] = json!("everyone");
        app.post(add, Some(&demo), b).await.expect(422);
        let r = app
            .post(
                add,
                Some(&demo),
                activity_body(&app, "anyone", json!([coupon("a", 10.0, 0, 1, 1)])),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "stock");
        let r = app
            .post(
                "/nfc.index/add",
                Some(&demo),
                json!({"name": "x", "platform": "dy", "pool_kind": "group", "pool_id": 999999, "activity_id": 0}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "pool_id");
        let r = app
            .post(
                "/nfc.index/add",
                Some(&demo),
                json!({"name": "x", "platform": "ks", "pool_kind": "group", "pool_id": 1, "activity_id": 0}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "platform");
        let r = app
            .post(
                "/nfc.index/title_add",
                Some(&demo),
                json!({"tag_id": 1, "titles": ["好"]}),
            )
            .await;
        r.expect(404);

        // Editing keeps what was issued: a prize that issued coupons stays, its stock cannot drop below.
        let a = app
            .post(
                add,
                Some(&demo),
                activity_body(&app, "anyone", json!([coupon("a", 100.0, 5, 1, 1)])),
            )
            .await;
        let a = a.ok().clone();
        let row = store::activities::activity_by_key(
            &app.db,
            a["public_url"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
        services::activities::draw(&app.db, &row, "p1", "page", 0, app.db.clock.platform_now())
            .await
            .unwrap();
        let mut edit = activity_body(&app, "anyone", json!([]));
        edit["id"] = a["id"].clone();
        let r = app
            .post(
                "/task.merchant_forward_task_activities/edit",
                Some(&demo),
                edit.clone(),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "prizes");
        edit["prizes"] = json!([coupon("b", 50.0, 5, 1, 1)]);
        let r = app
            .post(
                "/task.merchant_forward_task_activities/edit",
                Some(&demo),
                edit.clone(),
            )
            .await;
        r.expect(422);
        assert_eq!(r.message(), "奖品“a”已发出 1 张优惠券，不能删除");
        let mut p = coupon("a2", 40.0, 0, 1, 1);
        p["id"] = a["prizes"][0]["id"].clone();
        p["stock"] = json!(1);
        edit["prizes"] = json!([p]);
        let r = app
            .post(
                "/task.merchant_forward_task_activities/edit",
                Some(&demo),
                edit.clone(),
            )
            .await;
        assert_eq!(r.ok()["prizes"][0]["name"], "a2");
        assert_eq!(r.ok()["prizes"][0]["issued"], 1);
    }
}
