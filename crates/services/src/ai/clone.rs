//! Cloud voices: voice cloning through a Doubao-style provider (`/doubao.db_audio/upload`,
//! `cloning`) and speaking with a ready clone, and the Aliyun NLS synthesizer that replaces the
//! built-in engine when configured. Both speak sentence by sentence; the sentences are joined and
//! finished (pitch, loudness, volume, 48 kHz AAC, subtitle lines) by `media::tts` like the built-in
//! engine's. No provider configured -> a clear error; nothing pretends to be a clone.

use crate::error::{ApiError, ApiResult};
use domain::ai::CloneState;
use domain::i18n::Msg;
use media::asr::BoxFuture;
use media::tts::{Progress, Request, Speech, Synthesizer, TtsError};
use platforms::voice::{Doubao, Training};
use std::path::{Path, PathBuf};
use store::Db;
use store::ai as st;

const PREFIX: &str = "clone:";

/// The voice id a ready clone has in the voice list.
pub fn voice_id(speaker_id: &str) -> String {
    format!("{PREFIX}{speaker_id}")
}

/// The provider's speaker id of a clone's voice id.
pub fn speaker_of(voice: &str) -> Option<&str> {
    voice.strip_prefix(PREFIX).filter(|s| !s.is_empty())
}

/// Pause between sentences spoken separately by a provider.
const GAP_MS: i64 = 300;

/// The tempo factor back on NLS's -500..500 scale (the inverse of `domain::ai::speed_factor`).
fn nls_rate(factor: f64) -> i64 {
    let r = if factor >= 1.0 {
        1000.0 * (1.0 - 1.0 / factor)
    } else {
        1000.0 * (factor - 1.0)
    };
    r.round().clamp(-500.0, 500.0) as i64
}

/// Speaks each sentence with `speak`, joins them and finishes the file like every engine.
async fn by_sentence<'a, F, Fut>(
    req: &'a Request,
    dst: &'a Path,
    progress: Progress<'a>,
    speak: F,
) -> Result<Speech, TtsError>
where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<u8>, String>>,
{
    let dir = dst.with_extension("parts");
    tokio::fs::create_dir_all(&dir).await?;
    let result = async {
        let mut files: Vec<PathBuf> = Vec::new();
        for (i, s) in req.sentences.iter().enumerate() {
            let text: String = s.parts.iter().map(|p| p.text.as_str()).collect();
            let audio = speak(text).await.map_err(TtsError::Provider)?;
            let f = dir.join(format!("{i}.audio"));
            tokio::fs::write(&f, audio).await?;
            files.push(f);
            progress(i + 1, req.sentences.len());
        }
        let wav = dir.join("joined.wav");
        let spans = media::tts::join(&files, GAP_MS, &wav).await?;
        media::tts::finish(&wav, &spans, req, dst).await
    }
    .await;
    let _ = tokio::fs::remove_dir_all(&dir).await;
    result
}

/// Aliyun NLS synthesis (configured with `CLIPMATRIX_NLS_APPKEY` and the AccessKey pair its tokens
/// are minted from), speaking the NLS voice list's voices (`domain::ai::NLS_VOICES`).
pub struct Nls {
    api: platforms::voice::Nls,
}

impl Nls {
    pub fn new(cfg: platforms::voice::NlsConfig, clock: domain::clock::Clock) -> Nls {
        Nls {
            api: platforms::voice::Nls::new(cfg, clock),
        }
    }
}

impl Synthesizer for Nls {
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
        let rate = nls_rate(req.speed);
        Box::pin(by_sentence(req, dst, progress, move |text| async move {
            // Pitch and volume are applied when the file is finished, as for every engine.
            self.api.speak(&text, &req.voice, 50, rate, 0).await
        }))
    }
}

/// The Doubao-style cloning provider (configured with `CLIPMATRIX_CLONE_URL`).
#[derive(Debug, Clone)]
pub struct Provider {
    pub api: Doubao,
}

impl Provider {
    pub fn new(url: &str, app_id: &str, token: &str) -> Provider {
        Provider {
            api: Doubao {
                base_url: url.into(),
                app_id: app_id.into(),
                token: token.into(),
            },
        }
    }

    /// Speaks with a ready clone (`req.voice` is its `clone:` id).
    pub async fn synthesize(
        &self,
        req: &Request,
        dst: &Path,
        progress: Progress<'_>,
    ) -> Result<Speech, TtsError> {
        let speaker = speaker_of(&req.voice)
            .ok_or_else(|| TtsError::UnknownVoice(req.voice.clone()))?
            .to_string();
        let speed = req.speed;
        by_sentence(req, dst, progress, |text| {
            let speaker = speaker.clone();
            async move { self.api.speak(&speaker, &text, speed).await }
        })
        .await
    }
}

