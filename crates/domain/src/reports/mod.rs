//! Report rules: the range a report covers (day / week / month / custom, in China days of the
//! platform clock), the period it is compared with, the platforms of the analytics pages and the
//! dimensions of attribution. No I/O; "today" is an argument.

use crate::i18n::Msg;
use crate::validate::Invalid;

/// A custom range is at most this many days (a year, leap day included).
pub const MAX_DAYS: i64 = 366;
/// The two spans a day chart offers (the home dashboard, an NFC tag's statistics): a week or 30 days.
pub const DAY_SPANS: [i64; 2] = [7, 30];

/// Inclusive China day numbers (`matrix::day_of`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub first: i64,
    pub last: i64,
}

impl Range {
    pub fn days(self) -> i64 {
        self.last - self.first + 1
    }

    /// The same number of days just before: what "compare two periods" sets against it.
    pub fn previous(self) -> Range {
        Range {
            first: self.first - self.days(),
            last: self.first - 1,
        }
    }

    /// Unix ms `[from, to)` of the range.
    pub fn millis(self) -> (i64, i64) {
        (
            crate::matrix::at(self.first, 0),
            crate::matrix::at(self.last + 1, 0),
        )
    }
}

fn bad(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Invalid {
    Invalid { field, msg, args }
}

/// The range of `span` ending today: `day` (today), `week` (7 days), `month` (30 days), or `custom`
/// from `start` to `end` (YYYY-MM-DD, at most [`MAX_DAYS`]). An empty span is `week`.
pub fn range(span: &str, start: &str, end: &str, today: i64) -> Result<Range, Invalid> {
    let back = |n: i64| Range {
        first: today - (n - 1),
        last: today,
    };
    match span {
        "" | "week" => Ok(back(7)),
        "day" => Ok(back(1)),
        "month" => Ok(back(30)),
        "custom" => {
            let day = |field: &'static str, s: &str| {
                crate::matrix::parse_day(s).ok_or_else(|| bad(field, Msg::DateInvalid, vec![]))
            };
            let (first, last) = (day("start", start)?, day("end", end)?);
            if first > last {
                return Err(bad("start", Msg::DateOrder, vec![]));
            }
            if last - first + 1 > MAX_DAYS {
                return Err(bad(
                    "end",
                    Msg::SpanTooLong,
                    vec![("max", MAX_DAYS.to_string())],
                ));
            }
            Ok(Range { first, last })
        }
        _ => Err(bad(
            "span",
            Msg::InvalidValue,
            vec![("reason", "day | week | month | custom".into())],
        )),
    }
}

crate::text_enum! {
    /// A report's platform filter: one platform's figures, or every platform's (''). The
    /// analytics pages' own names are accepted too: `dd` (Douyin shop) and SPEC's `bp` are `shop`,
    /// `video` (WeChat Channels) is `sph`. The codes are `domain::platform::Platform`'s.
    pub enum PlatformFilter {
        All = "" | "all",
        Dy = "dy",
        Ks = "ks",
        Xhs = "xhs",
        Sph = "sph" | "video",
        Bjh = "bjh",
        Shop = "shop" | "dd" | "bp",
    }
}

impl PlatformFilter {
    /// The one platform filtered on; None for every platform.
    pub fn platform(self) -> Option<crate::platform::Platform> {
        crate::platform::Platform::parse(self.as_str())
    }
}

/// The platform filter of a report ('' = every platform).
pub fn platform(code: &str) -> Result<PlatformFilter, Invalid> {
    PlatformFilter::parse(code).ok_or_else(|| {
        bad(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy | ks | sph | xhs | bjh | shop".into())],
        )
    })
}

crate::text_enum! {
    /// What attribution groups the posts of rendered variants by.
    pub enum Dimension {
        /// Each clip (a material of a shot group) a variant used.
        Clip = "clip",
        /// Each shot group a variant drew a clip from.
        Group = "group",
        /// The post's title.
        Title = "title",
        /// The voice-over track the variant had.
        Voice = "voice",
        /// The mixing project.
        Project = "project",
    }
}
impl Dimension {
    /// A request's dimension: empty means `clip`.
    pub fn read(s: &str) -> Result<Dimension, Invalid> {
        if s.is_empty() {
            return Ok(Dimension::Clip);
        }
        Dimension::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| {
                bad(
                    "dimension",
                    Msg::InvalidValue,
                    vec![("reason", "clip | group | title | voice | project".into())],
                )
            })
    }
}

/// Plays per post, rounded down; 0 without posts.
pub fn per_post(plays: i64, posts: i64) -> i64 {
    if posts > 0 { plays / posts } else { 0 }
}

/// Change from `before` to `now` in whole percent (None when there was nothing before).
pub fn change_pct(now: i64, before: i64) -> Option<i64> {
    (before != 0).then(|| ((now - before) * 100) / before.abs())
}

