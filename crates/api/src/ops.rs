//! Operating a node: `/readyz` (the database and the media storage answer) and `/metrics`
//! (Prometheus text format, written by hand: request latencies measured on this node; job queue
//! depth and age, run times and failures read from the database, so every node reports the cluster).

use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
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

/// A path with its ids folded (`/api/materials/17` -> `/api/materials/:id`), so the series stay few.
pub fn route_of(path: &str) -> String {
    let known = [
        "api", "files", "healthz", "readyz", "metrics", "sandbox", "oauth", "webhook", "nfc", "t",
    ];
    let mut parts = path.trim_matches('/').split('/');
    let first = parts.next().unwrap_or("");
    if !known.contains(&first) {
        // The console's pages and assets.
        return "/(console)".into();
    }
    let mut out = format!("/{first}");
    for seg in parts.take(4) {
        let id = !seg.is_empty()
            && (seg.chars().all(|c| c.is_ascii_digit())
                || (seg.len() >= 16 && seg.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')));
        out.push('/');
        out.push_str(if id { ":id" } else { seg });
    }
    out
}

/// Times every request (a layer over the whole router).
pub async fn track(req: Request, next: Next) -> Response {
    let method = req.method().as_str().to_string();
    let route = route_of(req.uri().path());
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
    let h = r.entry((method, route, class)).or_default();
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

pub async fn metrics(State(st): State<AppState>, req: Request) -> Response {
    // A token, when one is configured, keeps the figures to the collector.
    if let Ok(token) = std::env::var("CLIPMATRIX_METRICS_TOKEN")
        && !token.is_empty()
    {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if given != Some(token.as_str()) {
            return StatusCode::UNAUTHORIZED.into_response();
        }
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
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    )
        .into_response()
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
            label(&d.kind),
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
            label(&d.kind),
            d.state
        )?;
    }
    writeln!(
        out,
        "# HELP clipmatrix_job_run_seconds Run time of the jobs finished in the last hour (renders: clip.render, publishing: publish.item)."
    )?;
    writeln!(out, "# TYPE clipmatrix_job_run_seconds summary")?;
    for kind in domain::jobs::JobKind::ALL {
        let mut t = store::ops::run_times(&st.db, kind.as_str(), now - WINDOW_MS, 10_000).await?;
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
            .entry((f.kind, f.state, reason_of(&f.error)))
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
