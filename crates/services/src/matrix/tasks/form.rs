//! What the release-task form offers to pick: accounts (and whether session platforms are online),
//! groups with their accounts, mini programs used before, the @-mention ("aite") users.

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, platform};
use store::ListQuery;
use store::matrix as db;

/// Accounts of the session platforms (sph, xhs, shop) and whether their session works now.
pub async fn online(
    hub: &Hub,
    mid: i64,
    platform_code: Option<&str>,
) -> ApiResult<Vec<(db::Account, bool)>> {
    let lq = ListQuery {
        limit: Some(200),
        ..Default::default()
    }
    .with_filter("platform", platform_code, "=");
    let (rows, _) = db::accounts(
        &hub.db,
        mid,
        Some("a.platform IN ('sph', 'xhs', 'shop')".into()),
        &lq,
    )
    .await?;
    // Checked side by side (the browser flows bound how many consoles are open at once); each
    // result is kept on the account, which the accounts list shows.
    let checks = rows.into_iter().map(|a| async move {
        let now = hub.db.clock.platform_now();
        let res = match hub.adapter_for(&a).await {
            Ok(ad) => ad.check(&hub.creds(&a)).await,
            Err(e) => return Err(e),
        };
        let reason = res
            .as_ref()
            .err()
            .map(crate::platform::platform_reason)
            .unwrap_or_default();
        let online = a.revoked == 0 && res.is_ok();
        db::set_checked(&hub.db, a.id, now, res.is_ok(), &reason).await?;
        Ok((a, online))
    });
    let mut out = vec![];
    for r in futures_util::future::join_all(checks).await {
        out.push(r?);
    }
    Ok(out)
}

/// Every group with its selectable accounts (id 0 = ungrouped, listed when it has any).
pub async fn groups_with_accounts(
    d: &store::Db,
    mid: i64,
    platform_code: Option<&str>,
) -> ApiResult<Vec<(i64, String, Vec<db::Account>)>> {
    let all = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = db::groups(d, mid, &all).await?;
    let lq = all.with_filter("platform", platform_code, "=");
    let accounts = crate::matrix::accounts::selectable(d, mid, &lq).await?;
    let mut rows = vec![];
    for (id, name) in
        std::iter::once((0, String::new())).chain(groups.iter().map(|g| (g.id, g.name.clone())))
    {
        let mine: Vec<db::Account> = accounts
            .iter()
            .filter(|a| a.group_id == id)
            .cloned()
            .collect();
        if id == 0 && mine.is_empty() {
            continue;
        }
        rows.push((id, name, mine));
    }
    Ok(rows)
}

/// A mini program used by one of the merchant's tasks.
pub struct MiniProgram {
    pub mini_app_id: String,
    pub title: Option<String>,
    pub url: Option<String>,
}

/// The mini programs of the merchant's recent tasks, each once.
pub async fn mini_programs(d: &store::Db, mid: i64) -> ApiResult<Vec<MiniProgram>> {
    let mut rows: Vec<MiniProgram> = vec![];
    for cfg in db::task_configs(d, mid, 200).await? {
        let id = cfg.mount.mini_app_id;
        if !id.is_empty() && !rows.iter().any(|r| r.mini_app_id == id) {
            rows.push(MiniProgram {
                mini_app_id: id,
                title: Some(cfg.mount.mini_app_title),
                url: Some(cfg.mount.mini_app_url),
            });
        }
    }
    Ok(rows)
}

/// Adds an @-mention user (the nickname without its `@`).
pub async fn add_mention(
    d: &store::Db,
    mid: i64,
    platform_code: &str,
    nickname: &str,
) -> ApiResult<()> {
    let p = platform(platform_code)?;
    let nick = nickname.trim().trim_start_matches('@');
    domain::validate::required("nickname", nick)?;
    domain::validate::max_chars("nickname", nick, domain::matrix::GROUP_NAME_MAX)?;
    db::add_aite_user(d, mid, p.code(), nick).await?;
    Ok(())
}

/// Deletes an @-mention user.
pub async fn delete_mention(d: &store::Db, mid: i64, id: i64) -> ApiResult<()> {
    if !db::delete_aite_user(d, mid, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// The merchant's @-mention users (of one platform, when given).
pub async fn aite_users(
    d: &store::Db,
    mid: i64,
    platform: Option<&str>,
) -> ApiResult<Vec<db::AiteUser>> {
    Ok(db::aite_users(d, mid, platform).await?)
}
