//! The operator's side of the matrix: reviewing release tasks (SPEC §4 review SLA) and the
//! platforms' app credentials (sealed at rest, never returned in full).

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, platform};
use domain::i18n::Msg;
use domain::matrix::Review;
use platforms::{AuthKind, Platform};
use store::matrix as db;

/// Approves a task under review: its items may go out at their times.
pub async fn approve(d: &store::Db, id: i64) -> ApiResult<db::Task> {
    decide(d, id, Review::Approved, "").await
}

/// Rejects a task under review with the operator's reason; its items fail with it.
pub async fn reject(d: &store::Db, id: i64, reason: &str) -> ApiResult<db::Task> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(ApiError::invalid("reason", Msg::ReasonRequired));
    }
    domain::validate::max_chars("reason", reason, domain::matrix::REASON_MAX)?;
    decide(d, id, Review::Rejected, reason).await
}

async fn decide(d: &store::Db, id: i64, to: Review, reason: &str) -> ApiResult<db::Task> {
    super::tasks::task(d, None, id).await?;
    if !db::decide_review(d, id, to, reason, d.clock.platform_now()).await? {
        return Err(ApiError::invalid("id", Msg::NotReviewing));
    }
    super::tasks::task(d, None, id).await
}

/// A platform's app configuration as the operator sees it.
pub struct App {
    pub platform: Platform,
    pub configured: bool,
    /// Masked.
    pub client_key: String,
    /// Where its calls go now (its own setting, else the default).
    pub mode: domain::matrix::AppMode,
    /// Whether the operator set the mode (else it follows the deployment's default).
    pub mode_set: bool,
    /// Why calls cannot go out in this mode (not configured, the sandbox not running…); None: they can.
    pub blocked: Option<String>,
    /// The last page check of a creator-console platform (None: never ran, or not a console one).
    pub canary: Option<domain::matrix::canary::CanaryState>,
}

/// Every platform: configured or not, its mode, and why its calls cannot go out (truthfully: a
/// platform that cannot be reached is not called live).
pub async fn apps(hub: &Hub, lang: domain::i18n::Lang) -> ApiResult<Vec<App>> {
    let saved = db::apps(&hub.db).await?;
    let mut rows = vec![];
    for p in Platform::ALL {
        let s = saved.iter().find(|(k, _, _)| k == p.code());
        let (mode, mode_set) = hub.mode(p.code(), s.is_some()).await?;
        let blocked = match hub.adapter(p).await {
            Ok(_) => None,
            Err(e) => Some(e.in_words(lang)),
        };
        rows.push(App {
            platform: p,
            configured: s.is_some(),
            client_key: s
                .map(|(_, k, _)| store::secrets::mask(k))
                .unwrap_or_default(),
            mode,
            mode_set,
            blocked,
            canary: super::canary::state(&hub.db, p).await?,
        });
    }
    Ok(rows)
}

/// What has a mode on Platform apps: a platform's code, or an outside service's (`wechat`).
fn moded(code: &str) -> ApiResult<String> {
    if code == crate::platform::WECHAT {
        return Ok(code.to_string());
    }
    Ok(platform(code)?.code().to_string())
}

/// Sets a platform's or an outside service's mode (`live`, `sandbox`, `off`; empty: the default).
pub async fn set_mode(hub: &Hub, code: &str, mode: &str) -> ApiResult<()> {
    let code = moded(code)?;
    let mode = match mode.trim() {
        "" | "default" => None,
        m => Some(domain::matrix::AppMode::parse(m).ok_or_else(|| {
            ApiError::invalid_with(
                "mode",
                Msg::InvalidValue,
                vec![("reason", "live | sandbox | off | default".into())],
            )
        })?),
    };
    hub.set_mode(&code, mode).await
}

/// Saves an OAuth platform's app credentials (the secret sealed); the platform and the masked key.
pub async fn save_app(
    hub: &Hub,
    platform_code: &str,
    key: &str,
    secret: &str,
) -> ApiResult<(Platform, String)> {
    let p = platform(platform_code)?;
    if p.auth_kind() != AuthKind::OAuth {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy | ks".into())],
        ));
    }
    let (key, secret) = (key.trim(), secret.trim());
    domain::validate::required("client_key", key)?;
    domain::validate::required("client_secret", secret)?;
    if key.len() > 128 || secret.len() > 256 {
        return Err(ApiError::invalid_with(
            "client_secret",
            Msg::TooLong,
            vec![("max", "256".into())],
        ));
    }
    db::save_app(&hub.db, p.code(), key, &hub.sealer.seal(secret)).await?;
    Ok((p, store::secrets::mask(key)))
}

/// Clears a platform's app credentials: it goes back to the sandbox.
pub async fn clear_app(d: &store::Db, platform_code: &str) -> ApiResult<()> {
    let p = platform(platform_code)?;
    db::clear_app(d, p.code()).await?;
    Ok(())
}

/// The data vendor's configuration as the operator sees it (TikHub, `platforms::vendor`).
pub struct VendorApp {
    pub configured: bool,
    /// Masked.
    pub api_key: String,
    /// Where the SEO pages' vendor figures come from now: `tikhub`, `sandbox` or `none`.
    pub source: domain::seo::DataSource,
}

pub async fn vendor_app(hub: &Hub) -> ApiResult<VendorApp> {
    let saved = db::apps(&hub.db).await?;
    let s = saved
        .iter()
        .find(|(k, _, _)| k == platforms::vendor::TIKHUB);
    let source = match hub.vendor().await? {
        Some((_, src)) => src,
        None => domain::seo::DataSource::None,
    };
    Ok(VendorApp {
        configured: s.is_some(),
        api_key: s
            .and_then(|(_, _, sec)| hub.sealer.open(sec))
            .map(|k| store::secrets::mask(&k))
            .unwrap_or_default(),
        source,
    })
}

/// Saves the data vendor's API key, sealed like the platforms' app secrets.
pub async fn save_vendor(hub: &Hub, api_key: &str) -> ApiResult<String> {
    let key = api_key.trim();
    domain::validate::required("api_key", key)?;
    if key.len() > domain::seo::VENDOR_KEY_MAX {
        return Err(ApiError::invalid_with(
            "api_key",
            Msg::TooLong,
            vec![("max", domain::seo::VENDOR_KEY_MAX.to_string())],
        ));
    }
    db::save_app(
        &hub.db,
        platforms::vendor::TIKHUB,
        "",
        &hub.sealer.seal(key),
    )
    .await?;
    Ok(store::secrets::mask(key))
}

/// Clears the data vendor's key: the sandbox's imitation answers (sandbox on), else no source.
pub async fn clear_vendor(d: &store::Db) -> ApiResult<()> {
    db::clear_app(d, platforms::vendor::TIKHUB).await?;
    Ok(())
}

/// One page of the tasks the operator reviews (every merchant's).
pub async fn list(
    d: &store::Db,
    q: &store::ListQuery,
) -> ApiResult<(Vec<db::Task>, store::list::Total)> {
    Ok(db::audit_tasks(d, q).await?)
}
