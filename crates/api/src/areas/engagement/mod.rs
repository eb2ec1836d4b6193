//! Area "engagement" (docs/api-engagement.md): comments of every authorized account
//! (`/task.merchant_comment/*`), keyword auto-reply rules and their log
//! (`/task.merchant_comment_keyword/*`), leads (`/msg.merchant_clue/*`), private messages
//! (`/msg.merchant_private_msg/*`) and new-lead notices through WeChat (`/wechat.MerchantWechat/*`,
//! `/msg.wxgzh/*`).

pub mod comments;
mod export;
pub mod leads;
pub mod privmsg;
pub mod rules;
pub mod wechat;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(comments::index))
        .routes(routes!(comments::export))
        .routes(routes!(comments::reply))
        .routes(routes!(comments::suggest_replies))
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
        .routes(routes!(privmsg::index))
        .routes(routes!(privmsg::thread))
        .routes(routes!(privmsg::send))
        .routes(routes!(privmsg::accounts))
        .routes(routes!(privmsg::quick_reply_list))
        .routes(routes!(privmsg::quick_reply_save))
        .routes(routes!(privmsg::quick_reply_delete))
        .routes(routes!(wechat::info))
        .routes(routes!(wechat::save))
        .routes(routes!(wechat::staff))
        .routes(routes!(wechat::bind))
        .routes(routes!(wechat::bind_qr))
        .routes(routes!(wechat::bind_state))
        .routes(routes!(wechat::callback_check, wechat::callback))
        .routes(routes!(wechat::log))
}
