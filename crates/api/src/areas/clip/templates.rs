//! Clip templates (`/clip.merchant_ai_clip_template/*`, page /template_clip; docs/api-clip.md "Templates"):
//! categories, the template list with favourites, liking, "use template" (`template_clip`) and
//! "save as template" from a project (`save`, `delete` of the merchant's own).

use super::projects::{ProjectView, summary};
use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clip::templates as tpl;
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::templates as uc;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateCategory {
    pub key: String,
    pub name: String,
    pub count: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_ai_clip_template/getCategory", tag = "clip", responses((status = 200, body = Reply<Page<TemplateCategory>>, description = "industries, then the merchant's own, with counts")))]
pub async fn categories(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<Page<TemplateCategory>> {
    let rows = uc::categories(&st.db, c.merchant_id()?)
        .await?
        .into_iter()
        .map(|(k, n)| TemplateCategory {
            key: k.into(),
            name: tpl::category_name(k, lang),
            count: n,
        })
        .collect();
    Ok(reply(Page::whole(rows)))
}

/// A template as the list shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateView {
    pub id: i64,
    pub category: String,
    pub category_name: String,
    pub name: String,
    /// Built in (everyone's), else the merchant's own (deletable).
    pub builtin: bool,
    /// The kind of project "use template" makes (normal or senior).
    pub mode: domain::clip::ProjectMode,
    /// The slots' labels in playing order.
    pub slots: Vec<String>,
    /// domain::clip::templates::Recipe
    #[schema(value_type = Object)]
    pub recipe: tpl::Recipe,
    pub liked: bool,
    pub likes: i64,
    pub uses: i64,
    pub created_at: i64,
}

fn view(t: uc::Template, lang: Lang) -> crate::error::ApiResult<TemplateView> {
    let recipe = uc::recipe_of(&t)?;
    Ok(TemplateView {
        id: t.id,
        category_name: tpl::category_name(&t.category, lang),
        category: t.category,
        name: if lang == Lang::En && !t.name_en.is_empty() {
            t.name_en
        } else {
            t.name
        },
        builtin: t.merchant_id == 0,
        mode: recipe.mode(),
        slots: recipe.slots.iter().map(|s| s.label.clone()).collect(),
        recipe,
        liked: t.liked > 0,
        likes: t.likes,
        uses: t.uses,
        created_at: t.created_at,
    })
}

#[derive(Debug, Deserialize)]
pub struct TemplateQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// '1': the caller's favourites only.
    #[serde(default)]
    pub liked: Option<String>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_ai_clip_template/index", tag = "clip", params(("category" = Option<String>, Query), ("name" = Option<String>, Query), ("liked" = Option<String>, Query)), responses((status = 200, body = Reply<Page<TemplateView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<TemplateQuery>,
) -> Answer<Page<TemplateView>> {
    let lq = q
        .list
        .with_filter("category", q.category.as_deref(), "=")
        .with_filter("name", q.name.as_deref(), "include");
    let liked = q.liked.as_deref().is_some_and(|l| l == "1" || l == "true");
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, c.user.id, liked, &lq).await?;
    let rows = rows
        .into_iter()
        .map(|t| view(t, lang))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(reply(Page::new(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TemplateLikeReq {
    pub id: i64,
    /// Default true; false removes the like.
    #[serde(default)]
    pub like: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateLiked {
    pub id: i64,
    pub liked: bool,
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip_template/template_like", tag = "clip", request_body = TemplateLikeReq, responses((status = 200, body = Reply<TemplateLiked>)))]
pub async fn like(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TemplateLikeReq>,
) -> Answer<TemplateLiked> {
    let liked = uc::like(
        &st.db,
        c.merchant_id()?,
        c.user.id,
        r.id,
        r.like.unwrap_or(true),
    )
    .await?;
    Ok(reply(TemplateLiked { id: r.id, liked }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TemplateUseReq {
    /// The template.
    pub id: i64,
    /// The new project's name (≤ 50 characters; the title pattern's `{name}`).
    #[serde(default)]
    pub name: String,
    /// The merchant's shot groups for the slots, in slot order (3 … slots); omitted: matched by name.
    #[serde(default)]
    pub group_ids: Option<Vec<i64>>,
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip_template/template_clip", tag = "clip", request_body = TemplateUseReq, responses((status = 200, body = Reply<ProjectView>, description = "the project made from the template (quick mix or advanced)")))]
pub async fn template_clip(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TemplateUseReq>,
) -> Answer<ProjectView> {
    let mid = c.merchant_id()?;
    let p = uc::use_template(
        &st.db,
        mid,
        c.user.id,
        r.id,
        &r.name,
        r.group_ids.as_deref(),
    )
    .await?;
    Ok(reply(summary(&st, mid, &p).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TemplateSaveReq {
    /// A quick-mix or advanced project of the caller's.
    pub project_id: i64,
    /// Default: the project's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Default `custom` (the merchant's own); or an industry key of getCategory.
    #[serde(default)]
    pub category: Option<String>,
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip_template/save", tag = "clip", request_body = TemplateSaveReq, responses((status = 200, body = Reply<TemplateView>, description = "the new template")))]
pub async fn save(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TemplateSaveReq>,
) -> Answer<TemplateView> {
    let mid = c.merchant_id()?;
    let name = r.name.as_deref().filter(|n| !n.trim().is_empty());
    let id = uc::save_from_project(&st.db, mid, r.project_id, name, r.category.as_deref()).await?;
    Ok(reply(view(
        uc::get(&st.db, mid, c.user.id, id).await?,
        lang,
    )?))
}

#[utoipa::path(post, path = "/clip.merchant_ai_clip_template/delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "one of the merchant's own templates deleted (404 for a built-in one)")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}
