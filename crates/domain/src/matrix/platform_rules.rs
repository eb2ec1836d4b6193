//! The platforms' own rules for a post, one table per platform, each number with where it comes
//! from. The release-task check refuses a task that breaks one (naming the rule), the browser flows
//! read their limits here, and the console shows them beside the fields they limit
//! (`/matrix.merchant_publish_management/platform_rules`). Where sources disagree the stricter
//! number is kept; `None` means no limit is known to us beyond the product's own (SPEC §5: titles
//! ≤ 50 characters, ≤ 3 posts per account a day). The schedule window and the scheduled-post cap
//! bind where a console's own scheduling is used (a browser flow's `schedule_at`); the product's
//! publisher posts at each item's planned time itself, so a task's times need not meet them.

use crate::platform::Platform;
use serde::Serialize;

/// A rule a post can break, named in the refusal and in the console.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    TitleMax,
    BodyMax,
    TopicsMax,
    MentionsMax,
    PostsPerDay,
    ScheduleWindow,
    ScheduledPerDay,
}

impl RuleKind {
    pub fn zh(self) -> &'static str {
        match self {
            RuleKind::TitleMax => "标题字数",
            RuleKind::BodyMax => "正文字数",
            RuleKind::TopicsMax => "话题个数",
            RuleKind::MentionsMax => "@ 人数",
            RuleKind::PostsPerDay => "每日发布数",
            RuleKind::ScheduleWindow => "定时发布时间",
            RuleKind::ScheduledPerDay => "每日定时发布数",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            RuleKind::TitleMax => "title length",
            RuleKind::BodyMax => "body length",
            RuleKind::TopicsMax => "number of topics",
            RuleKind::MentionsMax => "number of @-mentions",
            RuleKind::PostsPerDay => "posts a day",
            RuleKind::ScheduleWindow => "scheduled time",
            RuleKind::ScheduledPerDay => "scheduled posts a day",
        }
    }
}

/// One platform's rules. Counts are characters (Unicode scalar values) and items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlatformRules {
    pub platform: Platform,
    /// The title field (XHS 标题, the Douyin console's 作品标题); `None`: the product's 50.
    pub title_max: Option<usize>,
    /// The text under the title (XHS 正文, Channels 描述).
    pub body_max: Option<usize>,
    pub topics_max: Option<usize>,
    pub mentions_max: Option<usize>,
    /// Posts one account may make a day before the platform throttles or flags it.
    pub posts_per_day: Option<u32>,
    /// How far ahead the platform's own scheduling takes a post: (min, max) seconds.
    pub schedule_window_s: Option<(i64, i64)>,
    /// Scheduled posts one account may have queued a day.
    pub scheduled_per_day: Option<u32>,
    /// Where the numbers come from.
    pub sources: &'static str,
}

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// Douyin through the open platform (`/api/douyin/v1/video/create_video/`): the `text` carries the
/// title with its #topics and @-mentions; the API page we could read documents no lower limit than
/// the product's own, so none is set here.
const DY: PlatformRules = PlatformRules {
    platform: Platform::Dy,
    title_max: None,
    body_max: None,
    topics_max: None,
    mentions_max: None,
    posts_per_day: None,
    schedule_window_s: None,
    scheduled_per_day: None,
    sources: "open.douyin.com create_video (text: title, #topics, @)",
};

/// Kuaishou's open platform (`/openapi/photo/publish`): no documented caption or topic limit
/// beyond the product's.
const KS: PlatformRules = PlatformRules {
    platform: Platform::Ks,
    title_max: None,
    body_max: None,
    topics_max: None,
    mentions_max: None,
    posts_per_day: None,
    schedule_window_s: None,
    scheduled_per_day: None,
    sources: "open.kuaishou.com photo publish",
};

/// WeChat Channels' creator console (视频号助手): description ≤ 1,000 characters and ≤ 10 topics
/// (the console's counter; social-auto-upload `tencent_uploader`), scheduled posts ≥ 2 h ahead
/// (PostHub #16) up to the 定时 picker's 30 days, at most 5 queued a day (PostHub #37); the short title (6–16) is derived from
/// the title (`browser::sph::short_title`), optional.
const SPH: PlatformRules = PlatformRules {
    platform: Platform::Sph,
    title_max: None,
    body_max: Some(1000),
    topics_max: Some(10),
    mentions_max: None,
    posts_per_day: None,
    schedule_window_s: Some((2 * HOUR, 30 * DAY)),
    scheduled_per_day: Some(5),
    sources: "视频号助手 post form; social-auto-upload tencent_uploader; PostHub #16, #37",
};

