//! Pre-burned segments: when every variant of a project puts clip c of group k at the same
//! times of slot k ([`ProjectSpec::reuse_burns`](super::ProjectSpec::reuse_burns)), the burned picture of
//! "clip c in slot k" is the same in every variant that uses it. So each such piece is burned once, with
//! exactly the text that shows during it ([`TextLayer::window`]), cached in the prep folder under a hash
//! of everything that makes its picture ([`piece_key`]), and every variant is a stream-copy join of
//! burned pieces.
//!
//! A piece is one segment of the plan, split on the 1 s grid where a time-limited title ends
//! ([`pieces`]): a title that differs per variant then costs a re-encode only of the seconds where it
//! shows, and the rest of the segment stays shared. Pieces are encoded with the mezzanines' own settings
//! plus x264's `stitchable` ([`piece_args`]): every piece has the same SPS/PPS, so the concat demuxer
//! joins them like mezzanines. Because a piece is made once and used by many variants it can afford
//! `veryfast` (a third of the bitrate of the one-off burn's `ultrafast`).
//!
//! A composed variant (transitions between shots) is pieces too when its sound is the bed alone
//! ([`composed_pieces`]): the frames of each shot no transition touches, cut frame-exact, and each
//! transition on its own, blended by the same `xfade` as the one-pass composed graph. The middles recur
//! like plain pieces; a transition recurs whenever the same two clips meet at the same join. The text
//! windows of these pieces are taken by frames ([`TextLayer::window_frames`]), since they start between
//! seconds.
//!
//! Renders of one process burn in the order they began ([`Turn`]): the burns of a younger render run
//! `nice`, on what the older ones leave over, and a piece an older render also needs is left to the
//! older one (burned at `nice`, the older render would wait on it). The first variant of a batch then
//! gets the cores while the second render burns beside it, so it is ready about as soon as if it
//! rendered alone, and no core idles meanwhile (one x264 burn keeps only ~1.8 of 2 cores busy).
//!
//! Two renders that need the same missing piece wait for one burn ([`burn_once`]); a piece is written
//! under a temporary name and renamed, so a crash never leaves half of one. The cache keeps to the
//! project's budget by dropping the least recently used pieces ([`trim_cache`]). The cache is the
//! project's, beside its prep folders ([`burn_dir`]): a prep folder is named by a digest of the whole
//! spec (sound included), and a piece's key already names everything that makes its picture, so two
//! preps of one project (another music volume, or a voice-over read before and after its ingest) share
//! their pieces. It goes with the project like the prep folders (`storage::Workspace::sweep`).

use super::composed::{Timeline, composed_input, frames_to_ms, ms_to_frames};
use super::inflight::in_flight;
use super::segment::Segment;
use super::text::{TextLayer, fnv, subtitles_filter};
use super::{GOP_MS, MixError, PieceSpeed, Prepared, Progress, probe_clip, secs, unique};
use crate::ffmpeg::{self, Report, args};
use crate::ingest::FPS;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The project's piece cache for the prep folder `prep_dir` (`<prep>/p{project}-{digest}`): the sibling
/// `p{project}-burn`, which the workspace sweep keeps and removes with the project's prep folders.
pub fn burn_dir(prep_dir: &Path) -> PathBuf {
    prep_dir.with_file_name(burn_dir_name(prep_dir))
}

/// [`burn_dir`]'s folder name.
fn burn_dir_name(prep_dir: &Path) -> String {
    let name = prep_dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    format!("{}-burn", name.split('-').next().unwrap_or_default())
}

/// The settings of a pre-burned piece: the mezzanine's (`ingest::normalize`: veryfast, CRF 20, High
/// 4.1, one closed GOP per second, headers repeated) at a CRF two steps lower, since the piece is a second
/// generation, and `stitchable`, which keeps SPS/PPS independent of the content so that pieces join.
/// Motion search by diamond (superfast's) instead of veryfast's hexagon: on a 10 s 1080x1920 noisy piece
/// 13% less encoding CPU (10.1 against 11.6 CPU-s) for 0.6% more bytes at the same SSIM; it changes no
/// header, so pieces still join the mezzanines (superfast's partitions would save another 13% but
/// cost 5% more bytes at equal SSIM, past the bitrate budget).
pub const PIECE_CRF: u32 = 18;
const PIECE_X264_PARAMS: &str = "stitchable=1:repeat-headers=1:me=dia";
/// Part of every key: raise it when the way a piece is made changes beyond [`piece_args`].
const PIECE_VERSION: u32 = 3;

