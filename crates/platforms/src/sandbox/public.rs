//! Public (benchmark / competitor) accounts of the sandbox. An account is a posting schedule, not
//! a list of stored videos: video n appears at `start_ms + n·(1 day / posts_per_day) + jitter`
//! (the jitter, 1 min..slot−1 min, is a hash of (account, n)), so any 24 h from the start holds
//! exactly `posts_per_day` posts. A video is visible once its time has passed on the platform
//! clock; its plays grow with its age (a saturating curve plus a slow tail), likes, comments and
//! shares are fixed shares of the plays, and followers grow with the plays of all visible videos.
//! Everything is a pure function of the record and the clock; only the records are stored.
//!
//! Control API: `POST /_control/public_accounts`, `GET /_control/public_accounts[/{id}]`.

use super::{DAY_MS, S, stable_hash};
use axum::Json;
use axum::extract::{Path, State as St};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// DY `sec_uid`s start like this.
const ID_PREFIX: &str = "MS4wLjABAAAA";
pub(crate) const MAX_POSTS_PER_DAY: u32 = 96;
/// Short share links look like Douyin's.
const SHORT_HOST: &str = "https://v.douyin.com/";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct AccountRec {
    pub id: String,
    pub nickname: String,
    pub posts_per_day: u32,
    pub start_ms: i64,
    pub base_followers: i64,
    /// Words its titles are made of.
    pub topics: Vec<String>,
    pub city: String,
    /// The hashtag theme: 美食, 变美, 健身, 家居, 探店.
    pub theme: String,
}

/// A video's figures at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Figures {
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

const NICHES: [(&str, [&str; 5]); 4] = [
    ("美食", ["火锅", "烧烤", "奶茶", "小龙虾", "烤肉"]),
    ("变美", ["美甲", "护肤", "美发", "美睫", "化妆"]),
    ("健身", ["健身", "瑜伽", "普拉提", "减脂餐", "跑步"]),
    ("家居", ["装修", "全屋定制", "软装", "收纳", "家具"]),
];
const CITIES: [&str; 8] = [
    "成都", "重庆", "长沙", "西安", "杭州", "武汉", "广州", "南京",
];
const HOOKS: [&str; 14] = [
    "太绝了",
    "必须安排",
    "本地人才知道",
    "排队两小时也值",
    "老板太实在了",
    "这价格真的敢",
    "闭眼入不踩雷",
    "后悔没早点来",
    "被问爆了",
    "一次就爱上",
    "性价比天花板",
    "新店开业福利",
    "宝藏小店",
    "回头客超多",
];

/// The accounts every sandbox has (ids fixed, so links to them survive restarts).
pub(crate) fn builtins() -> Vec<AccountRec> {
    // From 2025-01-01 09:00 China time.
    let start = domain::matrix::at(20_089, 9 * 60);
    let mk = |n: u8, nick: &str, ppd: u32, followers: i64, niche: usize, city: &str| AccountRec {
        id: format!("{ID_PREFIX}sbx{n:013}"),
        nickname: nick.into(),
        posts_per_day: ppd,
        start_ms: start,
        base_followers: followers,
        topics: NICHES[niche].1.iter().map(|t| t.to_string()).collect(),
        city: city.into(),
        theme: NICHES[niche].0.into(),
    };
    vec![
        mk(1, "成都火锅探店王", 2, 86_000, 0, "成都"),
        mk(2, "小美美甲日记", 1, 23_000, 1, "杭州"),
        mk(3, "老李家装实录", 1, 41_000, 3, "武汉"),
    ]
}

impl AccountRec {
    pub fn new(
        nickname: &str,
        posts_per_day: u32,
        start_ms: i64,
        followers: Option<i64>,
        topics: Vec<String>,
        city: Option<String>,
        seq: usize,
    ) -> AccountRec {
        let h = stable_hash(&["pub", nickname, &start_ms.to_string(), &seq.to_string()]);
        let (theme, topics) = if topics.is_empty() {
            let n = &NICHES[(h % NICHES.len() as u64) as usize];
            (n.0, n.1.iter().map(|t| t.to_string()).collect())
        } else {
            ("探店", topics)
        };
        AccountRec {
            id: format!("{ID_PREFIX}{:016x}", h),
            nickname: nickname.to_string(),
            posts_per_day,
            start_ms,
            base_followers: followers.unwrap_or(500 + ((h >> 8) % 20_000) as i64),
            topics,
            city: city.unwrap_or_else(|| CITIES[((h >> 24) % CITIES.len() as u64) as usize].into()),
            theme: theme.into(),
        }
    }

    fn period(&self) -> i64 {
        DAY_MS / self.posts_per_day.clamp(1, MAX_POSTS_PER_DAY) as i64
    }

