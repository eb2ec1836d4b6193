//! Writing titles and topics: an OpenAI-compatible provider when the operator configured one
//! (`crate::writer`), else, or when it fails, the built-in engine (`domain::seo`). Either way the
//! titles pass the same checks (length, banned words, duplicates) and carry a keyword-coverage score,
//! and the result says which writer produced it.

use super::library;
use crate::error::{ApiError, ApiResult};
use crate::writer::{self, Fallback, Use, Wrote};
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

/// The built-in engine's titles for an [`Ask`], at most `count`, already filtered.
pub fn built_in(ask: &Ask, seed: u64) -> ApiResult<Vec<GenTitle>> {
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

/// The provider's numbered titles for an [`Ask`] (prompt `writer/prompts/titles.txt`), through the
/// built-in writer's checks; why not when it fails or nothing passes.
async fn llm_titles(d: &Db, cfg: &LlmConfig, ask: &Ask) -> Result<Vec<GenTitle>, Fallback> {
    let words: Vec<&str> = ask.keywords.iter().map(|k| k.word.as_str()).collect();
    let text = writer::ask(
        d,
        cfg,
        Use::Titles,
        ask.lang,
        &[
            ("keywords", words.join(", ")),
            ("count", ask.count.to_string()),
            ("max_chars", ask.max_chars.to_string()),
        ],
    )
    .await?;
    let titles = screen(ask, text.lines().map(writer::strip_number));
    if titles.is_empty() {
        return Err(writer::unusable(d, cfg, Use::Titles).await);
    }
    Ok(titles)
}

/// Titles for an [`Ask`]: the configured provider's, else (none configured, or it failed) the
/// built-in engine's, saying which.
pub async fn titles_for(
    d: &Db,
    sealer: &Sealer,
    ask: &Ask,
    seed: u64,
) -> ApiResult<Wrote<Vec<GenTitle>>> {
    let fallback = match writer::provider(d, sealer).await? {
        Some(cfg) => match llm_titles(d, &cfg, ask).await {
            Ok(ts) => return Ok(Wrote::llm(ts, &cfg.model)),
            Err(f) => Some(f),
        },
        None => None,
    };
    Ok(Wrote::built_in(built_in(ask, seed)?, fallback))
}

/// `#topics` from keywords: the configured provider's (prompt `writer/prompts/topics.txt`, each
/// checked like the engine's: length, banned words, duplicates), else the built-in engine's.
pub async fn topics_for(
    d: &Db,
    sealer: &Sealer,
    ask: &Ask,
    n: usize,
    seed: u64,
) -> ApiResult<Wrote<Vec<String>>> {
    let words: Vec<String> = ask.keywords.iter().map(|k| k.word.clone()).collect();
    let fallback = match writer::provider(d, sealer).await? {
        Some(cfg) => {
            let asked = writer::ask(
                d,
                &cfg,
                Use::Topics,
                ask.lang,
                &[
                    ("keywords", words.join(", ")),
                    ("count", n.to_string()),
                    ("max_chars", engine::TOPIC_MAX.to_string()),
                ],
            )
            .await;
            match asked {
                Ok(text) => {
                    let lines: Vec<String> = text.lines().map(writer::strip_number).collect();
                    let tags = engine::screen_topics(&lines, n, &ask.lexicon.banned);
                    if !tags.is_empty() {
                        return Ok(Wrote::llm(tags, &cfg.model));
                    }
                    Some(writer::unusable(d, &cfg, Use::Topics).await)
                }
                Err(f) => Some(f),
            }
        }
        None => None,
    };
    Ok(Wrote::built_in(engine::topics(&words, n, seed), fallback))
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

// ---- the provider's configuration (operator, `/system/ai_provider`): `crate::writer` ----

pub use crate::writer::{
    DEFAULT_TIMEOUT_MS, LastFallback, ProviderSetting, clear_provider, last_fallback,
    provider_setting, save_provider,
};

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
    pub titles: Wrote<Vec<GenTitle>>,
    pub keywords: Vec<Keyword>,
    /// When asked for.
    pub topics: Option<Wrote<Vec<String>>>,
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
    let titles = titles_for(d, sealer, &ask, seed).await?;
    let topics = if input.topics {
        Some(topics_for(d, sealer, &ask, 5, seed).await?)
    } else {
        None
    };
    Ok(Written {
        titles,
        keywords: ask.keywords,
        topics,
    })
}

/// The release form's "random titles": the provider's or the built-in engine's over this merchant's
/// own words (see `random_ask`); none when it has none yet (the console then says where to add some).
pub async fn random_titles(
    d: &Db,
    sealer: &Sealer,
    mid: i64,
    lang: Lang,
    count: usize,
) -> ApiResult<Wrote<Vec<String>>> {
    let count = count.clamp(1, 50);
    let ask = random_ask(d, mid, lang, count).await?;
    if ask.keywords.is_empty() && ask.lexicon.products.is_empty() && ask.lexicon.brands.is_empty() {
        return Ok(Wrote::built_in(vec![], None));
    }
    let seed: u64 = rand::random();
    let w = match titles_for(d, sealer, &ask, seed).await {
        Ok(w) => w,
        // The built-in engine found nothing that fits: no titles rather than an error.
        Err(ApiError::Invalid { .. }) => Wrote::built_in(vec![], None),
        Err(e) => return Err(e),
    };
    Ok(Wrote {
        items: w.items.into_iter().map(|t| t.title).collect(),
        source: w.source,
        fallback: w.fallback,
    })
}

/// The release form's "random topics" from the same words.
pub async fn random_topics(
    d: &Db,
    sealer: &Sealer,
    mid: i64,
    lang: Lang,
    count: usize,
) -> ApiResult<Wrote<Vec<String>>> {
    let ask = random_ask(d, mid, lang, count).await?;
    topics_for(d, sealer, &ask, count.clamp(1, 20), rand::random()).await
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
