//! Permission strings (`module/controller/action`, `*` per segment, `*/*/*` = all) and the one table that
//! says which calls are public, which need only a session, which are operator-only, and which need a
//! permission derived from the call's path.

/// The permission a call needs: its path turned into three segments.
/// `/user.merchant_user_sub/add` -> `user/merchant_user_sub/add`; `/index/log` -> `index/log/index`.
pub fn of_path(path: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (i, seg) in path.trim_matches('/').split('/').enumerate() {
        let seg = seg.trim_end_matches(".html");
        if i == 0 {
            parts.extend(seg.splitn(2, '.').map(str::to_string));
        } else {
            parts.push(seg.to_string());
        }
    }
    parts.retain(|p| !p.is_empty());
    parts.truncate(3);
    while parts.len() < 3 {
        parts.push("index".into());
    }
    parts.join("/")
}

/// Does `pattern` grant `perm`? Both are `a/b/c`; `*` matches one segment.
pub fn matches(pattern: &str, perm: &str) -> bool {
    let p: Vec<&str> = pattern.split('/').collect();
    let q: Vec<&str> = perm.split('/').collect();
    p.len() == q.len() && p.iter().zip(&q).all(|(a, b)| *a == "*" || a == b)
}

pub fn granted(patterns: &[String], perm: &str) -> bool {
    patterns.iter().any(|p| matches(p, perm))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// No token needed.
    Public,
    /// Any signed-in user (own profile, menu, password).
    SignedIn,
    /// Role Administrator only.
    Operator,
    /// A permission string the caller's grants must match.
    Permission(String),
}

const PUBLIC: &[&str] = &[
    "/login/index",
    "/login/auth",
    "/login/sms",
    "/login/register",
    "/login/reset_password",
    "/login/verifyJwtToken",
    "/index/platformInit",
    "/version_log/getList",
    // WeChat pushes the official account's events here, signed with the merchant's server Token.
    "/msg.wxgzh/callback",
    "/openapi.json",
    "/docs",
];

const SIGNED_IN: &[&str] = &[
    "/token",
    "/login/logout",
    "/ajax/initAdmin",
    "/index/profile",
    "/index/editProfile",
    "/index/editPassword.html",
    "/index/apiTokens",
    "/index/addApiToken",
    "/index/revokeApiToken",
    "/index/banner",
    "/index/getIndexCourseList",
    "/index/getCourseInfo",
    "/system/dic",
    "/events",
    // The copy precheck as the merchant types: every form of every area.
    "/index/copyCheck",
    // The MCP server: each of its tools is an API call of its own, checked like any other.
    "/mcp",
];

/// Actions that only read, even when sent as POST (SPEC §7: many list reads are POST).
const READ_ACTIONS: &[&str] = &[
    "index",
    "list",
    "info",
    "detail",
    "tree",
    "getList",
    "banner",
    "getIndexCourseList",
    "initAdmin",
    "profile",
    "dashboard",
    "log",
    "platformInit",
    "token",
    "copyCheck",
];

/// Action name shapes that only read: `getVoiceName`, `music_index`, `image_tree`, `dy_forward_config`,
/// `video_resource_detail`, `getRandomTopicList`, `get_asr_timeline`.
const READ_PREFIXES: &[&str] = &["get"];
const READ_SUFFIXES: &[&str] = &["index", "tree", "config", "detail", "list", "timeline"];