/// A follower snapshot seen this many days before a range still counts on its first day (an
/// account not read for a while keeps its last known count rather than dropping to none).
pub const FOLLOWER_LOOKBACK: i64 = 30;

/// One account's `(followers on the last day, gain over the range)` from its counts `(account, day,
/// total)` sorted by day (those from `first - FOLLOWER_LOOKBACK` on): its latest count up to the last
/// day, and the changes between known consecutive days (its first count is not a gain).
pub fn follower_account(rows: &[(i64, i64, i64)], first: i64, last: i64) -> (i64, i64) {
    let (t, g) = follower_walk(rows, first, last);
    (
        t.last().copied().flatten().unwrap_or(0),
        g.iter().sum::<i64>(),
    )
}

/// Per day of the range: the account's latest known total (None before its first snapshot) and
/// the day's gain.
fn follower_walk(rows: &[(i64, i64, i64)], first: i64, last: i64) -> (Vec<Option<i64>>, Vec<i64>) {
    let n = (last - first + 1).max(0) as usize;
    let (mut t, mut g) = (vec![None; n], vec![0; n]);
    let mut it = rows.iter().peekable();
    let mut known: Option<i64> = None;
    // The count the day before the range.
    while let Some(r) = it.next_if(|r| r.1 < first) {
        known = Some(r.2);
    }
    for (i, day) in (first..=last).enumerate() {
        let before = known;
        while let Some(r) = it.next_if(|r| r.1 <= day) {
            known = Some(r.2);
        }
        t[i] = known;
        if let (Some(b), Some(k)) = (before, known) {
            g[i] = k - b;
        }
    }
    (t, g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_end_today_and_compare_with_the_days_before() {
        let today = 20_000;
        assert_eq!(range("day", "", "", today).unwrap().days(), 1);
        let w = range("", "", "", today).unwrap();
        assert_eq!((w.first, w.last, w.days()), (today - 6, today, 7));
        assert_eq!(
            w.previous(),
            Range {
                first: today - 13,
                last: today - 7
            }
        );
        assert_eq!(range("month", "", "", today).unwrap().days(), 30);
        let c = range("custom", "2026-01-01", "2026-01-31", today).unwrap();
        assert_eq!(c.days(), 31);
        assert_eq!(c.previous().days(), 31);
        assert_eq!(crate::matrix::fmt_day(c.previous().last), "2025-12-31");
        let (from, to) = c.millis();
        assert_eq!(to - from, 31 * 86_400_000);
    }

    #[test]
    fn bad_ranges_name_their_field() {
        let e = |r: Result<Range, Invalid>| r.unwrap_err().field;
        assert_eq!(e(range("year", "", "", 1)), "span");
        assert_eq!(e(range("custom", "2026-13-01", "2026-01-01", 1)), "start");
        assert_eq!(e(range("custom", "2026-01-01", "", 1)), "end");
        assert_eq!(e(range("custom", "2026-02-01", "2026-01-01", 1)), "start");
        assert_eq!(e(range("custom", "2025-01-01", "2026-01-02", 1)), "end");
        assert!(range("custom", "2025-01-01", "2026-01-01", 1).is_ok());
    }

    #[test]
    fn followers_carry_forward_and_gain_only_on_known_days() {
        // Account 1: 100 before the range, 110 on day 11, none on day 12, 130 on day 13.
        // Account 2: first seen on day 12 with 50 (not a gain), 55 on day 13.
        let rows = [
            (1, 8, 100),
            (1, 11, 110),
            (1, 13, 130),
            (2, 12, 50),
            (2, 13, 55),
        ];
        assert_eq!(follower_account(&rows[..3], 10, 13), (130, 30));
        assert_eq!(follower_account(&rows[3..], 10, 13), (55, 5));
        assert_eq!(follower_account(&[], 10, 13), (0, 0));
    }

    #[test]
    fn platforms_and_dimensions() {
        assert_eq!(platform("dd").unwrap().as_str(), "shop");
        assert_eq!(platform("video").unwrap().as_str(), "sph");
        assert_eq!(platform("bp").unwrap().as_str(), "shop");
        assert_eq!(platform("all").unwrap().as_str(), "");
        assert_eq!(platform("").unwrap().as_str(), "");
        assert_eq!(platform("").unwrap().platform(), None);
        for p in crate::platform::Platform::ALL {
            assert_eq!(platform(p.code()).unwrap().platform(), Some(p));
        }
        assert_eq!(platform("tiktok").unwrap_err().field, "platform");
        for d in Dimension::ALL {
            assert_eq!(Dimension::read(d.as_str()).unwrap(), d);
        }
        assert_eq!(Dimension::read("").unwrap(), Dimension::Clip);
        assert!(Dimension::read("x").is_err());
        assert_eq!(per_post(10, 3), 3);
        assert_eq!(per_post(10, 0), 0);
        assert_eq!(change_pct(150, 100), Some(50));
        assert_eq!(change_pct(5, 0), None);
    }
}
