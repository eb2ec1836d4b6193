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

/// The one way a tool is started: no stdin, killed when its handle is dropped, and killed by the kernel
/// when the server dies (`kill -9` of the server used to leave its ffmpeg children running to the end).
pub fn command(tool: &str) -> Command {
    let mut cmd = Command::new(tool);
    cmd.stdin(std::process::Stdio::null()).kill_on_drop(true);
    #[cfg(target_os = "linux")]
    {
        // The death signal follows the thread that spawns: tokio's worker threads live as long as the
        // runtime (nothing here uses `block_in_place`, which would retire one).
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: between fork and exec only async-signal-safe calls (prctl, getppid, kill).
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The server died before the line above ran: nobody would send the signal.
                if libc::getppid() != parent {
                    libc::kill(libc::getpid(), libc::SIGKILL);
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Runs a tool; returns stdout. stderr's last lines become the error.
pub async fn run(tool: &str, args: &[String], timeout: Duration) -> Result<Vec<u8>, ToolError> {
    let out = output(tool, args, timeout).await?;
    if !out.status.success() {
        return Err(ToolError::Failed {
            tool: tool.to_string(),
            reason: tail(&out.stderr, 6),
        });
    }
    Ok(out.stdout)
}

/// Runs a tool to its end (or the timeout) and returns what it printed, whatever its exit status.
pub async fn output(
    tool: &str,
    args: &[String],
    timeout: Duration,
) -> Result<std::process::Output, ToolError> {
    let child = command(tool)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ToolError::Missing {
                tool: tool.to_string(),
            },
            _ => ToolError::Io(e),
        })?;
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(r) => Ok(r?),
        Err(_) => Err(ToolError::Timeout {
            tool: tool.to_string(),
            secs: timeout.as_secs(),
        }),
    }
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
