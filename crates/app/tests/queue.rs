//! The durable job queue and the points ledger, on every configured backend: leases, heartbeats,
//! a worker killed mid-job, retries with backoff, idempotency; deductions that never overdraw.

use crate::common;
use common::*;
use domain::jobs::{Cleanup, Job, JobKind};
use domain::system::points::Reason;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use store::jobs::{self, JobError, NewJob, Registry, WorkerConfig};

fn cfg(id: &str, lease_ms: i64) -> WorkerConfig {
    WorkerConfig {
        id: id.into(),
        lease_ms,
        poll_ms: 20,
        concurrency: 2,
        backoff_base_ms: 50,
    }
}

async fn wait_state(db: &store::Db, id: i64, state: &str) -> jobs::Job {
    for _ in 0..400 {
        let j = jobs::get(db, id).await.unwrap().unwrap();
        if j.state.as_str() == state {
            return j;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "job {id} never reached {state}: {:?}",
        jobs::get(db, id).await.unwrap()
    );
}

/// The kind these tests run with handlers of their own: the queue is the same for every kind, and
/// the worker of a test claims only the kinds its registry names.
const TEST: JobKind = JobKind::MaintenanceCleanup;

/// A job of the [`TEST`] kind, to submit as it is or with more set.
fn test_job() -> NewJob {
    NewJob::new(Job::MaintenanceCleanup(Cleanup))
}

/// A job of the [`TEST`] kind: its id.
async fn submit_slow(db: &store::Db) -> i64 {
    jobs::submit(db, &test_job()).await.unwrap()
}

/// Waits until job `id` has reported at least `pct`.
async fn wait_progress(db: &store::Db, id: i64, pct: i64) {
    while jobs::get(db, id).await.unwrap().unwrap().progress < pct {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_worker_killed_mid_job_is_replaced_and_the_job_completes_once() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let effects = Arc::new(AtomicUsize::new(0));
        let started = Arc::new(AtomicUsize::new(0));
        let mut reg = Registry::default();
        let (e, s) = (effects.clone(), started.clone());
        reg.register(TEST, move |ctx, _| {
            let (e, s) = (e.clone(), s.clone());
            async move {
                let attempt = s.fetch_add(1, Ordering::SeqCst);
                ctx.progress(10).await?;
                // The first attempt hangs, as if the process froze, until its worker is killed.
                if attempt == 0 {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                }
                ctx.progress(90).await?;
                e.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }
        });
        let id = submit_slow(&db).await;

        let (_tx1, rx1) = tokio::sync::watch::channel(false);
        let doomed = tokio::spawn(jobs::run_worker(
            db.clone(),
            reg.clone(),
            cfg("doomed", 300),
            rx1,
        ));
        let j = wait_state(&db, id, "running").await;
        assert_eq!(j.lease_owner.as_deref(), Some("doomed"));
        wait_progress(&db, id, 10).await;
        // Kill the worker: its heartbeats stop, its attempt never reports back.
        doomed.abort();
        let _ = doomed.await;

        let (tx2, rx2) = tokio::sync::watch::channel(false);
        let rescuer = tokio::spawn(jobs::run_worker(
            db.clone(),
            reg.clone(),
            cfg("rescuer", 300),
            rx2,
        ));
        let j = wait_state(&db, id, "done").await;
        assert_eq!(j.attempts, 2);
        assert_eq!(j.lease_owner.as_deref(), Some("rescuer"));
        assert_eq!(j.progress, 100);
        assert_eq!(effects.load(Ordering::SeqCst), 1);
        // A late completion from the dead worker's identity is refused.
        assert!(!jobs::complete(&db, id, "doomed").await.unwrap());
        tx2.send(true).unwrap();
        rescuer.await.unwrap();
        assert_eq!(effects.load(Ordering::SeqCst), 1);
    }
}

/// A worker whose database stops answering gives its attempt up once its lease has run out unrenewed:
/// by then another worker may have taken the job, and two runs of it must not overlap.
#[tokio::test]
async fn a_worker_that_cannot_renew_its_lease_gives_the_attempt_up() {
    let dir = tempdir::TempDir::new();
    let url = format!("sqlite://{}/t.db", dir.path.display());
    let db = store::Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    // The worker's own connections, closed under it below.
    let cut_off = store::Db::connect(&url).await.unwrap();
    struct Dropped(Arc<AtomicUsize>);
    impl Drop for Dropped {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicUsize::new(0));
    let mut reg = Registry::default();
    let d = dropped.clone();
    reg.register(TEST, move |ctx, _| {
        let d = d.clone();
        async move {
            let _flag = Dropped(d);
            ctx.progress(10).await?;
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok(())
        }
    });
    let id = submit_slow(&db).await;
    let (_tx, rx) = tokio::sync::watch::channel(false);
    let worker = tokio::spawn(jobs::run_worker(
        cut_off.clone(),
        reg,
        cfg("cut-off", 300),
        rx,
    ));
    wait_progress(&db, id, 10).await;
    cut_off.pool.close().await;
    for _ in 0..400 {
        if dropped.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        1,
        "the attempt was given up"
    );
    worker.abort();
}

#[tokio::test]
async fn failures_back_off_then_die_with_their_reason_and_can_be_retried() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let calls = Arc::new(AtomicUsize::new(0));
        let mut reg = Registry::default();
        let c = calls.clone();
        reg.register(TEST, move |_ctx, _| {
            let c = c.clone();
            async move {
                let n = c.fetch_add(1, Ordering::SeqCst);
                if n < 4 {
                    Err(JobError::Retry(format!("attempt {} failed", n + 1)))
                } else {
                    Ok(())
                }
            }
        });
        // A render whose payload this build cannot read (as a row an older version wrote might be):
        // the worker never hands it to the handler.
        reg.register(JobKind::ClipRender, |_ctx, _| async { Ok(()) });
        let flaky = jobs::submit(
            &db,
            &NewJob {
                max_attempts: Some(3),
                ..test_job()
            },
        )
        .await
        .unwrap();
        let bad: i64 = sqlx::query_scalar(
            "INSERT INTO jobs (kind, payload, run_at, created_at, updated_at) \
             VALUES ('clip.render', '{\"x\": 1}', 0, 0, 0) RETURNING id",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        let (tx, rx) = tokio::sync::watch::channel(false);
        let w = tokio::spawn(jobs::run_worker(
            db.clone(),
            reg.clone(),
            cfg("w", 5_000),
            rx,
        ));
        let j = wait_state(&db, flaky, "dead").await;
        assert_eq!(j.attempts, 3);
        assert_eq!(j.last_error.as_deref(), Some("attempt 3 failed"));
        // A permanent error (bad payload) dies on the first attempt.
        let j = wait_state(&db, bad, "dead").await;
        assert_eq!(j.attempts, 1);
        assert!(j.last_error.unwrap().starts_with("bad payload"));
        // Retry from the monitor: a fresh set of attempts, and it succeeds on the 5th call overall.
        assert!(jobs::retry(&db, flaky).await.unwrap());
        let j = wait_state(&db, flaky, "done").await;
        assert_eq!(j.attempts, 2);
        assert_eq!(calls.load(Ordering::SeqCst), 5);
        tx.send(true).unwrap();
        w.await.unwrap();
    }
}

