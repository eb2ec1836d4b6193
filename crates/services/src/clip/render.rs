//! The `clip.render` job: one variant per job. The project's shared part (audio bed, subtitle strip) is
//! prepared once into a folder keyed by its settings and reused by every variant; the variant itself is a
//! stream-copy join of the clips' mezzanines, re-encoded once only when text is burned. A deleted input
//! fails the variant with that reason; a failed variant gives its points back.

use domain::clip::{ProjectConfig, TextStyle};
use media::mix;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use store::clip as db;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;

/// One prepare at a time in this process: variants of a project share its folder.
static PREP: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn missing(what: String) -> JobError {
    JobError::Permanent(format!("a chosen material was deleted: {what}"))
}

/// A local file of a stored input; a missing one fails the render naming it.
async fn local(
    storage: &media::Storage,
    key: &str,
    what: impl FnOnce() -> String,
) -> Result<PathBuf, JobError> {
    match storage.local_copy(key).await {
        Ok(f) => Ok(f.path().to_path_buf()),
        Err(media::storage::StorageError::NotFound(_)) => Err(missing(what())),
        Err(e) => Err(JobError::Permanent(e.to_string())),
    }
}

fn mix_err(e: mix::MixError) -> JobError {
    match e {
        mix::MixError::MissingInput(p) => missing(p.display().to_string()),
        mix::MixError::Tool(media::ffmpeg::ToolError::Timeout { .. }) => {
            JobError::Retry(e.to_string())
        }
        other => JobError::Permanent(other.to_string()),
    }
}

pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::ClipRender,
    storage: media::Storage,
) -> Result<(), JobError> {
    let Some(v) = db::variant_any(&ctx.db, p.variant_id).await? else {
        return Err(JobError::Permanent("the variant was deleted".into()));
    };
    let result = ctx.attempt(work(&ctx, &storage, &v)).await;
    if let Err(e) = &result {
        let last = ctx.is_final(e);
        let msg = e.message();
        // While retries remain the variant stays "processing" with the reason; the last failure shows.
        // The points go back before the variant shows "failed": whoever sees the failure sees the refund
        // (refunds are once per key, so a retry of this step repeats nothing).
        if last {
            store::system::points::refund(
                &ctx.db,
                v.merchant_id,
                &v.points_key,
                domain::system::points::Reason::VideoSynthesisFailed,
            )
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
            db::variant_failed(&ctx.db, v.id, msg).await?;
        } else {
            db::variant_progress(&ctx.db, v.id, 0, msg).await?;
        }
    }
    // A one-touch project follows its variants (a no-op for other projects).
    if result.is_ok() || result.as_ref().is_err_and(|e| ctx.is_final(e)) {
        super::one_touch::variant_settled(&ctx.db, v.project_id).await?;
    }
    result
}

/// The pan-and-zoom clip of image `id` shown for `ms` as shot `slot` of variant `variant` (its motion
/// varies by both), kept in the project's `kb` prep folder so variants sharing it make it once.
#[allow(clippy::too_many_arguments)]
async fn image_shot(
    storage: &media::Storage,
    project_id: i64,
    mid: i64,
    id: i64,
    ms: i64,
    variant: i64,
    slot: usize,
    d: &store::Db,
) -> Result<PathBuf, JobError> {
    let m = mat::get(d, mid, id)
        .await?
        .filter(|m| m.kind == domain::materials::MediaKind::Image)
        .ok_or_else(|| missing(format!("image #{id}")))?;
    let motion = media::slideshow::Motion::of(variant, slot);
    let dir = storage.prep_dir(project_id, "kb");
    let out = dir.join(format!("{id}-{}-{ms}.mp4", motion.as_str()));
    if tokio::fs::metadata(&out).await.is_ok() {
        return Ok(out);
    }
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    let src = local(storage, &m.storage_key, || format!("image '{}'", m.name)).await?;
    media::slideshow::ken_burns(&src, &out, ms, motion)
        .await
        .map_err(|e| mix_err(e.into()))?;
    Ok(out)
}

