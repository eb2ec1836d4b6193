//! AI clip projects (`/clip.merchant_ai_clip/*`) and one-touch video (`/media.merchant_key_slice/*`,
//! page /newAiHome = /oneKeyVideoNew): topic -> script -> voice-over -> matched clips -> unique variants,
//! one durable job (docs/api-clip.md "One-touch video").

use super::library::{self, VariantView};
use crate::LangOf;
use crate::error::{Answer, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::files::{self, MediaView};
use crate::state::AppState;
use crate::writer::WriterSource;
use axum::extract::State;
use domain::clip::one_touch::{Kind, Request, Shot, State as ClipState};
use domain::i18n::{Lang, localize_reason};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::one_touch as uc;
use utoipa::ToSchema;

/// Variants of a one-touch project by state.
#[derive(Debug, Serialize, ToSchema)]
pub struct AiClipVariants {
    pub success: i64,
    pub processing: i64,
    pub failed: i64,
}

/// An AI clip project / one-touch job.
#[derive(Debug, Serialize, ToSchema)]
pub struct AiClipView {
    pub id: i64,
    pub kind: Kind,
    pub name: String,
    pub topic: String,
    /// The title on the videos as asked (empty: the product the topic names).
    pub title: String,
    pub state: ClipState,
    /// A failed job's step (script | voice | match | rendering): the step bar marks that one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_step: Option<&'static str>,
    pub progress: i64,
    /// Why it failed, in the reader's language.
    pub reason: String,
    pub count: i64,
    /// The target length, seconds (15–60).
    pub seconds: i64,
    /// Shot groups (video) or image categories (image) it draws from; empty: all.
    pub group_ids: Vec<i64>,
    pub voice: String,
    pub template_id: Option<i64>,
    /// The script's sentences (empty until written).
    pub script: Vec<String>,
    /// builtin | llm, empty until written (see `source`)
    pub writer: String,
    /// Who wrote the script, and why not the provider when it failed (until written: built-in).
    pub source: WriterSource,
    /// The voice-over material (0 until made).
    pub voice_media_id: i64,
    /// The voice-over's signed link.
    pub voice_src: Option<String>,
    #[schema(value_type = Vec<Object>)]
    pub shots: Vec<Shot>,
    /// The mix project of its videos (0 until matched; its videos: getVideoList or the library).
    pub project_id: i64,
    pub variants: AiClipVariants,
    pub created_at: i64,
    pub updated_at: i64,
}

async fn view(st: &AppState, r: uc::AiClip, lang: Lang) -> ApiResult<AiClipView> {
    let req = uc::request_of(&r);
    let counts = uc::variant_counts(&st.db, &r).await?;
    let source = services::writer::kept(&r.writer);
    Ok(AiClipView {
        id: r.id,
        kind: r.kind,
        name: r.name.clone(),
        topic: r.topic.clone(),
        title: req.title.clone(),
        state: r.state,
        failed_step: (r.state == ClipState::Failed).then(|| uc::failed_step(&r)),
        progress: r.progress,
        reason: localize_reason(&r.reason, lang),
        count: req.count,
        seconds: req.seconds,
        group_ids: req.group_ids.clone(),
        voice: req.voice.clone(),
        template_id: req.template_id,
        script: uc::script_of(&r),
        writer: match &source.0 {
            _ if r.writer.is_empty() => String::new(),
            services::writer::Source::BuiltIn => "builtin".into(),
            services::writer::Source::Llm { .. } => "llm".into(),
        },
        source: WriterSource::of(&source.0, source.1.as_ref(), lang),
        voice_media_id: r.voice_media_id,
        voice_src: (r.voice_media_id > 0).then(|| files::url(st, r.voice_media_id, "original")),
        shots: uc::shots_of(&r),
        project_id: r.project_id,
        variants: AiClipVariants {
            success: counts.of("success"),
            processing: counts.of("processing"),
            failed: counts.of("failed"),
        },
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

async fn page(
    st: &AppState,
    c: &Caller,
    started: bool,
    q: AiClipQuery,
    lang: Lang,
) -> Answer<Page<AiClipView>> {
    let lq = q
        .list
        .with_filter("name", q.name.as_deref(), "include")
        .with_filter("state", q.state.as_deref(), "=");
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, started, &lq).await?;
    let mut out = vec![];
    for r in rows {
        out.push(view(st, r, lang).await?);
    }
    Ok(reply(Page::new(out, total)))
}

#[derive(Debug, Deserialize)]
pub struct AiClipQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
}

// `domain::clip::one_touch::Kind`, as the document declares `kind`.
use domain::clip::one_touch::Kind as AiClipKind;

/// What add, edit, createVideoV2 and oneTouchNew take.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AiClipReq {
    /// edit only.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    /// `video` (default: the shot groups' clips) or `image` (a pan-and-zoom slideshow of images).
    #[serde(default)]
    #[schema(value_type = Option<AiClipKind>)]
    pub kind: Option<String>,
    /// The target length in seconds, 15–60 (default 30): the script is written to be voiced that long.
    #[serde(default)]
    #[schema(minimum = 15, maximum = 60)]
    pub seconds: Option<i64>,
    /// The topic or product description (required, ≤ 200 characters).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub topic: String,
    /// Default: the topic's first 20 characters.
    #[serde(default)]
    pub name: String,
    /// The title on the videos (≤ 20 characters; default: the product the topic names).
    #[serde(default)]
    pub title: String,
    /// Shot groups to draw from (≥ 3); empty: every group with ready clips. Image projects: image
    /// categories (`/bpdr.merchant_file_type/image_index`); empty: every ready image.
    #[serde(default)]
    pub group_ids: Vec<i64>,
    /// Videos to make, 1–20 (default 5); 2 points each.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20)]
    pub count: Option<i64>,
    /// A voice id of the engine's list (default its first Mandarin voice, its first English one for an
    /// English topic: zf_xiaoxiao / af_heart with the built-in engine).
    #[serde(default)]
    pub voice: String,
    /// A clip template for music mood, subtitle style and title pattern.
    #[serde(default)]
    pub template_id: Option<i64>,
}

impl AiClipReq {
    fn request(self) -> Request {
        Request {
            kind: self.kind.unwrap_or_else(|| "video".into()),
            seconds: self
                .seconds
                .unwrap_or(domain::clip::one_touch::DEFAULT_SECONDS),
            topic: self.topic,
            name: self.name,
            title: self.title,
            group_ids: self.group_ids,
            count: self
                .count
                .unwrap_or(domain::clip::one_touch::DEFAULT_VARIANTS),
            voice: self.voice,
            template_id: self.template_id,
        }
    }
}

#[utoipa::path(method(get, post), path = "/clip.merchant_ai_clip/index", tag = "clip", params(("page" = Option<i64>, Query, minimum = 1, maximum = 1000000), ("limit" = Option<i64>, Query, minimum = 1, maximum = 1000)), responses((status = 200, body = Reply<Page<AiClipView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<AiClipQuery>,
) -> Answer<Page<AiClipView>> {
    page(&st, &c, false, q, lang).await
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip/add", tag = "clip", request_body = AiClipReq, responses((status = 200, body = Reply<AiClipView>, description = "a draft (nothing made until createVideo)")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AiClipReq>,
) -> Answer<AiClipView> {
    let row = uc::add(
        &st.db,
        st.ai.catalog(),
        c.merchant_id()?,
        c.user.id,
        r.request(),
    )
    .await?;
    Ok(reply(view(&st, row, lang).await?))
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip/edit", tag = "clip", request_body = AiClipReq, responses((status = 200, body = Reply<AiClipView>, description = "422 while it is being made")))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AiClipReq>,
) -> Answer<AiClipView> {
    let id = r.id.ok_or(crate::error::ApiError::invalid(
        "id",
        domain::i18n::Msg::Required,
    ))?;
    let row = uc::edit(
        &st.db,
        st.ai.catalog(),
        c.merchant_id()?,
        c.user.id,
        id,
        r.request(),
    )
    .await?;
    Ok(reply(view(&st, row, lang).await?))
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip/createVideo", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<AiClipView>, description = "queued: the one-touch job runs")))]
pub async fn create_video(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<AiClipView> {
    let row = uc::start(&st.db, &st.ai, c.merchant_id()?, r.id).await?;
    Ok(reply(view(&st, row, lang).await?))
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip/createVideoV2", tag = "clip", request_body = AiClipReq, responses((status = 200, body = Reply<AiClipView>, description = "a new project, queued at once")))]
pub async fn create_video_v2(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AiClipReq>,
) -> Answer<AiClipView> {
    let row = uc::one_touch(&st.db, &st.ai, c.merchant_id()?, c.user.id, r.request()).await?;
    Ok(reply(view(&st, row, lang).await?))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_ai_clip/delete", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<Done>, description = "422 while it is being made; its videos stay in the library")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_ai_clip/copy", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<AiClipView>, description = "a draft with the same request")))]
