//! QR-session adapter for WeChat Channels (SPH), Xiaohongshu (XHS) and the shop platform.
//!
//! These platforms have no official publishing API (PLATFORMS.md): real tools drive the creator web
//! console with a headless browser. This adapter speaks the sandbox's boundary model of that
//! console — `logged_out -> qr_pending -> logged_in -> sms_challenge | session_expired` — over a small
//! JSON protocol of our own design (`{code, msg, data}`, session in cookie `session`). A browser
//! driver for the real consoles would implement the same `Adapter` calls.
//!
//! Paths under the base URL: `POST /login/qr`, `GET /login/poll?login_id&sms_code`,
//! `GET /session/check`, `POST /upload` (multipart `video`), `POST /publish` (JSON),
//! `GET /works?cursor&count`, `POST /comment`, `GET /poi/search?keyword&city`, `GET /profile`
//! (the console's home card: nickname and follower count).
//! A dead session answers a redirect to the login page, as the real consoles do.

use crate::error::{Reason, session_codes};
use crate::http::{self, Http, num, text};
use crate::{
    Adapter, Creds, Endpoint, FollowerDay, PResult, Platform, Poi, PublishReq, QrLogin,
    SessionState, Stats, TokenSet, Work, WorkStatus, error,
};
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

pub struct SessionAdapter {
    platform: Platform,
    http: Http,
}

impl SessionAdapter {
    pub fn new(platform: Platform, ep: Endpoint) -> SessionAdapter {
        SessionAdapter {
            platform,
            http: Http::new(platform, &ep),
        }
    }

    async fn call(&self, rb: reqwest::RequestBuilder, upload_bytes: u64) -> PResult<Value> {
        let r = self.http.send(rb, upload_bytes).await?;
        if r.status.is_redirection() {
            // The console sends a dead session to its login page.
            return Err(error::reason(
                self.platform,
                "session_expired",
                Reason::SessionExpired,
                "",
            ));
        }
        if r.status.as_u16() == 429 || r.status.is_server_error() {
            return Err(error::http_status(self.platform, r.status.as_u16()));
        }
        let v: Value = match serde_json::from_slice(&r.body) {
            Ok(v) => v,
            Err(_) if !r.status.is_success() => {
                return Err(error::http_status(self.platform, r.status.as_u16()));
            }
            Err(_) => return Err(error::bad_response(self.platform, "not JSON")),
        };
        let code = num(&v, "code");
        if code != session_codes::OK {
            return Err(error::session(self.platform, code, &text(&v, "msg")));
        }
        Ok(v.get("data").cloned().unwrap_or(Value::Null))
    }

    fn with_session(&self, rb: reqwest::RequestBuilder, creds: &Creds) -> reqwest::RequestBuilder {
        rb.header("cookie", format!("session={}", creds.token))
    }
}

/// The sandbox's POI search under any platform base URL: `GET {base}/poi/search?keyword&city`.
pub(crate) async fn generic_poi_search(h: &Http, keyword: &str, city: &str) -> PResult<Vec<Poi>> {
    let url = format!(
        "{}?{}",
        h.url("/poi/search"),
        http::query(&[("keyword", keyword), ("city", city)])
    );
    let v = h.json(h.client.get(url), 0).await?;
    let code = num(&v, "code");
    if code != 0 {
        return Err(error::session(h.platform, code, &text(&v, "msg")));
    }
    Ok(crate::dy::parse_pois(v.get("data").unwrap_or(&Value::Null)))
}

#[async_trait::async_trait]
impl Adapter for SessionAdapter {
    fn platform(&self) -> Platform {
        self.platform
    }

    fn authorize_url(&self, _redirect_uri: &str, _state: &str) -> PResult<String> {
        Err(error::unsupported(self.platform, "authorize_url"))
    }

    async fn exchange_code(&self, _code: &str) -> PResult<TokenSet> {
        Err(error::unsupported(self.platform, "exchange_code"))
    }

    /// Sessions cannot be refreshed: when one dies the person scans again.
    async fn refresh(&self, tokens: &TokenSet) -> PResult<TokenSet> {
        let _ = tokens;
        Err(error::reason(
            self.platform,
            "session_expired",
            Reason::SessionExpired,
            "",
        ))
    }

    async fn start_qr_login(&self) -> PResult<QrLogin> {
        let d = self
            .call(self.http.client.post(self.http.url("/login/qr")), 0)
            .await?;
        Ok(QrLogin {
            login_id: text(&d, "login_id"),
            qr_url: text(&d, "qr_url"),
            expires_at: num(&d, "expires_at"),
            qr_image: None,
        })
    }

    /// An expired or unknown QR login answers `LoggedOut`: start a new one.
    async fn poll_qr_login(&self, login_id: &str, sms_code: Option<&str>) -> PResult<SessionState> {
        let mut q = vec![("login_id", login_id)];
        if let Some(c) = sms_code {
            q.push(("sms_code", c));
        }
        let url = format!("{}?{}", self.http.url("/login/poll"), http::query(&q));
        let d = self.call(self.http.client.get(url), 0).await?;
        Ok(match text(&d, "state").as_str() {
            "qr_pending" => SessionState::QrPending,
            "sms_challenge" => SessionState::SmsChallenge,
            "logged_in" => SessionState::LoggedIn {
                session: TokenSet {
                    open_id: text(&d, "open_id"),
                    access_token: text(&d, "session"),
                    refresh_token: String::new(),
                    expires_at: num(&d, "expires_at"),
                    refresh_expires_at: num(&d, "expires_at"),
                    nickname: text(&d, "nickname"),
                    avatar: text(&d, "avatar"),
                    scope: String::new(),
                },
            },
            "session_expired" => SessionState::SessionExpired,
            _ => SessionState::LoggedOut,
        })
    }

