//! Area "seo" (DESIGN.md §4): titles from the built-in engine or a configured provider, the title
//! library, categories and keywords, the merchant's lexicons, keyword search and mining, and
//! benchmark accounts. Contract: docs/api-seo.md.

pub mod benchmark;
pub mod library;
pub mod search;
pub mod titles;

use crate::error::ApiResult;
use crate::extract::Caller;
use crate::state::AppState;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    // The sheet upload takes up to `domain::sheet::FILE_MAX`; every other call the app's small limit.
    let sheets = OpenApiRouter::new()
        .routes(routes!(library::lexicon_import))
        .layer(axum::extract::DefaultBodyLimit::max(
            domain::sheet::FILE_MAX + 64 * 1024,
        ));
    OpenApiRouter::new()
        .merge(sheets)
        .routes(routes!(library::lexicon_import_template))
        .routes(routes!(library::index))
        .routes(routes!(library::ai_add))
        .routes(routes!(library::ai_edit))
        .routes(routes!(library::ai_delete))
        .routes(routes!(library::all_categories))
        .routes(routes!(library::save_category))
        .routes(routes!(library::keywords))
        .routes(routes!(library::keywords_add))
        .routes(routes!(library::keywords_edit))
        .routes(routes!(library::keywords_delete))
        .routes(routes!(library::edit_profile))
        .routes(routes!(library::get_profile))
        .routes(routes!(library::lexicon))
        .routes(routes!(library::lexicon_export))
        .routes(routes!(library::lexicon_add))
        .routes(routes!(library::lexicon_delete))
        .routes(routes!(titles::ai_title))
        .routes(routes!(titles::styles))
        .routes(routes!(titles::provider))
        .routes(routes!(titles::provider_save))
        .routes(routes!(titles::provider_clear))
        .routes(routes!(titles::aigc_provider))
        .routes(routes!(titles::aigc_provider_save))
        .routes(routes!(search::search))
        .routes(routes!(search::excavate))
        .routes(routes!(search::hot))
        .routes(routes!(search::videos))
        .routes(routes!(search::collect))
        .routes(routes!(search::list))
        .routes(routes!(search::delete))
        .routes(routes!(benchmark::index))
        .routes(routes!(benchmark::add))
        .routes(routes!(benchmark::info))
        .routes(routes!(benchmark::sync))
        .routes(routes!(benchmark::delete))
}

/// Whose categories and keywords a call writes: an Administrator's are the built-in ones (0).
pub fn owner(c: &Caller) -> ApiResult<i64> {
    if c.is_operator() {
        Ok(0)
    } else {
        c.merchant_id()
    }
}

/// What a bulk add did.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WordsAdded)]
pub struct Added {
    pub added: usize,
    /// Already there.
    pub skipped: usize,
}
