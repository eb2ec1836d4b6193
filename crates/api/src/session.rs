//! Tokens and callers: a JWT names a server-side session, so a password change or a removed account
//! ends it at once (body code 401), while a bad or expired token is an HTTP 401.

use crate::areas::auth::views::{LoginResultView, UserRecordView};
use crate::error::{ApiError, ApiResult};
use crate::extract::Caller;
use crate::state::AppState;
use domain::i18n::Msg;
use domain::{UserKind, now_ms};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};
use store::auth::users::{Session, User};

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sid: String,
    pub sub: i64,
    pub exp: i64,
    pub iat: i64,
}

pub fn issue(st: &AppState, s: &Session) -> ApiResult<String> {
    let claims = Claims {
        sid: s.id.clone(),
        sub: s.user_id,
        exp: s.expires_at / 1000,
        iat: now_ms() / 1000,
    };
    encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(&st.jwt_key),
    )
    .map_err(|e| ApiError::Internal(e.into()))
}

pub fn decode_token(st: &AppState, token: &str) -> ApiResult<Claims> {
    let mut v = Validation::new(Algorithm::HS256);
    v.leeway = 0;
    decode::<Claims>(token, &DecodingKey::from_secret(&st.jwt_key), &v)
        .map(|d| d.claims)
        .map_err(|_| ApiError::Unauthorized(Msg::TokenInvalid))
}

/// The bearer token of a request (`Authorization: Bearer` or the `token` header).
pub fn token_of(headers: &axum::http::HeaderMap) -> Option<String> {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    if let Some(a) = auth {
        let t = a
            .strip_prefix("Bearer ")
            .or_else(|| a.strip_prefix("bearer "))
            .unwrap_or(a)
            .trim();
        if !t.is_empty() {
            return Some(t.to_string());
        }
    }
    headers
        .get("token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// Resolves a token to the caller, or the error the SPEC asks for: a session's JWT, or a personal
/// API token (`services::auth::tokens`), whose caller is its owner's as a session would make it (the
/// owner's menus read now, so a menu taken away applies to the next call) with the token's scopes.
pub async fn caller_of(st: &AppState, token: &str) -> ApiResult<Caller> {
    if services::auth::tokens::is_token(token) {
        return token_caller(st, token).await;
    }
    let claims = decode_token(st, token)?;
    let session = store::auth::users::session(&st.db, &claims.sid)
        .await?
        .ok_or(ApiError::SessionRevoked)?;
    if session.revoked_at.is_some() {
        return Err(ApiError::SessionRevoked);
    }
    if session.expires_at <= now_ms() {
        return Err(ApiError::Unauthorized(Msg::TokenInvalid));
    }
    let (user, merchant) = active_user(st, session.user_id).await?;
    build_caller(st, user, merchant, &session).await
}

async fn token_caller(st: &AppState, secret: &str) -> ApiResult<Caller> {
    use services::auth::tokens;
    let now = st.db.clock.platform_now();
    let t = tokens::resolve(&st.db, secret, now).await?;
    let (user, merchant) = active_user(st, t.user_id).await?;
    if user.merchant_id != Some(t.merchant_id) {
        return Err(ApiError::SessionRevoked);
    }
    // The token stands in for a session: none of the session's own calls are open to it.
    let session = Session {
        id: String::new(),
        user_id: t.user_id,
        remember: 0,
        proxy_user: None,
        created_at: t.created_at,
        expires_at: t.expires_at,
        revoked_at: None,
    };
    let mut c = build_caller(st, user, merchant, &session).await?;
    c.token = Some(crate::extract::TokenGrant {
        id: t.id,
        scopes: tokens::scopes(&t),
        name: t.name,
    });
    Ok(c)
}

/// The user of a session or a token, with their merchant, if both are still enabled.
async fn active_user(
    st: &AppState,
    user_id: i64,
) -> ApiResult<(User, Option<store::auth::users::Merchant>)> {
    let user = store::auth::users::user_by_id(&st.db, user_id)
        .await?
        .ok_or(ApiError::SessionRevoked)?;
    if user.status == 0 {
        return Err(ApiError::SessionRevoked);
    }
    let merchant = match user.merchant_id {
        Some(id) => Some(
            store::auth::users::merchant_by_id(&st.db, id)
                .await?
                .ok_or(ApiError::SessionRevoked)?,
        ),
        None => None,
    };
    if merchant.as_ref().is_some_and(|m| m.status == 0) {
        return Err(ApiError::SessionRevoked);
    }
    Ok((user, merchant))
}

pub async fn build_caller(
    st: &AppState,
    user: User,
    merchant: Option<store::auth::users::Merchant>,
    session: &Session,
) -> ApiResult<Caller> {
    let kind = user.kind;
    let mut roles = vec![match kind {
        UserKind::Operator => "Administrator".to_string(),
        UserKind::Merchant => "merchant".to_string(),
        UserKind::Staff => "staff".to_string(),
    }];
    if merchant.as_ref().is_some_and(|m| m.is_vip()) {
        roles.push("vip".into());
    }
    let mut grants: Vec<String> = match kind {
        UserKind::Operator | UserKind::Merchant => vec!["*/*/*".into()],
        UserKind::Staff => {
            let ids = user.menu_ids();
            let menus = st.menus.read().await;
            menus
                .iter()
                .filter(|m| ids.contains(&m.id) && m.admin == 0)
                .flat_map(|m| m.grants())
                .collect()
        }
    };
    let role_ids = user.role_ids();
    if !role_ids.is_empty() {
        for r in store::system::menus::roles(&st.db)
            .await?
            .into_iter()
            .filter(|r| role_ids.contains(&r.id))
        {
            grants.extend(
                r.permissions()
                    .into_iter()
                    .filter(|p| !p.starts_with("system/")),
            );
            roles.push(r.name);
        }
    }
    grants.sort();
    grants.dedup();
    Ok(Caller {
        user,
        merchant,
        kind,
        session_id: session.id.clone(),
        remember: session.remember == 1,
        proxy_user: session.proxy_user.clone(),
        roles,
        grants,
        token: None,
    })
}

/// Starts a session for a user who just proved who they are, and answers the LoginResult.
pub async fn sign_in(
    st: &AppState,
    user: User,
    remember: bool,
    proxy_user: Option<&str>,
) -> ApiResult<LoginResultView> {
    let session =
        services::auth::signin::start_session(&st.db, &user, remember, proxy_user).await?;
    let merchant = match user.merchant_id {
        Some(id) => store::auth::users::merchant_by_id(&st.db, id).await?,
        None => None,
    };
    let caller = build_caller(st, user, merchant, &session).await?;
    login_result(st, &caller, &session)
}

pub fn login_result(st: &AppState, c: &Caller, s: &Session) -> ApiResult<LoginResultView> {
    Ok(LoginResultView {
        token: issue(st, s)?,
        expires_at: s.expires_at,
        remember: s.remember == 1,
        user: UserRecordView::of(c),
    })
}
