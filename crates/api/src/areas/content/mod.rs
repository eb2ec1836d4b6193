//! Area "content" (DESIGN.md §4): the operator's courses, home banners and update log
//! (`/system/content/*`, Administrator only) and what every signed-in user reads of them: the course
//! pages (`/index/getIndexCourseList`, `/index/getCourseInfo`), the home banners (`/index/banner`) and
//! the update log (`/version_log/getList`, public). Readers get published rows only, in their language.

use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::content::pick;
use domain::i18n::{Lang, Msg};
use domain::now_ms;
use serde::{Deserialize, Serialize};
use services::ApiError;
use services::ListQuery;
use services::content as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub mod embed;
pub mod hotlists;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(hotlists::router())
        .merge(embed::router())
        .routes(routes!(course_list))
        .routes(routes!(course_add))
        .routes(routes!(course_edit))
        .routes(routes!(course_delete))
        .routes(routes!(banner_list))
        .routes(routes!(banner_add))
        .routes(routes!(banner_edit))
        .routes(routes!(banner_delete))
        .routes(routes!(version_list))
        .routes(routes!(version_add))
        .routes(routes!(version_edit))
        .routes(routes!(version_delete))
        .routes(routes!(courses))
        .routes(routes!(course_info))
        .routes(routes!(banners))
        .routes(routes!(version_log))
        .routes(routes!(course_upload))
        .routes(routes!(self_test))
}

fn need_id(id: Option<i64>) -> Result<i64, ApiError> {
    id.ok_or_else(|| ApiError::invalid("id", Msg::Required))
}

// ---- courses (operator) ----

/// A course with both languages, as the operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Course)]
pub struct CourseView {
    pub id: i64,
    /// account | popular | course | shot
    pub category: String,
    pub title: String,
    pub title_en: String,
    pub summary: String,
    pub summary_en: String,
    pub cover: String,
    pub body_kind: domain::content::Kind,
    pub video_url: String,
    pub body: String,
    pub body_en: String,
    pub published: bool,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn course_view(r: uc::CourseRow) -> CourseView {
    CourseView {
        id: r.id,
        category: r.category,
        title: r.title,
        title_en: r.title_en,
        summary: r.summary,
        summary_en: r.summary_en,
        cover: r.cover,
        body_kind: r.kind,
        video_url: r.link,
        body: r.body,
        body_en: r.body_en,
        published: r.published == 1,
        sort: r.sort,
        created_at: r.created_at,
        updated_at: r.updated_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct CourseQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub title: Option<String>,
    pub category: Option<String>,
    /// 1 published, 0 drafts
    pub published: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/content/course_list", tag = "content", params(("title" = Option<String>, Query), ("category" = Option<String>, Query), ("published" = Option<String>, Query, description = "1 | 0")), responses((status = 200, body = Reply<Page<CourseView>>)))]
pub async fn course_list(
    State(st): State<AppState>,
    Input(q): Input<CourseQuery>,
) -> Answer<Page<CourseView>> {
    let lq = q
        .list
        .with_filter("title", q.title.as_deref(), "include")
        .with_filter("category", q.category.as_deref(), "=")
        .with_filter("published", q.published.as_deref(), "=");
    let (rows, total) = uc::courses(&st.db, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(course_view).collect(),
        total,
    )))
}

/// Where a course is listed (`CourseReq.category`) (for the document only; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum CourseCategory {
    Account,
    Popular,
    Course,
    Shot,
}

/// What a course holds (`CourseReq.body_kind`) (for the document only; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum CourseBodyKind {
    Video,
    Rich,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CourseReq {
    /// Required by course_edit; left out on add (never null).
    #[serde(default)]
    #[schema(value_type = i64, required = false)]
    pub id: Option<i64>,
    /// account | popular | course | shot
    #[serde(default)]
    #[schema(required = true, value_type = CourseCategory)]
    pub category: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub title: String,
    #[serde(default)]
    #[schema(max_length = 100)]
    pub title_en: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub summary: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub summary_en: String,
    /// An image link (http(s) or a path of this site).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub cover: String,
    /// video | rich
    #[serde(default)]
    #[schema(required = true, value_type = CourseBodyKind)]
    pub body_kind: String,
    /// The video's link (body_kind video).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub video_url: String,
    /// Rich text in Chinese (body_kind rich, required) and English (optional).
    #[serde(default)]
    #[schema(max_length = 100000)]
    pub body: String,
    #[serde(default)]
    #[schema(max_length = 100000)]
    pub body_en: String,
    #[serde(default)]
    pub published: bool,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub sort: i64,
}

