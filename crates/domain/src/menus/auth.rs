//! The menus of the area auth (the operation log, staff, the user center).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    menu(
        "/log",
        "menu.log",
        "FileTextOutlined",
        910,
        &["index/log/*"],
    ),
    MenuDef {
        hidden: true,
        ..menu(
            "/staffAccount",
            "menu.staffAccount",
            "TeamOutlined",
            920,
            &["user/merchant_user_sub/*"],
        )
    },
    MenuDef {
        hidden: true,
        ..menu("/usercenter", "menu.usercenter", "UserOutlined", 930, &[])
    },
];
