//! ffprobe's JSON, read into what the product needs: duration, display size, fps, codecs, rotation,
//! whether there is audio. Parsing is separate from running, so it is tested on saved fixtures.

use crate::ffmpeg::{self, ToolError};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MediaInfo {
    pub duration_ms: i64,
    /// Display size (after rotation).
    pub width: i64,
    pub height: i64,
    pub fps: f64,
    pub video_codec: Option<String>,
    pub audio_codec: Option<String>,
    pub audio_rate: Option<i64>,
    pub audio_channels: Option<i64>,
    pub rotation: i64,
    pub has_video: bool,
    pub has_audio: bool,
    pub format: String,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    streams: Vec<Stream>,
    format: Option<Format>,
}

#[derive(Deserialize)]
struct Format {
    #[serde(default)]
    format_name: String,
    duration: Option<String>,
}

#[derive(Deserialize)]
struct Stream {
    codec_type: Option<String>,
    codec_name: Option<String>,
    width: Option<i64>,
    height: Option<i64>,
    avg_frame_rate: Option<String>,
    r_frame_rate: Option<String>,
    sample_rate: Option<String>,
    channels: Option<i64>,
    duration: Option<String>,
    #[serde(default)]
    tags: std::collections::HashMap<String, String>,
    #[serde(default)]
    side_data_list: Vec<serde_json::Value>,
    #[serde(default)]
    disposition: std::collections::HashMap<String, i64>,
}

fn rate(s: &Option<String>) -> Option<f64> {
    let s = s.as_deref()?;
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let (n, d): (f64, f64) = (n.parse().ok()?, d.parse().ok()?);
    (d > 0.0 && n > 0.0).then_some(n / d)
}

#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("not a media file ffprobe can read: {0}")]
    Unreadable(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
}

pub fn parse(json: &[u8]) -> Result<MediaInfo, ProbeError> {
    let raw: Raw =
        serde_json::from_slice(json).map_err(|e| ProbeError::Unreadable(e.to_string()))?;
    let format = raw
        .format
        .ok_or_else(|| ProbeError::Unreadable("no container".into()))?;
    // Cover art in audio files is a "video" stream with the attached_pic disposition: not video.
    let video = raw.streams.iter().find(|s| {
        s.codec_type.as_deref() == Some("video")
            && s.disposition.get("attached_pic").copied().unwrap_or(0) == 0
    });
    let audio = raw
        .streams
        .iter()
        .find(|s| s.codec_type.as_deref() == Some("audio"));
    let duration = format
        .duration
        .as_deref()
        .and_then(|d| d.parse::<f64>().ok())
        .or_else(|| {
            video
                .or(audio)
                .and_then(|s| s.duration.as_deref())
                .and_then(|d| d.parse().ok())
        })
        .unwrap_or(0.0);
    let mut info = MediaInfo {
        duration_ms: (duration * 1000.0).round() as i64,
        format: format.format_name,
        has_video: video.is_some(),
        has_audio: audio.is_some(),
        ..Default::default()
    };
    if let Some(v) = video {
        let rotation = v
            .side_data_list
            .iter()
            .find_map(|sd| sd.get("rotation").and_then(|r| r.as_i64()))
            .or_else(|| v.tags.get("rotate").and_then(|r| r.parse().ok()))
            .unwrap_or(0);
        let rotation = rotation.rem_euclid(360);
        let (w, h) = (v.width.unwrap_or(0), v.height.unwrap_or(0));
        let (w, h) = if rotation == 90 || rotation == 270 {
            (h, w)
        } else {
            (w, h)
        };
        info.width = w;
        info.height = h;
        info.rotation = rotation;
        info.fps = rate(&v.avg_frame_rate)
            .or_else(|| rate(&v.r_frame_rate))
            .unwrap_or(0.0);
        info.fps = (info.fps * 1000.0).round() / 1000.0;
        info.video_codec = v.codec_name.clone();
    }
    if let Some(a) = audio {
        info.audio_codec = a.codec_name.clone();
        info.audio_rate = a.sample_rate.as_deref().and_then(|r| r.parse().ok());
        info.audio_channels = a.channels;
    }
    if !info.has_video && !info.has_audio {
        return Err(ProbeError::Unreadable("no audio or video stream".into()));
    }
    Ok(info)
}

/// Runs ffprobe on a file.
pub async fn probe(path: &Path) -> Result<MediaInfo, ProbeError> {
    let out = ffmpeg::run(
        "ffprobe",
        &ffmpeg::args([
            "-v",
            "error",
            "-print_format",
            "json",
            "-show_format",
            "-show_streams",
        ])
        .into_iter()
        .chain([path.display().to_string()])
        .collect::<Vec<_>>(),
        Duration::from_secs(60),
    )
    .await
    .map_err(|e| match e {
        ToolError::Failed { reason, .. } => ProbeError::Unreadable(reason),
        other => ProbeError::Tool(other),
    })?;
    parse(&out)
}
