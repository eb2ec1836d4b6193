//! Advanced mode (`/clip.merchant_senior_clip/*`, page /high_modeVisualization_clip): the same shot-group
//! projects as quick mix, with per-shot control — start point and length, order, a caption per shot and a
//! transition into the next one (see `domain::clip::GroupRule`). Variants are planned, previewed, rendered
//! and continued through the quick-mix calls (`preview_video`, `add_video`), which take either mode.

use super::projects::{self, IndexQuery, ProjectView, SaveReq};
use crate::error::{Answer, Done, Page, Reply};
use crate::extract::IdReq;
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;

const MODE: domain::clip::ProjectMode = domain::clip::ProjectMode::Senior;

#[utoipa::path(method(get, post), path = "/clip.merchant_senior_clip/index", tag = "clip", responses((status = 200, body = Reply<Page<ProjectView>>, description = "advanced projects with capacity and variant counts")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<ProjectView>> {
    projects::list(&st, &c, MODE, q).await
}

#[utoipa::path(post, path = "/clip.merchant_senior_clip/modify", tag = "clip", request_body = SaveReq, responses((status = 200, body = Reply<ProjectView>, description = "the project (created when no id is given)")))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> Answer<ProjectView> {
    projects::save(&st, &c, MODE, r).await
}

#[utoipa::path(post, path = "/clip.merchant_senior_clip/delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "deleted with its variants")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    projects::remove(&st, &c, Some(MODE), r.id).await
}
