//! Duplicate risk measured against known answers: videos the test makes from distinct pictures and
//! melodies — variants sharing 0–4 clips with the same or another music, a re-encoded copy, a mirrored
//! copy, a clip re-uploaded as another file — must score in the order a duplicate check sees them.

mod common;

use common::ffmpeg;
use media::signature::{self as sig, Signature};
use std::path::{Path, PathBuf};

/// Eight pictures nothing alike (small: the signature scales every picture to 24x24 anyway).
const PICTURES: [&str; 8] = [
    "testsrc2=size=270x480:rate=30",
    "mandelbrot=size=270x480:rate=30",
    "life=size=270x480:rate=30:mold=10:ratio=0.5:death_color=#C83232:life_color=#00ff00",
    "smptehdbars=size=270x480:rate=30",
    "cellauto=size=270x480:rate=30:rule=110",
    "rgbtestsrc=size=270x480:rate=30",
    "gradients=size=270x480:rate=30:speed=0.05",
    "yuvtestsrc=size=270x480:rate=30",
];

/// A 4 s clip with our mezzanines' key frames (one closed GOP a second).
fn clip(dir: &Path, i: usize) -> PathBuf {
    let out = dir.join(format!("c{i}.mp4"));
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        PICTURES[i],
        "-t",
        "4",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-g",
        "30",
        "-keyint_min",
        "30",
        "-sc_threshold",
        "0",
        "-pix_fmt",
        "yuv420p",
        out.to_str().unwrap(),
    ]);
    out
}

/// A 16 s melody: tones that change a few times a second.
fn music(dir: &Path, name: &str, expr: &str) -> PathBuf {
    let out = dir.join(format!("{name}.wav"));
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        &format!("aevalsrc='{expr}':s=44100:d=16"),
        out.to_str().unwrap(),
    ]);
    out
}

/// Clips joined by stream copy with a music track: a variant as the engine makes one.
fn variant(dir: &Path, name: &str, clips: &[&Path], music: &Path) -> PathBuf {
    let list = dir.join(format!("{name}.txt"));
    let body: String = clips
        .iter()
        .map(|c| format!("file '{}'\n", c.display()))
        .collect();
    std::fs::write(&list, body).unwrap();
    let out = dir.join(format!("{name}.mp4"));
    ffmpeg(&[
        "-f",
        "concat",
        "-safe",
        "0",
        "-i",
        list.to_str().unwrap(),
        "-i",
        music.to_str().unwrap(),
        "-map",
        "0:v",
        "-map",
        "1:a",
        "-c:v",
        "copy",
        "-c:a",
        "aac",
        "-shortest",
        out.to_str().unwrap(),
    ]);
    out
}

/// `src` encoded again (another quality, optionally mirrored), with ingest's key frames.
fn reencode(src: &Path, out: &Path, filter: &str) {
    ffmpeg(&[
        "-i",
        src.to_str().unwrap(),
        "-vf",
        filter,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-crf",
        "32",
        "-g",
        "30",
        "-keyint_min",
        "30",
        "-sc_threshold",
        "0",
        "-c:a",
        "aac",
        "-b:a",
        "96k",
        out.to_str().unwrap(),
    ]);
}

fn score(a: &Signature, b: &Signature) -> u8 {
    sig::likeness((a, "", -1), (b, "", -1)).score()
}

#[tokio::test]
async fn scores_order_known_duplicates_and_an_assembled_signature_is_the_files() {
    let dir = common::outputs_dir("cm-signature");
    let c: Vec<PathBuf> = (0..PICTURES.len()).map(|i| clip(&dir, i)).collect();
    let a = music(
        &dir,
        "a",
        "0.4*sin(2*PI*(440+110*mod(floor(t*2.5),4))*t)+0.2*sin(2*PI*(660+90*mod(floor(t*5),3))*t)",
    );
    let b = music(
        &dir,
        "b",
        "0.4*sin(2*PI*(349+130*mod(floor(t*3),5))*t)+0.2*sin(2*PI*(523+70*mod(floor(t*4),3))*t)",
    );
    let v = |name: &str, ids: [usize; 4], m: &Path| {
        let clips: Vec<&Path> = ids.iter().map(|&i| c[i].as_path()).collect();
        variant(&dir, name, &clips, m)
    };
    let base = v("base", [0, 1, 2, 3], &a);
    // A clip re-uploaded as another file (encoded again): the same pictures under another id.
    let c0_again = dir.join("c0-again.mp4");
    reencode(&c[0], &c0_again, "null");
    let copied_clip = variant(&dir, "copied-clip", &[&c0_again, &c[1], &c[2], &c[3]], &a);
    let files = [
        ("share3_same", v("share3_same", [0, 1, 2, 4], &a)),
        ("share3_other", v("share3_other", [0, 1, 2, 4], &b)),
        ("share2_same", v("share2_same", [0, 1, 5, 4], &a)),
        ("share1_same", v("share1_same", [0, 6, 5, 4], &a)),
        ("share0_same", v("share0_same", [7, 6, 5, 4], &a)),
        ("share0_other", v("share0_other", [7, 6, 5, 4], &b)),
        ("copied_clip", copied_clip),
    ];
    let reencoded = dir.join("reencoded.mp4");
    reencode(&base, &reencoded, "null");
    let mirrored = dir.join("mirrored.mp4");
    reencode(&base, &mirrored, "hflip");

    let base_sig = sig::of_file(&base).await.unwrap();
    assert_eq!(base_sig.frames.len(), 16, "one sample a second");
    let mut s = std::collections::BTreeMap::new();
    for (name, f) in &files {
        s.insert(*name, score(&sig::of_file(f).await.unwrap(), &base_sig));
    }
    let again = score(&sig::of_file(&reencoded).await.unwrap(), &base_sig);
    let mirror = score(&sig::of_file(&mirrored).await.unwrap(), &base_sig);
    eprintln!("scores against the base: {s:?}, re-encoded {again}, mirrored {mirror}");
    assert!(again >= 90, "a re-encoded copy: {again}");
    assert!(mirror >= 90, "a mirrored copy: {mirror}");
    assert!(s["copied_clip"] >= 90, "{s:?}");
    // Fewer shared clips, less alike; the same music, more alike.
    assert!(s["share3_same"] > s["share2_same"], "{s:?}");
    assert!(s["share2_same"] > s["share1_same"], "{s:?}");
    assert!(s["share1_same"] > s["share0_same"], "{s:?}");
    assert!(s["share0_same"] > s["share0_other"], "{s:?}");
    assert!(s["share3_same"] > s["share3_other"], "{s:?}");
    assert!(s["share3_same"] >= 70, "{s:?}");
    assert!(s["share0_other"] <= 20, "{s:?}");

    // What a render assembles — its clips' windows and its bed's fingerprint — is what the file shows.
    let mut parts = vec![];
    for i in [0, 1, 2, 4] {
        let whole = sig::of_file(&c[i]).await.unwrap();
        parts.push(whole.window(0, 4));
    }
    let mut assembled = sig::concat(&parts);
    let mut bed = sig::of_sound(&a).await.unwrap();
    bed.truncate((assembled.frames.len() as f64 * sig::AUDIO_PER_SECOND) as usize);
    assembled.audio = bed;
    let file = sig::of_file(&files[0].1).await.unwrap();
    assert_eq!(sig::visual(&assembled.frames, &file.frames), 1.0);
    let heard = sig::audio(&assembled.audio, &file.audio).unwrap();
    assert!(heard >= 0.9, "{heard}");
    common::finished(&dir, 1);
}
