//! Who writes generated copy: the operator's OpenAI-compatible provider (`/system/ai_provider`,
//! `platforms::llm`) when one is configured, else the built-in writer. Every use (titles, topics,
//! one-touch scripts) asks [`ask`] with its prompt file (`prompts/<use>.txt`, Chinese and English);
//! when the provider fails (down, a timeout, 429, an answer that is not an answer, nothing usable
//! after the checks) the use falls back to its built-in writer, logs why, and says so in its
//! [`Source`] and [`Fallback`], which the console shows beside the result.

use crate::error::{ApiError, ApiResult};
use domain::i18n::{Lang, Msg};
use platforms::llm::LlmConfig;
use store::Db;
use store::secrets::Sealer;

/// Which writer produced a result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    BuiltIn,
    Llm { model: String },
}

impl Source {
    /// Kept on a row (`ai_clips.writer`): `builtin` or `llm:<model>`.
    pub fn code(&self) -> String {
        match self {
            Source::BuiltIn => "builtin".into(),
            Source::Llm { model } => format!("llm:{model}"),
        }
    }
    /// A row's code back (`llm` alone: written before the model was kept).
    pub fn parse(code: &str) -> Source {
        match code.strip_prefix("llm") {
            Some(rest) => Source::Llm {
                model: rest.trim_start_matches(':').to_string(),
            },
            None => Source::BuiltIn,
        }
    }
}

/// Why the provider's answer was not used, in both languages (a platform's own words travel so).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fallback {
    /// `timeout`, `network`, `rate_limit_exceeded`, `http_500`, `bad_answer`, `unusable`, …
    pub code: String,
    pub zh: String,
    pub en: String,
}

/// Who wrote a kept text and why not the provider, as one column keeps it (`ai_clips.writer`):
/// `{"source": …, "fallback": …}`; the older plain codes (`builtin`, `llm`) still read.
pub fn keep(source: &Source, fallback: Option<&Fallback>) -> String {
    serde_json::json!({"source": source, "fallback": fallback}).to_string()
}

/// A column written by [`keep`] (or an older code) back.
pub fn kept(column: &str) -> (Source, Option<Fallback>) {
    #[derive(serde::Deserialize)]
    struct Kept {
        source: Source,
        fallback: Option<Fallback>,
    }
    match serde_json::from_str::<Kept>(column) {
        Ok(k) => (k.source, k.fallback),
        Err(_) => (Source::parse(column), None),
    }
}

/// A use's result with who wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct Wrote<T> {
    pub items: T,
    pub source: Source,
    /// Set when a configured provider failed and the built-in writer wrote it instead.
    pub fallback: Option<Fallback>,
}

impl<T> Wrote<T> {
    pub fn built_in(items: T, fallback: Option<Fallback>) -> Wrote<T> {
        Wrote {
            items,
            source: Source::BuiltIn,
            fallback,
        }
    }
    pub fn llm(items: T, model: &str) -> Wrote<T> {
        Wrote {
            items,
            source: Source::Llm {
                model: model.to_string(),
            },
            fallback: None,
        }
    }
}

// ---- the prompts ----

/// A use of the writer; each has its prompt file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Titles,
    Topics,
    Script,
    /// Suggested answers to a comment.
    Replies,
}

impl Use {
    pub const ALL: [Use; 4] = [Use::Titles, Use::Topics, Use::Script, Use::Replies];
    pub fn code(self) -> &'static str {
        match self {
            Use::Titles => "titles",
            Use::Topics => "topics",
            Use::Script => "script",
            Use::Replies => "replies",
        }
    }
    fn file(self) -> &'static str {
        match self {
            Use::Titles => include_str!("prompts/titles.txt"),
            Use::Topics => include_str!("prompts/topics.txt"),
            Use::Script => include_str!("prompts/script.txt"),
            Use::Replies => include_str!("prompts/replies.txt"),
        }
    }
}

