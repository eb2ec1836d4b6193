//! Reports: the daily rollup (`report_daily`, one row per account and China day, rebuilt from that
//! account's items) and the report reads. Series and account rankings read the rollup only; the
//! video-level reads (rankings, attribution, delivery) read the published items by an index on
//! (merchant, published_at). Every read takes the merchant id; `None` is the operator's whole view.

use crate::Db;
use sqlx::FromRow;

const DAY: i64 = 86_400_000;

/// Rebuilds an account's rollup rows from its items in one transaction: the same items give the same
/// rows however often it runs (idempotent), and only this account's rows are touched (incremental).
pub async fn rollup_account(db: &Db, account_id: i64) -> sqlx::Result<u64> {
    let tz = domain::matrix::TZ_OFFSET_MS;
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM report_daily WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    let sum = |c: &str| format!("CAST(SUM({c}) AS BIGINT)");
    let n = sqlx::query(crate::sqlf!(
        "INSERT INTO report_daily (account_id, day, merchant_id, platform, posts, failed, plays, likes, comments, shares) \
         SELECT account_id, day, merchant_id, platform, {}, {}, {}, {}, {}, {} FROM ( \
           SELECT account_id, (published_at + $2) / {DAY} AS day, merchant_id, platform, 1 AS p, 0 AS f, plays AS pl, \
             likes AS li, comment_count AS co, shares AS sh \
           FROM matrix_items WHERE account_id = $1 AND published_at IS NOT NULL \
           UNION ALL \
           SELECT account_id, (scheduled_at + $2) / {DAY} AS day, merchant_id, platform, 0, 1, 0, 0, 0, 0 \
           FROM matrix_items WHERE account_id = $1 AND state = 'failed' AND review_state <> 'rejected' \
         ) u GROUP BY account_id, day, merchant_id, platform",
        sum("p"),
        sum("f"),
        sum("pl"),
        sum("li"),
        sum("co"),
        sum("sh"),
    ))
    .bind(account_id)
    .bind(tz)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(n)
}

/// The merchant scope of a read: `merchant_id = $1`, or every merchant (the operator) when `None`.
fn scope(col: &str, merchant_id: Option<i64>) -> String {
    match merchant_id {
        Some(_) => format!("{col} = $1"),
        None => "$1 = 0".into(),
    }
}

/// Ids as an SQL list (`1,2,3`): integers only, so safe to put into the statement.
fn id_list(ids: &[i64]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The rows of a read whose filter binds $1 merchant (0: every merchant), $2 platform and $3..$4 a span.
async fn scoped_rows<T>(
    db: &Db,
    sql: sqlx::AssertSqlSafe<String>,
    (merchant_id, platform): (Option<i64>, &str),
    (a, b): (i64, i64),
) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    sqlx::query_as(sql)
        .bind(merchant_id.unwrap_or(0))
        .bind(platform)
        .bind(a)
        .bind(b)
        .fetch_all(&db.pool)
        .await
}

/// A platform filter on `$n` ('' = every platform).
fn platform_is(col: &str, n: usize) -> String {
    format!("(${n} = '' OR {col} = ${n})")
}

/// The figures of one day (or of a span, summed). `followers` (on the span's last day) and
/// `follower_gain` come from `account_followers`, not the rollup; the rollup's reads leave them 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct Figures {
    pub posts: i64,
    pub failed: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    #[sqlx(default)]
    pub followers: i64,
    #[sqlx(default)]
    pub follower_gain: i64,
}

