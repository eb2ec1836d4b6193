//! The merchant's SEO profile and lexicons, title categories with their keywords (built in: owner 0,
//! kept by an Administrator), and the saved title library. Contract: docs/api-seo.md.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::seo::limits as lim;
use store::Db;
use store::seo as db;

pub use db::{CategoryRow, CollectedRow, KeywordRow, LexRow, ProfileRow, TitleRow};

/// Trimmed, de-duplicated words of a bulk add (blank lines dropped), each checked; 422 on `field`.
pub fn words(
    field: &'static str,
    raw: &[String],
    max_chars: usize,
    max_count: usize,
) -> ApiResult<Vec<String>> {
    let mut out: Vec<String> = vec![];
    for w in raw {
        let w = w.trim();
        if w.is_empty() || out.iter().any(|o| o == w) {
            continue;
        }
        domain::validate::max_chars(field, w, max_chars)?;
        domain::validate::plain_text(field, w)?;
        out.push(w.to_string());
    }
    if out.is_empty() {
        return Err(ApiError::invalid(field, Msg::Required));
    }
    if out.len() > max_count {
        return Err(ApiError::invalid_with(
            field,
            Msg::TooManyValues,
            vec![("max", max_count.to_string())],
        ));
    }
    Ok(out)
}

/// One trimmed, required, bounded text.
pub fn text(field: &'static str, raw: &str, max: usize) -> ApiResult<String> {
    let t = raw.trim();
    domain::validate::required(field, t)?;
    domain::validate::max_chars(field, t, max)?;
    domain::validate::plain_text(field, t)?;
    Ok(t.to_string())
}

/// An optional bounded text (blank is allowed).
fn opt_text(field: &'static str, raw: &str, max: usize) -> ApiResult<String> {
    let t = raw.trim();
    domain::validate::max_chars(field, t, max)?;
    domain::validate::plain_text(field, t)?;
    Ok(t.to_string())
}

// ---- profile ----

pub async fn profile(d: &Db, mid: i64) -> ApiResult<ProfileRow> {
    Ok(db::profile(d, mid).await?)
}

pub async fn save_profile(d: &Db, mid: i64, p: &ProfileRow, now: i64) -> ApiResult<ProfileRow> {
    let row = ProfileRow {
        brand: opt_text("brand", &p.brand, lim::PROFILE_WORD_MAX)?,
        product: opt_text("product", &p.product, lim::PROFILE_WORD_MAX)?,
        region: opt_text("region", &p.region, lim::PROFILE_WORD_MAX)?,
        description: opt_text("description", &p.description, lim::DESCRIPTION_MAX)?,
        category_id: p.category_id,
        updated_at: now,
    };
    if row.category_id != 0 && db::category(d, mid, row.category_id).await?.is_none() {
        return Err(ApiError::invalid("category_id", Msg::NotFound));
    }
    db::save_profile(d, mid, &row).await?;
    Ok(row)
}

// ---- categories and keywords ----

pub async fn categories(d: &Db, owner: i64) -> ApiResult<Vec<CategoryRow>> {
    Ok(db::categories(d, owner).await?)
}

/// A category the caller can see, else 422 on `field`.
pub async fn visible_category(
    d: &Db,
    owner: i64,
    id: i64,
    field: &'static str,
) -> ApiResult<CategoryRow> {
    db::category(d, owner, id)
        .await?
        .ok_or_else(|| ApiError::invalid(field, Msg::NotFound))
}

/// Adds (no id) or renames a category of `owner`'s; a built-in one only an Administrator (owner 0) may rename.
pub async fn save_category(
    d: &Db,
    owner: i64,
    id: Option<i64>,
    name: &str,
    now: i64,
) -> ApiResult<CategoryRow> {
    let name = text("name", name, lim::CATEGORY_NAME_MAX)?;
    let id = match id.filter(|i| *i > 0) {
        None => db::add_category(d, owner, &name, now).await?,
        Some(id) => {
            let c = visible_category(d, owner, id, "id").await?;
            if c.merchant_id != owner {
                return Err(ApiError::forbidden(Msg::BuiltInReadOnly));
            }
            db::rename_category(d, owner, id, &name).await?;
            id
        }
    };
    visible_category(d, owner, id, "id").await
}

