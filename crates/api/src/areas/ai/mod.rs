//! Area "ai" (SPEC §7 "AI and voice"): voices, synthesis tasks, auditions, importing into
//! the voice-over library, voice cloning and the assistant's token. Contract: docs/api-ai.md.

use crate::LangOf;
use crate::error::{Answer, ApiError, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use base64::Engine as _;
use domain::ai::Params;
use domain::i18n::{Lang, Msg, localize_reason};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::ai as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(voice_list))
        .routes(routes!(voice_likes))
        .routes(routes!(put_task))
        .routes(routes!(audition))
        .routes(routes!(task_list))
        .routes(routes!(delete_task))
        .routes(routes!(import))
        .routes(routes!(add_dub))
        .routes(routes!(add_dub_broadcast))
        .routes(routes!(clone_upload))
        .routes(routes!(cloning))
        .routes(routes!(coze_token))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiVoice)]
pub struct VoiceView {
    /// What putNlsTask takes as `voice` (a clone's is `clone:<speaker id>`).
    pub id: String,
    pub name: String,
    /// zh | en
    #[schema(value_type = domain::ai::VoiceLanguage)]
    pub language: String,
    /// female | male ("" for a clone)
    pub gender: String,
    pub style: String,
    /// builtin | clone
    #[schema(value_type = domain::ai::VoiceSource)]
    pub source: String,
    pub liked: bool,
    /// A signed link to a short sample (made on first play; built-in voices only).
    pub sample: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiVoiceList)]
pub struct VoiceList {
    pub rows: Vec<VoiceView>,
    /// builtin | cloud: which engine speaks the built-in voices' ids.
    pub engine: String,
    /// Is a cloning provider configured?
    pub cloning: bool,
}

#[utoipa::path(method(get, post), path = "/ai.MerchantDub/get_voice_list", tag = "ai", responses((status = 200, body = Reply<VoiceList>)))]
pub async fn voice_list(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<VoiceList> {
    let mid = c.merchant_id()?;
    let rows = uc::voices(&st.db, &st.ai, mid, c.user.id, lang == Lang::En).await?;
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, v)| VoiceView {
            sample: (v.source == "builtin").then(|| crate::files::url(&st, i as i64, "sample")),
            id: v.id,
            name: v.name,
            language: v.lang.into(),
            gender: v.gender.into(),
            style: v.style,
            source: v.source.into(),
            liked: v.liked,
        })
        .collect();
    Ok(reply(VoiceList {
        rows,
        engine: if st.ai.cloud.is_some() {
            "cloud"
        } else {
            "builtin"
        }
        .into(),
        cloning: st.ai.clone.is_some(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AiVoiceLikeReq)]
pub struct LikeReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub voice: String,
    /// true: add to favourites; false: remove. Default true.
    #[serde(default)]
    pub like: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiVoiceLiked)]
pub struct Liked {
    pub voice: String,
    pub liked: bool,
}

#[utoipa::path(post, path = "/ai.MerchantDub/voice_likes", tag = "ai", request_body = LikeReq, responses((status = 200, body = Reply<Liked>)))]
pub async fn voice_likes(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<LikeReq>,
) -> Answer<Liked> {
    let mid = c.merchant_id()?;
    let liked = uc::like(
        &st.db,
        &st.ai,
        mid,
        c.user.id,
        &r.voice,
        r.like.unwrap_or(true),
    )
    .await?;
    Ok(reply(Liked {
        voice: r.voice,
        liked,
    }))
}

/// A synthesis request (SPEC §5: text ≤ 300 characters, volume 0–100, speed and intonation
/// -500–500).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AiDubReq)]
pub struct DubReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 300)]
    pub text: String,
    /// A voice id of get_voice_list (default: the engine's first voice).
    #[serde(default)]
    pub voice: Option<String>,
    /// 0–100, default 50.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub volume: Option<i64>,
    /// -500–500, default 0.
    #[serde(default)]
    #[schema(minimum = -500, maximum = 500)]
    pub speed: Option<i64>,
    /// -500–500, default 0.
    #[serde(default)]
    #[schema(minimum = -500, maximum = 500)]
    pub intonation: Option<i64>,
    /// The task's name (default: the text's first 20 characters).
    #[serde(default)]
    pub name: String,
    /// nlsAudition only: answer at once with a URL that streams the preview as it is spoken (built-in
    /// voices; a cloned or cloud voice answers the whole preview as without it).
    #[serde(default)]
    pub stream: bool,
}

