//! Douyin adapter: the open.douyin.com wire format (PLATFORMS.md "Douyin").
//!
//! OAuth calls take form bodies and answer `{data:{error_code,description,...}, message}`; user calls
//! carry header `access-token` + query `open_id` and answer `{data:{...}, extra:{error_code,...}}`.
//! Business errors come with HTTP 200, so every answer goes through [`DyAdapter::check`].

use crate::http::{self, Http, MB, num, text};
use crate::{
    Adapter, AppCreds, Board, BoardEntry, Comment, CommentPage, Creds, Endpoint, ErrorKind,
    FollowerDay, HotWord, KeywordVideo, PResult, Platform, Poi, PublishReq, QrLogin, SessionState,
    Stats, TokenSet, Work, WorkStatus, error,
};
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

/// Above this a file goes up in parts (the platform suggests it above 50 MB, requires it above 128 MB).
pub const PLAIN_UPLOAD_MAX: u64 = 50 * MB;
/// Part size: 20 MB is the recommended one (5 MB minimum except the last).
pub const PART_SIZE: u64 = 20 * MB;
/// The platform's hard limit.
pub const MAX_FILE: u64 = 4096 * MB;
/// One picture of an image note (create_image_text: 20 MB).
pub const IMAGE_MAX: u64 = 20 * MB;
/// Private messages of business accounts (`/im/send/msg/`).
pub const SCOPE_IM: &str = "im.direct_message";
/// The account's own data (fans per day, `/data/external/user/fans/`).
pub const SCOPE_FANS: &str = "data.external.user";
/// Keyword video search (搜索管理 → 关键词视频搜索, `/video/search/`).
pub const SCOPE_SEARCH: &str = "video.search";
/// Scopes asked on the consent page.
pub const SCOPES: &str = concat!(
    "user_info,video.create.bind,video.data.bind,video.list.bind,item.comment,im.direct_message,",
    "data.external.user,video.search"
);
/// The fans data of the last this many days (`date_type` takes 7, 15 or 30).
const FANS_DAYS: &str = "7";
/// Renew the refresh token (at most 5 times) once it has less than this left: an access token lives
/// 15 days, so a refresh token with less than that could die before the next refresh.
const RENEW_BELOW_MS: i64 = 15 * 86_400_000;

pub struct DyAdapter {
    http: Http,
    app: AppCreds,
    /// The app's client_token (POI search, H5 share, hot search, data calls), cached until
    /// shortly before it expires.
    client_token: tokio::sync::Mutex<Option<(String, i64)>>,
}

const PATH_UPLOAD: &str = "/api/douyin/v1/video/upload_video/";
const PATH_INIT_PART: &str = "/api/douyin/v1/video/init_video_part_upload/";
const PATH_PART: &str = "/api/douyin/v1/video/upload_video_part/";
const PATH_COMPLETE_PART: &str = "/api/douyin/v1/video/complete_video_part_upload/";
const PATH_CREATE: &str = "/api/douyin/v1/video/create_video/";
const PATH_LIST: &str = "/api/douyin/v1/video/video_list/";
/// Image notes (图文). `upload_image` takes one picture as multipart field `image` and answers
/// `data.image{image_id, width, height}` (the shape of the SDKs' image upload, e.g. douyin-go
/// `image.go`); `create_image_text` (JSON, scope `video.create.bind`) posts `image_list` (the ids,
/// in order) with `text` (#topics, @ inline) and one anchor — a mini program or a POI, "不支持携带多种
/// 类型的锚点" — and answers `data.item_id`; "单张图片最大支持 20M，每次最多上传 30 张图片" (the open
/// platform's create_image_text page, quoted at blog.csdn.net/buda_l/article/details/130852833).
const PATH_UPLOAD_IMAGE: &str = "/api/douyin/v1/video/upload_image/";
const PATH_CREATE_IMAGE_TEXT: &str = "/api/douyin/v1/video/create_image_text/";

impl DyAdapter {
    pub fn new(ep: Endpoint) -> DyAdapter {
        DyAdapter {
            http: Http::new(Platform::Dy, &ep),
            app: ep.app,
            client_token: tokio::sync::Mutex::new(None),
        }
    }

