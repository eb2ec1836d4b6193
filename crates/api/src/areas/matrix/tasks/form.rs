//! What the release-task form offers to pick: accounts (and whether session platforms are online),
//! POIs, random titles and topics, mini programs used before, authorizing a Douyin account
//! (`services::matrix::tasks::form`).

use super::PlatformReq;
use crate::LangOf;
use crate::areas::matrix::accounts;
use crate::areas::matrix::views::{
    self, AccountView, AuthStart, GroupWithAccounts, MiniProgram, Online, PoiView, Rows,
};
use crate::error::{Answer, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use crate::writer::WrittenRows;
use axum::extract::State;
use serde::Deserialize;
use services::ListQuery;
use services::matrix::tasks::form as uc;
use utoipa::ToSchema;

fn platform_of(r: &PlatformReq) -> Option<&str> {
    r.platform.as_deref().filter(|s| !s.is_empty())
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/assistant_is_online", tag = "matrix", responses((status = 200, body = Reply<Rows<Online>>)))]
pub async fn assistant_is_online(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> Answer<Rows<Online>> {
    let rows = uc::online(&st.hub, c.merchant_id()?, platform_of(&r)).await?;
    let rows = rows
        .into_iter()
        .map(|(a, online)| Online {
            account_id: a.id,
            nickname: a.nickname,
            platform: a.platform,
            online,
        })
        .collect();
    Ok(reply(Rows { rows }))
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/poinameAddress", tag = "matrix", responses((status = 200, body = Reply<Page<PoiView>>)))]
pub async fn poiname_address(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<accounts::PoiReq>,
) -> Answer<Page<PoiView>> {
    accounts::poi_search(&st, &c, &r).await
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getPOIAddress", tag = "matrix", responses((status = 200, body = Reply<Page<PoiView>>)))]
pub async fn get_poi_address(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<accounts::PoiReq>,
) -> Answer<Page<PoiView>> {
    accounts::poi_search(&st, &c, &r).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/get_group_user", tag = "matrix", responses((status = 200, body = Reply<Rows<AccountView>>)))]
pub async fn get_group_user(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<PlatformReq>,
) -> Answer<Rows<AccountView>> {
    let mid = c.merchant_id()?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("platform", platform_of(&r), "=")
    .with_filter(
        "group_id",
        r.group_id.map(|g| g.to_string()).as_deref(),
        "=",
    );
    let rows = services::matrix::accounts::selectable(&st.db, mid, &lq).await?;
    Ok(reply(Rows {
        rows: views::accounts(&rows, lang, st.db.clock.platform_now()),
    }))
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/getTaskDyQrcode", tag = "matrix", responses((status = 200, body = Reply<AuthStart>)))]
pub async fn get_task_dy_qrcode(
    st: State<AppState>,
    c: Caller,
    r: Input<accounts::AuthReq>,
) -> Answer<AuthStart> {
    accounts::tiktok_auth(st, c, r).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CountReq {
    #[serde(default)]
    pub count: Option<usize>,
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getRandomAiTitleList", tag = "matrix", responses((status = 200, body = Reply<WrittenRows>)))]
pub async fn random_titles(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<CountReq>,
) -> Answer<WrittenRows> {
    let w = services::seo::titles::random_titles(
        &st.db,
        &st.hub.sealer,
        c.merchant_id()?,
        lang,
        r.count.unwrap_or(5),
    )
    .await?;
    Ok(reply(WrittenRows::of(w, lang)))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getRandomTopicList", tag = "matrix", responses((status = 200, body = Reply<WrittenRows>)))]
pub async fn random_topics(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<CountReq>,
) -> Answer<WrittenRows> {
    let w = services::seo::titles::random_topics(
        &st.db,
        &st.hub.sealer,
        c.merchant_id()?,
        lang,
        r.count.unwrap_or(5),
    )
    .await?;
    Ok(reply(WrittenRows::of(w, lang)))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getAccountGroup", tag = "matrix", responses((status = 200, body = Reply<Rows<GroupWithAccounts>>)))]
pub async fn account_groups(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<PlatformReq>,
) -> Answer<Rows<GroupWithAccounts>> {
    let rows = uc::groups_with_accounts(&st.db, c.merchant_id()?, platform_of(&r)).await?;
    let rows = rows
        .into_iter()
        .map(|(id, name, accounts)| GroupWithAccounts {
            id,
            name,
            accounts: views::accounts(&accounts, lang, st.db.clock.platform_now()),
        })
        .collect();
    Ok(reply(Rows { rows }))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getMiniProgramInformation", tag = "matrix", responses((status = 200, body = Reply<Rows<MiniProgram>>)))]
pub async fn mini_programs(State(st): State<AppState>, c: Caller) -> Answer<Rows<MiniProgram>> {
    let rows = uc::mini_programs(&st.db, c.merchant_id()?).await?;
    let rows = rows
        .into_iter()
        .map(|m| MiniProgram {
            mini_app_id: m.mini_app_id,
            title: m.title,
            url: m.url,
        })
        .collect();
    Ok(reply(Rows { rows }))
}

/// One platform's rules for a post, as the release form shows them beside the fields they limit
/// (`domain::matrix::platform_rules`; absent: no limit beyond the product's own).
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct PlatformRulesView {
    pub platform: domain::platform::Platform,
    pub title_max: Option<usize>,
    pub body_max: Option<usize>,
    pub topics_max: Option<usize>,
    pub mentions_max: Option<usize>,
    pub posts_per_day: Option<u32>,
    /// The platform's own scheduling window, seconds ahead [min, max].
    pub schedule_window_s: Option<[i64; 2]>,
    pub scheduled_per_day: Option<u32>,
    pub sources: String,
}

#[utoipa::path(get, path = "/matrix.merchant_publish_management/platform_rules", tag = "matrix", responses((status = 200, body = Reply<Vec<PlatformRulesView>>)))]
pub async fn platform_rules(_c: Caller) -> Answer<Vec<PlatformRulesView>> {
    Ok(reply(
        domain::matrix::platform_rules::ALL
            .iter()
            .map(|r| PlatformRulesView {
                platform: r.platform,
                title_max: r.title_max,
                body_max: r.body_max,
                topics_max: r.topics_max,
                mentions_max: r.mentions_max,
                posts_per_day: r.posts_per_day,
                schedule_window_s: r.schedule_window_s.map(|(a, b)| [a, b]),
                scheduled_per_day: r.scheduled_per_day,
                sources: r.sources.to_string(),
            })
            .collect(),
    ))
}
