//! The DY sandbox as a third-party client of Douyin's open API sees it ("sandbox
//! fidelity"): raw HTTP, JSON or form bodies, the documented envelopes, scopes, sizes and routes.

mod common;

use common::*;
use platforms::sandbox::SANDBOX_DY_KEY;
use platforms::{Adapter, Creds, ErrorKind, Platform, PublishReq, adapter};
use serde_json::{Value, json};

const REDIRECT: &str = "http://app.test/callback";
/// What the DY adapter asks for (`platforms::dy::SCOPES`).
const DY_SCOPES: &str = concat!(
    "user_info,video.create.bind,video.data.bind,video.list.bind,item.comment,im.direct_message,",
    "data.external.user,video.search"
);

fn connect_url(s: &Sbx, scope: &str) -> String {
    format!(
        "{}/dy/platform/oauth/connect/?{}",
        s.base,
        serde_urlencoded::to_string([
            ("client_key", SANDBOX_DY_KEY),
            ("response_type", "code"),
            ("scope", scope),
            ("redirect_uri", REDIRECT),
            ("state", "st"),
        ])
        .unwrap()
    )
}

/// Posts the consent form with exactly these `grant` boxes ticked; returns the code.
async fn consent_ticking(s: &Sbx, scope: &str, nick: &str, ticked: &[&str]) -> String {
    let url = connect_url(s, scope);
    let mut form: Vec<(String, String)> =
        serde_urlencoded::from_str(url.split_once('?').unwrap().1).unwrap();
    form.push(("nickname".into(), nick.into()));
    form.push(("action".into(), "approve".into()));
    for t in ticked {
        form.push(("grant".into(), t.to_string()));
    }
    let r = s.http.post(&url).form(&form).send().await.unwrap();
    let loc = r.headers()["location"].to_str().unwrap().to_string();
    let q: Vec<(String, String)> =
        serde_urlencoded::from_str(loc.split_once('?').unwrap().1).unwrap();
    get(&q, "code").unwrap().to_string()
}

/// The same fields as a form (strings as they are, other values rendered).
async fn form_post(s: &Sbx, path: &str, body: Value) -> (u16, Value) {
    let pairs: Vec<(String, String)> = body
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().map_or_else(|| v.to_string(), String::from),
            )
        })
        .collect();
    answer(s.http.post(format!("{}/dy{path}", s.base)).form(&pairs)).await
}