impl DubReq {
    /// The request's parameters; no voice: the engine's default one.
    fn params(&self, engine: domain::ai::Engine) -> Params {
        Params {
            text: self.text.clone(),
            voice: self
                .voice
                .clone()
                .unwrap_or_else(|| engine.voices()[0].id.into()),
            volume: self.volume.unwrap_or(50),
            speed: self.speed.unwrap_or(0),
            intonation: self.intonation.unwrap_or(0),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiSubtitleLine)]
pub struct LineView {
    pub start_ms: i64,
    pub end_ms: i64,
    pub content: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiTask)]
pub struct TaskView {
    pub id: i64,
    pub name: String,
    pub text: String,
    pub voice: String,
    pub volume: i64,
    pub speed: i64,
    pub intonation: i64,
    pub chars: i64,
    pub points: i64,
    /// queued | running | done | failed
    pub state: domain::ai::TaskState,
    pub progress: i64,
    /// Why it failed, in the reader's language.
    pub reason: String,
    pub duration_ms: i64,
    pub lines: Vec<LineView>,
    /// A signed link to the audio (48 kHz AAC, .m4a) once done: play and download.
    pub src: Option<String>,
    /// The voice material it was imported as (0: not imported).
    pub media_id: i64,
    pub job_id: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn task_view(st: &AppState, t: services::ai::Task, lang: Lang) -> TaskView {
    let lines = uc::lines_of(&t)
        .into_iter()
        .map(|l| LineView {
            start_ms: l.start_ms,
            end_ms: l.end_ms,
            content: l.content,
        })
        .collect();
    TaskView {
        src: (!t.storage_key.is_empty()).then(|| crate::files::url(st, t.id, "tts")),
        reason: localize_reason(&t.reason, lang),
        lines,
        id: t.id,
        name: t.name,
        text: t.text,
        voice: t.voice,
        volume: t.volume,
        speed: t.speed,
        intonation: t.intonation,
        chars: t.chars,
        points: t.points,
        state: t.state,
        progress: t.progress,
        duration_ms: t.duration_ms,
        media_id: t.media_id,
        job_id: t.job_id,
        created_at: t.created_at,
        updated_at: t.updated_at,
    }
}

async fn queue(st: &AppState, c: &Caller, r: &DubReq, lang: Lang) -> Answer<TaskView> {
    let mid = c.merchant_id()?;
    let q = uc::put_task(
        &st.db,
        &st.ai,
        mid,
        c.user.id,
        &r.name,
        &r.params(st.ai.catalog()),
    )
    .await?;
    Ok(reply(task_view(st, q.task, lang)))
}

/// Queues a synthesis (a durable `tts` job; progress on `/events` as `tts`). Costs 1 point per started
/// 100 characters, given back if it fails.
#[utoipa::path(post, path = "/ai.MerchantDub/putNlsTask", tag = "ai", request_body = DubReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn put_task(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<DubReq>,
) -> Answer<TaskView> {
    queue(&st, &c, &r, lang).await
}

/// The same as putNlsTask, from the clip and material pages.
#[utoipa::path(post, path = "/ai.merchant_ai/add_dub", tag = "ai", request_body = DubReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn add_dub(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<DubReq>,
) -> Answer<TaskView> {
    queue(&st, &c, &r, lang).await
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiAudition)]
pub struct Audition {
    /// The first sentence as `data:audio/mp4;base64,…` (48 kHz AAC), or with `stream` the URL of an
    /// MP3 stream of it (`/audition?t=…&s=…`, valid five minutes, no token needed).
    pub audio: String,
    /// True when `audio` is a stream URL: then the length and the lines' times are not known yet
    /// (`duration_ms` 0, one line with the sentence at 0–0).
    pub streamed: bool,
    pub duration_ms: i64,
    pub lines: Vec<LineView>,
}

