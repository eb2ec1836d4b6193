//! Area "materials" (DESIGN.md §4): uploads, libraries, shot groups, media serving, ingest.

pub mod asr;
pub mod chunks;
pub mod library;
pub mod music;
pub mod types;
pub mod upload;
pub mod views;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    // Only the upload calls take large bodies: they stream to disk and enforce each kind's limit as
    // bytes arrive (300 MB videos). Every other call keeps the app's small limit (`extract::BODY_MAX`).
    let uploads = OpenApiRouter::new()
        .routes(routes!(library::add_resource))
        .routes(routes!(library::project_upload))
        .routes(routes!(library::local_upload))
        .routes(routes!(library::mediainfo_upload))
        .routes(routes!(library::douyin_upload))
        .routes(routes!(library::producing_add))
        .routes(routes!(library::font_add))
        .routes(routes!(chunks::chunk))
        .routes(routes!(music::operator_add))
        .layer(axum::extract::DefaultBodyLimit::max(
            upload::VIDEO_MAX as usize + 1024 * 1024,
        ));
    OpenApiRouter::new()
        .routes(routes!(library::up_files))
        .routes(routes!(library::voice_names))
        .routes(routes!(library::font_urls))
        .routes(routes!(library::producing_video))
        .routes(routes!(library::producing_music))
        .routes(routes!(library::producing_image))
        .routes(routes!(library::fonts))
        .routes(routes!(library::fonts_all))
        .routes(routes!(library::resource_detail_list))
        .routes(routes!(library::export))
        .routes(routes!(library::voice_export))
        .routes(routes!(library::music_export))
        .routes(routes!(library::image_export))
        .routes(routes!(library::font_export))
        .routes(routes!(library::resource_detail))
        .routes(routes!(library::font_edit))
        .routes(routes!(library::edit_upfile))
        .routes(routes!(library::resource_delete))
        .routes(routes!(library::resource_delete_media))
        .routes(routes!(library::producing_delete))
        .routes(routes!(library::font_delete))
        .routes(routes!(library::resource_add))
        .routes(routes!(library::video_groups))
        .routes(routes!(library::broadcast_groups))
        .routes(routes!(library::group_add))
        .routes(routes!(library::group_rename))
        .routes(routes!(library::group_delete))
        .routes(routes!(library::classify_index))
        .routes(routes!(library::classify_list))
        .routes(routes!(library::group_tree))
        .routes(routes!(library::classify_add))
        .routes(routes!(library::classify_rename))
        .routes(routes!(library::classify_delete))
        .routes(routes!(asr::add))
        .routes(routes!(asr::deduction_point))
        .routes(routes!(library::broadcast_detail_list))
        .routes(routes!(asr::detail))
        .routes(routes!(asr::timeline))
        .routes(routes!(asr::modify))
        .routes(routes!(asr::delete))
        .routes(routes!(asr::save))
        .routes(routes!(chunks::policy))
        .routes(routes!(chunks::yun_data))
        .routes(routes!(chunks::finish))
        .routes(routes!(types::audio_index))
        .routes(routes!(types::video_index))
        .routes(routes!(types::image_index))
        .routes(routes!(types::image_tree))
        .routes(routes!(types::add_type))
        .routes(routes!(types::media_add_type))
        .routes(routes!(types::edit))
        .routes(routes!(types::delete))
        .routes(routes!(music::system_index))
        .routes(routes!(music::operator_index))
        .routes(routes!(music::operator_delete))
        .routes(routes!(music::music_save))
        .routes(routes!(music::image_save))
        .merge(uploads)
}
