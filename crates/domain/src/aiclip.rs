//! One-touch video (issue 19; `/media.merchant_key_slice/*`, `/clip.merchant_ai_clip/*`, page /newAiHome):
//! a topic becomes a script (the built-in writer below or a configured LLM provider), the script a
//! voice-over with one subtitle line per sentence, the sentences are matched to the merchant's shot
//! groups (by group names, tags and the clips' recognized speech, and by length), and the mix engine
//! renders unique variants. No I/O here: the rules, the writer, the matching and the job's states.

use crate::i18n::Msg;
use crate::seo::{self as keywords, Lexicon};
use crate::validate::Invalid;
use serde::{Deserialize, Serialize};

/// A topic or product description is 2–200 characters.
pub const TOPIC_MAX: usize = 200;
/// Variants per one-touch request.
pub const MAX_VARIANTS: i64 = 20;
pub const DEFAULT_VARIANTS: i64 = 5;
/// The built-in writer's shortest script (a hook, two sentences, a call to action).
pub const MIN_SENTENCES: usize = 4;
/// At most this many shots are matched (the planner's groups).
pub const MAX_SHOTS: usize = 8;
/// An image project shows one image per sentence, at most this many.
pub const MAX_IMAGE_SHOTS: usize = 12;
/// The target length of a one-touch video, seconds (SPEC gives none; 15–60 s, 30 by default).
pub const SECONDS: (i64, i64) = (15, 60);
pub const DEFAULT_SECONDS: i64 = 30;
/// What a one-touch project is made of: the merchant's video clips (shot groups) or images.
pub const KINDS: [&str; 2] = ["video", "image"];
/// A script is voiced whole up to this many characters (a 60 s target needs ~270 Chinese characters or
/// ~800 English ones); a provider's longer answer is cut at a sentence.
pub const MAX_SCRIPT_CHARS: usize = 1000;

/// Where a one-touch job is. `Draft` is an AI clip project not started yet (`add`/`edit`);
/// `createVideo`/`oneTouchNew` queue it; the job runs the steps; `Rendering` is while its variants are
/// made by the mix engine (each a `clip.render` job); `Done` when none renders any more and one
/// succeeded; `Failed` with a reason (a failed step, or every variant failed — their points refunded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Draft,
    Queued,
    Script,
    Voice,
    Match,
    Rendering,
    Done,
    Failed,
}

impl State {
    pub const ALL: [State; 8] = [
        State::Draft,
        State::Queued,
        State::Script,
        State::Voice,
        State::Match,
        State::Rendering,
        State::Done,
        State::Failed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            State::Draft => "draft",
            State::Queued => "queued",
            State::Script => "script",
            State::Voice => "voice",
            State::Match => "match",
            State::Rendering => "rendering",
            State::Done => "done",
            State::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<State> {
        State::ALL.into_iter().find(|x| x.as_str() == s)
    }

    /// Working: not editable, not deletable.
    pub fn busy(self) -> bool {
        matches!(
            self,
            State::Queued | State::Script | State::Voice | State::Match | State::Rendering
        )
    }

    /// The job's steps run in order; a draft or a failed one may be (re)started; a finished one is
    /// final (a copy makes more).
    pub fn can_become(self, next: State) -> bool {
        use State::*;
        matches!(
            (self, next),
            (Draft | Failed, Queued)
                | (Queued | Script, Script)
                | (Script | Voice, Voice)
                | (Voice | Match, Match)
                | (Match, Rendering)
                | (Rendering, Done)
                | (Queued | Script | Voice | Match | Rendering, Failed)
        )
    }

    /// The overall progress at the start of a step (the render takes the last 60 %).
    pub fn base_progress(self) -> i64 {
        match self {
            State::Draft | State::Queued => 0,
            State::Script => 5,
            State::Voice => 15,
            State::Match => 35,
            State::Rendering => 40,
            State::Done => 100,
            State::Failed => 0,
        }
    }
}

/// What a request asks for, checked.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Request {
    /// `video` (shot groups' clips) or `image` (a slideshow of the merchant's images).
    #[serde(default = "video")]
    pub kind: String,
    /// The target length, seconds: the script is written to be voiced in about that long.
    #[serde(default = "thirty")]
    pub seconds: i64,
    pub topic: String,
    #[serde(default)]
    pub name: String,
    /// The merchant's groups to draw from (empty: all with ready clips); for an image project, image
    /// categories (empty: every ready image).
    #[serde(default)]
    pub group_ids: Vec<i64>,
    #[serde(default = "five")]
    pub count: i64,
    /// A built-in TTS voice (default: the template's, else zf_xiaoxiao / af_heart for English).
    #[serde(default)]
    pub voice: String,
    /// A clip template for the style (music mood, title pattern, subtitle style), optional.
    #[serde(default)]
    pub template_id: Option<i64>,
}