fn style(s: &TextStyle, font: Option<PathBuf>) -> mix::TextStyle {
    mix::TextStyle {
        font: match font {
            Some(f) => mix::Font::File(f),
            None => mix::Font::Family(mix::DEFAULT_FONT_FAMILY.into()),
        },
        size: s.size.clamp(16, 160) as u32,
        colour: s.color.clone(),
        position: match s.position.as_str() {
            "top" => mix::Position::Top,
            "middle" => mix::Position::Middle,
            _ => mix::Position::Bottom,
        },
    }
}

/// A variant's render in three steps: what it is made of (the inputs' local files), the render itself,
/// and storing what it made.
async fn work(ctx: &JobCtx, storage: &media::Storage, v: &db::Variant) -> Result<(), JobError> {
    // Taken again after it settled (its worker died between recording the video and closing the job,
    // or it was cancelled): nothing is left to render (a one-touch project still hears it settled), and
    // a second render would overwrite, then delete, the files the finished variant points at.
    if v.state != domain::clip::VariantState::Processing {
        return Ok(());
    }
    let project = db::project(&ctx.db, v.merchant_id, v.project_id)
        .await?
        .ok_or_else(|| missing("the project".into()))?;
    let cfg: ProjectConfig =
        serde_json::from_str(&project.config).map_err(|e| JobError::Permanent(e.to_string()))?;
    db::variant_progress(&ctx.db, v.id, 2, "").await?;
    let mut specs = specs(ctx, storage, v, &project, &cfg).await?;
    // What of it is generated: generated content carries both labels (GB 45438-2025), burned and
    // written by this render; the merchant's own footage neither.
    let provenance = crate::aigc::variant_provenance(&ctx.db, &project, &cfg, v.id).await?;
    if provenance.is_generated() {
        specs.variant.label = Some(mix::Label::aigc());
        specs.variant.aigc = Some(
            crate::aigc::meta(&ctx.db, v.merchant_id, &format!("v{}", v.id))
                .await
                .map_err(|e| JobError::Retry(e.to_string()))?,
        );
    }
    let (rendered, bed) = render(ctx, storage, v, project.id, &specs).await?;
    // Against its siblings before the variant shows done, so the library shows it with that risk; its
    // signature is recorded first, so of two variants finishing together the later to measure sees
    // the other. Against everything published (the longer part) once it shows done. A risk that
    // cannot be measured stays "not measured": the video is made whatever this says.
    let measured = match measure(ctx, storage, v, &cfg, &specs, &rendered, bed.as_deref()).await {
        Ok(m) => Some(m),
        Err(e) => {
            tracing::warn!(variant = v.id, "duplicate risk not measured: {e:#}");
            None
        }
    };
    if !store_outputs(ctx, storage, v, &rendered, &provenance.to_column()).await? {
        super::risk::forget(&ctx.db, v.id).await?;
        return Ok(());
    }
    if let Some(me) = measured
        && let Err(e) = super::risk::measure_published(&ctx.db, v.merchant_id, v.id, &me).await
    {
        tracing::warn!(
            variant = v.id,
            "duplicate risk against published videos not measured: {e:#}"
        );
    }
    Ok(())
}

