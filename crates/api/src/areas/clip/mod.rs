//! Area "clip" (DESIGN.md §4): mixing projects, the render job, the finished-video library.

pub mod intellect;
pub mod library;
pub mod one_touch;
pub mod projects;
pub mod senior;
pub mod slicing;
pub mod templates;

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
        .routes(routes!(senior::index))
        .routes(routes!(senior::modify))
        .routes(routes!(senior::delete))
        .routes(routes!(library::index))
        .routes(routes!(library::export))
        .routes(routes!(library::video_index))
        .routes(routes!(library::video_delete))
        .routes(routes!(library::download))
        .routes(routes!(library::video_cancel))
        .routes(routes!(library::video_use))
        .routes(routes!(library::job_video))
        .routes(routes!(library::continue_add))
        .routes(routes!(library::add))
        .routes(routes!(library::job_video_add_all))
        .routes(routes!(slicing::index))
        .routes(routes!(slicing::create_project))
        .routes(routes!(slicing::delete))
        .routes(routes!(slicing::job_export))
        .routes(routes!(slicing::video_library))
        .routes(routes!(slicing::video_delete))
        .routes(routes!(slicing::job_video_add_all))
        .routes(routes!(slicing::sources_index))
        .routes(routes!(slicing::add_video))
        .routes(routes!(slicing::source_delete))
        .routes(routes!(slicing::modify))
        .routes(routes!(slicing::job_video))
        .routes(routes!(slicing::job_delete))
        .routes(routes!(templates::categories))
        .routes(routes!(templates::index))
        .routes(routes!(templates::like))
        .routes(routes!(templates::template_clip))
        .routes(routes!(templates::save))
        .routes(routes!(templates::delete))
        .routes(routes!(one_touch::index))
        .routes(routes!(one_touch::add))
        .routes(routes!(one_touch::edit))
        .routes(routes!(one_touch::create_video))
        .routes(routes!(one_touch::create_video_v2))
        .routes(routes!(one_touch::delete))
        .routes(routes!(one_touch::copy))
        .routes(routes!(one_touch::change_name))
        .routes(routes!(one_touch::one_touch_new))
        .routes(routes!(one_touch::my_jobs))
        .routes(routes!(one_touch::video_projects))
        .routes(routes!(one_touch::video_list))
        .routes(routes!(one_touch::img_projects))
        .routes(routes!(one_touch::img_list))
        .routes(routes!(one_touch::groups))
        .routes(routes!(one_touch::voice_detail))
        .routes(routes!(intellect::sources))
        .routes(routes!(intellect::index))
        .routes(routes!(intellect::info))
        .routes(routes!(intellect::add))
        .routes(routes!(intellect::retry))
        .routes(routes!(intellect::delete))
}
