//! What the project prep step leaves in the prep folder (`prep.json`): the clips as probed, the
//! audio bed and the subtitle font, reused by every variant.

use super::{MixError, ProjectSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
