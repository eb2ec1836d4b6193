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
/// A script has this many sentences (before the voice-over splits long ones).
pub const SCRIPT_SENTENCES: usize = 6;
/// At most this many shots are matched (the planner's groups).
pub const MAX_SHOTS: usize = 8;

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
    pub topic: String,
    #[serde(default)]
    pub name: String,
    /// The merchant's groups to draw from (empty: all with ready clips).
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
];
const ZH_BENEFIT: &[&str] = &[
    "品质有保障，价格也实在。",
    "环境舒服，服务也很贴心。",
    "体验过的朋友都说值得。",
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
];
const EN_BENEFIT: &[&str] = &[
    "Good quality at a fair price.",
    "A friendly team and a warm welcome.",
    "Our customers say it is worth it.",
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

/// A short voice-over script for a topic: a hook, a sentence per keyword, a benefit and a call to
/// action — six sentences, each short enough for one subtitle line. `seed` varies the wording.
pub fn write_script(topic: &str, lexicon: &Lexicon, seed: u64) -> Vec<String> {
    let words = script_words(topic, lexicon);
    let en = !topic.chars().any(is_han);
    let (hook, body, benefit, cta) = if en {
        (EN_HOOK, EN_BODY, EN_BENEFIT, EN_CTA)
    } else {
        (ZH_HOOK, ZH_BODY, ZH_BENEFIT, ZH_CTA)
    };
    let mut out = vec![pick(hook, seed, 1).replace("{k0}", &words[0])];
    let mut bodies: Vec<&str> = body.to_vec();
    // Different body patterns for different words: rotate by the seed.
    let rot = (seed as usize) % bodies.len();
    bodies.rotate_left(rot);
    let body_count = SCRIPT_SENTENCES - 3;
    for i in 0..body_count {
        let w = &words[(i + 1) % words.len()];
        out.push(bodies[i % bodies.len()].replace("{k}", w));
    }
    out.push(pick(benefit, seed, 2).to_string());
    out.push(pick(cta, seed, 3).to_string());
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
    let segs = segments(lines, k);
    // Shot boundaries on whole seconds (nearest), so no drift adds up against the voice-over.
    let mut bounds: Vec<i64> = segs.iter().map(|s| whole_seconds(s[0].start_ms)).collect();
    bounds[0] = 0;
    let end = voice_ms.max(lines.last().map(|l| l.end_ms).unwrap_or(0));
    bounds.push((end + 999) / 1000 * 1000);
    let mut shots: Vec<Option<Shot>> = vec![None; segs.len()];
    let group_terms: Vec<std::collections::HashSet<String>> = usable
        .iter()
        .map(|g| terms(&format!("{} {}", g.name, g.text)))
        .collect();
    let seg_info: Vec<(String, std::collections::HashSet<String>, i64, i64)> = segs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let text: Vec<&str> = s.iter().map(|l| l.content.as_str()).collect();
            let text = text.join(" ");
            let t = terms(&text);
            (text, t, bounds[i], (bounds[i + 1] - bounds[i]).max(1000))
        })
        .collect();
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
        });
    }
    Ok(shots.into_iter().flatten().collect())
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
        let a = write_script("手工牛肉面，汤底熬足八小时", &lex, 1);
        assert_eq!(a.len(), SCRIPT_SENTENCES);
        assert!(a.iter().all(|s| s.chars().count() <= 24), "{a:?}");
        assert!(a.iter().any(|s| s.contains("牛肉面")), "{a:?}");
        let b = write_script("手工牛肉面，汤底熬足八小时", &lex, 2);
        assert_ne!(a, b);
        let en = write_script("handmade beef noodles with slow-cooked broth", &lex, 1);
        assert!(en.iter().all(|s| s.is_ascii()), "{en:?}");
        assert_eq!(
            parse_script("1. 第一句。\n\n2、“第二句”\n- 第三句"),
            vec!["第一句。", "第二句", "第三句"]
        );
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
    }
}
