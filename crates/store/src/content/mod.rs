//! Operator-maintained content (area `content`): the update log (`version_logs`), the courses of the
//! four course pages (`courses`) and the home banners (`banners`). None of it belongs to a merchant:
//! the operator writes it, every signed-in user reads what is published.

pub mod hotlists;

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;

// ---- update log ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct VersionLog {
    pub id: i64,
    pub version: String,
    /// Chinese (the reader's language is picked by the API).
    pub content: String,
    #[serde(skip)]
    pub content_en: String,
    pub created_at: i64,
}

pub static VERSION_LIST: Entity = Entity {
    fields: &[
        field("version", "version", FieldType::Text),
        field("content", "content", FieldType::Text),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "created_at DESC, id DESC",
    tiebreak: "id",
};

pub async fn version_logs(db: &Db, q: &ListQuery) -> Result<(Vec<VersionLog>, Total), PageError> {
    list::page(
        db,
        "SELECT id, version, content, content_en, created_at FROM version_logs",
        "FROM version_logs",
        "1 = 1",
        &[],
        &VERSION_LIST,
        q,
    )
    .await
}

pub async fn version_log(db: &Db, id: i64) -> sqlx::Result<Option<VersionLog>> {
    sqlx::query_as(
        "SELECT id, version, content, content_en, created_at FROM version_logs WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// An entry of the update log as the operator writes it.
#[derive(Debug, Clone)]
pub struct VersionSpec<'a> {
    pub version: &'a str,
    pub content: &'a str,
    pub content_en: &'a str,
}

pub async fn add_version_log(db: &Db, v: &VersionSpec<'_>, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO version_logs (version, content, content_en, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4) RETURNING id",
    )
    .bind(v.version)
    .bind(v.content)
    .bind(v.content_en)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_version_log(
    db: &Db,
    id: i64,
    v: &VersionSpec<'_>,
    now: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE version_logs SET version = $1, content = $2, content_en = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(v.version)
    .bind(v.content)
    .bind(v.content_en)
    .bind(now)
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn delete_version_log(db: &Db, id: i64) -> sqlx::Result<bool> {
    delete(db, "DELETE FROM version_logs WHERE id = $1", id).await
}

async fn delete(db: &Db, sql: &'static str, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(sql)
        .bind(id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// A page of a table with a `published` flag: every row, or the published ones only.
async fn shown_page<T>(
    db: &Db,
    cols: &str,
    table: &str,
    e: &Entity,
    q: &ListQuery,
    published_only: bool,
) -> Result<(Vec<T>, Total), PageError>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    list::page(
        db,
        &format!("SELECT {cols} FROM {table}"),
        &format!("FROM {table}"),
        "published >= $1",
        &[Bind::I(published_only as i64)],
        e,
        q,
    )
    .await
}

// ---- courses ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CourseRow {
    pub id: i64,
    /// account | popular | course | shot (`domain::content::Category`)
    pub category: String,
    pub title: String,
    pub title_en: String,
    pub summary: String,
    pub summary_en: String,
    pub cover: String,
    /// video | rich (`domain::content::Kind`)
    #[sqlx(try_from = "String")]
    pub kind: domain::content::Kind,
    /// The video's address (kind video).
    pub link: String,
    pub body: String,
    pub body_en: String,
    pub published: i64,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const COURSE_COLS: &str = "id, category, title, title_en, summary, summary_en, cover, kind, link, body, body_en, \
    published, sort, created_at, updated_at";

pub static COURSE_LIST: Entity = Entity {
    fields: &[
        field("title", "title", FieldType::Text),
        field("category", "category", FieldType::Select),
        field("kind", "kind", FieldType::Select),
        field("published", "published", FieldType::Switch),
        field("sort", "sort", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "sort, id DESC",
    tiebreak: "id",
};

/// A page of courses; `published_only` for merchants (filters such as `category` come in `q`).
pub async fn courses(
    db: &Db,
    q: &ListQuery,
    published_only: bool,
) -> Result<(Vec<CourseRow>, Total), PageError> {
    shown_page(db, COURSE_COLS, "courses", &COURSE_LIST, q, published_only).await
}

pub async fn course(db: &Db, id: i64) -> sqlx::Result<Option<CourseRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COURSE_COLS} FROM courses WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// A course as the operator writes it, checked.
#[derive(Debug, Clone)]
pub struct CourseSpec<'a> {
    pub category: &'a str,
    pub title: &'a str,
    pub title_en: &'a str,
    pub summary: &'a str,
    pub summary_en: &'a str,
    pub cover: &'a str,
    pub kind: &'a str,
    pub link: &'a str,
    pub body: &'a str,
    pub body_en: &'a str,
    pub published: bool,
    pub sort: i64,
}

pub async fn add_course(db: &Db, c: &CourseSpec<'_>, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO courses (category, title, title_en, summary, summary_en, cover, kind, link, body, body_en, \
         published, sort, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id",
    )
    .bind(c.category)
    .bind(c.title)
    .bind(c.title_en)
    .bind(c.summary)
    .bind(c.summary_en)
    .bind(c.cover)
    .bind(c.kind)
    .bind(c.link)
    .bind(c.body)
    .bind(c.body_en)
    .bind(c.published as i64)
    .bind(c.sort)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_course(db: &Db, id: i64, c: &CourseSpec<'_>, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE courses SET category = $1, title = $2, title_en = $3, summary = $4, summary_en = $5, cover = $6, \
         kind = $7, link = $8, body = $9, body_en = $10, published = $11, sort = $12, updated_at = $13 WHERE id = $14",
    )
    .bind(c.category)
    .bind(c.title)
    .bind(c.title_en)
    .bind(c.summary)
    .bind(c.summary_en)
    .bind(c.cover)
    .bind(c.kind)
    .bind(c.link)
    .bind(c.body)
    .bind(c.body_en)
    .bind(c.published as i64)
    .bind(c.sort)
    .bind(now)
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn delete_course(db: &Db, id: i64) -> sqlx::Result<bool> {
    delete(db, "DELETE FROM courses WHERE id = $1", id).await
}

// ---- banners ----

/// A banner or course card as the home page has always read it (`/index/banner`).
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Link {
    pub id: i64,
    pub title: String,
    pub image: String,
    pub link: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BannerRow {
    pub id: i64,
    pub title: String,
    pub title_en: String,
    pub image: String,
    pub link: String,
    pub published: i64,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const BANNER_COLS: &str =
    "id, title, title_en, image, link, published, sort, created_at, updated_at";

pub static BANNER_LIST: Entity = Entity {
    fields: &[
        field("title", "title", FieldType::Text),
        field("published", "published", FieldType::Switch),
        field("sort", "sort", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "sort, id DESC",
    tiebreak: "id",
};

/// A page of banners; `published_only` for merchants.
pub async fn banners(
    db: &Db,
    q: &ListQuery,
    published_only: bool,
) -> Result<(Vec<BannerRow>, Total), PageError> {
    shown_page(db, BANNER_COLS, "banners", &BANNER_LIST, q, published_only).await
}

pub async fn banner(db: &Db, id: i64) -> sqlx::Result<Option<BannerRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {BANNER_COLS} FROM banners WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// Every published banner, in order (the home page shows them all).
pub async fn published_banners(db: &Db) -> sqlx::Result<Vec<BannerRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {BANNER_COLS} FROM banners WHERE published = 1 ORDER BY sort, id"
    )))
    .fetch_all(&db.pool)
    .await
}

#[derive(Debug, Clone)]
pub struct BannerSpec<'a> {
    pub title: &'a str,
    pub title_en: &'a str,
    pub image: &'a str,
    pub link: &'a str,
    pub published: bool,
    pub sort: i64,
}

pub async fn add_banner(db: &Db, b: &BannerSpec<'_>, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO banners (title, title_en, image, link, published, sort, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
    )
    .bind(b.title)
    .bind(b.title_en)
    .bind(b.image)
    .bind(b.link)
    .bind(b.published as i64)
    .bind(b.sort)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_banner(db: &Db, id: i64, b: &BannerSpec<'_>, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE banners SET title = $1, title_en = $2, image = $3, link = $4, published = $5, sort = $6, \
         updated_at = $7 WHERE id = $8",
    )
    .bind(b.title)
    .bind(b.title_en)
    .bind(b.image)
    .bind(b.link)
    .bind(b.published as i64)
    .bind(b.sort)
    .bind(now)
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn delete_banner(db: &Db, id: i64) -> sqlx::Result<bool> {
    delete(db, "DELETE FROM banners WHERE id = $1", id).await
}

/// What the first release notes said: only the console's foundation (kept to recognise the row).
const FOUNDATION_NOTES: &str = "控制台基础：登录（企业账号、手机验证码、员工账号）、员工子账号与菜单授权、操作日志、点数记录。";

/// The product's release notes for this version: every area a merchant finds in the console.
pub const RELEASE_NOTES: (&str, &str) = (
    "控制台基础：登录（企业账号、手机验证码、员工账号）、员工子账号与菜单授权、操作日志、点数记录。\n\
     素材库：多镜头视频库、配音素材、音乐库（含内置音乐）、图片库、字体库。\n\
     剪辑：快速混剪、高级混剪、模板剪辑、批量切片、AI 一键成片、AI 智能剪辑、成片库。\n\
     AI 创作：AI 配音（试听、任务、声音克隆）。\n\
     矩阵：账号授权与分组、授权到期提醒、发布管理（分步创建发布任务、预览排期）、审核、抖音分享。\n\
     互动：评论管理与自动回复、私信管理与快捷回复、线索管理与分配、抖微通知。\n\
     营销：抽奖活动与券码核销、NFC 碰一碰。\n\
     SEO 优化：关键词搜索与挖掘、词库设置、关键词生成标题、对标账号。\n\
     数据：控制台、各平台数据分析、素材效果分析、任务交付报表、员工工作量、数据大屏。\n\
     内容：教程（账号运营、爆款干货、课程中心、拍摄教程）、热榜、成片墙、系统自检。",
    "Console foundation: sign-in (enterprise, SMS code, staff), staff sub-accounts with menu permissions, operation log, points records.\n\
     Materials: video library, voice-overs, music (with built-in music), images, fonts.\n\
     Editing: quick mix, advanced mode, clip templates, batch slice, one-touch video, AI smart editing, finished videos.\n\
     AI create: AI voice (audition, tasks, voice cloning).\n\
     Matrix: account authorization and groups, authorization expiry, release tasks (a step-by-step wizard with a schedule preview), review, Douyin share.\n\
     Engagement: comments with auto-replies, inbox with quick replies, leads with assignment, lead alerts on WeChat.\n\
     Marketing: lottery activities with coupon redemption, NFC tap-to-post.\n\
     SEO: keyword search and mining, lexicon settings, titles from keywords, benchmark accounts.\n\
     Data: dashboard, data analysis per platform, material performance, task delivery, staff activity, data screen.\n\
     Content: courses (account operation, trending know-how, course center, shooting tutorials), hot lists, video wall, self-test.",
);

/// The product's own release notes, recorded once per version. A first row that still holds only the
/// foundation's notes (an install from before the other areas) is brought up to date; a row the
/// operator edited stays as they wrote it.
pub async fn seed(db: &Db) -> sqlx::Result<()> {
    let now = now_ms();
    let (zh, en) = RELEASE_NOTES;
    let n = sqlx::query(
        "UPDATE version_logs SET content = $1, content_en = $2, updated_at = $3 WHERE version = $4 AND content = $5",
    )
    .bind(zh)
    .bind(en)
    .bind(now)
    .bind(domain::APP_VERSION)
    .bind(FOUNDATION_NOTES)
    .execute(&db.pool)
    .await?
    .rows_affected();
    if n > 0 {
        return Ok(());
    }
    let have: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM version_logs WHERE version = $1")
        .bind(domain::APP_VERSION)
        .fetch_one(&db.pool)
        .await?;
    if have == 0 {
        sqlx::query(
            "INSERT INTO version_logs (version, content, content_en, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(domain::APP_VERSION)
        .bind(zh)
        .bind(en)
        .bind(now)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

// ---- files the operator uploads for courses (migration 0017) ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContentFile {
    pub id: i64,
    /// video | image
    #[sqlx(try_from = "String")]
    pub kind: domain::content::FileKind,
    pub storage_key: String,
    pub mime: String,
    pub size: i64,
    pub original_name: String,
    pub created_at: i64,
}

pub async fn add_file(db: &Db, f: &ContentFile) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO content_files (kind, storage_key, mime, size, original_name, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(f.kind.as_str())
    .bind(&f.storage_key)
    .bind(&f.mime)
    .bind(f.size)
    .bind(&f.original_name)
    .bind(f.created_at)
    .fetch_one(&db.pool)
    .await
}

pub async fn file(db: &Db, id: i64) -> sqlx::Result<Option<ContentFile>> {
    sqlx::query_as(
        "SELECT id, kind, storage_key, mime, size, original_name, created_at FROM content_files \
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}
