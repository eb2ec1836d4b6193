//! The menus of the area matrix (release tasks, account authorization, review, platform apps).

use super::{MenuDef, menu};

const MATRIX_ACCOUNT_GRANTS: &[&str] = &[
    "task/merchant_group_user/*",
    "task/merchant_matrix_group/index",
    "task/merchant_forward_task/dy_forward_config",
    "task/merchant_forward_task/ks_forward_config",
    "task/merchant_forward_task/bp_forward_config",
    "task/merchant_forward_task/sph_forward_config",
    "task/merchant_forward_task/bjh_forward_config",
    "task/merchant_forward_task/xhs_forward_config",
];

pub const MENUS: &[MenuDef] = &[
    // Matrix (SPEC §2 "Matrix"): accounts, groups and release tasks. The account pages read each
    // platform's form config for its sandbox flag; the release page picks accounts and videos.
    menu("/matrix", "menu.matrix", "ClusterOutlined", 300, &[]),
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/send_management",
            "menu.sendManagement",
            "ScheduleOutlined",
            310,
            &[
                "task/merchant_forward_task/*",
                "matrix/merchant_publish_management/*",
                "bpdr/merchant_aite_users/*",
                "task/merchant_matrix_group/index",
                // Local videos uploaded for a task.
                "library/upload/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/account_auth",
            "menu.accountAuth",
            "SafetyOutlined",
            320,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/account_classify",
            "menu.accountClassify",
            "ApartmentOutlined",
            330,
            &["task/merchant_matrix_group/*"],
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/auth_mature",
            "menu.authMature",
            "UserOutlined",
            340,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/user_library",
            "menu.userLibrary",
            "TeamOutlined",
            350,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
    MenuDef {
        admin: true,
        ..menu(
            "/auditCheck",
            "menu.auditCheck",
            "FileSearchOutlined",
            990,
            &["system/audit/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/app",
            "menu.systemApp",
            "AppstoreOutlined",
            1080,
            &["system/app/*"],
        )
    },
];
