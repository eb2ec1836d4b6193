//! Speech synthesis for AI voice-overs, behind the [`Synthesizer`] trait: the built-in engine
//! ([`Kokoro`]: Kokoro-82M int8 through onnxruntime in a long-lived Python child, Mandarin G2P by
//! misaki, English by espeak-ng) or a cloud provider (implemented in `services::ai`, on top of
//! [`finish`] and [`join`]).
//!
//! Layout of the engine in the data folder, made by `scripts/tts/install.sh` (which
//! `scripts/install-deps.sh` runs for `make run` and `make test`):
//! ```text
//! <data>/tts/bin/python          the venv
//! <data>/tts/engine/model.onnx   the model; vocab.json its phoneme table; voices/*.bin the voices
//! <data>/tts/synth.py            written by this module from the copy built into the binary
//! ```
//! Every engine's sound ends the same way ([`finish`]): pitch shifted (rubberband, duration kept),
//! loudness-normalised to the mix engine's -16 LUFS, the volume applied, 48 kHz AAC; the sentence
//! spans become the subtitle lines.

use crate::asr::{BoxFuture, Line};
use crate::ffmpeg::{self, ToolError};
use crate::turns::FairTurns;
use base64::Engine as _;
use domain::ai::text::Sentence;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::{Mutex, mpsc};

/// The script the venv runs, built into the binary.
pub const SCRIPT: &str = include_str!("../../../scripts/tts/synth.py");
pub const INSTALL_HINT: &str = "run make run / scripts/install-deps.sh";

/// Loudness every voice-over is normalised to: the mix engine's target, so a TTS voice-over and an
/// uploaded one sit at the same level.
pub const TARGET_LUFS: i32 = crate::mix::TARGET_LUFS;

/// What to say, and how.
#[derive(Debug, Clone)]
pub struct Request {
    pub sentences: Vec<Sentence>,
    pub voice: String,
    /// Tempo factor (0.5..2, `domain::ai::speed_factor`).
    pub speed: f64,
    /// Pitch shift in semitones (`domain::ai::pitch_semitones`).
    pub pitch_semitones: f64,
    /// Linear gain after normalisation (`domain::ai::volume_gain`).
    pub gain: f64,
    /// Whose request it is (the merchant; 0 the server's own): the built-in engine takes requests
    /// in turns between tenants.
    pub tenant: i64,
}

/// A finished voice-over: written to the destination given, with one subtitle line per sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Speech {
    pub duration_ms: i64,
    pub lines: Vec<Line>,
}

#[derive(Debug, thiserror::Error)]
pub enum TtsError {
    #[error("speech synthesis is not installed: {0}")]
    NotInstalled(String),
    #[error("no such voice: {0}")]
    UnknownVoice(String),
    #[error("speech synthesis timed out after {0} s")]
    Timeout(u64),
    #[error("speech synthesis failed: {0}")]
    Failed(String),
    /// A cloud provider's refusal or absence, in its own words.
    #[error("{0}")]
    Provider(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<ToolError> for TtsError {
    fn from(e: ToolError) -> Self {
        match e {
            ToolError::Timeout { secs, .. } => TtsError::Timeout(secs),
            ToolError::Io(e) => TtsError::Io(e),
            other => TtsError::Failed(other.to_string()),
        }
    }
}

/// Told as a synthesis goes: (sentences done, sentences in all). A voice task's progress follows it.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Send + Sync);

/// Turns text into a voice-over file. Object-safe: held as `Arc<dyn Synthesizer>`.
pub trait Synthesizer: Send + Sync {
    /// Writes the voice-over to `dst` (an `.m4a`).
    fn synthesize<'a>(
        &'a self,
        req: &'a Request,
        dst: &'a Path,
    ) -> BoxFuture<'a, Result<Speech, TtsError>>;

    /// The same, telling `progress` after each sentence. An engine that cannot tell keeps this
    /// default (no report until it is done).
    fn synthesize_reporting<'a>(
        &'a self,
        req: &'a Request,
        dst: &'a Path,
        progress: Progress<'a>,
    ) -> BoxFuture<'a, Result<Speech, TtsError>> {
        let _ = progress;
        self.synthesize(req, dst)
    }
}

