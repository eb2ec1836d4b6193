//! Speech recognition: the script's JSON on saved fixtures (always), the process handling with a stand-in
//! script (needs ffmpeg only), and the real engine on speech that espeak-ng makes (needs
//! `scripts/install-deps.sh`, which installs it in `<data dir>/asr`).

use media::asr::{self, AsrError, Lang, Line, Recognizer, WhisperRecognizer};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cm-asr-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn line(start_ms: i64, end_ms: i64, content: &str) -> Line {
    Line {
        start_ms,
        end_ms,
        content: content.into(),
    }
}

#[test]
fn real_output_becomes_lines_in_ms() {
    let lines = asr::parse(&fixture("asr_en")).unwrap();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], line(0, 1560, "Welcome to our store!"));
    assert_eq!(
        lines[9],
        line(
            29800,
            32200,
            "Thank you for watching, and see you next week."
        )
    );
    for w in lines.windows(2) {
        assert!(w[0].end_ms <= w[1].start_ms);
    }
}

#[test]
fn messy_output_is_trimmed_clamped_and_ordered() {
    let lines = asr::parse(&fixture("asr_messy")).unwrap();
    assert_eq!(
        lines,
        vec![
            // negative start -> 0; ends where the next line starts; inner newline -> space
            line(0, 2000, "大家好，欢迎 来到我们的店铺"),
            line(2000, 4500, "第二句"),
            // end clamped to the 5 s of audio, then to the next line's start
            line(4800, 4900, "最后"),
            // ended before it started -> zero length; blank and past-the-end lines are gone
            line(4900, 4900, "倒着的"),
        ]
    );
}

