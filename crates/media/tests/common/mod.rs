//! Helpers the media test files share: ffmpeg/ffprobe calls, frame sampling, progress checks and the
//! normalization of generated sources into mezzanines.
#![allow(dead_code)]

use media::{ingest, probe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

pub fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A finished variant: 1080x1920 H.264 + AAC 48 kHz stereo, as long as planned (±0.1 s) with exactly
/// `frames` video frames, faststart (the index before the media data), and it decodes cleanly.
pub async fn assert_variant(f: &Path, planned_ms: i64, frames: i64) {
    let info = probe::probe(f).await.unwrap();
    assert_eq!((info.width, info.height), (1080, 1920));
    assert_eq!(info.video_codec.as_deref(), Some("h264"));
    assert_eq!(
        (
            info.audio_codec.as_deref(),
            info.audio_rate,
            info.audio_channels
        ),
        (Some("aac"), Some(48_000), Some(2))
    );
    assert!(
        (info.duration_ms - planned_ms).abs() <= 100,
        "{} lasts {} ms, planned {planned_ms}",
        f.display(),
        info.duration_ms
    );
    assert_eq!(video_frames(f), frames, "{}", f.display());
    let head = std::fs::read(f).unwrap();
    let find = |tag: &[u8]| head.windows(4).position(|w| w == tag).unwrap();
    assert!(find(b"moov") < find(b"mdat"), "not faststart");
    assert_decodes_cleanly(f);
}

/// `ffmpeg -v error -i f -f null -` must print nothing.
pub fn assert_decodes_cleanly(f: &Path) {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(f)
        .args(["-f", "null", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}: {}",
        f.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn video_frames(f: &Path) -> i64 {
    ffprobe_csv(
        f,
        &[
            "-select_streams",
            "v:0",
            "-count_packets",
            "-show_entries",
            "stream=nb_read_packets",
        ],
    )
    .trim()
    .parse()
    .unwrap()
}

/// What `ffprobe -v error <args> -of csv=p=0 f` prints.
pub fn ffprobe_csv(f: &Path, args: &[&str]) -> String {
    let out = Command::new("ffprobe")
        .args(["-v", "error"])
        .args(args)
        .args(["-of", "csv=p=0"])
        .arg(f)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// A grey crop of the frame at `t` seconds, as raw bytes.
pub fn gray(f: &Path, t: f64, crop: (i64, i64, i64, i64)) -> Vec<u8> {
    let (w, h, x, y) = crop;
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-ss", &format!("{t:.3}"), "-i"])
        .arg(f)
        .args([
            "-frames:v",
            "1",
            "-vf",
            &format!("crop={w}:{h}:{x}:{y},format=gray"),
            "-f",
            "rawvideo",
            "-",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout.len() as i64, w * h);
    out.stdout
}

/// Share of pixels that differ by more than `by` levels.
pub fn changed(a: &[u8], b: &[u8], by: i32) -> f64 {
    a.iter()
        .zip(b)
        .filter(|(x, y)| (**x as i32 - **y as i32).abs() > by)
        .count() as f64
        / a.len() as f64
}

pub fn progress_log() -> (&'static Mutex<Vec<u8>>, impl Fn(u8) + Send + Sync) {
    let log: &'static Mutex<Vec<u8>> = Box::leak(Box::new(Mutex::new(Vec::new())));
    (log, move |p| log.lock().unwrap().push(p))
}

pub fn assert_progress(log: &Mutex<Vec<u8>>) {
    let v = log.lock().unwrap();
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?}");
    assert_eq!(v.first(), Some(&0));
    assert_eq!(v.last(), Some(&100));
}

/// Normalizes each source into `dir/<name>` (as ingest would), on a runtime of its own so that it can
/// run inside a `OnceLock` initializer called from a test's runtime.
pub fn normalize_all(sources: Vec<(PathBuf, PathBuf)>) {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            for (src, dst) in &sources {
                let info = probe::probe(src).await.unwrap();
                ingest::normalize(src, dst, &info).await.unwrap();
            }
        })
    })
    .join()
    .unwrap();
}

