//! ffmpeg and ffprobe as child processes: a timeout, killed when dropped, and the tail of stderr as the
//! failure reason a user sees.

use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

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
    command_niced(tool, 0)
}

/// [`command`], run `nice` steps below this process's CPU priority (0: the same): work that should
/// yield the cores to more urgent work and take what is left over.
pub fn command_niced(tool: &str, nice: i32) -> Command {
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
                // An increment (never a raise, which needs privileges); the kernel caps it at 19.
                if nice > 0 {
                    libc::nice(nice);
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Runs a tool; returns stdout. stderr's last lines become the error.
pub async fn run(tool: &str, args: &[String], timeout: Duration) -> Result<Vec<u8>, ToolError> {
    check(tool, output(tool, args, timeout).await?)
}

/// Runs a tool to its end (or the timeout) and returns what it printed, whatever its exit status.
pub async fn output(
    tool: &str,
    args: &[String],
    timeout: Duration,
) -> Result<std::process::Output, ToolError> {
    let mut cmd = command(tool);
    cmd.args(args);
    let child = spawn(cmd, tool)?;
    within(tool, timeout, child.wait_with_output()).await
}

/// A progress sink, 0–100.
pub type Progress<'a> = &'a (dyn Fn(u8) + Send + Sync);

/// How an ffmpeg run moves a progress bar: from `lo` to `hi` as its output time goes from 0 to
/// `total_ms` (read from ffmpeg's own `-progress` report).
pub struct Report<'a> {
    pub sink: Progress<'a>,
    pub total_ms: i64,
    pub lo: u8,
    pub hi: u8,
}

/// Runs ffmpeg like [`run`] (timeout, killed when dropped, stderr tail as the reason), in `cwd` when
/// given, telling `report` how far it got.
pub async fn run_reporting(
    args: &[String],
    cwd: Option<&Path>,
    timeout: Duration,
    report: Report<'_>,
) -> Result<(), ToolError> {
    run_reporting_niced(args, cwd, timeout, report, 0).await
}

/// [`run_reporting`] at a lower CPU priority ([`command_niced`]).
pub async fn run_reporting_niced(
    args: &[String],
    cwd: Option<&Path>,
    timeout: Duration,
    report: Report<'_>,
    nice: i32,
) -> Result<(), ToolError> {
    let mut cmd = command_niced("ffmpeg", nice);
    // A report every quarter second: a clip of a few seconds still moves the bar more than once.
    cmd.args(["-progress", "pipe:1", "-nostats", "-stats_period", "0.25"])
        .args(args);
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    let mut child = spawn(cmd, "ffmpeg")?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let work = async {
        let read_err = async {
            let mut buf = Vec::new();
            if let Some(mut e) = stderr {
                e.read_to_end(&mut buf).await?;
            }
            Ok::<_, std::io::Error>(buf)
        };
        let read_out = async {
            if let Some(o) = stdout {
                let mut lines = BufReader::new(o).lines();
                let mut last = 0u8;
                while let Some(l) = lines.next_line().await? {
                    if let Some(p) = report.percent(&l)
                        && p > last
                    {
                        last = p;
                        (report.sink)(p);
                    }
                }
            }
            Ok::<_, std::io::Error>(())
        };
        let (err, out) = tokio::join!(read_err, read_out);
        out?;
        let stderr = err?;
        let status = child.wait().await?;
        Ok(std::process::Output {
            status,
            stdout: vec![],
            stderr,
        })
    };
    let out = within("ffmpeg", timeout, work).await?;
    check("ffmpeg", out).map(|_| ())
}

impl Report<'_> {
    /// The bar's position after a line of ffmpeg's `-progress` report (`None` for other lines).
    fn percent(&self, line: &str) -> Option<u8> {
        let us = line
            .strip_prefix("out_time_us=")?
            .trim()
            .parse::<i64>()
            .ok()?;
        let share = (us as f64 / 1000.0 / self.total_ms.max(1) as f64).clamp(0.0, 1.0);
        Some(self.lo + ((self.hi - self.lo) as f64 * share) as u8)
    }
}

/// Starts a tool with stdout and stderr piped; a missing binary says so.
fn spawn(mut cmd: Command, tool: &str) -> Result<Child, ToolError> {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ToolError::Missing {
                tool: tool.to_string(),
            },
            _ => ToolError::Io(e),
        })
}

/// Waits for a tool's work, at most `timeout`.
async fn within<T>(
    tool: &str,
    timeout: Duration,
    work: impl Future<Output = std::io::Result<T>>,
) -> Result<T, ToolError> {
    match tokio::time::timeout(timeout, work).await {
        Ok(r) => Ok(r?),
        Err(_) => Err(ToolError::Timeout {
            tool: tool.to_string(),
            secs: timeout.as_secs(),
        }),
    }
}

/// A tool's stdout when it exited successfully; else stderr's last lines as the error.
fn check(tool: &str, out: std::process::Output) -> Result<Vec<u8>, ToolError> {
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

/// For unit tests that run the real tool: is ffmpeg installed?
#[cfg(test)]
pub(crate) fn installed() -> bool {
    std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[cfg(test)]
mod tests {
    use super::command_niced;

    /// The niceness a tool started with `nice` steps runs at (`nice` alone prints its own).
    async fn niceness(nice: i32) -> i32 {
        let out = command_niced("nice", nice).output().await.unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }

    #[tokio::test]
    async fn a_niced_tool_runs_below_this_process() {
        let base = niceness(0).await;
        assert_eq!(niceness(10).await, (base + 10).min(19));
        assert_eq!(niceness(0).await, base);
    }
}