    /// Returns `data` when both `data.error_code` and `extra.error_code` are 0.
    fn check(v: Value) -> PResult<Value> {
        let data = v.get("data").cloned().unwrap_or(Value::Null);
        let extra = v.get("extra").cloned().unwrap_or(Value::Null);
        for part in [&data, &extra] {
            let code = num(part, "error_code");
            if code != 0 {
                let mut d = text(part, "description");
                let sub = text(part, "sub_description");
                if !sub.is_empty() {
                    d = format!("{d} ({sub})");
                }
                return Err(error::dy(code, &d));
            }
        }
        Ok(data)
    }

    fn need_app(&self) -> PResult<()> {
        if self.app.client_key.is_empty() {
            Err(error::no_app_creds(Platform::Dy))
        } else {
            Ok(())
        }
    }

    async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> PResult<Value> {
        let rb = self.http.client.post(self.http.url(path)).form(form);
        Self::check(self.http.json(rb, 0).await?)
    }

    /// A user call: `access-token` header, `open_id` (and `extra` pairs) in the query.
    fn user(
        &self,
        method: reqwest::Method,
        path: &str,
        creds: &Creds,
        extra: &[(&str, &str)],
    ) -> reqwest::RequestBuilder {
        let mut q: Vec<(&str, &str)> = vec![("open_id", creds.open_id.as_str())];
        q.extend_from_slice(extra);
        let url = format!("{}?{}", self.http.url(path), http::query(&q));
        self.http
            .client
            .request(method, url)
            .header("access-token", &creds.token)
    }

    async fn call(&self, rb: reqwest::RequestBuilder, upload_bytes: u64) -> PResult<Value> {
        Self::check(self.http.json(rb, upload_bytes).await?)
    }

    fn tokens_from(data: &Value, now: i64) -> TokenSet {
        TokenSet {
            open_id: text(data, "open_id"),
            access_token: text(data, "access_token"),
            refresh_token: text(data, "refresh_token"),
            expires_at: now + num(data, "expires_in") * 1000,
            refresh_expires_at: now + num(data, "refresh_expires_in") * 1000,
            nickname: String::new(),
            avatar: String::new(),
            scope: text(data, "scope"),
        }
    }

    /// POST /oauth/renew_refresh_token/: a fresh 30-day refresh token; the old one dies. The platform
    /// allows 5 renewals per authorization (then 10020 -> Reauthorize).
    pub async fn renew_refresh_token(&self, tokens: &TokenSet) -> PResult<TokenSet> {
        self.need_app()?;
        let now = self.http.clock.platform_now();
        let data = self
            .post_form(
                "/oauth/renew_refresh_token/",
                &[
                    ("client_key", &self.app.client_key),
                    ("refresh_token", &tokens.refresh_token),
                ],
            )
            .await?;
        let mut t = tokens.clone();
        t.refresh_token = text(&data, "refresh_token");
        t.refresh_expires_at = now + num(&data, "expires_in") * 1000;
        Ok(t)
    }

    /// POST /oauth/userinfo/ (form: access_token, open_id).
    pub async fn user_info(&self, creds: &Creds) -> PResult<(String, String)> {
        let data = self
            .post_form(
                "/oauth/userinfo/",
                &[("access_token", &creds.token), ("open_id", &creds.open_id)],
            )
            .await?;
        Ok((text(&data, "nickname"), text(&data, "avatar")))
    }

    async fn client_token(&self) -> PResult<String> {
        self.need_app()?;
        let mut cached = self.client_token.lock().await;
        if let Some((t, exp)) = cached.as_ref()
            && *exp > self.http.clock.platform_now() + 60_000
        {
            return Ok(t.clone());
        }
        let now = self.http.clock.platform_now();
        let data = self
            .post_form(
                "/oauth/client_token/",
                &[
                    ("client_key", &self.app.client_key),
                    ("client_secret", &self.app.client_secret),
                    ("grant_type", "client_credential"),
                ],
            )
            .await?;
        let t = text(&data, "access_token");
        *cached = Some((t.clone(), now + num(&data, "expires_in") * 1000));
        Ok(t)
    }

    /// GET with the app's client token; a token the platform calls expired is fetched again once.
    async fn app_get(&self, path: &str, q: &[(&str, &str)]) -> PResult<Value> {
        let base = self.http.url(path);
        let url = if q.is_empty() {
            base
        } else {
            format!("{base}?{}", http::query(q))
        };
        for attempt in 0..2 {
            let token = self.client_token().await?;
            let rb = self.http.client.get(&url).header("access-token", token);
            match self.call(rb, 0).await {
                Err(e) if e.kind == ErrorKind::TokenExpired && attempt == 0 => {
                    *self.client_token.lock().await = None;
                }
                r => return r,
            }
        }
        unreachable!("the second attempt returns")
    }

