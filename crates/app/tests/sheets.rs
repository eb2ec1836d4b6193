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

// --- imports: release batches (issue 44) ---

const BATCH_READ: &str = "/task.merchant_forward_task/batch_read";
const BATCH_IMPORT: &str = "/task.merchant_forward_task/batch_import";
const BATCH_ADD: &str = "/task.merchant_forward_task/batch_add";
const BATCH_TEMPLATE: &str = "/task.merchant_forward_task/batch_template";

/// A finished video of the library (a successful variant with its file).
async fn finished(app: &TestApp, mid: i64, seq: i64) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO clip_variants (merchant_id, project_id, seq, state, progress, duration_ms, video_key, cover_key, \
         created_at, updated_at) VALUES ($1, 0, $2, 'success', 100, 2000, 'videos/batch.mp4', '', 0, 0) RETURNING id",
    )
    .bind(mid)
    .bind(format!("[{seq}]"))
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

/// Uploads a sheet to `path` in `lang`.
async fn upload_sheet(
    app: &TestApp,
    path: &str,
    token: &str,
    name: &str,
    bytes: Vec<u8>,
    lang: &str,
) -> Resp {
    let fields = [("name", "批量任务".to_string())];
    upload_with(app, path, token, &fields, name, bytes, lang).await
}

