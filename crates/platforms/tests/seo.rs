//! SEO data end to end: the DY adapter against the sandbox's hot list, the data vendor TikHub's
//! client against the sandbox's imitation of it (benchmark accounts), and the simulated search words
//! of the sandbox mode; all move with the platform clock.

mod common;

use common::*;
use platforms::sandbox::{simulated_hot, simulated_suggest, vendor_key};
use platforms::vendor::TikHub;
use platforms::{ErrorKind, HotWord, Platform, PublicWork, SearchWordKind, adapter};
use serde_json::{Value, json};

/// A full hot list: 50 words ranked 1.., hottest first, with known labels only.
fn assert_ranked(l: &[HotWord]) {
    assert_eq!(l.len(), 50);
    assert!(l.iter().enumerate().all(|(i, h)| h.rank == i as u32 + 1));
    assert!(l.windows(2).all(|w| w[0].hot_level >= w[1].hot_level));
    assert!(l.iter().all(|h| h.hot_level > 0 && !h.word.is_empty()));
    assert!(
        l.iter()
            .all(|h| ["", "新", "热", "爆"].contains(&h.label.as_str())),
        "{l:?}"
    );
}

async fn advance(s: &Sbx, ms: i64) {
    s.control("clock", json!({"advance_ms": ms})).await;
}

async fn control_get(s: &Sbx, path: &str) -> (u16, Value) {
    let r = s
        .http
        .get(format!("{}/_control/{path}", s.base))
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

async fn new_account(s: &Sbx, body: Value) -> Value {
    let v = s.control("public_accounts", body).await;
    assert!(v["id"].as_str().unwrap().starts_with("MS4wLjABAAAA"), "{v}");
    v
}

/// The TikHub client pointed at this sandbox with its key.
fn vendor(s: &Sbx) -> TikHub {
    TikHub::new(
        &format!("{}/tikhub", s.base),
        &vendor_key(TOKEN),
        0,
        s.clock.clone(),
    )
}

/// Every page of an account's videos, newest first.
async fn all_works(dy: &TikHub, id: &str, page: usize) -> Vec<PublicWork> {
    let (mut out, mut cursor) = (Vec::new(), 0);
    loop {
        let (works, next, more) = dy.public_works(id, cursor, page).await.unwrap();
        assert!(works.len() <= page);
        out.extend(works);
        if !more {
            return out;
        }
        cursor = next;
    }
}

/// The control API's truth about an account, in the adapter's types.
async fn truth(s: &Sbx, id: &str) -> (Value, Vec<PublicWork>) {
    let (status, v) = control_get(s, &format!("public_accounts/{id}")).await;
    assert_eq!(status, 200, "{v}");
    let works = v["videos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| PublicWork {
            item_id: w["item_id"].as_str().unwrap().into(),
            title: w["title"].as_str().unwrap().into(),
            create_time: w["create_time"].as_i64().unwrap(),
            plays: w["plays"].as_i64().unwrap(),
            likes: w["likes"].as_i64().unwrap(),
            comments: w["comments"].as_i64().unwrap(),
            shares: w["shares"].as_i64().unwrap(),
            cover: w["cover"].as_str().unwrap().into(),
            share_url: format!("{}/dy/share/{}", s.base, w["item_id"].as_str().unwrap()),
        })
        .collect();
    (v["account"].clone(), works)
}

