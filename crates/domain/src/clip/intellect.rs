//! AI smart editing (/intellect, Administrator): the rules of a run — one long video of a merchant in,
//! its best short segments out as video materials of a group. The engine is `media::intellect`; the
//! job `clip.intellect` goes analyse (recognition when the video has none yet, scene changes,
//! silences) → pick → cut.

use crate::i18n::Msg;
use crate::validate::Invalid;

/// Segment lengths a run may ask for, in seconds.
pub const MIN_SECONDS: i64 = 5;
pub const MAX_SECONDS: i64 = 300;
/// At most this many segments per run.
pub const MAX_COUNT: i64 = 20;
/// A segment never holds a silence longer than this.
pub const MAX_SILENCE_MS: i64 = 2000;

/// Defaults of the page: shorts of 15–60 s, five of them.
pub const DEFAULT_MIN_SECONDS: i64 = 15;
pub const DEFAULT_MAX_SECONDS: i64 = 60;
pub const DEFAULT_COUNT: i64 = 5;

crate::text_enum! {
    /// Where a run stands (`intellect_runs.state`).
    pub enum State as "IntellectState" {
        /// Queued or working (its `step` says where).
        Running = "running",
        Done = "done",
        Failed = "failed",
    }
}

crate::text_enum! {
    /// The job's steps and the progress each one starts at.
    pub enum Step as "IntellectStep" {
        /// Speech recognition (when needed), scene changes, silences: 0–40 %.
        Analyse = "analyse",
        /// Choosing the segments: 40–45 %.
        Pick = "pick",
        /// Cutting each segment into a material: 45–100 %.
        Cut = "cut",
    }
}
impl Step {
    pub fn starts_at(self) -> i64 {
        match self {
            Step::Analyse => 0,
            Step::Pick => 40,
            Step::Cut => 45,
        }
    }
    /// Progress after `done` of `of` segments were cut.
    pub fn cut_progress(done: usize, of: usize) -> i64 {
        45 + 55 * done as i64 / of.max(1) as i64
    }
}

/// A run's checked settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub count: i64,
}

fn seconds(field: &'static str, v: Option<i64>, default: i64) -> Result<i64, Invalid> {
    let v = v.unwrap_or(default);
    if (MIN_SECONDS..=MAX_SECONDS).contains(&v) {
        Ok(v)
    } else {
        Err(Invalid {
            field,
            msg: Msg::SliceSeconds,
            args: vec![
                ("min", MIN_SECONDS.to_string()),
                ("max", MAX_SECONDS.to_string()),
            ],
        })
    }
}

impl Settings {
    /// Lengths 5–300 s (min ≤ max), 1–20 segments; what is left out takes the page's default.
    pub fn check(
        min_seconds: Option<i64>,
        max_seconds: Option<i64>,
        count: Option<i64>,
    ) -> Result<Settings, Invalid> {
        let min = seconds("min_seconds", min_seconds, DEFAULT_MIN_SECONDS)?;
        let max = seconds("max_seconds", max_seconds, DEFAULT_MAX_SECONDS)?;
        if min > max {
            return Err(Invalid {
                field: "min_seconds",
                msg: Msg::SliceMinOverMax,
                args: vec![],
            });
        }
        let count = count.unwrap_or(DEFAULT_COUNT);
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(Invalid {
                field: "count",
                msg: Msg::OutOfRange,
                args: vec![("min", "1".into()), ("max", MAX_COUNT.to_string())],
            });
        }
        Ok(Settings {
            min_seconds: min,
            max_seconds: max,
            count,
        })
    }
}

/// One chosen segment as a run keeps it (`intellect_runs.segments`, JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Segment {
    pub start_ms: i64,
    pub end_ms: i64,
    /// 0–100: speech density first, then little dead air and clean boundaries.
    pub score: i64,
    pub speech_ms: i64,
    /// What lies at each boundary: video | scene | sentence | scene_and_sentence.
    pub start_on: String,
    pub end_on: String,
    pub transcript: String,
    /// The short made from it (a video material of the run's group), once cut.
    #[serde(default)]
    pub media_id: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_take_defaults_and_refuse_what_is_out_of_range() {
        assert_eq!(
            Settings::check(None, None, None).unwrap(),
            Settings {
                min_seconds: 15,
                max_seconds: 60,
                count: 5
            }
        );
        assert_eq!(
            Settings::check(Some(4), None, None).unwrap_err().field,
            "min_seconds"
        );
        assert_eq!(
            Settings::check(None, Some(301), None).unwrap_err().msg,
            Msg::SliceSeconds
        );
        assert_eq!(
            Settings::check(Some(40), Some(20), None).unwrap_err().msg,
            Msg::SliceMinOverMax
        );
        assert_eq!(
            Settings::check(None, None, Some(0)).unwrap_err().field,
            "count"
        );
        assert_eq!(
            Settings::check(None, None, Some(21)).unwrap_err().msg,
            Msg::OutOfRange
        );
    }

    #[test]
    fn progress_moves_forward_through_the_steps() {
        assert!(Step::Analyse.starts_at() < Step::Pick.starts_at());
        assert!(Step::Pick.starts_at() < Step::Cut.starts_at());
        assert_eq!(Step::cut_progress(0, 4), 45);
        assert_eq!(Step::cut_progress(4, 4), 100);
        assert!(Step::cut_progress(1, 4) < Step::cut_progress(2, 4));
    }
}
