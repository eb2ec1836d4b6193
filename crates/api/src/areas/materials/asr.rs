//! Subtitle recognition: start a recognition job for a material (points charged per started minute,
//! refunded if it fails), read and edit its lines, save the timeline editor's result. Lines travel in
//! seconds (SPEC: start seconds, end seconds, content) and are stored in milliseconds.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::jobs::JobKind;
use domain::points::Reason;
use serde::Deserialize;
use store::ListQuery;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;
use utoipa::ToSchema;

/// Points per started minute of recognized media.
pub const POINTS_PER_MINUTE: i64 = 1;
const MAX_LINE_CHARS: usize = 200;

fn secs(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

fn line_view(l: &mat::AsrLine) -> serde_json::Value {
    serde_json::json!({ "id": l.id, "start": secs(l.start_ms), "end": secs(l.end_ms), "content": l.content })
}

async fn media_of(st: &AppState, c: &Caller, id: i64) -> ApiResult<mat::MediaFile> {
    mat::get(&st.db, c.merchant_id()?, id)
        .await?
        .ok_or(ApiError::NotFound)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddReq {
    pub resource_id: i64,
    /// zh (default) or en.
    #[serde(default)]
    pub lang: Option<String>,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_add", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, description = "{job_id, points, asr_state}")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let m = media_of(&st, &c, r.resource_id).await?;
    let lang: media::asr::Lang = r.lang.as_deref().unwrap_or("zh").parse().map_err(|_| {
        ApiError::invalid_with(
            "lang",
            Msg::InvalidValue,
            vec![("reason", "zh | en".into())],
        )
    })?;
    if m.kind != "video" && m.kind != "audio" || m.has_audio == 0 {
        return Err(ApiError::invalid("resource_id", Msg::AsrNoAudio));
    }
    if m.asr_state == "processing" {
        return Err(ApiError::invalid("resource_id", Msg::AsrBusy));
    }
    if let Err(e) = media::asr::WhisperRecognizer::from_asr_dir(&st.settings.asr_dir()) {
        return Err(ApiError::invalid_with(
            "resource_id",
            Msg::AsrNotInstalled,
            vec![("hint", e.to_string())],
        ));
    }
    let points = ((m.duration_ms + 59_999) / 60_000).max(1) * POINTS_PER_MINUTE;
    let key = format!("asr:{}:{}", m.id, domain::now_ms());
    store::points::deduct(&st.db, mid, points, Reason::SubtitleRecognition, &key).await?;
    mat::set_asr_state(&st.db, m.id, "processing", "").await?;
    let payload = domain::jobs::MediaAsr {
        media_id: m.id,
        lang: lang.as_str().into(),
        points_key: key.clone(),
    };
    let job = store::jobs::NewJob {
        merchant_id: Some(mid),
        idempotency_key: Some(key.clone()),
        max_attempts: Some(2),
        ..store::jobs::NewJob::new(JobKind::MediaAsr, &payload)
    };
    let job_id = match store::jobs::submit(&st.db, &job).await {
        Ok(id) => id,
        Err(e) => {
            store::points::refund(&st.db, mid, &key, Reason::SubtitleRecognitionNotStarted).await?;
            mat::set_asr_state(&st.db, m.id, "failed", &e.to_string()).await?;
            return Err(e.into());
        }
    };
    Ok(ok(
        serde_json::json!({ "job_id": job_id, "points": points, "asr_state": "processing" }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuoteReq {
    pub resource_id: i64,
}

/// What recognizing a material's subtitles will deduct (shown before the user confirms; `asr_add`
/// deducts it once and refunds it if recognition fails).
#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/deduction_point", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, description = "{points, balance, enough}")))]
pub async fn deduction_point(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<QuoteReq>,
) -> ApiResult<Json> {
    let m = media_of(&st, &c, r.resource_id).await?;
    let points = ((m.duration_ms + 59_999) / 60_000).max(1) * POINTS_PER_MINUTE;
    let balance = store::points::balance(&st.db, m.merchant_id).await?;
    Ok(ok(
        serde_json::json!({ "points": points, "balance": balance, "enough": balance >= points }),
    ))
}

#[derive(Debug, Deserialize)]
pub struct DetailQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub resource_id: i64,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_detail", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, description = "{rows:[{id,start,end,content}], total, asr_state}")))]
pub async fn detail(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<DetailQuery>,
) -> ApiResult<Json> {
    let m = media_of(&st, &c, q.resource_id).await?;
    let (rows, total) = mat::asr_page(&st.db, m.merchant_id, m.id, &q.list).await?;
    let mut data = store::list::rows_total(rows.iter().map(line_view).collect::<Vec<_>>(), total);
    data["asr_state"] = m.asr_state.into();
    data["asr_error"] = m.asr_error.into();
    Ok(ok(data))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TimelineReq {
    pub resource_id: i64,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/get_asr_timeline", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, description = "{duration, src, asr_state, lines}")))]
pub async fn timeline(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TimelineReq>,
) -> ApiResult<Json> {
    let m = media_of(&st, &c, r.resource_id).await?;
    let lines = mat::asr_lines(&st.db, m.merchant_id, m.id).await?;
    Ok(ok(serde_json::json!({
        "resource_id": m.id,
        "duration": secs(m.duration_ms),
        "src": super::files::url(&st, m.id, "original"),
        // The canonical copy plays in every browser (an HEVC original may not).
        "mezzanine": (!m.mezzanine_key.is_empty()).then(|| super::files::url(&st, m.id, "mezzanine")),
        "asr_state": m.asr_state,
        "asr_error": m.asr_error,
        "lines": lines.iter().map(line_view).collect::<Vec<_>>(),
    })))
}

/// Checks one line against the media's length; seconds in, milliseconds out.
fn checked(start: f64, end: f64, content: &str, duration_ms: i64) -> ApiResult<(i64, i64, String)> {
    let bad = |reason: String| {
        ApiError::invalid_with("lines", Msg::SubtitleTiming, vec![("reason", reason)])
    };
    if !start.is_finite() || !end.is_finite() {
        return Err(bad("not a number".into()));
    }
    let (s, e) = (
        (start * 1000.0).round() as i64,
        (end * 1000.0).round() as i64,
    );
    if s < 0 || e <= s {
        return Err(bad(format!(
            "{start} → {end}: the end must come after the start"
        )));
    }
    if duration_ms > 0 && e > duration_ms + 500 {
        return Err(bad(format!(
            "{end} s is past the end of the media ({} s)",
            secs(duration_ms)
        )));
    }
    let content = content.trim();
    if content.is_empty() {
        return Err(ApiError::invalid("lines", Msg::Required));
    }
    domain::validate::max_chars("lines", content, MAX_LINE_CHARS)?;
    Ok((s, e.min(duration_ms.max(e)), content.to_string()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ModifyReq {
    pub id: i64,
    /// start | end | content
    #[serde(default)]
    pub field: String,
    #[serde(default)]
    #[schema(value_type = String)]
    pub value: serde_json::Value,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_modify", tag = "materials", params(("id" = i64, Query), ("field" = String, Query), ("value" = String, Query)), responses((status = 200, description = "the line")))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ModifyReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let mut l = mat::asr_line(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let m = mat::get(&st.db, mid, l.resource_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let text = match &r.value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let num = || {
        text.trim().parse::<f64>().map_err(|_| {
            ApiError::invalid_with("value", Msg::InvalidValue, vec![("reason", text.clone())])
        })
    };
    let (mut start, mut end, mut content) = (secs(l.start_ms), secs(l.end_ms), l.content.clone());
    match r.field.as_str() {
        "start" => start = num()?,
        "end" => end = num()?,
        "content" => content = text.clone(),
        other => {
            return Err(ApiError::invalid_with(
                "field",
                Msg::InvalidValue,
                vec![("reason", format!("'{other}': start | end | content"))],
            ));
        }
    }
    let (s, e, t) = checked(start, end, &content, m.duration_ms)?;
    (l.start_ms, l.end_ms, l.content) = (s, e, t);
    mat::update_asr_line(&st.db, mid, &l).await?;
    Ok(ok(line_view(&l)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_delete", tag = "materials", params(("id" = i64, Query)), responses((status = 200, description = "deleted")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    if !mat::delete_asr_line(&st.db, c.merchant_id()?, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LineIn {
    pub start: f64,
    pub end: f64,
    #[serde(default)]
    pub content: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveReq {
    pub resource_id: i64,
    #[serde(default)]
    pub lines: Vec<LineIn>,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/save_asr_times", tag = "materials", request_body = SaveReq, responses((status = 200, description = "the saved lines, in time order")))]
pub async fn save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    let m = media_of(&st, &c, r.resource_id).await?;
    if r.lines.len() > 2000 {
        return Err(ApiError::invalid_with(
            "lines",
            Msg::TooLong,
            vec![("max", "2000".into())],
        ));
    }
    let mut lines = Vec::with_capacity(r.lines.len());
    for (i, l) in r.lines.iter().enumerate() {
        // The field names the line (`lines.3`), so the editor can mark it.
        let line = checked(l.start, l.end, &l.content, m.duration_ms).map_err(|e| match e {
            ApiError::Invalid { msg, args, .. } => ApiError::Invalid {
                field: format!("lines.{i}"),
                msg,
                args,
            },
            other => other,
        })?;
        lines.push(line);
    }
    lines.sort_by_key(|l| (l.0, l.1));
    mat::replace_asr_lines(&st.db, m.merchant_id, m.id, &lines).await?;
    if m.asr_state != "processing" {
        mat::set_asr_state(&st.db, m.id, "success", "").await?;
    }
    let saved = mat::asr_lines(&st.db, m.merchant_id, m.id).await?;
    Ok(ok(saved.iter().map(line_view).collect::<Vec<_>>()))
}

/// The `media.asr` job: recognize, replace the lines, mark success — or fail with the reason and give
/// the points back.
pub async fn run(
    ctx: JobCtx,
    storage: media::Storage,
    asr_dir: std::path::PathBuf,
) -> Result<(), JobError> {
    let p: domain::jobs::MediaAsr = ctx.payload()?;
    // Stored as the language's name (domain has no `media`): read the same way the payload was.
    let lang: media::asr::Lang = p
        .lang
        .parse()
        .map_err(|e| JobError::Permanent(format!("bad payload: {e}")))?;
    let Some(m) = mat::get_any(&ctx.db, p.media_id).await? else {
        return Err(JobError::Permanent("the material was deleted".into()));
    };
    let result = async {
        let engine = media::asr::WhisperRecognizer::from_asr_dir(&asr_dir)
            .map_err(|e| JobError::Permanent(e.to_string()))?;
        let path = storage
            .path(&m.storage_key)
            .map_err(|e| JobError::Permanent(e.to_string()))?;
        ctx.progress(10).await?;
        use media::asr::Recognizer;
        let lines = engine.transcribe(&path, lang).await.map_err(|e| match e {
            media::asr::AsrError::Timeout { .. } | media::asr::AsrError::Io(_) => {
                JobError::Retry(e.to_string())
            }
            other => JobError::Permanent(other.to_string()),
        })?;
        let rows: Vec<(i64, i64, String)> = lines
            .into_iter()
            .map(|l| (l.start_ms, l.end_ms, l.content))
            .collect();
        mat::replace_asr_lines(&ctx.db, m.merchant_id, m.id, &rows).await?;
        mat::set_asr_state(&ctx.db, m.id, "success", "").await?;
        Ok::<(), JobError>(())
    }
    .await;
    if let Err(e) = &result
        && ctx.is_final(e)
    {
        mat::set_asr_state(&ctx.db, m.id, "failed", e.message()).await?;
        store::points::refund(
            &ctx.db,
            m.merchant_id,
            &p.points_key,
            Reason::SubtitleRecognitionFailed,
        )
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    }
    result
}
