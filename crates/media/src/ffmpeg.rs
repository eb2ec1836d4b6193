//! ffmpeg and ffprobe as child processes: a timeout, killed when dropped, and the tail of stderr as the
//! failure reason a user sees.

use std::time::Duration;
use tokio::process::Command;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{tool} is not installed (apt-get install ffmpeg)")]
    Missing { tool: String },
    #[error("{tool} timed out after {secs} s")]
    Timeout { tool: String, secs: u64 },
    #[error("{tool} failed: {reason}")]
    Failed { tool: String, reason: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Runs a tool; returns stdout. stderr's last lines become the error.
pub async fn run(tool: &str, args: &[String], timeout: Duration) -> Result<Vec<u8>, ToolError> {
    let child = Command::new(tool)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ToolError::Missing {
                tool: tool.to_string(),
            },
            _ => ToolError::Io(e),
        })?;
    let out = match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(r) => r?,
        Err(_) => {
            return Err(ToolError::Timeout {
                tool: tool.to_string(),
                secs: timeout.as_secs(),
            });
        }
    };
    if !out.status.success() {
        return Err(ToolError::Failed {
            tool: tool.to_string(),
            reason: tail(&out.stderr, 6),
        });
    }
    Ok(out.stdout)
}

/// The last `n` non-empty lines of a tool's stderr, trimmed for a person to read.
pub fn tail(stderr: &[u8], n: usize) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let from = lines.len().saturating_sub(n);
    let s = lines[from..].join("; ");
    if s.is_empty() {
        "exited with an error and said nothing".into()
    } else {
        s.chars().take(600).collect()
    }
}

pub fn args<I: IntoIterator<Item = S>, S: Into<String>>(a: I) -> Vec<String> {
    a.into_iter().map(Into::into).collect()
}
