//! AI voice benchmark (`make bench`): the built-in engine's real-time factor (compute seconds per second
//! of speech, default voice, a 150-character Mandarin script, model already loaded) and the time to the
//! first audio of an audition (the first sentence, through the same finishing as a task). Also the cold
//! start (loading the model and jieba). Needs `scripts/install-deps.sh` (the engine in `<data>/tts`).
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

    // The audition: the first sentence of a script, finished to 48 kHz AAC.
    let first: String = text::sentences(SCRIPT)[0].display.clone();
    let mut firsts = vec![];
    for i in 0..3 {
        let t = Instant::now();
        engine
            .synthesize(
                &request(&format!("{first}。")),
                &out.join(format!("a{i}.m4a")),
            )
            .await
            .unwrap();
        firsts.push(t.elapsed().as_millis());
    }
    firsts.sort();
    println!("bench: tts_first_audio_ms {}", firsts[1]);

    // The whole script, twice; the better run counts (the machine is shared).
    let mut best = f64::MAX;
    for i in 0..2 {
        let t = Instant::now();
        let s = engine
            .synthesize(&request(SCRIPT), &out.join(format!("s{i}.m4a")))
            .await
            .unwrap();
        let secs = t.elapsed().as_secs_f64();
        let rtf = secs / (s.duration_ms as f64 / 1000.0);
        println!(
            "  script: {} chars, {} sentences, {:.1} s of speech in {secs:.1} s (rtf {rtf:.2})",
            SCRIPT.chars().count(),
            s.lines.len(),
            s.duration_ms as f64 / 1000.0
        );
        best = best.min(rtf);
    }
    println!("bench: tts_rtf {best:.3}");
    println!(
        "  (model: Kokoro-82M v1.0 int8; CLIPMATRIX_TTS_THREADS={})",
        std::env::var("CLIPMATRIX_TTS_THREADS").unwrap_or("1".into())
    );
    std::fs::remove_dir_all(&out).ok();
}