/// Xiaohongshu's creator console: 标题 ≤ 20, 正文 ≤ 1,000, ≤ 10 topics (the publish form's
/// counters, as xiaohongshu-mcp and social-auto-upload's `xiaohongshu_uploader` type them);
/// scheduling 1 h – 14 days ahead (social-auto-upload #142, PostHub #16); about 50 notes a day per
/// account (xiaohongshu-mcp's operating rules).
const XHS: PlatformRules = PlatformRules {
    platform: Platform::Xhs,
    title_max: Some(20),
    body_max: Some(1000),
    topics_max: Some(10),
    mentions_max: None,
    posts_per_day: Some(50),
    schedule_window_s: Some((HOUR, 14 * DAY)),
    scheduled_per_day: None,
    sources: "creator.xiaohongshu.com publish form; xiaohongshu-mcp; social-auto-upload #142; PostHub #16",
};

/// Baijiahao's open API (`/builderinner/open/resource/video/publish`): no documented limit beyond
/// the product's.
const BJH: PlatformRules = PlatformRules {
    platform: Platform::Bjh,
    title_max: None,
    body_max: None,
    topics_max: None,
    mentions_max: None,
    posts_per_day: None,
    schedule_window_s: None,
    scheduled_per_day: None,
    sources: "baijiahao.baidu.com open API",
};

/// The Douyin creator console (creator.douyin.com, the shop's flow): 作品标题 ≤ 30, ≤ 5 topics
/// (social-auto-upload `douyin_uploader` types `title[:30]` and at most 5 tags), scheduling 2 h –
/// 14 days ahead (the console's 定时发布 picker; PostHub #16).
const SHOP: PlatformRules = PlatformRules {
    platform: Platform::Shop,
    title_max: Some(30),
    body_max: None,
    topics_max: Some(5),
    mentions_max: None,
    posts_per_day: None,
    schedule_window_s: Some((2 * HOUR, 14 * DAY)),
    scheduled_per_day: None,
    sources: "creator.douyin.com upload form; social-auto-upload douyin_uploader; PostHub #16",
};

pub const ALL: [PlatformRules; 6] = [DY, KS, SPH, XHS, BJH, SHOP];

/// A limit as a flow types to it: `None` is no limit.
pub const fn limit(v: Option<usize>) -> usize {
    match v {
        Some(n) => n,
        None => usize::MAX,
    }
}

/// A schedule window as a flow checks it: `None` takes any future time.
pub const fn window(v: Option<(i64, i64)>) -> (i64, i64) {
    match v {
        Some(w) => w,
        None => (0, i64::MAX),
    }
}

/// The rules of a platform.
pub const fn rules_of(p: Platform) -> &'static PlatformRules {
    match p {
        Platform::Dy => &DY,
        Platform::Ks => &KS,
        Platform::Sph => &SPH,
        Platform::Xhs => &XHS,
        Platform::Bjh => &BJH,
        Platform::Shop => &SHOP,
    }
}

/// A part of a post beyond the video, title and topics, which not every platform's post carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    Mentions,
    Poi,
    MiniProgram,
    Product,
    Official,
}

impl Part {
    pub const ALL: [Part; 5] = [
        Part::Mentions,
        Part::Poi,
        Part::MiniProgram,
        Part::Product,
        Part::Official,
    ];
    pub fn zh(self) -> &'static str {
        match self {
            Part::Mentions => "@ 提及",
            Part::Poi => "位置（POI）",
            Part::MiniProgram => "小程序挂载",
            Part::Product => "商品挂载",
            Part::Official => "公众号文章挂载",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Part::Mentions => "@-mentions",
            Part::Poi => "a location (POI)",
            Part::MiniProgram => "a mini-program mount",
            Part::Product => "a product mount",
            Part::Official => "an official-account article mount",
        }
    }
}

/// Why a platform's post does not carry a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// The platform's interface we publish through has no such field.
    NotOffered,
    /// The creator console has it, but our flow does not fill it yet: refused rather than dropped.
    NotFilled,
}

impl Missing {
    pub fn zh(self) -> &'static str {
        match self {
            Missing::NotOffered => "该平台的发布接口没有这一项",
            Missing::NotFilled => "创作者中心有这一项，但本系统的发布流程尚不会填写",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Missing::NotOffered => "the interface we publish through has no such field",
            Missing::NotFilled => {
                "the creator console has it, but our publishing flow does not fill it yet"
            }
        }
    }
}

/// Whether a post on `p` carries `part` as we publish it (None), or why not — so the release
/// check refuses a task naming it instead of the publisher dropping it. From the adapters:
/// Douyin's open `create_video` takes `poi_id`, `micro_app_*` and @ in its text, no product (only
/// the creator console and the shop mount products); Kuaishou's `photo/publish` takes the video,
/// cover and caption (with @) only; Baijiahao's `video/publish` takes title, cover, tags and
/// originality only; the console flows (`platforms::browser`) fill title, text, topics, cover,
/// declaration, schedule, XHS's and the Douyin console's location (the shop's 添加标签 holds its
/// product or a place) — and the shop's product — but not yet the consoles' @, Channels'
/// location, 扩展链接 (official-account article) or product fields.
pub fn carries(p: Platform, part: Part) -> Option<Missing> {
    use Missing::{NotFilled, NotOffered};
    match (p, part) {
        (Platform::Dy, Part::Mentions | Part::Poi | Part::MiniProgram) => None,
        (Platform::Dy, Part::Product | Part::Official) => Some(NotOffered),
        (Platform::Ks, Part::Mentions) => None,
        (Platform::Ks, _) => Some(NotOffered),
        (Platform::Bjh, _) => Some(NotOffered),
        (Platform::Sph, Part::MiniProgram) => Some(NotOffered),
        (Platform::Sph, _) => Some(NotFilled),
        (Platform::Xhs, Part::Poi) => None,
        (Platform::Xhs, Part::Mentions) => Some(NotFilled),
        (Platform::Xhs, _) => Some(NotOffered),
        (Platform::Shop, Part::Product | Part::Poi) => None,
        (Platform::Shop, Part::Official) => Some(NotOffered),
        (Platform::Shop, _) => Some(NotFilled),
    }
}

