//! Spreadsheet exports of the list pages (issue 44 part 3): each takes its list's own filters, holds
//! only the caller's merchant's rows, names columns and states in the caller's language, is refused
//! to a staff member without the list's menu, and names `format` when it is not xlsx or csv.

use crate::common::*;
use serde_json::{Value, json};

/// An export's answer: status, content type and bytes.
async fn fetch(
    app: &TestApp,
    path: &str,
    token: &str,
    q: Value,
    lang: &str,
) -> (u16, String, Vec<u8>) {
    let pairs: Vec<(String, String)> = q
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().map(str::to_string).unwrap_or(v.to_string()),
            )
        })
        .collect();
    let r = app
        .http
        .get(app.url(&format!("/api{path}")))
        .query(&pairs)
        .header("accept-language", lang)
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let ctype = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ctype, r.bytes().await.unwrap().to_vec())
}

/// The CSV's rows (header first), each cell as written (no quoting in these tests' values).
async fn csv(app: &TestApp, path: &str, token: &str, mut q: Value) -> Vec<Vec<String>> {
    q["format"] = json!("csv");
    let (status, ctype, bytes) = fetch(app, path, token, q, "zh-CN").await;
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
    assert!(ctype.starts_with("text/csv"), "{ctype}");
    let text = String::from_utf8(bytes).unwrap();
    let text = text.strip_prefix('\u{feff}').expect("a byte-order mark");
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// The xlsx's cells in English, read back by Python's zip reader and XML parser.
async fn xlsx(app: &TestApp, path: &str, token: &str, mut q: Value) -> Vec<Vec<String>> {
    q["format"] = json!("xlsx");
    let (status, ctype, bytes) = fetch(app, path, token, q, "en").await;
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
    assert!(ctype.contains("spreadsheetml"), "{ctype}");
    assert_eq!(&bytes[..2], b"PK");
    let file = std::env::temp_dir().join(format!("cm-sheet-{}.xlsx", store::random_token(8)));
    std::fs::write(&file, &bytes).unwrap();
    let script = r#"
import sys, zipfile, json, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
root = ET.fromstring(z.read('xl/worksheets/sheet1.xml'))
rows = []
for row in root.iter('{%s}row' % ns['m']):
    cells = []
    for c in row:
        t = c.find('m:is/m:t', ns)
        cells.append((t.text or '') if t is not None else c.find('m:v', ns).text)
    rows.append(cells)
print(json.dumps(rows))
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&file)
        .output()
        .expect("python3");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn has(rows: &[Vec<String>], text: &str) -> bool {
    rows.iter().skip(1).any(|r| r.iter().any(|c| c == text))
}

async fn merchant_of(app: &TestApp, username: &str) -> i64 {
    sqlx::query_scalar("SELECT merchant_id FROM users WHERE username = $1")
        .bind(username)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn account(app: &TestApp, mid: i64, platform: &str, name: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO matrix_accounts (merchant_id, platform, open_id, nickname, avatar, access_token, refresh_token, \
           token_expires_at, auth_expires_at, group_id, sandbox, created_at, updated_at, scope) \
         VALUES ($1, $2, $3, $3, '', 't', 'r', $4, $4, 0, 1, 0, 0, '') RETURNING id",
    )
    .bind(mid)
    .bind(platform)
    .bind(name)
    .bind(app.db.clock.platform_now() + 300 * 86_400_000)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

async fn task(app: &TestApp, mid: i64, name: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO matrix_tasks (merchant_id, name, platform, time_mode, start_date, days, daily_quantity, \
           review_state, review_due_at, seed, created_at, updated_at) \
         VALUES ($1, $2, 'dy', 'random', '2026-01-01', 1, 1, 'approved', 0, 1, 0, 0) RETURNING id",
    )
    .bind(mid)
    .bind(name)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

async fn item(app: &TestApp, mid: i64, task: i64, account: i64, title: &str, state: &str) {
    sqlx::query(
        "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, video_name, title, \
           scheduled_at, review_state, state, created_at, updated_at) \
         VALUES ($1, $2, $3, 'dy', $4, $4, $4, 0, 'approved', $5, 0, 0)",
    )
    .bind(mid)
    .bind(task)
    .bind(account)
    .bind(title)
    .bind(state)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

async fn variant(app: &TestApp, mid: i64, seq: i64, state: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO clip_variants (merchant_id, project_id, seq, state, progress, duration_ms, video_key, cover_key, \
         created_at, updated_at) VALUES ($1, 0, $2, $3, 100, 2000, '', '', 0, 0) RETURNING id",
    )
    .bind(mid)
    .bind(format!("[{seq}]"))
    .bind(state)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

async fn comment(app: &TestApp, mid: i64, platform: &str, text: &str) {
    sqlx::query(
        "INSERT INTO eng_comments (merchant_id, account_id, platform, item_id, item_title, comment_id, \
         content, created_at, intent, synced_at) VALUES ($1, 0, $2, 'v1', '夏季新款', $3, $3, 0, '', 0)",
    )
    .bind(mid)
    .bind(platform)
    .bind(text)
    .execute(&app.db.pool)
    .await
    .unwrap();
}

/// A staff member of the demo merchant granted only `menu`; their token.
async fn staff(app: &TestApp, demo: &str, username: &str, menu: &str) -> String {
    let id = app.menu_id(demo, menu).await;
    app.post(
        "/user.merchant_user_sub/add",
        Some(demo),
        json!({"username": username, "nickname": username, "password": "abc12345", "menu_ids": [id]}),
    )
    .await
    .ok();
    app.login(3, username, "abc12345").await
}

const ACCOUNTS: &str = "/task.merchant_group_user/export";
const TASKS: &str = "/task.merchant_forward_task/export";
const ITEMS: &str = "/task.merchant_forward_task/export_items";
const VIDEOS: &str = "/clip.merchant_video_library/export";
const LOG: &str = "/index/log/export";
const COMMENTS: &str = "/task.merchant_comment/export";
const USAGE: &str = "/common.merchant_usage_record/export";
const MATERIALS: &str = "/media.merchant_much_resource/export";
const LEXICON: &str = "/seo.merchant_seo_lexicon/export";
/// The voice, music, image and font libraries: the material export's code with another library.
const LIBRARIES: [&str; 4] = [
    "/bpdr.merchant_mediainfo/voice_export",
    "/media.merchant_producing_upfile/music_export",
    "/media.merchant_producing_upfile/image_export",
    "/media.merchant_font_style/export",
];

#[tokio::test]
async fn list_exports_hold_the_filtered_rows_of_the_callers_merchant() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let other = app.second_merchant(&admin, "sheetshop").await;
        let (me, them) = (
            demo_merchant(&app).await,
            merchant_of(&app, "sheetshop").await,
        );

        let a1 = account(&app, me, "dy", "甲账号").await;
        let a2 = account(&app, me, "xhs", "乙账号").await;
        let a3 = account(&app, them, "dy", "别家账号").await;
        let t1 = task(&app, me, "春季上新").await;
        let t3 = task(&app, them, "别家任务").await;
        item(&app, me, t1, a1, "帽子一号", "published").await;
        item(&app, me, t1, a2, "帽子二号", "failed").await;
        item(&app, them, t3, a3, "别家视频", "failed").await;
        let v_ok = variant(&app, me, 1, "success").await;
        let v_bad = variant(&app, me, 2, "failed").await;
        let v_them = variant(&app, them, 3, "success").await;
        comment(&app, me, "dy", "多少钱一顶").await;
        comment(&app, me, "ks", "有没有黑色").await;
        comment(&app, them, "dy", "别家评论").await;
        // The operation log: each merchant adds a staff member (a logged change).
        let nomenu = staff(&app, &demo, "sheetnomenu", "/log").await;
        let accounts_only = staff(&app, &demo, "sheetaccounts", "/account_auth").await;
        app.post(
            "/user.merchant_user_sub/add",
            Some(&other),
            json!({"username": "sheetother", "nickname": "x", "password": "abc12345", "menu_ids": []}),
        )
        .await
        .ok();

        // Accounts: the platform filter narrows, zh headers and state words, no other merchant's.
        let rows = csv(&app, ACCOUNTS, &demo, json!({"platform": "dy"})).await;
        assert_eq!(rows[0][2], "昵称", "{rows:?}");
        assert!(
            has(&rows, "甲账号") && has(&rows, "正常") && has(&rows, "抖音"),
            "{rows:?}"
        );
        assert!(!has(&rows, "乙账号") && !has(&rows, "别家账号"), "{rows:?}");
        let rows = csv(&app, ACCOUNTS, &demo, json!({})).await;
        assert_eq!(rows.len(), 3, "{rows:?}");
        let rows = xlsx(&app, ACCOUNTS, &demo, json!({"nickname": "乙"})).await;
        assert_eq!(rows[0][2], "Nickname");
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[1][1], "Xiaohongshu");
        assert_eq!(rows[1][6], "Active");
        // The list engine's own filters (filterObj) narrow the same way.
        let rows = csv(
            &app,
            ACCOUNTS,
            &demo,
            json!({"filterObj": json!({"nickname": "甲|include"}).to_string()}),
        )
        .await;
        assert_eq!(rows.len(), 2, "{rows:?}");

        // Release tasks and items.
        let rows = csv(&app, TASKS, &demo, json!({})).await;
        assert!(
            has(&rows, "春季上新") && !has(&rows, "别家任务"),
            "{rows:?}"
        );
        let rows = csv(&app, ITEMS, &demo, json!({"state": "failed"})).await;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(has(&rows, "帽子二号") && has(&rows, "发布失败"), "{rows:?}");
        let rows = xlsx(&app, ITEMS, &demo, json!({"task_id": t1})).await;
        assert_eq!(rows[0][7], "State");
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert!(has(&rows, "Published") && has(&rows, "Failed") && !has(&rows, "别家视频"));
        // Another merchant's task is not found, not exported.
        let (status, _, _) = fetch(
            &app,
            ITEMS,
            &demo,
            json!({"task_id": t3, "format": "csv"}),
            "zh-CN",
        )
        .await;
        assert_ne!(status, 200);

        // Finished videos.
        let rows = csv(&app, VIDEOS, &demo, json!({"state": "success"})).await;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[1][0], v_ok.to_string());
        assert_eq!(rows[1][2], "合成成功");
        let rows = xlsx(&app, VIDEOS, &demo, json!({})).await;
        let ids: Vec<&str> = rows.iter().skip(1).map(|r| r[0].as_str()).collect();
        assert!(ids.contains(&v_bad.to_string().as_str()), "{rows:?}");
        assert!(!ids.contains(&v_them.to_string().as_str()), "{rows:?}");

        // Comments.
        let rows = csv(&app, COMMENTS, &demo, json!({"platform": "ks"})).await;
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(has(&rows, "有没有黑色") && has(&rows, "快手"), "{rows:?}");
        let rows = xlsx(&app, COMMENTS, &demo, json!({})).await;
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert!(has(&rows, "Visible") && !has(&rows, "别家评论"), "{rows:?}");

        // The operation log: the action filter narrows; the other merchant's rows never appear.
        let rows = csv(&app, LOG, &demo, json!({"action": "merchant_user_sub/add"})).await;
        assert_eq!(rows[0][0], "时间");
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert!(
            rows.iter()
                .skip(1)
                .all(|r| r[1] == "demo" && r[3] == "成功"),
            "{rows:?}"
        );
        let rows = xlsx(&app, LOG, &demo, json!({})).await;
        assert_eq!(rows[0][2], "Action");
        assert!(
            !rows.iter().any(|r| r.iter().any(|c| c == "sheetshop")),
            "{rows:?}"
        );

        // The other lists answer a file with their headers.
        let libraries = LIBRARIES.map(|p| (p, "编号"));
        for (path, first) in [(USAGE, "时间"), (MATERIALS, "编号"), (LEXICON, "编号")]
            .into_iter()
            .chain(libraries)
        {
            let rows = csv(&app, path, &demo, json!({})).await;
            assert_eq!(rows[0][0], first, "{path}");
        }

        // A staff member without the list's menu is refused; one with it is not.
        for path in [
            ACCOUNTS, TASKS, ITEMS, VIDEOS, COMMENTS, USAGE, MATERIALS, LEXICON,
        ]
        .into_iter()
        .chain(LIBRARIES)
        {
            let (status, _, body) =
                fetch(&app, path, &nomenu, json!({"format": "csv"}), "zh-CN").await;
            assert_eq!(status, 403, "{path}: {}", String::from_utf8_lossy(&body));
        }
        let (status, _, _) =
            fetch(&app, LOG, &accounts_only, json!({"format": "csv"}), "zh-CN").await;
        assert_eq!(status, 403);
        let rows = csv(&app, ACCOUNTS, &accounts_only, json!({})).await;
        assert_eq!(rows.len(), 3);
        let rows = csv(&app, LOG, &nomenu, json!({})).await;
        assert!(rows.len() > 1);

        // A format that is neither xlsx nor csv is 422 naming `format`, in both languages.
        for path in [ACCOUNTS, ITEMS, VIDEOS, LOG, COMMENTS] {
            let r = app.get_q(path, Some(&demo), json!({"format": "pdf"})).await;
            r.expect(422);
            assert_eq!(r.data()["field"], "format", "{path}: {}", r.body);
        }
        let r = app
            .call(
                "GET",
                ACCOUNTS,
                Some(&demo),
                Some(json!({"format": "pdf"})),
                "en",
            )
            .await;
        r.expect(422);
        assert!(r.message().contains("xlsx | csv"), "{}", r.message());
        // A bad filter is refused as the list refuses it.
        app.get_q(LEXICON, Some(&demo), json!({"kind": "nope"}))
            .await
            .expect(422);
        let _ = a3;
    }
}