/// [`PieceSpeed::Fast`]'s CRF: superfast has no macroblock tree, so the same CRF spends more bits than
/// veryfast's; 23 lands at about veryfast CRF 18's picture (see [`PieceSpeed`]).
pub const FAST_PIECE_CRF: u32 = 23;

/// The encoder arguments of a piece. Every piece of a project has the same speed, so its pieces share
/// their SPS/PPS and join; the speed is part of the key, so the two kinds never mix in a cache.
pub(super) fn piece_args(piece: &Piece, speed: PieceSpeed) -> Vec<String> {
    let (preset, crf) = match speed {
        PieceSpeed::Quality => ("veryfast", PIECE_CRF),
        PieceSpeed::Fast => ("superfast", FAST_PIECE_CRF),
    };
    // A transition's blend is the hardest picture for the encoder (every pixel changes every frame),
    // and transition pieces are short: two steps lower (SPS/PPS stay the same: `stitchable`).
    let crf = if piece.blend.is_some() { crf - 2 } else { crf };
    let mut a = crate::ingest::mezzanine_video_args_at(preset, crf, PIECE_X264_PARAMS);
    a.extend(args(["-pix_fmt", "yuv420p"]));
    a
}

/// One piece of a variant: a trim of a mezzanine, where it starts in the variant, and the text that
/// shows during it (on the piece's own timeline).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub seg: Segment,
    pub start_ms: i64,
    pub text: TextLayer,
    /// Cut frame-exact (a composed render's trims are not on the GOP grid).
    pub exact: bool,
    /// A transition piece: `seg` (the outgoing shot's last frames) blends into these frames of the
    /// incoming shot with this `xfade` kind, as the composed render's graph does.
    pub blend: Option<(Segment, String)>,
}

/// The pieces of a composed variant (transitions between shots, `tl`): the part of each shot that no
/// transition touches, and each transition on its own (hard cuts make none). With fixed slots both recur
/// in other variants: the middle of clip c in slot k always, a transition whenever the same two clips
/// meet at the same join.
pub fn composed_pieces(
    segs: &[Segment],
    tl: &Timeline,
    kinds: &[Option<&str>],
    layer: &TextLayer,
) -> Vec<Piece> {
    let at = |seg: &Segment, from: i64, to: i64| {
        let first = ms_to_frames(seg.in_ms);
        Segment {
            in_ms: frames_to_ms(first + from),
            out_ms: frames_to_ms(first + to),
            ..seg.clone()
        }
    };
    let mut out = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let n = tl.frames[i];
        let head = if i > 0 { tl.overlaps[i - 1] } else { 0 };
        let tail = tl.overlaps.get(i).copied().unwrap_or(0);
        let start = tl.starts[i];
        if n - tail > head {
            out.push(Piece {
                seg: at(seg, head, n - tail),
                start_ms: frames_to_ms(start + head),
                text: layer.window_frames(start + head, start + n - tail),
                exact: true,
                blend: None,
            });
        }
        if tail > 0 {
            let next = tl.starts[i + 1];
            let kind = kinds.get(i).copied().flatten().unwrap_or("fade");
            out.push(Piece {
                seg: at(seg, n - tail, n),
                start_ms: frames_to_ms(next),
                text: layer.window_frames(next, next + tail),
                exact: true,
                blend: Some((at(&segs[i + 1], 0, tail), kind.to_string())),
            });
        }
    }
    out
}

