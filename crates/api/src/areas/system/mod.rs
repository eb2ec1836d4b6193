//! Area "system" (DESIGN.md §4): the operator's screens (`/system/*`, role Administrator only —
//! enforced by `guard`) and the dictionaries every signed-in user reads.

pub mod banned_words;
pub mod dict;
pub mod operator;
pub mod sms;
pub mod views;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(operator::merchants))
        .routes(routes!(operator::merchant_add))
        .routes(routes!(operator::merchant_edit))
        .routes(routes!(operator::merchant_status))
        .routes(routes!(operator::merchant_reset_password))
        .routes(routes!(operator::merchant_topup))
        .routes(routes!(operator::merchant_proxy_token))
        .routes(routes!(banned_words::index))
        .routes(routes!(banned_words::add))
        .routes(routes!(banned_words::delete))
        .routes(routes!(operator::all_users))
        .routes(routes!(operator::roles))
        .routes(routes!(operator::role_add))
        .routes(routes!(operator::role_edit))
        .routes(routes!(operator::role_delete))
        .routes(routes!(operator::menus))
        .routes(routes!(operator::menu_edit))
        .routes(routes!(operator::logs))
        .routes(routes!(operator::tasks))
        .routes(routes!(operator::task_retry))
        .routes(routes!(dict::read))
        .routes(routes!(dict::index))
        .routes(routes!(dict::save))
        .routes(routes!(dict::delete))
        .routes(routes!(sms::index))
        .routes(routes!(sms::save))
        .routes(routes!(sms::test))
}