/// The variant's duplicate risk (`super::risk`): its signature assembled from what it is made of — each
/// clip's signature over its trim window (an image shot's pan-and-zoom clip read now), the sound bed's
/// fingerprint when there is one (read once per prepared folder), the text it burns — then measured.
/// With varied text looks the pictures are read from the rendered file instead (its key frames): where
/// the text sits is what tells siblings apart there, and the clips' signatures do not show it.
async fn measure(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    cfg: &ProjectConfig,
    specs: &Specs,
    rendered: &mix::Rendered,
    bed: Option<&std::path::Path>,
) -> anyhow::Result<super::risk::Measured> {
    use media::signature as sig;
    let seq = v.seq();
    let mut parts = Vec::with_capacity(seq.len());
    for (i, (id, clip)) in seq.iter().zip(&specs.variant.clips).enumerate() {
        if cfg.groups.get(i).is_some_and(|g| !g.images.is_empty()) {
            parts.push(sig::of_file(&clip.path).await?);
            continue;
        }
        let m = mat::get(&ctx.db, v.merchant_id, *id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("clip #{id} is gone"))?;
        let whole = super::risk::material(&ctx.db, storage, &m)
            .await?
            .unwrap_or_default();
        let (a, b) = mix::snap_trim(m.duration_ms, clip.in_ms, clip.out_ms);
        parts.push(whole.window((a / 1000) as usize, ((b + 999) / 1000) as usize));
    }
    let mut signature = sig::concat(&parts);
    if cfg.text_vary && rendered.burned {
        signature.frames = sig::of_file(&rendered.video).await?.frames;
    }
    if let Some(bed) = bed {
        let mut audio = bed_fingerprint(bed).await?;
        audio.truncate((signature.frames.len() as f64 * sig::AUDIO_PER_SECOND) as usize);
        signature.audio = audio;
    }
    let mut text: Vec<&str> = vec![];
    text.extend(specs.variant.title.as_ref().map(|t| t.text.as_str()));
    if specs.variant.burn_subtitles {
        text.extend(
            specs
                .project
                .subtitles
                .iter()
                .flat_map(|s| s.lines.iter().map(|l| l.text.as_str())),
        );
    }
    text.extend(specs.variant.shot_texts.iter().map(String::as_str));
    let cover_s = (specs.variant.cover_at_ms / 1000).min(signature.frames.len() as i64 - 1);
    let me = super::risk::Measured {
        signature,
        clips: seq,
        text: text
            .into_iter()
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        cover_s,
    };
    super::risk::measure_siblings(&ctx.db, v.merchant_id, v.id, v.project_id, &me).await?;
    Ok(me)
}

/// The sound bed's fingerprint, kept beside it (`<bed>.fp`) so a project's variants read it once.
async fn bed_fingerprint(bed: &std::path::Path) -> anyhow::Result<Vec<Option<u32>>> {
    use media::signature::{self as sig, Signature};
    let kept = bed.with_extension("fp");
    if let Some(s) = std::fs::read(&kept)
        .ok()
        .and_then(|b| Signature::from_bytes(&b))
    {
        return Ok(s.audio);
    }
    let audio = sig::of_sound(bed).await?;
    let bytes = Signature {
        frames: vec![],
        audio: audio.clone(),
    }
    .to_bytes();
    // Written whole or not at all: renders of one project read it at once, and two of one process may
    // make it at once (its own temporary name each).
    let tmp = kept.with_extension(format!("fp.{}", store::random_token(8)));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, &kept)?;
    Ok(audio)
}

/// What a variant is made of: the project's shared part (audio bed, subtitles) and its own (clips,
/// texts, transitions).
struct Specs {
    project: mix::ProjectSpec,
    variant: mix::VariantSpec,
}

