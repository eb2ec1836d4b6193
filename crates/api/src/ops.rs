//! Operating a node: `/readyz` (the database and the media storage answer) and `/metrics`
//! (Prometheus text format, written by hand: request latencies measured on this node; job queue
//! depth and age, run times and failures read from the database, so every node reports the cluster).
//! Requests are labelled by their route's template (`/t/{code}`, never the code a phone tapped), so
//! the series stay few whatever paths clients make up; without CLIPMATRIX_METRICS_TOKEN only this
//! machine may read them.

use crate::state::AppState;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::{Mutex, OnceLock};

/// Upper bounds (seconds) of the request latency buckets.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

#[derive(Default, Clone)]
struct Hist {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// (method, route, status class) -> latencies.
type Requests = BTreeMap<(String, String, &'static str), Hist>;

fn requests() -> &'static Mutex<Requests> {
    static R: OnceLock<Mutex<Requests>> = OnceLock::new();
    R.get_or_init(Default::default)
}

/// Series kept at most; later new ones are counted under `route="(other)"`.
pub const MAX_SERIES: usize = 2_000;

/// The route label of a request: the template of the route that answered it (`/api/materials/{id}`),
/// `/(console)` for the console's pages and assets, `(unmatched)` for any other path, so a path a
/// client makes up never becomes a label.
pub fn route_of(matched: Option<&str>, path: &str) -> String {
    if let Some(m) = matched {
        // A mounted service (the sandbox) matches with a catch-all tail: its prefix is the route.
        return match m.split_once("/{*") {
            Some((prefix, _)) => format!("{prefix}/*"),
            None => m.to_string(),
        };
    }
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    let ours = [
        "api", "files", "healthz", "readyz", "metrics", "sandbox", "oauth", "webhook", "nfc", "t",
    ];
    if ours.contains(&first) {
        "(unmatched)".into()
    } else {
        "/(console)".into()
    }
}

/// The method label: the standard ones, anything else as `OTHER`.
fn method_of(m: &axum::http::Method) -> &str {
    let known = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
    known
        .into_iter()
        .find(|k| *k == m.as_str())
        .unwrap_or("OTHER")
}

/// Times every request (a layer over the whole router, so it sees which route matched).
pub async fn track(req: Request, next: Next) -> Response {
    let method = method_of(req.method()).to_string();
    let route = route_of(
        req.extensions()
            .get::<MatchedPath>()
            .map(MatchedPath::as_str),
        req.uri().path(),
    );
    let t0 = std::time::Instant::now();
    let res = next.run(req).await;
    let secs = t0.elapsed().as_secs_f64();
    let class = match res.status().as_u16() {
        0..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    let mut r = requests().lock().unwrap_or_else(|e| e.into_inner());
    let mut key = (method, route, class);
    if r.len() >= MAX_SERIES && !r.contains_key(&key) {
        key.1 = "(other)".into();
    }
    let h = r.entry(key).or_default();
    for (i, b) in BUCKETS.iter().enumerate() {
        if secs <= *b {
            h.counts[i] += 1;
        }
    }
    h.count += 1;
    h.sum += secs;
    res
}

/// What `/readyz` answers.
#[derive(Debug, serde::Serialize)]
pub struct Ready {
    pub status: &'static str,
    pub database: String,
    pub storage: String,
}

/// Ready when the database answers and the media storage is reachable (a load balancer sends this
/// node traffic only then); `/healthz` only says the process and its database are up.
pub async fn readyz(State(st): State<AppState>) -> Response {
    let database = match st.db.ping().await {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("unreachable: {e}"),
    };
    let storage = match st.storage.store().check().await {
        Ok(()) => "ok".to_string(),
        Err(e) => e.to_string(),
    };
    let ok = database == "ok" && storage == "ok";
    let body = Ready {
        status: if ok { "ready" } else { "not ready" },
        database,
        storage,
    };
    let code = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, axum::Json(body)).into_response()
}

/// Escapes a label value.
fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}

