//! Area "matrix" (DESIGN.md §4): authorized platform accounts and their groups, release tasks with
//! their distribution plan, review, the publisher jobs, platform app credentials, webhooks.

pub mod accounts;
pub mod audit;
pub mod hub;
pub mod publish;
pub mod tasks;
pub mod webhook;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(accounts::index))
        .routes(routes!(accounts::expire_user))
        .routes(routes!(accounts::get_qr_code))
        .routes(routes!(accounts::tiktok_auth))
        .routes(routes!(accounts::dy_auth_aggregation))
        .routes(routes!(accounts::qr_login))
        .routes(routes!(accounts::sph_login))
        .routes(routes!(accounts::xhs_login))
        .routes(routes!(accounts::bjh_login))
        .routes(routes!(accounts::renew))
        .routes(routes!(accounts::user_save))
        .routes(routes!(accounts::update_notes))
        .routes(routes!(accounts::update_address))
        .routes(routes!(accounts::discharge_poi))
        .routes(routes!(accounts::get_poi_id))
        .routes(routes!(accounts::delete))
        .routes(routes!(accounts::dy_share))
        .routes(routes!(accounts::groups))
        .routes(routes!(accounts::group_add))
        .routes(routes!(accounts::group_edit))
        .routes(routes!(accounts::group_delete))
        .routes(routes!(tasks::lists::index))
        .routes(routes!(tasks::lists::delete))
        .routes(routes!(tasks::release::dy_config))
        .routes(routes!(tasks::release::ks_config))
        .routes(routes!(tasks::release::bp_config))
        .routes(routes!(tasks::release::sph_config))
        .routes(routes!(tasks::release::bjh_config))
        .routes(routes!(tasks::release::xhs_config))
        .routes(routes!(tasks::release::dy_add))
        .routes(routes!(tasks::release::ks_add))
        .routes(routes!(tasks::release::bp_add))
        .routes(routes!(tasks::release::sph_add))
        .routes(routes!(tasks::release::bjh_add))
        .routes(routes!(tasks::release::xhs_add))
        .routes(routes!(tasks::release::create_publish_task))
        .routes(routes!(tasks::release::create_common_task))
        .routes(routes!(tasks::videos::forward_video))
        .routes(routes!(tasks::lists::forward_video_release))
        .routes(routes!(tasks::lists::forward_video_sm_release))
        .routes(routes!(tasks::items::manual_forward))
        .routes(routes!(tasks::items::external_release))
        .routes(routes!(tasks::schedule::task_time_save))
        .routes(routes!(tasks::schedule::external_task_time_save))
        .routes(routes!(tasks::items::top_comment_send))
        .routes(routes!(tasks::form::assistant_is_online))
        .routes(routes!(tasks::form::poiname_address))
        .routes(routes!(tasks::form::get_group_user))
        .routes(routes!(tasks::form::get_task_dy_qrcode))
        .routes(routes!(tasks::form::random_titles))
        .routes(routes!(tasks::form::random_topics))
        .routes(routes!(tasks::form::get_poi_address))
        .routes(routes!(tasks::mentions::get_at_users))
        .routes(routes!(tasks::videos::lib_projects))
        .routes(routes!(tasks::videos::video_types))
        .routes(routes!(tasks::form::account_groups))
        .routes(routes!(tasks::form::mini_programs))
        .routes(routes!(tasks::mentions::aite_index))
        .routes(routes!(tasks::mentions::aite_add))
        .routes(routes!(tasks::mentions::aite_delete))
        .routes(routes!(audit::index))
        .routes(routes!(audit::detail))
        .routes(routes!(audit::approve))
        .routes(routes!(audit::reject))
        .routes(routes!(audit::apps))
        .routes(routes!(audit::app_save))
        .routes(routes!(audit::app_clear))
}