/// A job lost with its workers too often (a poison pill) is given up without doing its work
/// again, but its handler's final-failure path runs: the row it works for fails with the reason
/// (and its points go back) instead of staying "processing" for ever.
#[tokio::test]
async fn a_job_lost_too_often_fails_its_row_without_running_its_work() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let (worked, finalized) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut reg = Registry::default();
        let (w, f) = (worked.clone(), finalized.clone());
        reg.register(TEST, move |ctx, _| {
            let (w, f) = (w.clone(), f.clone());
            async move {
                let result = ctx
                    .attempt(async {
                        w.fetch_add(1, Ordering::SeqCst);
                        Ok(())
                    })
                    .await;
                if let Err(e) = &result
                    && ctx.is_final(e)
                {
                    f.fetch_add(1, Ordering::SeqCst);
                }
                result
            }
        });
        let id = submit_slow(&db).await;
        // As if ten workers had died holding it: the next claim is one attempt past the grace.
        sqlx::query("UPDATE jobs SET attempts = max_attempts + $1, last_error = 'worker lost' WHERE id = $2")
            .bind(jobs::LOST_WORKER_GRACE)
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        let (tx, rx) = tokio::sync::watch::channel(false);
        let run = tokio::spawn(jobs::run_worker(
            db.clone(),
            reg.clone(),
            cfg("w", 5_000),
            rx,
        ));
        let j = wait_state(&db, id, "dead").await;
        let err = j.last_error.unwrap_or_default();
        assert!(err.starts_with("given up: its workers were lost"), "{err}");
        assert_eq!(
            worked.load(Ordering::SeqCst),
            0,
            "the work must not run again"
        );
        assert_eq!(
            finalized.load(Ordering::SeqCst),
            1,
            "the row's final failure must run"
        );
        tx.send(true).unwrap();
        run.await.unwrap();
    }
}

