//! Accounts and their groups: authorizing on each platform (OAuth consent, QR login, app token),
//! renewing, grouping, notes, region and POI, Douyin's H5 share. Tokens are sealed at rest (hub) and
//! never leave the server.

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, refused};
use domain::i18n::Msg;
use platforms::{AuthKind, Platform, PlatformError, SessionState};
use store::ListQuery;
use store::list::Total;
use store::matrix::{self as db, Account};

/// OAuth states and QR logins live this long (real time).
const STATE_TTL_MS: i64 = 15 * 60 * 1000;

/// The merchant's account, or 404.
pub async fn account(d: &store::Db, mid: i64, id: i64) -> ApiResult<Account> {
    db::account(d, mid, id).await?.ok_or(ApiError::NotFound)
}

/// Accounts by active | expiring | expired (`status`), with the merchant's count of each.
pub async fn list(
    d: &store::Db,
    mid: i64,
    status: Option<&str>,
    q: &ListQuery,
) -> ApiResult<(Vec<Account>, Total, (i64, i64, i64))> {
    let now = d.clock.platform_now();
    if status.is_some() && db::status_scope(status, now).is_none() {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "active | expiring | expired".into())],
        ));
    }
    let (rows, total) = db::accounts(d, mid, db::status_scope(status, now), q).await?;
    let summary = db::account_summary(d, mid, now).await?;
    Ok((rows, total, summary))
}

/// Accounts expiring soon or expired.
pub async fn expiring(d: &store::Db, mid: i64, q: &ListQuery) -> ApiResult<(Vec<Account>, Total)> {
    let soon = d.clock.platform_now() + domain::matrix::EXPIRING_MS;
    let scope = format!("(a.revoked = 1 OR a.auth_expires_at <= {soon})");
    Ok(db::accounts(d, mid, Some(scope), q).await?)
}

/// Accounts that can be picked for a task (not expired), `limit` at most.
pub async fn selectable(d: &store::Db, mid: i64, q: &ListQuery) -> ApiResult<Vec<Account>> {
    let not_expired =
        db::status_scope(Some("expired"), d.clock.platform_now()).map(|s| format!("NOT {s}"));
    Ok(db::accounts(d, mid, not_expired, q).await?.0)
}

/// The group an account goes into: 0 (none) or one of the merchant's groups.
async fn group_of(d: &store::Db, mid: i64, g: Option<i64>) -> ApiResult<i64> {
    match g.filter(|g| *g > 0) {
        Some(g) if db::group_exists(d, mid, g).await? => Ok(g),
        Some(_) => Err(ApiError::NotFound),
        None => Ok(0),
    }
}

/// How authorizing starts.
pub enum Started {
    /// The platform's consent page (DY, KS).
    OAuth { url: String },
    /// A QR login (SPH, XHS, shop).
    Qr(platforms::QrLogin),
}

/// Starts authorizing: the consent URL (DY, KS) or a QR login (SPH, XHS, shop).
pub async fn start(hub: &Hub, mid: i64, p: Platform, group: Option<i64>) -> ApiResult<Started> {
    start_via(hub, mid, p, group, "").await
}

