//! Subtitle recognition: start a recognition job for a material (points charged per started minute,
//! refunded if it fails), read and edit its lines, save the timeline editor's result. Lines travel in
//! seconds (SPEC: start seconds, end seconds, content) and are stored in milliseconds.

use crate::error::{Answer, ApiError, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::materials::asr as uc;
use services::materials::library::{self as lib, MediaFile};
use utoipa::ToSchema;

const MAX_LINE_CHARS: usize = 200;

fn secs(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

/// One subtitle line, in seconds.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineView {
    pub id: i64,
    pub start: f64,
    pub end: f64,
    pub content: String,
}

fn line_view(l: &uc::AsrLine) -> LineView {
    LineView {
        id: l.id,
        start: secs(l.start_ms),
        end: secs(l.end_ms),
        content: l.content.clone(),
    }
}

async fn media_of(st: &AppState, c: &Caller, id: i64) -> ApiResult<MediaFile> {
    lib::get(&st.db, c.merchant_id()?, id).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AsrAddReq)]
pub struct AddReq {
    pub resource_id: i64,
    /// zh (default) or en.
    #[serde(default)]
    pub lang: Option<String>,
}

/// A recognition started: its job, the points deducted, the material's new recognition state.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub job_id: i64,
    pub points: i64,
    #[schema(value_type = domain::materials::AsrState)]
    pub asr_state: &'static str,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_add", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, body = Reply<Started>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> Answer<Started> {
    let lang = r.lang.as_deref().unwrap_or("zh");
    let started = uc::start(
        &st.db,
        &st.settings.asr_dir(),
        c.merchant_id()?,
        r.resource_id,
        lang,
    )
    .await?;
    Ok(reply(Started {
        job_id: started.job_id,
        points: started.points,
        asr_state: "processing",
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuoteReq {
    pub resource_id: i64,
}

/// The price of a recognition against the balance.
#[derive(Debug, Serialize, ToSchema)]
pub struct Quote {
    pub points: i64,
    pub balance: i64,
    pub enough: bool,
}

/// What recognizing a material's subtitles will deduct (shown before the user confirms; `asr_add`
/// deducts it once and refunds it if recognition fails).
#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/deduction_point", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, body = Reply<Quote>)))]
pub async fn deduction_point(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<QuoteReq>,
) -> Answer<Quote> {
    let m = media_of(&st, &c, r.resource_id).await?;
    let (points, balance) = uc::quote(&st.db, &m).await?;
    Ok(reply(Quote {
        points,
        balance,
        enough: balance >= points,
    }))
}

#[derive(Debug, Deserialize)]
pub struct DetailQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub resource_id: i64,
}

/// A page of lines with the material's recognition state.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinesPage {
    #[serde(flatten)]
    pub page: Page<LineView>,
    #[schema(value_type = domain::materials::AsrState)]
    pub asr_state: String,
    pub asr_error: String,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_detail", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, body = Reply<LinesPage>)))]
pub async fn detail(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<DetailQuery>,
) -> Answer<LinesPage> {
    let m = media_of(&st, &c, q.resource_id).await?;
    let (rows, total) = uc::lines_page(&st.db, &m, &q.list).await?;
    Ok(reply(LinesPage {
        page: Page::new(rows.iter().map(line_view).collect(), total),
        asr_state: m.asr_state,
        asr_error: m.asr_error,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TimelineReq {
    pub resource_id: i64,
}

/// What the timeline editor opens: the media, its recognition state and every line.
#[derive(Debug, Serialize, ToSchema)]
pub struct Timeline {
    pub resource_id: i64,
    /// Seconds.
    pub duration: f64,
    pub src: String,
    /// The canonical copy plays in every browser (an HEVC original may not).
    pub mezzanine: Option<String>,
    #[schema(value_type = domain::materials::AsrState)]
    pub asr_state: String,
    pub asr_error: String,
    pub lines: Vec<LineView>,
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/get_asr_timeline", tag = "materials", params(("resource_id" = i64, Query)), responses((status = 200, body = Reply<Timeline>)))]
pub async fn timeline(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TimelineReq>,
) -> Answer<Timeline> {
    let m = media_of(&st, &c, r.resource_id).await?;
    let lines = uc::lines(&st.db, &m).await?;
    Ok(reply(Timeline {
        resource_id: m.id,
        duration: secs(m.duration_ms),
        src: crate::files::url(&st, m.id, "original"),
        mezzanine: (!m.mezzanine_key.is_empty()).then(|| crate::files::url(&st, m.id, "mezzanine")),
        asr_state: m.asr_state,
        asr_error: m.asr_error,
        lines: lines.iter().map(line_view).collect(),
    }))
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
    domain::validate::plain_text("lines", content)?;
    Ok((s, e.min(duration_ms.max(e)), content.to_string()))
}

/// Which part of a recognized line `asr_modify` sets (for the document only).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum AsrField {
    Start,
    End,
    Content,
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

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_modify", tag = "materials", params(("id" = i64, Query), ("field" = AsrField, Query), ("value" = String, Query)), responses((status = 200, body = Reply<LineView>)))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ModifyReq>,
) -> Answer<LineView> {
    let mid = c.merchant_id()?;
    let (mut l, m) = uc::line(&st.db, mid, r.id).await?;
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
            )
            .into());
        }
    }
    let (s, e, t) = checked(start, end, &content, m.duration_ms)?;
    (l.start_ms, l.end_ms, l.content) = (s, e, t);
    uc::update_line(&st.db, mid, &l).await?;
    Ok(reply(line_view(&l)))
}

#[utoipa::path(method(get, post), path = "/media.merchant_much_resource/asr_delete", tag = "materials", params(("id" = i64, Query)), responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_line(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LineIn {
    pub start: f64,
    pub end: f64,
    /// The console always sends it; a missing one reads as blank.
    #[serde(default)]
    #[schema(required = true)]
    pub content: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AsrSaveReq)]
pub struct SaveReq {
    pub resource_id: i64,
    #[serde(default)]
    pub lines: Vec<LineIn>,
}

#[utoipa::path(post, path = "/media.merchant_much_resource/save_asr_times", tag = "materials", request_body = SaveReq, responses((status = 200, body = Reply<Vec<LineView>>, description = "the saved lines, in time order")))]
pub async fn save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> Answer<Vec<LineView>> {
    let m = media_of(&st, &c, r.resource_id).await?;
    if r.lines.len() > 2000 {
        return Err(
            ApiError::invalid_with("lines", Msg::TooLong, vec![("max", "2000".into())]).into(),
        );
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
    let saved = uc::save_lines(&st.db, &m, &lines).await?;
    Ok(reply(saved.iter().map(line_view).collect()))
}
