//! Area "clip" (DESIGN.md §4): mixing projects, the render job, the finished-video library.

pub mod library;
pub mod projects;
pub mod render;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(projects::index))
        .routes(routes!(projects::add))
        .routes(routes!(projects::modify))
        .routes(routes!(projects::add_copy))
        .routes(routes!(projects::edit_status))
        .routes(routes!(projects::delete))
        .routes(routes!(projects::resource_groups))
        .routes(routes!(projects::resources))
        .routes(routes!(projects::preview))
        .routes(routes!(projects::add_video))
        .routes(routes!(library::index))
        .routes(routes!(library::video_index))
        .routes(routes!(library::video_delete))
        .routes(routes!(library::video_cancel))
        .routes(routes!(library::video_use))
        .routes(routes!(library::job_video))
        .routes(routes!(library::continue_add))
}
