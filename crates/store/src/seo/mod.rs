//! SEO (`seo_*` tables): the merchant's profile and lexicons, title categories and their keywords
//! (merchant 0 = built in), the saved title library, collected search words, and benchmark accounts
//! with their public works and daily figures.
//!
//! `owner` is the merchant whose rows a write touches: an Administrator writes the built-in rows
//! (owner 0), a merchant its own. Reads of categories and keywords see the built-in rows too.

use crate::Db;
use crate::list::{Bind, Entity, FieldType, ListQuery, PageError, Total, field, page_of};

// ---- profile ----

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct ProfileRow {
    pub brand: String,
    pub product: String,
    pub region: String,
    pub description: String,
    pub category_id: i64,
    pub updated_at: i64,
}

pub async fn profile(db: &Db, mid: i64) -> sqlx::Result<ProfileRow> {
    Ok(sqlx::query_as(
        "SELECT brand, product, region, description, category_id, updated_at FROM seo_profiles WHERE merchant_id = $1",
    )
    .bind(mid)
    .fetch_optional(&db.pool)
    .await?
    .unwrap_or_default())
}

pub async fn save_profile(db: &Db, mid: i64, p: &ProfileRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO seo_profiles (merchant_id, brand, product, region, description, category_id, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (merchant_id) DO UPDATE SET brand = excluded.brand, \
         product = excluded.product, region = excluded.region, description = excluded.description, \
         category_id = excluded.category_id, updated_at = excluded.updated_at",
    )
    .bind(mid)
    .bind(&p.brand)
    .bind(&p.product)
    .bind(&p.region)
    .bind(&p.description)
    .bind(p.category_id)
    .bind(p.updated_at)
    .execute(&db.pool)
    .await?;
    Ok(())
}

// ---- categories and their keywords ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CategoryRow {
    pub id: i64,
    pub merchant_id: i64,
    pub name: String,
    pub name_en: String,
    pub keywords: i64,
    pub created_at: i64,
}

const CAT_COLS: &str = "c.id, c.merchant_id, c.name, c.name_en, \
    (SELECT COUNT(*) FROM seo_keywords k WHERE k.category_id = c.id AND k.merchant_id IN (0, $1)) AS keywords, c.created_at";

/// Built-in and own categories, built-in first (SPEC §9: the list is read whole).
pub async fn categories(db: &Db, owner: i64) -> sqlx::Result<Vec<CategoryRow>> {
    sqlx::query_as(sqlf!(
        "SELECT {CAT_COLS} FROM seo_categories c WHERE c.merchant_id IN (0, $1) ORDER BY c.merchant_id, c.id LIMIT 99999"
    ))
    .bind(owner)
    .fetch_all(&db.pool)
    .await
}

