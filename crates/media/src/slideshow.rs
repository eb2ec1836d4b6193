//! Image shots (one-touch image projects): one still image becomes a clip with a slow
//! pan-and-zoom (the Ken Burns effect), encoded exactly like an ingest mezzanine (1080x1920, 30 fps,
//! one closed GOP per second, a silent AAC track), so the mix engine joins image shots by stream copy
//! and lays the voice-over, music and subtitles over them as it does over video clips.
//!
//! The picture is first made 1.5 times the frame (cover-cropped when the image is close to 9:16, else
//! fitted whole over a blurred copy of itself, so a landscape photo is not cut to a sliver), then
//! ffmpeg's `zoompan` moves a 1080x1920 window over it: in, out, or along one of four directions.
//! Working on the enlarged picture keeps zoompan's whole-pixel steps below one output pixel.

use crate::ffmpeg::{self, ToolError, args};
use crate::ingest::{
    AUDIO_RATE, FPS, HEIGHT, MEZZANINE_CRF, WIDTH, mezzanine_output_args, mezzanine_video_args,
};
use crate::probe::MediaInfo;
use std::path::Path;
use std::time::Duration;

/// How the window moves over the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    PanUp,
    PanDown,
}

impl Motion {
    pub const ALL: [Motion; 6] = [
        Motion::ZoomIn,
        Motion::PanRight,
        Motion::ZoomOut,
        Motion::PanDown,
        Motion::PanLeft,
        Motion::PanUp,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Motion::ZoomIn => "zoom_in",
            Motion::ZoomOut => "zoom_out",
            Motion::PanLeft => "pan_left",
            Motion::PanRight => "pan_right",
            Motion::PanUp => "pan_up",
            Motion::PanDown => "pan_down",
        }
    }

    /// The motion of shot `slot` in variant `variant`: neighbouring shots of a video move differently,
    /// and so does the same shot in two consecutive variants.
    pub fn of(variant: i64, slot: usize) -> Motion {
        Motion::ALL[(variant.rem_euclid(6) as usize + slot) % Motion::ALL.len()]
    }

    /// zoompan's zoom, x and y over output frames 0..=`last`.
    fn expressions(self, last: i64) -> (String, String, String) {
        let t = format!("on/{}", last.max(1));
        let centre_x = "(iw-iw/zoom)/2".to_string();
        let centre_y = "(ih-ih/zoom)/2".to_string();
        // Pans look through a window 1/1.2 of the picture and travel its whole slack.
        let pan = "1.2".to_string();
        match self {
            Motion::ZoomIn => (format!("1+0.25*{t}"), centre_x, centre_y),
            Motion::ZoomOut => (format!("1.25-0.25*{t}"), centre_x, centre_y),
            Motion::PanLeft => (pan, format!("(iw-iw/zoom)*(1-{t})"), centre_y),
            Motion::PanRight => (pan, format!("(iw-iw/zoom)*{t}"), centre_y),
            Motion::PanUp => (pan, centre_x, format!("(ih-ih/zoom)*(1-{t})")),
            Motion::PanDown => (pan, centre_x, format!("(ih-ih/zoom)*{t}")),
        }
    }
}

/// The enlarged picture zoompan works on.
const WORK_W: i64 = WIDTH * 3 / 2;
const WORK_H: i64 = HEIGHT * 3 / 2;

/// The filter graph from the image (input 0) to `[v]`: `frames` frames of `motion`.
pub fn filter(width: i64, height: i64, frames: i64, motion: Motion) -> String {
    let target = WIDTH as f64 / HEIGHT as f64;
    let aspect = if height > 0 {
        width as f64 / height as f64
    } else {
        target
    };
    let cover = format!(
        "scale={WORK_W}:{WORK_H}:force_original_aspect_ratio=increase,crop={WORK_W}:{WORK_H},setsar=1"
    );
    let base = if (aspect / target - 1.0).abs() <= 0.10 {
        format!("[0:v]{cover}[base]")
    } else {
        format!(
            "[0:v]split[a][b];[a]{cover},boxblur=40:4[bg];\
             [b]scale={WORK_W}:{WORK_H}:force_original_aspect_ratio=decrease,setsar=1[fg];\
             [bg][fg]overlay=(W-w)/2:(H-h)/2[base]"
        )
    };
    let (z, x, y) = motion.expressions(frames - 1);
    format!(
        "{base};[base]format=yuv420p,zoompan=z='{z}':x='{x}':y='{y}':d={frames}:s={WIDTH}x{HEIGHT}:fps={FPS},\
         setsar=1,format=yuv420p[v]"
    )
}

