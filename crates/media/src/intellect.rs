//! AI smart editing: from one long video, find the best short segments. [`analyse`] runs one ffmpeg
//! pass for the scene changes (the `scene` score of `select`, printed by `metadata`) and the silences
//! (`silencedetect`); [`pick`] — pure and deterministic — puts boundaries only on scene changes,
//! sentence edges (ASR lines) and the video's ends, never inside a sentence, drops candidates holding
//! a long silence, ranks the rest by speech density and picks the best ones that do not overlap.

use crate::ffmpeg::{self, ToolError, args};
use std::path::Path;
use std::time::Duration;

/// A cut between two shots: where, and how different the frames are (ffmpeg's scene score, 0–1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scene {
    pub at_ms: i64,
    pub score: f64,
}

/// What one look at the video found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    pub duration_ms: i64,
    pub scenes: Vec<Scene>,
    /// Silent stretches `(start, end)`, in order.
    pub silences: Vec<(i64, i64)>,
}

/// A recognized sentence (an ASR line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

/// How [`pick`] chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub min_ms: i64,
    pub max_ms: i64,
    /// At most this many segments.
    pub count: usize,
    /// A segment never holds a silence longer than this (silences are left out, not kept).
    pub max_silence_ms: i64,
}

/// Why a boundary is where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The start or the end of the video.
    Video,
    /// A scene change.
    Scene,
    /// A sentence's start or end.
    Sentence,
    /// A scene change in the pause between two sentences.
    SceneAndSentence,
}

impl Edge {
    fn quality(self) -> f64 {
        match self {
            Edge::SceneAndSentence => 1.0,
            Edge::Scene => 0.8,
            Edge::Sentence => 0.7,
            Edge::Video => 0.6,
        }
    }
}

/// A chosen segment.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub start_ms: i64,
    pub end_ms: i64,
    pub start_on: Edge,
    pub end_on: Edge,
    /// 0–100: mostly speech density, then little dead air and clean boundaries.
    pub score: i64,
    /// Milliseconds of speech inside.
    pub speech_ms: i64,
    /// The sentences inside, joined.
    pub transcript: String,
}

/// Scene score above which two frames are a cut.
pub const SCENE_THRESHOLD: f64 = 0.3;
/// Quieter than this is silence (speech sits around -20 dBFS).
const SILENCE_DB: i64 = -35;
/// Shorter pauses are just breathing.
const SILENCE_MIN_S: f64 = 0.6;
/// Frames per second the scene detector looks at: cuts land on a 0.1 s grid.
const SCENE_FPS: i64 = 10;

/// The ffmpeg arguments of the analysis: scenes on a small copy of the picture, silences on the sound.
pub fn analyse_args(src: &Path, has_audio: bool) -> Vec<String> {
    let mut a = args(["-v", "info", "-nostats", "-i"]);
    a.push(src.display().to_string());
    let video = format!(
        "[0:v:0]fps={SCENE_FPS},scale=96:-2,select='gt(scene,{SCENE_THRESHOLD})',metadata=print:key=lavfi.scene_score[v]"
    );
    if has_audio {
        a.extend(args([
            "-filter_complex",
            &format!("{video};[0:a:0]silencedetect=n={SILENCE_DB}dB:d={SILENCE_MIN_S}[a]"),
            "-map",
            "[v]",
            "-map",
            "[a]",
        ]));
    } else {
        a.extend(args(["-filter_complex", &video, "-map", "[v]"]));
    }
    a.extend(args(["-f", "null", "-"]));
    a
}

