//! The publisher: a dispatcher that turns due items into durable jobs, and the jobs themselves.
//!
//! `publish.item` is written so a crash at any point loses nothing and posts nothing twice: each
//! step is committed before the next (upload -> video id saved; "create sent" saved -> create -> item
//! id saved), and an attempt that finds "create sent" without an item id first asks the platform
//! (the account's work list) whether the post exists. Only one create per account is in flight at a
//! time, so a listed work matches exactly one item. An item is "published" only once the account's
//! work list shows it (DESIGN.md §7); the platform's review then makes it "released" or failed.

use crate::platform::{HubRef, platform_reason};
use domain::jobs::{AccountRef, ItemRef, Job};
use domain::matrix::{AuthState, ContentDeclaration, ItemFailure, ItemState, MountType, Review};
use platforms::{
    AuthKind, Declaration, ErrorKind, Platform, PlatformError, PublishReq, Work, WorkStatus,
};
use store::jobs::{JobCtx, JobError};
use store::matrix::{self as db, Item};

/// After a create whose outcome is unknown, how long (real time, never the platform clock: the
/// sandbox can move that by days while a request is in flight) before an empty work list is taken to
/// mean "not posted": longer than the adapters' timeout, so an abandoned request has landed or died.
const CREATE_SETTLE_MS: i64 = platforms::DEFAULT_TIMEOUT_MS as i64 + 10_000;

/// A failure after which the create may still have been applied.
fn ambiguous(e: &PlatformError) -> bool {
    e.code == "timeout" || e.code == "network" || e.code.starts_with("http_5")
}

/// Review of a published work is looked at this often (real time).
const REVIEW_POLL_MS: i64 = 20_000;

/// The wait before the next look at a work under review: 20 s, 40 s, 80 s … up to 30 min, so
/// thousands of posts waiting for a slow review do not keep the workers busy (a create_video webhook
/// brings the look forward).
fn review_gap(checks: i64) -> i64 {
    (REVIEW_POLL_MS << checks.clamp(0, 10)).min(1_800_000)
}
/// Refresh access tokens this long before they end (platform clock).
const REFRESH_AHEAD_MS: i64 = 24 * 3_600_000;

/// The item fails for `why`; `args` as `reason_args` makes them.
async fn fail_item(hub: &HubRef, id: i64, why: ItemFailure, args: &str) -> Result<(), JobError> {
    db::mark_failed(&hub.db, id, why, args).await?;
    // The failure shows in the reports at once, not at the account's next statistics sync.
    crate::reports::rollup_of_item(&hub.db, id).await?;
    Ok(())
}

/// One reason, the same in both languages (our own English-only detail, a platform's review note).
fn reason(text: &str) -> String {
    serde_json::json!({ "reason": text }).to_string()
}

/// What a platform error means for the item and the job.
async fn on_error(
    hub: &HubRef,
    ctx: &JobCtx,
    it: &Item,
    a: &db::Account,
    e: PlatformError,
) -> Result<(), JobError> {
    if let Some(ev) = &e.evidence {
        keep_evidence(hub, it, ev).await;
    }
    let last = ctx.job.attempts >= ctx.job.max_attempts;
    match e.kind {
        ErrorKind::Retryable if !last => {
            db::note_retrying(&hub.db, it.id, &platform_reason(&e)).await?;
            Err(JobError::Retry(e.to_string()))
        }
        ErrorKind::TokenExpired if !last => {
            // Refresh and try again; a refused refresh marks the account expired (hub.refresh).
            match hub.refresh(a).await {
                Ok(()) => Err(JobError::Retry(format!("token refreshed after: {e}"))),
                Err(r) => {
                    fail_item(hub, it.id, ItemFailure::Reauthorize, &platform_reason(&r)).await?;
                    Ok(())
                }
            }
        }
        ErrorKind::Reauthorize => {
            let _ = hub.revoke(a.id, &e).await;
            fail_item(hub, it.id, ItemFailure::Reauthorize, &platform_reason(&e)).await?;
            Ok(())
        }
        _ => {
            fail_item(hub, it.id, ItemFailure::Refused, &platform_reason(&e)).await?;
            Ok(())
        }
    }
}

