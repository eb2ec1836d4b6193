//! The states of the matrix's rows and their allowed transitions: a release item, a task's review,
//! an account's authorization; and why an item failed, stored as a code and shown in the reader's
//! language. The strings are the ones stored (`as_str`/`parse`).

use crate::i18n::{Lang, Msg};

crate::text_enum! {
    /// A release item's publishing state (`matrix_items.state`).
    pub enum ItemState {
        /// Waiting for its time (and the task's approval).
        ToRelease = "to_release",
        /// A publish job is working on it.
        Publishing = "publishing",
        /// The account's work list shows it; the platform's review is pending.
        Published = "published",
        /// Public on the platform.
        Released = "released",
        Failed = "failed",
    }
}
impl ItemState {
    /// Allowed moves: a waiting item starts publishing or fails (review rejected, no room in a new
    /// schedule, account gone); an attempt publishes, releases (the review was instant) or fails, or
    /// tries again; a published work is released or rejected by the platform's review; a failed item
    /// can be retried ("publish now"). A released item stays released.
    pub fn can_become(self, next: ItemState) -> bool {
        use ItemState::*;
        matches!(
            (self, next),
            (ToRelease, Publishing | Failed | ToRelease)
                | (Publishing, Publishing | Published | Released | Failed)
                | (Published, Released | Failed)
                | (Failed, ToRelease)
        )
    }

    /// May be queued again now ("publish now" / retry): waiting or failed.
    pub fn can_retry(self) -> bool {
        self.can_become(ItemState::ToRelease)
    }

    /// The post exists on the platform (its top comments can be sent).
    pub fn is_out(self) -> bool {
        matches!(self, ItemState::Published | ItemState::Released)
    }
}

crate::text_enum! {
    /// A release task's review by the operator (`matrix_tasks.review_state`, copied to its items).
    pub enum Review {
        Reviewing = "reviewing",
        Approved = "approved",
        Rejected = "rejected",
    }
}
impl Review {
    /// A review is decided once: reviewing becomes approved or rejected, nothing else moves.
    pub fn can_become(self, next: Review) -> bool {
        self == Review::Reviewing && next != Review::Reviewing
    }

    /// The task's items may be published (now, or at their times): the review approved it.
    pub fn lets_publish(self) -> bool {
        self == Review::Approved
    }

    /// What a task under this review offers: approving and rejecting while it is under review
    /// (`can_become`, the rule `decide_review` enforces), publishing all its waiting items once
    /// approved (`lets_publish`). Who may act is the caller's permission, not the task's state.
    pub fn actions(self) -> Vec<Offer<TaskAction>> {
        vec![
            Offer::new(TaskAction::Approve, self.can_become(Review::Approved)),
            Offer::new(TaskAction::Reject, self.can_become(Review::Rejected)),
            Offer::new(TaskAction::PublishAll, self.lets_publish()),
        ]
    }
}

crate::text_enum! {
    /// A release task's schedule mode (`matrix_tasks.time_mode`): posts spread at random over the
    /// day's window, at the given times (one per daily post), or all from one time.
    pub enum TimeMode {
        Random = "random",
        Specified = "specified",
        Timed = "timed",
    }
}

crate::text_enum! {
    /// What a release task hangs on its posts (the task's config; empty is `none`).
    pub enum MountType {
        None = "none" | "",
        /// A point of interest (a shop's location).
        Poi = "poi",
        MiniProgram = "mini_program",
        /// A WeChat official-account article.
        Official = "official",
        Product = "product",
    }
}

/// A task that names no mount hangs none.
impl Default for MountType {
    fn default() -> MountType {
        MountType::None
    }
}

crate::text_enum! {
    /// The content declaration a release task's posts carry (内容声明: 原创 / AI 生成 / 转载 / 虚构演绎,
    /// or explicitly none). The creator consoles ask for one; the flows always set it and never leave
    /// the page's default. `auto` (the form's default) declares what the video is
    /// ([`ContentDeclaration::resolve`]): a video with any generated part is AI-generated, the
    /// merchant's own footage original.
    pub enum ContentDeclaration {
        Auto = "auto" | "",
        None = "none",
        Original = "original",
        AiGenerated = "ai_generated",
        Reposted = "reposted",
        Fiction = "fiction",
    }
}