/// ffmpeg arguments that turn image `src` (`width` x `height`) into a `ms`-long mezzanine `dst`.
pub fn ken_burns_args(
    src: &Path,
    dst: &Path,
    width: i64,
    height: i64,
    ms: i64,
    motion: Motion,
) -> Vec<String> {
    let frames = (ms * FPS / 1000).max(1);
    let secs = format!("{:.3}", ms as f64 / 1000.0);
    let mut a = args(["-v", "error", "-y", "-nostdin", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-f",
        "lavfi",
        "-i",
        &format!("anullsrc=r={AUDIO_RATE}:cl=stereo"),
        "-filter_complex",
        &filter(width, height, frames, motion),
        "-map",
        "[v]",
        "-map",
        "1:a:0",
        "-frames:v",
        &frames.to_string(),
    ]));
    a.extend(mezzanine_video_args(MEZZANINE_CRF, "repeat-headers=1"));
    a.extend(mezzanine_output_args(&secs));
    a.extend(args(["-f", "mp4"]));
    a.push(dst.display().to_string());
    a
}

/// Makes the clip of one image shot at `dst` (written under a temporary name, then renamed, so a file
/// at `dst` is always whole). The image's size is read with ffprobe.
pub async fn ken_burns(src: &Path, dst: &Path, ms: i64, motion: Motion) -> Result<(), ToolError> {
    let info: MediaInfo = crate::probe::probe(src).await.map_err(|e| match e {
        crate::probe::ProbeError::Tool(t) => t,
        other => ToolError::Failed {
            tool: "ffprobe".into(),
            reason: other.to_string(),
        },
    })?;
    // Two renders may make the same shot at once: each writes its own file, the last rename wins.
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dst.with_extension(format!("{}-{n}.part.mp4", std::process::id()));
    let a = ken_burns_args(src, &tmp, info.width, info.height, ms, motion);
    // Zoompan scales every frame: allow ten seconds of work per second of clip (plus a minute).
    let budget = Duration::from_secs(60 + (ms / 100).max(0) as u64);
    if let Err(e) = ffmpeg::run("ffmpeg", &a, budget).await {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e);
    }
    tokio::fs::rename(&tmp, dst).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motions_differ_between_neighbours_and_variants() {
        for v in 0..12 {
            for slot in 0..8 {
                assert_ne!(Motion::of(v, slot), Motion::of(v, slot + 1));
                assert_ne!(Motion::of(v, slot), Motion::of(v + 1, slot));
            }
        }
        let all: std::collections::HashSet<&str> =
            (0..6).map(|s| Motion::of(0, s).as_str()).collect();
        assert_eq!(all.len(), 6);
    }

    #[test]
    fn a_landscape_image_is_fitted_over_its_blurred_self() {
        assert!(filter(4000, 3000, 90, Motion::PanLeft).contains("boxblur"));
        assert!(!filter(1080, 1920, 90, Motion::ZoomIn).contains("boxblur"));
        assert!(filter(1080, 1920, 90, Motion::ZoomIn).contains("d=90:s=1080x1920:fps=30"));
    }

    /// A real image becomes a 1080x1920 mezzanine of the asked length whose picture moves.
    #[tokio::test]
    async fn an_image_becomes_a_moving_mezzanine() {
        let dir = std::env::temp_dir().join(format!("cm-kb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let img = dir.join("in.png");
        // A gradient with a grid, so any movement changes the picture.
        ffmpeg::run(
            "ffmpeg",
            &args([
                "-v",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=s=1600x1200:d=1",
                "-frames:v",
                "1",
                img.to_str().unwrap(),
            ]),
            Duration::from_secs(60),
        )
        .await
        .unwrap();
        let out = dir.join("kb.mp4");
        ken_burns(&img, &out, 2000, Motion::PanRight).await.unwrap();
        let info = crate::probe::probe(&out).await.unwrap();
        assert_eq!((info.width, info.height), (1080, 1920));
        assert!(
            (info.duration_ms - 2000).abs() <= 70,
            "{}",
            info.duration_ms
        );
        assert!(info.has_audio);
        // First and last frames differ: the window moved.
        let frame = |at: &str, name: &str| {
            let p = dir.join(name);
            let out = out.clone();
            let at = at.to_string();
            async move {
                let mut a = args(["-v", "error", "-y", "-ss", &at, "-i"]);
                a.push(out.display().to_string());
                a.extend(args([
                    "-frames:v",
                    "1",
                    "-f",
                    "rawvideo",
                    "-pix_fmt",
                    "gray",
                ]));
                a.push(p.display().to_string());
                ffmpeg::run("ffmpeg", &a, Duration::from_secs(60))
                    .await
                    .unwrap();
                std::fs::read(p).unwrap()
            }
        };
        let (a, b) = (frame("0", "a.raw").await, frame("1.9", "b.raw").await);
        let diff = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| (**x as i32 - **y as i32).abs() > 16)
            .count();
        assert!(
            diff > a.len() / 10,
            "only {diff} of {} pixels changed",
            a.len()
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
