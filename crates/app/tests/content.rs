//! Content, whole app on SQLite and PostgreSQL: the operator writes courses, banners and
//! the update log under /system/content/*; merchants read only what is published, in their language,
//! by category; a merchant calling /system/content/* gets 403; bad input is a 422 naming the field.

use crate::common;
use common::*;
use serde_json::{Value, json};

fn video_course(category: &str, title: &str, published: bool, sort: i64) -> Value {
    json!({
        "category": category, "title": title, "title_en": format!("{title} (en)"),
        "summary": "简介", "summary_en": "Summary", "cover": "https://cdn.test/c.png",
        "body_kind": "video", "video_url": "https://cdn.test/v.mp4", "published": published, "sort": sort,
    })
}

fn titles(rows: &Value) -> Vec<String> {
    rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_writes_courses_and_merchants_read_the_published_ones() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;

        let a = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                video_course("popular", "爆款 A", true, 2),
            )
            .await
            .ok()
            .clone();
        assert_eq!(a["category"], "popular");
        assert_eq!(a["body_kind"], "video");
        assert_eq!(a["video_url"], "https://cdn.test/v.mp4");
        assert_eq!(a["published"], true);
        let b = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                video_course("popular", "爆款 B", true, 1),
            )
            .await
            .ok()
            .clone();
        let draft = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                video_course("popular", "草稿", false, 0),
            )
            .await
            .ok()
            .clone();
        let rich = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                json!({"category": "shot", "title": "布光", "body_kind": "rich", "body": "# 三点布光\n主光、辅光、轮廓光",
                       "body_en": "# Three-point lighting", "published": true, "video_url": "https://ignored.test/x.mp4"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(rich["video_url"], "", "a rich course keeps no video");
        assert_eq!(rich["title_en"], "");

        // The operator sees every course, drafts too, and filters by category.
        let all = app
            .post(
                "/system/content/course_list",
                Some(&admin),
                json!({"category": "popular"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(all["total"], 3);
        assert_eq!(titles(&all), ["草稿", "爆款 B", "爆款 A"], "by sort");

        // A merchant reads published courses of one category, in its language.
        let zh = app
            .get_q(
                "/index/getIndexCourseList",
                Some(&demo),
                json!({"category": "popular"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(titles(&zh), ["爆款 B", "爆款 A"]);
        assert_eq!(
            zh["rows"][0]["image"], "https://cdn.test/c.png",
            "old field names stay"
        );
        assert_eq!(zh["rows"][0]["link"], "https://cdn.test/v.mp4");
        let en = app
            .call(
                "GET",
                "/index/getIndexCourseList",
                Some(&demo),
                Some(json!({"category": "popular", "limit": 1})),
                "en",
            )
            .await
            .ok()
            .clone();
        assert_eq!(en["total"], 2);
        assert_eq!(titles(&en), ["爆款 B (en)"]);
        assert_eq!(en["rows"][0]["summary"], "Summary");
        let every = app
            .get("/index/getIndexCourseList", Some(&demo))
            .await
            .ok()
            .clone();
        assert_eq!(every["total"], 3, "no category: every published course");
        let shot = app
            .post(
                "/index/getIndexCourseList",
                Some(&demo),
                json!({"category": "shot"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(titles(&shot), ["布光"]);

        // Opening a course: its rich text in the reader's language (Chinese where no English title).
        let id = rich["id"].as_i64().unwrap();
        let zh = app
            .get_q("/index/getCourseInfo", Some(&demo), json!({"id": id}))
            .await
            .ok()
            .clone();
        assert_eq!(zh["body"], "# 三点布光\n主光、辅光、轮廓光");
        let en = app
            .call(
                "GET",
                "/index/getCourseInfo",
                Some(&demo),
                Some(json!({"id": id})),
                "en",
            )
            .await
            .ok()
            .clone();
        assert_eq!(en["body"], "# Three-point lighting");
        assert_eq!(en["title"], "布光");
        app.get_q(
            "/index/getCourseInfo",
            Some(&demo),
            json!({"id": draft["id"]}),
        )
        .await
        .expect(404);

        // Edit: publish the draft, unpublish A; then delete B.
        let mut body = video_course("popular", "草稿已发布", true, 0);
        body["id"] = draft["id"].clone();
        let edited = app
            .post("/system/content/course_edit", Some(&admin), body)
            .await
            .ok()
            .clone();
        assert_eq!(edited["title"], "草稿已发布");
        assert!(edited["updated_at"].as_i64() >= edited["created_at"].as_i64());
        let mut body = video_course("popular", "爆款 A", false, 2);
        body["id"] = a["id"].clone();
        app.post("/system/content/course_edit", Some(&admin), body)
            .await
            .ok();
        app.post(
            "/system/content/course_delete",
            Some(&admin),
            json!({"id": b["id"]}),
        )
        .await
        .ok();
        app.post(
            "/system/content/course_delete",
            Some(&admin),
            json!({"id": b["id"]}),
        )
        .await
        .expect(404);
        let zh = app
            .get_q(
                "/index/getIndexCourseList",
                Some(&demo),
                json!({"category": "popular"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(titles(&zh), ["草稿已发布"]);
        let mut body = video_course("popular", "x", true, 0);
        body["id"] = json!(999_999);
        app.post("/system/content/course_edit", Some(&admin), body)
            .await
            .expect(404);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn banners_and_the_update_log() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;

        let shown = app
            .post(
                "/system/content/banner_add",
                Some(&admin),
                json!({"title": "新功能", "title_en": "New", "image": "/files/1/original", "link": "https://x.test", "published": true, "sort": 1}),
            )
            .await
            .ok()
            .clone();
        let hidden = app
            .post(
                "/system/content/banner_add",
                Some(&admin),
                json!({"title": "隐藏", "image": "https://cdn.test/b.png", "published": false}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(hidden["published"], false);
        let list = app
            .post("/system/content/banner_list", Some(&admin), json!({}))
            .await
            .ok()
            .clone();
        assert_eq!(list["total"], 2);
        let home = app
            .post("/index/banner", Some(&demo), json!({}))
            .await
            .ok()
            .clone();
        assert_eq!(titles(&home), ["新功能"]);
        assert_eq!(home["rows"][0]["image"], "/files/1/original");
        let home = app
            .call("POST", "/index/banner", Some(&demo), Some(json!({})), "en")
            .await
            .ok()
            .clone();
        assert_eq!(titles(&home), ["New"]);
        app.post(
            "/system/content/banner_edit",
            Some(&admin),
            json!({"id": hidden["id"], "title": "现在可见", "image": "https://cdn.test/b.png", "published": true, "sort": 0}),
        )
        .await
        .ok();
        let home = app.get("/index/banner", Some(&demo)).await.ok().clone();
        assert_eq!(titles(&home), ["现在可见", "新功能"]);
        app.post(
            "/system/content/banner_delete",
            Some(&admin),
            json!({"id": shown["id"]}),
        )
        .await
        .ok();
        assert_eq!(app.get("/index/banner", Some(&demo)).await.ok()["total"], 1);

        // The update log: the seeded entry plus the operator's, each in the reader's language.
        let v = app
            .post(
                "/system/content/version_add",
                Some(&admin),
                json!({"version": "1.7.0", "content": "新增教程页面", "content_en": "Course pages"}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(v["content_en"], "Course pages");
        let zh = app
            .get_q(
                "/version_log/getList",
                None,
                json!({"page": 1, "limit": 10}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(zh["total"], 2);
        assert!(
            zh["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["content"] == "新增教程页面")
        );
        let en = app
            .call(
                "GET",
                "/version_log/getList",
                Some(&demo),
                Some(json!({"limit": 10})),
                "en",
            )
            .await
            .ok()
            .clone();
        assert!(
            en["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["content"] == "Course pages")
        );
        assert!(
            en["rows"][0].get("content_en").is_none(),
            "readers get one language"
        );
        app.post(
            "/system/content/version_edit",
            Some(&admin),
            json!({"id": v["id"], "version": "1.7.1", "content": "修订", "content_en": ""}),
        )
        .await
        .ok();
        let en = app
            .call(
                "POST",
                "/version_log/getList",
                Some(&demo),
                Some(json!({})),
                "en",
            )
            .await
            .ok()
            .clone();
        assert!(
            en["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["content"] == "修订" && r["version"] == "1.7.1"),
            "no English: the Chinese"
        );
        let ops = app
            .post("/system/content/version_list", Some(&admin), json!({}))
            .await
            .ok()
            .clone();
        assert_eq!(ops["total"], 2);
        app.post(
            "/system/content/version_delete",
            Some(&admin),
            json!({"id": v["id"]}),
        )
        .await
        .ok();
        assert_eq!(app.get("/version_log/getList", None).await.ok()["total"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merchants_cannot_write_and_bad_input_names_the_field() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        for path in [
            "/system/content/course_list",
            "/system/content/course_add",
            "/system/content/course_edit",
            "/system/content/course_delete",
            "/system/content/banner_list",
            "/system/content/banner_add",
            "/system/content/version_add",
            "/system/content/version_delete",
        ] {
            app.post(path, Some(&demo), video_course("course", "x", true, 0))
                .await
                .expect(403);
        }
        app.post("/system/content/course_list", None, json!({}))
            .await
            .expect(401);

        let bad = |field: &str, value: Value| {
            let mut b = video_course("course", "好课", true, 0);
            b[field] = value;
            b
        };
        let cases: Vec<(Value, &str)> = vec![
            (bad("category", json!("shot_tutorial")), "category"),
            (bad("body_kind", json!("html")), "body_kind"),
            (bad("title", json!("  ")), "title"),
            (bad("title", json!("长".repeat(101))), "title"),
            (bad("video_url", json!("javascript:alert(1)")), "video_url"),
            (bad("video_url", json!("")), "video_url"),
            (bad("cover", json!("//evil.test/x.png")), "cover"),
            (bad("sort", json!(-1)), "sort"),
            (bad("body_kind", json!("rich")), "body"),
        ];
        for (body, field) in cases {
            let r = app
                .post("/system/content/course_add", Some(&admin), body.clone())
                .await;
            r.expect(422);
            assert_eq!(r.data()["field"], field, "{body}");
        }
        let r = app
            .post_en(
                "/system/content/course_add",
                Some(&admin),
                bad("video_url", json!("ftp://x")),
            )
            .await;
        r.expect(422);
        assert_eq!(
            r.message(),
            "video_url must be an http(s) link or a path of this site (starting with /)"
        );
        let r = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                bad("body_kind", json!("rich")),
            )
            .await;
        assert_eq!(r.message(), "图文教程须填写中文正文");
        let refused: Vec<(&str, Value, &str)> = vec![
            (
                "/system/content/course_edit",
                video_course("course", "x", true, 0),
                "id",
            ),
            (
                "/system/content/banner_add",
                json!({"title": "b", "image": ""}),
                "image",
            ),
            (
                "/system/content/banner_add",
                json!({"title": "b", "image": "/x.png", "link": "mailto:a@b"}),
                "link",
            ),
            (
                "/system/content/version_add",
                json!({"version": "", "content": "x"}),
                "version",
            ),
            (
                "/system/content/version_add",
                json!({"version": "1.0", "content": " "}),
                "content",
            ),
        ];
        for (path, body, field) in refused {
            let r = app.post(path, Some(&admin), body).await;
            r.expect(422);
            assert_eq!(r.data()["field"], field, "{path}");
        }
        let r = app
            .get_q(
                "/index/getIndexCourseList",
                Some(&demo),
                json!({"category": "nope"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "category");
        // Course pages are read by any signed-in user, never anonymously.
        app.get("/index/getIndexCourseList", None).await.expect(401);
        app.get_q("/index/getCourseInfo", None, json!({"id": 1}))
            .await
            .expect(401);
    }
}

/// The update log names the areas a merchant finds in the console (it listed the foundation only),
/// in both languages; an install whose notes still say only that is brought up to date at start, an
/// edited note is left as the operator wrote it.
#[tokio::test]
async fn the_update_log_lists_the_areas() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let log = |lang: &'static str| {
        let app = &app;
        async move {
            let r = app
                .call("GET", "/version_log/getList", None, None, lang)
                .await;
            r.ok()["rows"][0]["content"].as_str().unwrap().to_string()
        }
    };
    let zh = log("zh-cn").await;
    for area in [
        "快速混剪",
        "发布管理",
        "线索管理",
        "NFC 碰一碰",
        "SEO 优化",
        "数据大屏",
        "AI 配音",
    ] {
        assert!(zh.contains(area), "{area} missing from {zh}");
    }
    let en = log("en").await;
    for area in [
        "quick mix",
        "release tasks",
        "leads",
        "NFC tap-to-post",
        "SEO",
        "data screen",
        "AI voice",
    ] {
        assert!(en.contains(area), "{area} missing from {en}");
    }
    // an install from before the other areas
    sqlx::query("UPDATE version_logs SET content = $1")
        .bind("控制台基础：登录（企业账号、手机验证码、员工账号）、员工子账号与菜单授权、操作日志、点数记录。")
        .execute(&app.db.pool)
        .await
        .unwrap();
    store::content::seed(&app.db).await.unwrap();
    assert!(log("zh-cn").await.contains("数据大屏"));
    // the operator's own words stay
    sqlx::query("UPDATE version_logs SET content = '我们的说明'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    store::content::seed(&app.db).await.unwrap();
    assert_eq!(log("zh-cn").await, "我们的说明");
    assert_eq!(app.get("/version_log/getList", None).await.ok()["total"], 1);
}
