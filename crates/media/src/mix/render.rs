//! Rendering one variant: its plan (stream copy or composed), the ASS script of its text, the encode
//! settings shared by both paths, and the cover; everything written under temporary names first.

use super::burn::{
    Burned, Piece, Turn, burn_once, composed_pieces, fonts_identity, piece_key, pieces, trim_cache,
};
use super::composed::{ms_to_frames, render_composed};
use super::concat::render_av;
use super::encode::Encode;
use super::inflight::burning_elsewhere;
use super::spec::check_style;
use super::text::{check_title, font_family, text_layer};
use super::{
    MixError, Prepared, Progress, Segment, Timeline, VariantSpec, absolute, check_advanced,
    default_shot_style, plan_exact_segments, plan_segments, planned_ms, secs, shot_captions,
    timeline, unique,
};
use crate::ffmpeg::{self, Report, args};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What [`render`] made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rendered {
    pub video: PathBuf,
    pub cover: PathBuf,
    /// The sum of the (snapped) clip lengths; for a composed render, the sum of the exact clip lengths minus
    /// the sum of the transitions.
    pub planned_ms: i64,
    /// True when the video was encoded (text burned, or a composed render); false for a pure stream copy
    /// of the video.
    pub burned: bool,
    /// True when the audio was the bed by stream copy (no audio encode).
    pub audio_copied: bool,
    /// With pre-burned segments ([`ProjectSpec::reuse_burns`](super::ProjectSpec::reuse_burns)): the
    /// pieces this render burned, and those it took from the cache.
    #[serde(default)]
    pub pieces_burned: usize,
    #[serde(default)]
    pub pieces_reused: usize,
}

/// What a variant will be: its segments, its length, where each segment starts in the output, and for a
/// composed render its timeline.
struct Plan {
    segs: Vec<Segment>,
    planned: i64,
    starts_ms: Vec<i64>,
    composed: Option<Timeline>,
}

/// Renders one variant to `out_video` (MP4, faststart) and its cover to `out_cover` (JPEG). Both are
/// written under temporary names and renamed at the end, so a retried job never sees half a file.
///
/// With a transition anywhere ([`VariantSpec::has_transitions`]) the render is **composed**: one ffmpeg
/// reads every segment with an exact trim, joins them in a filter graph ([`composed_graph`]), draws the
/// text and encodes once with the burn settings; the length is the segments' sum minus the transitions'.
pub async fn render(
    prep: &Prepared,
    variant: &VariantSpec,
    out_video: &Path,
    out_cover: &Path,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    // Its place among this process's renders: while an older one is under way, its encodes yield.
    let turn = Turn::take();
    render_in_turn(prep, variant, out_video, out_cover, &turn, progress).await
}

/// [`render`] in a place among this process's renders taken before (the worker takes it in the order it
/// took its jobs, so the first variant of a batch is the older render even when the second gets here
/// first).
pub async fn render_in_turn(
    prep: &Prepared,
    variant: &VariantSpec,
    out_video: &Path,
    out_cover: &Path,
    turn: &Turn,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    progress(0);
    check_advanced(variant)?;
    let plan = if variant.has_transitions() {
        let segs = plan_exact_segments(prep, &variant.clips).await?;
        let frames: Vec<i64> = segs
            .iter()
            .map(|s| ms_to_frames(s.out_ms) - ms_to_frames(s.in_ms))
            .collect();
        let wanted: Vec<Option<i64>> = variant
            .transitions
            .iter()
            .map(|t| t.as_ref().map(|t| t.ms))
            .collect();
        let tl = timeline(&frames, &wanted);
        let planned = planned_ms(&segs) - tl.overlaps_ms().iter().sum::<i64>();
        Plan {
            starts_ms: tl.starts_ms(),
            segs,
            planned,
            composed: Some(tl),
        }
    } else {
        let segs = plan_segments(prep, &variant.clips).await?;
        let starts_ms = segs
            .iter()
            .scan(0, |at, s| {
                let start = *at;
                *at += s.out_ms - s.in_ms;
                Some(start)
            })
            .collect();
        Plan {
            planned: planned_ms(&segs),
            segs,
            starts_ms,
            composed: None,
        }
    };
    let out_video = absolute(out_video);
    let parent = out_video
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    tokio::fs::create_dir_all(&parent).await?;
    let work = parent.join(format!(
        ".mix-{}-{}-{}",
        std::process::id(),
        unique(),
        out_video
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("out")
    ));
    tokio::fs::create_dir_all(&work).await?;
    let result = render_in(
        prep, variant, &plan, &out_video, out_cover, &work, turn, progress,
    )
    .await;
    let _ = tokio::fs::remove_dir_all(&work).await;
    result
}