impl ContentDeclaration {
    /// What a post declares: the chosen declaration, or for `auto` what its video is — any part
    /// generated or synthesized by AI (`domain::clip::aigc::Provenance`) declares AI-generated, the
    /// merchant's own footage original.
    pub fn resolve(self, generated: bool) -> ContentDeclaration {
        match self {
            ContentDeclaration::Auto if generated => ContentDeclaration::AiGenerated,
            ContentDeclaration::Auto => ContentDeclaration::Original,
            other => other,
        }
    }
}

/// A task from before declarations (and a form that names none) declares by its videos.
impl Default for ContentDeclaration {
    fn default() -> ContentDeclaration {
        ContentDeclaration::Auto
    }
}

crate::text_enum! {
    /// An account's type as the merchant marks it (`matrix_accounts.account_type`).
    pub enum AccountType {
        Personal = "personal",
        Enterprise = "enterprise",
    }
}

crate::text_enum! {
    /// What the merchant can do with a release item (the item list's buttons).
    pub enum ItemAction {
        /// Publish a waiting item now.
        PublishNow = "publish_now",
        /// Publish a failed item again.
        Retry = "retry",
        /// Send the top comments of a published item.
        SendComments = "send_comments",
    }
}

crate::text_enum! {
    /// What can be done with a release task (its detail's and the review queue's buttons).
    pub enum TaskAction {
        /// The operator approves the task under review.
        Approve = "approve",
        /// The operator rejects the task under review, with a reason.
        Reject = "reject",
        /// The merchant publishes every waiting and failed item now.
        PublishAll = "publish_all",
    }
}

/// An action a row offers (a button the console shows), and whether the server accepts it now
/// (a disabled button otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Offer<A> {
    pub action: A,
    pub enabled: bool,
}

impl<A> Offer<A> {
    pub fn new(action: A, enabled: bool) -> Offer<A> {
        Offer { action, enabled }
    }
}

/// What of a release item its actions depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemFacts {
    pub state: ItemState,
    pub review: Review,
    /// The account's work list showed the post (`verified_at`).
    pub verified: bool,
    /// The platform gave the post an id (`item_id`).
    pub posted: bool,
}

impl ItemFacts {
    /// Publish now / retry may queue the item again: waiting or failed, the task approved, and
    /// the post never seen on the platform (`store::matrix::requeue_item` writes under the same
    /// condition, so a racing change is refused there too).
    pub fn can_requeue(self) -> bool {
        self.state.can_retry() && self.review.lets_publish() && !self.verified
    }

    /// Its top comments can be sent: the post is out and has its id.
    pub fn can_send_comments(self) -> bool {
        self.posted && self.state.is_out()
    }

    /// The item's buttons: publish now (waiting) or retry (failed), enabled once it may be
    /// queued; send comments once the post is out.
    pub fn actions(self) -> Vec<Offer<ItemAction>> {
        let mut out = vec![];
        if self.state.can_retry() {
            let action = if self.state == ItemState::Failed {
                ItemAction::Retry
            } else {
                ItemAction::PublishNow
            };
            out.push(Offer::new(action, self.can_requeue()));
        }
        if self.state.is_out() {
            out.push(Offer::new(
                ItemAction::SendComments,
                self.can_send_comments(),
            ));
        }
        out
    }
}

crate::text_enum! {
    /// Where a video a task can publish comes from: the mixing library or the materials.
    pub enum VideoSource {
        Library = "library",
        Material = "material",
    }
}

crate::text_enum! {
    /// Where a QR login (sph, xhs, shop) stands.
    pub enum QrState {
        QrPending = "qr_pending",
        SmsChallenge = "sms_challenge",
        SliderChallenge = "slider_challenge",
        LoggedIn = "logged_in",
        Expired = "expired",
    }
}

crate::text_enum! {
    /// Where a platform's (or an outside service's) calls go, by its own setting on /system/app
    /// (unset: the deployment's default, `CLIPMATRIX_SANDBOX`): the real platform, the bundled
    /// sandbox, or nowhere (switched off: every call refused with the reason).
    pub enum AppMode {
        Live = "live",
        Sandbox = "sandbox",
        Off = "off",
    }
}

crate::text_enum! {
    /// What the operator sets a mode to on Platform apps: one of the modes, or back to the default.
    pub enum ModeChoice {
        Default = "default",
        Live = "live",
        Sandbox = "sandbox",
        Off = "off",
    }
}

crate::text_enum! {
    /// What has a mode of its own on Platform apps: the six platforms and WeChat notices.
    pub enum ModeTarget {
        Dy = "dy",
        Ks = "ks",
        Sph = "sph",
        Xhs = "xhs",
        Bjh = "bjh",
        Shop = "shop",
        Wechat = "wechat",
    }
}

