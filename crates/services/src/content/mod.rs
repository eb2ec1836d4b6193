//! Area "content": the operator's courses (four course pages), home banners and update log
//! (`/system/content/*`), and what merchants read of them (`/index/getIndexCourseList`,
//! `/index/course_info`, `/index/banner`, `/version_log/getList`): published rows only, each text in
//! the reader's language (English where the operator wrote it, else the Chinese).

pub mod embed;
pub mod hotlists;
pub mod selftest;

use crate::error::{ApiError, ApiResult};
use domain::content::{self as rules, Category, Kind};
use domain::i18n::Msg;
use store::content as db;
use store::list::Total;
use store::{Db, ListQuery};

pub use db::{BannerRow, CourseRow, VersionLog};

// ---- courses ----

/// A course as the operator's form sends it.
#[derive(Debug, Clone, Default)]
pub struct CourseInput {
    pub category: String,
    pub title: String,
    pub title_en: String,
    pub summary: String,
    pub summary_en: String,
    pub cover: String,
    pub kind: String,
    pub video_url: String,
    pub body: String,
    pub body_en: String,
    pub published: bool,
    pub sort: i64,
}

/// The checked values of a course, owned.
struct Course {
    category: Category,
    title: String,
    title_en: String,
    summary: String,
    summary_en: String,
    cover: String,
    kind: Kind,
    link: String,
    body: String,
    body_en: String,
}

fn check_course(c: &CourseInput) -> ApiResult<Course> {
    let category = Category::parse(c.category.trim()).ok_or_else(|| {
        ApiError::invalid_with(
            "category",
            Msg::InvalidValue,
            vec![("reason", "account | popular | course | shot".into())],
        )
    })?;
    let kind = Kind::parse(c.kind.trim()).ok_or_else(|| {
        ApiError::invalid_with(
            "body_kind",
            Msg::InvalidValue,
            vec![("reason", "video | rich".into())],
        )
    })?;
    let title = rules::line("title", &c.title, rules::TITLE_MAX)?;
    let title_en = rules::optional_line("title_en", &c.title_en, rules::TITLE_MAX)?;
    let summary = rules::optional_line("summary", &c.summary, rules::SUMMARY_MAX)?;
    let summary_en = rules::optional_line("summary_en", &c.summary_en, rules::SUMMARY_MAX)?;
    let cover = rules::link("cover", &c.cover)?;
    rules::sort("sort", c.sort)?;
    let (link, body, body_en) = match kind {
        Kind::Video => {
            let link = rules::link("video_url", &c.video_url)?;
            if link.is_empty() {
                return Err(ApiError::invalid("video_url", Msg::Required));
            }
            (link, String::new(), String::new())
        }
        Kind::Rich => {
            let body = c.body.trim();
            if body.is_empty() {
                return Err(ApiError::invalid("body", Msg::CourseBodyRequired));
            }
            domain::validate::max_chars("body", body, rules::BODY_MAX)?;
            let body_en = c.body_en.trim();
            domain::validate::max_chars("body_en", body_en, rules::BODY_MAX)?;
            (String::new(), body.to_string(), body_en.to_string())
        }
    };
    Ok(Course {
        category,
        title,
        title_en,
        summary,
        summary_en,
        cover,
        kind,
        link,
        body,
        body_en,
    })
}

fn course_spec<'a>(c: &'a Course, input: &CourseInput) -> db::CourseSpec<'a> {
    db::CourseSpec {
        category: c.category.as_str(),
        title: &c.title,
        title_en: &c.title_en,
        summary: &c.summary,
        summary_en: &c.summary_en,
        cover: &c.cover,
        kind: c.kind.as_str(),
        link: &c.link,
        body: &c.body,
        body_en: &c.body_en,
        published: input.published,
        sort: input.sort,
    }
}

/// Every course (published or not), for the operator.
pub async fn courses(d: &Db, q: &ListQuery) -> ApiResult<(Vec<CourseRow>, Total)> {
    Ok(db::courses(d, q, false).await?)
}

pub async fn course(d: &Db, id: i64) -> ApiResult<CourseRow> {
    db::course(d, id).await?.ok_or(ApiError::NotFound)
}

