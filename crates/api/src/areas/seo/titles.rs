//! Title generation (`ai_title`, `styles`) and the operator's title provider (`/system/ai_provider/*`).

use crate::LangOf;
use crate::areas::matrix::views::Rows;
use crate::error::{Answer, Done, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::seo::titles as uc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AiTitleReq)]
pub struct TitleReq {
    /// A product description or any copy to take keywords from (≤ 10,000 characters).
    #[serde(default)]
    pub text: String,
    /// Keywords and selling points typed by the merchant (each ≤ 20 characters).
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub category_id: i64,
    /// Pattern styles (`styles` lists them); empty: all.
    #[serde(default)]
    pub styles: Vec<String>,
    /// 1..200, default 20.
    #[serde(default)]
    pub count: Option<usize>,
    /// 20..50, default 50 (a release task); 20 for a clip title.
    #[serde(default)]
    pub max_chars: Option<usize>,
    /// zh | en; default: the caller's language (left out, never null).
    #[serde(default)]
    #[schema(value_type = domain::seo::limits::TitleLang, required = false)]
    pub lang: Option<String>,
    /// Also suggest `#topics`.
    #[serde(default)]
    pub topics: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GenTitle {
    pub title: String,
    /// The pattern style (empty for a provider's title).
    pub style: String,
    pub style_name: String,
    /// Keyword coverage, 0..1.
    pub score: f64,
    pub keywords: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WeightedKeyword)]
pub struct KeywordView {
    pub word: String,
    pub weight: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Generated {
    pub rows: Vec<GenTitle>,
    pub keywords: Vec<KeywordView>,
    pub topics: Vec<String>,
    /// builtin | openai
    #[schema(value_type = domain::seo::limits::TitleProvider)]
    pub provider: String,
}

/// `zh` / `en` from the body, else the caller's language.
pub fn lang_of(
    raw: Option<&str>,
    dflt: domain::i18n::Lang,
) -> services::ApiResult<domain::i18n::Lang> {
    use domain::i18n::Lang;
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(dflt),
        Some("zh") | Some("zh-cn") | Some("zh-CN") => Ok(Lang::Zh),
        Some("en") => Ok(Lang::En),
        Some(_) => Err(services::ApiError::invalid_with(
            "lang",
            domain::i18n::Msg::InvalidValue,
            vec![("reason", "zh | en".into())],
        )),
    }
}

fn style_name(code: &str, lang: domain::i18n::Lang) -> String {
    domain::seo::Category::parse(code)
        .map(|c| c.name(lang).to_string())
        .unwrap_or_default()
}

#[utoipa::path(post, path = "/screen.merchant_seo_lexicon/ai_title", tag = "seo", request_body = TitleReq, responses((status = 200, body = Reply<Generated>)))]
pub async fn ai_title(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TitleReq>,
) -> Answer<Generated> {
    let want = lang_of(r.lang.as_deref(), lang)?;
    let input = uc::TitleInput {
        text: r.text,
        keywords: r.keywords,
        category_id: r.category_id,
        styles: r.styles,
        count: r.count,
        max_chars: r.max_chars,
        lang: want,
        topics: r.topics,
    };
    let w = uc::write(&st.db, &st.hub.sealer, c.merchant_id()?, &input).await?;
    Ok(reply(Generated {
        rows: w
            .titles
            .into_iter()
            .map(|t| GenTitle {
                style_name: style_name(&t.style, lang),
                title: t.title,
                style: t.style,
                score: t.score,
                keywords: t.keywords,
            })
            .collect(),
        keywords: w
            .keywords
            .into_iter()
            .map(|k| KeywordView {
                word: k.word,
                weight: k.weight,
            })
            .collect(),
        topics: w.topics,
        provider: w.provider.to_string(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StyleView {
    pub code: String,
    pub name: String,
}

#[utoipa::path(method(get, post), path = "/screen.merchant_seo_lexicon/styles", tag = "seo", responses((status = 200, body = Reply<Rows<StyleView>>)))]
pub async fn styles(_c: Caller, LangOf(lang): LangOf) -> Answer<Rows<StyleView>> {
    Ok(reply(Rows {
        rows: domain::seo::Category::ALL
            .iter()
            .map(|c| StyleView {
                code: c.code().to_string(),
                name: c.name(lang).to_string(),
            })
            .collect(),
    }))
}

// ---- the operator's provider ----

#[derive(Debug, Serialize, ToSchema)]
pub struct ProviderView {
    pub configured: bool,
    pub base_url: String,
    pub model: String,
    /// The key, masked.
    pub api_key: String,
}

fn provider_view(s: Option<uc::ProviderSetting>, sealer: &uc::KeySealer) -> ProviderView {
    match s {
        None => ProviderView {
            configured: false,
            base_url: String::new(),
            model: String::new(),
            api_key: String::new(),
        },
        Some(s) => ProviderView {
            configured: true,
            api_key: uc::masked_key(sealer, &s),
            base_url: s.base_url,
            model: s.model,
        },
    }
}

#[utoipa::path(method(get, post), path = "/system/ai_provider/index", tag = "system", responses((status = 200, body = Reply<ProviderView>)))]
pub async fn provider(State(st): State<AppState>, _c: Caller) -> Answer<ProviderView> {
    Ok(reply(provider_view(
        uc::provider_setting(&st.db).await?,
        &st.hub.sealer,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProviderReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 300)]
    pub base_url: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub model: String,
    /// Blank keeps the saved key.
    #[serde(default)]
    pub api_key: String,
}

#[utoipa::path(post, path = "/system/ai_provider/save", tag = "system", request_body = ProviderReq, responses((status = 200, body = Reply<ProviderView>)))]
pub async fn provider_save(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<ProviderReq>,
) -> Answer<ProviderView> {
    let s = uc::save_provider(&st.db, &st.hub.sealer, &r.base_url, &r.model, &r.api_key).await?;
    Ok(reply(provider_view(Some(s), &st.hub.sealer)))
}

#[utoipa::path(post, path = "/system/ai_provider/clear", tag = "system", responses((status = 200, body = Reply<Done>)))]
pub async fn provider_clear(State(st): State<AppState>, _c: Caller) -> Answer<Done> {
    uc::clear_provider(&st.db).await?;
    Ok(reply(Done {}))
}