/// A category `owner` may add keywords to (its own; built-in ones only for an Administrator).
async fn own_category(d: &Db, owner: i64, id: i64) -> ApiResult<CategoryRow> {
    let c = visible_category(d, owner, id, "category_id").await?;
    if c.merchant_id != owner {
        return Err(ApiError::forbidden(Msg::BuiltInReadOnly));
    }
    Ok(c)
}

pub async fn keywords(
    d: &Db,
    owner: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<KeywordRow>, store::list::Total)> {
    Ok(db::keywords(d, owner, q).await?)
}

pub async fn add_keywords(
    d: &Db,
    owner: i64,
    category_id: i64,
    raw: &[String],
    now: i64,
) -> ApiResult<(usize, usize)> {
    own_category(d, owner, category_id).await?;
    let ws = words("words", raw, lim::WORD_MAX, lim::BULK_MAX)?;
    Ok(db::add_keywords(d, owner, category_id, &ws, now).await?)
}

pub async fn edit_keyword(d: &Db, owner: i64, id: i64, word: &str) -> ApiResult<KeywordRow> {
    let word = text("word", word, lim::WORD_MAX)?;
    let k = db::keyword(d, owner, id).await?.ok_or(ApiError::NotFound)?;
    if k.merchant_id != owner {
        return Err(ApiError::forbidden(Msg::BuiltInReadOnly));
    }
    db::edit_keyword(d, owner, id, &word).await?;
    db::keyword(d, owner, id).await?.ok_or(ApiError::NotFound)
}