/// The running Python child: requests go in on stdin, answers come out on stdout, one JSON line each.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The built-in engine. The model stays loaded in one child process (started on first use, started
/// again after a failure); requests take turns, round-robin between tenants ([`FairTurns`]).
pub struct Kokoro {
    dir: PathBuf,
    threads: usize,
    turns: FairTurns,
    worker: Mutex<Option<Worker>>,
    /// The stall limit's own value in the unit tests (a minute is too long to wait for there).
    #[cfg(test)]
    stall: Option<Duration>,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    ok: bool,
    #[serde(default)]
    error: String,
    #[serde(default)]
    sample_rate: i64,
    #[serde(default)]
    sentences: Vec<Span>,
}

#[derive(Deserialize, Clone, Copy)]
struct Span {
    start: i64,
    end: i64,
}

/// Starting the child: loading the model and jieba's dictionary (3.5 s on a quiet 2-core machine; a
/// machine busy with renders can make that 20 times longer, and a start that times out costs the job
/// an attempt).
const START_TIMEOUT: Duration = Duration::from_secs(300);

/// How long the engine may stay silent within a request: a minute plus a second per character of
/// its longest sentence (the engine runs at about 0.2–0.7 s of compute per second of speech, a
/// character is ~0.25 s of speech). The engine answers after every sentence (and streams each
/// clause), so a long text on a busy machine is not cut short while it moves: only an engine that
/// stops talking is taken for stuck.
pub fn timeout_for(chars: usize) -> Duration {
    Duration::from_secs(60 + chars as u64)
}

/// The engine's threads unless `CLIPMATRIX_TTS_THREADS` says otherwise: every core up to four (the
/// decoder's convolutions split well: two threads take 0.50x the time of one on the 2-core machine;
/// beyond four the gain is small and a render beside it would starve).
fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 4)
}

impl Kokoro {
    /// The engine installed in `dir` (normally `<data>/tts`) by `scripts/tts/install.sh`.
    pub fn from_dir(dir: &Path) -> Result<Kokoro, TtsError> {
        let k = Kokoro::new(dir);
        k.check()?;
        Ok(k)
    }

