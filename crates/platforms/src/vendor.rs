//! Data vendors: what the open platforms do not offer (other accounts' public profiles and videos)
//! bought from a company that sells it by API. One vendor is implemented: **TikHub**
//! (https://api.tikhub.io, docs https://api.tikhub.io/docs, OpenAPI https://api.tikhub.io/openapi.json,
//! SDK docs https://github.com/TikHub/TikHub-API-Python-SDK-V2 `docs/DouyinWebAPIApi.md`). Why TikHub
//! and what it does not cover: docs/seo-platforms.md.
//!
//! Wire format (from those docs):
//! - every call carries `Authorization: Bearer <API key>`; a wrong or disabled key is refused with
//!   HTTP 401 (403 when the key lacks the endpoint's scope), 402 when the balance is spent, 429 over
//!   the rate limit;
//! - answers are the `ResponseModel` `{code (the HTTP status), router, params, data}`, `data` holding
//!   Douyin web's own answer;
//! - `GET /api/v1/douyin/web/get_sec_user_id?url=<profile or share link>` -> `data` = the `sec_user_id`;
//! - `GET /api/v1/douyin/web/handler_user_profile?sec_user_id=` -> `data.user{sec_uid, nickname,
//!   signature, avatar_larger{url_list[]}, follower_count, total_favorited, aweme_count}`;
//! - `GET /api/v1/douyin/web/fetch_user_post_videos?sec_user_id&max_cursor&count` ->
//!   `data{aweme_list[{aweme_id, desc, create_time (s), video{cover{url_list[]}},
//!   statistics{play_count, digg_count, comment_count, share_count}, share_info{share_url}}],
//!   max_cursor (ms), has_more}`, newest first; the next page starts at `max_cursor`.

use crate::http::{self, Http, num, text};
use crate::{Endpoint, ErrorKind, PResult, Platform, PlatformError, PublicAccount, PublicWork};
use crate::{error, seo};
use serde_json::Value;

/// TikHub's host (mainland China users may use `https://api.tikhub.dev`, same paths).
pub const TIKHUB_LIVE_BASE: &str = "https://api.tikhub.io";
/// The vendor's name as the product stores and shows it.
pub const TIKHUB: &str = "tikhub";

pub const PATH_SEC_USER_ID: &str = "/api/v1/douyin/web/get_sec_user_id";
pub const PATH_PROFILE: &str = "/api/v1/douyin/web/handler_user_profile";
pub const PATH_POSTS: &str = "/api/v1/douyin/web/fetch_user_post_videos";

/// The TikHub client (Douyin public accounts).
pub struct TikHub {
    http: Http,
    key: String,
}

impl TikHub {
    /// `base_url` = [`TIKHUB_LIVE_BASE`] live, or the sandbox's `/sandbox/tikhub`.
    pub fn new(
        base_url: &str,
        api_key: &str,
        timeout_ms: u64,
        clock: domain::clock::Clock,
    ) -> TikHub {
        let ep = Endpoint {
            base_url: base_url.to_string(),
            app: Default::default(),
            timeout_ms,
            clock,
        };
        TikHub {
            http: Http::new(Platform::Dy, &ep),
            key: api_key.to_string(),
        }
    }

    /// A GET with the key; answers `data` of a 2xx `ResponseModel`.
    async fn get(&self, path: &str, q: &[(&str, &str)]) -> PResult<Value> {
        let url = format!("{}?{}", self.http.url(path), http::query(q));
        let rb = self
            .http
            .client
            .get(url)
            .header("Authorization", format!("Bearer {}", self.key));
        let r = self.http.send(rb, 0).await?;
        let status = r.status.as_u16();
        if !r.status.is_success() {
            return Err(refusal(status));
        }
        let v: Value = serde_json::from_slice(&r.body).map_err(|_| {
            let head = String::from_utf8_lossy(&r.body[..r.body.len().min(120)]).to_string();
            error::bad_response(Platform::Dy, &head)
        })?;
        Ok(v.get("data").cloned().unwrap_or(Value::Null))
    }