/// `out`: an MP4 of lavfi's `video` source (x264 ultrafast) with lavfi's `tone` (AAC), `secs` long — a
/// clip as a camera or an editor hands it over, for ingest to normalize.
pub fn lavfi_clip(video: &str, tone: &str, secs: &str, out: &Path) {
    let out = out.display().to_string();
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        video,
        "-f",
        "lavfi",
        "-i",
        tone,
        "-t",
        secs,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-c:a",
        "aac",
        &out,
    ]);
}

/// `out`: lavfi's audio `source`, `secs` long, in the format `out`'s extension names.
pub fn lavfi_audio(source: &str, secs: &str, out: &Path) {
    let out = out.display().to_string();
    ffmpeg(&["-f", "lavfi", "-i", source, "-t", secs, &out]);
}

/// A folder of this process's own for what a test makes, `<temp>/<name>-<pid>` (the material it reads
/// is shared: [`shared_material`]).
pub fn outputs_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The generated sources (and their mezzanines) of a test file, made once on this machine and shared by
/// its tests: nextest runs every test in a process of its own, so a `OnceLock` alone made and
/// normalized them again for each test (~15 CPU-s of 1080x1920 encodes a test, a fifth of the mixing
/// suites). `make` fills the folder it is given. The folder is named by a hash of `recipe` (the test
/// file's own source, which holds the ffmpeg arguments), of these helpers, of the ingest code that
/// makes the mezzanines and of ffmpeg's version, so a change to any of them makes new material. One
/// process makes it under a file lock, in a folder of its own renamed into place when whole; the
/// others wait and read it. Tests only read it: their outputs go to [`outputs_dir`].
pub fn shared_material(name: &str, recipe: &str, make: impl FnOnce(&Path)) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let version = Command::new("ffmpeg").arg("-version").output().unwrap();
    let mut h = std::hash::DefaultHasher::new();
    (
        recipe,
        include_str!("mod.rs"),
        include_str!("../../src/ingest.rs"),
        &version.stdout[..],
    )
        .hash(&mut h);
    let root = std::env::temp_dir().join("cm-media-material");
    std::fs::create_dir_all(&root).unwrap();
    let dir = root.join(format!("{name}-{:016x}", h.finish()));
    let lock = std::fs::File::create(root.join(format!("{name}.lock"))).unwrap();
    lock.lock().unwrap();
    if !dir.exists() {
        let part = root.join(format!("{name}.part-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&part);
        std::fs::create_dir_all(&part).unwrap();
        make(&part);
        std::fs::rename(&part, &dir).unwrap();
    }
    dir
}

/// Counts a finished test; the last of `tests` to pass removes `dir`, the outputs (a failure keeps them).
/// Under nextest a process runs one test, so that test is the last.
pub fn finished(dir: &Path, tests: usize) {
    static DONE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let done = DONE.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
    if done == tests || std::env::var_os("NEXTEST_RUN_ID").is_some() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The SSIM (`All`, 0–1) of every frame of `a` against the same frame of `b`, in order. Both must have
/// the same number of frames (checked).
pub fn ssim_per_frame(a: &Path, b: &Path) -> Vec<f64> {
    let stats = a.with_extension(format!("ssim-{}.log", std::process::id()));
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(a)
        .arg("-i")
        .arg(b)
        .args([
            "-lavfi",
            &format!("[0:v][1:v]ssim=stats_file={}", stats.display()),
            "-f",
            "null",
            "-",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&stats).unwrap();
    let _ = std::fs::remove_file(&stats);
    let v: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split("All:").nth(1))
        .filter_map(|r| r.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(v.len() as i64, video_frames(a), "{}", text);
    assert_eq!(video_frames(a), video_frames(b));
    v
}

/// Start and duration (ms) of the first video and the first audio stream.
pub fn stream_times(f: &Path) -> ((i64, i64), (i64, i64)) {
    let text = ffprobe_csv(
        f,
        &["-show_entries", "stream=codec_type,start_time,duration"],
    );
    let find = |kind: &str| {
        let l = text
            .lines()
            .find(|l| l.starts_with(kind))
            .unwrap_or_else(|| panic!("no {kind} in {text}"));
        let f: Vec<f64> = l.split(',').skip(1).map(|x| x.parse().unwrap()).collect();
        (
            (f[0] * 1000.0).round() as i64,
            (f[1] * 1000.0).round() as i64,
        )
    };
    (find("video"), find("audio"))
}