/// Calls whose names do not say so but that only read or only prepare: a plan preview, pickers, a
/// points quote, a render job's state, and the account sign-in steps that show a QR code or poll it
/// (the account itself is recorded by the call that saves it).
const READ_CALLS: &[&str] = &[
    "task/merchant_comment/accounts",
    "msg/merchant_clue/export",
    // Spreadsheet exports of lists: they read.
    "task/merchant_group_user/export",
    "task/merchant_forward_task/export",
    "task/merchant_forward_task/export_items",
    "clip/merchant_video_library/export",
    "index/log/export",
    "common/merchant_usage_record/export",
    "task/merchant_comment/export",
    "nfc/index/export_stats",
    "seo/merchant_seo_lexicon/export",
    "media/merchant_much_resource/export",
    "bpdr/merchant_mediainfo/voice_export",
    "media/merchant_producing_upfile/music_export",
    "media/merchant_producing_upfile/image_export",
    "media/merchant_font_style/export",
    "msg/merchant_private_msg/accounts",
    "msg/merchant_private_msg/thread",
    "wechat/MerchantWechat/info",
    "msg/wxgzh/staff",
    "msg/wxgzh/log",
    // Suggestions are written, not sent.
    "task/merchant_comment/suggest_replies",
    // Reports: every report call reads, also when posted.
    "common/merchant_report/overview",
    "common/merchant_report/accounts",
    "common/merchant_report/videos",
    "common/merchant_report/attribution",
    "common/merchant_report/delivery",
    "common/merchant_report/staff",
    "common/merchant_report/export",
    "clip/merchant_much_clip/preview_video",
    "clip/merchant_video_library/job_video",
    // A signed link to download finished videos: reads them.
    "clip/merchant_video_library/download",
    "media/merchant_key_slice/my_one_touch_job",
    "clip/merchant_visual_editing/video_library",
    "task/merchant_forward_task/forward_video",
    "task/merchant_forward_task/forward_video_release",
    "task/merchant_forward_task/assistant_is_online",
    "task/merchant_forward_task/poinameAddress",
    "task/merchant_group_user/expire_user",
    "task/merchant_group_user/qr_login",
    "task/merchant_group_user/xhsLogin",
    "task/merchant_group_user/sphLogin",
    "task/merchant_group_user/bjhLogin",
    "task/merchant_group_user/tiktokAuth",
    "task/merchant_group_user/dyAuthAggregation",
    "media/merchant_much_resource/deduction_point",
    "task/merchant_forward_task_activities/info",
    "task/merchant_forward_task_activities/coupons",
    "task/merchant_forward_task_activities/export_draws",
    "task/merchant_forward_task_activities/export_coupons",
    "nfc/index/info",
    "nfc/index/titles",
    "nfc/index/pools",
    "nfc/index/stats",
    "screen/merchant_seo_lexicon/ai_title",
    "screen/merchant_seo_lexicon/styles",
    "screen/merchant_seo_lexicon/keywords",
    "screen/merchant_seo_lexicon/getAllAiCategory",
    "seo/merchant_seo_lexicon/profile",
    "seo/merchant_keywords/search",
    "seo/merchant_keywords/excavate",
    "seo/merchant_keywords/hot",
    "seo/merchant_keywords/videos",
    "seo/benchmark/info",
    // AI voice: a preview changes nothing; cloning polls the provider.
    "ai/MerchantDub/nlsAudition",
    "doubao/db_audio/cloning",
    // The MCP endpoint itself changes nothing: each tool's own API call is checked and logged.
    "mcp/index/index",
];

/// Calls the SPEC lets change something through GET (`delete?id`, subtitle line edits, more variants).
const CHANGES_ON_GET: &[&str] = &[
    "clip/merchant_visual_editing/delete",
    "clip/merchant_video_library/continue_add_video",
    "clip/merchant_ai_clip/delete",
    "clip/merchant_ai_clip/copy",
    "media/merchant_much_resource/asr_add",
    "media/merchant_much_resource/asr_modify",
    "media/merchant_much_resource/asr_delete",
    "task/merchant_forward_task/top_comment_send",
];

/// Calls that change something and so go to the operation log; reads (lists, trees, configs, pickers)
/// are not logged whatever their method, so opening a page logs nothing.
pub fn is_mutating(method: &str, path: &str) -> bool {
    let perm = of_path(path);
    let action = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html");
    let reads = READ_ACTIONS.contains(&action)
        || READ_PREFIXES.iter().any(|p| action.starts_with(p))
        || READ_SUFFIXES
            .iter()
            .any(|s| action.to_ascii_lowercase().ends_with(s))
        || READ_CALLS.contains(&perm.as_str());
    if reads {
        return false;
    }
    if method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD") {
        return CHANGES_ON_GET.contains(&perm.as_str());
    }
    true
}

/// The access rule of an API path (without the `/api` prefix).
pub fn access_for(path: &str) -> Access {
    if PUBLIC.contains(&path) {
        Access::Public
    } else if SIGNED_IN.contains(&path) {
        Access::SignedIn
    } else if path == "/system" || path.starts_with("/system/") {
        Access::Operator
    } else {
        Access::Permission(of_path(path))
    }
}

crate::text_enum! {
    /// What a personal API token may do. `read` reads every area the owner may read; each other scope
    /// reads and changes its areas (`TokenScope::areas`).
    pub enum TokenScope {
        Read = "read",
        Materials = "materials",
        Clip = "clip",
        Publish = "publish",
        Engagement = "engagement",
        Reports = "reports",
    }
}

