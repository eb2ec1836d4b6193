//! `/screen.merchant_seo_lexicon/*` (titles, categories, keywords, the profile) and
//! `/seo.merchant_seo_lexicon/*` (the merchant's lexicons). Contract: docs/api-seo.md.

use super::{Added, owner};
use crate::error::{Answer, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdsReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::seo::library as uc;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SeoCategory)]
pub struct CategoryView {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// Built in (kept by an Administrator), seen by every merchant.
    pub builtin: bool,
    pub keywords: i64,
    pub created_at: i64,
}

fn category(c: uc::CategoryRow) -> CategoryView {
    CategoryView {
        id: c.id,
        name: c.name,
        name_en: c.name_en,
        builtin: c.merchant_id == 0,
        keywords: c.keywords,
        created_at: c.created_at,
    }
}

#[utoipa::path(method(get, post), path = "/screen.merchant_seo_lexicon/getAllAiCategory", tag = "seo", responses((status = 200, body = Reply<Page<CategoryView>>)))]
pub async fn all_categories(State(st): State<AppState>, c: Caller) -> Answer<Page<CategoryView>> {
    let rows: Vec<CategoryView> = uc::categories(&st.db, owner(&c)?)
        .await?
        .into_iter()
        .map(category)
        .collect();
    let n = rows.len() as i64;
    Ok(reply(Page::new(rows, services::list::Total::exact(n))))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CategoryReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub name: String,
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/ai_category", tag = "seo", request_body = CategoryReq, responses((status = 200, body = Reply<CategoryView>)))]
pub async fn save_category(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<CategoryReq>,
) -> Answer<CategoryView> {
    let row = uc::save_category(
        &st.db,
        owner(&c)?,
        r.id,
        &r.name,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(category(row)))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SeoKeyword)]
pub struct KeywordView {
    pub id: i64,
    pub category_id: i64,
    pub category_name: String,
    pub word: String,
    pub builtin: bool,
    pub created_at: i64,
}