#[tokio::test]
async fn hot_search_moves_with_the_day_not_within_it() {
    let (s, dy) = dy_setup().await;
    s.pin_early_morning();

    let a = dy.hot_search().await.unwrap();
    assert_ranked(&a);

    advance(&s, 3 * 3_600_000).await;
    assert_eq!(
        dy.hot_search().await.unwrap(),
        a,
        "same China day, same list"
    );

    advance(&s, DAY).await;
    let b = dy.hot_search().await.unwrap();
    assert_eq!(b.len(), 50);
    assert_ne!(b, a, "a new day moves the heat");
    let changed = a
        .iter()
        .filter(|x| {
            b.iter()
                .any(|y| y.word == x.word && y.hot_level != x.hot_level)
        })
        .count();
    assert!(changed > 10, "{changed} words changed heat");

    // Over a few days some words get a label (new on the list, or rising fast).
    let mut labelled = b.iter().any(|h| !h.label.is_empty());
    for _ in 0..6 {
        if labelled {
            break;
        }
        advance(&s, DAY).await;
        labelled = dy
            .hot_search()
            .await
            .unwrap()
            .iter()
            .any(|h| !h.label.is_empty());
    }
    assert!(labelled);
}

#[tokio::test]
async fn suggestions_include_long_tail_expansions_with_a_trend() {
    let s = start(|_| {}).await;
    let suggest = |w: &str| simulated_suggest(Platform::Dy, w, &s.clock);
    s.pin_early_morning();

    let l = suggest(" 火锅 ").unwrap();
    assert_eq!(l[0].word, "火锅");
    assert_eq!(l[0].kind, SearchWordKind::Seed);
    for w in ["火锅推荐", "附近火锅", "火锅团购"] {
        assert!(
            l.iter()
                .any(|x| x.word == w && x.kind == SearchWordKind::LongTail),
            "{w} in {l:?}"
        );
    }
    let long_tail = l
        .iter()
        .filter(|x| x.kind == SearchWordKind::LongTail)
        .count();
    assert!(long_tail >= 8, "{long_tail}");
    assert!(l.iter().all(|x| x.kind == SearchWordKind::Seed
        || x.word.contains("火锅")
        || x.kind == SearchWordKind::Related));
    assert!(l.iter().any(|x| x.kind == SearchWordKind::Related));
    for x in &l {
        assert_eq!(x.trend.len(), 7);
        assert_eq!(x.heat, x.trend[6]);
        let want = (x.trend[6] - x.trend[5]) as f64 / x.trend[5] as f64;
        assert!((x.change_ratio - want).abs() < 1e-3, "{x:?}");
    }
    // Stable within the day; the next day's trend is shifted by one.
    advance(&s, 2 * 3_600_000).await;
    assert_eq!(suggest("火锅").unwrap(), l);
    advance(&s, DAY).await;
    let next = suggest("火锅").unwrap();
    let seed = &next[0];
    assert_eq!(seed.trend[..6], l[0].trend[1..]);

    // Latin seeds get English modifiers.
    let en = suggest("pizza").unwrap();
    assert!(en.iter().any(|x| x.word == "pizza near me"));
    assert!(en.iter().any(|x| x.word == "best pizza"));
}

#[tokio::test]
async fn empty_keyword_is_refused() {
    let s = start(|_| {}).await;
    let e = simulated_suggest(Platform::Dy, "  ", &s.clock).unwrap_err();
    assert_eq!(e.code, "empty_keyword");
    assert_eq!(e.kind, ErrorKind::Permanent);
    assert!(!e.zh.is_empty() && !e.en.is_empty());
}