/// Stores a failed browser step's screenshot and page HTML with the item, so the merchant sees what
/// the console showed (the latest failure replaces the one before). Losing it loses only the picture:
/// the failure itself is recorded either way.
async fn keep_evidence(hub: &HubRef, it: &Item, ev: &platforms::browser::Evidence) {
    let base = media::Storage::new_key(it.merchant_id, "ev");
    let put = async |ext: &str, bytes: Vec<u8>| {
        hub.storage.put_bytes(&format!("{base}.{ext}"), bytes).await
    };
    let stored = match put("png", ev.screenshot.clone()).await {
        Ok(_) => put("html", ev.html.clone().into_bytes()).await,
        Err(e) => Err(e),
    };
    if let Err(e) = stored {
        tracing::warn!(item = it.id, error = %e, "the failed step's evidence could not be stored");
        return;
    }
    if let Err(e) = db::save_evidence(&hub.db, it.id, &ev.step, &ev.url, &base).await {
        tracing::warn!(item = it.id, error = %e, "the failed step's evidence could not be recorded");
        return;
    }
    if !it.evidence_key.is_empty() {
        for ext in ["png", "html"] {
            let _ = hub
                .storage
                .delete(&format!("{}.{ext}", it.evidence_key))
                .await;
        }
    }
}

/// The publish request for an item: its title with the task's topics, @-users and mounts.
async fn request(hub: &HubRef, it: &Item, a: &db::Account) -> Result<PublishReq, JobError> {
    let t = db::task(&hub.db, None, it.task_id)
        .await?
        .ok_or_else(|| JobError::Permanent("task gone".into()))?;
    // A release batch's row posts its own topics, @-mentions, mount and declaration.
    let cfg = &match db::item_post(&hub.db, it.id).await? {
        Some(post) => post.over(&t.config),
        None => t.config.clone(),
    };
    let s = |v: &str| Some(v.to_string()).filter(|v| !v.is_empty());
    let (media, video) = if domain::matrix::notes::is_note_key(&it.video_key) {
        note_media(hub, it, cfg).await?
    } else {
        video_media(hub, it).await?
    };
    let (poi_id, poi_name) = match (cfg.mount_type, s(&cfg.mount.poi_id)) {
        (MountType::Poi, Some(id)) => (Some(id), s(&cfg.mount.poi_name)),
        _ if !a.poi_id.is_empty() => (Some(a.poi_id.clone()), Some(a.poi_name.clone())),
        _ => (None, None),
    };
    let mini = cfg.mini_program();
    Ok(PublishReq {
        video_path: media.video_path,
        video_url: media.video_url,
        cover_path: media.cover_path,
        images: media.images,
        title: it.title.clone(),
        topics: cfg.topics.clone(),
        at_users: cfg.at_users.clone(),
        poi_id,
        poi_name,
        micro_app_id: mini.and_then(|(id, _, _)| s(id)),
        micro_app_title: mini.and_then(|(_, title, _)| s(title)),
        micro_app_url: mini.and_then(|(_, _, url)| s(url)),
        product_id: match cfg.mount_type {
            MountType::Product => s(&cfg.mount.product_id),
            _ => None,
        },
        declaration: declaration(hub, it.merchant_id, video, cfg.declaration).await?,
        ..PublishReq::default()
    })
}

/// What a post carries besides its text: a video file (with the URL a platform may fetch it from
/// and its cover frame), or an image note's pictures.
#[derive(Default)]
struct Media {
    video_path: std::path::PathBuf,
    video_url: String,
    cover_path: Option<std::path::PathBuf>,
    images: Vec<std::path::PathBuf>,
}

/// An item's video: its file, the URL a platform may fetch it from, its cover frame.
async fn video_media(hub: &HubRef, it: &Item) -> Result<(Media, Video), JobError> {
    let (storage_key, cover_key, video) = video_storage_key(hub, it).await?;
    let path = match hub.storage.local_copy(&storage_key).await {
        Ok(f) => f.path().to_path_buf(),
        Err(media::storage::StorageError::NotFound(_)) => {
            return Err(JobError::Permanent(format!(
                "the video file is missing: {}",
                it.video_key
            )));
        }
        Err(e) => return Err(JobError::Permanent(e.to_string())),
    };
    // The video's own cover frame (a variant's cover, a material's poster): Kuaishou requires a
    // cover and would otherwise show a placeholder. A cover that cannot be read is left out (the
    // platform then picks a frame), it does not stop the post.
    let cover_path = match cover_key.filter(|k| !k.is_empty()) {
        Some(k) => match hub.storage.local_copy(&k).await {
            Ok(f) => Some(f.path().to_path_buf()),
            Err(e) => {
                tracing::warn!(item = it.id, error = %e, "cover not readable; sent without");
                None
            }
        },
        None => None,
    };
    Ok((
        Media {
            video_path: path,
            // Platforms that fetch the file by URL (Baijiahao): the store's presigned URL where it
            // signs (S3), else our own signed link.
            video_url: hub
                .storage
                .store()
                .signed_url(&storage_key, 86_400)
                .unwrap_or_else(|| public_video_url(hub, it)),
            cover_path,
            images: vec![],
        },
        video,
    ))
}

