//! Dictionaries: read one by name (labels `中文 / English`, which `api` shows in the reader's
//! language), save and delete them (the operator).

use crate::error::{ApiError, ApiResult};
use domain::i18n::{Lang, Msg};
use domain::jobs::JobKind;
use domain::validate;
use store::Db;
use store::system::dict;

/// A dictionary and one of its options.
pub use store::system::dict::{Dict, Opt};

/// The job monitor's kinds: a dictionary the code owns (never stored, so never out of step with
/// [`JobKind`]).
pub const JOB_KIND: &str = "job_kind";

/// The options of the dictionary `name`, each label as stored (`中文 / English`, or one text).
pub async fn read(db: &Db, name: &str) -> ApiResult<Vec<Opt>> {
    let name = name.trim();
    validate::required("name", name)?;
    if name == JOB_KIND {
        return Ok(job_kinds());
    }
    let d = dict::by_name(db, name).await?.ok_or(ApiError::NotFound)?;
    Ok(d.options())
}

/// The job kinds, labelled the way stored dictionaries are: `中文 / English`.
fn job_kinds() -> Vec<Opt> {
    JobKind::ALL
        .iter()
        .map(|k| Opt {
            label: format!(
                "{} / {}",
                k.label().template(Lang::Zh),
                k.label().template(Lang::En)
            ),
            value: k.as_str().to_string(),
        })
        .collect()
}

/// Creates or replaces the dictionary `name`: a name of a-z, 0-9, _ (1-64), labels not empty, values
/// not repeated.
/// The longest dictionary name (ASCII letters, digits and `_`).
pub const DICT_NAME_MAX: usize = 64;

pub async fn save(db: &Db, name: &str, title: &str, options: &[Opt]) -> ApiResult<Dict> {
    let name = name.trim();
    let ok_name = !name.is_empty()
        && name.len() <= DICT_NAME_MAX
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok_name {
        return Err(ApiError::invalid_with(
            "name",
            Msg::InvalidValue,
            vec![("reason", format!("a-z, 0-9, _ (1-{DICT_NAME_MAX})"))],
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for o in options {
        if o.label.trim().is_empty() || !seen.insert(o.value.clone()) {
            return Err(ApiError::invalid_with(
                "options",
                Msg::InvalidValue,
                vec![(
                    "reason",
                    format!("label empty or value '{}' repeated", o.value),
                )],
            ));
        }
    }
    Ok(dict::save(db, name, title.trim(), options).await?)
}

pub async fn delete(db: &Db, id: i64) -> ApiResult<()> {
    if dict::delete(db, id).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// One page of the dictionaries.
pub async fn list(db: &Db, q: &store::ListQuery) -> ApiResult<(Vec<Dict>, store::list::Total)> {
    Ok(dict::list(db, q).await?)
}
