//! A small simulator of an OpenAI-compatible chat-completions API (`POST /llm/v1/chat/completions`),
//! so the SEO title writer's provider path is tested end to end. It answers like a model asked for
//! titles: it reads the `Keywords:` / `关键词:` and `Count:` / `数量:` lines of the user message and
//! writes that many numbered titles mixing those words with stock phrases. Bearer key:
//! [`SANDBOX_LLM_KEY`]; model `fail` answers 500 (a provider that is down).

use axum::Json;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

pub const SANDBOX_LLM_KEY: &str = "sbx_llm_key";

pub fn routes<S: Clone + Send + Sync + 'static>() -> axum::Router<S> {
    axum::Router::new().route("/v1/chat/completions", post(chat))
}

fn oai_error(status: StatusCode, code: &str, message: &str) -> Response {
    (
        status,
        Json(json!({"error": {"message": message, "type": "invalid_request_error", "code": code}})),
    )
        .into_response()
}

const ZH: &[&str] = &[
    "{k}真的太香了，错过等一年",
    "{k}怎么选？看完这条就懂了",
    "今天带你解锁{k}的正确打开方式",
    "{k}｜{k2}一次说清楚",
    "被问爆的{k}，终于安排上了",
    "{k}+{k2}，这样搭配绝了",
    "周末去哪？{k}安排起来",
    "花小钱享受{k}，{k2}了解一下",
    "关于{k}，90%的人都不知道",
    "{k}新玩法，{k2}也能这么好",
];
const EN: &[&str] = &[
    "Why everyone is talking about {k}",
    "{k} and {k2}: what you need to know",
    "Try {k} this weekend",
    "The easy guide to {k}",
    "{k} done right, with {k2}",
    "3 reasons to love {k}",
    "Is {k} worth it? We checked",
    "{k}: small price, big smile",
];

fn field<'a>(text: &'a str, names: &[&str]) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let l = l.trim();
        names.iter().find_map(|n| {
            l.strip_prefix(n)
                .map(|r| r.trim_start_matches([':', '：']).trim())
        })
    })
}

async fn chat(headers: HeaderMap, Json(body): Json<Value>) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth != format!("Bearer {SANDBOX_LLM_KEY}") {
        return oai_error(
            StatusCode::UNAUTHORIZED,
            "invalid_api_key",
            "Incorrect API key provided.",
        );
    }
    let model = body["model"].as_str().unwrap_or("");
    if model.is_empty() {
        return oai_error(
            StatusCode::BAD_REQUEST,
            "model_not_found",
            "You must provide a model parameter.",
        );
    }
    if model == "fail" {
        return oai_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "The server had an error while processing your request.",
        );
    }
    let user = body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let words: Vec<&str> = field(user, &["Keywords", "关键词"])
        .unwrap_or("")
        .split([',', '，', '、'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let count: usize = field(user, &["Count", "数量"])
        .and_then(|c| c.parse().ok())
        .unwrap_or(10)
        .clamp(1, 200);
    let en = field(user, &["Language", "语言"]).is_some_and(|l| l.starts_with("en"));
    let pats = if en { EN } else { ZH };
    let mut lines = vec![];
    if !words.is_empty() {
        for i in 0..count {
            let k = words[i % words.len()];
            let k2 = words[(i / words.len() + 1 + i) % words.len()];
            let p = pats[(i / words.len().max(1) + i) % pats.len()];
            lines.push(format!(
                "{}. {}",
                i + 1,
                p.replace("{k}", k).replace("{k2}", k2)
            ));
        }
    }
    let content = lines.join("\n");
    Json(json!({
        "id": format!("chatcmpl-sbx{}", content.len()),
        "object": "chat.completion",
        "created": domain::now_ms() / 1000,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": user.chars().count(), "completion_tokens": content.chars().count(), "total_tokens": user.chars().count() + content.chars().count()},
    }))
    .into_response()
}
