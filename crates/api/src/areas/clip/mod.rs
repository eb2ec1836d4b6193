//! Area "clip" (DESIGN.md §4): mixing projects, the render job, the finished-video library.

pub mod ai_clip;
pub mod intellect;
pub mod library;
pub mod projects;
pub mod senior;
pub mod slice;
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
        .routes(routes!(library::video_index))
        .routes(routes!(library::video_delete))
        .routes(routes!(library::video_cancel))
        .routes(routes!(library::video_use))
        .routes(routes!(library::job_video))
        .routes(routes!(library::continue_add))
        .routes(routes!(library::add))
        .routes(routes!(library::job_video_add_all))
        .routes(routes!(slice::index))
        .routes(routes!(slice::create_project))
        .routes(routes!(slice::delete))
        .routes(routes!(slice::job_export))
        .routes(routes!(slice::video_library))
        .routes(routes!(slice::video_delete))
        .routes(routes!(slice::job_video_add_all))
        .routes(routes!(slice::sources_index))
        .routes(routes!(slice::add_video))
        .routes(routes!(slice::source_delete))
        .routes(routes!(slice::modify))
        .routes(routes!(slice::job_video))
        .routes(routes!(slice::job_delete))
        .routes(routes!(templates::categories))
        .routes(routes!(templates::index))
        .routes(routes!(templates::like))
        .routes(routes!(templates::template_clip))
        .routes(routes!(templates::save))
        .routes(routes!(templates::delete))
        .routes(routes!(ai_clip::index))
        .routes(routes!(ai_clip::add))
        .routes(routes!(ai_clip::edit))
        .routes(routes!(ai_clip::create_video))
        .routes(routes!(ai_clip::create_video_v2))
        .routes(routes!(ai_clip::delete))
        .routes(routes!(ai_clip::copy))
        .routes(routes!(ai_clip::change_name))
        .routes(routes!(ai_clip::one_touch_new))
        .routes(routes!(ai_clip::my_jobs))
        .routes(routes!(ai_clip::video_projects))
        .routes(routes!(ai_clip::video_list))
        .routes(routes!(ai_clip::img_projects))
        .routes(routes!(ai_clip::img_list))
        .routes(routes!(ai_clip::groups))
        .routes(routes!(ai_clip::voice_detail))
        .routes(routes!(intellect::sources))
        .routes(routes!(intellect::index))
        .routes(routes!(intellect::info))
        .routes(routes!(intellect::add))
        .routes(routes!(intellect::retry))
        .routes(routes!(intellect::delete))
}
