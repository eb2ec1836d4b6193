//! The menus of the area clip (editing: slicing, quick mix, advanced mode, the library, templates, one-touch video, smart editing).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
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
    // Clip templates: saved recipes by industry; "use template" picks the merchant's shot groups.
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
    // One-touch video: topic -> script -> voice -> matched clips -> variants. /oneKeyVideoNew
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
    // AI smart editing (docs/api-clip.md): the Administrator's internal test of finding the
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
];
