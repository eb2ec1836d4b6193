//! Release tasks (`/task.merchant_forward_task/*`, `/matrix.merchant_publish_management/*`,
//! `/bpdr.merchant_aite_users/*`): every SPEC §5 rule is checked before anything is stored; the
//! distribution plan (domain::matrix::distribute) is shown before confirming and stored as the task's
//! items; approved items are published by the scheduler (publish.rs).

use super::hub::platform;
use crate::LangOf;
use crate::areas::materials::files;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clock::platform_now;
use domain::i18n::{Lang, Msg};
use domain::matrix as rules;
use platforms::Platform;
use serde::{Deserialize, Serialize};
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct NameQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

/// The release-task form (docs/api-matrix.md `TaskReq`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(default)]
pub struct TaskReq {
    pub platform: Option<String>,
    pub name: String,
    pub titles: String,
    pub topics: Vec<String>,
    pub top_comments: String,
    pub at_users: Vec<String>,
    pub mount_type: String,
    pub province: String,
    pub city: String,
    pub merchant_abbr: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub mini_app_id: String,
    pub mini_app_title: String,
    pub mini_app_url: String,
    pub official_title: String,
    pub official_url: String,
    pub product_id: String,
    pub time_mode: String,
    pub start_date: String,
    pub daily_quantity: i64,
    pub days: i64,
    pub times: Vec<String>,
    pub account_ids: Vec<i64>,
    pub video_ids: Vec<i64>,
    pub material_ids: Vec<i64>,
    pub publish_count: Option<i64>,
    pub preview: bool,
    /// The preview's seed: confirming with it stores the plan that was shown.
    pub seed: Option<i64>,
}

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

fn bad(field: &str, msg: Msg, args: Vec<(&'static str, String)>) -> ApiError {
    ApiError::invalid_with(field, msg, args)
}

/// Mount fields the chosen mount type needs.
fn check_mount(r: &TaskReq) -> ApiResult<()> {
    let need = |what: &str, v: &str| -> ApiResult<()> {
        if v.trim().is_empty() {
            return Err(bad(
                "mount_type",
                Msg::MountRequired,
                vec![("mount", r.mount_type.clone()), ("what", what.into())],
            ));
        }
        Ok(())
    };
    match r.mount_type.as_str() {
        "" | "none" => Ok(()),
        "poi" => need("poi_id", &r.poi_id),
        "mini_program" => {
            need("mini_app_id", &r.mini_app_id)?;
            need("mini_app_title", &r.mini_app_title)
        }
        "official" => {
            need("official_title", &r.official_title)?;
            need("official_url", &r.official_url)
        }
        "product" => need("product_id", &r.product_id),
        _ => Err(bad(
            "mount_type",
            Msg::InvalidValue,
            vec![(
                "reason",
                "none | poi | mini_program | official | product".into(),
            )],
        )),
    }
}

pub struct Checked {
    pub name: String,
    pub titles: Vec<String>,
    pub topics: Vec<String>,
    pub comments: Vec<String>,
    pub schedule: rules::Schedule,
    pub accounts: Vec<db::Account>,
    pub videos: Vec<Video>,
    pub count: usize,
}

/// Every rule of SPEC §5 "Publishing", before anything is stored.
pub async fn check(
    st: &AppState,
    mid: i64,
    p: Option<Platform>,
    r: &TaskReq,
) -> ApiResult<Checked> {
    let name = r.name.trim().to_string();
    domain::validate::required("name", &name)?;
    domain::validate::max_chars("name", &name, domain::matrix::TASK_NAME_MAX)?;
    let titles = rules::titles(&r.titles)?;
    let topics = rules::topics(&r.topics)?;
    let comments = rules::comments(&r.top_comments)?;
    check_mount(r)?;
    let now = platform_now();
    let schedule = rules::schedule(
        &r.time_mode,
        &r.start_date,
        r.days,
        r.daily_quantity,
        &r.times,
        rules::day_of(now),
    )?;
    let mut ids = r.account_ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(bad("account_ids", Msg::Required, vec![]));
    }
    let mut accounts = vec![];
    for id in ids {
        let a = db::account(&st.db, mid, id)
            .await?
            .ok_or(ApiError::NotFound)?;
        let expired = rules::account_status(a.auth_expires_at, a.revoked == 1, now) == "expired";
        if expired || p.is_some_and(|p| p.code() != a.platform) {
            return Err(bad(
                "account_ids",
                Msg::AccountUnusable,
                vec![("name", a.nickname.clone())],
            ));
        }
        accounts.push(a);
    }
    let mut keys: Vec<String> = r.video_ids.iter().map(|i| format!("v:{i}")).collect();
    keys.extend(r.material_ids.iter().map(|i| format!("m:{i}")));
    keys.dedup();
    if keys.is_empty() {
        return Err(bad("video_ids", Msg::Required, vec![]));
    }
    let used = db::used_videos(&st.db, mid, &keys).await?;
    let mut videos = vec![];
    for k in &keys {
        match video(st, mid, k).await? {
            Some(v) if !used.contains(k) => videos.push(v),
            Some(v) => return Err(bad("video_ids", Msg::VideoUnusable, vec![("name", v.name)])),
            None => {
                return Err(bad(
                    "video_ids",
                    Msg::VideoUnusable,
                    vec![("name", k.clone())],
                ));
            }
        }
    }
    if accounts.len() > videos.len() {
        return Err(bad(
            "account_ids",
            Msg::AccountsOverVideos,
            vec![
                ("accounts", accounts.len().to_string()),
                ("videos", videos.len().to_string()),
            ],
        ));
    }
    let count = match r.publish_count {
        Some(n) if n < 1 => {
            return Err(bad(
                "publish_count",
                Msg::InvalidValue,
                vec![("reason", ">= 1".into())],
            ));
        }
        Some(n) if n as usize > videos.len() => {
            return Err(bad(
                "publish_count",
                Msg::PublishCountOverVideos,
                vec![
                    ("count", n.to_string()),
                    ("videos", videos.len().to_string()),
                ],
            ));
        }
        Some(n) => n as usize,
        None => videos.len(),
    };
    Ok(Checked {
        name,
        titles,
        topics,
        comments,
        schedule,
        accounts,
        videos,
        count,
    })
}

