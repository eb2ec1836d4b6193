//! `clipmatrix mcp`: the MCP stdio transport (newline-delimited JSON-RPC on stdin and stdout) relayed
//! to a server's `POST /api/mcp` with an API token, for desktop MCP clients that start a command.
//! Nothing but JSON-RPC goes to stdout; the logs go to stderr.

use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// The endpoint of `url`: a server's base (`http://host:8080`) or the endpoint itself.
pub fn endpoint(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    if url.ends_with("/api/mcp") {
        url.to_string()
    } else {
        format!("{url}/api/mcp")
    }
}

/// Relays stdin's messages to the server until stdin ends; requests run side by side (a long
/// `wait_for_renders` does not hold up a `ping`), each answer written as one line when it comes.
pub async fn stdio(url: &str, token: &str, lang: Option<&str>) -> anyhow::Result<()> {
    let endpoint = Arc::new(endpoint(url));
    let http = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .build()?;
    let auth = Arc::new(format!("Bearer {}", token.trim()));
    let lang = Arc::new(lang.map(str::to_string));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    // One writer, so answers never interleave; stdin is read on a thread of its own (blocking reads).
    let writer = tokio::spawn(async move {
        while let Some(line) = rx.recv().await {
            let mut out = std::io::stdout().lock();
            if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
                break;
            }
        }
    });
    let (lines_tx, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    tracing::info!(endpoint = %endpoint, "MCP stdio relay started");
    let mut calls = tokio::task::JoinSet::new();
    while let Some(line) = lines.recv().await {
        if line.trim().is_empty() {
            continue;
        }
        let (http, endpoint, auth, lang, tx) = (
            http.clone(),
            endpoint.clone(),
            auth.clone(),
            lang.clone(),
            tx.clone(),
        );
        calls.spawn(async move {
            if let Some(answer) = relay(&http, &endpoint, &auth, lang.as_deref(), line).await {
                let _ = tx.send(answer);
            }
        });
        while calls.try_join_next().is_some() {}
    }
    while calls.join_next().await.is_some() {}
    drop(tx);
    let _ = writer.await;
    Ok(())
}

/// One message to the server; the line to answer with, if any (none for a notification).
async fn relay(
    http: &reqwest::Client,
    endpoint: &str,
    auth: &str,
    lang: Option<&str>,
    line: String,
) -> Option<String> {
    let msg: Value = match serde_json::from_str(&line) {
        Ok(v) => v,
        Err(e) => return Some(error(Value::Null, -32700, &format!("not JSON: {e}"))),
    };
    let id = msg.get("id").cloned();
    let mut req = http
        .post(endpoint)
        .header("authorization", auth)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(line);
    if let Some(l) = lang {
        req = req.header("accept-language", l);
    }
    let res = match req.send().await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "the server did not answer");
            return id.map(|id| error(id, -32603, &format!("{endpoint}: {e}")));
        }
    };
    let status = res.status();
    let text = res.text().await.unwrap_or_default();
    if status == reqwest::StatusCode::ACCEPTED || (status.is_success() && text.trim().is_empty()) {
        return None;
    }
    let body: Option<Value> = serde_json::from_str(&text).ok();
    match body {
        // The JSON-RPC answer, as one line.
        Some(v) if status.is_success() && v.get("jsonrpc").is_some() => Some(v.to_string()),
        // The API's refusal (401 without a valid token, 403, 429): its message.
        other => {
            let message = other
                .as_ref()
                .and_then(|v| v["message"].as_str())
                .map(str::to_string)
                .unwrap_or_else(|| text.trim().chars().take(300).collect());
            tracing::error!(status = status.as_u16(), %message, "the server refused the message");
            id.map(|id| {
                error(
                    id,
                    -32000 - status.as_u16() as i64,
                    &format!("HTTP {status}: {message}"),
                )
            })
        }
    }
}

fn error(id: Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_endpoint_of_a_base_or_of_itself() {
        assert_eq!(
            super::endpoint("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/api/mcp"
        );
        assert_eq!(
            super::endpoint("https://cm.example.com/api/mcp"),
            "https://cm.example.com/api/mcp"
        );
    }
}