#[allow(clippy::too_many_arguments)]
async fn render_in(
    prep: &Prepared,
    variant: &VariantSpec,
    plan: &Plan,
    out_video: &Path,
    out_cover: &Path,
    work: &Path,
    turn: &Turn,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    let (segs, planned) = (plan.segs.as_slice(), plan.planned);
    // Text to burn: one ASS script (the project's subtitles, this variant's title and its shot captions),
    // drawn by libass in the one re-encode. It lives in the prep folder, next to the fonts, where ffmpeg
    // runs.
    let subtitles = match (&prep.spec.subtitles, &prep.subtitle_family) {
        (Some(s), Some(f)) if variant.burn_subtitles => Some((s, f.as_str())),
        _ => None,
    };
    let title = match &variant.title {
        Some(t) => {
            check_title(t)?;
            Some((t, font_family(&t.style, &prep.dir).await?))
        }
        None => None,
    };
    let captions = shot_captions(&plan.starts_ms, planned, &variant.shot_texts);
    let shot_style = variant
        .shot_style
        .clone()
        .unwrap_or_else(default_shot_style);
    let shots = if captions.is_empty() {
        None
    } else {
        check_style(&shot_style)?;
        Some(font_family(&shot_style, &prep.dir).await?)
    };
    let label = variant.label.as_ref().filter(|l| l.until_ms > 0);
    let burned = subtitles.is_some() || title.is_some() || shots.is_some() || label.is_some();
    let layer = if burned {
        let mut layer = text_layer(
            subtitles,
            title.as_ref().map(|(t, f)| (*t, f.as_str())),
            shots
                .as_deref()
                .map(|f| (captions.as_slice(), &shot_style, f)),
        )?;
        // The label of generated content is one more event of the same script: drawn by the same
        // burn (a piece or the one pass), never a pass of its own.
        if let Some(l) = label {
            layer.add_label(l);
        }
        Some(layer)
    } else {
        None
    };
    progress(5);
    // Pre-burned pieces when the project's slot timings are fixed (a stream-copy join of cached burns);
    // otherwise the whole text in one re-encode.
    // A composed render too, when its sound is the bed alone: its shots' middles and its transitions
    // become pieces (the clips' own sound would need the composed graph's crossfades).
    if let (Some(layer), true) = (&layer, prep.spec.reuse_burns) {
        let muted = variant
            .clip_audio_volume
            .unwrap_or(if prep.bed.is_some() { 0 } else { 100 })
            == 0;
        let list = match &plan.composed {
            None => {
                // A time-limited title and the label end on the second grid: the seconds after
                // them stay pieces shared by every variant.
                let cuts: Vec<i64> = variant
                    .title
                    .iter()
                    .filter_map(|t| t.until_ms)
                    .chain(label.map(|l| l.until_ms))
                    .collect();
                Some(pieces(segs, &plan.starts_ms, layer, &cuts))
            }
            Some(tl) if muted => {
                let kinds: Vec<Option<&str>> = variant
                    .transitions
                    .iter()
                    .map(|t| t.as_ref().map(|t| t.kind.as_str()))
                    .collect();
                Some(composed_pieces(segs, tl, &kinds, layer))
            }
            Some(_) => None,
        };
        if let Some(list) = list {
            return render_pieces(
                prep, variant, plan, list, out_video, out_cover, work, turn, progress,
            )
            .await;
        }
    }
    // One pass: no pieces that younger renders should leave to this one.
    turn.want([]);
    let script = match &layer {
        Some(layer) => {
            let name = format!("text-{}-{}.ass", std::process::id(), unique());
            tokio::fs::write(prep.dir.join(&name), layer.script()?).await?;
            Some(name)
        }
        None => None,
    };
    let encode = match &plan.composed {
        None => {
            render_av(
                prep,
                variant,
                segs,
                None,
                planned,
                out_video,
                work,
                script.as_deref(),
            )
            .await
        }
        Some(tl) => {
            let script = script.as_deref();
            render_composed(prep, variant, segs, tl, planned, out_video, work, script).await
        }
    };
    let result = match encode {
        Ok(e) => {
            // A re-encode yields to older renders; a stream copy hardly needs the CPU.
            let nice = if e.burned { turn.nice() } else { 0 };
            finish(
                e, prep, variant, planned, out_video, out_cover, nice, progress,
            )
            .await
        }
        Err(e) => Err(e),
    };
    if let Some(name) = script {
        let _ = tokio::fs::remove_file(prep.dir.join(name)).await;
    }
    result
}