pub async fn add_course(d: &Db, input: &CourseInput, now: i64) -> ApiResult<CourseRow> {
    let c = check_course(input)?;
    let id = db::add_course(d, &course_spec(&c, input), now).await?;
    course(d, id).await
}

pub async fn edit_course(d: &Db, id: i64, input: &CourseInput, now: i64) -> ApiResult<CourseRow> {
    let c = check_course(input)?;
    if !db::edit_course(d, id, &course_spec(&c, input), now).await? {
        return Err(ApiError::NotFound);
    }
    course(d, id).await
}

pub async fn delete_course(d: &Db, id: i64) -> ApiResult<()> {
    found(db::delete_course(d, id).await?)
}

fn found(deleted: bool) -> ApiResult<()> {
    if deleted {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// A page of published courses, optionally of one category (an unknown category is a 422).
pub async fn published_courses(
    d: &Db,
    q: ListQuery,
    category: Option<&str>,
) -> ApiResult<(Vec<CourseRow>, Total)> {
    let category = category.map(str::trim).filter(|c| !c.is_empty());
    if let Some(c) = category
        && Category::parse(c).is_none()
    {
        return Err(ApiError::invalid_with(
            "category",
            Msg::InvalidValue,
            vec![("reason", "account | popular | course | shot".into())],
        ));
    }
    let q = q.with_filter("category", category, "=");
    let (rows, total) = db::courses(d, &q, true).await?;
    Ok((rows, total))
}

/// One published course (an unpublished or missing one is a 404).
pub async fn published_course(d: &Db, id: i64) -> ApiResult<CourseRow> {
    db::course(d, id)
        .await?
        .filter(|r| r.published == 1)
        .ok_or(ApiError::NotFound)
}

// ---- banners ----

#[derive(Debug, Clone, Default)]
pub struct BannerInput {
    pub title: String,
    pub title_en: String,
    pub image: String,
    pub link: String,
    pub published: bool,
    pub sort: i64,
}

pub async fn banners(d: &Db, q: &ListQuery) -> ApiResult<(Vec<BannerRow>, Total)> {
    Ok(db::banners(d, q, false).await?)
}

pub async fn banner(d: &Db, id: i64) -> ApiResult<BannerRow> {
    db::banner(d, id).await?.ok_or(ApiError::NotFound)
}

struct Banner {
    title: String,
    title_en: String,
    image: String,
    link: String,
}

fn check_banner(b: &BannerInput) -> ApiResult<Banner> {
    let title = rules::line("title", &b.title, rules::TITLE_MAX)?;
    let title_en = rules::optional_line("title_en", &b.title_en, rules::TITLE_MAX)?;
    let image = rules::link("image", &b.image)?;
    if image.is_empty() {
        return Err(ApiError::invalid("image", Msg::Required));
    }
    let link = rules::link("link", &b.link)?;
    rules::sort("sort", b.sort)?;
    Ok(Banner {
        title,
        title_en,
        image,
        link,
    })
}

fn banner_spec<'a>(b: &'a Banner, input: &BannerInput) -> db::BannerSpec<'a> {
    db::BannerSpec {
        title: &b.title,
        title_en: &b.title_en,
        image: &b.image,
        link: &b.link,
        published: input.published,
        sort: input.sort,
    }
}

pub async fn add_banner(d: &Db, input: &BannerInput, now: i64) -> ApiResult<BannerRow> {
    let b = check_banner(input)?;
    let id = db::add_banner(d, &banner_spec(&b, input), now).await?;
    banner(d, id).await
}

pub async fn edit_banner(d: &Db, id: i64, input: &BannerInput, now: i64) -> ApiResult<BannerRow> {
    let b = check_banner(input)?;
    if !db::edit_banner(d, id, &banner_spec(&b, input), now).await? {
        return Err(ApiError::NotFound);
    }
    banner(d, id).await
}

pub async fn delete_banner(d: &Db, id: i64) -> ApiResult<()> {
    found(db::delete_banner(d, id).await?)
}

