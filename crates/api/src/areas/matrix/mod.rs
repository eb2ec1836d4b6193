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
        .routes(routes!(tasks::index))
        .routes(routes!(tasks::delete))
        .routes(routes!(tasks::dy_config))
        .routes(routes!(tasks::ks_config))
        .routes(routes!(tasks::bp_config))
        .routes(routes!(tasks::sph_config))
        .routes(routes!(tasks::bjh_config))
        .routes(routes!(tasks::xhs_config))
        .routes(routes!(tasks::dy_add))
        .routes(routes!(tasks::ks_add))
        .routes(routes!(tasks::bp_add))
        .routes(routes!(tasks::sph_add))
        .routes(routes!(tasks::bjh_add))
        .routes(routes!(tasks::xhs_add))
        .routes(routes!(tasks::create_publish_task))
        .routes(routes!(tasks::create_common_task))
        .routes(routes!(tasks::forward_video))
        .routes(routes!(tasks::forward_video_release))
        .routes(routes!(tasks::forward_video_sm_release))
        .routes(routes!(tasks::manual_forward))
        .routes(routes!(tasks::external_release))
        .routes(routes!(tasks::task_time_save))
        .routes(routes!(tasks::external_task_time_save))
        .routes(routes!(tasks::top_comment_send))
        .routes(routes!(tasks::assistant_is_online))
        .routes(routes!(tasks::poiname_address))
        .routes(routes!(tasks::get_group_user))
        .routes(routes!(tasks::get_task_dy_qrcode))
        .routes(routes!(tasks::random_titles))
        .routes(routes!(tasks::random_topics))
        .routes(routes!(tasks::get_poi_address))
        .routes(routes!(tasks::get_at_users))
        .routes(routes!(tasks::lib_projects))
        .routes(routes!(tasks::video_types))
        .routes(routes!(tasks::account_groups))
        .routes(routes!(tasks::mini_programs))
        .routes(routes!(tasks::aite_index))
        .routes(routes!(tasks::aite_add))
        .routes(routes!(tasks::aite_delete))
        .routes(routes!(audit::index))
        .routes(routes!(audit::detail))
        .routes(routes!(audit::approve))
        .routes(routes!(audit::reject))
        .routes(routes!(audit::apps))
        .routes(routes!(audit::app_save))
        .routes(routes!(audit::app_clear))
}
