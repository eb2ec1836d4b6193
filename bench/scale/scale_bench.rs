//! Scale-out figures (issue 20): the same processes as the multi-node test (crates/app/tests/multinode.rs,
//! whose machinery `common/cluster.rs` this includes) — PostgreSQL, moto (S3), a standalone sandbox,
//! `serve --no-workers` API nodes and `worker` nodes on empty folders — without the faults. Prints:
//!   bench: render_variants_per_min_{1,2}_worker(s)   variants rendered per minute by 1, then 2 workers
//!   bench: render_scaling_2_workers <ratio> x        2 workers against 1 (same run, same sizes)
//!   bench: publish_items_per_s_{1,2}_worker(s), publish_scaling_2_workers <ratio> x
//!   bench: *_cpu_s_worker_<k>, *_machine_busy_pct    CPU seconds per worker node (ffmpeg included) and
//!                                                    how busy the machine's cores were in the phase
//!                                                    (every process, other users' included)
//!   bench: list_<name>_100k_pg_{rps,p99_ms}_{1,2}_api, list_<name>_scaling_2_api <ratio> x
//!                                                    the lists of bench/lists.mjs (same seed,
//!                                                    bench/lists_seed.sql) on PostgreSQL at 100k rows,
//!                                                    32 connections on node A, then spread over A and B
//!   bench: render_{local,s3}_ms, s3_render_overhead <ratio> x, s3_render_cold_overhead <ratio> x
//!                                                    one render's job time on one node with the local
//!                                                    folder against S3 (warm cache: median; cold: the
//!                                                    first render on an empty disk)
//! Every phase also checks there was no double work: one job per variant or item, each done after one
//! attempt (a job two workers both ran would show two), and one platform create per item.
//! Publishing is timed from the approval, so it includes the dispatcher's tick (up to 1 s).
//! On 2 cores one worker's ffmpeg already keeps both busy, so 2 workers on one machine cannot render
//! twice as fast: the ratio shows what a second node adds (or costs) here, not on two machines.
//! Usage: make bench, or `cargo bench -p app --bench scale_bench` with CLIPMATRIX_TEST_POSTGRES_URL
//! (or CLIPMATRIX_BENCH_POSTGRES_URL) set; without PostgreSQL it says so and prints nothing.
//! Sizes: BENCH_SCALE_VARIANTS (16 per phase), BENCH_SCALE_ITEMS (150 per phase), BENCH_N (3000
//! requests per list and node count), BENCH_SCALE_RENDERS (5 per backend).

#[path = "../../crates/app/tests/common/cluster.rs"]
mod cluster;
#[path = "../../crates/media/tests/moto/mod.rs"]
mod moto;

use cluster::{
    ADMIN_PW, Api, Cluster, DEMO_PW, Proc, copies_of_material, fresh_pg_database, sandbox_counts,
    size, standalone_sandbox,
};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use store::Db;

const CONNECTIONS: usize = 32;

/// CPU time (s) a process and its waited-for children (ffmpeg) have used, from /proc.
fn cpu_secs(p: &Proc) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", p.0.id())).unwrap_or_default();
    // Fields after the command's closing parenthesis: utime is the 12th, then stime, cutime, cstime.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .filter_map(|v| v.parse::<u64>().ok())
        .sum();
    ticks as f64 / clock_ticks()
}