/// Stores an account's follower counts by China day (a day read again is replaced). Days missed
/// since the account's previous count (at most `FOLLOWER_LOOKBACK` of them: the server was down, a
/// read was refused) get that count, so an account's counts are one row per day and the series can
/// be summed in SQL.
pub async fn save_followers(
    db: &Db,
    (account_id, merchant_id, platform): (i64, i64, &str),
    days: &[(i64, i64)],
) -> sqlx::Result<()> {
    let Some(&(first, _)) = days.iter().min_by_key(|d| d.0) else {
        return Ok(());
    };
    let mut tx = db.begin().await?;
    let before: Option<(i64, i64)> = sqlx::query_as(
        "SELECT day, followers FROM account_followers WHERE account_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1",
    )
    .bind(account_id)
    .bind(first)
    .fetch_optional(&mut *tx)
    .await?;
    let mut rows: Vec<(i64, i64)> = match before {
        Some((day, n)) if first - day <= domain::reports::FOLLOWER_LOOKBACK => {
            (day + 1..first).map(|d| (d, n)).collect()
        }
        _ => vec![],
    };
    rows.extend_from_slice(days);
    for (day, total) in rows {
        sqlx::query(
            "INSERT INTO account_followers (account_id, day, merchant_id, platform, followers) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (account_id, day) DO UPDATE SET followers = excluded.followers",
        )
        .bind(account_id)
        .bind(day)
        .bind(merchant_id)
        .bind(platform)
        .bind(total)
        .execute(&mut *tx)
        .await?;
    }
    // Each written day's gain, and the next day's (its day before may have changed).
    let last = days.iter().map(|d| d.0).max().unwrap_or(first);
    sqlx::query(
        "UPDATE account_followers SET gain = followers - COALESCE((SELECT p.followers FROM account_followers p \
         WHERE p.account_id = account_followers.account_id AND p.day = account_followers.day - 1), followers) \
         WHERE account_id = $1 AND day >= $2 AND day <= $3",
    )
    .bind(account_id)
    .bind(first - domain::reports::FOLLOWER_LOOKBACK)
    .bind(last + 1)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Per day of `first..=last` with counts: `(day, followers, gain)` — the followers summed over the
/// accounts counted that day, the gain over those counted the day before too (the stored `gain`).
/// Summed in SQL over the covering index (a month of 1,000 accounts is 30 rows out, not 30,000).
pub async fn follower_sums(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (first, last): (i64, i64),
) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    scoped_rows(
        db,
        crate::sqlf!(
            "SELECT day, CAST(SUM(followers) AS BIGINT), CAST(SUM(gain) AS BIGINT) FROM account_followers \
             WHERE {} AND {} AND day >= $3 AND day <= $4 GROUP BY day ORDER BY day",
            scope("merchant_id", merchant_id),
            platform_is("platform", 2),
        ),
        (merchant_id, platform),
        (first, last),
    )
    .await
}

