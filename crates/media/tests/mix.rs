//! Real ffmpeg: heterogeneous material is normalized with `ingest::normalize`, then mixed by the engine.
//! Checks the planned duration, resolution and streams, clean decoding of stream-copy output, burned
//! subtitles that actually show, Chinese glyphs, the shared audio bed, and failures that name their cause.

use media::mix::{
    self, ClipSpec, Font, MixError, Position, ProjectSpec, SubtitleLine, Subtitles, TextStyle,
    Title, VariantSpec,
};
mod common;

use common::*;
use media::{ingest, probe};
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

const WQY: &str = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc";

struct Material {
    dir: PathBuf,
    /// Mezzanines: 3.0 s (from 1920x1080 25 fps), 2.5 s (1080x1920 30 fps), 2.0 s (720x1280 60 fps, silent).
    mez: Vec<PathBuf>,
    /// A raw (not normalized) clip.
    raw: PathBuf,
    music: PathBuf,
    voice: PathBuf,
}

/// Generated and normalized once for all tests of this file.
fn material() -> &'static Material {
    static M: OnceLock<Material> = OnceLock::new();
    M.get_or_init(|| {
        let src = shared_material("mix", include_str!("mix.rs"), |dir| {
            let srcs = ["land.mp4", "vert.mp4", "hfr.mp4"].map(|n| dir.join(n));
            lavfi_clip(
                "testsrc2=size=1920x1080:rate=25",
                "sine=f=440:sample_rate=44100",
                "3",
                &srcs[0],
            );
            lavfi_clip(
                "testsrc=size=1080x1920:rate=30",
                "sine=f=660",
                "2.5",
                &srcs[1],
            );
            // a silent clip
            ffmpeg(&[
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=720x1280:rate=60",
                "-t",
                "2",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
                &srcs[2].display().to_string(),
            ]);
            lavfi_audio(
                "anoisesrc=color=pink:amplitude=0.3",
                "1.5",
                &dir.join("music.wav"),
            );
            lavfi_audio("sine=f=300:sample_rate=22050", "2", &dir.join("voice.mp3"));
            let mez = (0..srcs.len()).map(|i| dir.join(format!("mez{i}.mp4")));
            common::normalize_all(srcs.into_iter().zip(mez).collect());
        });
        let dir = outputs_dir("cm-mix");
        Material {
            raw: src.join("vert.mp4"),
            music: src.join("music.wav"),
            voice: src.join("voice.mp3"),
            mez: (0..3).map(|i| src.join(format!("mez{i}.mp4"))).collect(),
            dir,
        }
    })
}

/// Called at the end of each test: the last one of the process to pass removes its outputs (a failure
/// keeps them).
fn finished() {
    common::finished(&material().dir, TESTS);
}
const TESTS: usize = 5;

