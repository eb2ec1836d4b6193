//! The merchant's libraries: rename, delete (refused while in use), move into shot groups; groups and
//! the classify tree. `may_write` is the caller's permission check on a library (the HTTP layer's).

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::materials::GroupKind;
use domain::validate;
use store::Db;
use store::ListQuery;
use store::list::Total;
use store::materials as mat;

/// What the library calls read: a material, a shot group, a classify, a file type.
pub use mat::{AsrLine, Classify, FileType, Group, MediaFile};

/// Renames a material (1–120 characters).
pub async fn rename(
    db: &Db,
    mid: i64,
    id: i64,
    name: &str,
    may_write: impl Fn(&str) -> ApiResult<()>,
) -> ApiResult<()> {
    let name = name.trim();
    validate::required("name", name)?;
    validate::plain_text("name", name)?;
    validate::max_chars("name", name, 120)?;
    let m = mat::get(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    may_write(&m.library)?;
    if !mat::rename(db, mid, id, name).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// Deletes materials and their files, all or nothing: each must be the merchant's, in a library the
/// caller may change, and used by nothing.
pub async fn delete(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    ids: &[i64],
    may_write: impl Fn(&str) -> ApiResult<()>,
) -> ApiResult<()> {
    // Check every one first, so a refused id leaves the others untouched too.
    for id in ids {
        let m = mat::get(db, mid, *id).await?.ok_or(ApiError::NotFound)?;
        may_write(&m.library)?;
        let uses = mat::uses(db, mid, *id).await?;
        if !uses.is_empty() {
            return Err(ApiError::invalid_with(
                "id",
                Msg::MaterialInUse,
                vec![("uses", uses.join(", "))],
            ));
        }
    }
    for id in ids {
        for key in mat::delete(db, mid, *id).await?.unwrap_or_default() {
            // A voice material's downloadable copy (with the AI cue) goes with it.
            let cued = super::serve::cued_key(&key);
            let also = (key.ends_with(".m4a") && storage.exists(&cued).await).then_some(cued);
            for key in std::iter::once(key).chain(also) {
                if let Err(e) = storage.delete(&key).await {
                    tracing::warn!(%key, error = %e, "could not remove a deleted material's file");
                }
            }
        }
    }
    Ok(())
}

/// Moves videos and images into a shot group, all or nothing; returns how many moved.
pub async fn move_to_group(
    db: &Db,
    mid: i64,
    group_id: i64,
    ids: &[i64],
    may_write: impl Fn(&str) -> ApiResult<()>,
) -> ApiResult<usize> {
    mat::group(db, mid, group_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if ids.is_empty() {
        return Err(ApiError::invalid("ids", Msg::Required));
    }
    may_write("resource")?;
    for id in ids {
        let m = mat::get(db, mid, *id).await?.ok_or(ApiError::NotFound)?;
        may_write(&m.library)?;
        if m.kind != domain::materials::MediaKind::Video
            && m.kind != domain::materials::MediaKind::Image
        {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::FileTypeNotAllowed,
                vec![("allowed", "video, image".into())],
            ));
        }
    }
    for id in ids {
        mat::move_to_group(db, mid, *id, group_id).await?;
    }
    Ok(ids.len())
}

/// A group or classify name: 1–50 characters.
/// The most characters a material group's or classification's name may have.
pub const GROUP_NAME_MAX: usize = 50;

pub fn group_name(name: &str) -> ApiResult<&str> {
    let n = name.trim();
    validate::required("name", n)?;
    validate::max_chars("name", n, GROUP_NAME_MAX)?;
    Ok(n)
}

/// Adds a group of `kind` (video: shot group, the default; broadcast: voice-over group).
pub async fn add_group(
    db: &Db,
    mid: i64,
    name: &str,
    kind: Option<&str>,
    classify_id: i64,
) -> ApiResult<Option<mat::Group>> {
    let name = group_name(name)?;
    let kind = match kind.map(GroupKind::parse) {
        None => GroupKind::Video,
        Some(Some(k @ (GroupKind::Video | GroupKind::Broadcast))) => k,
        Some(_) => {
            return Err(ApiError::invalid_with(
                "kind",
                Msg::InvalidValue,
                vec![("reason", "video | broadcast".into())],
            ));
        }
    };
    if classify_id != 0 && !classify_exists(db, mid, classify_id).await? {
        return Err(ApiError::NotFound);
    }
    let id = mat::add_group(db, mid, kind.as_str(), name, classify_id).await?;
    Ok(mat::group(db, mid, id).await?)
}

async fn classify_exists(db: &Db, mid: i64, id: i64) -> ApiResult<bool> {
    Ok(mat::classifies(db, mid).await?.iter().any(|x| x.id == id))
}

/// Deletes a group; one that still holds materials only when `confirm` (they become ungrouped).
pub async fn delete_group(db: &Db, mid: i64, id: i64, confirm: bool) -> ApiResult<()> {
    let g = mat::group(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    if g.count > 0 && !confirm {
        return Err(ApiError::invalid_with(
            "confirm",
            Msg::GroupNotEmpty,
            vec![("count", g.count.to_string())],
        ));
    }
    mat::delete_group(db, mid, id).await?;
    Ok(())
}

/// Adds a classify under `parent_id` (0: at the root); returns its id.
pub async fn add_classify(db: &Db, mid: i64, name: &str, parent_id: i64) -> ApiResult<i64> {
    let name = group_name(name)?;
    if parent_id != 0 && !classify_exists(db, mid, parent_id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(mat::add_classify(db, mid, parent_id, name).await?)
}

/// Adds a file type of `kind` (audio | video | image) under `parent_id` (0: at the root, else a type
/// of the same kind).
/// The most characters a material category's name may have.
pub const FILE_TYPE_NAME_MAX: usize = 30;

pub async fn add_file_type(
    db: &Db,
    mid: i64,
    kind: &str,
    name: &str,
    parent_id: i64,
) -> ApiResult<Option<mat::FileType>> {
    let Some(kind) = domain::materials::FileTypeKind::parse(kind.trim()) else {
        return Err(ApiError::invalid_with(
            "type",
            Msg::InvalidValue,
            vec![("reason", "audio | video | image".into())],
        ));
    };
    let name = name.trim();
    validate::required("name", name)?;
    validate::max_chars("name", name, FILE_TYPE_NAME_MAX)?;
    if parent_id != 0
        && mat::file_type(db, mid, parent_id)
            .await?
            .filter(|p| p.kind == kind)
            .is_none()
    {
        return Err(ApiError::NotFound);
    }
    let id = mat::add_file_type(db, mid, kind, parent_id, name).await?;
    Ok(mat::file_type(db, mid, id).await?)
}

/// A material of the merchant's.
pub async fn get(db: &Db, mid: i64, id: i64) -> ApiResult<MediaFile> {
    mat::get(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// One page of a library's materials.
pub async fn list(
    db: &Db,
    mid: i64,
    library: &str,
    q: &ListQuery,
) -> ApiResult<(Vec<MediaFile>, Total)> {
    Ok(mat::list(db, mid, library, q).await?)
}

/// The group a material is put in: 0 (none) or one of the merchant's groups.
pub async fn known_group(db: &Db, mid: i64, id: i64) -> ApiResult<i64> {
    if id != 0 && mat::group(db, mid, id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    Ok(id)
}

/// One page of the groups of `kind` (video | broadcast) with their counts.
pub async fn groups(
    db: &Db,
    mid: i64,
    kind: &str,
    q: &ListQuery,
) -> ApiResult<(Vec<Group>, Total)> {
    Ok(mat::groups(db, mid, kind, q).await?)
}

/// Renames a group (1–50 characters).
pub async fn rename_group(db: &Db, mid: i64, id: i64, name: &str) -> ApiResult<()> {
    let name = group_name(name)?;
    found(mat::rename_group(db, mid, id, name).await?)
}

/// Every classify of the merchant's.
pub async fn classifies(db: &Db, mid: i64) -> ApiResult<Vec<Classify>> {
    Ok(mat::classifies(db, mid).await?)
}

/// Renames a classify (1–50 characters).
pub async fn rename_classify(db: &Db, mid: i64, id: i64, name: &str) -> ApiResult<()> {
    let name = group_name(name)?;
    found(mat::rename_classify(db, mid, id, name).await?)
}

/// Deletes a classify with its subtree; its groups become unclassified.
pub async fn delete_classify(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    found(mat::delete_classify(db, mid, id).await?)
}

/// The merchant's file types of `kind` (audio | video | image).
pub async fn file_types(db: &Db, mid: i64, kind: &str) -> ApiResult<Vec<FileType>> {
    Ok(mat::file_types(db, mid, kind).await?)
}

/// Renames a file type.
pub async fn rename_file_type(db: &Db, mid: i64, id: i64, name: &str) -> ApiResult<()> {
    let name = name.trim();
    validate::required("name", name)?;
    found(mat::rename_file_type(db, mid, id, name).await?)
}

/// Deletes a file type; its files become uncategorised.
pub async fn delete_file_type(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    found(mat::delete_file_type(db, mid, id).await?)
}

/// A write that touched no row of the merchant's answers "not found".
pub fn found(changed: bool) -> ApiResult<()> {
    if changed {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}
