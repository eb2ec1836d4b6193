//! The menus of the area materials (the material libraries, the built-in music set).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
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
];
