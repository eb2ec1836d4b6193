//! Ingest: every video (and voice/music file) is prepared once so mixing is a stream copy later
//! (DESIGN.md §6, STACK.md reference figures). The canonical mezzanine: 1080x1920, 30 fps, yuv420p,
//! H.264 high (x264 veryfast, CRF 20), one closed GOP per second, AAC 48 kHz stereo, a fixed track
//! timescale. Clips normalized with identical settings have identical parameter sets, which is what makes
//! the concat demuxer's stream copy valid.

use crate::ffmpeg::{self, Progress, Report, ToolError, args};
use crate::probe::MediaInfo;
use std::path::Path;
use std::time::Duration;

pub const WIDTH: i64 = 1080;
pub const HEIGHT: i64 = 1920;
pub const FPS: i64 = 30;
pub const AUDIO_RATE: i64 = 48_000;

/// How a picture of another shape becomes 9:16: close to 9:16 (within 10 %) it is scaled to cover and
/// centre-cropped (no bars for a slightly-off phone video); anything else (landscape, square) is fitted
/// whole and letterboxed, so nothing the merchant shot is cut away.
/// The mezzanine's quality (x264 CRF).
pub const MEZZANINE_CRF: u32 = 20;

/// The most video bitrate an encode of ours spends, kbit/s: x264's VBV on top of the CRF. The CRF
/// still decides the quality; the cap binds only on pictures the CRF would spend far more on, such as
/// sensor noise (a noisy source's variants came out at 51 Mbit/s, a lavfi noise test at 92). Douyin's
/// upload API (open.douyin.com, 视频管理 › 上传视频 `/video/upload/`) takes at most 128 MB in one request
/// and wants chunks beyond that: 16 Mbit/s plus 128 kbit/s of AAC keeps a one-minute video at 121 MB,
/// one request. Half of it (YouTube's upload recommendation for 1080p30) bound the one-pass burn's
/// ultrafast encode of ordinary moving pictures (16–22 Mbit/s on lavfi's test pictures), and its SSIM
/// against the pre-burned pieces fell to 0.988 in `mix_burn`; the platforms re-encode to far less for
/// playback anyway.
pub const VIDEO_MAX_KBPS: u32 = 16_000;
/// The VBV buffer: one GOP's worth (1 s), starting half full (over `t` seconds at most
/// `VIDEO_MAX_KBPS * t + VIDEO_BUFFER_KBITS * VBV_INIT` kbit).
pub const VIDEO_BUFFER_KBITS: u32 = VIDEO_MAX_KBPS;
pub const VBV_INIT: f64 = 0.5;

/// The x264 parameters of the cap: VBV does not touch the SPS/PPS (no HRD is written without
/// `nal-hrd`), so capped and uncapped encodes of the same settings still join by stream copy.
pub fn vbv_params() -> String {
    format!("vbv-maxrate={VIDEO_MAX_KBPS}:vbv-bufsize={VIDEO_BUFFER_KBITS}:vbv-init={VBV_INIT}")
}

/// The video encode of a mezzanine (and of anything that must join mezzanines by stream copy): x264
/// veryfast at `crf`, High 4.1, one closed GOP per second, no scene-cut key frames, at most
/// [`VIDEO_MAX_KBPS`]; `x264_params` adds to it (e.g. `repeat-headers=1`).
pub fn mezzanine_video_args(crf: u32, x264_params: &str) -> Vec<String> {
    mezzanine_video_args_at("veryfast", crf, x264_params)
}

/// [`mezzanine_video_args`] at another x264 preset (the GOP, profile and level stay the mezzanine's).
pub fn mezzanine_video_args_at(preset: &str, crf: u32, x264_params: &str) -> Vec<String> {
    args([
        "-c:v",
        "libx264",
        "-preset",
        preset,
        "-crf",
        &crf.to_string(),
        "-profile:v",
        "high",
        "-level",
        "4.1",
        "-g",
        "30",
        "-keyint_min",
        "30",
        "-sc_threshold",
        "0",
        "-flags",
        "+cgop",
        "-x264-params",
        &[x264_params, &vbv_params()]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(":"),
    ])
}