/// The variant's inputs as local files: every clip must still exist and be ingested.
async fn specs(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    project: &db::Project,
    cfg: &ProjectConfig,
) -> Result<Specs, JobError> {
    let mid = v.merchant_id;
    let clips = clip_specs(ctx, storage, v, project.id, cfg).await?;
    let music = audio_file(ctx, storage, v, &cfg.music).await?;
    let voice = audio_file(ctx, storage, v, &cfg.voice).await?;
    let subtitles = if cfg.subtitles.enabled {
        let voice_id = cfg
            .voice
            .as_ref()
            .and_then(|a| a.track_for(v.id))
            .ok_or_else(|| missing("the voice-over".into()))?;
        let lines = mat::asr_lines(&ctx.db, mid, voice_id).await?;
        let font = font_file(ctx, storage, mid, cfg.subtitles.style.font_id).await?;
        (!lines.is_empty()).then(|| mix::Subtitles {
            lines: lines
                .iter()
                .map(|l| mix::SubtitleLine {
                    start_ms: l.start_ms,
                    end_ms: l.end_ms,
                    text: l.content.clone(),
                })
                .collect(),
            style: style(&cfg.look_for(&cfg.subtitles.style, v.id), font),
        })
    } else {
        None
    };
    let (bed_ms, lengths) = bed(ctx, mid, cfg).await?;
    let project_spec = mix::ProjectSpec {
        clips: vec![],
        music: music.as_ref().map(|m| m.0.clone()),
        music_volume: music.as_ref().map(|m| m.1).unwrap_or(100),
        voice: voice.as_ref().map(|m| m.0.clone()),
        voice_volume: voice.as_ref().map(|m| m.1).unwrap_or(100),
        subtitles,
        bed_ms: bed_ms.max(1000),
        reuse_burns: super::slots::fixed_slots(&cfg.groups, &lengths),
        burn_budget_mb: mix::BURN_BUDGET_MB,
        // A one-touch project's few variants are waited for as one job and its pieces are most of
        // that wait (one-touch video's 60 s): superfast pieces. Quick mix and advanced keep the smaller ones.
        piece_speed: if project.mode == super::one_touch::MODE {
            mix::PieceSpeed::Fast
        } else {
            mix::PieceSpeed::Quality
        },
    };
    let title = match cfg.title_for(v.id) {
        Some(t) => {
            let t_cfg = cfg.title.as_ref().expect("title_for implies a title");
            let font = font_file(ctx, storage, mid, t_cfg.style.font_id).await?;
            Some(mix::Title {
                text: t.to_string(),
                style: style(&cfg.look_for(&t_cfg.style, v.id), font),
                until_ms: None,
            })
        }
        None => None,
    };
    let shot_style = if cfg.has_shot_texts() {
        let font = font_file(ctx, storage, mid, cfg.shot_style.font_id).await?;
        Some(style(&cfg.look_for(&cfg.shot_style, v.id), font))
    } else {
        None
    };
    let variant = mix::VariantSpec {
        clips,
        title,
        burn_subtitles: cfg.subtitles.enabled,
        clip_audio_volume: None,
        cover_at_ms: cfg.cover_at(v.id),
        // Advanced mode: per-shot transitions and captions (empty for quick mix).
        transitions: cfg
            .groups
            .iter()
            .take(cfg.groups.len().saturating_sub(1))
            .map(|g| {
                g.transition.as_ref().map(|t| mix::Transition {
                    kind: t.kind.clone(),
                    ms: t.ms,
                })
            })
            .collect(),
        shot_texts: cfg
            .groups
            .iter()
            .map(|g| g.text.trim().to_string())
            .collect(),
        shot_style,
        label: None,
        aigc: None,
    };
    Ok(Specs {
        project: project_spec,
        variant,
    })
}

/// The variant's clips in order: a material's mezzanine trimmed by its group's rule, or an image
/// shot's pan-and-zoom clip.
async fn clip_specs(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    project_id: i64,
    cfg: &ProjectConfig,
) -> Result<Vec<mix::ClipSpec>, JobError> {
    let mid = v.merchant_id;
    let mut clips = vec![];
    let seq = v.seq();
    let image_shots = seq
        .iter()
        .enumerate()
        .filter(|(i, _)| cfg.groups.get(*i).is_some_and(|g| !g.images.is_empty()))
        .count()
        .max(1) as i64;
    let mut made_images = 0;
    for (i, id) in seq.into_iter().enumerate() {
        // An image shot: its pan-and-zoom clip, made once per image, motion and length.
        if let Some(g) = cfg.groups.get(i).filter(|g| !g.images.is_empty()) {
            let path = image_shot(storage, project_id, mid, id, g.max_ms, v.id, i, &ctx.db).await?;
            made_images += 1;
            db::variant_progress(&ctx.db, v.id, 2 + 18 * made_images / image_shots, "").await?;
            clips.push(mix::ClipSpec::whole(path));
            continue;
        }
        let m = mat::get(&ctx.db, mid, id)
            .await?
            .filter(|m| !m.mezzanine_key.is_empty())
            .ok_or_else(|| missing(format!("clip #{id}")))?;
        let path = local(storage, &m.mezzanine_key, || format!("clip '{}'", m.name)).await?;
        // Advanced mode may start each shot's clips later; the length rule counts from there. A
        // varied trim starts this variant's stretch later still, within the clip.
        let (start, max) = cfg
            .groups
            .get(i)
            .map(|g| (g.in_ms + cfg.trim_offset(v.id, i, m.duration_ms), g.max_ms))
            .unwrap_or((0, 0));
        clips.push(mix::ClipSpec {
            path,
            in_ms: (start > 0).then_some(start),
            out_ms: (max > 0).then_some(start + max),
        });
    }
    Ok(clips)
}