    /// A share link (or a share text holding one) or a `sec_user_id` -> the account's profile.
    pub async fn public_account(&self, link_or_id: &str) -> PResult<PublicAccount> {
        let (link, id) = seo::account_ref(Platform::Dy, link_or_id)?;
        let sec = if link.is_empty() {
            id
        } else {
            let d = self.get(PATH_SEC_USER_ID, &[("url", &link)]).await?;
            match d.as_str() {
                Some(s) if !s.trim().is_empty() => s.trim().to_string(),
                _ => {
                    return Err(error::reason(
                        Platform::Dy,
                        "link_unresolvable",
                        error::Reason::LinkUnresolvable,
                        "",
                    ));
                }
            }
        };
        let d = self.get(PATH_PROFILE, &[("sec_user_id", &sec)]).await?;
        let u = d.get("user").cloned().unwrap_or(Value::Null);
        if !u.is_object() {
            return Err(not_found());
        }
        let sec_uid = match text(&u, "sec_uid") {
            s if s.is_empty() => sec,
            s => s,
        };
        Ok(PublicAccount {
            nickname: text(&u, "nickname"),
            avatar: first_url(&u, "avatar_larger")
                .unwrap_or_else(|| first_url(&u, "avatar_thumb").unwrap_or_default()),
            signature: text(&u, "signature"),
            followers: num(&u, "follower_count"),
            total_likes: num(&u, "total_favorited"),
            works_count: num(&u, "aweme_count"),
            share_url: format!("https://www.douyin.com/user/{sec_uid}"),
            account_id: sec_uid,
        })
    }

    /// One page of the account's videos, newest first: `(works, next max_cursor, has_more)`.
    pub async fn public_works(
        &self,
        account_id: &str,
        cursor: i64,
        count: usize,
    ) -> PResult<(Vec<PublicWork>, i64, bool)> {
        let (cursor, count) = (cursor.max(0).to_string(), count.clamp(1, 50).to_string());
        let d = self
            .get(
                PATH_POSTS,
                &[
                    ("sec_user_id", account_id),
                    ("max_cursor", &cursor),
                    ("count", &count),
                ],
            )
            .await?;
        let works = d
            .get("aweme_list")
            .and_then(Value::as_array)
            .map(|l| l.iter().map(work_from).collect())
            .unwrap_or_default();
        Ok((works, num(&d, "max_cursor"), http::boolean(&d, "has_more")))
    }
}

fn first_url(v: &Value, key: &str) -> Option<String> {
    v.get(key)?
        .get("url_list")?
        .as_array()?
        .first()?
        .as_str()
        .map(str::to_string)
}

fn work_from(a: &Value) -> PublicWork {
    let s = a.get("statistics").cloned().unwrap_or(Value::Null);
    let id = text(a, "aweme_id");
    let share = a
        .get("share_info")
        .map(|i| text(i, "share_url"))
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| format!("https://www.douyin.com/video/{id}"));
    PublicWork {
        title: text(a, "desc"),
        create_time: num(a, "create_time") * 1000,
        plays: num(&s, "play_count"),
        likes: num(&s, "digg_count"),
        comments: num(&s, "comment_count"),
        shares: num(&s, "share_count"),
        cover: a
            .get("video")
            .and_then(|v| first_url(v, "cover"))
            .unwrap_or_default(),
        share_url: share,
        item_id: id,
    }
}

fn not_found() -> PlatformError {
    error::reason(
        Platform::Dy,
        "account_not_found",
        error::Reason::AccountNotFound,
        "",
    )
}

/// A non-2xx answer of the vendor.
fn refusal(status: u16) -> PlatformError {
    match status {
        401 | 403 => error::new(
            Platform::Dy,
            ErrorKind::Permanent,
            "vendor_key_refused",
            format!("数据服务 TikHub 拒绝了 API Key（HTTP {status}），请在 系统 → 平台应用 检查"),
            format!(
                "The data vendor TikHub refused the API key (HTTP {status}); check it at System → Platform apps"
            ),
        ),
        402 => error::new(
            Platform::Dy,
            ErrorKind::Permanent,
            "vendor_balance",
            "数据服务 TikHub 余额不足（HTTP 402）",
            "The data vendor TikHub account has no balance left (HTTP 402)",
        ),
        404 => not_found(),
        _ => error::http_status(Platform::Dy, status),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_douyin_web_aweme_becomes_a_public_work() {
        let w = work_from(
            &json!({"aweme_id": "7", "desc": "火锅 #成都", "create_time": 1_700_000_000,
            "video": {"cover": {"url_list": ["https://p3/cover.jpg"]}},
            "statistics": {"play_count": 0, "digg_count": "12", "comment_count": 3, "share_count": 1}}),
        );
        assert_eq!(w.create_time, 1_700_000_000_000);
        assert_eq!((w.likes, w.comments), (12, 3));
        assert_eq!(w.cover, "https://p3/cover.jpg");
        assert_eq!(w.share_url, "https://www.douyin.com/video/7");
    }

    #[test]
    fn refusals_say_what_to_fix() {
        assert_eq!(refusal(401).code, "vendor_key_refused");
        assert_eq!(refusal(429).kind, ErrorKind::Retryable);
        assert_eq!(refusal(404).kind, ErrorKind::Permanent);
    }
}
