//! Baijiahao adapter (PLATFORMS.md "Baijiahao"): a static `app_id` + `app_token` per account, JSON
//! bodies, answers `{errno, errmsg, data}`. BJH fetches the video itself from a public URL, so
//! `upload` only checks that `PublishReq.video_url` is set and hands it on as the "video id".
//! `Creds.open_id` is the app_id and `Creds.token` the app_token.

use crate::http::{self, Http, num, text};
use crate::{
    Adapter, Creds, Endpoint, PResult, Platform, Poi, PublishReq, QrLogin, SessionState, Stats,
    TokenSet, Work, WorkStatus, error,
};
use serde_json::{Value, json};

const PATH_PUBLISH: &str = "/builderinner/open/resource/video/publish";
const PATH_LIST: &str = "/builderinner/open/resource/query/articleListall";

pub struct BjhAdapter {
    http: Http,
}

impl BjhAdapter {
    pub fn new(ep: Endpoint) -> BjhAdapter {
        BjhAdapter {
            http: Http::new(Platform::Bjh, &ep),
        }
    }

    async fn call(&self, path: &str, body: Value) -> PResult<Value> {
        let v = self
            .http
            .json(self.http.client.post(self.http.url(path)).json(&body), 0)
            .await?;
        let errno = num(&v, "errno");
        if errno != 0 {
            return Err(error::bjh(errno, &text(&v, "errmsg")));
        }
        Ok(v.get("data").cloned().unwrap_or(Value::Null))
    }

    async fn page(&self, creds: &Creds, start: usize, size: usize) -> PResult<(Vec<Work>, bool)> {
        let data = self
            .call(PATH_LIST, json!({"app_id": creds.open_id, "app_token": creds.token, "start": start, "page_size": size}))
            .await?;
        let list = data
            .get("list")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let works = list
            .iter()
            .map(|a| {
                // status: "publish" public, "pre_publish"/"auditing" in review, "rejected"/"audit_failed".
                let status = match text(a, "status").as_str() {
                    "publish" | "published" => WorkStatus::Public,
                    "rejected" | "audit_failed" => WorkStatus::Rejected {
                        reason: match text(a, "audit_msg") {
                            m if m.is_empty() => {
                                "平台审核未通过 / The platform's review rejected the work".into()
                            }
                            m => m,
                        },
                    },
                    _ => WorkStatus::Reviewing,
                };
                Work {
                    item_id: text(a, "article_id"),
                    title: text(a, "title"),
                    create_time: num(a, "publish_time"),
                    status,
                    stats: Stats {
                        play: num(a, "read_amount"),
                        like: num(a, "like_amount"),
                        comment: num(a, "comment_amount"),
                        share: num(a, "share_amount"),
                    },
                    share_url: text(a, "url"),
                }
            })
            .collect::<Vec<_>>();
        Ok((works, http::boolean(&data, "has_more")))
    }
}

#[async_trait::async_trait]
impl Adapter for BjhAdapter {
    fn platform(&self) -> Platform {
        Platform::Bjh
    }

    fn authorize_url(&self, _redirect_uri: &str, _state: &str) -> PResult<String> {
        Err(error::unsupported(Platform::Bjh, "authorize_url"))
    }

    async fn exchange_code(&self, _code: &str) -> PResult<TokenSet> {
        Err(error::unsupported(Platform::Bjh, "exchange_code"))
    }

    /// A static token does not expire; nothing to refresh.
    async fn refresh(&self, tokens: &TokenSet) -> PResult<TokenSet> {
        Ok(tokens.clone())
    }

    async fn start_qr_login(&self) -> PResult<QrLogin> {
        Err(error::unsupported(Platform::Bjh, "start_qr_login"))
    }

    async fn poll_qr_login(
        &self,
        _login_id: &str,
        _sms_code: Option<&str>,
    ) -> PResult<SessionState> {
        Err(error::unsupported(Platform::Bjh, "poll_qr_login"))
    }

    async fn check(&self, creds: &Creds) -> PResult<()> {
        self.page(creds, 0, 1).await.map(|_| ())
    }

    /// BJH has no account-info call: a one-item list proves the pair works. The token never expires
    /// (`expires_at` = i64::MAX); the nickname is a placeholder the operator can rename.
    async fn verify_app_token(&self, app_id: &str, app_token: &str) -> PResult<TokenSet> {
        let creds = Creds {
            open_id: app_id.into(),
            token: app_token.into(),
            ..Creds::default()
        };
        self.page(&creds, 0, 1).await?;
        Ok(TokenSet {
            open_id: app_id.into(),
            access_token: app_token.into(),
            refresh_token: String::new(),
            expires_at: i64::MAX,
            refresh_expires_at: i64::MAX,
            nickname: format!("百家号 {app_id}"),
            avatar: String::new(),
            scope: String::new(),
        })
    }

    async fn upload(&self, _creds: &Creds, req: &PublishReq) -> PResult<String> {
        if !(req.video_url.starts_with("http://") || req.video_url.starts_with("https://")) {
            return Err(error::new(
                Platform::Bjh,
                crate::ErrorKind::Permanent,
                "no_video_url",
                "百家号需要可公开访问的视频地址",
                "Baijiahao needs a public URL of the video",
            ));
        }
        Ok(req.video_url.clone())
    }

    async fn create(&self, creds: &Creds, video_id: &str, req: &PublishReq) -> PResult<String> {
        let tags: Vec<&str> = req
            .topics
            .iter()
            .map(|t| t.trim().trim_start_matches('#'))
            .collect();
        let data = self
            .call(
                PATH_PUBLISH,
                json!({
                    "app_id": creds.open_id,
                    "app_token": creds.token,
                    "title": req.title,
                    "video_url": video_id,
                    "cover_images": "",
                    "is_original": 0,
                    "tag": tags.join(","),
                }),
            )
            .await?;
        let id = text(&data, "article_id");
        if id.is_empty() {
            Err(error::bad_response(
                Platform::Bjh,
                "publish without article_id",
            ))
        } else {
            Ok(id)
        }
    }

    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>> {
        let mut out = Vec::new();
        while out.len() < max {
            let size = (max - out.len()).min(20);
            let (page, more) = self.page(creds, out.len(), size).await?;
            let n = page.len();
            out.extend(page);
            if !more || n == 0 {
                break;
            }
        }
        out.truncate(max);
        Ok(out)
    }

    async fn comment(&self, _creds: &Creds, _item_id: &str, _text: &str) -> PResult<String> {
        Err(error::unsupported(Platform::Bjh, "comment"))
    }

    async fn poi_search(&self, keyword: &str, city: &str) -> PResult<Vec<Poi>> {
        crate::http::sandbox_poi_search(&self.http, keyword, city).await
    }
}