/// [`start`], a QR login's page going through `proxy` (the account-to-be's; "" none): kept sealed
/// with the login, it becomes the account's proxy once the login becomes an account.
pub async fn start_via(
    hub: &Hub,
    mid: i64,
    p: Platform,
    group: Option<i64>,
    proxy: &str,
) -> ApiResult<Started> {
    let proxy = domain::matrix::proxy::check(proxy)?;
    if proxy.is_some() && p.auth_kind() != AuthKind::QrSession {
        return Err(ApiError::invalid("proxy", Msg::ProxyNotUsed));
    }
    let group = group_of(&hub.db, mid, group).await?;
    let (ad, _) = hub.adapter(p).await?;
    match p.auth_kind() {
        AuthKind::OAuth => {
            let state = store::random_token(24);
            db::put_state(&hub.db, &state, mid, p.code(), group).await?;
            let redirect = format!("{}/oauth/{}/callback", hub.public_url, p.code());
            let url = ad
                .authorize_url(&redirect, &state)
                .map_err(|e| refused("platform", &e))?;
            Ok(Started::OAuth { url })
        }
        AuthKind::QrSession => {
            let via = proxy.as_ref().map_or("", |x| x.url.as_str());
            let login = ad
                .start_qr_login_via(via)
                .await
                .map_err(|e| refused(if via.is_empty() { "platform" } else { "proxy" }, &e))?;
            db::put_state(&hub.db, &login.login_id, mid, p.code(), group).await?;
            if !via.is_empty() {
                db::set_state_proxy(&hub.db, &login.login_id, &hub.sealer.seal(via)).await?;
            }
            Ok(Started::Qr(login))
        }
        AuthKind::AppToken => Err(ApiError::invalid("platform", Msg::UseBjhLogin)),
    }
}

/// Where a QR login stands after a call.
pub enum QrStep {
    Started(Started),
    LoggedIn(Account),
    SmsChallenge,
    /// The platform's page shows a slider puzzle (`image`, a PNG data URL): the person places the
    /// piece on it and the answer comes back as `slide`.
    SliderChallenge {
        image: Option<String>,
    },
    /// Still waiting; `qr_image` is the QR the platform's page shows now (browser flows, which
    /// follow the page when it replaces an expired QR).
    Pending {
        qr_image: Option<String>,
    },
    Expired,
}

/// Starts (no `login_id`) or polls a QR login; a login that succeeds adds the account once. An
/// SMS code the person typed, or where they placed a slider puzzle's piece (`slide`, 0..=1 of the
/// track), is given to the platform's page first.
pub async fn qr_login(
    hub: &Hub,
    mid: i64,
    p: Platform,
    login_id: Option<&str>,
    sms_code: Option<&str>,
    slide: Option<f64>,
    group: Option<i64>,
    proxy: Option<&str>,
) -> ApiResult<QrStep> {
    let Some(login_id) = login_id.filter(|s| !s.is_empty()) else {
        if p.auth_kind() != AuthKind::QrSession {
            return Err(ApiError::invalid_with(
                "platform",
                Msg::InvalidValue,
                vec![("reason", "sph | xhs | shop".into())],
            ));
        }
        let proxy = proxy.unwrap_or("");
        return Ok(QrStep::Started(start_via(hub, mid, p, group, proxy).await?));
    };
    // The login must be one this merchant started.
    let (owner, code, group) = db::get_state(&hub.db, login_id, STATE_TTL_MS, false)
        .await?
        .ok_or_else(|| ApiError::invalid("login_id", Msg::QrLoginUnknown))?;
    if owner != mid || code != p.code() {
        return Err(ApiError::invalid("login_id", Msg::QrLoginUnknown));
    }
    let (ad, sandbox) = hub.adapter(p).await?;
    if let Some(f) = slide {
        if !(0.0..=1.0).contains(&f) {
            return Err(ApiError::invalid_with(
                "slide",
                Msg::InvalidValue,
                vec![("reason", "0 – 1".into())],
            ));
        }
        ad.slide(login_id, f)
            .await
            .map_err(|e| refused("slide", &e))?;
    }
    let sms = sms_code.filter(|s| !s.is_empty());
    let state = ad
        .poll_qr_login(login_id, sms)
        .await
        .map_err(|e| refused("login_id", &e))?;
    Ok(match state {
        SessionState::LoggedIn { session } => {
            // Single use: a second poll does not add the account again.
            if db::get_state(&hub.db, login_id, STATE_TTL_MS, true)
                .await?
                .is_none()
            {
                return Err(ApiError::invalid("login_id", Msg::QrLoginUnknown));
            }
            let id = hub
                .save_authorized(mid, p, &session, group, sandbox)
                .await?;
            // The console login stored for every node is now this account's (a scan again
            // replaces the one before).
            db::link_profile(&hub.db, &session.access_token, id).await?;
            // Logged in through a proxy: the account posts through it too.
            let sealed = db::state_proxy(&hub.db, login_id).await?;
            if !sealed.is_empty() {
                let url = hub
                    .sealer
                    .open(&sealed)
                    .ok_or_else(|| anyhow::anyhow!("the QR login's proxy cannot be unsealed"))?;
                if let Some(x) = domain::matrix::proxy::check(&url)? {
                    db::set_proxy(&hub.db, mid, id, &sealed, &x.shown).await?;
                }
            }
            QrStep::LoggedIn(account(&hub.db, mid, id).await?)
        }
        SessionState::SmsChallenge => QrStep::SmsChallenge,
        SessionState::SliderChallenge => QrStep::SliderChallenge {
            image: ad.challenge_image(login_id),
        },
        SessionState::QrPending | SessionState::LoggedOut => QrStep::Pending {
            qr_image: ad.qr_image(login_id),
        },
        SessionState::SessionExpired => QrStep::Expired,
    })
}