/// A category the caller can see (built in or its own).
pub async fn category(db: &Db, owner: i64, id: i64) -> sqlx::Result<Option<CategoryRow>> {
    sqlx::query_as(sqlf!(
        "SELECT {CAT_COLS} FROM seo_categories c WHERE c.id = $2 AND c.merchant_id IN (0, $1)"
    ))
    .bind(owner)
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn add_category(db: &Db, owner: i64, name: &str, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO seo_categories (merchant_id, name, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(owner)
    .bind(name)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

/// Renames one of `owner`'s own categories; false when it is not theirs.
pub async fn rename_category(db: &Db, owner: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE seo_categories SET name = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(name)
        .bind(id)
        .bind(owner)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeywordRow {
    pub id: i64,
    pub merchant_id: i64,
    pub category_id: i64,
    pub category_name: String,
    pub word: String,
    pub created_at: i64,
}

pub static KEYWORD_LIST: Entity = Entity {
    fields: &[
        field("word", "k.word", FieldType::Text),
        field("category_id", "k.category_id", FieldType::Int),
        field("created_at", "k.created_at", FieldType::Date),
    ],
    default_order: "k.id DESC",
    tiebreak: "k.id",
};

const KW_SELECT: &str = "SELECT k.id, k.merchant_id, k.category_id, \
    COALESCE((SELECT c.name FROM seo_categories c WHERE c.id = k.category_id), '') AS category_name, \
    k.word, k.created_at FROM seo_keywords k";

pub async fn keywords(
    db: &Db,
    owner: i64,
    q: &ListQuery,
) -> Result<(Vec<KeywordRow>, Total), PageError> {
    page_of(
        db,
        KW_SELECT,
        "k.merchant_id IN (0, $1)",
        owner,
        &KEYWORD_LIST,
        q,
    )
    .await
}

pub async fn keyword(db: &Db, owner: i64, id: i64) -> sqlx::Result<Option<KeywordRow>> {
    sqlx::query_as(sqlf!(
        "{KW_SELECT} WHERE k.id = $1 AND k.merchant_id IN (0, $2)"
    ))
    .bind(id)
    .bind(owner)
    .fetch_optional(&db.pool)
    .await
}

/// The words of a category the caller can see (built-in and own words).
pub async fn category_words(db: &Db, owner: i64, category_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT word FROM seo_keywords WHERE category_id = $1 AND merchant_id IN (0, $2) ORDER BY id",
    )
    .bind(category_id)
    .bind(owner)
    .fetch_all(&db.pool)
    .await
}

/// Adds words to a category, skipping those already there; (added, skipped).
pub async fn add_keywords(
    db: &Db,
    owner: i64,
    category_id: i64,
    words: &[String],
    now: i64,
) -> sqlx::Result<(usize, usize)> {
    insert_words(
        db,
        "INSERT INTO seo_keywords (merchant_id, category_id, word, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
        owner,
        Bind::I(category_id),
        words,
        now,
    )
    .await
}

/// One transaction of `INSERT … ON CONFLICT DO NOTHING` per word: ($1 owner, $2 group, $3 word, $4 now).
async fn insert_words(
    db: &Db,
    sql: &'static str,
    owner: i64,
    group: Bind,
    words: &[String],
    now: i64,
) -> sqlx::Result<(usize, usize)> {
    let mut tx = db.begin().await?;
    let mut added = 0;
    for w in words {
        let q = sqlx::query(sql).bind(owner);
        let q = match &group {
            Bind::I(i) => q.bind(*i),
            Bind::S(s) => q.bind(s.clone()),
        };
        added += q.bind(w).bind(now).execute(&mut *tx).await?.rows_affected() as usize;
    }
    tx.commit().await?;
    Ok((added, words.len() - added))
}

pub async fn edit_keyword(db: &Db, owner: i64, id: i64, word: &str) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE seo_keywords SET word = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(word)
        .bind(id)
        .bind(owner)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

pub async fn delete_keywords(db: &Db, owner: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "seo_keywords", owner, ids).await
}

// ---- the title library ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TitleRow {
    pub id: i64,
    pub title: String,
    pub category_id: i64,
    pub category_name: String,
    pub created_at: i64,
}

pub static TITLE_LIST: Entity = Entity {
    fields: &[
        field("title", "t.title", FieldType::Text),
        field("category_id", "t.category_id", FieldType::Int),
        field("created_at", "t.created_at", FieldType::Date),
    ],
    default_order: "t.id DESC",
    tiebreak: "t.id",
};

const TITLE_SELECT: &str = "SELECT t.id, t.title, t.category_id, \
    COALESCE((SELECT c.name FROM seo_categories c WHERE c.id = t.category_id), '') AS category_name, \
    t.created_at FROM seo_titles t";

pub async fn titles(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<TitleRow>, Total), PageError> {
    page_of(db, TITLE_SELECT, "t.merchant_id = $1", mid, &TITLE_LIST, q).await
}

pub async fn title(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<TitleRow>> {
    sqlx::query_as(sqlf!(
        "{TITLE_SELECT} WHERE t.id = $1 AND t.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

pub async fn add_titles(
    db: &Db,
    mid: i64,
    category_id: i64,
    titles: &[String],
    now: i64,
) -> sqlx::Result<(usize, usize)> {
    insert_words(
        db,
        "INSERT INTO seo_titles (merchant_id, category_id, title, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
        mid,
        Bind::I(category_id),
        titles,
        now,
    )
    .await
}

pub async fn edit_title(
    db: &Db,
    mid: i64,
    id: i64,
    title: &str,
    category_id: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE seo_titles SET title = $1, category_id = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(title)
    .bind(category_id)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn delete_titles(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "seo_titles", mid, ids).await
}

// ---- lexicons ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LexRow {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub kind: domain::seo::LexKind,
    pub word: String,
    pub created_at: i64,
}

pub static LEX_LIST: Entity = Entity {
    fields: &[
        field("word", "l.word", FieldType::Text),
        field("kind", "l.kind", FieldType::Text),
        field("created_at", "l.created_at", FieldType::Date),
    ],
    default_order: "l.id DESC",
    tiebreak: "l.id",
};

pub async fn lexicon(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<LexRow>, Total), PageError> {
    page_of(
        db,
        "SELECT l.id, l.kind, l.word, l.created_at FROM seo_lexicon l",
        "l.merchant_id = $1",
        mid,
        &LEX_LIST,
        q,
    )
    .await
}

/// Every word of the merchant's lexicons as (kind, word).
pub async fn lexicon_words(db: &Db, mid: i64) -> sqlx::Result<Vec<(String, String)>> {
    sqlx::query_as("SELECT kind, word FROM seo_lexicon WHERE merchant_id = $1 ORDER BY id")
        .bind(mid)
        .fetch_all(&db.pool)
        .await
}

pub async fn add_lexicon(
    db: &Db,
    mid: i64,
    kind: &str,
    words: &[String],
    now: i64,
) -> sqlx::Result<(usize, usize)> {
    insert_words(
        db,
        "INSERT INTO seo_lexicon (merchant_id, kind, word, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
        mid,
        Bind::S(kind.to_string()),
        words,
        now,
    )
    .await
}

pub async fn delete_lexicon(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "seo_lexicon", mid, ids).await
}

// ---- collected search words ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CollectedRow {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::SearchPlatform,
    pub word: String,
    pub heat: i64,
    pub created_at: i64,
}

pub static COLLECTED_LIST: Entity = Entity {
    fields: &[
        field("word", "w.word", FieldType::Text),
        field("platform", "w.platform", FieldType::Text),
        field("heat", "w.heat", FieldType::Int),
        field("created_at", "w.created_at", FieldType::Date),
    ],
    default_order: "w.id DESC",
    tiebreak: "w.id",
};

const COLLECTED_SELECT: &str =
    "SELECT w.id, w.platform, w.word, w.heat, w.created_at FROM seo_collected w";

pub async fn collected(
    db: &Db,
    mid: i64,
    q: &ListQuery,
) -> Result<(Vec<CollectedRow>, Total), PageError> {
    page_of(
        db,
        COLLECTED_SELECT,
        "w.merchant_id = $1",
        mid,
        &COLLECTED_LIST,
        q,
    )
    .await
}

/// The words the merchant collected on a platform.
pub async fn collected_words(db: &Db, mid: i64, platform: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT word FROM seo_collected WHERE merchant_id = $1 AND platform = $2")
        .bind(mid)
        .bind(platform)
        .fetch_all(&db.pool)
        .await
}

/// Collects a word (again: its heat is refreshed, the row stays one).
pub async fn collect(
    db: &Db,
    mid: i64,
    platform: &str,
    word: &str,
    heat: i64,
    now: i64,
) -> sqlx::Result<CollectedRow> {
    sqlx::query(
        "INSERT INTO seo_collected (merchant_id, platform, word, heat, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (merchant_id, platform, word) DO UPDATE SET heat = excluded.heat",
    )
    .bind(mid)
    .bind(platform)
    .bind(word)
    .bind(heat)
    .bind(now)
    .execute(&db.pool)
    .await?;
    sqlx::query_as(sqlf!(
        "{COLLECTED_SELECT} WHERE w.merchant_id = $1 AND w.platform = $2 AND w.word = $3"
    ))
    .bind(mid)
    .bind(platform)
    .bind(word)
    .fetch_one(&db.pool)
    .await
}

pub async fn delete_collected(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "seo_collected", mid, ids).await
}

/// The titles of the merchant's posted videos (newest first, at most `max`): what "covered" counts in.
pub async fn posted_titles(db: &Db, mid: i64, max: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT title FROM matrix_items WHERE merchant_id = $1 AND item_id <> '' ORDER BY id DESC LIMIT $2",
    )
    .bind(mid)
    .bind(max)
    .fetch_all(&db.pool)
    .await
}