/// A music or voice-over setting's file for this variant, with its volume.
async fn audio_file(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    a: &Option<domain::clip::Audio>,
) -> Result<Option<(PathBuf, u8)>, JobError> {
    let Some(a) = a else {
        return Ok(None);
    };
    // Several files: this variant's turn (the prep folder is per file, see `render`).
    if let Some(id) = a.track_for(v.id) {
        let m = mat::get(&ctx.db, v.merchant_id, id)
            .await?
            .ok_or_else(|| missing(format!("audio #{id}")))?;
        let key = if m.mezzanine_key.is_empty() {
            m.storage_key
        } else {
            m.mezzanine_key
        };
        Ok(Some((
            local(storage, &key, || format!("audio '{}'", m.name)).await?,
            a.volume.clamp(0, 100) as u8,
        )))
    } else if let Some(id) = a.system_music_id {
        let m = mat::system_music_one(&ctx.db, id)
            .await?
            .ok_or_else(|| missing(format!("built-in music #{id}")))?;
        Ok(Some((
            local(storage, &m.storage_key, || format!("built-in music #{id}")).await?,
            a.volume.clamp(0, 100) as u8,
        )))
    } else {
        Ok(None)
    }
}

/// A chosen font's file (none: the default family).
async fn font_file(
    ctx: &JobCtx,
    storage: &media::Storage,
    mid: i64,
    id: Option<i64>,
) -> Result<Option<PathBuf>, JobError> {
    let Some(id) = id else {
        return Ok(None);
    };
    let m = mat::get(&ctx.db, mid, id)
        .await?
        .ok_or_else(|| missing(format!("font #{id}")))?;
    Ok(Some(
        local(storage, &m.storage_key, || format!("font '{}'", m.name)).await?,
    ))
}

/// How long the bed must last, and each group's clip lengths. The bed must cover the longest variant
/// the groups can make. Slots whose every clip lasts the same once trimmed put each clip at the same
/// times in every variant: burned text is then reused.
async fn bed(
    ctx: &JobCtx,
    mid: i64,
    cfg: &ProjectConfig,
) -> Result<(i64, Vec<Vec<i64>>), JobError> {
    let mut bed_ms = 0;
    let mut lengths = Vec::with_capacity(cfg.groups.len());
    for g in &cfg.groups {
        // An image shot lasts its length exactly, in every variant.
        if !g.images.is_empty() {
            bed_ms += g.max_ms;
            lengths.push(vec![]);
            continue;
        }
        let q = store::ListQuery {
            limit: Some(1000),
            ..Default::default()
        }
        .with_filter("group_id", Some(&g.group_id.to_string()), "=");
        let (pool, _) = mat::list(&ctx.db, mid, "resource", &q)
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        let longest = pool.iter().map(|m| m.duration_ms).max().unwrap_or(0);
        bed_ms += if g.max_ms > 0 {
            longest.min(g.max_ms + mix::GOP_MS)
        } else {
            longest
        };
        lengths.push(pool.iter().map(|m| m.duration_ms).collect());
    }
    Ok((bed_ms, lengths))
}