#[tokio::test]
async fn a_competitor_posts_on_schedule_and_its_figures_grow() {
    let s = start(|_| {}).await;
    let dy = vendor(&s);
    let acc = new_account(
        &s,
        json!({"nickname": "对面火锅店", "posts_per_day": 3, "followers": 1000}),
    )
    .await;
    let id = acc["id"].as_str().unwrap();

    let p0 = dy.public_account(id).await.unwrap();
    assert_eq!(p0.nickname, "对面火锅店");
    assert_eq!(p0.works_count, 0);
    assert_eq!(p0.followers, 1000);
    assert!(p0.avatar.ends_with(".svg"), "{}", p0.avatar);
    assert!(all_works(&dy, id, 10).await.is_empty());

    advance(&s, DAY).await;
    let day1 = all_works(&dy, id, 10).await;
    assert_eq!(day1.len(), 3);
    let (acct, true1) = truth(&s, id).await;
    assert_eq!(day1, true1, "the adapter reads the control API's figures");
    let p1 = dy.public_account(id).await.unwrap();
    assert_eq!(p1.works_count, 3);
    assert_eq!(acct["aweme_count"], 3);
    assert_eq!(p1.followers, acct["follower_count"].as_i64().unwrap());
    assert_eq!(p1.total_likes, acct["total_favorited"].as_i64().unwrap());
    // Posted within the day, newest first, with Chinese marketing titles.
    let t0 = acc["start_ms"].as_i64().unwrap();
    assert!(day1.windows(2).all(|w| w[0].create_time > w[1].create_time));
    assert!(
        day1.iter()
            .all(|w| w.create_time > t0 && w.create_time <= s.now())
    );
    assert!(day1.iter().all(|w| {
        w.title.chars().count() >= 8
            && w.title
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }));
    assert!(day1.iter().all(|w| w.plays > 0));

    advance(&s, DAY).await;
    let day2 = all_works(&dy, id, 10).await;
    assert_eq!(day2.len(), 6);
    assert_eq!(day2, truth(&s, id).await.1);
    // The first day's videos are still there, with more plays, likes and shares.
    for old in &day1 {
        let now_ = day2.iter().find(|w| w.item_id == old.item_id).unwrap();
        assert_eq!(now_.title, old.title);
        assert_eq!(now_.create_time, old.create_time);
        assert!(now_.plays > old.plays, "{old:?} -> {now_:?}");
        assert!(now_.likes >= old.likes && now_.comments >= old.comments);
        assert!(now_.shares >= old.shares);
    }
    let p2 = dy.public_account(id).await.unwrap();
    assert_eq!(p2.works_count, 6);
    assert!(p2.followers > p1.followers);
    assert!(p2.total_likes > p1.total_likes);
}

#[tokio::test]
async fn share_links_and_ids_resolve() {
    let s = start(|_| {}).await;
    let dy = vendor(&s);
    let acc = new_account(&s, json!({"nickname": "隔壁奶茶", "posts_per_day": 2})).await;
    let id = acc["id"].as_str().unwrap();
    let share = acc["share_url"].as_str().unwrap();
    let short = acc["short_url"].as_str().unwrap();
    assert!(share.starts_with(&s.base), "{share}");
    assert!(short.starts_with("https://v.douyin.com/"), "{short}");

    let text = format!("7.99 复制打开抖音，看看【隔壁奶茶的作品】 {short} 8@5.com :2pm");
    let web = format!("https://www.douyin.com/user/{id}?from_tab_name=main");
    for input in [id, share, short, text.as_str(), web.as_str()] {
        let p = dy.public_account(input).await.unwrap();
        assert_eq!(p.account_id, id, "{input}");
        assert_eq!(p.nickname, "隔壁奶茶");
        assert_eq!(p.share_url, format!("https://www.douyin.com/user/{id}"));
    }
    // The sandbox also has a few accounts of its own, with a history.
    let (_, v) = control_get(&s, "public_accounts").await;
    let builtin = &v["accounts"][0];
    let p = dy
        .public_account(builtin["short_url"].as_str().unwrap())
        .await
        .unwrap();
    assert!(p.works_count > 100, "{p:?}");
}

