//! Mixing-engine benchmark (issue 5): a naive single ffmpeg pass against the engine, in the same run.
//!
//! Generates heterogeneous material (1920x1080 25 fps, 1080x1920 30 fps, 720x1280 60 fps, 10 s each, with
//! mild sensor-like noise so the encoders have real work), normalizes it once (`ingest::normalize`), then
//! for one 30 s variant (3 clips, music looped under a voice-over, 10 subtitle lines and a title):
//!   (a) the naive pass: one ffmpeg that scales, concatenates, mixes the audio and burns the text, x264
//!       veryfast CRF 20;
//!   (b) the engine: `mix::prepare` once per project, then `mix::render` with stream copy (no text) and
//!       with burned text (one re-encode).
//! Then 20 planned variants back to back, 2 in parallel (copy-only), sampling the RSS of the ffmpeg
//! process tree from /proc. Then the burned batch (issue 21): 15 more clips in 3 groups of 5 with fixed
//! 10 s slots, 20 subtitled variants as joins of pre-burned pieces (then all 125 combinations), against
//! the one-pass burn and a naive pass of the same material (time, SSIM per frame, bitrate). Last, advanced
//! mode: a 30 s variant with a transition between every two shots
//! (one composed render, text burned). Prints `bench: <name> <value> <unit>` lines.
//!
//! Run: `make bench`, or `cargo run --release -p media --example mix_bench`. BENCH_KEEP=1 keeps the work
//! folder (printed) for inspection.

use media::mix::{
    self, ClipSpec, Position, ProjectSpec, SubtitleLine, Subtitles, TextStyle, Title, VariantSpec,
};
use media::{ingest, probe};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const CLIP_S: u32 = 10;

fn ffmpeg(args: &[String]) {
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

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Peak summed RSS (bytes) of all descendants of this process, sampled every 20 ms while running.
struct RssSampler {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    handle: Option<std::thread::JoinHandle<()>>,
}

fn descendants_rss(root: u32) -> u64 {
    let mut parent = std::collections::HashMap::new();
    let mut rss = std::collections::HashMap::new();
    let page = 4096u64;
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // Fields after the command (which may hold spaces) start after the last ')'.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            let (Some(ppid), Some(pages)) = (
                f.get(1).and_then(|x| x.parse::<u32>().ok()),
                f.get(21).and_then(|x| x.parse::<u64>().ok()),
            ) else {
                continue;
            };
            parent.insert(pid, ppid);
            rss.insert(pid, pages * page);
        }
    }
    let is_desc = |mut p: u32| {
        for _ in 0..64 {
            match parent.get(&p) {
                Some(&pp) if pp == root => return true,
                Some(&pp) if pp > 1 => p = pp,
                _ => return false,
            }
        }
        false
    };
    rss.iter()
        .filter(|(p, _)| is_desc(**p))
        .map(|(_, r)| r)
        .sum()
}

