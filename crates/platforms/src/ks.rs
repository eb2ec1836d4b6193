//! Kuaishou adapter: open.kuaishou.com (PLATFORMS.md "Kuaishou"). Answers are `{result: 1 | code,
//! error_msg, ...payload}`; the app and the user travel in the query (`app_id`, `access_token`).
//! Uploading is two-step: `start_upload` hands out an upload token and an upload host, the bytes go
//! there, and `publish` turns the upload token into a photo. The "video id" between `upload` and
//! `create` is therefore the upload token.

use crate::error::ks_codes;
use crate::http::{self, Http, MB, num, text};
use crate::{
    Adapter, AppCreds, Creds, Endpoint, FollowerDay, PResult, Platform, Poi, PublishReq, QrLogin,
    SessionState, Stats, TokenSet, Work, WorkStatus, error,
};
use reqwest::multipart::{Form, Part};
use serde_json::Value;

pub const SCOPES: &str = "user_info,user_video_publish,user_video_info";
/// Files above this go up as fragments (`/api/upload/fragment` + `/api/upload/complete`).
pub const PLAIN_UPLOAD_MAX: u64 = 50 * MB;
pub const FRAGMENT_SIZE: u64 = 10 * MB;

/// KS publishing requires a cover image; when the product has none we send this neutral 1x1 JPEG so
/// the call is valid (the platform then picks a frame in its app). Replace by passing `cover_path`.
const FALLBACK_COVER: &[u8] = &[
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0x08,
    0x07, 0x07, 0x07, 0x09, 0x09, 0x08, 0x0A, 0x0C, 0x14, 0x0D, 0x0C, 0x0B, 0x0B, 0x0C, 0x19, 0x12,
    0x13, 0x0F, 0x14, 0x1D, 0x1A, 0x1F, 0x1E, 0x1D, 0x1A, 0x1C, 0x1C, 0x20, 0x24, 0x2E, 0x27, 0x20,
    0x22, 0x2C, 0x23, 0x1C, 0x1C, 0x28, 0x37, 0x29, 0x2C, 0x30, 0x31, 0x34, 0x34, 0x34, 0x1F, 0x27,
    0x39, 0x3D, 0x38, 0x32, 0x3C, 0x2E, 0x33, 0x34, 0x32, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01,
    0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0xFF, 0xC4, 0x00,
    0x14, 0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x2A, 0x9F, 0xFF,
    0xD9,
];

pub struct KsAdapter {
    http: Http,
    app: AppCreds,
}

impl KsAdapter {
    pub fn new(ep: Endpoint) -> KsAdapter {
        KsAdapter {
            http: Http::new(Platform::Ks, &ep),
            app: ep.app,
        }
    }

    fn check(v: Value) -> PResult<Value> {
        let r = num(&v, "result");
        if r == ks_codes::OK {
            return Ok(v);
        }
        let msg = match text(&v, "error_msg") {
            m if m.is_empty() => text(&v, "error"),
            m => m,
        };
        Err(error::ks(r, &msg))
    }

    fn need_app(&self) -> PResult<()> {
        if self.app.client_key.is_empty() {
            Err(error::no_app_creds(Platform::Ks))
        } else {
            Ok(())
        }
    }

    fn url(&self, path: &str, q: &[(&str, &str)]) -> String {
        format!("{}?{}", self.http.url(path), http::query(q))
    }

    async fn call(&self, rb: reqwest::RequestBuilder, upload_bytes: u64) -> PResult<Value> {
        Self::check(self.http.json(rb, upload_bytes).await?)
    }

    fn user_q<'a>(&'a self, creds: &'a Creds) -> Vec<(&'a str, &'a str)> {
        vec![
            ("app_id", self.app.client_key.as_str()),
            ("access_token", creds.token.as_str()),
        ]
    }

    fn tokens_from(v: &Value, now: i64) -> TokenSet {
        TokenSet {
            open_id: text(v, "open_id"),
            access_token: text(v, "access_token"),
            refresh_token: text(v, "refresh_token"),
            expires_at: now + num(v, "expires_in") * 1000,
            refresh_expires_at: now + num(v, "refresh_token_expires_in") * 1000,
            nickname: String::new(),
            avatar: String::new(),
            scope: text(v, "scope"),
        }
    }

    async fn user_info(&self, creds: &Creds) -> PResult<(String, String)> {
        let u = self.user_info_raw(creds).await?;
        Ok((text(&u, "name"), text(&u, "head")))
    }

    /// `GET /openapi/user_info` -> `user_info{name, sex, fan, follow, head, city}`.
    async fn user_info_raw(&self, creds: &Creds) -> PResult<Value> {
        let v = self
            .call(
                self.http
                    .client
                    .get(self.url("/openapi/user_info", &self.user_q(creds))),
                0,
            )
            .await?;
        Ok(v.get("user_info").cloned().unwrap_or(Value::Null))
    }

    /// The upload host comes without a scheme (`http://{endpoint}/api/upload`); keep one if given.
    fn upload_url(endpoint: &str, path: &str, q: &[(&str, &str)]) -> String {
        let base = if endpoint.contains("://") {
            endpoint.to_string()
        } else {
            format!("http://{endpoint}")
        };
        format!("{}{path}?{}", base.trim_end_matches('/'), http::query(q))
    }
}

