//! Keyword search and mining through the platforms' adapters (hot search, search suggestions), with
//! what the merchant already has: collected words and how many of its posted titles carry a word.

use crate::error::{ApiError, ApiResult};
use crate::platform::{self as hub, Hub};
use domain::i18n::Msg;
use domain::seo::DataSource;
use platforms::{HotWord, Platform, SearchWord, SearchWordKind};
use std::collections::HashSet;
use store::Db;
use store::seo as db;

/// Posted titles read for "covered" (the newest).
const COVER_TITLES: i64 = 20_000;
/// Level-1 words mined again for level 2.
const EXCAVATE_FANOUT: usize = 8;

pub struct Found {
    pub word: SearchWord,
    pub depth: u8,
    pub parent: String,
    pub collected: bool,
    pub covered: i64,
}

/// The platforms that have these calls (the others answer "not supported").
fn search_platform(code: &str) -> ApiResult<platforms::Platform> {
    let p = hub::platform(code)?;
    if !matches!(p, platforms::Platform::Dy | platforms::Platform::Ks) {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy | ks".into())],
        ));
    }
    Ok(p)
}

/// The seed word, checked.
fn seed(word: &str) -> ApiResult<String> {
    super::library::text("word", word, domain::seo::limits::SEED_MAX)
}

struct Mine {
    collected: HashSet<String>,
    titles: Vec<String>,
}

impl Mine {
    async fn load(d: &Db, mid: i64, platform: &str) -> ApiResult<Mine> {
        Ok(Mine {
            collected: db::collected_words(d, mid, platform)
                .await?
                .into_iter()
                .collect(),
            titles: db::posted_titles(d, mid, COVER_TITLES)
                .await?
                .into_iter()
                .map(|t| t.to_lowercase())
                .collect(),
        })
    }
    fn covered(&self, word: &str) -> i64 {
        let w = word.to_lowercase();
        self.titles.iter().filter(|t| t.contains(&w)).count() as i64
    }
    fn found(&self, word: SearchWord, depth: u8, parent: &str) -> Found {
        Found {
            collected: self.collected.contains(&word.word),
            covered: self.covered(&word.word),
            parent: parent.to_string(),
            depth,
            word,
        }
    }
}

/// Where a platform's search words (with heat and trend) come from: no platform's open API and no
/// implemented vendor offers them (docs/seo-platforms.md), so the sandbox's simulation in the
/// sandbox mode, else none.
async fn words_source(h: &Hub, p: Platform) -> ApiResult<DataSource> {
    let sandbox = match h.adapter(p).await {
        Ok((_, sandbox)) => sandbox,
        Err(_) => false,
    };
    Ok(if sandbox {
        DataSource::Sandbox
    } else {
        DataSource::None
    })
}

fn suggest(h: &Hub, p: Platform, src: DataSource, word: &str) -> ApiResult<Vec<SearchWord>> {
    match src {
        DataSource::Sandbox => platforms::sandbox::simulated_suggest(p, word, &h.db.clock)
            .map_err(|e| hub::refused("word", &e)),
        _ => Ok(vec![]),
    }
}

/// Related search words of a seed, and their source (none: no words).
pub async fn search(
    h: &Hub,
    mid: i64,
    platform: &str,
    word: &str,
) -> ApiResult<(Vec<Found>, DataSource)> {
    let p = search_platform(platform)?;
    let word = seed(word)?;
    let src = words_source(h, p).await?;
    let words = suggest(h, p, src, &word)?;
    let mine = Mine::load(&h.db, mid, p.code()).await?;
    Ok((
        words.into_iter().map(|w| mine.found(w, 1, &word)).collect(),
        src,
    ))
}

/// Long-tail mining two levels deep: the seed's words, then the words of its best long-tail and
/// related words; each word once (where it first showed), hottest first within a level.
pub async fn excavate(
    h: &Hub,
    mid: i64,
    platform: &str,
    word: &str,
) -> ApiResult<(Vec<Found>, DataSource)> {
    let p = search_platform(platform)?;
    let word = seed(word)?;
    let src = words_source(h, p).await?;
    let mine = Mine::load(&h.db, mid, p.code()).await?;
    let first = suggest(h, p, src, &word)?;
    let mut seen: HashSet<String> = first.iter().map(|w| w.word.clone()).collect();
    let mut next: Vec<&SearchWord> = first
        .iter()
        .filter(|w| w.kind != SearchWordKind::Seed)
        .collect();
    next.sort_by_key(|w| std::cmp::Reverse(w.heat));
    next.truncate(EXCAVATE_FANOUT);
    let mut out: Vec<Found> = vec![];
    for parent in next.iter().map(|w| w.word.clone()).collect::<Vec<_>>() {
        for w in suggest(h, p, src, &parent)? {
            if seen.insert(w.word.clone()) {
                out.push(mine.found(w, 2, &parent));
            }
        }
    }
    let mut level1: Vec<Found> = first.into_iter().map(|w| mine.found(w, 1, &word)).collect();
    level1.sort_by_key(|f| std::cmp::Reverse(f.word.heat));
    out.sort_by_key(|f| std::cmp::Reverse(f.word.heat));
    level1.extend(out);
    Ok((level1, src))
}

