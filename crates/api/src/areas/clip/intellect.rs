//! AI smart editing (`/system/intellect/*`, the Administrator's /intellect): find the best shorts in a
//! merchant's long video. Operator-only like every `/system` call (the guard refuses anyone else
//! with 403); the operator has no footage of its own, so every call names the merchant whose video is
//! cut, and the shorts land in one of that merchant's video groups. Contract: docs/api-clip.md.

use crate::error::{Answer, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::files;
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::{Lang, localize_reason};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::intellect as uc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantQuery {
    #[serde(default)]
    pub merchant_id: Option<i64>,
}

/// A video a run may start from.
#[derive(Debug, Serialize, ToSchema)]
pub struct SourceVideo {
    pub id: i64,
    pub name: String,
    pub duration_ms: i64,
    pub group_id: i64,
    /// none | processing | success | failed: with `success` the run needs no recognition (free).
    pub asr_state: String,
    pub has_audio: bool,
    /// What recognizing it would cost, in points (0 when it is recognized or silent).
    pub points: i64,
    pub poster: Option<String>,
    pub src: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GroupOption {
    pub id: i64,
    pub name: String,
}

/// A merchant's ready videos and video groups.
#[derive(Debug, Serialize, ToSchema)]
pub struct Sources {
    pub videos: Vec<SourceVideo>,
    pub groups: Vec<GroupOption>,
}

#[utoipa::path(get, path = "/system/intellect/sources", tag = "clip", params(("merchant_id" = i64, Query)), responses((status = 200, body = Reply<Sources>)))]
pub async fn sources(
    State(st): State<AppState>,
    Input(q): Input<MerchantQuery>,
) -> Answer<Sources> {
    let (videos, groups) = uc::sources(&st.db, q.merchant_id).await?;
    let videos = videos
        .iter()
        .map(|m| {
            let v = files::view(&st, m);
            let recognized = m.asr_state == "success";
            SourceVideo {
                id: m.id,
                name: m.name.clone(),
                duration_ms: m.duration_ms,
                group_id: m.group_id,
                asr_state: m.asr_state.clone(),
                has_audio: m.has_audio != 0,
                points: if recognized || m.has_audio == 0 {
                    0
                } else {
                    services::materials::asr::price(m.duration_ms)
                },
                poster: v.poster,
                src: v.src,
            }
        })
        .collect();
    let groups = groups
        .into_iter()
        .map(|g| GroupOption {
            id: g.id,
            name: g.name,
        })
        .collect();
    Ok(reply(Sources { videos, groups }))
}

/// A chosen segment and the short cut from it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentView {
    pub start_ms: i64,
    pub end_ms: i64,
    /// 0–100: speech density first, then little dead air and clean boundaries.
    pub score: i64,
    pub speech_ms: i64,
    /// What each boundary lies on: video | scene | sentence | scene_and_sentence.
    pub start_on: String,
    pub end_on: String,
    pub transcript: String,
    /// The short (a video material of the run's group): null until cut, or when it was deleted.
    pub short: Option<files::MediaView>,
}

/// A run: its settings, where its job stands, what it found.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunView {
    pub id: i64,
    pub merchant_id: i64,
    pub merchant_name: Option<String>,
    pub resource_id: i64,
    pub name: String,
    /// The long video (null when it was deleted).
    pub source: Option<files::MediaView>,
    pub group_id: i64,
    pub group_name: Option<String>,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub count: i64,
    pub lang: String,
    pub state: domain::clip::intellect::State,
    /// analyse | pick | cut
    pub step: String,
    pub progress: i64,
    /// Why it failed, in the reader's language.
    pub reason: String,
    /// Points its speech recognition took (0: the video was already recognized).
    pub points: i64,
    pub segments: Vec<SegmentView>,
    pub created_by: String,
    pub created_at: i64,
    pub updated_at: i64,
}