    fn h(&self, what: &str, n: u64) -> u64 {
        stable_hash(&[&self.id, what, &n.to_string()])
    }

    /// When video n is posted: inside slot n, never at its edges, whole seconds.
    pub fn post_time(&self, n: u64) -> i64 {
        let p = self.period();
        let span = (p - 2 * 60_000).max(1) as u64;
        let t = self.start_ms + n as i64 * p + 60_000 + (self.h("t", n) % span) as i64;
        t - t.rem_euclid(1000)
    }

    /// How many videos are out at `now`.
    pub fn visible(&self, now: i64) -> u64 {
        if now < self.start_ms {
            return 0;
        }
        let n0 = ((now - self.start_ms) / self.period()) as u64;
        n0 + u64::from(self.post_time(n0) <= now)
    }

    pub fn item_id(&self, n: u64) -> String {
        format!("7{:018}", self.h("item", n) % 1_000_000_000_000_000_000)
    }

    pub fn title(&self, n: u64) -> String {
        let h = self.h("title", n);
        let pick = |v: &[String], k: u32| v[((h >> k) % v.len() as u64) as usize].clone();
        let topic = pick(&self.topics, 0);
        let other = pick(&self.topics, 9);
        let hook = HOOKS[((h >> 17) % HOOKS.len() as u64) as usize];
        let price = 19 + ((h >> 23) % 12) * 10;
        let city = &self.city;
        let theme = &self.theme;
        match (h >> 40) % 7 {
            0 => format!("{city}{topic}天花板！{hook} #{topic} #{city}{theme}"),
            1 => format!("这家{topic}{hook}｜{city}探店 #{topic}"),
            2 => format!("{price}元{topic}套餐，{hook} #团购 #{topic}"),
            3 => format!("第{}期｜{topic}和{other}哪个更值？{hook}", n + 1),
            4 => format!(
                "跟着{}去{city}，{topic}{hook} #{city}{theme}",
                self.nickname
            ),
            5 => format!("{topic}避坑指南：{hook}，收藏起来 #{topic}攻略"),
            _ => format!("周末去哪儿？{city}{topic}{hook} #{theme}推荐"),
        }
    }

    /// Plays grow fast in the first days, then slowly; the rest are shares of the plays.
    pub fn figures(&self, n: u64, now: i64) -> Figures {
        let age = now - self.post_time(n);
        if age < 0 {
            return Figures {
                plays: 0,
                likes: 0,
                comments: 0,
                shares: 0,
            };
        }
        let h = self.h("figures", n);
        let mut potential = 1_500.0 + (h % 120_000) as f64;
        if h.is_multiple_of(17) {
            potential *= 12.0; // the odd viral one
        }
        let hours = age as f64 / 3_600_000.0;
        let plays = potential * (1.0 - (-hours / 18.0).exp()) + potential / 2_000.0 * hours;
        let rate = |k: u32, lo: f64, spread: u64| lo + ((h >> k) % spread) as f64 / 1000.0;
        let plays_i = plays.floor() as i64;
        Figures {
            plays: plays_i,
            likes: (plays * rate(8, 0.02, 60)).floor() as i64,
            comments: (plays * rate(16, 0.002, 8)).floor() as i64,
            shares: (plays * rate(24, 0.001, 6)).floor() as i64,
        }
    }

    fn cover(&self, base: &str, n: u64) -> String {
        format!("{base}/dy/cover/{}.jpg", self.item_id(n))
    }

    pub fn share_url(&self, base: &str) -> String {
        format!("{base}/dy/share/user/{}", self.id)
    }

    /// `https://v.douyin.com/<8 chars>/`, fixed per account.
    pub fn short_url(&self) -> String {
        const A: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        let mut h = stable_hash(&["short", &self.id]);
        let code: String = (0..8)
            .map(|_| {
                let c = A[(h % A.len() as u64) as usize] as char;
                h /= A.len() as u64;
                c
            })
            .collect();
        format!("{SHORT_HOST}{code}/")
    }

    /// The profile as TikHub's `handler_user_profile` answers it in `data.user` (Douyin web's
    /// field names: https://github.com/TikHub/TikHub-API-Python-SDK-V2 docs/DouyinWebAPIApi.md).
    pub fn profile_json(&self, base: &str, now: i64) -> Value {
        let n = self.visible(now);
        let (mut plays, mut likes) = (0i64, 0i64);
        for i in 0..n {
            let f = self.figures(i, now);
            plays += f.plays;
            likes += f.likes;
        }
        let avatar = super::avatar::url(base, crate::Platform::Dy, &self.id);
        json!({
            "sec_uid": self.id,
            "nickname": self.nickname,
            "avatar_larger": {"url_list": [avatar]},
            "avatar_thumb": {"url_list": [avatar]},
            "signature": format!("{}{}｜每天分享{}好店", self.city, self.theme, self.city),
            "follower_count": self.base_followers + plays / 250,
            "total_favorited": self.base_followers * 3 + likes,
            "aweme_count": n,
        })
    }