impl TokenScope {
    /// The areas (`crate::menus::AREAS`' names) whose calls the scope opens, reads and changes:
    /// making videos takes voice-overs (ai) and titles (seo); publishing takes the accounts and
    /// release tasks (matrix) and what a task runs (activities, NFC tags).
    pub fn areas(self) -> &'static [&'static str] {
        match self {
            TokenScope::Read => &[],
            TokenScope::Materials => &["materials"],
            TokenScope::Clip => &["clip", "ai", "seo"],
            TokenScope::Publish => &["matrix", "activities", "nfc"],
            TokenScope::Engagement => &["engagement"],
            TokenScope::Reports => &["reports"],
        }
    }
}

/// Calls an API token never makes, whatever its scopes: the session's own (renewing, signing out)
/// and the tokens' (a token does not mint or revoke tokens).
pub const SESSION_ONLY: &[&str] = &[
    "/token",
    "/login/logout",
    "/index/apiTokens",
    "/index/addApiToken",
    "/index/revokeApiToken",
];

/// The area a permission belongs to: the area of the menu that grants it (`menus::menu_of`); the
/// generic upload calls (`ajax/…`) are the material libraries'. None: no menu grants it (the
/// operator's screens, the user's own account).
pub fn area_of(perm: &str) -> Option<&'static str> {
    if perm.starts_with("ajax/") {
        return Some("materials");
    }
    crate::menus::menu_of(perm).and_then(|m| crate::menus::area_of_menu(m.path))
}

