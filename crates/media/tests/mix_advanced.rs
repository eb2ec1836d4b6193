//! Real ffmpeg, advanced mode: transitions between shots make a composed render (one ffmpeg,
//! exact trims, `xfade`/`acrossfade`, one encode) and shot captions are drawn over their own shot. Clips of
//! solid colours make the joins visible: a frame inside a transition is a blend of its two shots.

use media::mix::{
    self, ClipSpec, MixError, Position, ProjectSpec, TextStyle, Transition, VariantSpec,
};
mod common;

use common::*;
use media::{ingest, probe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

struct Material {
    dir: PathBuf,
    /// Mezzanines of one colour each, with a tone: red 2.5 s, white 3.0 s, blue 2.0 s.
    red: PathBuf,
    white: PathBuf,
    blue: PathBuf,
    voice: PathBuf,
}

/// Generated and normalized once for all tests of this file.
fn material() -> &'static Material {
    static M: OnceLock<Material> = OnceLock::new();
    M.get_or_init(|| {
        let clips = [("red", "2.5", 440), ("white", "3", 660), ("blue", "2", 880)];
        let src = shared_material("mix-adv", include_str!("mix_advanced.rs"), |dir| {
            let mut pairs = vec![];
            for (colour, secs, f) in clips {
                let raw = dir.join(format!("{colour}.mp4"));
                let video = format!("color=c={colour}:size=1080x1920:rate=30");
                lavfi_clip(&video, &format!("sine=f={f}"), secs, &raw);
                pairs.push((raw, dir.join(format!("mez-{colour}.mp4"))));
            }
            lavfi_audio("sine=f=300:sample_rate=22050", "2", &dir.join("voice.mp3"));
            common::normalize_all(pairs);
        });
        let dir = outputs_dir("cm-mix-adv");
        let mez = |colour: &str| src.join(format!("mez-{colour}.mp4"));
        Material {
            red: mez("red"),
            white: mez("white"),
            blue: mez("blue"),
            voice: src.join("voice.mp3"),
            dir,
        }
    })
}

/// Called at the end of each test: the last one of the process to pass removes its outputs (a failure
/// keeps them).
fn finished() {
    common::finished(&material().dir, TESTS);
}
const TESTS: usize = 3;

fn out_dir(name: &str) -> PathBuf {
    let d = material().dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `common::assert_variant` (frame-exact: an `xfade` that ran long or short would show), and the
/// audio lasts as long as the video (the clips' sound is joined over the same overlaps).
async fn assert_output(f: &Path, planned_ms: i64) {
    common::assert_variant(f, planned_ms, (planned_ms * 30 + 500) / 1000).await;
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-select_streams",
            "a:0",
            "-show_entries",
            "stream=duration",
            "-of",
            "csv=p=0",
        ])
        .arg(f)
        .output()
        .unwrap();
    let audio_s: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let audio_ms = (audio_s * 1000.0).round() as i64;
    assert!(
        (audio_ms - planned_ms).abs() <= 100,
        "{}: audio lasts {audio_ms} ms, planned {planned_ms}",
        f.display()
    );
}

fn transition(kind: &str, ms: i64) -> Option<Transition> {
    Some(Transition {
        kind: kind.into(),
        ms,
    })
}

/// The band shot captions of the default style occupy.
fn caption_band() -> (i64, i64, i64, i64) {
    let (y, h) = mix::text_band(&mix::default_shot_style(), mix::TITLE_LINES);
    (1080, h, 0, y)
}

