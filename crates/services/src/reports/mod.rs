//! Area "reports": the daily rollup (rebuilt per account by the statistics sync, `matrix.sync`, and
//! when an item fails) and every report read — the dashboard's series, per-platform analytics with
//! rankings and period comparison, attribution (which clips, groups, titles and voice-overs bring
//! the most plays per post), the delivery and staff reports, the data screen — and their exports.
//! Contract: docs/api-reports.md.

use crate::ApiResult;
use domain::matrix::{day_of, fmt_day};
use domain::reports::{
    Dimension, FOLLOWER_LOOKBACK, Range, change_pct, follower_account, per_post,
};
use std::collections::HashMap;
use store::Db;
use store::reports as db;

/// What the report calls read, and the sorts a ranking accepts.
pub use db::{AccountFigures, Delivery, Figures, RANK_SORTS, StaffActivity, VideoFigures};

/// Rebuilds an account's report rows (idempotent; the sync job calls it after writing statistics).
pub async fn rollup(db: &Db, account_id: i64) -> ApiResult<u64> {
    Ok(db::rollup_account(db, account_id).await?)
}

/// Rebuilds the report rows of an item's account (after the item failed).
pub async fn rollup_of_item(db: &Db, item_id: i64) -> ApiResult<()> {
    let account = db::account_of_item(db, item_id).await?;
    if account != 0 {
        db::rollup_account(db, account).await?;
    }
    Ok(())
}

/// "Today" of the reports: the China day of the platform clock the publisher stamps items with.
pub fn today(clock: &domain::clock::Clock) -> i64 {
    day_of(clock.platform_now())
}

/// Figures per day over a range, zero-filled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    pub days: Vec<String>,
    pub posts: Vec<i64>,
    pub failed: Vec<i64>,
    pub plays: Vec<i64>,
    pub likes: Vec<i64>,
    pub comments: Vec<i64>,
    pub shares: Vec<i64>,
    /// The accounts' followers at the end of each day, and the day's gain (`account_followers`).
    pub followers: Vec<i64>,
    pub follower_gain: Vec<i64>,
}

impl Series {
    fn of(r: Range, rows: &[db::DayFigures]) -> Series {
        let n = r.days().max(0) as usize;
        let mut s = Series {
            days: (r.first..=r.last).map(fmt_day).collect(),
            posts: vec![0; n],
            failed: vec![0; n],
            plays: vec![0; n],
            likes: vec![0; n],
            comments: vec![0; n],
            shares: vec![0; n],
            followers: vec![0; n],
            follower_gain: vec![0; n],
        };
        for row in rows {
            if let Some(i) = usize::try_from(row.day - r.first).ok().filter(|&i| i < n) {
                s.posts[i] = row.f.posts;
                s.failed[i] = row.f.failed;
                s.plays[i] = row.f.plays;
                s.likes[i] = row.f.likes;
                s.comments[i] = row.f.comments;
                s.shares[i] = row.f.shares;
            }
        }
        s
    }

    pub fn totals(&self) -> Figures {
        let t = |v: &[i64]| v.iter().sum();
        Figures {
            posts: t(&self.posts),
            failed: t(&self.failed),
            plays: t(&self.plays),
            likes: t(&self.likes),
            comments: t(&self.comments),
            shares: t(&self.shares),
            followers: self.followers.last().copied().unwrap_or(0),
            follower_gain: t(&self.follower_gain),
        }
    }

    /// Fills the follower figures of the range: the SQL sums per day, plus the last count of each
    /// account not counted up to the range's end, carried forward (its gain on those days is 0).
    async fn with_followers(
        mut self,
        db: &Db,
        merchant_id: Option<i64>,
        platform: &str,
        r: Range,
    ) -> ApiResult<Series> {
        let n = self.days.len();
        let at = |day: i64| usize::try_from(day - r.first).ok().filter(|&i| i < n);
        for (day, total, gain) in
            db::follower_sums(db, merchant_id, platform, (r.first, r.last)).await?
        {
            if let Some(i) = at(day) {
                self.followers[i] += total;
                self.follower_gain[i] += gain;
            }
        }
        for (day, total) in db::follower_tails(db, merchant_id, platform, (r.first, r.last)).await?
        {
            for d in (day + 1).max(r.first)..=r.last {
                if let Some(i) = at(d) {
                    self.followers[i] += total;
                }
            }
        }
        Ok(self)
    }
}

