//! Accounts (`/task.merchant_group_user/*`) and account groups (`/task.merchant_matrix_group/*`):
//! authorizing on each platform (OAuth consent, QR login, app token), renewing, grouping, notes,
//! region and POI (`services::matrix::accounts`). Tokens are sealed at rest and never leave the server.

use super::views::Group;
use super::views::{
    self, AccountPage, AccountSummary, AccountView, AuthStart, GroupName, PoiView, QrAnswer,
    QrStatus, ShareView,
};
use crate::LangOf;
use crate::download::{Export, attachment, every_row, format_of};
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, IdsReq, Input};
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::response::Redirect;
use domain::matrix::{QrState, ShareState};
use serde::Deserialize;
use services::ListQuery;
use services::matrix::Platform;
use services::matrix::accounts::{self as uc, QrStep, Started};
use services::platform::platform;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub platform: Option<String>,
    pub group_id: Option<i64>,
    pub status: Option<String>,
    pub nickname: Option<String>,
}

impl IndexQuery {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        self.list
            .clone()
            .with_filter(
                "platform",
                self.platform.as_deref().filter(|s| !s.is_empty()),
                "=",
            )
            .with_filter(
                "group_id",
                self.group_id.map(|g| g.to_string()).as_deref(),
                "=",
            )
            .with_filter(
                "nickname",
                self.nickname.as_deref().filter(|s| !s.is_empty()),
                "include",
            )
    }

    pub fn status(&self) -> Option<&str> {
        self.status.as_deref().filter(|s| !s.is_empty())
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/index", tag = "matrix", responses((status = 200, body = Reply<AccountPage>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<AccountPage> {
    let mid = c.merchant_id()?;
    let (rows, total, (active, expiring, expired)) =
        uc::list(&st.db, mid, q.status(), &q.list()).await?;
    Ok(reply(AccountPage {
        page: Page::new(
            views::accounts(&rows, lang, st.db.clock.platform_now()),
            total,
        ),
        summary: AccountSummary {
            active,
            expiring,
            expired,
        },
    }))
}

/// The accounts as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/task.merchant_group_user/export", tag = "matrix", responses((status = 200, description = "the accounts (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<IndexQuery>>,
) -> crate::error::HttpResult<axum::response::Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let q = e.q;
    let rows = every_row(&q.list(), |page| {
        let db = st.db.clone();
        let status = q.status().map(str::to_string);
        async move {
            let (rows, total, _) = uc::list(&db, mid, status.as_deref(), &page).await?;
            Ok((rows, total))
        }
    })
    .await?;
    let now = st.db.clock.platform_now();
    let table = super::sheets::accounts(&views::accounts(&rows, lang, now), lang);
    Ok(attachment("accounts", f, table.render(f), now))
}

/// The accounts' groups and remarks import's template: its header in the caller's language.
#[utoipa::path(get, path = "/task.merchant_group_user/import_template", tag = "matrix", params(("format" = Option<String>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the template (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn import_template(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<crate::import::TemplateQuery>,
) -> crate::error::HttpResult<axum::response::Response> {
    crate::import::template_file(
        st.db.clock.platform_now(),
        "accounts-import",
        &uc::NOTE_COLUMNS,
        lang,
        &q,
    )
}

/// What an import of accounts' groups and remarks did.
#[derive(Debug, serde::Serialize, ToSchema)]
pub struct NotesImported {
    /// Accounts updated.
    pub updated: usize,
    /// Groups the sheet named that did not exist: created.
    pub groups_created: Vec<String>,
}

