//! The finished-video library (`/clip.merchant_video_library/*`): every variant with its cover, duration,
//! the clips it used, its state and whether it was used for publishing.

use crate::download::{Export, attachment, console_word, every_row, format_of};
use crate::error::{Answer, ApiError, ApiResult, Done, HttpResult, Page, Reply, reply};
use crate::export::{Cell, Table, china, header};
use crate::extract::{Caller, IdReq, IdsReq, Input};
use crate::files;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use domain::i18n::{Lang, Msg, localize_reason};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::library as uc;
use utoipa::ToSchema;

/// A clip of a variant's sequence, named (null when the material is gone).
#[derive(Debug, Serialize, ToSchema)]
pub struct ClipRef {
    pub id: i64,
    pub name: Option<String>,
}

/// A finished video (variant) as the library shows it: its row, the clips it used, its project's name
/// and signed links to the video and cover (null when not made).
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantView {
    pub id: i64,
    pub merchant_id: i64,
    pub project_id: i64,
    pub seq: Vec<i64>,
    pub state: domain::clip::VariantState,
    pub error: String,
    pub progress: i64,
    pub duration_ms: i64,
    pub used: i64,
    pub job_id: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub clips: Vec<ClipRef>,
    pub project_name: Option<String>,
    pub src: Option<String>,
    pub cover: Option<String>,
    /// The parts the product generated (AI voice = audio, AI script = text, one-touch = video): the
    /// video carries the AI label and metadata; empty for one made of the merchant's own footage.
    pub ai_parts: Vec<domain::clip::aigc::AiPart>,
    /// Duplicate risk, 0–100 (null: not measured yet), its band and why: the most alike sibling and
    /// published video, part by part.
    pub risk: Option<i64>,
    pub risk_level: Option<domain::clip::risk::Level>,
    pub risk_reasons: Vec<domain::clip::risk::Reason>,
}

async fn view(st: &AppState, v: &uc::Variant, lang: Lang) -> ApiResult<VariantView> {
    Ok(views(st, std::slice::from_ref(v), lang).await?.remove(0))
}

/// Variants of one merchant with their clips' and project's names (`services::clip::library::names`).
async fn views(st: &AppState, vs: &[uc::Variant], lang: Lang) -> ApiResult<Vec<VariantView>> {
    let uc::Names {
        clips: names,
        projects,
    } = uc::names(&st.db, vs).await?;
    let url = |v: &uc::Variant, key: &str, what: &str| {
        (!key.is_empty()).then(|| files::url(st, v.id, what))
    };
    Ok(vs
        .iter()
        .map(|v| VariantView {
            id: v.id,
            merchant_id: v.merchant_id,
            project_id: v.project_id,
            seq: v.seq(),
            state: v.state,
            error: localize_reason(&v.error, lang),
            progress: v.progress,
            duration_ms: v.duration_ms,
            used: v.used,
            job_id: v.job_id,
            created_at: v.created_at,
            updated_at: v.updated_at,
            clips: v
                .seq()
                .into_iter()
                .map(|id| ClipRef {
                    id,
                    name: names.get(&id).cloned(),
                })
                .collect(),
            project_name: projects.get(&v.project_id).cloned().flatten(),
            src: url(v, &v.video_key, "clip"),
            cover: url(v, &v.cover_key, "cover"),
            ai_parts: domain::clip::aigc::Provenance::parse(&v.provenance).parts(),
            risk: v.risk,
            risk_level: v
                .risk
                .map(|r| domain::clip::risk::level(r.clamp(0, 100) as u8)),
            risk_reasons: services::clip::risk::reasons(v),
        })
        .collect())
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub project_id: Option<i64>,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub used: Option<String>,
    /// low | medium | high (duplicate risk's band).
    #[serde(default)]
    pub risk_level: Option<String>,
}