/// The plan of a checked task: items ready to store, and its JSON for the console.
pub async fn plan(
    st: &AppState,
    mid: i64,
    c: &Checked,
    seed: u64,
    lang: Lang,
) -> ApiResult<(Vec<db::NewItem>, serde_json::Value)> {
    let s = &c.schedule;
    let from = rules::at(s.start_day, 0);
    let to = rules::at(s.start_day + s.days as i64 + 1, 0);
    let taken = db::taken_minutes(&st.db, mid, from, to).await?;
    let d = rules::distribute(
        c.accounts.len(),
        c.videos.len(),
        c.count,
        s,
        platform_now(),
        &taken,
        seed,
    );
    let mut items = vec![];
    let mut rows = vec![];
    let mut per = vec![0usize; c.accounts.len()];
    for slot in &d.slots {
        let a = &c.accounts[slot.account];
        let v = &c.videos[slot.video];
        per[slot.account] += 1;
        let title = c.titles[(slot.account + slot.nth) % c.titles.len()].clone();
        let comments = rules::pick_comments(
            &c.comments,
            seed ^ (slot.video as u64).wrapping_mul(0x9E37_79B9),
        );
        rows.push(serde_json::json!({
            "account_id": a.id, "nickname": a.nickname, "platform": a.platform,
            "video_key": v.key, "video_name": v.name, "at": slot.at, "title": title,
        }));
        items.push(db::NewItem {
            account_id: a.id,
            platform: a.platform.clone(),
            video_key: v.key.clone(),
            video_name: v.name.clone(),
            title,
            comments,
            scheduled_at: slot.at,
        });
    }
    let mut warnings: Vec<String> = vec![];
    let en = lang == Lang::En;
    if d.unplaced > 0 {
        warnings.push(if en {
            format!(
                "{} videos do not fit into {} days × {} a day and stay unused",
                d.unplaced, s.days, s.daily
            )
        } else {
            format!(
                "有 {} 条视频超出 {} 天 × 每天 {} 条的容量，不会发布",
                d.unplaced, s.days, s.daily
            )
        });
    }
    for day in &d.crowded_days {
        warnings.push(if en {
            format!(
                "{}: more posts than minutes in 08:00–22:00, some share a minute",
                rules::fmt_day(*day)
            )
        } else {
            format!(
                "{}：发布数量超过 08:00–22:00 的分钟数，部分视频会在同一分钟发布",
                rules::fmt_day(*day)
            )
        });
    }
    let json = serde_json::json!({
        "items": rows, "count": items.len(),
        "per_account": {"min": per.iter().min().copied().unwrap_or(0), "max": per.iter().max().copied().unwrap_or(0)},
        "first_at": d.slots.first().map(|x| x.at), "last_at": d.slots.last().map(|x| x.at),
        "unplaced": d.unplaced, "warnings": warnings, "seed": seed,
    });
    Ok((items, json))
}