    /// The engine expected in `dir`, not checked yet (the server starts without it; calls check).
    pub fn new(dir: &Path) -> Kokoro {
        Kokoro {
            dir: dir.to_path_buf(),
            threads: std::env::var("CLIPMATRIX_TTS_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|n| *n >= 1)
                .unwrap_or_else(default_threads),
            turns: FairTurns::default(),
            worker: Mutex::new(None),
            #[cfg(test)]
            stall: None,
        }
    }

    /// How long the engine may stay silent in a request whose longest sentence has `chars`.
    fn stall_limit(&self, chars: usize) -> Duration {
        #[cfg(test)]
        if let Some(d) = self.stall {
            return d;
        }
        timeout_for(chars)
    }

    /// Requests waiting for their turn at the engine.
    pub fn waiting(&self) -> usize {
        self.turns.waiting()
    }

    /// Is the engine there? (Also what a call checks before it takes points.)
    pub fn check(&self) -> Result<(), TtsError> {
        let need = [
            (self.dir.join("bin/python"), "no Python venv"),
            (self.dir.join("engine/model.onnx"), "no Kokoro model"),
            (self.dir.join("engine/vocab.json"), "no phoneme table"),
            (self.dir.join("engine/voices"), "no voices"),
        ];
        for (path, what) in need {
            if !path.exists() {
                return Err(TtsError::NotInstalled(format!(
                    "{what} in {} ({INSTALL_HINT})",
                    self.dir.display()
                )));
            }
        }
        Ok(())
    }

    /// Is this voice installed?
    pub fn has_voice(&self, voice: &str) -> bool {
        voice.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && self
                .dir
                .join("engine/voices")
                .join(format!("{voice}.bin"))
                .is_file()
    }

    async fn install_script(&self) -> Result<PathBuf, TtsError> {
        let script = self.dir.join("synth.py");
        if tokio::fs::read(&script).await.ok().as_deref() == Some(SCRIPT.as_bytes()) {
            return Ok(script);
        }
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let tmp = script.with_extension(format!("py.{}-{n}.tmp", std::process::id()));
        tokio::fs::write(&tmp, SCRIPT).await?;
        tokio::fs::rename(&tmp, &script).await?;
        Ok(script)
    }

    async fn start(&self) -> Result<Worker, TtsError> {
        self.check()?;
        let script = self.install_script().await?;
        let python = self.dir.join("bin/python");
        let mut cmd = ffmpeg::command(&python.display().to_string());
        cmd.arg(&script)
            .arg("--engine")
            .arg(self.dir.join("engine"))
            .arg("--threads")
            .arg(self.threads.to_string())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().map_err(|e| {
            TtsError::NotInstalled(format!("{}: {e} ({INSTALL_HINT})", python.display()))
        })?;
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        match tokio::time::timeout(START_TIMEOUT, stdout.read_line(&mut line)).await {
            Err(_) => return Err(TtsError::Timeout(START_TIMEOUT.as_secs())),
            Ok(Err(e)) => return Err(e.into()),
            Ok(Ok(0)) => {
                let status = child.wait().await.ok();
                return Err(TtsError::Failed(format!(
                    "the engine did not start ({status:?}); check {}",
                    self.dir.display()
                )));
            }
            Ok(Ok(_)) if line.contains("\"ready\"") => {}
            Ok(Ok(_)) => return Err(TtsError::Failed(format!("unexpected: {}", line.trim()))),
        }
        tracing::info!(dir = %self.dir.display(), "speech synthesis engine started");
        Ok(Worker {
            child,
            stdin,
            stdout,
        })
    }

    /// Starts the engine now (the server does it in the background, so the first audition is fast).
    pub async fn warm_up(&self) -> Result<(), TtsError> {
        let mut w = self.worker.lock().await;
        if w.is_none() {
            *w = Some(self.start().await?);
        }
        Ok(())
    }

    /// Raw speech: a 24 kHz WAV at `wav` and each sentence's span in ms; `progress` is told after
    /// each sentence.
    async fn speak(
        &self,
        req: &Request,
        wav: &Path,
        progress: Progress<'_>,
    ) -> Result<Vec<(i64, i64)>, TtsError> {
        self.ask(req, Some(wav), None, progress).await
    }

    /// Raw speech for an audition, clause by clause: each clause's 24 kHz mono s16le PCM goes to
    /// `tx` as soon as the engine has made it. A listener who goes away does not cut the request
    /// short: the engine's remaining lines are still read, so the next request starts in step.
    pub async fn speak_stream(
        &self,
        req: &Request,
        tx: mpsc::Sender<Vec<u8>>,
    ) -> Result<Vec<(i64, i64)>, TtsError> {
        self.ask(req, None, Some(tx), &|_, _| {}).await
    }

    /// One request to the child: to a WAV file, or streamed (`tx`).
    async fn ask(
        &self,
        req: &Request,
        wav: Option<&Path>,
        tx: Option<mpsc::Sender<Vec<u8>>>,
        progress: Progress<'_>,
    ) -> Result<Vec<(i64, i64)>, TtsError> {
        if !self.has_voice(&req.voice) {
            return Err(TtsError::UnknownVoice(req.voice.clone()));
        }
        let body = serde_json::json!({
            "out": wav.map(|w| w.display().to_string()),
            "stream": tx.is_some(),
            "voice": req.voice,
            "speed": req.speed.clamp(0.5, 2.0),
            "sentences": req.sentences.iter().map(|s| &s.parts).collect::<Vec<_>>(),
        });
        let longest = req
            .sentences
            .iter()
            .map(|s| s.display.chars().count())
            .max()
            .unwrap_or(0);
        let limit = self.stall_limit(longest);
        let turn = self.turns.enter(req.tenant).await;
        let mut slot = self.worker.lock().await;
        if slot.is_none() {
            *slot = Some(self.start().await?);
        }
        let w = slot.as_mut().expect("started");
        let exchange = async {
            w.stdin.write_all(format!("{body}\n").as_bytes()).await?;
            w.stdin.flush().await?;
            loop {
                let mut line = String::new();
                let n = tokio::time::timeout(limit, w.stdout.read_line(&mut line))
                    .await
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
                if n == 0 {
                    return Ok::<_, std::io::Error>(None);
                }
                // A streamed clause: {"pcm": base64}; a sentence done: {"done", "of"}; anything
                // else is the answer.
                if let Ok(step) = serde_json::from_str::<Step>(&line) {
                    progress(step.done, step.of);
                    continue;
                }
                match serde_json::from_str::<Clause>(&line) {
                    Ok(c) => {
                        if let Some(tx) = &tx {
                            if let Ok(pcm) = base64::engine::general_purpose::STANDARD.decode(c.pcm)
                            {
                                let _ = tx.send(pcm).await;
                            }
                        }
                    }
                    Err(_) => return Ok(Some(line)),
                }
            }
        };
        let answer = match exchange.await {
            Ok(Some(line)) => line,
            outcome => {
                // A stuck or dead child is replaced on the next request.
                if let Some(mut w) = slot.take() {
                    let _ = w.child.kill().await;
                }
                return Err(match outcome {
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                        TtsError::Timeout(limit.as_secs())
                    }
                    Err(e) => e.into(),
                    Ok(_) => TtsError::Failed("the engine stopped".into()),
                });
            }
        };
        drop(slot);
        drop(turn);
        let a: Answer = serde_json::from_str(&answer)
            .map_err(|e| TtsError::Failed(format!("unreadable answer: {e}")))?;
        if !a.ok {
            return Err(TtsError::Failed(a.error));
        }
        let rate = a.sample_rate.max(1);
        Ok(a.sentences
            .iter()
            .map(|s| (s.start * 1000 / rate, s.end * 1000 / rate))
            .collect())
    }
}