    /// Video n as TikHub's `fetch_user_post_videos` answers it in `data.aweme_list[]` (Douyin
    /// web's aweme: `create_time` in seconds).
    pub fn video_json(&self, base: &str, n: u64, now: i64) -> Value {
        let f = self.figures(n, now);
        let item = self.item_id(n);
        json!({
            "aweme_id": item,
            "desc": self.title(n),
            "create_time": self.post_time(n) / 1000,
            "video": {"cover": {"url_list": [self.cover(base, n)]}},
            "share_info": {"share_url": format!("{base}/dy/share/{item}")},
            "statistics": {"play_count": f.plays, "digg_count": f.likes,
                           "comment_count": f.comments, "share_count": f.shares},
        })
    }

    /// Newest first, older than `cursor` (unix ms; 0 = from the newest): (indexes, next cursor,
    /// has_more). The cursor is a time, so videos posted between two pages do not shift them.
    pub fn page(&self, now: i64, cursor: i64, count: usize) -> (Vec<u64>, i64, bool) {
        let n = self.visible(now);
        // Videos 0..end are older than the cursor (post times grow with n).
        let end = if cursor <= 0 {
            n
        } else {
            let (mut lo, mut hi) = (0u64, n);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.post_time(mid) < cursor {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let take = (count as u64).min(end);
        let idx: Vec<u64> = (end - take..end).rev().collect();
        let next = idx.last().map_or(cursor, |i| self.post_time(*i));
        (idx, next, end > take)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// A readable id or link that names no account.
    NotFound,
    /// A link of a kind we cannot read.
    Unreadable,
}

/// Finds an account by id, profile URL (`…/share/user/{id}`, `douyin.com/user/{id}`) or short
/// link.
pub(crate) fn resolve<'a>(
    list: &'a [AccountRec],
    id: &str,
    link: &str,
) -> Result<&'a AccountRec, Unresolved> {
    let by_id = |id: &str| list.iter().find(|a| a.id == id).ok_or(Unresolved::NotFound);
    if !id.is_empty() {
        return by_id(id);
    }
    let path = link
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .trim_end_matches('/');
    if link.starts_with(SHORT_HOST) {
        let want = format!("{path}/");
        return list
            .iter()
            .find(|a| a.short_url() == want)
            .ok_or(Unresolved::NotFound);
    }
    for marker in ["/share/user/", "douyin.com/user/"] {
        if let Some((_, rest)) = path.split_once(marker) {
            return by_id(rest.split('/').next().unwrap_or(""));
        }
    }
    Err(Unresolved::Unreadable)
}

// ---- control API ---------------------------------------------------------------------------------

#[derive(Deserialize)]
pub(crate) struct CreateReq {
    nickname: String,
    #[serde(default = "three")]
    posts_per_day: u32,
    start_ms: Option<i64>,
    followers: Option<i64>,
    #[serde(default)]
    topics: Vec<String>,
    city: Option<String>,
}

fn three() -> u32 {
    3
}

fn bad(msg: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"error": msg}))).into_response()
}

/// `POST /_control/public_accounts {nickname, posts_per_day?=3, start_ms?=now, followers?,
/// topics?, city?}` -> `{id, share_url, short_url, nickname, posts_per_day, start_ms}`.
pub(crate) async fn create(St(s): St<S>, Json(r): Json<CreateReq>) -> Response {
    let nickname = r.nickname.trim();
    if nickname.is_empty() {
        return bad("nickname is required");
    }
    if !(1..=MAX_POSTS_PER_DAY).contains(&r.posts_per_day) {
        return bad("posts_per_day must be 1..=96");
    }
    let topics: Vec<String> = r
        .topics
        .iter()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    let mut st = s.lock();
    let rec = AccountRec::new(
        nickname,
        r.posts_per_day,
        r.start_ms.unwrap_or_else(|| s.clock.sandbox_now()),
        r.followers.map(|f| f.max(0)),
        topics,
        r.city.filter(|c| !c.trim().is_empty()),
        st.public_accounts.len(),
    );
    let out = json!({"id": rec.id, "share_url": rec.share_url(&s.public_base),
        "short_url": rec.short_url(), "nickname": rec.nickname,
        "posts_per_day": rec.posts_per_day, "start_ms": rec.start_ms});
    st.public_accounts.push(rec);
    Json(out).into_response()
}

