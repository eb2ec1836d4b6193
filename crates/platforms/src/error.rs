//! The one error type of this crate is [`PlatformError`]; this module is its catalogue. Each platform
//! maps its own codes to a [`Reason`], and the reason decides the [`ErrorKind`] (what the product does
//! next) and the zh-CN / English text a person reads. Keeping the texts here means every platform says
//! "sensitive word" the same way.

use crate::{ErrorKind, Platform, PlatformError};

/// Why a call failed, independent of the platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    TokenExpired,
    RefreshExpired,
    RenewCap,
    CodeInvalid,
    SessionExpired,
    OpenIdMismatch,
    ScopeMissing,
    AppTokenInvalid,
    AppCredsInvalid,
    RateLimit,
    Busy,
    MissingChunk,
    Quota,
    DailyCap,
    Banned,
    SensitiveWord,
    ReviewFailed,
    TooLarge,
    TooLong,
    BadVideoId,
    BadParams,
    /// A private message to a customer who has not written in the last 48 hours.
    ImWindow,
    /// Too many private messages before the customer writes again.
    ImTurn,
    AccountNotFound,
    LinkUnresolvable,
    /// A code we do not know: Permanent, with the platform's own description.
    Unknown,
}

impl Reason {
    pub(crate) fn kind(self) -> ErrorKind {
        use Reason::*;
        match self {
            TokenExpired => ErrorKind::TokenExpired,
            RefreshExpired | RenewCap | CodeInvalid | SessionExpired | OpenIdMismatch
            | ScopeMissing | AppTokenInvalid => ErrorKind::Reauthorize,
            RateLimit | Busy | MissingChunk => ErrorKind::Retryable,
            AppCredsInvalid | Quota | DailyCap | Banned | SensitiveWord | ReviewFailed
            | TooLarge | TooLong | BadVideoId | BadParams | AccountNotFound | LinkUnresolvable
            | ImWindow | ImTurn | Unknown => ErrorKind::Permanent,
        }
    }

    fn texts(self) -> (&'static str, &'static str) {
        use Reason::*;
        match self {
            TokenExpired => (
                "访问令牌已过期或无效，需要刷新",
                "The access token expired or is invalid; it must be refreshed",
            ),
            RefreshExpired => (
                "刷新令牌已失效，请重新授权账号",
                "The refresh token is no longer valid; authorize the account again",
            ),
            RenewCap => (
                "刷新令牌续期次数已用完，请重新授权账号",
                "The refresh token cannot be renewed any more; authorize the account again",
            ),
            CodeInvalid => (
                "授权码无效或已使用，请重新授权",
                "The authorization code is invalid or was already used; authorize again",
            ),
            SessionExpired => (
                "登录状态已失效，请重新扫码登录",
                "The login session expired; scan the QR code again",
            ),
            OpenIdMismatch => (
                "令牌与账号不匹配，请重新授权账号",
                "The token does not belong to this account; authorize the account again",
            ),
            ScopeMissing => (
                "账号未授予此项权限，请重新授权并勾选全部权限",
                "The account did not grant this permission; authorize it again with every permission ticked",
            ),
            AppTokenInvalid => (
                "应用凭据（app_token）无效，请重新填写",
                "The app_token is invalid; enter the app credentials again",
            ),
            AppCredsInvalid => (
                "平台应用凭据（client_key/secret）无效，请检查系统配置",
                "The platform app credentials (client key/secret) are invalid; check the system settings",
            ),
            RateLimit => (
                "调用过于频繁，平台限流，稍后重试",
                "Too many calls; the platform is rate limiting, retry later",
            ),
            Busy => ("平台繁忙，稍后重试", "The platform is busy; retry later"),
            MissingChunk => (
                "视频分片缺失，需要重新上传",
                "A video chunk was missing; the upload must be repeated",
            ),
            Quota => ("接口调用额度已用完", "The API call quota is used up"),
            DailyCap => (
                "今日发布次数已达上限",
                "The daily publishing limit was reached",
            ),
            Banned => ("账号已被禁止发布", "The account is banned from publishing"),
            SensitiveWord => (
                "标题含敏感词，平台拒绝发布",
                "The title contains a sensitive word; the platform refused it",
            ),
            ReviewFailed => (
                "素材未通过平台审核",
                "The material failed the platform's review",
            ),
            TooLarge => ("视频文件过大", "The video file is too large"),
            TooLong => (
                "视频时长超过平台上限（15 分钟）",
                "The video is longer than the platform allows (15 minutes)",
            ),
            BadVideoId => (
                "视频 ID 无效，需要重新上传",
                "The video id is invalid; upload again",
            ),
            BadParams => ("请求参数错误", "The request has invalid parameters"),
            ImWindow => (
                "用户 48 小时内未发来消息，平台不允许发送私信",
                "The customer has not written in the last 48 hours; the platform allows no message",
            ),
            ImTurn => (
                "用户回复前最多发送 5 条消息，请等待用户回复",
                "At most 5 messages until the customer writes again; wait for their reply",
            ),
            AccountNotFound => (
                "账号不存在或未公开",
                "The account does not exist or is not public",
            ),
            LinkUnresolvable => (
                "无法解析该分享链接，请粘贴账号主页的分享链接或账号 ID",
                "The share link cannot be resolved; paste the profile's share link or the account id",
            ),
            Unknown => ("平台返回错误", "The platform answered an error"),
        }
    }
}