async fn view(st: &AppState, r: &uc::Run, lang: Lang) -> ApiResult<RunView> {
    let segments = uc::segments(r);
    let around = uc::around(&st.db, r).await?;
    let find = |id: Option<i64>| {
        id.and_then(|id| around.media.iter().find(|m| m.id == id))
            .map(|m| files::view(st, m))
    };
    Ok(RunView {
        id: r.id,
        merchant_id: r.merchant_id,
        merchant_name: around.merchant_name.clone(),
        resource_id: r.resource_id,
        name: r.name.clone(),
        source: find(Some(r.resource_id)),
        group_id: r.group_id,
        group_name: around.group_name.clone(),
        min_seconds: r.min_seconds,
        max_seconds: r.max_seconds,
        count: r.max_count,
        lang: r.lang.clone(),
        state: r.state,
        step: r.step.clone(),
        progress: r.progress,
        reason: localize_reason(&r.reason, lang),
        points: r.points,
        segments: segments
            .into_iter()
            .map(|s| SegmentView {
                short: find(s.media_id),
                start_ms: s.start_ms,
                end_ms: s.end_ms,
                score: s.score,
                speech_ms: s.speech_ms,
                start_on: s.start_on,
                end_on: s.end_on,
                transcript: s.transcript,
            })
            .collect(),
        created_by: r.created_by.clone(),
        created_at: r.created_at,
        updated_at: r.updated_at,
    })
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub merchant_id: Option<i64>,
    #[serde(default)]
    pub state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/intellect/index", tag = "clip", responses((status = 200, body = Reply<Page<RunView>>, description = "list engine fields merchant_id, name, state, created_at")))]
pub async fn index(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<RunView>> {
    let lq = q
        .list
        .with_filter(
            "merchant_id",
            q.merchant_id.map(|m| m.to_string()).as_deref(),
            "=",
        )
        .with_filter("state", q.state.as_deref(), "=");
    let (rows, total) = uc::list(&st.db, &lq).await?;
    let mut out = vec![];
    for r in &rows {
        out.push(view(&st, r, lang).await?);
    }
    Ok(reply(Page::new(out, total)))
}

#[utoipa::path(method(get, post), path = "/system/intellect/info", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<RunView>)))]
pub async fn info(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<RunView> {
    let run = uc::run_of(&st.db, r.id).await?;
    Ok(reply(view(&st, &run, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RunReq {
    #[schema(required = true, minimum = 1)]
    pub merchant_id: Option<i64>,
    /// The long video (a ready video material of the merchant).
    #[schema(required = true, minimum = 1)]
    pub resource_id: Option<i64>,
    /// The merchant's video group the shorts go into.
    pub group_id: Option<i64>,
    /// Shortest and longest segment, seconds (5–300; default 15 and 60).
    #[schema(minimum = 5, maximum = 300)]
    pub min_seconds: Option<i64>,
    #[schema(minimum = 5, maximum = 300)]
    pub max_seconds: Option<i64>,
    /// At most this many segments (1–20, default 5).
    #[schema(minimum = 1, maximum = 20)]
    pub count: Option<i64>,
    /// Spoken language for recognition: zh (default) | en.
    pub lang: Option<String>,
}

#[utoipa::path(post, path = "/system/intellect/add", tag = "clip", request_body = RunReq, responses((status = 200, body = Reply<RunView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<RunReq>,
) -> Answer<RunView> {
    let input = uc::RunIn {
        merchant_id: r.merchant_id,
        resource_id: r.resource_id,
        group_id: r.group_id,
        min_seconds: r.min_seconds,
        max_seconds: r.max_seconds,
        count: r.count,
        lang: r.lang.as_deref(),
    };
    let run = uc::start(&st.db, &st.settings.asr_dir(), &input, &c.user.username).await?;
    Ok(reply(view(&st, &run, lang).await?))
}

#[utoipa::path(post, path = "/system/intellect/retry", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<RunView>)))]
pub async fn retry(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<RunView> {
    let run = uc::retry(&st.db, r.id).await?;
    Ok(reply(view(&st, &run, lang).await?))
}

#[utoipa::path(post, path = "/system/intellect/delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, r.id).await?;
    Ok(reply(Done {}))
}
