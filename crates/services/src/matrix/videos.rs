//! The videos a task publishes, keyed `v:<variant>` (finished library) or `m:<material>` (uploaded):
//! resolving a key, their signed URLs, and the lists the form picks them from.

use crate::error::ApiResult;
use crate::platform::Hub;
use domain::clip::aigc::Provenance;
use serde::Serialize;
use store::ListQuery;
use store::list::Total;
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
    d: &store::Db,
    v: &store::clip::Variant,
    names: &mut ProjectNames,
) -> ApiResult<String> {
    let named = if v.project_id == store::clip::IMPORTED {
        match v.seq().first() {
            Some(id) => store::materials::get(d, v.merchant_id, *id)
                .await?
                .map(|m| m.name),
            None => None,
        }
    } else {
        let project = match names.get(&v.project_id) {
            Some(name) => name.clone(),
            None => {
                let name = store::clip::project(d, v.merchant_id, v.project_id)
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
pub async fn video(d: &store::Db, mid: i64, key: &str) -> ApiResult<Option<Video>> {
    let Some((kind, id)) = key.split_once(':') else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    Ok(match kind {
        "v" => match store::clip::variant(d, mid, id)
            .await?
            .filter(|v| v.state == domain::clip::VariantState::Success && !v.video_key.is_empty())
        {
            Some(v) => Some(Video {
                key: key.into(),
                name: variant_name(d, &v, &mut ProjectNames::new()).await?,
                storage_key: v.video_key,
            }),
            None => None,
        },
        "m" => store::materials::get(d, mid, id)
            .await?
            .filter(|m| {
                m.kind == domain::materials::MediaKind::Video
                    && m.state == domain::materials::IngestState::Ready
            })
            .map(|m| Video {
                key: key.into(),
                name: m.name,
                storage_key: m.storage_key,
            }),
        _ => None,
    })
}

/// Signed cover/src URLs of a video key, for lists.
pub fn video_urls(hub: &Hub, key: &str) -> (Option<String>, Option<String>) {
    match key
        .split_once(':')
        .and_then(|(k, id)| Some((k, id.parse::<i64>().ok()?)))
    {
        Some(("v", id)) => (
            Some((hub.sign_url)(id, "cover")),
            Some((hub.sign_url)(id, "clip")),
        ),
        Some(("m", id)) => (
            Some((hub.sign_url)(id, "poster")),
            Some((hub.sign_url)(id, "original")),
        ),
        _ => (None, None),
    }
}

/// A video a task can publish, as the form's picker lists it.
#[derive(Debug, Serialize)]
pub struct Pickable {
    /// 'v:<id>' | 'm:<id>'
    pub key: String,
    pub id: i64,
    /// library | material
    pub source: &'static str,
    pub name: String,
    pub cover: Option<String>,
    pub src: Option<String>,
    pub duration_ms: i64,
    pub used: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_id: Option<i64>,
    /// What of it the product generated (`domain::clip::aigc::Provenance::parts`).
    pub ai_parts: Vec<domain::clip::aigc::AiPart>,
    /// A finished video's duplicate risk and why (`crate::clip::risk`); none for an uploaded video.
    pub risk: Option<i64>,
    pub risk_reasons: Vec<domain::clip::risk::Reason>,
}

/// Uploaded videos (`material`) or finished-library videos, with whether a task used them.
pub async fn pickable(
    hub: &Hub,
    mid: i64,
    material: bool,
    q: ListQuery,
) -> ApiResult<(Vec<Pickable>, Total)> {
    let mut rows = vec![];
    if material {
        let lq = q
            .with_filter("kind", Some("video"), "=")
            .with_filter("state", Some("ready"), "=");
        let (list, total) = store::materials::list(&hub.db, mid, "resource", &lq).await?;
        let keys: Vec<String> = list.iter().map(|m| format!("m:{}", m.id)).collect();
        let used = db::used_videos(&hub.db, mid, &keys).await?;
        for m in list {
            let key = format!("m:{}", m.id);
            let (cover, src) = video_urls(hub, &key);
            let made = store::materials::provenance(&hub.db, mid, m.id).await?;
            rows.push(Pickable {
                ai_parts: Provenance::parse(&made).parts(),
                used: used.contains(&key) as i64,
                key,
                id: m.id,
                source: "material",
                name: m.name,
                cover,
                src,
                duration_ms: m.duration_ms,
                project_id: None,
                risk: None,
                risk_reasons: vec![],
            });
        }
        return Ok((rows, total));
    }
    let lq = q.with_filter("state", Some("success"), "=");
    let (list, total) = store::clip::variants(&hub.db, mid, &lq).await?;
    let mut names = ProjectNames::new();
    for v in &list {
        let key = format!("v:{}", v.id);
        let (cover, src) = video_urls(hub, &key);
        let name = variant_name(&hub.db, v, &mut names).await?;
        rows.push(Pickable {
            ai_parts: Provenance::parse(&v.provenance).parts(),
            key,
            id: v.id,
            source: "library",
            name,
            cover,
            src,
            duration_ms: v.duration_ms,
            used: v.used,
            project_id: Some(v.project_id),
            risk: v.risk,
            risk_reasons: crate::clip::risk::reasons(v),
        });
    }
    Ok((rows, total))
}

/// Mixing projects with finished videos: id, name, videos, those not used yet.
pub async fn library_projects(d: &store::Db, mid: i64) -> ApiResult<Vec<(i64, String, i64, i64)>> {
    Ok(store::clip::library_projects(d, mid).await?)
}