/// Prepares the project's shared part (once per process and settings) and renders the variant into
/// temporary files, reporting progress on the variant.
async fn render(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    project_id: i64,
    specs: &Specs,
) -> Result<(mix::Rendered, Option<PathBuf>), JobError> {
    // The shared part lives in a folder named by a hash of what it is made from.
    let digest = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        serde_json::to_string(&specs.project)
            .unwrap_or_default()
            .hash(&mut h);
        format!("{:016x}", h.finish())
    };
    let prep_dir = storage.prep_dir(project_id, &digest);
    let last_pct = AtomicI64::new(-1);
    let report = |lo: i64, hi: i64| {
        let db = ctx.db.clone();
        let id = v.id;
        let last = &last_pct;
        move |p: u8| {
            let pct = lo + (hi - lo) * p as i64 / 100;
            if last.swap(pct, Ordering::Relaxed) / 5 != pct / 5 {
                let db = db.clone();
                tokio::spawn(async move {
                    let _ = db::variant_progress(&db, id, pct, "").await;
                });
            }
        }
    };
    // The render's place among this process's renders is taken on the way out of the prep lock, which
    // hands out in the order asked, i.e. the order the jobs were taken: the first variant of a batch is
    // the older render, whose burns the younger ones leave the cores and shared pieces to.
    let (prepared, turn) = {
        let _guard = PREP.lock().await;
        let prepared = match mix::Prepared::load(&prep_dir) {
            Ok(p) => p,
            Err(_) => {
                std::fs::create_dir_all(&prep_dir).map_err(|e| JobError::Retry(e.to_string()))?;
                let f = report(5, 40);
                mix::prepare(&specs.project, &prep_dir, &f)
                    .await
                    .map_err(mix_err)?
            }
        };
        (prepared, mix::Turn::take())
    };
    let out_video = storage
        .temp_path("mp4")
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    let out_cover = storage
        .temp_path("jpg")
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    let f = report(40, 95);
    let rendered =
        mix::render_in_turn(&prepared, &specs.variant, &out_video, &out_cover, &turn, &f).await;
    drop(turn);
    let rendered = rendered.map_err(|e| {
        let _ = std::fs::remove_file(&out_video);
        let _ = std::fs::remove_file(&out_cover);
        mix_err(e)
    })?;
    Ok((rendered, prepared.bed.map(|b| b.path)))
}

/// Stores the rendered video and cover and records them on the variant (true); a variant cancelled
/// while rendering keeps nothing (false).
async fn store_outputs(
    ctx: &JobCtx,
    storage: &media::Storage,
    v: &db::Variant,
    rendered: &mix::Rendered,
    provenance: &str,
) -> Result<bool, JobError> {
    let mid = v.merchant_id;
    let video_key = format!("m/{mid}/variant-{}.mp4", v.id);
    let cover_key = format!("m/{mid}/variant-{}-cover.jpg", v.id);
    storage
        .put_file(&video_key, &rendered.video)
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    storage
        .put_file(&cover_key, &rendered.cover)
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    let duration = media::probe::probe(
        &storage
            .local_copy(&video_key)
            .await
            .map_err(|e| JobError::Permanent(e.to_string()))?,
    )
    .await
    .map(|i| i.duration_ms)
    .unwrap_or(rendered.planned_ms);
    if !db::set_variant_done(&ctx.db, v.id, &video_key, &cover_key, duration, provenance).await? {
        // Cancelled while rendering: keep nothing. But a twin run of this job (its lease lapsed while
        // this one was slow) may have finished first under the same keys: those files are the video's.
        let now = db::variant_any(&ctx.db, v.id).await?;
        if !now.is_some_and(|n| n.state == domain::clip::VariantState::Success) {
            let _ = storage.delete(&video_key).await;
            let _ = storage.delete(&cover_key).await;
        }
        return Ok(false);
    }
    Ok(true)
}
