//! The audio bed: music looped to length and the voice-over, loudness-normalized, the music ducked under
//! the voice ([`bed_args`]); made once per project, or per variant when the project's is too short.

use super::{
    Bed, MixError, Prepared, ProjectSpec, Segment, TARGET_LUFS, VariantSpec, concat_script, secs,
    unique,
};
use crate::ffmpeg::{self, args};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn gain(volume: u8) -> String {
    format!("{:.3}", f64::from(volume.min(100)) / 100.0)
}

/// ffmpeg arguments for the bed: music looped (input option `-stream_loop -1`) and the voice padded with
/// silence, each loudness-normalized; with both, the music sits 6 dB under and is ducked (side-chain
/// compressed) while the voice speaks; a limiter keeps the sum from clipping. AAC 48 kHz stereo.
pub fn bed_args(
    music: Option<(&Path, u8)>,
    voice: Option<(&Path, u8)>,
    ms: i64,
    dst: &Path,
) -> Vec<String> {
    let norm = format!(
        "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,\
loudnorm=I={TARGET_LUFS}:TP=-1.5:LRA=11,aresample=48000"
    );
    let mut a = args(["-v", "error", "-y"]);
    let mut n = 0;
    let mut graph = String::new();
    if let Some((m, vol)) = music {
        a.extend(args(["-stream_loop", "-1", "-i"]));
        a.push(m.display().to_string());
        let under = if voice.is_some() { 0.5 } else { 1.0 };
        graph.push_str(&format!(
            "[{n}:a]{norm},volume={:.3}[m];",
            f64::from(vol.min(100)) / 100.0 * under
        ));
        n += 1;
    }
    if let Some((v, vol)) = voice {
        a.push("-i".into());
        a.push(v.display().to_string());
        graph.push_str(&format!("[{n}:a]{norm},volume={},apad[v];", gain(vol)));
    }
    graph.push_str(match (music.is_some(), voice.is_some()) {
        (true, true) => {
            "[v]asplit=2[v1][sc];[m][sc]sidechaincompress=threshold=0.02:ratio=6:attack=20:release=400[duck];\
[duck][v1]amix=inputs=2:duration=first:normalize=0,alimiter=limit=0.95:level=0[out]"
        }
        (true, false) => "[m]alimiter=limit=0.95:level=0[out]",
        _ => "[v]alimiter=limit=0.95:level=0[out]",
    });
    a.extend(args(["-filter_complex", &graph, "-map", "[out]", "-t"]));
    a.push(secs(ms * 1000));
    a.extend(args([
        "-c:a",
        "aac",
        "-b:a",
        "160k",
        "-ar",
        "48000",
        "-ac",
        "2",
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
    ]));
    a.push(dst.display().to_string());
    a
}

pub(super) async fn render_bed(
    spec: &ProjectSpec,
    ms: i64,
    dst: &Path,
) -> Result<Option<Bed>, MixError> {
    let music = spec.music.as_deref().map(|m| (m, spec.music_volume));
    let voice = spec.voice.as_deref().map(|v| (v, spec.voice_volume));
    if music.is_none() && voice.is_none() {
        return Ok(None);
    }
    let tmp = dst.with_extension(format!("{}.tmp", unique()));
    let budget = Duration::from_secs(120 + (ms / 1000).max(0) as u64);
    ffmpeg::run("ffmpeg", &bed_args(music, voice, ms, &tmp), budget).await?;
    tokio::fs::rename(&tmp, dst).await?;
    Ok(Some(Bed {
        path: dst.to_path_buf(),
        duration_ms: ms,
    }))
}

/// The project's bed `b` (a spec with music or voice), made once however many renders ask for it at once
/// (the burns' in-flight locks): the prep step starts it, the first render to need it waits for it, and
/// one whose prep outlived the process making it makes it again.
pub(super) async fn bed_once(spec: &ProjectSpec, b: &Bed) -> Result<PathBuf, MixError> {
    let lock = super::inflight::in_flight(&b.path.display().to_string());
    let _guard = lock.lock().await;
    if tokio::fs::metadata(&b.path).await.is_err() {
        render_bed(spec, b.duration_ms, &b.path)
            .await?
            .ok_or_else(|| MixError::Invalid("a sound bed needs music or a voice-over".into()))?;
    }
    Ok(b.path.clone())
}

/// The bed of a variant `planned` ms long: the project's when it is long enough, else one made for it in
/// `work`; `None` when the project has neither music nor voice.
async fn variant_bed(
    prep: &Prepared,
    planned: i64,
    work: &Path,
) -> Result<Option<PathBuf>, MixError> {
    Ok(match &prep.bed {
        Some(b) if b.duration_ms >= planned => Some(bed_once(&prep.spec, b).await?),
        Some(_) => render_bed(&prep.spec, planned, &work.join("bed.m4a"))
            .await?
            .map(|b| b.path),
        None => None,
    })
}