/// A local copy of a stored file, or the item's permanent failure naming what is missing.
async fn local(hub: &HubRef, key: &str, what: &str) -> Result<std::path::PathBuf, JobError> {
    match hub.storage.local_copy(key).await {
        Ok(f) => Ok(f.path().to_path_buf()),
        Err(media::storage::StorageError::NotFound(_)) => Err(JobError::Permanent(format!(
            "the file of {what} is missing"
        ))),
        Err(e) => Err(JobError::Permanent(e.to_string())),
    }
}

/// An image note's pictures in order: the library's, then the frames of the finished video
/// (grabbed once per task into `notes/<merchant>/<task>/`, then reused by its other posts). What
/// the note is made of for an `auto` declaration: the frames' video, else the merchant's own pictures.
async fn note_media(
    hub: &HubRef,
    it: &Item,
    cfg: &domain::matrix::TaskConfig,
) -> Result<(Media, Video), JobError> {
    let mid = it.merchant_id;
    let mut images = vec![];
    let rows = store::materials::get_many(&hub.db, mid, &cfg.image_ids).await?;
    for id in &cfg.image_ids {
        let m = rows
            .iter()
            .find(|m| m.id == *id)
            .ok_or_else(|| JobError::Permanent(format!("the image {id} was deleted")))?;
        images.push(local(hub, &m.storage_key, &format!("image {id}")).await?);
    }
    let mut video = Video {
        provenance: String::new(),
        project: None,
    };
    if let Some(f) = cfg.frames.as_ref().filter(|f| f.count > 0) {
        let v = store::clip::variant(&hub.db, mid, f.video_id)
            .await?
            .filter(|v| !v.video_key.is_empty())
            .ok_or_else(|| JobError::Permanent(format!("the video {} was deleted", f.video_id)))?;
        let prefix = format!("notes/{mid}/{}", it.task_id);
        let keys: Vec<String> = (1..=f.count)
            .map(|i| format!("{prefix}/frame_{i:02}.jpg"))
            .collect();
        if hub.storage.local_copy(&keys[0]).await.is_err() {
            let src = local(hub, &v.video_key, &format!("video {}", f.video_id)).await?;
            let retry = |e: &dyn std::fmt::Display| JobError::Retry(e.to_string());
            let dir = hub
                .storage
                .temp_path("frames")
                .await
                .map_err(|e| retry(&e))?;
            tokio::fs::create_dir_all(&dir)
                .await
                .map_err(|e| retry(&e))?;
            let grabbed = grab(hub, &src, &dir, f.count as usize, &keys).await;
            let _ = tokio::fs::remove_dir_all(&dir).await;
            grabbed?;
        }
        for key in &keys {
            if let Ok(f) = hub.storage.local_copy(key).await {
                images.push(f.path().to_path_buf());
            }
        }
        video = Video {
            provenance: v.provenance,
            project: Some(v.project_id),
        };
    }
    if images.is_empty() {
        return Err(JobError::Permanent("the note has no pictures".into()));
    }
    Ok((
        Media {
            images,
            ..Media::default()
        },
        video,
    ))
}

/// Grabs `keys.len()` frames of `src` into `dir` and stores them under `keys`.
async fn grab(
    hub: &HubRef,
    src: &std::path::Path,
    dir: &std::path::Path,
    count: usize,
    keys: &[String],
) -> Result<(), JobError> {
    let info = media::probe::probe(src)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let files = media::image::frames(src, dir, count, info.duration_ms)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    for (file, key) in files.iter().zip(keys) {
        hub.storage
            .put_file(key, file)
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
    }
    Ok(())
}