fn five() -> i64 {
    DEFAULT_VARIANTS
}

fn video() -> String {
    "video".into()
}

fn thirty() -> i64 {
    DEFAULT_SECONDS
}

impl Request {
    pub fn validate(&self) -> Result<(), Invalid> {
        let t = self.topic.trim();
        if t.is_empty() {
            return Err(Invalid {
                field: "topic",
                msg: Msg::Required,
                args: vec![],
            });
        }
        crate::validate::max_chars("topic", t, TOPIC_MAX)?;
        crate::validate::max_chars("name", self.name.trim(), 50)?;
        crate::validate::plain_text("topic", t)?;
        crate::validate::plain_text("name", &self.name)?;
        if !KINDS.contains(&self.kind.as_str()) {
            return Err(Invalid {
                field: "kind",
                msg: Msg::OneTouchKind,
                args: vec![],
            });
        }
        if !(SECONDS.0..=SECONDS.1).contains(&self.seconds) {
            return Err(Invalid {
                field: "seconds",
                msg: Msg::OneTouchSeconds,
                args: vec![
                    ("min", SECONDS.0.to_string()),
                    ("max", SECONDS.1.to_string()),
                ],
            });
        }
        if !(1..=MAX_VARIANTS).contains(&self.count) {
            return Err(Invalid {
                field: "variants",
                msg: Msg::InvalidValue,
                args: vec![("reason", format!("1–{MAX_VARIANTS}"))],
            });
        }
        Ok(())
    }

    /// The project's name: given, else the topic's first 20 characters.
    pub fn display_name(&self) -> String {
        let n = self.name.trim();
        if n.is_empty() {
            self.topic.trim().chars().take(20).collect()
        } else {
            n.to_string()
        }
    }

    pub fn english(&self) -> bool {
        !self.topic.chars().any(is_han)
    }

    pub fn images(&self) -> bool {
        self.kind == "image"
    }
}

fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

// ---- the built-in script writer ----

const ZH_HOOK: &[&str] = &[
    "今天给大家推荐{k0}。",
    "想找靠谱的{k0}，看这条就够了。",
    "刷到这条视频的朋友有福了。",
    "说起{k0}，很多人都会想到我们。",
];
const ZH_BODY: &[&str] = &[
    "{k}，每一个细节都用心。",
    "说到{k}，我们一直很讲究。",
    "很多老顾客专门为了{k}而来。",
    "{k}，看得见的好品质。",
    "我们的{k}，口碑一直很好。",
    "选{k}，就要选放心的。",
    "{k}的用料，我们从不将就。",
    "第一次尝试{k}的朋友，也会爱上它。",
    "{k}背后，是多年的手艺和坚持。",
    "每天都有人为{k}专程赶来。",
    "把{k}做好，是我们每天的功课。",
    "{k}，用心做给每一位客人。",
];
const ZH_BENEFIT: &[&str] = &[
    "品质有保障，价格也实在。",
    "环境舒服，服务也很贴心。",
    "体验过的朋友都说值得。",
    "不管是自己来还是带家人，都很合适。",
    "交通方便，停车也不用发愁。",
    "有任何问题，我们都会耐心解答。",
    "新老顾客都能享受贴心服务。",
    "用心对待每一位客人，是我们的承诺。",
];
const ZH_CTA: &[&str] = &[
    "心动不如行动，快来看看吧！",
    "点击下方链接，马上了解详情。",
    "关注我们，每天都有新惊喜。",
];
const EN_HOOK: &[&str] = &[
    "Looking for {k0}? Here it is.",
    "Today we want to show you {k0}.",
    "If you love {k0}, keep watching.",
];
const EN_BODY: &[&str] = &[
    "Our {k} is made with care.",
    "People come back for the {k}.",
    "The {k} speaks for itself.",
    "Every detail of the {k} matters to us.",
    "We never cut corners on the {k}.",
    "First-timers fall for the {k} too.",
    "Years of craft go into the {k}.",
    "Guests travel across town for the {k}.",
    "Getting the {k} right is our daily work.",
    "We make the {k} fresh for every guest.",
];
const EN_BENEFIT: &[&str] = &[
    "Good quality at a fair price.",
    "A friendly team and a warm welcome.",
    "Our customers say it is worth it.",
    "Bring the whole family along.",
    "It is easy to get here, and parking is simple.",
    "Ask us anything, we are happy to help.",
    "New and regular guests get the same care.",
    "Treating every guest well is our promise.",
];
const EN_CTA: &[&str] = &[
    "Come and see for yourself!",
    "Follow us for more every day.",
    "Tap the link below to find out more.",
];