/// The pieces of a variant: each segment (starting at `starts_ms[i]` in the variant) cut at the
/// variant times in `cuts`, rounded up to the segment's 1 s grid, with the window of `layer` it shows.
pub fn pieces(segs: &[Segment], starts_ms: &[i64], layer: &TextLayer, cuts: &[i64]) -> Vec<Piece> {
    let mut out = Vec::new();
    for (seg, &start) in segs.iter().zip(starts_ms) {
        let len = seg.out_ms - seg.in_ms;
        let mut at: Vec<i64> = cuts
            .iter()
            .map(|c| c - start)
            .filter(|&c| c > 0 && c < len)
            .map(|c| (c + GOP_MS - 1) / GOP_MS * GOP_MS)
            .filter(|&c| c < len)
            .collect();
        at.sort_unstable();
        at.dedup();
        let mut from = 0;
        for to in at.into_iter().chain([len]) {
            out.push(Piece {
                seg: Segment {
                    in_ms: seg.in_ms + from,
                    out_ms: seg.in_ms + to,
                    ..seg.clone()
                },
                start_ms: start + from,
                text: layer.window(start + from, start + to),
                exact: false,
                blend: None,
            });
            from = to;
        }
    }
    out
}

/// The cache key of a piece: a hash of the mezzanine (path, size, modification time), the trim, the
/// piece's script (text, times, styles, font families), the font files in the prep folder
/// ([`fonts_identity`]) and the encoder settings. Anything that changes the picture changes the key.
pub async fn piece_key(piece: &Piece, speed: PieceSpeed, fonts: &str) -> Result<String, MixError> {
    let mut material = format!(
        "{PIECE_VERSION}\n{}{fonts}\n{}\n",
        identity(&piece.seg).await?,
        piece_args(piece, speed).join(" "),
    );
    if piece.exact {
        material.push_str("exact\n");
    }
    if let Some((to, kind)) = &piece.blend {
        material.push_str(&format!("{kind}\n{}", identity(to).await?));
    }
    let script = piece.text.script()?;
    let key = |seed: &str| fnv(format!("{seed}\n{material}\0{script}").as_bytes());
    Ok(format!("{:016x}{:016x}", key("a"), key("b")))
}

/// A trim of a file as a key sees it: path, size, modification time, in and out point. A missing file
/// is the render's missing input.
async fn identity(seg: &Segment) -> Result<String, MixError> {
    let meta = tokio::fs::metadata(&seg.path)
        .await
        .map_err(|_| MixError::MissingInput(seg.path.clone()))?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    Ok(format!(
        "{}\n{}\n{mtime}\n{}-{}\n",
        seg.path.display(),
        meta.len(),
        seg.in_ms,
        seg.out_ms
    ))
}

/// The font files of the prep folder (names and sizes), part of every key: read once per render.
pub async fn fonts_identity(prep: &Prepared) -> String {
    let mut fonts = vec![];
    if let Ok(mut rd) = tokio::fs::read_dir(prep.dir.join("fonts")).await {
        while let Ok(Some(e)) = rd.next_entry().await {
            let len = e.metadata().await.map(|m| m.len()).unwrap_or(0);
            fonts.push(format!("{}:{len}", e.file_name().to_string_lossy()));
        }
    }
    fonts.sort();
    fonts.join(",")
}

/// A burned piece ready to join: its file and length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Burned {
    pub path: PathBuf,
    pub duration_ms: i64,
    /// True when this render burned it; false when it came from the cache.
    pub fresh: bool,
}

/// How far below the oldest render a younger render's encodes run (`nice` steps): far enough that the
/// older one gets nearly all the CPU it can use, while the younger still fills the rest.
pub const YIELDING_NICE: i32 = 10;

/// The renders of this process under way, by the order they began, each with the pieces it still
/// needs (`None` until it knows them: [`Turn::want`]).
#[derive(Default)]
struct Turns {
    next: u64,
    open: BTreeMap<u64, Option<HashSet<String>>>,
}

/// What an older render means for a piece a younger one is about to burn ([`Turns::older`]).
#[derive(Debug, PartialEq, Eq)]
enum Older {
    /// No older render needs it: burn it.
    Free,
    /// An older render has not said yet which pieces it needs.
    Unknown,
    /// An older render needs it and has not got it yet: it burns it itself, at full speed.
    Wants,
}

impl Turns {
    fn take(&mut self) -> u64 {
        self.next += 1;
        self.open.insert(self.next, None);
        self.next
    }

