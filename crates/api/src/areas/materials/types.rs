//! File types (`/bpdr.merchant_file_type/*`): a merchant's own categories for audio, video and image
//! files, as a flat list per kind or a tree.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::validate;
use serde::Deserialize;
use store::materials as mat;
use utoipa::ToSchema;

fn tree(all: &[mat::FileType], parent: i64) -> Vec<serde_json::Value> {
    all.iter()
        .filter(|t| t.parent_id == parent)
        .map(|t| serde_json::json!({ "id": t.id, "name": t.name, "kind": t.kind, "parent_id": t.parent_id, "children": tree(all, t.id) }))
        .collect()
}

async fn index(st: &AppState, c: &Caller, kind: &str) -> ApiResult<Json> {
    let rows = mat::file_types(&st.db, c.merchant_id()?, kind).await?;
    Ok(ok(serde_json::json!({ "total": rows.len(), "rows": rows })))
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/audio_index", tag = "materials", responses((status = 200, description = "{rows,total}")))]
pub async fn audio_index(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    index(&st, &c, "audio").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/video_index", tag = "materials", responses((status = 200, description = "{rows,total}")))]
pub async fn video_index(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    index(&st, &c, "video").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/image_index", tag = "materials", responses((status = 200, description = "{rows,total}")))]
pub async fn image_index(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    index(&st, &c, "image").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/image_tree", tag = "materials", responses((status = 200, description = "image types as a tree")))]
pub async fn image_tree(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let all = mat::file_types(&st.db, c.merchant_id()?, "image").await?;
    Ok(ok(tree(&all, 0)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddReq {
    /// audio | video | image (also accepted as `?type=`).
    #[serde(default, alias = "type")]
    pub kind: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub parent_id: i64,
}

async fn add(st: &AppState, c: &Caller, r: AddReq) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let kind = r.kind.trim();
    if !["audio", "video", "image"].contains(&kind) {
        return Err(ApiError::invalid_with(
            "type",
            Msg::InvalidValue,
            vec![("reason", "audio | video | image".into())],
        ));
    }
    let name = r.name.trim();
    validate::required("name", name)?;
    validate::max_chars("name", name, 30)?;
    if r.parent_id != 0
        && mat::file_type(&st.db, mid, r.parent_id)
            .await?
            .filter(|p| p.kind == kind)
            .is_none()
    {
        return Err(ApiError::NotFound);
    }
    let id = mat::add_file_type(&st.db, mid, kind, r.parent_id, name).await?;
    Ok(ok(mat::file_type(&st.db, mid, id).await?))
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/add", tag = "materials", request_body = AddReq, responses((status = 200, description = "the type")))]
pub async fn add_type(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> ApiResult<Json> {
    add(&st, &c, r).await
}

#[utoipa::path(post, path = "/media.merchant_file_type/add", tag = "materials", request_body = AddReq, responses((status = 200, description = "the type")))]
pub async fn media_add_type(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> ApiResult<Json> {
    add(&st, &c, r).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EditReq {
    pub id: i64,
    #[serde(default)]
    pub name: String,
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/edit", tag = "materials", request_body = EditReq, responses((status = 200, description = "renamed")))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<EditReq>,
) -> ApiResult<Json> {
    let name = r.name.trim();
    validate::required("name", name)?;
    if !mat::rename_file_type(&st.db, c.merchant_id()?, r.id, name).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/delete", tag = "materials", request_body = IdReq, responses((status = 200, description = "deleted; its files become uncategorised")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    if !mat::delete_file_type(&st.db, c.merchant_id()?, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}
