//! What the auth and system calls answer (the console's `web/src/api/{auth,system}/types.ts`).

use crate::extract::Caller;
use serde::Serialize;
use services::auth::{Menu, User};
use utoipa::ToSchema;

/// One node of a menu tree: children under their parents, in `sort` order.
#[derive(Debug, Serialize, ToSchema)]
pub struct MenuNode {
    pub id: i64,
    pub path: String,
    pub name: String,
    pub icon: String,
    /// The permissions the menu grants.
    pub permission: Vec<String>,
    pub hidden: bool,
    pub admin: bool,
    pub vip: bool,
    #[schema(no_recursion)]
    pub children: Vec<MenuNode>,
}

/// A menu tree of the given menus (children under their parents, in `sort` order).
pub fn tree(menus: &[&Menu], parent: Option<&str>) -> Vec<MenuNode> {
    menus
        .iter()
        .filter(|m| m.parent_path.as_deref() == parent)
        .map(|m| MenuNode {
            id: m.id,
            path: m.path.clone(),
            name: m.name.clone(),
            icon: m.icon.clone(),
            permission: m.grants(),
            hidden: m.hidden == 1,
            admin: m.admin == 1,
            vip: m.vip == 1,
            children: tree(menus, Some(&m.path)),
        })
        .collect()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProxyInfo {
    /// The operator signed in as this merchant, if any.
    pub user_name: Option<String>,
}

/// The stored user record the console keeps (SPEC §3): proxy_info.user_name, role, permission list.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRecordView {
    pub id: i64,
    pub username: String,
    pub nickname: String,
    pub mobile: Option<String>,
    pub avatar: String,
    pub kind: domain::UserKind,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    pub role: Vec<String>,
    pub permissions: Vec<String>,
    pub proxy_info: ProxyInfo,
    pub home_type: i64,
    pub ai_token: String,
    pub vip: bool,
    pub vip_expires_at: Option<i64>,
    pub last_login_at: Option<i64>,
}

impl UserRecordView {
    pub fn of(c: &Caller) -> UserRecordView {
        let u = &c.user;
        let m = c.merchant.as_ref();
        UserRecordView {
            id: u.id,
            username: u.username.clone(),
            nickname: u.nickname.clone(),
            mobile: u.mobile.clone(),
            avatar: u.avatar.clone(),
            kind: c.kind,
            merchant_id: u.merchant_id,
            merchant_name: m.map(|m| m.name.clone()),
            role: c.roles.clone(),
            permissions: c.grants.clone(),
            proxy_info: ProxyInfo {
                user_name: c.proxy_user.clone(),
            },
            home_type: m.map(|m| m.home_type).unwrap_or(2),
            ai_token: m.map(|m| m.ai_token.clone()).unwrap_or_default(),
            vip: m.is_some_and(|m| m.is_vip()),
            vip_expires_at: m.and_then(|m| m.vip_expires_at),
            last_login_at: u.last_login_at,
        }
    }
}

/// A signed-in session: its token and the user record.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginResultView {
    pub token: String,
    pub expires_at: i64,
    pub remember: bool,
    pub user: UserRecordView,
}

/// A staff member as the staff list and form show them.
#[derive(Debug, Serialize, ToSchema)]
pub struct StaffView {
    pub id: i64,
    pub username: String,
    pub nickname: String,
    pub mobile: Option<String>,
    pub status: i64,
    pub menu_ids: Vec<i64>,
    pub role_ids: Vec<i64>,
    pub created_at: i64,
    pub last_login_at: Option<i64>,
}

impl StaffView {
    pub fn of(u: &User) -> StaffView {
        StaffView {
            id: u.id,
            username: u.username.clone(),
            nickname: u.nickname.clone(),
            mobile: u.mobile.clone(),
            status: u.status,
            menu_ids: u.menu_ids(),
            role_ids: u.role_ids(),
            created_at: u.created_at,
            last_login_at: u.last_login_at,
        }
    }
}