#[tokio::test]
async fn backoff_delays_the_next_attempt() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let id = jobs::submit(&db, &test_job()).await.unwrap();
        let kinds = vec![TEST];
        let j = jobs::claim(&db, "w", &kinds, 30_000)
            .await
            .unwrap()
            .unwrap();
        jobs::fail(
            &db,
            j.id,
            "w",
            "boom",
            jobs::backoff(60_000, j.attempts),
            false,
        )
        .await
        .unwrap();
        assert!(
            jobs::claim(&db, "w", &kinds, 30_000)
                .await
                .unwrap()
                .is_none(),
            "not before its run_at"
        );
        sqlx::query("UPDATE jobs SET run_at = 0 WHERE id = $1")
            .bind(id)
            .execute(&db.pool)
            .await
            .unwrap();
        let j = jobs::claim(&db, "w", &kinds, 30_000)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((j.id, j.attempts, j.state.as_str()), (id, 2, "running"));
    }
}

#[tokio::test]
async fn idempotency_keys_and_concurrent_claims_give_each_job_once() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let job = |k: &str| NewJob {
            idempotency_key: Some(k.into()),
            ..test_job()
        };
        let a = jobs::submit(&db, &job("same")).await.unwrap();
        let b2 = jobs::submit(&db, &job("same")).await.unwrap();
        assert_eq!(a, b2);
        // Enqueued inside a transaction: rolled back, it never existed.
        let mut tx = db.pool.begin().await.unwrap();
        jobs::enqueue(&mut tx, &job("rolled-back")).await.ok();
        drop(tx);
        for i in 0..29 {
            jobs::submit(&db, &job(&format!("k{i}"))).await.unwrap();
        }
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(total, 30);
        // Four claimers race; every job is claimed exactly once.
        let mut handles = vec![];
        for w in 0..4 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                let mut got = vec![];
                while let Some(j) = jobs::claim(&db, &format!("w{w}"), &[TEST], 60_000)
                    .await
                    .unwrap()
                {
                    got.push(j.id);
                }
                got
            }));
        }
        let mut all: Vec<i64> = vec![];
        for h in handles {
            all.extend(h.await.unwrap());
        }
        all.sort();
        let n = all.len();
        all.dedup();
        assert_eq!((n, all.len()), (30, 30));
    }
}

