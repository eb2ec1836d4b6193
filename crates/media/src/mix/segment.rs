//! Segments: a clip's trim snapped to the GOP grid ([`snap_trim`]), the pieces of a variant's timeline
//! and the concat demuxer's script that joins them ([`concat_script`]).

use super::{ClipInfo, ClipSpec, GOP_MS, secs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A trim on the GOP grid: the in point moves back to the keyframe at or before it, the out point to the
/// nearest keyframe (or the clip's end when that is nearer or the out point is past it); at least one GOP
/// (or the whole clip if shorter) is kept. Cutting on keyframes is what keeps the join a stream copy: no
/// frame of a kept GOP refers to a dropped one (closed GOPs), so nothing needs re-encoding.
pub fn snap_trim(duration_ms: i64, in_ms: Option<i64>, out_ms: Option<i64>) -> (i64, i64) {
    let d = duration_ms.max(0);
    let last_key = if d == 0 { 0 } else { (d - 1) / GOP_MS * GOP_MS };
    let a = (in_ms.unwrap_or(0).max(0) / GOP_MS * GOP_MS).min(last_key);
    let b = match out_ms {
        None => d,
        Some(o) if o >= d => d,
        Some(o) => {
            let near = (o + GOP_MS / 2) / GOP_MS * GOP_MS;
            // The clip's end is a cut point too; prefer it when it is the nearer one.
            if d - o < (o - near).abs() || near >= d {
                d
            } else {
                near
            }
        }
    };
    let b = if b <= a { (a + GOP_MS).min(d) } else { b };
    (a, b)
}

/// One piece of the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub path: PathBuf,
    pub in_ms: i64,
    pub out_ms: i64,
    pub info: ClipInfo,
}

pub(super) fn segments(clips: &[ClipSpec], infos: &BTreeMap<PathBuf, ClipInfo>) -> Vec<Segment> {
    clips
        .iter()
        .map(|c| {
            let info = infos[&c.path];
            let (a, b) = snap_trim(info.duration_ms, c.in_ms, c.out_ms);
            Segment {
                path: c.path.clone(),
                in_ms: a,
                out_ms: b,
                info,
            }
        })
        .collect()
}

/// The planned length of a variant: the sum of its snapped clip lengths.
pub fn planned_ms(segments: &[Segment]) -> i64 {
    segments.iter().map(|s| s.out_ms - s.in_ms).sum()
}

fn quote_concat(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// An ffconcat script over one stream of the mezzanines. Every file carries an explicit `duration`, so the
/// timeline is exactly the sum of the segments. For video, a cut before the clip's end stops at the
/// *decoding* time of the next GOP's keyframe (the demuxer compares DTS, which runs `dts_delay` ahead), so
/// exactly the frames of the kept GOPs are copied; audio stops at the out point itself.
pub fn concat_script(segments: &[Segment], video: bool) -> String {
    let mut s = String::from("ffconcat version 1.0\n");
    if let Some(first) = segments.first() {
        let id = if video {
            first.info.video_id
        } else {
            first.info.audio_id.unwrap_or(2)
        };
        s.push_str(&format!("stream\nexact_stream_id {id}\n"));
    }
    for seg in segments {
        s.push_str(&format!("file {}\n", quote_concat(&seg.path)));
        if seg.in_ms > 0 {
            s.push_str(&format!("inpoint {}\n", secs(seg.in_ms * 1000)));
        }
        if seg.out_ms < seg.info.duration_ms {
            let out_us = if video {
                // Half a millisecond before the keyframe's DTS: no packet lies in between (frames are 33 ms).
                seg.out_ms * 1000 - seg.info.dts_delay_us - 500
            } else {
                seg.out_ms * 1000
            };
            s.push_str(&format!("outpoint {}\n", secs(out_us)));
        }
        s.push_str(&format!(
            "duration {}\n",
            secs((seg.out_ms - seg.in_ms) * 1000)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::test_clip_info as info;

    #[test]
    fn trims_snap_to_the_gop_grid() {
        assert_eq!(snap_trim(5400, None, None), (0, 5400));
        assert_eq!(snap_trim(5400, Some(1300), Some(3400)), (1000, 3000));
        assert_eq!(snap_trim(5400, Some(1999), Some(3600)), (1000, 4000));
        // Near the end (or past it) the clip's end is the cut.
        assert_eq!(snap_trim(5400, Some(0), Some(5300)), (0, 5400));
        assert_eq!(snap_trim(5400, Some(0), Some(9000)), (0, 5400));
        // Never empty: at least one GOP, or the rest of the clip.
        assert_eq!(snap_trim(5400, Some(2200), Some(2300)), (2000, 3000));
        assert_eq!(snap_trim(5400, Some(5300), None), (5000, 5400));
        assert_eq!(snap_trim(800, Some(500), Some(600)), (0, 800));
    }

    #[test]
    fn concat_script_cuts_video_at_the_keyframe_dts() {
        let segs = vec![
            Segment {
                path: PathBuf::from("/m/a'b.mp4"),
                in_ms: 1000,
                out_ms: 3000,
                info: info(5400),
            },
            Segment {
                path: PathBuf::from("/m/c.mp4"),
                in_ms: 0,
                out_ms: 4000,
                info: info(4000),
            },
        ];
        let v = concat_script(&segs, true);
        assert!(v.starts_with("ffconcat version 1.0\nstream\nexact_stream_id 1\n"));
        assert!(v.contains(
            "file '/m/a'\\''b.mp4'\ninpoint 1.000000\noutpoint 2.932833\nduration 2.000000\n"
        ));
        assert!(v.ends_with("file '/m/c.mp4'\nduration 4.000000\n"));
        let a = concat_script(&segs, false);
        assert!(a.contains("exact_stream_id 2\n") && a.contains("outpoint 3.000000\n"));
        assert_eq!(planned_ms(&segs), 6000);
    }
}
