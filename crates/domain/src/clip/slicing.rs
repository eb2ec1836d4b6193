//! Batch slicing ("Visual editing / batch slice"): the rules of a slicing project and
//! the pure planner of its cut points. No I/O: the `clip.slice` job asks here where to cut, then cuts.
//!
//! - **Fixed lengths**: `seconds`-long slices from 0 to the end, no gaps, no overlaps; a remainder
//!   shorter than one second is merged into the slice before it (a 12.4 s video at 4 s gives 4, 4, 4.4).
//!   Every cut falls on a whole second, which the mezzanine's 1 s closed GOPs make exact for stream copy.
//! - **Subtitle timeline**: consecutive recognized lines are merged until the slice is at least
//!   `min_seconds` long, never past `max_seconds`; cuts fall on line boundaries (a slice runs from its
//!   first line's start to its last line's end; the silence between slices is left out). A slice may be
//!   shorter than the minimum only where the lines end or where the next line would take it past the
//!   maximum; it is longer than the maximum only when it is one line that long on its own.

use crate::i18n::Msg;
use crate::validate::Invalid;

/// Slice lengths in seconds (fixed length, and the subtitle mode's minimum and maximum).
pub const MIN_SECONDS: i64 = 1;
pub const MAX_SECONDS: i64 = 60;
/// A fixed-length remainder shorter than this joins the slice before it.
pub const MIN_REMAINDER_MS: i64 = 1000;

crate::text_enum! {
    /// Where a source video's slicing is (`clip_slice_sources.state`); a project's state is derived
    /// from its sources' with the same words.
    pub enum SliceState {
        Pending = "pending",
        Processing = "processing",
        Success = "success",
        Failed = "failed",
    }
}

crate::text_enum! {
    pub enum Mode as "SliceMode" {
        Fixed = "fixed",
        Subtitle = "subtitle",
    }
}

/// A project's checked slicing settings. The fields the mode does not use are 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    pub seconds: i64,
    pub min_seconds: i64,
    pub max_seconds: i64,
}

fn broken(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Invalid {
    Invalid { field, msg, args }
}

fn seconds_in_range(field: &'static str, v: Option<i64>) -> Result<i64, Invalid> {
    let range = || {
        vec![
            ("min", MIN_SECONDS.to_string()),
            ("max", MAX_SECONDS.to_string()),
        ]
    };
    match v {
        None => Err(broken(field, Msg::Required, vec![])),
        Some(s) if !(MIN_SECONDS..=MAX_SECONDS).contains(&s) => {
            Err(broken(field, Msg::SliceSeconds, range()))
        }
        Some(s) => Ok(s),
    }
}

impl Settings {
    /// Checks the settings a request names: `fixed` needs `seconds` (1–60); `subtitle` needs
    /// `min_seconds` and `max_seconds` (1–60, min ≤ max).
    pub fn check(
        mode: &str,
        seconds: Option<i64>,
        min_seconds: Option<i64>,
        max_seconds: Option<i64>,
    ) -> Result<Settings, Invalid> {
        let mode = Mode::parse(mode.trim()).ok_or_else(|| {
            broken(
                "mode",
                Msg::InvalidValue,
                vec![("reason", "fixed | subtitle".into())],
            )
        })?;
        Ok(match mode {
            Mode::Fixed => Settings {
                mode,
                seconds: seconds_in_range("seconds", seconds)?,
                min_seconds: 0,
                max_seconds: 0,
            },
            Mode::Subtitle => {
                let min = seconds_in_range("min_seconds", min_seconds)?;
                let max = seconds_in_range("max_seconds", max_seconds)?;
                if min > max {
                    return Err(broken("min_seconds", Msg::SliceMinOverMax, vec![]));
                }
                Settings {
                    mode,
                    seconds: 0,
                    min_seconds: min,
                    max_seconds: max,
                }
            }
        })
    }
}

/// One slice: from `start_ms` to `end_ms` of the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cut {
    pub start_ms: i64,
    pub end_ms: i64,
}

impl Cut {
    pub fn len(&self) -> i64 {
        self.end_ms - self.start_ms
    }
    pub fn is_empty(&self) -> bool {
        self.len() <= 0
    }
    /// Both ends on whole seconds, or the end at the end of the source: a stream copy cuts it exactly.
    pub fn on_whole_seconds(&self, duration_ms: i64) -> bool {
        self.start_ms % 1000 == 0 && (self.end_ms % 1000 == 0 || self.end_ms == duration_ms)
    }
}

/// Fixed-length slices covering the whole source.
pub fn fixed(duration_ms: i64, seconds: i64) -> Vec<Cut> {
    let step = seconds.max(1) * 1000;
    let mut out: Vec<Cut> = vec![];
    let mut s = 0;
    while s < duration_ms {
        let e = (s + step).min(duration_ms);
        out.push(Cut {
            start_ms: s,
            end_ms: e,
        });
        s = e;
    }
    if out.len() >= 2 && out.last().is_some_and(|c| c.len() < MIN_REMAINDER_MS) {
        let last = out.pop().expect("two or more");
        out.last_mut().expect("one left").end_ms = last.end_ms;
    }
    out
}