/// `GET /_control/public_accounts` -> `{accounts: [profile + posts_per_day, start_ms]}`.
pub(crate) async fn list(St(s): St<S>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let accounts: Vec<Value> = st
        .public_accounts
        .iter()
        .map(|a| with_schedule(a, &s.public_base, now))
        .collect();
    Json(json!({"accounts": accounts}))
}

/// The control API's view of an account: the profile's fields, flat, plus its links and schedule.
fn with_schedule(a: &AccountRec, base: &str, now: i64) -> Value {
    let mut v = a.profile_json(base, now);
    v["account_id"] = json!(a.id);
    v["avatar"] = v["avatar_larger"]["url_list"][0].clone();
    v["share_url"] = json!(a.share_url(base));
    v["short_url"] = json!(a.short_url());
    v["posts_per_day"] = json!(a.posts_per_day);
    v["start_ms"] = json!(a.start_ms);
    v
}

/// `GET /_control/public_accounts/{id}` -> `{account: profile, videos: [every visible video,
/// newest first, create_time in ms and flat counts]}`; 404 for an unknown id.
pub(crate) async fn show(St(s): St<S>, Path(id): Path<String>) -> Response {
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let Some(a) = st.public_accounts.iter().find(|a| a.id == id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "unknown account"})),
        )
            .into_response();
    };
    let videos: Vec<Value> = (0..a.visible(now))
        .rev()
        .map(|n| {
            let f = a.figures(n, now);
            json!({"item_id": a.item_id(n), "title": a.title(n), "create_time": a.post_time(n),
                   "plays": f.plays, "likes": f.likes, "comments": f.comments, "shares": f.shares,
                   "cover": a.cover(&s.public_base, n)})
        })
        .collect();
    Json(json!({"account": with_schedule(a, &s.public_base, now),
                "videos": videos}))
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(ppd: u32) -> AccountRec {
        AccountRec::new("竞品", ppd, 1_000_000_000_000, None, vec![], None, 0)
    }

    #[test]
    fn every_day_holds_exactly_posts_per_day_videos() {
        for ppd in [1, 3, 7, 96] {
            let a = acc(ppd);
            assert_eq!(a.visible(a.start_ms), 0);
            assert_eq!(a.visible(a.start_ms - 1), 0);
            for d in 1..5 {
                assert_eq!(
                    a.visible(a.start_ms + d * DAY_MS + 5),
                    d as u64 * ppd as u64
                );
            }
            assert!((1..20).all(|n| a.post_time(n) > a.post_time(n - 1)));
        }
    }

    #[test]
    fn figures_grow_with_age() {
        let a = acc(3);
        let t = a.post_time(0);
        let f1 = a.figures(0, t + 3_600_000);
        let f2 = a.figures(0, t + DAY_MS);
        let f3 = a.figures(0, t + 10 * DAY_MS);
        assert!(f1.plays > 0 && f2.plays > f1.plays && f3.plays > f2.plays);
        assert!(f3.likes >= f2.likes && f3.comments >= f2.comments && f3.shares >= f2.shares);
        assert_eq!(a.figures(0, t - 1).plays, 0);
    }

    #[test]
    fn pages_walk_back_in_time() {
        let a = acc(5);
        let now = a.start_ms + 3 * DAY_MS;
        let (p1, c1, more) = a.page(now, 0, 6);
        assert_eq!(p1, vec![14, 13, 12, 11, 10, 9]);
        assert!(more);
        let (p2, c2, _) = a.page(now, c1, 6);
        assert_eq!(p2, vec![8, 7, 6, 5, 4, 3]);
        let (p3, _, more) = a.page(now, c2, 6);
        assert_eq!(p3, vec![2, 1, 0]);
        assert!(!more);
    }

    #[test]
    fn links_resolve() {
        let list = vec![acc(2)];
        let a = &list[0];
        assert_eq!(resolve(&list, &a.id, "").unwrap().id, a.id);
        assert!(resolve(&list, &a.short_url(), "").is_err());
        assert_eq!(resolve(&list, "", &a.short_url()).unwrap().id, a.id);
        let profile = a.share_url("http://x/sandbox");
        assert_eq!(resolve(&list, "", &profile).unwrap().id, a.id);
        let web = format!("https://www.douyin.com/user/{}?from=share", a.id);
        assert_eq!(resolve(&list, "", &web).unwrap().id, a.id);
        assert_eq!(
            resolve(&list, "", "https://example.com/x").unwrap_err(),
            Unresolved::Unreadable
        );
        assert_eq!(
            resolve(&list, "nope", "").unwrap_err(),
            Unresolved::NotFound
        );
        assert!(a.title(0).chars().count() > 8, "{}", a.title(0));
    }
}
