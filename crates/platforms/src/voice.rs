//! Cloud voice services, by their wire formats, against a base URL (the real host or the sandbox):
//! - [`Doubao`]: voice cloning in the Doubao (Volcengine "声音复刻") style — upload a sample under a
//!   speaker id (`POST /api/v1/mega_tts/audio/upload`), poll its training (`POST
//!   /api/v1/mega_tts/status`: 1 training, 2 success, 3 failed, 4 active), then speak with it
//!   (`POST /api/v1/tts`, cluster `volcano_icl`, audio base64 in `data`). Header
//!   `Authorization: Bearer;<token>`. The sandbox simulates it at `/sandbox/doubao`.
//! - [`Nls`]: Aliyun NLS speech synthesis (`POST /stream/v1/tts`, JSON in, audio bytes out, a JSON
//!   error otherwise), which SPEC's `putNlsTask` / `nlsAudition` are named after, with tokens minted
//!   from an AccessKey pair (`CreateToken`) and renewed before they end. The sandbox simulates both
//!   at `/sandbox/nls` and `/sandbox/nls-meta`.
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

/// Where the NLS services live: the synthesis gateway and the token service (POP).
pub const NLS_GATEWAY: &str = "https://nls-gateway-cn-shanghai.aliyuncs.com";
pub const NLS_META: &str = "https://nls-meta.cn-shanghai.aliyuncs.com";

/// What the NLS engine is configured with: the project's AppKey and the AccessKey pair tokens are
/// minted from (never a token: tokens expire).
#[derive(Debug, Clone, Default)]
pub struct NlsConfig {
    /// The synthesis gateway ([`NLS_GATEWAY`] live, or the sandbox's `…/sandbox/nls`).
    pub gateway_url: String,
    /// The token service ([`NLS_META`] live, or the sandbox's `…/sandbox/nls-meta`).
    pub meta_url: String,
    pub app_key: String,
    pub access_key_id: String,
    pub access_key_secret: String,
}

/// A token minted by `CreateToken`: its id and when it ends (unix ms).
#[derive(Debug, Clone, PartialEq)]
pub struct NlsToken {
    pub id: String,
    pub expires_ms: i64,
}

/// A token is renewed this long before it ends, so none is used as it dies.
pub const NLS_TOKEN_MARGIN_MS: i64 = 10 * 60_000;

/// The gateway's status for a token it does not take (unknown, or expired).
const NLS_TOKEN_REFUSED: i64 = 40000001;

/// Aliyun Intelligent Speech Interaction's speech synthesis:
/// - tokens (help.aliyun.com "通过OpenAPI获取Token"): a POP RPC call signed with the AccessKey pair,
///   `GET {meta}/?Action=CreateToken&Version=2019-02-28&RegionId=cn-shanghai&Format=JSON&…&Signature=`
///   -> `{"Token": {"Id", "ExpireTime" (unix seconds), "UserId"}, "RequestId"}`; a refusal answers
///   `{"Code", "Message", "RequestId"}` (e.g. `SignatureDoesNotMatch`, `InvalidAccessKeyId.NotFound`).
///   A token is kept until [`NLS_TOKEN_MARGIN_MS`] before its `ExpireTime` on the injected clock,
///   and minted again once if the gateway says it is not valid (40000001).
/// - synthesis (help.aliyun.com "语音合成 RESTful API"): `POST {gateway}/stream/v1/tts` with JSON
///   `{appkey, token, text, format, sample_rate, voice, volume, speech_rate, pitch_rate}` -> the audio
///   (`Content-Type: audio/…`), or JSON `{task_id, result, status, message}` when refused.
pub struct Nls {
    cfg: NlsConfig,
    clock: domain::clock::Clock,
    token: tokio::sync::Mutex<Option<NlsToken>>,
}

