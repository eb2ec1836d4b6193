//! File types (`/bpdr.merchant_file_type/*`): a merchant's own categories for audio, video and image
//! files, as a flat list per kind or a tree.

use super::views::FileType;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::materials::library as uc;
use utoipa::ToSchema;

/// One file type of the tree, with its children.
#[derive(Debug, Serialize, ToSchema)]
pub struct TypeNode {
    pub id: i64,
    pub name: String,
    pub kind: domain::materials::FileTypeKind,
    pub parent_id: i64,
    #[schema(no_recursion)]
    pub children: Vec<TypeNode>,
}

fn tree(all: &[uc::FileType], parent: i64) -> Vec<TypeNode> {
    all.iter()
        .filter(|t| t.parent_id == parent)
        .map(|t| TypeNode {
            id: t.id,
            name: t.name.clone(),
            kind: t.kind,
            parent_id: t.parent_id,
            children: tree(all, t.id),
        })
        .collect()
}

async fn index(st: &AppState, c: &Caller, kind: &str) -> Answer<Page<FileType>> {
    let rows = uc::file_types(&st.db, c.merchant_id()?, kind).await?;
    Ok(reply(Page::whole(
        rows.into_iter().map(FileType::from).collect(),
    )))
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/audio_index", tag = "materials", responses((status = 200, body = Reply<Page<FileType>>)))]
pub async fn audio_index(State(st): State<AppState>, c: Caller) -> Answer<Page<FileType>> {
    index(&st, &c, "audio").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/video_index", tag = "materials", responses((status = 200, body = Reply<Page<FileType>>)))]
pub async fn video_index(State(st): State<AppState>, c: Caller) -> Answer<Page<FileType>> {
    index(&st, &c, "video").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/image_index", tag = "materials", responses((status = 200, body = Reply<Page<FileType>>)))]
pub async fn image_index(State(st): State<AppState>, c: Caller) -> Answer<Page<FileType>> {
    index(&st, &c, "image").await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_file_type/image_tree", tag = "materials", responses((status = 200, body = Reply<Vec<TypeNode>>)))]
pub async fn image_tree(State(st): State<AppState>, c: Caller) -> Answer<Vec<TypeNode>> {
    let all = uc::file_types(&st.db, c.merchant_id()?, "image").await?;
    Ok(reply(tree(&all, 0)))
}

// The kinds `add_file_type` accepts, for the document only.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum FileKind {
    Audio,
    Video,
    Image,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = FileTypeAddReq)]
pub struct AddReq {
    /// audio | video | image (also accepted as `?type=`).
    #[serde(default, alias = "type")]
    #[schema(required = true, value_type = FileKind)]
    pub kind: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 30)]
    pub name: String,
    /// 0: a top-level category.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub parent_id: i64,
}

async fn add(st: &AppState, c: &Caller, r: AddReq) -> Answer<Option<FileType>> {
    let t = uc::add_file_type(&st.db, c.merchant_id()?, &r.kind, &r.name, r.parent_id).await?;
    Ok(reply(t.map(FileType::from)))
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/add", tag = "materials", request_body = AddReq, responses((status = 200, body = Reply<FileType>)))]
pub async fn add_type(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> Answer<Option<FileType>> {
    add(&st, &c, r).await
}

#[utoipa::path(post, path = "/media.merchant_file_type/add", tag = "materials", request_body = AddReq, responses((status = 200, body = Reply<FileType>)))]
pub async fn media_add_type(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> Answer<Option<FileType>> {
    add(&st, &c, r).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EditReq {
    pub id: i64,
    #[serde(default)]
    pub name: String,
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/edit", tag = "materials", request_body = EditReq, responses((status = 200, body = Reply<Done>, description = "renamed")))]
pub async fn edit(State(st): State<AppState>, c: Caller, Input(r): Input<EditReq>) -> Answer<Done> {
    uc::rename_file_type(&st.db, c.merchant_id()?, r.id, &r.name).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/bpdr.merchant_file_type/delete", tag = "materials", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "deleted; its files become uncategorised")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete_file_type(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}
