//! Area "auth & users" (DESIGN.md §4): sign-in, sessions, staff, logs, points records.

pub mod index;
pub mod login;
pub mod staff;
pub mod tokens;
pub mod views;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login::login_index))
        .routes(routes!(login::platform_init))
        .routes(routes!(login::send_sms))
        .routes(routes!(login::auth))
        .routes(routes!(login::verify_jwt_token))
        .routes(routes!(login::register))
        .routes(routes!(login::reset_password))
        .routes(routes!(login::refresh_token))
        .routes(routes!(login::logout))
        .routes(routes!(index::init_admin))
        .routes(routes!(index::profile))
        .routes(routes!(index::edit_profile))
        .routes(routes!(index::edit_password))
        .routes(routes!(index::merchant_log))
        .routes(routes!(index::log_export))
        .routes(routes!(index::usage_export))
        .routes(routes!(index::usage_common))
        .routes(routes!(index::usage_bpdr))
        .routes(routes!(staff::list))
        .routes(routes!(staff::add))
        .routes(routes!(staff::edit))
        .routes(routes!(staff::delete))
        .routes(routes!(staff::info))
        .routes(routes!(staff::auth_menu))
        .routes(routes!(tokens::list))
        .routes(routes!(tokens::add))
        .routes(routes!(tokens::revoke))
}
