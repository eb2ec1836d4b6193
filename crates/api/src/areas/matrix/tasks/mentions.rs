//! The @-mention ("aite") users a merchant keeps per platform, picked in the task form.

use super::{IdReq, PlatformReq};
use crate::areas::matrix::hub::platform;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use store::matrix as db;
use utoipa::ToSchema;

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