/// The declaration the post carries: the task's, or (`auto`) what the video is by its recorded
/// provenance (`services::aigc::declared`): any generated part declares AI-generated, the merchant's
/// own footage original (explicitly: the consoles' default is never left).
async fn declaration(
    hub: &HubRef,
    mid: i64,
    video: Video,
    chosen: ContentDeclaration,
) -> Result<Declaration, JobError> {
    let provenance = match chosen {
        ContentDeclaration::Auto => video_provenance(&hub.db, mid, &video).await?,
        _ => Default::default(),
    };
    Ok(match crate::aigc::declared(chosen, &provenance) {
        ContentDeclaration::None => Declaration::None,
        ContentDeclaration::Original | ContentDeclaration::Auto => Declaration::Original,
        ContentDeclaration::AiGenerated => Declaration::AiGenerated,
        ContentDeclaration::Reposted => Declaration::Reposted,
        ContentDeclaration::Fiction => Declaration::Fiction,
    })
}

/// What an item's video is made of: its recorded provenance, and the mixing project of a variant.
struct Video {
    provenance: String,
    project: Option<i64>,
}

/// The provenance of a video; a variant rendered before provenance was recorded is generated when
/// its project is a one-touch one (the rule before).
async fn video_provenance(
    db: &store::Db,
    mid: i64,
    video: &Video,
) -> sqlx::Result<domain::clip::aigc::Provenance> {
    let p = domain::clip::aigc::Provenance::parse(&video.provenance);
    if p.is_generated() {
        return Ok(p);
    }
    let ai = match video.project {
        Some(id) if id > 0 => store::clip::project(db, mid, id)
            .await?
            .is_some_and(|p| p.mode == domain::clip::ProjectMode::Ai),
        _ => false,
    };
    Ok(domain::clip::aigc::Provenance { one_touch: ai, ..p })
}

/// The stored file of an item's video, its cover frame's if it has one, and what the video is made
/// of (the declaration `auto` reads it).
async fn video_storage_key(
    hub: &HubRef,
    it: &Item,
) -> Result<(String, Option<String>, Video), JobError> {
    let (kind, id) = it.video_key.split_once(':').unwrap_or(("", ""));
    let id: i64 = id.parse().unwrap_or(0);
    let keys = match kind {
        "v" => store::clip::variant(&hub.db, it.merchant_id, id)
            .await?
            .map(|v| {
                let video = Video {
                    provenance: v.provenance,
                    project: Some(v.project_id),
                };
                (v.video_key, Some(v.cover_key), video)
            }),
        "m" => match store::materials::get(&hub.db, it.merchant_id, id).await? {
            Some(m) => {
                let provenance = store::materials::provenance(&hub.db, it.merchant_id, id).await?;
                let video = Video {
                    provenance,
                    project: None,
                };
                Some((m.storage_key, Some(m.poster_key), video))
            }
            None => None,
        },
        _ => None,
    };
    keys.filter(|(k, _, _)| !k.is_empty())
        .ok_or_else(|| JobError::Permanent(format!("the video {} was deleted", it.video_key)))
}

/// A URL the platform can fetch the file from (Baijiahao publishes by URL): signed, a day long.
fn public_video_url(hub: &HubRef, it: &Item) -> String {
    let (kind, id) = it.video_key.split_once(':').unwrap_or(("", "0"));
    let variant = if kind == "v" { "clip" } else { "original" };
    format!(
        "{}{}",
        hub.public_url,
        (hub.sign_url)(id.parse().unwrap_or(0), variant)
    )
}

fn find<'a>(works: &'a [Work], item_id: &str) -> Option<&'a Work> {
    works.iter().find(|w| w.item_id == item_id)
}

/// Queues the publishing of a due item, keyed by its scheduled time so a rescheduled item is a new
/// job while a second queueing of the same slot is not.
async fn queue_publish(db: &store::Db, id: i64, mid: i64) -> sqlx::Result<()> {
    let at = db::item(db, id).await?.map(|i| i.scheduled_at).unwrap_or(0);
    db::queue_publish(db, id, mid, &format!("publish:{id}:{at}")).await
}

/// The platform of an account and its (cached) adapter.
async fn adapter_of(
    hub: &HubRef,
    a: &db::Account,
) -> Result<(Platform, std::sync::Arc<dyn platforms::Adapter>), JobError> {
    let platform = a.platform;
    // An account authorized in another mode than its platform's now can only be authorized again:
    // that fails the item with the reason; anything else (switched off, not configured) may be
    // fixed by the operator and is tried again.
    let ad = hub.adapter_for(a).await.map_err(|e| match &e {
        crate::error::ApiError::Invalid { field, .. } if field == "account" => {
            JobError::Permanent(e.both_languages())
        }
        _ => JobError::Retry(e.both_languages()),
    })?;
    Ok((platform, ad))
}