    async fn check(&self, creds: &Creds) -> PResult<()> {
        let rb = self.with_session(self.http.client.get(self.http.url("/session/check")), creds);
        self.call(rb, 0).await.map(|_| ())
    }

    async fn verify_app_token(&self, _app_id: &str, _app_token: &str) -> PResult<TokenSet> {
        Err(error::unsupported(self.platform, "verify_app_token"))
    }

    async fn upload(&self, creds: &Creds, req: &PublishReq) -> PResult<String> {
        let len = http::file_len(self.platform, &req.video_path)?;
        let bytes = http::read_all(self.platform, &req.video_path).await?;
        let part = Part::bytes(bytes)
            .file_name(http::file_name(&req.video_path))
            .mime_str("video/mp4")
            .expect("mime");
        let rb = self
            .with_session(self.http.client.post(self.http.url("/upload")), creds)
            .multipart(Form::new().part("video", part));
        let d = self.call(rb, len).await?;
        Ok(text(&d, "video_id"))
    }

    async fn create(&self, creds: &Creds, video_id: &str, req: &PublishReq) -> PResult<String> {
        let body = json!({
            "video_id": video_id,
            "title": req.title,
            "topics": req.topics,
            "at_users": req.at_users,
            "poi_id": req.poi_id,
            "poi_name": req.poi_name,
        });
        let rb = self
            .with_session(self.http.client.post(self.http.url("/publish")), creds)
            .json(&body);
        let d = self.call(rb, 0).await?;
        Ok(text(&d, "item_id"))
    }

    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>> {
        let mut out = Vec::new();
        let mut cursor = "0".to_string();
        while out.len() < max {
            let count = (max - out.len()).min(20).to_string();
            let url = format!(
                "{}?{}",
                self.http.url("/works"),
                http::query(&[("cursor", &cursor), ("count", &count)])
            );
            let d = self
                .call(self.with_session(self.http.client.get(url), creds), 0)
                .await?;
            let list = d
                .get("list")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for w in &list {
                let status = match text(w, "status").as_str() {
                    "public" => WorkStatus::Public,
                    "rejected" => WorkStatus::Rejected {
                        reason: text(w, "reason"),
                    },
                    _ => WorkStatus::Reviewing,
                };
                out.push(Work {
                    item_id: text(w, "item_id"),
                    title: text(w, "title"),
                    create_time: num(w, "create_time"),
                    status,
                    stats: Stats {
                        play: num(w, "play"),
                        like: num(w, "like"),
                        comment: num(w, "comment"),
                        share: num(w, "share"),
                    },
                    share_url: text(w, "share_url"),
                });
            }
            let next = text(&d, "cursor");
            if !http::boolean(&d, "has_more") || list.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        out.truncate(max);
        Ok(out)
    }

    /// The creator console's home card shows the follower count now: today's figure.
    async fn followers(&self, creds: &Creds) -> PResult<Vec<FollowerDay>> {
        let rb = self.with_session(self.http.client.get(self.http.url("/profile")), creds);
        let d = self.call(rb, 0).await?;
        Ok(vec![FollowerDay {
            day: domain::matrix::day_of(self.http.clock.platform_now()),
            total: num(&d, "followers"),
        }])
    }

    async fn comment(&self, creds: &Creds, item_id: &str, text_: &str) -> PResult<String> {
        let rb = self
            .with_session(self.http.client.post(self.http.url("/comment")), creds)
            .json(&json!({"item_id": item_id, "content": text_}));
        let d = self.call(rb, 0).await?;
        Ok(text(&d, "comment_id"))
    }

    async fn poi_search(&self, keyword: &str, city: &str) -> PResult<Vec<Poi>> {
        generic_poi_search(&self.http, keyword, city).await
    }

    async fn comment_page(
        &self,
        creds: &Creds,
        item_id: &str,
        cursor: &str,
        count: usize,
    ) -> PResult<crate::CommentPage> {
        if !crate::has_comment_api(self.platform) {
            return Err(error::unsupported(self.platform, "comment_page"));
        }
        let url = format!(
            "{}?{}",
            self.http.url("/comments"),
            http::query(&[
                ("item_id", item_id),
                ("cursor", if cursor.is_empty() { "0" } else { cursor }),
                ("count", &count.clamp(1, 50).to_string()),
            ])
        );
        let d = self
            .call(self.with_session(self.http.client.get(url), creds), 0)
            .await?;
        Ok(crate::dy::comment_page_from(&d))
    }

    async fn reply_comment(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
        text_: &str,
    ) -> PResult<String> {
        if !crate::has_comment_api(self.platform) {
            return Err(error::unsupported(self.platform, "reply_comment"));
        }
        let rb = self
            .with_session(self.http.client.post(self.http.url("/comment")), creds)
            .json(&json!({"item_id": item_id, "reply_to": comment_id, "content": text_}));
        let d = self.call(rb, 0).await?;
        Ok(text(&d, "comment_id"))
    }
}
