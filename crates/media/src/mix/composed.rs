//! The composed path (advanced mode with transitions): exact trims on the frame grid ([`exact_trim`]),
//! the overlaps of the [`timeline`], and ONE ffmpeg that joins every segment in a filter graph
//! ([`composed_graph`]) and encodes once.

use super::audio::{ClipSound, variant_audio};
use super::encode::{Encode, burn_args, output_args};
use super::text::subtitles_filter;
use super::{MixError, Prepared, Segment, VariantSpec, secs, unique};
use crate::ffmpeg::args;
use crate::ingest::FPS;
use std::path::Path;
use std::time::Duration;

/// The nearest frame (of the 30 fps output) to a time.
pub(super) fn ms_to_frames(ms: i64) -> i64 {
    (ms.max(0) * FPS + 500) / 1000
}

/// The time of a frame, in whole milliseconds (`ms_to_frames(frames_to_ms(f)) == f`).
pub fn frames_to_ms(frames: i64) -> i64 {
    (frames * 1000 + FPS / 2) / FPS
}

/// The time of a frame in seconds, to the microsecond.
fn frames_secs(frames: i64) -> String {
    secs((frames * 1_000_000 + FPS / 2) / FPS)
}

/// A trim for a composed render: exact (no GOP grid, the video is re-encoded anyway) on the frame grid and
/// clamped into the clip; an out point at or before the in point keeps one second (or the rest of the
/// clip), as [`snap_trim`] does. Milliseconds of frame times.
pub fn exact_trim(duration_ms: i64, in_ms: Option<i64>, out_ms: Option<i64>) -> (i64, i64) {
    let total = ms_to_frames(duration_ms).max(1);
    let a = ms_to_frames(in_ms.unwrap_or(0)).min(total - 1);
    let b = out_ms.map(ms_to_frames).unwrap_or(total).min(total);
    let b = if b <= a { (a + FPS).min(total) } else { b };
    (frames_to_ms(a), frames_to_ms(b))
}

/// Where the segments of a composed render sit in the output, in frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// Length of each segment.
    pub frames: Vec<i64>,
    /// Frames segment i and i+1 share (the transition between them); 0 is a hard cut.
    pub overlaps: Vec<i64>,
    /// The first output frame of each segment: where the transition into it begins. This is also the
    /// `xfade` offset of that transition.
    pub starts: Vec<i64>,
    /// Frames of the output: the segments' sum minus the overlaps' sum.
    pub total: i64,
}

impl Timeline {
    /// The transitions' lengths in milliseconds (what [`Rendered::planned_ms`] subtracts).
    pub fn overlaps_ms(&self) -> Vec<i64> {
        self.overlaps.iter().map(|&f| frames_to_ms(f)).collect()
    }

    pub fn starts_ms(&self) -> Vec<i64> {
        self.starts.iter().map(|&f| frames_to_ms(f)).collect()
    }
}

/// The timeline of segments `frames` long joined by transitions of `wanted_ms` (entry i between segment i
/// and i+1; `None` or no entry is a hard cut). A transition lasts at most half of the shorter of its two
/// segments, so the two transitions of a middle segment never overlap each other.
pub fn timeline(frames: &[i64], wanted_ms: &[Option<i64>]) -> Timeline {
    let overlaps: Vec<i64> = frames
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let want = wanted_ms.get(i).copied().flatten().map_or(0, ms_to_frames);
            want.min(w[0].min(w[1]) / 2).max(0)
        })
        .collect();
    let mut starts = Vec::with_capacity(frames.len());
    let mut at = 0;
    for (i, f) in frames.iter().enumerate() {
        starts.push(at);
        at += f - overlaps.get(i).copied().unwrap_or(0);
    }
    Timeline {
        frames: frames.to_vec(),
        overlaps,
        starts,
        total: at,
    }
}