/// Sets accounts' groups and remarks from a sheet (account id or nickname, group, remarks; an empty
/// cell leaves the value as it is; unknown groups are created). Any bad row: 422 naming every bad
/// row, nothing stored.
#[utoipa::path(post, path = "/task.merchant_group_user/import", tag = "matrix", request_body(content_type = "multipart/form-data", description = "file: the sheet"), responses((status = 200, body = Reply<NotesImported>)))]
pub async fn import(
    State(st): State<AppState>,
    c: Caller,
    mp: axum::extract::Multipart,
) -> Answer<NotesImported> {
    let mid = c.merchant_id()?;
    let (sheet, _) =
        crate::import::sheet_of(mp, &uc::NOTE_COLUMNS, &[&[uc::NOTE_COLUMNS[0]]]).await?;
    let (updated, groups_created) = uc::import_notes(&st.db, mid, &sheet).await?;
    Ok(reply(NotesImported {
        updated,
        groups_created,
    }))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/expire_user", tag = "matrix", responses((status = 200, body = Reply<Page<AccountView>>)))]
pub async fn expire_user(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ListQuery>,
) -> Answer<Page<AccountView>> {
    let (rows, total) = uc::expiring(&st.db, c.merchant_id()?, &q).await?;
    Ok(reply(Page::new(
        views::accounts(&rows, lang, st.db.clock.platform_now()),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthReq {
    #[serde(default)]
    #[schema(value_type = Option<domain::platform::Platform>)]
    pub platform: Option<String>,
    #[serde(default)]
    pub group_id: Option<i64>,
    #[serde(default)]
    pub login_id: Option<String>,
    #[serde(default)]
    pub sms_code: Option<String>,
    /// Where the person placed a slider puzzle's piece on its picture: 0 (the track's start) to 1
    /// (its end).
    #[serde(default)]
    pub slide: Option<f64>,
    /// Starting a creator-console QR login: the proxy its page goes through (`http://` or
    /// `socks5://`), which the account then posts through too. Empty or absent: none.
    #[serde(default)]
    pub proxy: Option<String>,
}

fn started(s: Started) -> AuthStart {
    match s {
        Started::OAuth { url } => AuthStart::Oauth(views::OauthStart {
            kind: views::OauthKind::Oauth,
            url,
        }),
        Started::Qr(l) => AuthStart::Qr(views::QrStart {
            kind: views::QrKind::Qr,
            state: QrState::QrPending,
            login_id: l.login_id,
            qr_url: l.qr_url,
            expires_at: l.expires_at,
            qr_image: l.qr_image,
        }),
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/get_qrCode", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<AuthStart>)))]
pub async fn get_qr_code(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AuthReq>,
) -> Answer<AuthStart> {
    let mid = c.merchant_id()?;
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    let proxy = r.proxy.as_deref().unwrap_or("");
    Ok(reply(started(
        uc::start_via(&st.hub, mid, p, r.group_id, proxy).await?,
    )))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/tiktokAuth", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<AuthStart>)))]
pub async fn tiktok_auth(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AuthReq>,
) -> Answer<AuthStart> {
    let mid = c.merchant_id()?;
    Ok(reply(started(
        uc::start(&st.hub, mid, Platform::Dy, r.group_id).await?,
    )))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/dyAuthAggregation", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<AuthStart>)))]
pub async fn dy_auth_aggregation(
    st: State<AppState>,
    c: Caller,
    r: Input<AuthReq>,
) -> Answer<AuthStart> {
    tiktok_auth(st, c, r).await
}

/// Starts or polls a QR login.
async fn qr(
    st: &AppState,
    mid: i64,
    p: Platform,
    r: &AuthReq,
    lang: domain::i18n::Lang,
) -> Answer<QrAnswer> {
    let step = uc::qr_login(
        &st.hub,
        mid,
        p,
        r.login_id.as_deref(),
        r.sms_code.as_deref(),
        r.slide,
        r.group_id,
        r.proxy.as_deref(),
    )
    .await?;
    let login_id = r.login_id.clone().unwrap_or_default();
    let fields =
        |state: QrState, account: Option<AccountView>, qr_image: Option<String>| QrStatus {
            kind: views::QrStatusKind::Status,
            state,
            login_id: login_id.clone(),
            account,
            qr_image,
            challenge_image: None,
        };
    let status = |state, account, qr_image| QrAnswer::Status(fields(state, account, qr_image));
    Ok(reply(match step {
        QrStep::Started(s) => match started(s) {
            AuthStart::Oauth(o) => QrAnswer::Oauth(o),
            AuthStart::Qr(q) => QrAnswer::Qr(q),
        },
        QrStep::LoggedIn(a) => status(
            QrState::LoggedIn,
            Some(views::account(&a, lang, st.db.clock.platform_now())),
            None,
        ),
        QrStep::SmsChallenge => status(QrState::SmsChallenge, None, None),
        QrStep::SliderChallenge { image } => QrAnswer::Status(QrStatus {
            challenge_image: image,
            ..fields(QrState::SliderChallenge, None, None)
        }),
        QrStep::Pending { qr_image } => status(QrState::QrPending, None, qr_image),
        QrStep::Expired => status(QrState::Expired, None, None),
    }))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/qr_login", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<QrAnswer>)))]
pub async fn qr_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> Answer<QrAnswer> {
    let mid = c.merchant_id()?;
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    qr(&st, mid, p, &r, lang).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/sphLogin", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<QrAnswer>)))]
pub async fn sph_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> Answer<QrAnswer> {
    qr(&st, c.merchant_id()?, Platform::Sph, &r, lang).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/xhsLogin", tag = "matrix", request_body = AuthReq, responses((status = 200, body = Reply<QrAnswer>)))]
pub async fn xhs_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> Answer<QrAnswer> {
    qr(&st, c.merchant_id()?, Platform::Xhs, &r, lang).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BjhReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub app_id: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub app_token: String,
    #[serde(default)]
    pub group_id: Option<i64>,
}

#[utoipa::path(post, path = "/task.merchant_group_user/bjhLogin", tag = "matrix", request_body = BjhReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn bjh_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<BjhReq>,
) -> Answer<AccountView> {
    let mid = c.merchant_id()?;
    let a = uc::bjh_login(&st.hub, mid, &r.app_id, &r.app_token, r.group_id).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// `GET /oauth/{platform}/callback`: the platform's consent page sends the person back here
/// (public: the `state` proves which merchant started it, once). Answers with a redirect to the console.
pub async fn oauth_callback(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Path(code): Path<String>,
    Query(q): Query<CallbackQuery>,
) -> Redirect {
    let back = |k: &str, v: &str| {
        Redirect::to(&format!(
            "/account_auth?{k}={}",
            serde_urlencoded::to_string([("", v)])
                .unwrap_or_default()
                .trim_start_matches('=')
        ))
    };
    match uc::oauth_callback(&st.hub, &code, q.code, q.state, q.error).await {
        Ok(id) => back("authorized", &id.to_string()),
        Err(e) => back("auth_error", &callback_refusal(e, lang)),
    }
}

/// Why authorizing did not finish, in the browser's language (the console shows it as it comes).
fn callback_refusal(e: uc::CallbackRefusal, lang: domain::i18n::Lang) -> String {
    use domain::i18n::{Lang, Msg};
    let invalid = Msg::AuthStateInvalid.template(lang);
    match e {
        uc::CallbackRefusal::Invalid(None) => invalid.to_string(),
        uc::CallbackRefusal::Invalid(Some(detail)) => format!("{invalid} ({detail})"),
        uc::CallbackRefusal::Platform(e) => match lang {
            Lang::Zh => e.zh,
            Lang::En => e.en,
        },
        uc::CallbackRefusal::Failed(e) => e,
    }
}

#[utoipa::path(post, path = "/task.merchant_group_user/renew", tag = "matrix", request_body = IdReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn renew(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<AccountView> {
    let a = uc::renew(&st.hub, c.merchant_id()?, r.id).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AccountSaveReq)]
pub struct SaveReq {
    pub id: i64,
    #[serde(default)]
    pub group_id: Option<i64>,
    #[serde(default)]
    pub remarks: Option<String>,
    #[serde(default)]
    pub account_type: Option<String>,
}

#[utoipa::path(post, path = "/task.merchant_group_user/user_save", tag = "matrix", request_body = SaveReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn user_save(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<SaveReq>,
) -> Answer<AccountView> {
    let a = uc::save(
        &st.db,
        c.merchant_id()?,
        r.id,
        r.group_id,
        r.remarks.as_deref(),
        r.account_type.as_deref(),
    )
    .await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NotesReq {
    pub id: i64,
    #[serde(default)]
    pub remarks: String,
}

#[utoipa::path(post, path = "/task.merchant_group_user/update_notes", tag = "matrix", request_body = NotesReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn update_notes(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<NotesReq>,
) -> Answer<AccountView> {
    let a = uc::save(&st.db, c.merchant_id()?, r.id, None, Some(&r.remarks), None).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AccountProxyReq {
    pub id: i64,
    /// `http://[user:pass@]host:port` or `socks5://host:port`; empty removes the proxy.
    #[serde(default)]
    pub proxy: String,
}

/// The proxy a creator-console account's browser goes through (sealed; the answer shows it without
/// its credentials).
#[utoipa::path(post, path = "/task.merchant_group_user/update_proxy", tag = "matrix", request_body = AccountProxyReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn update_proxy(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AccountProxyReq>,
) -> Answer<AccountView> {
    let a = uc::set_proxy(&st.hub, c.merchant_id()?, r.id, &r.proxy).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddressReq {
    pub id: i64,
    pub province: Option<String>,
    pub city: Option<String>,
    pub poi_id: Option<String>,
    pub poi_name: Option<String>,
    pub poi_address: Option<String>,
}

#[utoipa::path(post, path = "/task.merchant_group_user/update_address", tag = "matrix", request_body = AddressReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn update_address(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AddressReq>,
) -> Answer<AccountView> {
    let fields = [
        ("province", r.province.as_deref()),
        ("city", r.city.as_deref()),
        ("poi_id", r.poi_id.as_deref()),
        ("poi_name", r.poi_name.as_deref()),
        ("poi_address", r.poi_address.as_deref()),
    ];
    let a = uc::set_address(&st.db, c.merchant_id()?, r.id, fields).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[utoipa::path(post, path = "/task.merchant_group_user/discharge_poi", tag = "matrix", request_body = IdReq, responses((status = 200, body = Reply<AccountView>)))]
pub async fn discharge_poi(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<AccountView> {
    let a = uc::discharge_poi(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(views::account(&a, lang, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PoiReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub keyword: String,
    #[serde(default)]
    pub city: Option<String>,
}

/// POI search (Douyin's, served by the sandbox for every platform).
pub async fn poi_search(st: &AppState, c: &Caller, r: &PoiReq) -> Answer<Page<PoiView>> {
    c.merchant_id()?;
    let rows = uc::poi_search(&st.hub, &r.keyword, r.city.as_deref()).await?;
    Ok(reply(views::pois(rows)))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/getPoiId", tag = "matrix", request_body = PoiReq, responses((status = 200, body = Reply<Page<PoiView>>)))]
pub async fn get_poi_id(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PoiReq>,
) -> Answer<Page<PoiView>> {
    poi_search(&st, &c, &r).await
}

#[utoipa::path(post, path = "/task.merchant_group_user/delete", tag = "matrix", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    let mid = c.merchant_id()?;
    uc::delete(&st.db, mid, &r.all("id")?).await?;
    Ok(reply(Done {}))
}

// ---- groups ----

#[utoipa::path(method(get, post), path = "/task.merchant_matrix_group/index", tag = "matrix", responses((status = 200, body = Reply<Page<Group>>)))]
pub async fn groups(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<super::tasks::NameQuery>,
) -> Answer<Page<Group>> {
    let lq = q.list.with_filter(
        "name",
        q.name.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let (rows, total) = uc::groups(&st.db, c.merchant_id()?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Group::from).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AccountGroupReq)]
pub struct GroupReq {
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 30)]
    pub name: String,
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/add", tag = "matrix", request_body = GroupReq, responses((status = 200, body = Reply<GroupName>)))]
pub async fn group_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> Answer<GroupName> {
    let (id, name) = uc::add_group(&st.db, c.merchant_id()?, &r.name).await?;
    Ok(reply(GroupName { id, name }))
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/edit", tag = "matrix", request_body = GroupReq, responses((status = 200, body = Reply<GroupName>)))]
pub async fn group_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> Answer<GroupName> {
    let (id, name) = uc::rename_group(&st.db, c.merchant_id()?, r.id, &r.name).await?;
    Ok(reply(GroupName { id, name }))
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/delete", tag = "matrix", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn group_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::delete_group(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareReq {
    /// Poll a share made before.
    #[serde(default)]
    pub share_id: Option<String>,
    /// The video: `v:<id>` (finished library) or `m:<id>` (uploaded).
    #[serde(default)]
    pub video_key: String,
    #[serde(default)]
    #[schema(max_length = 50)]
    pub title: String,
    #[serde(default)]
    pub topics: Vec<String>,
}

/// `dy_share`: Douyin's H5 share schema (tap-to-post). Makes a signed link that opens the customer's
/// own Douyin ready to post one of our videos; the platform's create_video webhook reports the post.
/// With `share_id` it answers whether the customer has posted it.
#[utoipa::path(post, path = "/task.merchant_group_user/dy_share", tag = "matrix", request_body = ShareReq, responses((status = 200, body = Reply<ShareView>)))]
pub async fn dy_share(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ShareReq>,
) -> Answer<ShareView> {
    let mid = c.merchant_id()?;
    if let Some(id) = r.share_id.as_deref().filter(|s| !s.is_empty()) {
        let s = uc::share(&st.db, mid, id).await?;
        return Ok(reply(ShareView::Polled {
            share_id: s.share_id,
            state: ShareState::of(&s.item_id),
            item_id: s.item_id,
            open_id: s.open_id,
            published_at: s.published_at,
        }));
    }
    let link = uc::make_share(&st.hub, mid, &r.video_key, &r.title, &r.topics).await?;
    Ok(reply(ShareView::Made {
        share_id: link.share_id,
        schema: link.schema,
        expires_at: link.expires_at,
        state: ShareState::Waiting,
    }))
}