/// A free preview: the first sentence, synthesized now.
#[utoipa::path(post, path = "/ai.MerchantDub/nlsAudition", tag = "ai", request_body = DubReq, responses((status = 200, body = Reply<Audition>)))]
pub async fn audition(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<DubReq>,
) -> Answer<Audition> {
    let mid = c.merchant_id()?;
    let p = r.params(st.ai.catalog());
    if r.stream {
        if let Some(url) = uc::audition_url(&st.db, &st.ai, &st.jwt_key, mid, &p).await? {
            let first = domain::ai::text::sentences(&p.text);
            return Ok(reply(Audition {
                audio: url,
                streamed: true,
                duration_ms: 0,
                lines: first
                    .into_iter()
                    .take(1)
                    .map(|s| LineView {
                        start_ms: 0,
                        end_ms: 0,
                        content: s.display,
                    })
                    .collect(),
            }));
        }
    }
    let (bytes, speech) = uc::audition(&st.db, &st.ai, &st.storage, mid, &p).await?;
    Ok(reply(Audition {
        streamed: false,
        audio: format!(
            "data:audio/mp4;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ),
        duration_ms: speech.duration_ms,
        lines: speech
            .lines
            .into_iter()
            .map(|l| LineView {
                start_ms: l.start_ms,
                end_ms: l.end_ms,
                content: l.content,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize)]
pub struct TicketQuery {
    #[serde(default)]
    t: String,
    #[serde(default)]
    s: String,
}

/// `GET /audition?t&s` (outside `/api`, like `/files`: an `<audio>` element sends no token, the
/// signed ticket is the credential): the MP3 stream of a streamed nlsAudition, once per ticket.
pub async fn audition_stream(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    axum::extract::Query(q): axum::extract::Query<TicketQuery>,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    match uc::audition_stream(&st.db, &st.ai, &st.jwt_key, &q.t, &q.s).await {
        Err(uc::TicketError::Forged) => StatusCode::FORBIDDEN.into_response(),
        Err(uc::TicketError::Expired) => (StatusCode::GONE, "audition expired").into_response(),
        Err(uc::TicketError::Used) => (StatusCode::GONE, "audition already played").into_response(),
        Err(uc::TicketError::Busy(e) | uc::TicketError::Store(e)) => {
            crate::areas::nfc::public::error_json(e, lang)
        }
        Ok(rx) => {
            let body = futures_util::stream::unfold(rx, |mut rx| async move {
                rx.recv().await.map(|r| {
                    let r = r
                        .map(axum::body::Bytes::from)
                        .map_err(|e| std::io::Error::other(e.to_string()));
                    (r, rx)
                })
            });
            (
                [
                    (header::CONTENT_TYPE, "audio/mpeg"),
                    (header::CACHE_CONTROL, "no-store"),
                ],
                axum::body::Body::from_stream(body),
            )
                .into_response()
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct TaskQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    /// queued | running | done | failed
    pub state: Option<String>,
    /// Part of the name or text.
    pub text: Option<String>,
}

#[utoipa::path(method(get, post), path = "/ai.MerchantDub/taskList", tag = "ai", params(("state" = Option<String>, Query), ("text" = Option<String>, Query)), responses((status = 200, body = Reply<Page<TaskView>>)))]
pub async fn task_list(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<TaskQuery>,
) -> Answer<Page<TaskView>> {
    let mid = c.merchant_id()?;
    let lq = q
        .list
        .with_filter("state", q.state.as_deref(), "=")
        .with_filter("text", q.text.as_deref(), "include");
    let (rows, total) = uc::tasks(&st.db, mid, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(|t| task_view(&st, t, lang)).collect(),
        total,
    )))
}

#[utoipa::path(post, path = "/ai.MerchantDub/deleteTask", tag = "ai", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete_task(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::delete_task(&st.db, &st.storage, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AiImportReq)]
pub struct ImportReq {
    /// The finished task.
    pub id: i64,
    /// A group of the voice-over library (0: none).
    #[serde(default)]
    pub group_id: i64,
}

async fn import_task(st: &AppState, c: &Caller, r: &ImportReq) -> Answer<crate::files::MediaView> {
    c.may_write("voice")?;
    let m = uc::import(
        &st.db,
        &st.storage,
        &st.ai,
        c.merchant_id()?,
        r.id,
        r.group_id,
    )
    .await?;
    Ok(reply(crate::files::view(st, &m)))
}

/// Puts a finished task into the voice-over library (`/speak`) as a voice material with its subtitle
/// lines (importing again answers the same material).
#[utoipa::path(post, path = "/ai.MerchantDub/importingBroadcast", tag = "ai", request_body = ImportReq, responses((status = 200, body = Reply<crate::files::MediaView>)))]
pub async fn import(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ImportReq>,
) -> Answer<crate::files::MediaView> {
    import_task(&st, &c, &r).await
}

/// The same as importingBroadcast, from the clip and material pages.
#[utoipa::path(post, path = "/ai.merchant_ai/add_dub_broadcast", tag = "ai", request_body = ImportReq, responses((status = 200, body = Reply<crate::files::MediaView>)))]
pub async fn add_dub_broadcast(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ImportReq>,
) -> Answer<crate::files::MediaView> {
    import_task(&st, &c, &r).await
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiVoiceClone)]
pub struct CloneView {
    pub id: i64,
    pub name: String,
    pub speaker_id: String,
    /// The voice id once ready (`clone:<speaker id>`).
    pub voice: String,
    /// training | ready | failed
    pub state: domain::ai::CloneState,
    pub reason: String,
    pub created_at: i64,
}

fn clone_view(c: services::ai::VoiceClone) -> CloneView {
    CloneView {
        voice: uc::clone::voice_id(&c.speaker_id),
        id: c.id,
        name: c.name,
        speaker_id: c.speaker_id,
        state: c.state,
        reason: c.reason,
        created_at: c.created_at,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AiCloneReq)]
pub struct CloneReq {
    /// The new voice's name (≤ 30 characters).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 30)]
    pub name: String,
    /// The sample: an audio material of the voice-over library, 10 s to 5 min.
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub resource_id: i64,
}

#[utoipa::path(post, path = "/doubao.db_audio/upload", tag = "ai", request_body = CloneReq, responses((status = 200, body = Reply<CloneView>)))]
pub async fn clone_upload(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<CloneReq>,
) -> Answer<CloneView> {
    let mid = c.merchant_id()?;
    let row = uc::clone::upload(&st.db, &st.ai, &st.storage, mid, &r.name, r.resource_id).await?;
    Ok(reply(clone_view(row)))
}

/// The merchant's clones, their training asked of the provider.
#[utoipa::path(method(get, post), path = "/doubao.db_audio/cloning", tag = "ai", responses((status = 200, body = Reply<Page<CloneView>>)))]
pub async fn cloning(State(st): State<AppState>, c: Caller) -> Answer<Page<CloneView>> {
    let rows = uc::clone::cloning(&st.db, &st.ai, c.merchant_id()?).await?;
    Ok(reply(Page::whole(
        rows.into_iter().map(clone_view).collect(),
    )))
}

/// SPEC lists the assistant's token call, so it stays, answering a clear refusal: the token is a static
/// secret of the whole install (`CLIPMATRIX_COZE_TOKEN`), and a token handed to a browser is a leaked
/// token; nothing in the console uses it (spec-decisions.md "AI voice").
#[utoipa::path(method(get, post), path = "/ai.coze/get_lszs_access_token", tag = "ai", responses((status = 403, description = "always: the assistant's token is not handed out")))]
pub async fn coze_token(c: Caller) -> Answer<Done> {
    c.merchant_id()?;
    Err(ApiError::forbidden(Msg::CozeTokenWithheld).into())
}