#[async_trait::async_trait]
impl Adapter for KsAdapter {
    fn platform(&self) -> Platform {
        Platform::Ks
    }

    fn authorize_url(&self, redirect_uri: &str, state: &str) -> PResult<String> {
        self.need_app()?;
        Ok(self.url(
            "/oauth2/authorize",
            &[
                ("app_id", &self.app.client_key),
                ("scope", SCOPES),
                ("response_type", "code"),
                ("ua", "pc"),
                ("redirect_uri", redirect_uri),
                ("state", state),
            ],
        ))
    }

    async fn exchange_code(&self, code: &str) -> PResult<TokenSet> {
        self.need_app()?;
        let now = self.http.clock.platform_now();
        let url = self.url(
            "/oauth2/access_token",
            &[
                ("app_id", &self.app.client_key),
                ("app_secret", &self.app.client_secret),
                ("code", code),
                ("grant_type", "authorization_code"),
            ],
        );
        let v = self.call(self.http.client.get(url), 0).await?;
        let mut t = Self::tokens_from(&v, now);
        let (name, head) = self
            .user_info(&Creds {
                open_id: t.open_id.clone(),
                token: t.access_token.clone(),
                ..Creds::default()
            })
            .await?;
        t.nickname = name;
        t.avatar = head;
        Ok(t)
    }

    /// KS rotates the refresh token on every refresh (the old one is discarded) and keeps the
    /// original refresh expiry.
    async fn refresh(&self, tokens: &TokenSet) -> PResult<TokenSet> {
        self.need_app()?;
        let now = self.http.clock.platform_now();
        let url = self.url(
            "/oauth2/refresh_token",
            &[
                ("app_id", &self.app.client_key),
                ("app_secret", &self.app.client_secret),
                ("refresh_token", &tokens.refresh_token),
                ("grant_type", "refresh_token"),
            ],
        );
        let v = self.call(self.http.client.get(url), 0).await?;
        let mut t = tokens.clone();
        t.access_token = text(&v, "access_token");
        t.expires_at = now + num(&v, "expires_in") * 1000;
        let rt = text(&v, "refresh_token");
        if !rt.is_empty() {
            t.refresh_token = rt;
            t.refresh_expires_at = now + num(&v, "refresh_token_expires_in") * 1000;
        }
        Ok(t)
    }

    async fn start_qr_login(&self) -> PResult<QrLogin> {
        Err(error::unsupported(Platform::Ks, "start_qr_login"))
    }

    async fn poll_qr_login(
        &self,
        _login_id: &str,
        _sms_code: Option<&str>,
    ) -> PResult<SessionState> {
        Err(error::unsupported(Platform::Ks, "poll_qr_login"))
    }

    async fn check(&self, creds: &Creds) -> PResult<()> {
        self.user_info(creds).await.map(|_| ())
    }

    async fn verify_app_token(&self, _app_id: &str, _app_token: &str) -> PResult<TokenSet> {
        Err(error::unsupported(Platform::Ks, "verify_app_token"))
    }