fn provider(ai: &super::Ai) -> ApiResult<&Provider> {
    ai.clone
        .as_ref()
        .ok_or(ApiError::invalid("speaker_id", Msg::CloneNotConfigured))
}

/// A training sample: 10 s to 5 min of audio.
const SAMPLE_MIN_MS: i64 = 10_000;
const SAMPLE_MAX_MS: i64 = 300_000;

/// `/doubao.db_audio/upload`: sends a voice material of the merchant's (the sample, uploaded to the
/// voice-over library first) to the provider under a new speaker id; the clone starts "training".
/// The most characters a cloned voice's name may have.
pub const CLONE_NAME_MAX: usize = 30;

pub async fn upload(
    db: &Db,
    ai: &super::Ai,
    storage: &media::Storage,
    mid: i64,
    name: &str,
    resource_id: i64,
) -> ApiResult<st::Clone> {
    let p = provider(ai)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::invalid("name", Msg::Required));
    }
    if name.chars().count() > CLONE_NAME_MAX {
        return Err(ApiError::invalid_with(
            "name",
            Msg::TooLong,
            vec![("max", CLONE_NAME_MAX.to_string())],
        ));
    }
    domain::validate::plain_text("name", name)?;
    let m = store::materials::get(db, mid, resource_id)
        .await?
        .filter(|m| {
            m.kind == domain::materials::MediaKind::Audio
                || (m.kind == domain::materials::MediaKind::Video && m.has_audio == 1)
        })
        .ok_or_else(|| {
            ApiError::invalid_with(
                "resource_id",
                Msg::CloneSampleInvalid,
                vec![("reason", "not an audio material".into())],
            )
        })?;
    if !(SAMPLE_MIN_MS..=SAMPLE_MAX_MS).contains(&m.duration_ms) {
        return Err(ApiError::invalid_with(
            "resource_id",
            Msg::CloneSampleInvalid,
            vec![("reason", format!("{:.1} s", m.duration_ms as f64 / 1000.0))],
        ));
    }
    // The sample as 16 kHz mono WAV, the format every cloning service takes.
    let src = storage
        .local_copy(&m.storage_key)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let wav = storage
        .workspace()
        .temp_path("wav")
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let args = media::ffmpeg::args([
        "-v".to_string(),
        "error".into(),
        "-y".into(),
        "-i".into(),
        src.display().to_string(),
        "-vn".into(),
        "-ac".into(),
        "1".into(),
        "-ar".into(),
        "16000".into(),
        "-c:a".into(),
        "pcm_s16le".into(),
        wav.display().to_string(),
    ]);
    media::ffmpeg::run("ffmpeg", &args, std::time::Duration::from_secs(120))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let bytes = tokio::fs::read(&wav).await;
    let _ = tokio::fs::remove_file(&wav).await;
    let bytes = bytes.map_err(|e| ApiError::Internal(e.into()))?;
    let speaker = format!("S_{}", store::random_token(9));
    p.api
        .upload(&speaker, &bytes, "wav")
        .await
        .map_err(|reason| {
            ApiError::invalid_with("resource_id", Msg::CloneFailed, vec![("reason", reason)])
        })?;
    let id = st::insert_clone(db, mid, name, &speaker, &m.storage_key).await?;
    Ok(st::clones(db, mid)
        .await?
        .into_iter()
        .find(|c| c.id == id)
        .ok_or(ApiError::NotFound)?)
}

/// `/doubao.db_audio/cloning`: the merchant's clones, asking the provider about those still training
/// (a ready one becomes a voice of the list; a failed one keeps the provider's reason).
pub async fn cloning(db: &Db, ai: &super::Ai, mid: i64) -> ApiResult<Vec<st::Clone>> {
    let p = provider(ai)?;
    for c in st::clones(db, mid).await? {
        if c.state != CloneState::Training {
            continue;
        }
        match p.api.status(&c.speaker_id).await {
            Ok(Training::Ready) => st::set_clone_state(db, c.id, "ready", "").await?,
            Ok(Training::Failed) => {
                st::set_clone_state(db, c.id, "failed", "the provider could not train the voice")
                    .await?
            }
            Ok(Training::Training) => {}
            Err(reason) => {
                return Err(ApiError::invalid_with(
                    "speaker_id",
                    Msg::CloneFailed,
                    vec![("reason", reason)],
                ));
            }
        }
    }
    Ok(st::clones(db, mid).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_go_back_to_the_nls_scale() {
        for r in [-500, -250, 0, 250, 500] {
            assert_eq!(nls_rate(domain::ai::speed_factor(r)), r);
        }
        assert_eq!(speaker_of(&voice_id("S_1")), Some("S_1"));
        assert_eq!(speaker_of("zf_xiaoxiao"), None);
        assert_eq!(speaker_of("clone:"), None);
    }
}
