//! Calls in words: the console function a permission belongs to (the menu that grants it, titled as in
//! the console), the material libraries, and an action's name (function + verb) for the operation log.
//! Refusals and log rows name these instead of raw API paths.

use crate::i18n::Lang;
use crate::menus;

/// The console's menu titles (`menu.*` in web/src/locales/*/common.json; a test keeps them equal).
const TITLES: &[(&str, &str, &str)] = &[
    ("menu.dashboard", "控制台", "Dashboard"),
    ("menu.material", "素材库", "Materials"),
    ("menu.video", "多镜头视频库", "Video library"),
    ("menu.speak", "配音素材", "Voice-over"),
    ("menu.music", "音乐库", "Music"),
    ("menu.image", "图片库", "Images"),
    ("menu.font", "字体库", "Fonts"),
    ("menu.clip", "剪辑", "Editing"),
    ("menu.batchSlice", "批量切片", "Batch slice"),
    ("menu.normalMode", "快速混剪", "Quick mix"),
    ("menu.highMode", "高级混剪", "Advanced mode"),
    ("menu.templateClip", "模板剪辑", "Clip templates"),
    ("menu.newAiHome", "AI一键成片", "One-touch video"),
    ("menu.pieceRep", "成片库", "Finished videos"),
    ("menu.matrix", "矩阵", "Matrix"),
    ("menu.sendManagement", "发布管理", "Release tasks"),
    ("menu.accountAuth", "账号授权", "Account authorization"),
    ("menu.accountClassify", "账号分组", "Account groups"),
    ("menu.authMature", "授权到期", "Authorization expiry"),
    ("menu.userLibrary", "账号库", "Account library"),
    ("menu.events", "抽奖活动", "Lottery activities"),
    ("menu.nfc", "NFC 碰一碰", "NFC tap-to-post"),
    ("menu.commentManagement", "评论管理", "Comments"),
    ("menu.commentReply", "评论自动回复", "Comment auto-reply"),
    ("menu.privateMsg", "私信", "Private messages"),
    ("menu.clueManagement", "线索管理", "Leads"),
    ("menu.clueAssign", "线索分配", "Lead assignment"),
    ("menu.privateMessage", "私信管理", "Inbox"),
    ("menu.privateAuth", "私信授权", "Message permission"),
    ("menu.douWei", "抖微通知", "Lead alerts on WeChat"),
    ("menu.chatReply", "私信回复", "Chat replies"),
    ("menu.seo", "SEO 优化", "SEO"),
    ("menu.aiHome", "SEO 首页", "SEO home"),
    ("menu.keySearch", "关键词搜索", "Keyword search"),
    ("menu.keyExcavate", "关键词挖掘", "Keyword mining"),
    ("menu.keywordsNum", "关键词收藏", "Collected keywords"),
    (
        "menu.keywordsNewTitle",
        "关键词生成标题",
        "Titles from keywords",
    ),
    ("menu.keyswordSetting", "词库设置", "Lexicon settings"),
    ("menu.accountSee", "对标账号", "Benchmark accounts"),
    ("menu.newAiTitle", "内置关键词", "Built-in keywords"),
    ("menu.systemAiProvider", "AI 服务", "AI provider"),
    ("menu.auditCheck", "审核", "Review"),
    ("menu.useRecord", "使用记录", "Usage records"),
    ("menu.log", "操作日志", "Operation log"),
    ("menu.staffAccount", "员工账号", "Staff accounts"),
    ("menu.usercenter", "个人中心", "User center"),
    ("menu.system", "系统管理", "System"),
    ("menu.systemApp", "平台应用", "Platform apps"),
    ("menu.systemMerchant", "商户管理", "Merchants"),
    ("menu.systemRole", "角色管理", "Roles"),
    ("menu.systemMenu", "菜单管理", "Menus"),
    ("menu.systemLog", "系统日志", "System log"),
    ("menu.systemTasks", "任务队列", "Task queue"),
    ("menu.systemDic", "数据字典", "Dictionaries"),
    ("menu.systemSms", "短信网关", "SMS gateway"),
    ("menu.systemMusic", "内置音乐", "Built-in music"),
    ("menu.courses", "教程", "Courses"),
    ("menu.courseAccount", "账号运营", "Account operation"),
    ("menu.coursePopular", "爆款干货", "Trending know-how"),
    ("menu.courseGeneral", "课程中心", "Course center"),
    ("menu.courseShot", "拍摄教程", "Shooting tutorials"),
    // Reports: data analysis and the data screen.
    ("menu.dataAnalysis", "数据分析", "Data analysis"),
    ("menu.dyNum", "抖音数据", "Douyin data"),
    ("menu.ksNum", "快手数据", "Kuaishou data"),
    ("menu.ddNum", "抖店数据", "Douyin shop data"),
    ("menu.videoNum", "视频号数据", "Channels data"),
    ("menu.xhsNum", "小红书数据", "Xiaohongshu data"),
    ("menu.xzsSpecial", "素材效果分析", "Material performance"),
    ("menu.special", "任务交付报表", "Task delivery"),
    ("menu.specialDyVideo", "抖音视频报表", "Douyin video report"),
    ("menu.special2", "员工工作量", "Staff activity"),
    ("menu.actualScreen", "数据大屏", "Data screen"),
    ("menu.systemContent", "内容管理", "Content"),
    ("menu.hotLists", "热榜", "Hot lists"),
    ("menu.hotMusic", "热门音乐", "Hot music"),
    ("menu.hotKeywords", "热搜词", "Hot searches"),
    ("menu.hotVideo", "热门视频", "Hot videos"),
    ("menu.hotTopic", "热门话题", "Hot topics"),
    ("menu.hotLife", "本地生活榜", "Local life"),
    ("menu.hotDoyen", "达人榜", "Top creators"),
    ("menu.home", "首页", "Home"),
    ("menu.code", "扫码登录", "Sign-in codes"),
    ("menu.visualIframe", "成片墙", "Video wall"),
    ("menu.selfTest", "系统自检", "Self-test"),
    ("menu.intellect", "AI智能剪辑", "AI smart editing"),
    ("menu.aiCreate", "AI 创作", "AI create"),
    ("menu.aiVoice", "AI 配音", "AI voice"),
];