fn pick<'a>(list: &[&'a str], seed: u64, salt: u64) -> &'a str {
    list[((seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(salt * 1442695040888963407))
        >> 33) as usize
        % list.len()]
}

/// The words a script is built around: the merchant's products and brands named in the topic, then
/// the topic's keywords; the topic itself (cut short) when it gives none.
pub fn script_words(topic: &str, lexicon: &Lexicon) -> Vec<String> {
    let mut words: Vec<String> = keywords::extract_keywords(topic, 4, lexicon)
        .into_iter()
        .map(|k| k.word)
        .filter(|w| w.chars().count() >= 2)
        .collect();
    if words.is_empty() {
        words.push(topic.trim().chars().take(12).collect());
    }
    words
}

/// How long a sentence takes to voice, ms (the built-in voices at normal speed: ~4.4 Chinese characters
/// or ~2.6 English words a second, plus the pause between sentences).
pub fn spoken_ms(sentence: &str) -> i64 {
    const PAUSE_MS: i64 = 350;
    let han = sentence.chars().filter(|c| is_han(*c)).count() as i64;
    if han > 0 {
        han * 1000 * 10 / 44 + PAUSE_MS
    } else {
        sentence.split_whitespace().count() as i64 * 1000 * 10 / 26 + PAUSE_MS
    }
}

/// A voice-over script for a topic, long enough to be voiced in about `seconds`: a hook, sentences
/// about the topic's words (each pattern and word once) with a benefit after every third, and a call
/// to action — never fewer than [`MIN_SENTENCES`], each short enough for one subtitle line. `seed`
/// varies the wording.
pub fn write_script(topic: &str, lexicon: &Lexicon, seed: u64, seconds: i64) -> Vec<String> {
    let words = script_words(topic, lexicon);
    let en = !topic.chars().any(is_han);
    let (hook, body, benefit, cta) = if en {
        (EN_HOOK, EN_BODY, EN_BENEFIT, EN_CTA)
    } else {
        (ZH_HOOK, ZH_BODY, ZH_BENEFIT, ZH_CTA)
    };
    let first = pick(hook, seed, 1).replace("{k0}", &words[0]);
    let last = pick(cta, seed, 3).to_string();
    // Different patterns for different words, the order rotated by the seed.
    let mut bodies: Vec<&str> = body.to_vec();
    bodies.rotate_left((seed as usize) % body.len());
    let mut benefits: Vec<&str> = benefit.to_vec();
    benefits.rotate_left((seed as usize / 7) % benefit.len());
    let mut middle: Vec<String> = vec![];
    let mut seen = std::collections::HashSet::new();
    let (mut b, mut n) = (0, 0);
    for i in 0..bodies.len() * words.len() {
        let w = &words[(i + 1) % words.len()];
        let s = bodies[i % bodies.len()].replace("{k}", w);
        if seen.insert(s.clone()) {
            middle.push(s);
            n += 1;
            if n % 3 == 0 && b < benefits.len() {
                middle.push(benefits[b].to_string());
                b += 1;
            }
        }
    }
    middle.extend(benefits[b..].iter().map(|s| s.to_string()));
    let target = seconds * 1000;
    let mut total = spoken_ms(&first) + spoken_ms(&last);
    let mut out = vec![first];
    for s in middle {
        // Stop where one more sentence would overshoot the target by more than it is short of it.
        if out.len() + 1 >= MIN_SENTENCES && total + spoken_ms(&s) / 2 > target {
            break;
        }
        total += spoken_ms(&s);
        out.push(s);
    }
    out.push(last);
    out
}