impl RssSampler {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(0));
        let (s2, p2) = (stop.clone(), peak.clone());
        let me = std::process::id();
        let handle = std::thread::spawn(move || {
            while !s2.load(Ordering::Relaxed) {
                p2.fetch_max(descendants_rss(me), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        RssSampler {
            stop,
            peak,
            handle: Some(handle),
        }
    }
    fn finish(mut self) -> f64 {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        self.peak.load(Ordering::Relaxed) as f64 / 1024.0 / 1024.0
    }
}

struct Source {
    raw: PathBuf,
    info: media::MediaInfo,
    mez: PathBuf,
}

fn subtitles() -> Vec<SubtitleLine> {
    let lines = [
        "今天给大家推荐一款好物",
        "Fresh ingredients every morning",
        "现做现卖 口感一流",
        "门店就在市中心 交通方便",
        "Open from 9 am to 10 pm",
        "新客到店立享八折优惠",
        "好吃不贵 回头客超多",
        "欢迎带上朋友一起来",
        "点击左下角 领取优惠券",
        "我们下次见",
    ];
    lines
        .iter()
        .enumerate()
        .map(|(i, t)| SubtitleLine {
            start_ms: 500 + i as i64 * 2900,
            end_ms: 500 + i as i64 * 2900 + 2600,
            text: t.to_string(),
        })
        .collect()
}

/// The `All:` value of every ssim filter, in the order the filters appear in the graph (ffmpeg prints
/// them in its own order, each named `Parsed_ssim_<index>`).
fn ssim_all(stderr: &str) -> Vec<f64> {
    let mut v: Vec<(u32, f64)> = stderr
        .lines()
        .filter(|l| l.contains("Parsed_ssim_") && l.contains("All:"))
        .filter_map(|l| {
            let idx = l
                .split("Parsed_ssim_")
                .nth(1)?
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()?;
            let all = l
                .split("All:")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()?;
            Some((idx, all))
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

#[tokio::main]
async fn main() {
    let dir = std::env::temp_dir().join(format!("cm-mix-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| dir.join(n);
    let ps = |n: &str| dir.join(n).display().to_string();
    println!("bench: mix_load_average_start {}", load());
    let t_all = Instant::now();

    // Material: three shapes and rates, one generator each, mild temporal noise.
    let specs = [
        ("land.mp4", "testsrc2=size=1920x1080:rate=25", "sine=f=440"),
        ("vert.mp4", "testsrc=size=1080x1920:rate=30", "sine=f=550"),
        (
            "hfr.mp4",
            "testsrc2=size=720x1280:rate=60,hue=H=2*PI*t/5",
            "sine=f=660",
        ),
    ];
    for (name, v, a) in specs {
        let mut args = s(&["-f", "lavfi", "-i"]);
        args.push(format!("{v},noise=alls=2:allf=t"));
        args.extend(s(&["-f", "lavfi", "-i", a, "-t"]));
        args.push(CLIP_S.to_string());
        args.extend(s(&[
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-crf",
            "14",
            "-c:a",
            "aac",
        ]));
        args.push(ps(name));
        ffmpeg(&args);
    }
    // Music: a 12 s chord (looped to 30 s); voice: speech-like bursts, 28 s.
    ffmpeg(&[s(&["-f", "lavfi", "-i", "aevalsrc=0.2*sin(2*PI*262*t)+0.2*sin(2*PI*330*t)+0.2*sin(2*PI*392*t):s=44100:c=stereo", "-t", "12"]), vec![ps("music.mp3")]].concat());
    ffmpeg(
        &[
            s(&[
                "-f",
                "lavfi",
                "-i",
                "aevalsrc=0.5*sin(2*PI*180*t)*sin(2*PI*3*t)*gt(mod(t\\,2.9)\\,0.4):s=22050",
                "-t",
                "28",
            ]),
            vec![ps("voice.wav")],
        ]
        .concat(),
    );

    let t_norm = Instant::now();
    let mut sources = Vec::new();
    for (name, _, _) in specs {
        let raw = p(name);
        let info = probe::probe(&raw).await.unwrap();
        let mez = p(&format!("mez-{name}"));
        ingest::normalize(&raw, &mez, &info).await.unwrap();
        sources.push(Source { raw, info, mez });
    }
    let norm_s = t_norm.elapsed().as_secs_f64();
    println!(
        "bench: mix_normalize_seconds_per_material_second {:.2} s",
        norm_s / (3.0 * CLIP_S as f64)
    );

    // Text, the same for both pipelines.
    let sub_style = TextStyle {
        colour: "#FFFFFF".into(),
        ..TextStyle::new(Position::Bottom, 64)
    };
    let title = Title::new(
        "新品上市 限时八折",
        TextStyle {
            colour: "#FFE000".into(),
            ..TextStyle::new(Position::Top, 84)
        },
    );
    let lines = subtitles();
    let planned_ms = 3 * CLIP_S as i64 * 1000;

    // (a) Naive: one ffmpeg pass from the raw sources. Same scaling as ingest, the same ASS script the
    // engine burns (so the text pixels are identical and SSIM compares the encoding), the same audio graph.
    let fam = mix::DEFAULT_FONT_FAMILY;
    let subs = Subtitles {
        lines: lines.clone(),
        style: sub_style.clone(),
    };
    std::fs::write(
        p("naive.ass"),
        mix::burn_script(Some((&subs, fam)), Some((&title, fam))).unwrap(),
    )
    .unwrap();
    let picture = |first_input: usize| -> String {
        let mut g = String::new();
        for (i, src) in sources.iter().enumerate() {
            g.push_str(&format!(
                "[{}:v]{}[v{i}];",
                first_input + i,
                ingest::video_filter(&src.info)
            ));
        }
        g.push_str("[v0][v1][v2]concat=n=3:v=1:a=0,subtitles=naive.ass");
        g
    };
    let norm = "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000";
    let mut naive = s(&["-v", "error", "-y"]);
    for src in &sources {
        naive.push("-i".into());
        naive.push(src.raw.display().to_string());
    }
    naive.extend(s(&[
        "-stream_loop",
        "-1",
        "-i",
        "music.mp3",
        "-i",
        "voice.wav",
        "-filter_complex",
    ]));
    naive.push(format!(
        "{}[vout];[3:a]{norm},volume=0.5[m];[4:a]{norm},apad,asplit=2[v1][sc];\
[m][sc]sidechaincompress=threshold=0.02:ratio=6:attack=20:release=400[duck];\
[duck][v1]amix=inputs=2:duration=first:normalize=0,alimiter=limit=0.95:level=0,atrim=end={}[aout]",
        picture(0),
        planned_ms / 1000
    ));
    naive.extend(s(&[
        "-map",
        "[vout]",
        "-map",
        "[aout]",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        "20",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-movflags",
        "+faststart",
        "naive.mp4",
    ]));
    println!("bench: mix_load_average_naive {}", load());
    let rss = RssSampler::start();
    let t = Instant::now();
    let out = Command::new("ffmpeg")
        .args(&naive)
        .current_dir(&dir)
        .output()
        .unwrap();
    let naive_s = t.elapsed().as_secs_f64();
    let naive_rss = rss.finish();
    assert!(
        out.status.success(),
        "naive: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("bench: mix_naive_seconds {naive_s:.2} s");
    println!("bench: mix_naive_peak_rss_mb {naive_rss:.0} MB");

    // (b) The engine: project prep once, then variants.
    let spec = ProjectSpec {
        clips: sources.iter().map(|s| s.mez.clone()).collect(),
        music: Some(p("music.mp3")),
        music_volume: 100,
        voice: Some(p("voice.wav")),
        voice_volume: 100,
        subtitles: Some(subs.clone()),
        bed_ms: planned_ms + 1000,
        ..Default::default()
    };
    let t = Instant::now();
    let prep = mix::prepare(&spec, &p("prep"), &mix::no_progress)
        .await
        .unwrap();
    println!("bench: mix_prep_seconds {:.2} s", t.elapsed().as_secs_f64());
    let clips: Vec<ClipSpec> = sources.iter().map(|s| ClipSpec::whole(&s.mez)).collect();

    // Copy-only variant: median of 5.
    println!("bench: mix_load_average_copy {}", load());
    let mut copy_times = Vec::new();
    for i in 0..5 {
        let t = Instant::now();
        let r = mix::render(
            &prep,
            &VariantSpec::new(clips.clone()),
            &p(&format!("copy{i}.mp4")),
            &p(&format!("copy{i}.jpg")),
            &mix::no_progress,
        )
        .await
        .unwrap();
        copy_times.push(t.elapsed().as_secs_f64());
        assert!(!r.burned && r.audio_copied);
    }
    copy_times.sort_by(f64::total_cmp);
    let copy_s = copy_times[2];
    let got = probe::probe(&p("copy0.mp4")).await.unwrap();
    println!(
        "bench: mix_copy_duration_error_ms {}",
        (got.duration_ms - planned_ms).abs()
    );
    println!("bench: mix_copy_seconds {copy_s:.3} s");
    println!("bench: mix_copy_vs_naive {:.1} x", naive_s / copy_s);

    // Burned variant: subtitles + title, one re-encode.
    let mut burn = VariantSpec::new(clips.clone());
    burn.burn_subtitles = true;
    burn.title = Some(title.clone());
    println!("bench: mix_load_average_burned {}", load());
    let rss = RssSampler::start();
    let t = Instant::now();
    let r = mix::render(
        &prep,
        &burn,
        &p("burned.mp4"),
        &p("burned.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let burned_s = t.elapsed().as_secs_f64();
    let burned_rss = rss.finish();
    assert!(r.burned);
    println!("bench: mix_burned_seconds {burned_s:.2} s");
    println!("bench: mix_burned_vs_naive {:.2} x", naive_s / burned_s);
    println!("bench: mix_burned_peak_rss_mb {burned_rss:.0} MB");

    // Quality: SSIM of ours against the naive output, and of both against the ideal picture (the naive
    // filter graph from the raw sources, never encoded).
    let mut q = s(&["-hide_banner", "-i", "burned.mp4", "-i", "naive.mp4"]);
    for src in &sources {
        q.push("-i".into());
        q.push(src.raw.display().to_string());
    }
    q.push("-filter_complex".into());
    q.push(format!(
        "{}[ref];[ref]split=2[r1][r2];[0:v]split=2[o1][o2];[1:v]split=2[n1][n2];[o1][n1]ssim[x];[o2][r1]ssim[y];[n2][r2]ssim[z]",
        picture(2)
    ));
    q.extend(s(&[
        "-map", "[x]", "-f", "null", "-", "-map", "[y]", "-f", "null", "-", "-map", "[z]", "-f",
        "null", "-",
    ]));
    let out = Command::new("ffmpeg")
        .args(&q)
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    let v = ssim_all(&text);
    assert!(
        out.status.success() && v.len() == 3,
        "ssim: {}",
        text.lines().rev().take(8).collect::<Vec<_>>().join("\n")
    );
    let size = |f: &str| {
        std::fs::metadata(p(f))
            .map(|m| m.len() as f64 * 8.0 / (planned_ms as f64 / 1000.0) / 1e6)
            .unwrap_or(0.0)
    };
    println!("bench: mix_burned_ssim {:.4}", v[0]);
    println!("bench: mix_burned_ssim_vs_ideal {:.4}", v[1]);
    println!("bench: mix_naive_ssim_vs_ideal {:.4}", v[2]);
    println!("bench: mix_burned_bitrate {:.1} Mbit/s", size("burned.mp4"));
    println!("bench: mix_naive_bitrate {:.1} Mbit/s", size("naive.mp4"));

    // 20 planned variants back to back, 2 in parallel, copy-only.
    let groups: Vec<Vec<i64>> = vec![vec![0, 1, 2]; 3];
    let plan = domain::clip::planner::plan(&groups, &[], 20, 42).unwrap();
    println!(
        "bench: mix_plan_clip_use_max_min {} {}",
        plan.max_use, plan.min_use
    );
    let prep = Arc::new(prep);
    let specs: Vec<VariantSpec> = plan
        .variants
        .iter()
        .map(|seq| {
            VariantSpec::new(
                seq.iter()
                    .map(|&c| ClipSpec::whole(&sources[c as usize].mez))
                    .collect(),
            )
        })
        .collect();
    println!("bench: mix_load_average_variants {}", load());
    let rss = RssSampler::start();
    let t = Instant::now();
    two_at_a_time(&prep, specs, (0..20).collect(), &dir, "v", true).await;
    let all_s = t.elapsed().as_secs_f64();
    let peak = rss.finish();
    println!("bench: mix_variants_per_minute {:.0}", 20.0 / all_s * 60.0);
    println!("bench: mix_peak_rss_mb {peak:.0} MB");

    // Burned batch (issue 21): 20 subtitled 30 s variants from 3 groups of 5 clips with fixed 10 s slots,
    // as a stream-copy join of pre-burned pieces.
    burned_batch(&dir, &subs, &title, naive_s, burned_s).await;

    // Advanced mode: a 30 s variant of 6 shots (each source's first and last 5.5 s) with a 600 ms
    // transition between every two, the same text burned: one composed ffmpeg run.
    let kinds = ["fade", "slideleft", "wipeup", "dissolve", "circleopen"];
    let mut shots = Vec::new();
    for s in &sources {
        for (a, b) in [(0, 5500), (4500, 10_000)] {
            shots.push(ClipSpec {
                path: s.mez.clone(),
                in_ms: Some(a),
                out_ms: Some(b),
            });
        }
    }
    let mut adv = VariantSpec::new(shots);
    adv.transitions = kinds
        .iter()
        .map(|k| {
            Some(mix::Transition {
                kind: k.to_string(),
                ms: 600,
            })
        })
        .collect();
    adv.burn_subtitles = true;
    adv.title = Some(title.clone());
    let rss = RssSampler::start();
    let t = Instant::now();
    let r = mix::render(
        &prep,
        &adv,
        &p("transitions.mp4"),
        &p("transitions.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let adv_s = t.elapsed().as_secs_f64();
    let adv_rss = rss.finish();
    let got = probe::probe(&r.video).await.unwrap();
    assert!(r.planned_ms == 30_000 && (got.duration_ms - 30_000).abs() <= 100);
    println!("bench: mix_transitions_seconds {adv_s:.2} s");
    eprintln!("(transitions: peak RSS {adv_rss:.0} MB, load {})", load());
    println!("bench: mix_load_average_end {}", load());
    println!(
        "bench: mix_bench_wall_seconds {:.0} s",
        t_all.elapsed().as_secs_f64()
    );

    if std::env::var_os("BENCH_KEEP").is_some() {
        eprintln!("kept {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The burned batch: 15 clips of 10 s (3 groups of 5), 20 variants with subtitles and a title over fixed
/// 10 s slots, two at a time from the start (as the worker runs renders; the first variant's time is when
/// it is ready); the same first variant through the one-pass burn and through a naive pass from the raw
/// clips for the picture and the bitrate.
async fn burned_batch(
    dir: &std::path::Path,
    subs: &Subtitles,
    title: &Title,
    naive_s: f64,
    burned_s: f64,
) {
    let dir = dir.join("batch");
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| dir.join(n);
    // 15 different clips: the moving test pattern in another hue each, with the same mild noise.
    let mut sources = Vec::new();
    for i in 0..15 {
        let raw = p(&format!("raw{i}.mp4"));
        let mut a = s(&["-f", "lavfi", "-i"]);
        a.push(format!(
            "testsrc2=size=1080x1920:rate=30,hue=H={:.3}+2*PI*t/20,noise=alls=2:allf=t",
            i as f64 * 0.4
        ));
        a.extend(s(&["-f", "lavfi", "-i"]));
        a.push(format!("sine=f={}", 300 + 20 * i));
        a.extend(s(&[
            "-t",
            &CLIP_S.to_string(),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-crf",
            "14",
            "-c:a",
            "aac",
        ]));
        a.push(raw.display().to_string());
        ffmpeg(&a);
        let info = probe::probe(&raw).await.unwrap();
        let mez = p(&format!("mez{i}.mp4"));
        ingest::normalize(&raw, &mez, &info).await.unwrap();
        sources.push(Source { raw, info, mez });
    }
    let planned_ms = 3 * CLIP_S as i64 * 1000;
    let spec = |reuse: bool| ProjectSpec {
        clips: sources.iter().map(|s| s.mez.clone()).collect(),
        music: Some(dir.join("../music.mp3")),
        music_volume: 100,
        voice: Some(dir.join("../voice.wav")),
        voice_volume: 100,
        subtitles: Some(subs.clone()),
        bed_ms: planned_ms + 1000,
        reuse_burns: reuse,
        ..Default::default()
    };
    let single = mix::prepare(&spec(false), &p("prep-single"), &mix::no_progress)
        .await
        .unwrap();
    // Variant n < 25: clip n % 5 of group 1, n / 5 of group 2, (n % 5 + n / 5) % 5 of group 3 (the first
    // 20 use 14 of the 15 (slot, clip) pairs); n ≥ 25 shifts the third: all 125 combinations in all.
    let variant = |n: usize| {
        let (a, b) = (n % 5, n / 5 % 5);
        let c = (a + b + n / 25) % 5;
        let mut v = VariantSpec::new(
            [a, 5 + b, 10 + c]
                .iter()
                .map(|&i| ClipSpec::whole(&sources[i].mez))
                .collect(),
        );
        v.burn_subtitles = true;
        v.title = Some(title.clone());
        v
    };
    // The first variant in one pass (the present burned path), on the same material: the baseline.
    let t = Instant::now();
    mix::render(
        &single,
        &variant(0),
        &p("one.mp4"),
        &p("one.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let single_s = t.elapsed().as_secs_f64();
    println!("bench: mix_burned_batch_single_pass_seconds {single_s:.2} s");
    println!("bench: mix_load_average_burned_batch {}", load());
    // The batch as the worker runs it: the project's prep (with its sound bed), then two renders at a
    // time from the start, in variant order. The first variant's time is from the prep to when it is
    // ready, while the second render is burning beside it.
    let t = Instant::now();
    let prep = Arc::new(
        mix::prepare(&spec(true), &p("prep"), &mix::no_progress)
            .await
            .unwrap(),
    );
    let prep_s = t.elapsed().as_secs_f64();
    let specs: Vec<VariantSpec> = (0..125).map(variant).collect();
    let made = two_at_a_time(
        &prep,
        specs[..20].to_vec(),
        (0..20).collect(),
        &dir,
        "b",
        true,
    )
    .await;
    let all_s = t.elapsed().as_secs_f64();
    let first = made.iter().find(|m| m.n == 0).unwrap();
    let first_s = prep_s + first.at_s;
    // Its 3 pieces, burned by it or (one it shares with variant 1) by the render beside it.
    assert_eq!(
        first.rendered.pieces_burned + first.rendered.pieces_reused,
        3
    );
    let burned = made.iter().map(|m| m.rendered.pieces_burned).sum::<usize>();
    let reused = made.iter().map(|m| m.rendered.pieces_reused).sum::<usize>();
    let per = all_s / 20.0;
    println!("bench: mix_burned_first_variant_seconds {first_s:.2} s");
    println!("bench: mix_burned_batch20_seconds_per_variant {per:.2} s");
    println!(
        "bench: mix_burned_batch20_pieces_burned_reused {} {}",
        burned, reused
    );
    println!(
        "bench: mix_burned_batch20_vs_burned {:.1} x (the one-pass burn of the same material; {:.1} x the 3-clip burn above)",
        single_s / per,
        burned_s / per
    );
    println!("bench: mix_burned_batch20_vs_naive {:.1} x", naive_s / per);

    // The rest of the project's 125 combinations: every piece is there, so each is a join by copy.
    let t_rest = Instant::now();
    let more = two_at_a_time(&prep, specs.clone(), (20..125).collect(), &dir, "r", false).await;
    let all125 = all_s + t_rest.elapsed().as_secs_f64();
    println!(
        "bench: mix_burned_batch125_seconds_per_variant {:.2} s ({} pieces burned in all)",
        all125 / 125.0,
        burned + more.iter().map(|m| m.rendered.pieces_burned).sum::<usize>()
    );
    println!(
        "bench: mix_burned_batch125_vs_burned {:.1} x",
        single_s / (all125 / 125.0)
    );

    // Advanced mode on the same slots: a 600 ms transition at both joins. One composed pass, then 20
    // variants as pieces (shot middles and transitions), two at a time.
    let with_transitions = |n: usize| {
        let mut v = variant(n);
        v.transitions = ["fade", "wipeup"]
            .iter()
            .map(|k| {
                Some(mix::Transition {
                    kind: k.to_string(),
                    ms: 600,
                })
            })
            .collect();
        v
    };
    let t = Instant::now();
    mix::render(
        &single,
        &with_transitions(0),
        &p("tr-one.mp4"),
        &p("tr-one.jpg"),
        &mix::no_progress,
    )
    .await
    .unwrap();
    let composed_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let specs: Vec<VariantSpec> = (0..20).map(with_transitions).collect();
    for m in two_at_a_time(&prep, specs, (0..20).collect(), &dir, "t", false).await {
        assert_eq!(m.rendered.pieces_burned + m.rendered.pieces_reused, 5);
    }
    let tr_per = t.elapsed().as_secs_f64() / 20.0;
    println!("bench: mix_transitions_batch_single_pass_seconds {composed_s:.2} s");
    println!("bench: mix_transitions_batch20_seconds_per_variant {tr_per:.2} s");
    println!(
        "bench: mix_transitions_batch20_vs_composed {:.1} x",
        composed_s / tr_per
    );

    // And naively from the raw clips.
    let fam = mix::DEFAULT_FONT_FAMILY;
    std::fs::write(
        p("naive.ass"),
        mix::burn_script(Some((subs, fam)), Some((title, fam))).unwrap(),
    )
    .unwrap();
    let used = [&sources[0], &sources[5], &sources[10]];
    let picture = |first_input: usize| {
        let mut g = String::new();
        for (i, src) in used.iter().enumerate() {
            g.push_str(&format!(
                "[{}:v]{}[v{i}];",
                first_input + i,
                ingest::video_filter(&src.info)
            ));
        }
        g.push_str("[v0][v1][v2]concat=n=3:v=1:a=0,subtitles=naive.ass");
        g
    };
    let mut naive = s(&["-v", "error", "-y"]);
    for src in used {
        naive.push("-i".into());
        naive.push(src.raw.display().to_string());
    }
    naive.push("-filter_complex".into());
    naive.push(format!("{}[vout]", picture(0)));
    naive.extend(s(&[
        "-map",
        "[vout]",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        "20",
        "-pix_fmt",
        "yuv420p",
        "naive.mp4",
    ]));
    let out = Command::new("ffmpeg")
        .args(&naive)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "naive: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // SSIM: the pieces against the one-pass burn (mean and worst frame), and the pieces and the naive
    // pass against the ideal picture (the naive graph, never encoded).
    let stats = p("frames.log");
    let mut q = s(&[
        "-hide_banner",
        "-i",
        "b0.mp4",
        "-i",
        "one.mp4",
        "-i",
        "naive.mp4",
    ]);
    for src in used {
        q.push("-i".into());
        q.push(src.raw.display().to_string());
    }
    q.push("-filter_complex".into());
    q.push(format!(
        "{}[ref];[ref]split=2[r1][r2];[0:v]split=2[o1][o2];[o1][1:v]ssim=stats_file={}[x];[o2][r1]ssim[y];[2:v][r2]ssim[z]",
        picture(3),
        stats.display()
    ));
    q.extend(s(&[
        "-map", "[x]", "-f", "null", "-", "-map", "[y]", "-f", "null", "-", "-map", "[z]", "-f",
        "null", "-",
    ]));
    let out = Command::new("ffmpeg")
        .args(&q)
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    let v = ssim_all(&text);
    assert!(out.status.success() && v.len() == 3, "ssim: {text}");
    let frames: Vec<f64> = std::fs::read_to_string(&stats)
        .unwrap()
        .lines()
        .filter_map(|l| {
            l.split("All:")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse::<f64>()
                .ok()
        })
        .collect();
    let (worst_at, worst) = frames
        .iter()
        .copied()
        .enumerate()
        .fold((0, 1.0f64), |a, b| if b.1 < a.1 { b } else { a });
    // The frames on both sides of each join (10 s and 20 s) against the single pass.
    let joins: Vec<String> = [299, 300, 599, 600]
        .iter()
        .map(|&f| format!("{:.4}", frames.get(f).copied().unwrap_or(0.0)))
        .collect();
    println!("bench: mix_burned_batch20_ssim {:.4}", v[0]);
    println!("bench: mix_burned_batch20_ssim_worst_frame {worst:.4} at frame {worst_at}");
    println!(
        "bench: mix_burned_batch20_ssim_at_joins {}",
        joins.join(" ")
    );
    println!("bench: mix_burned_batch20_ssim_vs_ideal {:.4}", v[1]);
    println!("bench: mix_burned_batch20_naive_ssim_vs_ideal {:.4}", v[2]);
    // Bitrate of the video streams (the audio is the same 128 kbit/s everywhere).
    let video_bits = |f: &str| -> f64 {
        let out = Command::new("ffprobe")
            .args([
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "stream=bit_rate",
                "-of",
                "csv=p=0",
            ])
            .arg(p(f))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .unwrap_or(0.0)
    };
    let mut sum = 0.0;
    for n in 0..20 {
        sum += video_bits(&format!("b{n}.mp4"));
    }
    let (ours, naive_b) = (sum / 20.0, video_bits("naive.mp4"));
    println!("bench: mix_burned_batch20_bitrate {:.1} Mbit/s", ours / 1e6);
    println!(
        "bench: mix_burned_batch20_bitrate_vs_naive {:.2}",
        ours / naive_b
    );
    println!(
        "bench: mix_burned_batch_single_pass_bitrate_vs_naive {:.2}",
        video_bits("one.mp4") / naive_b
    );
}

/// One render of [`two_at_a_time`]: which variant, what it made, and when it was ready (seconds from the
/// start of the batch).
struct Made {
    n: usize,
    rendered: mix::Rendered,
    at_s: f64,
}

/// Renders `specs[n]` for every n of `order`, in that order, two at a time (as the worker runs renders)
/// into `dir/<prefix><n>.mp4`; `keep` false removes each video once made. What each render made, in the
/// order they finished.
async fn two_at_a_time(
    prep: &Arc<mix::Prepared>,
    specs: Vec<VariantSpec>,
    mut order: Vec<usize>,
    dir: &std::path::Path,
    prefix: &str,
    keep: bool,
) -> Vec<Made> {
    let start = Instant::now();
    order.reverse();
    let queue = Arc::new(std::sync::Mutex::new(order));
    let (specs, made) = (Arc::new(specs), Arc::new(std::sync::Mutex::new(Vec::new())));
    let mut workers = Vec::new();
    for _ in 0..2 {
        let (prep, queue, specs, made) = (prep.clone(), queue.clone(), specs.clone(), made.clone());
        let (dir, prefix) = (dir.to_path_buf(), prefix.to_string());
        workers.push(tokio::spawn(async move {
            loop {
                // Its turn is taken with its place in the queue, as the worker takes it with its job.
                let (n, turn) = {
                    let mut q = queue.lock().unwrap();
                    let Some(n) = q.pop() else {
                        break;
                    };
                    (n, mix::Turn::take())
                };
                let r = mix::render_in_turn(
                    &prep,
                    &specs[n],
                    &dir.join(format!("{prefix}{n}.mp4")),
                    &dir.join(format!("{prefix}{n}.jpg")),
                    &turn,
                    &mix::no_progress,
                )
                .await
                .unwrap();
                if !keep {
                    let _ = std::fs::remove_file(&r.video);
                }
                made.lock().unwrap().push(Made {
                    n,
                    rendered: r,
                    at_s: start.elapsed().as_secs_f64(),
                });
            }
        }));
    }
    for w in workers {
        w.await.unwrap();
    }
    std::mem::take(&mut *made.lock().unwrap())
}
