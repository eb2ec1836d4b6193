//! The menus of the area seo (keywords, titles, benchmarks, AI providers).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
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
];
