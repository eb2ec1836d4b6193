//! The project prep step: every mezzanine probed ([`probe_clip`]), the audio bed started, the subtitle
//! font resolved, all saved as `prep.json` ([`Prepared`]); and the segments of a variant planned from it.

use super::audio::bed_once;
use super::composed::exact_trim;
use super::prepared::{Bed, ClipInfo, Prepared};
use super::segment::{Segment, segments};
use super::spec::check_style;
use super::text::{font_family, subtitle_lines};
use super::{
    ClipSpec, Font, MixError, Progress, ProjectSpec, Subtitles, TextStyle, absolute, invalid,
    must_exist,
};
use crate::ffmpeg::{self, args};
use crate::ingest::{FPS, HEIGHT, WIDTH};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Probes a mezzanine for the concat demuxer and checks it is one (1080x1920 H.264 at 30 fps).
pub async fn probe_clip(path: &Path) -> Result<ClipInfo, MixError> {
    must_exist(path).await?;
    let mut a = args([
        "-v",
        "error",
        "-read_intervals",
        "%+#1",
        "-show_entries",
        "stream=index,id,codec_type,codec_name,width,height,avg_frame_rate,time_base,duration:packet=stream_index,pts,dts",
        "-of",
        "json",
    ]);
    a.push(path.display().to_string());
    let out = ffmpeg::run("ffprobe", &a, Duration::from_secs(60)).await?;
    let v: serde_json::Value = serde_json::from_slice(&out)
        .map_err(|e| MixError::Invalid(format!("{}: {e}", path.display())))?;
    let streams = v["streams"].as_array().cloned().unwrap_or_default();
    let video = streams
        .iter()
        .find(|s| s["codec_type"] == "video")
        .ok_or_else(|| MixError::Invalid(format!("{} has no video", path.display())))?;
    let not_mezz = || {
        MixError::Invalid(format!(
            "{} is not a {WIDTH}x{HEIGHT} H.264 {FPS} fps mezzanine; ingest it first",
            path.display()
        ))
    };
    if video["codec_name"] != "h264"
        || video["width"].as_i64() != Some(WIDTH)
        || video["height"].as_i64() != Some(HEIGHT)
        || video["avg_frame_rate"] != "30/1"
    {
        return Err(not_mezz());
    }
    let id = |s: &serde_json::Value| {
        s["id"]
            .as_str()
            .and_then(|h| i64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
    };
    let tb = video["time_base"]
        .as_str()
        .and_then(|t| t.split_once('/'))
        .and_then(|(n, d)| Some((n.parse::<i64>().ok()?, d.parse::<i64>().ok()?)))
        .filter(|(n, d)| *n > 0 && *d > 0)
        .ok_or_else(not_mezz)?;
    let duration_ms = video["duration"]
        .as_str()
        .and_then(|d| d.parse::<f64>().ok())
        .map(|d| (d * 1000.0).round() as i64)
        .filter(|d| *d > 0)
        .ok_or_else(not_mezz)?;
    let vindex = video["index"].as_i64();
    let first = v["packets"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["stream_index"].as_i64() == vindex))
        .ok_or_else(not_mezz)?;
    let (pts, dts) = (
        first["pts"].as_i64().unwrap_or(0),
        first["dts"].as_i64().unwrap_or(0),
    );
    Ok(ClipInfo {
        duration_ms,
        dts_delay_us: (pts - dts).max(0) * 1_000_000 * tb.0 / tb.1,
        video_id: id(video).ok_or_else(not_mezz)?,
        audio_id: streams
            .iter()
            .find(|s| s["codec_type"] == "audio")
            .and_then(id),
    })
}

