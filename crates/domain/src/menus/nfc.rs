//! The menus of the area nfc (tap-to-publish tags).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    // The tag form picks an activity from the list; its titles dialog writes AI titles.
    menu(
        "/nfc",
        "menu.nfc",
        "WifiOutlined",
        400,
        &[
            "nfc/index/*",
            "task/merchant_forward_task_activities/index",
            "screen/merchant_seo_lexicon/ai_title",
        ],
    ),
];
