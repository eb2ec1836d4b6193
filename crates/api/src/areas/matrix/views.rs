//! What the matrix calls answer, as the console reads them (web/src/api/matrix/types.ts): accounts,
//! tasks, items, plans and the small lists of the release-task form.

use crate::error::Page;
use domain::i18n::Lang;
use domain::matrix::{
    AccountAction, AccountType, ItemAction, MountType, Offer, Review, ShareState, TaskAction,
    TimeMode,
};
use domain::platform::{Platform, TaskPlatform};
use serde::Serialize;
use services::matrix as db;
use services::matrix::tasks::release as uc;
use utoipa::ToSchema;

/// `{rows}`: a list without a total.
#[derive(Debug, Serialize, ToSchema)]
pub struct Rows<T> {
    pub rows: Vec<T>,
}

/// An account as the console sees it (no tokens).
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountView {
    pub id: i64,
    pub platform: Platform,
    pub open_id: String,
    pub nickname: String,
    pub avatar: String,
    pub account_type: AccountType,
    pub group_id: i64,
    pub group_name: String,
    /// active | expiring | expired
    pub status: domain::matrix::AuthState,
    pub expires_at: i64,
    pub token_expires_at: i64,
    /// Why the platform ended the authorization, when it did.
    pub revoked_reason: String,
    pub province: String,
    pub city: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub remarks: String,
    /// The proxy its console browser goes through (`scheme://host:port`, credentials never shown);
    /// empty for none.
    pub proxy: String,
    pub videos: i64,
    pub plays: i64,
    pub comments: i64,
    pub likes: i64,
    pub synced_at: i64,
    pub sandbox: bool,
    pub created_at: i64,
    /// Renew (enabled while the authorization lives) and authorize again (`AuthState::actions`).
    pub actions: Vec<Offer<AccountAction>>,
    /// A console account's last session check; absent when never checked.
    pub last_check: Option<SessionCheckView>,
    /// A console account's browser login stored for every worker node, in bytes (0: none yet).
    pub profile_bytes: i64,
}

/// When a console account's session was last checked, whether it was alive, and why not.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionCheckView {
    pub at: i64,
    pub ok: bool,
    /// Why it was not, in the reader's language ('' when alive).
    pub reason: String,
}

/// `lang`: the revocation's reason is shown in the reader's language.
pub fn account(a: &db::Account, lang: Lang, now: i64) -> AccountView {
    let status = domain::matrix::account_status(a.auth_expires_at, a.revoked == 1, now);
    AccountView {
        id: a.id,
        platform: a.platform,
        open_id: a.open_id.clone(),
        nickname: a.nickname.clone(),
        avatar: a.avatar.clone(),
        account_type: a.account_type,
        group_id: a.group_id,
        group_name: a.group_name.clone().unwrap_or_default(),
        status,
        expires_at: a.auth_expires_at,
        token_expires_at: a.token_expires_at,
        revoked_reason: domain::matrix::revocation_text(&a.revoked_code, &a.revoked_args, lang)
            .unwrap_or_else(|| a.revoked_reason.clone()),
        province: a.province.clone(),
        city: a.city.clone(),
        poi_id: a.poi_id.clone(),
        poi_name: a.poi_name.clone(),
        poi_address: a.poi_address.clone(),
        remarks: a.remarks.clone(),
        proxy: a.proxy_shown.clone(),
        videos: a.videos,
        plays: a.plays,
        comments: a.comments,
        likes: a.likes,
        synced_at: a.synced_at,
        sandbox: a.sandbox == 1,
        created_at: a.created_at,
        actions: status.actions(),
        last_check: (a.checked_at > 0).then(|| SessionCheckView {
            at: a.checked_at,
            ok: a.check_ok == 1,
            reason: if a.check_reason.is_empty() {
                String::new()
            } else {
                crate::words::localize_error(&a.check_reason, lang)
            },
        }),
        profile_bytes: a.profile_bytes,
    }
}

pub fn accounts(rows: &[db::Account], lang: Lang, now: i64) -> Vec<AccountView> {
    rows.iter().map(|a| account(a, lang, now)).collect()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccountSummary {
    pub active: i64,
    pub expiring: i64,
    pub expired: i64,
}

/// The account list with its status counts.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountPage {
    #[serde(flatten)]
    pub page: Page<AccountView>,
    pub summary: AccountSummary,
}