#[derive(Deserialize)]
struct Clause {
    pcm: String,
}

/// The engine finished a sentence of a voice-over.
#[derive(Deserialize)]
struct Step {
    done: usize,
    of: usize,
}

/// The sample rate of the engine's raw speech (and of a streamed audition's PCM).
pub const RAW_RATE: u32 = 24_000;

/// An audition as an MP3 stream: the engine's clauses go through ffmpeg (pitch, volume, 48 kHz) as
/// they are made, so the first words play after one clause's compute. No loudnorm here: it needs 3 s
/// of lookahead, and Kokoro speaks at -16.5 ± 0.5 LUFS, within a dB of the mix's -16 target, so the
/// stream applies the volume alone (a task's file is normalised by [`finish`] as always).
/// The receiver yields MP3 bytes; an `Err` ends the stream. `hold` is kept until the engine and
/// ffmpeg have finished, also when the listener went away before (the caller's in-flight mark).
pub fn stream_mp3(
    engine: std::sync::Arc<Kokoro>,
    req: Request,
    hold: impl Send + 'static,
) -> mpsc::Receiver<Result<Vec<u8>, TtsError>> {
    let (out_tx, out_rx) = mpsc::channel(16);
    tokio::spawn(async move {
        let _hold = hold;
        let mut f: Vec<String> = pitch(&req).into_iter().collect();
        f.push(format!("volume={:.3},aresample=48000", req.gain.max(0.0)));
        let rate = RAW_RATE.to_string();
        let mut cmd = ffmpeg::command("ffmpeg");
        cmd.args([
            "-v",
            "error",
            // Raw PCM needs no probing; probing would wait for seconds of input.
            "-probesize",
            "32",
            "-analyzeduration",
            "0",
            "-f",
            "s16le",
            "-ar",
            &rate,
            "-ac",
            "1",
            "-i",
            "pipe:0",
            "-af",
            &f.join(","),
            "-c:a",
            "libmp3lame",
            "-b:a",
            "128k",
            "-ar",
            "48000",
            "-flush_packets",
            "1",
            "-f",
            "mp3",
            "pipe:1",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                let _ = out_tx.send(Err(TtsError::Io(e))).await;
                return;
            }
        };
        let mut stdin = child.stdin.take().expect("piped");
        let mut stdout = child.stdout.take().expect("piped");
        let (pcm_tx, mut pcm_rx) = mpsc::channel::<Vec<u8>>(64);
        let feed = async {
            let speak = engine.speak_stream(&req, pcm_tx);
            let pump = async {
                while let Some(pcm) = pcm_rx.recv().await {
                    if stdin.write_all(&pcm).await.is_err() {
                        break;
                    }
                    let _ = stdin.flush().await;
                }
            };
            let (spoken, ()) = tokio::join!(speak, pump);
            drop(stdin); // ffmpeg ends the file
            spoken
        };
        let relay = async {
            use tokio::io::AsyncReadExt;
            let mut buf = vec![0u8; 16 * 1024];
            // When the listener has gone, ffmpeg's output is still read (and dropped), so ffmpeg
            // and the engine finish the request instead of blocking on a full pipe.
            let mut listening = true;
            loop {
                match stdout.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) if listening => {
                        listening = out_tx.send(Ok(buf[..n].to_vec())).await.is_ok();
                    }
                    Ok(_) => {}
                }
            }
        };
        let (spoken, ()) = tokio::join!(feed, relay);
        let _ = child.wait().await;
        if let Err(e) = spoken {
            let _ = out_tx.send(Err(e)).await;
        }
    });
    out_rx
}