/// The dashboard: points and the last `days` days of publishing (NFC posts included) and plays.
pub struct Dashboard {
    pub points: i64,
    pub series: Series,
}

pub async fn dashboard(db: &Db, merchant_id: Option<i64>, days: i64) -> ApiResult<Dashboard> {
    let points = match merchant_id {
        Some(m) => store::system::points::balance(db, m).await?,
        None => store::system::points::total_balance(db).await?,
    };
    let today = today(&db.clock);
    let r = Range {
        first: today - (days - 1),
        last: today,
    };
    let rows = db::series(db, merchant_id, "", r.first, r.last).await?;
    let mut series = Series::of(r, &rows);
    // Posts customers made from NFC taps (H5 shares) count as the shop's publishing too.
    for (day, n) in db::nfc_posts(db, merchant_id, r.first, r.last).await? {
        if let Some(i) = usize::try_from(day - r.first)
            .ok()
            .filter(|&i| i < series.posts.len())
        {
            series.posts[i] += n;
        }
    }
    Ok(Dashboard { points, series })
}

/// One platform's (or every platform's) figures over a range, compared with the period before.
pub struct Overview {
    pub accounts: i64,
    pub active_accounts: i64,
    /// Of them, authorized against the sandbox: their figures are simulated.
    pub simulated_accounts: i64,
    pub series: Series,
    pub totals: Figures,
    pub previous: Figures,
    /// Change against the previous period in percent, per figure (None: nothing before).
    pub change: Vec<(&'static str, Option<i64>)>,
}

pub async fn overview(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    r: Range,
) -> ApiResult<Overview> {
    let (accounts, active_accounts, simulated_accounts) =
        db::account_counts(db, merchant_id, platform).await?;
    let series = Series::of(
        r,
        &db::series(db, merchant_id, platform, r.first, r.last).await?,
    )
    .with_followers(db, merchant_id, platform, r)
    .await?;
    let p = r.previous();
    let previous = Series::of(
        p,
        &db::series(db, merchant_id, platform, p.first, p.last).await?,
    )
    .with_followers(db, merchant_id, platform, p)
    .await?
    .totals();
    let totals = series.totals();
    let change = vec![
        ("posts", change_pct(totals.posts, previous.posts)),
        ("plays", change_pct(totals.plays, previous.plays)),
        ("likes", change_pct(totals.likes, previous.likes)),
        ("comments", change_pct(totals.comments, previous.comments)),
        ("shares", change_pct(totals.shares, previous.shares)),
        (
            "followers",
            change_pct(totals.followers, previous.followers),
        ),
        (
            "follower_gain",
            change_pct(totals.follower_gain, previous.follower_gain),
        ),
    ];
    Ok(Overview {
        accounts,
        active_accounts,
        simulated_accounts,
        series,
        totals,
        previous,
        change,
    })
}

/// Page arguments: (offset, limit) from a 1-based page and a size of at most 100 (exports: 100,000).
pub fn window(page: i64, limit: i64, max: i64) -> (i64, i64) {
    let limit = if limit <= 0 { 10 } else { limit.min(max) };
    ((page.max(1) - 1) * limit, limit)
}

pub async fn account_rank(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    r: Range,
    sort: &str,
    page: (i64, i64),
) -> ApiResult<(Vec<db::AccountFigures>, i64)> {
    let (mut rows, total) =
        db::account_rank(db, merchant_id, platform, (r.first, r.last), sort, page).await?;
    // The page's accounts' followers at the end of the range and their gain over it.
    let ids: Vec<i64> = rows.iter().map(|a| a.account_id).collect();
    let snaps = if ids.is_empty() {
        vec![]
    } else {
        db::follower_rows(
            db,
            merchant_id,
            platform,
            (r.first - FOLLOWER_LOOKBACK, r.last),
            &ids,
        )
        .await?
    };
    // Snapshots come sorted by account: one slice per account.
    let by_account: HashMap<i64, &[(i64, i64, i64)]> = snaps
        .chunk_by(|a, b| a.0 == b.0)
        .map(|c| (c[0].0, c))
        .collect();
    for a in &mut rows {
        let mine = by_account.get(&a.account_id).copied().unwrap_or(&[]);
        (a.f.followers, a.f.follower_gain) = follower_account(mine, r.first, r.last);
    }
    Ok((rows, total))
}

/// Stores what the platform said of an account's followers (the statistics sync).
pub async fn save_followers(
    db: &Db,
    account: (i64, i64, &str),
    days: &[platforms::FollowerDay],
) -> ApiResult<()> {
    let days: Vec<(i64, i64)> = days.iter().map(|d| (d.day, d.total)).collect();
    Ok(db::save_followers(db, account, &days).await?)
}

pub async fn video_rank(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    account_id: i64,
    r: Range,
    sort: &str,
    page: (i64, i64),
) -> ApiResult<(Vec<db::VideoFigures>, i64)> {
    Ok(db::video_rank(
        db,
        merchant_id,
        platform,
        account_id,
        r.millis(),
        sort,
        page,
    )
    .await?)
}

/// One line of attribution: a clip, group, title, voice-over or project and how its posts did.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribution {
    /// The clip's, group's, voice-over's or project's id (0 for a title).
    pub id: i64,
    /// Empty for the row of imported videos (`imported`): its name is the reader's words.
    pub label: String,
    /// The row of posts of videos without a recipe (imported into the library, uploaded).
    pub imported: bool,
    pub posts: i64,
    pub plays: i64,
    pub likes: i64,
    pub per_post: i64,
}