/// A provider's answer as script sentences: one per line, numbering and quotes stripped, blank and
/// over-long lines dropped.
pub fn parse_script(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            l.trim()
                .trim_start_matches(|c: char| c.is_ascii_digit() || ".、)）-•* ".contains(c))
                .trim_matches(|c: char| "\"“”'「」".contains(c))
                .trim()
                .to_string()
        })
        .filter(|l| !l.is_empty() && l.chars().count() <= 60)
        .take(10)
        .collect()
}

// ---- matching sentences to shot groups ----

/// A merchant's group as the matcher sees it: its name, words that describe it (tags), what its clips
/// say (their recognized speech), its ready clips and their typical length.
#[derive(Debug, Clone, Default)]
pub struct GroupInfo {
    pub id: i64,
    pub name: String,
    pub text: String,
    pub ready: i64,
    /// The median length of its ready clips, ms.
    pub clip_ms: i64,
    /// Its longest ready clip, ms.
    pub longest_ms: i64,
}

/// One spoken line of the voice-over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub start_ms: i64,
    pub end_ms: i64,
    pub content: String,
}

/// A shot of the one-touch video: the lines it covers, its group and its length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub group_id: i64,
    pub group_name: String,
    pub text: String,
    pub start_ms: i64,
    /// The shot's length (whole seconds, as the mix engine cuts stream copies).
    pub max_ms: i64,
    /// How many words of the lines the group's name, tags or speech share.
    pub score: usize,
    /// An image project's shot: the images it may show (best match first; `group_id` is 0). Every
    /// image is in one shot's list only, so a video never shows an image twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<i64>,
}

/// An image as the matcher sees it: its name, and words that describe it (its category and the
/// category's parent, its shot group).
#[derive(Debug, Clone, Default)]
pub struct ImageInfo {
    pub id: i64,
    pub name: String,
    pub text: String,
}

fn terms(s: &str) -> std::collections::HashSet<String> {
    let mut out: std::collections::HashSet<String> = keywords::segment(s)
        .into_iter()
        .filter(|w| w.chars().count() >= 2 || w.chars().any(is_han))
        .collect();
    // Single CJK characters are too common to count; two-character words carry meaning.
    out.retain(|w| w.chars().count() >= 2);
    out
}

/// Splits the lines into `k` consecutive segments of similar length: each cut is the line start
/// nearest to an even share of the time, leaving at least one line per segment.
fn segments(lines: &[Line], k: usize) -> Vec<Vec<&Line>> {
    let n = lines.len();
    let total = lines.last().map(|l| l.end_ms).unwrap_or(0);
    let mut cuts = vec![0];
    for j in 1..k {
        let target = total * j as i64 / k as i64;
        let lo = cuts[j - 1] + 1;
        let hi = n - (k - j);
        let best = (lo..=hi)
            .min_by_key(|&i| (lines[i].start_ms - target).abs())
            .unwrap_or(lo);
        cuts.push(best);
    }
    cuts.push(n);
    cuts.windows(2)
        .map(|w| lines[w[0]..w[1]].iter().collect())
        .collect()
}

fn whole_seconds(ms: i64) -> i64 {
    (ms + 500) / 1000 * 1000
}

