//! The render engine of a mix variant (DESIGN.md §6, issue 5): canonical mezzanines (see `ingest`) joined
//! by **stream copy**, an audio bed shared by every variant of a project, and text burned in only when asked,
//! in ONE fast re-encode of the assembled video.
//!
//! Two steps:
//! * [`prepare`] runs once per project (and again when its music, voice-over or subtitles change): it
//!   probes every mezzanine the shot groups hold, renders the **audio bed** (music looped to length,
//!   loudness-normalized, ducked under the loudness-normalized voice-over, mixed, AAC) and resolves the
//!   subtitle font (a font file is copied into the prep folder's `fonts/`). Its output, [`Prepared`], lives
//!   in a folder, is saved there as `prep.json` and is reused by every variant ([`Prepared::load`]).
//! * [`render`] makes one variant: the concat demuxer joins the video of the chosen clips by stream copy
//!   (trims on the 1 s GOP grid, see [`snap_trim`]); the bed is cut to length by stream copy. With no text
//!   to burn this is a remux: a fraction of a second. With a title or subtitles the assembled video is
//!   re-encoded once: libass draws one ASS script (the project's subtitles and the variant's title, see
//!   [`burn_script`]) and x264 encodes with [`BURN_PRESET`]. Pre-rendered transparent text strips were
//!   tried and dropped: they saved ~0.6 CPU-s per 30 s but their overlay blends glyph edges differently
//!   from libass, which alone cost more SSIM (0.9994) than the encoder did.
//!
//! Audio of a variant: the bed by stream copy when there is one and the clips' own sound is muted (the
//! default with a bed); otherwise the clips' sound is joined with exact trims and encoded to AAC (mixed
//! under the bed at `clip_audio_volume` when there is a bed); with neither, a silent AAC track.
//!
//! Advanced mode (per shot): shot captions ([`VariantSpec::shot_texts`]) are more events of the same ASS
//! script, timed to their segment ([`shot_captions`]). A transition between two shots
//! ([`VariantSpec::transitions`]) makes the render **composed**: no stream copy, but ONE ffmpeg that seeks
//! into every clip (exact trims on the frame grid, [`exact_trim`]), joins them with `xfade` (transitions)
//! and `concat` (hard cuts) in one filter graph ([`composed_graph`]; the clips' sound with `acrossfade`
//! over the same overlaps), draws the text and encodes once with the burn settings. A transition is
//! clamped to half of its shorter shot; the video lasts the shots' sum minus the transitions'
//! ([`timeline`]). Every shot is an input with its own decoder: ~70 MB of memory per shot.
//!
//! Failures: a missing input file fails with [`MixError::MissingInput`] naming it; ffmpeg's stderr tail
//! becomes the reason of [`MixError::Tool`]. Every ffmpeg runs with a timeout and is killed when dropped.

use crate::ffmpeg::{self, Report, ToolError, args};
use crate::ingest::{FPS, HEIGHT, WIDTH};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Mezzanines have one closed GOP per second (ingest `-g 30`): trims snap to this grid.
pub const GOP_MS: i64 = 1000;
/// SPEC §5 "Voice and clip": a video title is at most 20 characters.
pub const TITLE_MAX_CHARS: usize = 20;
/// Advanced mode's limits live with its rules in `domain::clip` (caption length, `xfade` kinds, transition
/// lengths; a transition is further clamped to half of the shorter of its two shots).
pub use domain::clip::{SHOT_TEXT_MAX_CHARS, TRANSITION_MS, TRANSITIONS};
/// The one re-encode a burned variant costs: x264's fastest preset with its in-loop deblocking filter
/// turned back on (cheap, and it buys back most of what ultrafast loses), at a CRF three steps below the
/// mezzanine's so that the second generation still matches a single veryfast CRF 20 pass from the sources
/// (the benchmark measures both against the never-encoded picture: 0.9971 vs 0.9970 SSIM). CABAC would
/// save ~12 % bitrate but cost ~15 % more time, so it stays off. One x264 keeps both cores busy (~1.8),
/// so the burn is not split into parallel encodes.
pub const BURN_PRESET: &str = "ultrafast";
pub const BURN_X264_PARAMS: &str = "deblock=0,0";
pub const BURN_CRF: u32 = 17;
/// Loudness the bed is normalized to (EBU R128 integrated, LUFS).
pub const TARGET_LUFS: i32 = -16;
/// The default font: WenQuanYi Zen Hei (Debian `fonts-wqy-zenhei`), CJK and Latin.
pub const DEFAULT_FONT_FAMILY: &str = "WenQuanYi Zen Hei";

#[derive(Debug, thiserror::Error)]
pub enum MixError {
    #[error("input file not found: {}", .0.display())]
    MissingInput(PathBuf),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
}

impl From<std::io::Error> for MixError {
    fn from(e: std::io::Error) -> Self {
        MixError::Tool(ToolError::Io(e))
    }
}

fn invalid<T>(msg: impl Into<String>) -> Result<T, MixError> {
    Err(MixError::Invalid(msg.into()))
}

pub use crate::ffmpeg::Progress;

/// A progress sink that ignores everything.
pub fn no_progress(_: u8) {}

// ---------------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------------

/// One clip of a variant: a mezzanine and an optional trim (milliseconds into the clip).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClipSpec {
    pub path: PathBuf,
    #[serde(default)]
    pub in_ms: Option<i64>,
    #[serde(default)]
    pub out_ms: Option<i64>,
}

impl ClipSpec {
    pub fn whole(path: impl Into<PathBuf>) -> Self {
        ClipSpec {
            path: path.into(),
            in_ms: None,
            out_ms: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Font {
    /// A font file (TTF/OTF/TTC), e.g. one the merchant uploaded to the font library.
    File(PathBuf),
    /// A family name fontconfig knows, e.g. "WenQuanYi Zen Hei".
    Family(String),
}

/// Where a text band sits: its centre at a share of the frame height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// Centre at 12 % of the height.
    Top,
    Middle,
    /// Centre at 80 % of the height: above the platforms' caption and button area.
    Bottom,
    /// Centre at this percentage (0–100) of the height.
    Percent(u8),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextStyle {
    pub font: Font,
    /// Font size in pixels of the 1080x1920 frame.
    pub size: u32,
    /// Fill colour `#RRGGBB`; the outline is black.
    pub colour: String,
    pub position: Position,
}

impl TextStyle {
    pub fn new(position: Position, size: u32) -> Self {
        TextStyle {
            font: Font::Family(DEFAULT_FONT_FAMILY.into()),
            size,
            colour: "#FFFFFF".into(),
            position,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtitleLine {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtitles {
    pub lines: Vec<SubtitleLine>,
    pub style: TextStyle,
}

/// A title shown over the whole video.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Title {
    pub text: String,
    pub style: TextStyle,
}

/// What does not change between the variants of a project.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectSpec {
    /// Every mezzanine the project's shot groups hold (probed once here; others are probed on use).
    pub clips: Vec<PathBuf>,
    /// Background music (any audio file ffmpeg reads): looped or cut to length, under the voice.
    pub music: Option<PathBuf>,
    /// 0–100 (100 = as normalized).
    pub music_volume: u8,
    pub voice: Option<PathBuf>,
    pub voice_volume: u8,
    /// Subtitles of the project (they follow the voice-over, so they are the same in every variant).
    pub subtitles: Option<Subtitles>,
    /// Length of the shared audio bed: at least the longest variant (see [`planned_ms`]). A longer variant
    /// still renders, with a bed of its own made on the fly.
    pub bed_ms: i64,
}

impl Default for ProjectSpec {
    fn default() -> Self {
        ProjectSpec {
            clips: vec![],
            music: None,
            music_volume: 100,
            voice: None,
            voice_volume: 100,
            subtitles: None,
            bed_ms: 60_000,
        }
    }
}

/// A transition from one shot into the next: an ffmpeg `xfade` transition (one of [`TRANSITIONS`]) lasting
/// `ms` milliseconds (within [`TRANSITION_MS`]). The two shots overlap for that long, so the video gets
/// shorter by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub kind: String,
    pub ms: i64,
}

/// One variant to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantSpec {
    pub clips: Vec<ClipSpec>,
    pub title: Option<Title>,
    /// Burn the project's subtitles (when it has any).
    pub burn_subtitles: bool,
    /// The clips' own sound, 0–100: `None` mutes it when there is a bed (music or voice) and keeps it at
    /// 100 when there is none.
    pub clip_audio_volume: Option<u8>,
    /// The cover is the frame at this time (clamped into the video).
    pub cover_at_ms: i64,
    /// Entry i: the transition from clip i into clip i+1 (`None`, or no entry, is a hard cut). Any
    /// transition makes the render a composed one (see [`render`]).
    #[serde(default)]
    pub transitions: Vec<Option<Transition>>,
    /// Entry i: a caption shown while clip i plays (empty, or no entry, shows none); at most
    /// [`SHOT_TEXT_MAX_CHARS`] characters.
    #[serde(default)]
    pub shot_texts: Vec<String>,
    /// Style of the shot captions; `None` is [`default_shot_style`].
    #[serde(default)]
    pub shot_style: Option<TextStyle>,
}

impl VariantSpec {
    pub fn new(clips: Vec<ClipSpec>) -> Self {
        VariantSpec {
            clips,
            title: None,
            burn_subtitles: false,
            clip_audio_volume: None,
            cover_at_ms: 1000,
            transitions: vec![],
            shot_texts: vec![],
            shot_style: None,
        }
    }

    /// True when some shot has a transition into the next one: the variant is rendered composed.
    pub fn has_transitions(&self) -> bool {
        self.transitions.iter().any(Option::is_some)
    }
}

/// The style of shot captions when the variant names none: the default font, 64 px, mid-frame.
pub fn default_shot_style() -> TextStyle {
    TextStyle::new(Position::Middle, 64)
}

// ---------------------------------------------------------------------------------------------------
// Prepared project
// ---------------------------------------------------------------------------------------------------

/// What a mezzanine looks like to the concat demuxer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClipInfo {
    /// Duration of the video stream.
    pub duration_ms: i64,
    /// How far decoding timestamps run ahead of presentation (B-frame delay), in microseconds.
    pub dts_delay_us: i64,
    /// Container stream ids of the video and audio tracks (MP4 track ids).
    pub video_id: i64,
    pub audio_id: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bed {
    pub path: PathBuf,
    pub duration_ms: i64,
}

/// The output of [`prepare`]: reused by every variant of the project.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    pub dir: PathBuf,
    pub spec: ProjectSpec,
    pub clips: BTreeMap<PathBuf, ClipInfo>,
    pub bed: Option<Bed>,
    /// The font family libass asks for when the subtitles are burned (a font file was copied to `fonts/`).
    pub subtitle_family: Option<String>,
}

impl Prepared {
    /// Reads `prep.json` of a prepared folder.
    pub fn load(dir: &Path) -> Result<Prepared, MixError> {
        let text = std::fs::read(dir.join("prep.json"))
            .map_err(|_| MixError::MissingInput(dir.join("prep.json")))?;
        serde_json::from_slice(&text).map_err(|e| MixError::Invalid(format!("prep.json: {e}")))
    }
}

/// What [`render`] made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rendered {
    pub video: PathBuf,
    pub cover: PathBuf,
    /// The sum of the (snapped) clip lengths; for a composed render, the sum of the exact clip lengths minus
    /// the sum of the transitions.
    pub planned_ms: i64,
    /// True when the video was encoded (text burned, or a composed render); false for a pure stream copy
    /// of the video.
    pub burned: bool,
    /// True when the audio was the bed by stream copy (no audio encode).
    pub audio_copied: bool,
}

// ---------------------------------------------------------------------------------------------------
// Trims and the concat list
// ---------------------------------------------------------------------------------------------------

/// A trim on the GOP grid: the in point moves back to the keyframe at or before it, the out point to the
/// nearest keyframe (or the clip's end when that is nearer or the out point is past it); at least one GOP
/// (or the whole clip if shorter) is kept. Cutting on keyframes is what keeps the join a stream copy: no
/// frame of a kept GOP refers to a dropped one (closed GOPs), so nothing needs re-encoding.
pub fn snap_trim(duration_ms: i64, in_ms: Option<i64>, out_ms: Option<i64>) -> (i64, i64) {
    let d = duration_ms.max(0);
    let last_key = if d == 0 { 0 } else { (d - 1) / GOP_MS * GOP_MS };
    let a = (in_ms.unwrap_or(0).max(0) / GOP_MS * GOP_MS).min(last_key);
    let b = match out_ms {
        None => d,
        Some(o) if o >= d => d,
        Some(o) => {
            let near = (o + GOP_MS / 2) / GOP_MS * GOP_MS;
            // The clip's end is a cut point too; prefer it when it is the nearer one.
            if d - o < (o - near).abs() || near >= d {
                d
            } else {
                near
            }
        }
    };
    let b = if b <= a { (a + GOP_MS).min(d) } else { b };
    (a, b)
}

/// One piece of the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub path: PathBuf,
    pub in_ms: i64,
    pub out_ms: i64,
    pub info: ClipInfo,
}