fn pick(lang: Lang, zh: &'static str, en: &'static str) -> &'static str {
    match lang {
        Lang::Zh => zh,
        Lang::En => en,
    }
}

/// A menu's title by its key (`menu.video`); the key itself when unknown.
pub fn title(key: &str, lang: Lang) -> String {
    TITLES
        .iter()
        .find(|(k, ..)| *k == key)
        .map(|(_, zh, en)| pick(lang, zh, en).to_string())
        .unwrap_or_else(|| key.to_string())
}

/// Calls no menu grants, in words.
const OTHER_FUNCTIONS: &[(&str, &str, &str)] = &[
    ("login/", "登录", "Sign in"),
    ("index/editProfile/", "个人中心", "User center"),
    ("index/editPassword/", "个人中心", "User center"),
    ("index/apiTokens/", "个人中心", "User center"),
    ("index/addApiToken/", "个人中心", "User center"),
    ("index/revokeApiToken/", "个人中心", "User center"),
    ("index/profile/", "个人中心", "User center"),
    ("common/tool/", "文件上传", "File upload"),
];

/// The menu key of the function a permission belongs to: the menu whose matching grant is the most
/// specific (fewest `*`), the first declared on a tie. The generic upload calls (`ajax/…`) belong to
/// the material libraries as a whole.
fn function_key(perm: &str) -> Option<&'static str> {
    if perm.starts_with("ajax/") {
        return Some("menu.material");
    }
    menus::menu_of(perm).map(|m| m.name)
}

/// The console function a permission (`module/controller/action`) belongs to, in words.
pub fn function_name(perm: &str, lang: Lang) -> String {
    if let Some(key) = function_key(perm) {
        return title(key, lang);
    }
    OTHER_FUNCTIONS
        .iter()
        .find(|(prefix, ..)| perm.starts_with(prefix))
        .map(|(_, zh, en)| pick(lang, zh, en).to_string())
        .unwrap_or_else(|| pick(lang, "该功能", "this function").to_string())
}

/// Verbs by what an action's name contains, first match wins (`asr_add` is recognition, `asr_delete`
/// deleting, `edit_upfile` renaming).
const VERBS: &[(&str, &str, &str)] = &[
    ("logout", "退出登录", "Sign out"),
    ("register", "注册", "Register"),
    ("password", "修改密码", "Change password"),
    ("sms", "发送验证码", "Send a code"),
    ("proxytoken", "代登录", "Sign in as"),
    ("authmenu", "菜单授权", "Authorize menus"),
    ("revoke", "撤销", "Revoke"),
    ("delete", "删除", "Delete"),
    ("clear", "清除", "Clear"),
    ("cancel", "取消", "Cancel"),
    ("status", "修改状态", "Change status"),
    ("save", "保存", "Save"),
    ("edit", "修改", "Edit"),
    ("modify", "修改", "Edit"),
    ("update", "修改", "Edit"),
    ("rename", "修改", "Edit"),
    ("asr", "识别字幕", "Recognize subtitles"),
    ("upload", "上传", "Upload"),
    ("upfile", "上传", "Upload"),
    ("chunk", "上传", "Upload"),
    ("redeem", "核销", "Redeem"),
    ("approve", "审核通过", "Approve"),
    ("reject", "驳回", "Reject"),
    ("retry", "重试", "Retry"),
    ("topup", "充值", "Top up"),
    ("renew", "续期", "Renew"),
    ("share", "分享", "Share"),
    ("discharge", "解绑", "Unbind"),
    ("export", "导出", "Export"),
    ("copy", "复制", "Copy"),
    ("job", "开始处理", "Start processing"),
    ("add", "新增", "Add"),
    ("create", "新增", "Add"),
    ("release", "发布", "Publish"),
    ("forward", "发布", "Publish"),
    ("publish", "发布", "Publish"),
    ("send", "发送", "Send"),
    ("_use", "使用", "Use"),
    ("auth", "登录", "Sign in"),
];