/// A variant as a stream-copy join of pre-burned pieces (see `burn`): the missing pieces are burned
/// first, two at a time (progress 5–80), then joined with the audio (80–90). The pieces another render
/// is burning right now come last: meanwhile this render burns the ones nobody else is making, so two
/// renders of one project that share pieces keep both cores busy instead of waiting on the same burn.
#[allow(clippy::too_many_arguments)]
async fn render_pieces(
    prep: &Prepared,
    variant: &VariantSpec,
    plan: &Plan,
    list: Vec<Piece>,
    out_video: &Path,
    out_cover: &Path,
    work: &Path,
    turn: &Turn,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    use futures_util::StreamExt;
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
    let total: i64 = list
        .iter()
        .map(|p| p.seg.out_ms - p.seg.in_ms)
        .sum::<i64>()
        .max(1);
    let done = AtomicI64::new(0);
    let fonts = fonts_identity(prep).await;
    // Each key once: it reads the mezzanine's metadata and builds the piece's script.
    let mut keys = Vec::with_capacity(list.len());
    for p in &list {
        keys.push(piece_key(p, prep.spec.piece_speed, &fonts).await?);
    }
    // An older render burns the pieces it shares with this one (at full speed, see `Turn`); this one
    // starts with those nobody else needs, and leaves the others to whoever is burning them now.
    turn.want(keys.iter().cloned());
    turn.leave_to_older(None).await;
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by_cached_key(|&i| (turn.older_wants(&keys[i]), burning_elsewhere(&keys[i])));
    // After a failed burn no new one starts; the one under way runs to its end (none is cut off).
    let failed = AtomicBool::new(false);
    let one = |i: usize| {
        let p = &list[i];
        let len = p.seg.out_ms - p.seg.in_ms;
        let (done, key, failed) = (&done, keys[i].as_str(), &failed);
        async move {
            if failed.load(Relaxed) {
                return None;
            }
            let sink = move |pct: u8| {
                let at = done.load(Relaxed) + len * pct as i64 / 100;
                progress((5 + 75 * at.min(total) / total) as u8);
            };
            turn.leave_to_older(Some(key)).await;
            let b = burn_once(prep, p, key, turn, &sink).await;
            turn.got(key);
            if b.is_err() {
                failed.store(true, Relaxed);
            }
            done.fetch_add(len, Relaxed);
            Some(b.map(|b| (i, b)))
        }
    };
    let results: Vec<Option<Result<(usize, Burned), MixError>>> =
        futures_util::stream::iter(order.into_iter().map(one))
            .buffer_unordered(2)
            .collect()
            .await;
    // Burned or given up: younger renders no longer wait for any of them.
    turn.want([]);
    let mut made = Vec::with_capacity(list.len());
    for r in results.into_iter().flatten() {
        made.push(r?);
    }
    made.sort_by_key(|(i, _)| *i);
    let burned: Vec<Burned> = made.into_iter().map(|(_, b)| b).collect();
    // Whole piece files: video only, track 1 (as `burn` writes them), each as long as its piece.
    let video: Vec<super::Segment> = burned
        .iter()
        .zip(&list)
        .map(|(b, p)| super::Segment {
            path: b.path.clone(),
            in_ms: 0,
            out_ms: b.duration_ms,
            info: super::ClipInfo {
                duration_ms: b.duration_ms,
                video_id: 1,
                audio_id: None,
                ..p.seg.info
            },
        })
        .collect();
    let mut enc = render_av(
        prep,
        variant,
        &plan.segs,
        Some(&video),
        plan.planned,
        out_video,
        work,
        None,
    )
    .await?;
    enc.burned = true;
    enc.progress_from = 80;
    let mut r = finish(
        enc,
        prep,
        variant,
        plan.planned,
        out_video,
        out_cover,
        0,
        progress,
    )
    .await?;
    r.pieces_burned = burned.iter().filter(|b| b.fresh).count();
    r.pieces_reused = burned.len() - r.pieces_burned;
    let keep: Vec<PathBuf> = burned.into_iter().map(|b| b.path).collect();
    let (dir, budget) = (prep.dir.clone(), prep.spec.burn_budget_mb * 1024 * 1024);
    let _ = tokio::task::spawn_blocking(move || trim_cache(&dir, budget, &keep)).await;
    Ok(r)
}