fn segments(clips: &[ClipSpec], infos: &BTreeMap<PathBuf, ClipInfo>) -> Vec<Segment> {
    clips
        .iter()
        .map(|c| {
            let info = infos[&c.path];
            let (a, b) = snap_trim(info.duration_ms, c.in_ms, c.out_ms);
            Segment {
                path: c.path.clone(),
                in_ms: a,
                out_ms: b,
                info,
            }
        })
        .collect()
}

/// The planned length of a variant: the sum of its snapped clip lengths.
pub fn planned_ms(segments: &[Segment]) -> i64 {
    segments.iter().map(|s| s.out_ms - s.in_ms).sum()
}

fn secs(us: i64) -> String {
    format!(
        "{}.{:06}",
        us.div_euclid(1_000_000),
        us.rem_euclid(1_000_000)
    )
}

fn quote_concat(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// An ffconcat script over one stream of the mezzanines. Every file carries an explicit `duration`, so the
/// timeline is exactly the sum of the segments. For video, a cut before the clip's end stops at the
/// *decoding* time of the next GOP's keyframe (the demuxer compares DTS, which runs `dts_delay` ahead), so
/// exactly the frames of the kept GOPs are copied; audio stops at the out point itself.
pub fn concat_script(segments: &[Segment], video: bool) -> String {
    let mut s = String::from("ffconcat version 1.0\n");
    if let Some(first) = segments.first() {
        let id = if video {
            first.info.video_id
        } else {
            first.info.audio_id.unwrap_or(2)
        };
        s.push_str(&format!("stream\nexact_stream_id {id}\n"));
    }
    for seg in segments {
        s.push_str(&format!("file {}\n", quote_concat(&seg.path)));
        if seg.in_ms > 0 {
            s.push_str(&format!("inpoint {}\n", secs(seg.in_ms * 1000)));
        }
        if seg.out_ms < seg.info.duration_ms {
            let out_us = if video {
                // Half a millisecond before the keyframe's DTS: no packet lies in between (frames are 33 ms).
                seg.out_ms * 1000 - seg.info.dts_delay_us - 500
            } else {
                seg.out_ms * 1000
            };
            s.push_str(&format!("outpoint {}\n", secs(out_us)));
        }
        s.push_str(&format!(
            "duration {}\n",
            secs((seg.out_ms - seg.in_ms) * 1000)
        ));
    }
    s
}

/// The one video encode of a burned or composed variant (see [`BURN_PRESET`]).
fn burn_args() -> Vec<String> {
    args([
        "-c:v",
        "libx264",
        "-preset",
        BURN_PRESET,
        "-x264-params",
        BURN_X264_PARAMS,
        "-crf",
        &BURN_CRF.to_string(),
        "-pix_fmt",
        "yuv420p",
    ])
}

/// The audio codec (the bed copied, or the mix encoded to AAC 48 kHz stereo) and a faststart MP4 at `tmp`.
fn output_args(audio_copied: bool, tmp: &Path) -> Vec<String> {
    let mut a = if audio_copied {
        args(["-c:a", "copy"])
    } else {
        args([
            "-c:a",
            "aac",
            "-aac_coder",
            "fast",
            "-b:a",
            "128k",
            "-ar",
            "48000",
            "-ac",
            "2",
        ])
    };
    a.extend(args(["-movflags", "+faststart", "-f", "mp4"]));
    a.push(tmp.display().to_string());
    a
}

// ---------------------------------------------------------------------------------------------------
// Composed timeline (transitions): exact trims, overlaps, the filter graph
// ---------------------------------------------------------------------------------------------------

/// The nearest frame (of the 30 fps output) to a time.
fn ms_to_frames(ms: i64) -> i64 {
    (ms.max(0) * FPS + 500) / 1000
}

/// The time of a frame, in whole milliseconds (`ms_to_frames(frames_to_ms(f)) == f`).
pub fn frames_to_ms(frames: i64) -> i64 {
    (frames * 1000 + FPS / 2) / FPS
}

/// The time of a frame in seconds, to the microsecond.
fn frames_secs(frames: i64) -> String {
    secs((frames * 1_000_000 + FPS / 2) / FPS)
}

/// A trim for a composed render: exact (no GOP grid, the video is re-encoded anyway) on the frame grid and
/// clamped into the clip; an out point at or before the in point keeps one second (or the rest of the
/// clip), as [`snap_trim`] does. Milliseconds of frame times.
pub fn exact_trim(duration_ms: i64, in_ms: Option<i64>, out_ms: Option<i64>) -> (i64, i64) {
    let total = ms_to_frames(duration_ms).max(1);
    let a = ms_to_frames(in_ms.unwrap_or(0)).min(total - 1);
    let b = out_ms.map(ms_to_frames).unwrap_or(total).min(total);
    let b = if b <= a { (a + FPS).min(total) } else { b };
    (frames_to_ms(a), frames_to_ms(b))
}

/// Where the segments of a composed render sit in the output, in frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// Length of each segment.
    pub frames: Vec<i64>,
    /// Frames segment i and i+1 share (the transition between them); 0 is a hard cut.
    pub overlaps: Vec<i64>,
    /// The first output frame of each segment: where the transition into it begins. This is also the
    /// `xfade` offset of that transition.
    pub starts: Vec<i64>,
    /// Frames of the output: the segments' sum minus the overlaps' sum.
    pub total: i64,
}

impl Timeline {
    /// The transitions' lengths in milliseconds (what [`Rendered::planned_ms`] subtracts).
    pub fn overlaps_ms(&self) -> Vec<i64> {
        self.overlaps.iter().map(|&f| frames_to_ms(f)).collect()
    }

    pub fn starts_ms(&self) -> Vec<i64> {
        self.starts.iter().map(|&f| frames_to_ms(f)).collect()
    }
}

