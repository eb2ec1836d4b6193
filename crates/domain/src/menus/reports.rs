//! The menus of the area reports (the dashboard, data analysis, special reports, the data screen, usage records).

use super::{MenuDef, menu};

/// What an analytics or special-report page calls.
const REPORT_GRANTS: [&str; 2] = ["common/merchant_report/*", "externalApi/getUserVideo/*"];

pub const MENUS: &[MenuDef] = &[
    menu(
        "/dashboard",
        "menu.dashboard",
        "DashboardOutlined",
        10,
        &["index/dashboard/*"],
    ),
    // Reports (docs/api-reports.md): per-platform analytics, the special reports and the
    // data screen. Every analytics page reads the same report calls (the platform is a filter).
    menu("/data", "menu.dataAnalysis", "RiseOutlined", 500, &[]),
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/dy_num",
            "menu.dyNum",
            "PlaySquareOutlined",
            501,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/ks_num",
            "menu.ksNum",
            "VideoCameraOutlined",
            502,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu("/dd_num", "menu.ddNum", "ShopOutlined", 503, &REPORT_GRANTS)
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/video_num",
            "menu.videoNum",
            "PlaySquareOutlined",
            504,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/xhs_num",
            "menu.xhsNum",
            "BookOutlined",
            505,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/xzsspecial",
            "menu.xzsSpecial",
            "StarOutlined",
            506,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/special",
            "menu.special",
            "ScheduleOutlined",
            507,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/specialdyvideo",
            "menu.specialDyVideo",
            "VideoCameraOutlined",
            508,
            &REPORT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/data"),
        ..menu(
            "/special2",
            "menu.special2",
            "TeamOutlined",
            509,
            &REPORT_GRANTS,
        )
    },
    menu(
        "/actual_screen",
        "menu.actualScreen",
        "DashboardOutlined",
        520,
        &["databoard/index/*"],
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
];
