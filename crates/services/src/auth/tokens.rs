//! Personal API tokens (issue 44): a merchant or a staff member makes named tokens with scopes and an
//! expiry, sees them listed with their last use, and revokes them. The token is shown once, when it
//! is made; only its hash is kept. A call with a token is checked like a session of its owner (the
//! owner's menus, read afresh on every call) and, on top, against the token's scopes
//! (`domain::permission::token_allows`). Expiry is on the product's clock (`Clock::platform_now`).

use crate::error::{ApiError, ApiResult};
use domain::UserKind;
use domain::i18n::Msg;
use domain::permission::TokenScope;
use domain::validate;
use store::Db;
use store::auth::tokens::{self as db, ApiToken};
use store::auth::users::User;

/// What every token starts with: tells a token from a session's JWT, and a leaked one in a log.
pub const PREFIX: &str = "cmx_";
pub const NAME_MAX: usize = 50;
/// The longest a token may live.
pub const EXPIRY_DAYS_MAX: i64 = 365;
/// Active tokens one user may hold.
pub const ACTIVE_MAX: i64 = 20;
/// A token's last use is written at most this often.
const TOUCH_EVERY_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

pub use store::auth::tokens::ApiToken as Token;

/// A token's scopes, read from its row (an unknown word, from a newer version, is left out).
pub fn scopes(t: &ApiToken) -> Vec<TokenScope> {
    t.scopes
        .split(',')
        .filter_map(|s| TokenScope::parse(s.trim()))
        .collect()
}

/// What the create form sends.
pub struct NewToken<'a> {
    pub name: &'a str,
    pub scopes: &'a [TokenScope],
    pub expires_in_days: i64,
}

/// Makes a token of `user`'s; answers its row and the token itself (shown once).
pub async fn create(
    db: &Db,
    user: &User,
    now: i64,
    t: &NewToken<'_>,
) -> ApiResult<(ApiToken, String)> {
    let merchant_id = match (user.kind, user.merchant_id) {
        (UserKind::Merchant | UserKind::Staff, Some(m)) => m,
        _ => return Err(ApiError::forbidden(Msg::MerchantOnly)),
    };
    let name = t.name.trim();
    validate::required("name", name)?;
    validate::plain_text("name", name)?;
    validate::max_chars("name", name, NAME_MAX)?;
    if t.scopes.is_empty() {
        return Err(ApiError::invalid("scopes", Msg::ApiTokenScopes));
    }
    if !(1..=EXPIRY_DAYS_MAX).contains(&t.expires_in_days) {
        return Err(ApiError::invalid_with(
            "expires_in_days",
            Msg::ApiTokenExpiry,
            vec![("max", EXPIRY_DAYS_MAX.to_string())],
        ));
    }
    if db::active_count(db, user.id, now).await? >= ACTIVE_MAX {
        return Err(ApiError::invalid_with(
            "name",
            Msg::ApiTokensMax,
            vec![("max", ACTIVE_MAX.to_string())],
        ));
    }
    // 32 bytes of randomness (43 base62 characters).
    let secret = format!("{PREFIX}{}", store::random_token(32));
    let mut words: Vec<&str> = TokenScope::ALL
        .iter()
        .filter(|s| t.scopes.contains(*s))
        .map(|s| s.as_str())
        .collect();
    words.dedup();
    let row = db::create(
        db,
        &db::NewToken {
            merchant_id,
            user_id: user.id,
            name,
            secret: &secret,
            hint: &secret[..PREFIX.len() + 4],
            scopes: &words.join(","),
            expires_at: now + t.expires_in_days * DAY_MS,
            now,
        },
    )
    .await?;
    Ok((row, secret))
}

pub async fn list(db: &Db, user: &User) -> ApiResult<Vec<ApiToken>> {
    Ok(db::of_user(db, user.id).await?)
}

/// Revokes one of the user's tokens: refused from the next call on. Another user's id is 404.
pub async fn revoke(db: &Db, user: &User, id: i64, now: i64) -> ApiResult<()> {
    if db::revoke(db, user.id, id, now).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// Whether a presented credential is an API token (not a session's JWT).
pub fn is_token(credential: &str) -> bool {
    credential.starts_with(PREFIX)
}

/// The token a credential names, if it is still good at `now` (not revoked, not expired); records
/// its use. A bad, revoked or expired token is a 401 like an ended sign-in.
pub async fn resolve(db: &Db, secret: &str, now: i64) -> ApiResult<ApiToken> {
    let t = db::by_secret(db, secret)
        .await?
        .ok_or(ApiError::Unauthorized(Msg::TokenInvalid))?;
    if t.revoked_at.is_some() || t.expires_at <= now {
        return Err(ApiError::Unauthorized(Msg::TokenInvalid));
    }
    // The row just read says whether its last use is recent: most calls write nothing.
    if t.last_used_at.is_none_or(|at| at <= now - TOUCH_EVERY_MS) {
        db::touch(db, t.id, now, TOUCH_EVERY_MS).await?;
    }
    Ok(t)
}