async fn create(
    st: &AppState,
    mid: i64,
    p: Option<Platform>,
    r: &TaskReq,
    lang: Lang,
) -> ApiResult<serde_json::Value> {
    let c = check(st, mid, p, r).await?;
    let seed: u64 = r
        .seed
        .filter(|s| *s > 0)
        .map(|s| s as u64)
        .unwrap_or_else(|| rand::random::<u32>() as u64 + 1);
    let (items, plan_json) = plan(st, mid, &c, seed, lang).await?;
    if r.preview {
        return Ok(plan_json);
    }
    let mut config = serde_json::to_value(r).unwrap_or_default();
    config["titles_list"] = serde_json::json!(c.titles);
    config["topics"] = serde_json::json!(c.topics);
    config["comments_list"] = serde_json::json!(c.comments);
    let task = db::NewTask {
        name: c.name.clone(),
        platform: p
            .map(|p| p.code().to_string())
            .unwrap_or_else(|| "mixed".into()),
        config,
        time_mode: r.time_mode.clone(),
        start_date: r.start_date.trim().to_string(),
        days: r.days,
        daily_quantity: r.daily_quantity,
        review_due_at: rules::review_due(domain::now_ms()),
        seed: seed as i64,
    };
    let id = db::insert_task(&st.db, mid, &task, &items)
        .await?
        .ok_or_else(|| bad("video_ids", Msg::VideoUnusable, vec![("name", "?".into())]))?;
    let t = db::task(&st.db, Some(mid), id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(serde_json::json!({"task": task_view(st, &t).await?, "plan": plan_json}))
}

pub async fn task_view(st: &AppState, t: &db::Task) -> ApiResult<serde_json::Value> {
    let c = db::item_counts(&st.db, t.id).await?;
    let cfg: serde_json::Value = serde_json::from_str(&t.config).unwrap_or_default();
    let done = c.published + c.released;
    Ok(serde_json::json!({
        "id": t.id, "name": t.name, "platform": t.platform, "created_at": t.created_at,
        "merchant_id": t.merchant_id, "merchant_name": t.merchant_name,
        "review_state": t.review_state, "review_reason": t.review_reason, "review_due_at": t.review_due_at,
        "reviewed_at": t.reviewed_at, "overdue": t.review_state == "reviewing" && domain::now_ms() > t.review_due_at,
        "time_mode": t.time_mode, "start_date": t.start_date, "days": t.days, "daily_quantity": t.daily_quantity,
        "titles": cfg["titles"], "topics": cfg["topics"], "mount_type": cfg["mount_type"],
        "accounts": cfg["account_ids"].as_array().map(|a| a.len()).unwrap_or(0),
        "videos": c.total,
        "counts": {"total": c.total, "to_release": c.to_release, "publishing": c.publishing, "published": c.published, "released": c.released, "failed": c.failed},
        "progress": if c.total > 0 { done * 100 / c.total } else { 0 },
        "failed": c.failed,
    }))
}

pub fn item_view(st: &AppState, i: &db::Item, lang: Lang) -> serde_json::Value {
    let (cover, src) = video_urls(st, &i.video_key);
    serde_json::json!({
        "id": i.id, "task_id": i.task_id, "task_name": i.task_name,
        "account": {"id": i.account_id, "nickname": i.nickname, "platform": i.platform, "avatar": i.avatar},
        "video": {"key": i.video_key, "name": i.video_name, "cover": cover, "src": src},
        "title": i.title, "comments": serde_json::from_str::<serde_json::Value>(&i.comments).unwrap_or_default(),
        "scheduled_at": i.scheduled_at, "state": i.state, "review_state": i.review_state,
        "error": if lang == Lang::En { &i.error_en } else { &i.error_zh },
        "attempts": i.attempts, "item_id": i.item_id, "share_url": i.share_url,
        "published_at": i.published_at, "verified_at": i.verified_at, "released_at": i.released_at,
        "comments_sent": i.comments_sent, "plays": i.plays, "likes": i.likes, "comment_count": i.comment_count,
    })
}

#[derive(Debug, Deserialize)]
pub struct TaskIndex {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
    pub platform: Option<String>,
    pub review_state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/index", tag = "matrix", responses((status = 200, description = "{rows:[Task], total}")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TaskIndex>,
) -> ApiResult<Json> {
    let lq = q
        .list
        .with_filter(
            "name",
            q.name.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter(
            "platform",
            q.platform.as_deref().filter(|s| !s.is_empty()),
            "=",
        )
        .with_filter(
            "review_state",
            q.review_state.as_deref().filter(|s| !s.is_empty()),
            "=",
        );
    let (rows, total) = db::tasks(&st.db, c.merchant_id()?, &lq).await?;
    let mut out = vec![];
    for t in &rows {
        out.push(task_view(&st, t).await?);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/task.merchant_forward_task/delete", tag = "matrix", request_body = IdReq, responses((status = 200, description = "deleted; waiting items cancelled")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    match db::delete_task(&st.db, c.merchant_id()?, r.id).await? {
        None => Err(ApiError::invalid("id", Msg::ItemBusy)),
        Some(false) => Err(ApiError::NotFound),
        Some(true) => Ok(ok(serde_json::json!({}))),
    }
}

async fn config(st: &AppState, mid: i64, p: Platform) -> ApiResult<serde_json::Value> {
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("platform", Some(p.code()), "=");
    let (rows, _) = db::accounts(
        &st.db,
        mid,
        db::status_scope(Some("expired"), platform_now()).map(|s| format!("NOT {s}")),
        &lq,
    )
    .await?;
    let mounts: &[&str] = match p {
        Platform::Dy => &["none", "poi", "mini_program", "product"],
        Platform::Ks | Platform::Xhs => &["none", "poi"],
        Platform::Sph => &["none", "poi", "official"],
        Platform::Shop => &["none", "poi", "product"],
        Platform::Bjh => &["none"],
    };
    let (_, sandbox) = st.hub.adapter(p).await?;
    Ok(serde_json::json!({
        "platform": p.code(),
        "limits": {"title_max": rules::TITLE_MAX, "comment_max": rules::COMMENT_MAX, "comment_pick": rules::COMMENT_PICK, "per_account_day": rules::PER_ACCOUNT_DAY},
        "mount_types": mounts,
        "accounts": rows.iter().map(|a| st.hub.view(a)).collect::<Vec<_>>(),
        "sandbox": sandbox,
    }))
}

/// `/task.merchant_forward_task/{p}_forward_config` and `{p}_add` for each platform prefix.
macro_rules! per_platform {
    ($($cfg:ident, $add:ident, $code:literal;)*) => {$(
        #[utoipa::path(method(get, post), path = concat!("/task.merchant_forward_task/", $code, "_forward_config"), tag = "matrix", responses((status = 200, description = "form config: limits, mount types, selectable accounts")))]
        pub async fn $cfg(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
            let p = platform($code)?;
            Ok(ok(config(&st, c.merchant_id()?, p).await?))
        }
        #[utoipa::path(post, path = concat!("/task.merchant_forward_task/", $code, "_add"), tag = "matrix", request_body = TaskReq, responses((status = 200, description = "Plan (preview) or {task, plan}")))]
        pub async fn $add(State(st): State<AppState>, c: Caller, LangOf(lang): LangOf, Input(r): Input<TaskReq>) -> ApiResult<Json> {
            let p = platform($code)?;
            Ok(ok(create(&st, c.merchant_id()?, Some(p), &r, lang).await?))
        }
    )*};
}

per_platform! {
    dy_config, dy_add, "dy";
    ks_config, ks_add, "ks";
    bp_config, bp_add, "bp";
    sph_config, sph_add, "sph";
    bjh_config, bjh_add, "bjh";
    xhs_config, xhs_add, "xhs";
}

#[utoipa::path(post, path = "/matrix.merchant_publish_management/createPublishTask", tag = "matrix", request_body = TaskReq, responses((status = 200, description = "as *_add; `platform` names the platform")))]
pub async fn create_publish_task(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TaskReq>,
) -> ApiResult<Json> {
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    Ok(ok(create(&st, c.merchant_id()?, Some(p), &r, lang).await?))
}

#[utoipa::path(post, path = "/matrix.merchant_publish_management/createCommonPublishTask", tag = "matrix", request_body = TaskReq, responses((status = 200, description = "as *_add with accounts of any platforms")))]
pub async fn create_common_task(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TaskReq>,
) -> ApiResult<Json> {
    Ok(ok(create(&st, c.merchant_id()?, None, &r, lang).await?))
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

#[derive(Debug, Deserialize)]
pub struct ItemQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub task_id: Option<i64>,
    pub state: Option<String>,
}

pub async fn list_items(
    st: &AppState,
    mid: Option<i64>,
    q: ItemQuery,
    lang: Lang,
) -> ApiResult<serde_json::Value> {
    let lq = q
        .list
        .with_filter("task_id", q.task_id.map(|t| t.to_string()).as_deref(), "=")
        .with_filter("state", q.state.as_deref().filter(|s| !s.is_empty()), "=");
    let (rows, total) = db::items(&st.db, mid, &lq).await?;
    let mut summary = serde_json::json!({});
    if let Some(t) = q.task_id {
        let c = db::item_counts(&st.db, t).await?;
        summary = serde_json::json!({"to_release": c.to_release, "publishing": c.publishing, "published": c.published, "released": c.released, "failed": c.failed});
    }
    let mut data = store::list::rows_total(
        rows.iter()
            .map(|i| item_view(st, i, lang))
            .collect::<Vec<_>>(),
        total,
    );
    data["summary"] = summary;
    Ok(data)
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_release", tag = "matrix", responses((status = 200, description = "{rows:[Item], total, summary}")))]
pub async fn forward_video_release(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ItemQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    if let Some(t) = q.task_id {
        db::task(&st.db, Some(mid), t)
            .await?
            .ok_or(ApiError::NotFound)?;
    }
    Ok(ok(list_items(&st, Some(mid), q, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TaskIdReq {
    pub task_id: i64,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_sm_release", tag = "matrix", responses((status = 200, description = "per-state counts of a task")))]
pub async fn forward_video_sm_release(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TaskIdReq>,
) -> ApiResult<Json> {
    db::task(&st.db, Some(c.merchant_id()?), r.task_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let n = db::item_counts(&st.db, r.task_id).await?;
    Ok(ok(
        serde_json::json!({"to_release": n.to_release, "publishing": n.publishing, "published": n.published, "released": n.released, "failed": n.failed, "total": n.total}),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ManualReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub task_id: Option<i64>,
}

/// Publish now / retry: the item (or every waiting and failed item of the task) becomes due now.
#[utoipa::path(post, path = "/task.merchant_forward_task/manual_forward", tag = "matrix", request_body = ManualReq, responses((status = 200, description = "{queued: n}")))]
pub async fn manual_forward(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ManualReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let now = platform_now();
    let ids: Vec<i64> = match (r.id, r.task_id) {
        (Some(id), _) => {
            let it = db::item(&st.db, id)
                .await?
                .filter(|i| i.merchant_id == mid)
                .ok_or(ApiError::NotFound)?;
            vec![it.id]
        }
        (None, Some(t)) => {
            db::task(&st.db, Some(mid), t)
                .await?
                .ok_or(ApiError::NotFound)?;
            let lq = ListQuery {
                limit: Some(1000),
                ..Default::default()
            }
            .with_filter("task_id", Some(&t.to_string()), "=");
            let (rows, _) = db::items(&st.db, Some(mid), &lq).await?;
            rows.into_iter()
                .filter(|i| i.state == "to_release" || i.state == "failed")
                .map(|i| i.id)
                .collect()
        }
        _ => return Err(ApiError::invalid("id", Msg::Required)),
    };
    let mut n = 0;
    for (k, id) in ids.iter().enumerate() {
        // A minute apart, so a merchant's posts never share a minute.
        if db::requeue_item(&st.db, mid, *id, now + k as i64 * 60_000).await? {
            n += 1;
        }
    }
    if n == 0 {
        return Err(ApiError::invalid("id", Msg::NothingToPublish));
    }
    Ok(ok(serde_json::json!({"queued": n})))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_release", tag = "matrix", request_body = ManualReq, responses((status = 200, description = "as manual_forward (session platforms)")))]
pub async fn external_release(
    st: State<AppState>,
    c: Caller,
    r: Input<ManualReq>,
) -> ApiResult<Json> {
    manual_forward(st, c, r).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TimeReq {
    pub id: i64,
    #[serde(default)]
    pub time_mode: String,
    #[serde(default)]
    pub start_date: String,
    #[serde(default)]
    pub daily_quantity: i64,
    #[serde(default)]
    pub days: i64,
    #[serde(default)]
    pub times: Vec<String>,
}

/// Replans the items that have not gone out yet with a new schedule.
#[utoipa::path(post, path = "/task.merchant_forward_task/task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, description = "the task")))]
pub async fn task_time_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TimeReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let t = db::task(&st.db, Some(mid), r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let s = rules::schedule(
        &r.time_mode,
        &r.start_date,
        r.days,
        r.daily_quantity,
        &r.times,
        rules::day_of(platform_now()),
    )?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("task_id", Some(&t.id.to_string()), "=")
    .with_filter("state", Some("to_release"), "=");
    let (waiting, _) = db::items(&st.db, Some(mid), &lq).await?;
    let mut accounts: Vec<i64> = waiting.iter().map(|i| i.account_id).collect();
    accounts.sort_unstable();
    accounts.dedup();
    let from = rules::at(s.start_day, 0);
    let to = rules::at(s.start_day + s.days as i64 + 1, 0);
    let mut taken = db::taken_minutes(&st.db, mid, from, to).await?;
    for i in &waiting {
        taken.remove(&i.scheduled_at.div_euclid(60_000));
    }
    let mut plan = db::Replan {
        time_mode: r.time_mode.clone(),
        start_date: r.start_date.trim().to_string(),
        days: r.days,
        daily_quantity: r.daily_quantity,
        moved: Vec::new(),
        refused: Vec::new(),
    };
    // Keep each item on its account: plan per account with that account's items as its videos.
    for (k, a) in (0u64..).zip(&accounts) {
        let mine: Vec<&db::Item> = waiting.iter().filter(|i| i.account_id == *a).collect();
        let d = rules::distribute(
            1,
            mine.len(),
            mine.len(),
            &s,
            platform_now(),
            &taken,
            t.seed as u64 ^ k,
        );
        for slot in &d.slots {
            taken.insert(slot.at.div_euclid(60_000));
            plan.moved.push((mine[slot.video].id, slot.at));
        }
        plan.refused
            .extend(mine.iter().skip(d.slots.len()).map(|i| i.id));
    }
    db::reschedule_items(&st.db, mid, t.id, &plan).await?;
    let t = db::task(&st.db, Some(mid), r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(task_view(&st, &t).await?))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, description = "as task_time_save")))]
pub async fn external_task_time_save(
    st: State<AppState>,
    c: Caller,
    r: Input<TimeReq>,
) -> ApiResult<Json> {
    task_time_save(st, c, r).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/top_comment_send", tag = "matrix", params(("id" = i64, Query)), responses((status = 200, description = "{sent: n}")))]
pub async fn top_comment_send(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let it = db::item(&st.db, r.id)
        .await?
        .filter(|i| i.merchant_id == mid)
        .ok_or(ApiError::NotFound)?;
    if it.item_id.is_empty() || !(it.state == "published" || it.state == "released") {
        return Err(ApiError::invalid("id", Msg::ItemNotPublished));
    }
    let n = super::publish::send_comments(&st.hub, &it)
        .await
        .map_err(|e| super::hub::refused("id", &e, lang))?;
    Ok(ok(serde_json::json!({"sent": n})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PlatformReq {
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub group_id: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/assistant_is_online", tag = "matrix", responses((status = 200, description = "{rows:[{account_id, nickname, platform, online}]}")))]
pub async fn assistant_is_online(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let lq = ListQuery {
        limit: Some(200),
        ..Default::default()
    }
    .with_filter(
        "platform",
        r.platform.as_deref().filter(|s| !s.is_empty()),
        "=",
    );
    let (rows, _) = db::accounts(
        &st.db,
        mid,
        Some("a.platform IN ('sph', 'xhs', 'shop')".into()),
        &lq,
    )
    .await?;
    let mut out = vec![];
    for a in &rows {
        let p = platform(&a.platform)?;
        let (ad, _) = st.hub.adapter(p).await?;
        let online = a.revoked == 0 && ad.check(&st.hub.creds(a)).await.is_ok();
        out.push(serde_json::json!({"account_id": a.id, "nickname": a.nickname, "platform": a.platform, "online": online}));
    }
    Ok(ok(serde_json::json!({"rows": out})))
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/poinameAddress", tag = "matrix", responses((status = 200, description = "{rows:[Poi]}")))]
pub async fn poiname_address(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<super::accounts::PoiReq>,
) -> ApiResult<Json> {
    c.merchant_id()?;
    super::accounts::poi_search(&st, &r, lang).await
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getPOIAddress", tag = "matrix", responses((status = 200, description = "{rows:[Poi]}")))]
pub async fn get_poi_address(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<super::accounts::PoiReq>,
) -> ApiResult<Json> {
    c.merchant_id()?;
    super::accounts::poi_search(&st, &r, lang).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/get_group_user", tag = "matrix", responses((status = 200, description = "{rows:[Account]} selectable (not expired)")))]
pub async fn get_group_user(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter(
        "platform",
        r.platform.as_deref().filter(|s| !s.is_empty()),
        "=",
    )
    .with_filter(
        "group_id",
        r.group_id.map(|g| g.to_string()).as_deref(),
        "=",
    );
    let not_expired = db::status_scope(Some("expired"), platform_now()).map(|s| format!("NOT {s}"));
    let (rows, _) = db::accounts(&st.db, mid, not_expired, &lq).await?;
    Ok(ok(
        serde_json::json!({"rows": rows.iter().map(|a| st.hub.view(a)).collect::<Vec<_>>()}),
    ))
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/getTaskDyQrcode", tag = "matrix", responses((status = 200, description = "Douyin consent URL to show as a QR code")))]
pub async fn get_task_dy_qrcode(
    st: State<AppState>,
    c: Caller,
    l: LangOf,
    r: Input<super::accounts::AuthReq>,
) -> ApiResult<Json> {
    super::accounts::tiktok_auth(st, c, l, r).await
}

// ---- publish management helpers ----

const TITLES_ZH: &[&str] = &[
    "这家店我愿称之为宝藏",
    "周末带家人来这里就对了",
    "一口下去太满足了",
    "本地人才知道的好去处",
    "今天的快乐是这里给的",
    "性价比天花板，真的绝",
    "朋友都问我在哪里拍的",
    "新品上线，先到先得",
    "逛吃一整天也不累",
    "值得专门跑一趟",
];
const TOPICS_ZH: &[&str] = &[
    "探店",
    "美食推荐",
    "周末去哪儿",
    "本地生活",
    "好物分享",
    "同城推荐",
    "吃货日常",
    "生活记录",
    "新店开业",
    "必吃榜",
];

#[derive(Debug, Deserialize, ToSchema)]
pub struct CountReq {
    #[serde(default)]
    pub count: Option<usize>,
}

fn pick(list: &[&str], n: usize) -> Vec<String> {
    let mut idx: Vec<usize> = (0..list.len()).collect();
    let mut rng = rand::rng();
    rand::seq::SliceRandom::shuffle(&mut idx[..], &mut rng);
    idx.into_iter()
        .take(n.clamp(1, list.len()))
        .map(|i| list[i].to_string())
        .collect()
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getRandomAiTitleList", tag = "matrix", responses((status = 200, description = "{rows:[title]}")))]
pub async fn random_titles(c: Caller, Input(r): Input<CountReq>) -> ApiResult<Json> {
    c.merchant_id()?;
    Ok(ok(
        serde_json::json!({"rows": pick(TITLES_ZH, r.count.unwrap_or(5))}),
    ))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getRandomTopicList", tag = "matrix", responses((status = 200, description = "{rows:[topic]}")))]
pub async fn random_topics(c: Caller, Input(r): Input<CountReq>) -> ApiResult<Json> {
    c.merchant_id()?;
    Ok(ok(
        serde_json::json!({"rows": pick(TOPICS_ZH, r.count.unwrap_or(5))}),
    ))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getATUsers", tag = "matrix", responses((status = 200, description = "{rows:[{id, platform, nickname}]}")))]
pub async fn get_at_users(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> ApiResult<Json> {
    let rows = db::aite_users(
        &st.db,
        c.merchant_id()?,
        r.platform.as_deref().filter(|s| !s.is_empty()),
    )
    .await?;
    Ok(ok(serde_json::json!({"rows": rows})))
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
    let (a, b) = if lang == Lang::En {
        ("Finished videos", "Uploaded videos")
    } else {
        ("成品库视频", "上传的视频")
    };
    Ok(ok(
        serde_json::json!({"rows": [{"value": "library", "label": a}, {"value": "material", "label": b}]}),
    ))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getAccountGroup", tag = "matrix", responses((status = 200, description = "{rows:[{id, name, accounts:[Account]}]}")))]
pub async fn account_groups(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let (groups, _) = db::groups(
        &st.db,
        mid,
        &ListQuery {
            limit: Some(1000),
            ..Default::default()
        },
    )
    .await?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter(
        "platform",
        r.platform.as_deref().filter(|s| !s.is_empty()),
        "=",
    );
    let not_expired = db::status_scope(Some("expired"), platform_now()).map(|s| format!("NOT {s}"));
    let (accounts, _) = db::accounts(&st.db, mid, not_expired, &lq).await?;
    let mut rows = vec![];
    for (id, name) in
        std::iter::once((0, String::new())).chain(groups.iter().map(|g| (g.id, g.name.clone())))
    {
        let mine: Vec<_> = accounts
            .iter()
            .filter(|a| a.group_id == id)
            .map(|a| st.hub.view(a))
            .collect();
        if id == 0 && mine.is_empty() {
            continue;
        }
        rows.push(serde_json::json!({"id": id, "name": name, "accounts": mine}));
    }
    Ok(ok(serde_json::json!({"rows": rows})))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getMiniProgramInformation", tag = "matrix", responses((status = 200, description = "{rows:[{mini_app_id, title, url}]}")))]
pub async fn mini_programs(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let mut rows: Vec<serde_json::Value> = vec![];
    for cfg in db::task_configs(&st.db, c.merchant_id()?, 200).await? {
        let v: serde_json::Value = serde_json::from_str(&cfg).unwrap_or_default();
        let id = v["mini_app_id"].as_str().unwrap_or("");
        if !id.is_empty() && !rows.iter().any(|r| r["mini_app_id"] == id) {
            rows.push(serde_json::json!({"mini_app_id": id, "title": v["mini_app_title"], "url": v["mini_app_url"]}));
        }
    }
    Ok(ok(serde_json::json!({"rows": rows})))
}

// ---- @-mention users ----

#[utoipa::path(method(get, post), path = "/bpdr.merchant_aite_users/index", tag = "matrix", responses((status = 200, description = "{rows:[{id, platform, nickname}], total}")))]
pub async fn aite_index(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> ApiResult<Json> {
    let rows = db::aite_users(
        &st.db,
        c.merchant_id()?,
        r.platform.as_deref().filter(|s| !s.is_empty()),
    )
    .await?;
    Ok(ok(serde_json::json!({"total": rows.len(), "rows": rows})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AiteReq {
    #[serde(default)]
    pub platform: String,
    #[serde(default)]
    pub nickname: String,
}

#[utoipa::path(post, path = "/bpdr.merchant_aite_users/add", tag = "matrix", request_body = AiteReq, responses((status = 200, description = "added")))]
pub async fn aite_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AiteReq>,
) -> ApiResult<Json> {
    let p = platform(&r.platform)?;
    let nick = r.nickname.trim().trim_start_matches('@');
    domain::validate::required("nickname", nick)?;
    domain::validate::max_chars("nickname", nick, domain::matrix::GROUP_NAME_MAX)?;
    db::add_aite_user(&st.db, c.merchant_id()?, p.code(), nick).await?;
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/bpdr.merchant_aite_users/delete", tag = "matrix", request_body = IdReq, responses((status = 200, description = "deleted")))]
pub async fn aite_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    if !db::delete_aite_user(&st.db, c.merchant_id()?, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}