    fn list_of(data: &Value) -> Vec<Value> {
        data.get("list")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    fn video_part(bytes: Vec<u8>, name: String) -> Form {
        let part = Part::bytes(bytes)
            .file_name(name)
            .mime_str("video/mp4")
            .expect("mime");
        Form::new().part("video", part)
    }

    fn image_part(bytes: Vec<u8>, name: String) -> Form {
        let mime = match name
            .rsplit('.')
            .next()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("png") => "image/png",
            Some("webp") => "image/webp",
            _ => "image/jpeg",
        };
        let part = Part::bytes(bytes)
            .file_name(name)
            .mime_str(mime)
            .expect("mime");
        Form::new().part("image", part)
    }

    /// Uploads a note's pictures one by one, in order; the ids as a JSON array (what `create`
    /// gets back as its "video id").
    async fn upload_images(&self, creds: &Creds, req: &PublishReq) -> PResult<String> {
        let p = Platform::Dy;
        let mut ids = Vec::with_capacity(req.images.len());
        for path in &req.images {
            let len = http::file_len(p, path)?;
            if len > IMAGE_MAX {
                return Err(error::reason(
                    p,
                    "local_too_large",
                    error::Reason::TooLarge,
                    "",
                ));
            }
            let bytes = http::read_all(p, path).await?;
            let rb = self
                .user(reqwest::Method::POST, PATH_UPLOAD_IMAGE, creds, &[])
                .multipart(Self::image_part(bytes, http::file_name(path)));
            let data = self.call(rb, len).await?;
            let id = data
                .get("image")
                .map(|v| text(v, "image_id"))
                .unwrap_or_default();
            if id.is_empty() {
                return Err(error::bad_response(p, "no image.image_id"));
            }
            ids.push(id);
        }
        Ok(serde_json::to_string(&ids).expect("ids"))
    }

    /// The body of `create_image_text` for uploaded pictures (`ids`: `upload_images`' answer).
    pub fn image_text_body(ids: &str, req: &PublishReq) -> PResult<Value> {
        let list: Vec<String> = serde_json::from_str(ids)
            .map_err(|_| error::bad_response(Platform::Dy, "image ids are not a list"))?;
        let mut body = json!({
            "image_list": list,
            "text": http::caption(&req.title, &req.topics, &req.at_users),
        });
        let some = |v: &Option<String>| v.clone().filter(|v| !v.is_empty());
        // One anchor only: the mini program where the task mounts one, else the place.
        if let Some(id) = some(&req.micro_app_id) {
            body["micro_app_id"] = json!(id);
            for (k, v) in [
                ("micro_app_title", &req.micro_app_title),
                ("micro_app_url", &req.micro_app_url),
            ] {
                if let Some(v) = some(v) {
                    body[k] = json!(v);
                }
            }
        } else if let Some(id) = some(&req.poi_id) {
            body["poi_id"] = json!(id);
            if let Some(name) = some(&req.poi_name) {
                body["poi_name"] = json!(name);
            }
        }
        Ok(body)
    }

    async fn upload_chunked(&self, creds: &Creds, req: &PublishReq, len: u64) -> PResult<String> {
        let p = Platform::Dy;
        let data = self
            .call(
                self.user(reqwest::Method::POST, PATH_INIT_PART, creds, &[]),
                0,
            )
            .await?;
        let upload_id = text(&data, "upload_id");
        if upload_id.is_empty() {
            return Err(error::bad_response(
                p,
                "init_video_part_upload without upload_id",
            ));
        }
        let parts = len.div_ceil(PART_SIZE);
        let name = http::file_name(&req.video_path);
        for i in 0..parts {
            let off = i * PART_SIZE;
            let n = PART_SIZE.min(len - off);
            let bytes = http::read_part(p, &req.video_path, off, n).await?;
            let number = (i + 1).to_string();
            let rb = self
                .user(
                    reqwest::Method::POST,
                    PATH_PART,
                    creds,
                    &[("upload_id", &upload_id), ("part_number", &number)],
                )
                .multipart(Self::video_part(bytes, name.clone()));
            self.call(rb, n).await?;
        }
        let rb = self.user(
            reqwest::Method::POST,
            PATH_COMPLETE_PART,
            creds,
            &[("upload_id", &upload_id)],
        );
        let data = self.call(rb, 0).await?;
        Self::video_id(&data)
    }