pub struct Hot {
    pub word: HotWord,
    pub collected: bool,
}

/// The hot-search list and its source: DY's open platform (`/hotsearch/sentences/`) with the
/// operator's app, or the sandbox (DY's real paths imitated; KS, which has no hot-search API,
/// simulated); KS live: none.
pub async fn hot(h: &Hub, mid: i64, platform: &str) -> ApiResult<(Vec<Hot>, DataSource)> {
    let p = search_platform(platform)?;
    let (a, sandbox) = h.adapter(p).await?;
    let (words, src) = match (p, sandbox) {
        (Platform::Dy, _) => (
            a.hot_search()
                .await
                .map_err(|e| hub::refused("platform", &e))?,
            if sandbox {
                DataSource::Sandbox
            } else {
                DataSource::DouyinOpen
            },
        ),
        (_, true) => (
            platforms::sandbox::simulated_hot(p, &h.db.clock),
            DataSource::Sandbox,
        ),
        _ => (vec![], DataSource::None),
    };
    let collected: HashSet<String> = db::collected_words(&h.db, mid, p.code())
        .await?
        .into_iter()
        .collect();
    Ok((
        words
            .into_iter()
            .map(|w| Hot {
                collected: collected.contains(&w.word),
                word: w,
            })
            .collect(),
        src,
    ))
}

/// Douyin's keyword video search (`/video/search/`): anyone's videos of the last day for the word,
/// read with one of the merchant's Douyin accounts that granted `video.search` (the app must hold
/// that permission and have the keyword registered). No such account: none, and the console says
/// what would provide it.
pub async fn videos(
    h: &Hub,
    mid: i64,
    word: &str,
) -> ApiResult<(Vec<platforms::KeywordVideo>, DataSource)> {
    let word = seed(word)?;
    let Some(a) = store::matrix::account_with_scope(
        &h.db,
        mid,
        Platform::Dy.code(),
        platforms::DY_SCOPE_SEARCH,
    )
    .await?
    else {
        return Ok((vec![], DataSource::None));
    };
    let (ad, sandbox) = h.adapter(Platform::Dy).await?;
    let found = ad
        .keyword_videos(&h.creds(&a), &word, KEYWORD_VIDEOS)
        .await
        .map_err(|e| hub::refused("word", &e))?;
    let src = if sandbox {
        DataSource::Sandbox
    } else {
        DataSource::DouyinOpen
    };
    Ok((found, src))
}

/// Videos shown for a keyword (Douyin pages by 20 at most).
pub const KEYWORD_VIDEOS: usize = 40;

pub async fn collect(
    d: &Db,
    mid: i64,
    platform: &str,
    word: &str,
    heat: i64,
    now: i64,
) -> ApiResult<(db::CollectedRow, i64)> {
    let p = search_platform(platform)?;
    let word = seed(word)?;
    if heat < 0 {
        return Err(ApiError::invalid_with(
            "heat",
            Msg::InvalidValue,
            vec![("reason", "≥ 0".into())],
        ));
    }
    let row = db::collect(d, mid, p.code(), &word, heat, now).await?;
    let covered = Mine::load(d, mid, p.code()).await?.covered(&word);
    Ok((row, covered))
}

/// The collected words with how many posted titles carry each.
pub async fn collected(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<(db::CollectedRow, i64)>, store::list::Total)> {
    let (rows, total) = db::collected(d, mid, q).await?;
    let mine = Mine::load(d, mid, "").await?;
    let rows = rows
        .into_iter()
        .map(|r| {
            let n = mine.covered(&r.word);
            (r, n)
        })
        .collect();
    Ok((rows, total))
}

pub async fn delete_collected(d: &Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    if db::delete_collected(d, mid, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}
