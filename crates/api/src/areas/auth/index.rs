//! The signed-in user's own calls: menu, profile, password, home page data, their merchant's log and
//! points records (`services::auth::account`).

use super::views::{LogView, MenuNode, UserRecordView, tree};
use crate::LangOf;
use crate::download::{Export, attachment, console_word, every_row, format_of};
use crate::error::{Answer, Done, HttpResult, Page, Reply, reply};
use crate::export::{Cell, Table, china, header};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
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
    /// For the operator: the console platforms a failed page check paused (their posts wait until a
    /// check passes or the operator resumes them on Platform apps); empty for everyone else.
    pub paused_platforms: Vec<PausedPlatformView>,
}

/// A console platform held back by its failed page check.
#[derive(Debug, Serialize, ToSchema)]
pub struct PausedPlatformView {
    pub platform: domain::platform::Platform,
    /// The platform's name in the caller's language.
    pub name: String,
    /// The failing step's code (`upload`, `form`, ...).
    pub step: String,
    /// What failed, in the caller's language.
    pub reason: String,
    /// When the check ran (ms).
    pub at: i64,
}

#[utoipa::path(get, path = "/ajax/initAdmin", tag = "auth", responses((status = 200, body = Reply<InitAdminView>)))]
pub async fn init_admin(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<InitAdminView> {
    let all = st.menus.read().await.clone();
    let visible = uc::visible_menus(&all, c.kind, &c.user.menu_ids());
    let refs: Vec<&Menu> = visible.iter().collect();
    let paused_platforms = if c.is_operator() {
        services::matrix::canary::paused_states(&st.db)
            .await?
            .into_iter()
            .map(|(p, s)| PausedPlatformView {
                platform: p,
                name: domain::i18n::platform_name(p.code(), lang),
                step: s.step,
                reason: if lang == Lang::En { s.en } else { s.zh },
                at: s.at,
            })
            .collect()
    } else {
        vec![]
    };
    Ok(reply(InitAdminView {
        menu: tree(&refs, None),
        permissions: c.grants.clone(),
        role: c.roles.clone(),
        user: UserRecordView::of(&c),
        paused_platforms,
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
        self.list()
    }

    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListParams {
        self.list
            .clone()
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

/// The caller's merchant's operation log as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/index/log/export", tag = "auth", responses((status = 200, description = "the operation log (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn log_export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<LogQuery>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { services::system::oplog::list(&db, Some(mid), &page).await }
    })
    .await?;
    let rows: Vec<LogView> = rows.into_iter().map(|r| LogView::of(r, lang)).collect();
    let cols = [
        ("时间", "Time"),
        ("账号", "Account"),
        ("操作", "Action"),
        ("结果", "Result"),
        ("信息", "Message"),
        ("请求方式", "Method"),
        ("路径", "Path"),
        ("状态码", "Status"),
        ("IP", "IP"),
        ("请求编号", "Request ID"),
    ];
    let table = Table {
        header: header(lang, &cols),
        rows: rows
            .into_iter()
            .map(|v| {
                let r = v.row;
                let result = if r.result == "success" {
                    "success"
                } else {
                    "failed"
                };
                vec![
                    china(r.created_at),
                    r.username.into(),
                    v.action_name.into(),
                    console_word(lang, "auth", &format!("log.{result}")).into(),
                    r.message.into(),
                    r.method.into(),
                    r.path.into(),
                    Cell::Int(r.status),
                    r.ip.into(),
                    r.request_id.into(),
                ]
            })
            .collect(),
    };
    Ok(attachment(
        "operation-log",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
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

/// The points ledger as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/common.merchant_usage_record/export", tag = "reports", responses((status = 200, description = "the usage records (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn usage_export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<UsageQuery>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let kind = e.q.kind.clone();
    let rows = every_row(&e.q.list, |page| {
        let db = st.db.clone();
        let kind = kind.clone();
        async move {
            let u = uc::usage(&db, mid, &page, kind.as_deref()).await?;
            Ok((u.rows, u.total))
        }
    })
    .await?;
    let cols = [
        ("时间", "Time"),
        ("类型", "Type"),
        ("变动", "Change"),
        ("余额", "Balance"),
        ("原因", "Reason"),
        ("任务编号", "Job key"),
        ("操作人", "Operator"),
    ];
    let table = Table {
        header: header(lang, &cols),
        rows: rows
            .into_iter()
            .map(|e| {
                vec![
                    china(e.created_at),
                    console_word(
                        lang,
                        "reports",
                        &format!("useRecord.kinds.{}", e.kind.as_str()),
                    )
                    .into(),
                    Cell::Int(e.change),
                    Cell::Int(e.balance),
                    domain::system::points::reason_text(&e.reason_code, &e.reason, lang).into(),
                    e.job_key.unwrap_or_default().into(),
                    domain::system::points::operator_text(&e.operator, lang).into(),
                ]
            })
            .collect(),
    };
    Ok(attachment(
        "usage-records",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
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