pub async fn delete_keywords(d: &Db, owner: i64, ids: &[i64]) -> ApiResult<()> {
    if db::delete_keywords(d, owner, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

// ---- the title library ----

pub async fn titles(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<TitleRow>, store::list::Total)> {
    Ok(db::titles(d, mid, q).await?)
}

/// A title the library takes: within the release-task limit and free of banned words.
fn check_title(field: &'static str, raw: &str, banned: &[String]) -> ApiResult<String> {
    let t = text(field, raw, domain::seo::RELEASE_TITLE_MAX)?;
    if let Some(w) = domain::seo::banned_word(&t, banned) {
        return Err(ApiError::invalid_with(
            field,
            Msg::BannedWord,
            vec![("word", w)],
        ));
    }
    Ok(t)
}

async fn category_or_none(d: &Db, mid: i64, id: i64) -> ApiResult<i64> {
    if id != 0 {
        visible_category(d, mid, id, "category_id").await?;
    }
    Ok(id)
}

pub async fn add_titles(
    d: &Db,
    mid: i64,
    raw: &[String],
    category_id: i64,
    now: i64,
) -> ApiResult<(usize, usize)> {
    let category_id = category_or_none(d, mid, category_id).await?;
    let ts = words(
        "titles",
        raw,
        domain::seo::RELEASE_TITLE_MAX,
        lim::TITLES_MAX,
    )?;
    let banned = merchant_banned(d, mid).await?;
    let checked = ts
        .iter()
        .map(|t| check_title("titles", t, &banned))
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(db::add_titles(d, mid, category_id, &checked, now).await?)
}

pub async fn edit_title(
    d: &Db,
    mid: i64,
    id: i64,
    title: &str,
    category_id: i64,
) -> ApiResult<TitleRow> {
    db::title(d, mid, id).await?.ok_or(ApiError::NotFound)?;
    let t = check_title("title", title, &merchant_banned(d, mid).await?)?;
    let category_id = category_or_none(d, mid, category_id).await?;
    // A title the library already has is a unique violation: the shared mapping names `title`.
    db::edit_title(d, mid, id, &t, category_id).await?;
    db::title(d, mid, id).await?.ok_or(ApiError::NotFound)
}

pub async fn delete_titles(d: &Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    if db::delete_titles(d, mid, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

// ---- lexicons ----

pub async fn lexicon(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<LexRow>, store::list::Total)> {
    Ok(db::lexicon(d, mid, q).await?)
}

pub fn lex_kind(raw: &str) -> ApiResult<domain::seo::LexKind> {
    domain::seo::LexKind::parse(raw).ok_or_else(|| {
        ApiError::invalid_with(
            "kind",
            Msg::InvalidValue,
            vec![(
                "reason",
                "brand | product | region | longtail | banned | stop".into(),
            )],
        )
    })
}

pub async fn add_lexicon(
    d: &Db,
    mid: i64,
    kind: &str,
    raw: &[String],
    now: i64,
) -> ApiResult<(usize, usize)> {
    let kind = lex_kind(kind)?;
    let ws = words("words", raw, lim::WORD_MAX, lim::BULK_MAX)?;
    Ok(db::add_lexicon(d, mid, kind.as_str(), &ws, now).await?)
}

pub async fn delete_lexicon(d: &Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    if db::delete_lexicon(d, mid, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// The merchant's lexicons as the engine takes them.
/// The merchant's lexicon words by kind; its banned words include the ones the operator banned for
/// the merchant (System → Merchants → Banned words), so the title writer, the topics and the library
/// never offer what the release form would refuse.
pub async fn merchant_lexicon(d: &Db, mid: i64) -> ApiResult<domain::seo::Lexicon> {
    let mut lex = domain::seo::Lexicon::default();
    for (kind, word) in db::lexicon_words(d, mid).await? {
        if let Some(k) = domain::seo::LexKind::parse(&kind) {
            lex.push(k, word);
        }
    }
    for word in store::system::banned_words::words(d, mid).await? {
        if !lex.banned.contains(&word) {
            lex.banned.push(word);
        }
    }
    Ok(lex)
}

async fn merchant_banned(d: &Db, mid: i64) -> ApiResult<Vec<String>> {
    Ok(merchant_lexicon(d, mid).await?.banned)
}

/// The lexicon import's column (its template's header).
pub const LEXICON_COLUMNS: [domain::sheet::Column; 1] =
    [domain::sheet::col("word", "词语", "Word")];

/// Adds a sheet's words (one per row) to the lexicon `kind`: every row is checked first (at most
/// 20 characters, no control characters; repeats are dropped), any bad one refuses the sheet
/// naming every bad row; then all are added in one transaction. (added, already there).
pub async fn import_lexicon(
    d: &Db,
    mid: i64,
    kind: &str,
    sheet: &domain::sheet::Sheet,
    now: i64,
) -> ApiResult<(usize, usize)> {
    use domain::sheet::RowError;
    let kind = lex_kind(kind)?;
    let mut errors = vec![];
    let mut out: Vec<String> = vec![];
    for (row, cells) in &sheet.rows {
        let w = sheet.cell(cells, "word");
        let checked = if w.is_empty() {
            Err(domain::validate::Invalid {
                field: "word",
                msg: Msg::Required,
                args: vec![],
            })
        } else {
            domain::validate::max_chars("word", w, lim::WORD_MAX)
                .and_then(|_| domain::validate::plain_text("word", w))
        };
        match checked {
            Err(e) => errors.push(RowError::new(*row, LEXICON_COLUMNS[0], e.msg, e.args)),
            Ok(()) if !out.iter().any(|o| o == w) => out.push(w.to_string()),
            Ok(()) => {}
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::rows_invalid(&errors));
    }
    if out.is_empty() {
        return Err(ApiError::invalid("rows", Msg::ImportEmpty));
    }
    if out.len() > lim::BULK_MAX {
        return Err(ApiError::too_many_rows(lim::BULK_MAX, out.len()));
    }
    Ok(db::add_lexicon(d, mid, kind.as_str(), &out, now).await?)
}