/// Baijiahao: the merchant's app id and token, verified with the platform.
pub async fn bjh_login(
    hub: &Hub,
    mid: i64,
    app_id: &str,
    token: &str,
    group: Option<i64>,
) -> ApiResult<Account> {
    let (app_id, token) = (app_id.trim(), token.trim());
    domain::validate::required("app_id", app_id)?;
    domain::validate::required("app_token", token)?;
    let g = group_of(&hub.db, mid, group).await?;
    let (ad, sandbox) = hub.adapter(Platform::Bjh).await?;
    let t = ad
        .verify_app_token(app_id, token)
        .await
        .map_err(|e| refused("app_token", &e))?;
    let id = hub
        .save_authorized(mid, Platform::Bjh, &t, g, sandbox)
        .await?;
    account(&hub.db, mid, id).await
}

/// Why a consent page's return was not taken (`api` words it in the browser's language).
#[derive(Debug)]
pub enum CallbackRefusal {
    /// The state is unknown, used, expired or of another platform; or the platform sent its own
    /// `error` parameter (kept as it came).
    Invalid(Option<String>),
    /// The platform refused the code, in its own words.
    Platform(PlatformError),
    /// Our side failed (the database, a missing app).
    Failed(String),
}

/// The platform's consent page came back (public: the `state` proves which merchant started it,
/// once). The new account's id, or why not.
pub async fn oauth_callback(
    hub: &Hub,
    code: &str,
    auth_code: Option<String>,
    state: Option<String>,
    error: Option<String>,
) -> Result<i64, CallbackRefusal> {
    let invalid = || CallbackRefusal::Invalid(None);
    let Some(p) = Platform::from_code(code) else {
        return Err(invalid());
    };
    if let Some(e) = error {
        return Err(CallbackRefusal::Invalid(Some(e)));
    }
    let (Some(auth_code), Some(state)) = (auth_code, state) else {
        return Err(invalid());
    };
    let Ok(Some((mid, pc, group))) = db::get_state(&hub.db, &state, STATE_TTL_MS, true).await
    else {
        return Err(invalid());
    };
    if pc != p.code() {
        return Err(invalid());
    }
    let (ad, sandbox) = hub
        .adapter(p)
        .await
        .map_err(|e| CallbackRefusal::Failed(e.to_string()))?;
    let t = ad
        .exchange_code(&auth_code)
        .await
        .map_err(CallbackRefusal::Platform)?;
    hub.save_authorized(mid, p, &t, group, sandbox)
        .await
        .map_err(|e| CallbackRefusal::Failed(e.to_string()))
}