/// Which clips (groups, titles, voice-overs, projects) bring the most plays per post: every post of a
/// rendered variant in the range counts once for each clip of its sequence, for each group the clips
/// came from, for its title and for the voice-over track the variant took. Posts of videos without
/// a recipe (imported into the library, uploaded) are one row of their own, id 0 ([`Msg::ImportedVideos`]),
/// except by title, which they have too — so the posts of every row add up to all posts.
pub async fn attribution(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    r: Range,
    dim: Dimension,
) -> ApiResult<Vec<Attribution>> {
    let posts = db::variant_posts(db, merchant_id, platform, r.millis()).await?;
    // row -> (posts, plays, likes)
    let mut acc: HashMap<AttributionRow, (i64, i64, i64)> = HashMap::new();
    for p in &posts {
        let config: domain::clip::ProjectConfig =
            serde_json::from_str(&p.config).unwrap_or_default();
        let seq: Vec<i64> = serde_json::from_str(&p.seq).unwrap_or_default();
        let keys: Vec<AttributionRow> = match dim {
            Dimension::Title => vec![AttributionRow::Named(0, p.title.clone())],
            _ if p.project_id == 0 => vec![AttributionRow::Imported],
            Dimension::Clip => seq.iter().map(|&c| AttributionRow::Id(c)).collect(),
            Dimension::Group => {
                let mut g: Vec<i64> = config
                    .groups
                    .iter()
                    .take(seq.len())
                    .map(|g| g.group_id)
                    .collect();
                g.sort_unstable();
                g.dedup();
                g.into_iter().map(AttributionRow::Id).collect()
            }
            Dimension::Voice => config
                .voice
                .as_ref()
                .and_then(|v| v.track_for(p.variant_id))
                .map(|v| vec![AttributionRow::Id(v)])
                .unwrap_or_default(),
            Dimension::Project => vec![AttributionRow::Named(p.project_id, p.project_name.clone())],
        };
        for k in keys {
            let e = acc.entry(k).or_default();
            e.0 += 1;
            e.1 += p.plays;
            e.2 += p.likes;
        }
    }
    let table = match dim {
        Dimension::Clip | Dimension::Voice => Some(db::NameTable::Media),
        Dimension::Group => Some(db::NameTable::Group),
        _ => None,
    };
    let names: HashMap<i64, String> = match table {
        Some(t) => {
            let ids: Vec<i64> = acc
                .keys()
                .filter_map(|k| match k {
                    AttributionRow::Id(id) => Some(*id),
                    _ => None,
                })
                .collect();
            db::names(db, merchant_id, t, &ids)
                .await?
                .into_iter()
                .collect()
        }
        None => HashMap::new(),
    };
    let mut out: Vec<Attribution> = acc
        .into_iter()
        .map(|(row, (posts, plays, likes))| {
            let imported = row == AttributionRow::Imported;
            let (id, label) = match row {
                // named in the reader's words by `api` (`Attribution::imported`)
                AttributionRow::Imported => (0, String::new()),
                AttributionRow::Id(id) => (
                    id,
                    names.get(&id).cloned().unwrap_or_else(|| format!("#{id}")),
                ),
                AttributionRow::Named(id, label) if label.is_empty() => (id, format!("#{id}")),
                AttributionRow::Named(id, label) => (id, label),
            };
            Attribution {
                imported,
                label,
                id,
                posts,
                plays,
                likes,
                per_post: per_post(plays, posts),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        (b.per_post, b.plays, &a.label, a.id).cmp(&(a.per_post, a.plays, &b.label, b.id))
    });
    Ok(out)
}

/// What an attribution row counts: the posts of videos without a recipe, a clip's, group's or
/// voice-over's id (named from its table), or an id with its own label (a title, a project).
#[derive(Debug, PartialEq, Eq, Hash)]
enum AttributionRow {
    Imported,
    Id(i64),
    Named(i64, String),
}

/// A failure reason as the rows keep it: a reason code with its arguments (`domain::matrix`), or,
/// in rows written before codes, the words in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredReason {
    pub code: String,
    pub args: String,
    pub zh: String,
    pub en: String,
}