/// Accounts whose latest count up to `last` (looking back `FOLLOWER_LOOKBACK` days before `first`)
/// is before `last` — not read yet today, or no longer read: `(that day, its count)`, which the
/// series carries forward to `last`.
pub async fn follower_tails(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (first, last): (i64, i64),
) -> sqlx::Result<Vec<(i64, i64)>> {
    // One primary-key seek per account of the scope for its latest day, not a scan of the counts.
    sqlx::query_as(crate::sqlf!(
        "SELECT f.day, f.followers FROM matrix_accounts a JOIN account_followers f ON f.account_id = a.id \
         AND f.day = (SELECT MAX(g.day) FROM account_followers g WHERE g.account_id = a.id AND g.day <= $4) \
         WHERE {} AND {} AND f.day >= $3 AND f.day < $4",
        scope("a.merchant_id", merchant_id),
        platform_is("a.platform", 2),
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(platform)
    .bind(first - domain::reports::FOLLOWER_LOOKBACK)
    .bind(last)
    .fetch_all(&db.pool)
    .await
}

/// Follower snapshots `(account, day, followers)` over `first..=last`, sorted by account and day;
/// `accounts` narrows to those ids (empty: every account of the scope).
pub async fn follower_rows(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (first, last): (i64, i64),
    accounts: &[i64],
) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    let only = if accounts.is_empty() {
        String::new()
    } else {
        format!(" AND account_id IN ({})", id_list(accounts))
    };
    scoped_rows(
        db,
        crate::sqlf!(
            "SELECT account_id, day, followers FROM account_followers WHERE {} AND {} AND day >= $3 AND day <= $4{only} \
             ORDER BY account_id, day",
            scope("merchant_id", merchant_id),
            platform_is("platform", 2),
        ),
        (merchant_id, platform),
        (first, last),
    )
    .await
}

#[derive(Debug, Clone, FromRow)]
pub struct DayFigures {
    pub day: i64,
    #[sqlx(flatten)]
    pub f: Figures,
}

const SUMS: &str = "CAST(COALESCE(SUM(r.posts), 0) AS BIGINT) AS posts, CAST(COALESCE(SUM(r.failed), 0) AS BIGINT) AS failed, \
    CAST(COALESCE(SUM(r.plays), 0) AS BIGINT) AS plays, CAST(COALESCE(SUM(r.likes), 0) AS BIGINT) AS likes, \
    CAST(COALESCE(SUM(r.comments), 0) AS BIGINT) AS comments, CAST(COALESCE(SUM(r.shares), 0) AS BIGINT) AS shares";

/// The rollup summed per day over `first..=last` (days with no row are absent).
pub async fn series(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    first: i64,
    last: i64,
) -> sqlx::Result<Vec<DayFigures>> {
    scoped_rows(
        db,
        crate::sqlf!(
            "SELECT r.day, {SUMS} FROM report_daily r WHERE {} AND {} AND r.day >= $3 AND r.day <= $4 \
             GROUP BY r.day ORDER BY r.day",
            scope("r.merchant_id", merchant_id),
            platform_is("r.platform", 2),
        ),
        (merchant_id, platform),
        (first, last),
    )
    .await
}

/// The same series straight from the items (the bench's baseline and the tests' cross-check).
pub async fn series_from_items(
    db: &Db,
    merchant_id: i64,
    platform: &str,
    first: i64,
    last: i64,
) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    let tz = domain::matrix::TZ_OFFSET_MS;
    sqlx::query_as(crate::sqlf!(
        "SELECT (published_at + $3) / {DAY} AS day, COUNT(*), CAST(COALESCE(SUM(plays), 0) AS BIGINT) FROM matrix_items \
         WHERE merchant_id = $1 AND {} AND published_at >= $4 AND published_at < $5 GROUP BY 1 ORDER BY 1",
        platform_is("platform", 2),
    ))
    .bind(merchant_id)
    .bind(platform)
    .bind(tz)
    .bind(first * DAY - tz)
    .bind((last + 1) * DAY - tz)
    .fetch_all(&db.pool)
    .await
}