/// The error for `reason`, keeping the platform's code and (for unknown codes) its own description.
pub(crate) fn reason(
    platform: Platform,
    code: impl ToString,
    reason: Reason,
    detail: &str,
) -> PlatformError {
    let (zh, en) = reason.texts();
    let (zh, en) = if reason == Reason::Unknown && !detail.is_empty() {
        (format!("{zh}：{detail}"), format!("{en}: {detail}"))
    } else {
        (zh.to_string(), en.to_string())
    };
    PlatformError {
        platform: platform.code(),
        kind: reason.kind(),
        code: code.to_string(),
        zh,
        en,
        evidence: None,
    }
}

pub(crate) fn new(
    platform: Platform,
    kind: ErrorKind,
    code: &str,
    zh: impl Into<String>,
    en: impl Into<String>,
) -> PlatformError {
    PlatformError {
        platform: platform.code(),
        kind,
        code: code.to_string(),
        zh: zh.into(),
        en: en.into(),
        evidence: None,
    }
}

pub(crate) fn unsupported(platform: Platform, call: &str) -> PlatformError {
    new(
        platform,
        ErrorKind::Permanent,
        "unsupported",
        format!("该平台（{}）不支持此操作（{call}）", platform.code()),
        format!(
            "This platform ({}) does not support this call ({call})",
            platform.code()
        ),
    )
}

pub(crate) fn timeout(platform: Platform) -> PlatformError {
    new(
        platform,
        ErrorKind::Retryable,
        "timeout",
        "平台响应超时，稍后重试",
        "The platform did not answer in time; retry later",
    )
}

pub(crate) fn network(platform: Platform, detail: &str) -> PlatformError {
    new(
        platform,
        ErrorKind::Retryable,
        "network",
        format!("无法连接平台：{detail}"),
        format!("Could not reach the platform: {detail}"),
    )
}

pub(crate) fn http_status(platform: Platform, status: u16) -> PlatformError {
    let code = format!("http_{status}");
    match status {
        429 => reason(platform, code, Reason::RateLimit, ""),
        500..=599 => new(
            platform,
            ErrorKind::Retryable,
            &code,
            format!("平台服务器错误（HTTP {status}），稍后重试"),
            format!("The platform had a server error (HTTP {status}); retry later"),
        ),
        _ => new(
            platform,
            ErrorKind::Permanent,
            &code,
            format!("平台拒绝了请求（HTTP {status}）"),
            format!("The platform refused the request (HTTP {status})"),
        ),
    }
}

