//! The signed-in user's personal API tokens (`services::auth::tokens`): list, create (the token is in
//! that one answer only), revoke. A call with a token (`Authorization: Bearer cmx_…`) is checked by
//! `guard` like its owner's session, then against the token's scopes; these three calls are a
//! session's only (`domain::permission::SESSION_ONLY`).

use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::permission::TokenScope;
use serde::{Deserialize, Serialize};
use services::auth::tokens as uc;
use utoipa::ToSchema;

/// One of the user's API tokens as the list shows it (never the token itself).
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiTokenView {
    pub id: i64,
    pub name: String,
    /// The token's first characters, to tell tokens apart.
    pub hint: String,
    pub scopes: Vec<TokenScope>,
    pub expires_at: i64,
    /// Null: never used.
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub created_at: i64,
    /// Neither revoked nor expired.
    pub active: bool,
}

impl ApiTokenView {
    fn of(t: &uc::Token, now: i64) -> ApiTokenView {
        ApiTokenView {
            id: t.id,
            name: t.name.clone(),
            hint: t.hint.clone(),
            scopes: uc::scopes(t),
            expires_at: t.expires_at,
            last_used_at: t.last_used_at,
            revoked_at: t.revoked_at,
            created_at: t.created_at,
            active: t.revoked_at.is_none() && t.expires_at > now,
        }
    }
}

/// A new token: its row, and the token itself, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedApiToken {
    #[serde(flatten)]
    pub row: ApiTokenView,
    /// `cmx_…`: send as `Authorization: Bearer <token>`. Not kept by the server.
    pub token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ApiTokenReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub scopes: Vec<TokenScope>,
    /// 1 to 365.
    #[schema(minimum = 1, maximum = 365)]
    pub expires_in_days: i64,
}

#[utoipa::path(get, path = "/index/apiTokens", tag = "auth", responses((status = 200, body = Reply<Page<ApiTokenView>>, description = "the caller's API tokens, newest first")))]
pub async fn list(State(st): State<AppState>, c: Caller) -> Answer<Page<ApiTokenView>> {
    let now = st.db.clock.platform_now();
    let rows = uc::list(&st.db, &c.user).await?;
    Ok(reply(Page::whole(
        rows.iter().map(|t| ApiTokenView::of(t, now)).collect(),
    )))
}

#[utoipa::path(post, path = "/index/addApiToken", tag = "auth", request_body = ApiTokenReq, responses((status = 200, body = Reply<CreatedApiToken>, description = "made; `token` is shown this once")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ApiTokenReq>,
) -> Answer<CreatedApiToken> {
    let now = st.db.clock.platform_now();
    let (row, token) = uc::create(
        &st.db,
        &c.user,
        now,
        &uc::NewToken {
            name: &r.name,
            scopes: &r.scopes,
            expires_in_days: r.expires_in_days,
        },
    )
    .await?;
    Ok(reply(CreatedApiToken {
        row: ApiTokenView::of(&row, now),
        token,
    }))
}

#[utoipa::path(post, path = "/index/revokeApiToken", tag = "auth", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "revoked: refused from the next call on")))]
pub async fn revoke(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::revoke(&st.db, &c.user, r.id, st.db.clock.platform_now()).await?;
    Ok(reply(Done {}))
}