/// Where a composed render seeks in a clip: half a frame before the first frame kept (so rounding can never
/// drop or add a frame), or the very start.
fn seek_us(first_frame: i64) -> i64 {
    if first_frame == 0 {
        0
    } else {
        ((2 * first_frame - 1) * 1_000_000 + FPS) / (2 * FPS)
    }
}

/// ffmpeg input options of one segment of a composed render: seek (see [`seek_us`]) and read one frame
/// more than kept; the filter graph cuts the exact frames and samples.
pub fn composed_input(seg: &Segment) -> Vec<String> {
    let first = ms_to_frames(seg.in_ms);
    let n = ms_to_frames(seg.out_ms) - first;
    let mut a = args([
        "-ss",
        &secs(seek_us(first)),
        "-t",
        &frames_secs(n + 1),
        "-i",
    ]);
    a.push(seg.path.display().to_string());
    a
}

/// The filter graph of a composed render. Input i is segment i (opened with [`composed_input`], so its
/// first frame lies half a frame after the seek point). Every segment is cut to its exact frames and
/// renumbered on a 1/30 time base; the chain then joins them left to right, `xfade` where a transition is
/// (offset = the segment's start in the output) and `concat` on a hard cut. ffmpeg 5.1's `xfade` ends the
/// transition early (and skews timestamps) when its first input reaches its end while frames are still
/// queued, so the outgoing side gets two cloned frames beyond the transition (`tpad`; they only ever show
/// at progress 0, i.e. not at all) and the result is renumbered (`setpts=N`). `kinds[i]` names transition
/// i; `text` is the filter drawing the text (e.g. `subtitles=...`), applied to the joined video. The video
/// comes out as `[vout]`; with `audio`, the clips' own sound is cut to the same spans and joined with
/// `acrossfade` over the same overlaps (`concat` on hard cuts), out as `[clips]`.
pub fn composed_graph(
    tl: &Timeline,
    first_frames: &[i64],
    kinds: &[Option<&str>],
    text: Option<&str>,
    audio: bool,
) -> String {
    let mut g = Vec::new();
    for (i, n) in tl.frames.iter().enumerate() {
        g.push(format!(
            "[{i}:v]trim=end_frame={n},settb=1/{FPS},setpts=N[v{i}]"
        ));
    }
    let mut cur = "v0".to_string();
    for i in 1..tl.frames.len() {
        let ov = tl.overlaps[i - 1];
        let out = format!("x{i}");
        if ov > 0 {
            let kind = kinds.get(i - 1).copied().flatten().unwrap_or("fade");
            g.push(format!("[{cur}]tpad=stop=2:stop_mode=clone[p{i}]"));
            g.push(format!(
                "[p{i}][v{i}]xfade=transition={kind}:duration={}:offset={},setpts=N[{out}]",
                frames_secs(ov),
                frames_secs(tl.starts[i])
            ));
        } else {
            g.push(format!(
                "[{cur}][v{i}]concat=n=2:v=1:a=0,settb=1/{FPS},setpts=N[{out}]"
            ));
        }
        cur = out;
    }
    g.push(format!("[{cur}]{}[vout]", text.unwrap_or("null")));
    if audio {
        let rate = crate::ingest::AUDIO_RATE;
        let per_frame = rate / FPS;
        for (i, n) in tl.frames.iter().enumerate() {
            // The seek point lies half a frame before the first frame (none at the clip's start).
            let skip = if first_frames.get(i).copied().unwrap_or(0) > 0 {
                per_frame / 2
            } else {
                0
            };
            let len = n * per_frame;
            g.push(format!(
                "[{i}:a]aresample={rate},atrim=start_sample={skip}:end_sample={},\
asetpts=PTS-STARTPTS,apad=whole_len={len}[a{i}]",
                skip + len
            ));
        }
        let mut cur = "a0".to_string();
        for i in 1..tl.frames.len() {
            let ov = tl.overlaps[i - 1];
            let out = if i + 1 == tl.frames.len() {
                "clips".to_string()
            } else {
                format!("y{i}")
            };
            if ov > 0 {
                g.push(format!(
                    "[{cur}][a{i}]acrossfade=ns={}:c1=tri:c2=tri[{out}]",
                    ov * per_frame
                ));
            } else {
                g.push(format!("[{cur}][a{i}]concat=n=2:v=0:a=1[{out}]"));
            }
            cur = out;
        }
        if tl.frames.len() == 1 {
            g.push("[a0]anull[clips]".into());
        }
    }
    g.join(";")
}

