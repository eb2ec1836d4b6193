//! AI voice benchmark (`make bench`): the built-in engine's real-time factor (compute seconds per second
//! of speech, default voice, a 150-character Mandarin script, model already loaded), for the int8 model
//! and its fp32-weight variant (`<data>/tts-fp32`, made by `scripts/install-deps.sh bench`); the time to
//! the first audio of an audition as the console plays it (the streamed MP3's first bytes), and the
//! whole preview (the first sentence through the same finishing as a task). Also the cold start
//! (loading the model and jieba). Needs `scripts/install-deps.sh bench` (the engine in `<data>/tts`).
//!
//!   cargo run --release -p media --example tts_bench
//!
//! The 2-core machine is shared: numbers taken while other work runs are pessimistic.

use domain::ai::{self, text};
use media::tts::{Kokoro, Request, Synthesizer};
use std::path::PathBuf;
use std::time::Instant;

const SCRIPT: &str = "欢迎来到我们的店铺，今天全场商品都有优惠。新鲜的水果每天早上送到，价格实惠，品质放心。\
本店开业三周年，会员消费满199元立减30元，好评率高达99%。营业时间是每天早上9:00到晚上10:30，\
地址在人民路88号，欢迎大家到店体验，也可以在线下单，同城两小时送达。";

fn request(text: &str) -> Request {
    Request {
        sentences: text::sentences(text),
        voice: ai::VOICES[0].id.into(),
        speed: ai::speed_factor(0),
        pitch_semitones: 0.0,
        gain: ai::volume_gain(50),
        tenant: 0,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::var_os("CLIPMATRIX_TTS_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CLIPMATRIX_DATA_DIR").map(|d| root.join(d).join("tts")))
        .unwrap_or_else(|| root.join("data/tts"));
    let engine = Kokoro::from_dir(&dir).expect("the engine (scripts/install-deps.sh)");
    let out = std::env::temp_dir().join(format!("cm-tts-bench-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();

    let t = Instant::now();
    engine.warm_up().await.unwrap();
    println!("bench: tts_cold_start_ms {}", t.elapsed().as_millis());

    // The audition as the console plays it: the streamed MP3's first bytes (the first clause spoken).
    let first: String = text::sentences(SCRIPT)[0].display.clone();
    let engine = std::sync::Arc::new(engine);
    let mut firsts = vec![];
    for _ in 0..3 {
        let t = Instant::now();
        let mut rx = media::tts::stream_mp3(engine.clone(), request(&format!("{first}。")), ());
        let mut at = None;
        let mut bytes = 0;
        while let Some(chunk) = rx.recv().await {
            let chunk = chunk.unwrap();
            at.get_or_insert(t.elapsed().as_millis());
            bytes += chunk.len();
            if std::env::var_os("TTS_BENCH_TRACE").is_some() {
                eprintln!(
                    "  chunk {} bytes at {} ms",
                    chunk.len(),
                    t.elapsed().as_millis()
                );
            }
        }
        assert!(bytes > 10_000, "a sentence of MP3");
        firsts.push(at.unwrap());
    }
    firsts.sort();
    println!("bench: tts_first_audio_ms {}", firsts[1]);

    // The whole preview (nlsAudition without `stream`): the first sentence finished to 48 kHz AAC.
    let mut wholes = vec![];
    for i in 0..3 {
        let t = Instant::now();
        engine
            .synthesize(
                &request(&format!("{first}。")),
                &out.join(format!("a{i}.m4a")),
            )
            .await
            .unwrap();
        wholes.push(t.elapsed().as_millis());
    }
    wholes.sort();
    println!("bench: tts_audition_whole_ms {}", wholes[1]);

    let best = rtf(&*engine, &out, "int8").await;
    println!("bench: tts_rtf {best:.3}");
    let fp32 = dir.with_file_name(format!(
        "{}-fp32",
        dir.file_name().unwrap().to_string_lossy()
    ));
    match Kokoro::from_dir(&fp32) {
        Ok(f) => {
            f.warm_up().await.unwrap();
            let r = rtf(&f, &out, "fp32").await;
            println!("bench: tts_rtf_fp32 {r:.3}");
            println!("bench: tts_fp32_vs_int8 {:.2}", r / best);
        }
        Err(_) => println!(
            "  (no fp32 variant in {}: scripts/install-deps.sh bench makes it)",
            fp32.display()
        ),
    }
    println!(
        "  (model: Kokoro-82M v1.0; threads: CLIPMATRIX_TTS_THREADS={}, default every core up to 4)",
        std::env::var("CLIPMATRIX_TTS_THREADS").unwrap_or("unset".into())
    );
    std::fs::remove_dir_all(&out).ok();
}

/// The whole script, twice; the better run counts (the machine is shared).
async fn rtf(engine: &Kokoro, out: &std::path::Path, label: &str) -> f64 {
    let mut best = f64::MAX;
    for i in 0..2 {
        let t = Instant::now();
        let s = engine
            .synthesize(&request(SCRIPT), &out.join(format!("s{label}{i}.m4a")))
            .await
            .unwrap();
        let secs = t.elapsed().as_secs_f64();
        let rtf = secs / (s.duration_ms as f64 / 1000.0);
        println!(
            "  {label} script: {} chars, {} sentences, {:.1} s of speech in {secs:.1} s (rtf {rtf:.2})",
            SCRIPT.chars().count(),
            s.lines.len(),
            s.duration_ms as f64 / 1000.0
        );
        best = best.min(rtf);
    }
    best
}