impl Nls {
    pub fn new(cfg: NlsConfig, clock: domain::clock::Clock) -> Nls {
        Nls {
            cfg,
            clock,
            token: tokio::sync::Mutex::new(None),
        }
    }

    /// `CreateToken` with the AccessKey pair.
    pub async fn create_token(&self) -> Result<NlsToken, String> {
        let rpc = crate::sign::AliyunRpc {
            access_key_id: &self.cfg.access_key_id,
            access_key_secret: &self.cfg.access_key_secret,
            action: "CreateToken",
            version: "2019-02-28",
            region: "cn-shanghai",
        };
        let params = rpc.signed("GET", self.clock.platform_now(), &[]);
        let url = format!("{}/", self.cfg.meta_url.trim_end_matches('/'));
        let res = client(30)?
            .get(&url)
            .query(&params)
            .send()
            .await
            .map_err(|e| format!("the speech token service cannot be reached: {e}"))?;
        let status = res.status();
        let v: Value = res
            .json()
            .await
            .map_err(|e| format!("the speech token service answered {status} with no JSON: {e}"))?;
        let id = v["Token"]["Id"].as_str().unwrap_or_default();
        let expire = v["Token"]["ExpireTime"].as_i64().unwrap_or_default();
        if id.is_empty() || expire <= 0 {
            return Err(format!(
                "the speech token service refused the AccessKey: {} ({})",
                v["Message"].as_str().unwrap_or("no token"),
                v["Code"].as_str().unwrap_or(status.as_str())
            ));
        }
        Ok(NlsToken {
            id: id.to_string(),
            expires_ms: expire * 1000,
        })
    }

    /// The token in hand while it has more than the margin to live, else a new one.
    pub async fn token(&self, fresh: bool) -> Result<String, String> {
        let mut t = self.token.lock().await;
        let now = self.clock.platform_now();
        if !fresh
            && let Some(tok) = t
                .as_ref()
                .filter(|tok| tok.expires_ms - NLS_TOKEN_MARGIN_MS > now)
        {
            return Ok(tok.id.clone());
        }
        let tok = self.create_token().await?;
        let id = tok.id.clone();
        *t = Some(tok);
        Ok(id)
    }

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
        let mut fresh = false;
        loop {
            let token = self.token(fresh).await?;
            match self
                .speak_with(&token, text, voice, volume, speech_rate, pitch_rate)
                .await
            {
                // A token the gateway no longer takes (revoked, or its clock ahead of ours): one
                // more try with a new one.
                Err((Some(NLS_TOKEN_REFUSED), _)) if !fresh => fresh = true,
                other => return other.map_err(|(_, e)| e),
            }
        }
    }

    async fn speak_with(
        &self,
        token: &str,
        text: &str,
        voice: &str,
        volume: i64,
        speech_rate: i64,
        pitch_rate: i64,
    ) -> Result<Vec<u8>, (Option<i64>, String)> {
        let url = format!(
            "{}/stream/v1/tts",
            self.cfg.gateway_url.trim_end_matches('/')
        );
        let body = json!({
            "appkey": self.cfg.app_key, "token": token, "text": text, "format": "wav",
            "sample_rate": 16000, "voice": voice, "volume": volume,
            "speech_rate": speech_rate, "pitch_rate": pitch_rate,
        });
        let res = client(60)
            .map_err(|e| (None, e))?
            .post(&url)
            .json(&body)
            .send()
            .await
            .map_err(|e| (None, format!("the speech service cannot be reached: {e}")))?;
        let audio = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("audio/"));
        let status = res.status();
        let bytes = res.bytes().await.map_err(|e| (None, e.to_string()))?;
        if audio && status.is_success() {
            return Ok(bytes.to_vec());
        }
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let code = v["status"].as_i64();
        Err((
            code,
            format!(
                "{} ({})",
                v["message"].as_str().unwrap_or("refused"),
                code.unwrap_or(status.as_u16() as i64)
            ),
        ))
    }
}
