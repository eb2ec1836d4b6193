//! Operator calls: reviewing release tasks (`/system/audit/*`, console `/auditCheck`, SPEC §4 review
//! SLA) and platform app credentials (`/system/app/*`, sealed at rest, never returned in full).

use super::hub::platform;
use super::tasks::lists::{ItemQuery, list_items, task_view};
use crate::LangOf;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clock::platform_now;
use domain::i18n::Msg;
use platforms::{AuthKind, Platform};
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct AuditIndex {
    #[serde(flatten)]
    pub list: ListQuery,
    pub review_state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/audit/index", tag = "system", responses((status = 200, description = "every merchant's tasks, those under review first")))]
pub async fn index(
    State(st): State<AppState>,
    _c: Caller,
    Input(q): Input<AuditIndex>,
) -> ApiResult<Json> {
    let lq = q.list.with_filter(
        "review_state",
        q.review_state.as_deref().filter(|s| !s.is_empty()),
        "=",
    );
    let (rows, total) = db::audit_tasks(&st.db, &lq).await?;
    let mut out = vec![];
    for t in &rows {
        out.push(task_view(&st, t).await?);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(method(get, post), path = "/system/audit/detail", tag = "system", responses((status = 200, description = "{task, items}")))]
pub async fn detail(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let t = db::task(&st.db, None, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let q = ItemQuery {
        list: ListQuery {
            limit: Some(1000),
            ..Default::default()
        },
        task_id: Some(t.id),
        state: None,
    };
    let items = list_items(&st, None, q, lang).await?;
    Ok(ok(
        serde_json::json!({"task": task_view(&st, &t).await?, "items": items["rows"]}),
    ))
}

#[utoipa::path(post, path = "/system/audit/approve", tag = "system", request_body = IdReq, responses((status = 200, description = "the task, approved")))]
pub async fn approve(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    db::task(&st.db, None, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if !db::review(&st.db, r.id, true, "", platform_now()).await? {
        return Err(ApiError::invalid("id", Msg::NotReviewing));
    }
    let t = db::task(&st.db, None, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(task_view(&st, &t).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RejectReq {
    pub id: i64,
    #[serde(default)]
    pub reason: String,
}

#[utoipa::path(post, path = "/system/audit/reject", tag = "system", request_body = RejectReq, responses((status = 200, description = "the task, rejected; its items fail with the reason")))]
pub async fn reject(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<RejectReq>,
) -> ApiResult<Json> {
    let reason = r.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::invalid("reason", Msg::ReasonRequired));
    }
    domain::validate::max_chars("reason", reason, domain::matrix::REASON_MAX)?;
    db::task(&st.db, None, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if !db::review(&st.db, r.id, false, reason, platform_now()).await? {
        return Err(ApiError::invalid("id", Msg::NotReviewing));
    }
    let t = db::task(&st.db, None, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(task_view(&st, &t).await?))
}

// ---- platform apps ----

#[utoipa::path(method(get, post), path = "/system/app/index", tag = "system", responses((status = 200, description = "{rows:[{platform, auth_kind, configured, client_key (masked), mode, base_url}]}")))]
pub async fn apps(State(st): State<AppState>, _c: Caller) -> ApiResult<Json> {
    let saved = db::apps(&st.db).await?;
    let mut rows = vec![];
    for p in Platform::ALL {
        let s = saved.iter().find(|(k, _, _)| k == p.code());
        let (_, sandbox) = match st.hub.adapter(p).await {
            Ok(x) => (Some(x.0), x.1),
            Err(_) => (None, false),
        };
        rows.push(serde_json::json!({
            "platform": p.code(),
            "auth_kind": match p.auth_kind() { AuthKind::OAuth => "oauth", AuthKind::QrSession => "qr_session", AuthKind::AppToken => "app_token" },
            "configured": s.is_some(),
            "client_key": s.map(|(_, k, _)| store::secrets::mask(k)).unwrap_or_default(),
            "mode": if sandbox { "sandbox" } else { "live" },
        }));
    }
    Ok(ok(serde_json::json!({"rows": rows})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AppReq {
    #[serde(default)]
    pub platform: String,
    #[serde(default)]
    pub client_key: String,
    #[serde(default)]
    pub client_secret: String,
}

#[utoipa::path(post, path = "/system/app/save", tag = "system", request_body = AppReq, responses((status = 200, description = "saved (the secret is sealed and never returned)")))]
pub async fn app_save(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<AppReq>,
) -> ApiResult<Json> {
    let p = platform(&r.platform)?;
    if p.auth_kind() != AuthKind::OAuth {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy | ks".into())],
        ));
    }
    let (key, secret) = (r.client_key.trim(), r.client_secret.trim());
    domain::validate::required("client_key", key)?;
    domain::validate::required("client_secret", secret)?;
    if key.len() > 128 || secret.len() > 256 {
        return Err(ApiError::invalid_with(
            "client_secret",
            Msg::TooLong,
            vec![("max", "256".into())],
        ));
    }
    db::save_app(&st.db, p.code(), key, &st.hub.sealer.seal(secret)).await?;
    Ok(ok(
        serde_json::json!({"platform": p.code(), "client_key": store::secrets::mask(key)}),
    ))
}

#[utoipa::path(post, path = "/system/app/clear", tag = "system", request_body = AppReq, responses((status = 200, description = "cleared: the platform goes back to the sandbox")))]
pub async fn app_clear(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<AppReq>,
) -> ApiResult<Json> {
    let p = platform(&r.platform)?;
    db::clear_app(&st.db, p.code()).await?;
    Ok(ok(serde_json::json!({})))
}
