//! Published works of every platform: review verdict, stats and comments are pure functions of the
//! platform clock, so they "move over time" deterministically and tests can predict them.

use super::{REJECT_WORDS, contains_any, stable_hash};
use crate::Platform;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub(crate) struct WorkRec {
    pub platform: Platform,
    pub open_id: String,
    pub item_id: String,
    pub video_id: String,
    pub title: String,
    pub created_at: i64,
    /// When the review verdict lands (create + review delay at create time).
    pub review_at: i64,
    pub reject: bool,
    pub seq: u64,
    /// The cover the post came with (KS takes one per post), in bytes; 0 when none was sent.
    #[serde(default)]
    pub cover_bytes: u64,
    /// An image note's pictures (DY create_image_text); 0 for a video.
    #[serde(default)]
    pub images: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Review {
    Reviewing,
    Public,
    Rejected,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct PostedComment {
    pub comment_id: String,
    pub reply_to: Option<String>,
    pub content: String,
    pub create_time: i64,
    pub user_id: String,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct CommentOut {
    pub comment_id: String,
    pub comment_user_id: String,
    pub content: String,
    /// Unix seconds.
    pub create_time: i64,
    pub digg_count: i64,
    pub reply_comment_total: i64,
    pub top: bool,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub(crate) struct StatsOut {
    pub play: i64,
    pub like: i64,
    pub comment: i64,
    pub share: i64,
}

/// Audience comments: purchase-intent questions, contact requests, spam, emoji and plain praise
/// (auto-reply and lead detection need them all). A work's comments walk the pool in order from a
/// point fixed per work, and every third entry is a purchase question, so any three comments in a
/// row hold one (tests read a few hours of comments and must always meet one).
const COMMENT_POOL: [&str; 18] = [
    "多少钱？",
    "太好看了！",
    "😍😍😍",
    "价格多少？",
    "已关注，期待更新",
    "兼职日赚500，加群了解",
    "在哪里买的？求链接",
    "拍得真好 👍",
    "我想要，电话 13800138000",
    "有团购优惠吗",
    "这家店我去过，确实不错",
    "加我微信 likeit_88 发我价格",
    "地址在哪",
    "这个地方怎么去？",
    "人多吗，需要排队吗",
    "怎么买？有链接吗",
    "老板还营业吗",
    "怎么联系你们？",
];
/// One generated comment per this many plays.
const PLAYS_PER_COMMENT: i64 = 300;
const MAX_GENERATED_COMMENTS: i64 = 500;

impl WorkRec {
    pub fn new(
        platform: Platform,
        open_id: &str,
        item_id: &str,
        video_id: &str,
        title: &str,
        now: i64,
        delay: i64,
    ) -> WorkRec {
        WorkRec {
            platform,
            open_id: open_id.to_string(),
            item_id: item_id.to_string(),
            video_id: video_id.to_string(),
            title: title.to_string(),
            created_at: now,
            review_at: now + delay.max(0),
            reject: contains_any(title, &REJECT_WORDS),
            seq: 0,
            cover_bytes: 0,
            images: 0,
        }
    }

    pub fn review(&self, now: i64) -> Review {
        if now < self.review_at {
            Review::Reviewing
        } else if self.reject {
            Review::Rejected
        } else {
            Review::Public
        }
    }

    /// Plays per minute once public: 3..=29, fixed per work.
    fn rate(&self) -> i64 {
        3 + (stable_hash(&[&self.item_id]) % 27) as i64
    }

    fn minutes_public(&self, now: i64) -> i64 {
        if self.review(now) == Review::Public {
            (now - self.review_at) / 60_000
        } else {
            0
        }
    }

    fn generated_comments(&self, now: i64) -> i64 {
        (self.minutes_public(now) * self.rate() / PLAYS_PER_COMMENT).min(MAX_GENERATED_COMMENTS)
    }

    /// `comment` counts what [`WorkRec::comments`] lists (generated + posted top-level comments), so
    /// every call that reports it agrees.
    pub fn stats(&self, now: i64, posted: &[PostedComment]) -> StatsOut {
        let play = self.minutes_public(now) * self.rate();
        let top_level = posted.iter().filter(|p| p.reply_to.is_none()).count() as i64;
        StatsOut {
            play,
            like: play / 20,
            comment: self.generated_comments(now) + top_level,
            share: play / 800,
        }
    }

    /// Generated comments plus the posted ones, newest first.
    pub fn comments(&self, now: i64, posted: &[PostedComment]) -> Vec<CommentOut> {
        let mut out: Vec<CommentOut> = (0..self.generated_comments(now))
            .map(|i| {
                let h = stable_hash(&[&self.item_id, &i.to_string()]);
                // Comment i arrives when the play count passes (i+1) * PLAYS_PER_COMMENT.
                let at = self.review_at + (i + 1) * PLAYS_PER_COMMENT * 60_000 / self.rate();
                CommentOut {
                    comment_id: format!("{}-c{i}", self.item_id),
                    comment_user_id: format!("u{:010}", h % 10_000_000_000),
                    content: COMMENT_POOL[pool_index(&self.item_id, i)].to_string(),
                    create_time: at / 1000,
                    digg_count: (h % 50) as i64,
                    reply_comment_total: reply_total(posted, &format!("{}-c{i}", self.item_id)),
                    top: false,
                }
            })
            .collect();
        out.extend(posted_under(posted, None));
        newest_first(&mut out);
        out
    }
}

/// Comment `i` of a work: the pool in order from a start fixed per work.
fn pool_index(item_id: &str, i: i64) -> usize {
    let start = stable_hash(&[item_id, "pool"]) % COMMENT_POOL.len() as u64;
    ((start + i as u64) % COMMENT_POOL.len() as u64) as usize
}

/// A JSON field as text: strings as they are, numbers rendered, anything else empty.
pub(crate) fn text_of(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn reply_total(posted: &[PostedComment], comment_id: &str) -> i64 {
    posted
        .iter()
        .filter(|p| p.reply_to.as_deref() == Some(comment_id))
        .count() as i64
}

/// The posted comments whose parent is `parent` (None: the video itself), as the API lists them.
fn posted_under<'a>(
    posted: &'a [PostedComment],
    parent: Option<&'a str>,
) -> impl Iterator<Item = CommentOut> + 'a {
    posted
        .iter()
        .filter(move |p| p.reply_to.as_deref() == parent)
        .map(|p| CommentOut {
            comment_id: p.comment_id.clone(),
            comment_user_id: p.user_id.clone(),
            content: p.content.clone(),
            create_time: p.create_time / 1000,
            digg_count: 0,
            reply_comment_total: reply_total(posted, &p.comment_id),
            top: false,
        })
}

fn newest_first(v: &mut [CommentOut]) {
    v.sort_by(|a, b| {
        b.create_time
            .cmp(&a.create_time)
            .then(b.comment_id.cmp(&a.comment_id))
    });
}

/// The replies to one comment, newest first (`/item/comment/reply/list/`).
pub(crate) fn replies(posted: &[PostedComment], comment_id: &str) -> Vec<CommentOut> {
    let mut out: Vec<CommentOut> = posted_under(posted, Some(comment_id)).collect();
    newest_first(&mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn any_three_generated_comments_in_a_row_hold_a_purchase_question() {
        use domain::engagement::{Intent, analyze};
        let n = COMMENT_POOL.len();
        for start in 0..n {
            let window: Vec<&str> = (0..3).map(|k| COMMENT_POOL[(start + k) % n]).collect();
            assert!(
                window.iter().any(|c| analyze(c).intent == Intent::Purchase),
                "{window:?}"
            );
        }
    }

    use super::*;

    #[test]
    fn review_then_stats_grow_deterministically() {
        let w = WorkRec::new(Platform::Dy, "o", "item1", "v", "好视频", 0, 600_000);
        assert_eq!(w.review(599_999), Review::Reviewing);
        assert_eq!(w.review(600_000), Review::Public);
        let a = w.stats(600_000 + 3_600_000, &[]);
        let b = w.stats(600_000 + 7_200_000, &[]);
        assert!(a.play > 0 && b.play == a.play * 2, "{a:?} {b:?}");
        assert_eq!(
            w.comments(600_000 + 86_400_000, &[]).len() as i64,
            w.stats(600_000 + 86_400_000, &[]).comment
        );
        let r = WorkRec::new(Platform::Dy, "o", "item2", "v", "这是违规内容", 0, 10);
        assert_eq!(r.review(11), Review::Rejected);
        assert_eq!(r.stats(1_000_000, &[]).play, 0);
    }
}