/// Reads the scene changes and silences out of the analysis's log (`metadata` and `silencedetect`
/// lines); a silence still open at the end closes at `duration_ms`.
pub fn parse_analysis(log: &str, duration_ms: i64) -> Analysis {
    let secs = |s: &str| -> Option<i64> {
        let v: f64 = s.trim().split_whitespace().next()?.parse().ok()?;
        v.is_finite().then(|| (v * 1000.0).round() as i64)
    };
    let mut out = Analysis {
        duration_ms,
        ..Default::default()
    };
    let mut pending_at: Option<i64> = None;
    let mut open: Option<i64> = None;
    for line in log.lines() {
        if let Some(i) = line.find("pts_time:") {
            pending_at = secs(&line[i + 9..]);
        } else if let Some(i) = line.find("lavfi.scene_score=") {
            if let (Some(at), Ok(score)) = (pending_at.take(), line[i + 18..].trim().parse::<f64>())
                && at > 0
                && at < duration_ms
            {
                out.scenes.push(Scene { at_ms: at, score });
            }
        } else if let Some(i) = line.find("silence_start:") {
            open = secs(&line[i + 14..]).map(|s| s.max(0));
        } else if let Some(i) = line.find("silence_end:")
            && let (Some(start), Some(end)) = (open.take(), secs(&line[i + 12..]))
        {
            out.silences.push((start, end.min(duration_ms)));
        }
    }
    if let Some(start) = open
        && start < duration_ms
    {
        out.silences.push((start, duration_ms));
    }
    out
}

/// Looks at `src` (`duration_ms` long) once: scene changes and silences. Budget: a minute plus the
/// video's own length (it is decoded once, on a small picture).
pub async fn analyse(src: &Path, duration_ms: i64, has_audio: bool) -> Result<Analysis, ToolError> {
    let budget = Duration::from_millis(60_000 + duration_ms.max(0) as u64);
    let out = ffmpeg::output("ffmpeg", &analyse_args(src, has_audio), budget).await?;
    let log = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(ToolError::Failed {
            tool: "ffmpeg".into(),
            reason: ffmpeg::tail(&out.stderr, 3),
        });
    }
    Ok(parse_analysis(&log, duration_ms))
}

/// A place a segment may start or end.
#[derive(Debug, Clone, Copy)]
struct Point {
    at: i64,
    edge: Edge,
    can_start: bool,
    can_end: bool,
}

/// How far a scene change inside a sentence may move to the sentence's nearer edge.
const SNAP_MS: i64 = 1000;
/// A scene change this close to a sentence's edge is both.
const NEAR_MS: i64 = 500;
/// A boundary moves to the whole second (where a cut is a stream copy) when it is this close and
/// the move stays out of every sentence and off the other scene.
const GRID_MS: i64 = 300;

fn inside(sentences: &[Sentence], t: i64) -> Option<&Sentence> {
    sentences.iter().find(|s| s.start_ms < t && t < s.end_ms)
}

fn overlap(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.1.min(b.1) - a.0.max(b.0)).max(0)
}

/// The boundary candidates: the video's ends, scene changes (moved to the nearer edge of a sentence
/// they fall in, or dropped) and sentence edges; points closer than `NEAR_MS` to a scene change
/// merge into it.
fn points(a: &Analysis, sentences: &[Sentence]) -> Vec<Point> {
    let mut scenes: Vec<Point> = vec![];
    for s in &a.scenes {
        let (at, snapped) = match inside(sentences, s.at_ms) {
            None => (s.at_ms, false),
            Some(x) => {
                let to = if s.at_ms - x.start_ms <= x.end_ms - s.at_ms {
                    x.start_ms
                } else {
                    x.end_ms
                };
                if (to - s.at_ms).abs() > SNAP_MS {
                    continue;
                }
                (to, true)
            }
        };
        let near_sentence = sentences
            .iter()
            .any(|x| (x.start_ms - at).abs() <= NEAR_MS || (x.end_ms - at).abs() <= NEAR_MS);
        let edge = if snapped {
            Edge::Sentence
        } else if near_sentence {
            Edge::SceneAndSentence
        } else {
            Edge::Scene
        };
        scenes.push(Point {
            at,
            edge,
            can_start: true,
            can_end: true,
        });
    }
    let mut out = scenes.clone();
    let near_scene = |t: i64| scenes.iter().any(|p| (p.at - t).abs() <= NEAR_MS);
    for s in sentences {
        for (at, start) in [(s.start_ms, true), (s.end_ms, false)] {
            if !near_scene(at) && inside(sentences, at).is_none() {
                out.push(Point {
                    at,
                    edge: Edge::Sentence,
                    can_start: start,
                    can_end: !start,
                });
            }
        }
    }
    for (at, start) in [(0, true), (a.duration_ms, false)] {
        if !out.iter().any(|p| (p.at - at).abs() <= NEAR_MS) {
            out.push(Point {
                at,
                edge: Edge::Video,
                can_start: start,
                can_end: !start,
            });
        }
    }
    for p in &mut out {
        p.at = on_grid(p, a, sentences);
    }
    out.retain(|p| p.at >= 0 && p.at <= a.duration_ms);
    out.sort_by_key(|p| (p.at, p.can_end, p.can_start));
    out.dedup_by(|b, a| {
        if b.at == a.at {
            a.can_start |= b.can_start;
            a.can_end |= b.can_end;
            true
        } else {
            false
        }
    });
    out
}

