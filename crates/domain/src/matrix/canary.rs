//! The canary of the creator-console flows (XHS, WeChat Channels, the shop): a publish walked up to
//! its last click on one healthy account, daily and on the operator's demand, to find a console page
//! that changed before a batch runs into it. Its last result is kept per platform; a failed one
//! pauses that platform's due items (they wait, not fail) until a canary passes or the operator
//! resumes.

use serde::{Deserialize, Serialize};

/// How often the scheduler runs each platform's canary.
pub const CANARY_EVERY_MS: i64 = 86_400_000;

/// The settings keys of the platforms' last canaries share this prefix.
pub const CANARY_KEY_PREFIX: &str = "platforms.canary.";

/// The settings key of a platform's last canary.
pub fn canary_key(platform: &str) -> String {
    format!("{CANARY_KEY_PREFIX}{platform}")
}

/// A platform's last canary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CanaryState {
    pub ok: bool,
    /// The failing step's code (`open`, `upload`, `form`, `declaration`, `schedule`, `publish`;
    /// `account` when no account could run it); '' when it passed.
    pub step: String,
    /// What failed, in the console's two languages ('' when it passed).
    pub zh: String,
    pub en: String,
    /// When it ran (ms, product clock).
    pub at: i64,
    /// The account it walked on (0: none).
    pub account_id: i64,
    /// The platform's due items wait while set: a failed canary sets it; a passing one or the
    /// operator's "resume" clears it.
    pub paused: bool,
}

impl CanaryState {
    pub fn passed(at: i64, account_id: i64) -> CanaryState {
        CanaryState {
            ok: true,
            at,
            account_id,
            ..Default::default()
        }
    }

    /// A failure pauses the platform unless it says no account could run it (nothing was learnt
    /// about the pages then).
    pub fn failed(at: i64, account_id: i64, step: &str, zh: &str, en: &str) -> CanaryState {
        CanaryState {
            ok: false,
            step: step.into(),
            zh: zh.into(),
            en: en.into(),
            at,
            account_id,
            paused: account_id != 0,
        }
    }

    /// Read from its setting (a missing or unreadable one: never ran).
    pub fn parse(s: Option<&str>) -> Option<CanaryState> {
        s.and_then(|s| serde_json::from_str(s).ok())
    }

    /// Is a daily run due at `now`?
    pub fn due(state: Option<&CanaryState>, now: i64) -> bool {
        state.is_none_or(|s| now - s.at >= CANARY_EVERY_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_pauses_unless_no_account_could_run_it() {
        let f = CanaryState::failed(5, 7, "upload", "上传失败", "upload failed");
        assert!(f.paused && !f.ok);
        assert!(!CanaryState::failed(5, 0, "account", "无账号", "no account").paused);
        let p = CanaryState::passed(9, 7);
        assert!(p.ok && !p.paused && p.step.is_empty());
        let back = CanaryState::parse(Some(&serde_json::to_string(&f).unwrap()));
        assert_eq!(back.as_ref(), Some(&f));
        assert_eq!(CanaryState::parse(Some("x")), None);
    }

    #[test]
    fn it_is_due_daily() {
        assert!(CanaryState::due(None, 0));
        let s = CanaryState::passed(1_000, 1);
        assert!(!CanaryState::due(Some(&s), 1_000 + CANARY_EVERY_MS - 1));
        assert!(CanaryState::due(Some(&s), 1_000 + CANARY_EVERY_MS));
    }
}