/// The answer was not what the wire format promises (e.g. not JSON): treat as transient.
pub(crate) fn bad_response(platform: Platform, detail: &str) -> PlatformError {
    new(
        platform,
        ErrorKind::Retryable,
        "bad_response",
        format!("平台返回了无法识别的内容：{detail}"),
        format!("The platform answered something unreadable: {detail}"),
    )
}

pub(crate) fn local_file(platform: Platform, detail: &str) -> PlatformError {
    new(
        platform,
        ErrorKind::Permanent,
        "local_file",
        format!("无法读取本地文件：{detail}"),
        format!("Could not read the local file: {detail}"),
    )
}

pub(crate) fn no_app_creds(platform: Platform) -> PlatformError {
    new(
        platform,
        ErrorKind::Permanent,
        "no_app_creds",
        "未配置该平台的应用凭据",
        "No app credentials are configured for this platform",
    )
}

/// The sandbox's own DY codes for the data calls that have no open-platform API (public accounts;
/// docs/seo-platforms.md). Unverified on any real host: a data vendor has its own.
pub(crate) mod dy_codes {
    pub const ACCOUNT_NOT_FOUND: i64 = 2199001;
    pub const LINK_UNRESOLVABLE: i64 = 2199002;
}

/// Douyin codes (PLATFORMS.md "Error codes to handle", plus the OAuth 100xx codes).
/// 2190004 is the sandbox's code for an incomplete chunked upload (unverified on the real host).
pub(crate) fn dy(code: i64, description: &str) -> PlatformError {
    use Reason::*;
    let r = match code {
        10008 | 2190008 | 28001008 | 2190002 => TokenExpired,
        10010 => RefreshExpired,
        10020 => RenewCap,
        10007 => CodeInvalid,
        2190015 | 28001015 => OpenIdMismatch,
        28001012 => ScopeMissing,
        10003 | 10013 => AppCredsInvalid,
        28003018 => RateLimit,
        2100004 | 28001005 => Busy,
        2190004 => MissingChunk,
        2190001 | 28003017 => Quota,
        2114007 => DailyCap,
        2114005 => Banned,
        2111001 => SensitiveWord,
        28003020 => ImWindow,
        28003019 => ImTurn,
        2113001 => ReviewFailed,
        2190005 => TooLarge,
        2190006 => TooLong,
        2190007 => BadVideoId,
        2100005 | 28001007 | 10002 | 10005 => BadParams,
        dy_codes::ACCOUNT_NOT_FOUND => AccountNotFound,
        dy_codes::LINK_UNRESOLVABLE => LinkUnresolvable,
        _ => Unknown,
    };
    reason(Platform::Dy, code, r, description)
}

/// Kuaishou codes. 100200100..=100200102 are documented (param error, bad client, access denied =
/// code used / refresh token discarded); the rest are the sandbox's own (unverified on the real host).
pub(crate) mod ks_codes {
    pub const OK: i64 = 1;
    pub const BAD_PARAMS: i64 = 100200100;
    pub const BAD_CLIENT: i64 = 100200101;
    pub const ACCESS_DENIED: i64 = 100200102;
    pub const TOKEN_EXPIRED: i64 = 100200103;
    pub const RATE_LIMIT: i64 = 100200104;
    pub const BUSY: i64 = 100200105;
    pub const QUOTA: i64 = 100200106;
    pub const DAILY_CAP: i64 = 100200107;
    pub const SENSITIVE: i64 = 100200108;
    pub const TOO_LARGE: i64 = 100200109;
    pub const TOO_LONG: i64 = 100200110;
    pub const MISSING_FRAGMENT: i64 = 100200111;
    pub const OPEN_ID_MISMATCH: i64 = 100200112;
    pub const BANNED: i64 = 100200113;
    pub const REVIEW_FAILED: i64 = 100200114;
}