/// The timeline of segments `frames` long joined by transitions of `wanted_ms` (entry i between segment i
/// and i+1; `None` or no entry is a hard cut). A transition lasts at most half of the shorter of its two
/// segments, so the two transitions of a middle segment never overlap each other.
pub fn timeline(frames: &[i64], wanted_ms: &[Option<i64>]) -> Timeline {
    let overlaps: Vec<i64> = frames
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let want = wanted_ms.get(i).copied().flatten().map_or(0, ms_to_frames);
            want.min(w[0].min(w[1]) / 2).max(0)
        })
        .collect();
    let mut starts = Vec::with_capacity(frames.len());
    let mut at = 0;
    for (i, f) in frames.iter().enumerate() {
        starts.push(at);
        at += f - overlaps.get(i).copied().unwrap_or(0);
    }
    Timeline {
        frames: frames.to_vec(),
        overlaps,
        starts,
        total: at,
    }
}

/// The caption events of the shots on the output timeline: caption i runs from the start of segment i to
/// the start of segment i+1 (the last one to `end_ms`). In a composed render a segment starts where the
/// transition into it begins, so during a transition the incoming shot's caption already shows and the
/// outgoing one is gone: a caption never overlaps another. Empty texts make no event.
pub fn shot_captions(starts_ms: &[i64], end_ms: i64, texts: &[String]) -> Vec<SubtitleLine> {
    starts_ms
        .iter()
        .enumerate()
        .filter_map(|(i, &start)| {
            let text = texts.get(i)?.trim();
            let end = starts_ms.get(i + 1).copied().unwrap_or(end_ms);
            (!text.is_empty() && end > start).then(|| SubtitleLine {
                start_ms: start,
                end_ms: end,
                text: text.to_string(),
            })
        })
        .collect()
}

/// Where a composed render seeks in a clip: half a frame before the first frame kept (so rounding can never
/// drop or add a frame), or the very start.
fn seek_us(first_frame: i64) -> i64 {
    if first_frame == 0 {
        0
    } else {
        ((2 * first_frame - 1) * 1_000_000 + FPS) / (2 * FPS)
    }
}

/// ffmpeg input options of one segment of a composed render: seek (see [`seek_us`]) and read one frame
/// more than kept; the filter graph cuts the exact frames and samples.
pub fn composed_input(seg: &Segment) -> Vec<String> {
    let first = ms_to_frames(seg.in_ms);
    let n = ms_to_frames(seg.out_ms) - first;
    let mut a = args([
        "-ss",
        &secs(seek_us(first)),
        "-t",
        &frames_secs(n + 1),
        "-i",
    ]);
    a.push(seg.path.display().to_string());
    a
}

/// The filter graph of a composed render. Input i is segment i (opened with [`composed_input`], so its
/// first frame lies half a frame after the seek point). Every segment is cut to its exact frames and
/// renumbered on a 1/30 time base; the chain then joins them left to right, `xfade` where a transition is
/// (offset = the segment's start in the output) and `concat` on a hard cut. ffmpeg 5.1's `xfade` ends the
/// transition early (and skews timestamps) when its first input reaches its end while frames are still
/// queued, so the outgoing side gets two cloned frames beyond the transition (`tpad`; they only ever show
/// at progress 0, i.e. not at all) and the result is renumbered (`setpts=N`). `kinds[i]` names transition
/// i; `text` is the filter drawing the text (e.g. `subtitles=...`), applied to the joined video. The video
/// comes out as `[vout]`; with `audio`, the clips' own sound is cut to the same spans and joined with
/// `acrossfade` over the same overlaps (`concat` on hard cuts), out as `[clips]`.
pub fn composed_graph(
    tl: &Timeline,
    first_frames: &[i64],
    kinds: &[Option<&str>],
    text: Option<&str>,
    audio: bool,
) -> String {
    let mut g = Vec::new();
    for (i, n) in tl.frames.iter().enumerate() {
        g.push(format!(
            "[{i}:v]trim=end_frame={n},settb=1/{FPS},setpts=N[v{i}]"
        ));
    }
    let mut cur = "v0".to_string();
    for i in 1..tl.frames.len() {
        let ov = tl.overlaps[i - 1];
        let out = format!("x{i}");
        if ov > 0 {
            let kind = kinds.get(i - 1).copied().flatten().unwrap_or("fade");
            g.push(format!("[{cur}]tpad=stop=2:stop_mode=clone[p{i}]"));
            g.push(format!(
                "[p{i}][v{i}]xfade=transition={kind}:duration={}:offset={},setpts=N[{out}]",
                frames_secs(ov),
                frames_secs(tl.starts[i])
            ));
        } else {
            g.push(format!(
                "[{cur}][v{i}]concat=n=2:v=1:a=0,settb=1/{FPS},setpts=N[{out}]"
            ));
        }
        cur = out;
    }
    g.push(format!("[{cur}]{}[vout]", text.unwrap_or("null")));
    if audio {
        let rate = crate::ingest::AUDIO_RATE;
        let per_frame = rate / FPS;
        for (i, n) in tl.frames.iter().enumerate() {
            // The seek point lies half a frame before the first frame (none at the clip's start).
            let skip = if first_frames.get(i).copied().unwrap_or(0) > 0 {
                per_frame / 2
            } else {
                0
            };
            let len = n * per_frame;
            g.push(format!(
                "[{i}:a]aresample={rate},atrim=start_sample={skip}:end_sample={},\
asetpts=PTS-STARTPTS,apad=whole_len={len}[a{i}]",
                skip + len
            ));
        }
        let mut cur = "a0".to_string();
        for i in 1..tl.frames.len() {
            let ov = tl.overlaps[i - 1];
            let out = if i + 1 == tl.frames.len() {
                "clips".to_string()
            } else {
                format!("y{i}")
            };
            if ov > 0 {
                g.push(format!(
                    "[{cur}][a{i}]acrossfade=ns={}:c1=tri:c2=tri[{out}]",
                    ov * per_frame
                ));
            } else {
                g.push(format!("[{cur}][a{i}]concat=n=2:v=0:a=1[{out}]"));
            }
            cur = out;
        }
        if tl.frames.len() == 1 {
            g.push("[a0]anull[clips]".into());
        }
    }
    g.join(";")
}

/// The rules of advanced mode: transitions (known kinds, lengths within [`TRANSITION_MS`], at most one per
/// join) and shot captions (at most one per clip, each at most [`SHOT_TEXT_MAX_CHARS`] characters).
pub fn check_advanced(variant: &VariantSpec) -> Result<(), MixError> {
    let joins = variant.clips.len().saturating_sub(1);
    if variant.transitions.len() > joins {
        return invalid(format!(
            "{} transitions for {} clips; at most {joins}",
            variant.transitions.len(),
            variant.clips.len()
        ));
    }
    for t in variant.transitions.iter().flatten() {
        if !TRANSITIONS.contains(&t.kind.as_str()) {
            return invalid(format!(
                "unknown transition {:?}; one of {}",
                t.kind,
                TRANSITIONS.join(", ")
            ));
        }
        let (lo, hi) = TRANSITION_MS;
        if !(lo..=hi).contains(&t.ms) {
            return invalid(format!("a transition lasts {lo}–{hi} ms, got {} ms", t.ms));
        }
    }
    if variant.shot_texts.len() > variant.clips.len() {
        return invalid(format!(
            "{} shot captions for {} clips",
            variant.shot_texts.len(),
            variant.clips.len()
        ));
    }
    for t in &variant.shot_texts {
        let n = t.trim().chars().count();
        if n > SHOT_TEXT_MAX_CHARS {
            return invalid(format!(
                "a shot caption is {n} characters; at most {SHOT_TEXT_MAX_CHARS}"
            ));
        }
    }
    if variant.shot_texts.iter().any(|t| !t.trim().is_empty()) {
        check_style(variant.shot_style.as_ref().unwrap_or(&default_shot_style()))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------
// Text: ASS scripts, geometry, fonts
// ---------------------------------------------------------------------------------------------------

/// A style of an ASS script: its name and the font family libass should ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssStyle<'a> {
    pub name: &'a str,
    pub family: &'a str,
    pub style: &'a TextStyle,
}

/// One ASS event in a named style; `pos` pins the centre of the text (alignment 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssEvent {
    pub style: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    pub pos: (i64, i64),
}

/// `#RRGGBB` as an ASS colour (`&H00BBGGRR`).
pub fn ass_colour(hex: &str) -> Result<String, MixError> {
    let h = hex.trim().trim_start_matches('#');
    if h.len() != 6 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return invalid(format!("colour must be #RRGGBB, got {hex:?}"));
    }
    let (r, g, b) = (&h[0..2], &h[2..4], &h[4..6]);
    Ok(format!("&H00{b}{g}{r}").to_uppercase())
}

fn ass_time(ms: i64) -> String {
    let cs = ms.max(0) / 10;
    format!(
        "{}:{:02}:{:02}.{:02}",
        cs / 360_000,
        cs / 6000 % 60,
        cs / 100 % 60,
        cs % 100
    )
}