impl Synthesizer for Kokoro {
    fn synthesize<'a>(
        &'a self,
        req: &'a Request,
        dst: &'a Path,
    ) -> BoxFuture<'a, Result<Speech, TtsError>> {
        self.synthesize_reporting(req, dst, &|_, _| {})
    }

    fn synthesize_reporting<'a>(
        &'a self,
        req: &'a Request,
        dst: &'a Path,
        progress: Progress<'a>,
    ) -> BoxFuture<'a, Result<Speech, TtsError>> {
        Box::pin(async move {
            let wav = dst.with_extension("raw.wav");
            let result = async {
                let spans = self.speak(req, &wav, progress).await?;
                finish(&wav, &spans, req, dst).await
            }
            .await;
            let _ = tokio::fs::remove_file(&wav).await;
            result
        })
    }
}

/// The pitch shift (rubberband keeps the duration), when the request asks for one.
fn pitch(req: &Request) -> Option<String> {
    (req.pitch_semitones.abs() > 0.01).then(|| {
        format!(
            "rubberband=pitch={:.5}",
            2f64.powf(req.pitch_semitones / 12.0)
        )
    })
}

/// ffmpeg's filter chain for a voice-over: pitch, loudness, volume, 48 kHz.
pub fn filters(req: &Request) -> String {
    let mut f: Vec<String> = pitch(req).into_iter().collect();
    f.push(format!(
        "aresample=48000,loudnorm=I={TARGET_LUFS}:TP=-1.5:LRA=11,volume={:.3}",
        req.gain.max(0.0)
    ));
    f.push("aresample=48000".into());
    f.join(",")
}

/// The common end of every engine: `raw` (any audio ffmpeg reads) with the sentence spans (ms) becomes
/// a 48 kHz mono AAC file at `dst` and its subtitle lines (each sentence's shown text).
pub async fn finish(
    raw: &Path,
    spans: &[(i64, i64)],
    req: &Request,
    dst: &Path,
) -> Result<Speech, TtsError> {
    let tmp = dst.with_extension("part.m4a");
    let args = ffmpeg::args([
        "-v".to_string(),
        "error".into(),
        "-y".into(),
        "-i".into(),
        raw.display().to_string(),
        "-af".into(),
        filters(req),
        "-ac".into(),
        "1".into(),
        "-c:a".into(),
        "aac".into(),
        "-b:a".into(),
        "128k".into(),
        "-ar".into(),
        "48000".into(),
        "-movflags".into(),
        "+faststart".into(),
        tmp.display().to_string(),
    ]);
    ffmpeg::run("ffmpeg", &args, Duration::from_secs(300)).await?;
    tokio::fs::rename(&tmp, dst).await?;
    let info = crate::probe::probe(dst)
        .await
        .map_err(|e| TtsError::Failed(e.to_string()))?;
    let lines = req
        .sentences
        .iter()
        .zip(spans)
        .map(|(s, &(start, end))| Line {
            start_ms: start.min(info.duration_ms),
            end_ms: end.min(info.duration_ms).max(start.min(info.duration_ms)),
            content: s.display.clone(),
        })
        .collect();
    Ok(Speech {
        duration_ms: info.duration_ms,
        lines,
    })
}