    /// 0 for the oldest render under way, [`YIELDING_NICE`] for the others.
    fn nice(&self, turn: u64) -> i32 {
        if self.open.keys().next().is_none_or(|&oldest| oldest >= turn) {
            0
        } else {
            YIELDING_NICE
        }
    }

    /// Whether a render older than `turn` needs the piece `key` (any piece: `None`).
    fn older(&self, turn: u64, key: Option<&str>) -> Older {
        let mut out = Older::Free;
        for wants in self.open.range(..turn).map(|(_, w)| w) {
            match wants {
                Some(w) if key.is_some_and(|k| w.contains(k)) => return Older::Wants,
                Some(_) => {}
                None => out = Older::Unknown,
            }
        }
        out
    }
}

fn turns() -> std::sync::MutexGuard<'static, Turns> {
    static TURNS: Mutex<Turns> = Mutex::new(Turns {
        next: 0,
        open: BTreeMap::new(),
    });
    TURNS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Woken whenever a render says what it needs, gets a piece or leaves.
fn turns_changed() -> &'static tokio::sync::Notify {
    static CHANGED: std::sync::OnceLock<tokio::sync::Notify> = std::sync::OnceLock::new();
    CHANGED.get_or_init(tokio::sync::Notify::new)
}

/// How long a younger render waits for an older one to say which pieces it needs before it burns
/// anyway: only a stuck older render takes that long (it says so right after its plan), and burning
/// anyway only costs speed.
const UNKNOWN_WAIT: Duration = Duration::from_secs(10);

/// A render's place in this process's order of renders, held while it renders (dropped: it leaves).
///
/// The older render burns at full speed; a younger one's encodes run `nice` ([`Turn::nice`]) and leave
/// the pieces an older render needs to it ([`Turn::leave_to_older`]). Without that, a younger render
/// that got to a shared piece first would burn it at `nice` while the older waited for it: the first
/// variant of a batch then took twice as long (bench/mix measured 21.9 s and 51.9 s of the same code).
pub struct Turn(u64);

impl Turn {
    /// A place behind every render under way. The worker takes it in the order it took its jobs.
    pub fn take() -> Turn {
        Turn(turns().take())
    }

    /// The `nice` of an encode this render starts now: 0 while it is the oldest render under way.
    pub fn nice(&self) -> i32 {
        turns().nice(self.0)
    }

    /// Says which pieces this render needs (none for a render that burns no pieces): younger renders
    /// leave them to it.
    pub(super) fn want(&self, keys: impl IntoIterator<Item = String>) {
        if let Some(w) = turns().open.get_mut(&self.0) {
            *w = Some(keys.into_iter().collect());
        }
        turns_changed().notify_waiters();
    }

    /// This render has the piece `key` (burned, found, or failed): younger renders may go on with it.
    pub(super) fn got(&self, key: &str) {
        if let Some(Some(w)) = turns().open.get_mut(&self.0) {
            w.remove(key);
        }
        turns_changed().notify_waiters();
    }

    /// Whether an older render needs the piece `key` and has not got it yet.
    pub(super) fn older_wants(&self, key: &str) -> bool {
        turns().older(self.0, Some(key)) == Older::Wants
    }