/// Uploads a sheet to `path` in `lang`, with text fields.
async fn upload_with(
    app: &TestApp,
    path: &str,
    token: &str,
    fields: &[(&'static str, String)],
    name: &str,
    bytes: Vec<u8>,
    lang: &str,
) -> Resp {
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.upload_lang(path, token, &fields, name, bytes, lang)
        .await
}

/// The batch's rows: 50 posts over two accounts (three a day each) from tomorrow, China time.
fn batch_rows(app: &TestApp, videos: &[i64], accounts: [&str; 2]) -> Vec<Vec<String>> {
    let today = domain::matrix::day_of(app.db.clock.platform_now());
    (0..50)
        .map(|i| {
            let day = domain::matrix::fmt_day(today + 1 + i as i64 / 6);
            let minute = 9 * 60 + (i % 6) * 10;
            vec![
                videos[i].to_string(),
                accounts[i % 2].to_string(),
                String::new(),
                format!("第{i}条标题"),
                format!("话题{i} 夏季"),
                if i % 5 == 0 {
                    "@小明".into()
                } else {
                    String::new()
                },
                format!("{day} {:02}:{:02}", minute / 60, minute % 60),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                if i % 2 == 0 {
                    "原创".into()
                } else {
                    "auto".into()
                },
            ]
        })
        .collect()
}

fn batch_csv(rows: &[Vec<String>]) -> Vec<u8> {
    let header =
        "视频编号,账号,分组,标题,话题,@用户,发布时间,挂载类型,挂载编号,挂载标题,挂载链接,内容声明";
    let mut s = format!("\u{feff}{header}\r\n");
    for r in rows {
        s.push_str(&r.join(","));
        s.push_str("\r\n");
    }
    s.into_bytes()
}

async fn tasks_of(app: &TestApp, mid: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM matrix_tasks WHERE merchant_id = $1")
        .bind(mid)
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn release_batches_are_checked_whole_and_make_one_task() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        app.second_merchant(&admin, "batchshop").await;
        let (me, them) = (
            demo_merchant(&app).await,
            merchant_of(&app, "batchshop").await,
        );
        let a1 = account(&app, me, "dy", "批量甲").await;
        let a2 = account(&app, me, "ks", "批量乙").await;
        account(&app, them, "dy", "别家号").await;
        let mut videos = vec![];
        for i in 0..50 {
            videos.push(finished(&app, me, i).await);
        }
        let theirs = finished(&app, them, 99).await;
        let good = batch_rows(&app, &videos, ["批量甲", &a2.to_string()]);

        // Two bad rows of 50 (another merchant's video, another merchant's account): nothing is
        // stored, and the error names both rows, in Chinese and in English.
        let mut bad = good.clone();
        bad[6][0] = theirs.to_string();
        bad[29][1] = "别家号".into();
        for (lang, words) in [
            ("zh-CN", ["第 8 行", "第 31 行", "视频编号", "账号"]),
            ("en", ["row 8", "row 31", "Video ID", "Account"]),
        ] {
            let r = upload_sheet(&app, BATCH_IMPORT, &demo, "b.csv", batch_csv(&bad), lang).await;
            r.expect(422);
            for w in words {
                assert!(r.message().contains(w), "{lang} {w}: {}", r.message());
            }
            let rows: Vec<i64> = r.data()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["row"].as_i64().unwrap())
                .collect();
            assert_eq!(rows, [8, 31], "{}", r.body);
            assert_eq!(r.data()["field"], "rows");
        }
        assert_eq!(tasks_of(&app, me).await, 0);
        // Reading the sheet into the console's table shows the same rows' errors, and stores nothing.
        let r = upload_sheet(&app, BATCH_READ, &demo, "b.csv", batch_csv(&bad), "en").await;
        let d = r.ok();
        assert_eq!(d["rows"].as_array().unwrap().len(), 50);
        let errs: Vec<(i64, &str)> = d["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["row"].as_i64().unwrap(), e["column"].as_str().unwrap()))
            .collect();
        assert_eq!(errs, [(8, "video"), (31, "account")]);
        // The console fixes a row and checks again: no errors, still nothing stored.
        let mut rows = d["rows"].clone();
        rows[6]["video"] = json!(videos[6].to_string());
        rows[29]["account"] = json!("批量乙");
        let r = app
            .post(
                BATCH_ADD,
                Some(&demo),
                json!({"name": "T", "rows": rows, "check": true}),
            )
            .await;
        assert_eq!(r.ok()["errors"], json!([]), "{}", r.body);
        assert_eq!(tasks_of(&app, me).await, 0);

        // A good sheet (xlsx, from our own writer: ids as numbers) makes one task whose items are
        // the rows.
        let table = api::export::Table {
            header: batch_csv(&[])
                .split(|b| *b == b'\r')
                .next()
                .map(|h| {
                    String::from_utf8_lossy(&h[3..])
                        .split(',')
                        .map(str::to_string)
                        .collect()
                })
                .unwrap(),
            rows: good
                .iter()
                .map(|r| {
                    r.iter()
                        .enumerate()
                        .map(|(j, c)| match (j, c.parse::<i64>()) {
                            (0 | 1, Ok(n)) => api::export::Cell::Int(n),
                            _ => c.as_str().into(),
                        })
                        .collect()
                })
                .collect(),
        };
        let r = upload_sheet(
            &app,
            BATCH_IMPORT,
            &demo,
            "夏季批量.xlsx",
            table.xlsx(),
            "zh-CN",
        )
        .await;
        let task = r.ok()["task"]["id"].as_i64().expect("a task");
        assert_eq!(tasks_of(&app, me).await, 1);
        let items: Vec<(i64, String, String, i64, String)> = sqlx::query_as(
            "SELECT i.account_id, i.video_key, i.title, i.scheduled_at, COALESCE(p.post, '') FROM matrix_items i \
             LEFT JOIN matrix_item_posts p ON p.item_id = i.id WHERE i.task_id = $1 ORDER BY i.scheduled_at, i.account_id",
        )
        .bind(task)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(items.len(), 50);
        let mut want: Vec<(i64, String, String, i64)> = good
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    if i % 2 == 0 { a1 } else { a2 },
                    format!("v:{}", videos[i]),
                    r[3].clone(),
                    domain::sheet::china_time(&r[6]).unwrap(),
                )
            })
            .collect();
        want.sort_by_key(|w| (w.3, w.0));
        for (got, want) in items.iter().zip(&want) {
            assert_eq!(
                (got.0, &got.1, &got.2, got.3),
                (want.0, &want.1, &want.2, want.3)
            );
            let post = domain::matrix::ItemPost::read(&got.4);
            let i: usize = got
                .2
                .trim_start_matches('第')
                .trim_end_matches("条标题")
                .parse()
                .unwrap();
            assert_eq!(post.topics, [format!("话题{i}"), "夏季".into()]);
            assert_eq!(
                post.at_users,
                if i % 5 == 0 {
                    vec!["小明".to_string()]
                } else {
                    vec![]
                }
            );
            assert_eq!(
                post.declaration,
                if i % 2 == 0 {
                    domain::matrix::ContentDeclaration::Original
                } else {
                    domain::matrix::ContentDeclaration::Auto
                }
            );
        }
        let t = app
            .get_q("/task.merchant_forward_task/index", Some(&demo), json!({}))
            .await;
        let row = &t.ok()["rows"][0];
        assert_eq!(
            (row["name"].as_str(), row["review_state"].as_str()),
            (Some("批量任务"), Some("reviewing"))
        );
        // The same videos again: refused as used, nothing more stored.
        upload_sheet(&app, BATCH_IMPORT, &demo, "b.csv", batch_csv(&good), "en")
            .await
            .expect(422);
        assert_eq!(tasks_of(&app, me).await, 1);

        // The template names the columns in the reader's language; a staff member without the
        // release tasks' menu is refused every batch call.
        let (status, _, body) =
            fetch(&app, BATCH_TEMPLATE, &demo, json!({"format": "csv"}), "en").await;
        assert_eq!(status, 200);
        assert!(
            String::from_utf8(body)
                .unwrap()
                .starts_with("\u{feff}Video ID,Account,Group,Title")
        );
        let nomenu = staff(&app, &demo, "batchnomenu", "/log").await;
        let (status, _, _) = fetch(&app, BATCH_TEMPLATE, &nomenu, json!({}), "en").await;
        assert_eq!(status, 403);
        upload_sheet(&app, BATCH_READ, &nomenu, "b.csv", batch_csv(&good), "en")
            .await
            .expect(403);
        upload_sheet(&app, BATCH_IMPORT, &nomenu, "b.csv", batch_csv(&good), "en")
            .await
            .expect(403);
        app.post(BATCH_ADD, Some(&nomenu), json!({"name": "T", "rows": []}))
            .await
            .expect(403);
    }
}

