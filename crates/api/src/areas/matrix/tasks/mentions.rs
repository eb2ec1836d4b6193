//! The @-mention ("aite") users a merchant keeps per platform, picked in the task form.

use super::{IdReq, PlatformReq};
use crate::areas::matrix::views::AiteUser;
use crate::areas::matrix::views::Rows;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use services::matrix::tasks::form as uc;
use utoipa::ToSchema;

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getATUsers", tag = "matrix", responses((status = 200, body = Reply<Rows<AiteUser>>)))]
pub async fn get_at_users(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> Answer<Rows<AiteUser>> {
    let rows = uc::aite_users(
        &st.db,
        c.merchant_id()?,
        r.platform.as_deref().filter(|s| !s.is_empty()),
    )
    .await?;
    Ok(reply(Rows {
        rows: rows.into_iter().map(AiteUser::from).collect(),
    }))
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_aite_users/index", tag = "matrix", responses((status = 200, body = Reply<Page<AiteUser>>)))]
pub async fn aite_index(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> Answer<Page<AiteUser>> {
    let rows = uc::aite_users(
        &st.db,
        c.merchant_id()?,
        r.platform.as_deref().filter(|s| !s.is_empty()),
    )
    .await?;
    Ok(reply(Page::whole(
        rows.into_iter().map(AiteUser::from).collect(),
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AiteReq {
    #[serde(default)]
    #[schema(required = true, value_type = domain::platform::Platform)]
    pub platform: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 30)]
    pub nickname: String,
}

#[utoipa::path(post, path = "/bpdr.merchant_aite_users/add", tag = "matrix", request_body = AiteReq, responses((status = 200, body = Reply<Done>)))]
pub async fn aite_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AiteReq>,
) -> Answer<Done> {
    let mid = c.merchant_id()?;
    uc::add_mention(&st.db, mid, &r.platform, &r.nickname).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/bpdr.merchant_aite_users/delete", tag = "matrix", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn aite_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::delete_mention(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}
