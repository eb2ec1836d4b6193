//! Area "engagement" (issue 16, docs/api-engagement.md): comments of every authorized account
//! (`/task.merchant_comment/*`), keyword auto-reply rules and their log
//! (`/task.merchant_comment_keyword/*`), leads (`/msg.merchant_clue/*`).

pub mod comments;
pub mod leads;
pub mod rules;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(comments::index))
        .routes(routes!(comments::reply))
        .routes(routes!(comments::hide))
        .routes(routes!(comments::spam))
        .routes(routes!(comments::show))
        .routes(routes!(comments::sync))
        .routes(routes!(comments::accounts))
        .routes(routes!(rules::index))
        .routes(routes!(rules::add))
        .routes(routes!(rules::edit))
        .routes(routes!(rules::delete))
        .routes(routes!(rules::log_list))
        .routes(routes!(leads::index))
        .routes(routes!(leads::info))
        .routes(routes!(leads::state))
        .routes(routes!(leads::note))
        .routes(routes!(leads::assign))
        .routes(routes!(leads::staff_list))
        .routes(routes!(leads::export))
}