/// The lines as the planner uses them: inside the source, in time order, without overlaps (a line
/// starting before the previous one ends starts at that end), empty ones dropped.
pub fn normalize_lines(duration_ms: i64, lines: &[(i64, i64)]) -> Vec<Cut> {
    let mut v: Vec<Cut> = lines
        .iter()
        .map(|&(s, e)| Cut {
            start_ms: s.clamp(0, duration_ms),
            end_ms: e.clamp(0, duration_ms),
        })
        .filter(|c| !c.is_empty())
        .collect();
    v.sort_by_key(|c| (c.start_ms, c.end_ms));
    let mut out: Vec<Cut> = Vec::with_capacity(v.len());
    for mut c in v {
        if let Some(prev) = out.last() {
            c.start_ms = c.start_ms.max(prev.end_ms);
        }
        if !c.is_empty() {
            out.push(c);
        }
    }
    out
}

/// Slices along the subtitle timeline (see the module comment for the rules).
pub fn by_lines(duration_ms: i64, lines: &[(i64, i64)], min_s: i64, max_s: i64) -> Vec<Cut> {
    let (min, max) = (min_s * 1000, max_s.max(min_s) * 1000);
    let lines = normalize_lines(duration_ms, lines);
    let mut out: Vec<Cut> = vec![];
    let mut cur: Option<Cut> = None;
    for l in lines {
        cur = Some(match cur {
            None => l,
            Some(c) if c.len() >= min => {
                out.push(c);
                l
            }
            Some(c) if l.end_ms - c.start_ms <= max => Cut {
                start_ms: c.start_ms,
                end_ms: l.end_ms,
            },
            Some(c) => {
                // The next line would take it past the maximum: it stays short.
                out.push(c);
                l
            }
        });
    }
    if let Some(c) = cur {
        // A short last slice joins the one before when that stays within the maximum.
        match out.last_mut() {
            Some(prev) if c.len() < min && c.end_ms - prev.start_ms <= max => {
                prev.end_ms = c.end_ms
            }
            _ => out.push(c),
        }
    }
    out
}