fn keyword(k: uc::KeywordRow) -> KeywordView {
    KeywordView {
        id: k.id,
        category_id: k.category_id,
        category_name: k.category_name,
        word: k.word,
        builtin: k.merchant_id == 0,
        created_at: k.created_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct KeywordsQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub word: Option<String>,
    pub category_id: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/screen.merchant_seo_lexicon/keywords", tag = "seo", responses((status = 200, body = Reply<Page<KeywordView>>)))]
pub async fn keywords(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<KeywordsQuery>,
) -> Answer<Page<KeywordView>> {
    let cat = q.category_id.filter(|i| *i > 0).map(|i| i.to_string());
    let lq = q
        .list
        .with_filter(
            "word",
            q.word.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter("category_id", cat.as_deref(), "=");
    let (rows, total) = uc::keywords(&st.db, owner(&c)?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(keyword).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WordsReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub category_id: i64,
    /// One word per entry (blank ones are dropped), each at most 20 characters, 500 at once.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub words: Vec<String>,
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/keywords_add", tag = "seo", request_body = WordsReq, responses((status = 200, body = Reply<Added>)))]
pub async fn keywords_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WordsReq>,
) -> Answer<Added> {
    let (added, skipped) = uc::add_keywords(
        &st.db,
        owner(&c)?,
        r.category_id,
        &r.words,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(Added { added, skipped }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WordEditReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub word: String,
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/keywords_edit", tag = "seo", request_body = WordEditReq, responses((status = 200, body = Reply<KeywordView>)))]
pub async fn keywords_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WordEditReq>,
) -> Answer<KeywordView> {
    Ok(reply(keyword(
        uc::edit_keyword(&st.db, owner(&c)?, r.id, &r.word).await?,
    )))
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/keywords_delete", tag = "seo", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn keywords_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    uc::delete_keywords(&st.db, owner(&c)?, &r.all("id")?).await?;
    Ok(reply(Done {}))
}

// ---- the title library ----

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AiTitle)]
pub struct TitleView {
    pub id: i64,
    pub title: String,
    pub category_id: i64,
    pub category_name: String,
    pub created_at: i64,
}

fn title(t: uc::TitleRow) -> TitleView {
    TitleView {
        id: t.id,
        title: t.title,
        category_id: t.category_id,
        category_name: t.category_name,
        created_at: t.created_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct TitlesQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub title: Option<String>,
    pub category_id: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/screen.merchant_seo_lexicon/index", tag = "seo", responses((status = 200, body = Reply<Page<TitleView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TitlesQuery>,
) -> Answer<Page<TitleView>> {
    let cat = q.category_id.filter(|i| *i > 0).map(|i| i.to_string());
    let lq = q
        .list
        .with_filter(
            "title",
            q.title.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter("category_id", cat.as_deref(), "=");
    let (rows, total) = uc::titles(&st.db, c.merchant_id()?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(title).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TitlesAddReq {
    /// Each 1..50 characters, no banned word, 200 at once.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub titles: Vec<String>,
    #[serde(default)]
    pub category_id: i64,
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/ai_add", tag = "seo", request_body = TitlesAddReq, responses((status = 200, body = Reply<Added>)))]
pub async fn ai_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TitlesAddReq>,
) -> Answer<Added> {
    let (added, skipped) = uc::add_titles(
        &st.db,
        c.merchant_id()?,
        &r.titles,
        r.category_id,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(Added { added, skipped }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TitleEditReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub title: String,
    #[serde(default)]
    pub category_id: i64,
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/ai_edit", tag = "seo", request_body = TitleEditReq, responses((status = 200, body = Reply<TitleView>)))]
pub async fn ai_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TitleEditReq>,
) -> Answer<TitleView> {
    Ok(reply(title(
        uc::edit_title(&st.db, c.merchant_id()?, r.id, &r.title, r.category_id).await?,
    )))
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/ai_delete", tag = "seo", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn ai_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    uc::delete_titles(&st.db, c.merchant_id()?, &r.all("id")?).await?;
    Ok(reply(Done {}))
}

// ---- profile and lexicons ----

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = SeoProfile)]
pub struct ProfileView {
    #[serde(default)]
    #[schema(max_length = 30)]
    pub brand: String,
    #[serde(default)]
    #[schema(max_length = 30)]
    pub product: String,
    #[serde(default)]
    #[schema(max_length = 30)]
    pub region: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub description: String,
    #[serde(default)]
    pub category_id: i64,
    #[serde(default)]
    pub updated_at: i64,
}

fn profile(p: uc::ProfileRow) -> ProfileView {
    ProfileView {
        brand: p.brand,
        product: p.product,
        region: p.region,
        description: p.description,
        category_id: p.category_id,
        updated_at: p.updated_at,
    }
}

#[utoipa::path(method(get, post), path = "/seo.merchant_seo_lexicon/profile", tag = "seo", responses((status = 200, body = Reply<ProfileView>)))]
pub async fn get_profile(State(st): State<AppState>, c: Caller) -> Answer<ProfileView> {
    Ok(reply(profile(uc::profile(&st.db, c.merchant_id()?).await?)))
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/edit", tag = "seo", request_body = ProfileView, responses((status = 200, body = Reply<ProfileView>)))]
pub async fn edit_profile(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProfileView>,
) -> Answer<ProfileView> {
    let row = uc::ProfileRow {
        brand: r.brand,
        product: r.product,
        region: r.region,
        description: r.description,
        category_id: r.category_id,
        updated_at: 0,
    };
    Ok(reply(profile(
        uc::save_profile(&st.db, c.merchant_id()?, &row, st.db.clock.platform_now()).await?,
    )))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LexWord)]
pub struct LexView {
    pub id: i64,
    /// brand | product | region | longtail | banned | stop
    pub kind: domain::seo::LexKind,
    pub word: String,
    pub created_at: i64,
}

#[derive(Debug, Deserialize)]
pub struct LexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub kind: Option<String>,
    pub word: Option<String>,
}

impl LexQuery {
    /// The list's filters (the export takes the same); an unknown `kind` is 422.
    pub fn list(&self) -> ApiResult<ListQuery> {
        let kind = match self.kind.as_deref().filter(|s| !s.is_empty()) {
            Some(k) => Some(uc::lex_kind(k)?.as_str()),
            None => None,
        };
        Ok(self
            .list
            .clone()
            .with_filter(
                "word",
                self.word.as_deref().filter(|s| !s.is_empty()),
                "include",
            )
            .with_filter("kind", kind, "="))
    }
}

/// The lexicons' words as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/seo.merchant_seo_lexicon/export", tag = "seo", responses((status = 200, description = "the lexicon words (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn lexicon_export(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(e): Input<crate::download::Export<LexQuery>>,
) -> crate::error::HttpResult<axum::response::Response> {
    use crate::download::console_word;
    use crate::export::{Cell, Table, china, header};
    let f = crate::download::format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = crate::download::every_row(&e.q.list()?, |page| {
        let db = st.db.clone();
        async move { uc::lexicon(&db, mid, &page).await }
    })
    .await?;
    let table = Table {
        header: header(
            lang,
            &[
                ("编号", "ID"),
                ("词库", "Lexicon"),
                ("词", "Word"),
                ("添加时间", "Added at"),
            ],
        ),
        rows: rows
            .into_iter()
            .map(|l| {
                vec![
                    Cell::Int(l.id),
                    console_word(lang, "seo", &format!("lex.kinds.{}", l.kind.as_str())).into(),
                    l.word.into(),
                    china(l.created_at),
                ]
            })
            .collect(),
    };
    Ok(crate::download::attachment(
        "seo-words",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}

#[utoipa::path(method(get, post), path = "/seo.merchant_seo_lexicon/index", tag = "seo", responses((status = 200, body = Reply<Page<LexView>>)))]
pub async fn lexicon(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<LexQuery>,
) -> Answer<Page<LexView>> {
    let (rows, total) = uc::lexicon(&st.db, c.merchant_id()?, &q.list()?).await?;
    let rows = rows
        .into_iter()
        .map(|l| LexView {
            id: l.id,
            kind: l.kind,
            word: l.word,
            created_at: l.created_at,
        })
        .collect();
    Ok(reply(Page::new(rows, total)))
}

/// The lexicons a merchant keeps (`LexAddReq.kind`) (for the document only; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum LexKindCode {
    Brand,
    Product,
    Region,
    Longtail,
    Banned,
    Stop,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LexAddReq {
    #[serde(default)]
    #[schema(required = true, value_type = LexKindCode)]
    pub kind: String,
    /// One word per entry (blank ones are dropped), each at most 20 characters, 500 at once.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub words: Vec<String>,
}

#[utoipa::path(post, path = "/seo.merchant_seo_lexicon/add", tag = "seo", request_body = LexAddReq, responses((status = 200, body = Reply<Added>)))]
pub async fn lexicon_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<LexAddReq>,
) -> Answer<Added> {
    let (added, skipped) = uc::add_lexicon(
        &st.db,
        c.merchant_id()?,
        &r.kind,
        &r.words,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(Added { added, skipped }))
}

/// The lexicon import's template (one column of words), its header in the caller's language.
#[utoipa::path(get, path = "/seo.merchant_seo_lexicon/import_template", tag = "seo", params(("format" = Option<String>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the template (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn lexicon_import_template(
    State(st): State<AppState>,
    _c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<crate::import::TemplateQuery>,
) -> crate::error::HttpResult<axum::response::Response> {
    crate::import::template_file(
        st.db.clock.platform_now(),
        "lexicon-import",
        &uc::LEXICON_COLUMNS,
        lang,
        &q,
    )
}

/// Adds a sheet's words (one per row) to the lexicon `kind`. Any bad row: 422 naming every bad row,
/// nothing stored; words already there are skipped.
#[utoipa::path(post, path = "/seo.merchant_seo_lexicon/import", tag = "seo", request_body(content_type = "multipart/form-data", description = "file: the sheet; kind: brand | product | region | longtail | banned | stop"), responses((status = 200, body = Reply<Added>)))]
pub async fn lexicon_import(
    State(st): State<AppState>,
    c: Caller,
    mp: axum::extract::Multipart,
) -> Answer<Added> {
    let mid = c.merchant_id()?;
    let (sheet, up) =
        crate::import::sheet_of(mp, &uc::LEXICON_COLUMNS, &[&[uc::LEXICON_COLUMNS[0]]]).await?;
    let kind = up.fields.get("kind").cloned().unwrap_or_default();
    let (added, skipped) =
        uc::import_lexicon(&st.db, mid, &kind, &sheet, st.db.clock.platform_now()).await?;
    Ok(reply(Added { added, skipped }))
}

#[utoipa::path(post, path = "/seo.merchant_seo_lexicon/delete", tag = "seo", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn lexicon_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    uc::delete_lexicon(&st.db, c.merchant_id()?, &r.all("id")?).await?;
    Ok(reply(Done {}))
}
