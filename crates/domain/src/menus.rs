//! The console's menu table, declared once. Seeded into the `menus` table at start; `/ajax/initAdmin`
//! builds each caller's tree from it, and a staff member's grants are the `grants` of the menus
//! the merchant authorized. A module that does not exist yet has no entry here.

#[derive(Debug, Clone, Copy)]
pub struct MenuDef {
    /// Console route, also the stable key.
    pub path: &'static str,
    pub parent: Option<&'static str>,
    /// i18n title key used by the console.
    pub name: &'static str,
    pub icon: &'static str,
    pub hidden: bool,
    /// Role Administrator only.
    pub admin: bool,
    pub vip: bool,
    pub sort: i64,
    /// Permission patterns the menu grants to a staff member.
    pub grants: &'static [&'static str],
}

const fn menu(
    path: &'static str,
    name: &'static str,
    icon: &'static str,
    sort: i64,
    grants: &'static [&'static str],
) -> MenuDef {
    MenuDef {
        path,
        parent: None,
        name,
        icon,
        hidden: false,
        admin: false,
        vip: false,
        sort,
        grants,
    }
}

pub const MENUS: &[MenuDef] = &[
    menu(
        "/dashboard",
        "menu.dashboard",
        "DashboardOutlined",
        10,
        &["index/dashboard/*"],
    ),
    menu(
        "/useRecord",
        "menu.useRecord",
        "AccountBookOutlined",
        900,
        &[
            "common/merchant_usage_record/*",
            "bpdr/merchant_usage_record/*",
        ],
    ),
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
            "ProfileOutlined",
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
];

pub fn find(path: &str) -> Option<&'static MenuDef> {
    MENUS.iter().find(|m| m.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_exist_and_paths_are_unique() {
        for m in MENUS {
            if let Some(p) = m.parent {
                assert!(find(p).is_some(), "{} has no parent {p}", m.path);
            }
            assert_eq!(MENUS.iter().filter(|o| o.path == m.path).count(), 1);
        }
    }
}