pub async fn copy(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<AiClipView> {
    let row = uc::copy(&st.db, st.ai.catalog(), c.merchant_id()?, c.user.id, r.id).await?;
    Ok(reply(view(&st, row, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AiClipNameReq {
    pub id: i64,
    pub name: String,
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip/changeName", tag = "clip", request_body = AiClipNameReq, responses((status = 200, body = Reply<AiClipView>)))]
pub async fn change_name(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AiClipNameReq>,
) -> Answer<AiClipView> {
    let row = uc::rename(&st.db, c.merchant_id()?, r.id, &r.name).await?;
    Ok(reply(view(&st, row, lang).await?))
}

// ---- /media.merchant_key_slice ----

#[utoipa::path(post, path = "/media.merchant_key_slice/oneTouchNew", tag = "clip", request_body = AiClipReq, responses((status = 200, body = Reply<AiClipView>, description = "queued; progress on GET /api/events (event `one_touch`)")))]
pub async fn one_touch_new(
    st: State<AppState>,
    c: Caller,
    lang: LangOf,
    r: Input<AiClipReq>,
) -> Answer<AiClipView> {
    create_video_v2(st, c, lang, r).await
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/my_one_touch_job", tag = "clip", responses((status = 200, body = Reply<Page<AiClipView>>, description = "started one-touch jobs, newest first")))]
pub async fn my_jobs(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<AiClipQuery>,
) -> Answer<Page<AiClipView>> {
    page(&st, &c, true, q, lang).await
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/getVideoProject", tag = "clip", responses((status = 200, body = Reply<Page<AiClipView>>, description = "video projects (drafts too)")))]
pub async fn video_projects(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<AiClipQuery>,
) -> Answer<Page<AiClipView>> {
    of_kind(&st, &c, q, lang, "video").await
}

/// The caller's projects (drafts too) of one kind.
async fn of_kind(
    st: &AppState,
    c: &Caller,
    q: AiClipQuery,
    lang: Lang,
    kind: &str,
) -> Answer<Page<AiClipView>> {
    let q = AiClipQuery {
        list: q.list.with_filter("kind", Some(kind), "="),
        ..q
    };
    page(st, c, false, q, lang).await
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/getImgProject", tag = "clip", responses((status = 200, body = Reply<Page<AiClipView>>, description = "image projects (drafts too)")))]
pub async fn img_projects(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<AiClipQuery>,
) -> Answer<Page<AiClipView>> {
    of_kind(&st, &c, q, lang, "image").await
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/getVideoList", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<Page<VariantView>>, description = "the videos of a one-touch video project")))]
pub async fn video_list(
    st: State<AppState>,
    c: Caller,
    lang: LangOf,
    r: Input<IdReq>,
) -> Answer<Page<VariantView>> {
    videos_of(st, c, lang, r, Kind::Video).await
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/getImgList", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<Page<VariantView>>, description = "the videos of a one-touch image project")))]
pub async fn img_list(
    st: State<AppState>,
    c: Caller,
    lang: LangOf,
    r: Input<IdReq>,
) -> Answer<Page<VariantView>> {
    videos_of(st, c, lang, r, Kind::Image).await
}

/// The videos of one of the caller's projects of that kind (404 for the other kind's).
async fn videos_of(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
    kind: Kind,
) -> Answer<Page<VariantView>> {
    let row = uc::get(&st.db, c.merchant_id()?, r.id).await?;
    if row.kind != kind {
        return Err(crate::error::ApiError::NotFound.into());
    }
    if row.project_id == 0 {
        return Ok(reply(Page::whole(vec![])));
    }
    let q = library::IndexQuery {
        list: ListQuery {
            limit: Some(100),
            ..Default::default()
        },
        project_id: Some(row.project_id),
        state: None,
        used: None,
        risk_level: None,
    };
    library::list(&st, &c, q, lang).await
}

/// A shot group as one-touch picks from it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OneTouchGroup {
    pub id: i64,
    pub name: String,
    /// Ready clips.
    pub ready: i64,
    /// The typical (median) clip length, ms.
    pub clip_ms: i64,
    /// Whether its clips' speech is recognized (matching reads it).
    pub speech: bool,
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/getResourceGroupList", tag = "clip", responses((status = 200, body = Reply<Page<OneTouchGroup>>)))]
pub async fn groups(State(st): State<AppState>, c: Caller) -> Answer<Page<OneTouchGroup>> {
    let rows = uc::candidates(&st.db, c.merchant_id()?, &[])
        .await?
        .into_iter()
        .map(|g| OneTouchGroup {
            id: g.id,
            name: g.name,
            ready: g.ready,
            clip_ms: g.clip_ms,
            speech: !g.text.is_empty(),
        })
        .collect();
    Ok(reply(Page::whole(rows)))
}

/// A one-touch project's voice-over: the material, its lines and the script.
#[derive(Debug, Serialize, ToSchema)]
pub struct OneTouchVoice {
    pub id: i64,
    pub script: Vec<String>,
    pub media: Option<MediaView>,
    #[schema(value_type = Vec<Object>)]
    pub lines: Vec<services::materials::asr::AsrLine>,
}

#[utoipa::path(method(get, post), path = "/media.merchant_key_slice/broadcast_resource_detail", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<OneTouchVoice>)))]
pub async fn voice_detail(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<OneTouchVoice> {
    let mid = c.merchant_id()?;
    let row = uc::get(&st.db, mid, r.id).await?;
    let (media, lines) = uc::voice_over(&st.db, mid, &row).await?;
    Ok(reply(OneTouchVoice {
        id: row.id,
        script: uc::script_of(&row),
        media: media.as_ref().map(|m| files::view(&st, m)),
        lines,
    }))
}
