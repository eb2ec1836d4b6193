//! Engagement, whole app on SQLite and PostgreSQL: a DY account publishes through the sandbox, the
//! platform's audience comments over a simulated day and customers write comments and private
//! messages (webhooks delivered twice on purpose); the sync job reads them once, keyword rules
//! answer each matching comment once within their caps (the sandbox counts the replies), leads are
//! made and assigned in turn, followed up and exported; a restart doubles nothing; staff without the
//! menus are refused, another tenant sees nothing, bad input is a 422 naming the field. Each app has
//! its own platform clock.

use crate::common;
use common::publish::*;
use common::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;

const HOUR: i64 = 3_600_000;

async fn comments(app: &TestApp, t: &str, q: Value) -> Vec<Value> {
    let mut q = q;
    q["limit"] = json!(1000);
    app.post("/task.merchant_comment/index", Some(t), q)
        .await
        .ok()["rows"]
        .as_array()
        .unwrap()
        .clone()
}

async fn leads(app: &TestApp, t: &str) -> Vec<Value> {
    app.post("/msg.merchant_clue/index", Some(t), json!({"limit": 1000}))
        .await
        .ok()["rows"]
        .as_array()
        .unwrap()
        .clone()
}

/// Polls `f` until it holds (20 s at most).
async fn until<F, Fut>(what: &str, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..200 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The replies the sandbox's platform holds, by the comment they answer.
async fn platform_replies(app: &TestApp) -> HashMap<String, usize> {
    let v = sandbox(app, "replies", None).await;
    let mut out = HashMap::new();
    for r in v["replies"].as_array().unwrap() {
        *out.entry(r["comment_id"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    out
}

async fn staff(app: &TestApp, demo: &str, name: &str, menus: &[&str]) -> (i64, String) {
    let mut ids = vec![];
    for m in menus {
        ids.push(app.menu_id(demo, m).await);
    }
    let r = app
        .post(
            "/user.merchant_user_sub/add",
            Some(demo),
            json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": ids}),
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    (id, app.login(3, name, "abc12345").await)
}

fn rule(extra: Value) -> Value {
    let mut v = json!({
        "name": "团购咨询", "match_mode": "contains", "keywords": ["团购券", "券怎么用"],
        "replies": ["您好，团购券已私信您", "感谢咨询，欢迎到店"], "daily_cap": 3, "min_gap_s": 0,
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[tokio::test]
async fn comments_auto_replies_and_leads_story() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let (s1, s1_token) = staff(&app, &t, "lead_a", &["/clue_management"]).await;
        let (s2, _) = staff(&app, &t, "lead_b", &["/clue_management"]).await;
        let (s3, boss) = staff(
            &app,
            &t,
            "lead_boss",
            &["/clue_assign", "/comment_management"],
        )
        .await;

        // A DY account posts a video; the platform reviews it and the audience starts commenting.
        let account = authorize_oauth(&app, &t, "dy").await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let vids = videos(&app, &t, 1).await;
        let posted = publish_now(&app, &t, &admin, &[account], &vids).await;
        let item_id = posted[0]["item_id"].as_str().unwrap().to_string();
        assert!(!item_id.is_empty(), "{posted:?}");
        app.db.clock.advance(6 * HOUR);

        // Kuaishou has no comment API: the console is told so, in both languages.
        let accs = app.get("/task.merchant_comment/accounts", Some(&t)).await;
        let ks_row = accs
            .ok()
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == ks)
            .unwrap()
            .clone();
        assert_eq!(ks_row["supported"], false);
        assert!(
            ks_row["reason"].as_str().unwrap().contains("快手"),
            "{ks_row}"
        );
        let en = app
            .call(
                "GET",
                "/task.merchant_comment/accounts",
                Some(&t),
                None,
                "en",
            )
            .await;
        assert!(
            en.body.to_string().contains("Kuaishou has no comment API"),
            "{}",
            en.body
        );

        // The rule: several keywords, two scripts, at most 3 automatic replies a day.
        let r = app
            .post(
                "/task.merchant_comment_keyword/add",
                Some(&t),
                rule(json!({})),
            )
            .await;
        let rule_id = r.ok()["id"].as_i64().unwrap();

        // The first sync reads the audience's comments since the post, once.
        let s = app
            .post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await;
        let first = s.ok()["added"].as_i64().unwrap();
        assert!(first > 0, "{}", s.body);
        let again = app
            .post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await;
        assert_eq!(again.ok()["added"], 0, "a second sync adds nothing");
        let listed = comments(&app, &t, json!({})).await;
        assert_eq!(listed.len() as i64, first);
        // The pool's purchase questions and contact details are classified.
        assert!(
            listed.iter().any(|c| c["intent"] == "purchase"),
            "{listed:?}"
        );

        // Customers write four comments the rule matches; every webhook is delivered twice.
        let texts = [
            "团购券多少钱？",
            "这个团购券怎么买",
            "团购券还有吗 13812345678",
            "券怎么用呀",
        ];
        let mut ids = vec![];
        for text in texts {
            let v = sandbox(
                &app,
                "comment",
                Some(json!({"item_id": item_id, "content": text, "twice": true})),
            )
            .await;
            ids.push(v["comment_id"].as_str().unwrap().to_string());
        }
        // Each is stored once, and 3 (the day's cap) are answered once each on the platform.
        until("the pushed comments", || async {
            comments(&app, &t, json!({"item_id": item_id}))
                .await
                .iter()
                .filter(|c| ids.contains(&c["comment_id"].as_str().unwrap().to_string()))
                .count()
                == 4
        })
        .await;
        until("three automatic replies", || async {
            platform_replies(&app).await.values().sum::<usize>() == 3
        })
        .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let replies = platform_replies(&app).await;
        assert_eq!(replies.values().sum::<usize>(), 3, "{replies:?}");
        assert!(replies.values().all(|n| *n == 1), "{replies:?}");
        // A sync now adds none of them again (webhook and list agree on the comment id).
        let s = app
            .post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await;
        assert_eq!(s.ok()["added"], 0, "{}", s.body);
        let all = comments(&app, &t, json!({})).await;
        let mut seen = std::collections::HashSet::new();
        assert!(
            all.iter()
                .all(|c| seen.insert(c["comment_id"].as_str().unwrap().to_string()))
        );

        // The reply log shows them; the fourth waits for tomorrow's cap.
        let log = app
            .post(
                "/task.merchant_comment_keyword/log_list",
                Some(&t),
                json!({"rule_id": rule_id.to_string()}),
            )
            .await;
        assert_eq!(log.ok()["total"], 3, "{}", log.body);
        let replied = comments(&app, &t, json!({"replied": "1"})).await;
        assert_eq!(replied.len(), 3);

        // Next day: a new comment wakes the job; the held one and the new one are answered.
        app.db.clock.advance(24 * HOUR);
        let v = sandbox(
            &app,
            "comment",
            Some(json!({"item_id": item_id, "content": "团购券周末能用吗", "twice": true})),
        )
        .await;
        ids.push(v["comment_id"].as_str().unwrap().to_string());
        until("the next day's replies", || async {
            platform_replies(&app).await.values().sum::<usize>() == 5
        })
        .await;
        let replies = platform_replies(&app).await;
        for id in &ids {
            assert_eq!(replies.get(id), Some(&1), "{id}: {replies:?}");
        }

        // A restart loses and doubles nothing: the next sync reads only what is new.
        let app = app.restart().await;
        app.start_worker();
        let before = comments(&app, &t, json!({})).await.len() as i64;
        app.db.clock.advance(3 * HOUR);
        let s = app
            .post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await;
        let added = s.ok()["added"].as_i64().unwrap();
        let after = comments(&app, &t, json!({})).await;
        assert_eq!(after.len() as i64, before + added);
        seen.clear();
        assert!(
            after
                .iter()
                .all(|c| seen.insert(c["comment_id"].as_str().unwrap().to_string()))
        );

        // Leads: one per customer, from purchase questions and contact details, assigned in turn.
        let all_leads = leads(&app, &t).await;
        assert!(all_leads.len() >= 2, "{all_leads:?}");
        let phone = all_leads
            .iter()
            .find(|l| l["phone"] == "13812345678")
            .expect("the customer with a phone number is a lead");
        assert_eq!(phone["source"], "comment");
        assert_eq!(phone["platform"], "dy");
        let mut per: HashMap<i64, i64> = HashMap::new();
        for l in &all_leads {
            *per.entry(l["assignee_id"].as_i64().unwrap()).or_default() += 1;
        }
        // Everyone whose menus hold the leads list takes leads in turn (the boss too).
        let n = |s: i64| per.get(&s).copied().unwrap_or(0);
        let (a, b, c) = (n(s1), n(s2), n(s3));
        assert_eq!(a + b + c, all_leads.len() as i64, "{per:?}");
        assert!(
            a.max(b).max(c) - a.min(b).min(c) <= 1,
            "round robin: {per:?}"
        );

        // A staff member sees only their own leads and cannot reassign; the boss sees all. The
        // sandbox keeps pushing messages as its clock moves, and one may become a lead between two
        // reads: the later lists hold the earlier one's leads and, besides, only newer ones.
        let id_of = |l: &Value| l["id"].as_i64().unwrap();
        let before: std::collections::HashSet<i64> = all_leads.iter().map(id_of).collect();
        let newest = before.iter().copied().max().unwrap();
        let holds = |later: &[Value], earlier: Vec<&Value>| {
            let ids: std::collections::HashSet<i64> = later.iter().map(id_of).collect();
            earlier.iter().all(|l| ids.contains(&id_of(l)))
                && later
                    .iter()
                    .all(|l| before.contains(&id_of(l)) || id_of(l) > newest)
        };
        let mine = leads(&app, &s1_token).await;
        assert!(
            holds(
                &mine,
                all_leads
                    .iter()
                    .filter(|l| l["assignee_id"] == s1)
                    .collect()
            ),
            "{mine:?}"
        );
        assert!(mine.iter().all(|l| l["assignee_id"] == s1));
        let boss_view = leads(&app, &boss).await;
        assert!(
            holds(&boss_view, all_leads.iter().collect()),
            "{boss_view:?}"
        );
        let other = all_leads.iter().find(|l| l["assignee_id"] != s1).unwrap();
        app.post(
            "/msg.merchant_clue/info",
            Some(&s1_token),
            json!({"id": other["id"]}),
        )
        .await
        .expect(404);
        app.post(
            "/msg.merchant_clue/assign",
            Some(&s1_token),
            json!({"id": other["id"], "assignee_id": s1}),
        )
        .await
        .expect(403);
        let moved = app
            .post(
                "/msg.merchant_clue/assign",
                Some(&boss),
                json!({"id": other["id"], "assignee_id": s1}),
            )
            .await;
        assert_eq!(moved.ok()["assignee_id"], s1);
        let r = app
            .post(
                "/msg.merchant_clue/assign",
                Some(&boss),
                json!({"id": other["id"], "assignee_id": 999_999}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "assignee_id");

        // Follow-up: new -> contacted -> converted, a note; going back is refused naming `state`.
        let id = phone["id"].clone();
        let owner = if phone["assignee_id"] == s1 {
            &s1_token
        } else {
            &boss
        };
        let r = app
            .post(
                "/msg.merchant_clue/state",
                Some(owner),
                json!({"id": id, "state": "contacted"}),
            )
            .await;
        assert_eq!(r.ok()["state"], "contacted");
        let r = app
            .post(
                "/msg.merchant_clue/note",
                Some(owner),
                json!({"id": id, "note": "已电话联系，周六到店"}),
            )
            .await;
        assert_eq!(r.ok()["notes"][0]["text"], "已电话联系，周六到店");
        let r = app
            .post(
                "/msg.merchant_clue/state",
                Some(owner),
                json!({"id": id, "state": "converted"}),
            )
            .await;
        assert_eq!(r.ok()["state_name"], "已成交");
        let r = app
            .post(
                "/msg.merchant_clue/state",
                Some(owner),
                json!({"id": id, "state": "contacted"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "state");
        assert!(r.message().contains("已成交"), "{}", r.message());
        let r = app
            .post_en(
                "/msg.merchant_clue/state",
                Some(owner),
                json!({"id": id, "state": "new"}),
            )
            .await;
        assert!(r.message().contains("'converted'"), "{}", r.message());

        // Export: the caller's leads, CSV with the SPEC's columns.
        let res = app
            .http
            .get(app.url("/api/msg.merchant_clue/export?format=csv"))
            .bearer_auth(&t)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let csv = res.text().await.unwrap();
        assert!(csv.contains("客户") && csv.contains("13812345678"), "{csv}");
        // The sandbox keeps pushing comments and messages by webhook as its clock moves, so leads
        // may have been added since `all_leads` was read: the export holds every lead of before
        // and none that the list does not hold right after.
        let rows = csv.lines().count() - 1;
        let later = leads(&app, &t).await.len();
        assert!(
            all_leads.len() <= rows && rows <= later,
            "{} <= {rows} <= {later}",
            all_leads.len()
        );

        // A private message with purchase intent makes a lead from a new customer; pushed twice,
        // it is kept once; the first message of the conversation gets the message rule's reply.
        app.post(
            "/task.merchant_comment_keyword/add",
            Some(&t),
            rule(json!({"name": "私信问价", "channel": "message", "keywords": ["多少钱"], "replies": ["您好，稍后发您价目表"]})),
        )
        .await
        .ok();
        let open_id: String =
            sqlx::query_scalar("SELECT open_id FROM matrix_accounts WHERE id = $1")
                .bind(account)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        sandbox(
            &app,
            "im",
            Some(json!({"open_id": open_id, "from_user_id": "u_buyer_1", "text": "这个套餐多少钱？", "twice": true})),
        )
        .await;
        until("the message's lead", || async {
            leads(&app, &t)
                .await
                .iter()
                .any(|l| l["source"] == "message")
        })
        .await;
        let to_buyer = |v: Value| {
            v["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["to_user_id"] == "u_buyer_1")
                .count()
        };
        until("the first-message reply", || async {
            to_buyer(sandbox(&app, "messages", None).await) == 1
        })
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(to_buyer(sandbox(&app, "messages", None).await), 1);
        let stored: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM eng_messages WHERE direction = 'in' AND customer_id = 'u_buyer_1'",
        )
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(stored, 1);

        // Hide and mark spam; replies by hand follow the comment-script rules and the platform's.
        let c = &comments(&app, &t, json!({"replied": "0"})).await[0];
        let r = app
            .post(
                "/task.merchant_comment/spam",
                Some(&t),
                json!({"id": c["id"]}),
            )
            .await;
        assert_eq!(r.ok()["status"], "spam");
        let r = app
            .post(
                "/task.merchant_comment/hide",
                Some(&t),
                json!({"id": c["id"]}),
            )
            .await;
        assert_eq!(r.ok()["status"], "hidden");
        let r = app
            .post(
                "/task.merchant_comment/reply",
                Some(&t),
                json!({"id": c["id"], "text": "谢谢支持"}),
            )
            .await;
        assert_eq!(r.ok()["replied"], true);
        let r = app
            .post(
                "/task.merchant_comment/reply",
                Some(&t),
                json!({"id": c["id"], "text": "这是敏感词"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "text");
        assert!(r.message().contains("敏感词"), "{}", r.message());
        // The platform's rate: at most 10 replies a minute per account.
        let mut refused = None;
        for i in 0..12 {
            let r = app
                .post(
                    "/task.merchant_comment/reply",
                    Some(&t),
                    json!({"id": c["id"], "text": format!("谢谢 {i}")}),
                )
                .await;
            if r.status == 422 {
                refused = Some(r.message().to_string());
                break;
            }
        }
        assert!(
            refused.as_deref().is_some_and(|m| m.contains("频繁")),
            "{refused:?}"
        );

        // Another tenant sees nothing of it and cannot touch it.
        let other = app.second_merchant(&admin, "engage2").await;
        assert!(comments(&app, &other, json!({})).await.is_empty());
        assert!(leads(&app, &other).await.is_empty());
        app.post(
            "/task.merchant_comment/reply",
            Some(&other),
            json!({"id": c["id"], "text": "你好"}),
        )
        .await
        .expect(404);
        app.post("/msg.merchant_clue/info", Some(&other), json!({"id": id}))
            .await
            .expect(404);
        app.post(
            "/task.merchant_comment_keyword/delete",
            Some(&other),
            json!({"id": rule_id}),
        )
        .await
        .expect(404);
        let r = app
            .post(
                "/task.merchant_comment_keyword/add",
                Some(&other),
                rule(json!({"account_ids": [account]})),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "account_ids");

        // A worker killed after storing a comment and before making its lead left the comment
        // known (the next sync reads it as old) and no lead: that state, made by hand. The next
        // sync still makes the lead, once, even when it reads nothing new at all (here: every
        // work's cursor stands past its comments, as after the newest ones were deleted).
        let phone_comment = phone["source_id"].as_i64().unwrap();
        sqlx::query("DELETE FROM eng_leads WHERE source = 'comment' AND source_id = $1")
            .bind(phone_comment)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE eng_comments SET lead_checked = 0 WHERE id = $1")
            .bind(phone_comment)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE eng_cursors SET newest_at = newest_at + 86400000")
            .execute(&app.db.pool)
            .await
            .unwrap();
        let phone_leads = || async {
            leads(&app, &t)
                .await
                .into_iter()
                .filter(|l| l["phone"] == "13812345678")
                .count()
        };
        assert_eq!(phone_leads().await, 0);
        app.post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await
            .ok();
        assert_eq!(
            phone_leads().await,
            1,
            "the lead of the comment left unchecked"
        );
        app.post("/task.merchant_comment/sync", Some(&t), json!({}))
            .await
            .ok();
        assert_eq!(phone_leads().await, 1);
    }
}

#[tokio::test]
async fn bad_rules_and_replies_name_the_field_in_both_languages() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        for (body, field, zh, en) in [
            (
                rule(
                    json!({"replies": ["这是一条超过三十个字的回复内容，这是一条超过三十个字的回复内容"]}),
                ),
                "replies",
                "30",
                "30 characters",
            ),
            (
                rule(json!({"replies": ["详情看 https://shop.example.com"]})),
                "replies",
                "联系方式或链接",
                "contact details or a link",
            ),
            (
                rule(json!({"replies": ["打 13812345678 咨询"]})),
                "replies",
                "联系方式或链接",
                "contact details or a link",
            ),
            (
                rule(json!({"keywords": [" "]})),
                "keywords",
                "关键词",
                "keywords",
            ),
            (
                rule(json!({"keywords": []})),
                "keywords",
                "关键词",
                "keywords",
            ),
            (
                rule(json!({"match_mode": "regex"})),
                "match_mode",
                "匹配方式",
                "match_mode",
            ),
            (
                rule(json!({"daily_cap": 0})),
                "daily_cap",
                "每日回复上限",
                "daily_cap",
            ),
            (
                rule(json!({"min_gap_s": 99999})),
                "min_gap_s",
                "回复间隔",
                "min_gap_s",
            ),
            (rule(json!({"name": ""})), "name", "名称", "name"),
        ] {
            let r = app
                .post("/task.merchant_comment_keyword/add", Some(&t), body.clone())
                .await;
            r.expect(422);
            assert_eq!(r.data()["field"], field, "{}", r.body);
            assert!(r.message().contains(zh), "{field}: {}", r.message());
            let r = app
                .post_en("/task.merchant_comment_keyword/add", Some(&t), body)
                .await;
            assert!(r.message().contains(en), "{field}: {}", r.message());
        }
        // A rule that passes, then edited; a reply by hand over 30 characters names `text`.
        let r = app
            .post(
                "/task.merchant_comment_keyword/add",
                Some(&t),
                rule(json!({})),
            )
            .await;
        let id = r.ok()["id"].clone();
        let r = app
            .post(
                "/task.merchant_comment_keyword/edit",
                Some(&t),
                rule(json!({"id": id, "match_mode": "segmented", "keywords": ["团购 价格"]})),
            )
            .await;
        assert_eq!(r.ok()["match_mode"], "segmented");
        assert_eq!(r.ok()["keywords"], json!(["团购 价格"]));
        let r = app
            .post(
                "/task.merchant_comment/reply",
                Some(&t),
                json!({"id": 1, "text": "字".repeat(31)}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "text");
        let r = app
            .post_en(
                "/task.merchant_comment/reply",
                Some(&t),
                json!({"id": 1, "text": "加微信 abc12345"}),
            )
            .await;
        assert!(r.message().contains("contact details"), "{}", r.message());
        let r = app
            .post(
                "/msg.merchant_clue/state",
                Some(&t),
                json!({"id": 1, "state": "won"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "state");
    }
}

#[tokio::test]
async fn staff_without_the_engagement_menus_are_refused_everywhere() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let (_, nomenu) = staff(&app, &demo, "nomenu", &["/log"]).await;
    for path in [
        "/task.merchant_comment/index",
        "/task.merchant_comment/reply",
        "/task.merchant_comment/hide",
        "/task.merchant_comment/spam",
        "/task.merchant_comment/show",
        "/task.merchant_comment/sync",
        "/task.merchant_comment/accounts",
        "/task.merchant_comment_keyword/index",
        "/task.merchant_comment_keyword/add",
        "/task.merchant_comment_keyword/edit",
        "/task.merchant_comment_keyword/delete",
        "/task.merchant_comment_keyword/log_list",
        "/msg.merchant_clue/index",
        "/msg.merchant_clue/info",
        "/msg.merchant_clue/state",
        "/msg.merchant_clue/note",
        "/msg.merchant_clue/assign",
        "/msg.merchant_clue/staff_list",
        "/msg.merchant_clue/export",
    ] {
        let r = app.post(path, Some(&nomenu), json!({"id": 1})).await;
        assert_eq!(r.status, 403, "{path}: {}", r.body);
    }
    // The comment menu alone does not open the rules or the leads.
    let (_, comments_only) = staff(&app, &demo, "commenter", &["/comment_management"]).await;
    app.post(
        "/task.merchant_comment/index",
        Some(&comments_only),
        json!({}),
    )
    .await
    .ok();
    app.post(
        "/task.merchant_comment_keyword/index",
        Some(&comments_only),
        json!({}),
    )
    .await
    .expect(403);
    app.post("/msg.merchant_clue/index", Some(&comments_only), json!({}))
        .await
        .expect(403);
}

/// Xiaohongshu has no official API: its comments are read and answered on the note page of the
/// main site in a real browser (`platforms::browser::xhs`), like publishing goes through its creator
/// console. The account's own top comments are not the audience's; a reply lands under its comment.
#[tokio::test]
async fn xhs_comments_are_read_and_answered_on_the_note_page() {
    let app = TestApp::spawn_with_browser(heavy_story_backend()).await;
    app.start_worker();
    let t = app.demo().await;
    let admin = app.admin().await;
    let account = xhs_console_account(&app, &t, "评论小店").await;
    let id = account["id"].as_i64().unwrap();
    let vids = videos(&app, &t, 1).await;
    let posted = publish_now(&app, &t, &admin, &[id], &vids).await;
    let note = posted[0]["item_id"].as_str().unwrap().to_string();
    assert!(!note.is_empty(), "{posted:?}");
    assert_eq!(posted[0]["comments_sent"], 3, "{posted:?}");
    for (user, content) in [("顾客甲", "请问店在哪里"), ("顾客乙", "这个多少钱")] {
        let r = sandbox(
            &app,
            "console/xhs/comment",
            Some(json!({"note_id": note, "user": user, "content": content})),
        )
        .await;
        assert_eq!(r["ok"], true, "{r}");
    }
    // Past the console's review: the note is public and its comments are read.
    app.db.clock.advance(12 * HOUR);
    let s = app
        .post(
            "/task.merchant_comment/sync",
            Some(&t),
            json!({"account_id": id}),
        )
        .await;
    assert_eq!(
        s.ok()["added"],
        2,
        "the customers' two, not the top comments: {}",
        s.body
    );
    let rows = comments(&app, &t, json!({"platform": "xhs"})).await;
    assert_eq!(rows.len(), 2);
    let asked = rows
        .iter()
        .find(|c| c["content"] == "请问店在哪里")
        .expect("the customer's comment")
        .clone();
    let r = app
        .post(
            "/task.merchant_comment/reply",
            Some(&t),
            json!({"id": asked["id"], "text": "在人民路88号"}),
        )
        .await;
    assert_eq!(r.ok()["reply_text"], "在人民路88号", "{}", r.body);
    let on_page = sandbox(&app, &format!("console/xhs/comments?note_id={note}"), None).await;
    let replies: Vec<&Value> = on_page["comments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["reply_to"] == asked["comment_id"])
        .collect();
    assert_eq!(replies.len(), 1, "{on_page}");
    assert_eq!(replies[0]["content"], "在人民路88号");
}

/// The messages the sandbox's DY accounts sent to one customer.
async fn sent_to(app: &TestApp, customer: &str) -> Vec<Value> {
    sandbox(app, "messages", None).await["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to_user_id"] == customer)
        .cloned()
        .collect()
}

/// A 422 naming `field`, its message (in the caller's language) containing `needle`.
#[track_caller]
fn refused(r: &Resp, field: &str, needle: &str) {
    r.expect(422);
    assert_eq!(r.data()["field"], field, "{}", r.body);
    assert!(r.message().contains(needle), "{}", r.message());
}

/// The merchant's conversations with one account's customers.
async fn conversations_of(app: &TestApp, t: &str, account: i64) -> Value {
    app.get_q(
        "/msg.merchant_private_msg/index",
        Some(t),
        json!({"account_id": account}),
    )
    .await
    .ok()
    .clone()
}

/// `engagement.lead_notify` run twice at once (a lease that lapsed while its first run lived): both
/// read the notice pending, and the notice goes out once; a run that died mid-send is taken over once
/// its claim runs out; a run finding another one sending waits and sends nothing once that one settled.
async fn twin_notice_runs_send_once(app: &TestApp) {
    use services::engagement::notify::deliver;
    sandbox(
        app,
        "wechat/subscribe",
        Some(json!({"openid": "o_staff_0001", "subscribed": true})),
    )
    .await;
    let id: i64 = sqlx::query_scalar("SELECT id FROM eng_notices WHERE wx_state = 'sent'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let reopen = |claimed_at: i64| {
        sqlx::query("UPDATE eng_notices SET wx_state = 'pending', wx_claimed_at = $1 WHERE id = $2")
            .bind(claimed_at)
            .bind(id)
            .execute(&app.db.pool)
    };
    let hub = &app.state.hub;
    let before = wechat_sent(app).await.len();
    reopen(0).await.unwrap();
    let (a, b) = tokio::join!(deliver(hub, id), deliver(hub, id));
    assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
    assert_eq!(wechat_sent(app).await.len(), before + 1, "sent once");
    // A claim older than the claim time: its sender died, this run sends.
    let stale = domain::now_ms() - domain::engagement::NOTICE_CLAIM_MS - 1_000;
    reopen(stale).await.unwrap();
    deliver(hub, id).await.unwrap();
    assert_eq!(wechat_sent(app).await.len(), before + 2);
    // A fresh claim: another run is sending; this one waits for it and sends nothing.
    reopen(domain::now_ms()).await.unwrap();
    let waiting = tokio::spawn({
        let hub = hub.clone();
        async move { deliver(&hub, id).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!waiting.is_finished(), "it waits for the other run");
    store::engagement::messages::settle_notice(&app.db, id, "sent", "", "m")
        .await
        .unwrap();
    waiting.await.unwrap().unwrap();
    assert_eq!(wechat_sent(app).await.len(), before + 2);
}

/// The template messages the sandbox's WeChat official account sent.
async fn wechat_sent(app: &TestApp) -> Vec<Value> {
    sandbox(app, "wechat", None).await["messages"]
        .as_array()
        .unwrap()
        .clone()
}

/// Opens the caller's event stream (once the answer's head is in, the stream counts from now).
async fn open_events(app: &TestApp, token: &str) -> reqwest::Response {
    let res = app
        .http
        .get(app.url("/api/events"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res
}

/// Reads an event stream until an event `name` whose data contains `needle` arrives.
async fn event_with(mut res: reqwest::Response, name: &str, needle: &str) -> String {
    let mut seen = String::new();
    let found = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(chunk) = res.chunk().await.unwrap() {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            let hit = seen
                .split("\n\n")
                .find(|e| e.contains(&format!("event: {name}")) && e.contains(needle))
                .map(str::to_string);
            if let Some(e) = hit {
                return e;
            }
        }
        panic!("the stream ended: {seen}");
    })
    .await;
    found.unwrap_or_else(|_| panic!("no `{name}` event with {needle}"))
}

#[tokio::test]
async fn private_messages_quick_replies_and_lead_notices() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        // The one staff member who takes leads (so every new lead is theirs) also answers messages.
        let (s1, s1_token) = staff(
            &app,
            &t,
            "pm_agent",
            &["/private_message", "/clue_management"],
        )
        .await;
        let dy = authorize_oauth(&app, &t, "dy").await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let open_id: String =
            sqlx::query_scalar("SELECT open_id FROM matrix_accounts WHERE id = $1")
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();

        // Which accounts may message: the DY account (its consent holds im.direct_message); Kuaishou
        // has no message API, said in both languages.
        let accs = app
            .get("/msg.merchant_private_msg/accounts", Some(&t))
            .await;
        let row = |v: &Value, id: i64| {
            v.as_array()
                .unwrap()
                .iter()
                .find(|a| a["id"] == id)
                .unwrap()
                .clone()
        };
        assert_eq!(row(accs.ok(), dy)["supported"], true, "{}", accs.body);
        assert_eq!(row(accs.ok(), ks)["supported"], false);
        assert!(
            row(accs.ok(), ks)["reason"]
                .as_str()
                .unwrap()
                .contains("快手"),
            "{}",
            accs.body
        );
        let en = app
            .call(
                "GET",
                "/msg.merchant_private_msg/accounts",
                Some(&t),
                None,
                "en",
            )
            .await;
        assert!(
            row(en.ok(), ks)["reason"]
                .as_str()
                .unwrap()
                .contains("Kuaishou has no private-message API"),
            "{}",
            en.body
        );

        // A first-message rule; a customer writes, the webhook delivered twice: one message, one
        // automatic answer (the sandbox counts what the account sent).
        app.post(
            "/task.merchant_comment_keyword/add",
            Some(&t),
            rule(json!({"name": "打招呼", "channel": "message", "keywords": ["在吗"], "replies": ["您好，在的"]})),
        )
        .await
        .ok();
        sandbox(&app, "im", Some(json!({"open_id": open_id, "from_user_id": "u_fan_9", "text": "在吗", "twice": true}))).await;
        until("the first-message reply", || async {
            sent_to(&app, "u_fan_9").await.len() == 1
        })
        .await;
        until("the conversation with both messages", || async {
            conversations_of(&app, &t, dy).await["rows"][0]["messages"] == 2
        })
        .await;
        let page = conversations_of(&app, &t, dy).await;
        assert_eq!(page["total"], 1, "{page}");
        let c = page["rows"][0].clone();
        assert_eq!(c["customer_id"], "u_fan_9");
        assert_eq!(c["last_direction"], "out");
        let conversation = c["conversation_id"].as_str().unwrap().to_string();
        let th = app
            .get_q(
                "/msg.merchant_private_msg/thread",
                Some(&s1_token),
                json!({"account_id": dy, "conversation_id": conversation}),
            )
            .await;
        let th = th.ok().as_array().unwrap().clone();
        assert_eq!(th.len(), 2, "{th:?}");
        assert_eq!(
            (th[0]["direction"].as_str(), th[0]["text"].as_str()),
            (Some("in"), Some("在吗"))
        );
        assert_eq!(
            (th[1]["direction"].as_str(), th[1]["auto"].as_bool()),
            (Some("out"), Some(true))
        );
        assert_eq!(th[1]["text"], "您好，在的");
        let stored: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM eng_messages WHERE customer_id = 'u_fan_9'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(stored, 2);

        // By hand, and with a saved quick reply: both reach the customer and join the thread.
        let send = |text: &str, quick: i64| json!({"account_id": dy, "conversation_id": conversation, "text": text, "quick_reply_id": quick});
        let th = app
            .post(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send("欢迎到店", 0),
            )
            .await;
        let th = th.ok().as_array().unwrap().clone();
        assert_eq!(th.len(), 3);
        assert_eq!(
            (th[2]["text"].as_str(), th[2]["auto"].as_bool()),
            (Some("欢迎到店"), Some(false))
        );
        let q = app
            .post(
                "/msg.merchant_private_msg/quick_reply_save",
                Some(&t),
                json!({"text": "营业时间 10:00-22:00", "sort": 1}),
            )
            .await;
        let qid = q.ok()[0]["id"].as_i64().unwrap();
        let th = app
            .post(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send("", qid),
            )
            .await;
        assert_eq!(
            th.ok().as_array().unwrap().last().unwrap()["text"],
            "营业时间 10:00-22:00"
        );
        let listed = app
            .get(
                "/msg.merchant_private_msg/quick_reply_list",
                Some(&s1_token),
            )
            .await;
        assert_eq!(listed.ok().as_array().unwrap().len(), 1);
        assert_eq!(sent_to(&app, "u_fan_9").await.len(), 3);

        // Over our limit: a 422 on `text` before any platform call, in both languages.
        let long = "好".repeat(501);
        let r = app
            .post(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send(&long, 0),
            )
            .await;
        refused(&r, "text", "文本内容");
        assert!(r.message().contains("500"), "{}", r.message());
        let r = app
            .post_en(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send(&long, 0),
            )
            .await;
        refused(&r, "text", "text must be at most 500 characters");
        // Over the platform's: 5 messages until the customer writes again; the 6th is refused with
        // DY's reason, and nothing more reaches the customer.
        for text in ["第四条", "第五条"] {
            app.post(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send(text, 0),
            )
            .await
            .ok();
        }
        let r = app
            .post(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send("第六条", 0),
            )
            .await;
        refused(&r, "text", "最多发送 5 条");
        let r = app
            .post_en(
                "/msg.merchant_private_msg/send",
                Some(&s1_token),
                send("第六条", 0),
            )
            .await;
        assert!(
            r.message().contains("At most 5 messages"),
            "{}",
            r.message()
        );
        assert_eq!(sent_to(&app, "u_fan_9").await.len(), 5);
        // The customer writes again: the account may answer again.
        sandbox(
            &app,
            "im",
            Some(json!({"open_id": open_id, "from_user_id": "u_fan_9", "text": "好的"})),
        )
        .await;
        until("the customer's second message", || async {
            conversations_of(&app, &t, dy).await["rows"][0]["last_text"] == "好的"
        })
        .await;
        app.post(
            "/msg.merchant_private_msg/send",
            Some(&s1_token),
            send("期待光临", 0),
        )
        .await
        .ok();
        assert_eq!(sent_to(&app, "u_fan_9").await.len(), 6);

        // WeChat not configured: the page says so; a new lead is told in the console only.
        let info = app.get("/wechat.MerchantWechat/info", Some(&t)).await;
        assert_eq!(info.ok()["configured"], false);
        assert!(
            info.ok()["reason"]
                .as_str()
                .unwrap()
                .contains("未配置微信公众号"),
            "{}",
            info.body
        );
        let info = app
            .call("GET", "/wechat.MerchantWechat/info", Some(&t), None, "en")
            .await;
        assert!(
            info.ok()["reason"]
                .as_str()
                .unwrap()
                .contains("No WeChat official account"),
            "{}",
            info.body
        );
        let events = open_events(&app, &s1_token).await;
        sandbox(&app, "im", Some(json!({"open_id": open_id, "from_user_id": "u_fan_10", "text": "我的电话 13912345678"}))).await;
        let event = event_with(events, "lead", "13912345678").await;
        assert!(event.contains(&format!("\"user_id\":{s1}")), "{event}");
        until("the unconfigured notice settled", || async {
            let log = app.get("/msg.wxgzh/log", Some(&t)).await;
            log.ok()[0]["wx_state"] == "off"
        })
        .await;
        let log = app.get("/msg.wxgzh/log", Some(&t)).await;
        assert!(
            log.ok()[0]["wx_reason"]
                .as_str()
                .unwrap()
                .contains("未配置微信公众号"),
            "{}",
            log.body
        );
        assert!(wechat_sent(&app).await.is_empty());
        // The sandbox's official account has this install's AppSecret (the console shows it).
        let info = app.get("/wechat.MerchantWechat/info", Some(&t)).await;
        assert_eq!(
            info.ok()["sandbox_secret"],
            platforms::sandbox::wechat_secret(SANDBOX_TOKEN)
        );

        // Bad input names the field in both languages.
        let r = app
            .post(
                "/wechat.MerchantWechat/save",
                Some(&t),
                json!({"app_id": "wx id!", "app_secret": "s", "template_id": "t"}),
            )
            .await;
        refused(&r, "app_id", "应用 ID");
        let r = app
            .post_en(
                "/wechat.MerchantWechat/save",
                Some(&t),
                json!({"app_id": "wx_sbx_appid", "app_secret": "", "template_id": "t"}),
            )
            .await;
        refused(&r, "app_secret", "app_secret");
        let r = app
            .post(
                "/msg.wxgzh/bind",
                Some(&t),
                json!({"user_id": s1, "openid": "o staff!"}),
            )
            .await;
        refused(&r, "openid", "微信 openid");
        let r = app
            .post_en(
                "/msg.merchant_private_msg/quick_reply_save",
                Some(&t),
                json!({"text": "  "}),
            )
            .await;
        refused(&r, "text", "text");

        // Configured and bound: the next new lead reaches the assignee's WeChat once.
        app.post(
            "/wechat.MerchantWechat/save",
            Some(&t),
            json!({"app_id": "wx_sbx_appid", "app_secret": platforms::sandbox::wechat_secret(common::SANDBOX_TOKEN), "template_id": "sbx_lead_template"}),
        )
        .await
        .ok();
        assert_eq!(
            app.get("/wechat.MerchantWechat/info", Some(&t)).await.ok()["configured"],
            true
        );
        let staff_list = app.get("/msg.wxgzh/staff", Some(&t)).await;
        assert!(
            staff_list
                .ok()
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["id"] == s1),
            "{}",
            staff_list.body
        );
        app.post(
            "/msg.wxgzh/bind",
            Some(&t),
            json!({"user_id": s1, "openid": "o_staff_0001"}),
        )
        .await
        .ok();
        sandbox(&app, "im", Some(json!({"open_id": open_id, "from_user_id": "u_fan_11", "text": "加我微信 buyer_2024 详聊", "twice": true}))).await;
        until("the WeChat notice", || async {
            wechat_sent(&app).await.len() == 1
        })
        .await;
        until("the notice settled", || async {
            app.get("/msg.wxgzh/log", Some(&t)).await.ok()[0]["wx_state"] == "sent"
        })
        .await;
        let sent = wechat_sent(&app).await;
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(sent[0]["touser"], "o_staff_0001");
        assert_eq!(sent[0]["template_id"], "sbx_lead_template");
        assert!(
            sent[0]["data"]["keyword2"]["value"]
                .as_str()
                .unwrap()
                .contains("buyer_2024"),
            "{sent:?}"
        );
        // A follower who left: WeChat's 43004, kept with the notice in the reader's language.
        sandbox(
            &app,
            "wechat/subscribe",
            Some(json!({"openid": "o_staff_0001", "subscribed": false})),
        )
        .await;
        sandbox(
            &app,
            "im",
            Some(
                json!({"open_id": open_id, "from_user_id": "u_fan_12", "text": "电话 13700001111"}),
            ),
        )
        .await;
        until("the refused notice", || async {
            app.get("/msg.wxgzh/log", Some(&t)).await.ok()[0]["wx_state"] == "failed"
        })
        .await;
        let log = app
            .call("GET", "/msg.wxgzh/log", Some(&t), None, "en")
            .await;
        assert!(
            log.ok()[0]["wx_reason"]
                .as_str()
                .unwrap()
                .contains("does not follow"),
            "{}",
            log.body
        );
        assert_eq!(wechat_sent(&app).await.len(), 1);
        twin_notice_runs_send_once(&app).await;
        let notices: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM eng_notices WHERE user_id <> $1")
                .bind(s1)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(notices, 0, "notices go to the assignee only");

        // Another tenant sees nothing of it and cannot touch it.
        let other = app.second_merchant(&admin, "pm2").await;
        let o = app
            .get("/msg.merchant_private_msg/index", Some(&other))
            .await;
        assert_eq!(o.ok()["total"], 0);
        app.get_q(
            "/msg.merchant_private_msg/thread",
            Some(&other),
            json!({"account_id": dy, "conversation_id": conversation}),
        )
        .await
        .expect(404);
        app.post(
            "/msg.merchant_private_msg/send",
            Some(&other),
            send("你好", 0),
        )
        .await
        .expect(404);
        assert!(
            app.get("/msg.merchant_private_msg/quick_reply_list", Some(&other))
                .await
                .ok()
                .as_array()
                .unwrap()
                .is_empty()
        );
        app.post(
            "/msg.merchant_private_msg/quick_reply_delete",
            Some(&other),
            json!({"id": qid}),
        )
        .await
        .expect(404);
        assert!(
            app.get("/msg.merchant_private_msg/accounts", Some(&other))
                .await
                .ok()
                .as_array()
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            app.get("/wechat.MerchantWechat/info", Some(&other))
                .await
                .ok()["configured"],
            false
        );
        assert!(
            app.get("/msg.wxgzh/log", Some(&other))
                .await
                .ok()
                .as_array()
                .unwrap()
                .is_empty()
        );
        let r = app
            .post(
                "/msg.wxgzh/bind",
                Some(&other),
                json!({"user_id": s1, "openid": "o_other_0001"}),
            )
            .await;
        refused(&r, "user_id", "线索菜单");
    }
}

/// Binding a staff member's WeChat by QR code: the console shows a parametric QR code of the
/// merchant's official account, WeChat pushes the scan (signed with the account's server Token) to
/// `/msg.wxgzh/callback`, and the scanner's openid is bound — once per code; unbinding and binding
/// again work; a forged push, another merchant's code and an expired code bind nothing.
#[tokio::test]
async fn a_staff_member_binds_their_wechat_by_scanning_a_qr_code() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let mid = demo_merchant(&app).await;
        let (s1, _) = staff(&app, &t, "wx_lead_a", &["/clue_management"]).await;
        let secret = platforms::sandbox::wechat_secret(SANDBOX_TOKEN);
        let server_token = platforms::sandbox::wechat_server_token(SANDBOX_TOKEN);
        let start = |user: i64| {
            let (app, t) = (&app, t.clone());
            async move {
                app.post("/msg.wxgzh/bind_qr", Some(&t), json!({"user_id": user}))
                    .await
            }
        };
        let state = |scene: String| {
            let (app, t) = (&app, t.clone());
            async move {
                app.get_q("/msg.wxgzh/bind_state", Some(&t), json!({"scene": scene}))
                    .await
                    .ok()
                    .clone()
            }
        };
        let scan = |url: &str, openid: &str| {
            let ticket = url.rsplit('/').next().unwrap().to_string();
            let app = &app;
            let openid = openid.to_string();
            async move {
                sandbox(
                    app,
                    "wechat/scan",
                    Some(json!({"ticket": ticket, "openid": openid, "new_follower": true})),
                )
                .await
            }
        };
        let openid_of = |user: i64| {
            let (app, t) = (&app, t.clone());
            async move {
                let list = app.get("/msg.wxgzh/staff", Some(&t)).await;
                list.ok()
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["id"] == user)
                    .map(|s| s["openid"].as_str().unwrap().to_string())
                    .unwrap()
            }
        };

        // No official account, then no server Token: the console is told what is missing.
        refused(&start(s1).await, "app_id", "未配置微信公众号");
        app.post(
            "/wechat.MerchantWechat/save",
            Some(&t),
            json!({"app_id": "wx_sbx_appid", "app_secret": secret, "template_id": "sbx_lead_template"}),
        )
        .await
        .ok();
        refused(&start(s1).await, "server_token", "令牌");
        let r = app
            .post(
                "/wechat.MerchantWechat/save",
                Some(&t),
                json!({"app_id": "wx_sbx_appid", "template_id": "sbx_lead_template", "server_token": "a b"}),
            )
            .await;
        refused(&r, "server_token", "3–32");
        app.post(
            "/wechat.MerchantWechat/save",
            Some(&t),
            json!({"app_id": "wx_sbx_appid", "template_id": "sbx_lead_template", "server_token": server_token}),
        )
        .await
        .ok();
        let info = app.get("/wechat.MerchantWechat/info", Some(&t)).await;
        assert_eq!(info.ok()["server_token_set"], true, "{}", info.body);
        assert!(
            info.ok()["callback_url"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/api/msg.wxgzh/callback?merchant={mid}")),
            "{}",
            info.body
        );
        assert_eq!(info.ok()["sandbox_server_token"], server_token.as_str());
        // The staff member must be one who takes leads.
        refused(&start(987_654).await, "user_id", "线索菜单");

        // WeChat checks the server URL: the echo only for the merchant's Token.
        let check = |token: &str, merchant: i64| {
            let sig = platforms::wechat::push_signature(token, "1700000000", "42");
            app.http
                .get(app.url("/api/msg.wxgzh/callback"))
                .query(&[
                    ("signature", sig.as_str()),
                    ("timestamp", "1700000000"),
                    ("nonce", "42"),
                    ("echostr", "echo123"),
                    ("merchant", &merchant.to_string()),
                ])
                .send()
        };
        let res = check(&server_token, mid).await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.text().await.unwrap(), "echo123");
        assert_eq!(check("wrongtoken", mid).await.unwrap().status(), 403);

        // The QR code; a forged push (wrong Token) binds nobody.
        let qr = start(s1).await.ok().clone();
        assert_eq!(qr["state"], "pending", "{qr}");
        let url = qr["url"].as_str().unwrap().to_string();
        assert!(url.contains("/sandbox/wechat/q/"), "{qr}");
        let scene = qr["scene"].as_str().unwrap().to_string();
        let forged = platforms::wechat::scan_event_xml("gh", "o_forger_001", 1, &scene, "t", true);
        let sig = platforms::wechat::push_signature("wrongtoken", "1", "2");
        let res = app
            .http
            .post(app.url("/api/msg.wxgzh/callback"))
            .query(&[
                ("signature", sig.as_str()),
                ("timestamp", "1"),
                ("nonce", "2"),
            ])
            .body(forged)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 403);
        assert_eq!(state(scene.clone()).await["state"], "pending");

        // The staff member scans: WeChat's push binds their openid.
        let pushed = scan(&url, "o_staff_qr_01").await;
        assert_eq!(
            (pushed["status"].as_i64(), pushed["body"].as_str()),
            (Some(200), Some("success")),
            "{pushed}"
        );
        let s = state(scene.clone()).await;
        assert_eq!(
            (s["state"].as_str(), s["openid"].as_str()),
            (Some("bound"), Some("o_staff_qr_01")),
            "{s}"
        );
        assert_eq!(openid_of(s1).await, "o_staff_qr_01");
        // A second scan of the used code (or WeChat's retry) changes nothing.
        let again = scan(&url, "o_someone_else").await;
        assert_eq!(again["body"], "success", "{again}");
        assert_eq!(openid_of(s1).await, "o_staff_qr_01");

        // Another merchant cannot read the code, and a push naming the wrong merchant is refused.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "wx_other").await;
        app.get_q(
            "/msg.wxgzh/bind_state",
            Some(&other),
            json!({"scene": scene}),
        )
        .await
        .expect(422);

        // Unbind, then bind again with a new code.
        app.post(
            "/msg.wxgzh/bind",
            Some(&t),
            json!({"user_id": s1, "openid": ""}),
        )
        .await
        .ok();
        assert_eq!(openid_of(s1).await, "");
        let qr2 = start(s1).await.ok().clone();
        let url2 = qr2["url"].as_str().unwrap().to_string();
        let scene2 = qr2["scene"].as_str().unwrap().to_string();
        let body = platforms::wechat::scan_event_xml("gh", "o_staff_qr_02", 1, &scene2, "t", false);
        let sig = platforms::wechat::push_signature(&server_token, "1", "2");
        let res = app
            .http
            .post(app.url("/api/msg.wxgzh/callback"))
            .query(&[
                ("signature", sig.as_str()),
                ("timestamp", "1"),
                ("nonce", "2"),
                ("merchant", "999999"),
            ])
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 403, "a push for another merchant's URL");
        scan(&url2, "o_staff_qr_02").await;
        assert_eq!(openid_of(s1).await, "o_staff_qr_02");

        // A code nobody scanned runs out with WeChat's ticket (the platforms' clock).
        let qr3 = start(s1).await.ok().clone();
        let scene3 = qr3["scene"].as_str().unwrap().to_string();
        app.db.clock.advance(601_000);
        assert_eq!(state(scene3).await["state"], "expired");
        let late = app
            .http
            .post(app.url("/sandbox/_control/wechat/scan"))
            .json(&json!({"ticket": qr3["url"].as_str().unwrap().rsplit('/').next(), "openid": "o_late_0001"}))
            .send()
            .await
            .unwrap();
        assert_eq!(late.status(), 404);
        assert_eq!(openid_of(s1).await, "o_staff_qr_02");
    }
}

#[tokio::test]
async fn staff_without_the_private_message_menus_are_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let (_, nomenu) = staff(&app, &demo, "pm_nomenu", &["/clue_management"]).await;
    let calls = [
        "/msg.merchant_private_msg/index",
        "/msg.merchant_private_msg/thread",
        "/msg.merchant_private_msg/send",
        "/msg.merchant_private_msg/accounts",
        "/msg.merchant_private_msg/quick_reply_list",
        "/msg.merchant_private_msg/quick_reply_save",
        "/msg.merchant_private_msg/quick_reply_delete",
        "/wechat.MerchantWechat/info",
        "/wechat.MerchantWechat/save",
        "/msg.wxgzh/staff",
        "/msg.wxgzh/bind",
        "/msg.wxgzh/bind_qr",
        "/msg.wxgzh/bind_state",
        "/msg.wxgzh/log",
    ];
    for path in calls {
        let r = app.post(path, Some(&nomenu), json!({"id": 1})).await;
        assert_eq!(r.status, 403, "{path}: {}", r.body);
    }
    // /private_auth reads the accounts only; /chat_reply edits quick replies but cannot send.
    let (_, auth_only) = staff(&app, &demo, "pm_auth", &["/private_auth"]).await;
    app.get("/msg.merchant_private_msg/accounts", Some(&auth_only))
        .await
        .ok();
    app.get("/msg.merchant_private_msg/index", Some(&auth_only))
        .await
        .expect(403);
    let (_, replies) = staff(&app, &demo, "pm_replies", &["/chat_reply"]).await;
    app.post(
        "/msg.merchant_private_msg/quick_reply_save",
        Some(&replies),
        json!({"text": "您好"}),
    )
    .await
    .ok();
    app.post(
        "/msg.merchant_private_msg/send",
        Some(&replies),
        json!({"account_id": 1, "conversation_id": "c", "text": "x"}),
    )
    .await
    .expect(403);
    app.get("/wechat.MerchantWechat/info", Some(&replies))
        .await
        .expect(403);
    let (_, douwei) = staff(&app, &demo, "pm_douwei", &["/dou_wei"]).await;
    app.get("/wechat.MerchantWechat/info", Some(&douwei))
        .await
        .ok();
    app.get("/msg.wxgzh/log", Some(&douwei)).await.ok();
}

/// Leads and conversations list newest first by their time, not by the order they were read in: a
/// sync or a late webhook brings an older comment or message after a newer one.
#[tokio::test]
async fn leads_and_conversations_are_newest_first_by_time() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let mid = demo_merchant(&app).await;
        // read in the order 2nd, 3rd, 1st (ids ascending), their times say 1st, 2nd, 3rd newest
        for (key, at) in [("dy:b", 2 * HOUR), ("dy:a", 3 * HOUR), ("dy:c", HOUR)] {
            sqlx::query(
                "INSERT INTO eng_leads (merchant_id, customer_key, platform, account_id, name, content, source, \
                 source_id, created_at, updated_at) VALUES ($1, $2, 'dy', 0, $2, 'hi', 'comment', 0, $3, $3)",
            )
            .bind(mid)
            .bind(key)
            .bind(at)
            .execute(&app.db.pool)
            .await
            .unwrap();
        }
        let names: Vec<String> = leads(&app, &t)
            .await
            .iter()
            .map(|l| l["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["dy:a", "dy:b", "dy:c"]);

        // conversation x: its message of 3 h arrives before the one of 1 h; conversation y's at 2 h
        for (conv, msg, text, at) in [
            ("x", "m1", "late news", 3 * HOUR),
            ("y", "m2", "middle", 2 * HOUR),
            ("x", "m3", "old news", HOUR),
        ] {
            sqlx::query(
                "INSERT INTO eng_messages (merchant_id, account_id, conversation_id, customer_id, direction, text, \
                 msg_id, created_at) VALUES ($1, 0, $2, $2, 'in', $3, $4, $5)",
            )
            .bind(mid)
            .bind(conv)
            .bind(text)
            .bind(msg)
            .bind(at)
            .execute(&app.db.pool)
            .await
            .unwrap();
        }
        let page = conversations_of(&app, &t, 0).await;
        let rows = page["rows"].as_array().unwrap();
        let got: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r["conversation_id"].as_str().unwrap(),
                    r["last_text"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, [("x", "late news"), ("y", "middle")], "{page}");
        assert_eq!(rows[0]["messages"], 2);
        let th = app
            .get_q(
                "/msg.merchant_private_msg/thread",
                Some(&t),
                json!({"account_id": 0, "conversation_id": "x"}),
            )
            .await;
        let texts: Vec<&str> = th
            .ok()
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["old news", "late news"], "{}", th.body);
    }
}