/// Whether a token of `scopes` may make a call (on top of its owner's own permission, which the
/// guard checks as for a session). A read (`!is_mutating`) is open to `read` and to the scopes of
/// its area, and to every token for the calls any signed-in user makes (the menu, the profile); a
/// change only to a scope of its area.
pub fn token_allows(scopes: &[TokenScope], method: &str, path: &str) -> bool {
    if SESSION_ONLY.contains(&path) {
        return false;
    }
    let access = access_for(path);
    if access == Access::Public {
        return true;
    }
    let area = area_of(&of_path(path));
    let in_scope = area.is_some_and(|a| scopes.iter().any(|s| s.areas().contains(&a)));
    if is_mutating(method, path) {
        return in_scope;
    }
    in_scope || scopes.contains(&TokenScope::Read) || access == Access::SignedIn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_three_segments() {
        assert_eq!(
            of_path("/user.merchant_user_sub/add"),
            "user/merchant_user_sub/add"
        );
        assert_eq!(of_path("/index/log"), "index/log/index");
        assert_eq!(of_path("/system/merchant/add"), "system/merchant/add");
        assert_eq!(
            of_path("/index/editPassword.html"),
            "index/editPassword/index"
        );
        assert_eq!(
            of_path("/common.merchant_usage_record/index"),
            "common/merchant_usage_record/index"
        );
    }

    #[test]
    fn wildcards() {
        assert!(matches("*/*/*", "user/merchant_user_sub/add"));
        assert!(matches(
            "user/merchant_user_sub/*",
            "user/merchant_user_sub/add"
        ));
        assert!(!matches("user/merchant_user_sub/*", "user/other/add"));
        assert!(!matches("user/*", "user/merchant_user_sub/add"));
        assert!(granted(&["index/log/*".into()], "index/log/index"));
        assert!(!granted(&[], "index/log/index"));
    }

    #[test]
    fn mutating_calls() {
        assert!(is_mutating("POST", "/user.merchant_user_sub/add"));
        assert!(is_mutating("POST", "/index/editPassword.html"));
        assert!(is_mutating("POST", "/login/auth"));
        assert!(!is_mutating("POST", "/user.merchant_user_sub/list"));
        assert!(!is_mutating("GET", "/user.merchant_user_sub/delete"));
        assert!(!is_mutating("POST", "/index/log"));
        assert!(!is_mutating("POST", "/token"));
    }

    /// What the console calls when a page opens is not a change, whatever the method.
    #[test]
    fn page_views_are_not_changes() {
        for read in [
            "/task.merchant_forward_task/dy_forward_config",
            "/task.merchant_forward_task/xhs_forward_config",
            "/media.merchant_much_resource/video_resource_group_index",
            "/media.merchant_much_resource/resource_group_tree",
            "/media.merchant_much_resource/video_resource_detail",
            "/media.merchant_producing_upfile/music_index",
            "/media.merchant_producing_upfile/system_music_index",
            "/bpdr.merchant_file_type/image_tree",
            "/bpdr.merchant_mediainfo/getVoiceName",
            "/media.merchant_font_style/getAll",
            "/ajax/getYunData",
            "/matrix.merchant_publish_management/getRandomTopicList",
            "/task.merchant_group_user/get_qrCode",
            "/task.merchant_group_user/qr_login",
            "/clip.merchant_much_clip/preview_video",
            "/clip.merchant_video_library/job_video",
            "/media.merchant_much_resource/get_asr_timeline",
        ] {
            assert!(!is_mutating("POST", read), "{read}");
            assert!(!is_mutating("GET", read), "{read}");
        }
        for change in [
            "/user.merchant_user_sub/authMenu",
            "/ajax/ossUpload",
            "/ajax/edit_upfile",
            "/clip.merchant_project/job_video",
            "/task.merchant_group_user/user_save",
            "/media.merchant_much_resource/resource_delete",
        ] {
            assert!(is_mutating("POST", change), "{change}");
        }
        assert!(is_mutating("GET", "/clip.merchant_visual_editing/delete"));
        assert!(is_mutating(
            "GET",
            "/media.merchant_much_resource/asr_modify"
        ));
        assert!(!is_mutating("GET", "/user.merchant_user_sub/authMenu"));
    }

    #[test]
    fn access_table() {
        assert_eq!(access_for("/login/auth"), Access::Public);
        assert_eq!(access_for("/ajax/initAdmin"), Access::SignedIn);
        assert_eq!(access_for("/system/tasks/retry"), Access::Operator);
        assert_eq!(access_for("/system/dic"), Access::SignedIn);
        assert_eq!(access_for("/system/dic/save"), Access::Operator);
        assert_eq!(
            access_for("/systemx/a"),
            Access::Permission("systemx/a/index".into())
        );
        assert_eq!(
            access_for("/user.merchant_user_sub/list"),
            Access::Permission("user/merchant_user_sub/list".into())
        );
    }
    #[test]
    fn token_scopes_map_calls_to_areas() {
        use TokenScope::*;
        let publish = "/matrix.merchant_publish_management/createPublishTask";
        assert_eq!(area_of(&of_path(publish)), Some("matrix"));
        assert_eq!(area_of("ajax/ossUpload/index"), Some("materials"));
        assert_eq!(
            area_of(&of_path("/clip.merchant_video_library/index")),
            Some("clip")
        );
        // The operator's screens are an area no scope names.
        assert_eq!(area_of("system/merchant/add"), Some("system"));
        assert!(
            TokenScope::ALL
                .iter()
                .all(|s| !s.areas().contains(&"system"))
        );
        assert_eq!(area_of("index/editProfile/index"), None);
        // read: every read, no change.
        assert!(token_allows(
            &[Read],
            "GET",
            "/task.merchant_forward_task/index"
        ));
        assert!(token_allows(
            &[Read],
            "POST",
            "/common.merchant_report/overview"
        ));
        assert!(!token_allows(&[Read], "POST", publish));
        assert!(!token_allows(
            &[Read],
            "POST",
            "/media.merchant_much_resource/resource_group_add"
        ));
        // A write scope changes its own areas only, and reads them.
        assert!(token_allows(&[Publish], "POST", publish));
        assert!(token_allows(
            &[Publish],
            "GET",
            "/task.merchant_forward_task/index"
        ));
        assert!(!token_allows(
            &[Publish],
            "GET",
            "/common.merchant_report/overview"
        ));
        assert!(!token_allows(&[Clip], "POST", publish));
        assert!(token_allows(
            &[Clip],
            "POST",
            "/clip.merchant_much_clip/add"
        ));
        assert!(token_allows(&[Materials], "POST", "/ajax/ossUpload"));
        // Every token reads the signed-in basics; none changes the account or renews a session.
        assert!(token_allows(&[Reports], "GET", "/ajax/initAdmin"));
        for p in [
            "/index/editPassword.html",
            "/index/editProfile",
            "/user.merchant_user_sub/add",
        ] {
            assert!(!token_allows(&TokenScope::ALL, "POST", p), "{p}");
        }
        for p in SESSION_ONLY {
            assert!(!token_allows(&TokenScope::ALL, "POST", p), "{p}");
            assert!(!token_allows(&TokenScope::ALL, "GET", p), "{p}");
        }
    }
}