/// An action's name for the operation log: the function and a verb, e.g. `员工账号 · 新增`.
pub fn action_name(perm: &str, lang: Lang) -> String {
    // `login/auth/index`: the action is the last segment that is not the default `index`.
    let action = perm
        .rsplit('/')
        .find(|s| *s != "index")
        .unwrap_or("")
        .to_ascii_lowercase();
    let verb = VERBS
        .iter()
        .find(|(word, ..)| action.contains(word))
        .map(|(_, zh, en)| pick(lang, zh, en))
        .unwrap_or(pick(lang, "操作", "Change"));
    let function = function_name(perm, lang);
    if function == verb {
        function
    } else {
        format!("{function} · {verb}")
    }
}

/// The permission to write into a material library (upload, rename, delete, move into it). The generic
/// upload calls are open to every library page, so they check this for the library they write to.
pub fn library_permission(library: &str) -> String {
    format!("library/{library}/write")
}

/// A material library in words.
pub fn library_name(library: &str, lang: Lang) -> String {
    let key = match library {
        "resource" => "menu.video",
        "voice" => "menu.speak",
        "music" => "menu.music",
        "image" => "menu.image",
        "font" => "menu.font",
        "upload" => return pick(lang, "上传文件", "Uploads").to_string(),
        "video" => return pick(lang, "视频文件", "Video files").to_string(),
        other => return other.to_string(),
    };
    title(key, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server names functions as the console titles them.
    #[test]
    fn titles_are_the_consoles() {
        for (lang, file) in [
            (
                Lang::Zh,
                include_str!("../../../web/src/locales/zh-CN/common.json"),
            ),
            (
                Lang::En,
                include_str!("../../../web/src/locales/en/common.json"),
            ),
        ] {
            let v: serde_json::Value = serde_json::from_str(file).unwrap();
            for m in menus::all() {
                let key = m.name.trim_start_matches("menu.");
                assert_eq!(
                    Some(title(m.name, lang).as_str()),
                    v["menu"][key].as_str(),
                    "{}",
                    m.name
                );
            }
        }
    }

    #[test]
    fn functions_in_words() {
        let zh = |p: &str| function_name(p, Lang::Zh);
        assert_eq!(zh("task/merchant_group_user/get_qrCode"), "账号授权");
        assert_eq!(zh("user/merchant_user_sub/list"), "员工账号");
        assert_eq!(zh("task/merchant_forward_task/dy_add"), "发布管理");
        assert_eq!(zh("media/merchant_font_style/edit"), "字体库");
        assert_eq!(zh("ajax/ossUpload/index"), "素材库");
        assert_eq!(zh("system/merchant/topup"), "商户管理");
        assert_eq!(zh("login/auth/index"), "登录");
        assert_eq!(zh("nothing/known/here"), "该功能");
        assert_eq!(
            function_name("index/dashboard/index", Lang::En),
            "Dashboard"
        );
    }

    #[test]
    fn actions_in_words() {
        let zh = |p: &str| action_name(p, Lang::Zh);
        assert_eq!(zh("user/merchant_user_sub/add"), "员工账号 · 新增");
        assert_eq!(zh("user/merchant_user_sub/authMenu"), "员工账号 · 菜单授权");
        assert_eq!(zh("login/auth/index"), "登录");
        assert_eq!(zh("login/logout/index"), "登录 · 退出登录");
        assert_eq!(
            zh("media/merchant_much_resource/asr_add"),
            "多镜头视频库 · 识别字幕"
        );
        assert_eq!(zh("ajax/edit_upfile/index"), "素材库 · 修改");
        assert_eq!(zh("ajax/add_upfile/index"), "素材库 · 上传");
        assert_eq!(
            action_name("media/merchant_much_resource/resource_delete", Lang::En),
            "Video library · Delete"
        );
        assert_eq!(
            action_name("task/merchant_group_user/user_save", Lang::En),
            "Account authorization · Save"
        );
        assert_eq!(
            action_name("index/editPassword/index", Lang::En),
            "User center · Change password"
        );
    }

    #[test]
    fn libraries_in_words() {
        assert_eq!(library_name("music", Lang::Zh), "音乐库");
        assert_eq!(library_name("resource", Lang::En), "Video library");
        assert_eq!(library_permission("font"), "library/font/write");
    }
}