/// The point moved to its nearest whole second when that is close, outside every sentence, and no
/// scene change lies between; a scene change itself moves only within one frame.
fn on_grid(p: &Point, a: &Analysis, sentences: &[Sentence]) -> i64 {
    let r = (p.at + 500).div_euclid(1000) * 1000;
    let d = (r - p.at).abs();
    let limit = match p.edge {
        Edge::Scene | Edge::SceneAndSentence => 40,
        _ => GRID_MS,
    };
    let (lo, hi) = (p.at.min(r), p.at.max(r));
    let crosses_speech = sentences
        .iter()
        .any(|s| overlap((s.start_ms, s.end_ms), (lo, hi)) > 0 || (s.start_ms < r && r < s.end_ms));
    let crosses_scene = a.scenes.iter().any(|s| lo < s.at_ms && s.at_ms < hi);
    if d <= limit && !crosses_speech && !crosses_scene && r <= a.duration_ms {
        r
    } else {
        p.at
    }
}

/// How far past a silence's end a recognized line's end may lie and still count as stretched into it:
/// recognizers end a line where the next one starts, and that start is a few tens of milliseconds past
/// where the sound rises (measured: a line ended at 120.41 s over a pause from 111 s to 120.36 s, so
/// the scene change at 120 s fell inside it and was dropped).
const END_SLACK_MS: i64 = 300;

/// Recognized sentences trimmed to the sound: a start or end that lies in a silence moves to that
/// silence's edge (speech recognizers stretch lines into the pauses around them); an end just past a
/// silence ([`END_SLACK_MS`]) is stretched across it and moves to where it starts.
pub fn tighten(sentences: &[Sentence], silences: &[(i64, i64)]) -> Vec<Sentence> {
    sentences
        .iter()
        .map(|s| {
            let mut t = s.clone();
            for &(x, y) in silences {
                if x < t.end_ms && t.end_ms <= y + END_SLACK_MS && x > t.start_ms {
                    t.end_ms = x;
                }
                if x <= t.start_ms && t.start_ms < y && y < t.end_ms {
                    t.start_ms = y;
                }
            }
            t
        })
        .collect()
}