/// A section (`[zh.system]`, …) of a prompt file; `#` lines before the first section are comments.
fn section(file: &str, name: &str) -> String {
    let head = format!("[{name}]");
    let mut lines = file.lines().skip_while(|l| l.trim() != head);
    lines.next();
    lines
        .take_while(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// The (system, user) messages of a use in a language, `{name}` filled from `vars`.
pub fn prompt(u: Use, lang: Lang, vars: &[(&str, String)]) -> (String, String) {
    let l = match lang {
        Lang::Zh => "zh",
        Lang::En => "en",
    };
    let fill = |s: String| {
        vars.iter()
            .fold(s, |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
    };
    (
        fill(section(u.file(), &format!("{l}.system"))),
        fill(section(u.file(), &format!("{l}.user"))),
    )
}

// ---- the provider's configuration (operator, `/system/ai_provider`) ----

const SETTING: &str = "seo.title_writer";
/// How long a provider may take to answer unless the setting says otherwise.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ProviderSetting {
    pub base_url: String,
    pub model: String,
    /// Sealed with the server key; never returned.
    pub key_sealed: String,
    /// 0: [`DEFAULT_TIMEOUT_MS`]. The operator's form sets it in seconds.
    #[serde(default)]
    pub timeout_ms: u64,
}

pub async fn provider_setting(d: &Db) -> ApiResult<Option<ProviderSetting>> {
    Ok(d.setting(SETTING)
        .await?
        .and_then(|v| serde_json::from_str(&v).ok()))
}

fn text(field: &'static str, raw: &str, max: usize) -> ApiResult<String> {
    let t = raw.trim();
    domain::validate::required(field, t)?;
    domain::validate::max_chars(field, t, max)?;
    domain::validate::plain_text(field, t)?;
    Ok(t.to_string())
}

/// Saves the provider (base URL `http(s)://…`, a model, a key — blank keeps the saved one — and how
/// many seconds it may take, 0 for [`DEFAULT_TIMEOUT_MS`]).
pub async fn save_provider(
    d: &Db,
    sealer: &Sealer,
    base_url: &str,
    model: &str,
    api_key: &str,
    timeout_s: u64,
) -> ApiResult<ProviderSetting> {
    if timeout_s > domain::seo::limits::PROVIDER_TIMEOUT_MAX_S {
        return Err(ApiError::invalid_with(
            "timeout_s",
            Msg::OutOfRange,
            vec![
                ("min", "0".into()),
                (
                    "max",
                    domain::seo::limits::PROVIDER_TIMEOUT_MAX_S.to_string(),
                ),
            ],
        ));
    }
    let base_url = text("base_url", base_url, domain::seo::limits::PROVIDER_URL_MAX)?;
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(ApiError::invalid_with(
            "base_url",
            Msg::InvalidValue,
            vec![("reason", "http(s)://…".into())],
        ));
    }
    let model = text("model", model, domain::seo::limits::PROVIDER_MODEL_MAX)?;
    let old = provider_setting(d).await?;
    let timeout_ms = timeout_s * 1000;
    let key_sealed = match (api_key.trim(), old) {
        ("", Some(old)) => old.key_sealed,
        ("", None) => return Err(ApiError::invalid("api_key", Msg::Required)),
        (k, _) => sealer.seal(k),
    };
    let s = ProviderSetting {
        base_url,
        model,
        key_sealed,
        timeout_ms,
    };
    d.set_setting(SETTING, &serde_json::to_string(&s).unwrap_or_default())
        .await?;
    // A new configuration starts with no failure to show.
    d.delete_setting(LAST_FALLBACK).await?;
    Ok(s)
}

pub async fn clear_provider(d: &Db) -> ApiResult<()> {
    d.delete_setting(SETTING).await?;
    d.delete_setting(LAST_FALLBACK).await?;
    Ok(())
}

/// The configured provider, ready to call; `None`: the built-in writer writes.
pub async fn provider(d: &Db, sealer: &Sealer) -> ApiResult<Option<LlmConfig>> {
    Ok(provider_setting(d).await?.map(|s| LlmConfig {
        base_url: s.base_url,
        api_key: sealer.open(&s.key_sealed).unwrap_or_default(),
        model: s.model,
        timeout_ms: if s.timeout_ms == 0 {
            DEFAULT_TIMEOUT_MS
        } else {
            s.timeout_ms
        },
    }))
}

// ---- asking ----

/// The provider's answer to a use's prompt, or why there is none (logged, and kept for the
/// operator's page: [`last_fallback`]).
pub async fn ask(
    d: &Db,
    cfg: &LlmConfig,
    u: Use,
    lang: Lang,
    vars: &[(&str, String)],
) -> Result<String, Fallback> {
    let (system, user) = prompt(u, lang, vars);
    match platforms::llm::complete(cfg, &system, &user).await {
        Ok(text) => Ok(text),
        Err(e) => Err(fell_back(
            d,
            cfg,
            u,
            Fallback {
                code: e.code,
                zh: e.zh,
                en: e.en,
            },
        )
        .await),
    }
}

/// The fallback when the provider answered but nothing in it passed the checks.
pub async fn unusable(d: &Db, cfg: &LlmConfig, u: Use) -> Fallback {
    fell_back(
        d,
        cfg,
        u,
        Fallback {
            code: "unusable".into(),
            zh: "AI 服务的回答中没有符合长度和违禁词要求的内容".into(),
            en: "nothing in the AI service's answer passed the length and banned-word checks"
                .into(),
        },
    )
    .await
}

const LAST_FALLBACK: &str = "seo.title_writer.last_fallback";

/// The provider's last failure, as the operator's page shows it: when, for which use, why.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct LastFallback {
    pub at: i64,
    pub use_: String,
    pub model: String,
    pub fallback: Fallback,
}