/// A one-value `kind`: the tag that tells one shape of an answer from its other shapes.
macro_rules! kind_tag {
    ($name:ident, $value:ident) => {
        #[derive(Debug, Serialize, ToSchema)]
        #[serde(rename_all = "lowercase")]
        pub enum $name {
            $value,
        }
    };
}
kind_tag!(OauthKind, Oauth);
kind_tag!(QrKind, Qr);
kind_tag!(QrStatusKind, Status);

/// Authorizing through the platform's consent page (dy, ks).
#[derive(Debug, Serialize, ToSchema)]
pub struct OauthStart {
    pub kind: OauthKind,
    pub url: String,
}

/// Authorizing by a QR login (sph, xhs, shop).
#[derive(Debug, Serialize, ToSchema)]
pub struct QrStart {
    pub kind: QrKind,
    /// Always `qr_pending`.
    pub state: domain::matrix::QrState,
    pub login_id: String,
    pub qr_url: String,
    pub expires_at: i64,
    /// The console's own QR code captured by the browser flow (`data:image/png;base64,...`, xhs):
    /// shown instead of a QR made from `qr_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_image: Option<String>,
}

/// How authorizing starts: a consent page (dy, ks) or a QR login (sph, xhs, shop).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(discriminator(property_name = "kind", mapping(
    ("oauth" = "#/components/schemas/OauthStart"),
    ("qr" = "#/components/schemas/QrStart")
)))]
pub enum AuthStart {
    Oauth(OauthStart),
    Qr(QrStart),
}

/// Where a QR login stands; `account` once logged in.
#[derive(Debug, Serialize, ToSchema)]
pub struct QrStatus {
    /// Always `status`: tells this answer from a start (`oauth` / `qr`).
    pub kind: QrStatusKind,
    pub state: domain::matrix::QrState,
    pub login_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<AccountView>,
    /// While pending, through a browser flow: the QR the platform's login page shows now (it
    /// replaces an expired one by itself); the dialog shows this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_image: Option<String>,
    /// A slider puzzle the platform's login page shows (`slider_challenge`), as a PNG data URL:
    /// the person places the piece on it and sends where (`slide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge_image: Option<String>,
}

/// A QR login call answers how it starts (no `login_id` given) or where it stands; `kind` tells
/// which (a QR start also has `state` and `login_id`, so only the tag keeps the two apart).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(discriminator(property_name = "kind", mapping(
    ("oauth" = "#/components/schemas/OauthStart"),
    ("qr" = "#/components/schemas/QrStart"),
    ("status" = "#/components/schemas/QrStatus")
)))]
pub enum QrAnswer {
    Oauth(OauthStart),
    Qr(QrStart),
    Status(QrStatus),
}

/// A point of interest found by the POI search.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoiView {
    pub poi_id: String,
    pub poi_name: String,
    pub address: String,
    pub city: String,
    pub province: String,
}

pub fn pois(rows: Vec<db::Poi>) -> Page<PoiView> {
    let rows: Vec<PoiView> = rows
        .into_iter()
        .map(|p| PoiView {
            poi_id: p.poi_id,
            poi_name: p.poi_name,
            address: p.address,
            city: p.city,
            province: p.province,
        })
        .collect();
    Page::whole(rows)
}

/// A group's id and name (after adding or renaming it).
#[derive(Debug, Serialize, ToSchema)]
pub struct GroupName {
    pub id: i64,
    pub name: String,
}

/// An H5 share: the link just made, or whether the customer has posted it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ShareView {
    Made {
        share_id: String,
        schema: String,
        expires_at: i64,
        /// Always `waiting`.
        state: ShareState,
    },
    Polled {
        share_id: String,
        state: ShareState,
        item_id: String,
        open_id: String,
        published_at: Option<i64>,
    },
}

/// A release task as its list, its review and its schedule show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskView {
    pub id: i64,
    pub name: String,
    pub platform: TaskPlatform,
    /// Videos or an image note (`image_count` pictures, posted once per account).
    pub kind: domain::matrix::TaskKind,
    pub image_count: i64,
    pub created_at: i64,
    pub merchant_id: i64,
    pub merchant_name: Option<String>,
    pub review_state: Review,
    pub review_reason: String,
    pub review_due_at: i64,
    pub reviewed_at: Option<i64>,
    pub overdue: bool,
    pub time_mode: TimeMode,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    /// As the task form sent them ('title one#title two').
    pub titles: String,
    pub topics: Vec<String>,
    pub mount_type: MountType,
    pub accounts: usize,
    pub videos: i64,
    pub counts: ItemCounts,
    /// 0–100
    pub progress: i64,
    pub failed: i64,
    /// The buttons of the task (approve and reject in review, publish all once approved), each
    /// enabled when the server accepts it now (`Review::actions`).
    pub actions: Vec<Offer<TaskAction>>,
}