/// Joins one audio file per sentence (a cloud provider's answers) into one 24 kHz WAV at `dst` with
/// `gap_ms` of silence between them; answers each sentence's span in ms.
pub async fn join(parts: &[PathBuf], gap_ms: i64, dst: &Path) -> Result<Vec<(i64, i64)>, TtsError> {
    let mut spans = Vec::new();
    let mut args = ffmpeg::args(["-v", "error", "-y"]);
    let mut graph = String::new();
    let mut at = 0;
    for (i, p) in parts.iter().enumerate() {
        let info = crate::probe::probe(p)
            .await
            .map_err(|e| TtsError::Provider(format!("unreadable audio from the provider: {e}")))?;
        if i > 0 {
            at += gap_ms;
        }
        spans.push((at, at + info.duration_ms));
        at += info.duration_ms;
        args.extend(ffmpeg::args(["-i".to_string(), p.display().to_string()]));
        let pad = if i + 1 < parts.len() {
            format!(",apad=pad_dur={:.3}", gap_ms as f64 / 1000.0)
        } else {
            String::new()
        };
        graph.push_str(&format!(
            "[{i}:a]aresample=24000,aformat=sample_fmts=s16:channel_layouts=mono{pad}[a{i}];"
        ));
    }
    for i in 0..parts.len() {
        graph.push_str(&format!("[a{i}]"));
    }
    graph.push_str(&format!("concat=n={}:v=0:a=1[out]", parts.len()));
    args.extend(ffmpeg::args([
        "-filter_complex".to_string(),
        graph,
        "-map".into(),
        "[out]".into(),
        dst.display().to_string(),
    ]));
    ffmpeg::run("ffmpeg", &args, Duration::from_secs(300)).await?;
    Ok(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(pitch: f64, gain: f64) -> Request {
        Request {
            sentences: vec![],
            voice: "zf_xiaoxiao".into(),
            speed: 1.0,
            pitch_semitones: pitch,
            gain,
            tenant: 0,
        }
    }

    #[test]
    fn filters_shift_pitch_only_when_asked() {
        let plain = filters(&req(0.0, 1.0));
        assert!(!plain.contains("rubberband"));
        assert!(plain.contains("loudnorm=I=-16"));
        assert!(plain.contains("volume=1.000"));
        let up = filters(&req(12.0, 2.0));
        assert!(up.starts_with("rubberband=pitch=2.00000"), "{up}");
        assert!(up.contains("volume=2.000"));
    }

    /// An engine stand-in: answers each request once `go` exists, and logs what it was asked.
    fn fake_engine(dir: &Path) {
        fake_engine_saying(
            dir,
            "while [ ! -f go ]; do sleep 0.02; done\n  echo \"$line\" >> asked.log\n  \
             echo '{\"ok\":true,\"sample_rate\":24000,\"sentences\":[]}'",
        );
    }

    /// An engine stand-in that runs `answer` (shell, `$line` is the request) for each request.
    fn fake_engine_saying(dir: &Path, answer: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::create_dir_all(dir.join("engine/voices")).unwrap();
        for f in [
            "engine/model.onnx",
            "engine/vocab.json",
            "engine/voices/aaa.bin",
            "engine/voices/bbb.bin",
        ] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let py = dir.join("bin/python");
        std::fs::write(
            &py,
            format!(
                "#!/bin/sh\ncd '{}'\necho '{{\"ready\":true}}'\nwhile IFS= read -r line; do\n  \
                 {answer}\ndone\n",
                dir.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&py, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// One merchant's dozen auditions do not make another's one wait for all of them: the engine
    /// serves tenants in turn, not in arrival order.
    #[tokio::test]
    async fn the_engine_serves_merchants_in_turn() {
        let dir = std::env::temp_dir().join(format!("cm-tts-turns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        fake_engine(&dir);
        let engine = std::sync::Arc::new(Kokoro::new(&dir));
        let ask = |voice: &str, tenant: i64| {
            let (engine, mut r) = (engine.clone(), req(0.0, 1.0));
            r.voice = voice.into();
            r.tenant = tenant;
            tokio::spawn(async move {
                let (tx, _rx) = mpsc::channel(4);
                engine.speak_stream(&r, tx).await.map(|_| ())
            })
        };
        let mut asked = vec![ask("aaa", 1)];
        // The first is with the engine (blocked on `go`); eleven more of merchant 1, then merchant 2's.
        for i in 0..12 {
            let (voice, tenant) = if i < 11 { ("aaa", 1) } else { ("bbb", 2) };
            let before = engine.waiting();
            asked.push(ask(voice, tenant));
            let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
            while engine.waiting() <= before {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "request {i} never queued"
                );
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        std::fs::write(dir.join("go"), b"").unwrap();
        for a in asked {
            a.await.unwrap().unwrap();
        }
        let log = std::fs::read_to_string(dir.join("asked.log")).unwrap();
        let voices: Vec<bool> = log.lines().map(|l| l.contains("\"bbb\"")).collect();
        assert_eq!(voices.len(), 13);
        assert_eq!(voices.iter().position(|b| *b), Some(1), "{log}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A voice-over's progress is told sentence by sentence as the engine says it finished each
    /// one, before its answer: a task's bar moves while a long script is spoken.
    #[tokio::test]
    async fn each_sentence_done_is_reported() {
        let dir = std::env::temp_dir().join(format!("cm-tts-steps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        fake_engine_saying(
            &dir,
            "echo '{\"done\":1,\"of\":2}'\n  echo '{\"done\":2,\"of\":2}'\n  \
             echo '{\"ok\":true,\"sample_rate\":24000,\"sentences\":[{\"start\":0,\"end\":24000},{\"start\":24000,\"end\":48000}]}'",
        );
        let engine = Kokoro::new(&dir);
        let mut r = req(0.0, 1.0);
        r.voice = "aaa".into();
        let seen = std::sync::Mutex::new(vec![]);
        let spans = engine
            .speak(&r, &dir.join("x.wav"), &|done, of| {
                seen.lock().unwrap().push((done, of))
            })
            .await
            .unwrap();
        assert_eq!(spans, vec![(0, 1000), (1000, 2000)]);
        assert_eq!(*seen.lock().unwrap(), vec![(1, 2), (2, 2)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A long voice-over on a busy machine is not cut short while the engine reports sentence
    /// after sentence (here 4 x 0.3 s against a 0.5-s stall limit); an engine that falls silent
    /// is taken for stuck, killed, and the next request starts a fresh one.
    #[tokio::test]
    async fn only_a_silent_engine_times_out() {
        let dir = std::env::temp_dir().join(format!("cm-tts-stall-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        fake_engine_saying(
            &dir,
            "case \"$line\" in *silent*) sleep 30 ;; esac\n  \
             for i in 1 2 3 4; do sleep 0.3; echo \"{\\\"done\\\":$i,\\\"of\\\":4}\"; done\n  \
             echo '{\"ok\":true,\"sample_rate\":24000,\"sentences\":[]}'",
        );
        let mut engine = Kokoro::new(&dir);
        engine.stall = Some(Duration::from_millis(500));
        let mut r = req(0.0, 1.0);
        r.voice = "aaa".into();
        let seen = std::sync::Mutex::new(0);
        let wav = dir.join("x.wav");
        let count = |_: usize, _: usize| *seen.lock().unwrap() += 1;
        engine.speak(&r, &wav, &count).await.unwrap();
        assert_eq!(*seen.lock().unwrap(), 4);

        r.sentences = domain::ai::text::sentences("silent");
        let silent = engine.speak(&r, &wav, &count).await;
        assert!(matches!(silent, Err(TtsError::Timeout(0))), "{silent:?}");
        r.sentences = vec![];
        engine.speak(&r, &wav, &count).await.unwrap();
        assert_eq!(*seen.lock().unwrap(), 8);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn timeouts_grow_with_the_text() {
        assert!(timeout_for(300) > timeout_for(10));
    }
}