/// The provider's last failure since it was saved; `None` when it has not failed.
pub async fn last_fallback(d: &Db) -> ApiResult<Option<LastFallback>> {
    Ok(d.setting(LAST_FALLBACK)
        .await?
        .and_then(|v| serde_json::from_str(&v).ok()))
}

async fn fell_back(d: &Db, cfg: &LlmConfig, u: Use, f: Fallback) -> Fallback {
    tracing::warn!(
        use_ = u.code(),
        model = %cfg.model,
        code = %f.code,
        reason = %f.en,
        "the AI provider failed; the built-in writer wrote instead"
    );
    let last = LastFallback {
        at: domain::now_ms(),
        use_: u.code().to_string(),
        model: cfg.model.clone(),
        fallback: f.clone(),
    };
    if let Err(e) = d
        .set_setting(
            LAST_FALLBACK,
            &serde_json::to_string(&last).unwrap_or_default(),
        )
        .await
    {
        tracing::error!(error = %e, "could not keep the AI provider's last failure");
    }
    f
}

/// One line of an answer without its numbering, bullet or quotes: "1. x" / "2、x" / "- x" -> "x".
pub fn strip_number(line: &str) -> String {
    let t = line.trim();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.trim_start_matches(['.', '、', ')', '）', '-', '*', '•', ' ', '\t']);
    t.trim()
        .trim_matches(['"', '“', '”', '「', '」'])
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prompt_has_both_languages_and_the_same_slots() {
        for u in Use::ALL {
            let slots = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split_once('}').map(|(k, _)| k.to_string()))
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let mut both = vec![];
            for l in ["zh", "en"] {
                let sys = section(u.file(), &format!("{l}.system"));
                let user = section(u.file(), &format!("{l}.user"));
                assert!(!sys.is_empty() && !user.is_empty(), "{} {l}", u.code());
                assert!(
                    user.lines().next().unwrap().contains(u.code()),
                    "{} {l}: the first user line names the task",
                    u.code()
                );
                both.push(slots(&format!("{sys}\n{user}")));
            }
            assert_eq!(both[0], both[1], "{}", u.code());
        }
        let (s, u) = prompt(
            Use::Titles,
            Lang::En,
            &[
                ("keywords", "a, b".into()),
                ("count", "3".into()),
                ("max_chars", "30".into()),
            ],
        );
        assert!(s.starts_with("You write"), "{s}");
        assert!(
            u.contains("Keywords: a, b") && u.contains("Count: 3"),
            "{u}"
        );
        assert!(!u.contains('{'), "{u}");
    }

    #[test]
    fn a_source_is_kept_and_read_back() {
        for s in [
            Source::BuiltIn,
            Source::Llm {
                model: "gpt-x".into(),
            },
        ] {
            assert_eq!(Source::parse(&s.code()), s);
        }
        assert_eq!(Source::parse("llm"), Source::Llm { model: "".into() });
        let f = Fallback {
            code: "timeout".into(),
            zh: "超时".into(),
            en: "timed out".into(),
        };
        assert_eq!(
            kept(&keep(&Source::BuiltIn, Some(&f))),
            (Source::BuiltIn, Some(f))
        );
        let llm = Source::Llm { model: "m".into() };
        assert_eq!(kept(&keep(&llm, None)), (llm, None));
        assert_eq!(kept("builtin"), (Source::BuiltIn, None));
        assert_eq!(Source::parse(""), Source::BuiltIn);
        assert_eq!(
            serde_json::to_value(Source::Llm { model: "m".into() }).unwrap(),
            serde_json::json!({"kind": "llm", "model": "m"})
        );
        assert_eq!(strip_number("2、“好标题”"), "好标题");
    }
}