impl IndexQuery {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        self.list
            .clone()
            .with_filter(
                "project_id",
                self.project_id.map(|p| p.to_string()).as_deref(),
                "=",
            )
            .with_filter("state", self.state.as_deref(), "=")
            .with_filter("used", self.used.as_deref(), "=")
            .with_filter("risk_level", self.risk_level.as_deref(), "=")
    }
}

pub(super) async fn list(
    st: &AppState,
    c: &Caller,
    q: IndexQuery,
    lang: Lang,
) -> Answer<Page<VariantView>> {
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &q.list()).await?;
    Ok(reply(Page::new(views(st, &rows, lang).await?, total)))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/index", tag = "clip", responses((status = 200, body = Reply<Page<VariantView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<VariantView>> {
    list(&st, &c, q, lang).await
}

/// The finished videos as a spreadsheet, with the library's filters.
#[utoipa::path(get, path = "/clip.merchant_video_library/export", tag = "clip", responses((status = 200, description = "the finished videos (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(e): Input<Export<IndexQuery>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { uc::list(&db, mid, &page).await }
    })
    .await?;
    let table = videos_table(&views(&st, &rows, lang).await?, lang);
    Ok(attachment(
        "videos",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}

fn videos_table(rows: &[VariantView], lang: Lang) -> Table {
    let cols = [
        ("编号", "ID"),
        ("项目", "Project"),
        ("状态", "State"),
        ("失败原因", "Failure reason"),
        ("时长（秒）", "Duration (s)"),
        ("是否已使用", "Used"),
        ("重复风险", "Duplicate risk"),
        ("所用素材", "Clips"),
        ("生成时间", "Made at"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|v| {
                let clips: Vec<String> = v
                    .clips
                    .iter()
                    .map(|c| c.name.clone().unwrap_or_else(|| format!("#{}", c.id)))
                    .collect();
                let used = if v.used > 0 { "used.yes" } else { "used.no" };
                vec![
                    Cell::Int(v.id),
                    v.project_name.clone().unwrap_or_default().into(),
                    console_word(lang, "clip", &format!("state.{}", v.state.as_str())).into(),
                    v.error.as_str().into(),
                    Cell::Int((v.duration_ms + 500) / 1000),
                    console_word(lang, "clip", used).into(),
                    v.risk.map(Cell::Int).unwrap_or_else(|| "".into()),
                    clips.join("; ").into(),
                    china(v.created_at),
                ]
            })
            .collect(),
    }
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/video_index", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, body = Reply<Page<VariantView>>, description = "one project's variants")))]
pub async fn video_index(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<VariantView>> {
    if q.project_id.is_none() {
        return Err(ApiError::invalid("project_id", Msg::Required).into());
    }
    list(&st, &c, q, lang).await
}

#[utoipa::path(post, path = "/clip.merchant_video_library/video_delete", tag = "clip", request_body = IdsReq, responses((status = 200, body = Reply<Done>, description = "deleted (the sequence is never made again)")))]
pub async fn video_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    uc::delete(&st.db, &st.storage, c.merchant_id()?, &r.all("id")?).await?;
    Ok(reply(Done {}))
}

/// A signed link that downloads finished videos: one video itself, several as a zip.
#[derive(Debug, Serialize, ToSchema)]
pub struct DownloadLink {
    /// Relative to the server; opens without a token until `expires_at`.
    pub url: String,
    pub expires_at: i64,
    /// A zip of several videos (STORE, streamed), or one video's file (which takes `Range`).
    pub zip: bool,
    pub files: i64,
    /// The videos' bytes together.
    pub bytes: i64,
}

#[utoipa::path(post, path = "/clip.merchant_video_library/download", tag = "clip", request_body = IdsReq, responses((status = 200, body = Reply<DownloadLink>, description = "a link valid for an hour: one finished video, or a zip of several (at most 100 and 4000 MB); all or none, another merchant's id is 404")))]
pub async fn download(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<DownloadLink> {
    let mid = c.merchant_id()?;
    let files = uc::downloads(&st.db, &st.storage, mid, &r.all("ids")?).await?;
    let exp = domain::now_ms() + services::links::DOWNLOAD_TTL_MS;
    let url = match files.as_slice() {
        [one] => services::links::download_url(&st.jwt_key, one.id, "clip", exp),
        many => {
            let ids: Vec<i64> = many.iter().map(|f| f.id).collect();
            services::links::zip_url(&st.jwt_key, mid, &ids, exp)
        }
    };
    Ok(reply(DownloadLink {
        url,
        expires_at: exp,
        zip: files.len() > 1,
        files: files.len() as i64,
        bytes: files.iter().map(|f| f.size as i64).sum(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UseReq {
    pub id: i64,
    /// true (default) marks it used, false unused.
    #[serde(default)]
    pub used: Option<bool>,
}

#[utoipa::path(post, path = "/clip.merchant_video_library/video_use", tag = "clip", request_body = UseReq, responses((status = 200, body = Reply<VariantView>, description = "marked")))]
pub async fn video_use(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<UseReq>,
) -> Answer<VariantView> {
    let v = uc::set_used(&st.db, c.merchant_id()?, r.id, r.used.unwrap_or(true)).await?;
    Ok(reply(view(&st, &v, lang).await?))
}

/// A render job as the library shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobView {
    pub id: i64,
    pub state: domain::jobs::JobState,
    pub attempts: i64,
    pub max_attempts: i64,
    pub last_error: Option<String>,
}

/// A variant's render: its own state and its job's (null when the job is gone).
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderView {
    pub variant_id: i64,
    pub state: domain::clip::VariantState,
    pub progress: i64,
    pub error: String,
    pub job: Option<JobView>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/job_video", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<RenderView>, description = "the variant's render job: state, progress, attempts, error")))]
pub async fn job_video(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<RenderView> {
    let (v, job) = uc::with_job(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(RenderView {
        variant_id: v.id,
        state: v.state,
        progress: v.progress,
        error: localize_reason(&v.error, lang),
        job: job.map(|j| JobView {
            id: j.id,
            state: j.state,
            attempts: j.attempts,
            max_attempts: j.max_attempts,
            last_error: j.last_error.map(|e| localize_reason(&e, lang)),
        }),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContinueReq {
    pub id: i64,
    #[serde(default)]
    pub count: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/continue_add_video", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<super::projects::PlanView>, description = "more unique variants of the project")))]
pub async fn continue_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ContinueReq>,
) -> Answer<super::projects::PlanView> {
    let done = services::clip::projects::generate(&st.db, c.merchant_id()?, r.id, r.count).await?;
    Ok(reply(super::projects::generated(done)))
}

/// How many renders were cancelled.
#[derive(Debug, Serialize, ToSchema)]
pub struct Cancelled {
    pub cancelled: i64,
}

#[utoipa::path(post, path = "/clip.merchant_video_library/video_cancel", tag = "clip", request_body = IdsReq, responses((status = 200, body = Reply<Cancelled>, description = "each one's points are refunded")))]
pub async fn video_cancel(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Cancelled> {
    let n = uc::cancel(&st.db, c.merchant_id()?, &r.all("id")?).await?;
    Ok(reply(Cancelled { cancelled: n }))
}

/// The variants made.
#[derive(Debug, Serialize, ToSchema)]
pub struct Imported {
    pub variant_ids: Vec<i64>,
}

#[utoipa::path(post, path = "/clip.merchant_video_library/add", tag = "clip", request_body = IdsReq, responses((status = 200, body = Reply<Imported>, description = "the merchant's own finished videos (video materials) put into the library")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Imported> {
    let out = uc::import(&st.db, &st.storage, c.merchant_id()?, &r.all("ids")?).await?;
    Ok(reply(Imported { variant_ids: out }))
}

#[utoipa::path(post, path = "/clip.merchant_video_library/job_video_add_all", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<super::projects::PlanView>, description = "renders every unique variant the project still allows (at most 200 per call), like add_video")))]
pub async fn job_video_add_all(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<super::projects::PlanView> {
    let done = services::clip::projects::generate_all(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(super::projects::generated(done)))
}