    /// Waits until no older render may still burn `key` (`None`: until every older render has said what
    /// it needs): the older one burns it at full speed and this one then finds it in the cache.
    pub(super) async fn leave_to_older(&self, key: Option<&str>) {
        let deadline = tokio::time::Instant::now() + UNKNOWN_WAIT;
        loop {
            let changed = turns_changed().notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            // Read first: a `match` on `turns()` would hold its lock across the awaits below.
            let older = turns().older(self.0, key);
            match older {
                Older::Free => return,
                Older::Unknown => {
                    if tokio::time::timeout_at(deadline, changed).await.is_err() {
                        return;
                    }
                }
                Older::Wants => changed.await,
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        turns().open.remove(&self.0);
        turns_changed().notify_waiters();
    }
}

/// The cached piece under `key` ([`piece_key`]), burned first when it is not there yet (once, however
/// many renders ask at once).
pub async fn burn_once(
    prep: &Prepared,
    piece: &Piece,
    key: &str,
    turn: &Turn,
    progress: Progress<'_>,
) -> Result<Burned, MixError> {
    let dir = burn_dir(&prep.dir);
    let file = dir.join(format!("{key}.mp4"));
    let duration_ms = piece.seg.out_ms - piece.seg.in_ms;
    let lock = in_flight(key);
    let _guard = lock.lock().await;
    if tokio::fs::metadata(&file).await.is_ok() {
        // Used now: the least recently used pieces leave the cache first.
        let f = file.clone();
        let _ = tokio::task::spawn_blocking(move || {
            std::fs::File::options()
                .append(true)
                .open(&f)
                .and_then(|h| h.set_modified(SystemTime::now()))
        })
        .await;
        return Ok(Burned {
            path: file,
            duration_ms,
            fresh: false,
        });
    }
    tokio::fs::create_dir_all(&dir).await?;
    burn(prep, piece, key, &file, turn.nice(), progress).await?;
    Ok(Burned {
        path: file,
        duration_ms,
        fresh: true,
    })
}

/// Burns one piece into `file`: the mezzanine decoded from the piece's in point (an exact seek: the
/// in point is on the GOP grid), its text drawn by libass, encoded with [`piece_args`], video only, at
/// `nice` ([`Turn::nice`]).
async fn burn(
    prep: &Prepared,
    piece: &Piece,
    key: &str,
    file: &Path,
    nice: i32,
    progress: Progress<'_>,
) -> Result<(), MixError> {
    let seg = &piece.seg;
    let len_ms = seg.out_ms - seg.in_ms;
    // Relative to the prep folder, where ffmpeg runs (filter arguments are easier without absolute paths).
    let name = format!(
        "../{}/{key}.{}.{}.ass",
        burn_dir_name(&prep.dir),
        std::process::id(),
        unique()
    );
    let tmp = file.with_extension(format!("{}.{}.tmp.mp4", std::process::id(), unique()));
    let mut a = args(["-v", "error", "-y", "-nostdin"]);
    // The picture before the text: the clip from its in point (an exact seek: on the GOP grid), or
    // frame-exact as the composed render cuts it, or a transition blended as it blends it.
    let mut graph = vec![];
    if piece.exact {
        let n = ms_to_frames(seg.out_ms) - ms_to_frames(seg.in_ms);
        a.extend(composed_input(seg));
        graph.push(format!("[0:v]trim=end_frame={n},settb=1/{FPS},setpts=N[a]"));
        match &piece.blend {
            Some((to, kind)) => {
                a.extend(composed_input(to));
                // Both sides get two cloned frames and the blend is cut back to its n frames: ffmpeg
                // 5.1's xfade never finishes when its second input ends with the transition.
                graph.push(format!(
                    "[1:v]trim=end_frame={n},settb=1/{FPS},setpts=N,tpad=stop=2:stop_mode=clone[b]"
                ));
                graph.push("[a]tpad=stop=2:stop_mode=clone[p]".into());
                graph.push(format!(
                    "[p][b]xfade=transition={kind}:duration={}:offset=0,setpts=N,trim=end_frame={n}[v]",
                    secs((n * 1_000_000 + FPS / 2) / FPS)
                ));
            }
            None => graph.push("[a]null[v]".into()),
        }
    } else {
        if seg.in_ms > 0 {
            a.extend(args(["-ss", &secs(seg.in_ms * 1000)]));
        }
        a.push("-i".into());
        a.push(seg.path.display().to_string());
        a.extend(args(["-t", &secs(len_ms * 1000)]));
        graph.push("[0:v]null[v]".into());
    }
    let drawn = !piece.text.events.is_empty();
    if drawn {
        tokio::fs::write(prep.dir.join(&name), piece.text.script()?).await?;
        let text = subtitles_filter(&prep.dir, &name).await;
        graph.push(format!("[v]{text}[out]"));
    } else {
        graph.push("[v]null[out]".into());
    }
    a.extend(args([
        "-filter_complex",
        &graph.join(";"),
        "-map",
        "[out]",
        "-an",
    ]));
    a.extend(piece_args(piece, prep.spec.piece_speed));
    a.extend(args(["-movflags", "+faststart", "-f", "mp4"]));
    a.push(tmp.display().to_string());
    let report = Report {
        sink: progress,
        total_ms: len_ms,
        lo: 0,
        hi: 100,
    };
    let budget = Duration::from_secs(120 + 10 * (len_ms / 1000).max(1) as u64);
    let ran = ffmpeg::run_reporting_niced(&a, Some(&prep.dir), budget, report, nice).await;
    if drawn {
        let _ = tokio::fs::remove_file(prep.dir.join(&name)).await;
    }
    if let Err(e) = ran {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e.into());
    }
    // A piece must be exactly as long as planned, or the joins drift: check before it enters the cache.
    let info = match probe_clip(&tmp).await {
        Ok(i) => i,
        Err(e) => {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(e);
        }
    };
    if (info.duration_ms - len_ms).abs() > 20 {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(MixError::Invalid(format!(
            "a burned piece of {} lasts {} ms instead of {len_ms} ms",
            seg.path.display(),
            info.duration_ms
        )));
    }
    tokio::fs::rename(&tmp, file).await?;
    Ok(())
}

/// Drops the least recently used pieces until the cache holds at most `budget` bytes, never one of
/// `keep` (the pieces of the render that just used them). Returns how many were dropped.
pub fn trim_cache(prep_dir: &Path, budget: u64, keep: &[PathBuf]) -> std::io::Result<usize> {
    let dir = burn_dir(prep_dir);
    let mut files = vec![];
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Ok(0);
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("mp4")
            || p.to_string_lossy().contains(".tmp.")
        {
            continue;
        }
        if let Ok(m) = e.metadata() {
            files.push((m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len(), p));
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort_by_key(|f| f.0);
    let mut dropped = 0;
    for (_, len, p) in files {
        if total <= budget {
            break;
        }
        if keep.contains(&p) {
            continue;
        }
        if std::fs::remove_file(&p).is_ok() {
            total -= len;
            dropped += 1;
        }
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::{AssEvent, test_clip_info};

    #[test]
    fn younger_renders_yield_to_the_oldest_until_it_leaves() {
        let mut t = Turns::default();
        let (a, b, c) = (t.take(), t.take(), t.take());
        assert_eq!(
            [t.nice(a), t.nice(b), t.nice(c)],
            [0, YIELDING_NICE, YIELDING_NICE]
        );
        // The second one leaving changes nothing for the third; the first one leaving makes the third
        // the oldest.
        t.open.remove(&b);
        assert_eq!([t.nice(a), t.nice(c)], [0, YIELDING_NICE]);
        t.open.remove(&a);
        assert_eq!(t.nice(c), 0);
        // A render that begins now waits behind the third.
        let d = t.take();
        assert_eq!([t.nice(c), t.nice(d)], [0, YIELDING_NICE]);
    }

    #[test]
    fn younger_renders_leave_the_pieces_an_older_one_needs_to_it() {
        let mut t = Turns::default();
        let (a, b, c) = (t.take(), t.take(), t.take());
        // The oldest never waits; the others wait until every older one has said what it needs.
        assert_eq!(t.older(a, Some("s")), Older::Free);
        assert_eq!(t.older(b, Some("s")), Older::Unknown);
        assert_eq!(t.older(b, None), Older::Unknown);
        t.open
            .insert(a, Some(["s".to_string(), "x".to_string()].into()));
        assert_eq!(t.older(b, Some("s")), Older::Wants);
        assert_eq!(t.older(b, Some("y")), Older::Free);
        assert_eq!(t.older(b, None), Older::Free);
        // The third waits for the second to say, and for the first's "s" whatever the second says.
        assert_eq!(t.older(c, Some("y")), Older::Unknown);
        assert_eq!(t.older(c, Some("s")), Older::Wants);
        t.open.insert(b, Some(["y".to_string()].into()));
        assert_eq!(t.older(c, Some("y")), Older::Wants);
        // Got, or gone: free.
        t.open.insert(a, Some(["x".to_string()].into()));
        assert_eq!(t.older(b, Some("s")), Older::Free);
        t.open.remove(&b);
        assert_eq!(t.older(c, Some("y")), Older::Free);
    }

    #[tokio::test]
    async fn a_younger_render_waits_for_the_piece_until_the_older_has_it() {
        let (old, young) = (Turn::take(), Turn::take());
        // A key no other test uses: the turns are the process's.
        let key = format!("piece-{}", unique());
        old.want([key.clone(), "other".to_string()]);
        assert!(young.older_wants(&key));
        let waiting = tokio::spawn(async move {
            young.leave_to_older(Some(&key)).await;
            young
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "it waits while the older needs it");
        old.got("unrelated");
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(old);
        let young = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the older one left: it goes on")
            .unwrap();
        assert_eq!(young.nice(), 0);
    }

    #[test]
    fn the_piece_cache_is_the_projects_beside_its_prep_folders() {
        let dir = burn_dir(Path::new("/w/prep/p12-0123456789abcdef"));
        assert_eq!(dir, Path::new("/w/prep/p12-burn"));
        assert_eq!(burn_dir_name(Path::new("/w/prep/p12-fedcba")), "p12-burn");
    }

    fn seg(path: &str, in_ms: i64, out_ms: i64) -> Segment {
        Segment {
            path: PathBuf::from(path),
            in_ms,
            out_ms,
            info: test_clip_info(10_000),
        }
    }

    fn ev(text: &str, start_ms: i64, end_ms: i64) -> AssEvent {
        AssEvent {
            style: "Subtitle".into(),
            start_ms,
            end_ms,
            text: text.into(),
            pos: (540, 1536),
        }
    }

    #[test]
    fn a_line_spanning_a_join_shows_its_part_in_each_piece() {
        let layer = TextLayer {
            styles: vec![],
            events: vec![ev("a", 500, 2000), ev("b", 2000, 3500), ev("c", 3600, 9000)],
        };
        let segs = [seg("/m/1", 0, 3000), seg("/m/2", 2000, 5000)];
        let p = pieces(&segs, &[0, 3000], &layer, &[]);
        assert_eq!(p.len(), 2);
        // "b" spans the join at 3 s: 2.0–3.0 in the first piece, 0.0–0.5 of the second.
        assert_eq!(
            p[0].text.events,
            vec![ev("a", 500, 2000), ev("b", 2000, 3000)]
        );
        assert_eq!(p[1].text.events, vec![ev("b", 0, 500), ev("c", 600, 3000)]);
        assert_eq!(
            (p[1].seg.in_ms, p[1].seg.out_ms, p[1].start_ms),
            (2000, 5000, 3000)
        );
        // A line that ends exactly on the join does not reach into the next piece.
        let layer = TextLayer {
            styles: vec![],
            events: vec![ev("a", 0, 3000), ev("b", 3000, 6000)],
        };
        let p = pieces(&segs, &[0, 3000], &layer, &[]);
        assert_eq!(p[0].text.events, vec![ev("a", 0, 3000)]);
        assert_eq!(p[1].text.events, vec![ev("b", 0, 3000)]);
    }

    #[test]
    fn a_short_title_splits_its_segment_on_the_second_grid() {
        let mut title = ev("T", 0, 1400);
        title.style = "Title".into();
        let layer = TextLayer {
            styles: vec![],
            events: vec![title.clone(), ev("s", 0, 6000)],
        };
        let segs = [seg("/m/1", 1000, 4000), seg("/m/2", 0, 3000)];
        let p = pieces(&segs, &[0, 3000], &layer, &[1400]);
        // The first segment splits at 2 s (1.4 s rounded up): the title piece and a shared rest.
        let spans: Vec<(i64, i64, i64)> = p
            .iter()
            .map(|p| (p.seg.in_ms, p.seg.out_ms, p.start_ms))
            .collect();
        assert_eq!(
            spans,
            vec![(1000, 3000, 0), (3000, 4000, 2000), (0, 3000, 3000)]
        );
        assert!(p[0].text.events.contains(&title));
        assert!(p[1].text.events.iter().all(|e| e.style != "Title"));
        // Cuts outside a segment, or on its edges, change nothing.
        assert_eq!(pieces(&segs, &[0, 3000], &layer, &[0, 3000, 9000]).len(), 2);
    }
}