#[tokio::test]
async fn accounts_groups_and_remarks_import_whole_sheets() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        app.second_merchant(&admin, "notesshop").await;
        let (me, them) = (
            demo_merchant(&app).await,
            merchant_of(&app, "notesshop").await,
        );
        let a = account(&app, me, "dy", "备注甲").await;
        let b = account(&app, me, "ks", "备注乙").await;
        let theirs = account(&app, them, "dy", "别家备注").await;
        let group = |name: &'static str| {
            let db = app.db.clone();
            async move {
                sqlx::query_scalar::<_, i64>(
                    "SELECT COUNT(*) FROM matrix_groups WHERE merchant_id = $1 AND name = $2",
                )
                .bind(me)
                .bind(name)
                .fetch_one(&db.pool)
                .await
                .unwrap()
            }
        };
        let state = |id: i64| {
            let db = app.db.clone();
            async move {
                sqlx::query_as::<_, (String, String)>(
                    "SELECT COALESCE(g.name, ''), a.remarks FROM matrix_accounts a LEFT JOIN matrix_groups g ON g.id = a.group_id WHERE a.id = $1",
                )
                .bind(id)
                .fetch_one(&db.pool)
                .await
                .unwrap()
            }
        };
        const IMPORT: &str = "/task.merchant_group_user/import";
        // Another merchant's account (by id) is unknown: the sheet is refused naming its row, and
        // nothing is written (not even the new group of the good row).
        let bad = format!("Account,Group,Remarks\n备注甲,华南,南区主号\n{theirs},,x\n");
        let r = upload_sheet(&app, IMPORT, &demo, "n.csv", bad.into_bytes(), "en").await;
        r.expect(422);
        assert!(r.message().contains("row 3, Account"), "{}", r.message());
        assert_eq!(group("华南").await, 0);
        assert_eq!(state(a).await, (String::new(), String::new()));
        // A good sheet: the unknown group is created, an empty cell leaves the value.
        let good = format!("账号,分组,备注\n备注甲,华南,南区主号\n{b},,乙的备注\n");
        let r = upload_sheet(&app, IMPORT, &demo, "n.csv", good.into_bytes(), "zh-CN").await;
        assert_eq!(r.ok()["updated"], 2, "{}", r.body);
        assert_eq!(r.ok()["groups_created"], json!(["华南"]));
        assert_eq!(state(a).await, ("华南".into(), "南区主号".into()));
        assert_eq!(state(b).await, (String::new(), "乙的备注".into()));
        assert_eq!(state(theirs).await, (String::new(), String::new()));
        // Without the accounts' menu: 403.
        let nomenu = staff(&app, &demo, "notesnomenu", "/log").await;
        upload_sheet(
            &app,
            IMPORT,
            &nomenu,
            "n.csv",
            b"Account\n1\n".to_vec(),
            "en",
        )
        .await
        .expect(403);
    }
}