pub fn video_filter(info: &MediaInfo) -> String {
    let target = WIDTH as f64 / HEIGHT as f64;
    let aspect = if info.height > 0 {
        info.width as f64 / info.height as f64
    } else {
        target
    };
    let fit = if (aspect / target - 1.0).abs() <= 0.10 {
        format!("scale={WIDTH}:{HEIGHT}:force_original_aspect_ratio=increase,crop={WIDTH}:{HEIGHT}")
    } else {
        format!(
            "scale={WIDTH}:{HEIGHT}:force_original_aspect_ratio=decrease,pad={WIDTH}:{HEIGHT}:(ow-iw)/2:(oh-ih)/2:color=black"
        )
    };
    format!("{fit},setsar=1,fps={FPS},format=yuv420p")
}

/// ffmpeg arguments that turn `src` into the canonical mezzanine `dst`.
pub fn normalize_args(src: &Path, dst: &Path, info: &MediaInfo) -> Vec<String> {
    let secs = format!("{:.3}", info.duration_ms as f64 / 1000.0);
    let mut a = args(["-v", "error", "-y", "-i"]);
    a.push(src.display().to_string());
    if !info.has_audio {
        // A silent track, so every mezzanine has the same streams and concatenates.
        a.extend(args([
            "-f",
            "lavfi",
            "-i",
            &format!("anullsrc=r={AUDIO_RATE}:cl=stereo"),
        ]));
    }
    a.extend(args([
        "-map",
        "0:v:0",
        "-map",
        if info.has_audio { "0:a:0" } else { "1:a:0" },
    ]));
    a.extend(args(["-vf", &video_filter(info)]));
    a.extend(mezzanine_video_args(MEZZANINE_CRF, "repeat-headers=1"));
    // apad + -t instead of -shortest: -shortest leaves each clip's audio a little long and the drift
    // adds up across joins (STACK.md).
    a.extend(args(["-af", &format!("aresample={AUDIO_RATE},apad")]));
    a.extend(mezzanine_output_args(&secs));
    a.push(dst.display().to_string());
    a
}

/// The end of a mezzanine's arguments: AAC 48 kHz stereo, the length `secs`, the fixed track timescale
/// and faststart (everything a stream-copy join needs besides [`mezzanine_video_args`]).
pub fn mezzanine_output_args(secs: &str) -> Vec<String> {
    args([
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ar",
        &AUDIO_RATE.to_string(),
        "-ac",
        "2",
        "-t",
        secs,
        "-video_track_timescale",
        "15360",
        "-movflags",
        "+faststart",
    ])
}

/// Allows ten seconds of work per material-second (plus a minute).
fn normalize_budget(info: &MediaInfo) -> Duration {
    Duration::from_secs(60 + (info.duration_ms / 100).max(0) as u64)
}

/// Transcodes to the canonical mezzanine.
pub async fn normalize(src: &Path, dst: &Path, info: &MediaInfo) -> Result<(), ToolError> {
    ffmpeg::run(
        "ffmpeg",
        &normalize_args(src, dst, info),
        normalize_budget(info),
    )
    .await
    .map(|_| ())
}

/// `normalize`, telling `progress` (0–100) how far the encoder got, from ffmpeg's own `-progress`
/// report, so a long transcode shows a moving bar instead of one step.
pub async fn normalize_reporting(
    src: &Path,
    dst: &Path,
    info: &MediaInfo,
    progress: Progress<'_>,
) -> Result<(), ToolError> {
    let total = info.duration_ms.max(1);
    ffmpeg::run_reporting(
        &normalize_args(src, dst, info),
        None,
        normalize_budget(info),
        Report {
            sink: progress,
            total_ms: total,
            lo: 0,
            hi: 100,
        },
    )
    .await
}

/// Audio-only material (voice-over, music) as AAC 48 kHz stereo in MP4, ready to be mixed.
pub async fn normalize_audio(src: &Path, dst: &Path, info: &MediaInfo) -> Result<(), ToolError> {
    let mut a = args(["-v", "error", "-y", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-vn",
        "-af",
        &format!("aresample={AUDIO_RATE}"),
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ar",
        &AUDIO_RATE.to_string(),
        "-ac",
        "2",
        "-movflags",
        "+faststart",
    ]));
    a.push(dst.display().to_string());
    let budget = Duration::from_secs(60 + (info.duration_ms / 1000).max(0) as u64);
    ffmpeg::run("ffmpeg", &a, budget).await.map(|_| ())
}