/// Renews an account: refreshes an OAuth token, or checks that a session still works (a refusal
/// that is not worth retrying marks the account expired).
pub async fn renew(hub: &Hub, mid: i64, id: i64) -> ApiResult<Account> {
    let a = account(&hub.db, mid, id).await?;
    let p = a.platform;
    match p.auth_kind() {
        AuthKind::OAuth => hub.refresh(&a).await.map_err(|e| refused("id", &e))?,
        _ => {
            let ad = hub.adapter_for(&a).await?;
            if let Err(e) = ad.check(&hub.creds(&a)).await {
                if e.kind != platforms::ErrorKind::Retryable {
                    hub.revoke(a.id, &e).await?;
                }
                return Err(refused("id", &e));
            }
        }
    }
    account(&hub.db, mid, id).await
}

/// Sets (or, empty, removes) the proxy a creator-console account's browser goes through; the URL is
/// sealed like the account's tokens. The open-API platforms call their APIs directly: refused there.
pub async fn set_proxy(hub: &Hub, mid: i64, id: i64, proxy: &str) -> ApiResult<Account> {
    let a = account(&hub.db, mid, id).await?;
    let checked = domain::matrix::proxy::check(proxy)?;
    if checked.is_some() && a.platform.auth_kind() != AuthKind::QrSession {
        return Err(ApiError::invalid("proxy", Msg::ProxyNotUsed));
    }
    let (sealed, shown) = match &checked {
        Some(p) => (hub.sealer.seal(&p.url), p.shown.clone()),
        None => (String::new(), String::new()),
    };
    db::set_proxy(&hub.db, mid, id, &sealed, &shown).await?;
    account(&hub.db, mid, id).await
}

fn remarks(r: Option<&str>) -> ApiResult<Option<String>> {
    let Some(r) = r else { return Ok(None) };
    let r = r.trim();
    domain::validate::max_chars("remarks", r, domain::matrix::REMARKS_MAX)?;
    Ok(Some(r.to_string()))
}

/// Changes an account's group, remarks or type (those given).
pub async fn save(
    d: &store::Db,
    mid: i64,
    id: i64,
    group: Option<i64>,
    rem: Option<&str>,
    account_type: Option<&str>,
) -> ApiResult<Account> {
    let g = match group {
        Some(g) => Some(group_of(d, mid, Some(g)).await?),
        None => None,
    };
    let account_type = match account_type {
        Some(t) => Some(domain::matrix::AccountType::parse(t).ok_or_else(|| {
            ApiError::invalid_with(
                "account_type",
                Msg::InvalidValue,
                vec![("reason", "personal | enterprise".into())],
            )
        })?),
        None => None,
    };
    let rem = remarks(rem)?;
    if !db::save_account(d, mid, id, g, rem.as_deref(), account_type).await? {
        return Err(ApiError::NotFound);
    }
    account(d, mid, id).await
}

