//! Duplicate-risk benchmark: what measuring a variant costs, against what making it costs, in the same
//! run (release build, `make bench`).
//!
//! Three noisy 10 s 1080x1920 sources are ingested (`ingest::normalize`), each mezzanine's signature
//! made as ingest makes it (`signature::of_file`: key frames only); a project with music is prepared and
//! 30 s variants rendered by stream copy and with burned text. Then a variant's measuring as the render
//! job does it: its signature assembled from its clips' (windows, joined) and the bed's fingerprint (once
//! per project), compared with 19 siblings, and scored against 1,000 published videos (synthetic
//! signatures of 30 s). Prints `bench: <name> <value> <unit>` lines:
//! - `risk_score_ms_per_variant`: assembling + siblings + 1,000 published (target ≤ 300 ms);
//! - `risk_render_overhead_copy_pct` / `risk_render_overhead_burned_pct`: what the render waits for
//!   before the video shows done (assembling, the siblings, the bed's fingerprint shared by 20
//!   variants) against the render's own time (target ≤ 5 %); the published part runs after;
//! - `risk_ingest_signature_ms` against `risk_ingest_normalize_ms`; `risk_of_file_30s_ms` (an import,
//!   and a variant with varied text places), `risk_render_overhead_text_vary_pct` (that read on top of
//!   the burned render's overhead).