#[tokio::test]
async fn points_never_go_negative_and_deductions_are_idempotent() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let (m, _) = store::auth::users::create_merchant(&db, "P", "p_owner", None, "x")
            .await
            .unwrap();
        store::system::points::topup(&db, m.id, 100, Reason::Topup, "start", "test")
            .await
            .unwrap();
        let e1 = store::system::points::deduct(&db, m.id, 30, Reason::VideoSynthesis, "job:1")
            .await
            .unwrap();
        let e2 = store::system::points::deduct(&db, m.id, 30, Reason::VideoSynthesis, "job:1")
            .await
            .unwrap();
        assert_eq!((e1.id, e2.id, e1.balance), (e2.id, e1.id, 70));
        assert_eq!(store::system::points::balance(&db, m.id).await.unwrap(), 70);
        let err = store::system::points::deduct(&db, m.id, 71, Reason::VideoSynthesis, "job:2")
            .await
            .unwrap_err();
        assert!(matches!(
            err,
            store::system::points::PointsError::Insufficient {
                need: 71,
                balance: 70
            }
        ));
        assert!(
            store::system::points::deduct(&db, m.id, 0, Reason::VideoSynthesis, "job:3")
                .await
                .is_err()
        );
        // Refund once.
        store::system::points::refund(&db, m.id, "job:1", Reason::VideoSynthesisFailed)
            .await
            .unwrap()
            .unwrap();
        store::system::points::refund(&db, m.id, "job:1", Reason::VideoSynthesisFailed)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            store::system::points::balance(&db, m.id).await.unwrap(),
            100
        );
        assert!(
            store::system::points::refund(&db, m.id, "job:none", Reason::VideoSynthesisFailed)
                .await
                .unwrap()
                .is_none()
        );
        // Twenty concurrent deductions of 10 from 100: exactly ten succeed.
        let mut hs = vec![];
        for i in 0..20 {
            let db = db.clone();
            hs.push(tokio::spawn(async move {
                store::system::points::deduct(
                    &db,
                    m.id,
                    10,
                    Reason::VideoSynthesis,
                    &format!("race:{i}"),
                )
                .await
                .is_ok()
            }));
        }
        let mut ok = 0;
        for h in hs {
            ok += h.await.unwrap() as i32;
        }
        assert_eq!(ok, 10);
        assert_eq!(store::system::points::balance(&db, m.id).await.unwrap(), 0);
        let sum: i64 = sqlx::query_scalar(
            "SELECT CAST(SUM(change) AS BIGINT) FROM points_ledger WHERE merchant_id = $1",
        )
        .bind(m.id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(sum, 0);
    }
}

/// An idle worker starts a new job at once, not after its poll interval (here an hour): the upload's
/// ingest should not wait for the next poll.
#[tokio::test]
async fn an_idle_worker_is_woken_by_a_new_job() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let mut reg = Registry::default();
        reg.register(TEST, |_ctx, _| async { Ok(()) });
        let quick = test_job;
        let (tx, rx) = tokio::sync::watch::channel(false);
        let mut c = cfg("idle", 5_000);
        c.poll_ms = 3_600_000;
        let w = tokio::spawn(jobs::run_worker(db.clone(), reg, c, rx));
        // The first job is claimed by the worker's first look; after it the worker sleeps.
        let first = jobs::submit(&db, &quick()).await.unwrap();
        wait_state(&db, first, "done").await;
        let second = jobs::submit(&db, &quick()).await.unwrap();
        wait_state(&db, second, "done").await;
        // Enqueued inside a transaction, woken once it commits.
        let mut t = db.begin().await.unwrap();
        let third = jobs::enqueue(&mut t, &quick()).await.unwrap();
        jobs::commit_and_wake(t).await.unwrap();
        wait_state(&db, third, "done").await;
        tx.send(true).unwrap();
        w.await.unwrap();
    }
}

/// A kind without a handler would sit queued for ever: the app's registry runs every kind, and only those.
#[tokio::test]
async fn the_app_registers_a_handler_for_every_job_kind() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut all = JobKind::ALL.to_vec();
    all.sort();
    assert_eq!(services::jobs::registry(&app.state).kinds(), all);
}

/// A job of `kind` for merchant `m`, due at `run_at`: its id. The payloads name nothing: these
/// tests' handlers do not read them.
async fn submit_for(db: &store::Db, kind: JobKind, m: i64, run_at: i64) -> i64 {
    let job = NewJob {
        merchant_id: Some(m),
        run_at: Some(run_at),
        ..NewJob::new(any_job(kind))
    };
    jobs::submit(db, &job).await.unwrap()
}

