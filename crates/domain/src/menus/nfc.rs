//! The menus of the area nfc (tap-to-publish tags).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    // The tag form picks an activity from the list.
    menu(
        "/nfc",
        "menu.nfc",
        "WifiOutlined",
        400,
        &["nfc/index/*", "task/merchant_forward_task_activities/index"],
    ),
];