/// Text as ASS event text: override braces and backslashes cannot be escaped in ASS, so they become their
/// full-width forms; line breaks become `\N`; other control characters are dropped.
pub fn ass_text(t: &str) -> String {
    let mut out = String::new();
    for c in t.trim().chars() {
        match c {
            '{' => out.push('｛'),
            '}' => out.push('｝'),
            '\\' => out.push('＼'),
            '\n' => out.push_str("\\N"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An ASS script of `width` x `height` (black outline, no shadow, 60 px side margins for wrapping).
pub fn ass_script(
    width: i64,
    height: i64,
    styles: &[AssStyle<'_>],
    events: &[AssEvent],
) -> Result<String, MixError> {
    let mut s = format!(
        "[Script Info]\nScriptType: v4.00+\nPlayResX: {width}\nPlayResY: {height}\nWrapStyle: 0\n\
ScaledBorderAndShadow: yes\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, \
SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, \
Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
    );
    for st in styles {
        let colour = ass_colour(&st.style.colour)?;
        let outline = (st.style.size as f64 / 16.0).clamp(2.0, 8.0).round();
        s.push_str(&format!(
            "Style: {},{},{},{colour},&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,{outline},0,5,\
60,60,0,1\n",
            st.name.replace(',', " "),
            st.family.replace(',', " "),
            st.style.size
        ));
    }
    s.push_str(
        "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n",
    );
    for e in events {
        s.push_str(&format!(
            "Dialogue: 0,{},{},{},,0,0,0,,{{\\an5\\pos({},{})}}{}\n",
            ass_time(e.start_ms),
            ass_time(e.end_ms),
            e.style,
            e.pos.0,
            e.pos.1,
            ass_text(&e.text)
        ));
    }
    Ok(s)
}

/// The band a text of this style occupies in the 1080x1920 frame, with room for `lines` wrapped lines:
/// `(top, height)`, both even, kept inside the frame. The text is centred in it.
pub fn text_band(style: &TextStyle, lines: u32) -> (i64, i64) {
    let size = style.size as f64;
    let h = ((size * 1.25 * lines as f64 + size * 0.6).ceil() as i64 + 1) & !1;
    let h = h.clamp(2, HEIGHT);
    let centre = match style.position {
        Position::Top => HEIGHT * 12 / 100,
        Position::Middle => HEIGHT / 2,
        Position::Bottom => HEIGHT * 80 / 100,
        Position::Percent(p) => HEIGHT * i64::from(p.min(100)) / 100,
    };
    let top = (centre - h / 2).clamp(0, HEIGHT - h) & !1;
    (top, h)
}

/// Lines of room in a subtitle band and a title band.
pub const SUBTITLE_LINES: u32 = 3;
pub const TITLE_LINES: u32 = 2;

fn check_style(style: &TextStyle) -> Result<(), MixError> {
    if !(8..=300).contains(&style.size) {
        return invalid(format!("font size must be 8–300 px, got {}", style.size));
    }
    ass_colour(&style.colour).map(|_| ())
}

fn check_title(title: &Title) -> Result<(), MixError> {
    let n = title.text.trim().chars().count();
    if n == 0 {
        return invalid("title is empty");
    }
    if n > TITLE_MAX_CHARS {
        return invalid(format!(
            "title is {n} characters; at most {TITLE_MAX_CHARS}"
        ));
    }
    check_style(&title.style)
}

fn subtitle_lines(subs: &Subtitles) -> Vec<&SubtitleLine> {
    let mut lines: Vec<&SubtitleLine> = subs
        .lines
        .iter()
        .filter(|l| l.end_ms > l.start_ms.max(0) && !l.text.trim().is_empty())
        .collect();
    lines.sort_by_key(|l| (l.start_ms, l.end_ms));
    lines
}

/// The full-frame (1080x1920) script that burns the subtitles and the title of a variant: each text is
/// centred in its [`text_band`]; the title shows from start to end. `*_family` is the font family libass
/// asks for (see [`Font`]).
pub fn burn_script(
    subtitles: Option<(&Subtitles, &str)>,
    title: Option<(&Title, &str)>,
) -> Result<String, MixError> {
    text_script(subtitles, title, None)
}

/// [`burn_script`] plus the shot captions (see [`shot_captions`]) in a style of their own, "Shot", centred
/// in a two-line band.
pub fn text_script(
    subtitles: Option<(&Subtitles, &str)>,
    title: Option<(&Title, &str)>,
    shots: Option<(&[SubtitleLine], &TextStyle, &str)>,
) -> Result<String, MixError> {
    let mut styles = Vec::new();
    let mut events = Vec::new();
    if let Some((subs, family)) = subtitles {
        check_style(&subs.style)?;
        styles.push(AssStyle {
            name: "Subtitle",
            family,
            style: &subs.style,
        });
        let (y, h) = text_band(&subs.style, SUBTITLE_LINES);
        for l in subtitle_lines(subs) {
            events.push(AssEvent {
                style: "Subtitle".into(),
                start_ms: l.start_ms.max(0),
                end_ms: l.end_ms,
                text: l.text.clone(),
                pos: (WIDTH / 2, y + h / 2),
            });
        }
    }
    if let Some((t, family)) = title {
        check_title(t)?;
        styles.push(AssStyle {
            name: "Title",
            family,
            style: &t.style,
        });
        let (y, h) = text_band(&t.style, TITLE_LINES);
        events.push(AssEvent {
            style: "Title".into(),
            start_ms: 0,
            end_ms: 36_000_000,
            text: t.text.clone(),
            pos: (WIDTH / 2, y + h / 2),
        });
    }
    if let Some((lines, style, family)) = shots {
        check_style(style)?;
        styles.push(AssStyle {
            name: "Shot",
            family,
            style,
        });
        let (y, h) = text_band(style, TITLE_LINES);
        for l in lines {
            events.push(AssEvent {
                style: "Shot".into(),
                start_ms: l.start_ms.max(0),
                end_ms: l.end_ms,
                text: l.text.clone(),
                pos: (WIDTH / 2, y + h / 2),
            });
        }
    }
    ass_script(WIDTH, HEIGHT, &styles, &events)
}

/// The folder of the prep directory holding the font files the project's texts use (libass scans it).
const FONTS: &str = "fonts";

/// The family name libass should ask for. A font file is copied into the prep folder's `fonts/` (the only
/// folder libass scans besides fontconfig's) and its family read with `fc-scan`.
async fn font_family(style: &TextStyle, dir: &Path) -> Result<String, MixError> {
    match &style.font {
        Font::Family(f) => Ok(f.clone()),
        Font::File(path) => {
            must_exist(path).await?;
            let out = ffmpeg::run(
                "fc-scan",
                &args(["--format", "%{family[0]}\n"])
                    .into_iter()
                    .chain([path.display().to_string()])
                    .collect::<Vec<_>>(),
                Duration::from_secs(30),
            )
            .await?;
            let family = String::from_utf8_lossy(&out)
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    MixError::Invalid(format!("{} is not a font file", path.display()))
                })?;
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("ttf")
                .to_ascii_lowercase();
            let fonts = dir.join(FONTS);
            tokio::fs::create_dir_all(&fonts).await?;
            let dst = fonts.join(format!(
                "{:016x}.{ext}",
                fnv(path.display().to_string().as_bytes())
            ));
            if tokio::fs::metadata(&dst).await.is_err() {
                // Two variants may copy the same font at once: a private name, then an atomic rename.
                let tmp = fonts.join(format!(".{}.{}.tmp", std::process::id(), unique()));
                tokio::fs::copy(path, &tmp).await?;
                tokio::fs::rename(&tmp, &dst).await?;
            }
            Ok(family)
        }
    }
}

/// FNV-1a: a stable key (std's hasher may change between Rust versions).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

// ---------------------------------------------------------------------------------------------------
// Audio bed
// ---------------------------------------------------------------------------------------------------

fn gain(volume: u8) -> String {
    format!("{:.3}", f64::from(volume.min(100)) / 100.0)
}

/// ffmpeg arguments for the bed: music looped (input option `-stream_loop -1`) and the voice padded with
/// silence, each loudness-normalized; with both, the music sits 6 dB under and is ducked (side-chain
/// compressed) while the voice speaks; a limiter keeps the sum from clipping. AAC 48 kHz stereo.
pub fn bed_args(
    music: Option<(&Path, u8)>,
    voice: Option<(&Path, u8)>,
    ms: i64,
    dst: &Path,
) -> Vec<String> {
    let norm = format!(
        "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,\
loudnorm=I={TARGET_LUFS}:TP=-1.5:LRA=11,aresample=48000"
    );
    let mut a = args(["-v", "error", "-y"]);
    let mut n = 0;
    let mut graph = String::new();
    if let Some((m, vol)) = music {
        a.extend(args(["-stream_loop", "-1", "-i"]));
        a.push(m.display().to_string());
        let under = if voice.is_some() { 0.5 } else { 1.0 };
        graph.push_str(&format!(
            "[{n}:a]{norm},volume={:.3}[m];",
            f64::from(vol.min(100)) / 100.0 * under
        ));
        n += 1;
    }
    if let Some((v, vol)) = voice {
        a.push("-i".into());
        a.push(v.display().to_string());
        graph.push_str(&format!("[{n}:a]{norm},volume={},apad[v];", gain(vol)));
    }
    graph.push_str(match (music.is_some(), voice.is_some()) {
        (true, true) => {
            "[v]asplit=2[v1][sc];[m][sc]sidechaincompress=threshold=0.02:ratio=6:attack=20:release=400[duck];\
[duck][v1]amix=inputs=2:duration=first:normalize=0,alimiter=limit=0.95:level=0[out]"
        }
        (true, false) => "[m]alimiter=limit=0.95:level=0[out]",
        _ => "[v]alimiter=limit=0.95:level=0[out]",
    });
    a.extend(args(["-filter_complex", &graph, "-map", "[out]", "-t"]));
    a.push(secs(ms * 1000));
    a.extend(args([
        "-c:a",
        "aac",
        "-b:a",
        "160k",
        "-ar",
        "48000",
        "-ac",
        "2",
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
    ]));
    a.push(dst.display().to_string());
    a
}

async fn render_bed(spec: &ProjectSpec, ms: i64, dst: &Path) -> Result<Option<Bed>, MixError> {
    let music = spec.music.as_deref().map(|m| (m, spec.music_volume));
    let voice = spec.voice.as_deref().map(|v| (v, spec.voice_volume));
    if music.is_none() && voice.is_none() {
        return Ok(None);
    }
    let tmp = dst.with_extension(format!("{}.tmp", unique()));
    let budget = Duration::from_secs(120 + (ms / 1000).max(0) as u64);
    ffmpeg::run("ffmpeg", &bed_args(music, voice, ms, &tmp), budget).await?;
    tokio::fs::rename(&tmp, dst).await?;
    Ok(Some(Bed {
        path: dst.to_path_buf(),
        duration_ms: ms,
    }))
}

// ---------------------------------------------------------------------------------------------------
// Prepare and render
// ---------------------------------------------------------------------------------------------------

async fn must_exist(p: &Path) -> Result<(), MixError> {
    match tokio::fs::metadata(p).await {
        Ok(m) if m.is_file() => Ok(()),
        _ => Err(MixError::MissingInput(p.to_path_buf())),
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Probes a mezzanine for the concat demuxer and checks it is one (1080x1920 H.264 at 30 fps).
pub async fn probe_clip(path: &Path) -> Result<ClipInfo, MixError> {
    must_exist(path).await?;
    let mut a = args([
        "-v",
        "error",
        "-read_intervals",
        "%+#1",
        "-show_entries",
        "stream=index,id,codec_type,codec_name,width,height,avg_frame_rate,time_base,duration:packet=stream_index,pts,dts",
        "-of",
        "json",
    ]);
    a.push(path.display().to_string());
    let out = ffmpeg::run("ffprobe", &a, Duration::from_secs(60)).await?;
    let v: serde_json::Value = serde_json::from_slice(&out)
        .map_err(|e| MixError::Invalid(format!("{}: {e}", path.display())))?;
    let streams = v["streams"].as_array().cloned().unwrap_or_default();
    let video = streams
        .iter()
        .find(|s| s["codec_type"] == "video")
        .ok_or_else(|| MixError::Invalid(format!("{} has no video", path.display())))?;
    let not_mezz = || {
        MixError::Invalid(format!(
            "{} is not a {WIDTH}x{HEIGHT} H.264 {FPS} fps mezzanine; ingest it first",
            path.display()
        ))
    };
    if video["codec_name"] != "h264"
        || video["width"].as_i64() != Some(WIDTH)
        || video["height"].as_i64() != Some(HEIGHT)
        || video["avg_frame_rate"] != "30/1"
    {
        return Err(not_mezz());
    }
    let id = |s: &serde_json::Value| {
        s["id"]
            .as_str()
            .and_then(|h| i64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
    };
    let tb = video["time_base"]
        .as_str()
        .and_then(|t| t.split_once('/'))
        .and_then(|(n, d)| Some((n.parse::<i64>().ok()?, d.parse::<i64>().ok()?)))
        .filter(|(n, d)| *n > 0 && *d > 0)
        .ok_or_else(not_mezz)?;
    let duration_ms = video["duration"]
        .as_str()
        .and_then(|d| d.parse::<f64>().ok())
        .map(|d| (d * 1000.0).round() as i64)
        .filter(|d| *d > 0)
        .ok_or_else(not_mezz)?;
    let vindex = video["index"].as_i64();
    let first = v["packets"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["stream_index"].as_i64() == vindex))
        .ok_or_else(not_mezz)?;
    let (pts, dts) = (
        first["pts"].as_i64().unwrap_or(0),
        first["dts"].as_i64().unwrap_or(0),
    );
    Ok(ClipInfo {
        duration_ms,
        dts_delay_us: (pts - dts).max(0) * 1_000_000 * tb.0 / tb.1,
        video_id: id(video).ok_or_else(not_mezz)?,
        audio_id: streams
            .iter()
            .find(|s| s["codec_type"] == "audio")
            .and_then(id),
    })
}

/// The project prep step (see the module documentation). `dir` is the project's prep folder (created);
/// everything it makes lives there and `prep.json` describes it.
pub async fn prepare(
    spec: &ProjectSpec,
    dir: &Path,
    progress: Progress<'_>,
) -> Result<Prepared, MixError> {
    progress(0);
    let dir = absolute(dir);
    for p in spec
        .clips
        .iter()
        .chain(spec.music.iter())
        .chain(spec.voice.iter())
    {
        must_exist(p).await?;
    }
    if let Some(Subtitles {
        style: TextStyle {
            font: Font::File(f),
            ..
        },
        ..
    }) = &spec.subtitles
    {
        must_exist(f).await?;
    }
    if spec.bed_ms <= 0 {
        return invalid("bed_ms must be positive");
    }
    tokio::fs::create_dir_all(&dir).await?;
    let mut clips = BTreeMap::new();
    let n = spec.clips.len().max(1);
    for (i, c) in spec.clips.iter().enumerate() {
        let c = absolute(c);
        if let std::collections::btree_map::Entry::Vacant(e) = clips.entry(c) {
            let info = probe_clip(e.key()).await?;
            e.insert(info);
        }
        progress((i * 30 / n) as u8);
    }
    let bed = render_bed(spec, spec.bed_ms, &dir.join("bed.m4a")).await?;
    progress(80);
    let subtitle_family = match &spec.subtitles {
        Some(s) => {
            if subtitle_lines(s).is_empty() {
                return invalid("subtitles have no line with text and a positive duration");
            }
            check_style(&s.style)?;
            Some(font_family(&s.style, &dir).await?)
        }
        None => None,
    };
    let prep = Prepared {
        dir: dir.clone(),
        spec: spec.clone(),
        clips,
        bed,
        subtitle_family,
    };
    let json = serde_json::to_vec_pretty(&prep).map_err(|e| MixError::Invalid(e.to_string()))?;
    tokio::fs::write(dir.join("prep.json.tmp"), json).await?;
    tokio::fs::rename(dir.join("prep.json.tmp"), dir.join("prep.json")).await?;
    progress(100);
    Ok(prep)
}

/// The planned segments of a variant (probing clips the prep did not see).
pub async fn plan_segments(prep: &Prepared, clips: &[ClipSpec]) -> Result<Vec<Segment>, MixError> {
    plan(prep, clips, false).await
}

/// The segments of a composed render: trims exact on the frame grid ([`exact_trim`]), not on the GOP grid.
pub async fn plan_exact_segments(
    prep: &Prepared,
    clips: &[ClipSpec],
) -> Result<Vec<Segment>, MixError> {
    plan(prep, clips, true).await
}

async fn plan(prep: &Prepared, clips: &[ClipSpec], exact: bool) -> Result<Vec<Segment>, MixError> {
    if clips.is_empty() {
        return invalid("a variant needs at least one clip");
    }
    let mut infos = prep.clips.clone();
    let mut abs = Vec::with_capacity(clips.len());
    for c in clips {
        let p = absolute(&c.path);
        must_exist(&p).await?;
        if !infos.contains_key(&p) {
            let info = probe_clip(&p).await?;
            infos.insert(p.clone(), info);
        }
        abs.push(ClipSpec {
            path: p,
            in_ms: c.in_ms,
            out_ms: c.out_ms,
        });
    }
    let mut segs = segments(&abs, &infos);
    if exact {
        for (seg, c) in segs.iter_mut().zip(&abs) {
            (seg.in_ms, seg.out_ms) = exact_trim(seg.info.duration_ms, c.in_ms, c.out_ms);
        }
    }
    let ids = (segs[0].info.video_id, segs[0].info.audio_id);
    if let Some(s) = segs
        .iter()
        .find(|s| (s.info.video_id, s.info.audio_id) != ids)
    {
        return invalid(format!(
            "{} has a different track layout from the other clips; ingest it again",
            s.path.display()
        ));
    }
    Ok(segs)
}

/// What a variant will be: its segments, its length, where each segment starts in the output, and for a
/// composed render its timeline.
struct Plan {
    segs: Vec<Segment>,
    planned: i64,
    starts_ms: Vec<i64>,
    composed: Option<Timeline>,
}

/// Renders one variant to `out_video` (MP4, faststart) and its cover to `out_cover` (JPEG). Both are
/// written under temporary names and renamed at the end, so a retried job never sees half a file.
///
/// With a transition anywhere ([`VariantSpec::has_transitions`]) the render is **composed**: one ffmpeg
/// reads every segment with an exact trim, joins them in a filter graph ([`composed_graph`]), draws the
/// text and encodes once with the burn settings; the length is the segments' sum minus the transitions'.
pub async fn render(
    prep: &Prepared,
    variant: &VariantSpec,
    out_video: &Path,
    out_cover: &Path,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    progress(0);
    check_advanced(variant)?;
    let plan = if variant.has_transitions() {
        let segs = plan_exact_segments(prep, &variant.clips).await?;
        let frames: Vec<i64> = segs
            .iter()
            .map(|s| ms_to_frames(s.out_ms) - ms_to_frames(s.in_ms))
            .collect();
        let wanted: Vec<Option<i64>> = variant
            .transitions
            .iter()
            .map(|t| t.as_ref().map(|t| t.ms))
            .collect();
        let tl = timeline(&frames, &wanted);
        let planned = planned_ms(&segs) - tl.overlaps_ms().iter().sum::<i64>();
        Plan {
            starts_ms: tl.starts_ms(),
            segs,
            planned,
            composed: Some(tl),
        }
    } else {
        let segs = plan_segments(prep, &variant.clips).await?;
        let starts_ms = segs
            .iter()
            .scan(0, |at, s| {
                let start = *at;
                *at += s.out_ms - s.in_ms;
                Some(start)
            })
            .collect();
        Plan {
            planned: planned_ms(&segs),
            segs,
            starts_ms,
            composed: None,
        }
    };
    let out_video = absolute(out_video);
    let parent = out_video
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    tokio::fs::create_dir_all(&parent).await?;
    let work = parent.join(format!(
        ".mix-{}-{}-{}",
        std::process::id(),
        unique(),
        out_video
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("out")
    ));
    tokio::fs::create_dir_all(&work).await?;
    let result = render_in(prep, variant, &plan, &out_video, out_cover, &work, progress).await;
    let _ = tokio::fs::remove_dir_all(&work).await;
    result
}

async fn render_in(
    prep: &Prepared,
    variant: &VariantSpec,
    plan: &Plan,
    out_video: &Path,
    out_cover: &Path,
    work: &Path,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    let (segs, planned) = (plan.segs.as_slice(), plan.planned);
    // Text to burn: one ASS script (the project's subtitles, this variant's title and its shot captions),
    // drawn by libass in the one re-encode. It lives in the prep folder, next to the fonts, where ffmpeg
    // runs.
    let subtitles = match (&prep.spec.subtitles, &prep.subtitle_family) {
        (Some(s), Some(f)) if variant.burn_subtitles => Some((s, f.as_str())),
        _ => None,
    };
    let title = match &variant.title {
        Some(t) => {
            check_title(t)?;
            Some((t, font_family(&t.style, &prep.dir).await?))
        }
        None => None,
    };
    let captions = shot_captions(&plan.starts_ms, planned, &variant.shot_texts);
    let shot_style = variant
        .shot_style
        .clone()
        .unwrap_or_else(default_shot_style);
    let shots = if captions.is_empty() {
        None
    } else {
        check_style(&shot_style)?;
        Some(font_family(&shot_style, &prep.dir).await?)
    };
    let burned = subtitles.is_some() || title.is_some() || shots.is_some();
    let script = if burned {
        let text = text_script(
            subtitles,
            title.as_ref().map(|(t, f)| (*t, f.as_str())),
            shots
                .as_deref()
                .map(|f| (captions.as_slice(), &shot_style, f)),
        )?;
        let name = format!("text-{}-{}.ass", std::process::id(), unique());
        tokio::fs::write(prep.dir.join(&name), text).await?;
        Some(name)
    } else {
        None
    };
    progress(5);
    let result = match &plan.composed {
        None => {
            render_av(
                prep,
                variant,
                segs,
                planned,
                out_video,
                out_cover,
                work,
                script.as_deref(),
                progress,
            )
            .await
        }
        Some(tl) => {
            render_composed(
                prep,
                variant,
                segs,
                tl,
                planned,
                out_video,
                out_cover,
                work,
                script.as_deref(),
                progress,
            )
            .await
        }
    };
    if let Some(name) = script {
        let _ = tokio::fs::remove_file(prep.dir.join(name)).await;
    }
    result
}

#[allow(clippy::too_many_arguments)]
async fn render_av(
    prep: &Prepared,
    variant: &VariantSpec,
    segs: &[Segment],
    planned: i64,
    out_video: &Path,
    out_cover: &Path,
    work: &Path,
    script: Option<&str>,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    tokio::fs::write(work.join("video.ffconcat"), concat_script(segs, true)).await?;
    let mut a = args([
        "-v", "error", "-y", "-nostdin", "-f", "concat", "-safe", "0", "-i",
    ]);
    a.push(work.join("video.ffconcat").display().to_string());

    // Audio: the bed by copy, or the clips' own sound (mixed under the bed) encoded, or silence.
    let bed = variant_bed(prep, planned, work).await?;
    let clip_volume = variant
        .clip_audio_volume
        .unwrap_or(if bed.is_some() { 0 } else { 100 });
    let has_clip_audio = segs[0].info.audio_id.is_some();
    // Encoded audio is cut in the filter graph: an output -t would also apply to the copied video.
    let trim = format!("atrim=end={}", secs(planned * 1000));
    let mut audio_filter: Option<String> = None;
    let mut audio_map = String::new();
    let mut next_input = 1;
    if let Some(bed) = &bed {
        a.extend(args(["-t", &secs(planned * 1000), "-i"]));
        a.push(bed.display().to_string());
        audio_map = format!("{next_input}:a");
        next_input += 1;
    }
    if clip_volume > 0 && has_clip_audio {
        tokio::fs::write(work.join("audio.ffconcat"), concat_script(segs, false)).await?;
        a.extend(args(["-f", "concat", "-safe", "0", "-i"]));
        a.push(work.join("audio.ffconcat").display().to_string());
        let clip = format!(
            "[{next_input}:a]aresample=48000:async=1000:first_pts=0,volume={}",
            gain(clip_volume)
        );
        audio_filter = Some(if bed.is_some() {
            format!(
                "{clip}[c];[{audio_map}]anull[b];[b][c]amix=inputs=2:duration=first:normalize=0,\
alimiter=limit=0.95:level=0,{trim}[aout]"
            )
        } else {
            format!("{clip},apad,{trim}[aout]")
        });
    } else if bed.is_none() {
        a.extend(args(["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo"]));
        audio_filter = Some(format!("[{next_input}:a]{trim}[aout]"));
    }
    let audio_copied = audio_filter.is_none();

    // Video: copy, or the text drawn by libass in one re-encode. ffmpeg runs in the prep folder, so the
    // filter names only our own relative paths (nothing to escape).
    let mut graph = String::new();
    let burned = script.is_some();
    if let Some(name) = script {
        let fonts = if tokio::fs::metadata(prep.dir.join(FONTS)).await.is_ok() {
            format!(":fontsdir={FONTS}")
        } else {
            String::new()
        };
        graph.push_str(&format!("[0:v]subtitles={name}{fonts}[vout]"));
    }
    if let Some(af) = &audio_filter {
        if !graph.is_empty() {
            graph.push(';');
        }
        graph.push_str(af);
    }
    if !graph.is_empty() {
        a.extend(args(["-filter_complex", &graph]));
    }
    a.extend(args(["-map", if burned { "[vout]" } else { "0:v" }]));
    a.extend(args([
        "-map",
        if audio_copied { &audio_map } else { "[aout]" },
    ]));
    if burned {
        a.extend(burn_args());
    } else {
        a.extend(args(["-c:v", "copy"]));
    }
    let tmp = out_video.with_extension(format!("{}.tmp.mp4", unique()));
    a.extend(output_args(audio_copied, &tmp));
    let secs_total = (planned / 1000).max(1) as u64;
    let budget = if burned {
        Duration::from_secs(120 + 10 * secs_total)
    } else {
        Duration::from_secs(60 + secs_total)
    };
    let cwd = burned.then_some(prep.dir.as_path());
    let res = ffmpeg::run_reporting(
        &a,
        cwd,
        budget,
        Report {
            sink: progress,
            total_ms: planned,
            lo: 5,
            hi: 90,
        },
    )
    .await;
    if let Err(e) = res {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e.into());
    }
    finish(&tmp, variant, planned, out_video, out_cover, progress).await?;
    Ok(Rendered {
        video: out_video.to_path_buf(),
        cover: out_cover.to_path_buf(),
        planned_ms: planned,
        burned,
        audio_copied,
    })
}

/// The bed of a variant `planned` ms long: the project's when it is long enough, else one made for it in
/// `work`; `None` when the project has neither music nor voice.
async fn variant_bed(
    prep: &Prepared,
    planned: i64,
    work: &Path,
) -> Result<Option<PathBuf>, MixError> {
    Ok(match &prep.bed {
        Some(b) if b.duration_ms >= planned => {
            must_exist(&b.path).await?;
            Some(b.path.clone())
        }
        Some(_) => render_bed(&prep.spec, planned, &work.join("bed.m4a"))
            .await?
            .map(|b| b.path),
        None => None,
    })
}

/// After the video is written to `tmp`: the cover (the frame at the chosen time), then both renamed into
/// place. `tmp` is removed on failure.
async fn finish(
    tmp: &Path,
    variant: &VariantSpec,
    planned: i64,
    out_video: &Path,
    out_cover: &Path,
    progress: Progress<'_>,
) -> Result<(), MixError> {
    progress(90);

    // Cover: the frame at the chosen time.
    let at = variant.cover_at_ms.clamp(0, (planned - 100).max(0));
    let cover_tmp = out_cover.with_extension(format!("{}.tmp.jpg", unique()));
    let mut c = args([
        "-v",
        "error",
        "-y",
        "-nostdin",
        "-ss",
        &secs(at * 1000),
        "-i",
    ]);
    c.push(tmp.display().to_string());
    c.extend(args(["-frames:v", "1", "-q:v", "3", "-f", "image2"]));
    c.push(cover_tmp.display().to_string());
    if let Err(e) = ffmpeg::run("ffmpeg", &c, Duration::from_secs(60)).await {
        let _ = tokio::fs::remove_file(tmp).await;
        return Err(e.into());
    }
    tokio::fs::rename(tmp, out_video).await?;
    tokio::fs::rename(&cover_tmp, out_cover).await?;
    progress(100);
    Ok(())
}

/// The composed render (any transition): one ffmpeg reads each segment ([`composed_input`]), joins them
/// in [`composed_graph`], draws the text (`script`, in the prep folder) and encodes with the burn settings.
/// Audio as in the other renders: the bed by copy (cut to the new length), or the clips' own sound
/// (joined over the same overlaps, so it stays in sync) encoded and mixed under the bed, or silence.
#[allow(clippy::too_many_arguments)]
async fn render_composed(
    prep: &Prepared,
    variant: &VariantSpec,
    segs: &[Segment],
    tl: &Timeline,
    planned: i64,
    out_video: &Path,
    out_cover: &Path,
    work: &Path,
    script: Option<&str>,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    let mut a = args(["-v", "error", "-y", "-nostdin"]);
    for seg in segs {
        a.extend(composed_input(seg));
    }
    let bed = variant_bed(prep, planned, work).await?;
    let clip_volume = variant
        .clip_audio_volume
        .unwrap_or(if bed.is_some() { 0 } else { 100 });
    let clip_audio = clip_volume > 0 && segs.iter().all(|s| s.info.audio_id.is_some());
    let trim = format!("atrim=end={}", secs(planned * 1000));
    let mut next_input = segs.len();
    let mut audio_map = String::new();
    let mut audio_filter = None;
    if let Some(bed) = &bed {
        a.extend(args(["-t", &secs(planned * 1000), "-i"]));
        a.push(bed.display().to_string());
        audio_map = format!("{next_input}:a");
        next_input += 1;
    }
    if clip_audio {
        let clip = format!("[clips]volume={}", gain(clip_volume));
        audio_filter = Some(if bed.is_some() {
            format!(
                "{clip}[c];[{audio_map}]anull[b];[b][c]amix=inputs=2:duration=first:normalize=0,\
alimiter=limit=0.95:level=0,{trim}[aout]"
            )
        } else {
            format!("{clip},apad,{trim}[aout]")
        });
    } else if bed.is_none() {
        a.extend(args(["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo"]));
        audio_filter = Some(format!("[{next_input}:a]{trim}[aout]"));
    }
    let audio_copied = audio_filter.is_none();

    let text = match script {
        Some(name) => {
            let fonts = if tokio::fs::metadata(prep.dir.join(FONTS)).await.is_ok() {
                format!(":fontsdir={FONTS}")
            } else {
                String::new()
            };
            Some(format!("subtitles={name}{fonts}"))
        }
        None => None,
    };
    let first_frames: Vec<i64> = segs.iter().map(|s| ms_to_frames(s.in_ms)).collect();
    let kinds: Vec<Option<&str>> = variant
        .transitions
        .iter()
        .map(|t| t.as_ref().map(|t| t.kind.as_str()))
        .collect();
    let mut graph = composed_graph(tl, &first_frames, &kinds, text.as_deref(), clip_audio);
    if let Some(af) = &audio_filter {
        graph.push(';');
        graph.push_str(af);
    }
    a.extend(args(["-filter_complex", &graph, "-map", "[vout]", "-map"]));
    a.push(if audio_copied {
        audio_map
    } else {
        "[aout]".into()
    });
    a.extend(burn_args());
    let tmp = out_video.with_extension(format!("{}.tmp.mp4", unique()));
    a.extend(output_args(audio_copied, &tmp));
    // Every segment is decoded (and the transitions blended): a little more than a burn.
    let secs_total = (planned / 1000).max(1) as u64;
    let budget = Duration::from_secs(120 + 15 * secs_total);
    let cwd = script.is_some().then_some(prep.dir.as_path());
    let res = ffmpeg::run_reporting(
        &a,
        cwd,
        budget,
        Report {
            sink: progress,
            total_ms: planned,
            lo: 5,
            hi: 90,
        },
    )
    .await;
    if let Err(e) = res {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e.into());
    }
    finish(&tmp, variant, planned, out_video, out_cover, progress).await?;
    Ok(Rendered {
        video: out_video.to_path_buf(),
        cover: out_cover.to_path_buf(),
        planned_ms: planned,
        burned: true,
        audio_copied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(ms: i64) -> ClipInfo {
        ClipInfo {
            duration_ms: ms,
            dts_delay_us: 66_667,
            video_id: 1,
            audio_id: Some(2),
        }
    }

    #[test]
    fn trims_snap_to_the_gop_grid() {
        assert_eq!(snap_trim(5400, None, None), (0, 5400));
        assert_eq!(snap_trim(5400, Some(1300), Some(3400)), (1000, 3000));
        assert_eq!(snap_trim(5400, Some(1999), Some(3600)), (1000, 4000));
        // Near the end (or past it) the clip's end is the cut.
        assert_eq!(snap_trim(5400, Some(0), Some(5300)), (0, 5400));
        assert_eq!(snap_trim(5400, Some(0), Some(9000)), (0, 5400));
        // Never empty: at least one GOP, or the rest of the clip.
        assert_eq!(snap_trim(5400, Some(2200), Some(2300)), (2000, 3000));
        assert_eq!(snap_trim(5400, Some(5300), None), (5000, 5400));
        assert_eq!(snap_trim(800, Some(500), Some(600)), (0, 800));
    }

    #[test]
    fn concat_script_cuts_video_at_the_keyframe_dts() {
        let segs = vec![
            Segment {
                path: PathBuf::from("/m/a'b.mp4"),
                in_ms: 1000,
                out_ms: 3000,
                info: info(5400),
            },
            Segment {
                path: PathBuf::from("/m/c.mp4"),
                in_ms: 0,
                out_ms: 4000,
                info: info(4000),
            },
        ];
        let v = concat_script(&segs, true);
        assert!(v.starts_with("ffconcat version 1.0\nstream\nexact_stream_id 1\n"));
        assert!(v.contains(
            "file '/m/a'\\''b.mp4'\ninpoint 1.000000\noutpoint 2.932833\nduration 2.000000\n"
        ));
        assert!(v.ends_with("file '/m/c.mp4'\nduration 4.000000\n"));
        let a = concat_script(&segs, false);
        assert!(a.contains("exact_stream_id 2\n") && a.contains("outpoint 3.000000\n"));
        assert_eq!(planned_ms(&segs), 6000);
    }

    #[test]
    fn text_is_made_safe_for_ass() {
        assert_eq!(ass_text(" a{b}\\c\nd\u{7}"), "a｛b｝＼c\\Nd");
        assert_eq!(ass_colour("#FF8000").unwrap(), "&H000080FF");
        assert!(ass_colour("red").is_err());
        assert_eq!(ass_time(3_723_456), "1:02:03.45");
        let sub = Subtitles {
            lines: vec![
                SubtitleLine {
                    start_ms: 2000,
                    end_ms: 3000,
                    text: "第二".into(),
                },
                SubtitleLine {
                    start_ms: 500,
                    end_ms: 2000,
                    text: "你好".into(),
                },
                SubtitleLine {
                    start_ms: 900,
                    end_ms: 900,
                    text: "empty".into(),
                },
                SubtitleLine {
                    start_ms: 900,
                    end_ms: 1000,
                    text: "  ".into(),
                },
            ],
            style: TextStyle::new(Position::Bottom, 64),
        };
        let title = Title {
            text: "标题{x}".into(),
            style: TextStyle {
                colour: "#FFE000".into(),
                ..TextStyle::new(Position::Top, 80)
            },
        };
        let s = burn_script(
            Some((&sub, "WenQuanYi Zen Hei")),
            Some((&title, "Noto Sans")),
        )
        .unwrap();
        assert!(s.contains("PlayResX: 1080\nPlayResY: 1920\n"));
        assert!(s.contains("Style: Subtitle,WenQuanYi Zen Hei,64,&H00FFFFFF,"));
        assert!(s.contains("Style: Title,Noto Sans,80,&H0000E0FF,"));
        let (y, h) = text_band(&sub.style, SUBTITLE_LINES);
        let first = format!(
            "Dialogue: 0,0:00:00.50,0:00:02.00,Subtitle,,0,0,0,,{{\\an5\\pos(540,{})}}你好\n",
            y + h / 2
        );
        assert!(s.contains(&first), "{s}");
        assert_eq!(s.matches("Dialogue:").count(), 3, "empty lines are dropped");
        assert!(s.find("你好").unwrap() < s.find("第二").unwrap());
        assert!(s.contains(",Title,,0,0,0,,{\\an5\\pos(540,") && s.contains("标题｛x｝"));
        // The title rule of SPEC §5.
        let long = Title {
            text: "一二三四五六七八九十一二三四五六七八九十一".into(),
            ..title.clone()
        };
        assert!(
            burn_script(None, Some((&long, "x")))
                .unwrap_err()
                .to_string()
                .contains("at most 20")
        );
        assert!(
            burn_script(
                None,
                Some((
                    &Title {
                        text: " ".into(),
                        ..title
                    },
                    "x"
                ))
            )
            .is_err()
        );
    }

    #[test]
    fn bands_stay_inside_the_frame() {
        for p in [
            Position::Top,
            Position::Middle,
            Position::Bottom,
            Position::Percent(0),
            Position::Percent(100),
        ] {
            for size in [8, 64, 300] {
                let (y, h) = text_band(&TextStyle::new(p, size), 3);
                assert!(
                    y >= 0 && y + h <= HEIGHT && h % 2 == 0 && y % 2 == 0,
                    "{p:?} {size}"
                );
                assert!(h >= (size as i64) * 3 || h == HEIGHT);
            }
        }
        let (y, h) = text_band(&TextStyle::new(Position::Bottom, 64), 3);
        assert!((y + h / 2 - 1536).abs() <= 2);
    }

    #[test]
    fn bed_args_duck_the_music_under_the_voice() {
        let a = bed_args(
            Some((Path::new("m.mp3"), 80)),
            Some((Path::new("v.wav"), 100)),
            30_000,
            Path::new("bed.m4a"),
        )
        .join(" ");
        assert!(a.contains("-stream_loop -1 -i m.mp3 -i v.wav"));
        assert!(
            a.contains("loudnorm=I=-16")
                && a.contains("sidechaincompress")
                && a.contains("volume=0.400")
        );
        assert!(a.contains("-t 30.000000"));
        let only_voice =
            bed_args(None, Some((Path::new("v.wav"), 50)), 1000, Path::new("b")).join(" ");
        assert!(
            only_voice.contains("[0:a]")
                && only_voice.contains("apad")
                && !only_voice.contains("stream_loop")
        );
    }

    #[test]
    fn exact_trims_sit_on_the_frame_grid_inside_the_clip() {
        assert_eq!(exact_trim(3000, None, None), (0, 3000));
        // 1234 ms is nearest to frame 37 (1233 ms); 2500 ms is frame 75.
        assert_eq!(exact_trim(3000, Some(1234), Some(2500)), (1233, 2500));
        // Clamped into the clip; an empty or inverted trim keeps a second or the rest.
        assert_eq!(exact_trim(3000, Some(-50), Some(9000)), (0, 3000));
        assert_eq!(exact_trim(3000, Some(1500), Some(1000)), (1500, 2500));
        assert_eq!(exact_trim(3000, Some(2900), Some(2000)), (2900, 3000));
        assert_eq!(exact_trim(3000, Some(5000), None), (2967, 3000));
        for ms in 0..200 {
            assert_eq!(ms_to_frames(frames_to_ms(ms)), ms);
        }
    }

    #[test]
    fn transitions_overlap_their_segments() {
        // 2 s, 3 s, 1.9 s: a 500 ms fade, then a hard cut.
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        assert_eq!(tl.overlaps, vec![15, 0]);
        assert_eq!(tl.starts, vec![0, 45, 135]);
        assert_eq!(tl.total, 60 + 90 + 57 - 15);
        assert_eq!(tl.overlaps_ms(), vec![500, 0]);
        assert_eq!(tl.starts_ms(), vec![0, 1500, 4500]);
        // Clamped to half of the shorter neighbour, so a middle segment's two transitions never meet.
        let tl = timeline(&[60, 30, 60], &[Some(2000), Some(2000)]);
        assert_eq!(tl.overlaps, vec![15, 15]);
        assert_eq!(tl.starts, vec![0, 45, 60]);
        assert_eq!(tl.total, 120);
        // Missing entries are hard cuts; a one-frame segment cannot overlap.
        let tl = timeline(&[30, 1, 30, 30], &[Some(1000), Some(1000)]);
        assert_eq!(tl.overlaps, vec![0, 0, 0]);
        assert_eq!(tl.total, 91);
        let one = timeline(&[42], &[]);
        assert_eq!(
            (one.overlaps.len(), one.starts.clone(), one.total),
            (0, vec![0], 42)
        );
    }

    #[test]
    fn shot_captions_follow_the_composed_timeline() {
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        let texts = vec![
            "一".to_string(),
            "  ".to_string(),
            " three ".to_string(),
            "x".into(),
        ];
        let c = shot_captions(&tl.starts_ms(), 6400, &texts);
        assert_eq!(
            c,
            vec![
                SubtitleLine {
                    start_ms: 0,
                    end_ms: 1500,
                    text: "一".into()
                },
                SubtitleLine {
                    start_ms: 4500,
                    end_ms: 6400,
                    text: "three".into()
                },
            ]
        );
        // Fewer texts than shots: the rest show none.
        assert_eq!(shot_captions(&[0, 1000], 2000, &["a".into()]).len(), 1);
        // In the script: a style of their own, centred in a two-line band.
        let style = default_shot_style();
        let s = text_script(None, None, Some((&c, &style, "WenQuanYi Zen Hei"))).unwrap();
        assert!(
            s.contains("Style: Shot,WenQuanYi Zen Hei,64,&H00FFFFFF,"),
            "{s}"
        );
        let (y, h) = text_band(&style, TITLE_LINES);
        assert!(s.contains(&format!(
            "Dialogue: 0,0:00:04.50,0:00:06.40,Shot,,0,0,0,,{{\\an5\\pos(540,{})}}three\n",
            y + h / 2
        )));
        assert_eq!(s.matches("Dialogue:").count(), 2);
        // burn_script is the same script without shots.
        assert_eq!(
            burn_script(None, None).unwrap(),
            text_script(None, None, None).unwrap()
        );
    }

    #[test]
    fn composed_graph_joins_with_xfade_and_concat() {
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        let g = composed_graph(
            &tl,
            &[15, 0, 30],
            &[Some("slideleft")],
            Some("subtitles=t.ass"),
            true,
        );
        let parts: Vec<&str> = g.split(';').collect();
        assert_eq!(parts[0], "[0:v]trim=end_frame=60,settb=1/30,setpts=N[v0]");
        assert_eq!(parts[3], "[v0]tpad=stop=2:stop_mode=clone[p1]");
        assert_eq!(
            parts[4],
            "[p1][v1]xfade=transition=slideleft:duration=0.500000:offset=1.500000,setpts=N[x1]"
        );
        assert_eq!(
            parts[5],
            "[x1][v2]concat=n=2:v=1:a=0,settb=1/30,setpts=N[x2]"
        );
        assert_eq!(parts[6], "[x2]subtitles=t.ass[vout]");
        // Audio: the same spans in samples (half a frame skipped after a mid-clip seek), the same overlaps.
        assert_eq!(
            parts[7],
            "[0:a]aresample=48000,atrim=start_sample=800:end_sample=96800,asetpts=PTS-STARTPTS,\
apad=whole_len=96000[a0]"
        );
        assert!(parts[8].contains("atrim=start_sample=0:end_sample=144000"));
        assert_eq!(parts[10], "[a0][a1]acrossfade=ns=24000:c1=tri:c2=tri[y1]");
        assert_eq!(parts[11], "[y1][a2]concat=n=2:v=0:a=1[clips]");
        assert_eq!(parts.len(), 12);
        // No text, no audio.
        let g = composed_graph(&tl, &[0, 0, 0], &[Some("fade")], None, false);
        assert!(g.ends_with("[x2]null[vout]") && !g.contains(":a]"));
        // Seeks: half a frame before the first frame kept; one frame more is read than kept.
        let seg = Segment {
            path: PathBuf::from("/m/a.mp4"),
            in_ms: 500,
            out_ms: 2500,
            info: info(3000),
        };
        assert_eq!(
            composed_input(&seg).join(" "),
            "-ss 0.483333 -t 2.033333 -i /m/a.mp4"
        );
        let seg = Segment { in_ms: 0, ..seg };
        assert!(
            composed_input(&seg)
                .join(" ")
                .starts_with("-ss 0.000000 -t 2.533333 ")
        );
    }

    #[test]
    fn advanced_rules() {
        let clips = vec![
            ClipSpec::whole("a"),
            ClipSpec::whole("b"),
            ClipSpec::whole("c"),
        ];
        let t = |kind: &str, ms| {
            Some(Transition {
                kind: kind.into(),
                ms,
            })
        };
        let mut v = VariantSpec::new(clips);
        assert!(check_advanced(&v).is_ok() && !v.has_transitions());
        v.transitions = vec![t("fade", 200), None];
        assert!(check_advanced(&v).is_ok() && v.has_transitions());
        v.transitions = vec![None, None];
        assert!(!v.has_transitions());
        let err = |v: &VariantSpec| match check_advanced(v) {
            Err(MixError::Invalid(m)) => m,
            other => panic!("{other:?}"),
        };
        v.transitions = vec![t("zoomin", 500)];
        assert!(err(&v).contains("unknown transition"));
        v.transitions = vec![t("fade", 199)];
        assert!(err(&v).contains("200–2000 ms"));
        v.transitions = vec![t("fade", 2001)];
        assert!(err(&v).contains("200–2000 ms"));
        v.transitions = vec![None, t("wipeup", 500), None];
        assert!(err(&v).contains("at most 2"));
        v.transitions = vec![];
        v.shot_texts = vec!["一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十".into()];
        assert!(check_advanced(&v).is_ok(), "30 characters is fine");
        v.shot_texts[0].push('!');
        assert!(err(&v).contains("at most 30"));
        v.shot_texts = vec![String::new(); 4];
        assert!(err(&v).contains("4 shot captions for 3 clips"));
        v.shot_texts = vec!["ok".into()];
        v.shot_style = Some(TextStyle {
            colour: "pink".into(),
            ..default_shot_style()
        });
        assert!(err(&v).contains("#RRGGBB"));
        // Every supported kind is an xfade transition name; serde defaults keep old specs readable.
        assert_eq!(TRANSITIONS.len(), 12);
        let old: VariantSpec = serde_json::from_str(
            r#"{"clips":[],"title":null,"burn_subtitles":false,"clip_audio_volume":null,"cover_at_ms":0}"#,
        )
        .unwrap();
        assert!(
            old.transitions.is_empty() && old.shot_texts.is_empty() && old.shot_style.is_none()
        );
    }
}
