//! Real ffmpeg: mixed inputs become canonical mezzanines that concatenate with stream copy cleanly.

use media::{ingest, probe};
use std::path::{Path, PathBuf};
use std::process::Command;

fn make(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let st = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success(), "generating {name}");
    out
}

#[tokio::test]
async fn mixed_inputs_become_mezzanines_that_concat_by_stream_copy() {
    let dir = std::env::temp_dir().join(format!("cm-ingest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = [
        make(
            &dir,
            "land.mp4",
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1920x1080:rate=25",
                "-f",
                "lavfi",
                "-i",
                "sine=f=440:sample_rate=44100",
                "-t",
                "1.2",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-c:a",
                "aac",
            ],
        ),
        make(
            &dir,
            "vert.mp4",
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1080x1920:rate=30",
                "-f",
                "lavfi",
                "-i",
                "sine=f=660",
                "-t",
                "1",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                "-c:a",
                "aac",
            ],
        ),
        make(
            &dir,
            "hfr.mp4",
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=720x1280:rate=60",
                "-t",
                "1",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
            ],
        ),
        make(
            &dir,
            "hevc.mp4",
            &[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1080x1920:rate=30",
                "-f",
                "lavfi",
                "-i",
                "sine=f=880",
                "-t",
                "1",
                "-c:v",
                "libx265",
                "-preset",
                "ultrafast",
                "-x265-params",
                "log-level=error",
                "-c:a",
                "aac",
            ],
        ),
    ];
    let mut list = String::new();
    let mut total_ms = 0;
    for (i, src) in inputs.iter().enumerate() {
        let info = probe::probe(src).await.unwrap();
        let dst = dir.join(format!("mez{i}.mp4"));
        ingest::normalize(src, &dst, &info).await.unwrap();
        let m = probe::probe(&dst).await.unwrap();
        assert_eq!((m.width, m.height, m.fps), (1080, 1920, 30.0), "{src:?}");
        assert_eq!(m.video_codec.as_deref(), Some("h264"));
        assert_eq!(
            (m.audio_codec.as_deref(), m.audio_rate, m.audio_channels),
            (Some("aac"), Some(48_000), Some(2))
        );
        assert!(
            (m.duration_ms - info.duration_ms).abs() <= 100,
            "{} vs {}",
            m.duration_ms,
            info.duration_ms
        );
        total_ms += m.duration_ms;
        list.push_str(&format!("file '{}'\n", dst.display()));
        if i == 0 {
            let (poster, strip) = (dir.join("poster.jpg"), dir.join("strip.jpg"));
            ingest::pictures(&dst, &poster, &strip, &m).await.unwrap();
            let (p, s) = (
                probe::probe(&poster).await.unwrap(),
                probe::probe(&strip).await.unwrap(),
            );
            assert_eq!((p.width, p.height), (540, 960));
            assert_eq!((s.width, s.height), (1080, 192), "ten 108 px tiles");
            let lufs = ingest::loudness(src).await.unwrap().unwrap();
            assert!((-40.0..0.0).contains(&lufs), "{lufs}");
        }
    }
    std::fs::write(dir.join("list.txt"), list).unwrap();
    let joined = dir.join("joined.mp4");
    let st = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i"])
        .arg(dir.join("list.txt"))
        .args(["-c", "copy"])
        .arg(&joined)
        .output()
        .unwrap();
    assert!(
        st.status.success() && st.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    // Decoding the joined file reports nothing at all.
    let check = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&joined)
        .args(["-f", "null", "-"])
        .output()
        .unwrap();
    assert!(
        check.status.success() && check.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let j = probe::probe(&joined).await.unwrap();
    assert!(
        (j.duration_ms - total_ms).abs() <= 150,
        "{} vs {total_ms}",
        j.duration_ms
    );
    // A file ffmpeg cannot read is an error with a reason, not a panic.
    let bad = dir.join("bad.mp4");
    std::fs::write(&bad, b"\0\0\0\x20ftypisom this is not really a video").unwrap();
    let e = probe::probe(&bad).await.unwrap_err();
    assert!(!e.to_string().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ingest job's bar follows the encoder: ffmpeg's `-progress` report reaches the sink, rising to
/// 100 at the end (not one jump from "started" to "ready").
#[tokio::test]
async fn normalize_reports_the_encoders_progress() {
    let dir = std::env::temp_dir().join(format!("cm-ingest-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = make(
        &dir,
        "four.mp4",
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=720x1280:rate=30",
            "-f",
            "lavfi",
            "-i",
            "sine=f=440",
            "-t",
            "4",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
        ],
    );
    let info = probe::probe(&src).await.unwrap();
    let seen = std::sync::Mutex::new(Vec::<u8>::new());
    let sink = |p: u8| seen.lock().unwrap().push(p);
    ingest::normalize_reporting(&src, &dir.join("mez.mp4"), &info, &sink)
        .await
        .unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert!(*seen.last().unwrap() >= 99, "{seen:?}");
    let m = probe::probe(&dir.join("mez.mp4")).await.unwrap();
    assert_eq!((m.width, m.height), (1080, 1920));
    std::fs::remove_dir_all(&dir).ok();
}
