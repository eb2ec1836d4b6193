//! Speech recognition for subtitles: faster-whisper (Whisper base, CPU, int8) in a Python child process,
//! behind the [`Recognizer`] trait so the job that uses it can be tested with a stand-in.
//!
//! Layout of the engine in the data folder, made by `scripts/asr/install.sh` (which
//! `scripts/install-deps.sh` runs for `make run` and `make test`):
//! ```text
//! <data>/asr/bin/python      the venv
//! <data>/asr/model/          model.bin, config.json, tokenizer.json, vocabulary.txt
//! <data>/asr/transcribe.py   written by this module from the copy built into the binary
//! ```
//! The script prints one JSON document; [`parse`] reads it (tested on saved fixtures) into [`Line`]s with
//! sane timings. Parsing is separate from running, like `probe`.

use crate::ffmpeg::{self, ToolError};
use crate::probe::{self, ProbeError};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The script the venv runs, built into the binary: a release binary must not depend on the source tree.
pub const SCRIPT: &str = include_str!("../../../scripts/asr/transcribe.py");

/// What to tell a person when the engine is not there.
pub const INSTALL_HINT: &str = "run make run / scripts/install-deps.sh";

/// Spoken language (shared with speech synthesis). Whisper's auto-detection misfires on short clips,
/// so it is always given.
pub use domain::ai::Lang;

/// One subtitle line, in milliseconds from the start of the media.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub start_ms: i64,
    pub end_ms: i64,
    pub content: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AsrError {
    #[error("speech recognition is not installed: {0}")]
    NotInstalled(String),
    #[error("the file has no audio track")]
    NoAudio,
    #[error("not a media file that can be read: {0}")]
    Unreadable(String),
    #[error("speech recognition timed out after {0} s")]
    Timeout(u64),
    #[error("speech recognition failed: {0}")]
    Failed(String),
    #[error("speech recognition gave unreadable output: {0}")]
    BadOutput(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Turns speech in an audio or video file into subtitle lines. Object-safe: hold it as
/// `Arc<dyn Recognizer>` and give tests a stand-in.
pub trait Recognizer: Send + Sync {
    fn transcribe<'a>(
        &'a self,
        path: &'a Path,
        lang: Lang,
    ) -> BoxFuture<'a, Result<Vec<Line>, AsrError>>;
}

/// faster-whisper through `python transcribe.py FILE --lang L --model DIR`.
#[derive(Debug, Clone)]
pub struct WhisperRecognizer {
    pub python: PathBuf,
    pub script: PathBuf,
    pub model_dir: PathBuf,
    /// Write [`SCRIPT`] to `script` before running it (set by the constructors that own the folder).
    write_script: bool,
}

/// The model keeps both cores busy: one recognition at a time per process, the others wait their turn
/// (outside their timeout).
static ONE_AT_A_TIME: Semaphore = Semaphore::const_new(1);

impl WhisperRecognizer {
    /// Runs `script` as it is, with the given interpreter and model.
    pub fn new(python: PathBuf, script: PathBuf, model_dir: PathBuf) -> WhisperRecognizer {
        WhisperRecognizer {
            python,
            script,
            model_dir,
            write_script: false,
        }
    }

    /// The engine installed in `<data_dir>/asr` by `scripts/install-deps.sh`.
    pub fn from_data_dir(data_dir: &Path) -> Result<WhisperRecognizer, AsrError> {
        WhisperRecognizer::from_asr_dir(&data_dir.join("asr"))
    }

    /// The engine installed in `dir` by `scripts/asr/install.sh <dir>`; the script is written to
    /// `<dir>/transcribe.py` on first use.
    pub fn from_asr_dir(dir: &Path) -> Result<WhisperRecognizer, AsrError> {
        let python = dir.join("bin").join("python");
        let model_dir = dir.join("model");
        if !python.is_file() {
            return Err(AsrError::NotInstalled(format!(
                "no Python venv in {} ({INSTALL_HINT})",
                dir.display()
            )));
        }
        if !model_dir.join("model.bin").is_file() {
            return Err(AsrError::NotInstalled(format!(
                "no Whisper model in {} ({INSTALL_HINT})",
                model_dir.display()
            )));
        }
        Ok(WhisperRecognizer {
            python,
            script: dir.join("transcribe.py"),
            model_dir,
            write_script: true,
        })
    }

    /// Puts the built-in script in place when it is missing or differs (after an upgrade). Written to a
    /// temporary file and renamed, so a concurrent reader never sees half a script.
    async fn install_script(&self) -> Result<(), AsrError> {
        if tokio::fs::read(&self.script).await.ok().as_deref() == Some(SCRIPT.as_bytes()) {
            return Ok(());
        }
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .script
            .with_extension(format!("py.{}-{n}.tmp", std::process::id()));
        tokio::fs::write(&tmp, SCRIPT).await?;
        tokio::fs::rename(&tmp, &self.script).await?;
        Ok(())
    }

    async fn run(&self, path: &Path, lang: Lang) -> Result<Vec<Line>, AsrError> {
        if !tokio::fs::try_exists(path).await.unwrap_or(false) {
            return Err(AsrError::Unreadable(format!(
                "no such file: {}",
                path.display()
            )));
        }
        // The length sets the time limit, and a file without sound needs no model.
        let info = probe::probe(path).await.map_err(|e| match e {
            ProbeError::Unreadable(r) => AsrError::Unreadable(r),
            ProbeError::Tool(t) => AsrError::Failed(t.to_string()),
        })?;
        if !info.has_audio {
            return Err(AsrError::NoAudio);
        }
        if self.write_script {
            self.install_script().await?;
        }
        let limit = timeout_for(info.duration_ms);
        let args = vec![
            self.script.display().to_string(),
            path.display().to_string(),
            "--lang".into(),
            lang.as_str().into(),
            "--model".into(),
            self.model_dir.display().to_string(),
        ];
        let python = self.python.display().to_string();
        let _turn = ONE_AT_A_TIME.acquire().await.expect("never closed");
        let started = Instant::now();
        let out = ffmpeg::run(&python, &args, limit)
            .await
            .map_err(|e| match e {
                ToolError::Missing { tool } => {
                    AsrError::NotInstalled(format!("{tool} is missing ({INSTALL_HINT})"))
                }
                ToolError::Timeout { secs, .. } => AsrError::Timeout(secs),
                ToolError::Failed { reason, .. } if reason.contains("no audio track") => {
                    AsrError::NoAudio
                }
                ToolError::Failed { reason, .. } => AsrError::Failed(reason),
                ToolError::Io(e) => AsrError::Io(e),
            })?;
        let lines = parse_within(&out, info.duration_ms)?;
        tracing::info!(
            file = %path.display(),
            lang = lang.as_str(),
            audio_ms = info.duration_ms,
            took_ms = started.elapsed().as_millis() as u64,
            lines = lines.len(),
            "speech recognized"
        );
        Ok(lines)
    }
}

impl Recognizer for WhisperRecognizer {
    fn transcribe<'a>(
        &'a self,
        path: &'a Path,
        lang: Lang,
    ) -> BoxFuture<'a, Result<Vec<Line>, AsrError>> {
        Box::pin(self.run(path, lang))
    }
}