/// Matches the voice-over's lines to the merchant's groups: the lines are cut into as many consecutive
/// shots as there are usable groups (3 … [`MAX_SHOTS`], at most one per line), and each shot takes the
/// unused group that shares the most words with its lines (name, tags, clips' speech), preferring
/// groups whose clips are long enough for the shot, then more clips. Each shot lasts from its first line
/// to the next shot's first line (the last to the voice's end), its boundaries on whole seconds.
pub fn match_shots(
    lines: &[Line],
    groups: &[GroupInfo],
    voice_ms: i64,
) -> Result<Vec<Shot>, Invalid> {
    let usable: Vec<&GroupInfo> = groups.iter().filter(|g| g.ready > 0).collect();
    let k = usable.len().min(MAX_SHOTS).min(lines.len());
    if k < crate::planner::MIN_GROUPS {
        return Err(Invalid {
            field: "group_ids",
            msg: Msg::TooFewGroups,
            args: vec![],
        });
    }
    let seg_info = shot_spans(lines, k, voice_ms);
    let group_terms: Vec<std::collections::HashSet<String>> = usable
        .iter()
        .map(|g| terms(&format!("{} {}", g.name, g.text)))
        .collect();
    let mut shots: Vec<Option<Shot>> = vec![None; seg_info.len()];
    // Every (shot, group) pair by score; the best pairs are taken first, one group per shot.
    let mut pairs = vec![];
    for (si, (_, st, _, len)) in seg_info.iter().enumerate() {
        for (gi, g) in usable.iter().enumerate() {
            let score = st.intersection(&group_terms[gi]).count();
            let long_enough = g.clip_ms >= *len;
            pairs.push((
                score,
                long_enough,
                g.ready,
                std::cmp::Reverse(gi),
                std::cmp::Reverse(si),
                si,
                gi,
            ));
        }
    }
    pairs.sort_by(|a, b| b.cmp(a));
    let mut used = std::collections::HashSet::new();
    for (score, _, _, _, _, si, gi) in pairs {
        if shots[si].is_some() || used.contains(&gi) {
            continue;
        }
        used.insert(gi);
        let (text, _, start, len) = &seg_info[si];
        shots[si] = Some(Shot {
            group_id: usable[gi].id,
            group_name: usable[gi].name.clone(),
            text: text.clone(),
            start_ms: *start,
            max_ms: *len,
            score,
            images: vec![],
        });
    }
    Ok(shots.into_iter().flatten().collect())
}

/// Refuses footage that cannot carry the voice-over: the matched groups' longest clips, each cut to its
/// shot, must cover at least 90 % of it (a clip shorter than its shot shortens the video, and the
/// voice would be cut off).
pub fn check_footage(shots: &[Shot], groups: &[GroupInfo], voice_ms: i64) -> Result<(), Invalid> {
    let have: i64 = shots
        .iter()
        .map(|s| {
            let longest = groups
                .iter()
                .find(|g| g.id == s.group_id)
                .map(|g| g.longest_ms)
                .unwrap_or(0);
            longest.min(s.max_ms)
        })
        .sum();
    if have * 10 < voice_ms * 9 {
        return Err(Invalid {
            field: "group_ids",
            msg: Msg::FootageTooShort,
            args: vec![
                ("have", format!("{:.1}", have as f64 / 1000.0)),
                ("need", format!("{:.1}", voice_ms as f64 / 1000.0)),
            ],
        });
    }
    Ok(())
}

/// The lines cut into `k` consecutive shots: each shot's text, words, start and length. A shot lasts
/// from its first line to the next shot's first line (the last to the voice's end), its boundaries on
/// whole seconds (nearest), so no drift adds up against the voice-over.
fn shot_spans(
    lines: &[Line],
    k: usize,
    voice_ms: i64,
) -> Vec<(String, std::collections::HashSet<String>, i64, i64)> {
    let segs = segments(lines, k);
    let mut bounds: Vec<i64> = segs.iter().map(|s| whole_seconds(s[0].start_ms)).collect();
    bounds[0] = 0;
    let end = voice_ms.max(lines.last().map(|l| l.end_ms).unwrap_or(0));
    bounds.push((end + 999) / 1000 * 1000);
    segs.iter()
        .enumerate()
        .map(|(i, s)| {
            let text: Vec<&str> = s.iter().map(|l| l.content.as_str()).collect();
            let text = text.join(" ");
            let t = terms(&text);
            (text, t, bounds[i], (bounds[i + 1] - bounds[i]).max(1000))
        })
        .collect()
}

