//! The render engine of a mix variant (DESIGN.md §6): canonical mezzanines (see `ingest`) joined
//! by **stream copy**, an audio bed shared by every variant of a project, and text burned in only when asked,
//! in ONE fast re-encode of the assembled video.
//!
//! Two steps:
//! * [`prepare`] runs once per project (and again when its music, voice-over or subtitles change): it
//!   probes every mezzanine the shot groups hold, starts the **audio bed** (music looped to length,
//!   loudness-normalized, ducked under the loudness-normalized voice-over, mixed, AAC; made in the
//!   background, beside the first render's burns, and awaited where a variant needs it) and resolves the
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
//! Pre-burned pieces: when the project's slot timings are fixed
//! ([`ProjectSpec::reuse_burns`], decided by the caller from its shot groups), clip c of slot k looks the
//! same in every variant that uses it, text included. Each such piece is then burned once with the text
//! of its window ([`TextLayer::window`]), cached in the prep folder under a hash of everything that makes
//! its picture, and a variant with text is a stream-copy join of pieces like a copy-only one. A title
//! limited in time ([`Title::until_ms`]) splits its slot on the second grid, so a title that differs per
//! variant re-encodes only the seconds where it shows. Pieces use the mezzanine's veryfast settings
//! (`burn::piece_args`): made once, they can afford the slower preset and a third of the bitrate; a
//! project waited for as one job (one-touch video) can ask for superfast ones ([`PieceSpeed::Fast`]). A
//! composed variant whose sound is the bed alone is pieces too: shot middles and transitions.
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
//! becomes the reason of [`MixError::Tool`]. Every ffmpeg runs through [`crate::ffmpeg`]: with a timeout,
//! killed when dropped or when the server dies.
//!
//! The files, one step each, each using only those listed before it (no circles):
//! * `spec`: what a caller asks for (project, variant, text styles and colours) and the rules of
//!   advanced mode;
//! * `text`: the ASS script of subtitles, title and shot captions, its geometry and fonts;
//! * `prepared`: what the prep step leaves in `prep.json` (clips as probed, the bed, the subtitle font);
//! * `segment`: GOP-grid trims, a variant's segments and the concat demuxer's script;
//! * `encode`: the encode settings both renders share; `inflight`: work under way in this process;
//! * `audio`: the audio bed (music, voice-over, ducking) of a project or of one long variant;
//! * `composed`: frame-exact trims, the transitions' timeline and filter graph, the composed render;
//! * `concat`: the stream-copy render;
//! * `prepare`: probing the mezzanines, the prep folder, planning a variant's segments;
//! * `burn`: pre-burned pieces: splitting a variant into them, their cache keys, burning once, the budget;
//! * `render`: one variant from plan to cover.

mod audio;
mod burn;
mod composed;
mod concat;
mod encode;
mod inflight;
mod prepare;
mod prepared;
mod render;
mod segment;
mod spec;
mod text;

pub use audio::bed_args;
pub use burn::{PIECE_CRF, Piece, Turn, burn_dir, piece_key, pieces, trim_cache};
pub use composed::{Timeline, composed_graph, composed_input, exact_trim, frames_to_ms, timeline};
pub use prepare::{plan_exact_segments, plan_segments, prepare, probe_clip};
pub use prepared::{Bed, ClipInfo, Prepared};
pub use render::{Rendered, render, render_in_turn};
pub use segment::{Segment, concat_script, planned_ms, snap_trim};
pub use spec::{
    BURN_BUDGET_MB, ClipSpec, Font, Label, PieceSpeed, Position, ProjectSpec, SubtitleLine,
    Subtitles, TextStyle, Title, Transition, VariantSpec, ass_colour, check_advanced,
    default_shot_style,
};
pub use text::{
    AssEvent, AssStyle, LayerStyle, SUBTITLE_LINES, TITLE_LINES, TextLayer, ass_script, ass_text,
    burn_script, shot_captions, text_band, text_layer, text_script,
};

use crate::ffmpeg::ToolError;
use std::path::{Path, PathBuf};

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

/// A progress sink, 0–100 (the ffmpeg runner reports into it).
pub use crate::ffmpeg::Progress;

/// A progress sink that ignores everything.
pub fn no_progress(_: u8) {}

/// Microseconds as the seconds ffmpeg options and scripts take (six decimals).
fn secs(us: i64) -> String {
    format!(
        "{}.{:06}",
        us.div_euclid(1_000_000),
        us.rem_euclid(1_000_000)
    )
}

/// A number not used before in this process: temporary file names.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

async fn must_exist(p: &Path) -> Result<(), MixError> {
    match tokio::fs::metadata(p).await {
        Ok(m) if m.is_file() => Ok(()),
        _ => Err(MixError::MissingInput(p.to_path_buf())),
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A mezzanine as the unit tests see it: 66.667 ms of B-frame delay, video track 1, audio track 2.
#[cfg(test)]
fn test_clip_info(ms: i64) -> ClipInfo {
    ClipInfo {
        duration_ms: ms,
        dts_delay_us: 66_667,
        video_id: 1,
        audio_id: Some(2),
    }
}
