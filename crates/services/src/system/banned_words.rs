//! The words the operator bans for one merchant (System → Merchants → Banned words): the copy
//! precheck (`crate::compliance`) blocks posts, replies and scripts holding one.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use store::Db;
use store::auth::users;
pub use store::system::banned_words::WordRow;

/// A banned word, in characters.
pub const WORD_MAX: usize = 20;
/// Words added at once.
pub const ADD_MAX: usize = 200;

async fn merchant(db: &Db, mid: i64) -> ApiResult<()> {
    users::merchant_by_id(db, mid)
        .await?
        .map(|_| ())
        .ok_or(ApiError::NotFound)
}

pub async fn list(db: &Db, mid: i64) -> ApiResult<Vec<WordRow>> {
    merchant(db, mid).await?;
    Ok(store::system::banned_words::list(db, mid).await?)
}

/// Adds words (trimmed, blanks and repeats skipped); answers how many were new.
pub async fn add(db: &Db, mid: i64, words: &[String]) -> ApiResult<usize> {
    merchant(db, mid).await?;
    let mut clean: Vec<String> = vec![];
    for w in words.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
        domain::validate::max_chars("words", w, WORD_MAX)?;
        domain::validate::plain_text("words", w)?;
        if !clean.iter().any(|c| c == w) {
            clean.push(w.to_string());
        }
    }
    if clean.is_empty() {
        return Err(ApiError::invalid("words", Msg::Required));
    }
    if clean.len() > ADD_MAX {
        return Err(ApiError::invalid_with(
            "words",
            Msg::TooManyValues,
            vec![("max", ADD_MAX.to_string())],
        ));
    }
    Ok(store::system::banned_words::add(db, mid, &clean, domain::now_ms()).await?)
}

pub async fn delete(db: &Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    if store::system::banned_words::delete(db, mid, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}