    fn video_id(data: &Value) -> PResult<String> {
        let id = data
            .get("video")
            .map(|v| text(v, "video_id"))
            .unwrap_or_default();
        if id.is_empty() {
            Err(error::bad_response(Platform::Dy, "no video.video_id"))
        } else {
            Ok(id)
        }
    }

    /// `video_status`: 1/5/6/7 published (public, friends, private), 2 unfit for the public (our
    /// "rejected"), 4 under review.
    fn work_from(v: &Value) -> Work {
        let st = num(v, "video_status");
        let status =
            if st == 4 || (v.get("is_reviewed").is_some() && !http::boolean(v, "is_reviewed")) {
                WorkStatus::Reviewing
            } else if st == 2 {
                WorkStatus::Rejected {
                    reason: "平台审核未通过 / The platform's review rejected the work".into(),
                }
            } else {
                WorkStatus::Public
            };
        Work {
            item_id: text(v, "item_id"),
            title: text(v, "title"),
            create_time: num(v, "create_time"),
            status,
            stats: Self::stats_from(v),
            share_url: text(v, "share_url"),
        }
    }

    /// A video's `statistics{play_count, digg_count, comment_count, share_count}`.
    fn stats_from(v: &Value) -> Stats {
        let s = v.get("statistics").cloned().unwrap_or(Value::Null);
        Stats {
            play: num(&s, "play_count"),
            like: num(&s, "digg_count"),
            comment: num(&s, "comment_count"),
            share: num(&s, "share_count"),
        }
    }

    /// A user call's list read page by page (`data{list, cursor, has_more}`, 20 a page) until
    /// `max` rows, the list's end, or a cursor that does not move.
    async fn user_pages<T>(
        &self,
        path: &str,
        creds: &Creds,
        extra: &[(&str, &str)],
        max: usize,
        row: impl Fn(&Value) -> T,
    ) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        let mut cursor = "0".to_string();
        while out.len() < max {
            let count = (max - out.len()).min(20).to_string();
            let mut q = extra.to_vec();
            q.extend([("cursor", cursor.as_str()), ("count", count.as_str())]);
            let rb = self.user(reqwest::Method::GET, path, creds, &q);
            let data = self.call(rb, 0).await?;
            let list = data
                .get("list")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            out.extend(list.iter().map(&row));
            let next = text(&data, "cursor");
            if !http::boolean(&data, "has_more") || list.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        out.truncate(max);
        Ok(out)
    }
}

#[async_trait::async_trait]
impl Adapter for DyAdapter {
    fn platform(&self) -> Platform {
        Platform::Dy
    }

    fn authorize_url(&self, redirect_uri: &str, state: &str) -> PResult<String> {
        self.need_app()?;
        let q = http::query(&[
            ("client_key", &self.app.client_key),
            ("response_type", "code"),
            ("scope", SCOPES),
            ("redirect_uri", redirect_uri),
            ("state", state),
        ]);
        Ok(format!("{}?{q}", self.http.url("/platform/oauth/connect/")))
    }

    async fn exchange_code(&self, code: &str) -> PResult<TokenSet> {
        self.need_app()?;
        let now = self.http.clock.platform_now();
        let data = self
            .post_form(
                "/oauth/access_token/",
                &[
                    ("client_key", &self.app.client_key),
                    ("client_secret", &self.app.client_secret),
                    ("code", code),
                    ("grant_type", "authorization_code"),
                ],
            )
            .await?;
        let mut t = Self::tokens_from(&data, now);
        let (nick, avatar) = self
            .user_info(&Creds {
                open_id: t.open_id.clone(),
                token: t.access_token.clone(),
                ..Creds::default()
            })
            .await?;
        t.nickname = nick;
        t.avatar = avatar;
        Ok(t)
    }

