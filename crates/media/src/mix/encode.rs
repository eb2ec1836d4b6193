//! The encode settings of a variant shared by the stream-copy and the composed render: the video
//! encode of burned text and the audio and container of the output.

use super::{BURN_CRF, BURN_PRESET, BURN_X264_PARAMS};
use crate::ffmpeg::args;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The one video encode of a burned or composed variant (see [`BURN_PRESET`]).
pub(super) fn burn_args() -> Vec<String> {
    args([
        "-c:v",
        "libx264",
        "-preset",
        BURN_PRESET,
        "-x264-params",
        &format!("{BURN_X264_PARAMS}:{}", crate::ingest::vbv_params()),
        "-crf",
        &BURN_CRF.to_string(),
        "-pix_fmt",
        "yuv420p",
    ])
}

/// The audio codec (the bed copied, or the mix encoded to AAC 48 kHz stereo) and a faststart MP4 at `tmp`;
/// `aigc` is the implicit label of generated content (the `AIGC` field, `crate::aigc::mp4_args`),
/// written by this final join, which every path of a variant ends with.
pub(super) fn output_args(audio_copied: bool, aigc: Option<&str>, tmp: &Path) -> Vec<String> {
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
    a.extend(crate::aigc::mp4_args(aigc));
    a.extend(args(["-f", "mp4"]));
    a.push(tmp.display().to_string());
    a
}

/// The one ffmpeg that writes a variant's video to `tmp`, as the stream-copy or the composed render built
/// it.
pub(super) struct Encode {
    pub args: Vec<String>,
    pub tmp: PathBuf,
    /// Runs in the prep folder: the text filter names the script and fonts there by relative paths.
    pub in_prep: bool,
    pub budget: Duration,
    /// The video is encoded (not a stream copy).
    pub burned: bool,
    /// The audio is the bed by stream copy.
    pub audio_copied: bool,
    /// Where the encode's progress starts (5, or later when pieces were burned first).
    pub progress_from: u8,
}