#[tokio::test]
async fn lexicon_words_and_nfc_titles_import_whole_sheets() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        app.second_merchant(&admin, "lexshop").await;
        let (me, them) = (
            demo_merchant(&app).await,
            merchant_of(&app, "lexshop").await,
        );
        let count = |sql: &'static str, mid: i64| {
            let db = app.db.clone();
            async move {
                sqlx::query_scalar::<_, i64>(sql)
                    .bind(mid)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap()
            }
        };
        const LEX: &str = "SELECT COUNT(*) FROM seo_lexicon WHERE merchant_id = $1";
        const TITLES: &str = "SELECT COUNT(*) FROM nfc_titles WHERE merchant_id = $1";

        // Lexicon words: a word over 20 characters refuses the sheet (naming its row), then a good
        // sheet adds its words once each.
        const LEX_IMPORT: &str = "/seo.merchant_seo_lexicon/import";
        let import = |bytes: Vec<u8>, kind: &'static str, lang: &'static str| {
            let (app, demo) = (&app, demo.clone());
            async move {
                let fields = [("kind", kind.to_string())];
                upload_with(app, LEX_IMPORT, &demo, &fields, "w.csv", bytes, lang).await
            }
        };
        let long = "长".repeat(21);
        let r = import(
            format!("词语\n夏季\n{long}\n").into_bytes(),
            "brand",
            "zh-CN",
        )
        .await;
        r.expect(422);
        assert!(r.message().contains("第 3 行“词语”"), "{}", r.message());
        assert_eq!(count(LEX, me).await, 0);
        let r = import(
            "Word\n夏季\n新款\n夏季\n".as_bytes().to_vec(),
            "brand",
            "en",
        )
        .await;
        assert_eq!(r.ok()["added"], 2, "{}", r.body);
        assert_eq!(count(LEX, me).await, 2);
        assert_eq!(count(LEX, them).await, 0);

        // NFC titles into a tag of the merchant's; another merchant's tag is not found.
        let tag = |mid: i64| {
            let db = app.db.clone();
            async move {
                sqlx::query_scalar::<_, i64>(
                    "INSERT INTO nfc_tags (merchant_id, code, name, platform, pool_kind, pool_id, created_at, updated_at) \
                     VALUES ($1, $2, 'T', 'dy', 'group', 0, 0, 0) RETURNING id",
                )
                .bind(mid)
                .bind(store::random_token(8))
                .fetch_one(&db.pool)
                .await
                .unwrap()
            }
        };
        let (mine, theirs) = (tag(me).await, tag(them).await);
        const TITLE_IMPORT: &str = "/nfc.index/title_import";
        let titles = |tag_id: i64, body: &'static str| {
            let (app, demo) = (&app, demo.clone());
            async move {
                let fields = [("tag_id", tag_id.to_string())];
                let bytes = body.as_bytes().to_vec();
                upload_with(app, TITLE_IMPORT, &demo, &fields, "t.csv", bytes, "en").await
            }
        };
        let r = titles(mine, "Title\n来打卡\n\n好吃不贵\n,x\n").await;
        r.expect(422);
        assert!(r.message().contains("row 5, Title"), "{}", r.message());
        assert_eq!(count(TITLES, me).await, 0);
        titles(theirs, "Title\n来打卡\n").await.expect(404);
        let r = titles(mine, "标题\n来打卡\n好吃不贵\n").await;
        assert_eq!(r.ok()["added"], 2, "{}", r.body);
        assert_eq!(count(TITLES, me).await, 2);
        // The templates name their columns in the reader's language.
        let (status, _, body) = fetch(
            &app,
            "/nfc.index/title_import_template",
            &demo,
            json!({"format": "csv"}),
            "zh-CN",
        )
        .await;
        assert_eq!(
            (status, String::from_utf8(body).unwrap()),
            (200, "\u{feff}标题\r\n".to_string())
        );
    }
}