    async fn upload(&self, creds: &Creds, req: &PublishReq) -> PResult<String> {
        let p = Platform::Ks;
        let len = http::file_len(p, &req.video_path)?;
        let v = self
            .call(
                self.http
                    .client
                    .post(self.url("/openapi/photo/start_upload", &self.user_q(creds))),
                0,
            )
            .await?;
        let token = text(&v, "upload_token");
        let endpoint = text(&v, "endpoint");
        if token.is_empty() || endpoint.is_empty() {
            return Err(error::bad_response(
                p,
                "start_upload without upload_token/endpoint",
            ));
        }
        if len <= PLAIN_UPLOAD_MAX {
            let bytes = http::read_all(p, &req.video_path).await?;
            let url = Self::upload_url(&endpoint, "/api/upload", &[("upload_token", &token)]);
            let rb = self
                .http
                .client
                .post(url)
                .header("content-type", "video/mp4")
                .body(bytes);
            self.call(rb, len).await?;
        } else {
            let n = len.div_ceil(FRAGMENT_SIZE);
            for i in 0..n {
                let off = i * FRAGMENT_SIZE;
                let size = FRAGMENT_SIZE.min(len - off);
                let bytes = http::read_part(p, &req.video_path, off, size).await?;
                let id = i.to_string();
                let url = Self::upload_url(
                    &endpoint,
                    "/api/upload/fragment",
                    &[("fragment_id", &id), ("upload_token", &token)],
                );
                self.call(
                    self.http
                        .client
                        .post(url)
                        .header("content-type", "video/mp4")
                        .body(bytes),
                    size,
                )
                .await?;
            }
            let count = n.to_string();
            let url = Self::upload_url(
                &endpoint,
                "/api/upload/complete",
                &[("fragment_count", &count), ("upload_token", &token)],
            );
            self.call(self.http.client.post(url), 0).await?;
        }
        Ok(token)
    }

    async fn create(&self, creds: &Creds, video_id: &str, req: &PublishReq) -> PResult<String> {
        let p = Platform::Ks;
        let mut q = self.user_q(creds);
        q.push(("upload_token", video_id));
        let cover = match &req.cover_path {
            Some(path) => {
                Part::bytes(http::read_all(p, path).await?).file_name(http::file_name(path))
            }
            None => Part::bytes(FALLBACK_COVER.to_vec()).file_name("cover.jpg"),
        };
        let form = Form::new()
            .text(
                "caption",
                http::caption(&req.title, &req.topics, &req.at_users),
            )
            .part("cover", cover.mime_str("image/jpeg").expect("mime"));
        let v = self
            .call(
                self.http
                    .client
                    .post(self.url("/openapi/photo/publish", &q))
                    .multipart(form),
                0,
            )
            .await?;
        let id = v
            .get("video_info")
            .map(|i| text(i, "photo_id"))
            .unwrap_or_default();
        if id.is_empty() {
            Err(error::bad_response(
                p,
                "publish without video_info.photo_id",
            ))
        } else {
            Ok(id)
        }
    }

    /// `pending` = still being processed/reviewed. `review_state` is a sandbox extension (the real
    /// list shows no rejection); a rejected work on the real host simply never turns public.
    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>> {
        let mut out = Vec::new();
        let mut cursor = String::new();
        while out.len() < max {
            let count = (max - out.len()).min(20);
            let count_s = count.to_string();
            let mut q = self.user_q(creds);
            q.push(("count", &count_s));
            if !cursor.is_empty() {
                q.push(("cursor", &cursor));
            }
            let v = self
                .call(self.http.client.get(self.url("/openapi/photo/list", &q)), 0)
                .await?;
            let list = v
                .get("video_list")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for w in &list {
                let status = if text(w, "review_state") == "rejected" {
                    WorkStatus::Rejected {
                        reason: "平台审核未通过 / The platform's review rejected the work".into(),
                    }
                } else if http::boolean(w, "pending") {
                    WorkStatus::Reviewing
                } else {
                    WorkStatus::Public
                };
                out.push(Work {
                    item_id: text(w, "photo_id"),
                    title: text(w, "caption"),
                    // KS gives milliseconds.
                    create_time: num(w, "create_time") / 1000,
                    status,
                    stats: Stats {
                        play: num(w, "view_count"),
                        like: num(w, "like_count"),
                        comment: num(w, "comment_count"),
                        share: 0,
                    },
                    share_url: text(w, "play_url"),
                });
            }
            let next = text(&v, "cursor");
            if list.len() < count || next.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        out.truncate(max);
        Ok(out)
    }

    /// KS reports the count now (`user_info.fan`), so it is today's figure.
    async fn followers(&self, creds: &Creds) -> PResult<Vec<FollowerDay>> {
        let u = self.user_info_raw(creds).await?;
        Ok(vec![FollowerDay {
            day: domain::matrix::day_of(self.http.clock.platform_now()),
            total: num(&u, "fan"),
        }])
    }

    async fn comment(&self, _creds: &Creds, _item_id: &str, _text: &str) -> PResult<String> {
        Err(error::unsupported(Platform::Ks, "comment"))
    }

    /// Not a KS call: the sandbox's shared POI search under this base URL.
    async fn poi_search(&self, keyword: &str, city: &str) -> PResult<Vec<Poi>> {
        crate::http::sandbox_poi_search(&self.http, keyword, city).await
    }
}