crate::text_enum! {
    /// An account's authorization, as its expiry and revocation make it.
    pub enum AuthState {
        Active = "active",
        /// Ends within `EXPIRING_MS`.
        Expiring = "expiring",
        /// Ended, or revoked by the platform.
        Expired = "expired",
    }
}
impl AuthState {
    /// The state at `now` (platform clock) of an authorization ending at `auth_expires_at`.
    pub fn of(auth_expires_at: i64, revoked: bool, now: i64) -> AuthState {
        if revoked || auth_expires_at <= now {
            AuthState::Expired
        } else if auth_expires_at - now <= super::EXPIRING_MS {
            AuthState::Expiring
        } else {
            AuthState::Active
        }
    }

    /// Time moves an authorization towards its end, a revocation ends it at once; authorizing or
    /// renewing again makes any of them active.
    pub fn can_become(self, next: AuthState) -> bool {
        use AuthState::*;
        matches!(
            (self, next),
            (_, Active) | (Active, Expiring | Expired) | (Expiring, Expired)
        )
    }

    /// Tasks may use the account.
    pub fn usable(self) -> bool {
        self != AuthState::Expired
    }

    /// The account's buttons: renewing keeps a live authorization going (an ended one is
    /// authorized again instead); authorizing again is always possible.
    pub fn actions(self) -> Vec<Offer<AccountAction>> {
        vec![
            Offer::new(AccountAction::Renew, self.usable()),
            Offer::new(AccountAction::Reauthorize, true),
        ]
    }
}

crate::text_enum! {
    /// What the merchant can do with an account's authorization (the expiring-accounts list).
    pub enum AccountAction {
        /// Refresh the token (DY, KS) or check the session (SPH, XHS, shop) before it ends.
        Renew = "renew",
        /// Authorize the account again (consent page, QR or app token).
        Reauthorize = "reauthorize",
    }
}

crate::text_enum! {
    /// Why a release item failed (or is being retried): the code stored in `matrix_items.error_code`,
    /// with its arguments (`error_args`, a JSON object) shown through `Msg` in the reader's language.
    pub enum ItemFailure {
        AccountRemoved = "account_removed",
        AuthExpired = "auth_expired",
        /// The platform ended the authorization: `{reason}`.
        Reauthorize = "reauthorize",
        /// A passing platform failure, tried again: `{reason}`.
        Retrying = "retrying",
        /// The platform refused the post: `{reason}`.
        Refused = "refused",
        /// Our side cannot publish it (file missing, task gone): `{reason}`.
        CannotPublish = "cannot_publish",
        /// The platform said it published, but the account's work list never showed it.
        NotListed = "not_listed",
        /// The platform's review rejected the work: `{reason}`.
        PlatformRejected = "platform_rejected",
        /// The operator rejected the task: `{reason}`.
        ReviewRejected = "review_rejected",
        /// A new schedule had no room for it.
        NoRoom = "no_room",
    }
}
impl ItemFailure {
    pub fn msg(self) -> Msg {
        match self {
            ItemFailure::AccountRemoved => Msg::ItemAccountRemoved,
            ItemFailure::AuthExpired => Msg::ItemAuthExpired,
            ItemFailure::Reauthorize => Msg::ItemReauthorize,
            ItemFailure::Retrying => Msg::ItemRetrying,
            ItemFailure::Refused => Msg::ItemRefused,
            ItemFailure::CannotPublish => Msg::ItemCannotPublish,
            ItemFailure::NotListed => Msg::ItemNotListed,
            ItemFailure::PlatformRejected => Msg::ItemPlatformRejected,
            ItemFailure::ReviewRejected => Msg::ItemReviewRejected,
            ItemFailure::NoRoom => Msg::ItemNoRoom,
        }
    }
}

crate::text_enum! {
    /// Why the platform ended an account's authorization (`matrix_accounts.revoked_code`), with its
    /// arguments (`revoked_args`).
    pub enum Revocation {
        /// The platform refused a call or a refresh: `{reason}` (its own message).
        Refused = "refused",
        /// The platform told us (webhook) that the user revoked the authorization.
        UserRevoked = "user_revoked",
    }
}
impl Revocation {
    pub fn msg(self) -> Msg {
        match self {
            Revocation::Refused => Msg::ItemRefused,
            Revocation::UserRevoked => Msg::AccountUserRevoked,
        }
    }
}

