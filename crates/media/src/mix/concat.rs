//! The stream-copy path: the render that joins the clips' video by copy through the concat demuxer
//! (`segment::concat_script`), re-encoding only to burn text.

use super::audio::{ClipSound, variant_audio};
use super::encode::{Encode, burn_args, output_args};
use super::segment::{Segment, concat_script};
use super::text::subtitles_filter;
use super::{MixError, Prepared, VariantSpec, unique};
use crate::ffmpeg::args;
use std::path::Path;
use std::time::Duration;

/// The stream-copy render: the concat demuxer joins the clips' video by copy, or re-encodes it once when
/// text is burned (`script`, in the prep folder). `video`, when given, is what the video is joined from
/// instead of the clips (pre-burned pieces, whole files); the sound still comes from `segs`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn render_av(
    prep: &Prepared,
    variant: &VariantSpec,
    segs: &[Segment],
    video: Option<&[Segment]>,
    planned: i64,
    out_video: &Path,
    work: &Path,
    script: Option<&str>,
) -> Result<Encode, MixError> {
    tokio::fs::write(
        work.join("video.ffconcat"),
        concat_script(video.unwrap_or(segs), true),
    )
    .await?;
    let mut a = args([
        "-v", "error", "-y", "-nostdin", "-f", "concat", "-safe", "0", "-i",
    ]);
    a.push(work.join("video.ffconcat").display().to_string());

    let clips = if segs[0].info.audio_id.is_some() {
        ClipSound::Concat {
            segs,
            script: &work.join("audio.ffconcat"),
        }
    } else {
        ClipSound::Silent
    };
    let audio = variant_audio(prep, variant, planned, work, 1, clips).await?;
    a.extend(audio.inputs.iter().cloned());

    // Video: copy, or the text drawn by libass in one re-encode.
    let mut graph = String::new();
    let burned = script.is_some();
    if let Some(name) = script {
        let text = subtitles_filter(&prep.dir, name).await;
        graph.push_str(&format!("[0:v]{text}[vout]"));
    }
    if let Some(af) = &audio.filter {
        if !graph.is_empty() {
            graph.push(';');
        }
        graph.push_str(af);
    }
    if !graph.is_empty() {
        a.extend(args(["-filter_complex", &graph]));
    }
    a.extend(args(["-map", if burned { "[vout]" } else { "0:v" }]));
    a.extend(args(["-map", &audio.map]));
    if burned {
        a.extend(burn_args());
    } else {
        a.extend(args(["-c:v", "copy"]));
    }
    let tmp = out_video.with_extension(format!("{}.tmp.mp4", unique()));
    a.extend(output_args(audio.copied(), variant.aigc.as_deref(), &tmp));
    let secs_total = (planned / 1000).max(1) as u64;
    let budget = if burned {
        Duration::from_secs(120 + 10 * secs_total)
    } else {
        Duration::from_secs(60 + secs_total)
    };
    Ok(Encode {
        args: a,
        tmp,
        in_prep: burned,
        budget,
        burned,
        audio_copied: audio.copied(),
        progress_from: 5,
    })
}