/// Sets the region and POI fields given (each at most 100 characters).
pub async fn set_address(
    d: &store::Db,
    mid: i64,
    id: i64,
    fields: [(&'static str, Option<&str>); 5],
) -> ApiResult<Account> {
    let mut f = vec![];
    for (k, v) in fields {
        if let Some(v) = v {
            domain::validate::max_chars(k, v, 100)?;
            f.push((k, v.trim().to_string()));
        }
    }
    if !db::set_address(d, mid, id, &f).await? {
        return Err(ApiError::NotFound);
    }
    account(d, mid, id).await
}

/// Clears an account's POI.
pub async fn discharge_poi(d: &store::Db, mid: i64, id: i64) -> ApiResult<Account> {
    let clear = [
        ("poi_id", String::new()),
        ("poi_name", String::new()),
        ("poi_address", String::new()),
    ];
    if !db::set_address(d, mid, id, &clear).await? {
        return Err(ApiError::NotFound);
    }
    account(d, mid, id).await
}

/// POI search through the Douyin adapter (the sandbox serves it for every platform).
pub async fn poi_search(
    hub: &Hub,
    keyword: &str,
    city: Option<&str>,
) -> ApiResult<Vec<platforms::Poi>> {
    let kw = keyword.trim();
    domain::validate::required("keyword", kw)?;
    let (ad, _) = hub.adapter(Platform::Dy).await?;
    ad.poi_search(kw, city.unwrap_or(""))
        .await
        .map_err(|e| refused("keyword", &e))
}

/// Deletes accounts (all of them the merchant's; none with an item being published).
pub async fn delete(d: &store::Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    for id in ids {
        account(d, mid, *id).await?;
    }
    match db::delete_accounts(d, mid, ids).await? {
        Some(_) => Ok(()),
        None => Err(ApiError::invalid("id", Msg::ItemBusy)),
    }
}

fn group_name(n: &str) -> ApiResult<String> {
    let n = n.trim();
    domain::validate::required("name", n)?;
    domain::validate::max_chars("name", n, domain::matrix::GROUP_NAME_MAX)?;
    Ok(n.to_string())
}

/// Adds a group; its id and cleaned name.
pub async fn add_group(d: &store::Db, mid: i64, name: &str) -> ApiResult<(i64, String)> {
    let name = group_name(name)?;
    let id = db::add_group(d, mid, &name)
        .await?
        .ok_or_else(|| ApiError::invalid("name", Msg::GroupNameTaken))?;
    Ok((id, name))
}

/// Renames a group; its cleaned name.
pub async fn rename_group(
    d: &store::Db,
    mid: i64,
    id: Option<i64>,
    name: &str,
) -> ApiResult<(i64, String)> {
    let id = id.ok_or(ApiError::invalid("id", Msg::Required))?;
    let name = group_name(name)?;
    if db::group_name_taken(d, mid, &name, id).await? {
        return Err(ApiError::invalid("name", Msg::GroupNameTaken));
    }
    if !db::rename_group(d, mid, id, &name).await? {
        return Err(ApiError::NotFound);
    }
    Ok((id, name))
}

/// Deletes a group; its accounts become ungrouped.
pub async fn delete_group(d: &store::Db, mid: i64, id: i64) -> ApiResult<()> {
    if !db::delete_group(d, mid, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// A share made before, to see whether the customer posted it.
pub async fn share(d: &store::Db, mid: i64, id: &str) -> ApiResult<db::Share> {
    db::share(d, mid, id).await?.ok_or(ApiError::NotFound)
}

/// Douyin's H5 share schema (tap-to-post): a signed link that opens the customer's own Douyin ready
/// to post one of our videos; the platform's create_video webhook reports the post.
pub async fn make_share(
    hub: &Hub,
    mid: i64,
    video_key: &str,
    title: &str,
    topics: &[String],
) -> ApiResult<platforms::ShareLink> {
    let title = title.trim();
    domain::validate::required("title", title)?;
    domain::validate::max_chars("title", title, domain::matrix::TITLE_MAX)?;
    // Hashtags are optional in a share (an NFC tag may have none).
    let topics = if topics.iter().all(|t| t.trim().is_empty()) {
        vec![]
    } else {
        domain::matrix::topics(topics)?
    };
    super::videos::video(&hub.db, mid, video_key)
        .await?
        .ok_or_else(|| {
            ApiError::invalid_with(
                "video_key",
                Msg::VideoUnusable,
                vec![("name", video_key.to_string())],
            )
        })?;
    let (_, src) = super::videos::video_urls(hub, video_key);
    let url = format!("{}{}", hub.public_url, src.unwrap_or_default());
    let (ad, _) = hub.adapter(Platform::Dy).await?;
    let link = ad
        .share_link(&url, title, &topics)
        .await
        .map_err(|e| refused("video_key", &e))?;
    db::add_share(&hub.db, mid, &link.share_id, video_key, title).await?;
    Ok(link)
}

/// One page of the merchant's account groups.
pub async fn groups(d: &store::Db, mid: i64, q: &ListQuery) -> ApiResult<(Vec<db::Group>, Total)> {
    Ok(db::groups(d, mid, q).await?)
}

/// The columns of the accounts' groups and remarks import (its template's header).
pub const NOTE_COLUMNS: [domain::sheet::Column; 3] = [
    domain::sheet::col("account", "账号", "Account"),
    domain::sheet::col("group", "分组", "Group"),
    domain::sheet::col("remarks", "备注", "Remarks"),
];

/// Sets accounts' groups and remarks from a sheet's rows (account id or nickname, group name,
/// remarks; an empty cell leaves that value as it is). A group the merchant does not have is
/// created. Every row is checked first: any bad one refuses the whole sheet, naming every bad row.
/// Returns how many accounts were updated and the groups created.
pub async fn import_notes(
    d: &store::Db,
    mid: i64,
    sheet: &domain::sheet::Sheet,
) -> ApiResult<(usize, Vec<String>)> {
    use domain::sheet::RowError;
    let col = |k: &str| {
        NOTE_COLUMNS
            .iter()
            .copied()
            .find(|c| c.key == k)
            .unwrap_or(NOTE_COLUMNS[0])
    };
    if sheet.rows.is_empty() {
        return Err(ApiError::invalid("rows", Msg::ImportEmpty));
    }
    let accounts = db::all_accounts(d, mid).await?;
    let mut errors: Vec<RowError> = vec![];
    let mut notes: Vec<db::AccountNote> = vec![];
    let mut seen: Vec<(i64, usize)> = vec![];
    for (row, cells) in &sheet.rows {
        let row = *row;
        let name = sheet.cell(cells, "account");
        let by_id = name
            .parse::<i64>()
            .ok()
            .and_then(|id| accounts.iter().find(|a| a.id == id));
        let found: Vec<&Account> = match by_id {
            Some(a) => vec![a],
            None => accounts
                .iter()
                .filter(|a| a.nickname.trim() == name)
                .collect(),
        };
        let account = match found.as_slice() {
            _ if name.is_empty() => {
                errors.push(RowError::new(row, col("account"), Msg::Required, vec![]));
                None
            }
            [] => {
                errors.push(RowError::new(
                    row,
                    col("account"),
                    Msg::ImportAccountUnknown,
                    vec![("name", name.into())],
                ));
                None
            }
            [a] => match seen.iter().find(|(id, _)| *id == a.id) {
                Some((_, first)) => {
                    errors.push(RowError::new(
                        row,
                        col("account"),
                        Msg::ImportAccountTwice,
                        vec![("name", a.nickname.clone()), ("row", first.to_string())],
                    ));
                    None
                }
                None => {
                    seen.push((a.id, row));
                    Some(a.id)
                }
            },
            many => {
                errors.push(RowError::new(
                    row,
                    col("account"),
                    Msg::ImportAccountAmbiguous,
                    vec![("name", name.into()), ("count", many.len().to_string())],
                ));
                None
            }
        };
        let group = sheet.cell(cells, "group");
        let remarks = sheet.cell(cells, "remarks");
        let checks = [
            ("group", group, domain::matrix::GROUP_NAME_MAX),
            ("remarks", remarks, domain::matrix::REMARKS_MAX),
        ];
        let mut ok = true;
        for (key, v, max) in checks {
            let checked = domain::validate::max_chars(key, v, max)
                .and_then(|_| domain::validate::plain_text(key, v));
            if let Err(e) = checked {
                errors.push(RowError::new(row, col(key), e.msg, e.args));
                ok = false;
            }
        }
        if let (Some(account_id), true) = (account, ok) {
            notes.push(db::AccountNote {
                account_id,
                group: Some(group.to_string()).filter(|g| !g.is_empty()),
                remarks: Some(remarks.to_string()).filter(|r| !r.is_empty()),
            });
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::rows_invalid(&errors));
    }
    let created = db::import_account_notes(d, mid, &notes).await?;
    Ok((notes.len(), created))
}
