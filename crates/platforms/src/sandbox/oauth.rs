//! Authorization codes of the OAuth platforms (DY, KS): what the consent page issues, what the token
//! calls take, and the open id a person has for an app (the QR-login platforms use it too).
//!
//! Source: the OAuth 2 flows of open.douyin.com and open.kuaishou.com (PLATFORMS.md "Douyin",
//! "Kuaishou"), as the adapters `crate::dy` and `crate::ks` call them.

use super::{Access, AuthCode, Refresh, S, State, User};
use crate::Platform;

pub(crate) const CODE_TTL_MS: i64 = 10 * 60_000;

/// The scope a consent grants: what was asked, narrowed to what the person ticked (a form post
/// without any `grant` field, i.e. a script, consents to everything asked).
pub(crate) fn consented(asked: &str, ticked: &[&str]) -> String {
    asked
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty() && (ticked.is_empty() || ticked.contains(a)))
        .collect::<Vec<_>>()
        .join(",")
}

/// Called by the consent page: a single-use code for (app, user).
pub(crate) fn issue_code(
    s: &S,
    st: &mut State,
    platform: Platform,
    client_key: &str,
    nickname: &str,
    scope: &str,
) -> String {
    let open_id = open_id_for(platform, client_key, nickname);
    st.users.insert(
        format!("{}:{open_id}", platform.code()),
        User {
            nickname: nickname.to_string(),
            avatar: super::avatar::url(&s.public_base, platform, &open_id),
        },
    );
    let code = st.id("code_");
    st.codes.insert(
        code.clone(),
        AuthCode {
            platform,
            client_key: client_key.to_string(),
            open_id,
            expires_at: s.clock.sandbox_now() + CODE_TTL_MS,
            used: false,
            scope: scope.to_string(),
        },
    );
    code
}

/// The same person authorizing the same app again is the same account.
pub(crate) fn open_id_for(platform: Platform, client_key: &str, nickname: &str) -> String {
    let h = super::stable_hash(&[platform.code(), client_key, nickname]);
    match platform {
        Platform::Dy => format!("_000{h:016x}"),
        _ => format!(
            "{h:016x}{:016x}",
            super::stable_hash(&[nickname, platform.code()])
        ),
    }
}

/// Consumes a code: Ok((open_id, consented scope)) or the error message. Shared with KS.
pub(crate) fn take_code(
    st: &mut State,
    platform: Platform,
    client_key: &str,
    code: &str,
) -> Result<(String, String), &'static str> {
    let now = st.clock.sandbox_now();
    match st.codes.get_mut(code) {
        Some(c)
            if c.platform == platform
                && c.client_key == client_key
                && !c.used
                && c.expires_at > now =>
        {
            c.used = true;
            Ok((c.open_id.clone(), c.scope.clone()))
        }
        Some(c) if c.used => Err("code 已被使用"),
        _ => Err("code 无效或已过期"),
    }
}

/// New access + refresh token pair for a fresh authorization.
pub(crate) fn grant(
    st: &mut State,
    platform: Platform,
    client_key: &str,
    open_id: &str,
    scope: &str,
    access_ttl: i64,
    refresh_ttl: i64,
) -> (String, String) {
    let now = st.clock.sandbox_now();
    let (ap, rp) = if platform == Platform::Dy {
        ("act.", "rft.")
    } else {
        ("ks_at_", "ks_rt_")
    };
    let at = st.id(ap);
    let rt = st.id(rp);
    st.access.insert(
        at.clone(),
        Access {
            platform,
            open_id: open_id.into(),
            client_key: client_key.into(),
            expires_at: now + access_ttl,
            scope: scope.into(),
        },
    );
    st.refresh.insert(
        rt.clone(),
        Refresh {
            platform,
            open_id: open_id.into(),
            client_key: client_key.into(),
            expires_at: now + refresh_ttl,
            renewals: 0,
            alive: true,
            scope: scope.into(),
        },
    );
    (at, rt)
}
