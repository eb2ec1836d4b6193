//! The menus of the area activities (marketing events).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    // Lottery activities (SPEC §2 "Matrix: /Events") and their draw log; coupons are redeemed here.
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/Events",
            "menu.events",
            "GiftOutlined",
            360,
            &[
                "task/merchant_forward_task_activities/*",
                "task/merchant_forward_task/get_task_luck_draw_log",
            ],
        )
    },
];