/// Picks up to `settings.count` non-overlapping segments, best first by score, returned in time
/// order. The same input always gives the same segments.
pub fn pick(a: &Analysis, sentences: &[Sentence], settings: &Settings) -> Vec<Segment> {
    let tight = tighten(sentences, &a.silences);
    let sentences = &tight[..];
    let pts = points(a, sentences);
    let mut candidates: Vec<Segment> = vec![];
    for (i, s) in pts.iter().enumerate() {
        if !s.can_start {
            continue;
        }
        for e in &pts[i + 1..] {
            let len = e.at - s.at;
            if len > settings.max_ms {
                break;
            }
            if !e.can_end || len < settings.min_ms {
                continue;
            }
            if let Some(seg) = judge(a, sentences, settings, s, e) {
                candidates.push(seg);
            }
        }
    }
    // Best score, then more speech, then earlier: a total order, so the pick is deterministic.
    candidates.sort_by(|x, y| {
        y.score
            .cmp(&x.score)
            .then(y.speech_ms.cmp(&x.speech_ms))
            .then(x.start_ms.cmp(&y.start_ms))
            .then(x.end_ms.cmp(&y.end_ms))
    });
    let mut chosen: Vec<Segment> = vec![];
    for c in candidates {
        if chosen.len() >= settings.count {
            break;
        }
        if chosen
            .iter()
            .all(|k| overlap((k.start_ms, k.end_ms), (c.start_ms, c.end_ms)) == 0)
        {
            chosen.push(c);
        }
    }
    chosen.sort_by_key(|s| s.start_ms);
    chosen
}

