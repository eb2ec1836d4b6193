//! Writing titles: the built-in engine (`domain::seo`) or, when the operator configured one, an
//! OpenAI-compatible provider (`platforms::llm`), both behind [`TitleWriter`]. Either way the titles
//! pass the same checks (length, banned words, duplicates) and carry a keyword-coverage score.

use super::library;
use crate::error::{ApiError, ApiResult};
use domain::i18n::{Lang, Msg};
use domain::seo::limits as lim;
use domain::seo::{self as engine, Keyword, Lexicon};
use platforms::llm::LlmConfig;
use store::Db;
use store::secrets::Sealer;

/// A title as the console shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct GenTitle {
    pub title: String,
    /// The engine's pattern style (`numbers`, `question`, …); empty for a provider's title.
    pub style: String,
    pub score: f64,
    pub keywords: Vec<String>,
}

/// What the caller asked for, checked.
#[derive(Debug, Clone)]
pub struct Ask {
    pub lang: Lang,
    pub keywords: Vec<Keyword>,
    pub lexicon: Lexicon,
    pub styles: Vec<String>,
    pub count: usize,
    pub max_chars: usize,
}

/// Writes titles for an [`Ask`]. Implementations answer at most `count`, already filtered.
#[async_trait::async_trait]
pub trait TitleWriter: Send + Sync {
    /// `builtin` or `openai`.
    fn name(&self) -> &'static str;
    async fn write(&self, ask: &Ask, seed: u64) -> ApiResult<Vec<GenTitle>>;
}

/// The offline engine.
pub struct BuiltIn;

#[async_trait::async_trait]
impl TitleWriter for BuiltIn {
    fn name(&self) -> &'static str {
        "builtin"
    }
    async fn write(&self, ask: &Ask, seed: u64) -> ApiResult<Vec<GenTitle>> {
        let req = engine::TitleRequest {
            lang: ask.lang,
            keywords: ask.keywords.clone(),
            lexicon: ask.lexicon.clone(),
            categories: ask.styles.clone(),
            count: ask.count,
            max_chars: ask.max_chars,
            topics: vec![],
            price: None,
        };
        let titles = engine::generate(&req, seed).map_err(engine_error)?;
        Ok(titles
            .into_iter()
            .map(|t| GenTitle {
                title: t.text,
                style: t.category.code().to_string(),
                score: t.score,
                keywords: t.keywords_used,
            })
            .collect())
    }
}

fn engine_error(e: engine::SeoError) -> ApiError {
    match e {
        engine::SeoError::EmptyKeywords => ApiError::invalid("keywords", Msg::NoKeywords),
        engine::SeoError::UnknownCategory(code) => {
            ApiError::invalid_with("styles", Msg::UnknownStyle, vec![("code", code)])
        }
        engine::SeoError::NothingFits(max) => ApiError::invalid_with(
            "max_chars",
            Msg::InvalidValue,
            vec![("reason", format!("≤ {max}"))],
        ),
    }
}

/// An OpenAI-compatible chat model asked for numbered titles.
pub struct OpenAi(pub LlmConfig);

#[async_trait::async_trait]
impl TitleWriter for OpenAi {
    fn name(&self) -> &'static str {
        "openai"
    }
    async fn write(&self, ask: &Ask, _seed: u64) -> ApiResult<Vec<GenTitle>> {
        let words: Vec<&str> = ask.keywords.iter().map(|k| k.word.as_str()).collect();
        let (system, user) = match ask.lang {
            Lang::Zh => (
                "你是短视频运营，为商家写吸引人的短视频标题，每行一个，编号开头，不要解释。遵守广告法：不用“最”“第一”“国家级”等绝对化用语。".to_string(),
                format!(
                    "关键词: {}\n数量: {}\n每个标题不超过 {} 个字\n语言: zh",
                    words.join(", "),
                    ask.count,
                    ask.max_chars
                ),
            ),
            Lang::En => (
                "You write catchy short-video titles for merchants, one per line, numbered, no explanations. No absolute claims (best, No.1, guaranteed).".to_string(),
                format!(
                    "Keywords: {}\nCount: {}\nEach title at most {} characters\nLanguage: en",
                    words.join(", "),
                    ask.count,
                    ask.max_chars
                ),
            ),
        };
        let text = platforms::llm::complete(&self.0, &system, &user)
            .await
            .map_err(|e| {
                let reason = format!("{} / {}", e.zh, e.en);
                ApiError::invalid_with("provider", Msg::WriterFailed, vec![("reason", reason)])
            })?;
        Ok(screen(ask, text.lines().map(strip_number)))
    }
}