#[test]
fn duration_from_the_caller_when_the_json_has_none() {
    let json =
        br#"{"segments":[{"start":0.5,"end":9.0,"text":"a"},{"start":3.0,"end":4.0,"text":"b"}]}"#;
    assert_eq!(
        asr::parse_within(json, 2000).unwrap(),
        vec![line(500, 2000, "a")]
    );
    assert_eq!(asr::parse(json).unwrap().len(), 2);
    assert_eq!(
        asr::parse(br#"{"language":"en","duration":1.0,"segments":[]}"#).unwrap(),
        vec![]
    );
}

#[test]
fn garbage_is_bad_output_not_a_panic() {
    for bad in [
        &b"not json"[..],
        b"{}",
        b"",
        br#"{"segments":[{"start":"x"}]}"#,
    ] {
        assert!(
            matches!(asr::parse(bad), Err(AsrError::BadOutput(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn languages() {
    assert_eq!("zh".parse::<Lang>().unwrap(), Lang::Zh);
    assert_eq!("zh-CN".parse::<Lang>().unwrap(), Lang::Zh);
    assert_eq!("EN_us".parse::<Lang>().unwrap(), Lang::En);
    assert_eq!("fr".parse::<Lang>(), Err("fr".to_string()));
    assert_eq!(serde_json::to_string(&Lang::Zh).unwrap(), r#""zh""#);
}

#[test]
fn a_missing_engine_says_how_to_install_it() {
    let dir = temp_dir("none");
    let err = WhisperRecognizer::from_data_dir(&dir).unwrap_err();
    assert!(matches!(err, AsrError::NotInstalled(_)), "{err}");
    assert!(err.to_string().contains("install-deps.sh"), "{err}");
    // A venv without the model is not installed either.
    std::fs::create_dir_all(dir.join("asr/bin")).unwrap();
    std::fs::write(dir.join("asr/bin/python"), "").unwrap();
    let err = WhisperRecognizer::from_data_dir(&dir).unwrap_err();
    assert!(err.to_string().contains("no Whisper model"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn timeout_grows_with_the_media() {
    assert_eq!(asr::timeout_for(0).as_secs(), 60);
    assert_eq!(asr::timeout_for(100_000).as_secs(), 660);
    assert_eq!(asr::timeout_for(-5).as_secs(), 60);
}

fn ffmpeg(out: &Path, args: &[&str]) {
    let st = Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .arg(out)
        .status()
        .expect("ffmpeg");
    assert!(st.success());
}

/// The process side without Python: `sh` plays the interpreter and a shell script plays
/// transcribe.py, printing the saved fixture.
#[tokio::test]
async fn runs_the_script_and_maps_its_failures() {
    let dir = temp_dir("fake");
    let wav = dir.join("tone.wav");
    ffmpeg(&wav, &["-f", "lavfi", "-i", "sine=f=440:d=2"]);
    let fixture_path = format!(
        "{}/tests/fixtures/asr_messy.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let ok = dir.join("ok.sh");
    std::fs::write(&ok, format!("cat '{fixture_path}'\n")).unwrap();
    let fake = |script: &Path| {
        WhisperRecognizer::new("/bin/sh".into(), script.to_path_buf(), dir.join("model"))
    };
    let lines = fake(&ok).transcribe(&wav, Lang::Zh).await.unwrap();
    assert_eq!(lines.len(), 4);

    // A failing script: the end of its stderr is the reason.
    let bad = dir.join("bad.sh");
    std::fs::write(&bad, "echo 'transcribe: model exploded' >&2; exit 1\n").unwrap();
    let err = fake(&bad).transcribe(&wav, Lang::En).await.unwrap_err();
    assert!(
        matches!(&err, AsrError::Failed(r) if r.contains("model exploded")),
        "{err}"
    );

    // Not JSON on stdout.
    let noisy = dir.join("noisy.sh");
    std::fs::write(&noisy, "echo hello\n").unwrap();
    let err = fake(&noisy).transcribe(&wav, Lang::En).await.unwrap_err();
    assert!(matches!(err, AsrError::BadOutput(_)), "{err}");

    // A video without sound never reaches the script; neither does a file that is not media.
    let silent = dir.join("silent.mp4");
    ffmpeg(
        &silent,
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc=d=1:size=64x64",
            "-pix_fmt",
            "yuv420p",
        ],
    );
    let err = fake(&bad).transcribe(&silent, Lang::Zh).await.unwrap_err();
    assert!(matches!(err, AsrError::NoAudio), "{err}");
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    let err = fake(&bad).transcribe(&text, Lang::Zh).await.unwrap_err();
    assert!(matches!(err, AsrError::Unreadable(_)), "{err}");
    let err = fake(&bad)
        .transcribe(&dir.join("gone.wav"), Lang::Zh)
        .await
        .unwrap_err();
    assert!(matches!(err, AsrError::Unreadable(_)), "{err}");

    // No interpreter: not installed.
    let none = WhisperRecognizer::new(dir.join("nope/python"), ok.clone(), dir.join("model"));
    let err = none.transcribe(&wav, Lang::Zh).await.unwrap_err();
    assert!(matches!(err, AsrError::NotInstalled(_)), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

// ---- The real engine -------------------------------------------------------------------------------

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where `scripts/install-deps.sh` put the engine: `$CLIPMATRIX_ASR_DIR`, else
/// `$CLIPMATRIX_DATA_DIR/asr`, else `<repo>/data/asr` (relative paths are from the repo root, where
/// install-deps.sh runs).
fn asr_dir() -> PathBuf {
    let from_repo = |p: PathBuf| {
        if p.is_absolute() {
            p
        } else {
            repo_root().join(p)
        }
    };
    if let Some(d) = std::env::var_os("CLIPMATRIX_ASR_DIR").filter(|d| !d.is_empty()) {
        return from_repo(d.into());
    }
    if let Some(d) = std::env::var_os("CLIPMATRIX_DATA_DIR").filter(|d| !d.is_empty()) {
        return from_repo(PathBuf::from(d).join("asr"));
    }
    repo_root().join("data/asr")
}

/// The installed engine. In CI a missing engine fails the test; elsewhere it is skipped with the reason.
fn engine() -> Option<WhisperRecognizer> {
    let dir = asr_dir();
    match WhisperRecognizer::from_asr_dir(&dir) {
        Ok(r) => Some(r),
        Err(e) if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") => {
            panic!(
                "CI: the speech-recognition engine must be installed in {}: {e}",
                dir.display()
            )
        }
        Err(e) => {
            eprintln!("SKIPPED: {e} (set CLIPMATRIX_ASR_DIR to use another folder)");
            None
        }
    }
}

fn speak(out: &Path, voice: &str, extra: &[&str], text: &str) -> i64 {
    let st = Command::new("espeak-ng")
        .args(["-v", voice])
        .args(extra)
        .arg("-w")
        .arg(out)
        .arg(text)
        .status()
        .expect("espeak-ng (scripts/install-deps.sh installs it)");
    assert!(st.success());
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=duration",
            "-of",
            "csv=p=0",
        ])
        .arg(out)
        .output()
        .unwrap();
    let secs: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    (secs * 1000.0).round() as i64
}

fn words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

fn check_timings(lines: &[Line], audio_ms: i64) {
    // The engine measures the decoded audio; allow a few ms against ffprobe's figure.
    for l in lines {
        assert!(
            0 <= l.start_ms && l.start_ms <= l.end_ms && l.end_ms <= audio_ms + 50,
            "{l:?} is outside 0..{audio_ms} ms"
        );
    }
    for w in lines.windows(2) {
        assert!(w[0].end_ms <= w[1].start_ms, "{w:?} overlap");
    }
}

#[tokio::test]
async fn english_speech_word_for_word() {
    let Some(engine) = engine() else { return };
    let dir = temp_dir("en");
    let wav = dir.join("fox.wav");
    let sentence = "The quick brown fox jumps over the lazy dog";
    // A 50 ms gap between words: at espeak's default pace "jumps over" runs together and Whisper base
    // hears "jump over".
    let audio_ms = speak(&wav, "en", &["-g", "5"], sentence);
    let t = Instant::now();
    let lines = engine.transcribe(&wav, Lang::En).await.unwrap();
    let took = t.elapsed().as_secs_f64();
    println!(
        "asr en: {audio_ms} ms of audio in {took:.1} s = {:.2} s per audio second: {lines:?}",
        took / (audio_ms as f64 / 1000.0)
    );
    let heard: Vec<String> = lines.iter().flat_map(|l| words(&l.content)).collect();
    // At most one word off: Whisper's int8 kernels differ by CPU (on AMD EPYC "quick" is heard as "weak").
    let d = testkit::word_distance(&heard, &words(sentence));
    assert!(d <= 1, "{d} words differ: {heard:?}");
    check_timings(&lines, audio_ms);
    // The built-in script was put in place.
    assert_eq!(
        std::fs::read_to_string(&engine.script).unwrap(),
        asr::SCRIPT
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn mandarin_speech_gives_text_inside_the_audio() {
    let Some(engine) = engine() else { return };
    let dir = temp_dir("zh");
    let wav = dir.join("shop.wav");
    // 大家好，欢迎来到我们的店铺 — espeak's Mandarin is robotic; Whisper base gets it partly right.
    let audio_ms = speak(
        &wav,
        "cmn-latn-pinyin",
        &["-s", "130"],
        "da4 jia1 hao3, huan1 ying2 lai2 dao4 wo3 men5 de5 dian4 pu4.",
    );
    let t = Instant::now();
    let lines = engine.transcribe(&wav, Lang::Zh).await.unwrap();
    let took = t.elapsed().as_secs_f64();
    println!(
        "asr zh: {audio_ms} ms of audio in {took:.1} s = {:.2} s per audio second: {lines:?}",
        took / (audio_ms as f64 / 1000.0)
    );
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| !l.content.trim().is_empty()));
    check_timings(&lines, audio_ms);
    std::fs::remove_dir_all(&dir).ok();
}