pub(crate) fn ks(code: i64, msg: &str) -> PlatformError {
    use Reason::*;
    use ks_codes::*;
    let r = match code {
        BAD_PARAMS => BadParams,
        BAD_CLIENT => AppCredsInvalid,
        // Access denied on the OAuth calls = the code or refresh token is spent: authorize again.
        ACCESS_DENIED => RefreshExpired,
        TOKEN_EXPIRED => TokenExpired,
        RATE_LIMIT => RateLimit,
        BUSY => Busy,
        QUOTA => Quota,
        DAILY_CAP => DailyCap,
        SENSITIVE => SensitiveWord,
        TOO_LARGE => TooLarge,
        TOO_LONG => TooLong,
        MISSING_FRAGMENT => MissingChunk,
        OPEN_ID_MISMATCH => OpenIdMismatch,
        BANNED => Banned,
        REVIEW_FAILED => ReviewFailed,
        _ => Unknown,
    };
    reason(Platform::Ks, code, r, msg)
}

/// Baijiahao codes: 60001001 auth, 60001008/60001009 daily quota, 60000005 muted are documented
/// (third-party code); the others are the sandbox's own (unverified).
pub(crate) mod bjh_codes {
    pub const AUTH: i64 = 60001001;
    pub const DAILY_QUOTA: i64 = 60001008;
    pub const DAILY_QUOTA2: i64 = 60001009;
    pub const MUTED: i64 = 60000005;
    pub const BAD_PARAMS: i64 = 60001002;
    pub const RATE_LIMIT: i64 = 60001010;
    pub const BUSY: i64 = 60001011;
    pub const QUOTA: i64 = 60001012;
    pub const SENSITIVE: i64 = 60001013;
    pub const TOO_LARGE: i64 = 60001014;
    pub const TOO_LONG: i64 = 60001015;
    pub const REVIEW_FAILED: i64 = 60001016;
}

pub(crate) fn bjh(code: i64, msg: &str) -> PlatformError {
    use Reason::*;
    use bjh_codes::*;
    let r = match code {
        AUTH => AppTokenInvalid,
        DAILY_QUOTA | DAILY_QUOTA2 => DailyCap,
        MUTED => Banned,
        BAD_PARAMS => BadParams,
        RATE_LIMIT => RateLimit,
        BUSY => Busy,
        QUOTA => Quota,
        SENSITIVE => SensitiveWord,
        TOO_LARGE => TooLarge,
        TOO_LONG => TooLong,
        REVIEW_FAILED => ReviewFailed,
        _ => Unknown,
    };
    reason(Platform::Bjh, code, r, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dy_codes_map_to_the_documented_kinds() {
        assert_eq!(dy(2190008, "").kind, ErrorKind::TokenExpired);
        assert_eq!(dy(10010, "").kind, ErrorKind::Reauthorize);
        assert_eq!(dy(10020, "").kind, ErrorKind::Reauthorize);
        assert_eq!(dy(2190015, "").kind, ErrorKind::Reauthorize);
        assert_eq!(dy(28003018, "").kind, ErrorKind::Retryable);
        assert_eq!(dy(2114007, "").kind, ErrorKind::Permanent);
        let e = dy(2111001, "");
        assert_eq!(e.zh, "标题含敏感词，平台拒绝发布");
        assert_eq!(e.code, "2111001");
        let u = dy(999, "奇怪的错误");
        assert_eq!(u.kind, ErrorKind::Permanent);
        assert!(u.zh.contains("奇怪的错误"), "{}", u.zh);
    }

    #[test]
    fn http_status_kinds() {
        assert_eq!(http_status(Platform::Ks, 503).kind, ErrorKind::Retryable);
        assert_eq!(http_status(Platform::Ks, 429).kind, ErrorKind::Retryable);
        assert_eq!(http_status(Platform::Ks, 404).kind, ErrorKind::Permanent);
    }
}