/// "1. title" / "2、title" / "- title" -> "title".
fn strip_number(line: &str) -> String {
    let t = line.trim();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.trim_start_matches(['.', '、', ')', '）', '-', '*', ' ', '\t']);
    t.trim().trim_matches(['"', '“', '”']).trim().to_string()
}

/// A provider's lines through the engine's rules: length, banned words, near duplicates; scored by
/// keyword coverage, best first.
fn screen(ask: &Ask, lines: impl Iterator<Item = String>) -> Vec<GenTitle> {
    let mut seen = std::collections::HashSet::new();
    let total: f64 = ask
        .keywords
        .iter()
        .map(|k| k.weight.max(0.0))
        .sum::<f64>()
        .max(1e-9);
    let mut out: Vec<GenTitle> = lines
        .filter(|l| !l.is_empty() && l.chars().count() <= ask.max_chars)
        .filter(|l| engine::banned_word(l, &ask.lexicon.banned).is_none())
        .filter(|l| seen.insert(engine::near_key(l)))
        .map(|l| {
            let folded = l.to_lowercase();
            let used: Vec<&Keyword> = ask
                .keywords
                .iter()
                .filter(|k| folded.contains(&k.word.to_lowercase()))
                .collect();
            GenTitle {
                score: used.iter().map(|k| k.weight.max(0.0)).sum::<f64>() / total,
                keywords: used.iter().map(|k| k.word.clone()).collect(),
                style: String::new(),
                title: l,
            }
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out.truncate(ask.count);
    out
}

// ---- the provider's configuration (operator, `/system/ai_provider`) ----

const SETTING: &str = "seo.title_writer";

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ProviderSetting {
    pub base_url: String,
    pub model: String,
    /// Sealed with the server key; never returned.
    pub key_sealed: String,
}

pub async fn provider_setting(d: &Db) -> ApiResult<Option<ProviderSetting>> {
    Ok(store::seo::setting(d, SETTING)
        .await?
        .and_then(|v| serde_json::from_str(&v).ok()))
}

/// Saves the provider (base URL `http(s)://…`, a model, a key; the key may be left blank to keep it).
pub async fn save_provider(
    d: &Db,
    sealer: &Sealer,
    base_url: &str,
    model: &str,
    api_key: &str,
) -> ApiResult<ProviderSetting> {
    let base_url = library::text("base_url", base_url, domain::seo::limits::PROVIDER_URL_MAX)?;
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(ApiError::invalid_with(
            "base_url",
            Msg::InvalidValue,
            vec![("reason", "http(s)://…".into())],
        ));
    }
    let model = library::text("model", model, domain::seo::limits::PROVIDER_MODEL_MAX)?;
    let key_sealed = match (api_key.trim(), provider_setting(d).await?) {
        ("", Some(old)) => old.key_sealed,
        ("", None) => return Err(ApiError::invalid("api_key", Msg::Required)),
        (k, _) => sealer.seal(k),
    };
    let s = ProviderSetting {
        base_url,
        model,
        key_sealed,
    };
    store::seo::set_setting(d, SETTING, &serde_json::to_string(&s).unwrap_or_default()).await?;
    Ok(s)
}

pub async fn clear_provider(d: &Db) -> ApiResult<()> {
    store::seo::delete_setting(d, SETTING).await?;
    Ok(())
}

/// The writer in use: the configured provider, else the built-in engine.
pub async fn writer(d: &Db, sealer: &Sealer) -> ApiResult<Box<dyn TitleWriter>> {
    Ok(match provider_setting(d).await? {
        Some(s) => Box::new(OpenAi(LlmConfig {
            base_url: s.base_url,
            api_key: sealer.open(&s.key_sealed).unwrap_or_default(),
            model: s.model,
            timeout_ms: 30_000,
        })),
        None => Box::new(BuiltIn),
    })
}

// ---- a request from the console ----

/// What `ai_title` takes.
#[derive(Debug, Clone)]
pub struct TitleInput {
    pub text: String,
    pub keywords: Vec<String>,
    pub category_id: i64,
    pub styles: Vec<String>,
    pub count: Option<usize>,
    pub max_chars: Option<usize>,
    pub lang: Lang,
    pub topics: bool,
}

pub struct Written {
    pub titles: Vec<GenTitle>,
    pub keywords: Vec<Keyword>,
    pub topics: Vec<String>,
    pub provider: &'static str,
}

/// The merchant's lexicons with the profile's brand, product and region in them.
pub async fn merchant_words(d: &Db, mid: i64) -> ApiResult<(Lexicon, library::ProfileRow)> {
    let mut lex = library::merchant_lexicon(d, mid).await?;
    let p = library::profile(d, mid).await?;
    for (list, w) in [
        (&mut lex.brands, &p.brand),
        (&mut lex.products, &p.product),
        (&mut lex.regions, &p.region),
    ] {
        if !w.trim().is_empty() && !list.iter().any(|x| x == w.trim()) {
            list.push(w.trim().to_string());
        }
    }
    Ok((lex, p))
}

/// Titles for a merchant: typed keywords first, then what the text (or the profile's description)
/// says, then the category's keywords; 422 `keywords` when nothing gives a word.
pub async fn write(d: &Db, sealer: &Sealer, mid: i64, input: &TitleInput) -> ApiResult<Written> {
    let count = input.count.unwrap_or(20);
    if !(1..=domain::seo::limits::WRITE_MAX).contains(&count) {
        return Err(ApiError::invalid_with(
            "count",
            Msg::InvalidValue,
            vec![("reason", "1–200".into())],
        ));
    }
    let max_chars = input.max_chars.unwrap_or(engine::RELEASE_TITLE_MAX);
    if !(engine::CLIP_TITLE_MAX..=engine::RELEASE_TITLE_MAX).contains(&max_chars) {
        return Err(ApiError::invalid_with(
            "max_chars",
            Msg::InvalidValue,
            vec![(
                "reason",
                format!("{}–{}", engine::CLIP_TITLE_MAX, engine::RELEASE_TITLE_MAX),
            )],
        ));
    }
    domain::validate::max_chars("text", &input.text, lim::TEXT_MAX)?;
    domain::validate::plain_text("text", &input.text)?;
    for s in &input.styles {
        if engine::Category::parse(s).is_none() {
            return Err(ApiError::invalid_with(
                "styles",
                Msg::UnknownStyle,
                vec![("code", s.clone())],
            ));
        }
    }
    let (lex, profile) = merchant_words(d, mid).await?;
    let mut keywords: Vec<Keyword> = vec![];
    let push = |k: Keyword, keywords: &mut Vec<Keyword>| {
        if !k.word.trim().is_empty() && !keywords.iter().any(|x| x.word == k.word) {
            keywords.push(k);
        }
    };
    for w in &input.keywords {
        domain::validate::max_chars("keywords", w.trim(), lim::WORD_MAX)?;
        domain::validate::plain_text("keywords", w.trim())?;
        push(Keyword::plain(w.trim()), &mut keywords);
    }
    let text = if input.text.trim().is_empty() {
        &profile.description
    } else {
        &input.text
    };
    if !text.trim().is_empty() {
        let lex2 = lex.clone();
        let text = text.clone();
        let found = tokio::task::spawn_blocking(move || engine::extract_keywords(&text, 10, &lex2))
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
        for k in found {
            push(k, &mut keywords);
        }
    }
    let category = if input.category_id != 0 {
        input.category_id
    } else {
        profile.category_id
    };
    if category != 0 {
        library::visible_category(d, mid, category, "category_id").await?;
        for w in store::seo::category_words(d, mid, category).await? {
            push(
                Keyword {
                    word: w,
                    weight: 0.5,
                },
                &mut keywords,
            );
        }
    }
    for w in &lex.long_tail {
        push(
            Keyword {
                word: w.clone(),
                weight: 0.6,
            },
            &mut keywords,
        );
    }
    let has_product = !lex.products.is_empty() || !lex.brands.is_empty();
    if keywords.is_empty() && !has_product {
        return Err(ApiError::invalid("keywords", Msg::NoKeywords));
    }
    let ask = Ask {
        lang: input.lang,
        keywords,
        lexicon: lex,
        styles: input.styles.clone(),
        count,
        max_chars,
    };
    let seed: u64 = rand::random();
    let w = writer(d, sealer).await?;
    let titles = w.write(&ask, seed).await?;
    let topics = if input.topics {
        engine::topics(
            &ask.keywords
                .iter()
                .map(|k| k.word.clone())
                .collect::<Vec<_>>(),
            5,
            seed,
        )
    } else {
        vec![]
    };
    Ok(Written {
        titles,
        keywords: ask.keywords,
        topics,
        provider: w.name(),
    })
}

/// The release form's "random titles": the built-in engine over this merchant's own words (see
/// `random_ask`); none when it has none yet (the console then says where to add some).
pub async fn random_titles(d: &Db, mid: i64, lang: Lang, count: usize) -> ApiResult<Vec<String>> {
    let count = count.clamp(1, 50);
    let ask = random_ask(d, mid, lang, count).await?;
    if ask.keywords.is_empty() && ask.lexicon.products.is_empty() && ask.lexicon.brands.is_empty() {
        return Ok(vec![]);
    }
    let seed: u64 = rand::random();
    Ok(BuiltIn
        .write(&ask, seed)
        .await
        .map(|ts| ts.into_iter().map(|t| t.title).collect())
        .unwrap_or_default())
}

/// The release form's "random topics" from the same words.
pub async fn random_topics(d: &Db, mid: i64, lang: Lang, count: usize) -> ApiResult<Vec<String>> {
    let ask = random_ask(d, mid, lang, count).await?;
    let words: Vec<String> = ask.keywords.iter().map(|k| k.word.clone()).collect();
    Ok(engine::topics(&words, count.clamp(1, 20), rand::random()))
}

/// How many of each kind of recent work random titles read.
const RECENT_WORK: i64 = 20;

/// The words of random titles and topics, all this merchant's own: its products (profile and
/// lexicon), its keywords (its own categories, the profile's category), and what its recent work says
/// (one-touch topics, quick-mix project names, release titles). Never a built-in category's words the
/// merchant did not choose: a hat shop got hotpot and milk-tea titles from the first one.
async fn random_ask(d: &Db, mid: i64, lang: Lang, count: usize) -> ApiResult<Ask> {
    let (lex, profile) = merchant_words(d, mid).await?;
    let mut keywords: Vec<Keyword> = vec![];
    let push = |k: Keyword, keywords: &mut Vec<Keyword>| {
        if !k.word.trim().is_empty() && !keywords.iter().any(|x| x.word == k.word) {
            keywords.push(k);
        }
    };
    for w in lex.products.iter().chain(lex.long_tail.iter()) {
        push(Keyword::plain(w.clone()), &mut keywords);
    }
    let mut own = store::seo::own_keywords(d, mid, 50).await?;
    if profile.category_id != 0 {
        own.extend(store::seo::category_words(d, mid, profile.category_id).await?);
    }
    for w in own {
        push(
            Keyword {
                word: w,
                weight: 0.5,
            },
            &mut keywords,
        );
    }
    let text = store::seo::recent_texts(d, mid, RECENT_WORK)
        .await?
        .join("。");
    if !text.is_empty() {
        let lex2 = lex.clone();
        let found = tokio::task::spawn_blocking(move || engine::extract_keywords(&text, 12, &lex2))
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
        for k in found {
            push(k, &mut keywords);
        }
    }
    Ok(Ask {
        lang,
        keywords: keywords
            .into_iter()
            .filter(|k| is_lang(&k.word, lang) || lang == Lang::Zh)
            .collect(),
        lexicon: lex,
        styles: vec![],
        count,
        max_chars: engine::RELEASE_TITLE_MAX,
    })
}

/// English titles take Latin words only; Chinese titles take any.
fn is_lang(w: &str, lang: Lang) -> bool {
    match lang {
        Lang::Zh => !w.is_ascii(),
        Lang::En => w.is_ascii(),
    }
}

/// The model provider's key as the operator's form shows it: masked.
pub fn masked_key(sealer: &Sealer, s: &ProviderSetting) -> String {
    store::secrets::mask(&sealer.open(&s.key_sealed).unwrap_or_default())
}

/// What seals the provider's key.
pub use store::secrets::Sealer as KeySealer;
