//! Who takes leads: the merchant's active staff whose menus or roles grant the leads list. Leads are
//! assigned among them and the WeChat notices go to them.

use store::Db;
use store::engagement as db;

/// The permission of the leads list: staff holding it take leads in turn.
const LEADS_MENU: &str = "msg/merchant_clue/index";

/// The merchant's active staff who may work on leads (a granted menu or role has the leads list),
/// by id: the round-robin's candidates, and whom a lead may be assigned to by hand.
pub async fn candidates(d: &Db) -> sqlx::Result<CandidateRules> {
    let menus = store::system::menus::all(d).await?;
    let roles = store::system::menus::roles(d).await?;
    Ok(CandidateRules {
        menu_ids: menus
            .iter()
            .filter(|m| domain::permission::granted(&m.grants(), LEADS_MENU))
            .map(|m| m.id)
            .collect(),
        role_ids: roles
            .iter()
            .filter(|r| domain::permission::granted(&r.permissions(), LEADS_MENU))
            .map(|r| r.id)
            .collect(),
    })
}

/// Which menus and roles grant the leads list.
pub struct CandidateRules {
    menu_ids: Vec<i64>,
    role_ids: Vec<i64>,
}

/// The staff of a merchant who take leads: (id, nickname).
pub async fn lead_staff(d: &Db, mid: i64) -> sqlx::Result<Vec<(i64, String)>> {
    let rules = candidates(d).await?;
    let ids = |json: &str| serde_json::from_str::<Vec<i64>>(json).unwrap_or_default();
    Ok(db::active_staff(d, mid)
        .await?
        .into_iter()
        .filter(|(_, _, menus, roles)| {
            ids(menus).iter().any(|m| rules.menu_ids.contains(m))
                || ids(roles).iter().any(|r| rules.role_ids.contains(r))
        })
        .map(|(id, nick, _, _)| (id, nick))
        .collect())
}
