//! Clip templates (`/clip.merchant_ai_clip_template/*`): the built-in recipes by industry and the
//! merchant's own, saved from a quick-mix or advanced project; "use template" fills a recipe's slots
//! with the merchant's shot groups and saves it as a project through the projects' own checks.

use crate::error::{ApiError, ApiResult};
use domain::clip::ProjectConfig;
use domain::clip::templates::{self as tpl, Candidate, Recipe};
use domain::i18n::Msg;
use store::Db;
use store::ListQuery;
use store::clip as projects_db;
use store::clip::templates as db;

/// A clip template.
pub use db::Template;
use store::materials as mat;

pub fn recipe_of(t: &db::Template) -> ApiResult<Recipe> {
    serde_json::from_str(&t.recipe).map_err(|e| ApiError::Internal(e.into()))
}

/// The categories (industries, then the merchant's own) with how many templates each holds.
pub async fn categories(db: &Db, mid: i64) -> ApiResult<Vec<(&'static str, i64)>> {
    let counts = db::category_counts(db, mid).await?;
    Ok(tpl::CATEGORIES
        .iter()
        .map(|(k, _, _)| {
            let n = counts
                .iter()
                .find(|(c, _)| c == k)
                .map(|(_, n)| *n)
                .unwrap_or(0);
            (*k, n)
        })
        .collect())
}

pub async fn get(db: &Db, mid: i64, uid: i64, id: i64) -> ApiResult<db::Template> {
    db::get(db, mid, uid, id).await?.ok_or(ApiError::NotFound)
}

/// Likes or unlikes a template the merchant sees.
pub async fn like(db: &Db, mid: i64, uid: i64, id: i64, liked: bool) -> ApiResult<bool> {
    get(db, mid, uid, id).await?;
    Ok(db::set_like(db, mid, uid, id, liked).await?)
}

/// The built-in tracks as (id, name, category), for picking music by mood.
async fn builtin_tracks(db: &Db) -> ApiResult<Vec<(i64, String, String)>> {
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (rows, _) = mat::system_music(db, &q).await?;
    let mut rows: Vec<_> = rows
        .into_iter()
        .map(|m| (m.id, m.name, m.category))
        .collect();
    rows.sort_by_key(|(id, _, _)| *id);
    Ok(rows)
}

/// "Save as template": the recipe of one of the merchant's projects (either mode), filed under `category`
/// (default: the merchant's own).
pub async fn save_from_project(
    db: &Db,
    mid: i64,
    project_id: i64,
    name: Option<&str>,
    category: Option<&str>,
) -> ApiResult<i64> {
    let p = projects_db::project(db, mid, project_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let cfg: ProjectConfig =
        serde_json::from_str(&p.config).map_err(|e| ApiError::Internal(e.into()))?;
    let mut names = vec![];
    for g in &cfg.groups {
        let n = mat::group(db, mid, g.group_id)
            .await?
            .map(|g| g.name)
            .unwrap_or_else(|| format!("#{}", g.group_id));
        names.push(n);
    }
    let mood = match cfg.music.as_ref().and_then(|m| m.system_music_id) {
        Some(id) => mat::system_music_one(db, id)
            .await?
            .and_then(|m| tpl::mood_of_track(&m.name, &m.category)),
        // The merchant's own music does not travel: a template of it plays a calm built-in track.
        None => cfg.music.as_ref().map(|_| "calm"),
    };
    let recipe = Recipe::from_config(&cfg, &names, &p.name, mood);
    recipe.validate()?;
    let name = super::projects::project_name(name.unwrap_or(&p.name))?;
    let category = category.unwrap_or(tpl::CUSTOM);
    if !tpl::CATEGORIES.iter().any(|(k, _, _)| *k == category) {
        return Err(ApiError::invalid_with(
            "category",
            Msg::InvalidValue,
            vec![(
                "reason",
                tpl::CATEGORIES
                    .iter()
                    .map(|(k, _, _)| *k)
                    .collect::<Vec<_>>()
                    .join(" | "),
            )],
        ));
    }
    let json = serde_json::to_string(&recipe).unwrap_or_default();
    Ok(db::add(db, mid, category, name, &json, p.id).await?)
}

/// The merchant's video groups as matching sees them.
pub async fn candidates(db: &Db, mid: i64) -> ApiResult<Vec<Candidate>> {
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = mat::groups(db, mid, "video", &q).await?;
    Ok(groups
        .into_iter()
        .map(|g| Candidate {
            id: g.id,
            name: g.name,
            ready: g.ready,
        })
        .collect())
}

/// The groups that fill a recipe's slots: the ones the merchant picked (in slot order, at least three,
/// at most one per slot), else the best-named of its groups with ready clips.
pub async fn fill(
    db: &Db,
    mid: i64,
    recipe: &Recipe,
    picked: Option<&[i64]>,
) -> ApiResult<Vec<i64>> {
    match picked.filter(|p| !p.is_empty()) {
        Some(ids) => {
            if ids.len() < domain::clip::planner::MIN_GROUPS {
                return Err(ApiError::invalid("group_ids", Msg::TooFewGroups));
            }
            super::projects::check_reuse(db, mid, "group_ids", ids).await?;
            if ids.len() > recipe.slots.len() {
                return Err(ApiError::invalid_with(
                    "group_ids",
                    Msg::InvalidValue,
                    vec![("reason", format!("≤ {} slots", recipe.slots.len()))],
                ));
            }
            Ok(ids.to_vec())
        }
        None => Ok(tpl::match_groups(
            &recipe.slots,
            &candidates(db, mid).await?,
        )?),
    }
}

/// "Use template": a new project of the merchant's named `name` from a template, its slots filled by
/// `picked` or by matching, the mood's built-in track as music; saved through the projects' checks
/// (so every group must be the merchant's).
pub async fn use_template(
    db: &Db,
    mid: i64,
    uid: i64,
    id: i64,
    name: &str,
    picked: Option<&[i64]>,
) -> ApiResult<projects_db::Project> {
    let t = get(db, mid, uid, id).await?;
    let recipe = recipe_of(&t)?;
    let name = super::projects::project_name(name)?;
    let groups = fill(db, mid, &recipe, picked).await?;
    let music = match &recipe.music {
        Some(m) => tpl::track_for_mood(&m.mood, &builtin_tracks(db).await?),
        None => None,
    };
    let cfg = recipe.to_config(&groups, name, music, None);
    let p = super::projects::save(db, mid, recipe.mode(), None, name, &cfg).await?;
    db::used(db, t.id).await?;
    Ok(p)
}

/// Deletes one of the merchant's own templates (built-in ones are not the merchant's: 404).
pub async fn delete(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    if db::delete(db, mid, id).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// One page of the templates a user sees (`liked`: only those they liked).
pub async fn list(
    d: &Db,
    mid: i64,
    uid: i64,
    liked: bool,
    q: &ListQuery,
) -> ApiResult<(Vec<Template>, store::list::Total)> {
    Ok(db::list(d, mid, uid, liked, q).await?)
}
