//! A small simulator of an OpenAI-compatible chat-completions API (`POST /llm/v1/chat/completions`),
//! so the writer's provider path (`services::writer`) is tested end to end. It answers like a model
//! given the app's prompts (`services/src/writer/prompts`): the user message's first line names the
//! task (`Task: titles | topics | script | replies`), and it reads `Keywords:` / `关键词:`, `Topic:` / `主题:`,
//! `Count:` / `数量:` and `Language:` / `语言:` and writes that many numbered lines mixing those words
//! with stock phrases. Bearer key: [`SANDBOX_LLM_KEY`]; model `fail` answers 500 (a provider that is
//! down).
//!
//! Faults (`POST /_control/llm {fault: "timeout" | "throttle" | "malformed" | "down", times, hold_ms}`)
//! for the next `times` requests: an answer held `hold_ms` (default 35 s, past the client's timeout),
//! OpenAI's 429 `rate_limit_exceeded`, a 200 whose body is not JSON, a 503. `GET /_control/llm`: the
//! answers it gave, newest first (what a tester compares the console's results with); `{fault: "off"}`
//! clears a fault.
//! The wire format: <https://platform.openai.com/docs/api-reference/chat/create>; error bodies and
//! 429: <https://platform.openai.com/docs/guides/error-codes>.

use super::S;
use axum::Json;
use axum::Router;
use axum::extract::State as St;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub const SANDBOX_LLM_KEY: &str = "sbx_llm_key";
/// How many answers `GET /_control/llm` keeps.
const ANSWERS_KEPT: usize = 100;

/// A fault the tester set for the next `times` requests.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct LlmFault {
    pub fault: String,
    #[serde(default = "one")]
    pub times: u32,
    /// `timeout`: how long the answer is held (ms).
    #[serde(default)]
    pub hold_ms: u64,
}

fn one() -> u32 {
    1
}

/// One answer given (its content as sent).
#[derive(Debug, Clone, Serialize)]
pub struct LlmAnswer {
    pub model: String,
    pub task: String,
    pub content: String,
}

pub(crate) fn routes() -> Router<S> {
    Router::new().route("/v1/chat/completions", post(chat))
}

/// `/_control/llm`: the answers (GET) and faults (POST).
pub(crate) fn control() -> Router<S> {
    Router::new().route("/", get(answers).post(set_fault))
}

async fn answers(St(s): St<S>) -> Json<Value> {
    let st = s.lock();
    Json(json!({ "answers": st.llm_answers.iter().rev().collect::<Vec<_>>() }))
}

/// `{fault: "off"}` (or `times: 0`) clears the fault.
async fn set_fault(St(s): St<S>, Json(f): Json<LlmFault>) -> Json<Value> {
    s.lock().llm_fault = (f.fault != "off" && f.times > 0).then_some(f);
    Json(json!({ "ok": true }))
}

/// The fault to play on this request, if one is set (counted down).
fn take_fault(s: &S) -> Option<LlmFault> {
    let mut st = s.lock();
    let f = st.llm_fault.clone()?;
    if f.times <= 1 {
        st.llm_fault = None;
    } else if let Some(x) = st.llm_fault.as_mut() {
        x.times -= 1;
    }
    Some(f)
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

const ZH_TOPICS: &[&str] = &["探店", "好物推荐", "同城美食", "周末去哪儿", "宝藏店铺"];
const EN_TOPICS: &[&str] = &[
    "local finds",
    "weekend plans",
    "must try",
    "shop small",
    "daily deals",
];
const ZH_SCRIPT: &[&str] = &[
    "今天带大家看看{k}",
    "{k}到底好在哪里",
    "老顾客都说{k}回头率很高",
    "现在下单还有优惠",
    "喜欢{k}的朋友快来看看",
    "点击下方链接了解{k}",
];
const EN_SCRIPT: &[&str] = &[
    "Today we are looking at {k}",
    "Here is what makes {k} special",
    "Regulars keep coming back for {k}",
    "There is a deal on right now",
    "If you like {k}, come and see",
    "Tap the link below to learn more about {k}",
];

const ZH_REPLIES: &[&str] = &[
    "谢谢喜欢，欢迎来店里坐坐",
    "感谢支持，有问题欢迎留言",
    "收到您的留言啦，祝您开心每一天",
    "谢谢关注，新品马上就到",
];
const EN_REPLIES: &[&str] = &[
    "Thank you, come and visit us",
    "Thanks, DM us anytime",
    "Have a great day!",
    "New items coming soon",
];

/// The assistant's content for a task.
fn content(task: &str, words: &[&str], count: usize, en: bool) -> String {
    let mut lines = vec![];
    match task {
        "topics" => {
            let stock = if en { EN_TOPICS } else { ZH_TOPICS };
            let all: Vec<&str> = words.iter().copied().chain(stock.iter().copied()).collect();
            for (i, w) in all.iter().take(count).enumerate() {
                lines.push(format!("{}. #{}", i + 1, w));
            }
        }
        "replies" => {
            let stock = if en { EN_REPLIES } else { ZH_REPLIES };
            for (i, r) in stock.iter().cycle().take(count).enumerate() {
                lines.push(format!("{}. {r}", i + 1));
            }
        }
        "script" => {
            let pats = if en { EN_SCRIPT } else { ZH_SCRIPT };
            let k = words
                .first()
                .copied()
                .unwrap_or(if en { "our shop" } else { "我们的店" });
            for i in 0..count.max(pats.len().min(4)) {
                lines.push(pats[i % pats.len()].replace("{k}", k));
            }
        }
        _ => {
            let pats = if en { EN } else { ZH };
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
        }
    }
    lines.join("\n")
}

async fn chat(St(s): St<S>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
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
    if let Some(f) = take_fault(&s) {
        match f.fault.as_str() {
            "timeout" => {
                let ms = if f.hold_ms == 0 { 35_000 } else { f.hold_ms };
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            }
            "throttle" => {
                return oai_error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limit_exceeded",
                    "Rate limit reached for requests. Please try again later.",
                );
            }
            "malformed" => {
                return (
                    StatusCode::OK,
                    [("content-type", "application/json")],
                    "{\"id\": \"chatcmpl-sbx\", \"choices\": [{\"message\": ",
                )
                    .into_response();
            }
            _ => {
                return oai_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "service_unavailable",
                    "The engine is currently overloaded, please try again later.",
                );
            }
        }
    }
    let user = body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let task = field(user, &["Task", "任务"]).unwrap_or("titles");
    let words: Vec<&str> = field(user, &["Keywords", "关键词", "Topic", "主题"])
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
    let content = content(task, &words, count, en);
    {
        let mut st = s.lock();
        st.llm_answers.push(LlmAnswer {
            model: model.to_string(),
            task: task.to_string(),
            content: content.clone(),
        });
        let over = st.llm_answers.len().saturating_sub(ANSWERS_KEPT);
        st.llm_answers.drain(..over);
    }
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
