//! The videos a task publishes, keyed `v:<variant>` (finished library) or `m:<material>` (uploaded):
//! resolving a key, their signed URLs, and the lists the form picks them from.

use crate::LangOf;
use crate::areas::materials::files;
use crate::error::{ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;

/// A video that can be published: a successful finished-library variant or an uploaded video.
#[derive(Debug, Clone)]
pub struct Video {
    pub key: String,
    pub name: String,
    pub storage_key: String,
}

/// Project names already read, so a list of variants reads each project once.
type ProjectNames = std::collections::HashMap<i64, Option<String>>;

/// What a finished video is called where it is picked and published: its project's name and its
/// number ("Spring sale #3"); a video imported into the library keeps its file's name.
async fn variant_name(
    st: &AppState,
    v: &store::clip::Variant,
    names: &mut ProjectNames,
) -> ApiResult<String> {
    let named = if v.project_id == store::clip::IMPORTED {
        match v.seq().first() {
            Some(id) => store::materials::get(&st.db, v.merchant_id, *id)
                .await?
                .map(|m| m.name),
            None => None,
        }
    } else {
        let project = match names.get(&v.project_id) {
            Some(name) => name.clone(),
            None => {
                let name = store::clip::project(&st.db, v.merchant_id, v.project_id)
                    .await?
                    .map(|p| p.name);
                names.insert(v.project_id, name.clone());
                name
            }
        };
        project.map(|p| format!("{p} #{}", v.id))
    };
    Ok(named.unwrap_or_else(|| format!("#{}", v.id)))
}

/// Resolves a `v:`/`m:` key to the merchant's video, if it can be published.
pub async fn video(st: &AppState, mid: i64, key: &str) -> ApiResult<Option<Video>> {
    let Some((kind, id)) = key.split_once(':') else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    Ok(match kind {
        "v" => match store::clip::variant(&st.db, mid, id)
            .await?
            .filter(|v| v.state == "success" && !v.video_key.is_empty())
        {
            Some(v) => Some(Video {
                key: key.into(),
                name: variant_name(st, &v, &mut ProjectNames::new()).await?,
                storage_key: v.video_key,
            }),
            None => None,
        },
        "m" => store::materials::get(&st.db, mid, id)
            .await?
            .filter(|m| m.kind == "video" && m.state == "ready")
            .map(|m| Video {
                key: key.into(),
                name: m.name,
                storage_key: m.storage_key,
            }),
        _ => None,
    })
}

/// Signed cover/src URLs of a video key, for lists.
pub fn video_urls(st: &AppState, key: &str) -> (serde_json::Value, serde_json::Value) {
    match key
        .split_once(':')
        .and_then(|(k, id)| Some((k, id.parse::<i64>().ok()?)))
    {
        Some(("v", id)) => (
            files::url(st, id, "cover").into(),
            files::url(st, id, "clip").into(),
        ),
        Some(("m", id)) => (
            files::url(st, id, "poster").into(),
            files::url(st, id, "original").into(),
        ),
        _ => (serde_json::Value::Null, serde_json::Value::Null),
    }
}

#[derive(Debug, Deserialize)]
pub struct VideoQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub source: Option<String>,
    pub project_id: Option<i64>,
    pub used: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video", tag = "matrix", responses((status = 200, description = "selectable videos {rows:[{key, id, source, name, cover, src, duration_ms, used}], total}")))]
pub async fn forward_video(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<VideoQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let mut rows = vec![];
    let total;
    if q.source.as_deref() == Some("material") {
        let lq =
            q.list
                .with_filter("kind", Some("video"), "=")
                .with_filter("state", Some("ready"), "=");
        let (list, n) = store::materials::list(&st.db, mid, "resource", &lq).await?;
        total = n;
        let keys: Vec<String> = list.iter().map(|m| format!("m:{}", m.id)).collect();
        let used = db::used_videos(&st.db, mid, &keys).await?;
        for m in &list {
            let key = format!("m:{}", m.id);
            let (cover, src) = video_urls(&st, &key);
            rows.push(serde_json::json!({"key": key, "id": m.id, "source": "material", "name": m.name, "cover": cover, "src": src,
                "duration_ms": m.duration_ms, "used": used.contains(&key) as i64}));
        }
    } else {
        let lq = q
            .list
            .with_filter("state", Some("success"), "=")
            .with_filter(
                "project_id",
                q.project_id.map(|p| p.to_string()).as_deref(),
                "=",
            )
            .with_filter("used", q.used.as_deref().filter(|s| !s.is_empty()), "=");
        let (list, n) = store::clip::variants(&st.db, mid, &lq).await?;
        total = n;
        let mut names = ProjectNames::new();
        for v in &list {
            let key = format!("v:{}", v.id);
            let (cover, src) = video_urls(&st, &key);
            let name = variant_name(&st, v, &mut names).await?;
            rows.push(serde_json::json!({"key": key, "id": v.id, "source": "library", "name": name,
                "cover": cover, "src": src, "duration_ms": v.duration_ms, "used": v.used, "project_id": v.project_id}));
        }
    }
    Ok(ok(store::list::rows_total(rows, total)))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getLibProjectList", tag = "matrix", responses((status = 200, description = "{rows:[{id, name, success, unused}]}")))]
pub async fn lib_projects(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let rows = store::clip::library_projects(&st.db, mid).await?;
    let rows: Vec<_> = rows.into_iter().map(|(id, name, s, u)| serde_json::json!({"id": id, "name": name, "success": s, "unused": u})).collect();
    Ok(ok(serde_json::json!({"rows": rows})))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getVideoTypeList", tag = "matrix", responses((status = 200, description = "{rows:[{value, label}]}")))]
pub async fn video_types(c: Caller, LangOf(lang): LangOf) -> ApiResult<Json> {
    c.merchant_id()?;
    let (a, b) = (
        Msg::VideosFinished.render(lang, &[]),
        Msg::VideosUploaded.render(lang, &[]),
    );
    Ok(ok(
        serde_json::json!({"rows": [{"value": "library", "label": a}, {"value": "material", "label": b}]}),
    ))
}