#[tokio::test]
async fn transitions_are_composed_in_one_pass() {
    let m = material();
    let dir = out_dir("composed");
    let prep = mix::prepare(
        &ProjectSpec {
            clips: vec![m.red.clone(), m.white.clone(), m.blue.clone()],
            ..Default::default()
        },
        &dir.join("prep"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    // red 0.2–2.2 s (exact, not on the GOP grid) -fade 600-> white 3 s -slideleft 400-> blue 2 s | red
    // 0.5–2.5 s. Output: red 0–2.0, white 1.4–4.4, blue 4.0–6.0, red 6.0–8.0.
    let mut v = VariantSpec::new(vec![
        ClipSpec {
            path: m.red.clone(),
            in_ms: Some(200),
            out_ms: Some(2200),
        },
        ClipSpec::whole(&m.white),
        ClipSpec::whole(&m.blue),
        ClipSpec {
            path: m.red.clone(),
            in_ms: Some(500),
            out_ms: None,
        },
    ]);
    v.transitions = vec![transition("fade", 600), transition("slideleft", 400), None];
    v.cover_at_ms = 4200;
    let (log, sink) = progress_log();
    let r = mix::render(&prep, &v, &dir.join("a.mp4"), &dir.join("a.jpg"), &sink)
        .await
        .unwrap();
    assert_progress(log);
    assert_eq!(r.planned_ms, 2000 + 3000 + 2000 + 2000 - 600 - 400);
    assert!(r.burned && !r.audio_copied, "{r:?}");
    assert_output(&r.video, r.planned_ms).await;
    let cover = probe::probe(&r.cover).await.unwrap();
    assert_eq!((cover.width, cover.height), (1080, 1920));
    // The clips' own tones are joined (crossfaded) and heard.
    let lufs = ingest::loudness(&r.video).await.unwrap().unwrap();
    assert!(lufs > -40.0, "the clips' tones are heard: {lufs}");

    // Frames: a strip across the whole width (a slide moves sideways).
    let strip = (1080, 200, 0, 860);
    let at = |t| gray(&r.video, t, strip);
    let (red, white, blue) = (at(0.5), at(3.0), at(5.0));
    assert!(changed(&red, &white, 10) > 0.99 && changed(&white, &blue, 10) > 0.99);
    // The middle of the fade (1.7 s) is a blend: neither red nor white.
    let fade = at(1.7);
    let (fr, fw) = (changed(&fade, &red, 10), changed(&fade, &white, 10));
    assert!(fr > 0.9 && fw > 0.9, "fade vs red {fr}, vs white {fw}");
    // The middle of the slide (4.2 s): part white, part blue, neither all white nor all blue.
    let slide = at(4.2);
    let (sw, sb) = (changed(&slide, &white, 10), changed(&slide, &blue, 10));
    assert!(sw > 0.2 && sb > 0.2, "slide vs white {sw}, vs blue {sb}");
    // The hard cut at 6.0 s: blue just before, red just after, nothing in between.
    assert!(changed(&at(5.9), &blue, 10) < 0.01);
    assert!(changed(&at(6.1), &red, 10) < 0.01);
    assert!(changed(&at(7.9), &red, 10) < 0.01);

    // The same with shot captions (and a voice bed, copied): the captions show over their own shot, and
    // during a transition the incoming shot's caption (here: none for white) has taken over.
    let prep2 = mix::prepare(
        &ProjectSpec {
            clips: vec![m.red.clone(), m.white.clone(), m.blue.clone()],
            voice: Some(m.voice.clone()),
            bed_ms: 10_000,
            ..Default::default()
        },
        &dir.join("prep2"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let mut c = v.clone();
    c.shot_texts = vec!["第一个镜头".into(), String::new(), "third shot 第三".into()];
    let rc = mix::render(
        &prep2,
        &c,
        &dir.join("c.mp4"),
        &dir.join("c.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(rc.burned && rc.audio_copied, "{rc:?}");
    assert_eq!(rc.planned_ms, r.planned_ms);
    assert_output(&rc.video, rc.planned_ms).await;
    let band = caption_band();
    let ink = |t| changed(&gray(&r.video, t, band), &gray(&rc.video, t, band), 40);
    let (i_red, i_fade, i_white, i_blue, i_last) =
        (ink(0.5), ink(1.7), ink(3.0), ink(5.0), ink(7.0));
    assert!(i_red > 0.01 && i_blue > 0.01, "red {i_red}, blue {i_blue}");
    assert!(
        i_fade < 0.001 && i_white < 0.001 && i_last < 0.001,
        "fade {i_fade}, white {i_white}, last {i_last}"
    );
    finished();
}

#[tokio::test]
async fn shot_captions_alone_use_the_one_burn_pass() {
    let m = material();
    let dir = out_dir("captions");
    let prep = mix::prepare(
        &ProjectSpec {
            clips: vec![m.red.clone(), m.white.clone(), m.blue.clone()],
            voice: Some(m.voice.clone()),
            bed_ms: 10_000,
            ..Default::default()
        },
        &dir.join("prep"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let clips = vec![
        ClipSpec::whole(&m.red),
        ClipSpec::whole(&m.white),
        ClipSpec::whole(&m.blue),
    ];
    let plain = mix::render(
        &prep,
        &VariantSpec::new(clips.clone()),
        &dir.join("plain.mp4"),
        &dir.join("plain.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(!plain.burned);
    let mut v = VariantSpec::new(clips);
    v.shot_texts = vec!["红色镜头".into(), " ".into(), "blue shot".into()];
    v.shot_style = Some(TextStyle {
        colour: "#FFFF00".into(),
        ..TextStyle::new(Position::Middle, 72)
    });
    let (log, sink) = progress_log();
    let r = mix::render(&prep, &v, &dir.join("a.mp4"), &dir.join("a.jpg"), &sink)
        .await
        .unwrap();
    assert_progress(log);
    // Stream-copy timeline (GOP grid), one burn re-encode, the bed copied.
    assert!(r.burned && r.audio_copied, "{r:?}");
    assert_eq!(r.planned_ms, 7500);
    assert_output(&r.video, 7500).await;
    let (y, h) = mix::text_band(v.shot_style.as_ref().unwrap(), mix::TITLE_LINES);
    let band = (1080, h, 0, y);
    let ink = |t| changed(&gray(&plain.video, t, band), &gray(&r.video, t, band), 40);
    // Red plays 0–2.5 s, white 2.5–5.5 s (no caption), blue 5.5–7.5 s.
    let (i_red, i_white, i_blue) = (ink(1.0), ink(4.0), ink(6.5));
    assert!(i_red > 0.01 && i_blue > 0.01, "red {i_red}, blue {i_blue}");
    assert!(i_white < 0.001, "white {i_white}");
    // Outside the band the picture is the same.
    let middle_off = (1080, 300, 0, 200);
    let off = changed(
        &gray(&plain.video, 1.0, middle_off),
        &gray(&r.video, 1.0, middle_off),
        40,
    );
    assert!(off < 0.001, "{off}");
    finished();
}

#[tokio::test]
async fn advanced_rules_are_checked_before_rendering() {
    let m = material();
    let dir = out_dir("rules");
    let prep = mix::prepare(
        &ProjectSpec {
            clips: vec![m.red.clone(), m.white.clone()],
            ..Default::default()
        },
        &dir.join("prep"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let base = VariantSpec::new(vec![ClipSpec::whole(&m.red), ClipSpec::whole(&m.white)]);
    let cases: Vec<(VariantSpec, &str)> = vec![
        (
            VariantSpec {
                transitions: vec![transition("spin", 500)],
                ..base.clone()
            },
            "unknown transition",
        ),
        (
            VariantSpec {
                transitions: vec![transition("fade", 100)],
                ..base.clone()
            },
            "200–2000 ms",
        ),
        (
            VariantSpec {
                transitions: vec![transition("fade", 2500)],
                ..base.clone()
            },
            "200–2000 ms",
        ),
        (
            VariantSpec {
                transitions: vec![transition("fade", 500), None],
                ..base.clone()
            },
            "at most 1",
        ),
        (
            VariantSpec {
                shot_texts: vec!["x".repeat(mix::SHOT_TEXT_MAX_CHARS + 1)],
                ..base.clone()
            },
            "at most 30",
        ),
    ];
    for (i, (v, want)) in cases.iter().enumerate() {
        let out = dir.join(format!("x{i}.mp4"));
        let e = mix::render(&prep, v, &out, &dir.join("x.jpg"), &mix::no_progress)
            .await
            .unwrap_err();
        assert!(
            matches!(&e, MixError::Invalid(msg) if msg.contains(want)),
            "{want}: {e:?}"
        );
        assert!(!out.exists());
    }
    // A transition longer than half a shot is clamped, not refused: 2 s between a 2.5 s (75 frames) and a
    // 3 s clip overlaps 37 frames (1233 ms).
    let v = VariantSpec {
        transitions: vec![transition("circleopen", 2000)],
        ..base.clone()
    };
    let r = mix::render(
        &prep,
        &v,
        &dir.join("ok.mp4"),
        &dir.join("ok.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert_eq!(r.planned_ms, 2500 + 3000 - 1233);
    assert_output(&r.video, r.planned_ms).await;
    finished();
}