/// The merchant's own keywords (of its own categories), newest first.
pub async fn own_keywords(db: &Db, mid: i64, max: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT word FROM seo_keywords WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(mid)
    .bind(max)
    .fetch_all(&db.pool)
    .await
}

/// What the merchant's recent work says, newest first: one-touch topics, quick-mix project names and
/// release titles (at most `max` of each).
pub async fn recent_texts(db: &Db, mid: i64, max: i64) -> sqlx::Result<Vec<String>> {
    let mut out = vec![];
    for sql in [
        "SELECT topic FROM ai_clips WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
        "SELECT name FROM clip_projects WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
        "SELECT title FROM matrix_items WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
    ] {
        let rows: Vec<String> = sqlx::query_scalar(sql)
            .bind(mid)
            .bind(max)
            .fetch_all(&db.pool)
            .await?;
        out.extend(rows.into_iter().filter(|t| !t.trim().is_empty()));
    }
    Ok(out)
}

// ---- benchmark accounts ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BenchmarkRow {
    pub id: i64,
    pub merchant_id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::DyOnly,
    pub account_id: String,
    pub nickname: String,
    pub avatar: String,
    pub share_url: String,
    pub followers: i64,
    pub likes: i64,
    pub works: i64,
    pub last_sync_at: i64,
    pub last_error: String,
    pub created_at: i64,
    /// Where the figures were last read from (`domain::seo::DataSource`); '' before it was kept.
    pub source: String,
}

