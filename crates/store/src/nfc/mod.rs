//! NFC tap-to-post tags, their titles, the videos their taps handed out, and their daily figures
//! (`nfc_tags`, `nfc_titles`, `nfc_taps`, `nfc_tag_days`).
//!
//! A merchant's video goes to one tap, ever: `nfc_taps` is unique on (merchant, video key), so two
//! taps at the same instant cannot take the same video, and no phone gets a video twice.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::activities::PoolKind;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagRow {
    pub id: i64,
    pub merchant_id: i64,
    pub code: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::DyOnly,
    #[sqlx(try_from = "String")]
    pub pool_kind: PoolKind,
    pub pool_id: i64,
    pub activity_id: i64,
    pub activity_name: String,
    pub topics: String,
    pub enabled: i64,
    pub deleted_at: i64,
    pub titles: i64,
    pub taps: i64,
    pub posts: i64,
    pub handed: i64,
    pub created_at: i64,
}

const TAG_COLS: &str = "g.id, g.merchant_id, g.code, g.name, g.platform, g.pool_kind, g.pool_id, g.activity_id, \
    COALESCE((SELECT a.name FROM activities a WHERE a.id = g.activity_id AND a.merchant_id = g.merchant_id), '') AS activity_name, \
    g.topics, g.enabled, g.deleted_at, \
    (SELECT COUNT(*) FROM nfc_titles t WHERE t.tag_id = g.id) AS titles, \
    CAST(COALESCE((SELECT SUM(d.taps) FROM nfc_tag_days d WHERE d.tag_id = g.id), 0) AS BIGINT) AS taps, \
    (SELECT COUNT(*) FROM nfc_taps t WHERE t.tag_id = g.id AND t.state = 'posted') AS posts, \
    (SELECT COUNT(*) FROM nfc_taps t WHERE t.tag_id = g.id) AS handed, \
    g.created_at";

pub static TAG_LIST: Entity = Entity {
    fields: &[
        field("name", "g.name", FieldType::Text),
        field("created_at", "g.created_at", FieldType::Date),
    ],
    default_order: "g.id DESC",
    tiebreak: "g.id",
};

pub async fn tags(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<TagRow>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {TAG_COLS} FROM nfc_tags g"),
        "FROM nfc_tags g",
        "g.merchant_id = $1 AND g.deleted_at = 0",
        &[Bind::I(mid)],
        &TAG_LIST,
        q,
    )
    .await
}

pub async fn tag(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<TagRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TAG_COLS} FROM nfc_tags g WHERE g.id = $1 AND g.merchant_id = $2 AND g.deleted_at = 0"
    )))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// A tag in use, by its public code (the tap page).
pub async fn tag_by_code(db: &Db, code: &str) -> sqlx::Result<Option<TagRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TAG_COLS} FROM nfc_tags g WHERE g.code = $1 AND g.deleted_at = 0 AND g.enabled = 1"
    )))
    .bind(code)
    .fetch_optional(&db.pool)
    .await
}

/// What a tag is made of, checked.
#[derive(Debug, Clone)]
pub struct TagSpec<'a> {
    pub name: &'a str,
    pub platform: domain::platform::DyOnly,
    pub pool_kind: PoolKind,
    pub pool_id: i64,
    pub activity_id: i64,
    pub topics: &'a [String],
    pub enabled: bool,
}

pub async fn add_tag(
    db: &Db,
    mid: i64,
    code: &str,
    t: &TagSpec<'_>,
    now: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO nfc_tags (merchant_id, code, name, platform, pool_kind, pool_id, activity_id, topics, enabled, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
    )
    .bind(mid)
    .bind(code)
    .bind(t.name)
    .bind(t.platform.as_str())
    .bind(t.pool_kind.as_str())
    .bind(t.pool_id)
    .bind(t.activity_id)
    .bind(serde_json::to_string(t.topics).unwrap_or_else(|_| "[]".into()))
    .bind(t.enabled as i64)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_tag(db: &Db, mid: i64, id: i64, t: &TagSpec<'_>, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE nfc_tags SET name = $1, platform = $2, pool_kind = $3, pool_id = $4, activity_id = $5, topics = $6, \
         enabled = $7, updated_at = $8 WHERE id = $9 AND merchant_id = $10 AND deleted_at = 0",
    )
    .bind(t.name)
    .bind(t.platform.as_str())
    .bind(t.pool_kind.as_str())
    .bind(t.pool_id)
    .bind(t.activity_id)
    .bind(serde_json::to_string(t.topics).unwrap_or_else(|_| "[]".into()))
    .bind(t.enabled as i64)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn delete_tag(db: &Db, mid: i64, id: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE nfc_tags SET deleted_at = $1 WHERE id = $2 AND merchant_id = $3 AND deleted_at = 0",
    )
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

// ---- titles ----

#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct TitleRow {
    pub id: i64,
    pub tag_id: i64,
    pub title: String,
    pub created_at: i64,
}

