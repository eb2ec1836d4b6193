//! Titles from patterns: fill the slots within the character limit, drop banned and near-duplicate
//! titles, score by keyword coverage.

use super::banned::Banned;
use super::patterns::{self, Category, Pattern, Piece, Slot};
use super::{Keyword, Lexicon, SeoError};
use crate::clip::planner::SplitMix;
use crate::i18n::Lang;
use std::collections::HashSet;

/// What to write titles about, and within which limits.
#[derive(Debug, Clone)]
pub struct TitleRequest {
    pub lang: Lang,
    /// Selling points with weights (from [`super::extract_keywords`], or typed: [`Keyword::plain`]).
    pub keywords: Vec<Keyword>,
    pub lexicon: Lexicon,
    /// Category codes ([`Category::code`]); empty: all.
    pub categories: Vec<String>,
    pub count: usize,
    /// Characters (not bytes) per title, topics included: [`super::RELEASE_TITLE_MAX`] or
    /// [`super::CLIP_TITLE_MAX`].
    pub max_chars: usize,
    /// Appended as ` #topic` while they fit.
    pub topics: Vec<String>,
    /// Fills `{price}` (e.g. "39.9元"); patterns with `{price}` are skipped without one.
    pub price: Option<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Title {
    pub text: String,
    pub category: Category,
    /// The weighted share of the request's words that the title carries, 0..=1.
    pub score: f64,
    /// The request's words found in the title.
    pub keywords_used: Vec<String>,
}

const NUMS: &[&str] = &["3", "5", "6", "7", "8", "9", "10"];
/// Longest topic kept, in characters.
/// A topic's longest word (characters after the `#`).
pub const TOPIC_MAX: usize = 20;

/// A candidate for a slot, with its length in characters.
struct Word {
    text: String,
    chars: usize,
}

/// A word the score looks for: folded for matching, shown as given.
struct Term {
    folded: String,
    shown: String,
    chars: usize,
    weight: f64,
}

/// Everything prepared once per request.
struct Prepared {
    lang: Lang,
    max: usize,
    banned: Banned,
    /// Indexed by `slot_index`; `Point2` draws from the points.
    values: [Vec<Word>; 6],
    terms: Vec<Term>,
    /// Terms from here on (brands, regions, points) may end a title as a tail (`… | word`).
    tails_from: usize,
    total_weight: f64,
    topics: Vec<Word>,
}

fn slot_index(s: Slot) -> usize {
    match s {
        Slot::Product => 0,
        Slot::Brand => 1,
        Slot::Region => 2,
        Slot::Point | Slot::Point2 => 3,
        Slot::Num => 4,
        Slot::Price => 5,
    }
}

fn fold(lang: Lang, s: &str) -> String {
    match lang {
        Lang::Zh => s.to_string(),
        Lang::En => s.to_lowercase(),
    }
}

/// `count` titles for the request, best first. Deterministic for a request and a seed.
pub fn generate(req: &TitleRequest, seed: u64) -> Result<Vec<Title>, SeoError> {
    let categories = categories(&req.categories)?;
    let p = prepare(req)?;
    if req.count == 0 {
        return Ok(vec![]);
    }
    let mut usable: Vec<&Pattern> = patterns::library(req.lang)
        .iter()
        .filter(|pat| categories.contains(&pat.category) && p.fits_at_all(pat))
        .collect();
    if usable.is_empty() {
        return Err(SeoError::NothingFits(req.max_chars));
    }
    let mut rng = SplitMix(seed ^ 0x7365_6f5f_7469_746c);
    shuffle(&mut usable, &mut rng);

    // Twice as many as asked, so the best can be chosen; attempts are bounded for small word sets
    // whose combinations run out.
    let target = req.count.saturating_mul(2);
    let attempts = target.saturating_mul(4).saturating_add(64);
    // Each title with the index of its pattern, for the spread in `pick`.
    let mut pool: Vec<(Title, usize)> = Vec::with_capacity(target.min(1 << 16));
    let mut seen: HashSet<String> = HashSet::new();
    for i in 0..attempts {
        if pool.len() >= target {
            break;
        }
        let which = i % usable.len();
        let pat = usable[which];
        let Some(text) = p.fill(pat, &mut rng) else {
            continue;
        };
        if !seen.insert(near_key(p.lang, &text)) {
            continue;
        }
        // Scored before topics: a hashtag repeating a keyword adds nothing to the title itself.
        let (score, keywords_used) = p.score(&text);
        let text = p.with_topics(text, &mut rng);
        if p.banned.hits(&text) {
            continue;
        }
        pool.push((
            Title {
                text,
                category: pat.category,
                score,
                keywords_used,
            },
            which,
        ));
    }
    if pool.is_empty() {
        return Err(SeoError::NothingFits(req.max_chars));
    }
    Ok(pick(pool, req.count))
}

fn categories(codes: &[String]) -> Result<Vec<Category>, SeoError> {
    if codes.is_empty() {
        return Ok(Category::ALL.to_vec());
    }
    codes
        .iter()
        .map(|c| Category::parse(c.trim()).ok_or_else(|| SeoError::UnknownCategory(c.clone())))
        .collect()
}

fn prepare(req: &TitleRequest) -> Result<Prepared, SeoError> {
    let lang = req.lang;
    let banned = Banned::new(&req.lexicon.banned);
    let mut taken: HashSet<String> = HashSet::new();
    // Trimmed, not banned, not already used for another slot.
    let mut clean = |words: &mut dyn Iterator<Item = &str>| -> Vec<Word> {
        words
            .map(str::trim)
            .filter(|w| !w.is_empty() && !banned.hits(w) && taken.insert(fold(lang, w)))
            .map(|w| Word {
                text: w.to_string(),
                chars: w.chars().count(),
            })
            .collect()
    };
    let lex = &req.lexicon;
    let mut product = clean(&mut lex.products.iter().map(String::as_str));
    let brand = clean(&mut lex.brands.iter().map(String::as_str));
    let region = clean(&mut lex.regions.iter().map(String::as_str));
    let mut keywords: Vec<&Keyword> = req.keywords.iter().collect();
    keywords.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    // A point inside a product or brand ("火锅" of "老火锅") would only repeat it.
    let names: Vec<String> = product
        .iter()
        .chain(&brand)
        .map(|w| fold(lang, &w.text))
        .collect();
    let inside = |w: &str| {
        names
            .iter()
            .any(|n| n.contains(fold(lang, w.trim()).as_str()))
    };
    let mut point = clean(
        &mut keywords
            .iter()
            .map(|k| k.word.as_str())
            .filter(|w| !inside(w)),
    );
    let mut point_weights: Vec<f64> = vec![];
    let best = keywords
        .first()
        .map_or(1.0, |k| k.weight.max(f64::MIN_POSITIVE));
    for w in &point {
        let k = keywords.iter().find(|k| k.word.trim() == w.text);
        point_weights.push(k.map_or(1.0, |k| (k.weight / best).clamp(0.1, 1.0)));
    }
    let long_tail = clean(&mut lex.long_tail.iter().map(String::as_str));
    point_weights.extend(long_tail.iter().map(|_| 0.6));
    point.extend(long_tail);
    if product.is_empty() && !point.is_empty() {
        // Without a product word the strongest keyword names the product.
        product.push(point.remove(0));
        point_weights.remove(0);
    }
    if product.is_empty() {
        return Err(SeoError::EmptyKeywords);
    }
    let price = clean(&mut req.price.iter().map(String::as_str));
    let num = NUMS
        .iter()
        .map(|n| Word {
            text: n.to_string(),
            chars: n.len(),
        })
        .collect();

    let mut terms = vec![];
    for (words, weights) in [
        (&product, vec![1.0; product.len()]),
        (&brand, vec![0.8; brand.len()]),
        (&region, vec![0.5; region.len()]),
        (&point, point_weights),
    ] {
        for (w, weight) in words.iter().zip(weights) {
            let (folded, shown, chars) = (fold(lang, &w.text), w.text.clone(), w.chars);
            terms.push(Term {
                folded,
                shown,
                chars,
                weight,
            });
        }
    }
    let total_weight = terms.iter().map(|t| t.weight).sum();
    let topics = req
        .topics
        .iter()
        .filter_map(|t| hashtag(t))
        .filter(|t| !banned.hits(t))
        .map(|t| Word {
            chars: t.chars().count(),
            text: t,
        })
        .collect();
    Ok(Prepared {
        lang,
        max: req.max_chars,
        banned,
        tails_from: product.len(),
        values: [product, brand, region, point, num, price],
        terms,
        total_weight,
        topics,
    })
}

impl Prepared {
    fn words(&self, s: Slot) -> &[Word] {
        &self.values[slot_index(s)]
    }

