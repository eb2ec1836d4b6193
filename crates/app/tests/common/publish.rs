//! Helpers of the stories that authorize accounts and publish through the whole pipeline (matrix,
//! engagement): the sandbox's consent and QR pages clicked through, videos, a release task posted now.

use super::*;
use serde_json::{Value, json};
use std::time::Duration;

pub fn no_redirect() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// What a browser submits from a page's inputs: hidden and text ones, and ticked checkboxes.
pub fn form_fields(html: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    for part in html.split("<input").skip(1) {
        let tag = &part[..part.find('>').unwrap_or(part.len())];
        let attr = |name: &str| {
            let key = format!("{name}=\"");
            part.find(&key).map(|i| {
                let rest = &part[i + key.len()..];
                rest[..rest.find('"').unwrap()]
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

/// `n` ready uploaded videos: one goes through the real upload + ingest, the rest are copies of
/// its row (same file) so the test does not transcode n times.
pub async fn videos(app: &TestApp, t: &str, n: usize) -> Vec<i64> {
    let bytes = ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            "color=c=blue:s=360x640:r=30",
            "-f",
            "lavfi",
            "-i",
            "sine=f=440",
            "-t",
            "1",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
        ],
        "mp4",
    );
    let r = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            t,
            &[],
            "shop.mp4",
            bytes,
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    app.wait_ready(t, &[id]).await;
    let mut ids = vec![id];
    for i in 1..n {
        let new: i64 = sqlx::query_scalar(
            "INSERT INTO media_files (merchant_id, library, kind, group_id, name, original_name, storage_key, mime, size, width, \
               height, duration_ms, state, created_at, updated_at) \
             SELECT merchant_id, library, kind, group_id, name || $2, original_name, storage_key, mime, size, width, height, \
               duration_ms, state, created_at, updated_at FROM media_files WHERE id = $1 RETURNING id",
        )
        .bind(id)
        .bind(format!(" #{i}"))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        ids.push(new);
    }
    ids
}

/// Moves the platform clock just past the last scheduled post of a task.
pub async fn past_the_plan(app: &TestApp, t: &str, task_id: i64) {
    let last = items(app, t, task_id)
        .await
        .iter()
        .map(|i| i["scheduled_at"].as_i64().unwrap())
        .max()
        .unwrap();
    app.db.clock.advance_to(last + 60_000);
}

/// A timed one-day schedule a few minutes ahead on the platform clock (its date too, so it works
/// across midnight): the posts are due after `past_the_plan`, without skipping days.
pub fn soon(app: &TestApp) -> Value {
    use domain::matrix::{TZ_OFFSET_MS, day_of, fmt_day};
    let t = app.db.clock.platform_now() + 3 * 60_000;
    let m = (t + TZ_OFFSET_MS).rem_euclid(86_400_000) / 60_000;
    json!({"days": 1, "daily_quantity": 1, "time_mode": "timed", "times": [format!("{:02}:{:02}", m / 60, m % 60)],
           "start_date": fmt_day(day_of(t))})
}

pub fn today(app: &TestApp) -> String {
    domain::matrix::fmt_day(domain::matrix::day_of(app.db.clock.platform_now()))
}

pub fn task(app: &TestApp, accounts: &[i64], materials: &[i64], extra: Value) -> Value {
    let mut v = json!({
        "name": "春季上新", "titles": "春天的第一杯奶茶#周末就来这里", "topics": ["探店", "#美食"],
        "top_comments": "好喝！\n下次还来\n推荐给朋友", "at_users": [], "mount_type": "none",
        "time_mode": "random", "start_date": today(app), "daily_quantity": 1, "days": 3, "times": [],
        "account_ids": accounts, "material_ids": materials,
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

pub async fn sandbox(app: &TestApp, path: &str, body: Option<Value>) -> Value {
    let url = app.url(&format!("/sandbox/_control/{path}"));
    let req = match body {
        Some(b) => app.http.post(url).json(&b),
        None => app.http.get(url),
    };
    req.send().await.unwrap().json().await.unwrap()
}

pub async fn items(app: &TestApp, t: &str, task_id: i64) -> Vec<Value> {
    let r = app
        .post(
            "/task.merchant_forward_task/forward_video_release",
            Some(t),
            json!({"task_id": task_id, "limit": 100}),
        )
        .await;
    r.ok()["rows"].as_array().unwrap().clone()
}

/// Waits until every item of a task is in one of `states`.
pub async fn wait_items(app: &TestApp, t: &str, task_id: i64, states: &[&str]) -> Vec<Value> {
    for _ in 0..1200 {
        let rows = items(app, t, task_id).await;
        if rows
            .iter()
            .all(|i| states.contains(&i["state"].as_str().unwrap()))
        {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "items did not reach {states:?}: {:#?}",
        items(app, t, task_id).await
    );
}

/// A one-day task posting `vids` on `accounts` at 00:00, approved, the clock an hour on: the items
/// once each has ended (published, released or failed).
pub async fn publish_now(
    app: &TestApp,
    t: &str,
    admin: &str,
    accounts: &[i64],
    vids: &[i64],
) -> Vec<Value> {
    publish_now_with(app, t, admin, accounts, vids, |_| {}).await
}

/// [`publish_now`] with the task form changed by `edit` first (a declaration, a mount...).
pub async fn publish_now_with(
    app: &TestApp,
    t: &str,
    admin: &str,
    accounts: &[i64],
    vids: &[i64],
    edit: impl FnOnce(&mut Value),
) -> Vec<Value> {
    let tid = due_task(app, t, admin, accounts, vids, edit).await;
    wait_items(app, t, tid, &["published", "released", "failed"]).await
}

/// A one-day task posting `vids` on `accounts` (edited by `edit`), approved, the clock past its plan:
/// its items are due now. The task's id.
pub async fn due_task(
    app: &TestApp,
    t: &str,
    admin: &str,
    accounts: &[i64],
    vids: &[i64],
    edit: impl FnOnce(&mut Value),
) -> i64 {
    let mut req = task(app, accounts, vids, soon(app));
    edit(&mut req);
    let r = app
        .post(
            "/matrix.merchant_publish_management/createCommonPublishTask",
            Some(t),
            req,
        )
        .await;
    let tid = r.ok()["task"]["id"].as_i64().unwrap();
    app.post("/system/audit/approve", Some(admin), json!({"id": tid}))
        .await
        .ok();
    past_the_plan(app, t, tid).await;
    tid
}

/// One walk through an OAuth platform's consent page, approving: what each step answered.
pub struct Consent {
    kind: Value,
    page: String,
    approve_status: reqwest::StatusCode,
    back: String,
    callback_status: reqwest::StatusCode,
    callback_headers: reqwest::header::HeaderMap,
    to: String,
    http: reqwest::Client,
}

async fn consent(app: &TestApp, t: &str, platform: &str) -> Consent {
    let r = app
        .post(
            "/task.merchant_group_user/get_qrCode",
            Some(t),
            json!({"platform": platform}),
        )
        .await;
    let url = r.ok()["url"].as_str().unwrap().to_string();
    Consent {
        kind: r.ok()["kind"].clone(),
        ..approve_consent(&url, None).await
    }
}

/// Opens the consent page at `url`, approves it as a person does (as `nickname`, else the page's
/// suggestion) and follows the platform's redirect to the app's callback: what each step answered
/// (`to`: where the app then sends the person).
pub async fn approve_consent(url: &str, nickname: Option<&str>) -> Consent {
    let http = no_redirect();
    let page = http.get(url).send().await.unwrap().text().await.unwrap();
    let mut fields = form_fields(&page);
    if let Some(n) = nickname {
        fields.retain(|(k, _)| k != "nickname");
        fields.push(("nickname".into(), n.into()));
    }
    fields.push(("action".into(), "approve".into()));
    let res = http.post(url).form(&fields).send().await.unwrap();
    let approve_status = res.status();
    let back = res.headers()["location"].to_str().unwrap().to_string();
    let res = http.get(&back).send().await.unwrap();
    let to = res.headers()["location"].to_str().unwrap().to_string();
    Consent {
        kind: Value::Null,
        page,
        approve_status,
        back,
        callback_status: res.status(),
        callback_headers: res.headers().clone(),
        to,
        http,
    }
}

impl Consent {
    /// The account the approval added (the app's redirect names it).
    pub fn account(&self) -> i64 {
        assert!(
            self.to.starts_with("/account_auth?authorized="),
            "{}",
            self.to
        );
        self.to.rsplit('=').next().unwrap().parse().unwrap()
    }
}

/// Consent-page authorization for an OAuth platform (DY, KS); returns the account id.
pub async fn authorize_oauth(app: &TestApp, t: &str, platform: &str) -> i64 {
    consent(app, t, platform).await.account()
}

/// Clicks through the sandbox's Douyin consent page like a person would, checking every step;
/// returns the account id.
pub async fn authorize_dy(app: &TestApp, t: &str) -> i64 {
    let c = consent(app, t, "dy").await;
    assert_eq!(c.kind, "oauth");
    assert!(c.page.contains("id=\"approve\""), "{}", c.page);
    assert!(c.approve_status.is_redirection(), "{}", c.approve_status);
    assert!(c.back.contains("/oauth/dy/callback"), "{}", c.back);
    assert!(
        c.callback_status.is_redirection(),
        "{}: {} {:?}",
        c.back,
        c.callback_status,
        c.callback_headers
    );
    // The code is single use: replaying the callback does not add or change anything.
    let again = c.http.get(&c.back).send().await.unwrap();
    assert!(
        again.headers()["location"]
            .to_str()
            .unwrap()
            .contains("auth_error")
    );
    c.account()
}

/// QR login for a creator-console platform (SPH, XHS, shop) through the generic call, its console
/// driven in the browser (the app must be `TestApp::spawn_with_browser`); the sandbox's phone scans
/// as a fresh name. Returns the account id.
pub async fn authorize_qr(app: &TestApp, t: &str, platform: &str) -> i64 {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let user = format!("{platform}达人{n}");
    console_account(app, t, platform, &user).await["id"]
        .as_i64()
        .unwrap()
}

/// An account of a creator-console platform authorized through its console's QR (the sandbox's
/// phone scans it as `user`): the account's row as the login answered it.
pub async fn console_account(app: &TestApp, t: &str, platform: &str, user: &str) -> Value {
    console_account_via(app, t, platform, user, "").await
}

/// [`console_account`] with the login's page going through `proxy` ("" none).
pub async fn console_account_via(
    app: &TestApp,
    t: &str,
    platform: &str,
    user: &str,
    proxy: &str,
) -> Value {
    let mut ask = json!({"platform": platform});
    if !proxy.is_empty() {
        ask["proxy"] = json!(proxy);
    }
    let start = app
        .post("/task.merchant_group_user/qr_login", Some(t), ask)
        .await;
    let login_id = start.ok()["login_id"].clone();
    let img = start.ok()["qr_image"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(img.starts_with("data:image/png;base64,"), "{}", start.body);
    let scanned = sandbox(
        app,
        &format!("console/{platform}/scan"),
        Some(json!({"user": user})),
    )
    .await;
    assert_eq!(scanned["ok"], true, "{scanned}");
    for _ in 0..40 {
        let r = app
            .post(
                "/task.merchant_group_user/qr_login",
                Some(t),
                json!({"platform": platform, "login_id": login_id}),
            )
            .await;
        if r.ok()["state"] == "logged_in" {
            return r.ok()["account"].clone();
        }
    }
    panic!("{user} did not log in to {platform}");
}

/// A Xiaohongshu account authorized through its console's QR (the sandbox's phone scans it as
/// `user`): the account's row as the login answered it.
pub async fn xhs_console_account(app: &TestApp, t: &str, user: &str) -> Value {
    console_account(app, t, "xhs", user).await
}
