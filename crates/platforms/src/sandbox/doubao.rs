//! A simulator of the Doubao-style voice cloning API (`platforms::voice::Doubao`), so the cloning flow
//! (upload a sample -> training -> ready -> speak with the voice) is tested end to end. Token:
//! [`SANDBOX_DOUBAO_TOKEN`]. A sample under 1 s of 16-bit audio (32,000 bytes) is refused like the
//! real service refuses a bad sample; training answers "training" to the first status query and
//! "success" after that; a speaker id containing `fail` ends "failed". Speech from a cloned voice is
//! a tone shaped like speech (0.2 s per character), enough to test that audio flows through: the
//! simulator makes no claim to sound like anyone.

use axum::Json;
use axum::http::HeaderMap;
use axum::routing::post;
use base64::Engine as _;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;

pub const SANDBOX_DOUBAO_TOKEN: &str = "sbx_doubao_token";

/// speaker id -> status queries answered so far.
static VOICES: Mutex<Option<HashMap<String, u32>>> = Mutex::new(None);

pub fn routes<S: Clone + Send + Sync + 'static>() -> axum::Router<S> {
    axum::Router::new()
        .route("/api/v1/mega_tts/audio/upload", post(upload))
        .route("/api/v1/mega_tts/status", post(status))
        .route("/api/v1/tts", post(tts))
}

fn authorized(h: &HeaderMap) -> bool {
    h.get("authorization").and_then(|v| v.to_str().ok())
        == Some(&format!("Bearer;{SANDBOX_DOUBAO_TOKEN}"))
}

fn base(code: i64, msg: &str) -> Value {
    json!({"BaseResp": {"StatusCode": code, "StatusMessage": msg}})
}

async fn upload(h: HeaderMap, Json(b): Json<Value>) -> Json<Value> {
    if !authorized(&h) {
        return Json(base(1001, "invalid token"));
    }
    let speaker = b["speaker_id"].as_str().unwrap_or("").to_string();
    if speaker.is_empty() {
        return Json(base(1002, "speaker_id is required"));
    }
    let audio = b["audios"][0]["audio_bytes"].as_str().unwrap_or("");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(audio)
        .unwrap_or_default();
    if bytes.len() < 32_000 {
        return Json(base(1106, "audio too short or unreadable"));
    }
    VOICES
        .lock()
        .unwrap()
        .get_or_insert_with(HashMap::new)
        .insert(speaker.clone(), 0);
    let mut v = base(0, "");
    v["speaker_id"] = json!(speaker);
    Json(v)
}

async fn status(h: HeaderMap, Json(b): Json<Value>) -> Json<Value> {
    if !authorized(&h) {
        return Json(base(1001, "invalid token"));
    }
    let speaker = b["speaker_id"].as_str().unwrap_or("");
    let mut all = VOICES.lock().unwrap();
    let state = match all.get_or_insert_with(HashMap::new).get_mut(speaker) {
        None => 0,
        Some(_) if speaker.contains("fail") => 3,
        Some(n) => {
            *n += 1;
            if *n <= 1 { 1 } else { 2 }
        }
    };
    let mut v = base(0, "");
    v["speaker_id"] = json!(speaker);
    v["status"] = json!(state);
    Json(v)
}

async fn tts(h: HeaderMap, Json(b): Json<Value>) -> Json<Value> {
    if !authorized(&h) {
        return Json(json!({"code": 3001, "message": "invalid token"}));
    }
    let speaker = b["audio"]["voice_type"].as_str().unwrap_or("");
    let ready = VOICES
        .lock()
        .unwrap()
        .get_or_insert_with(HashMap::new)
        .get(speaker)
        .is_some_and(|n| *n >= 2);
    if !ready {
        return Json(json!({"code": 3050, "message": "voice not ready"}));
    }
    let chars = b["request"]["text"].as_str().unwrap_or("").chars().count();
    let wav = tone(chars as f64 * 0.2, 24_000);
    Json(json!({"code": 3000, "message": "Success",
        "data": base64::engine::general_purpose::STANDARD.encode(wav)}))
}

/// A mono WAV at `rate` Hz of `secs` seconds: a 180 Hz tone pulsing four times a second.
pub(crate) fn tone(secs: f64, rate: u32) -> Vec<u8> {
    let n = (secs.max(0.2) * rate as f64) as u32;
    let mut out = Vec::with_capacity(44 + n as usize * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + n * 2).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(n * 2).to_le_bytes());
    for i in 0..n {
        let t = i as f64 / rate as f64;
        let env = (t * 4.0 * std::f64::consts::PI).sin().abs();
        let s = (t * 180.0 * 2.0 * std::f64::consts::PI).sin() * env * 0.4;
        out.extend_from_slice(&((s * 32767.0) as i16).to_le_bytes());
    }
    out
}