impl CourseReq {
    fn input(self) -> uc::CourseInput {
        uc::CourseInput {
            category: self.category,
            title: self.title,
            title_en: self.title_en,
            summary: self.summary,
            summary_en: self.summary_en,
            cover: self.cover,
            kind: self.body_kind,
            video_url: self.video_url,
            body: self.body,
            body_en: self.body_en,
            published: self.published,
            sort: self.sort,
        }
    }
}

#[utoipa::path(post, path = "/system/content/course_add", tag = "content", request_body = CourseReq, responses((status = 200, body = Reply<CourseView>)))]
pub async fn course_add(
    State(st): State<AppState>,
    Input(r): Input<CourseReq>,
) -> Answer<CourseView> {
    let c = uc::add_course(&st.db, &r.input(), now_ms()).await?;
    Ok(reply(course_view(c)))
}

#[utoipa::path(post, path = "/system/content/course_edit", tag = "content", request_body = CourseReq, responses((status = 200, body = Reply<CourseView>)))]
pub async fn course_edit(
    State(st): State<AppState>,
    Input(r): Input<CourseReq>,
) -> Answer<CourseView> {
    let id = need_id(r.id)?;
    let c = uc::edit_course(&st.db, id, &r.input(), now_ms()).await?;
    Ok(reply(course_view(c)))
}

#[utoipa::path(post, path = "/system/content/course_delete", tag = "content", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn course_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_course(&st.db, r.id).await?;
    Ok(reply(Done {}))
}