/// A failure's reason as a label: the error's first clause, short (the full text is in the job list).
pub fn reason_of(error: &str) -> String {
    let head = error
        .split([':', '\n', '(', '（', '：'])
        .next()
        .unwrap_or("")
        .trim();
    let r: String = head.chars().take(60).collect();
    if r.is_empty() { "unknown".into() } else { r }
}

/// Quantile `q` of sorted values.
pub fn quantile(sorted: &[i64], q: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The window job run times and failures are read over.
const WINDOW_MS: i64 = 3_600_000;

/// Whether the figures may be read: with CLIPMATRIX_METRICS_TOKEN set, by who sends it; without
/// one, only from this machine (a loopback peer that relays nobody: a proxy in front would be
/// passing on someone else's request).
pub fn may_read_metrics(
    token: Option<&str>,
    headers: &HeaderMap,
    peer: Option<std::net::IpAddr>,
) -> bool {
    match token.filter(|t| !t.is_empty()) {
        Some(token) => {
            let given = headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            given == Some(token)
        }
        None => {
            let relayed = ["x-forwarded-for", "forwarded", "x-real-ip"]
                .iter()
                .any(|h| headers.contains_key(*h));
            peer.is_some_and(|p| p.to_canonical().is_loopback()) && !relayed
        }
    }
}

pub async fn metrics(State(st): State<AppState>, req: Request) -> Response {
    let token = std::env::var("CLIPMATRIX_METRICS_TOKEN").ok();
    let peer = req
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    if !may_read_metrics(token.as_deref(), req.headers(), peer) {
        let status = if token.is_some_and(|t| !t.is_empty()) {
            StatusCode::UNAUTHORIZED
        } else {
            StatusCode::FORBIDDEN
        };
        return status.into_response();
    }
    let mut out = String::new();
    let _ = write_requests(&mut out);
    let now = domain::now_ms();
    match write_jobs(&st, now, &mut out).await {
        Ok(()) => {}
        Err(e) => {
            tracing::warn!(error = %e, "metrics: reading the job figures");
            out.push_str("# job figures unavailable: database error\n");
        }
    }
    if let Err(e) = write_paused(&st, &mut out).await {
        tracing::warn!(error = %e, "metrics: reading the page checks");
        out.push_str("# page-check figures unavailable: database error\n");
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    )
        .into_response()
}

/// The console platforms a failed page check (canary) paused: 1 with the failing step, else 0 — what
/// an operator's alert rule watches (the console shows it too: `InitAdminView.paused_platforms`).
async fn write_paused(st: &AppState, out: &mut String) -> anyhow::Result<()> {
    use services::matrix::canary::{CONSOLE_PLATFORMS, paused_states};
    let paused = paused_states(&st.db).await?;
    writeln!(
        out,
        "# HELP clipmatrix_platform_paused A console platform whose failed page check holds its posts back (1), with the failing step."
    )?;
    writeln!(out, "# TYPE clipmatrix_platform_paused gauge")?;
    for p in CONSOLE_PLATFORMS {
        let hit = paused.iter().find(|(q, _)| *q == p);
        writeln!(
            out,
            "clipmatrix_platform_paused{{platform=\"{}\",step=\"{}\"}} {}",
            p.code(),
            label(hit.map_or("", |(_, s)| s.step.as_str())),
            u8::from(hit.is_some())
        )?;
    }
    Ok(())
}

fn write_requests(out: &mut String) -> std::fmt::Result {
    let r = requests().lock().unwrap_or_else(|e| e.into_inner()).clone();
    writeln!(
        out,
        "# HELP clipmatrix_http_request_duration_seconds Request latency on this node."
    )?;
    writeln!(
        out,
        "# TYPE clipmatrix_http_request_duration_seconds histogram"
    )?;
    for ((method, route, class), h) in &r {
        let l = format!(
            "method=\"{method}\",route=\"{}\",status=\"{class}\"",
            label(route)
        );
        for (i, b) in BUCKETS.iter().enumerate() {
            writeln!(
                out,
                "clipmatrix_http_request_duration_seconds_bucket{{{l},le=\"{b}\"}} {}",
                h.counts[i]
            )?;
        }
        writeln!(
            out,
            "clipmatrix_http_request_duration_seconds_bucket{{{l},le=\"+Inf\"}} {}",
            h.count
        )?;
        writeln!(
            out,
            "clipmatrix_http_request_duration_seconds_sum{{{l}}} {}",
            h.sum
        )?;
        writeln!(
            out,
            "clipmatrix_http_request_duration_seconds_count{{{l}}} {}",
            h.count
        )?;
    }
    Ok(())
}

async fn write_jobs(st: &AppState, now: i64, out: &mut String) -> anyhow::Result<()> {
    let depth = store::ops::queue_depth(&st.db, now).await?;
    writeln!(
        out,
        "# HELP clipmatrix_jobs Jobs queued (due or backing off) and running, per kind."
    )?;
    writeln!(out, "# TYPE clipmatrix_jobs gauge")?;
    for d in &depth {
        writeln!(
            out,
            "clipmatrix_jobs{{kind=\"{}\",state=\"{}\"}} {}",
            label(d.kind.as_str()),
            d.state,
            d.count
        )?;
    }
    writeln!(
        out,
        "# HELP clipmatrix_job_oldest_age_seconds How long the oldest due job has waited, or the oldest running one has run."
    )?;
    writeln!(out, "# TYPE clipmatrix_job_oldest_age_seconds gauge")?;
    for d in &depth {
        let age = d
            .oldest
            .map(|t| (now - t).max(0) as f64 / 1000.0)
            .unwrap_or(0.0);
        writeln!(
            out,
            "clipmatrix_job_oldest_age_seconds{{kind=\"{}\",state=\"{}\"}} {age}",
            label(d.kind.as_str()),
            d.state
        )?;
    }
    writeln!(
        out,
        "# HELP clipmatrix_job_run_seconds Run time of the jobs finished in the last hour (renders: clip.render, publishing: publish.item)."
    )?;
    writeln!(out, "# TYPE clipmatrix_job_run_seconds summary")?;
    for kind in domain::jobs::JobKind::ALL {
        let mut t = store::ops::run_times(&st.db, kind, now - WINDOW_MS, 10_000).await?;
        if t.is_empty() {
            continue;
        }
        t.sort_unstable();
        let k = kind.as_str();
        for q in [0.5, 0.9, 0.99] {
            writeln!(
                out,
                "clipmatrix_job_run_seconds{{kind=\"{k}\",quantile=\"{q}\"}} {}",
                quantile(&t, q) as f64 / 1000.0
            )?;
        }
        let sum: i64 = t.iter().sum();
        writeln!(
            out,
            "clipmatrix_job_run_seconds_sum{{kind=\"{k}\"}} {}",
            sum as f64 / 1000.0
        )?;
        writeln!(
            out,
            "clipmatrix_job_run_seconds_count{{kind=\"{k}\"}} {}",
            t.len()
        )?;
    }
    let mut by_reason: BTreeMap<(String, String, String), i64> = BTreeMap::new();
    for f in store::ops::failures(&st.db, now - WINDOW_MS).await? {
        *by_reason
            .entry((f.kind.to_string(), f.state.to_string(), reason_of(&f.error)))
            .or_default() += f.count;
    }
    writeln!(
        out,
        "# HELP clipmatrix_job_failures Jobs whose last attempt failed in the last hour, per kind, state (failed = will retry, dead = gave up) and reason."
    )?;
    writeln!(out, "# TYPE clipmatrix_job_failures gauge")?;
    for ((kind, state, reason), n) in by_reason {
        writeln!(
            out,
            "clipmatrix_job_failures{{kind=\"{}\",state=\"{}\",reason=\"{}\"}} {n}",
            label(&kind),
            label(&state),
            label(&reason)
        )?;
    }
    Ok(())
}