/// A post's parts as the platform receives them.
pub struct Post<'a> {
    pub titles: &'a [String],
    pub topics: usize,
    pub mentions: usize,
    pub posts_per_day: u32,
}

/// The first rule a post breaks on `p`: the rule, its limit, and the value that broke it.
pub fn broken(p: Platform, post: &Post<'_>) -> Option<(RuleKind, i64, i64)> {
    let r = rules_of(p);
    let over = |max: Option<usize>, v: usize| max.filter(|m| v > *m).map(|m| (m as i64, v as i64));
    let longest = post
        .titles
        .iter()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0);
    if let Some((m, v)) = over(r.title_max, longest) {
        return Some((RuleKind::TitleMax, m, v));
    }
    if let Some((m, v)) = over(r.topics_max, post.topics) {
        return Some((RuleKind::TopicsMax, m, v));
    }
    if let Some((m, v)) = over(r.mentions_max, post.mentions) {
        return Some((RuleKind::MentionsMax, m, v));
    }
    if let Some(m) = r.posts_per_day.filter(|m| post.posts_per_day > *m) {
        return Some((
            RuleKind::PostsPerDay,
            i64::from(m),
            i64::from(post.posts_per_day),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(titles: &[&str], topics: usize) -> (Vec<String>, usize) {
        (titles.iter().map(|t| t.to_string()).collect(), topics)
    }

    #[test]
    fn each_platform_has_its_table() {
        for p in [
            Platform::Dy,
            Platform::Ks,
            Platform::Sph,
            Platform::Xhs,
            Platform::Bjh,
            Platform::Shop,
        ] {
            assert_eq!(rules_of(p).platform, p);
            assert!(!rules_of(p).sources.is_empty());
        }
        assert_eq!(ALL.len(), 6);
    }

    #[test]
    fn xhs_titles_and_topics_are_checked_and_douyin_keeps_the_products_limits() {
        let (long, _) = post(&["一二三四五六七八九十一二三四五六七八九十一"], 0);
        let ok = Post {
            titles: &long[..0],
            topics: 10,
            mentions: 0,
            posts_per_day: 3,
        };
        assert_eq!(broken(Platform::Xhs, &ok), None);
        let twelve = Post { topics: 12, ..ok };
        assert_eq!(
            broken(Platform::Xhs, &twelve),
            Some((RuleKind::TopicsMax, 10, 12))
        );
        let titled = Post {
            titles: &long,
            topics: 1,
            mentions: 0,
            posts_per_day: 1,
        };
        assert_eq!(
            broken(Platform::Xhs, &titled),
            Some((RuleKind::TitleMax, 20, 21))
        );
        assert_eq!(broken(Platform::Dy, &titled), None);
        assert_eq!(broken(Platform::Dy, &twelve), None);
        let six = Post { topics: 6, ..ok };
        assert_eq!(
            broken(Platform::Shop, &six),
            Some((RuleKind::TopicsMax, 5, 6))
        );
    }

    #[test]
    fn what_each_platforms_post_carries_is_known() {
        use Missing::*;
        assert_eq!(carries(Platform::Dy, Part::Poi), None);
        assert_eq!(carries(Platform::Dy, Part::MiniProgram), None);
        assert_eq!(carries(Platform::Dy, Part::Product), Some(NotOffered));
        assert_eq!(carries(Platform::Shop, Part::Product), None);
        assert_eq!(carries(Platform::Sph, Part::Official), Some(NotFilled));
        assert_eq!(carries(Platform::Xhs, Part::Mentions), Some(NotFilled));
        // The XHS and Douyin consoles' location pickers; Channels' is not filled yet.
        assert_eq!(carries(Platform::Xhs, Part::Poi), None);
        assert_eq!(carries(Platform::Shop, Part::Poi), None);
        assert_eq!(carries(Platform::Sph, Part::Poi), Some(NotFilled));
        assert_eq!(carries(Platform::Ks, Part::Mentions), None);
        // Every platform carries something or says why not, for every part.
        for p in ALL {
            for part in Part::ALL {
                let _ = carries(p.platform, part);
            }
        }
    }
}