/// The composed render (any transition): one ffmpeg reads each segment ([`composed_input`]), joins them
/// in [`composed_graph`], draws the text (`script`, in the prep folder) and encodes with the burn settings.
/// Audio as in the other renders: the bed by copy (cut to the new length), or the clips' own sound
/// (joined over the same overlaps, so it stays in sync) encoded and mixed under the bed, or silence.
#[allow(clippy::too_many_arguments)]
pub(super) async fn render_composed(
    prep: &Prepared,
    variant: &VariantSpec,
    segs: &[Segment],
    tl: &Timeline,
    planned: i64,
    out_video: &Path,
    work: &Path,
    script: Option<&str>,
) -> Result<Encode, MixError> {
    let mut a = args(["-v", "error", "-y", "-nostdin"]);
    for seg in segs {
        a.extend(composed_input(seg));
    }
    let clips = if segs.iter().all(|s| s.info.audio_id.is_some()) {
        ClipSound::Graph("[clips]")
    } else {
        ClipSound::Silent
    };
    let audio = variant_audio(prep, variant, planned, work, segs.len(), clips).await?;
    a.extend(audio.inputs.iter().cloned());
    let text = match script {
        Some(name) => Some(subtitles_filter(&prep.dir, name).await),
        None => None,
    };
    let first_frames: Vec<i64> = segs.iter().map(|s| ms_to_frames(s.in_ms)).collect();
    let kinds: Vec<Option<&str>> = variant
        .transitions
        .iter()
        .map(|t| t.as_ref().map(|t| t.kind.as_str()))
        .collect();
    let mut graph = composed_graph(tl, &first_frames, &kinds, text.as_deref(), audio.clips);
    if let Some(af) = &audio.filter {
        graph.push(';');
        graph.push_str(af);
    }
    a.extend(args(["-filter_complex", &graph, "-map", "[vout]", "-map"]));
    a.push(audio.map.clone());
    a.extend(burn_args());
    let tmp = out_video.with_extension(format!("{}.tmp.mp4", unique()));
    a.extend(output_args(audio.copied(), variant.aigc.as_deref(), &tmp));
    // Every segment is decoded (and the transitions blended): a little more than a burn.
    let secs_total = (planned / 1000).max(1) as u64;
    Ok(Encode {
        args: a,
        tmp,
        in_prep: script.is_some(),
        budget: Duration::from_secs(120 + 15 * secs_total),
        burned: true,
        audio_copied: audio.copied(),
        progress_from: 5,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::test_clip_info as info;
    use std::path::PathBuf;

    #[test]
    fn exact_trims_sit_on_the_frame_grid_inside_the_clip() {
        assert_eq!(exact_trim(3000, None, None), (0, 3000));
        // 1234 ms is nearest to frame 37 (1233 ms); 2500 ms is frame 75.
        assert_eq!(exact_trim(3000, Some(1234), Some(2500)), (1233, 2500));
        // Clamped into the clip; an empty or inverted trim keeps a second or the rest.
        assert_eq!(exact_trim(3000, Some(-50), Some(9000)), (0, 3000));
        assert_eq!(exact_trim(3000, Some(1500), Some(1000)), (1500, 2500));
        assert_eq!(exact_trim(3000, Some(2900), Some(2000)), (2900, 3000));
        assert_eq!(exact_trim(3000, Some(5000), None), (2967, 3000));
        for ms in 0..200 {
            assert_eq!(ms_to_frames(frames_to_ms(ms)), ms);
        }
    }

    #[test]
    fn transitions_overlap_their_segments() {
        // 2 s, 3 s, 1.9 s: a 500 ms fade, then a hard cut.
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        assert_eq!(tl.overlaps, vec![15, 0]);
        assert_eq!(tl.starts, vec![0, 45, 135]);
        assert_eq!(tl.total, 60 + 90 + 57 - 15);
        assert_eq!(tl.overlaps_ms(), vec![500, 0]);
        assert_eq!(tl.starts_ms(), vec![0, 1500, 4500]);
        // Clamped to half of the shorter neighbour, so a middle segment's two transitions never meet.
        let tl = timeline(&[60, 30, 60], &[Some(2000), Some(2000)]);
        assert_eq!(tl.overlaps, vec![15, 15]);
        assert_eq!(tl.starts, vec![0, 45, 60]);
        assert_eq!(tl.total, 120);
        // Missing entries are hard cuts; a one-frame segment cannot overlap.
        let tl = timeline(&[30, 1, 30, 30], &[Some(1000), Some(1000)]);
        assert_eq!(tl.overlaps, vec![0, 0, 0]);
        assert_eq!(tl.total, 91);
        let one = timeline(&[42], &[]);
        assert_eq!(
            (one.overlaps.len(), one.starts.clone(), one.total),
            (0, vec![0], 42)
        );
    }

    #[test]
    fn composed_graph_joins_with_xfade_and_concat() {
        let tl = timeline(&[60, 90, 57], &[Some(500), None]);
        let g = composed_graph(
            &tl,
            &[15, 0, 30],
            &[Some("slideleft")],
            Some("subtitles=t.ass"),
            true,
        );
        let parts: Vec<&str> = g.split(';').collect();
        assert_eq!(parts[0], "[0:v]trim=end_frame=60,settb=1/30,setpts=N[v0]");
        assert_eq!(parts[3], "[v0]tpad=stop=2:stop_mode=clone[p1]");
        assert_eq!(
            parts[4],
            "[p1][v1]xfade=transition=slideleft:duration=0.500000:offset=1.500000,setpts=N[x1]"
        );
        assert_eq!(
            parts[5],
            "[x1][v2]concat=n=2:v=1:a=0,settb=1/30,setpts=N[x2]"
        );
        assert_eq!(parts[6], "[x2]subtitles=t.ass[vout]");
        // Audio: the same spans in samples (half a frame skipped after a mid-clip seek), the same overlaps.
        assert_eq!(
            parts[7],
            "[0:a]aresample=48000,atrim=start_sample=800:end_sample=96800,asetpts=PTS-STARTPTS,\
apad=whole_len=96000[a0]"
        );
        assert!(parts[8].contains("atrim=start_sample=0:end_sample=144000"));
        assert_eq!(parts[10], "[a0][a1]acrossfade=ns=24000:c1=tri:c2=tri[y1]");
        assert_eq!(parts[11], "[y1][a2]concat=n=2:v=0:a=1[clips]");
        assert_eq!(parts.len(), 12);
        // No text, no audio.
        let g = composed_graph(&tl, &[0, 0, 0], &[Some("fade")], None, false);
        assert!(g.ends_with("[x2]null[vout]") && !g.contains(":a]"));
        // Seeks: half a frame before the first frame kept; one frame more is read than kept.
        let seg = Segment {
            path: PathBuf::from("/m/a.mp4"),
            in_ms: 500,
            out_ms: 2500,
            info: info(3000),
        };
        assert_eq!(
            composed_input(&seg).join(" "),
            "-ss 0.483333 -t 2.033333 -i /m/a.mp4"
        );
        let seg = Segment { in_ms: 0, ..seg };
        assert!(
            composed_input(&seg)
                .join(" ")
                .starts_with("-ss 0.000000 -t 2.533333 ")
        );
    }
}
