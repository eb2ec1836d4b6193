//! An OpenAI-compatible chat-completions client (`POST {base}/chat/completions`), the wire format most
//! LLM vendors and self-hosted servers speak. The SEO title writer uses it when the operator configured
//! a provider; the sandbox simulates it at `/sandbox/llm/v1` (`sandbox::llm`).

use serde_json::{Value, json};
use std::time::Duration;

/// Where and how to call a provider.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// e.g. `https://api.example.com/v1` (the path up to `/chat/completions`).
    pub base_url: String,
    pub api_key: String,
    pub model: String,
    pub timeout_ms: u64,
}

/// Why a completion failed, in both languages (shown as the task's reason).
#[derive(Debug, Clone, PartialEq)]
pub struct LlmError {
    pub code: String,
    pub zh: String,
    pub en: String,
}

impl std::fmt::Display for LlmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.en, self.code)
    }
}

fn err(code: &str, zh: String, en: String) -> LlmError {
    LlmError {
        code: code.into(),
        zh,
        en,
    }
}

fn timed_out(t: Duration) -> LlmError {
    let ms = t.as_millis();
    let (zh, en) = if ms % 1000 == 0 {
        (format!("{} 秒", ms / 1000), format!("{} s", ms / 1000))
    } else {
        (format!("{ms} 毫秒"), format!("{ms} ms"))
    };
    err(
        "timeout",
        format!("AI 服务 {zh}内没有回答（超时）"),
        format!("the AI service did not answer within {en} (timeout)"),
    )
}

/// One chat completion: a system and a user message in, the assistant's text out.
pub async fn complete(cfg: &LlmConfig, system: &str, user: &str) -> Result<String, LlmError> {
    let timeout = Duration::from_millis(if cfg.timeout_ms == 0 {
        30_000
    } else {
        cfg.timeout_ms
    });
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| {
            err(
                "client",
                format!("无法创建连接：{e}"),
                format!("cannot make a client: {e}"),
            )
        })?;
    let url = format!("{}/chat/completions", cfg.base_url.trim_end_matches('/'));
    let body = json!({
        "model": cfg.model,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
        "temperature": 0.9,
    });
    let resp = client
        .post(&url)
        .bearer_auth(&cfg.api_key)
        .json(&body)
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                timed_out(timeout)
            } else {
                err(
                    "network",
                    format!("无法连接 AI 服务 {url}：{e}"),
                    format!("cannot reach the AI service at {url}: {e}"),
                )
            }
        })?;
    let status = resp.status();
    let body = resp.text().await.map_err(|e| {
        if e.is_timeout() {
            timed_out(timeout)
        } else {
            err(
                "network",
                format!("读取 AI 服务的回答失败：{e}"),
                format!("reading the AI service's answer failed: {e}"),
            )
        }
    })?;
    let parsed = serde_json::from_str::<Value>(&body);
    let v = parsed.as_ref().cloned().unwrap_or(Value::Null);
    if status.is_success() && parsed.is_err() {
        return Err(err(
            "bad_json",
            "AI 服务的回答不是有效的 JSON".into(),
            "the AI service's answer is not valid JSON".into(),
        ));
    }
    if !status.is_success() {
        // OpenAI's error body: {"error": {"message", "type", "code"}}.
        let msg = v["error"]["message"].as_str().unwrap_or("").to_string();
        let code = v["error"]["code"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("http_{}", status.as_u16()));
        return Err(err(
            &code,
            format!("AI 服务返回 {}：{msg}", status.as_u16()),
            format!("the AI service answered {}: {msg}", status.as_u16()),
        ));
    }
    v["choices"][0]["message"]["content"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| {
            err(
                "bad_answer",
                "AI 服务的回答中没有内容".into(),
                "the AI service's answer has no content".into(),
            )
        })
}