#[tokio::test]
async fn unknown_accounts_and_links_are_permanent_errors() {
    let s = start(|_| {}).await;
    let dy = vendor(&s);

    let e = dy.public_account("MS4wLjABAAAAnobody").await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Permanent, "account_not_found")
    );
    assert!(
        e.zh.contains("账号不存在") && e.en.contains("does not exist"),
        "{e:?}"
    );

    for link in [
        "https://example.com/some/page",
        "https://v.douyin.com/zzzzzzzz/",
    ] {
        let e = dy.public_account(link).await.unwrap_err();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::Permanent, "link_unresolvable"),
            "{link}"
        );
        assert!(e.en.contains("share link"), "{e:?}");
    }

    let e = dy.public_account("这不是链接").await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Permanent, "account_ref_invalid")
    );

    let (works, _, more) = dy.public_works("MS4wLjABAAAAnobody", 0, 10).await.unwrap();
    assert!(works.is_empty() && !more);

    let (status, _) = control_get(&s, "public_accounts/MS4wLjABAAAAnobody").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn public_works_paginate_by_cursor() {
    let s = start(|_| {}).await;
    let dy = vendor(&s);
    let acc = new_account(
        &s,
        json!({"nickname": "老牌烧烤", "posts_per_day": 5, "start_ms": s.now() - 3 * DAY,
               "topics": ["烧烤", "啤酒"], "city": "淄博"}),
    )
    .await;
    let id = acc["id"].as_str().unwrap();

    let (p1, c1, more) = dy.public_works(id, 0, 4).await.unwrap();
    assert_eq!(p1.len(), 4);
    assert!(more);
    assert_eq!(c1, p1[3].create_time, "the cursor is the last item's time");
    // Videos posted between two pages do not shift the next page.
    advance(&s, DAY).await;
    let (p2, c2, _) = dy.public_works(id, c1, 4).await.unwrap();
    assert!(p2.iter().all(|w| w.create_time < c1));
    let (p3, c3, _) = dy.public_works(id, c2, 4).await.unwrap();
    let (p4, _, more) = dy.public_works(id, c3, 4).await.unwrap();
    assert_eq!(p4.len(), 3);
    assert!(!more);
    let mut ids: Vec<&str> = [&p1, &p2, &p3, &p4]
        .iter()
        .flat_map(|p| p.iter().map(|w| w.item_id.as_str()))
        .collect();
    assert_eq!(ids.len(), 15);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 15, "no video twice");
    // The new day's 5 are on the first page now.
    let all = all_works(&dy, id, 7).await;
    assert_eq!(all.len(), 20);
    assert_eq!(all[5].item_id, p1[0].item_id);
    assert!(
        all.iter()
            .all(|w| w.title.contains("烧烤") || w.title.contains("啤酒"))
    );
    assert!(all.iter().any(|w| w.title.contains("淄博")));
}

#[tokio::test]
async fn seo_rate_limits_are_retryable_and_expired_client_tokens_renewed() {
    let (s, dy) = dy_setup().await;
    let v = vendor(&s);
    for call in ["dy.hot_search", "dy.public_account"] {
        s.control(
            "faults",
            json!({"call": call, "fault": "rate_limit", "count": 1}),
        )
        .await;
    }
    let e = dy.hot_search().await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Retryable, "28003018")
    );
    let e = v
        .public_account("MS4wLjABAAAAsbx0000000000001")
        .await
        .unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Retryable, "http_429")
    );
    dy.hot_search().await.unwrap();
    v.public_account("MS4wLjABAAAAsbx0000000000001")
        .await
        .unwrap();
    dy.hot_search().await.unwrap();
    assert_eq!(
        s.counts().await["client_tokens_issued"],
        1,
        "one cached token"
    );

    // A client token the platform calls expired is fetched again, once, without failing the call.
    s.control(
        "faults",
        json!({"call": "dy.hot_search", "fault": "expired_token", "count": 1}),
    )
    .await;
    dy.hot_search().await.unwrap();
    assert_eq!(s.counts().await["client_tokens_issued"], 2);
    // And one past its 2 h life is replaced before use.
    advance(&s, 3 * 3_600_000).await;
    dy.hot_search().await.unwrap();
    assert_eq!(s.counts().await["client_tokens_issued"], 3);
}

