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
    "/index/banner",
    "/index/getIndexCourseList",
    "/system/dic",
    "/events",
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
];

/// Calls that change something and so go to the operation log.
pub fn is_mutating(method: &str, path: &str) -> bool {
    if method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD") {
        return false;
    }
    let action = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html");
    !READ_ACTIONS.contains(&action)
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
}