pub static TITLE_LIST: Entity = Entity {
    fields: &[
        field("title", "t.title", FieldType::Text),
        field("created_at", "t.created_at", FieldType::Date),
    ],
    default_order: "t.id DESC",
    tiebreak: "t.id",
};

pub async fn titles(
    db: &Db,
    mid: i64,
    tag_id: i64,
    q: &ListQuery,
) -> Result<(Vec<TitleRow>, Total), PageError> {
    list::page(
        db,
        "SELECT t.id, t.tag_id, t.title, t.created_at FROM nfc_titles t",
        "FROM nfc_titles t",
        "t.merchant_id = $1 AND t.tag_id = $2",
        &[Bind::I(mid), Bind::I(tag_id)],
        &TITLE_LIST,
        q,
    )
    .await
}

pub async fn add_titles(
    db: &Db,
    mid: i64,
    tag_id: i64,
    titles: &[String],
    now: i64,
) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    for t in titles {
        sqlx::query(
            "INSERT INTO nfc_titles (merchant_id, tag_id, title, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(mid)
        .bind(tag_id)
        .bind(t)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

pub async fn edit_title(db: &Db, mid: i64, id: i64, title: &str) -> sqlx::Result<Option<TitleRow>> {
    sqlx::query("UPDATE nfc_titles SET title = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(title)
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?;
    sqlx::query_as(
        "SELECT id, tag_id, title, created_at FROM nfc_titles WHERE id = $1 AND merchant_id = $2",
    )
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// All or none (see `db::delete_owned`).
pub async fn delete_titles(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "nfc_titles", mid, ids).await
}

/// One of a tag's titles, chosen by `pick` among them (None when it has none).
pub async fn some_title(db: &Db, tag_id: i64, pick: u64) -> sqlx::Result<Option<String>> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nfc_titles WHERE tag_id = $1")
        .bind(tag_id)
        .fetch_one(&db.pool)
        .await?;
    if n == 0 {
        return Ok(None);
    }
    sqlx::query_scalar(
        "SELECT title FROM nfc_titles WHERE tag_id = $1 ORDER BY id LIMIT 1 OFFSET $2",
    )
    .bind(tag_id)
    .bind((pick % n as u64) as i64)
    .fetch_optional(&db.pool)
    .await
}

// ---- pools ----

/// The SQL of a pool's video keys (`v:<variant>` or `m:<material>`) with `$1` = merchant, `$2` = pool.
fn pool_keys(kind: PoolKind) -> &'static str {
    match kind {
        PoolKind::Project => {
            "SELECT 'v:' || CAST(v.id AS TEXT) AS k, v.id AS n FROM clip_variants v \
             WHERE v.merchant_id = $1 AND v.project_id = $2 AND v.state = 'success' AND v.video_key <> ''"
        }
        PoolKind::Group => {
            "SELECT 'm:' || CAST(m.id AS TEXT) AS k, m.id AS n FROM media_files m \
             WHERE m.merchant_id = $1 AND m.group_id = $2 AND m.library = 'resource' AND m.kind = 'video' \
             AND m.state = 'ready'"
        }
    }
}

/// (videos in the pool, videos not handed out yet).
pub async fn pool_size(db: &Db, mid: i64, kind: PoolKind, pool: i64) -> sqlx::Result<(i64, i64)> {
    let sql = format!(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM nfc_taps t WHERE t.merchant_id = $1 \
         AND t.video_key = p.k) THEN 1 ELSE 0 END), 0) AS BIGINT) FROM ({}) p",
        pool_keys(kind)
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(mid)
        .bind(pool)
        .fetch_one(&db.pool)
        .await
}

