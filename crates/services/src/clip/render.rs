//! The `clip.render` job: one variant per job. The project's shared part (audio bed, subtitle strip) is
//! prepared once into a folder keyed by its settings and reused by every variant; the variant itself is a
//! stream-copy join of the clips' mezzanines, re-encoded once only when text is burned. A deleted input
//! fails the variant with that reason; a failed variant gives its points back.

use domain::clip::{GroupRule, ProjectConfig, TextStyle};
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

pub async fn run(ctx: JobCtx, storage: media::Storage) -> Result<(), JobError> {
    let p: domain::jobs::ClipRender = ctx.payload()?;
    let Some(v) = db::variant_any(&ctx.db, p.variant_id).await? else {
        return Err(JobError::Permanent("the variant was deleted".into()));
    };
    let result = work(&ctx, &storage, &v).await;
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
        .filter(|m| m.kind == "image")
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

/// Whether every slot trims each of its clips (their lengths, ms, per group in order) to the same span
/// (image shots always do): the render's `reuse_burns`, and what the project lists show
/// (`projects::Overview::fixed_slots`).
pub(crate) fn fixed_slots(rules: &[GroupRule], lengths: &[Vec<i64>]) -> bool {
    !rules.is_empty()
        && rules.len() == lengths.len()
        && rules
            .iter()
            .zip(lengths)
            .all(|(g, l)| !g.images.is_empty() || same_slot(l.iter().copied(), g.in_ms, g.max_ms))
}

/// True when every clip of a slot's pool (by duration) is trimmed to the same span by the slot's rule
/// (start `in_ms`, length `max_ms`, 0 = the whole clip), as the engine snaps trims to its GOP grid.
fn same_slot(durations: impl Iterator<Item = i64>, in_ms: i64, max_ms: i64) -> bool {
    let mut spans = durations.map(|d| {
        mix::snap_trim(
            d,
            (in_ms > 0).then_some(in_ms),
            (max_ms > 0).then_some(in_ms + max_ms),
        )
    });
    let first = spans.next();
    first.is_some() && spans.all(|s| Some(s) == first)
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

async fn work(ctx: &JobCtx, storage: &media::Storage, v: &db::Variant) -> Result<(), JobError> {
    // Taken again after it settled (its worker died between recording the video and closing the job,
    // or it was cancelled): nothing is left to render (a one-touch project still hears it settled), and
    // a second render would overwrite, then delete, the files the finished variant points at.
    if v.state != domain::clip::VariantState::Processing.as_str() {
        return Ok(());
    }
    let mid = v.merchant_id;
    let project = db::project(&ctx.db, mid, v.project_id)
        .await?
        .ok_or_else(|| missing("the project".into()))?;
    let cfg: ProjectConfig =
        serde_json::from_str(&project.config).map_err(|e| JobError::Permanent(e.to_string()))?;
    db::variant_progress(&ctx.db, v.id, 2, "").await?;

    // Inputs: every clip must still exist and be ingested.
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
            let path = image_shot(storage, project.id, mid, id, g.max_ms, v.id, i, &ctx.db).await?;
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
        // Advanced mode may start each shot's clips later; the length rule counts from there.
        let (start, max) = cfg
            .groups
            .get(i)
            .map(|g| (g.in_ms, g.max_ms))
            .unwrap_or((0, 0));
        clips.push(mix::ClipSpec {
            path,
            in_ms: (start > 0).then_some(start),
            out_ms: (max > 0).then_some(start + max),
        });
    }
    let audio_path = |a: &Option<domain::clip::Audio>| {
        let a = a.clone();
        async move {
            match a {
                None => Ok::<_, JobError>(None),
                Some(a) => {
                    // Several files: this variant's turn (the prep folder is per file, see below).
                    if let Some(id) = a.track_for(v.id) {
                        let m = mat::get(&ctx.db, mid, id)
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
                            local(storage, &m.storage_key, || format!("built-in music #{id}"))
                                .await?,
                            a.volume.clamp(0, 100) as u8,
                        )))
                    } else {
                        Ok(None)
                    }
                }
            }
        }
    };
    let music = audio_path(&cfg.music).await?;
    let voice = audio_path(&cfg.voice).await?;
    let font_of = |id: Option<i64>| async move {
        match id {
            None => Ok::<_, JobError>(None),
            Some(id) => {
                let m = mat::get(&ctx.db, mid, id)
                    .await?
                    .ok_or_else(|| missing(format!("font #{id}")))?;
                Ok(Some(
                    local(storage, &m.storage_key, || format!("font '{}'", m.name)).await?,
                ))
            }
        }
    };
    let subtitles = if cfg.subtitles.enabled {
        let voice_id = cfg
            .voice
            .as_ref()
            .and_then(|a| a.track_for(v.id))
            .ok_or_else(|| missing("the voice-over".into()))?;
        let lines = mat::asr_lines(&ctx.db, mid, voice_id).await?;
        let font = font_of(cfg.subtitles.style.font_id).await?;
        (!lines.is_empty()).then(|| mix::Subtitles {
            lines: lines
                .iter()
                .map(|l| mix::SubtitleLine {
                    start_ms: l.start_ms,
                    end_ms: l.end_ms,
                    text: l.content.clone(),
                })
                .collect(),
            style: style(&cfg.subtitles.style, font),
        })
    } else {
        None
    };
    // The bed must cover the longest variant the groups can make. Slots whose every clip lasts the same
    // once trimmed put each clip at the same times in every variant: burned text is then reused.
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
    let spec = mix::ProjectSpec {
        clips: vec![],
        music: music.as_ref().map(|m| m.0.clone()),
        music_volume: music.as_ref().map(|m| m.1).unwrap_or(100),
        voice: voice.as_ref().map(|m| m.0.clone()),
        voice_volume: voice.as_ref().map(|m| m.1).unwrap_or(100),
        subtitles,
        bed_ms: bed_ms.max(1000),
        reuse_burns: fixed_slots(&cfg.groups, &lengths),
        burn_budget_mb: mix::BURN_BUDGET_MB,
        // A one-touch project's few variants are waited for as one job and its pieces are most of
        // that wait (issue 19's 60 s): superfast pieces. Quick mix and advanced keep the smaller ones.
        piece_speed: if project.mode == super::one_touch::MODE {
            mix::PieceSpeed::Fast
        } else {
            mix::PieceSpeed::Quality
        },
    };
    // The shared part lives in a folder named by a hash of what it is made from.
    let digest = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        serde_json::to_string(&spec)
            .unwrap_or_default()
            .hash(&mut h);
        format!("{:016x}", h.finish())
    };
    let prep_dir = storage.prep_dir(project.id, &digest);
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
                mix::prepare(&spec, &prep_dir, &f).await.map_err(mix_err)?
            }
        };
        (prepared, mix::Turn::take())
    };
    let variant = mix::VariantSpec {
        clips,
        title: match cfg.title_text() {
            Some(t) => {
                let t_cfg = cfg.title.as_ref().expect("title_text implies a title");
                Some(mix::Title {
                    text: t.to_string(),
                    style: style(&t_cfg.style, font_of(t_cfg.style.font_id).await?),
                    until_ms: None,
                })
            }
            None => None,
        },
        burn_subtitles: cfg.subtitles.enabled,
        clip_audio_volume: None,
        cover_at_ms: cfg.cover_ms,
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
        shot_style: if cfg.has_shot_texts() {
            Some(style(
                &cfg.shot_style,
                font_of(cfg.shot_style.font_id).await?,
            ))
        } else {
            None
        },
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
        mix::render_in_turn(&prepared, &variant, &out_video, &out_cover, &turn, &f).await;
    drop(turn);
    let rendered = match rendered {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_file(&out_video);
            let _ = std::fs::remove_file(&out_cover);
            return Err(mix_err(e));
        }
    };
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
    if !db::set_variant_done(&ctx.db, v.id, &video_key, &cover_key, duration).await? {
        // Cancelled while rendering: keep nothing. But a twin run of this job (its lease lapsed while
        // this one was slow) may have finished first under the same keys: those files are the video's.
        let now = db::variant_any(&ctx.db, v.id).await?;
        if !now.is_some_and(|n| n.state == domain::clip::VariantState::Success.as_str()) {
            let _ = storage.delete(&video_key).await;
            let _ = storage.delete(&cover_key).await;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{GroupRule, fixed_slots, same_slot};

    #[test]
    fn a_slot_is_fixed_when_every_clip_trims_to_the_same_span() {
        // A 3 s rule over clips of 4–9 s: every clip gives 0–3 s.
        assert!(same_slot([4000, 9000, 3600].into_iter(), 0, 3000));
        // A clip shorter than the rule ends earlier: not fixed.
        assert!(!same_slot([4000, 2500].into_iter(), 0, 3000));
        // Whole clips are fixed only when they last the same.
        assert!(same_slot([5000, 5000].into_iter(), 0, 0));
        assert!(!same_slot([5000, 6000].into_iter(), 0, 0));
        // Starting later (advanced mode) counts from there.
        assert!(same_slot([8000, 6000].into_iter(), 2000, 3000));
        assert!(!same_slot([8000, 4200].into_iter(), 2000, 3000));
        assert!(!same_slot(std::iter::empty(), 0, 3000));
    }

    #[test]
    fn slots_are_fixed_when_every_group_trims_its_clips_alike() {
        let rule = |max_ms: i64| GroupRule {
            max_ms,
            ..Default::default()
        };
        let image = GroupRule {
            images: vec![1, 2],
            max_ms: 3000,
            ..Default::default()
        };
        // A 3 s rule over longer clips, equal whole clips, and an image shot.
        let lengths = vec![vec![4000, 9000], vec![5000, 5000], vec![]];
        assert!(fixed_slots(&[rule(3000), rule(0), image.clone()], &lengths));
        // Whole clips of different lengths.
        assert!(!fixed_slots(
            &[rule(3000), rule(0), image],
            &[vec![4000], vec![5000, 6000], vec![]]
        ));
        // A group gone (no pool for it), or no groups.
        assert!(!fixed_slots(&[rule(3000), rule(0)], &[vec![4000]]));
        assert!(!fixed_slots(&[], &[]));
    }
}
