//! The canary of the creator-console flows (what and why: `domain::matrix::canary`): one live account
//! per console platform walks a publish up to its last click (`platforms::Adapter::canary`) without
//! publishing. The result is kept per platform (a setting); a failure pauses that platform's due items
//! — the dispatcher leaves them waiting (`paused`), they do not fail — until a canary passes again or
//! the operator resumes. Run daily by the scheduler (a `platform.canary` job per platform), on demand
//! from System → Platform apps, and by `clipmatrix platforms check <platform>`.

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, HubRef, platform, platform_reason};
use domain::i18n::Msg;
use domain::jobs::{CanaryRef, Job};
use domain::matrix::canary::{CANARY_KEY_PREFIX, CanaryState, canary_key};
use platforms::{Declaration, Platform, PublishReq};
use std::time::Duration;
use store::Db;
use store::matrix as db;

/// The platforms whose publish is a creator-console flow.
pub const CONSOLE_PLATFORMS: [Platform; 3] = [Platform::Xhs, Platform::Sph, Platform::Shop];

/// A platform's last canary (None: never ran).
pub async fn state(d: &Db, p: Platform) -> sqlx::Result<Option<CanaryState>> {
    Ok(CanaryState::parse(
        d.setting(&canary_key(p.code())).await?.as_deref(),
    ))
}

/// The platforms whose due items wait for a passing canary, with the canary that paused them: one
/// read, as the dispatcher asks every pass.
pub async fn paused_states(d: &Db) -> sqlx::Result<Vec<(Platform, CanaryState)>> {
    let rows = d.settings_with_prefix(CANARY_KEY_PREFIX).await?;
    Ok(CONSOLE_PLATFORMS
        .into_iter()
        .filter_map(|p| {
            let (_, v) = rows.iter().find(|(k, _)| *k == canary_key(p.code()))?;
            CanaryState::parse(Some(v))
                .filter(|s| s.paused)
                .map(|s| (p, s))
        })
        .collect())
}

/// The codes of the paused platforms (the dispatcher's filter).
pub async fn paused(d: &Db) -> sqlx::Result<Vec<&'static str>> {
    Ok(paused_states(d)
        .await?
        .into_iter()
        .map(|(p, _)| p.code())
        .collect())
}

fn console_platform(code: &str) -> ApiResult<Platform> {
    let p = platform(code)?;
    if !CONSOLE_PLATFORMS.contains(&p) {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "xhs | sph | shop".into())],
        ));
    }
    Ok(p)
}

/// A 3-s grey clip with silence: what the canary uploads (never published).
async fn sample_video(hub: &Hub) -> Result<std::path::PathBuf, String> {
    let dst = hub
        .storage
        .workspace()
        .temp_path("mp4")
        .await
        .map_err(|e| e.to_string())?;
    let mut args = media::ffmpeg::args([
        "-v",
        "error",
        "-y",
        "-nostdin",
        "-f",
        "lavfi",
        "-i",
        "color=c=gray:s=720x1280:r=30:d=3",
        "-f",
        "lavfi",
        "-i",
        "anullsrc=r=48000:cl=mono",
        "-t",
        "3",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-movflags",
        "+faststart",
    ]);
    args.push(dst.display().to_string());
    if let Err(e) = media::ffmpeg::run("ffmpeg", &args, Duration::from_secs(60)).await {
        let _ = tokio::fs::remove_file(&dst).await;
        return Err(e.to_string());
    }
    Ok(dst)
}

/// Runs a platform's canary now and keeps its result: a failure on an account pauses the platform,
/// a pass resumes it.
pub async fn run(hub: &Hub, code: &str) -> ApiResult<CanaryState> {
    let p = console_platform(code)?;
    let now = hub.db.clock.platform_now();
    let state = match db::canary_account(&hub.db, p.code()).await? {
        None => CanaryState::failed(
            now,
            0,
            "account",
            "没有可用的已授权账号，无法检查页面",
            "no authorized account to walk the pages with",
        ),
        Some(a) => {
            let (adapter, _) = hub.adapter(p).await?;
            let video = sample_video(hub)
                .await
                .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
            let req = PublishReq {
                video_path: video.clone(),
                title: "页面检查 · 不发布".into(),
                description: "clipmatrix 页面检查".into(),
                topics: vec!["探店".into()],
                declaration: Declaration::Original,
                // A day and an hour ahead, on the minute: inside every console's scheduling window,
                // so that step is walked too.
                schedule_at: Some({
                    let at = hub.db.clock.platform_now() / 1000 + 90_000;
                    at - at % 60
                }),
                ..Default::default()
            };
            let r = adapter.canary(&hub.creds(&a), &req).await;
            let _ = tokio::fs::remove_file(&video).await;
            match r {
                Ok(()) => CanaryState::passed(now, a.id),
                Err(e) => {
                    tracing::warn!(platform = p.code(), step = %e.code, reason = %platform_reason(&e), "platform canary failed");
                    CanaryState::failed(now, a.id, &e.code, &e.zh, &e.en)
                }
            }
        }
    };
    save(&hub.db, p, &state).await?;
    Ok(state)
}

async fn save(d: &Db, p: Platform, s: &CanaryState) -> sqlx::Result<()> {
    let json = serde_json::to_string(s).unwrap_or_default();
    d.set_setting(&canary_key(p.code()), &json).await
}

/// The operator's "resume": the platform's items go out again (the result stays on record).
pub async fn resume(d: &Db, code: &str) -> ApiResult<Option<CanaryState>> {
    let p = console_platform(code)?;
    let Some(mut s) = state(d, p).await? else {
        return Ok(None);
    };
    s.paused = false;
    save(d, p, &s).await?;
    Ok(Some(s))
}

/// The scheduler's pass: a `platform.canary` job for each console platform whose last canary is a
/// day old (one per platform and day: the key).
pub async fn queue_due(d: &Db) -> sqlx::Result<()> {
    let now = d.clock.platform_now();
    for p in CONSOLE_PLATFORMS {
        if !CanaryState::due(state(d, p).await?.as_ref(), now) {
            continue;
        }
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!(
                "canary:{}:{}",
                p.code(),
                now / domain::matrix::canary::CANARY_EVERY_MS
            )),
            max_attempts: Some(1),
            ..store::jobs::NewJob::new(Job::PlatformCanary(CanaryRef {
                platform: p.code().into(),
            }))
        };
        store::jobs::submit(d, &job).await?;
    }
    Ok(())
}

/// The `platform.canary` job. A platform without console accounts has nothing to walk: its result says
/// so and pauses nothing.
pub async fn run_job(p: CanaryRef, hub: HubRef) -> Result<(), store::jobs::JobError> {
    run(&hub, &p.platform)
        .await
        .map(|_| ())
        .map_err(|e| store::jobs::JobError::Permanent(e.to_string()))
}

/// The daily scheduler (one node of a cluster runs it).
pub async fn schedule_loop(d: Db, period: Duration, shutdown: tokio::sync::watch::Receiver<bool>) {
    crate::ticker::every(&d, period, shutdown, "platform canaries", || {
        let d = d.clone();
        async move { queue_due(&d).await }
    })
    .await;
}