    /// Renews the refresh token first when it is close to its end (see `RENEW_BELOW_MS`); when the
    /// renewal cap is reached the still-valid refresh token keeps serving until it expires.
    async fn refresh(&self, tokens: &TokenSet) -> PResult<TokenSet> {
        self.need_app()?;
        let mut base = tokens.clone();
        let now = self.http.clock.platform_now();
        if base.refresh_expires_at > now && base.refresh_expires_at - now < RENEW_BELOW_MS {
            match self.renew_refresh_token(&base).await {
                Ok(t) => base = t,
                Err(e) if e.code == "10020" => {}
                Err(e) => return Err(e),
            }
        }
        let now = self.http.clock.platform_now();
        let data = self
            .post_form(
                "/oauth/refresh_token/",
                &[
                    ("client_key", &self.app.client_key),
                    ("grant_type", "refresh_token"),
                    ("refresh_token", &base.refresh_token),
                ],
            )
            .await?;
        let mut t = base.clone();
        t.access_token = text(&data, "access_token");
        t.expires_at = now + num(&data, "expires_in") * 1000;
        if !text(&data, "open_id").is_empty() {
            t.open_id = text(&data, "open_id");
        }
        // The refresh token and its expiry stay as they were (DY does not rotate on refresh).
        let rt = text(&data, "refresh_token");
        if !rt.is_empty() {
            t.refresh_token = rt;
        }
        Ok(t)
    }

    async fn start_qr_login(&self) -> PResult<QrLogin> {
        Err(error::unsupported(Platform::Dy, "start_qr_login"))
    }

    async fn poll_qr_login(
        &self,
        _login_id: &str,
        _sms_code: Option<&str>,
    ) -> PResult<SessionState> {
        Err(error::unsupported(Platform::Dy, "poll_qr_login"))
    }

    async fn check(&self, creds: &Creds) -> PResult<()> {
        self.user_info(creds).await.map(|_| ())
    }

    async fn verify_app_token(&self, _app_id: &str, _app_token: &str) -> PResult<TokenSet> {
        Err(error::unsupported(Platform::Dy, "verify_app_token"))
    }

    async fn upload(&self, creds: &Creds, req: &PublishReq) -> PResult<String> {
        if !req.images.is_empty() {
            return self.upload_images(creds, req).await;
        }
        let len = http::file_len(Platform::Dy, &req.video_path)?;
        if len > MAX_FILE {
            return Err(error::reason(
                Platform::Dy,
                "local_too_large",
                error::Reason::TooLarge,
                "",
            ));
        }
        if len > PLAIN_UPLOAD_MAX {
            return self.upload_chunked(creds, req, len).await;
        }
        let bytes = http::read_all(Platform::Dy, &req.video_path).await?;
        let rb = self
            .user(reqwest::Method::POST, PATH_UPLOAD, creds, &[])
            .multipart(Self::video_part(bytes, http::file_name(&req.video_path)));
        let data = self.call(rb, len).await?;
        Self::video_id(&data)
    }