fn clock_ticks() -> f64 {
    static TCK: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TCK.get_or_init(|| {
        std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The machine's (busy, total) CPU ticks over all cores, from /proc/stat.
fn machine_ticks() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let v: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

/// What a phase cost: wall time, CPU per worker node, how busy the machine was.
struct Usage {
    t0: Instant,
    cpu0: Vec<f64>,
    machine0: (u64, u64),
}

impl Usage {
    fn start(workers: &[Proc]) -> Usage {
        Usage {
            t0: Instant::now(),
            cpu0: workers.iter().map(cpu_secs).collect(),
            machine0: machine_ticks(),
        }
    }

    /// Prints the CPU lines of the phase `name`; its wall time (s).
    fn report(&self, name: &str, workers: &[Proc]) -> f64 {
        let secs = self.t0.elapsed().as_secs_f64();
        for (k, (w, c0)) in workers.iter().zip(&self.cpu0).enumerate() {
            println!(
                "bench: {name}_cpu_s_worker_{} {:.1} s",
                k + 1,
                cpu_secs(w) - c0
            );
        }
        let (b1, t1) = machine_ticks();
        let busy = (b1 - self.machine0.0) as f64 / (t1 - self.machine0.1).max(1) as f64;
        println!("bench: {name}_machine_busy_pct {:.0} %", busy * 100.0);
        secs
    }
}

async fn scalar(db: &Db, sql: &'static str, id: i64) -> i64 {
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// Waits (bounded) until `done` of `id` reaches `want`, failing at once when `bad` is not 0.
async fn wait_for(
    db: &Db,
    id: i64,
    want: usize,
    done: &'static str,
    bad: &'static str,
    what: &str,
) {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        assert_eq!(scalar(db, bad, id).await, 0, "{what}: a failure");
        let n = scalar(db, done, id).await as usize;
        if n >= want {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: {n}/{want} after 10 min");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Three shot groups of `per_group` clips of `secs` each, uploaded through `a`; the group ids, the
/// clip ids. Waits until a worker has ingested them.
async fn materials(
    a: &Api,
    t: &str,
    db: &Db,
    per_group: usize,
    secs: &str,
) -> (Vec<i64>, Vec<i64>) {
    let (groups, clips) = a.shot_groups(t, per_group, secs).await;
    let last = *clips.iter().max().unwrap();
    let n = clips.len();
    wait_for(
        db,
        last,
        n,
        "SELECT COUNT(*) FROM media_files WHERE state = 'ready' AND id <= $1",
        "SELECT COUNT(*) FROM media_files WHERE state = 'failed' AND id <= $1",
        "ingest",
    )
    .await;
    (groups, clips)
}

/// A project of `n` variants over `groups`, generated: its id, once every variant is rendered.
async fn render(a: &Api, t: &str, db: &Db, groups: &[i64], n: usize) -> i64 {
    let pid = a.generate(t, groups, n).await;
    wait_for(
        db,
        pid,
        n,
        "SELECT COUNT(*) FROM clip_variants WHERE project_id = $1 AND state = 'success'",
        "SELECT COUNT(*) FROM clip_variants WHERE project_id = $1 AND state = 'failed'",
        "render",
    )
    .await;
    pid
}

/// The highest job id so far: the jobs of a phase are those above it.
async fn job_mark(db: &Db) -> i64 {
    sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM jobs")
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// No double work in a phase: `n` jobs of `kind` above `mark`, each done after one attempt (a job two
/// workers both took would show a second attempt). A job ends just after its work shows: waits a little.
async fn ran_once(db: &Db, kind: &str, mark: i64, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (jobs, attempts, done): (i64, i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(SUM(attempts), 0)::BIGINT, COUNT(*) FILTER (WHERE state = 'done') \
             FROM jobs WHERE kind = $1 AND id > $2",
        )
        .bind(kind)
        .bind(mark)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        if done < jobs && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        assert_eq!(
            (jobs, attempts, done),
            (n as i64, n as i64, n as i64),
            "{kind}: one job per unit of work, one attempt each, all done"
        );
        return;
    }
}

fn main() {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}

async fn run() {
    let pg = [
        "CLIPMATRIX_BENCH_POSTGRES_URL",
        "CLIPMATRIX_TEST_POSTGRES_URL",
    ]
    .iter()
    .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()));
    let Some(pg) = pg else {
        eprintln!("bench scale: needs PostgreSQL (CLIPMATRIX_TEST_POSTGRES_URL); skipped");
        return;
    };
    let variants = size("BENCH_SCALE_VARIANTS", 16);
    let items = size("BENCH_SCALE_ITEMS", 150);
    let list_n = size("BENCH_N", 3000);
    let renders = size("BENCH_SCALE_RENDERS", 5).max(2);
    let t_all = Instant::now();

    let s3 = moto::Moto::start();
    s3.bucket("media").await;
    let (sandbox, sb) = standalone_sandbox().await;
    let sandbox = Proc(sandbox);
    let root = std::env::temp_dir().join(format!("cm-scalebench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let db_url = fresh_pg_database(&pg).await;
    let cluster = Cluster {
        db_url: db_url.clone(),
        s3: s3.endpoint.clone(),
        platform: sb.clone(),
        root: root.clone(),
        lease_ms: None,
    };
    let (node_a, base_a) = cluster.api("api-a").await;
    let (node_b, base_b) = cluster.api("api-b").await;
    let db = Db::connect(&db_url).await.unwrap();
    let http = reqwest::Client::new();
    let a = Api {
        http: http.clone(),
        base: base_a.clone(),
    };
    let t = a.login("demo", DEMO_PW).await;
    let op = a.login("admin", ADMIN_PW).await;

    // Materials, ingested by a worker that then goes: each phase starts on empty disks.
    let mut started = 0;
    let mut new_worker = || {
        started += 1;
        cluster.worker(started)
    };
    let per_group = (1..)
        .find(|k: &usize| k.pow(3) >= 2 * variants + 8)
        .unwrap();
    let (groups, clips) = {
        let _w = new_worker();
        materials(&a, &t, &db, per_group, "2").await
    };

    // Rendering with 1, then 2 workers (started and idle before the clock starts).
    let mut per_min = vec![];
    for (n, label) in WORKERS {
        let workers: Vec<Proc> = (0..n).map(|_| new_worker()).collect();
        tokio::time::sleep(Duration::from_secs(3)).await;
        let mark = job_mark(&db).await;
        let usage = Usage::start(&workers);
        render(&a, &t, &db, &groups, variants).await;
        let secs = usage.report(&format!("render_{label}"), &workers);
        ran_once(&db, "clip.render", mark, variants).await;
        per_min.push(variants as f64 * 60.0 / secs);
    }
    rates(
        "render_variants_per_min",
        "render_scaling_2_workers",
        &per_min,
    );

    // Publishing with 1, then 2 workers: items due at once, from the approval to the last post.
    let mut per_s = vec![];
    for (n, label) in WORKERS {
        let accounts = a
            .xhs_accounts(&t, items.div_ceil(3), &format!("w{n}-"))
            .await;
        // A clip of its own per phase: a video one task posts is not free for another.
        let videos = copies_of_material(&db, clips[n - 1], items).await;
        let task = a.plan_tomorrow(&t, &accounts, &videos).await;
        let creates0 = creates(&sb).await;
        let workers: Vec<Proc> = (0..n).map(|_| new_worker()).collect();
        tokio::time::sleep(Duration::from_secs(3)).await;
        let mark = job_mark(&db).await;
        let usage = Usage::start(&workers);
        a.post("/system/audit/approve", &op, json!({"id": task}))
            .await;
        wait_for(
            &db,
            task,
            items,
            "SELECT COUNT(*) FROM matrix_items WHERE task_id = $1 AND state IN ('published', 'released')",
            "SELECT COUNT(*) FROM matrix_items WHERE task_id = $1 AND state = 'failed'",
            "publish",
        )
        .await;
        let secs = usage.report(&format!("publish_{label}"), &workers);
        ran_once(&db, "publish.item", mark, items).await;
        assert_eq!(
            creates(&sb).await - creates0,
            items as i64,
            "one platform create per item"
        );
        per_s.push(items as f64 / secs);
    }
    rates("publish_items_per_s", "publish_scaling_2_workers", &per_s);

    // Lists at 100k rows on PostgreSQL (no worker running): node A alone, then A and B in turn.
    let seed = include_str!("../lists_seed.sql")
        .replace("{ROWS}", "100000")
        .replace("{NOW}", &domain::now_ms().to_string());
    sqlx::raw_sql(sqlx::AssertSqlSafe(seed))
        .execute(&db.pool)
        .await
        .unwrap();
    // What autovacuum does on a live database soon after such a load.
    sqlx::raw_sql("ANALYZE").execute(&db.pool).await.unwrap();
    let one = [base_a.clone()];
    let two = [base_a.clone(), base_b.clone()];
    let lists = [
        ("log", "/api/index/log"),
        (
            "materials",
            "/api/media.merchant_much_resource/video_resource_detail",
        ),
        ("finished_videos", "/api/clip.merchant_video_library/index"),
        (
            "release_items",
            "/api/task.merchant_forward_task/forward_video_release",
        ),
    ];
    let b = Api {
        http: http.clone(),
        base: base_b.clone(),
    };
    for (name, path) in lists {
        let d = b.get(path.trim_start_matches("/api"), &t, json!({})).await;
        assert!(d["total"].as_i64().unwrap_or(0) >= 1_000, "{name}: {d}");
    }
    let load = Load {
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(CONNECTIONS)
            .build()
            .unwrap(),
        n: list_n,
    };
    // A quarter as many requests to warm the pools and caches first.
    let warm = Load {
        http: load.http.clone(),
        n: (list_n / 4).max(100),
    };
    for (k, bases) in [(1, &one[..]), (2, &two[..])] {
        warm.measure(bases, "/healthz", None).await;
        let h = load.measure(bases, "/healthz", None).await;
        println!("bench: healthz_pg_rps_{k}_api {:.0} req/s", h.0);
    }
    for (name, path) in lists {
        let mut rps = vec![];
        for (k, bases) in [(1, &one[..]), (2, &two[..])] {
            warm.measure(bases, path, Some(&t)).await;
            let (r, p99) = load.measure(bases, path, Some(&t)).await;
            println!("bench: list_{name}_100k_pg_rps_{k}_api {r:.0} req/s");
            println!("bench: list_{name}_100k_pg_p99_ms_{k}_api {p99:.1} ms");
            rps.push(r);
        }
        println!("bench: list_{name}_scaling_2_api {:.2} x", rps[1] / rps[0]);
    }
    drop((node_a, node_b));
    db.close().await;

    // One render's job time on one node (`serve` with its workers): the local folder against S3, in
    // turn, so a change in the machine's load falls on both.
    let local = OneNode::start(&pg, &sb, &root, "", renders).await;
    let remote = OneNode::start(&pg, &sb, &root, &s3.endpoint, renders).await;
    let (mut local_ms, mut s3_ms) = (vec![], vec![]);
    for _ in 0..renders {
        local_ms.push(local.render_ms().await);
        s3_ms.push(remote.render_ms().await);
    }
    drop((local, remote));
    let (l, s) = (median(&local_ms[1..]), median(&s3_ms[1..]));
    println!("bench: render_local_ms {l:.0} ms");
    println!("bench: render_s3_ms {s:.0} ms");
    println!("bench: s3_render_overhead {:.2} x", s / l);
    println!("bench: render_s3_cold_ms {:.0} ms", s3_ms[0]);
    println!(
        "bench: s3_render_cold_overhead {:.2} x",
        s3_ms[0] / local_ms[0]
    );

    drop(sandbox);
    let _ = std::fs::remove_dir_all(&root);
    eprintln!("bench scale: {:.0} s", t_all.elapsed().as_secs_f64());
}

/// The worker counts of the scaling phases and their names in the bench lines.
const WORKERS: [(usize, &str); 2] = [(1, "1_worker"), (2, "2_workers")];

/// `bench: <metric>_<label> <rate>` per phase of WORKERS, then the second against the first.
fn rates(metric: &str, scaling: &str, v: &[f64]) {
    for ((_, label), r) in WORKERS.iter().zip(v) {
        println!("bench: {metric}_{label} {r:.1}");
    }
    println!("bench: {scaling} {:.2} x", v[1] / v[0]);
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The platform's create count so far (the sandbox's own).
async fn creates(sb: &str) -> i64 {
    sandbox_counts(sb).await["total_creates"].as_i64().unwrap()
}

/// One node (`serve` with its workers) on a database of its own, media in its folder (`s3` empty) or
/// in S3, with clips for `renders` single-variant projects ingested. With S3 the node that ingested
/// them is replaced by one on an empty folder: its first render finds nothing on its disk.
struct OneNode {
    _node: Proc,
    api: Api,
    token: String,
    db: Db,
    groups: Vec<i64>,
}

impl OneNode {
    async fn start(
        pg: &str,
        sb: &str,
        root: &std::path::Path,
        s3: &str,
        renders: usize,
    ) -> OneNode {
        let cluster = Cluster {
            db_url: fresh_pg_database(pg).await,
            s3: s3.to_string(),
            platform: sb.to_string(),
            root: root.join(if s3.is_empty() { "local" } else { "s3" }),
            lease_ms: None,
        };
        let db = Db::connect(&cluster.db_url).await.unwrap();
        let (mut node, base) = cluster.serve("ingest", &[]).await;
        let mut api = Api {
            http: reqwest::Client::new(),
            base,
        };
        let token = api.login("demo", DEMO_PW).await;
        let per_group = (1..).find(|k: &usize| k.pow(3) >= renders + 2).unwrap();
        let (groups, _) = materials(&api, &token, &db, per_group, "2").await;
        if !s3.is_empty() {
            drop(node);
            (node, api.base) = cluster.serve("render", &[]).await;
        }
        OneNode {
            _node: node,
            api,
            token,
            db,
            groups,
        }
    }

    /// One variant rendered: its job's run time (ms), from the job's own timestamps.
    async fn render_ms(&self) -> f64 {
        let mark = job_mark(&self.db).await;
        render(&self.api, &self.token, &self.db, &self.groups, 1).await;
        ran_once(&self.db, "clip.render", mark, 1).await;
        let ms: i64 = sqlx::query_scalar(
            "SELECT finished_at - started_at FROM jobs WHERE kind = 'clip.render' AND id > $1",
        )
        .bind(mark)
        .fetch_one(&self.db.pool)
        .await
        .unwrap();
        ms as f64
    }
}

/// Concurrent GETs: CONNECTIONS in flight, `n` in all, spread over `bases` in turn.
struct Load {
    http: reqwest::Client,
    n: usize,
}

impl Load {
    /// Requests per second and the p99 latency (ms) of `path`.
    async fn measure(&self, bases: &[String], path: &str, token: Option<&str>) -> (f64, f64) {
        let next = Arc::new(AtomicUsize::new(0));
        let t0 = Instant::now();
        let tasks: Vec<_> = (0..CONNECTIONS)
            .map(|_| {
                let (http, next, n) = (self.http.clone(), next.clone(), self.n);
                let urls: Vec<String> = bases.iter().map(|b| format!("{b}{path}")).collect();
                let token = token.map(String::from);
                tokio::spawn(async move {
                    let mut lat = vec![];
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return lat;
                        }
                        let mut req = http.get(&urls[i % urls.len()]);
                        if let Some(t) = &token {
                            req = req.bearer_auth(t);
                        }
                        let s = Instant::now();
                        let r = req.send().await.unwrap();
                        assert!(
                            r.status().is_success(),
                            "{}: {}",
                            urls[i % urls.len()],
                            r.status()
                        );
                        r.bytes().await.unwrap();
                        lat.push(s.elapsed().as_secs_f64() * 1000.0);
                    }
                })
            })
            .collect();
        let mut lat = vec![];
        for t in tasks {
            lat.extend(t.await.unwrap());
        }
        let secs = t0.elapsed().as_secs_f64();
        lat.sort_by(|a, b| a.total_cmp(b));
        (self.n as f64 / secs, lat[lat.len() * 99 / 100])
    }
}
