//! The menus of the area content (courses, hot lists, the home page, the video-library frame).

use super::{MenuDef, menu};

/// What a course page calls (`/index/getIndexCourseList`, `/index/getCourseInfo`).
const COURSE_GRANTS: [&str; 2] = ["index/getIndexCourseList/*", "index/getCourseInfo/*"];

pub const MENUS: &[MenuDef] = &[
    // Courses (SPEC §2 "Courses"): the operator's published courses of one category per page. The
    // reads are open to every signed-in user (the home page shows courses too); the menus decide
    // which pages a staff member sees.
    menu("/courses", "menu.courses", "ReadOutlined", 450, &[]),
    MenuDef {
        parent: Some("/courses"),
        ..menu(
            "/account",
            "menu.courseAccount",
            "IdcardOutlined",
            451,
            &COURSE_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/courses"),
        ..menu(
            "/Popular",
            "menu.coursePopular",
            "FireOutlined",
            452,
            &COURSE_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/courses"),
        ..menu(
            "/course",
            "menu.courseGeneral",
            "BookOutlined",
            453,
            &COURSE_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/courses"),
        ..menu(
            "/shot_tutorial",
            "menu.courseShot",
            "CameraOutlined",
            454,
            &COURSE_GRANTS,
        )
    },
    // Hot lists (SPEC §2 "Other"; domain::content::hotlists): each page reads its own boards only.
    menu("/hotlists", "menu.hotLists", "FireOutlined", 460, &[]),
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/hotmusic",
            "menu.hotMusic",
            "CustomerServiceOutlined",
            461,
            &["content/hot_list/music_index"],
        )
    },
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/keywords",
            "menu.hotKeywords",
            "RiseOutlined",
            462,
            &["content/hot_list/keywords_index"],
        )
    },
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/hotvideo",
            "menu.hotVideo",
            "PlaySquareOutlined",
            463,
            &["content/hot_list/video_index"],
        )
    },
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/hottopic",
            "menu.hotTopic",
            "NumberOutlined",
            464,
            &["content/hot_list/topic_index"],
        )
    },
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/life",
            "menu.hotLife",
            "ShopOutlined",
            465,
            &["content/hot_list/life_index"],
        )
    },
    MenuDef {
        parent: Some("/hotlists"),
        ..menu(
            "/doyen",
            "menu.hotDoyen",
            "CrownOutlined",
            466,
            &["content/hot_list/doyen_index"],
        )
    },
    // Common routes (SPEC §2): /home (the 'header' home, home type 1) and /code (QR codes of the
    // sign-in pages) read only what every signed-in user may; /visualIframe (zh) frames the
    // finished-video library; /test (zh, Administrator) is the self-test.
    MenuDef {
        hidden: true,
        ..menu("/home", "menu.home", "HomeOutlined", 5, &[])
    },
    MenuDef {
        hidden: true,
        ..menu("/code", "menu.code", "QrcodeOutlined", 915, &[])
    },
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/visualIframe",
            "menu.visualIframe",
            "DesktopOutlined",
            245,
            &["index/getVideoLibraryIframeToken/*"],
        )
    },
    MenuDef {
        admin: true,
        ..menu(
            "/test",
            "menu.selfTest",
            "ExperimentOutlined",
            995,
            &["system/selftest/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/content",
            "menu.systemContent",
            "NotificationOutlined",
            1065,
            &["system/content/*"],
        )
    },
];