#[tokio::test]
async fn the_vendor_refuses_a_wrong_or_missing_key() {
    let s = start(|_| {}).await;
    let base = format!("{}/tikhub", s.base);
    for key in ["wrong-key", ""] {
        let v = TikHub::new(&base, key, 0, s.clock.clone());
        let e = v
            .public_account("MS4wLjABAAAAsbx0000000000001")
            .await
            .unwrap_err();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::Permanent, "vendor_key_refused"),
            "{key:?}"
        );
        assert!(e.zh.contains("TikHub") && e.en.contains("API key"), "{e:?}");
        let e = v
            .public_works("MS4wLjABAAAAsbx0000000000001", 0, 10)
            .await
            .unwrap_err();
        assert_eq!(e.code, "vendor_key_refused");
    }
    // The raw answer: HTTP 401 without the Bearer key, 200 `{code, router, params, data}` with it.
    let url = format!(
        "{base}/api/v1/douyin/web/handler_user_profile?sec_user_id=MS4wLjABAAAAsbx0000000000001"
    );
    let r = reqwest::get(&url).await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let r = reqwest::Client::new()
        .get(&url)
        .bearer_auth(vendor_key(TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], 200);
    assert!(v["data"]["user"]["nickname"].is_string(), "{v}");
}

#[tokio::test]
async fn other_platforms_say_they_do_not_support_it() {
    let s = start(|_| {}).await;
    for p in [Platform::Bjh] {
        let a = adapter(p, s.endpoint(p)).unwrap();
        let e = a.hot_search().await.unwrap_err();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::Permanent, "unsupported")
        );
        assert!(
            e.zh.contains("不支持") && e.en.contains("not support"),
            "{e:?}"
        );
    }
}

#[tokio::test]
async fn competitor_accounts_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("sbx-seo-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let keep = |c: &mut platforms::sandbox::Config| c.state_dir = Some(dir.clone());
    let id = {
        let s = start(keep).await;
        let acc = new_account(
            &s,
            json!({"nickname": "持久的对手", "posts_per_day": 4,
                                         "start_ms": s.now() - DAY}),
        )
        .await;
        acc["id"].as_str().unwrap().to_string()
    };
    let s = start(keep).await;
    let p = vendor(&s).public_account(&id).await.unwrap();
    assert_eq!(p.nickname, "持久的对手");
    assert_eq!(p.works_count, 4);
    let (_, v) = control_get(&s, "public_accounts").await;
    let n = v["accounts"].as_array().unwrap().len();
    assert_eq!(n, 4, "3 built-in + 1, the built-ins not duplicated");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn kuaishou_has_its_own_simulated_hot_list_and_suggestions() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    s.pin_early_morning();

    let k = simulated_hot(Platform::Ks, &s.clock);
    assert_ranked(&k);
    assert_ne!(
        k,
        dy.hot_search().await.unwrap(),
        "each platform has its own heat"
    );
    advance(&s, 3_600_000).await;
    assert_eq!(simulated_hot(Platform::Ks, &s.clock), k);
    advance(&s, DAY).await;
    assert_ne!(simulated_hot(Platform::Ks, &s.clock), k);

    let w = simulated_suggest(Platform::Ks, "奶茶", &s.clock).unwrap();
    assert_eq!(
        (w[0].word.as_str(), w[0].kind),
        ("奶茶", SearchWordKind::Seed)
    );
    assert!(w.iter().any(|x| x.word == "奶茶推荐"));
    assert!(w.iter().all(|x| x.trend.len() == 7));
    assert_ne!(
        w,
        simulated_suggest(Platform::Dy, "奶茶", &s.clock).unwrap()
    );
    assert_eq!(
        simulated_suggest(Platform::Ks, "", &s.clock)
            .unwrap_err()
            .code,
        "empty_keyword"
    );
    // KS's open platform has no hot-search API: the adapter says so.
    let ks = adapter(Platform::Ks, s.endpoint(Platform::Ks)).unwrap();
    let e = ks.hot_search().await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Permanent, "unsupported")
    );
}