/// A task's delivery with its failure reasons.
pub struct DeliveryRow {
    pub d: db::Delivery,
    /// (reason, how many)
    pub reasons: Vec<(StoredReason, i64)>,
}

pub async fn delivery(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    r: Range,
    page: (i64, i64),
) -> ApiResult<(Vec<DeliveryRow>, i64)> {
    let (rows, total) = db::delivery(db, merchant_id, platform, r.millis(), page).await?;
    let ids: Vec<i64> = rows.iter().map(|d| d.task_id).collect();
    let mut reasons: HashMap<i64, Vec<(StoredReason, i64)>> = HashMap::new();
    for (task, code, args, zh, en, n) in db::failure_reasons(db, merchant_id, &ids).await? {
        let why = StoredReason { code, args, zh, en };
        reasons.entry(task).or_default().push((why, n));
    }
    Ok((
        rows.into_iter()
            .map(|d| DeliveryRow {
                reasons: reasons.remove(&d.task_id).unwrap_or_default(),
                d,
            })
            .collect(),
        total,
    ))
}

pub async fn staff(
    db: &Db,
    merchant_id: Option<i64>,
    r: Range,
) -> ApiResult<Vec<db::StaffActivity>> {
    let mut rows = db::staff_activity(db, merchant_id, r.millis()).await?;
    let tasks: HashMap<i64, i64> = db::tasks_by_user(db, merchant_id, r.millis())
        .await?
        .into_iter()
        .collect();
    for row in &mut rows {
        row.tasks = tasks.get(&row.user_id).copied().unwrap_or(0);
    }
    Ok(rows)
}

/// The data screen: live counters, today's publishing, the last 7 days, regions and top videos.
pub struct Screen {
    pub accounts: i64,
    pub active_accounts: i64,
    pub week: Series,
    pub today_planned: i64,
    pub today_published: i64,
    pub today_failed: i64,
    /// Posts published today (whatever day they were due): the "published today" counter.
    pub today_posts: i64,
    /// Of those, the posts due on another day (late or moved): the counter is the plan's
    /// "published" plus these.
    pub today_posts_other_days: i64,
    /// (province, accounts, plays over the last 30 days)
    pub regions: Vec<(String, i64, i64)>,
    pub top: Vec<db::VideoFigures>,
    pub updated_at: i64,
}

pub async fn screen(db: &Db, merchant_id: Option<i64>) -> ApiResult<Screen> {
    let today = today(&db.clock);
    let week = Range {
        first: today - 6,
        last: today,
    };
    let month = Range {
        first: today - 29,
        last: today,
    };
    let (accounts, active_accounts, _) = db::account_counts(db, merchant_id, "").await?;
    let rows = db::series(db, merchant_id, "", week.first, week.last).await?;
    let week_series = Series::of(week, &rows)
        .with_followers(db, merchant_id, "", week)
        .await?;
    let day = Range {
        first: today,
        last: today,
    };
    let (today_planned, today_published, today_failed, today_posts, today_posts_other_days) =
        db::progress(db, merchant_id, day.millis()).await?;
    let regions = db::by_region(db, merchant_id, month.first, month.last).await?;
    let (top, _) = db::video_rank(db, merchant_id, "", 0, month.millis(), "plays", (0, 10)).await?;
    Ok(Screen {
        accounts,
        active_accounts,
        week: week_series,
        today_planned,
        today_published,
        today_failed,
        today_posts,
        today_posts_other_days,
        regions,
        top,
        updated_at: db.clock.platform_now(),
    })
}

/// Does the report of `platform` ('' = every platform) carry follower figures?
pub fn has_followers(platform: &str) -> bool {
    platform.is_empty()
        || platforms::Platform::from_code(platform).is_some_and(platforms::has_follower_api)
}