pub async fn run_item(ctx: JobCtx, p: ItemRef, hub: HubRef) -> Result<(), JobError> {
    let (item_id, account) = (
        p.item_id,
        db::item(&hub.db, p.item_id).await?.map(|i| i.account_id),
    );
    let r = ctx.attempt(publish_item(ctx.clone(), p, &hub)).await;
    if let Err(e) = &r
        && ctx.giving_up()
    {
        // A post may have gone out before a worker died: a retry looks in the work list first.
        fail_item(
            &hub,
            item_id,
            ItemFailure::CannotPublish,
            &reason(e.message()),
        )
        .await?;
    }
    // This account may post its next due item now: queue it without waiting for the next tick.
    if let Some(a) = account
        && let Ok(Some((id, mid))) =
            db::next_due_for_account(&hub.db, a, hub.db.clock.platform_now()).await
    {
        queue_publish(&hub.db, id, mid).await?;
    }
    r
}

async fn publish_item(ctx: JobCtx, p: ItemRef, hub: &HubRef) -> Result<(), JobError> {
    let hub = hub.clone();
    let Some(it) = db::item(&hub.db, p.item_id).await? else {
        return Ok(());
    };
    // Superseded (publish-now made a new job), done, failed or not approved: nothing to do.
    if it.job_id != ctx.job.id
        || it.review_state != Review::Approved
        || !it.state.can_become(ItemState::Publishing)
    {
        return Ok(());
    }
    let Some(mut a) = db::account_by_id(&hub.db, it.account_id).await? else {
        return fail_item(&hub, it.id, ItemFailure::AccountRemoved, "").await;
    };
    if !AuthState::of(
        a.auth_expires_at,
        a.revoked == 1,
        hub.db.clock.platform_now(),
    )
    .usable()
    {
        return fail_item(&hub, it.id, ItemFailure::AuthExpired, "").await;
    }
    // Checked again in the write: "publish now" or a reschedule may have taken the item since the read.
    if !db::start_publishing(&hub.db, it.id, ctx.job.id, ctx.job.attempts).await? {
        return Ok(());
    }
    let (platform, ad) = adapter_of(&hub, &a).await?;
    if domain::matrix::notes::is_note_key(&it.video_key)
        && domain::matrix::notes::note_rules(platform).is_none()
    {
        // Refused at task creation; an account moved to another platform since cannot post it.
        let why = format!("{} takes no image notes", platform.code());
        return fail_item(&hub, it.id, ItemFailure::CannotPublish, &reason(&why)).await;
    }
    if platform.auth_kind() == AuthKind::OAuth
        && a.token_expires_at <= hub.db.clock.platform_now() + 60_000
    {
        if let Err(e) = hub.refresh(&a).await {
            return on_error(&hub, &ctx, &it, &a, e).await;
        }
        a = db::account_by_id(&hub.db, a.id)
            .await?
            .ok_or_else(|| JobError::Permanent("account gone".into()))?;
    }
    let creds = hub.creds(&a);
    let req = match request(&hub, &it, &a).await {
        Ok(r) => r,
        Err(JobError::Permanent(m)) => {
            return fail_item(&hub, it.id, ItemFailure::CannotPublish, &reason(&m)).await;
        }
        Err(e) => return Err(e),
    };
    let mut item_id = it.item_id.clone();
    // A create was sent before (the worker died or the answer was lost): ask the platform first.
    // The platform's title carries the topics and @-mentions after ours, hence `starts_with`.
    if item_id.is_empty()
        && let Some(started) = it.create_started_at
    {
        let works = match ad.list_works(&creds, 50).await {
            Ok(w) => w,
            Err(e) => return on_error(&hub, &ctx, &it, &a, e).await,
        };
        let known = db::known_remote_ids(&hub.db, a.id, it.id).await?;
        // `started` is real time (how long a request can be in flight is a matter of real
        // time); the platform clock never runs behind it, so the filter below only loosens.
        match works.iter().find(|w| {
            w.title.starts_with(it.title.as_str())
                && w.create_time * 1000 >= started - 120_000
                && !known.contains(&w.item_id)
        }) {
            Some(w) => {
                item_id = w.item_id.clone();
                created(&hub, it.id, &item_id).await?;
            }
            // A create sent moments ago may still land (an attempt abandoned mid-request, an
            // answer lost): only after the settle time does "not in the list" mean "not posted".
            None if (0..CREATE_SETTLE_MS).contains(&(domain::now_ms() - started)) => {
                return Err(JobError::Retry(
                    "a create sent moments ago may still land; looking again before sending".into(),
                ));
            }
            None => db::forget_create(&hub.db, it.id).await?,
        }
    }
    if item_id.is_empty() {
        if db::account_create_in_flight(&hub.db, a.id, it.id).await? {
            return Err(JobError::Retry(
                "another post of this account is being created".into(),
            ));
        }
        let mut video_id = it.remote_video_id.clone();
        if video_id.is_empty() {
            video_id = match ad.upload(&creds, &req).await {
                Ok(v) => v,
                Err(e) => return on_error(&hub, &ctx, &it, &a, e).await,
            };
            db::save_uploaded(&hub.db, it.id, &video_id).await?;
        }
        // Compare-and-set: of two attempts of one item running at once (a lease taken over while
        // the first still runs), only one may send the create.
        if !db::claim_create(&hub.db, it.id, domain::now_ms()).await? {
            return Err(JobError::Retry(
                "another attempt is sending this post; looking again later".into(),
            ));
        }
        item_id = match ad.create(&creds, &video_id, &req).await {
            Ok(id) => id,
            Err(e) => {
                // The platform answered with a refusal, so nothing was posted: the next attempt may
                // send again without asking. A timeout, network error or 5xx is ambiguous: it may have.
                if !ambiguous(&e) {
                    db::forget_create(&hub.db, it.id).await?;
                }
                return on_error(&hub, &ctx, &it, &a, e).await;
            }
        };
        created(&hub, it.id, &item_id).await?;
    }
    // Verification: the account's work list must show it.
    let works = match ad.list_works(&creds, 50).await {
        Ok(w) => w,
        Err(e) => return on_error(&hub, &ctx, &it, &a, e).await,
    };
    let Some(w) = find(&works, &item_id) else {
        if ctx.job.attempts >= ctx.job.max_attempts {
            return fail_item(&hub, it.id, ItemFailure::NotListed, "").await;
        }
        return Err(JobError::Retry(
            "published but not yet in the account's work list".into(),
        ));
    };
    // Top comments go out once the post exists and before the item shows as published, so
    // "published" means the post and its top comments are out (a reader seeing "published" saw
    // some comments still missing). A failure here does not stop the publish.
    let it = db::item(&hub.db, it.id).await?.unwrap_or(it);
    if let Err(e) = send_comments(&hub, &it).await {
        tracing::warn!(item = it.id, error = %e, "top comments not sent");
    }
    record_work(&hub, &it, w).await?;
    db::request_sync(&hub.db, a.id).await?;
    Ok(())
}

