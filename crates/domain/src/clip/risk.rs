//! Duplicate risk: how much a finished video looks, sounds and reads like another one a platform's
//! duplicate check would compare it with — its siblings in the project, everything the merchant
//! published, what one account published. The likeness parts are measured by `media::signature`;
//! this is the scoring model (weights, thresholds, reasons), documented in docs/architecture.md
//! "Duplicate risk" with the public descriptions of the platforms' checks it rests on.

use serde::{Deserialize, Serialize};

/// The weight of each part in the score. Pictures weigh most: every described check starts from key
/// frames and sampled frames; the sound second (Kuaishou's audio fingerprint, Douyin's music
/// matching); the text on screen and the cover least (OCR'd text, the cover a thumbnail of a frame
/// the pictures already count). A part unknown on either side (a silent video, an upload whose text
/// we did not burn) is left out and the others weigh for it.
pub const W_VISUAL: f64 = 0.60;
pub const W_AUDIO: f64 = 0.25;
pub const W_TEXT: f64 = 0.10;
pub const W_COVER: f64 = 0.05;

/// At or above: high risk (the release task refuses or warns, the merchant's choice).
pub const HIGH: u8 = 70;
/// At or above: medium risk.
pub const MEDIUM: u8 = 40;

/// How alike one video is to another, part by part (each 0–1, `None`: not comparable).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Likeness {
    /// The share of this video's sampled frames seen in the other (straight or mirrored).
    pub visual: f64,
    pub audio: Option<f64>,
    pub text: Option<f64>,
    /// Whether the covers are the same picture.
    pub cover: Option<bool>,
    /// The very same file (same content hash): 100 whatever the rest says.
    pub same_file: bool,
}

impl Likeness {
    /// The score, 0–100: the weighted mean of the parts both sides have.
    pub fn score(&self) -> u8 {
        if self.same_file {
            return 100;
        }
        let mut sum = W_VISUAL * self.visual;
        let mut weight = W_VISUAL;
        for (w, v) in [
            (W_AUDIO, self.audio),
            (W_TEXT, self.text),
            (W_COVER, self.cover.map(|c| if c { 1.0 } else { 0.0 })),
        ] {
            if let Some(v) = v {
                sum += w * v.clamp(0.0, 1.0);
                weight += w;
            }
        }
        (100.0 * sum / weight).round().clamp(0.0, 100.0) as u8
    }
}

crate::text_enum! {
    /// What a video was compared with.
    pub enum Against as "RiskAgainst" {
        /// Another finished video of the same project.
        Sibling = "sibling",
        /// A video the merchant published (or scheduled) on any account.
        Published = "published",
        /// A video the account it is assigned to published.
        Account = "account",
    }
}

/// Why a video scores what it does: the most alike other video of one kind, part by part, in
/// numbers the console words in either language ("与第 3 条共用 3/4 镜头且声音相同").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = RiskReason)]
pub struct Reason {
    pub against: Against,
    /// The other finished video (a variant id).
    pub other_id: i64,
    pub score: u8,
    /// Percent of the frames alike.
    pub visual: u8,
    /// Percent of the sound alike (absent: no sound to compare).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio: Option<u8>,
    /// Percent of the on-screen text alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<u8>,
    /// Clips shared with a sibling, of this video's clips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_clips: Option<[u8; 2]>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_file: bool,
}

fn pct(v: f64) -> u8 {
    (v * 100.0).round().clamp(0.0, 100.0) as u8
}

impl Reason {
    pub fn new(against: Against, other_id: i64, l: &Likeness) -> Reason {
        Reason {
            against,
            other_id,
            score: l.score(),
            visual: pct(l.visual),
            audio: l.audio.map(pct),
            text: l.text.map(pct),
            shared_clips: None,
            same_file: l.same_file,
        }
    }
}

/// A video's risk: the highest of its reasons' scores (0 with none), and the reasons, highest first,
/// at most one per kind of comparison.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Risk {
    pub score: u8,
    pub reasons: Vec<Reason>,
}

impl Risk {
    /// From every comparison made: keeps each kind's most alike.
    pub fn of(all: impl IntoIterator<Item = Reason>) -> Risk {
        let mut best: Vec<Reason> = vec![];
        for r in all {
            match best.iter_mut().find(|b| b.against == r.against) {
                Some(b) if b.score >= r.score => {}
                Some(b) => *b = r,
                None => best.push(r),
            }
        }
        best.sort_by(|a, b| b.score.cmp(&a.score).then(a.other_id.cmp(&b.other_id)));
        Risk {
            score: best.first().map(|r| r.score).unwrap_or(0),
            reasons: best,
        }
    }

    /// The stored column (`clip_variants.risk_reasons`).
    pub fn reasons_column(&self) -> String {
        serde_json::to_string(&self.reasons).unwrap_or_else(|_| "[]".into())
    }

    pub fn parse_reasons(s: &str) -> Vec<Reason> {
        serde_json::from_str(s).unwrap_or_default()
    }
}