/// A candidate's score, or None when it holds a silence longer than allowed.
fn judge(
    a: &Analysis,
    sentences: &[Sentence],
    settings: &Settings,
    s: &Point,
    e: &Point,
) -> Option<Segment> {
    let span = (s.at, e.at);
    let len = (e.at - s.at).max(1);
    let mut silent = 0;
    for &(x, y) in &a.silences {
        let o = overlap((x, y), span);
        if o > settings.max_silence_ms {
            return None;
        }
        silent += o;
    }
    let mut speech = 0;
    let mut words: Vec<&str> = vec![];
    for x in sentences {
        let o = overlap((x.start_ms, x.end_ms), span);
        speech += o;
        if o > 0 {
            words.push(&x.text);
        }
    }
    let density = speech as f64 / len as f64;
    let quiet = silent as f64 / len as f64;
    let score =
        60.0 * density + 20.0 * (1.0 - quiet) + 10.0 * s.edge.quality() + 10.0 * e.edge.quality();
    Some(Segment {
        start_ms: s.at,
        end_ms: e.at,
        start_on: s.edge,
        end_on: e.edge,
        score: score.round().clamp(0.0, 100.0) as i64,
        speech_ms: speech,
        transcript: words.join(" "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(start_ms: i64, end_ms: i64, text: &str) -> Sentence {
        Sentence {
            start_ms,
            end_ms,
            text: text.into(),
        }
    }

    fn settings(min_s: i64, max_s: i64, count: usize) -> Settings {
        Settings {
            min_ms: min_s * 1000,
            max_ms: max_s * 1000,
            count,
            max_silence_ms: 2000,
        }
    }

    #[test]
    fn the_log_gives_scenes_and_silences() {
        let log = "\
[Parsed_metadata_3 @ 0x55] frame:0    pts:300     pts_time:30
[Parsed_metadata_3 @ 0x55] lavfi.scene_score=0.912
[silencedetect @ 0x56] silence_start: 21.5
[silencedetect @ 0x56] silence_end: 30.2 | silence_duration: 8.7
[Parsed_metadata_3 @ 0x55] frame:1    pts:601     pts_time:60.1
[Parsed_metadata_3 @ 0x55] lavfi.scene_score=0.45
[silencedetect @ 0x56] silence_start: 170.25
";
        let a = parse_analysis(log, 180_000);
        assert_eq!(
            a.scenes,
            vec![
                Scene {
                    at_ms: 30_000,
                    score: 0.912
                },
                Scene {
                    at_ms: 60_100,
                    score: 0.45
                }
            ]
        );
        assert_eq!(a.silences, vec![(21_500, 30_200), (170_250, 180_000)]);
        let args = analyse_args(Path::new("in.mp4"), true).join(" ");
        assert!(args.contains("select='gt(scene,0.3)'"), "{args}");
        assert!(args.contains("silencedetect=n=-35dB:d=0.6"), "{args}");
        assert!(
            !analyse_args(Path::new("in.mp4"), false)
                .join(" ")
                .contains("silencedetect")
        );
    }

    /// Three 30 s scenes; speech fills the first 20 s of scenes one and three, then silence; the
    /// middle scene is silent.
    fn video() -> (Analysis, Vec<Sentence>) {
        let a = Analysis {
            duration_ms: 90_000,
            scenes: vec![
                Scene {
                    at_ms: 30_000,
                    score: 0.9,
                },
                Scene {
                    at_ms: 60_000,
                    score: 0.8,
                },
            ],
            silences: vec![(20_600, 31_000), (31_000, 61_000), (80_700, 90_000)],
        };
        let mut s = vec![];
        for (base, n) in [(1_000, 7), (61_000, 7)] {
            for k in 0..n {
                let start = base + k * 2_800;
                s.push(sentence(start, start + 2_300, &format!("s{}", start / 100)));
            }
        }
        (a, s)
    }

    #[test]
    fn segments_cover_the_speech_and_leave_the_silence_out() {
        let (a, s) = video();
        let got = pick(&a, &s, &settings(15, 60, 3));
        // One segment per speaking scene (two would need the long silence), none in the silent one.
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].start_ms >= 0 && got[0].end_ms <= 30_000, "{got:?}");
        assert!(
            got[1].start_ms >= 60_000 && got[1].end_ms <= 90_000,
            "{got:?}"
        );
        for g in &got {
            assert!(
                (15_000..=60_000).contains(&(g.end_ms - g.start_ms)),
                "{g:?}"
            );
            assert!(g.speech_ms >= 13_000, "{g:?}");
            assert!(g.score > 70, "{g:?}");
            // Every boundary is a scene change, a sentence edge or the video's start.
            for t in [g.start_ms, g.end_ms] {
                let near = |x: i64| (x - t).abs() <= 500;
                assert!(
                    near(0)
                        || a.scenes.iter().any(|c| near(c.at_ms))
                        || s.iter().any(|x| near(x.start_ms) || near(x.end_ms)),
                    "{t} in {g:?}"
                );
                assert!(inside(&s, t).is_none(), "{t} cuts a sentence");
            }
        }
        assert!(
            got[0].transcript.contains("s38 s66"),
            "{}",
            got[0].transcript
        );
        // The same input gives the same answer.
        assert_eq!(pick(&a, &s, &settings(15, 60, 3)), got);
        // Fewer wanted: the best one.
        assert_eq!(pick(&a, &s, &settings(15, 60, 1)).len(), 1);
        // Too long a minimum: nothing fits without a long silence.
        assert!(pick(&a, &s, &settings(40, 60, 3)).is_empty());
    }

    #[test]
    fn sentences_are_trimmed_to_the_sound() {
        let s = vec![sentence(900, 4_800, "a"), sentence(5_000, 9_000, "b")];
        let t = tighten(&s, &[(0, 1_200), (4_100, 5_300), (7_000, 7_600)]);
        assert_eq!((t[0].start_ms, t[0].end_ms), (1_200, 4_100));
        // A pause inside a sentence stays inside it.
        assert_eq!((t[1].start_ms, t[1].end_ms), (5_300, 9_000));
        // An end put just past a long pause (at the next line's start) was stretched across it.
        let t = tighten(&[sentence(1_000, 9_250, "c")], &[(3_000, 9_000)]);
        assert_eq!((t[0].start_ms, t[0].end_ms), (1_000, 3_000));
        let t = tighten(&[sentence(1_000, 9_400, "c")], &[(3_000, 9_000)]);
        assert_eq!(
            t[0].end_ms, 9_400,
            "400 ms of sound after the pause is speech"
        );
    }

    #[test]
    fn a_scene_change_inside_a_sentence_moves_to_its_edge() {
        let a = Analysis {
            duration_ms: 40_000,
            scenes: vec![Scene {
                at_ms: 20_400,
                score: 0.7,
            }],
            silences: vec![],
        };
        let s: Vec<Sentence> = (0..13)
            .map(|k| sentence(k * 3_000 + 100, k * 3_000 + 2_900, "x"))
            .collect();
        let pts = points(&a, &s);
        // 20.4 s is inside the sentence 18.1–20.9: it moves to 20.9, then to the whole second in the
        // pause (21.0, before the next sentence at 21.1); no point lies inside speech.
        assert!(
            pts.iter()
                .any(|p| p.at == 21_000 && p.can_start && p.can_end),
            "{pts:?}"
        );
        assert!(!pts.iter().any(|p| p.at == 20_400));
        for p in &pts {
            assert!(inside(&s, p.at).is_none(), "{p:?}");
        }
        for g in pick(&a, &s, &settings(5, 15, 5)) {
            assert!(inside(&s, g.start_ms).is_none() && inside(&s, g.end_ms).is_none());
            assert!(g.end_ms - g.start_ms >= 5_000 && g.end_ms - g.start_ms <= 15_000);
        }
    }

    #[test]
    fn without_speech_the_scenes_decide() {
        let a = Analysis {
            duration_ms: 60_000,
            scenes: (1..6)
                .map(|k| Scene {
                    at_ms: k * 10_000,
                    score: 0.9,
                })
                .collect(),
            silences: vec![],
        };
        let got = pick(&a, &[], &settings(15, 25, 10));
        assert!(!got.is_empty());
        for g in &got {
            assert_eq!(g.start_ms % 10_000, 0);
            assert_eq!(g.end_ms % 10_000, 0);
            assert_eq!(g.speech_ms, 0);
        }
    }

    /// A real video: three 4 s scenes (red, blue, a test pattern) over a tone that sounds for 2 s of
    /// every 4. ffmpeg finds the two cuts and the three pauses where they are.
    #[tokio::test]
    async fn a_real_video_gives_its_cuts_and_pauses() {
        if !crate::ffmpeg::installed() {
            eprintln!("ffmpeg is not installed; skipped");
            return;
        }
        let dir = std::env::temp_dir().join(format!("cm-intellect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("v.mp4");
        let st = std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-y"])
            .args(["-f", "lavfi", "-i", "color=c=red:s=160x288:r=30:d=4"])
            .args(["-f", "lavfi", "-i", "color=c=blue:s=160x288:r=30:d=4"])
            .args(["-f", "lavfi", "-i", "testsrc=s=160x288:r=30:d=4"])
            .args([
                "-f",
                "lavfi",
                "-i",
                "aevalsrc='if(lt(mod(t,4),2),0.3*sin(2*PI*440*t),0)':s=48000:d=12",
            ])
            .args(["-filter_complex", "[0:v][1:v][2:v]concat=n=3:v=1:a=0[v]"])
            .args(["-map", "[v]", "-map", "3:a", "-c:v", "libx264", "-preset"])
            .args(["ultrafast", "-c:a", "aac", "-t", "12"])
            .arg(&f)
            .status()
            .unwrap();
        assert!(st.success());
        let a = analyse(&f, 12_000, true).await.unwrap();
        let cuts: Vec<i64> = a.scenes.iter().map(|s| s.at_ms).collect();
        assert_eq!(cuts.len(), 2, "{a:?}");
        for (got, want) in cuts.iter().zip([4_000, 8_000]) {
            assert!((got - want).abs() <= 100, "{a:?}");
        }
        assert_eq!(a.silences.len(), 3, "{a:?}");
        for (&(s, e), (ws, we)) in
            a.silences
                .iter()
                .zip([(2_000, 4_000), (6_000, 8_000), (10_000, 12_000)])
        {
            assert!((s - ws).abs() <= 150 && (e - we).abs() <= 150, "{a:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