/// The project prep step (see the module documentation). `dir` is the project's prep folder (created);
/// everything it makes lives there and `prep.json` describes it.
pub async fn prepare(
    spec: &ProjectSpec,
    dir: &Path,
    progress: Progress<'_>,
) -> Result<Prepared, MixError> {
    progress(0);
    let dir = absolute(dir);
    for p in spec
        .clips
        .iter()
        .chain(spec.music.iter())
        .chain(spec.voice.iter())
    {
        must_exist(p).await?;
    }
    if let Some(Subtitles {
        style: TextStyle {
            font: Font::File(f),
            ..
        },
        ..
    }) = &spec.subtitles
    {
        must_exist(f).await?;
    }
    if spec.bed_ms <= 0 {
        return invalid("bed_ms must be positive");
    }
    tokio::fs::create_dir_all(&dir).await?;
    let mut clips = BTreeMap::new();
    let n = spec.clips.len().max(1);
    for (i, c) in spec.clips.iter().enumerate() {
        let c = absolute(c);
        if let std::collections::btree_map::Entry::Vacant(e) = clips.entry(c) {
            let info = probe_clip(e.key()).await?;
            e.insert(info);
        }
        progress((i * 30 / n) as u8);
    }
    // The bed is made beside the first render's burns rather than before them: nothing needs it until
    // a variant's join, and it keeps only one core busy (a render that gets there first waits for it, or
    // makes it when this process did not live to: see `bed_once`).
    let bed = (spec.music.is_some() || spec.voice.is_some()).then(|| Bed {
        path: dir.join("bed.m4a"),
        duration_ms: spec.bed_ms,
    });
    if let Some(b) = bed.clone() {
        let spec = spec.clone();
        tokio::spawn(async move {
            if let Err(e) = bed_once(&spec, &b).await {
                // The render that needs it makes it again and fails with this reason.
                tracing::warn!(error = %e, bed = %b.path.display(), "making a project's sound bed");
            }
        });
    }
    progress(80);
    let subtitle_family = match &spec.subtitles {
        Some(s) => {
            if subtitle_lines(s).is_empty() {
                return invalid("subtitles have no line with text and a positive duration");
            }
            check_style(&s.style)?;
            Some(font_family(&s.style, &dir).await?)
        }
        None => None,
    };
    let prep = Prepared {
        dir: dir.clone(),
        spec: spec.clone(),
        clips,
        bed,
        subtitle_family,
    };
    let json = serde_json::to_vec_pretty(&prep).map_err(|e| MixError::Invalid(e.to_string()))?;
    tokio::fs::write(dir.join("prep.json.tmp"), json).await?;
    tokio::fs::rename(dir.join("prep.json.tmp"), dir.join("prep.json")).await?;
    progress(100);
    Ok(prep)
}

/// The planned segments of a variant (probing clips the prep did not see).
pub async fn plan_segments(prep: &Prepared, clips: &[ClipSpec]) -> Result<Vec<Segment>, MixError> {
    plan(prep, clips, false).await
}

/// The segments of a composed render: trims exact on the frame grid ([`exact_trim`]), not on the GOP grid.
pub async fn plan_exact_segments(
    prep: &Prepared,
    clips: &[ClipSpec],
) -> Result<Vec<Segment>, MixError> {
    plan(prep, clips, true).await
}

async fn plan(prep: &Prepared, clips: &[ClipSpec], exact: bool) -> Result<Vec<Segment>, MixError> {
    if clips.is_empty() {
        return invalid("a variant needs at least one clip");
    }
    let mut infos = prep.clips.clone();
    let mut abs = Vec::with_capacity(clips.len());
    for c in clips {
        let p = absolute(&c.path);
        must_exist(&p).await?;
        if !infos.contains_key(&p) {
            let info = probe_clip(&p).await?;
            infos.insert(p.clone(), info);
        }
        abs.push(ClipSpec {
            path: p,
            in_ms: c.in_ms,
            out_ms: c.out_ms,
        });
    }
    let mut segs = segments(&abs, &infos);
    if exact {
        for (seg, c) in segs.iter_mut().zip(&abs) {
            (seg.in_ms, seg.out_ms) = exact_trim(seg.info.duration_ms, c.in_ms, c.out_ms);
        }
    }
    let ids = (segs[0].info.video_id, segs[0].info.audio_id);
    if let Some(s) = segs
        .iter()
        .find(|s| (s.info.video_id, s.info.audio_id) != ids)
    {
        return invalid(format!(
            "{} has a different track layout from the other clips; ingest it again",
            s.path.display()
        ));
    }
    Ok(segs)
}