/// A log row with `action_name`: the action in words, in the reader's language (`action` keeps the
/// permission it was checked against, which the filter matches).
#[derive(Debug, Serialize, ToSchema)]
pub struct LogView {
    #[serde(flatten)]
    pub row: LogRow,
    pub action_name: String,
}

impl LogView {
    pub fn of(mut row: services::system::oplog::LogRow, lang: domain::i18n::Lang) -> LogView {
        if let Some(m) = crate::words::logged_message(
            &row.message_code,
            &row.message_args,
            lang,
            &row.request_id,
        ) {
            row.message = m;
        }
        LogView {
            action_name: domain::actions::action_name(&row.action, lang),
            row: row.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LogRow {
    pub id: i64,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    pub username: String,
    pub method: String,
    pub path: String,
    pub action: String,
    pub result: String,
    pub status: i64,
    /// The reader's language once the message is rendered from `message_code` (rows written before
    /// keys were stored keep their Chinese text).
    pub message: String,
    pub ip: String,
    pub request_id: String,
    pub created_at: i64,
}
view_of!(services::system::oplog::LogRow => LogRow {
    id, merchant_id, merchant_name, username, method, path, action, result, status, message, ip,
    request_id, created_at,
});

#[derive(Debug, Serialize, ToSchema)]
pub struct Entry {
    pub id: i64,
    pub merchant_id: i64,
    pub change: i64,
    pub balance: i64,
    pub kind: domain::system::points::EntryKind,
    /// `domain::points::Reason` code, shown in the reader's language.
    pub reason_code: String,
    /// The operator's own note on a top-up (shown as typed), else empty.
    pub reason: String,
    pub job_key: Option<String>,
    pub operator: String,
    pub created_at: i64,
}
view_of!(services::auth::Entry => Entry {
    id, merchant_id, change, balance, kind, reason_code, reason, job_key, operator, created_at,
});

// ---- the operator's screens (`/system/*`) ----

#[derive(Debug, Serialize, ToSchema)]
pub struct MerchantRow {
    pub id: i64,
    pub name: String,
    pub username: String,
    pub mobile: Option<String>,
    pub status: i64,
    pub points: i64,
    pub vip_expires_at: Option<i64>,
    /// 1: the 'header' home layout (top menu, `/` opens /home); 2: the 'second' one (SPEC §2).
    pub home_type: i64,
    pub created_at: i64,
    pub staff_count: i64,
}
view_of!(services::system::merchants::MerchantRow => MerchantRow {
    id, name, username, mobile, status, points, vip_expires_at, home_type, created_at, staff_count,
});

#[derive(Debug, Serialize, ToSchema)]
pub struct UserRow {
    pub id: i64,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    pub kind: domain::UserKind,
    pub username: String,
    pub nickname: String,
    pub mobile: Option<String>,
    pub status: i64,
    pub last_login_at: Option<i64>,
    pub created_at: i64,
}
view_of!(services::system::merchants::UserRow => UserRow {
    id, merchant_id, merchant_name, kind, username, nickname, mobile, status, last_login_at,
    created_at,
});

#[derive(Debug, Serialize, ToSchema)]
pub struct Job {
    pub id: i64,
    pub kind: domain::jobs::JobKind,
    pub merchant_id: Option<i64>,
    pub payload: String,
    pub state: domain::jobs::JobState,
    pub run_at: i64,
    pub attempts: i64,
    pub max_attempts: i64,
    pub lease_owner: Option<String>,
    pub heartbeat_at: Option<i64>,
    pub progress: i64,
    pub last_error: Option<String>,
    pub idempotency_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
}
view_of!(services::system::jobs::Job => Job {
    id, kind, merchant_id, payload, state, run_at, attempts, max_attempts, lease_owner,
    heartbeat_at, progress, last_error, idempotency_key, created_at, updated_at, finished_at,
});

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, ToSchema)]
pub struct Opt {
    pub label: String,
    pub value: String,
}
view_of!(services::system::dict::Opt => Opt { label, value });
impl From<Opt> for services::system::dict::Opt {
    fn from(o: Opt) -> Self {
        services::system::dict::Opt {
            label: o.label,
            value: o.value,
        }
    }
}