/// The pools a tag can take: projects with finished videos and video-library groups, with their
/// sizes: (id, name, videos, left).
pub async fn pools(
    db: &Db,
    mid: i64,
) -> sqlx::Result<(Vec<(i64, String, i64, i64)>, Vec<(i64, String, i64, i64)>)> {
    let projects: Vec<(i64, String)> = sqlx::query_as(
        "SELECT p.id, p.name FROM clip_projects p WHERE p.merchant_id = $1 AND EXISTS \
         (SELECT 1 FROM clip_variants v WHERE v.project_id = p.id AND v.state = 'success') ORDER BY p.id DESC LIMIT 500",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await?;
    let groups: Vec<(i64, String)> = sqlx::query_as(
        "SELECT g.id, g.name FROM resource_groups g WHERE g.merchant_id = $1 AND g.kind = 'video' ORDER BY g.id DESC LIMIT 500",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await?;
    let mut out = (vec![], vec![]);
    for (id, name) in projects {
        let (n, left) = pool_size(db, mid, PoolKind::Project, id).await?;
        out.0.push((id, name, n, left));
    }
    for (id, name) in groups {
        let (n, left) = pool_size(db, mid, PoolKind::Group, id).await?;
        out.1.push((id, name, n, left));
    }
    Ok(out)
}

pub async fn pool_name(
    db: &Db,
    mid: i64,
    kind: PoolKind,
    pool: i64,
) -> sqlx::Result<Option<String>> {
    let sql = match kind {
        PoolKind::Project => "SELECT name FROM clip_projects WHERE id = $1 AND merchant_id = $2",
        PoolKind::Group => {
            "SELECT name FROM resource_groups WHERE id = $1 AND merchant_id = $2 AND kind = 'video'"
        }
    };
    sqlx::query_scalar(sql)
        .bind(pool)
        .bind(mid)
        .fetch_optional(&db.pool)
        .await
}

// ---- taps ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TapRow {
    pub id: i64,
    pub tag_id: i64,
    pub device: String,
    pub video_key: String,
    pub title: String,
    pub share_id: String,
    pub schema_url: String,
    #[sqlx(try_from = "String")]
    pub state: domain::activities::TapState,
    pub item_id: String,
    pub draw_id: i64,
    pub created_at: i64,
    pub posted_at: i64,
}

const TAP_COLS: &str = "id, tag_id, device, video_key, title, share_id, schema_url, state, item_id, draw_id, created_at, posted_at";

/// The device's latest tap on this tag (the page shows it again instead of handing out another
/// video while it is not posted).
pub async fn last_tap(db: &Db, tag_id: i64, device: &str) -> sqlx::Result<Option<TapRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TAP_COLS} FROM nfc_taps WHERE tag_id = $1 AND device = $2 ORDER BY id DESC LIMIT 1"
    )))
    .bind(tag_id)
    .bind(device)
    .fetch_optional(&db.pool)
    .await
}

/// Reserves one video of the pool no tap has had: None when the pool is used up. Concurrent taps
/// race on the unique (merchant, video) key; a loser tries the next video.
pub async fn reserve_video(
    db: &Db,
    tag: &TagRow,
    kind: PoolKind,
    device: &str,
    title: &str,
    now: i64,
) -> sqlx::Result<Option<TapRow>> {
    let sql = format!(
        "SELECT p.k FROM ({}) p WHERE NOT EXISTS (SELECT 1 FROM nfc_taps t WHERE t.merchant_id = $1 AND t.video_key = p.k) \
         ORDER BY p.n LIMIT 8",
        pool_keys(kind)
    );
    for _ in 0..20 {
        let keys: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.clone()))
            .bind(tag.merchant_id)
            .bind(tag.pool_id)
            .fetch_all(&db.pool)
            .await?;
        if keys.is_empty() {
            return Ok(None);
        }
        for k in keys {
            let id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO nfc_taps (merchant_id, tag_id, device, video_key, title, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id",
            )
            .bind(tag.merchant_id)
            .bind(tag.id)
            .bind(device)
            .bind(&k)
            .bind(title)
            .bind(now)
            .fetch_optional(&db.pool)
            .await?;
            if let Some(id) = id {
                return tap(db, id).await;
            }
        }
    }
    Ok(None)
}

