//! The signed-in user's own calls: menu, profile, password, home page data, their merchant's log and
//! points records (`services::auth::account`).

use super::views::{LogView, MenuNode, UserRecordView, tree};
use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::ListParams;
use services::auth::Menu;
use services::auth::account as uc;
use utoipa::ToSchema;

/// What the console loads after sign-in: the caller's menu tree, permissions, roles and record.
#[derive(Debug, Serialize, ToSchema)]
pub struct InitAdminView {
    pub menu: Vec<MenuNode>,
    pub permissions: Vec<String>,
    pub role: Vec<String>,
    pub user: UserRecordView,
}

#[utoipa::path(get, path = "/ajax/initAdmin", tag = "auth", responses((status = 200, body = Reply<InitAdminView>)))]
pub async fn init_admin(State(st): State<AppState>, c: Caller) -> Answer<InitAdminView> {
    let all = st.menus.read().await.clone();
    let visible = uc::visible_menus(&all, c.kind, &c.user.menu_ids());
    let refs: Vec<&Menu> = visible.iter().collect();
    Ok(reply(InitAdminView {
        menu: tree(&refs, None),
        permissions: c.grants.clone(),
        role: c.roles.clone(),
        user: UserRecordView::of(&c),
    }))
}

#[utoipa::path(get, path = "/index/profile", tag = "auth", responses((status = 200, body = Reply<UserRecordView>)))]
pub async fn profile(c: Caller) -> Answer<UserRecordView> {
    Ok(reply(UserRecordView::of(&c)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProfileReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 32)]
    pub nickname: String,
    #[serde(default)]
    pub mobile: Option<String>,
    #[serde(default)]
    pub avatar: Option<String>,
}

#[utoipa::path(post, path = "/index/editProfile", tag = "auth", request_body = ProfileReq, responses((status = 200, body = Reply<UserRecordView>)))]
pub async fn edit_profile(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProfileReq>,
) -> Answer<UserRecordView> {
    let edit = uc::ProfileEdit {
        nickname: &r.nickname,
        mobile: r.mobile.as_deref(),
        avatar: r.avatar.as_deref(),
    };
    let user = uc::edit_profile(&st.db, &st.jwt_key, &c.user, &edit).await?;
    Ok(reply(UserRecordView::of(&Caller { user, ..c })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub old_password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password_confirm: String,
}

#[utoipa::path(post, path = "/index/editPassword.html", tag = "auth", request_body = PasswordReq, responses((status = 200, description = "changed; every session of the user ends", body = Reply<Done>)))]
pub async fn edit_password(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PasswordReq>,
) -> Answer<Done> {
    uc::change_password(
        &st.db,
        &c.user,
        &r.old_password,
        &r.password,
        &r.password_confirm,
    )
    .await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize)]
pub struct LogQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub action: Option<String>,
}

impl LogQuery {
    pub fn into_query(self) -> ListParams {
        self.list
            .with_filter("username", self.username.as_deref(), "include")
            .with_filter("action", self.action.as_deref(), "include")
    }
}

/// A page of the operation log (of one merchant, or every merchant's for the operator).
pub async fn log_page(
    st: &AppState,
    merchant_id: Option<i64>,
    lang: Lang,
    q: LogQuery,
) -> Answer<Page<LogView>> {
    let (rows, total) = services::system::oplog::list(&st.db, merchant_id, &q.into_query()).await?;
    let rows = rows.into_iter().map(|r| LogView::of(r, lang)).collect();
    Ok(reply(Page::new(rows, total)))
}

#[utoipa::path(method(get, post), path = "/index/log", tag = "auth", responses((status = 200, description = "the caller's merchant's operation log; each row's action_name names the action in words", body = Reply<Page<LogView>>)))]
pub async fn merchant_log(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<LogQuery>,
) -> Answer<Page<LogView>> {
    log_page(&st, Some(c.merchant_id()?), lang, q).await
}

#[derive(Debug, Deserialize)]
pub struct UsageQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

/// Totals over every row the filters select, and the balance now.
#[derive(Debug, Serialize, ToSchema)]
pub struct UsageSummary {
    pub topup: i64,
    pub deduct: i64,
    pub balance: i64,
}

/// A page of the points ledger; each row's reason and operator in the reader's language.
#[derive(Debug, Serialize, ToSchema)]
pub struct UsagePage {
    #[serde(flatten)]
    pub page: Page<super::views::Entry>,
    pub summary: UsageSummary,
}

async fn usage(st: &AppState, c: &Caller, lang: Lang, q: &UsageQuery) -> Answer<UsagePage> {
    let u = uc::usage(&st.db, c.merchant_id()?, &q.list, q.kind.as_deref()).await?;
    let rows = u.rows.into_iter().map(|mut e| {
        e.reason = domain::system::points::reason_text(&e.reason_code, &e.reason, lang);
        e.operator = domain::system::points::operator_text(&e.operator, lang);
        e.into()
    });
    Ok(reply(UsagePage {
        page: Page::new(rows.collect(), u.total),
        summary: UsageSummary {
            topup: u.topup,
            deduct: u.deduct,
            balance: u.balance,
        },
    }))
}

#[utoipa::path(method(get, post), path = "/common.merchant_usage_record/index", tag = "reports", responses((status = 200, description = "points ledger of the caller's merchant", body = Reply<UsagePage>)))]
pub async fn usage_common(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<UsageQuery>,
) -> Answer<UsagePage> {
    usage(&st, &c, lang, &q).await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_usage_record/index", tag = "reports", responses((status = 200, description = "points ledger of the caller's merchant", body = Reply<UsagePage>)))]
pub async fn usage_bpdr(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<UsageQuery>,
) -> Answer<UsagePage> {
    usage(&st, &c, lang, &q).await
}