/// Writes what the work list says about an item: published (under platform review), released, or
/// failed in the platform's review.
async fn record_work(hub: &HubRef, it: &Item, w: &Work) -> Result<(), JobError> {
    let seen = match &w.status {
        // Each check has its own job key (review:<item>:<checks>), so count it.
        WorkStatus::Reviewing => db::Seen::Reviewing {
            check_at: domain::now_ms() + review_gap(it.review_checks),
            checks: it.review_checks + 1,
        },
        WorkStatus::Public => db::Seen::Released {
            at: hub.db.clock.platform_now(),
        },
        WorkStatus::Rejected { reason } => db::Seen::Rejected {
            reason: reason.clone(),
        },
    };
    db::record_seen(
        &hub.db,
        it.id,
        (w.stats.play, w.stats.like, w.stats.comment),
        &w.share_url,
        hub.db.clock.platform_now(),
        &seen,
    )
    .await?;
    // Its figures show in the reports at once, as they do in the video lists that read the items
    // (the per-platform report said 0 plays until the account's next statistics sync).
    crate::reports::rollup_of_item(&hub.db, it.id).await?;
    Ok(())
}

/// The item is on the platform as `item_id`: recorded, and counted as a post in the reports at once.
async fn created(hub: &HubRef, id: i64, item_id: &str) -> Result<(), JobError> {
    db::mark_created(&hub.db, id, item_id, hub.db.clock.platform_now()).await?;
    crate::reports::rollup_of_item(&hub.db, id).await?;
    Ok(())
}