fn out_dir(name: &str) -> PathBuf {
    let d = material().dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn assert_output(f: &Path, planned_ms: i64) {
    common::assert_variant(f, planned_ms, planned_ms * 30 / 1000).await;
}

#[tokio::test]
async fn copy_variant_keeps_the_plan_and_shares_the_bed() {
    let m = material();
    let dir = out_dir("copy");
    let spec = ProjectSpec {
        clips: m.mez.clone(),
        music: Some(m.music.clone()),
        music_volume: 80,
        voice: Some(m.voice.clone()),
        bed_ms: 8000,
        ..Default::default()
    };
    let prep = mix::prepare(&spec, &dir.join("prep"), &mix::no_progress)
        .await
        .unwrap();
    let bed = prep.bed.clone().unwrap();
    assert_eq!(bed.duration_ms, 8000);
    assert_eq!(mix::Prepared::load(&dir.join("prep")).unwrap(), prep);
    // The bed is made in the background; asking for it waits for it.
    assert_eq!(prep.bed_file().await.unwrap(), Some(bed.path.clone()));
    // The bed: music looped past its 1.5 s and mixed with the voice, loudness-normalized, 8 s long.
    let b = probe::probe(&bed.path).await.unwrap();
    assert!((b.duration_ms - 8000).abs() <= 50, "{}", b.duration_ms);
    let lufs = ingest::loudness(&bed.path).await.unwrap().unwrap();
    assert!((-22.0..-12.0).contains(&lufs), "bed at {lufs} LUFS");

    // Trimmed on the GOP grid: 3.0 s clip cut 1.2–2.6 s -> 1.0–3.0 s (its end); 2.5 s clip 0–1.4 -> 0–1.0.
    let mut v = VariantSpec::new(vec![
        ClipSpec {
            path: m.mez[0].clone(),
            in_ms: Some(1200),
            out_ms: Some(2600),
        },
        ClipSpec {
            path: m.mez[2].clone(),
            in_ms: None,
            out_ms: None,
        },
        ClipSpec {
            path: m.mez[1].clone(),
            in_ms: None,
            out_ms: Some(1400),
        },
    ]);
    v.cover_at_ms = 1500;
    // A bed lost with the process making it (prep.json outlives it) is made again by the render.
    std::fs::remove_file(&bed.path).unwrap();
    let (log, sink) = progress_log();
    let r = mix::render(&prep, &v, &dir.join("a.mp4"), &dir.join("a.jpg"), &sink)
        .await
        .unwrap();
    assert_progress(log);
    assert!(!r.burned && r.audio_copied, "{r:?}");
    assert!(bed.path.exists());
    assert_eq!(r.planned_ms, 2000 + 2000 + 1000);
    assert_output(&r.video, r.planned_ms).await;
    let cover = probe::probe(&r.cover).await.unwrap();
    assert_eq!((cover.width, cover.height), (1080, 1920));

    // The middle of a trim shows the right frame: 0.5 s into the output is 1.5 s into clip 0.
    let crop = (1080, 1920, 0, 0);
    let out_frame = gray(&r.video, 0.5, crop);
    let src_frame = gray(&m.mez[0], 1.5, crop);
    let other = gray(&m.mez[0], 0.5, crop);
    // Stream copy: the very same decoded picture.
    assert_eq!(changed(&out_frame, &src_frame, 0), 0.0);
    assert!(
        changed(&out_frame, &other, 10) > 0.01,
        "{}",
        changed(&out_frame, &other, 10)
    );

    // A variant longer than the bed still renders (with a bed of its own) and lasts as planned.
    let long = ProjectSpec {
        bed_ms: 2000,
        ..spec.clone()
    };
    let prep2 = mix::prepare(&long, &dir.join("prep2"), &mix::no_progress)
        .await
        .unwrap();
    let r2 = mix::render(
        &prep2,
        &v,
        &dir.join("b.mp4"),
        &dir.join("b.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert_output(&r2.video, 5000).await;
    finished();
}

#[tokio::test]
async fn clips_own_sound_is_joined_and_encoded() {
    let m = material();
    let dir = out_dir("clipaudio");
    let prep = mix::prepare(
        &ProjectSpec {
            clips: m.mez.clone(),
            ..Default::default()
        },
        &dir.join("prep"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(prep.bed.is_none());
    let v = VariantSpec::new(vec![
        ClipSpec {
            path: m.mez[1].clone(),
            in_ms: Some(1000),
            out_ms: None,
        },
        ClipSpec {
            path: m.mez[0].clone(),
            in_ms: None,
            out_ms: Some(2000),
        },
        ClipSpec::whole(&m.mez[1]),
    ]);
    let r = mix::render(
        &prep,
        &v,
        &dir.join("a.mp4"),
        &dir.join("a.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(!r.burned && !r.audio_copied);
    assert_eq!(r.planned_ms, 1500 + 2000 + 2500);
    assert_output(&r.video, r.planned_ms).await;
    let lufs = ingest::loudness(&r.video).await.unwrap().unwrap();
    assert!(lufs > -40.0, "the clips' tones are heard: {lufs}");

    // The clips' sound under a bed: mixed and encoded.
    let prep = mix::prepare(
        &ProjectSpec {
            clips: m.mez.clone(),
            voice: Some(m.voice.clone()),
            bed_ms: 10_000,
            ..Default::default()
        },
        &dir.join("prep2"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let mut v2 = v.clone();
    v2.clip_audio_volume = Some(30);
    let r = mix::render(
        &prep,
        &v2,
        &dir.join("b.mp4"),
        &dir.join("b.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(!r.audio_copied);
    assert_output(&r.video, 6000).await;
    finished();
}

#[tokio::test]
async fn subtitles_and_a_chinese_title_are_burned_in() {
    let m = material();
    let dir = out_dir("burn");
    let style = TextStyle {
        font: Font::File(WQY.into()),
        size: 72,
        colour: "#FFFF00".into(),
        position: Position::Bottom,
    };
    let spec = ProjectSpec {
        clips: m.mez.clone(),
        voice: Some(m.voice.clone()),
        subtitles: Some(Subtitles {
            lines: vec![
                SubtitleLine {
                    start_ms: 500,
                    end_ms: 2000,
                    text: "第一句字幕".into(),
                },
                SubtitleLine {
                    start_ms: 2000,
                    end_ms: 4500,
                    text: "第二句 second line".into(),
                },
            ],
            style: style.clone(),
        }),
        bed_ms: 10_000,
        ..Default::default()
    };
    let (log, sink) = progress_log();
    let prep = mix::prepare(&spec, &dir.join("prep"), &sink).await.unwrap();
    assert_progress(log);
    assert_eq!(prep.subtitle_family.as_deref(), Some("WenQuanYi Zen Hei"));
    assert!(
        dir.join("prep/fonts").read_dir().unwrap().count() == 1,
        "the font file is copied to fonts/"
    );
    let clips = vec![
        ClipSpec::whole(&m.mez[1]),
        ClipSpec::whole(&m.mez[2]),
        ClipSpec::whole(&m.mez[0]),
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
    let mut burn = VariantSpec::new(clips.clone());
    burn.burn_subtitles = true;
    burn.title = Some(Title {
        text: "你好世界 新品上市".into(),
        style: TextStyle {
            position: Position::Top,
            ..style.clone()
        },
        until_ms: None,
    });
    let (log, sink) = progress_log();
    let burned = mix::render(
        &prep,
        &burn,
        &dir.join("burned.mp4"),
        &dir.join("burned.jpg"),
        &sink,
    )
    .await
    .unwrap();
    assert_progress(log);
    assert!(burned.burned && burned.audio_copied && !plain.burned);
    assert_eq!(burned.planned_ms, 7500);
    assert_output(&burned.video, 7500).await;

    let (sy, sh) = mix::text_band(&style, mix::SUBTITLE_LINES);
    let band = (1080, sh, 0, sy);
    let (ty, th) = mix::text_band(
        &TextStyle {
            position: Position::Top,
            ..style.clone()
        },
        2,
    );
    let title_band = (1080, th, 0, ty);
    let middle = (1080, 400, 0, 800);
    // Text is ink: pixels that change by more than 40 levels against the same frame without text.
    let ink = |t: f64, crop| {
        changed(
            &gray(&plain.video, t, crop),
            &gray(&burned.video, t, crop),
            40,
        )
    };
    // At 1.0 s the first line shows in its band and the title in its own; the rest is the same video.
    let (i_band, i_title, i_middle) = (ink(1.0, band), ink(1.0, title_band), ink(1.0, middle));
    assert!(
        i_band > 0.01 && i_title > 0.01,
        "band {i_band}, title {i_title}"
    );
    assert!(i_middle < 0.001, "middle {i_middle}");
    // Before the first line (0.2 s) and after the last (5.5 s) the subtitle band is untouched, while
    // the title stays.
    let (i_before, i_after) = (ink(0.2, band), ink(5.5, band));
    assert!(
        i_before < 0.001 && i_after < 0.001,
        "before {i_before}, after {i_after}"
    );
    assert!(ink(0.2, title_band) > 0.01 && ink(5.5, title_band) > 0.01);
    // The second line shows at 3.0 s and differs from the first.
    assert!(ink(3.0, band) > 0.01);
    let (first, second) = (
        gray(&burned.video, 1.0, band),
        gray(&burned.video, 3.0, band),
    );
    assert!(changed(&first, &second, 40) > 0.01);

    // Chinese renders as glyphs, not as missing-glyph boxes: two different titles of the same length
    // look different (boxes would look alike), and both differ from no title.
    let mut other = burn.clone();
    other.burn_subtitles = false;
    other.title = Some(Title {
        text: "测试标题 限时优惠".into(),
        style: TextStyle {
            position: Position::Top,
            ..style.clone()
        },
        until_ms: None,
    });
    let r = mix::render(
        &prep,
        &other,
        &dir.join("other.mp4"),
        &dir.join("other.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let t1 = gray(&burned.video, 1.0, title_band);
    let t2 = gray(&r.video, 1.0, title_band);
    let alike = changed(&t1, &t2, 40);
    assert!(alike > 0.02, "titles look alike: {alike}");
    // Ink covers a fair share of the title band, as 9 CJK glyphs at 72 px do.
    let i = changed(&t2, &gray(&plain.video, 1.0, title_band), 40);
    assert!(i > 0.03, "ink {i}");

    // A font family by name works too (fontconfig finds it).
    let mut fam = other.clone();
    fam.title = Some(Title {
        text: "家族字体".into(),
        style: TextStyle {
            font: Font::Family("WenQuanYi Zen Hei".into()),
            position: Position::Percent(30),
            ..style.clone()
        },
        until_ms: None,
    });
    let r = mix::render(
        &prep,
        &fam,
        &dir.join("fam.mp4"),
        &dir.join("fam.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert_decodes_cleanly(&r.video);

    // Rules: a title over 20 characters is refused.
    let mut long = other.clone();
    long.title = Some(Title {
        text: "一二三四五六七八九十一二三四五六七八九十一".into(),
        style: style.clone(),
        until_ms: None,
    });
    let e = mix::render(
        &prep,
        &long,
        &dir.join("long.mp4"),
        &dir.join("long.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("at most 20"), "{e}");
    finished();
}

#[tokio::test]
async fn failures_name_their_cause() {
    let m = material();
    let dir = out_dir("fail");
    let prep = mix::prepare(
        &ProjectSpec {
            clips: m.mez.clone(),
            ..Default::default()
        },
        &dir.join("prep"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    // A missing clip.
    let gone = dir.join("gone.mp4");
    let v = VariantSpec::new(vec![ClipSpec::whole(&m.mez[0]), ClipSpec::whole(&gone)]);
    let e = mix::render(
        &prep,
        &v,
        &dir.join("x.mp4"),
        &dir.join("x.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&e, MixError::MissingInput(p) if p == &gone),
        "{e:?}"
    );
    assert!(e.to_string().contains("gone.mp4"), "{e}");
    assert!(!dir.join("x.mp4").exists());
    // A missing music file fails the prep, naming it.
    let spec = ProjectSpec {
        clips: m.mez.clone(),
        music: Some(dir.join("no-music.mp3")),
        ..Default::default()
    };
    let e = mix::prepare(&spec, &dir.join("prep2"), &mix::no_progress)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no-music.mp3"), "{e}");
    // Music ffmpeg cannot read: ffmpeg's own words become the reason. The bed is made beside the first
    // burns, so it is the render that fails, and no video is left.
    let bad = dir.join("bad.mp3");
    std::fs::write(&bad, b"this is not audio at all").unwrap();
    let spec = ProjectSpec {
        clips: m.mez.clone(),
        music: Some(bad),
        ..Default::default()
    };
    let bad_prep = mix::prepare(&spec, &dir.join("prep3"), &mix::no_progress)
        .await
        .unwrap();
    let e = mix::render(
        &bad_prep,
        &VariantSpec::new(vec![ClipSpec::whole(&m.mez[0])]),
        &dir.join("z.mp4"),
        &dir.join("z.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap_err();
    assert!(!dir.join("z.mp4").exists());
    let msg = e.to_string();
    assert!(
        matches!(e, MixError::Tool(_))
            && msg.starts_with("ffmpeg failed: ")
            && msg.contains("bad.mp3"),
        "{msg}"
    );
    // A clip that was never normalized is refused with a reason.
    let v = VariantSpec::new(vec![ClipSpec::whole(&m.raw)]);
    let e = mix::render(
        &prep,
        &v,
        &dir.join("y.mp4"),
        &dir.join("y.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("ingest it first"), "{e}");
    // A missing font file.
    let mut v = VariantSpec::new(vec![ClipSpec::whole(&m.mez[0])]);
    v.title = Some(Title {
        text: "标题".into(),
        style: TextStyle {
            font: Font::File(dir.join("nofont.ttf")),
            ..TextStyle::new(Position::Top, 60)
        },
        until_ms: None,
    });
    let e = mix::render(
        &prep,
        &v,
        &dir.join("z.mp4"),
        &dir.join("z.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("nofont.ttf"), "{e}");
    finished();
}

/// The labels of AI-generated content (GB 45438-2025): the visible "AI生成" in the top-left corner for
/// the opening 3 s, burned by the pre-burned pieces of a fixed-slot project (a piece cut where it
/// ends), at least 5 % of the frame's shorter side tall; the `AIGC` field in the MP4 after the
/// stream-copy join and in the cover JPEG, whose frame past the label carries it too. A variant
/// without them carries neither.
#[tokio::test]
async fn generated_content_carries_its_labels_and_own_footage_none() {
    use domain::clip::aigc::{AigcMeta, label_min_height_px};
    let m = material();
    let dir = out_dir("aigc");
    let spec = ProjectSpec {
        clips: m.mez.clone(),
        voice: Some(m.voice.clone()),
        bed_ms: 10_000,
        reuse_burns: true,
        piece_speed: mix::PieceSpeed::Fast,
        ..Default::default()
    };
    let prep = mix::prepare(&spec, &dir.join("prep"), &mix::no_progress)
        .await
        .unwrap();
    let clips = vec![ClipSpec::whole(&m.mez[0]), ClipSpec::whole(&m.mez[2])];
    let mut plain = VariantSpec::new(clips.clone());
    plain.cover_at_ms = 3_500;
    let meta = AigcMeta::generated("91110000TEST00000X", "v7").json();
    let labelled = VariantSpec {
        label: Some(mix::Label::aigc()),
        aigc: Some(meta.clone()),
        ..plain.clone()
    };
    let own = mix::render(
        &prep,
        &plain,
        &dir.join("own.mp4"),
        &dir.join("own.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert!(!own.burned, "nothing to burn: a stream copy");
    let ai = mix::render(
        &prep,
        &labelled,
        &dir.join("ai.mp4"),
        &dir.join("ai.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    assert_eq!(ai.planned_ms, own.planned_ms);
    assert!(
        ai.pieces_burned >= 2,
        "the label's piece and the rest: {ai:?}"
    );
    assert_output(&ai.video, ai.planned_ms).await;

    // The label's corner (x 40..400, y 270..430 of 1080x1920) differs at 0.5 s and 2.5 s, not at 3.5 s;
    // the rest of the frame is the same picture.
    let corner = (360, 160, 40, 270);
    let at = |f: &Path, t: f64, c| gray(f, t, c);
    for t in [0.5, 2.5] {
        let share = changed(&at(&ai.video, t, corner), &at(&own.video, t, corner), 40);
        assert!(share > 0.03, "label at {t}s: {share}");
    }
    let after = changed(
        &at(&ai.video, 3.5, corner),
        &at(&own.video, 3.5, corner),
        40,
    );
    assert!(after < 0.005, "no label after 3 s: {after}");
    let elsewhere = (360, 160, 600, 1200);
    let other = changed(
        &at(&ai.video, 0.5, elsewhere),
        &at(&own.video, 0.5, elsewhere),
        40,
    );
    assert!(other < 0.005, "the picture elsewhere: {other}");

    // Its height: the rows where the label changed the picture, at least 5 % of 1080 (54 px).
    let (a, b) = (at(&ai.video, 0.5, corner), at(&own.video, 0.5, corner));
    let rows: Vec<usize> = (0..160)
        .filter(|r| (0..360).any(|x| (a[r * 360 + x] as i32 - b[r * 360 + x] as i32).abs() > 40))
        .collect();
    let height = (rows.last().unwrap() - rows.first().unwrap() + 1) as i64;
    assert!(
        height >= label_min_height_px(1080),
        "label {height} px tall"
    );

    // The implicit label after the stream-copy join, none on the merchant's own video.
    assert_eq!(
        media::aigc::mp4_tag(&ai.video).await.as_deref(),
        Some(meta.as_str())
    );
    assert_eq!(media::aigc::mp4_tag(&own.video).await, None);
    // The cover (3.5 s, past the burned label) has the label drawn and the field.
    let cover = std::fs::read(&ai.cover).unwrap();
    assert_eq!(
        media::aigc::jpeg_tag(&cover).as_deref(),
        Some(meta.as_str())
    );
    assert_eq!(
        media::aigc::jpeg_tag(&std::fs::read(&own.cover).unwrap()),
        None
    );
    let still = |f: &Path| {
        let out = std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(f)
            .args([
                "-vf",
                "crop=360:160:40:270,format=gray",
                "-f",
                "rawvideo",
                "-",
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.stdout.len(),
            360 * 160,
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let (ca, cb) = (still(&ai.cover), still(&own.cover));
    assert!(changed(&ca, &cb, 40) > 0.03, "the cover's corner label");
    finished();
}
