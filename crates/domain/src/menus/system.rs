//! The menus of the area system (the operator's screens).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    MenuDef {
        admin: true,
        ..menu(
            "/system",
            "menu.system",
            "SettingOutlined",
            1000,
            &["system/*/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/merchant",
            "menu.systemMerchant",
            "ShopOutlined",
            1010,
            &["system/merchant/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/role",
            "menu.systemRole",
            "SafetyOutlined",
            1020,
            &["system/role/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/menu",
            "menu.systemMenu",
            "MenuOutlined",
            1030,
            &["system/menu/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/log",
            "menu.systemLog",
            "FileSearchOutlined",
            1040,
            &["system/log/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/tasks",
            "menu.systemTasks",
            "ScheduleOutlined",
            1050,
            &["system/tasks/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/dic",
            "menu.systemDic",
            "BookOutlined",
            1060,
            &["system/dic/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/sms",
            "menu.systemSms",
            "MessageOutlined",
            1070,
            &["system/sms/*"],
        )
    },
];