/// `publish.review`: looks at a published work again until the platform's review decides.
pub async fn run_review(p: ItemRef, hub: HubRef) -> Result<(), JobError> {
    let Some(it) = db::item(&hub.db, p.item_id).await? else {
        return Ok(());
    };
    if it.state != ItemState::Published {
        return Ok(());
    }
    let Some(a) = db::account_by_id(&hub.db, it.account_id).await? else {
        return Ok(());
    };
    let (_, ad) = adapter_of(&hub, &a).await?;
    let (checks, at) = (
        it.review_checks + 1,
        domain::now_ms() + review_gap(it.review_checks),
    );
    match ad.list_works(&hub.creds(&a), 50).await {
        Ok(works) => match find(&works, &it.item_id) {
            Some(w) => record_work(&hub, &it, w).await?,
            None => db::next_review_check(&hub.db, it.id, checks, at).await?,
        },
        Err(e) if e.kind == ErrorKind::Retryable => {
            db::next_review_check(&hub.db, it.id, checks, at).await?
        }
        Err(e) => {
            // The account cannot be read any more: stop looking; the publish itself stands.
            tracing::warn!(item = it.id, error = %e, "review check stopped");
        }
    }
    Ok(())
}

/// Posts the item's top comments that have not gone out yet; returns how many were sent now.
pub async fn send_comments(hub: &crate::platform::Hub, it: &Item) -> Result<usize, PlatformError> {
    let all: Vec<String> = serde_json::from_str(&it.comments).unwrap_or_default();
    let todo: Vec<&String> = all.iter().skip(it.comments_sent as usize).collect();
    if todo.is_empty() || it.item_id.is_empty() {
        return Ok(0);
    }
    let a = db::account_by_id(&hub.db, it.account_id)
        .await
        .ok()
        .flatten()
        .ok_or_else(|| PlatformError {
            platform: "?",
            kind: ErrorKind::Permanent,
            code: "account".into(),
            zh: "账号已删除".into(),
            en: "The account was removed".into(),
            evidence: None,
        })?;
    let p = a.platform;
    let ad = hub.adapter_for(&a).await.map_err(|e| internal(p, e))?;
    let creds = hub.creds(&a);
    let mut sent = 0;
    for (n, text) in (it.comments_sent..).zip(todo) {
        // Claim comment n first: whoever moves the counter sends it (at most once, never twice).
        match db::move_comments_sent(&hub.db, it.id, n, n + 1).await {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(internal(p, e)),
        }
        if let Err(e) = ad.comment(&creds, &it.item_id, text).await {
            // Refused: hand the claim back so a later try sends it.
            let _ = db::move_comments_sent(&hub.db, it.id, n + 1, n).await;
            return Err(e);
        }
        sent += 1;
    }
    Ok(sent)
}

/// Our own failure (database, adapter setup) while talking to a platform: worth another try.
fn internal(p: Platform, e: impl std::fmt::Display) -> PlatformError {
    PlatformError {
        platform: p.code(),
        kind: ErrorKind::Retryable,
        code: "internal".into(),
        zh: e.to_string(),
        en: e.to_string(),
        evidence: None,
    }
}

/// `matrix.token_refresh`: renews an access token before it ends. A refusal marks the account
/// expired with the platform's reason (the console lists it under expiring/expired).
pub async fn run_refresh(p: AccountRef, hub: HubRef) -> Result<(), JobError> {
    let Some(a) = db::account_by_id(&hub.db, p.account_id).await? else {
        return Ok(());
    };
    if a.revoked == 1 {
        return Ok(());
    }
    match hub.refresh(&a).await {
        Ok(()) => Ok(()),
        Err(e) if e.kind == ErrorKind::Retryable => Err(JobError::Retry(e.to_string())),
        Err(e) => {
            tracing::warn!(account = a.id, error = %e, "token refresh refused; account marked expired");
            Ok(())
        }
    }
}