/// The poster frame (JPEG, 540 px wide, from one second in, or the first frame of a shorter clip) and
/// a strip of ten thumbnails across the clip (JPEG, 10 tiles of 108 px wide, for trimming by eye), in
/// one ffmpeg run: the video is decoded once. Meant for a mezzanine, which decodes cheaply whatever the
/// original was (a 4K HEVC phone clip decodes several times slower than its 1080p mezzanine).
pub async fn pictures(
    src: &Path,
    poster: &Path,
    strip: &Path,
    info: &MediaInfo,
) -> Result<(), ToolError> {
    let at = if info.duration_ms > 1500 { 1 } else { 0 };
    let every = (info.duration_ms as f64 / 1000.0 / 10.0).max(0.1);
    let mut a = args(["-v", "error", "-y", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-filter_complex",
        &format!(
            "[0:v:0]split=2[p][s];[p]trim=start={at},setpts=PTS-STARTPTS,trim=end_frame=1,scale=540:-2[poster];\
             [s]fps=1/{every:.3},scale=108:-2,tile=10x1[strip]"
        ),
        "-map",
        "[poster]",
        "-frames:v",
        "1",
        "-q:v",
        "4",
    ]));
    a.push(poster.display().to_string());
    a.extend(args(["-map", "[strip]", "-frames:v", "1", "-q:v", "5"]));
    a.push(strip.display().to_string());
    ffmpeg::run("ffmpeg", &a, Duration::from_secs(120))
        .await
        .map(|_| ())
}

/// Integrated loudness in LUFS (EBU R128, ffmpeg's loudnorm measurement), when there is audio.
pub async fn loudness(src: &Path) -> Result<Option<f64>, ToolError> {
    let mut a = args(["-hide_banner", "-nostats", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-vn",
        "-af",
        "loudnorm=print_format=json",
        "-f",
        "null",
        "-",
    ]));
    // loudnorm prints its JSON on stderr, so run it by hand.
    let out = tokio::time::timeout(
        Duration::from_secs(120),
        ffmpeg::command("ffmpeg").args(&a).output(),
    )
    .await
    .map_err(|_| ToolError::Timeout {
        tool: "ffmpeg".into(),
        secs: 120,
    })??;
    let text = String::from_utf8_lossy(&out.stderr);
    let json = text
        .rfind('{')
        .and_then(|i| text[i..].find('}').map(|j| &text[i..=i + j]));
    Ok(json
        .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
        .and_then(|v| v["input_i"].as_str().and_then(|s| s.parse::<f64>().ok()))
        .filter(|v| v.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(w: i64, h: i64) -> MediaInfo {
        MediaInfo {
            width: w,
            height: h,
            duration_ms: 2000,
            has_video: true,
            has_audio: true,
            ..Default::default()
        }
    }

    #[test]
    fn landscape_is_letterboxed_and_near_vertical_is_cropped() {
        assert!(video_filter(&info(1920, 1080)).contains("pad=1080:1920"));
        assert!(video_filter(&info(1080, 1080)).contains("pad="));
        assert!(video_filter(&info(720, 1280)).contains("crop=1080:1920"));
        assert!(video_filter(&info(1080, 2160)).contains("pad=")); // 1:2 is more than 10 % off 9:16
        assert!(video_filter(&info(1080, 1920)).ends_with("fps=30,format=yuv420p"));
    }

    #[test]
    fn silent_input_gets_a_silent_track() {
        let mut i = info(1080, 1920);
        i.has_audio = false;
        let a = normalize_args(Path::new("in.mp4"), Path::new("out.mp4"), &i).join(" ");
        assert!(a.contains("anullsrc=r=48000:cl=stereo") && a.contains("-map 1:a:0"));
        assert!(a.contains("-t 2.000") && !a.contains("-shortest"));
    }
}