/// Runs the encode (progress 5–90) at `nice` ([`Turn::nice`]), then makes the cover (the frame at the
/// chosen time) and renames both into place. The temporary video is removed on failure.
#[allow(clippy::too_many_arguments)]
async fn finish(
    enc: Encode,
    prep: &Prepared,
    variant: &VariantSpec,
    planned: i64,
    out_video: &Path,
    out_cover: &Path,
    nice: i32,
    progress: Progress<'_>,
) -> Result<Rendered, MixError> {
    let tmp = enc.tmp.as_path();
    let report = Report {
        sink: progress,
        total_ms: planned,
        lo: enc.progress_from,
        hi: 90,
    };
    let cwd = enc.in_prep.then_some(prep.dir.as_path());
    if let Err(e) = ffmpeg::run_reporting_niced(&enc.args, cwd, enc.budget, report, nice).await {
        let _ = tokio::fs::remove_file(tmp).await;
        return Err(e.into());
    }
    progress(90);

    // Cover: the frame at the chosen time.
    let at = variant.cover_at_ms.clamp(0, (planned - 100).max(0));
    // Absolute: the cover's ffmpeg may run in the prep folder (below).
    let cover_tmp = absolute(&out_cover.with_extension(format!("{}.tmp.jpg", unique())));
    let mut c = args([
        "-v",
        "error",
        "-y",
        "-nostdin",
        "-ss",
        &secs(at * 1000),
        "-i",
    ]);
    c.push(tmp.display().to_string());
    // A cover past the label's end gets the label too (an image of generated content carries it in a
    // corner); one before it already shows the burned one.
    let label = variant.label.as_ref().filter(|l| at >= l.until_ms);
    let script = match label {
        Some(l) => {
            let mut layer = super::TextLayer::default();
            layer.add_label(&super::Label {
                until_ms: super::text::WHOLE_VIDEO_MS,
                ..l.clone()
            });
            let name = format!("cover-{}-{}.ass", std::process::id(), unique());
            tokio::fs::write(prep.dir.join(&name), layer.script()?).await?;
            c.extend(args([
                "-vf",
                &super::text::subtitles_filter(&prep.dir, &name).await,
            ]));
            Some(name)
        }
        None => None,
    };
    c.extend(args(["-frames:v", "1", "-q:v", "3", "-f", "image2"]));
    c.push(cover_tmp.display().to_string());
    let made = match script {
        // The script and fonts are named relative to the prep folder, where this ffmpeg runs.
        Some(_) => {
            let report = Report {
                sink: &super::no_progress,
                total_ms: 1,
                lo: 90,
                hi: 90,
            };
            ffmpeg::run_reporting(&c, Some(&prep.dir), Duration::from_secs(60), report).await
        }
        None => ffmpeg::run("ffmpeg", &c, Duration::from_secs(60))
            .await
            .map(|_| ()),
    };
    if let Some(name) = script {
        let _ = tokio::fs::remove_file(prep.dir.join(name)).await;
    }
    let made = match (made, &variant.aigc) {
        (Ok(()), Some(meta)) => crate::aigc::tag_image(&cover_tmp, meta)
            .await
            .map_err(crate::ffmpeg::ToolError::Io),
        (m, _) => m,
    };
    if let Err(e) = made {
        let _ = tokio::fs::remove_file(tmp).await;
        let _ = tokio::fs::remove_file(&cover_tmp).await;
        return Err(e.into());
    }
    tokio::fs::rename(tmp, out_video).await?;
    tokio::fs::rename(&cover_tmp, out_cover).await?;
    progress(100);
    Ok(Rendered {
        video: out_video.to_path_buf(),
        cover: out_cover.to_path_buf(),
        planned_ms: planned,
        burned: enc.burned,
        audio_copied: enc.audio_copied,
        pieces_burned: 0,
        pieces_reused: 0,
    })
}