/// `matrix.sync`: the account's works and their statistics from the platform — the account's
/// video/play/comment/like counts and each published item's numbers.
pub async fn run_sync(p: AccountRef, hub: HubRef) -> Result<(), JobError> {
    let Some(a) = db::account_by_id(&hub.db, p.account_id).await? else {
        return Ok(());
    };
    if a.revoked == 1 {
        return Ok(());
    }
    let (platform, ad) = adapter_of(&hub, &a).await?;
    let works = match ad.list_works(&hub.creds(&a), 200).await {
        Ok(w) => w,
        Err(e) if e.kind == ErrorKind::Retryable => return Err(JobError::Retry(e.to_string())),
        Err(e) => {
            if e.kind == ErrorKind::Reauthorize {
                hub.revoke(a.id, &e).await?;
            }
            return Ok(());
        }
    };
    let sum = |f: fn(&platforms::Stats) -> i64| works.iter().map(|w| f(&w.stats)).sum::<i64>();
    let totals = (
        works.len() as i64,
        sum(|s| s.play),
        sum(|s| s.comment),
        sum(|s| s.like),
    );
    let items: Vec<(String, i64, i64, i64, i64)> = works
        .iter()
        .map(|w| {
            (
                w.item_id.clone(),
                w.stats.play,
                w.stats.like,
                w.stats.comment,
                w.stats.share,
            )
        })
        .collect();
    // One transaction for the account and all its works: a sync is one commit, not one per work.
    db::set_stats_with_items(&hub.db, a.id, totals, &items, domain::now_ms()).await?;
    // Then the account's report rows, from what was just written (same rows on a retried job).
    crate::reports::rollup(&hub.db, a.id).await?;
    // The follower count is a figure of its own: a platform without it (BJH), a token granted
    // before the fans scope was asked, or a refusal leaves the day without a snapshot and the
    // works' statistics stand (the next sync reads it again).
    if platforms::has_follower_api(platform) {
        match ad.followers(&hub.creds(&a)).await {
            Ok(days) => {
                crate::reports::save_followers(
                    &hub.db,
                    (a.id, a.merchant_id, a.platform.code()),
                    &days,
                )
                .await?
            }
            Err(e) => tracing::info!(account = a.id, error = %e, "followers not read"),
        }
    }
    Ok(())
}

/// A sync asked for by a publish waits at least this long after the previous one (real time), so a
/// busy account is read a few times a minute, not once per post.
const SYNC_MIN_GAP_MS: i64 = 10_000;

/// Accounts' statistics are read again this often (real time).
const SYNC_EVERY_MS: i64 = 10 * 60_000;

/// The dispatcher: every `every` it queues the due items' publish jobs (platform clock), the
/// review checks and the token refreshes. One node of a cluster runs it at a time; idempotency keys
/// make several dispatchers agree on one job each should two ever overlap.
pub async fn dispatch_loop(
    hub: HubRef,
    every: std::time::Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        // One dispatcher per cluster (a PostgreSQL advisory lock; another node takes over when this
        // one dies); the jobs' idempotency keys stay the guard against a double publish.
        if hub.db.lead("publish dispatcher").await
            && let Err(e) = dispatch_once(&hub).await
        {
            tracing::warn!(error = %e, "publish dispatcher");
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = shutdown.changed() => return,
        }
    }
}

pub async fn dispatch_once(hub: &HubRef) -> sqlx::Result<usize> {
    let mut n = 0;
    let now_p = hub.db.clock.platform_now();
    let paused = hub
        .waiting_platforms()
        .await
        .map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
    for account in db::idle_accounts_with_due_items(&hub.db, now_p, 1000, &paused).await? {
        if let Some((id, mid)) = db::next_due_for_account(&hub.db, account, now_p).await? {
            queue_publish(&hub.db, id, mid).await?;
            n += 1;
        }
    }
    for (id, mid, checks) in db::review_due_items(&hub.db, domain::now_ms(), 500).await? {
        db::queue_review(&hub.db, id, mid, &format!("review:{id}:{checks}")).await?;
    }
    let now = domain::now_ms();
    for (id, mid, synced_at) in
        db::accounts_to_sync(&hub.db, now - SYNC_EVERY_MS, now - SYNC_MIN_GAP_MS, 100).await?
    {
        let job = store::jobs::NewJob {
            merchant_id: Some(mid),
            // One job per sync generation: a request made before it ran joins it.
            idempotency_key: Some(format!("sync:{id}:{synced_at}")),
            max_attempts: Some(3),
            ..store::jobs::NewJob::new(Job::MatrixSync(AccountRef { account_id: id }))
        };
        store::jobs::submit(&hub.db, &job).await?;
    }
    for a in db::accounts_to_refresh(&hub.db, hub.db.clock.platform_now() + REFRESH_AHEAD_MS, 100)
        .await?
    {
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!("refresh:{}:{}", a.id, a.token_expires_at)),
            merchant_id: Some(a.merchant_id),
            ..store::jobs::NewJob::new(Job::MatrixTokenRefresh(AccountRef { account_id: a.id }))
        };
        store::jobs::submit(&hub.db, &job).await?;
    }
    Ok(n)
}
