//! Matrix publishing rules (SPEC §5 "Publishing", §4 release/review states): release-task checks, the
//! distribution plan (which video goes to which account when), the review SLA and account status.
//! Pure functions; the store and API layers call them.

pub mod batch;
pub mod canary;
mod config;
mod form;
pub mod notes;
pub mod platform_rules;
pub mod proxy;
mod states;
pub use config::{ItemPost, MountFields, TaskConfig};
pub use form::{ApprovedPost, NoteFrames, TaskReq};
pub use notes::TaskKind;
pub use states::{
    AccountAction, AccountType, AppMode, AuthState, ContentDeclaration, ItemAction, ItemFacts,
    ItemFailure, ItemState, ModeChoice, ModeTarget, MountType, Offer, QrState, Review, Revocation,
    ShareState, TaskAction, TimeMode, VideoSource, failure_text, revocation_text,
};

use crate::clip::planner::SplitMix;
use crate::i18n::Msg;
use crate::validate::Invalid;
use std::collections::HashMap;

pub const TITLE_MAX: usize = 50;
/// A release task's name (characters).
pub const TASK_NAME_MAX: usize = 50;
/// An account group's name, an @-mentioned nickname.
pub const GROUP_NAME_MAX: usize = 30;
/// An account's remarks; a review's reason for refusing.
pub const REMARKS_MAX: usize = 200;
pub const REASON_MAX: usize = 200;
pub const COMMENT_MAX: usize = 30;
pub const COMMENT_PICK: usize = 5;
/// SPEC §9: at most 3 videos per account per day.
pub const PER_ACCOUNT_DAY: u32 = 3;
pub const MAX_DAYS: u32 = 90;
/// An account is "expiring" this long before its authorization ends.
pub const EXPIRING_MS: i64 = 3 * 86_400_000;
/// China time: the merchants' day and working hours.
pub const TZ_OFFSET_MS: i64 = 8 * 3_600_000;
/// Random mode spreads posts over 08:00–22:00.
pub const WINDOW_START_MIN: u32 = 8 * 60;
pub const WINDOW_END_MIN: u32 = 22 * 60;
const MINUTE: i64 = 60_000;
const DAY: i64 = 86_400_000;

fn broken<T>(
    field: &'static str,
    msg: Msg,
    args: Vec<(&'static str, String)>,
) -> Result<T, Invalid> {
    Err(Invalid { field, msg, args })
}

/// Titles are separated by '#'; each is required and at most 50 characters.
pub fn titles(raw: &str) -> Result<Vec<String>, Invalid> {
    let parts: Vec<String> = raw.split('#').map(|t| t.trim().to_string()).collect();
    if parts.iter().all(|t| t.is_empty()) {
        return broken("titles", Msg::Required, vec![]);
    }
    for (i, t) in parts.iter().enumerate() {
        if t.is_empty() {
            return broken("titles", Msg::TitleEmpty, vec![("n", (i + 1).to_string())]);
        }
        if t.chars().count() > TITLE_MAX {
            return broken(
                "titles",
                Msg::TitleTooLong,
                vec![("n", (i + 1).to_string()), ("max", TITLE_MAX.to_string())],
            );
        }
        crate::validate::plain_text("titles", t)?;
    }
    Ok(parts)
}

/// Topics are required; '#' prefixes are dropped, blanks and repeats ignored.
pub fn topics(raw: &[String]) -> Result<Vec<String>, Invalid> {
    let mut out: Vec<String> = vec![];
    for t in raw {
        let t = t.trim().trim_start_matches('#').trim().to_string();
        if t.is_empty() || out.contains(&t) {
            continue;
        }
        if t.chars().count() > TITLE_MAX {
            return broken("topics", Msg::TooLong, vec![("max", TITLE_MAX.to_string())]);
        }
        crate::validate::plain_text("topics", &t)?;
        out.push(t);
    }
    if out.is_empty() {
        return broken("topics", Msg::Required, vec![]);
    }
    Ok(out)
}

/// Contact details or links a comment must not carry (phone numbers, WeChat / QQ ids, URLs, e-mail
/// addresses): the copy precheck's contact rules of every platform.
pub fn has_contact(s: &str) -> bool {
    crate::compliance::has_contact(s)
}

/// Top-comment scripts: one per line, each at most 30 characters, no contact details or links.
pub fn comments(raw: &str) -> Result<Vec<String>, Invalid> {
    comment_lines("top_comments", raw)
}

/// SPEC §5 comment-script rules for any field holding scripts one per line (top comments,
/// engagement's auto-reply scripts).
pub fn comment_lines(field: &'static str, raw: &str) -> Result<Vec<String>, Invalid> {
    let mut out = vec![];
    for (i, line) in raw.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        let n = (i + 1).to_string();
        if l.chars().count() > COMMENT_MAX {
            return broken(
                field,
                Msg::CommentTooLong,
                vec![("n", n), ("max", COMMENT_MAX.to_string())],
            );
        }
        if has_contact(l) {
            return broken(field, Msg::CommentContact, vec![("n", n)]);
        }
        out.push(l.to_string());
    }
    Ok(out)
}

