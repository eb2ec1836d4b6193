//! The platform vocabulary: the codes the database stores, the API sends and the console shows for
//! the six platforms, and the smaller sets some features serve. The adapters (`platforms`) use the
//! same [`Platform`] (re-exported as `platforms::Platform`).
//!
//! The sets, each listed as is in the OpenAPI document:
//! - [`Platform`]: the six platforms (accounts, items, comments, messages, leads, reports, apps).
//!   SPEC's per-platform call prefixes name the shop `bp` (`/task.merchant_forward_task/bp_add`):
//!   `bp` parses as [`Platform::Shop`] but is never written.
//! - [`TaskPlatform`]: a release task's platform, one of the six or `mixed` (a common task over
//!   accounts of several platforms).
//! - [`SearchPlatform`]: keyword search and its collected words serve Douyin and Kuaishou.
//! - [`DyOnly`]: what only Douyin has: the hot lists' billboards, the NFC share page and the
//!   benchmark accounts.

crate::text_enum! {
    /// The six platforms. The text is the short code used in paths, config and the database.
    pub enum Platform {
        Dy = "dy",
        Ks = "ks",
        Sph = "sph",
        Xhs = "xhs",
        Bjh = "bjh",
        /// The Douyin shop; `bp` in SPEC's call prefixes.
        Shop = "shop" | "bp",
    }
}

crate::text_enum! {
    /// How an account of a platform is authorized.
    pub enum AuthKind {
        /// Consent page -> code -> token (DY, KS).
        OAuth = "oauth",
        /// QR login into the creator console, session kept (SPH, XHS, shop).
        QrSession = "qr_session",
        /// Static app_id + app_token (BJH).
        AppToken = "app_token",
    }
}

impl Platform {
    /// The short code (the stored text).
    pub const fn code(self) -> &'static str {
        self.as_str()
    }

    /// A code, or SPEC's `bp` for the shop; None for any other text.
    pub fn from_code(s: &str) -> Option<Platform> {
        Platform::parse(s)
    }

    /// How an account is authorized.
    pub fn auth_kind(self) -> AuthKind {
        match self {
            Platform::Dy | Platform::Ks => AuthKind::OAuth,
            Platform::Sph | Platform::Xhs | Platform::Shop => AuthKind::QrSession,
            Platform::Bjh => AuthKind::AppToken,
        }
    }
}

crate::text_enum! {
    /// A release task's platform: one platform's task, or `mixed` (a common task over accounts of
    /// several platforms, each item posting on its account's platform).
    pub enum TaskPlatform {
        Dy = "dy",
        Ks = "ks",
        Sph = "sph",
        Xhs = "xhs",
        Bjh = "bjh",
        Shop = "shop" | "bp",
        Mixed = "mixed",
    }
}

impl TaskPlatform {
    /// The one platform of the task; None for a mixed task.
    pub fn platform(self) -> Option<Platform> {
        Platform::parse(self.as_str())
    }
}

impl From<Platform> for TaskPlatform {
    fn from(p: Platform) -> TaskPlatform {
        match p {
            Platform::Dy => TaskPlatform::Dy,
            Platform::Ks => TaskPlatform::Ks,
            Platform::Sph => TaskPlatform::Sph,
            Platform::Xhs => TaskPlatform::Xhs,
            Platform::Bjh => TaskPlatform::Bjh,
            Platform::Shop => TaskPlatform::Shop,
        }
    }
}

crate::text_enum! {
    /// The platforms keyword search (and the words collected from it) serves.
    pub enum SearchPlatform {
        Dy = "dy",
        Ks = "ks",
    }
}

impl From<SearchPlatform> for Platform {
    fn from(p: SearchPlatform) -> Platform {
        match p {
            SearchPlatform::Dy => Platform::Dy,
            SearchPlatform::Ks => Platform::Ks,
        }
    }
}

crate::text_enum! {
    /// What only Douyin has: billboards (the hot lists), the NFC share page, benchmark accounts.
    pub enum DyOnly {
        Dy = "dy",
    }
}

impl From<DyOnly> for Platform {
    fn from(_: DyOnly) -> Platform {
        Platform::Dy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        let codes: Vec<&str> = Platform::ALL.iter().map(|p| p.code()).collect();
        assert_eq!(codes, ["dy", "ks", "sph", "xhs", "bjh", "shop"]);
        for p in Platform::ALL {
            assert_eq!(Platform::from_code(p.code()), Some(p));
            assert_eq!(p.to_string().parse::<Platform>(), Ok(p));
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{}\"", p.code()));
            assert_eq!(serde_json::from_str::<Platform>(&json).unwrap(), p);
            let t = TaskPlatform::from(p);
            assert_eq!(t.as_str(), p.code());
            assert_eq!(t.platform(), Some(p));
        }
        assert_eq!(TaskPlatform::Mixed.platform(), None);
        assert_eq!(TaskPlatform::parse("mixed"), Some(TaskPlatform::Mixed));
        for p in SearchPlatform::ALL {
            assert_eq!(Platform::from(p).code(), p.as_str());
        }
        assert_eq!(Platform::from(DyOnly::Dy), Platform::Dy);
    }

    #[test]
    fn bp_is_the_shop_but_never_written() {
        assert_eq!(Platform::from_code("bp"), Some(Platform::Shop));
        assert_eq!(
            serde_json::from_str::<Platform>("\"bp\"").unwrap(),
            Platform::Shop
        );
        assert_eq!(Platform::Shop.code(), "shop");
        assert_eq!(TaskPlatform::parse("bp"), Some(TaskPlatform::Shop));
    }

    #[test]
    fn unknown_codes_are_refused() {
        for s in ["", "DY", "tiktok", "mixed", "dd", "video"] {
            assert_eq!(Platform::from_code(s), None, "{s}");
            assert!(s.parse::<Platform>().is_err(), "{s}");
        }
        assert!(serde_json::from_str::<Platform>("\"tiktok\"").is_err());
        assert_eq!(SearchPlatform::parse("sph"), None);
        assert_eq!(DyOnly::parse("ks"), None);
    }

    #[test]
    fn auth_kinds() {
        assert_eq!(Platform::Dy.auth_kind(), AuthKind::OAuth);
        assert_eq!(Platform::Shop.auth_kind(), AuthKind::QrSession);
        assert_eq!(Platform::Bjh.auth_kind(), AuthKind::AppToken);
        assert_eq!(
            serde_json::to_string(&AuthKind::QrSession).unwrap(),
            "\"qr_session\""
        );
    }
}