use media::mix::{
    self, ClipSpec, Position, ProjectSpec, SubtitleLine, Subtitles, TextStyle, Title, VariantSpec,
};
use media::signature::{self as sig, Block, Sample, Signature};
use media::{ingest, probe};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .output()
        .expect("ffmpeg");
    assert!(
        out.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A small deterministic generator (xorshift) for the synthetic published signatures.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn synthetic(rng: &mut Rng) -> Signature {
    let frames = (0..30)
        .map(|_| {
            let mut s = Sample::default();
            for b in &mut s.blocks {
                *b = Block {
                    hash: rng.next(),
                    mean: (rng.next() % 256) as u8,
                    spread: (rng.next() % 40) as u8,
                };
            }
            s
        })
        .collect();
    let audio = (0..(30.0 * sig::AUDIO_PER_SECOND) as usize)
        .map(|_| Some(rng.next() as u32))
        .collect();
    Signature { frames, audio }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let dir = std::env::temp_dir().join(format!("cm-risk-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| -> PathBuf { dir.join(n) };
    let sources = ["testsrc2", "mandelbrot", "smptehdbars"];
    let mut mezz = vec![];
    let (mut normalize_ms, mut signature_ms) = (vec![], vec![]);
    for (i, src) in sources.iter().enumerate() {
        let raw = p(&format!("raw{i}.mp4"));
        ffmpeg(&[
            "-f",
            "lavfi",
            "-i",
            &format!("{src}=size=1080x1920:rate=30,noise=alls=12:allf=t"),
            "-f",
            "lavfi",
            "-i",
            "sine=f=330",
            "-t",
            "10",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            raw.to_str().unwrap(),
        ]);
        let info = probe::probe(&raw).await.unwrap();
        let m = p(&format!("mezz{i}.mp4"));
        let t = Instant::now();
        ingest::normalize(&raw, &m, &info).await.unwrap();
        normalize_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let _ = sig::of_file(&m).await.unwrap();
        signature_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        mezz.push(m);
    }
    let clip_sigs: Vec<Signature> = {
        let mut v = vec![];
        for m in &mezz {
            v.push(sig::of_file(m).await.unwrap());
        }
        v
    };
    println!(
        "bench: risk_ingest_normalize_ms {:.0} ms",
        median(normalize_ms)
    );
    println!(
        "bench: risk_ingest_signature_ms {:.0} ms",
        median(signature_ms)
    );

    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        "aevalsrc='0.3*sin(2*PI*(262+40*mod(floor(t*3),5))*t)':s=44100:c=stereo",
        "-t",
        "32",
        p("music.m4a").to_str().unwrap(),
    ]);
    let subs = Subtitles {
        lines: (0..10)
            .map(|i| SubtitleLine {
                start_ms: i * 3000,
                end_ms: i * 3000 + 2800,
                text: format!("第{i}句字幕，今天的新品"),
            })
            .collect(),
        style: TextStyle::new(Position::Bottom, 64),
    };
    let spec = ProjectSpec {
        clips: mezz.clone(),
        music: Some(p("music.m4a")),
        music_volume: 100,
        subtitles: Some(subs.clone()),
        bed_ms: 31_000,
        ..Default::default()
    };
    let prep = mix::prepare(&spec, &p("prep"), &mix::no_progress)
        .await
        .unwrap();
    let clips: Vec<ClipSpec> = mezz.iter().map(ClipSpec::whole).collect();
    let mut copy_s = vec![];
    for i in 0..5 {
        let t = Instant::now();
        mix::render(
            &prep,
            &VariantSpec::new(clips.clone()),
            &p(&format!("copy{i}.mp4")),
            &p(&format!("copy{i}.jpg")),
            &mix::no_progress,
        )
        .await
        .unwrap();
        copy_s.push(t.elapsed().as_secs_f64());
    }
    let copy_s = median(copy_s);
    let mut burn = VariantSpec::new(clips.clone());
    burn.burn_subtitles = true;
    burn.title = Some(Title::new("春季上新", TextStyle::new(Position::Top, 84)));
    let t = Instant::now();
    mix::render(
        &prep,
        &burn,
        &p("burned.mp4"),
        &p("burned.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let burned_s = t.elapsed().as_secs_f64();

    // The bed's fingerprint: once per project (kept beside the bed), shared by its variants.
    let bed = prep.bed.as_ref().unwrap().path.clone();
    let t = Instant::now();
    let bed_fp = sig::of_sound(&bed).await.unwrap();
    let bed_ms = t.elapsed().as_secs_f64() * 1000.0;

    // One variant's measuring: assemble, then 19 siblings (the same clips in other orders).
    let text = subs
        .lines
        .iter()
        .map(|l| l.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    let assemble = |order: &[usize]| {
        let parts: Vec<Signature> = order.iter().map(|&i| clip_sigs[i].window(0, 10)).collect();
        let mut s = sig::concat(&parts);
        let mut a = bed_fp.clone();
        a.truncate((s.frames.len() as f64 * sig::AUDIO_PER_SECOND) as usize);
        s.audio = a;
        s
    };
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let siblings: Vec<Signature> = (0..19)
        .map(|i| assemble(&orders[i % orders.len()]))
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let published: Vec<Signature> = (0..1000).map(|_| synthetic(&mut rng)).collect();
    // What the render waits for (assemble, siblings both ways), then the published part it does after
    // showing the video done.
    let (mut before_done, mut all) = (vec![], vec![]);
    let mut worst = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let me = assemble(&[2, 1, 0]);
        let probe = sig::Probe::new(&me, &text, 1);
        for s in &siblings {
            worst = worst.max(probe.likeness((s, &text, 1)).score());
            worst = worst.max(sig::likeness((s, &text, 1), (&me, &text, 1)).score());
        }
        before_done.push(t.elapsed().as_secs_f64() * 1000.0);
        for s in &published {
            worst = worst.max(probe.likeness((s, "", -1)).score());
        }
        all.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let score_ms = median(all);
    assert_eq!(worst, 100, "a sibling in the same order is the same video");
    let before_done = median(before_done);
    let extra_ms = before_done + bed_ms / 20.0;
    println!("bench: risk_before_done_ms {before_done:.1} ms");
    println!("bench: risk_bed_fingerprint_ms {bed_ms:.0} ms");
    println!("bench: risk_score_ms_per_variant {score_ms:.1} ms");
    println!("bench: risk_render_copy_ms {:.0} ms", copy_s * 1000.0);
    println!("bench: risk_render_burned_ms {:.0} ms", burned_s * 1000.0);
    println!(
        "bench: risk_render_overhead_copy_pct {:.1} %",
        100.0 * extra_ms / (copy_s * 1000.0)
    );
    println!(
        "bench: risk_render_overhead_burned_pct {:.1} %",
        100.0 * extra_ms / (burned_s * 1000.0)
    );
    // A variant with varied text places has its pictures read from the rendered file (what an import
    // does too): that read comes on top of a burned render.
    let t = Instant::now();
    let _ = sig::of_file(&p("burned.mp4")).await.unwrap();
    let of_file_ms = t.elapsed().as_secs_f64() * 1000.0;
    println!("bench: risk_of_file_30s_ms {of_file_ms:.0} ms");
    println!(
        "bench: risk_render_overhead_text_vary_pct {:.1} %",
        100.0 * (extra_ms + of_file_ms) / (burned_s * 1000.0)
    );
    if std::env::var_os("BENCH_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