/// Sends a request: (status, JSON body; null when the body is not JSON).
async fn answer(rb: reqwest::RequestBuilder) -> (u16, Value) {
    let r = rb.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn json_post(s: &Sbx, path: &str, body: Value) -> (u16, Value) {
    answer(s.http.post(format!("{}/dy{path}", s.base)).json(&body)).await
}

/// code -> tokens, with a form body (or JSON).
async fn tokens(s: &Sbx, code: &str, as_json: bool) -> Value {
    let fields = [
        ("client_key", SANDBOX_DY_KEY),
        ("client_secret", DY_SECRET.as_str()),
        ("code", code),
        ("grant_type", "authorization_code"),
    ];
    let rb = s.http.post(format!("{}/dy/oauth/access_token/", s.base));
    let rb = if as_json {
        rb.json(
            &fields
                .iter()
                .cloned()
                .collect::<std::collections::HashMap<_, _>>(),
        )
    } else {
        rb.form(&fields)
    };
    let (status, v) = answer(rb).await;
    assert_eq!(status, 200);
    assert_eq!(v["data"]["error_code"], 0, "{v}");
    v["data"].clone()
}

async fn token_form(s: &Sbx, code: &str) -> Value {
    tokens(s, code, false).await
}

/// An account that consented to everything the adapter asks: (token answer, creds).
async fn account(s: &Sbx, nick: &str) -> (Value, Creds) {
    let code = consent_ticking(s, DY_SCOPES, nick, &[]).await;
    let t = token_form(s, &code).await;
    let creds = Creds {
        open_id: t["open_id"].as_str().unwrap().into(),
        token: t["access_token"].as_str().unwrap().into(),
        ..Default::default()
    };
    (t, creds)
}

/// A user call the way Douyin's clients make it: `access-token` header, `open_id` in the query.
async fn user_call(
    s: &Sbx,
    method: reqwest::Method,
    path: &str,
    t: &Value,
    query: &[(&str, &str)],
    body: Option<Value>,
) -> Value {
    let mut q = vec![("open_id", t["open_id"].as_str().unwrap())];
    q.extend_from_slice(query);
    let url = format!(
        "{}/dy{path}?{}",
        s.base,
        serde_urlencoded::to_string(&q).unwrap()
    );
    let mut rb = s
        .http
        .request(method, url)
        .header("access-token", t["access_token"].as_str().unwrap());
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    let (status, v) = answer(rb).await;
    assert_eq!(status, 200);
    v
}

async fn get_call(s: &Sbx, path: &str, t: &Value, query: &[(&str, &str)]) -> Value {
    user_call(s, reqwest::Method::GET, path, t, query, None).await
}

async fn post_call(s: &Sbx, path: &str, t: &Value, body: Value) -> Value {
    user_call(s, reqwest::Method::POST, path, t, &[], Some(body)).await
}

fn code_of(v: &Value) -> i64 {
    v["data"]["error_code"].as_i64().unwrap()
}

/// `len` bytes of an H.264 MP4 of `w`x`h`, with `pad` bytes of `free` box in front (to make it
/// span parts).
fn mp4(w: u32, h: u32, pad: usize) -> Vec<u8> {
    let out = std::env::temp_dir().join(format!("fid-{}-{w}x{h}.mp4", std::process::id()));
    let st = std::process::Command::new("ffmpeg")
        .args(["-y", "-loglevel", "error", "-f", "lavfi", "-i"])
        .arg(format!("color=c=green:s={w}x{h}:r=10"))
        .args(["-t", "1", "-c:v", "libx264", "-preset", "ultrafast"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    let file = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    if pad == 0 {
        return file;
    }
    let mut v = ((pad + 8) as u32).to_be_bytes().to_vec();
    v.extend_from_slice(b"free");
    v.resize(pad + 8, 0);
    v.extend_from_slice(&file);
    v
}

fn video_form(bytes: Vec<u8>) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new().part(
        "video",
        reqwest::multipart::Part::bytes(bytes)
            .file_name("v.mp4")
            .mime_str("video/mp4")
            .unwrap(),
    )
}

#[tokio::test]
async fn oauth_calls_accept_json_and_form_bodies() {
    let s = start(|_| {}).await;
    // client_token with a JSON body (Douyin's current docs).
    let (st, v) = json_post(
        &s,
        "/oauth/client_token/",
        json!({"client_key": SANDBOX_DY_KEY, "client_secret": DY_SECRET.as_str(),
               "grant_type": "client_credential"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert!(
        v["data"]["access_token"]
            .as_str()
            .unwrap()
            .starts_with("clt."),
        "{v}"
    );
    // ... and with a form.
    let (_, v) = form_post(
        &s,
        "/oauth/client_token/",
        json!({"client_key": SANDBOX_DY_KEY, "client_secret": DY_SECRET.as_str(),
               "grant_type": "client_credential"}),
    )
    .await;
    assert_eq!(v["data"]["error_code"], 0, "{v}");
    // access_token and userinfo as JSON too.
    let code = consent_ticking(&s, "user_info", "json客户", &[]).await;
    let t = tokens(&s, &code, true).await;
    let (st, u) = json_post(
        &s,
        "/oauth/userinfo/",
        json!({"access_token": t["access_token"], "open_id": t["open_id"]}),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(u["data"]["nickname"], "json客户", "{u}");
    // A body that is neither answers the envelope's parameter error, not a plain-text 415.
    let (status, v) = answer(
        s.http
            .post(format!("{}/dy/oauth/client_token/", s.base))
            .header("content-type", "text/plain")
            .body("hello"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(v["data"]["error_code"], 10002, "{v}");
    assert_eq!(v["message"], "error");
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_answer_the_envelope() {
    let s = start(|_| {}).await;
    let (status, v) = answer(
        s.http
            .get(format!("{}/dy/api/douyin/v1/video/no_such_call/", s.base)),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(v["data"]["error_code"], 28001017, "{v}");
    assert_eq!(v["extra"]["error_code"], 28001017, "{v}");
    // A wrong method on a known route: 405 with the envelope (OAuth paths: the message shape).
    let (status, v) = answer(s.http.get(format!("{}/dy/oauth/client_token/", s.base))).await;
    assert_eq!(status, 405);
    assert_eq!(v["data"]["error_code"], 28001007, "{v}");
    assert_eq!(v["message"], "error");
    let (status, v) = answer(
        s.http
            .delete(format!("{}/dy/api/douyin/v1/video/create_video", s.base)),
    )
    .await;
    assert_eq!(status, 405);
    assert_eq!(v["extra"]["error_code"], 28001007, "{v}");
    // Elsewhere in the sandbox the HTML page stays.
    let r = s
        .http
        .get(format!("{}/nowhere", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert!(r.text().await.unwrap().contains("<html"));
}

#[tokio::test]
async fn every_token_call_answers_lifetimes_as_strings() {
    let s = start(|_| {}).await;
    let code = consent_ticking(&s, "user_info", "寿命", &[]).await;
    let t = token_form(&s, &code).await;
    assert!(t["expires_in"].is_string(), "{t}");
    assert!(t["refresh_expires_in"].is_string(), "{t}");
    let r = answer(
        s.http
            .post(format!("{}/dy/oauth/refresh_token/", s.base))
            .form(&[
                ("client_key", SANDBOX_DY_KEY),
                ("grant_type", "refresh_token"),
                ("refresh_token", t["refresh_token"].as_str().unwrap()),
            ]),
    )
    .await
    .1;
    assert!(r["data"]["expires_in"].is_string(), "{r}");
    assert!(r["data"]["refresh_expires_in"].is_string(), "{r}");
    let n = answer(
        s.http
            .post(format!("{}/dy/oauth/renew_refresh_token/", s.base))
            .form(&[
                ("client_key", SANDBOX_DY_KEY),
                ("refresh_token", t["refresh_token"].as_str().unwrap()),
            ]),
    )
    .await
    .1;
    assert_eq!(n["data"]["error_code"], 0, "{n}");
    assert_eq!(n["data"]["expires_in"], "2592000", "{n}");
}

#[tokio::test]
async fn only_the_consented_scope_is_granted() {
    let s = start(|_| {}).await;
    // Asked for user_info only: that is all the token carries.
    let code = consent_ticking(&s, "user_info", "只要资料", &[]).await;
    let t = token_form(&s, &code).await;
    assert_eq!(t["scope"], "user_info", "{t}");
    let list = get_call(
        &s,
        "/api/douyin/v1/video/video_list/",
        &t,
        &[("cursor", "0"), ("count", "10")],
    )
    .await;
    assert_eq!(code_of(&list), 28001012, "{list}");
    // Asked for everything, ticked two boxes: those two (user_info is always sent). The page has a
    // box per scope.
    let html = s
        .http
        .get(connect_url(&s, DY_SCOPES))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for sc in DY_SCOPES.split(',') {
        assert!(html.contains(&format!("value=\"{sc}\"")), "{sc}: {html}");
    }
    let code = consent_ticking(&s, DY_SCOPES, "只看列表", &["user_info", "video.list.bind"]).await;
    let t = token_form(&s, &code).await;
    assert_eq!(t["scope"], "user_info,video.list.bind", "{t}");
    let list = get_call(&s, "/api/douyin/v1/video/video_list/", &t, &[]).await;
    assert_eq!(code_of(&list), 0, "{list}");
    // The scope survives a refresh.
    let (_, r) = form_post(
        &s,
        "/oauth/refresh_token/",
        json!({"client_key": SANDBOX_DY_KEY, "grant_type": "refresh_token",
               "refresh_token": t["refresh_token"]}),
    )
    .await;
    assert_eq!(r["data"]["scope"], "user_info,video.list.bind", "{r}");
    // The adapter reads the scope error as "authorize again".
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let creds = Creds {
        open_id: t["open_id"].as_str().unwrap().into(),
        token: t["access_token"].as_str().unwrap().into(),
        ..Default::default()
    };
    let path = temp_file("scope.mp4", 1000);
    let e = dy
        .upload(
            &creds,
            &PublishReq {
                video_path: path,
                title: "t".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.kind),
        ("28001012", ErrorKind::Reauthorize)
    );
}

#[tokio::test]
async fn upload_reports_the_real_dimensions() {
    let s = start(|_| {}).await;
    let (t, _) = account(&s, "尺寸").await;
    let open_id = t["open_id"].as_str().unwrap();
    let token = t["access_token"].as_str().unwrap();
    let url = |p: &str, extra: &str| {
        format!(
            "{}/dy/api/douyin/v1/video/{p}/?open_id={open_id}{extra}",
            s.base
        )
    };
    // Plain upload.
    let r = answer(
        s.http
            .post(url("upload_video", ""))
            .header("access-token", token)
            .multipart(video_form(mp4(720, 1280, 0))),
    )
    .await
    .1;
    assert_eq!(
        (&r["data"]["video"]["width"], &r["data"]["video"]["height"]),
        (&json!(720), &json!(1280)),
        "{r}"
    );
    // In parts: the header is read across them (a 6 MB box in front puts moov in part 2).
    let file = mp4(640, 360, 6 * 1024 * 1024);
    let init = answer(
        s.http
            .post(url("init_video_part_upload", ""))
            .header("access-token", token),
    )
    .await
    .1;
    let upload_id = init["data"]["upload_id"].as_str().unwrap().to_string();
    let enc = serde_urlencoded::to_string([("upload_id", &upload_id)]).unwrap();
    for (i, part) in file.chunks(5 * 1024 * 1024).enumerate() {
        let r = answer(
            s.http
                .post(url(
                    "upload_video_part",
                    &format!("&{enc}&part_number={}", i + 1),
                ))
                .header("access-token", token)
                .multipart(video_form(part.to_vec())),
        )
        .await
        .1;
        assert_eq!(code_of(&r), 0, "{r}");
    }
    let r = answer(
        s.http
            .post(url("complete_video_part_upload", &format!("&{enc}")))
            .header("access-token", token),
    )
    .await
    .1;
    assert_eq!(r["data"]["video"]["width"], 640, "{r}");
    assert_eq!(r["data"]["video"]["height"], 360, "{r}");
    // Not an MP4: no size is made up.
    let r: Value = s
        .http
        .post(url("upload_video", ""))
        .header("access-token", token)
        .multipart(video_form(vec![0u8; 4096]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["data"]["video"]["width"], 0, "{r}");
}

/// Uploads and creates a work through the adapter; returns (item_id, video_id).
async fn post_work(
    dy: &std::sync::Arc<dyn Adapter>,
    creds: &Creds,
    title: &str,
) -> (String, String) {
    let req = PublishReq {
        video_path: temp_file(&format!("{title}.mp4"), 2000),
        title: title.into(),
        ..Default::default()
    };
    let video = dy.upload(creds, &req).await.unwrap();
    (dy.create(creds, &video, &req).await.unwrap(), video)
}

#[tokio::test]
async fn video_data_honours_video_ids_and_agrees_with_video_list() {
    let s = start(|c| c.review_delay_ms = 0).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let (t, creds) = account(&s, "数据").await;
    let (item1, video1) = post_work(&dy, &creds, "第一条").await;
    let (item2, _) = post_work(&dy, &creds, "第二条").await;
    // A top-level comment and a reply to it on item 1.
    let top = dy.comment(&creds, &item1, "置顶评论").await.unwrap();
    dy.reply_comment(&creds, &item1, &top, "回复一下")
        .await
        .unwrap();

    // video_list and video_data report the same numbers (the reply is not a comment of the video).
    let data1 = post_call(
        &s,
        "/api/douyin/v1/video/video_data/",
        &t,
        json!({"item_ids": [item1]}),
    )
    .await;
    let all = get_call(&s, "/api/douyin/v1/video/video_list/", &t, &[]).await;
    let in_list = all["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item_id"] == item1.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        in_list["statistics"], data1["data"]["list"][0]["statistics"],
        "{all} / {data1}"
    );
    assert_eq!(in_list["statistics"]["comment_count"], 1);

    let by_video = post_call(
        &s,
        "/api/douyin/v1/video/video_data/",
        &t,
        json!({"video_ids": [video1]}),
    )
    .await;
    let list = by_video["data"]["list"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{by_video}");
    assert_eq!(list[0]["item_id"], item1.as_str());
    let by_item = post_call(
        &s,
        "/api/douyin/v1/video/video_data/",
        &t,
        json!({"item_ids": [item2]}),
    )
    .await;
    assert_eq!(by_item["data"]["list"][0]["item_id"], item2.as_str());
}

#[tokio::test]
async fn reply_list_private_messages_and_share_links_are_routed() {
    let s = start(|c| c.review_delay_ms = 0).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let (t, creds) = account(&s, "互动").await;
    let (item, _) = post_work(&dy, &creds, "互动视频").await;
    let top = dy.comment(&creds, &item, "欢迎光临").await.unwrap();
    let reply = dy
        .reply_comment(&creds, &item, &top, "谢谢支持")
        .await
        .unwrap();

    // Replies of one comment.
    let r = get_call(
        &s,
        "/item/comment/reply/list/",
        &t,
        &[
            ("item_id", &item),
            ("comment_id", &top),
            ("cursor", "0"),
            ("count", "10"),
        ],
    )
    .await;
    assert_eq!(code_of(&r), 0, "{r}");
    let replies = r["data"]["list"].as_array().unwrap();
    assert_eq!(replies.len(), 1, "{r}");
    assert_eq!(replies[0]["comment_id"], reply.as_str());
    assert_eq!(replies[0]["content"], "谢谢支持");
    assert_eq!(r["data"]["has_more"], false);
    let comments = dy.list_comments(&creds, &item, 10).await.unwrap();
    assert_eq!(
        comments
            .iter()
            .find(|c| c.comment_id == top)
            .unwrap()
            .reply_total,
        1
    );

    // A private message to a customer who is not writing: refused (DY answers only customers who
    // wrote in the last 48 hours).
    let body = json!({"conversation_id": "conv-1", "to_user_id": "fan-1",
                      "content": {"msg_type": 1, "text": "您好，欢迎到店"}});
    let m = user_call(
        &s,
        reqwest::Method::POST,
        "/im/send/msg/",
        &t,
        &[],
        Some(body.clone()),
    )
    .await;
    assert_eq!(code_of(&m), 28003020, "{m}");
    let (st, _) = answer(
        s.http
            .post(format!("{}/_control/im", s.base))
            .json(&json!({"open_id": creds.open_id, "from_user_id": "fan-1", "text": "在吗"})),
    )
    .await;
    assert_eq!(st, 200);
    // A private message, recorded and countable.
    let m = user_call(
        &s,
        reqwest::Method::POST,
        "/im/send/msg/",
        &t,
        &[],
        Some(
            json!({"msg_id": "", "conversation_id": "conv-1", "to_user_id": "fan-1",
                    "content": {"msg_type": 1, "text": "您好，欢迎到店"}}),
        ),
    )
    .await;
    assert_eq!(code_of(&m), 0, "{m}");
    assert!(m["data"]["msg_id"].as_str().is_some_and(|x| !x.is_empty()));
    let sent = answer(s.http.get(format!(
        "{}/_control/messages?open_id={}",
        s.base, creds.open_id
    )))
    .await
    .1;
    assert_eq!(sent["total"], 1, "{sent}");
    assert_eq!(sent["messages"][0]["text"], "您好，欢迎到店");
    assert_eq!(sent["messages"][0]["to_user_id"], "fan-1");
    assert_eq!(s.counts().await["messages_sent"], 1);

    // get_share: a short link (client token + ticket) that opens the signed schema.
    let (_, ct) = form_post(
        &s,
        "/oauth/client_token/",
        json!({"client_key": SANDBOX_DY_KEY, "client_secret": DY_SECRET.as_str(),
               "grant_type": "client_credential"}),
    )
    .await;
    let clt = ct["data"]["access_token"].as_str().unwrap().to_string();
    let tk = answer(
        s.http
            .get(format!("{}/dy/open/getticket/", s.base))
            .header("access-token", &clt),
    )
    .await
    .1;
    let ticket = tk["data"]["ticket"].as_str().unwrap();
    let sid = answer(
        s.http
            .get(format!("{}/dy/share-id/?need_callback=true", s.base))
            .header("access-token", &clt),
    )
    .await
    .1;
    let share_id = sid["data"]["share_id"].as_str().unwrap();
    let share = |body: Value| {
        s.http
            .post(format!("{}/dy/api/douyin/v1/schema/get_share/", s.base))
            .header("access-token", &clt)
            .json(&body)
            .send()
    };
    let expire_at = s.now() / 1000 + 3600;
    let g: Value = share(
        json!({"client_ticket": ticket, "expire_at": expire_at, "state": share_id,
        "video_path": "http://shop.test/v.mp4", "title": "到店打卡", "hashtag_list": ["探店"],
        "share_to_publish": 1}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(g["err_no"], 0, "{g}");
    let link = g["data"]["schema"].as_str().unwrap().to_string();
    assert!(link.starts_with(&format!("{}/dy/s/", s.base)), "{link}");
    let r = s.http.get(&link).send().await.unwrap();
    assert_eq!(r.status(), 302);
    let schema = r.headers()["location"].to_str().unwrap();
    assert!(
        schema.starts_with("snssdk1128://openplatform/share?"),
        "{schema}"
    );
    assert!(schema.contains(&format!("state={share_id}")), "{schema}");
    // The customer posts from the short link (the phone's page: no sandbox token).
    let p: Value = reqwest::Client::new()
        .post(format!("{}/dy/h5_publish", s.base))
        .json(&json!({"schema": link, "nickname": "顾客甲"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(p["item_id"].as_str().is_some(), "{p}");
    // No media, or a dead ticket: the schema calls' error shape.
    let bad: Value = share(json!({"client_ticket": ticket, "expire_at": expire_at}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(bad["err_no"], 2100005, "{bad}");
    let bad: Value = share(json!({"client_ticket": "tkt.nope", "expire_at": expire_at,
                                  "video_path": "http://shop.test/v.mp4"}))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(bad["err_no"], 2100005, "{bad}");
}

#[tokio::test]
async fn avatars_are_served_by_the_sandbox() {
    let s = start(|_| {}).await;
    let code = consent_ticking(&s, "user_info", "头像", &[]).await;
    let t = token_form(&s, &code).await;
    let (_, u) = form_post(
        &s,
        "/oauth/userinfo/",
        json!({"access_token": t["access_token"], "open_id": t["open_id"]}),
    )
    .await;
    let avatar = u["data"]["avatar"].as_str().unwrap();
    assert!(
        avatar.starts_with(&format!("{}/avatar/", s.base)),
        "{avatar}"
    );
    let r = s.http.get(avatar).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.text().await.unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn state_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("sbx-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let keep = |c: &mut platforms::sandbox::Config| {
        c.state_dir = Some(dir.clone());
        c.review_delay_ms = 0;
    };
    let (creds, item) = {
        let s = start(keep).await;
        let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
        let (_, creds) = account(&s, "重启前").await;
        let (item, _) = post_work(&dy, &creds, "重启前的视频").await;
        (creds, item)
    };
    assert!(dir.join("state.json").exists());
    // A new sandbox on the same folder knows the token and the work, and publishes.
    let s = start(keep).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    dy.check(&creds).await.unwrap();
    let works = dy.list_works(&creds, 10).await.unwrap();
    assert_eq!(works.len(), 1);
    assert_eq!(works[0].item_id, item);
    post_work(&dy, &creds, "重启后的视频").await;
    assert_eq!(s.counts().await["total_creates"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}