crate::text_enum! {
    /// A risk score's band (the library's filter and colour).
    pub enum Level as "RiskLevel" {
        Low = "low",
        Medium = "medium",
        High = "high",
    }
}

pub fn level(score: u8) -> Level {
    if score >= HIGH {
        Level::High
    } else if score >= MEDIUM {
        Level::Medium
    } else {
        Level::Low
    }
}

/// How many of `mine`'s clips (material ids) `other` uses too, each counted once: [shared, mine].
pub fn shared_clips(mine: &[i64], other: &[i64]) -> [u8; 2] {
    let mut rest: Vec<i64> = other.to_vec();
    let mut shared = 0u8;
    for c in mine {
        if let Some(i) = rest.iter().position(|o| o == c) {
            rest.swap_remove(i);
            shared = shared.saturating_add(1);
        }
    }
    [shared, mine.len().min(255) as u8]
}

/// Which video each planned post gets, so that posts seen by one audience (accounts of one city or
/// place) are as unlike one another as the videos allow: posts in time order, each taking the unused
/// video whose highest likeness (`alike(a, b)`, 0–100) to those its audience already got is lowest,
/// ties to the video the schedule gave it (`given`, one per post, distinct). `audience[p]` names post
/// p's audience; `videos` is how many there are to choose from.
pub fn spread_over_audiences(
    audience: &[usize],
    given: &[usize],
    videos: usize,
    alike: impl Fn(usize, usize) -> u8,
) -> Vec<usize> {
    let mut free = vec![true; videos];
    let mut seen: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    let mut out = Vec::with_capacity(given.len());
    for (p, &g) in given.iter().enumerate() {
        let had = seen.entry(audience[p]).or_default();
        let worst = |v: usize| had.iter().map(|&h| alike(v, h)).max().unwrap_or(0);
        // The schedule's own choice first, then the others in order: the earliest of the least alike.
        let pick = std::iter::once(g)
            .chain(0..videos)
            .filter(|&v| v < videos && free[v])
            .min_by_key(|&v| worst(v))
            .unwrap_or(g);
        free[pick] = false;
        had.push(pick);
        out.push(pick);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(visual: f64, audio: Option<f64>, text: Option<f64>) -> Likeness {
        Likeness {
            visual,
            audio,
            text,
            ..Default::default()
        }
    }

    #[test]
    fn the_score_weighs_what_both_sides_have() {
        assert_eq!(l(1.0, Some(1.0), Some(1.0)).score(), 100);
        // Three of four clips and the same sound and text: high.
        assert!(l(0.75, Some(1.0), Some(1.0)).score() >= HIGH);
        // Nothing shared but the text of one project: low.
        assert!(l(0.0, Some(0.0), Some(1.0)).score() <= 20);
        // An upload: no text of ours to compare, pictures and sound the same.
        assert!(l(1.0, Some(0.97), None).score() >= 90);
        // A silent pair weighs the pictures alone.
        assert_eq!(l(0.5, None, None).score(), 50);
        let same = Likeness {
            same_file: true,
            ..l(0.0, None, None)
        };
        assert_eq!(same.score(), 100);
        assert_eq!(level(69), Level::Medium);
        assert_eq!(level(70), Level::High);
        assert_eq!(level(39), Level::Low);
    }

    #[test]
    fn one_audience_gets_the_most_different_videos() {
        // Videos 0 and 1 are near copies; 2 is different. Two accounts of one city post one each: the
        // schedule gave them 0 and 1, the city sees 0 and 2. An account elsewhere keeps its own.
        let alike = |a: usize, b: usize| {
            if a.min(b) == 0 && a.max(b) == 1 {
                90
            } else {
                10
            }
        };
        assert_eq!(
            spread_over_audiences(&[7, 7], &[0, 1], 3, alike),
            vec![0, 2]
        );
        assert_eq!(
            spread_over_audiences(&[7, 8], &[0, 1], 3, alike),
            vec![0, 1]
        );
        // Nothing measured (all 0): the schedule's choice stands.
        assert_eq!(
            spread_over_audiences(&[1, 1, 1], &[2, 0, 1], 3, |_, _| 0),
            vec![2, 0, 1]
        );
    }

    #[test]
    fn a_risk_keeps_each_kinds_most_alike() {
        let r = Risk::of([
            Reason::new(Against::Sibling, 1, &l(0.25, None, None)),
            Reason::new(Against::Sibling, 2, &l(0.75, None, None)),
            Reason::new(Against::Published, 9, &l(0.5, None, None)),
        ]);
        assert_eq!(r.score, 75);
        assert_eq!(
            r.reasons.iter().map(|x| x.other_id).collect::<Vec<_>>(),
            [2, 9]
        );
        assert_eq!(Risk::parse_reasons(&r.reasons_column()), r.reasons);
        assert_eq!(Risk::of([]).score, 0);
        assert_eq!(shared_clips(&[1, 2, 3, 4], &[4, 3, 9, 1]), [3, 4]);
        assert_eq!(shared_clips(&[1, 1], &[1]), [1, 2]);
    }
}
