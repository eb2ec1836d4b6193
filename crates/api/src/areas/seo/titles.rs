//! Title generation (`ai_title`, `styles`) and the operator's title provider (`/system/ai_provider/*`).

use crate::LangOf;
use crate::areas::matrix::views::Rows;
use crate::error::{Answer, Done, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use crate::writer::WriterSource;
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
    /// builtin | openai: who wrote the titles (kept for older consoles; see `source`).
    #[schema(value_type = domain::seo::limits::TitleProvider)]
    pub provider: String,
    /// Who wrote the titles, and why not the provider when it failed.
    pub source: WriterSource,
    /// Who wrote the topics (asked with `topics`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topics_source: Option<WriterSource>,
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
        provider: match w.titles.source {
            services::writer::Source::BuiltIn => "builtin",
            services::writer::Source::Llm { .. } => "openai",
        }
        .to_string(),
        source: WriterSource::wrote(&w.titles, lang),
        topics_source: w.topics.as_ref().map(|t| WriterSource::wrote(t, lang)),
        topics: w.topics.map(|t| t.items).unwrap_or_default(),
        rows: w
            .titles
            .items
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
    /// How long the provider may take, in seconds (the default when not set).
    pub timeout_s: u64,
    /// The provider's last failure since it was saved (the built-in writer wrote instead).
    pub last_fallback: Option<ProviderFailure>,
}

/// When the provider last failed, for which use, and why in the reader's language.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProviderFailure {
    pub at: i64,
    /// titles | topics | script | replies
    pub use_: String,
    pub model: String,
    pub code: String,
    pub reason: String,
}

fn provider_view(
    s: Option<uc::ProviderSetting>,
    sealer: &uc::KeySealer,
    last: Option<uc::LastFallback>,
    lang: domain::i18n::Lang,
) -> ProviderView {
    let last_fallback = last.map(|l| ProviderFailure {
        at: l.at,
        use_: l.use_,
        model: l.model,
        reason: match lang {
            domain::i18n::Lang::Zh => l.fallback.zh,
            domain::i18n::Lang::En => l.fallback.en,
        },
        code: l.fallback.code,
    });
    match s {
        None => ProviderView {
            configured: false,
            base_url: String::new(),
            model: String::new(),
            api_key: String::new(),
            timeout_s: uc::DEFAULT_TIMEOUT_MS / 1000,
            last_fallback,
        },
        Some(s) => ProviderView {
            configured: true,
            api_key: uc::masked_key(sealer, &s),
            timeout_s: if s.timeout_ms == 0 {
                uc::DEFAULT_TIMEOUT_MS / 1000
            } else {
                s.timeout_ms.div_ceil(1000)
            },
            base_url: s.base_url,
            model: s.model,
            last_fallback,
        },
    }
}

#[utoipa::path(method(get, post), path = "/system/ai_provider/index", tag = "system", responses((status = 200, body = Reply<ProviderView>)))]
pub async fn provider(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
) -> Answer<ProviderView> {
    Ok(reply(provider_view(
        uc::provider_setting(&st.db).await?,
        &st.hub.sealer,
        uc::last_fallback(&st.db).await?,
        lang,
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
    /// How long the provider may take before the built-in writer answers instead, in seconds
    /// (0 or absent: 30).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 120)]
    pub timeout_s: u64,
}

#[utoipa::path(post, path = "/system/ai_provider/save", tag = "system", request_body = ProviderReq, responses((status = 200, body = Reply<ProviderView>)))]
pub async fn provider_save(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<ProviderReq>,
) -> Answer<ProviderView> {
    let s = uc::save_provider(
        &st.db,
        &st.hub.sealer,
        &r.base_url,
        &r.model,
        &r.api_key,
        r.timeout_s,
    )
    .await?;
    Ok(reply(provider_view(Some(s), &st.hub.sealer, None, lang)))
}

#[utoipa::path(post, path = "/system/ai_provider/clear", tag = "system", responses((status = 200, body = Reply<Done>)))]
pub async fn provider_clear(State(st): State<AppState>, _c: Caller) -> Answer<Done> {
    uc::clear_provider(&st.db).await?;
    Ok(reply(Done {}))
}

/// The provider the AI-content labels name (GB 45438-2025 §6.1: `ContentProducer` of the implicit
/// label in every generated file), set once by the operator; with neither field set the labels name
/// `clipmatrix`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AigcProviderView {
    pub provider: domain::clip::aigc::AigcProvider,
    /// What the labels write as `ContentProducer` now (the code, else the name, else the default).
    pub producer: String,
}

fn aigc_view(p: domain::clip::aigc::AigcProvider) -> AigcProviderView {
    AigcProviderView {
        producer: p.producer(),
        provider: p,
    }
}

#[utoipa::path(method(get, post), path = "/system/ai_provider/aigc", tag = "system", responses((status = 200, body = Reply<AigcProviderView>)))]
pub async fn aigc_provider(State(st): State<AppState>, _c: Caller) -> Answer<AigcProviderView> {
    Ok(reply(aigc_view(services::aigc::provider(&st.db).await?)))
}

#[utoipa::path(post, path = "/system/ai_provider/aigc_save", tag = "system", request_body = domain::clip::aigc::AigcProvider, responses((status = 200, body = Reply<AigcProviderView>)))]
pub async fn aigc_provider_save(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<domain::clip::aigc::AigcProvider>,
) -> Answer<AigcProviderView> {
    Ok(reply(aigc_view(
        services::aigc::save_provider(&st.db, &r).await?,
    )))
}