/// `HH:mm` -> minute of the day.
pub fn parse_hhmm(s: &str) -> Option<u32> {
    let (h, m) = s.trim().split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// `YYYY-MM-DD` (China date) -> days since 1970-01-01.
pub fn parse_day(s: &str) -> Option<i64> {
    let mut it = s.trim().splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1970..=9999).contains(&y) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    // Reject 2026-02-31 and the like.
    (civil_from_days(days) == (y, m, d)).then_some(days)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let (yy, mm) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The China date of a unix-ms instant, as days since 1970-01-01.
pub fn day_of(ms: i64) -> i64 {
    (ms + TZ_OFFSET_MS).div_euclid(DAY)
}

/// Unix ms of a China date at a minute of that day.
pub fn at(day: i64, minute: u32) -> i64 {
    day * DAY - TZ_OFFSET_MS + minute as i64 * MINUTE
}

pub fn fmt_day(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// China time (UTC+8) as `YYYY-MM-DD HH:MM:SS`, the way the console shows times.
pub fn china_time(ms: i64) -> String {
    let local = ms + TZ_OFFSET_MS;
    let day = local.div_euclid(86_400_000);
    let secs = local.rem_euclid(86_400_000) / 1000;
    format!(
        "{} {:02}:{:02}:{:02}",
        fmt_day(day),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// `YYYY-MM-DD HH:mm`, China time, of a unix-ms instant.
pub fn fmt_minute(ms: i64) -> String {
    let minute = (ms + TZ_OFFSET_MS).rem_euclid(DAY) / MINUTE;
    format!(
        "{} {:02}:{:02}",
        fmt_day(day_of(ms)),
        minute / 60,
        minute % 60
    )
}

/// The schedule part of a release task.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub mode: TimeMode,
    pub start_day: i64,
    pub days: u32,
    pub daily: u32,
    /// Minutes of the day: specified = one per daily slot, timed = exactly one.
    pub times: Vec<u32>,
}

/// Checks the schedule fields and parses them.
pub fn schedule(
    mode: &str,
    start_date: &str,
    days: i64,
    daily: i64,
    times: &[String],
    today: i64,
) -> Result<Schedule, Invalid> {
    let mode = TimeMode::parse(mode).map_or_else(
        || {
            broken(
                "time_mode",
                Msg::InvalidValue,
                vec![("reason", "random | specified | timed".into())],
            )
        },
        Ok,
    )?;
    let start_day = parse_day(start_date).map_or_else(
        || {
            broken(
                "start_date",
                Msg::InvalidValue,
                vec![("reason", "YYYY-MM-DD".into())],
            )
        },
        Ok,
    )?;
    if start_day < today {
        return broken("start_date", Msg::StartInPast, vec![]);
    }
    if !(1..=MAX_DAYS as i64).contains(&days) {
        return broken(
            "days",
            Msg::InvalidValue,
            vec![("reason", format!("1–{MAX_DAYS}"))],
        );
    }
    if !(1..=PER_ACCOUNT_DAY as i64).contains(&daily) {
        return broken(
            "daily_quantity",
            Msg::DailyOverLimit,
            vec![("max", PER_ACCOUNT_DAY.to_string())],
        );
    }
    let mut mins = vec![];
    for t in times.iter().filter(|t| !t.trim().is_empty()) {
        let m = parse_hhmm(t).map_or_else(
            || broken("times", Msg::InvalidValue, vec![("reason", "HH:mm".into())]),
            Ok,
        )?;
        if mins.contains(&m) {
            return broken(
                "times",
                Msg::InvalidValue,
                vec![("reason", format!("{t} twice"))],
            );
        }
        mins.push(m);
    }
    mins.sort_unstable();
    match mode {
        TimeMode::Specified if mins.len() != daily as usize => {
            return broken("times", Msg::TimesCount, vec![("n", daily.to_string())]);
        }
        TimeMode::Timed if mins.len() != 1 => {
            return broken("times", Msg::TimesCount, vec![("n", "1".into())]);
        }
        _ => {}
    }
    Ok(Schedule {
        mode,
        start_day,
        days: days as u32,
        daily: daily as u32,
        times: mins,
    })
}

/// One planned post: the account (index into the accounts), the video (index into the videos), when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub account: usize,
    pub video: usize,
    pub at: i64,
    /// Which of the account's posts this is (0-based), for rotating titles.
    pub nth: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Distribution {
    pub slots: Vec<Slot>,
    /// Videos that did not fit (days × daily × accounts was smaller than the selection).
    pub unplaced: usize,
    /// Days whose posts outnumber the minutes of the window, so some share a minute.
    pub crowded_days: Vec<i64>,
}

/// Distributes videos over accounts and time.
///
/// Each video goes to exactly one account, round-robin, so shares differ by at most one; an account
/// posts at most `daily` a day over `days` days. Random mode spreads each day's posts over the window
/// with jitter, taking minutes nobody of the merchant uses (`taken` holds `at / 60000` of the
/// merchant's scheduled posts); specified and timed modes start at the given times and step a minute
/// per post so no two share a minute. Deterministic for a seed.
pub fn distribute(
    accounts: usize,
    videos: usize,
    count: usize,
    s: &Schedule,
    not_before: i64,
    taken: &std::collections::HashSet<i64>,
    seed: u64,
) -> Distribution {
    let mut out = Distribution::default();
    if accounts == 0 {
        out.unplaced = videos;
        return out;
    }
    let capacity = accounts * s.days as usize * s.daily as usize;
    let n = count.min(videos).min(capacity);
    out.unplaced = videos.min(count) - n;
    let mut rng = SplitMix(seed ^ 0x6d61_7472_6978);
    // Per day, the posts in slot order: slot 0 of every account, then slot 1 …
    let mut by_day: Vec<Vec<(usize, usize, usize)>> = vec![vec![]; s.days as usize];
    for v in 0..n {
        let (a, k) = (v % accounts, v / accounts);
        let (day, slot) = (k / s.daily as usize, k % s.daily as usize);
        by_day[day].push((slot, a, v));
    }
    let mut used: std::collections::HashSet<i64> = taken.clone();
    let first = first_day(s, not_before, by_day[0].len());
    for (d, posts) in by_day.iter_mut().enumerate() {
        if posts.is_empty() {
            continue;
        }
        let day = first + d as i64;
        // Random order of accounts within a slot, so the same account is not always first.
        let mut order: Vec<u64> = (0..accounts).map(|_| rng.next()).collect();
        if s.mode != TimeMode::Random {
            order = (0..accounts as u64).collect();
        }
        posts.sort_by_key(|&(slot, a, _)| (slot, order[a]));
        let times: Vec<i64> = match s.mode {
            TimeMode::Random => random_minutes(day, posts.len(), not_before, &mut used, &mut rng)
                .unwrap_or_else(|| {
                    out.crowded_days.push(day);
                    crowded_minutes(day, posts.len(), not_before)
                }),
            TimeMode::Specified | TimeMode::Timed => {
                // Specified: slot s starts at times[s]; timed: every post starts at the one time.
                let mut next_free: HashMap<u32, i64> = HashMap::new();
                posts
                    .iter()
                    .map(|&(slot, _, _)| {
                        let base = if s.mode == TimeMode::Timed {
                            s.times[0]
                        } else {
                            s.times[slot]
                        };
                        let start = at(day, base) / MINUTE;
                        let mut m = *next_free.get(&base).unwrap_or(&start);
                        while used.contains(&m) {
                            m += 1;
                        }
                        used.insert(m);
                        next_free.insert(base, m + 1);
                        m * MINUTE
                    })
                    .collect()
            }
        };
        for (i, &(slot, a, v)) in posts.iter().enumerate() {
            out.slots.push(Slot {
                account: a,
                video: v,
                at: times[i],
                nth: d * s.daily as usize + slot,
            });
        }
    }
    out.slots.sort_by_key(|x| (x.at, x.account));
    out
}

/// `n` distinct free minutes spread over the day's window (one per equal bucket, jittered), in order;
/// None when the window has fewer free minutes than posts.
fn random_minutes(
    day: i64,
    n: usize,
    not_before: i64,
    used: &mut std::collections::HashSet<i64>,
    rng: &mut SplitMix,
) -> Option<Vec<i64>> {
    let (lo, hi) = window(day, not_before);
    let free: Vec<i64> = (lo..hi).filter(|m| !used.contains(m)).collect();
    if free.len() < n {
        return None;
    }
    // Bucket i covers free[i*len/n .. (i+1)*len/n): pick one at random inside it.
    let len = free.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (i * len / n, ((i + 1) * len / n).max(i * len / n + 1));
        let m = free[a + rng.below(b - a)];
        used.insert(m);
        // Seconds of jitter inside the minute.
        out.push(m * MINUTE + rng.below(60) as i64 * 1000);
    }
    Some(out)
}

/// More posts than minutes: spread evenly over the window, sharing minutes as little as possible.
fn crowded_minutes(day: i64, n: usize, not_before: i64) -> Vec<i64> {
    let (lo, hi) = window(day, not_before);
    let span = (hi - lo).max(1) * MINUTE;
    (0..n as i64)
        .map(|i| lo * MINUTE + i * span / n as i64)
        .collect()
}

/// The first minute (since the epoch) a post may take: two minutes after `not_before`, so a plan
/// confirmed now never schedules a post that is already due.
fn earliest_minute(not_before: i64) -> i64 {
    (not_before + MINUTE - 1).div_euclid(MINUTE) + 2
}

/// The day's random-mode window in minutes since the epoch, starting no earlier than `not_before`;
/// empty (lo == hi) once the window has passed.
fn window(day: i64, not_before: i64) -> (i64, i64) {
    let lo = at(day, WINDOW_START_MIN) / MINUTE;
    let hi = at(day, WINDOW_END_MIN) / MINUTE;
    (lo.max(earliest_minute(not_before)).min(hi), hi)
}

/// The plan's first day: the start date, unless its posting time has already passed when the plan
/// is made — then the next day, so the plan keeps its number of days. A day whose window has passed
/// is not a day to post in (posting "in the next hour" instead put an evening task's posts past
/// midnight, onto the next day's quota).
fn first_day(s: &Schedule, not_before: i64, posts: usize) -> i64 {
    let usable = |day: i64| match s.mode {
        TimeMode::Random => {
            let (lo, hi) = window(day, not_before);
            let full = (WINDOW_END_MIN - WINDOW_START_MIN) as i64;
            hi - lo >= (posts as i64).clamp(1, full)
        }
        // The day's first time (the times are sorted) must still be ahead.
        TimeMode::Specified | TimeMode::Timed => {
            at(day, s.times.first().copied().unwrap_or(0)) / MINUTE >= earliest_minute(not_before)
        }
    };
    let mut day = s.start_day;
    // Only the start date can be today (it is never in the past), so this steps at most once.
    while !usable(day) && day < s.start_day + 2 {
        day += 1;
    }
    day
}

/// Weekday of a China date, 0 = Monday.
pub fn weekday(day: i64) -> i64 {
    (day + 3).rem_euclid(7)
}

fn working(day: i64) -> bool {
    weekday(day) < 5
}

/// SPEC §4: review within 3 hours inside working hours 9:00–18:00 (Mon–Fri), else by the next
/// working day. Returns the due instant.
pub fn review_due(created: i64) -> i64 {
    const OPEN: u32 = 9 * 60;
    const CLOSE: u32 = 18 * 60;
    let mut remaining = 3 * 60 * MINUTE;
    let mut day = day_of(created);
    let mut t = created;
    loop {
        if working(day) {
            let (open, close) = (at(day, OPEN), at(day, CLOSE));
            let start = t.max(open);
            if start < close {
                if start + remaining <= close {
                    return start + remaining;
                }
                remaining -= close - start;
            }
        }
        day += 1;
        t = at(day, OPEN);
    }
}

/// Account authorization status (SPEC §4 "Authorization"): active, expiring (within 3 days), expired.
pub fn account_status(auth_expires_at: i64, revoked: bool, now: i64) -> AuthState {
    AuthState::of(auth_expires_at, revoked, now)
}

/// Up to 5 comments picked at random from the scripts (SPEC §5).
pub fn pick_comments(all: &[String], seed: u64) -> Vec<String> {
    let mut idx: Vec<usize> = (0..all.len()).collect();
    let mut rng = SplitMix(seed);
    for i in (1..idx.len()).rev() {
        idx.swap(i, rng.below(i + 1));
    }
    idx.truncate(COMMENT_PICK);
    idx.sort_unstable();
    idx.into_iter().map(|i| all[i].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

    #[test]
    fn china_time_is_utc_plus_8() {
        assert_eq!(china_time(1_795_536_000_000), "2026-11-25 00:00:00");
    }

    fn sched(mode: TimeMode, days: u32, daily: u32, times: Vec<u32>) -> Schedule {
        Schedule {
            mode,
            start_day: parse_day("2026-11-23").unwrap(),
            days,
            daily,
            times,
        }
    }

    #[test]
    fn titles_and_comments_follow_spec() {
        assert_eq!(
            titles("春季上新#限时优惠").unwrap(),
            vec!["春季上新", "限时优惠"]
        );
        assert_eq!(titles("  ").unwrap_err().msg, Msg::Required);
        assert_eq!(titles("a##b").unwrap_err().msg, Msg::TitleEmpty);
        let long = "好".repeat(51);
        let e = titles(&format!("ok#{long}")).unwrap_err();
        assert_eq!((e.msg, e.args[0].1.as_str()), (Msg::TitleTooLong, "2"));
        assert!(titles(&"好".repeat(50)).is_ok());
        assert_eq!(
            topics(&["#美食".into(), "美食".into(), " ".into()]).unwrap(),
            vec!["美食"]
        );
        assert_eq!(topics(&[]).unwrap_err().msg, Msg::Required);
        assert_eq!(comments("好吃\n\n下次还来").unwrap().len(), 2);
        assert_eq!(
            comments(&"哈".repeat(31)).unwrap_err().msg,
            Msg::CommentTooLong
        );
        for bad in [
            "加微信 abc123",
            "电话13800138000",
            "看 https://x.cn",
            "vx: shop88",
            "QQ 12345",
        ] {
            assert_eq!(comments(bad).unwrap_err().msg, Msg::CommentContact, "{bad}");
        }
        assert!(!has_contact("第3次来了，2 个人吃 199 元"));
    }

    #[test]
    fn dates_and_sla() {
        let d = parse_day("2026-11-23").unwrap();
        assert_eq!(fmt_day(d), "2026-11-23");
        assert_eq!(weekday(d), 0, "2026-11-23 is a Monday");
        assert!(parse_day("2026-02-30").is_none());
        // Monday 10:00 -> 13:00 the same day.
        assert_eq!(review_due(at(d, 600)), at(d, 780));
        // Monday 17:00 -> 1 h today + 2 h Tuesday -> Tuesday 11:00.
        assert_eq!(review_due(at(d, 17 * 60)), at(d + 1, 11 * 60));
        // Saturday -> Monday 12:00.
        assert_eq!(review_due(at(d + 5, 600)), at(d + 7, 12 * 60));
        // Friday 20:00 -> Monday 12:00.
        assert_eq!(review_due(at(d + 4, 20 * 60)), at(d + 7, 12 * 60));
        // Before opening on a working day -> 12:00 that day.
        assert_eq!(review_due(at(d, 7 * 60)), at(d, 12 * 60));
    }

    #[test]
    fn schedule_rules() {
        let today = parse_day("2026-11-22").unwrap();
        let ok = schedule(
            "specified",
            "2026-11-23",
            3,
            2,
            &["10:00".into(), "15:30".into()],
            today,
        )
        .unwrap();
        assert_eq!(ok.times, vec![600, 930]);
        let e = |r: Result<Schedule, Invalid>| r.unwrap_err().field;
        assert_eq!(
            e(schedule("soon", "2026-11-23", 3, 2, &[], today)),
            "time_mode"
        );
        assert_eq!(
            e(schedule("random", "2026-11-21", 3, 2, &[], today)),
            "start_date"
        );
        assert_eq!(
            e(schedule("random", "2026-11-23", 3, 4, &[], today)),
            "daily_quantity"
        );
        assert_eq!(
            e(schedule("random", "2026-11-23", 0, 1, &[], today)),
            "days"
        );
        assert_eq!(
            e(schedule(
                "specified",
                "2026-11-23",
                3,
                2,
                &["10:00".into()],
                today
            )),
            "times"
        );
        assert_eq!(
            e(schedule("timed", "2026-11-23", 3, 2, &[], today)),
            "times"
        );
        assert_eq!(
            e(schedule(
                "timed",
                "2026-11-23",
                3,
                2,
                &["25:00".into()],
                today
            )),
            "times"
        );
    }

    #[test]
    fn comments_pick_at_most_five_deterministically() {
        let all: Vec<String> = (0..9).map(|i| format!("c{i}")).collect();
        let a = pick_comments(&all, 7);
        assert_eq!(a.len(), 5);
        assert_eq!(a, pick_comments(&all, 7));
        assert_eq!(pick_comments(&all[..2], 1).len(), 2);
    }

    fn check(d: &Distribution, accounts: usize, s: &Schedule, taken: &HashSet<i64>) {
        check_at(d, accounts, s, taken, 0);
    }

    /// The plan's rules for a plan made at `now` (unix ms).
    fn check_at(d: &Distribution, accounts: usize, s: &Schedule, taken: &HashSet<i64>, now: i64) {
        // Each video at most once.
        let vids: HashSet<usize> = d.slots.iter().map(|x| x.video).collect();
        assert_eq!(vids.len(), d.slots.len());
        // Nothing already due: every post is at least a minute ahead of the moment of planning.
        assert!(
            d.slots.iter().all(|x| x.at >= now + MINUTE),
            "a post before {now}"
        );
        // At most `daily` per account per China day; the plan keeps its number of days, starting
        // on the start date or, when that date's posting time has passed, the day after.
        let first = d
            .slots
            .iter()
            .map(|x| day_of(x.at))
            .min()
            .unwrap_or(s.start_day);
        assert!(
            first == s.start_day || first == s.start_day + 1,
            "starts on {first}"
        );
        let mut per: HashMap<(usize, i64), u32> = HashMap::new();
        for x in &d.slots {
            let day = day_of(x.at);
            assert!(day < first + s.days as i64 + 1, "day {day} after the plan");
            if s.mode == TimeMode::Random {
                assert!(day < first + s.days as i64, "day {day} after the plan");
                let m = ((x.at + TZ_OFFSET_MS).rem_euclid(DAY)) / MINUTE;
                assert!(
                    (WINDOW_START_MIN as i64..WINDOW_END_MIN as i64).contains(&m),
                    "minute {m}"
                );
            }
            *per.entry((x.account, day)).or_default() += 1;
        }
        assert!(per.values().all(|&n| n <= s.daily), "{per:?}");
        // Shares differ by at most one.
        let mut shares = vec![0; accounts];
        for x in &d.slots {
            shares[x.account] += 1;
        }
        assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
        // No two posts of the merchant in the same minute, none in a taken minute (when not crowded).
        if d.crowded_days.is_empty() {
            let mins: HashSet<i64> = d.slots.iter().map(|x| x.at / MINUTE).collect();
            assert_eq!(mins.len(), d.slots.len());
            assert!(mins.is_disjoint(taken));
        }
    }

    #[test]
    fn random_mode_stays_in_the_window() {
        let s = sched(TimeMode::Random, 3, 3, vec![]);
        let d = distribute(2, 6, 6, &s, 0, &HashSet::new(), 1);
        assert_eq!(d.slots.len(), 6);
        check(&d, 2, &s, &HashSet::new());
        for x in &d.slots {
            let m = ((x.at + TZ_OFFSET_MS).rem_euclid(DAY)) / MINUTE;
            assert!((WINDOW_START_MIN as i64..WINDOW_END_MIN as i64).contains(&m));
        }
    }

    #[test]
    fn specified_and_timed_step_a_minute_per_post() {
        let s = sched(TimeMode::Specified, 2, 2, vec![600, 900]);
        let d = distribute(3, 12, 12, &s, 0, &HashSet::new(), 1);
        let first: Vec<i64> = d.slots.iter().take(3).map(|x| x.at).collect();
        let base = at(s.start_day, 600);
        assert_eq!(first, vec![base, base + MINUTE, base + 2 * MINUTE]);
        check(&d, 3, &s, &HashSet::new());
        let t = sched(TimeMode::Timed, 1, 3, vec![600]);
        let taken: HashSet<i64> = [at(t.start_day, 600) / MINUTE].into();
        let d = distribute(2, 6, 6, &t, 0, &taken, 1);
        assert_eq!(d.slots[0].at, at(t.start_day, 601));
        check(&d, 2, &t, &taken);
    }

    #[test]
    fn capacity_limits_and_unplaced() {
        let s = sched(TimeMode::Random, 1, 1, vec![]);
        let d = distribute(2, 5, 5, &s, 0, &HashSet::new(), 1);
        assert_eq!((d.slots.len(), d.unplaced), (2, 3));
        let d = distribute(2, 5, 3, &s, 0, &HashSet::new(), 1);
        assert_eq!((d.slots.len(), d.unplaced), (2, 1));
    }

    #[test]
    fn a_crowded_day_is_reported_not_refused() {
        let s = sched(TimeMode::Random, 1, 3, vec![]);
        let d = distribute(400, 1200, 1200, &s, 0, &HashSet::new(), 1);
        assert_eq!(d.slots.len(), 1200);
        assert_eq!(d.crowded_days, vec![s.start_day]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn plans_hold_the_rules(accounts in 1usize..12, videos in 0usize..60, days in 1u32..5,
                                daily in 1u32..4, mode in 0u8..3, seed in any::<u64>(), taken_n in 0usize..30) {
            let mode = [TimeMode::Random, TimeMode::Specified, TimeMode::Timed][mode as usize];
            let times = match mode { TimeMode::Specified => (0..daily).map(|i| 540 + i * 180).collect(), TimeMode::Timed => vec![600], _ => vec![] };
            let s = sched(mode, days, daily, times);
            let taken: HashSet<i64> = (0..taken_n as i64).map(|i| at(s.start_day, 600) / MINUTE + i * 7).collect();
            let d = distribute(accounts, videos, videos, &s, 0, &taken, seed);
            prop_assert_eq!(d.slots.len() + d.unplaced, videos);
            prop_assert_eq!(d.slots.len(), videos.min(accounts * (days * daily) as usize));
            check(&d, accounts, &s, &taken);
            // Same seed, same plan.
            let again = distribute(accounts, videos, videos, &s, 0, &taken, seed);
            prop_assert_eq!(d.slots, again.slots);
        }

        /// Planned at any minute of any hour, on the start date or the evening before it (a date
        /// change between planning and the first post): the rules hold and nothing is already due.
        #[test]
        fn plans_hold_the_rules_at_every_hour(accounts in 1usize..12, videos in 0usize..60, days in 1u32..4,
                                daily in 1u32..4, mode in 0u8..3, seed in any::<u64>(),
                                eve in any::<bool>(), minute in 0u32..1440, second in 0i64..60) {
            let mode = [TimeMode::Random, TimeMode::Specified, TimeMode::Timed][mode as usize];
            let times = match mode { TimeMode::Specified => (0..daily).map(|i| 540 + i * 180).collect(), TimeMode::Timed => vec![600], _ => vec![] };
            let s = sched(mode, days, daily, times);
            let now = at(s.start_day - i64::from(eve), minute) + second * 1000;
            let d = distribute(accounts, videos, videos, &s, now, &HashSet::new(), seed);
            prop_assert_eq!(d.slots.len(), videos.min(accounts * (days * daily) as usize));
            check_at(&d, accounts, &s, &HashSet::new(), now);
        }
    }

    #[test]
    fn every_hour_of_the_start_date() {
        // The reported case: a random-mode task for today made at 23:22 posted between 23:48 and
        // 00:25, two posts of one account on the next day with daily = 1. Walk all 24 hours.
        for hour in 0..24 {
            for minute in [0, 22, 59] {
                let s = sched(TimeMode::Random, 3, 1, vec![]);
                let now = at(s.start_day, hour * 60 + minute);
                let d = distribute(20, 60, 60, &s, now, &HashSet::new(), u64::from(hour));
                assert_eq!(d.slots.len(), 60, "{hour}:{minute}");
                assert!(d.crowded_days.is_empty());
                check_at(&d, 20, &s, &HashSet::new(), now);
                let first = day_of(d.slots[0].at);
                let expect = if hour * 60 + minute + 2 + 20 > WINDOW_END_MIN {
                    s.start_day + 1
                } else {
                    s.start_day
                };
                assert_eq!(first, expect, "{hour}:{minute}");
            }
        }
        // Specified times already passed today start tomorrow; times still ahead stay today.
        let s = sched(TimeMode::Specified, 1, 2, vec![600, 900]);
        let d = distribute(1, 2, 2, &s, at(s.start_day, 700), &HashSet::new(), 1);
        assert_eq!(d.slots[0].at, at(s.start_day + 1, 600));
        let d = distribute(1, 2, 2, &s, at(s.start_day, 500), &HashSet::new(), 1);
        assert_eq!(d.slots[0].at, at(s.start_day, 600));
    }
}