/// The text of a stored item failure in `lang` (see `coded_text`); None for an unknown code.
pub fn failure_text(code: &str, args: &str, lang: Lang) -> Option<String> {
    Some(coded_text(ItemFailure::parse(code)?.msg(), args, lang))
}

/// The text of a stored revocation in `lang` (see `coded_text`); None for an unknown code.
pub fn revocation_text(code: &str, args: &str, lang: Lang) -> Option<String> {
    Some(coded_text(Revocation::parse(code)?.msg(), args, lang))
}

/// A stored reason's message in `lang`. `args` is the stored JSON object; an argument given in
/// both languages (`reason_zh`/`reason_en`, e.g. a platform's own message) is read in `lang`.
fn coded_text(msg: Msg, args: &str, lang: Lang) -> String {
    let obj: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(args).unwrap_or_default();
    let suffix = match lang {
        Lang::Zh => "_zh",
        Lang::En => "_en",
    };
    let mut names: Vec<&str> = obj
        .keys()
        .map(|k| {
            k.strip_suffix("_zh")
                .or_else(|| k.strip_suffix("_en"))
                .unwrap_or(k)
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    let out: Vec<(&str, String)> = names
        .into_iter()
        .map(|n| {
            let v = obj
                .get(&format!("{n}{suffix}"))
                .or_else(|| obj.get(n))
                .and_then(|v| v.as_str())
                .unwrap_or("");
            (n, v.to_string())
        })
        .collect();
    msg.render(lang, &out)
}

crate::text_enum! {
    /// A Douyin H5 share (tap-to-post) as the console polls it: the customer has not posted it yet,
    /// or the platform's create_video webhook reported the post.
    pub enum ShareState {
        Waiting = "waiting",
        Published = "published",
    }
}
impl ShareState {
    /// A share is published once the webhook has named the post's item.
    pub fn of(item_id: &str) -> ShareState {
        if item_id.is_empty() {
            ShareState::Waiting
        } else {
            ShareState::Published
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_moves() {
        use ItemState::*;
        assert!(ToRelease.can_become(Publishing));
        assert!(Publishing.can_become(Published));
        assert!(Publishing.can_become(Released));
        assert!(Published.can_become(Released));
        assert!(Published.can_become(Failed));
        assert!(Failed.can_become(ToRelease));
        assert!(Failed.can_retry() && ToRelease.can_retry());
        assert!(!Released.can_become(Failed));
        assert!(!Released.can_become(ToRelease));
        assert!(!Published.can_become(ToRelease));
        assert!(!Publishing.can_retry());
        assert!(!Failed.can_become(Published));
        assert!(Published.is_out() && Released.is_out() && !Failed.is_out());
        for s in ItemState::ALL {
            assert_eq!(ItemState::parse(s.as_str()), Some(s));
        }
        assert_eq!(ItemState::parse("done"), None);
    }

    #[test]
    fn review_is_decided_once() {
        use Review::*;
        assert!(Reviewing.can_become(Approved));
        assert!(Reviewing.can_become(Rejected));
        assert!(!Reviewing.can_become(Reviewing));
        assert!(!Approved.can_become(Rejected));
        assert!(!Rejected.can_become(Approved));
        for r in [Reviewing, Approved, Rejected] {
            assert_eq!(Review::parse(r.as_str()), Some(r));
        }
    }

    fn facts(state: ItemState, review: Review) -> ItemFacts {
        ItemFacts {
            state,
            review,
            verified: false,
            posted: state.is_out(),
        }
    }

    #[test]
    fn item_actions_follow_state_and_review() {
        use ItemAction::*;
        use ItemState::*;
        let a = |s, r| facts(s, r).actions();
        assert_eq!(
            a(ToRelease, Review::Approved),
            [Offer::new(PublishNow, true)]
        );
        assert_eq!(
            a(ToRelease, Review::Reviewing),
            [Offer::new(PublishNow, false)]
        );
        assert_eq!(a(Failed, Review::Approved), [Offer::new(Retry, true)]);
        assert_eq!(a(Failed, Review::Rejected), [Offer::new(Retry, false)]);
        assert_eq!(a(Publishing, Review::Approved), []);
        assert_eq!(
            a(Published, Review::Approved),
            [Offer::new(SendComments, true)]
        );
        assert_eq!(
            a(Released, Review::Approved),
            [Offer::new(SendComments, true)]
        );
        // Seen on the platform once: never queued again.
        let seen = ItemFacts {
            verified: true,
            ..facts(Failed, Review::Approved)
        };
        assert!(!seen.can_requeue());
        assert_eq!(seen.actions(), [Offer::new(Retry, false)]);
        // Out but without the platform's id: no comments to send yet.
        let idless = ItemFacts {
            posted: false,
            ..facts(Published, Review::Approved)
        };
        assert_eq!(idless.actions(), [Offer::new(SendComments, false)]);
        // The enabled offers are exactly what the server accepts.
        for s in ItemState::ALL {
            for r in Review::ALL {
                let f = facts(s, r);
                for o in f.actions() {
                    let accepted = match o.action {
                        PublishNow | Retry => f.can_requeue(),
                        SendComments => f.can_send_comments(),
                    };
                    assert_eq!(o.enabled, accepted, "{s} {r} {}", o.action);
                }
            }
        }
    }

    #[test]
    fn task_actions_follow_the_review() {
        use TaskAction::*;
        let on = |r: Review| -> Vec<TaskAction> {
            r.actions()
                .into_iter()
                .filter(|o| o.enabled)
                .map(|o| o.action)
                .collect()
        };
        assert_eq!(on(Review::Reviewing), [Approve, Reject]);
        assert_eq!(on(Review::Approved), [PublishAll]);
        assert_eq!(on(Review::Rejected), []);
        for r in Review::ALL {
            assert_eq!(r.actions().len(), TaskAction::ALL.len());
        }
    }

    #[test]
    fn modes_and_types_parse_their_words() {
        assert_eq!(MountType::parse(""), Some(MountType::None));
        assert_eq!(MountType::None.as_str(), "none");
        assert_eq!(TimeMode::parse("timed"), Some(TimeMode::Timed));
        assert_eq!(TimeMode::parse("daily"), None);
        assert_eq!(
            AccountType::parse("enterprise"),
            Some(AccountType::Enterprise)
        );
        assert_eq!(
            serde_json::to_string(&Offer::new(ItemAction::Retry, false)).unwrap(),
            r#"{"action":"retry","enabled":false}"#
        );
    }

    #[test]
    fn authorization_ages_and_renews() {
        use AuthState::*;
        let day = 86_400_000;
        assert_eq!(AuthState::of(10 * day, false, 0), Active);
        assert_eq!(AuthState::of(day, false, 0), Expiring);
        assert_eq!(AuthState::of(0, false, 0), Expired);
        assert_eq!(AuthState::of(10 * day, true, 0), Expired);
        assert!(Active.can_become(Expiring) && Expiring.can_become(Expired));
        assert!(Expired.can_become(Active) && Expiring.can_become(Active));
        assert!(!Expired.can_become(Expiring));
        assert!(!Expired.usable() && Expiring.usable());
        for s in [Active, Expiring, Expired] {
            assert_eq!(AuthState::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn failures_render_in_the_readers_language() {
        let args = r#"{"reason_zh":"标题违规","reason_en":"title not allowed"}"#;
        assert_eq!(
            failure_text("reauthorize", args, Lang::En).unwrap(),
            "The account's authorization ended, authorize it again: title not allowed"
        );
        assert_eq!(
            failure_text("reauthorize", args, Lang::Zh).unwrap(),
            "账号授权已失效，请重新授权：标题违规"
        );
        assert_eq!(
            failure_text("review_rejected", r#"{"reason":"blurry"}"#, Lang::En).unwrap(),
            "Rejected in review: blurry"
        );
        assert_eq!(
            failure_text("account_removed", "", Lang::Zh).unwrap(),
            "账号已删除"
        );
        assert_eq!(failure_text("", "", Lang::Zh), None);
        assert_eq!(
            revocation_text("user_revoked", "", Lang::En).unwrap(),
            "The user revoked the authorization on the platform"
        );
        assert_eq!(
            revocation_text("refused", args, Lang::Zh).unwrap(),
            "标题违规"
        );
        assert_eq!(Revocation::parse("refused"), Some(Revocation::Refused));
        for f in ItemFailure::ALL {
            assert_eq!(ItemFailure::parse(f.as_str()), Some(f));
        }
    }

    #[test]
    fn a_share_is_published_once_the_webhook_names_its_item() {
        assert_eq!(ShareState::of(""), ShareState::Waiting);
        assert_eq!(ShareState::of("7301"), ShareState::Published);
        assert_eq!(ShareState::Waiting.as_str(), "waiting");
    }
}
