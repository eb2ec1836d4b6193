//! What the release-task form offers to pick: accounts (and whether session platforms are online),
//! POIs, random titles and topics, mini programs used before, authorizing a Douyin account.

use super::PlatformReq;
use crate::LangOf;
use crate::areas::matrix::accounts;
use crate::areas::matrix::hub::platform;
use crate::error::{ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clock::platform_now;
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

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
    Input(r): Input<accounts::PoiReq>,
) -> ApiResult<Json> {
    c.merchant_id()?;
    accounts::poi_search(&st, &r, lang).await
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getPOIAddress", tag = "matrix", responses((status = 200, description = "{rows:[Poi]}")))]
pub async fn get_poi_address(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<accounts::PoiReq>,
) -> ApiResult<Json> {
    c.merchant_id()?;
    accounts::poi_search(&st, &r, lang).await
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
    r: Input<accounts::AuthReq>,
) -> ApiResult<Json> {
    accounts::tiktok_auth(st, c, l, r).await
}

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