/// The published banners in order (their titles in both languages).
pub async fn published_banners(d: &Db) -> ApiResult<Vec<BannerRow>> {
    Ok(db::published_banners(d).await?)
}

// ---- update log ----

#[derive(Debug, Clone, Default)]
pub struct VersionInput {
    pub version: String,
    pub content: String,
    pub content_en: String,
}

fn check_version(v: &VersionInput) -> ApiResult<(String, String, String)> {
    let version = rules::line("version", &v.version, rules::VERSION_MAX)?;
    let content = v.content.trim();
    domain::validate::required("content", content)?;
    domain::validate::max_chars("content", content, rules::NOTES_MAX)?;
    let content_en = v.content_en.trim();
    domain::validate::max_chars("content_en", content_en, rules::NOTES_MAX)?;
    Ok((version, content.to_string(), content_en.to_string()))
}

/// Every entry with both languages, for the operator.
pub async fn versions(d: &Db, q: &ListQuery) -> ApiResult<(Vec<VersionLog>, Total)> {
    Ok(db::version_logs(d, q).await?)
}

pub async fn version(d: &Db, id: i64) -> ApiResult<VersionLog> {
    db::version_log(d, id).await?.ok_or(ApiError::NotFound)
}

pub async fn add_version(d: &Db, input: &VersionInput, now: i64) -> ApiResult<VersionLog> {
    let (version, content, content_en) = check_version(input)?;
    let spec = db::VersionSpec {
        version: &version,
        content: &content,
        content_en: &content_en,
    };
    let id = db::add_version_log(d, &spec, now).await?;
    self::version(d, id).await
}

pub async fn edit_version(
    d: &Db,
    id: i64,
    input: &VersionInput,
    now: i64,
) -> ApiResult<VersionLog> {
    let (version, content, content_en) = check_version(input)?;
    let spec = db::VersionSpec {
        version: &version,
        content: &content,
        content_en: &content_en,
    };
    if !db::edit_version_log(d, id, &spec, now).await? {
        return Err(ApiError::NotFound);
    }
    self::version(d, id).await
}

pub async fn delete_version(d: &Db, id: i64) -> ApiResult<()> {
    found(db::delete_version_log(d, id).await?)
}

/// A page of the update log (each entry in both languages).
pub async fn version_logs(d: &Db, q: &ListQuery) -> ApiResult<(Vec<VersionLog>, Total)> {
    Ok(db::version_logs(d, q).await?)
}

// ---- files for courses (operator uploads) ----

use crate::materials::upload::{Accept, Received};
use media::magic::Class;

/// What a course upload accepts: `video` (the course's video, ≤ 300 MB) or `image` (its cover).
pub fn course_accept(kind: &str) -> ApiResult<Accept> {
    const VIDEO: Accept = Accept {
        library: "course",
        classes: &[Class::Video],
        icons: false,
    };
    const IMAGE: Accept = Accept {
        library: "course",
        classes: &[Class::Image],
        icons: false,
    };
    match kind.trim() {
        "video" => Ok(VIDEO),
        "image" => Ok(IMAGE),
        other => Err(ApiError::invalid_with(
            "kind",
            Msg::InvalidValue,
            vec![("reason", format!("{other:?}: video | image"))],
        )),
    }
}

/// Keeps an uploaded course file; the caller links it by `/files/<id>/course`.
pub async fn add_file(
    d: &Db,
    storage: &media::Storage,
    rec: Received,
    kind: &str,
    now: i64,
) -> ApiResult<db::ContentFile> {
    let key = crate::materials::upload::keep_as(storage, "content", &rec).await?;
    let mut f = db::ContentFile {
        id: 0,
        kind: domain::content::FileKind::parse(kind.trim())
            .unwrap_or(domain::content::FileKind::Video),
        storage_key: key.clone(),
        mime: rec.kind.mime().to_string(),
        size: rec.size,
        original_name: rec.original_name.clone(),
        created_at: now,
    };
    f.id = match db::add_file(d, &f).await {
        Ok(id) => id,
        Err(e) => {
            let _ = storage.delete(&key).await;
            return Err(e.into());
        }
    };
    Ok(f)
}
