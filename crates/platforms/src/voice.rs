//! Cloud voice services, by their wire formats, against a base URL (the real host or the sandbox):
//! - [`Doubao`]: voice cloning in the Doubao (Volcengine "声音复刻") style — upload a sample under a
//!   speaker id (`POST /api/v1/mega_tts/audio/upload`), poll its training (`POST
//!   /api/v1/mega_tts/status`: 1 training, 2 success, 3 failed, 4 active), then speak with it
//!   (`POST /api/v1/tts`, cluster `volcano_icl`, audio base64 in `data`). Header
//!   `Authorization: Bearer;<token>`. The sandbox simulates it at `/sandbox/doubao`.
//! - [`Nls`]: speech synthesis in the Aliyun NLS RESTful style (`POST /stream/v1/tts`, JSON in, audio
//!   bytes out, a JSON error otherwise), which SPEC's `putNlsTask` / `nlsAudition` are named after.
//!
//! Errors are one sentence with the provider's own words (shown as a task's reason).

use base64::Engine as _;
use serde_json::{Value, json};
use std::time::Duration;

fn client(secs: u64) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(secs))
        .build()
        .map_err(|e| format!("cannot make a client: {e}"))
}

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::STANDARD
}

/// A voice clone's training as the provider reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Training {
    Training,
    Ready,
    Failed,
}

#[derive(Debug, Clone)]
pub struct Doubao {
    pub base_url: String,
    pub app_id: String,
    pub token: String,
}

impl Doubao {
    async fn post(&self, path: &str, body: &Value, secs: u64) -> Result<Value, String> {
        let url = format!("{}{path}", self.base_url.trim_end_matches('/'));
        let res = client(secs)?
            .post(&url)
            .header("Authorization", format!("Bearer;{}", self.token))
            .header("Resource-Id", "volc.megatts.voiceclone")
            .json(body)
            .send()
            .await
            .map_err(|e| format!("the voice service cannot be reached: {e}"))?;
        let status = res.status();
        let v: Value = res
            .json()
            .await
            .map_err(|e| format!("the voice service answered {status} with no JSON: {e}"))?;
        // Cloning calls answer BaseResp; synthesis answers code 3000.
        if let Some(base) = v.get("BaseResp") {
            let code = base["StatusCode"].as_i64().unwrap_or(-1);
            if code != 0 {
                return Err(format!(
                    "{} ({code})",
                    base["StatusMessage"].as_str().unwrap_or("refused")
                ));
            }
        } else if let Some(code) = v.get("code").and_then(Value::as_i64)
            && code != 3000
        {
            return Err(format!(
                "{} ({code})",
                v["message"].as_str().unwrap_or("refused")
            ));
        } else if !status.is_success() {
            return Err(format!("HTTP {status}"));
        }
        Ok(v)
    }

    /// Uploads a training sample for `speaker_id` (the provider's own id of the voice slot).
    pub async fn upload(&self, speaker_id: &str, audio: &[u8], format: &str) -> Result<(), String> {
        let body = json!({
            "appid": self.app_id,
            "speaker_id": speaker_id,
            "audios": [{"audio_bytes": b64().encode(audio), "audio_format": format}],
            "source": 2,
            "language": 0,
            "model_type": 1,
        });
        self.post("/api/v1/mega_tts/audio/upload", &body, 120)
            .await?;
        Ok(())
    }

    pub async fn status(&self, speaker_id: &str) -> Result<Training, String> {
        let v = self
            .post(
                "/api/v1/mega_tts/status",
                &json!({"appid": self.app_id, "speaker_id": speaker_id}),
                30,
            )
            .await?;
        Ok(match v["status"].as_i64() {
            Some(2) | Some(4) => Training::Ready,
            Some(3) => Training::Failed,
            Some(0) => return Err(format!("the voice {speaker_id} is unknown to the service")),
            _ => Training::Training,
        })
    }

    /// One sentence in the cloned voice: the audio file's bytes (mp3 or wav, as the service sends).
    pub async fn speak(&self, speaker_id: &str, text: &str, speed: f64) -> Result<Vec<u8>, String> {
        let body = json!({
            "app": {"appid": self.app_id, "token": self.token, "cluster": "volcano_icl"},
            "user": {"uid": "clipmatrix"},
            "audio": {"voice_type": speaker_id, "encoding": "wav", "speed_ratio": speed},
            "request": {"reqid": format!("cm-{}", domain::now_ms()), "text": text, "operation": "query"},
        });
        let v = self.post("/api/v1/tts", &body, 60).await?;
        b64()
            .decode(v["data"].as_str().unwrap_or(""))
            .map_err(|e| format!("unreadable audio from the voice service: {e}"))
    }
}

#[derive(Debug, Clone)]
pub struct Nls {
    pub base_url: String,
    pub app_key: String,
    pub token: String,
}

impl Nls {
    /// One sentence: the WAV's bytes. `speech_rate` and `pitch_rate` are the SPEC's -500..500 scale,
    /// `volume` 0..100 — NLS takes them as they are.
    pub async fn speak(
        &self,
        text: &str,
        voice: &str,
        volume: i64,
        speech_rate: i64,
        pitch_rate: i64,
    ) -> Result<Vec<u8>, String> {
        let url = format!("{}/stream/v1/tts", self.base_url.trim_end_matches('/'));
        let body = json!({
            "appkey": self.app_key, "token": self.token, "text": text, "format": "wav",
            "sample_rate": 24000, "voice": voice, "volume": volume,
            "speech_rate": speech_rate, "pitch_rate": pitch_rate,
        });
        let res = client(60)?
            .post(&url)
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("the speech service cannot be reached: {e}"))?;
        let audio = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("audio/"));
        let status = res.status();
        let bytes = res.bytes().await.map_err(|e| e.to_string())?;
        if audio && status.is_success() {
            return Ok(bytes.to_vec());
        }
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Err(format!(
            "{} ({})",
            v["message"].as_str().unwrap_or("refused"),
            v["status"].as_i64().map_or(status.as_u16() as i64, |s| s)
        ))
    }
}