/// Accounts of the merchant on a platform: all of them, and those still authorized.
pub async fn account_counts(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
) -> sqlx::Result<(i64, i64, i64)> {
    sqlx::query_as(crate::sqlf!(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN revoked = 0 THEN 1 ELSE 0 END), 0) AS BIGINT), \
         CAST(COALESCE(SUM(CASE WHEN sandbox = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM matrix_accounts WHERE {} AND {}",
        scope("merchant_id", merchant_id),
        platform_is("platform", 2),
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(platform)
    .fetch_one(&db.pool)
    .await
}

#[derive(Debug, Clone, FromRow)]
pub struct AccountFigures {
    pub account_id: i64,
    pub nickname: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub avatar: String,
    pub province: String,
    /// Authorized against the sandbox: its figures are simulated.
    pub sandbox: i64,
    #[sqlx(flatten)]
    pub f: Figures,
}

/// Columns an account or video ranking may be ordered by (a whitelist: they go into the SQL).
pub const RANK_SORTS: [&str; 5] = ["plays", "likes", "comments", "shares", "posts"];

/// Accounts ranked by a figure over `first..=last`, a page at a time, and how many accounts had rows.
pub async fn account_rank(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (first, last): (i64, i64),
    sort: &str,
    (offset, limit): (i64, i64),
) -> sqlx::Result<(Vec<AccountFigures>, i64)> {
    let sort = RANK_SORTS.iter().find(|s| **s == sort).unwrap_or(&"plays");
    let filter = format!(
        "{} AND {} AND r.day >= $3 AND r.day <= $4",
        scope("r.merchant_id", merchant_id),
        platform_is("r.platform", 2)
    );
    // Sum and rank the rollup first, then join the page's accounts (not every row of the month).
    page_of(
        db,
        crate::sqlf!(
                "SELECT x.account_id, a.nickname, a.platform, a.avatar, a.province, a.sandbox, x.posts, x.failed, x.plays, x.likes, \
                 x.comments, x.shares FROM (SELECT r.account_id, {SUMS} FROM report_daily r WHERE {filter} \
                 GROUP BY r.account_id ORDER BY {sort} DESC, r.account_id LIMIT $5 OFFSET $6) x \
                 JOIN matrix_accounts a ON a.id = x.account_id ORDER BY x.{sort} DESC, x.account_id"
            ),
            crate::sqlf!("SELECT COUNT(DISTINCT r.account_id) FROM report_daily r WHERE {filter}"),
            (merchant_id, platform, first, last),
            (offset, limit),
        )
        .await
}

/// A page of a report list whose filter binds $1 merchant (0: the operator's every merchant), $2 platform and $3..$4 a span, and whose
/// page is $5 limit, $6 offset; with how many rows the filter selects.
async fn page_of<T>(
    db: &Db,
    rows: sqlx::AssertSqlSafe<String>,
    count: sqlx::AssertSqlSafe<String>,
    (merchant_id, platform, a, b): (Option<i64>, &str, i64, i64),
    (offset, limit): (i64, i64),
) -> sqlx::Result<(Vec<T>, i64)>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    let rows = sqlx::query_as(rows)
        .bind(merchant_id.unwrap_or(0))
        .bind(platform)
        .bind(a)
        .bind(b)
        .bind(limit)
        .bind(offset)
        .fetch_all(&db.pool)
        .await?;
    let total: i64 = sqlx::query_scalar(count)
        .bind(merchant_id.unwrap_or(0))
        .bind(platform)
        .bind(a)
        .bind(b)
        .fetch_one(&db.pool)
        .await?;
    Ok((rows, total))
}

/// One published video with its figures (as last read) and its account.
#[derive(Debug, Clone, FromRow)]
pub struct VideoFigures {
    pub id: i64,
    pub task_id: i64,
    pub account_id: i64,
    pub nickname: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub title: String,
    pub video_key: String,
    pub video_name: String,
    pub share_url: String,
    pub published_at: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

const VIDEO_COLS: &str = "i.id, i.task_id, i.account_id, a.nickname, i.platform, i.title, i.video_key, i.video_name, i.share_url, \
        i.published_at, i.plays, i.likes, i.comment_count AS comments, i.shares";

/// Videos published in `[from, to)` ranked by a figure, a page at a time; `account_id` 0 = all.
pub async fn video_rank(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    account_id: i64,
    (from, to): (i64, i64),
    sort: &str,
    (offset, limit): (i64, i64),
) -> sqlx::Result<(Vec<VideoFigures>, i64)> {
    let sort = match sort {
        "likes" => "i.likes",
        "comments" => "i.comment_count",
        "shares" => "i.shares",
        _ => "i.plays",
    };
    let filter = format!(
        "{} AND {} AND ($3 = 0 OR i.account_id = $3) AND i.published_at >= $4 AND i.published_at < $5",
        scope("i.merchant_id", merchant_id),
        platform_is("i.platform", 2),
    );
    let rows = sqlx::query_as(crate::sqlf!(
            "SELECT {VIDEO_COLS} FROM matrix_items i JOIN matrix_accounts a ON a.id = i.account_id WHERE {filter} \
             ORDER BY {sort} DESC, i.id LIMIT $6 OFFSET $7"
        ))
        .bind(merchant_id.unwrap_or(0))
        .bind(platform)
        .bind(account_id)
        .bind(from)
        .bind(to)
        .bind(limit)
        .bind(offset)
        .fetch_all(&db.pool)
        .await?;
    let total: i64 = sqlx::query_scalar(crate::sqlf!(
        "SELECT COUNT(*) FROM matrix_items i WHERE {filter}"
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(platform)
    .bind(account_id)
    .bind(from)
    .bind(to)
    .fetch_one(&db.pool)
    .await?;
    Ok((rows, total))
}

/// A published post and, for a rendered variant, what attribution needs of its recipe. Posts of
/// videos with no recipe (imported into the library, uploaded, or whose variant is gone) come with
/// `project_id` 0 and empty `seq` / `config`.
#[derive(Debug, Clone, FromRow)]
pub struct VariantPost {
    pub title: String,
    pub plays: i64,
    pub likes: i64,
    pub variant_id: i64,
    pub seq: String,
    pub project_id: i64,
    pub project_name: String,
    pub config: String,
}

/// The merchant's posts published in `[from, to)`, with each rendered variant's clip sequence and
/// its project's recipe (groups, voice-over).
pub async fn variant_posts(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (from, to): (i64, i64),
) -> sqlx::Result<Vec<VariantPost>> {
    scoped_rows(
            db,
            crate::sqlf!(
            "SELECT i.title, i.plays, i.likes, COALESCE(v.id, 0) AS variant_id, COALESCE(v.seq, '') AS seq, \
             COALESCE(p.id, 0) AS project_id, COALESCE(p.name, '') AS project_name, COALESCE(p.config, '') AS config \
             FROM matrix_items i LEFT JOIN clip_variants v ON i.video_key = 'v:' || CAST(v.id AS TEXT) AND v.merchant_id = i.merchant_id \
             LEFT JOIN clip_projects p ON p.id = v.project_id \
             WHERE {} AND {} AND i.published_at >= $3 AND i.published_at < $4",
            scope("i.merchant_id", merchant_id),
            platform_is("i.platform", 2),
        ),
        (merchant_id, platform),
        (from, to),
    )
    .await
}

/// Names of the merchant's media files and shot groups by id (what attribution shows).
pub async fn names(
    db: &Db,
    merchant_id: Option<i64>,
    table: NameTable,
    ids: &[i64],
) -> sqlx::Result<Vec<(i64, String)>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let list = id_list(ids);
    let t = match table {
        NameTable::Media => "media_files",
        NameTable::Group => "resource_groups",
    };
    sqlx::query_as(crate::sqlf!(
        "SELECT id, name FROM {t} WHERE {} AND id IN ({list})",
        scope("merchant_id", merchant_id),
    ))
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await
}

#[derive(Debug, Clone, Copy)]
pub enum NameTable {
    Media,
    Group,
}

/// One release task's delivery: planned items against published, failed and still to go.
#[derive(Debug, Clone, FromRow)]
pub struct Delivery {
    pub task_id: i64,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::TaskPlatform,
    pub created_at: i64,
    pub planned: i64,
    pub published: i64,
    pub failed: i64,
    pub rejected: i64,
    pub plays: i64,
}

/// Release tasks created in `[from, to)`, newest first, a page at a time.
pub async fn delivery(
    db: &Db,
    merchant_id: Option<i64>,
    platform: &str,
    (from, to): (i64, i64),
    (offset, limit): (i64, i64),
) -> sqlx::Result<(Vec<Delivery>, i64)> {
    let filter = format!(
        "{} AND t.deleted = 0 AND {} AND t.created_at >= $3 AND t.created_at < $4",
        scope("t.merchant_id", merchant_id),
        platform_is("t.platform", 2)
    );
    page_of(
        db,
        crate::sqlf!(
                "SELECT t.id AS task_id, t.name, t.platform, t.created_at, COUNT(i.id) AS planned, \
                 CAST(COALESCE(SUM(CASE WHEN i.published_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS BIGINT) AS published, \
                 CAST(COALESCE(SUM(CASE WHEN i.state = 'failed' AND i.review_state <> 'rejected' THEN 1 ELSE 0 END), 0) AS BIGINT) AS failed, \
                 CAST(COALESCE(SUM(CASE WHEN i.review_state = 'rejected' THEN 1 ELSE 0 END), 0) AS BIGINT) AS rejected, \
                 CAST(COALESCE(SUM(i.plays), 0) AS BIGINT) AS plays \
                 FROM matrix_tasks t LEFT JOIN matrix_items i ON i.task_id = t.id WHERE {filter} \
                 GROUP BY t.id, t.name, t.platform, t.created_at ORDER BY t.created_at DESC, t.id DESC LIMIT $5 OFFSET $6"
            ),
            crate::sqlf!("SELECT COUNT(*) FROM matrix_tasks t WHERE {filter}"),
            (merchant_id, platform, from, to),
            (offset, limit),
        )
        .await
}

/// Why a task's items failed: (task, reason code, its arguments, older zh / en texts, how many).
pub async fn failure_reasons(
    db: &Db,
    merchant_id: Option<i64>,
    task_ids: &[i64],
) -> sqlx::Result<Vec<(i64, String, String, String, String, i64)>> {
    if task_ids.is_empty() {
        return Ok(vec![]);
    }
    let list = id_list(task_ids);
    sqlx::query_as(crate::sqlf!(
            "SELECT task_id, error_code, error_args, error_zh, error_en, COUNT(*) FROM matrix_items \
             WHERE {} AND task_id IN ({list}) AND state = 'failed' \
             GROUP BY task_id, error_code, error_args, error_zh, error_en ORDER BY task_id, COUNT(*) DESC",
            scope("merchant_id", merchant_id),
        ))
        .bind(merchant_id.unwrap_or(0))
        .fetch_all(&db.pool)
        .await
}

/// One person's activity from the operation log over a span.
#[derive(Debug, Clone, FromRow)]
pub struct StaffActivity {
    pub user_id: i64,
    pub username: String,
    pub actions: i64,
    pub refused: i64,
    pub tasks: i64,
    pub renders: i64,
    pub last_at: i64,
}

/// Who of the merchant did how much in `[from, to)`: operations, refusals and render batches started
/// (the operation log's paths), busiest first; release tasks are the tasks each one created
/// (`matrix_tasks.user_id`: every create call, previews not).
pub async fn staff_activity(
    db: &Db,
    merchant_id: Option<i64>,
    (from, to): (i64, i64),
) -> sqlx::Result<Vec<StaffActivity>> {
    sqlx::query_as(crate::sqlf!(
            "SELECT COALESCE(user_id, 0) AS user_id, username, COUNT(*) AS actions, \
             CAST(COALESCE(SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END), 0) AS BIGINT) AS refused, \
             CAST(0 AS BIGINT) AS tasks, \
             CAST(COALESCE(SUM(CASE WHEN path LIKE '/clip.%/add_video' AND status < 400 THEN 1 ELSE 0 END), 0) AS BIGINT) AS renders, \
             MAX(created_at) AS last_at \
             FROM op_logs WHERE {} AND created_at >= $2 AND created_at < $3 AND COALESCE(user_id, 0) <> 0 \
             GROUP BY COALESCE(user_id, 0), username ORDER BY actions DESC, username",
            scope("merchant_id", merchant_id),
        ))
        .bind(merchant_id.unwrap_or(0))
        .bind(from)
        .bind(to)
        .fetch_all(&db.pool)
        .await
}

/// Release tasks created in `[from, to)` by user.
pub async fn tasks_by_user(
    db: &Db,
    merchant_id: Option<i64>,
    (from, to): (i64, i64),
) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT user_id, COUNT(*) FROM matrix_tasks WHERE {} AND created_at >= $2 AND created_at < $3 \
         AND user_id <> 0 GROUP BY user_id",
        scope("merchant_id", merchant_id),
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(from)
    .bind(to)
    .fetch_all(&db.pool)
    .await
}

/// Today's publishing of the data screen, in one read of the items: (due in `[from, to)`, of those
/// published, of those failed, posts published in `[from, to)` whatever day they were due — the
/// rollup's `posts` of the day, so the counter and the week's last day say the same — and of those
/// the ones due on another day, which is why the counter can exceed the plan's "published").
pub async fn progress(
    db: &Db,
    merchant_id: Option<i64>,
    (from, to): (i64, i64),
) -> sqlx::Result<(i64, i64, i64, i64, i64)> {
    let due = "scheduled_at >= $2 AND scheduled_at < $3 AND review_state <> 'rejected'";
    let posted = "published_at >= $2 AND published_at < $3";
    let count = |cond: &str| {
        format!("CAST(COALESCE(SUM(CASE WHEN {cond} THEN 1 ELSE 0 END), 0) AS BIGINT)")
    };
    sqlx::query_as(crate::sqlf!(
        "SELECT {}, {}, {}, {}, {} FROM matrix_items WHERE {} AND (({due}) OR ({posted}))",
        count(due),
        count(&format!("{due} AND published_at IS NOT NULL")),
        count(&format!("{due} AND state = 'failed'")),
        count(posted),
        count(&format!("{posted} AND NOT ({due})")),
        scope("merchant_id", merchant_id),
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(from)
    .bind(to)
    .fetch_one(&db.pool)
    .await
}

/// Accounts and plays by the accounts' province over `first..=last` (the data screen's map).
pub async fn by_region(
    db: &Db,
    merchant_id: Option<i64>,
    first: i64,
    last: i64,
) -> sqlx::Result<Vec<(String, i64, i64)>> {
    sqlx::query_as(crate::sqlf!(
            "SELECT a.province, COUNT(DISTINCT a.id), CAST(COALESCE(SUM(r.plays), 0) AS BIGINT) \
             FROM matrix_accounts a LEFT JOIN report_daily r ON r.account_id = a.id AND r.day >= $2 AND r.day <= $3 \
             WHERE {} AND a.province <> '' GROUP BY a.province ORDER BY 3 DESC, a.province",
            scope("a.merchant_id", merchant_id),
        ))
        .bind(merchant_id.unwrap_or(0))
        .bind(first)
        .bind(last)
        .fetch_all(&db.pool)
        .await
}

/// NFC posts (customers' H5 shares) per China day, which the dashboard counts as publishing too.
pub async fn nfc_posts(
    db: &Db,
    merchant_id: Option<i64>,
    first: i64,
    last: i64,
) -> sqlx::Result<Vec<(i64, i64)>> {
    let tz = domain::matrix::TZ_OFFSET_MS;
    sqlx::query_as(crate::sqlf!(
        "SELECT (posted_at + $2) / {DAY} AS day, COUNT(*) FROM nfc_taps \
             WHERE {} AND state = 'posted' AND posted_at >= $3 AND posted_at < $4 GROUP BY 1",
        scope("merchant_id", merchant_id),
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(tz)
    .bind(first * DAY - tz)
    .bind((last + 1) * DAY - tz)
    .fetch_all(&db.pool)
    .await
}

/// The account an item belongs to (0 if the item is gone).
pub async fn account_of_item(db: &Db, item_id: i64) -> sqlx::Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT account_id FROM matrix_items WHERE id = $1")
            .bind(item_id)
            .fetch_optional(&db.pool)
            .await?
            .unwrap_or(0),
    )
}
