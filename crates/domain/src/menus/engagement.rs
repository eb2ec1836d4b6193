//! The menus of the area engagement (comments, leads, private messages).

use super::{MenuDef, menu};

pub const MENUS: &[MenuDef] = &[
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
];