/// A job of `kind` with a payload naming id 0.
fn any_job(kind: JobKind) -> Job {
    use domain::jobs::*;
    match kind {
        JobKind::PublishItem => Job::PublishItem(ItemRef { item_id: 0 }),
        JobKind::ClipRender => Job::ClipRender(ClipRender { variant_id: 0 }),
        JobKind::Tts => Job::Tts(TtsRef { task_id: 0 }),
        JobKind::ClipOneTouch => Job::ClipOneTouch(AiClipRef { ai_clip_id: 0 }),
        other => panic!("no test payload for {other}"),
    }
}

/// Posting and media work wait in separate lanes: one merchant's queue of long renders, speech and
/// one-touch jobs, filling every media slot, does not hold up another merchant's due post.
#[tokio::test]
async fn a_due_post_does_not_wait_behind_another_merchants_media_jobs() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let release = Arc::new(tokio::sync::Notify::new());
        let mut reg = Registry::default();
        for kind in [JobKind::ClipRender, JobKind::Tts, JobKind::ClipOneTouch] {
            let r = release.clone();
            reg.register(kind, move |_ctx, _| {
                let r = r.clone();
                async move {
                    r.notified().await;
                    Ok(())
                }
            });
        }
        reg.register(JobKind::PublishItem, |_ctx, _| async { Ok(()) });
        let now = domain::now_ms();
        let mut media = vec![];
        for i in 0..12 {
            let kind = [JobKind::ClipRender, JobKind::Tts, JobKind::ClipOneTouch][i % 3];
            media.push(submit_for(&db, kind, 1, now - 60_000 + i as i64).await);
        }
        let (tx, rx) = tokio::sync::watch::channel(false);
        let w = tokio::spawn(jobs::run_worker(db.clone(), reg, cfg("w", 5_000), rx));
        // Both slots of the worker's media lane busy with merchant 1's jobs, ten more queued...
        wait_state(&db, media[0], "running").await;
        wait_state(&db, media[1], "running").await;
        // ...and merchant 2's post, due now, is done at once.
        let post = submit_for(&db, JobKind::PublishItem, 2, domain::now_ms()).await;
        wait_state(&db, post, "done").await;
        let running: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE state = 'running'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(running, 2, "the media jobs still hold their slots");
        assert_eq!(
            jobs::get(&db, media[11]).await.unwrap().unwrap().state,
            domain::jobs::JobState::Queued
        );
        w.abort();
        let _ = w.await;
        drop(tx);
    }
}

/// Within a lane, the merchant with the fewest jobs running goes next: merchant B's one job runs
/// before merchant A's second, however many A queued first; jobs without a merchant take turns too.
#[tokio::test]
async fn within_a_lane_merchants_take_turns() {
    for b in backends() {
        let (db, _dir) = fresh_db(b).await;
        let now = domain::now_ms();
        let mut a = vec![];
        for i in 0..10 {
            a.push(submit_for(&db, JobKind::ClipRender, 1, now - 60_000 + i).await);
        }
        let b_job = submit_for(&db, JobKind::ClipRender, 2, now - 1_000).await;
        let system = jobs::submit(
            &db,
            &NewJob {
                run_at: Some(now - 500),
                ..NewJob::new(any_job(JobKind::ClipRender))
            },
        )
        .await
        .unwrap();
        let kinds = vec![JobKind::ClipRender];
        let mut order = vec![];
        while let Some(j) = jobs::claim(&db, "w", &kinds, 30_000).await.unwrap() {
            order.push(j.id);
        }
        assert_eq!(&order[..3], &[a[0], b_job, system], "{order:?}");
        assert_eq!(&order[3..], &a[1..]);
        // A finished job no longer counts: B's next one goes before A's queue again.
        let b_next = submit_for(&db, JobKind::ClipRender, 2, now).await;
        assert!(jobs::complete(&db, b_job, "w").await.unwrap());
        let a_more = submit_for(&db, JobKind::ClipRender, 1, now - 90_000).await;
        let j = jobs::claim(&db, "w", &kinds, 30_000)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(j.id, b_next, "A ({a_more}) has ten running, B none");
    }
}