pub static BENCHMARK_LIST: Entity = Entity {
    fields: &[
        field("nickname", "b.nickname", FieldType::Text),
        field("platform", "b.platform", FieldType::Text),
        field("followers", "b.followers", FieldType::Int),
        field("created_at", "b.created_at", FieldType::Date),
    ],
    default_order: "b.id DESC",
    tiebreak: "b.id",
};

const BENCH_SELECT: &str = "SELECT b.id, b.merchant_id, b.platform, b.account_id, b.nickname, b.avatar, \
    b.share_url, b.followers, b.likes, b.works, b.last_sync_at, b.last_error, b.created_at, b.source FROM seo_benchmarks b";

pub async fn benchmarks(
    db: &Db,
    mid: i64,
    q: &ListQuery,
) -> Result<(Vec<BenchmarkRow>, Total), PageError> {
    page_of(
        db,
        BENCH_SELECT,
        "b.merchant_id = $1",
        mid,
        &BENCHMARK_LIST,
        q,
    )
    .await
}

pub async fn benchmark(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<BenchmarkRow>> {
    sqlx::query_as(sqlf!(
        "{BENCH_SELECT} WHERE b.id = $1 AND b.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// Every benchmark whose last sync is older than `before` (the scheduled sync), oldest first.
pub async fn benchmarks_due(db: &Db, before: i64, max: i64) -> sqlx::Result<Vec<BenchmarkRow>> {
    sqlx::query_as(sqlf!(
        "{BENCH_SELECT} WHERE b.last_sync_at < $1 ORDER BY b.last_sync_at, b.id LIMIT $2"
    ))
    .bind(before)
    .bind(max)
    .fetch_all(&db.pool)
    .await
}

/// Adds an account to watch; an account already watched gives its row back.
pub async fn add_benchmark(
    db: &Db,
    mid: i64,
    platform: &str,
    account_id: &str,
    now: i64,
) -> sqlx::Result<i64> {
    sqlx::query(
        "INSERT INTO seo_benchmarks (merchant_id, platform, account_id, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(mid)
    .bind(platform)
    .bind(account_id)
    .bind(now)
    .execute(&db.pool)
    .await?;
    sqlx::query_scalar(
        "SELECT id FROM seo_benchmarks WHERE merchant_id = $1 AND platform = $2 AND account_id = $3",
    )
    .bind(mid)
    .bind(platform)
    .bind(account_id)
    .fetch_one(&db.pool)
    .await
}

pub async fn delete_benchmark(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query("DELETE FROM seo_benchmarks WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if n == 1 {
        for t in ["seo_benchmark_works", "seo_benchmark_days"] {
            sqlx::query(sqlf!("DELETE FROM {t} WHERE benchmark_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(n == 1)
}

/// A public work of a benchmark account as last read.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkRow {
    pub work_id: String,
    pub title: String,
    pub create_time: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

/// What one sync read: the profile, the works and the day it is counted on.
pub struct Synced<'a> {
    pub nickname: &'a str,
    pub avatar: &'a str,
    pub share_url: &'a str,
    pub followers: i64,
    pub likes: i64,
    pub works: &'a [WorkRow],
    pub day: &'a str,
    pub now: i64,
    /// `domain::seo::DataSource` of what was read.
    pub source: &'a str,
}

/// Stores one sync in one transaction: the account's figures, its works (upserted) and the day's row.
pub async fn save_sync(db: &Db, id: i64, s: &Synced<'_>) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    for w in s.works {
        sqlx::query(
            "INSERT INTO seo_benchmark_works (benchmark_id, work_id, title, create_time, plays, likes, comments, shares) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (benchmark_id, work_id) DO UPDATE SET \
             title = excluded.title, plays = excluded.plays, likes = excluded.likes, comments = excluded.comments, \
             shares = excluded.shares",
        )
        .bind(id)
        .bind(&w.work_id)
        .bind(&w.title)
        .bind(w.create_time)
        .bind(w.plays)
        .bind(w.likes)
        .bind(w.comments)
        .bind(w.shares)
        .execute(&mut *tx)
        .await?;
    }
    let works: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM seo_benchmark_works WHERE benchmark_id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
    let plays: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(plays), 0) AS BIGINT) FROM seo_benchmark_works WHERE benchmark_id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE seo_benchmarks SET nickname = $1, avatar = $2, share_url = $3, followers = $4, likes = $5, \
         works = $6, last_sync_at = $7, last_error = '', source = $9 WHERE id = $8",
    )
    .bind(s.nickname)
    .bind(s.avatar)
    .bind(s.share_url)
    .bind(s.followers)
    .bind(s.likes)
    .bind(works)
    .bind(s.now)
    .bind(id)
    .bind(s.source)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO seo_benchmark_days (benchmark_id, day, followers, works, plays, likes) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (benchmark_id, day) DO UPDATE SET followers = excluded.followers, works = excluded.works, \
         plays = excluded.plays, likes = excluded.likes",
    )
    .bind(id)
    .bind(s.day)
    .bind(s.followers)
    .bind(works)
    .bind(plays)
    .bind(s.likes)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// A failed sync keeps its reason and counts as a try (so the schedule moves on).
pub async fn sync_failed(db: &Db, id: i64, reason: &str, now: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE seo_benchmarks SET last_error = $1, last_sync_at = $2 WHERE id = $3")
        .bind(reason)
        .bind(now)
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

pub async fn benchmark_works(db: &Db, id: i64) -> sqlx::Result<Vec<WorkRow>> {
    sqlx::query_as(
        "SELECT work_id, title, create_time, plays, likes, comments, shares FROM seo_benchmark_works \
         WHERE benchmark_id = $1 ORDER BY create_time DESC",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DayRow {
    pub day: String,
    pub followers: i64,
    pub works: i64,
    pub plays: i64,
    pub likes: i64,
}

pub async fn benchmark_days(db: &Db, id: i64) -> sqlx::Result<Vec<DayRow>> {
    sqlx::query_as(
        "SELECT day, followers, works, plays, likes FROM seo_benchmark_days WHERE benchmark_id = $1 ORDER BY day",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
}

/// A benchmark by id, whoever's (the scheduled job).
pub async fn benchmark_any(db: &Db, id: i64) -> sqlx::Result<Option<BenchmarkRow>> {
    sqlx::query_as(sqlf!("{BENCH_SELECT} WHERE b.id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// Works of a benchmark posted at or after `since`, and their plays.
pub async fn posts_since(db: &Db, id: i64, since: i64) -> sqlx::Result<(i64, i64)> {
    sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(plays), 0) AS BIGINT) FROM seo_benchmark_works \
         WHERE benchmark_id = $1 AND create_time >= $2",
    )
    .bind(id)
    .bind(since)
    .fetch_one(&db.pool)
    .await
}