// ---- banners (operator) ----

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Banner)]
pub struct BannerView {
    pub id: i64,
    pub title: String,
    pub title_en: String,
    pub image: String,
    pub link: String,
    pub published: bool,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn banner_view(b: uc::BannerRow) -> BannerView {
    BannerView {
        id: b.id,
        title: b.title,
        title_en: b.title_en,
        image: b.image,
        link: b.link,
        published: b.published == 1,
        sort: b.sort,
        created_at: b.created_at,
        updated_at: b.updated_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct BannerQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub title: Option<String>,
    pub published: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/content/banner_list", tag = "content", params(("title" = Option<String>, Query), ("published" = Option<String>, Query, description = "1 | 0")), responses((status = 200, body = Reply<Page<BannerView>>)))]
pub async fn banner_list(
    State(st): State<AppState>,
    Input(q): Input<BannerQuery>,
) -> Answer<Page<BannerView>> {
    let lq = q
        .list
        .with_filter("title", q.title.as_deref(), "include")
        .with_filter("published", q.published.as_deref(), "=");
    let (rows, total) = uc::banners(&st.db, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(banner_view).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BannerReq {
    /// Required by banner_edit; left out on add (never null).
    #[serde(default)]
    #[schema(value_type = i64, required = false)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub title: String,
    #[serde(default)]
    #[schema(max_length = 100)]
    pub title_en: String,
    /// The picture's link (http(s) or a path of this site).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 1000)]
    pub image: String,
    /// Where a click goes (optional).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub link: String,
    #[serde(default)]
    pub published: bool,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub sort: i64,
}

impl BannerReq {
    fn input(self) -> uc::BannerInput {
        uc::BannerInput {
            title: self.title,
            title_en: self.title_en,
            image: self.image,
            link: self.link,
            published: self.published,
            sort: self.sort,
        }
    }
}

#[utoipa::path(post, path = "/system/content/banner_add", tag = "content", request_body = BannerReq, responses((status = 200, body = Reply<BannerView>)))]
pub async fn banner_add(
    State(st): State<AppState>,
    Input(r): Input<BannerReq>,
) -> Answer<BannerView> {
    let b = uc::add_banner(&st.db, &r.input(), now_ms()).await?;
    Ok(reply(banner_view(b)))
}

#[utoipa::path(post, path = "/system/content/banner_edit", tag = "content", request_body = BannerReq, responses((status = 200, body = Reply<BannerView>)))]
pub async fn banner_edit(
    State(st): State<AppState>,
    Input(r): Input<BannerReq>,
) -> Answer<BannerView> {
    let id = need_id(r.id)?;
    let b = uc::edit_banner(&st.db, id, &r.input(), now_ms()).await?;
    Ok(reply(banner_view(b)))
}

#[utoipa::path(post, path = "/system/content/banner_delete", tag = "content", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn banner_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_banner(&st.db, r.id).await?;
    Ok(reply(Done {}))
}

// ---- update log (operator) ----

/// An update-log entry with both languages, as the operator edits it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = VersionEntry)]
pub struct VersionView {
    pub id: i64,
    pub version: String,
    pub content: String,
    pub content_en: String,
    pub created_at: i64,
}

fn version_view(v: uc::VersionLog) -> VersionView {
    VersionView {
        id: v.id,
        version: v.version,
        content: v.content,
        content_en: v.content_en,
        created_at: v.created_at,
    }
}

#[utoipa::path(method(get, post), path = "/system/content/version_list", tag = "content", responses((status = 200, body = Reply<Page<VersionView>>)))]
pub async fn version_list(
    State(st): State<AppState>,
    Input(q): Input<ListQuery>,
) -> Answer<Page<VersionView>> {
    let (rows, total) = uc::versions(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(version_view).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VersionReq {
    /// Required by version_edit; left out on add (never null).
    #[serde(default)]
    #[schema(value_type = i64, required = false)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 32)]
    pub version: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 5000)]
    pub content: String,
    #[serde(default)]
    #[schema(max_length = 5000)]
    pub content_en: String,
}

impl VersionReq {
    fn input(self) -> uc::VersionInput {
        uc::VersionInput {
            version: self.version,
            content: self.content,
            content_en: self.content_en,
        }
    }
}

#[utoipa::path(post, path = "/system/content/version_add", tag = "content", request_body = VersionReq, responses((status = 200, body = Reply<VersionView>)))]
pub async fn version_add(
    State(st): State<AppState>,
    Input(r): Input<VersionReq>,
) -> Answer<VersionView> {
    let v = uc::add_version(&st.db, &r.input(), now_ms()).await?;
    Ok(reply(version_view(v)))
}

#[utoipa::path(post, path = "/system/content/version_edit", tag = "content", request_body = VersionReq, responses((status = 200, body = Reply<VersionView>)))]
pub async fn version_edit(
    State(st): State<AppState>,
    Input(r): Input<VersionReq>,
) -> Answer<VersionView> {
    let id = need_id(r.id)?;
    let v = uc::edit_version(&st.db, id, &r.input(), now_ms()).await?;
    Ok(reply(version_view(v)))
}

#[utoipa::path(post, path = "/system/content/version_delete", tag = "content", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn version_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_version(&st.db, r.id).await?;
    Ok(reply(Done {}))
}

// ---- what merchants read ----

/// A published course on a course page, in the reader's language. `image` and `link` repeat `cover`
/// and `video_url` under the names the home page has always read.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourseCard {
    pub id: i64,
    /// account | popular | course | shot
    pub category: String,
    pub title: String,
    pub summary: String,
    pub cover: String,
    pub image: String,
    pub body_kind: domain::content::Kind,
    pub video_url: String,
    pub link: String,
    pub created_at: i64,
}

/// A course's card with its texts in the reader's language (English falls back to Chinese).
fn card(c: &uc::CourseRow, lang: Lang) -> CourseCard {
    let en = lang == Lang::En;
    CourseCard {
        id: c.id,
        category: c.category.clone(),
        title: pick(en, &c.title, &c.title_en).to_string(),
        summary: pick(en, &c.summary, &c.summary_en).to_string(),
        cover: c.cover.clone(),
        image: c.cover.clone(),
        body_kind: c.kind,
        video_url: c.link.clone(),
        link: c.link.clone(),
        created_at: c.created_at,
    }
}

/// One published course to open: its card and its rich text (body_kind rich) in the reader's language.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourseDetail {
    #[serde(flatten)]
    pub card: CourseCard,
    pub body: String,
    pub updated_at: i64,
}

#[derive(Debug, Deserialize)]
pub struct CoursesQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    /// account | popular | course | shot; all when absent.
    pub category: Option<String>,
}