    /// `at_users` of the real call wants open_ids, which we do not know for nicknames: the mentions
    /// go inline in `text` as `@nick` instead.
    async fn create(&self, creds: &Creds, video_id: &str, req: &PublishReq) -> PResult<String> {
        if !req.images.is_empty() {
            let body = Self::image_text_body(video_id, req)?;
            let rb = self
                .user(reqwest::Method::POST, PATH_CREATE_IMAGE_TEXT, creds, &[])
                .json(&body);
            let data = self.call(rb, 0).await?;
            let item = text(&data, "item_id");
            return if item.is_empty() {
                Err(error::bad_response(
                    Platform::Dy,
                    "create_image_text without item_id",
                ))
            } else {
                Ok(item)
            };
        }
        let mut body = json!({
            "video_id": video_id,
            "text": http::caption(&req.title, &req.topics, &req.at_users),
        });
        let opt = [
            ("poi_id", &req.poi_id),
            ("poi_name", &req.poi_name),
            ("micro_app_id", &req.micro_app_id),
            ("micro_app_title", &req.micro_app_title),
            ("micro_app_url", &req.micro_app_url),
        ];
        for (k, v) in opt {
            if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
                body[k] = json!(v);
            }
        }
        let rb = self
            .user(reqwest::Method::POST, PATH_CREATE, creds, &[])
            .json(&body);
        let data = self.call(rb, 0).await?;
        let item = text(&data, "item_id");
        if item.is_empty() {
            Err(error::bad_response(
                Platform::Dy,
                "create_video without item_id",
            ))
        } else {
            Ok(item)
        }
    }

    /// `GET /video/search/?open_id&keyword&cursor&count` (header `access-token`: the account's
    /// token, scope `video.search`) -> `data{list[{sec_item_id, title, cover, create_time (s),
    /// share_url, statistics{play_count, digg_count, comment_count, share_count}}], cursor,
    /// has_more}`. Douyin answers videos of the last day only, for keywords the app registered
    /// (at most 20, reviewed). Docs: open.douyin.com/platform/resource/docs/openapi/search-management/
    /// keywords-video-list/keywords-video/.
    async fn keyword_videos(
        &self,
        creds: &Creds,
        keyword: &str,
        max: usize,
    ) -> PResult<Vec<KeywordVideo>> {
        self.user_pages("/video/search/", creds, &[("keyword", keyword)], max, |v| {
            KeywordVideo {
                sec_item_id: text(v, "sec_item_id"),
                title: text(v, "title"),
                cover: text(v, "cover"),
                create_time: num(v, "create_time"),
                share_url: text(v, "share_url"),
                stats: Self::stats_from(v),
            }
        })
        .await
    }

    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>> {
        self.user_pages(PATH_LIST, creds, &[], max, Self::work_from)
            .await
    }

    /// `GET /data/external/user/fans/?open_id&date_type=7` -> `result_list[{date, total_fans,
    /// new_fans}]`: the last days' totals, so a missed sync still fills its day.
    async fn followers(&self, creds: &Creds) -> PResult<Vec<FollowerDay>> {
        let rb = self.user(
            reqwest::Method::GET,
            "/data/external/user/fans/",
            creds,
            &[("date_type", FANS_DAYS)],
        );
        let data = self.call(rb, 0).await?;
        let mut out: Vec<FollowerDay> = data
            .get("result_list")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|d| {
                        Some(FollowerDay {
                            day: domain::matrix::parse_day(&text(d, "date"))?,
                            total: num(d, "total_fans"),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.sort_by_key(|d| d.day);
        Ok(out)
    }

    /// DY has no separate "post a comment" call for apps; `/item/comment/reply/` without a
    /// `comment_id` replies to the video itself, i.e. posts a top-level comment as the author.
    async fn comment(&self, creds: &Creds, item_id: &str, text_: &str) -> PResult<String> {
        let rb = self
            .user(reqwest::Method::POST, "/item/comment/reply/", creds, &[])
            .json(&json!({"item_id": item_id, "content": text_}));
        let data = self.call(rb, 0).await?;
        Ok(text(&data, "comment_id"))
    }

    async fn reply_comment(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
        text_: &str,
    ) -> PResult<String> {
        let rb = self
            .user(reqwest::Method::POST, "/item/comment/reply/", creds, &[])
            .json(&json!({"item_id": item_id, "comment_id": comment_id, "content": text_}));
        let data = self.call(rb, 0).await?;
        Ok(text(&data, "comment_id"))
    }

    async fn list_comments(
        &self,
        creds: &Creds,
        item_id: &str,
        max: usize,
    ) -> PResult<Vec<Comment>> {
        let mut out = Vec::new();
        let mut cursor = "0".to_string();
        while out.len() < max {
            let count = (max - out.len()).min(50).to_string();
            let q = [
                ("item_id", item_id),
                ("cursor", cursor.as_str()),
                ("count", count.as_str()),
                ("sort_type", "0"),
            ];
            let data = self
                .call(
                    self.user(reqwest::Method::GET, "/item/comment/list/", creds, &q),
                    0,
                )
                .await?;
            let list = data
                .get("list")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            out.extend(list.iter().map(|c| Comment {
                comment_id: text(c, "comment_id"),
                user_id: text(c, "comment_user_id"),
                content: text(c, "content"),
                create_time: num(c, "create_time"),
                digg_count: num(c, "digg_count"),
                reply_total: num(c, "reply_comment_total"),
                top: http::boolean(c, "top"),
            }));
            let next = text(&data, "cursor");
            if !http::boolean(&data, "has_more") || list.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        out.truncate(max);
        Ok(out)
    }

    async fn comment_page(
        &self,
        creds: &Creds,
        item_id: &str,
        cursor: &str,
        count: usize,
    ) -> PResult<CommentPage> {
        let cursor = if cursor.is_empty() { "0" } else { cursor };
        let count = count.clamp(1, 50).to_string();
        let q = [
            ("item_id", item_id),
            ("cursor", cursor),
            ("count", count.as_str()),
            ("sort_type", "0"),
        ];
        let data = self
            .call(
                self.user(reqwest::Method::GET, "/item/comment/list/", creds, &q),
                0,
            )
            .await?;
        Ok(comment_page_from(&data))
    }

    async fn comment_replies(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
    ) -> PResult<Vec<Comment>> {
        let q = [
            ("item_id", item_id),
            ("comment_id", comment_id),
            ("cursor", "0"),
            ("count", "50"),
            ("sort_type", "0"),
        ];
        let data = self
            .call(
                self.user(reqwest::Method::GET, "/item/comment/reply/list/", creds, &q),
                0,
            )
            .await?;
        Ok(comment_page_from(&data).list)
    }

    async fn send_message(
        &self,
        creds: &Creds,
        conversation_id: &str,
        to_user_id: &str,
        text_: &str,
    ) -> PResult<String> {
        let rb = self
            .user(reqwest::Method::POST, "/im/send/msg/", creds, &[])
            .json(&json!({
                "conversation_id": conversation_id,
                "to_user_id": to_user_id,
                "content": {"msg_type": 1, "text": {"text": text_}},
            }));
        let data = self.call(rb, 0).await?;
        Ok(text(&data, "msg_id"))
    }

    /// GET /poi/search/keyword/ with the app's client_token.
    async fn share_link(
        &self,
        video_url: &str,
        title: &str,
        hashtags: &[String],
    ) -> PResult<crate::ShareLink> {
        let token = self.client_token().await?;
        let get = |path: &str, q: &str| {
            self.http
                .client
                .get(format!("{}{q}", self.http.url(path)))
                .header("access-token", token.clone())
        };
        let now = self.http.clock.platform_now();
        let t = self.call(get("/open/getticket/", ""), 0).await?;
        let ticket = text(&t, "ticket");
        let share = self
            .call(get("/share-id/", "?need_callback=true"), 0)
            .await?;
        let share_id = text(&share, "share_id");
        let nonce = format!("{:016x}", rand::random::<u64>());
        let ts = (now / 1000).to_string();
        let signature = share_signature(&nonce, &ticket, &ts);
        let tags = serde_json::to_string(hashtags).unwrap_or_else(|_| "[]".into());
        let q = http::query(&[
            ("share_type", "h5"),
            ("client_key", &self.app.client_key),
            ("nonce_str", &nonce),
            ("timestamp", &ts),
            ("signature", &signature),
            ("state", &share_id),
            ("video_path", video_url),
            ("title", title),
            ("hashtag_list", &tags),
            ("share_to_publish", "1"),
        ]);
        Ok(crate::ShareLink {
            share_id,
            schema: format!("snssdk1128://openplatform/share?{q}"),
            expires_at: now + num(&t, "expires_in") * 1000,
        })
    }

    async fn poi_search(&self, keyword: &str, city: &str) -> PResult<Vec<Poi>> {
        let q = [
            ("keyword", keyword),
            ("city", city),
            ("count", "50"),
            ("cursor", "0"),
        ];
        let data = self.app_get("/poi/search/keyword/", &q).await?;
        Ok(parse_pois(&data))
    }

    /// `GET /hotsearch/sentences/` (the list, hottest first), labelled from
    /// `GET /hotsearch/trending/sentences/` (the rising words).
    async fn hot_search(&self) -> PResult<Vec<HotWord>> {
        let data = self.app_get("/hotsearch/sentences/", &[]).await?;
        let mut labels = std::collections::HashMap::new();
        let mut cursor = "0".to_string();
        // The rising list is short (tens); three pages are plenty and bound the calls.
        for _ in 0..3 {
            let page = self
                .app_get(
                    "/hotsearch/trending/sentences/",
                    &[("cursor", &cursor), ("count", "50")],
                )
                .await?;
            let list = Self::list_of(&page);
            for t in &list {
                labels.insert(text(t, "sentence"), hot_label(num(t, "label")));
            }
            let next = text(&page, "cursor");
            if !http::boolean(&page, "has_more") || list.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        Ok(Self::list_of(&data)
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let word = text(h, "sentence");
                HotWord {
                    label: labels.get(&word).copied().unwrap_or("").to_string(),
                    hot_level: num(h, "hot_level"),
                    rank: i as u32 + 1,
                    word,
                }
            })
            .collect())
    }

    /// `GET /data/extern/billboard/<board>/` with the client token (same path and fields as the
    /// real host; the app needs the billboard data permission).
    async fn billboard(&self, board: Board) -> PResult<Vec<BoardEntry>> {
        let data = self.app_get(board.path(), &[]).await?;
        Ok(Self::list_of(&data)
            .iter()
            .enumerate()
            .map(|(i, v)| crate::billboard::entry(board, v, i))
            .collect())
    }
}

/// A comment list answer (`list`, `cursor`, `has_more`) of DY or the session consoles.
pub(crate) fn comment_page_from(data: &Value) -> CommentPage {
    let list = data
        .get("list")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    CommentPage {
        list: list
            .iter()
            .map(|c| Comment {
                comment_id: text(c, "comment_id"),
                user_id: text(c, "comment_user_id"),
                content: text(c, "content"),
                create_time: num(c, "create_time"),
                digg_count: num(c, "digg_count"),
                reply_total: num(c, "reply_comment_total"),
                top: http::boolean(c, "top"),
            })
            .collect(),
        cursor: text(data, "cursor"),
        has_more: http::boolean(data, "has_more") && !list.is_empty(),
    }
}

/// The labels of `/hotsearch/trending/sentences/`.
fn hot_label(code: i64) -> &'static str {
    match code {
        1 => "新",
        2 => "荐",
        3 => "热",
        4 => "爆",
        5 => "首发",
        _ => "",
    }
}

pub(crate) fn parse_pois(data: &Value) -> Vec<Poi> {
    data.get("pois")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|p| Poi {
                    poi_id: text(p, "poi_id"),
                    poi_name: text(p, "poi_name"),
                    address: text(p, "address"),
                    city: text(p, "city"),
                    province: text(p, "province"),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// md5("nonce_str=..&ticket=..&timestamp=..") in hex: how the H5 share schema is signed.
pub fn share_signature(nonce_str: &str, ticket: &str, timestamp: &str) -> String {
    use md5::{Digest, Md5};
    hex::encode(Md5::digest(
        format!("nonce_str={nonce_str}&ticket={ticket}&timestamp={timestamp}").as_bytes(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn business_errors_on_200_are_found_in_data_or_extra() {
        let ok = json!({"data":{"error_code":0,"description":"","item_id":"7"},"extra":{"error_code":0}});
        assert_eq!(text(&DyAdapter::check(ok).unwrap(), "item_id"), "7");
        let in_data = json!({"data":{"error_code":"2111001","description":"敏感词"},"extra":{"error_code":0}});
        assert_eq!(DyAdapter::check(in_data).unwrap_err().code, "2111001");
        let in_extra = json!({"data":{},"extra":{"error_code":28003018,"description":"rate"}});
        assert_eq!(
            DyAdapter::check(in_extra).unwrap_err().kind,
            crate::ErrorKind::Retryable
        );
    }

    #[test]
    fn an_image_note_carries_one_anchor_and_its_ids_in_order() {
        let r = PublishReq {
            title: "笔记".into(),
            topics: vec!["t".into()],
            images: vec!["a.jpg".into()],
            poi_id: Some("p".into()),
            micro_app_id: Some("tt1".into()),
            micro_app_title: Some("小程序".into()),
            ..PublishReq::default()
        };
        let b = DyAdapter::image_text_body(r#"["i2","i1"]"#, &r).unwrap();
        assert_eq!(b["image_list"], json!(["i2", "i1"]));
        assert_eq!(b["text"], "笔记 #t");
        assert_eq!(b["micro_app_id"], "tt1");
        assert!(b.get("poi_id").is_none(), "one anchor only: {b}");
        assert!(b.get("video_id").is_none());
        assert!(DyAdapter::image_text_body("x", &r).is_err());
    }

    #[test]
    fn video_status_maps_to_work_status() {
        let w = DyAdapter::work_from(&json!({"item_id":"1","video_status":4,"is_reviewed":false}));
        assert_eq!(w.status, WorkStatus::Reviewing);
        let w = DyAdapter::work_from(&json!({"item_id":"1","video_status":5,"is_reviewed":true,
            "statistics":{"play_count":"12","digg_count":3}}));
        assert_eq!(w.status, WorkStatus::Public);
        assert_eq!(w.stats.play, 12);
        assert!(matches!(
            DyAdapter::work_from(&json!({"video_status":2})).status,
            WorkStatus::Rejected { .. }
        ));
    }
}