/// 60 s to start and load the model, plus 6x the media's length (about 0.15x on clear speech, up to
/// ~5x on a short clip of noise, where Whisper retries each window at higher temperatures).
pub fn timeout_for(duration_ms: i64) -> Duration {
    Duration::from_millis(60_000 + 6 * duration_ms.max(0) as u64)
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    duration: Option<f64>,
    segments: Vec<RawSegment>,
}

#[derive(Deserialize)]
struct RawSegment {
    start: f64,
    end: f64,
    text: String,
}

/// Reads the script's JSON into lines: empty text dropped, text trimmed, times in ms, never negative,
/// never past the audio's end, each line ending no earlier than it starts and no later than the next
/// one starts, in order of start.
pub fn parse(json: &[u8]) -> Result<Vec<Line>, AsrError> {
    parse_within(json, 0)
}

/// [`parse`], also clamping to `duration_ms` (when the JSON gives no duration; 0 = unknown).
pub fn parse_within(json: &[u8], duration_ms: i64) -> Result<Vec<Line>, AsrError> {
    let raw: Raw = serde_json::from_slice(json).map_err(|e| AsrError::BadOutput(e.to_string()))?;
    let ms = |s: f64| {
        if s.is_finite() {
            (s * 1000.0).round() as i64
        } else {
            0
        }
    };
    let total = raw
        .duration
        .map(ms)
        .filter(|d| *d > 0)
        .unwrap_or(duration_ms)
        .max(0);
    let mut lines: Vec<Line> = raw
        .segments
        .into_iter()
        .filter_map(|s| {
            let content = s.text.split_whitespace().collect::<Vec<_>>().join(" ");
            if content.is_empty() {
                return None;
            }
            let mut start = ms(s.start).max(0);
            let mut end = ms(s.end).max(start);
            if total > 0 {
                if start >= total {
                    return None; // stamped past the end of the audio: a decoder loop, not speech
                }
                start = start.min(total);
                end = end.min(total);
            }
            Some(Line {
                start_ms: start,
                end_ms: end,
                content,
            })
        })
        .collect();
    lines.sort_by_key(|l| l.start_ms);
    for i in 1..lines.len() {
        let next_start = lines[i].start_ms;
        let prev = &mut lines[i - 1];
        prev.end_ms = prev.end_ms.min(next_start).max(prev.start_ms);
    }
    Ok(lines)
}
