//! Cutting a canonical mezzanine (1080x1920, 30 fps, one closed GOP per second — see `ingest`) into
//! slices. A cut whose ends fall on whole seconds starts on a keyframe, so a stream copy is exact and
//! costs almost nothing; any other cut (subtitle line edges) is re-encoded with ingest's own encoder
//! settings, so every slice is itself a valid mezzanine that the mixer can join by stream copy.

use crate::ffmpeg::{self, ToolError, args};
use crate::ingest;
use crate::probe::MediaInfo;
use std::path::Path;
use std::time::Duration;

/// A part of the source, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub start_ms: i64,
    pub end_ms: i64,
}

impl Part {
    pub fn len_ms(&self) -> i64 {
        (self.end_ms - self.start_ms).max(0)
    }
    /// Both ends on whole seconds (or the end at the source's end): keyframes, so copy is exact.
    pub fn copyable(&self, source_ms: i64) -> bool {
        self.start_ms % 1000 == 0 && (self.end_ms % 1000 == 0 || self.end_ms >= source_ms)
    }
}

fn secs(ms: i64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

/// Video frames in `part` (30 fps; a part ending mid-second at the source's end rounds up).
fn frames(part: Part) -> i64 {
    (part.len_ms() * ingest::FPS + 999) / 1000
}

/// The three stream copies of a keyframe-aligned `part`: the video by frame count (ffmpeg's `-t`
/// measures stream copy from the first decode timestamp, which B-frames put before zero, and keeps a
/// few frames of the next GOP), the audio by time, then both joined. With one command, the video's
/// frame limit would also end the audio early.
pub fn copy_args(src: &Path, dst: &Path, part: Part) -> [Vec<String>; 3] {
    let (v, a) = copy_parts(dst);
    let ss = secs(part.start_ms);
    let mut video = args(["-v", "error", "-y", "-ss", &ss, "-i"]);
    video.push(src.display().to_string());
    video.extend(args([
        "-map",
        "0:v:0",
        "-frames:v",
        &frames(part).to_string(),
        "-c",
        "copy",
        "-video_track_timescale",
        "15360",
    ]));
    video.push(v.display().to_string());
    let mut audio = args(["-v", "error", "-y", "-ss", &ss, "-i"]);
    audio.push(src.display().to_string());
    audio.extend(args([
        "-map",
        "0:a:0",
        "-t",
        &secs(part.len_ms()),
        "-c",
        "copy",
    ]));
    audio.push(a.display().to_string());
    let mut join = args(["-v", "error", "-y", "-i"]);
    join.push(v.display().to_string());
    join.push("-i".into());
    join.push(a.display().to_string());
    join.extend(args([
        "-map",
        "0:v:0",
        "-map",
        "1:a:0",
        "-c",
        "copy",
        "-video_track_timescale",
        "15360",
        "-movflags",
        "+faststart",
    ]));
    join.push(dst.display().to_string());
    [video, audio, join]
}

/// The intermediate video-only and audio-only files of a copy, beside `dst`.
fn copy_parts(dst: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    (dst.with_extension("v.mp4"), dst.with_extension("a.m4a"))
}

/// ffmpeg arguments that re-encode `part` with exactly ingest's settings (the output is a mezzanine).
pub fn encode_args(src: &Path, dst: &Path, part: Part) -> Vec<String> {
    // The source is already a mezzanine: 9:16 and always with an audio track.
    let info = MediaInfo {
        width: ingest::WIDTH,
        height: ingest::HEIGHT,
        duration_ms: part.len_ms(),
        fps: ingest::FPS as f64,
        has_video: true,
        has_audio: true,
        ..Default::default()
    };
    let mut a = ingest::normalize_args(src, dst, &info);
    let at = a.iter().position(|x| x == "-i").unwrap_or(a.len());
    a.splice(at..at, args(["-ss", &secs(part.start_ms)]));
    a
}

/// Cuts `part` of the mezzanine `src` (`source_ms` long) into `dst`; true when it was a stream copy.
/// Copy gets a minute; a re-encode gets ingest's budget (ten seconds per second of slice, plus a minute).
pub async fn cut(src: &Path, dst: &Path, part: Part, source_ms: i64) -> Result<bool, ToolError> {
    if part.copyable(source_ms) {
        let result = async {
            for a in copy_args(src, dst, part) {
                ffmpeg::run("ffmpeg", &a, Duration::from_secs(60)).await?;
            }
            Ok::<_, ToolError>(())
        }
        .await;
        let (v, a) = copy_parts(dst);
        let _ = std::fs::remove_file(v);
        let _ = std::fs::remove_file(a);
        result.map(|_| true)
    } else {
        let budget = Duration::from_secs(60 + (part.len_ms() / 100).max(0) as u64);
        ffmpeg::run("ffmpeg", &encode_args(src, dst, part), budget).await?;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_seconds_are_copied_and_other_cuts_reencoded_like_ingest() {
        let p = Part {
            start_ms: 4000,
            end_ms: 8000,
        };
        assert!(p.copyable(12_000));
        assert!(
            Part {
                start_ms: 8000,
                end_ms: 12_400
            }
            .copyable(12_400)
        );
        assert!(
            !Part {
                start_ms: 1500,
                end_ms: 4000
            }
            .copyable(12_000)
        );
        assert!(
            !Part {
                start_ms: 1000,
                end_ms: 4200
            }
            .copyable(12_000)
        );
        let [v, a, j] =
            copy_args(Path::new("in.mp4"), Path::new("out.mp4"), p).map(|a| a.join(" "));
        assert!(
            v.contains("-ss 4.000 -i in.mp4 -map 0:v:0 -frames:v 120 -c copy"),
            "{v}"
        );
        assert!(
            a.contains("-ss 4.000 -i in.mp4 -map 0:a:0 -t 4.000 -c copy"),
            "{a}"
        );
        assert!(
            j.contains("-i out.v.mp4 -i out.a.m4a") && j.ends_with("out.mp4"),
            "{j}"
        );
        let last = Part {
            start_ms: 8000,
            end_ms: 12_400,
        };
        assert!(
            copy_args(Path::new("in.mp4"), Path::new("out.mp4"), last)[0]
                .join(" ")
                .contains("-frames:v 132")
        );
        let e = encode_args(
            Path::new("in.mp4"),
            Path::new("out.mp4"),
            Part {
                start_ms: 1500,
                end_ms: 4250,
            },
        )
        .join(" ");
        assert!(e.starts_with("-v error -y -ss 1.500 -i in.mp4"), "{e}");
        for same in [
            "-c:v libx264 -preset veryfast -crf 20",
            "-g 30 -keyint_min 30 -sc_threshold 0 -flags +cgop",
            "-t 2.750",
            "-video_track_timescale 15360",
        ] {
            assert!(e.contains(same), "{same} missing from {e}");
        }
    }

    /// A real mezzanine cut both ways: the durations match and both outputs decode as 1080x1920.
    #[tokio::test]
    async fn slices_of_a_real_mezzanine_have_the_planned_length() {
        if !crate::ffmpeg::installed() {
            eprintln!("ffmpeg is not installed; skipped");
            return;
        }
        let dir = std::env::temp_dir().join(format!("cm-slice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let raw = dir.join("raw.mp4");
        let st = std::process::Command::new("ffmpeg")
            .args([
                "-v",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "testsrc=s=720x1280:r=25",
                "-f",
                "lavfi",
                "-i",
                "sine=f=440",
                "-t",
                "5",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-c:a",
                "aac",
            ])
            .arg(&raw)
            .status()
            .unwrap();
        assert!(st.success());
        let info = crate::probe::probe(&raw).await.unwrap();
        let mezz = dir.join("mezz.mp4");
        ingest::normalize(&raw, &mezz, &info).await.unwrap();
        for (part, copied) in [
            (
                Part {
                    start_ms: 1000,
                    end_ms: 3000,
                },
                true,
            ),
            (
                Part {
                    start_ms: 1500,
                    end_ms: 3700,
                },
                false,
            ),
        ] {
            let out = dir.join(format!("s{}.mp4", part.start_ms));
            assert_eq!(cut(&mezz, &out, part, 5000).await.unwrap(), copied);
            let got = crate::probe::probe(&out).await.unwrap();
            assert!(
                (got.duration_ms - part.len_ms()).abs() <= 100,
                "{part:?}: {} ms",
                got.duration_ms
            );
            assert_eq!((got.width, got.height, got.has_audio), (1080, 1920, true));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