/// Unique videos `n` images allow when they are dealt into `k` shots as evenly as possible.
fn even_capacity(n: usize, k: usize) -> u128 {
    let (q, r) = ((n / k) as u128, (n % k) as u32);
    (q + 1).pow(r) * q.pow(k as u32 - r)
}

/// Matches the voice-over's lines to images: one shot per line (at most [`MAX_IMAGE_SHOTS`]), fewer
/// when the images could not otherwise make `count` unique videos (lines are then merged, never fewer
/// than three shots). Each shot first takes the image sharing the most words with its lines (the
/// image's name, category and group), then the other images go where they match best, the shots'
/// lists kept within one of each other in size so the videos can differ. Timing as [`match_shots`].
pub fn match_images(
    lines: &[Line],
    images: &[ImageInfo],
    voice_ms: i64,
    count: usize,
) -> Result<Vec<Shot>, Invalid> {
    let n = images.len();
    let min = crate::planner::MIN_GROUPS;
    if n < min || lines.len() < min {
        return Err(Invalid {
            field: "group_ids",
            msg: Msg::TooFewImages,
            args: vec![("count", n.to_string())],
        });
    }
    let mut k = lines.len().min(MAX_IMAGE_SHOTS).min(n);
    while k > min && even_capacity(n, k) < count as u128 {
        k -= 1;
    }
    let spans = shot_spans(lines, k, voice_ms);
    let image_terms: Vec<std::collections::HashSet<String>> = images
        .iter()
        .map(|i| terms(&format!("{} {}", i.name, i.text)))
        .collect();
    let score = |si: usize, ii: usize| spans[si].1.intersection(&image_terms[ii]).count();
    let cap = n.div_ceil(k);
    let mut pools: Vec<Vec<(usize, usize)>> = vec![vec![]; k];
    let mut used = vec![false; n];
    // Every shot its best image first (best pairs first, earlier images and shots on ties).
    let mut pairs = vec![];
    for si in 0..k {
        for ii in 0..n {
            pairs.push((score(si, ii), std::cmp::Reverse(ii), std::cmp::Reverse(si)));
        }
    }
    pairs.sort_by(|a, b| b.cmp(a));
    for (sc, std::cmp::Reverse(ii), std::cmp::Reverse(si)) in pairs {
        if pools[si].is_empty() && !used[ii] {
            used[ii] = true;
            pools[si].push((sc, ii));
        }
    }
    // The rest where they match best among the shots with room (the emptier shot on ties).
    for ii in 0..n {
        if used[ii] {
            continue;
        }
        let si = (0..k)
            .filter(|&si| pools[si].len() < cap)
            .max_by_key(|&si| {
                (
                    score(si, ii),
                    std::cmp::Reverse(pools[si].len()),
                    std::cmp::Reverse(si),
                )
            })
            .unwrap_or(0);
        pools[si].push((score(si, ii), ii));
    }
    Ok(spans
        .into_iter()
        .zip(pools)
        .map(|((text, _, start, len), pool)| {
            let (best, first) = pool[0];
            Shot {
                group_id: 0,
                group_name: images[first].name.clone(),
                text,
                start_ms: start,
                max_ms: len,
                score: best,
                images: pool.iter().map(|(_, ii)| images[*ii].id).collect(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_move_in_order() {
        use State::*;
        for s in State::ALL {
            assert_eq!(State::parse(s.as_str()), Some(s));
        }
        assert!(Draft.can_become(Queued) && Failed.can_become(Queued));
        assert!(Queued.can_become(Script) && Script.can_become(Voice) && Voice.can_become(Match));
        assert!(Match.can_become(Rendering) && Rendering.can_become(Done));
        assert!(!Done.can_become(Queued) && !Draft.can_become(Rendering));
        assert!(!Done.can_become(Failed) && Rendering.can_become(Failed));
        assert!(Voice.busy() && !Draft.busy() && !Done.busy() && !Failed.busy());
    }

    #[test]
    fn the_writer_uses_the_topic_words_and_varies() {
        let lex = Lexicon::default();
        let a = write_script("手工牛肉面，汤底熬足八小时", &lex, 1, 15);
        assert!(a.len() >= MIN_SENTENCES, "{a:?}");
        assert!(a.iter().all(|s| s.chars().count() <= 24), "{a:?}");
        assert!(a.iter().any(|s| s.contains("牛肉面")), "{a:?}");
        let b = write_script("手工牛肉面，汤底熬足八小时", &lex, 2, 15);
        assert_ne!(a, b);
        let en = write_script("handmade beef noodles with slow-cooked broth", &lex, 1, 15);
        assert!(en.iter().all(|s| s.is_ascii()), "{en:?}");
        assert_eq!(
            parse_script("1. 第一句。\n\n2、“第二句”\n- 第三句"),
            vec!["第一句。", "第二句", "第三句"]
        );
    }

    #[test]
    fn the_writer_writes_to_the_target_length() {
        let lex = Lexicon::default();
        for topic in [
            "手工牛肉面，汤底熬足八小时",
            "社区健身房",
            "handmade beef noodles with slow-cooked broth",
            "gym",
        ] {
            let mut last = 0;
            for seconds in [15, 30, 45, 60] {
                let s = write_script(topic, &lex, 3, seconds);
                let ms: i64 = s.iter().map(|x| spoken_ms(x)).sum();
                // Within a sentence (~3 s) of the target, every sentence said once.
                assert!(
                    (ms - seconds * 1000).abs() <= 3500,
                    "{topic} {seconds}s: {ms} ms {s:?}"
                );
                assert!(ms > last, "longer targets make longer scripts");
                last = ms;
                let set: std::collections::HashSet<&String> = s.iter().collect();
                assert_eq!(set.len(), s.len(), "{s:?}");
                assert!(s.iter().map(|x| x.chars().count()).sum::<usize>() <= MAX_SCRIPT_CHARS);
            }
        }
    }

    #[test]
    fn a_request_names_its_footage_and_length() {
        let ok = Request {
            topic: "春季上新".into(),
            kind: "image".into(),
            seconds: 30,
            count: 5,
            ..Default::default()
        };
        assert!(ok.validate().is_ok() && ok.images());
        for (kind, seconds, field, msg) in [
            ("images", 30, "kind", Msg::OneTouchKind),
            ("video", 14, "seconds", Msg::OneTouchSeconds),
            ("video", 61, "seconds", Msg::OneTouchSeconds),
        ] {
            let e = Request {
                kind: kind.into(),
                seconds,
                ..ok.clone()
            }
            .validate()
            .unwrap_err();
            assert_eq!((e.field, e.msg), (field, msg));
        }
        // An old stored request (before kind and length) reads as a 30 s video request.
        let old: Request = serde_json::from_str(r#"{"topic":"x","count":5}"#).unwrap();
        assert_eq!((old.kind.as_str(), old.seconds), ("video", DEFAULT_SECONDS));
    }

    #[test]
    fn images_go_to_the_lines_that_name_them_and_never_twice() {
        let lines: Vec<Line> = [
            "欢迎来到面馆",
            "牛肉面汤底浓郁",
            "后厨现场拉面",
            "顾客都说好吃",
            "环境干净明亮",
            "欢迎再来",
        ]
        .iter()
        .enumerate()
        .map(|(i, t)| line(i as i64 * 3000, i as i64 * 3000 + 2500, t))
        .collect();
        let img = |id: i64, name: &str, text: &str| ImageInfo {
            id,
            name: name.into(),
            text: text.into(),
        };
        let images = vec![
            img(1, "IMG_001", "顾客"),
            img(2, "拉面师傅", "后厨"),
            img(3, "门头", "面馆"),
            img(4, "牛肉面特写", "菜品"),
            img(5, "店内环境", ""),
            img(6, "牛肉面全家福", "菜品"),
            img(7, "IMG_002", ""),
        ];
        // One shot per line while the images allow the videos asked for.
        let one = match_images(&lines, &images, 18_000, 1).unwrap();
        assert_eq!(one.len(), 6);
        let firsts: Vec<i64> = one.iter().map(|s| s.images[0]).collect();
        assert_eq!(firsts[..4], [3, 4, 2, 1]);
        let mut all: Vec<i64> = one.iter().flat_map(|s| s.images.clone()).collect();
        all.sort();
        assert_eq!(all, (1..=7).collect::<Vec<_>>(), "every image once");
        assert!(one.iter().all(|s| s.group_id == 0));
        assert_eq!(one[0].start_ms, 0);
        assert_eq!(one.iter().map(|s| s.max_ms).sum::<i64>(), 18_000);
        // Five unique videos from 7 images: fewer, longer shots (4 shots of 2, 2, 2, 1 = 8 sequences).
        let five = match_images(&lines, &images, 18_000, 5).unwrap();
        assert_eq!(five.len(), 4, "{five:?}");
        let cap: usize = five.iter().map(|s| s.images.len()).product();
        assert!(cap >= 5);
        // Fewer than three images cannot make a video.
        let e = match_images(&lines, &images[..2], 18_000, 1).unwrap_err();
        assert_eq!((e.field, e.msg), ("group_ids", Msg::TooFewImages));
    }

    fn line(a: i64, b: i64, t: &str) -> Line {
        Line {
            start_ms: a,
            end_ms: b,
            content: t.into(),
        }
    }

    fn g(id: i64, name: &str, text: &str, clip_ms: i64) -> GroupInfo {
        GroupInfo {
            id,
            name: name.into(),
            text: text.into(),
            ready: 2,
            clip_ms,
            longest_ms: clip_ms,
        }
    }

    #[test]
    fn lines_go_to_the_groups_that_talk_about_them() {
        let lines = vec![
            line(0, 2000, "欢迎来到面馆"),
            line(2200, 4000, "牛肉面汤底浓郁"),
            line(4200, 6000, "后厨现场拉面"),
            line(6200, 8000, "顾客都说好吃"),
        ];
        let groups = vec![
            g(1, "顾客", "", 5000),
            g(2, "拉面", "师傅在后厨拉面", 5000),
            g(3, "门店", "欢迎 面馆", 5000),
            g(4, "牛肉面", "", 5000),
            g(5, "空", "", 5000),
        ];
        let shots = match_shots(&lines, &groups, 8500).unwrap();
        let ids: Vec<i64> = shots.iter().map(|s| s.group_id).collect();
        assert_eq!(ids, vec![3, 4, 2, 1]);
        // Shots cover the voice: from 0 to the next shot's first line, the last to the voice's end.
        assert_eq!(shots[0].start_ms, 0);
        assert_eq!(
            shots.iter().map(|s| s.max_ms).collect::<Vec<_>>(),
            vec![2000, 2000, 2000, 3000]
        );
        // Fewer usable groups than lines: lines are merged; fewer than three is refused.
        let three = match_shots(&lines, &groups[..3], 8500).unwrap();
        assert_eq!(three.len(), 3);
        let e = match_shots(&lines, &groups[..2], 8500).unwrap_err();
        assert_eq!(e.msg, Msg::TooFewGroups);
        // Footage: 5 s clips cover these shots; 1 s clips cover 4 s of the 8.5 s voice.
        assert!(check_footage(&shots, &groups, 8500).is_ok());
        let short: Vec<GroupInfo> = groups.iter().map(|x| g(x.id, &x.name, "", 1000)).collect();
        let e = check_footage(&shots, &short, 8500).unwrap_err();
        assert_eq!(
            (e.msg, e.args.clone()),
            (
                Msg::FootageTooShort,
                vec![("have", "4.0".into()), ("need", "8.5".into())]
            )
        );
    }
}