/// Where the clips' own sound of a variant comes from.
pub(super) enum ClipSound<'a> {
    /// The clips have none.
    Silent,
    /// The concat demuxer joins it (the stream-copy render); its script is written to `script` when used.
    Concat {
        segs: &'a [Segment],
        script: &'a Path,
    },
    /// An output of the filter graph (the composed render), e.g. `[clips]`.
    Graph(&'a str),
}

/// The audio track of a variant: the inputs to add, the filter making it (`None`: the bed by stream copy)
/// and what `-map` takes.
pub(super) struct VariantAudio {
    pub inputs: Vec<String>,
    pub filter: Option<String>,
    pub map: String,
    /// The clips' own sound is used.
    pub clips: bool,
}

impl VariantAudio {
    pub fn copied(&self) -> bool {
        self.filter.is_none()
    }
}

/// The audio of a variant `planned` ms long, its inputs numbered from `next_input`: the bed by copy, or the
/// clips' own sound (mixed under the bed) encoded as `[aout]`, or silence. Encoded audio is cut in the
/// filter graph: an output -t would also apply to copied video.
pub(super) async fn variant_audio(
    prep: &Prepared,
    variant: &VariantSpec,
    planned: i64,
    work: &Path,
    mut next_input: usize,
    clips: ClipSound<'_>,
) -> Result<VariantAudio, MixError> {
    let bed = variant_bed(prep, planned, work).await?;
    let clip_volume = variant
        .clip_audio_volume
        .unwrap_or(if bed.is_some() { 0 } else { 100 });
    let trim = format!("atrim=end={}", secs(planned * 1000));
    let mut inputs = Vec::new();
    let mut map = String::new();
    let mut filter = None;
    if let Some(bed) = &bed {
        inputs.extend(args(["-t", &secs(planned * 1000), "-i"]));
        inputs.push(bed.display().to_string());
        map = format!("{next_input}:a");
        next_input += 1;
    }
    let source = match clips {
        _ if clip_volume == 0 => None,
        ClipSound::Silent => None,
        ClipSound::Concat { segs, script } => {
            tokio::fs::write(script, concat_script(segs, false)).await?;
            inputs.extend(args(["-f", "concat", "-safe", "0", "-i"]));
            inputs.push(script.display().to_string());
            Some(format!(
                "[{next_input}:a]aresample=48000:async=1000:first_pts=0,"
            ))
        }
        ClipSound::Graph(label) => Some(label.to_string()),
    };
    if let Some(source) = &source {
        let clip = format!("{source}volume={}", gain(clip_volume));
        filter = Some(if bed.is_some() {
            format!(
                "{clip}[c];[{map}]anull[b];[b][c]amix=inputs=2:duration=first:normalize=0,\
alimiter=limit=0.95:level=0,{trim}[aout]"
            )
        } else {
            format!("{clip},apad,{trim}[aout]")
        });
    } else if bed.is_none() {
        inputs.extend(args(["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo"]));
        filter = Some(format!("[{next_input}:a]{trim}[aout]"));
    }
    if filter.is_some() {
        map = "[aout]".into();
    }
    Ok(VariantAudio {
        inputs,
        filter,
        map,
        clips: source.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bed_args_duck_the_music_under_the_voice() {
        let a = bed_args(
            Some((Path::new("m.mp3"), 80)),
            Some((Path::new("v.wav"), 100)),
            30_000,
            Path::new("bed.m4a"),
        )
        .join(" ");
        assert!(a.contains("-stream_loop -1 -i m.mp3 -i v.wav"));
        assert!(
            a.contains("loudnorm=I=-16")
                && a.contains("sidechaincompress")
                && a.contains("volume=0.400")
        );
        assert!(a.contains("-t 30.000000"));
        let only_voice =
            bed_args(None, Some((Path::new("v.wav"), 50)), 1000, Path::new("b")).join(" ");
        assert!(
            only_voice.contains("[0:a]")
                && only_voice.contains("apad")
                && !only_voice.contains("stream_loop")
        );
    }
}

// The bed is made on first use, here beside the rest of the sound.
impl Prepared {
    /// The project's sound bed file, once it is made (see [`prepare`]); `None` without music or voice.
    pub async fn bed_file(&self) -> Result<Option<PathBuf>, MixError> {
        match &self.bed {
            Some(b) => bed_once(&self.spec, b).await.map(Some),
            None => Ok(None),
        }
    }
}