/// The cut points of a source under the settings (`lines` in ms, only read in subtitle mode).
pub fn plan(settings: &Settings, duration_ms: i64, lines: &[(i64, i64)]) -> Vec<Cut> {
    match settings.mode {
        Mode::Fixed => fixed(duration_ms, settings.seconds),
        Mode::Subtitle => by_lines(
            duration_ms,
            lines,
            settings.min_seconds,
            settings.max_seconds,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cuts(v: &[(i64, i64)]) -> Vec<Cut> {
        v.iter()
            .map(|&(s, e)| Cut {
                start_ms: s,
                end_ms: e,
            })
            .collect()
    }

    #[test]
    fn fixed_lengths_cover_the_video_and_merge_a_short_remainder() {
        assert_eq!(
            fixed(12_000, 4),
            cuts(&[(0, 4000), (4000, 8000), (8000, 12_000)])
        );
        assert_eq!(
            fixed(12_400, 4),
            cuts(&[(0, 4000), (4000, 8000), (8000, 12_400)])
        );
        assert_eq!(
            fixed(13_000, 4),
            cuts(&[(0, 4000), (4000, 8000), (8000, 12_000), (12_000, 13_000)])
        );
        assert_eq!(fixed(2500, 4), cuts(&[(0, 2500)]));
        assert_eq!(fixed(500, 4), cuts(&[(0, 500)]));
        assert!(fixed(0, 4).is_empty());
        assert!(fixed(12_000, 4).iter().all(|c| c.on_whole_seconds(12_000)));
        assert!(fixed(12_400, 4).iter().all(|c| c.on_whole_seconds(12_400)));
    }

    #[test]
    fn lines_merge_until_the_minimum_and_never_past_the_maximum() {
        // min 3 s, max 6 s
        let lines = [
            (0, 1000),
            (1200, 2500),
            (2600, 3500),
            (4000, 9000),
            (9100, 9500),
            (10_000, 20_000),
            (20_500, 21_000),
        ];
        assert_eq!(
            by_lines(30_000, &lines, 3, 6),
            cuts(&[
                (0, 3500),        // three lines reach 3 s
                (4000, 9000),     // 5 s alone
                (9100, 9500),     // short: the next line (10 s) would pass 6 s
                (10_000, 20_000), // one line longer than the maximum
                (20_500, 21_000), // the end of the lines
            ])
        );
        // A short tail joins the slice before when that fits.
        assert_eq!(
            by_lines(10_000, &[(0, 3000), (3000, 4000)], 3, 6),
            cuts(&[(0, 4000)])
        );
        assert!(by_lines(10_000, &[], 3, 6).is_empty());
        // Overlapping and out-of-range lines are tidied first.
        assert_eq!(
            normalize_lines(5000, &[(2000, 3000), (0, 2500), (4000, 9000), (100, 50)]),
            cuts(&[(0, 2500), (2500, 3000), (4000, 5000)])
        );
    }

    #[test]
    fn settings_rules() {
        let ok = Settings::check("fixed", Some(4), None, None).unwrap();
        assert_eq!((ok.mode, ok.seconds, ok.max_seconds), (Mode::Fixed, 4, 0));
        assert_eq!(
            Settings::check("fixed", None, None, None)
                .unwrap_err()
                .field,
            "seconds"
        );
        assert_eq!(
            Settings::check("fixed", Some(61), None, None)
                .unwrap_err()
                .msg,
            Msg::SliceSeconds
        );
        assert_eq!(
            Settings::check("fixed", Some(0), None, None)
                .unwrap_err()
                .field,
            "seconds"
        );
        assert_eq!(
            Settings::check("scene", Some(4), None, None)
                .unwrap_err()
                .field,
            "mode"
        );
        let s = Settings::check("subtitle", None, Some(3), Some(8)).unwrap();
        assert_eq!((s.seconds, s.min_seconds, s.max_seconds), (0, 3, 8));
        let e = Settings::check("subtitle", None, Some(9), Some(8)).unwrap_err();
        assert_eq!((e.field, e.msg), ("min_seconds", Msg::SliceMinOverMax));
        assert_eq!(
            Settings::check("subtitle", None, Some(3), None)
                .unwrap_err()
                .field,
            "max_seconds"
        );
        assert_eq!(
            Settings::check("subtitle", None, Some(3), Some(90))
                .unwrap_err()
                .field,
            "max_seconds"
        );
    }

    fn lines_strategy() -> impl Strategy<Value = (i64, Vec<(i64, i64)>)> {
        (1_000i64..200_000).prop_flat_map(|d| {
            (
                Just(d),
                prop::collection::vec((0..d + 2000, 1i64..15_000), 0..40)
                    .prop_map(|v| v.into_iter().map(|(s, l)| (s, s + l)).collect()),
            )
        })
    }

    proptest! {
        /// Fixed lengths: no gaps, no overlaps, the whole video, every slice `seconds` long except the
        /// last (at least 1 s, shorter than `seconds` + 1 s) — or a single slice for a short video.
        #[test]
        fn fixed_covers_everything(d in 1i64..2_000_000, secs in MIN_SECONDS..=MAX_SECONDS) {
            let c = fixed(d, secs);
            prop_assert!(!c.is_empty());
            prop_assert_eq!(c[0].start_ms, 0);
            prop_assert_eq!(c.last().unwrap().end_ms, d);
            for w in c.windows(2) {
                prop_assert_eq!(w[0].end_ms, w[1].start_ms);
            }
            let step = secs * 1000;
            for (i, x) in c.iter().enumerate() {
                prop_assert!(x.on_whole_seconds(d));
                if i + 1 < c.len() {
                    prop_assert_eq!(x.len(), step);
                } else if c.len() > 1 {
                    prop_assert!(x.len() >= MIN_REMAINDER_MS && x.len() < step + MIN_REMAINDER_MS);
                }
            }
        }

        /// Subtitle mode: every line in exactly one slice, cuts on line boundaries, slices in order,
        /// within [min, max] except at the end of the lines, before a line that would not fit, or for a
        /// single line longer than the maximum.
        #[test]
        fn lines_respect_min_and_max((d, raw) in lines_strategy(), min in 1i64..=20, extra in 0i64..=20) {
            let max = min + extra;
            let lines = normalize_lines(d, &raw);
            let c = by_lines(d, &raw, min, max);
            // Every line belongs to exactly one slice, and slices start and end on line edges.
            for l in &lines {
                prop_assert_eq!(c.iter().filter(|x| x.start_ms <= l.start_ms && l.end_ms <= x.end_ms).count(), 1);
            }
            for x in &c {
                prop_assert!(lines.iter().any(|l| l.start_ms == x.start_ms));
                prop_assert!(lines.iter().any(|l| l.end_ms == x.end_ms));
                prop_assert!(x.start_ms >= 0 && x.end_ms <= d && !x.is_empty());
            }
            for w in c.windows(2) {
                prop_assert!(w[0].end_ms <= w[1].start_ms);
            }
            for (i, x) in c.iter().enumerate() {
                let inside: Vec<&Cut> = lines.iter().filter(|l| x.start_ms <= l.start_ms && l.end_ms <= x.end_ms).collect();
                if x.len() > max * 1000 {
                    prop_assert_eq!(inside.len(), 1, "only a single line may pass the maximum");
                }
                if x.len() < min * 1000 && i + 1 < c.len() {
                    let next_line = lines.iter().find(|l| l.start_ms == c[i + 1].start_ms).unwrap();
                    prop_assert!(next_line.end_ms - x.start_ms > max * 1000, "short slice {:?} before {:?}", x, next_line);
                }
            }
        }
    }
}
