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

/// What a course page calls (`/index/getIndexCourseList`, `/index/getCourseInfo`).
const COURSE_GRANTS: [&str; 2] = ["index/getIndexCourseList/*", "index/getCourseInfo/*"];

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
    // Material libraries (SPEC §2). The parent grants nothing itself: a staff member granted one
    // library gets that library's calls only. The generic upload and rename calls (`ajax/*`) serve every
    // library page, so what they write is granted by `library/<name>/*` (`actions::library_permission`).
    menu("/material", "menu.material", "FolderOutlined", 100, &[]),
    MenuDef {
        parent: Some("/material"),
        ..menu(
            "/video",
            "menu.video",
            "VideoCameraOutlined",
            110,
            &[
                "media/merchant_much_resource/*",
                "ajax/*/*",
                "library/resource/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/material"),
        ..menu(
            "/speak",
            "menu.speak",
            "AudioOutlined",
            120,
            &[
                "bpdr/merchant_mediainfo/*",
                "media/merchant_producing_upfile/*",
                "media/merchant_much_resource/*",
                "ajax/*/*",
                "library/voice/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/material"),
        ..menu(
            "/music",
            "menu.music",
            "CustomerServiceOutlined",
            130,
            &[
                "media/merchant_producing_upfile/*",
                "bpdr/merchant_file_type/*",
                "media/merchant_file_type/*",
                "clip/merchant_music_library/*",
                "ajax/*/*",
                "library/music/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/material"),
        ..menu(
            "/image",
            "menu.image",
            "PictureOutlined",
            140,
            &[
                "media/merchant_producing_upfile/*",
                "bpdr/merchant_file_type/*",
                "media/merchant_file_type/*",
                "clip/merchant_image_library/*",
                "ajax/*/*",
                "library/image/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/material"),
        ..menu(
            "/font",
            "menu.font",
            "FontSizeOutlined",
            150,
            &["media/merchant_font_style/*", "library/font/*"],
        )
    },
    // Editing (SPEC §2): quick mix and the finished-video library. The quick-mix page picks shot groups,
    // music, voice-overs and fonts, so its menu grants reading those libraries too.
    menu("/clip", "menu.clip", "ScissorOutlined", 200, &[]),
    // Batch slice (visual editing): slicing projects and their sources; the page picks long videos and
    // a target group from the multi-shot library, and may start subtitle recognition there.
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/batch_slice",
            "menu.batchSlice",
            "ScissorOutlined",
            205,
            &[
                "clip/merchant_visual_editing/*",
                "clip/merchant_project/*",
                "media/merchant_much_resource/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/normal_mode",
            "menu.normalMode",
            "ScissorOutlined",
            210,
            &[
                "clip/merchant_much_clip/*",
                "clip/merchant_ai_clip_template/save",
                "media/merchant_much_resource/*",
                "media/merchant_producing_upfile/*",
                "bpdr/merchant_mediainfo/*",
                "media/merchant_font_style/*",
            ],
        )
    },
    // Advanced mode: per-shot settings on the same projects; it plans and renders through quick mix's calls.
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/high_modeVisualization_clip",
            "menu.highMode",
            "ControlOutlined",
            215,
            &[
                "clip/merchant_senior_clip/*",
                "clip/merchant_much_clip/*",
                "clip/merchant_ai_clip_template/save",
                "media/merchant_much_resource/*",
                "media/merchant_producing_upfile/*",
                "bpdr/merchant_mediainfo/*",
                "media/merchant_font_style/*",
            ],
        )
    },
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/piece_rep",
            "menu.pieceRep",
            "PlaySquareOutlined",
            220,
            // The library also imports the merchant's own finished videos from the video library.
            &[
                "clip/merchant_video_library/*",
                "media/merchant_much_resource/*",
            ],
        )
    },
    // Clip templates (issue 19): saved recipes by industry; "use template" picks the merchant's shot groups.
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/template_clip",
            "menu.templateClip",
            "AppstoreOutlined",
            225,
            &[
                "clip/merchant_ai_clip_template/*",
                "clip/merchant_much_clip/get_resource_group",
                "clip/merchant_much_clip/get_resource",
            ],
        )
    },
    // One-touch video (issue 19): topic -> script -> voice -> matched clips -> variants. /oneKeyVideoNew
    // is the English route of the same page.
    MenuDef {
        parent: Some("/clip"),
        ..menu(
            "/newAiHome",
            "menu.newAiHome",
            "ExperimentOutlined",
            230,
            &[
                "media/merchant_key_slice/*",
                "clip/merchant_ai_clip/*",
                "clip/merchant_ai_clip_template/index",
                "clip/merchant_ai_clip_template/getCategory",
                "clip/merchant_much_clip/get_resource_group",
                "ai/MerchantDub/get_voice_list",
            ],
        )
    },
    // Matrix (SPEC §2 "Matrix"): accounts, groups and release tasks. The account pages read each
    // platform's form config for its sandbox flag; the release page picks accounts and videos.
    menu("/matrix", "menu.matrix", "ClusterOutlined", 300, &[]),
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/send_management",
            "menu.sendManagement",
            "SendOutlined",
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
            "SafetyCertificateOutlined",
            320,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/account_classify",
            "menu.accountClassify",
            "AppstoreOutlined",
            330,
            &["task/merchant_matrix_group/*"],
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/auth_mature",
            "menu.authMature",
            "FieldTimeOutlined",
            340,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/user_library",
            "menu.userLibrary",
            "IdcardOutlined",
            350,
            MATRIX_ACCOUNT_GRANTS,
        )
    },
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
    // Engagement (docs/api-engagement.md): comments of every account and keyword auto-reply under
    // Matrix, leads under Private messages. `/clue_management` shows a staff member the leads assigned
    // to them; `/clue_assign` grants all of them (`msg/merchant_clue/all`) and assigning by hand.
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/comment_management",
            "menu.commentManagement",
            "CommentOutlined",
            370,
            &["task/merchant_comment/*"],
        )
    },
    MenuDef {
        parent: Some("/matrix"),
        ..menu(
            "/comment_reply",
            "menu.commentReply",
            "MessageOutlined",
            375,
            &[
                "task/merchant_comment_keyword/*",
                "task/merchant_comment/accounts",
            ],
        )
    },
    menu("/private", "menu.privateMsg", "WechatOutlined", 380, &[]),
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/clue_management",
            "menu.clueManagement",
            "ContactsOutlined",
            381,
            &[
                "msg/merchant_clue/index",
                "msg/merchant_clue/info",
                "msg/merchant_clue/state",
                "msg/merchant_clue/note",
                "msg/merchant_clue/export",
            ],
        )
    },
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/clue_assign",
            "menu.clueAssign",
            "TeamOutlined",
            382,
            &["msg/merchant_clue/*"],
        )
    },
    // Private messages (docs/api-engagement.md "Private messages"): the DY message workbench, which
    // accounts may message, new-lead notification through a WeChat official account ("抖微": Douyin
    // leads reach staff on WeChat, docs/spec-decisions.md), quick replies and first-message rules.
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/private_message",
            "menu.privateMessage",
            "CustomerServiceOutlined",
            383,
            &[
                "msg/merchant_private_msg/index",
                "msg/merchant_private_msg/thread",
                "msg/merchant_private_msg/send",
                "msg/merchant_private_msg/accounts",
                "msg/merchant_private_msg/quick_reply_list",
            ],
        )
    },
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/private_auth",
            "menu.privateAuth",
            "IdcardOutlined",
            384,
            &["msg/merchant_private_msg/accounts"],
        )
    },
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/dou_wei",
            "menu.douWei",
            "NotificationOutlined",
            385,
            &["wechat/MerchantWechat/*", "msg/wxgzh/*"],
        )
    },
    MenuDef {
        parent: Some("/private"),
        ..menu(
            "/chat_reply",
            "menu.chatReply",
            "MessageOutlined",
            386,
            &[
                "msg/merchant_private_msg/quick_reply_list",
                "msg/merchant_private_msg/quick_reply_save",
                "msg/merchant_private_msg/quick_reply_delete",
                "task/merchant_comment_keyword/*",
                "task/merchant_comment/accounts",
            ],
        )
    },
    // SEO (docs/api-seo.md): titles, lexicons, keyword search and mining, benchmark accounts.
    menu("/seo", "menu.seo", "SearchOutlined", 250, &[]),
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/ai_home",
            "menu.aiHome",
            "HomeOutlined",
            251,
            &[
                "seo/merchant_keywords/*",
                "screen/merchant_seo_lexicon/getAllAiCategory",
            ],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/key_search",
            "menu.keySearch",
            "SearchOutlined",
            252,
            &["seo/merchant_keywords/*"],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/key_excavate",
            "menu.keyExcavate",
            "NodeExpandOutlined",
            253,
            &["seo/merchant_keywords/*"],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/keywords_num",
            "menu.keywordsNum",
            "StarOutlined",
            254,
            &["seo/merchant_keywords/*"],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/keywords-new_title",
            "menu.keywordsNewTitle",
            "FontSizeOutlined",
            255,
            &[
                "screen/merchant_seo_lexicon/*",
                "seo/merchant_seo_lexicon/profile",
            ],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/keysword_setting",
            "menu.keyswordSetting",
            "BookOutlined",
            256,
            &[
                "seo/merchant_seo_lexicon/*",
                "screen/merchant_seo_lexicon/edit",
                "screen/merchant_seo_lexicon/getAllAiCategory",
            ],
        )
    },
    MenuDef {
        parent: Some("/seo"),
        ..menu(
            "/account_see",
            "menu.accountSee",
            "EyeOutlined",
            257,
            &["seo/benchmark/*"],
        )
    },
    // Administrator: the built-in categories and keywords every merchant's titles draw on.
    MenuDef {
        parent: Some("/seo"),
        admin: true,
        ..menu(
            "/new_ai_title",
            "menu.newAiTitle",
            "TagsOutlined",
            258,
            &["screen/merchant_seo_lexicon/*"],
        )
    },
    // AI create (issue 14, docs/api-ai.md): voice-overs, voice cloning, the assistant. One page serves
    // the SPEC's several AI-voice routes (web/src/router/modules/ai.ts); importing into /speak also
    // needs the /speak menu (`library/voice/*`).
    menu(
        "/ai_create",
        "menu.aiCreate",
        "CustomerServiceOutlined",
        280,
        &[],
    ),
    MenuDef {
        parent: Some("/ai_create"),
        ..menu(
            "/ai_voice",
            "menu.aiVoice",
            "AudioOutlined",
            281,
            &[
                "ai/MerchantDub/*",
                "ai/merchant_ai/*",
                "doubao/db_audio/*",
                "ai/coze/*",
            ],
        )
    },
    // The tag form picks an activity from the list.
    menu(
        "/nfc",
        "menu.nfc",
        "WifiOutlined",
        400,
        &["nfc/index/*", "task/merchant_forward_task_activities/index"],
    ),
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
    // AI smart editing (issue 19, docs/api-clip.md): the Administrator's internal test of finding the
    // best shorts in a merchant's long video; its calls are the operator's (`/system/intellect/*`).
    MenuDef {
        admin: true,
        ..menu(
            "/intellect",
            "menu.intellect",
            "ScissorOutlined",
            996,
            &["system/intellect/*"],
        )
    },
    // Reports (issue 18, docs/api-reports.md): per-platform analytics, the special reports and the
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
    MenuDef {
        admin: true,
        ..menu(
            "/auditCheck",
            "menu.auditCheck",
            "AuditOutlined",
            990,
            &["system/audit/*"],
        )
    },
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
            "/system/app",
            "menu.systemApp",
            "ApiOutlined",
            1080,
            &["system/app/*"],
        )
    },
    MenuDef {
        parent: Some("/system"),
        admin: true,
        ..menu(
            "/system/ai_provider",
            "menu.systemAiProvider",
            "ControlOutlined",
            1085,
            &["system/ai_provider/*"],
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
            "/system/music",
            "menu.systemMusic",
            "CustomerServiceOutlined",
            1060,
            &["system/music/*"],
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

    /// Every call a material page makes is granted by its menu (a staff member given only that menu
    /// can use the whole page), and the parent grants nothing of its own.
    #[test]
    fn material_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let pages: &[(&str, &[&str])] = &[
            (
                "/video",
                &[
                    "/media.merchant_much_resource/video_resource_group_index",
                    "/media.merchant_much_resource/resource_group_tree",
                    "/media.merchant_much_resource/resource_group_add",
                    "/media.merchant_much_resource/edit_resource_group_name",
                    "/media.merchant_much_resource/resource_group_delete",
                    "/media.merchant_much_resource/resource_classify_index",
                    "/media.merchant_much_resource/resource_add_classify",
                    "/media.merchant_much_resource/edit_classify_name",
                    "/media.merchant_much_resource/resource_delete_classify",
                    "/media.merchant_much_resource/video_resource_detail",
                    "/media.merchant_much_resource/add_resource",
                    "/media.merchant_much_resource/resource_delete",
                    "/media.merchant_much_resource/asr_add",
                    "/media.merchant_much_resource/get_asr_timeline",
                    "/media.merchant_much_resource/save_asr_times",
                    "/ajax/ossUpload",
                    "/ajax/getYunData",
                    "/ajax/upload_chunk",
                    "/ajax/add_upfile",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/speak",
                &[
                    "/bpdr.merchant_mediainfo/getVoiceName",
                    "/bpdr.merchant_mediainfo/upload",
                    "/media.merchant_producing_upfile/delete",
                    "/media.merchant_much_resource/asr_add",
                    "/media.merchant_much_resource/get_asr_timeline",
                    "/media.merchant_much_resource/save_asr_times",
                    "/ajax/ossUpload",
                    "/ajax/add_upfile",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/music",
                &[
                    "/media.merchant_producing_upfile/music_index",
                    "/media.merchant_producing_upfile/system_music_index",
                    "/media.merchant_producing_upfile/add",
                    "/media.merchant_producing_upfile/delete",
                    "/bpdr.merchant_file_type/audio_index",
                    "/bpdr.merchant_file_type/add",
                    "/bpdr.merchant_file_type/edit",
                    "/bpdr.merchant_file_type/delete",
                    "/media.merchant_file_type/add",
                    "/clip.merchant_music_library/save",
                    "/ajax/ossUpload",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/image",
                &[
                    "/media.merchant_producing_upfile/image_index",
                    "/media.merchant_producing_upfile/add",
                    "/media.merchant_producing_upfile/delete",
                    "/bpdr.merchant_file_type/image_tree",
                    "/bpdr.merchant_file_type/add",
                    "/bpdr.merchant_file_type/edit",
                    "/bpdr.merchant_file_type/delete",
                    "/clip.merchant_image_library/save",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/font",
                &[
                    "/media.merchant_font_style/index",
                    "/media.merchant_font_style/add",
                    "/media.merchant_font_style/edit",
                    "/media.merchant_font_style/delete",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/material"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call} should need a permission");
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        assert!(find("/material").is_some_and(|m| m.grants.is_empty()));
        // Each library page writes into its own library only.
        let libraries = [
            ("/video", "resource"),
            ("/speak", "voice"),
            ("/music", "music"),
            ("/image", "image"),
            ("/font", "font"),
        ];
        for (path, own) in libraries {
            let grants: Vec<String> = find(path)
                .unwrap()
                .grants
                .iter()
                .map(|g| g.to_string())
                .collect();
            for (_, lib) in libraries {
                let perm = crate::actions::library_permission(lib);
                assert_eq!(granted(&grants, &perm), lib == own, "{path} writing {lib}");
            }
        }
        let music = find("/system/music").expect("/system/music is declared");
        assert!(music.admin && music.parent == Some("/system"));
        assert!(matches!(access_for("/system/music/add"), Access::Operator));
    }

    /// The quick-mix page's calls (its project settings read the libraries) and the finished-video
    /// library's calls are granted by their menus; the /clip parent grants nothing of its own.
    #[test]
    fn matrix_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let account_calls: &[&str] = &[
            "/task.merchant_group_user/index",
            "/task.merchant_group_user/get_qrCode",
            "/task.merchant_group_user/xhsLogin",
            "/task.merchant_group_user/bjhLogin",
            "/task.merchant_group_user/renew",
            "/task.merchant_group_user/update_address",
            "/task.merchant_group_user/expire_user",
            "/task.merchant_matrix_group/index",
            "/task.merchant_forward_task/xhs_forward_config",
        ];
        let pages: &[(&str, &[&str])] = &[
            ("/account_auth", account_calls),
            ("/auth_mature", account_calls),
            ("/user_library", account_calls),
            (
                "/account_classify",
                &[
                    "/task.merchant_matrix_group/add",
                    "/task.merchant_matrix_group/delete",
                ],
            ),
            (
                "/send_management",
                &[
                    "/task.merchant_forward_task/dy_add",
                    "/task.merchant_forward_task/forward_video",
                    "/task.merchant_forward_task/manual_forward",
                    "/matrix.merchant_publish_management/getAccountGroup",
                    "/bpdr.merchant_aite_users/index",
                    "/task.merchant_matrix_group/index",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/matrix"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call}")
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        // A staff member with only the groups page cannot authorize or publish.
        let g: Vec<String> = find("/account_classify")
            .unwrap()
            .grants
            .iter()
            .map(|g| g.to_string())
            .collect();
        for call in [
            "/task.merchant_group_user/get_qrCode",
            "/task.merchant_forward_task/dy_add",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!()
            };
            assert!(!granted(&g, &p));
        }
        assert!(find("/auditCheck").is_some_and(|m| m.admin));
        assert!(find("/system/app").is_some_and(|m| m.admin));
    }

    #[test]
    fn clip_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let pages: &[(&str, &[&str])] = &[
            (
                "/normal_mode",
                &[
                    "/clip.merchant_much_clip/index",
                    "/clip.merchant_much_clip/add",
                    "/clip.merchant_much_clip/modify",
                    "/clip.merchant_much_clip/add_copy",
                    "/clip.merchant_much_clip/edit_status",
                    "/clip.merchant_much_clip/delete",
                    "/clip.merchant_much_clip/get_resource_group",
                    "/clip.merchant_much_clip/get_resource",
                    "/clip.merchant_much_clip/preview_video",
                    "/clip.merchant_much_clip/add_video",
                    "/media.merchant_producing_upfile/music_index",
                    "/media.merchant_producing_upfile/system_music_index",
                    "/bpdr.merchant_mediainfo/getVoiceName",
                    "/media.merchant_font_style/getAll",
                ],
            ),
            (
                "/high_modeVisualization_clip",
                &[
                    "/clip.merchant_senior_clip/index",
                    "/clip.merchant_senior_clip/modify",
                    "/clip.merchant_senior_clip/delete",
                    "/clip.merchant_much_clip/get_resource_group",
                    "/clip.merchant_much_clip/get_resource",
                    "/clip.merchant_much_clip/preview_video",
                    "/clip.merchant_much_clip/add_video",
                    "/clip.merchant_much_clip/add_copy",
                    "/clip.merchant_much_clip/edit_status",
                    "/media.merchant_font_style/getAll",
                ],
            ),
            (
                "/piece_rep",
                &[
                    "/clip.merchant_video_library/index",
                    "/clip.merchant_video_library/video_index",
                    "/clip.merchant_video_library/video_delete",
                    "/clip.merchant_video_library/video_use",
                    "/clip.merchant_video_library/job_video",
                    "/clip.merchant_video_library/continue_add_video",
                    "/clip.merchant_video_library/add",
                    "/clip.merchant_video_library/job_video_add_all",
                    "/media.merchant_much_resource/index",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/clip"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call} should need a permission");
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        assert!(find("/clip").is_some_and(|m| m.grants.is_empty() && m.sort == 200));
    }

    #[test]
    fn batch_slice_menu_grants_its_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let m = find("/batch_slice").expect("/batch_slice is declared");
        assert_eq!(m.parent, Some("/clip"));
        let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
        for call in [
            "/clip.merchant_visual_editing/index",
            "/clip.merchant_visual_editing/create_project",
            "/clip.merchant_visual_editing/delete",
            "/clip.merchant_visual_editing/job_export",
            "/clip.merchant_visual_editing/video_library",
            "/clip.merchant_visual_editing/video_delete",
            "/clip.merchant_visual_editing/job_video_add_all",
            "/clip.merchant_project/index",
            "/clip.merchant_project/add_video",
            "/clip.merchant_project/delete",
            "/clip.merchant_project/modify",
            "/clip.merchant_project/job_video",
            "/clip.merchant_project/job_delete",
            "/media.merchant_much_resource/video_resource_detail",
            "/media.merchant_much_resource/video_resource_group_index",
            "/media.merchant_much_resource/get_asr_timeline",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!("{call} should need a permission");
            };
            assert!(
                granted(&grants, &p),
                "/batch_slice does not grant {call} ({p})"
            );
        }
        // Not the quick-mix projects or the finished-video library.
        for call in [
            "/clip.merchant_much_clip/add_video",
            "/clip.merchant_video_library/video_delete",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!()
            };
            assert!(!granted(&grants, &p), "{call}");
        }
    }

    /// The four course pages hang under /courses and grant their reads; content is written by the
    /// operator only (/system/content).
    #[test]
    fn course_menus_grant_their_reads() {
        use crate::permission::{Access, access_for, of_path};
        for path in ["/account", "/Popular", "/course", "/shot_tutorial"] {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/courses"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in ["/index/getIndexCourseList", "/index/getCourseInfo"] {
                assert!(
                    crate::permission::granted(&grants, &of_path(call)),
                    "{path} {call}"
                );
                assert_eq!(access_for(call), Access::SignedIn);
            }
        }
        let content = find("/system/content").expect("/system/content is declared");
        assert!(content.admin && content.parent == Some("/system"));
        assert_eq!(access_for("/system/content/course_add"), Access::Operator);
    }
}
