//! Creating a release task: the form, every SPEC §5 rule checked before anything is stored, the
//! distribution plan shown as a preview and stored as the task's items on confirming.

use super::lists::task_view;
use super::videos::{Video, video};
use crate::LangOf;
use crate::areas::matrix::hub::platform;
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