    fn shortest(&self, s: Slot) -> usize {
        self.words(s)
            .iter()
            .map(|w| w.chars)
            .min()
            .unwrap_or(usize::MAX / 8)
    }

    /// Every slot has a word, and the shortest words fit the limit.
    fn fits_at_all(&self, pat: &Pattern) -> bool {
        let mut need = pat.fixed_chars;
        for piece in &pat.pieces {
            if let Piece::Slot(s) = piece {
                let n = self.words(*s).len();
                if n == 0 || (*s == Slot::Point2 && n < 2) {
                    return false;
                }
                need += self.shortest(*s);
            }
        }
        need <= self.max
    }

    /// Fills the slots with random words, each chosen among those that still leave room for the
    /// shortest words of the slots after it, so a title never needs cutting.
    fn fill(&self, pat: &Pattern, rng: &mut SplitMix) -> Option<String> {
        let mut room = self.max.checked_sub(pat.fixed_chars)?;
        let mut later: usize = pat
            .pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Slot(s) => Some(self.shortest(*s)),
                Piece::Text(_) => None,
            })
            .sum();
        let mut text = String::with_capacity(self.max * 3);
        let mut point_used = None;
        for piece in &pat.pieces {
            let s = match piece {
                Piece::Text(t) => {
                    text.push_str(t);
                    continue;
                }
                Piece::Slot(s) => *s,
            };
            let words = self.words(s);
            later -= self.shortest(s);
            let fits = room.checked_sub(later)?;
            // The lower of two draws: words listed first (heavier keywords) come up more often.
            let start = rng.below(words.len()).min(rng.below(words.len()));
            let i = (0..words.len())
                .map(|k| (start + k) % words.len())
                .find(|&i| {
                    let repeat = matches!(s, Slot::Point | Slot::Point2) && point_used == Some(i);
                    words[i].chars <= fits && !repeat
                })?;
            if matches!(s, Slot::Point | Slot::Point2) {
                point_used = Some(i);
            }
            room -= words[i].chars;
            text.push_str(&words[i].text);
        }
        // Two titles in three get a tail when one fits: more coverage, and more distinct titles
        // from few words.
        if rng.below(3) > 0 {
            self.add_tail(&mut text, room, rng);
        }
        if self.lang == Lang::En {
            capitalize(&mut text);
        }
        Some(text)
    }

    /// Appends ` | word` (zh `｜word`) with a brand, region or selling point the title lacks.
    fn add_tail(&self, text: &mut String, room: usize, rng: &mut SplitMix) {
        let sep = match self.lang {
            Lang::Zh => "｜",
            Lang::En => " | ",
        };
        let tails = &self.terms[self.tails_from..];
        if tails.is_empty() {
            return;
        }
        let folded = fold(self.lang, text);
        let start = rng.below(tails.len());
        let fits = (0..tails.len())
            .map(|k| &tails[(start + k) % tails.len()])
            .find(|t| t.chars + sep.chars().count() <= room && !folded.contains(t.folded.as_str()));
        if let Some(t) = fits {
            text.push_str(sep);
            text.push_str(&t.shown);
        }
    }

    /// Appends topics from a random one on, while they fit.
    fn with_topics(&self, mut text: String, rng: &mut SplitMix) -> String {
        if self.topics.is_empty() {
            return text;
        }
        let mut len = text.chars().count();
        let start = rng.below(self.topics.len());
        for k in 0..self.topics.len() {
            let t = &self.topics[(start + k) % self.topics.len()];
            if len + 1 + t.chars <= self.max {
                text.push(' ');
                text.push_str(&t.text);
                len += 1 + t.chars;
            }
        }
        text
    }

    fn score(&self, text: &str) -> (f64, Vec<String>) {
        let folded = fold(self.lang, text);
        let mut used = vec![];
        let mut weight = 0.0;
        for t in &self.terms {
            if folded.contains(t.folded.as_str()) {
                weight += t.weight;
                used.push(t.shown.clone());
            }
        }
        (weight / self.total_weight.max(f64::MIN_POSITIVE), used)
    }
}