pub async fn tap(db: &Db, id: i64) -> sqlx::Result<Option<TapRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TAP_COLS} FROM nfc_taps WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// The share link made for a reserved video.
pub async fn set_share(db: &Db, tap_id: i64, share_id: &str, schema: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE nfc_taps SET share_id = $1, schema_url = $2 WHERE id = $3")
        .bind(share_id)
        .bind(schema)
        .bind(tap_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Gives a reserved video back (its share link could not be made).
pub async fn release(db: &Db, tap_id: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM nfc_taps WHERE id = $1 AND share_id = ''")
        .bind(tap_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The platform reported the share posted: the tap is posted (once; a second report changes nothing).
pub async fn tap_posted(db: &Db, share_id: &str, item_id: &str, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE nfc_taps SET state = 'posted', item_id = $1, posted_at = $2 WHERE share_id = $3 AND state = 'handed'",
    )
    .bind(item_id)
    .bind(now)
    .bind(share_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Posts of a device on tags of an activity that have not been drawn on yet.
pub async fn undrawn_posts(db: &Db, activity_id: i64, device: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM nfc_taps t JOIN nfc_tags g ON g.id = t.tag_id \
         WHERE g.activity_id = $1 AND t.device = $2 AND t.state = 'posted' AND t.draw_id = 0",
    )
    .bind(activity_id)
    .bind(device)
    .fetch_one(&db.pool)
    .await
}

/// Counts a page view of a tag on a China day (`domain::matrix::day_of`).
pub async fn count_tap(db: &Db, tag_id: i64, day: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO nfc_tag_days (tag_id, day, taps) VALUES ($1, $2, 1) \
         ON CONFLICT (tag_id, day) DO UPDATE SET taps = nfc_tag_days.taps + 1",
    )
    .bind(tag_id)
    .bind(day)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A tag's figures by China day number (days since the epoch in UTC+8) from `from_day` on:
/// (day, taps, shares, posts, draws, redeemed).
pub async fn daily(db: &Db, tag_id: i64, from_day: i64) -> sqlx::Result<Vec<(i64, [i64; 5])>> {
    let since = from_day * domain::activities::DAY_MS - domain::matrix::TZ_OFFSET_MS;
    let mut days: std::collections::BTreeMap<i64, [i64; 5]> = Default::default();
    let taps: Vec<(i64, i64)> =
        sqlx::query_as("SELECT day, taps FROM nfc_tag_days WHERE tag_id = $1 AND day >= $2")
            .bind(tag_id)
            .bind(from_day)
            .fetch_all(&db.pool)
            .await?;
    for (day, n) in taps {
        days.entry(day).or_default()[0] += n;
    }
    let bucket = "(({col}) + 28800000) / 86400000";
    let queries: [(usize, String); 4] = [
        (
            1,
            format!(
                "SELECT {} AS d, COUNT(*) FROM nfc_taps WHERE tag_id = $1 AND created_at >= $2 GROUP BY 1",
                bucket.replace("{col}", "created_at")
            ),
        ),
        (
            2,
            format!(
                "SELECT {} AS d, COUNT(*) FROM nfc_taps WHERE tag_id = $1 AND state = 'posted' AND posted_at >= $2 GROUP BY 1",
                bucket.replace("{col}", "posted_at")
            ),
        ),
        (
            3,
            format!(
                "SELECT {} AS d, COUNT(*) FROM activity_draws WHERE tag_id = $1 AND created_at >= $2 GROUP BY 1",
                bucket.replace("{col}", "created_at")
            ),
        ),
        (
            4,
            format!(
                "SELECT {} AS d, COUNT(*) FROM activity_coupons WHERE tag_id = $1 AND redeemed_at >= $2 AND redeemed_at > 0 GROUP BY 1",
                bucket.replace("{col}", "redeemed_at")
            ),
        ),
    ];
    for (slot, sql) in queries {
        let rows: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(tag_id)
            .bind(since)
            .fetch_all(&db.pool)
            .await?;
        for (d, n) in rows {
            days.entry(d).or_default()[slot] += n;
        }
    }
    Ok(days.into_iter().collect())
}

/// All-time totals of a tag: (taps, shares, posts, draws, coupons, redeemed).
pub async fn totals(db: &Db, tag_id: i64) -> sqlx::Result<[i64; 6]> {
    let taps: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(taps), 0) AS BIGINT) FROM nfc_tag_days WHERE tag_id = $1",
    )
    .bind(tag_id)
    .fetch_one(&db.pool)
    .await?;
    let (shares, posts): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN state = 'posted' THEN 1 ELSE 0 END), 0) AS BIGINT) FROM nfc_taps WHERE tag_id = $1",
    )
    .bind(tag_id)
    .fetch_one(&db.pool)
    .await?;
    let draws: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM activity_draws WHERE tag_id = $1")
        .bind(tag_id)
        .fetch_one(&db.pool)
        .await?;
    let (coupons, redeemed): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN redeemed_at > 0 THEN 1 ELSE 0 END), 0) AS BIGINT) FROM activity_coupons WHERE tag_id = $1",
    )
    .bind(tag_id)
    .fetch_one(&db.pool)
    .await?;
    Ok([taps, shares, posts, draws, coupons, redeemed])
}

/// The China day (`YYYY-MM-DD`) of a unix-ms instant: the per-day limits' key.
pub fn china_day(ms: i64) -> String {
    domain::matrix::fmt_day(domain::matrix::day_of(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_china_days() {
        // 2026-11-24 16:00 UTC is already the 25th in China.
        assert_eq!(china_day(1_795_536_000_000), "2026-11-25");
        assert_eq!(china_day(1_795_535_999_999), "2026-11-24");
    }
}

/// Whether a device id already tapped a tag or drew in an activity (a device cookie of the pages'
/// first version, before the server signed them).
pub async fn device_seen(db: &Db, device: &str) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM nfc_taps WHERE device = $1 LIMIT 1) t) \
              + (SELECT COUNT(*) FROM (SELECT 1 FROM activity_draws WHERE person = $1 LIMIT 1) d)",
    )
    .bind(device)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}