#[utoipa::path(method(get, post), path = "/index/getIndexCourseList", tag = "content", params(("category" = Option<CourseCategory>, Query, description = "account | popular | course | shot")), responses((status = 200, body = Reply<Page<CourseCard>>, description = "published courses, in the caller's language")))]
pub async fn courses(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<CoursesQuery>,
) -> Answer<Page<CourseCard>> {
    let (rows, total) = uc::published_courses(&st.db, q.list, q.category.as_deref()).await?;
    Ok(reply(Page::new(
        rows.iter().map(|c| card(c, lang)).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/index/getCourseInfo", tag = "content", params(("id" = i64, Query)), responses((status = 200, body = Reply<CourseDetail>)))]
pub async fn course_info(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<CourseDetail> {
    let c = uc::published_course(&st.db, r.id).await?;
    Ok(reply(CourseDetail {
        card: card(&c, lang),
        body: pick(lang == Lang::En, &c.body, &c.body_en).to_string(),
        updated_at: c.updated_at,
    }))
}

#[utoipa::path(method(get, post), path = "/index/banner", tag = "content", responses((status = 200, body = Reply<Page<Link>>, description = "published banners, in order")))]
pub async fn banners(State(st): State<AppState>, LangOf(lang): LangOf) -> Answer<Page<Link>> {
    Ok(reply(Page::whole(
        uc::published_banners(&st.db)
            .await?
            .into_iter()
            .map(|b| Link {
                id: b.id,
                title: pick(lang == Lang::En, &b.title, &b.title_en).to_string(),
                image: b.image,
                link: b.link,
                created_at: b.created_at,
            })
            .collect(),
    )))
}

#[utoipa::path(method(get, post), path = "/version_log/getList", tag = "content", responses((status = 200, body = Reply<Page<VersionLog>>, description = "the update log in the caller's language")))]
pub async fn version_log(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<ListQuery>,
) -> Answer<Page<VersionLog>> {
    let (rows, total) = uc::version_logs(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.into_iter()
            .map(|mut r| {
                // the reader's language only (English falls back to Chinese where none was written)
                if lang == Lang::En && !r.content_en.trim().is_empty() {
                    r.content = std::mem::take(&mut r.content_en);
                }
                VersionLog::from(r)
            })
            .collect(),
        total,
    )))
}

/// A banner or course card as the home page has always read it (`/index/banner`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Link {
    pub id: i64,
    pub title: String,
    pub image: String,
    pub link: String,
    pub created_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VersionLog {
    pub id: i64,
    pub version: String,
    /// Chinese (the reader's language is picked by the API).
    pub content: String,
    pub created_at: i64,
}
view_of!(uc::VersionLog => VersionLog { id, version, content, created_at });

// ---- files for courses ----

/// An uploaded course file: `src` is the permanent link to keep as the course's video or cover
/// (SPEC §3 upload response: `fileName`, `src`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CourseFile)]
pub struct CourseFileView {
    pub id: i64,
    /// video | image
    pub kind: domain::content::FileKind,
    pub src: String,
    #[serde(rename = "fileName")]
    pub file_name: String,
    pub size: i64,
}

#[utoipa::path(post, path = "/system/content/upload", tag = "content", request_body(content_type = "multipart/form-data", description = "kind (video | image) before file"), responses((status = 200, body = Reply<CourseFileView>)))]
pub async fn course_upload(
    State(st): State<AppState>,
    mp: axum::extract::Multipart,
) -> Answer<CourseFileView> {
    let (rec, _, fields) = crate::areas::materials::upload::receive(&st, mp, |f| {
        uc::course_accept(f.get("kind").map_or("", String::as_str))
    })
    .await?;
    let kind = fields.get("kind").cloned().unwrap_or_default();
    let f = uc::add_file(&st.db, &st.storage, rec, &kind, now_ms()).await?;
    Ok(reply(CourseFileView {
        src: crate::files::permanent_url(&st, f.id, "course"),
        id: f.id,
        kind: f.kind,
        file_name: f.original_name,
        size: f.size,
    }))
}

// ---- /test: the operator's self-test ----

/// One check of the self-test.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SelfTestCheck)]
pub struct CheckView {
    /// database | storage | ffmpeg | platform_dy | platform_ks | billboards | hot_list_cache
    pub name: String,
    pub ok: bool,
    /// What it saw, or why it failed.
    pub detail: String,
    pub ms: i64,
}

#[utoipa::path(method(get, post), path = "/system/selftest/index", tag = "content", responses((status = 200, body = Reply<Page<CheckView>>, description = "every check, in order")))]
pub async fn self_test(State(st): State<AppState>) -> Answer<Page<CheckView>> {
    let checks = services::content::selftest::run(&st.hub, &st.storage).await;
    Ok(reply(Page::whole(
        checks
            .into_iter()
            .map(|c| CheckView {
                name: c.name.to_string(),
                ok: c.ok,
                detail: c.detail,
                ms: c.ms,
            })
            .collect(),
    )))
}