/// Letters and digits only, folded: titles differing in punctuation, spaces or case are one title.
fn near_key(lang: Lang, text: &str) -> String {
    fold(lang, text)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

fn capitalize(text: &mut String) {
    if let Some(first) = text.chars().next().filter(|c| c.is_lowercase()) {
        let upper: String = first.to_uppercase().collect();
        text.replace_range(..first.len_utf8(), &upper);
    }
}

/// Best first, but at most `ceil(count / kinds)` per category and `ceil(count / patterns)` per
/// pattern while others have titles left, so a short list shows several kinds and wordings.
fn pick(mut pool: Vec<(Title, usize)>, count: usize) -> Vec<Title> {
    pool.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    let kinds: HashSet<Category> = pool.iter().map(|t| t.0.category).collect();
    let patterns: HashSet<usize> = pool.iter().map(|t| t.1).collect();
    let cap_kind = count.div_ceil(kinds.len().max(1));
    let cap_pattern = count.div_ceil(patterns.len().max(1));
    let mut per_kind = [0usize; Category::ALL.len()];
    let mut per_pattern = vec![0usize; patterns.iter().max().map_or(0, |m| m + 1)];
    let (mut out, mut rest) = (vec![], vec![]);
    for (t, p) in pool {
        let k = t.category as usize;
        if out.len() < count && per_kind[k] < cap_kind && per_pattern[p] < cap_pattern {
            per_kind[k] += 1;
            per_pattern[p] += 1;
            out.push(t);
        } else {
            rest.push(t);
        }
    }
    let missing = count.saturating_sub(out.len());
    out.extend(rest.into_iter().take(missing));
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

fn shuffle<T>(v: &mut [T], rng: &mut SplitMix) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// "glow serum" -> "#GlowSerum", "火锅 " -> "#火锅"; None when nothing is left or it is too long.
fn hashtag(word: &str) -> Option<String> {
    let mut tag = String::from("#");
    for part in word
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
    {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            tag.extend(first.to_uppercase());
            tag.push_str(chars.as_str());
        }
    }
    let n = tag.chars().count() - 1;
    (n > 0 && n <= TOPIC_MAX).then_some(tag)
}

/// A writer's proposed topics (`#word` or `word`, one each) through the same rules as [`topics`]:
/// made hashtags, at most [`TOPIC_MAX`] long, no built-in or merchant banned word, no duplicates; the
/// first `n`, in the writer's order.
pub fn screen_topics<S: AsRef<str>>(
    lines: &[S],
    n: usize,
    merchant_banned: &[String],
) -> Vec<String> {
    let banned = Banned::new(merchant_banned);
    let mut seen = HashSet::new();
    lines
        .iter()
        .filter_map(|l| hashtag(l.as_ref().trim().trim_start_matches(['#', '＃'])))
        .filter(|t| !banned.hits(t) && seen.insert(t.to_lowercase()))
        .take(n)
        .collect()
}

/// `n` hashtags (`#word`) from the keywords, in a random order for the seed, drawn from the first
/// `2n` usable keywords so they stay relevant. Banned words and over-long words are skipped.
pub fn topics<S: AsRef<str>>(keywords: &[S], n: usize, seed: u64) -> Vec<String> {
    let banned = Banned::new(&[]);
    let mut seen = HashSet::new();
    let mut tags: Vec<String> = keywords
        .iter()
        .filter_map(|k| hashtag(k.as_ref()))
        .filter(|t| !banned.hits(t) && seen.insert(t.to_lowercase()))
        .take(n.saturating_mul(2))
        .collect();
    shuffle(&mut tags, &mut SplitMix(seed ^ 0x746f_7069_6373));
    tags.truncate(n);
    tags
}
