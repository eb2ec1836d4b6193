//! The menus of the area ai (AI voice-overs).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
    // AI create (docs/api-ai.md): voice-overs, voice cloning, the assistant. One page serves
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
];