pub fn task(t: &db::Task, c: &db::ItemCounts) -> TaskView {
    let cfg = &t.config;
    let done = c.published + c.released;
    TaskView {
        id: t.id,
        name: t.name.clone(),
        platform: t.platform,
        kind: t.kind,
        image_count: cfg.image_ids.len() as i64 + cfg.frames.as_ref().map_or(0, |f| f.count),
        created_at: t.created_at,
        merchant_id: t.merchant_id,
        merchant_name: t.merchant_name.clone(),
        review_state: t.review_state,
        review_reason: t.review_reason.clone(),
        review_due_at: t.review_due_at,
        reviewed_at: t.reviewed_at,
        overdue: t.review_state == Review::Reviewing && domain::now_ms() > t.review_due_at,
        time_mode: t.time_mode,
        start_date: t.start_date.clone(),
        days: t.days,
        daily_quantity: t.daily_quantity,
        titles: cfg.titles.clone(),
        topics: cfg.topics.clone(),
        mount_type: cfg.mount_type,
        accounts: cfg.account_ids.len(),
        videos: c.total,
        counts: c.clone().into(),
        progress: if c.total > 0 { done * 100 / c.total } else { 0 },
        failed: c.failed,
        actions: t.review_state.actions(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemAccount {
    pub id: i64,
    pub nickname: Option<String>,
    pub platform: Platform,
    pub avatar: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemVideo {
    /// 'v:<id>' | 'm:<id>' | 'n:<plan>:<account>' (an image note's post)
    pub key: String,
    /// What the item posts: a video, or the task's image note.
    pub kind: domain::matrix::TaskKind,
    pub name: String,
    pub cover: Option<String>,
    pub src: Option<String>,
}

/// A release item: one video on one account at one time, and how its publishing went.
#[derive(Debug, Serialize, ToSchema)]
pub struct ItemView {
    pub id: i64,
    pub task_id: i64,
    pub task_name: Option<String>,
    pub account: ItemAccount,
    pub video: ItemVideo,
    pub title: String,
    /// The top comments this item posts (texts).
    pub comments: Vec<String>,
    pub scheduled_at: i64,
    pub state: domain::matrix::ItemState,
    pub review_state: Review,
    /// Why it failed (or is being retried), in the caller's language; empty when nothing went wrong.
    pub error: String,
    pub attempts: i64,
    pub item_id: String,
    pub share_url: String,
    pub published_at: Option<i64>,
    pub verified_at: Option<i64>,
    pub released_at: Option<i64>,
    pub comments_sent: i64,
    pub plays: i64,
    pub likes: i64,
    pub comment_count: i64,
    /// The item's buttons (publish now or retry, send comments), each enabled when the server
    /// accepts it now (`ItemFacts::actions`).
    pub actions: Vec<Offer<ItemAction>>,
    /// What the console's page showed when a browser step last failed on this item (Xiaohongshu,
    /// WeChat Channels, the shop); null when none did or the item went out since.
    pub evidence: Option<ItemEvidence>,
    /// Why a waiting item does not go out now: its platform's page check (the canary) failed and
    /// the operator has not resumed it; null otherwise.
    pub paused: Option<String>,
}

/// A failed browser step's evidence: the step's code (`upload`, `login`, ... named in the console),
/// the page's address, and signed links to its screenshot and its HTML (served as plain text).
#[derive(Debug, Serialize, ToSchema)]
pub struct ItemEvidence {
    pub step: String,
    pub url: String,
    pub screenshot: String,
    pub html: String,
}

/// Why an item failed (or is being retried), in `lang`; empty when nothing went wrong. Rows written
/// before reason codes show the text they were written with.
fn error_text(i: &db::Item, lang: Lang) -> String {
    crate::words::failure(&i.error_code, &i.error_args, &i.error_zh, &i.error_en, lang)
}

pub fn item(
    i: &db::Item,
    (cover, src): (Option<String>, Option<String>),
    sign: impl Fn(&str) -> String,
    lang: Lang,
    paused: Option<&domain::matrix::canary::CanaryState>,
) -> ItemView {
    // Shown while the failure stands: a retry that went through leaves no stale picture behind.
    use domain::matrix::ItemState as S;
    let standing = match i.state {
        S::Failed => true,
        S::ToRelease | S::Publishing => !i.error_code.is_empty(),
        S::Published | S::Released => false,
    };
    let evidence = (standing && !i.evidence_key.is_empty()).then(|| ItemEvidence {
        step: i.evidence_step.clone(),
        url: i.evidence_url.clone(),
        screenshot: sign("evidence"),
        html: sign("evidence_html"),
    });
    let paused = paused
        .filter(|_| i.state == S::ToRelease)
        .map(|c| match lang {
            Lang::En => format!(
                "Paused: the platform's page check failed ({}); it goes out once the check passes or the operator resumes",
                c.en
            ),
            _ => format!(
                "已暂停：平台页面检查未通过（{}），检查通过或运营恢复后继续发布",
                c.zh
            ),
        });
    ItemView {
        evidence,
        paused,
        id: i.id,
        task_id: i.task_id,
        task_name: i.task_name.clone(),
        account: ItemAccount {
            id: i.account_id,
            nickname: i.nickname.clone(),
            platform: i.platform,
            avatar: i.avatar.clone(),
        },
        video: ItemVideo {
            kind: if domain::matrix::notes::is_note_key(&i.video_key) {
                domain::matrix::TaskKind::ImageNote
            } else {
                domain::matrix::TaskKind::Video
            },
            key: i.video_key.clone(),
            name: i.video_name.clone(),
            cover,
            src,
        },
        title: i.title.clone(),
        comments: serde_json::from_str(&i.comments).unwrap_or_default(),
        scheduled_at: i.scheduled_at,
        state: i.state,
        review_state: i.review_state,
        error: error_text(i, lang),
        attempts: i.attempts,
        item_id: i.item_id.clone(),
        share_url: i.share_url.clone(),
        published_at: i.published_at,
        verified_at: i.verified_at,
        released_at: i.released_at,
        comments_sent: i.comments_sent,
        plays: i.plays,
        likes: i.likes,
        comment_count: i.comment_count,
        actions: i.facts().actions(),
    }
}

/// A task's items by state (without the total); `{}` when the list is not of one task.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ItemSummary {
    Task {
        to_release: i64,
        publishing: i64,
        published: i64,
        released: i64,
        failed: i64,
    },
    None {},
}

impl ItemSummary {
    pub fn of(c: Option<&db::ItemCounts>) -> ItemSummary {
        match c {
            Some(c) => ItemSummary::Task {
                to_release: c.to_release,
                publishing: c.publishing,
                published: c.published,
                released: c.released,
                failed: c.failed,
            },
            None => ItemSummary::None {},
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemPage {
    #[serde(flatten)]
    pub page: Page<ItemView>,
    pub summary: ItemSummary,
}

/// A task under review with its items.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskDetail {
    pub task: TaskView,
    pub items: Vec<ItemView>,
}

/// A `*_add` call answers the plan (preview) or the created task with its plan.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Created {
    Preview(Plan),
    Task { task: TaskView, plan: Plan },
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Limits {
    /// The product's 50, or the platform's own when lower (`domain::matrix::platform_rules`).
    pub title_max: usize,
    pub comment_max: usize,
    pub comment_pick: usize,
    pub per_account_day: u32,
    /// The platform's topic and @-mention caps (absent: none beyond the product's).
    pub topics_max: Option<usize>,
    pub mentions_max: Option<usize>,
    /// Where the platform's limits come from.
    pub sources: String,
}

/// What the release-task form of a platform offers.
#[derive(Debug, Serialize, ToSchema)]
pub struct ForwardConfig {
    pub platform: Platform,
    pub limits: Limits,
    pub mount_types: Vec<MountType>,
    pub accounts: Vec<AccountView>,
    pub sandbox: bool,
}

/// A project of the finished library with its successful and unused variants.
#[derive(Debug, Serialize, ToSchema)]
pub struct LibProject {
    pub id: i64,
    pub name: String,
    pub success: i64,
    pub unused: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Labeled {
    pub value: &'static str,
    pub label: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Online {
    pub account_id: i64,
    pub nickname: String,
    pub platform: Platform,
    pub online: bool,
}

/// A group with its selectable accounts (id 0 = ungrouped).
#[derive(Debug, Serialize, ToSchema)]
pub struct GroupWithAccounts {
    pub id: i64,
    pub name: String,
    pub accounts: Vec<AccountView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MiniProgram {
    pub mini_app_id: String,
    pub title: Option<String>,
    pub url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Queued {
    pub queued: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Sent {
    pub sent: usize,
}

/// A platform's app credentials as the operator sees them.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppView {
    pub platform: Platform,
    pub auth_kind: domain::platform::AuthKind,
    pub configured: bool,
    /// Masked: first 4 characters + ****.
    pub client_key: String,
    /// Where its calls go now.
    pub mode: domain::matrix::AppMode,
    /// Whether the operator chose the mode (else the deployment's default).
    pub mode_set: bool,
    /// Why calls cannot go out in this mode, in the reader's language; null when they can.
    pub blocked: Option<String>,
    /// Creator-console platforms (xhs, sph, shop): whether their pages can be walked (page check).
    pub checkable: bool,
    /// The last page check (canary); null when it never ran.
    pub canary: Option<domain::matrix::canary::CanaryState>,
}

/// An outside service's mode (`wechat`: the new-lead notices).
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceModeView {
    pub service: String,
    pub mode: domain::matrix::AppMode,
    pub mode_set: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AppSaved {
    pub platform: Platform,
    pub client_key: String,
}

/// A task's items by state (what the console shows as its counts).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ItemCounts {
    pub total: i64,
    pub to_release: i64,
    pub publishing: i64,
    pub published: i64,
    pub released: i64,
    pub failed: i64,
}
view_of!(db::ItemCounts => ItemCounts { total, to_release, publishing, published, released, failed });

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AccountGroup)]
pub struct Group {
    pub id: i64,
    pub name: String,
    pub accounts: i64,
    pub created_at: i64,
}
view_of!(db::Group => Group { id, name, accounts, created_at });

#[derive(Debug, Serialize, ToSchema)]
pub struct AiteUser {
    pub id: i64,
    pub platform: Platform,
    pub nickname: String,
    pub created_at: i64,
}
view_of!(db::AiteUser => AiteUser { id, platform, nickname, created_at });

/// A video a task can publish, as the form's picker lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Pickable {
    /// 'v:<id>' | 'm:<id>'
    pub key: String,
    pub id: i64,
    /// library | material
    #[schema(value_type = domain::matrix::VideoSource)]
    pub source: &'static str,
    pub name: String,
    pub cover: Option<String>,
    pub src: Option<String>,
    pub duration_ms: i64,
    pub used: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_id: Option<i64>,
    /// The parts the product generated (AI voice = audio, AI script = text, one-touch = video);
    /// empty for the merchant's own footage. The declaration `auto` declares AI-generated for a video
    /// with any, original for the others.
    pub ai_parts: Vec<domain::clip::aigc::AiPart>,
    /// A finished video's duplicate risk (null: not measured, or an uploaded video) and why.
    pub risk: Option<i64>,
    pub risk_reasons: Vec<domain::clip::risk::Reason>,
}
view_of!(services::matrix::videos::Pickable => Pickable {
    key, id, source, name, cover, src, duration_ms, used, project_id, ai_parts, risk, risk_reasons
});

/// One planned post of a distribution plan.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanItem {
    pub account_id: i64,
    pub nickname: String,
    pub platform: Platform,
    pub video_key: String,
    pub video_name: String,
    pub at: i64,
    pub title: String,
    /// Duplicate risk against what this account published or has scheduled (null: not measured).
    pub risk: Option<domain::clip::risk::Reason>,
}
view_of!(uc::PlanItem => PlanItem { account_id, nickname, platform, video_key, video_name, at, title, risk });

#[derive(Debug, Serialize, ToSchema)]
pub struct MinMax {
    pub min: usize,
    pub max: usize,
}
view_of!(uc::MinMax => MinMax { min, max });

/// The distribution plan shown before confirming a task.
#[derive(Debug, Serialize, ToSchema)]
pub struct Plan {
    pub items: Vec<PlanItem>,
    pub count: usize,
    pub per_account: MinMax,
    pub first_at: Option<i64>,
    pub last_at: Option<i64>,
    /// Videos that do not fit into the schedule.
    pub unplaced: usize,
    pub warnings: Vec<String>,
    /// Confirming with this seed stores the plan that was shown.
    pub seed: u64,
    /// The instant the plan was made from (platform clock); confirming sends it back with the seed.
    pub planned_at: i64,
}

impl Plan {
    /// The plan with its warnings in the reader's language.
    pub fn of(p: uc::Plan, lang: Lang) -> Self {
        Plan {
            items: p.items.into_iter().map(Into::into).collect(),
            count: p.count,
            per_account: p.per_account.into(),
            first_at: p.first_at,
            last_at: p.last_at,
            unplaced: p.unplaced,
            // Through `words`: a copy-precheck warning carries its rule in both languages.
            warnings: p
                .warnings
                .iter()
                .map(|w| crate::words::render_message(w.msg, &w.args, None, lang, ""))
                .collect(),
            seed: p.seed,
            planned_at: p.planned_at,
        }
    }
}
