//! What a duplicate check sees of a video (duplicate risk): perceptual hashes of frames sampled once a
//! second, a 3x3 grid of block hashes each (so a frame that shares only part of its picture — a sticker,
//! burned text — still matches in the rest), and an audio fingerprint. Measured, not evaded: the score
//! (`domain::clip::risk`) compares these against a variant's siblings and what the merchant published.
//!
//! Why these: by their users' and third parties' public accounts, Douyin compares file hashes, then key
//! frame hashes and a block-grid similarity of sampled frames, and Kuaishou adds an audio fingerprint
//! (docs/architecture.md "Duplicate risk" cites them). The frame hash is an average hash per block
//! (Zauner, "Implementation and Benchmarking of Perceptual Image Hash Functions", 2010); the audio
//! fingerprint is the one of Haitsma and Kalker, "A Highly Robust Audio Fingerprinting System" (ISMIR
//! 2002): 33 logarithmic bands of 300–2000 Hz, one bit per band edge from the sign of the energy
//! difference's change over time. Both are our own implementations of the published methods.
//!
//! Samples sit on whole seconds, which are our mezzanines' key frames (one closed GOP a second, and
//! every join and trim on a whole second): a file's signature decodes only its key frames, and a
//! variant's is assembled from its clips' without decoding anything.

use crate::ffmpeg::{self, ToolError, args};
use domain::clip::risk::Likeness;
use std::path::Path;
use std::time::Duration;

/// The side of the grey thumbnail a sample is hashed from: 3x3 blocks of 8x8 pixels.
pub const SIDE: usize = 24;
const BLOCK: usize = 8;
/// A block whose pixels differ from its mean by less than this on average is flat (sky, a wall, black):
/// its hash bits are noise, so it is compared by its brightness alone.
const FLAT: u8 = 4;
/// Two non-flat blocks match within this many differing bits of 64.
const BLOCK_BITS: u32 = 14;
/// Two flat blocks match within this brightness difference.
const FLAT_MEAN: u8 = 12;
/// Two samples match when this many of their 9 blocks do: burned subtitles and a title cover up to
/// two rows' parts, and the rest still tells.
const BLOCKS_TO_MATCH: usize = 6;

/// The audio fingerprint's sampling rate, frame and hop (samples): 0.37 s frames every 46 ms.
pub const AUDIO_RATE: u32 = 11_025;
const FRAME: usize = 4096;
const HOP: usize = 512;
/// Sub-fingerprints per second of sound.
pub const AUDIO_PER_SECOND: f64 = AUDIO_RATE as f64 / HOP as f64;
const BANDS: usize = 33;
/// A frame quieter than this (mean square of 16-bit samples, about -60 dBFS) is silence: it has no
/// fingerprint, so two silent tracks do not look alike.
const SILENCE: f64 = 1100.0;
/// A frame whose band energies moved less than this share since the last one is a steady sound (a
/// held tone, a hum): its bits are the noise's, so it has no fingerprint, like silence. Measured: an
/// AAC sine tone moves at most 0.0066, a melody's frames 0.08 at the median.
const STEADY: f64 = 0.02;
/// A band under this share of the frame's loudest band (-30 dB) is codec noise, not the sound.
const QUIET_BAND: f64 = 1e-3;
/// A run of this many sub-fingerprints (1.5 s) is compared as one block, the published method's unit.
const AUDIO_BLOCK: usize = 32;
/// A block matches below this bit error rate (unrelated sound: ~0.5).
const AUDIO_BER: f64 = 0.20;

/// One block of a sample: its hash (bit = pixel brighter than the block's mean, row by row), mean
/// brightness and mean deviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Block {
    pub hash: u64,
    pub mean: u8,
    pub spread: u8,
}

impl Block {
    fn flat(&self) -> bool {
        self.spread < FLAT
    }

    fn matches(&self, o: &Block) -> bool {
        match (self.flat(), o.flat()) {
            (true, true) => self.mean.abs_diff(o.mean) <= FLAT_MEAN,
            (false, false) => (self.hash ^ o.hash).count_ones() <= BLOCK_BITS,
            _ => false,
        }
    }

    /// The same block seen in a mirror: each row of bits reversed.
    fn mirrored(&self) -> Block {
        let rows = self.hash.to_le_bytes().map(u8::reverse_bits);
        Block {
            hash: u64::from_le_bytes(rows),
            ..*self
        }
    }
}

/// One sampled frame: 3x3 blocks, row by row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sample {
    pub blocks: [Block; 9],
}

impl Sample {
    /// Hashes a `SIDE` x `SIDE` grey picture (row by row).
    pub fn from_grey(px: &[u8]) -> Sample {
        debug_assert_eq!(px.len(), SIDE * SIDE);
        let mut blocks = [Block::default(); 9];
        for (i, b) in blocks.iter_mut().enumerate() {
            let (bx, by) = ((i % 3) * BLOCK, (i / 3) * BLOCK);
            let pixel = |k: usize| px[(by + k / BLOCK) * SIDE + bx + k % BLOCK] as u32;
            let n = (BLOCK * BLOCK) as u32;
            let mean = (0..BLOCK * BLOCK).map(pixel).sum::<u32>() / n;
            let spread = (0..BLOCK * BLOCK)
                .map(|k| pixel(k).abs_diff(mean))
                .sum::<u32>()
                / n;
            let hash = (0..BLOCK * BLOCK)
                .filter(|&k| pixel(k) > mean)
                .fold(0u64, |h, k| h | 1 << k);
            *b = Block {
                hash,
                mean: mean as u8,
                spread: spread.min(255) as u8,
            };
        }
        Sample { blocks }
    }

    /// The sample of the mirrored picture: block columns swapped, each block mirrored.
    pub fn mirrored(&self) -> Sample {
        let mut blocks = [Block::default(); 9];
        for (i, b) in blocks.iter_mut().enumerate() {
            let (x, y) = (i % 3, i / 3);
            *b = self.blocks[y * 3 + 2 - x].mirrored();
        }
        Sample { blocks }
    }

    /// The same picture as `o`, allowing for covered parts (text, stickers): at least
    /// `BLOCKS_TO_MATCH` blocks match at the same place. Gives up as soon as too many differ: most
    /// pairs of a comparison are unrelated pictures.
    pub fn matches(&self, o: &Sample) -> bool {
        let mut misses = 0;
        for (a, b) in self.blocks.iter().zip(&o.blocks) {
            if !a.matches(b) {
                misses += 1;
                if misses > 9 - BLOCKS_TO_MATCH {
                    return false;
                }
            }
        }
        true
    }
}

/// A video's signature: one sample per second (at 0 s, 1 s, …) and the audio fingerprint
/// (`AUDIO_PER_SECOND` sub-fingerprints a second, `None` where silent).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    pub frames: Vec<Sample>,
    pub audio: Vec<Option<u32>>,
}

const MAGIC: &[u8; 4] = b"CMS1";

impl Signature {
    /// The part from second `from_s` (inclusive) to `to_s` (exclusive): a clip's trim window.
    pub fn window(&self, from_s: usize, to_s: usize) -> Signature {
        let f = |v: usize| v.min(self.frames.len());
        let a = |s: usize| ((s as f64 * AUDIO_PER_SECOND).round() as usize).min(self.audio.len());
        Signature {
            frames: self.frames[f(from_s)..f(to_s.max(from_s))].to_vec(),
            audio: self.audio[a(from_s)..a(to_s.max(from_s))].to_vec(),
        }
    }

    /// Compact bytes for storage: magic, frame count, 9 x (hash, mean, spread) per frame, audio count,
    /// then each sub-fingerprint with a silence bitmap.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + self.frames.len() * 90 + self.audio.len() * 5);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.frames.len() as u32).to_le_bytes());
        for s in &self.frames {
            for b in &s.blocks {
                out.extend_from_slice(&b.hash.to_le_bytes());
                out.push(b.mean);
                out.push(b.spread);
            }
        }
        out.extend_from_slice(&(self.audio.len() as u32).to_le_bytes());
        for w in &self.audio {
            out.extend_from_slice(&w.unwrap_or(0).to_le_bytes());
        }
        let mut mask = vec![0u8; self.audio.len().div_ceil(8)];
        for (i, w) in self.audio.iter().enumerate() {
            if w.is_some() {
                mask[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&mask);
        out
    }

    /// Reads [`Signature::to_bytes`]; `None` for anything else.
    pub fn from_bytes(b: &[u8]) -> Option<Signature> {
        let mut r = Reader(b);
        if r.take(4)? != MAGIC {
            return None;
        }
        let n = r.u32()? as usize;
        let mut frames = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let mut s = Sample::default();
            for blk in &mut s.blocks {
                let hash = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
                let t = r.take(2)?;
                *blk = Block {
                    hash,
                    mean: t[0],
                    spread: t[1],
                };
            }
            frames.push(s);
        }
        let m = r.u32()? as usize;
        let words = r.take(m.checked_mul(4)?)?;
        let mask = r.take(m.div_ceil(8))?;
        let audio = (0..m)
            .map(|i| {
                let w = u32::from_le_bytes(words[i * 4..i * 4 + 4].try_into().unwrap());
                (mask[i / 8] & (1 << (i % 8)) != 0).then_some(w)
            })
            .collect();
        r.0.is_empty().then_some(Signature { frames, audio })
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        (self.0.len() >= n).then(|| {
            let (h, t) = self.0.split_at(n);
            self.0 = t;
            h
        })
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

/// A video joined from parts (a variant from its clips' windows, in order).
pub fn concat<'a>(parts: impl IntoIterator<Item = &'a Signature>) -> Signature {
    let mut out = Signature::default();
    for p in parts {
        out.frames.extend_from_slice(&p.frames);
        out.audio.extend_from_slice(&p.audio);
    }
    out
}

/// The share of `a`'s samples (0–1) whose picture appears anywhere in `b`, straight or mirrored.
pub fn visual(a: &[Sample], b: &[Sample]) -> f64 {
    let mirrored: Vec<Sample> = a.iter().map(Sample::mirrored).collect();
    seen(a, &mirrored, b)
}

/// [`visual`] with `a`'s mirrored samples at hand.
fn seen(a: &[Sample], mirrored: &[Sample], b: &[Sample]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let matched = a
        .iter()
        .zip(mirrored)
        .filter(|(s, m)| b.iter().any(|o| s.matches(o) || m.matches(o)))
        .count();
    matched as f64 / a.len() as f64
}

/// The share of `a`'s sound (0–1) heard in `b` at one alignment, or `None` when either is (nearly)
/// silent: nothing to compare. Offsets tried: none, and the three most voted by sub-fingerprints that
/// agree exactly (how the published method finds a match).
pub fn audio(a: &[Option<u32>], b: &[Option<u32>]) -> Option<f64> {
    Sound::new(a).heard_in(b)
}

/// One side's sound, indexed once to be compared with many (`Probe`).
struct Sound<'a> {
    words: &'a [Option<u32>],
    live: usize,
    /// Where each word occurs (sorted by word, then position).
    index: Vec<(u32, usize)>,
}

impl<'a> Sound<'a> {
    fn new(words: &'a [Option<u32>]) -> Self {
        let mut index: Vec<(u32, usize)> = words
            .iter()
            .enumerate()
            .filter_map(|(i, w)| w.map(|w| (w, i)))
            .collect();
        index.sort_unstable();
        Sound {
            words,
            live: index.len(),
            index,
        }
    }

    fn heard_in(&self, b: &[Option<u32>]) -> Option<f64> {
        let a = self.words;
        if self.live < AUDIO_BLOCK / 2 || b.iter().filter(|w| w.is_some()).count() < AUDIO_BLOCK / 2
        {
            return None;
        }
        let mut votes: Vec<isize> = vec![];
        for (j, w) in b.iter().enumerate() {
            let Some(w) = w else { continue };
            let from = self.index.partition_point(|(x, _)| x < w);
            let to = self.index[from..].partition_point(|(x, _)| x == w) + from;
            // A value repeated all over (a steady tone) says nothing about where.
            if to - from <= 4 {
                votes.extend(
                    self.index[from..to]
                        .iter()
                        .map(|&(_, i)| j as isize - i as isize),
                );
            }
        }
        votes.sort_unstable();
        let mut offsets: Vec<(usize, isize)> = votes
            .chunk_by(|x, y| x == y)
            .map(|run| (run.len(), run[0]))
            .collect();
        offsets.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let candidates = std::iter::once(0).chain(offsets.iter().take(3).map(|o| o.1));
        let heard = |off: isize| {
            let mut matched = 0;
            for block in (0..a.len()).step_by(AUDIO_BLOCK) {
                let (mut bits, mut errors, mut live) = (0u32, 0u32, 0usize);
                for i in block..(block + AUDIO_BLOCK).min(a.len()) {
                    let j = i as isize + off;
                    if let (Some(x), Some(Some(y))) =
                        (a[i], (j >= 0).then(|| b.get(j as usize)).flatten())
                    {
                        bits += 32;
                        errors += (x ^ y).count_ones();
                        live += 1;
                    }
                }
                if live >= AUDIO_BLOCK / 2 && (errors as f64) < AUDIO_BER * bits as f64 {
                    matched += a[block..(block + AUDIO_BLOCK).min(a.len())]
                        .iter()
                        .filter(|w| w.is_some())
                        .count();
                }
            }
            matched as f64 / self.live as f64
        };
        Some(candidates.map(heard).fold(0.0, f64::max))
    }
}

/// How alike two texts are (0–1): the share of character pairs they have in common (Jaccard of
/// bigrams, whitespace and punctuation ignored), or `None` when either has none.
pub fn text(a: &str, b: &str) -> Option<f64> {
    jaccard(&grams(a), &grams(b))
}

type Grams = std::collections::BTreeSet<(char, char)>;

fn grams(s: &str) -> Grams {
    let cs: Vec<char> = s
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    let mut g = Grams::new();
    if cs.len() == 1 {
        g.insert((cs[0], ' '));
    }
    for w in cs.windows(2) {
        g.insert((w[0], w[1]));
    }
    g
}

fn jaccard(x: &Grams, y: &Grams) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let common = x.intersection(y).count();
    Some(common as f64 / (x.len() + y.len() - common) as f64)
}

/// How alike video `a` is to video `b`, part by part (the score is `domain::clip::risk`'s): each side a
/// signature, the text it shows ('' when unknown) and the second its cover is taken from (-1: none).
pub fn likeness(a: (&Signature, &str, i64), b: (&Signature, &str, i64)) -> Likeness {
    Probe::new(a.0, a.1, a.2).likeness(b)
}

/// One video prepared to be compared with many (its siblings, a merchant's published videos): its
/// mirrored samples, its sound's index and its text's pairs are made once.
pub struct Probe<'a> {
    sig: &'a Signature,
    mirrored: Vec<Sample>,
    sound: Sound<'a>,
    grams: Grams,
    cover: Option<&'a Sample>,
}

impl<'a> Probe<'a> {
    pub fn new(sig: &'a Signature, text: &str, cover_s: i64) -> Self {
        Probe {
            sig,
            mirrored: sig.frames.iter().map(Sample::mirrored).collect(),
            sound: Sound::new(&sig.audio),
            grams: grams(text),
            cover: usize::try_from(cover_s)
                .ok()
                .and_then(|i| sig.frames.get(i)),
        }
    }

    /// How alike this video is to `b` (signature, text, cover second).
    pub fn likeness(&self, b: (&Signature, &str, i64)) -> Likeness {
        let their_cover = usize::try_from(b.2).ok().and_then(|i| b.0.frames.get(i));
        Likeness {
            visual: seen(&self.sig.frames, &self.mirrored, &b.0.frames),
            audio: self.sound.heard_in(&b.0.audio),
            text: jaccard(&self.grams, &grams(b.1)),
            cover: self
                .cover
                .zip(their_cover)
                .map(|(x, y)| x.matches(y) || x.mirrored().matches(y)),
            same_file: false,
        }
    }
}

/// The fingerprint of 16-bit mono samples at [`AUDIO_RATE`].
pub fn fingerprint(pcm: &[i16]) -> Vec<Option<u32>> {
    if pcm.len() < FRAME {
        return vec![];
    }
    // Band edges in FFT bins, logarithmic over 300–2000 Hz.
    let bin = |hz: f64| (hz * FRAME as f64 / AUDIO_RATE as f64).round() as usize;
    let edges: Vec<usize> = (0..=BANDS)
        .map(|k| bin(300.0 * (2000.0f64 / 300.0).powf(k as f64 / BANDS as f64)))
        .collect();
    let window: Vec<f32> = (0..FRAME)
        .map(|i| {
            (0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / (FRAME - 1) as f64).cos()) as f32
        })
        .collect();
    let mut re = vec![0f32; FRAME];
    let mut im = vec![0f32; FRAME];
    let mut prev: Option<[f64; BANDS]> = None;
    let mut out = vec![];
    for start in (0..=pcm.len() - FRAME).step_by(HOP) {
        let frame = &pcm[start..start + FRAME];
        let power = frame.iter().map(|&s| (s as f64).powi(2)).sum::<f64>() / FRAME as f64;
        for i in 0..FRAME {
            re[i] = frame[i] as f32 * window[i];
            im[i] = 0.0;
        }
        fft(&mut re, &mut im);
        let mut e = [0f64; BANDS];
        for (m, band) in e.iter_mut().enumerate() {
            *band = (edges[m]..edges[m + 1].max(edges[m] + 1))
                .map(|k| (re[k] as f64).powi(2) + (im[k] as f64).powi(2))
                .sum();
        }
        let word = prev.map(|p| {
            // A band far below the frame's loudest holds only the codec's noise: its bits would flip
            // with every encode, so they are 0 (a tone or a sparse synth leaves most bands empty).
            let floor = e.iter().chain(p.iter()).fold(0f64, |a, &b| a.max(b)) * QUIET_BAND;
            let w = (0..BANDS - 1).fold(0u32, |w, m| {
                let heard = [e[m], e[m + 1], p[m], p[m + 1]].iter().any(|&x| x >= floor);
                let d = (e[m] - e[m + 1]) - (p[m] - p[m + 1]);
                if heard && d > 0.0 { w | 1 << m } else { w }
            });
            // How much the spectrum moved since the last frame, relative to its energy.
            let moved: f64 = (0..BANDS).map(|m| (e[m] - p[m]).abs()).sum::<f64>()
                / (e.iter().sum::<f64>() + p.iter().sum::<f64>()).max(f64::MIN_POSITIVE);
            (w, moved)
        });
        prev = Some(e);
        if let Some((w, moved)) = word {
            out.push((power >= SILENCE && moved >= STEADY).then_some(w));
        }
    }
    out
}

/// In-place radix-2 FFT (length a power of two).
fn fft(re: &mut [f32], im: &mut [f32]) {
    let n = re.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let ang = -2.0 * std::f64::consts::PI / len as f64;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (ang * k as f64).sin_cos();
                let (c, s) = (c as f32, s as f32);
                let (a, b) = (start + k, start + k + len / 2);
                let (xr, xi) = (re[b] * c - im[b] * s, re[b] * s + im[b] * c);
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
        len <<= 1;
    }
}

/// The signature of one of our own files (a mezzanine, a variant, a slice: key frames on whole
/// seconds): only its key frames are decoded, each scaled to a grey `SIDE` x `SIDE`, and its sound at
/// 11 kHz mono — one ffmpeg run, ~30 pictures for 30 s.
pub async fn of_file(src: &Path) -> Result<Signature, ToolError> {
    match read(src, true).await {
        // No sound at all (our mezzanines always have a track; other files may not).
        Err(ToolError::Failed { reason, .. }) if reason.contains("does not contain any stream") => {
            read(src, false).await
        }
        other => other,
    }
}

async fn read(src: &Path, sound: bool) -> Result<Signature, ToolError> {
    let pcm_file = temp_file("pcm");
    let mut a = args(["-v", "error", "-skip_frame", "nokey", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-map",
        "0:v:0",
        "-vf",
        &format!("scale={SIDE}:{SIDE}:flags=area,format=gray"),
        "-fps_mode",
        "passthrough",
        "-f",
        "rawvideo",
        "pipe:1",
    ]));
    if sound {
        a.extend(args([
            "-map",
            "0:a:0?",
            "-ac",
            "1",
            "-ar",
            &AUDIO_RATE.to_string(),
            "-f",
            "s16le",
            "-y",
        ]));
        a.push(pcm_file.display().to_string());
    }
    let grey = ffmpeg::run("ffmpeg", &a, Duration::from_secs(120)).await;
    let pcm = std::fs::read(&pcm_file).unwrap_or_default();
    let _ = std::fs::remove_file(&pcm_file);
    Ok(from_raw(&grey?, &pcm))
}

/// A signature from grey `SIDE` x `SIDE` pictures (one a second) and 16-bit little-endian mono PCM.
pub fn from_raw(grey: &[u8], pcm: &[u8]) -> Signature {
    let samples: Vec<i16> = pcm
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    Signature {
        frames: grey
            .chunks_exact(SIDE * SIDE)
            .map(Sample::from_grey)
            .collect(),
        audio: fingerprint(&samples),
    }
}

/// The fingerprint of a sound file alone (an audio bed), decoded at 11 kHz mono.
pub async fn of_sound(src: &Path) -> Result<Vec<Option<u32>>, ToolError> {
    let mut a = args(["-v", "error", "-i"]);
    a.push(src.display().to_string());
    a.extend(args([
        "-map",
        "0:a:0",
        "-ac",
        "1",
        "-ar",
        &AUDIO_RATE.to_string(),
        "-f",
        "s16le",
        "pipe:1",
    ]));
    let pcm = ffmpeg::run("ffmpeg", &a, Duration::from_secs(120)).await?;
    Ok(from_raw(&[], &pcm).audio)
}

/// A file name of this process's own in the temporary folder.
fn temp_file(ext: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    std::env::temp_dir().join(format!(
        "cm-sig-{}-{}.{ext}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(seed: u32) -> Vec<u8> {
        // A deterministic textured picture per seed.
        let mut x = seed.wrapping_mul(2_654_435_761).max(1);
        (0..SIDE * SIDE)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x % 200 + 28) as u8
            })
            .collect()
    }

    #[test]
    fn a_sample_matches_itself_mirrored_and_slightly_changed_but_not_another() {
        let p = picture(1);
        let s = Sample::from_grey(&p);
        assert!(s.matches(&s));
        // Brighter by 6 and noisy by ±3: still the same picture.
        let q: Vec<u8> = p
            .iter()
            .enumerate()
            .map(|(i, v)| v.saturating_add(6).saturating_sub((i % 7) as u8))
            .collect();
        assert!(s.matches(&Sample::from_grey(&q)));
        let mirror: Vec<u8> = (0..SIDE * SIDE)
            .map(|i| p[(i / SIDE) * SIDE + SIDE - 1 - i % SIDE])
            .collect();
        let m = Sample::from_grey(&mirror);
        assert!(!s.matches(&m));
        assert!(s.mirrored().matches(&m));
        assert!(!s.matches(&Sample::from_grey(&picture(2))));
        // Text burned over the bottom row: six blocks of nine still match.
        let mut covered = p.clone();
        covered[16 * SIDE..].fill(255);
        assert!(s.matches(&Sample::from_grey(&covered)));
    }

    #[test]
    fn flat_pictures_match_by_brightness_only() {
        let black = Sample::from_grey(&[10; SIDE * SIDE]);
        let grey = Sample::from_grey(&[128; SIDE * SIDE]);
        assert!(black.matches(&Sample::from_grey(&[16; SIDE * SIDE])));
        assert!(!black.matches(&grey));
        assert!(!grey.matches(&Sample::from_grey(&picture(3))));
    }

    fn tone_mix(seconds: f64, parts: &[(f64, f64)], seed: u32) -> Vec<i16> {
        // Tones that change every 0.4 s (a melody) plus a little noise.
        let n = (seconds * AUDIO_RATE as f64) as usize;
        let mut x = seed.max(1);
        (0..n)
            .map(|i| {
                let t = i as f64 / AUDIO_RATE as f64;
                let step = (t / 0.4) as usize;
                let mut v = 0.0;
                for (k, (f, a)) in parts.iter().enumerate() {
                    let hz = f * (1.0 + ((step * (k + 3) + seed as usize) % 7) as f64 * 0.09);
                    v += a * (2.0 * std::f64::consts::PI * hz * t).sin();
                }
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (v * 8000.0 + (x % 200) as f64 - 100.0) as i16
            })
            .collect()
    }

    #[test]
    fn the_same_sound_is_heard_again_and_another_is_not() {
        let a = fingerprint(&tone_mix(12.0, &[(440.0, 1.0), (660.0, 0.5)], 1));
        let b = fingerprint(&tone_mix(12.0, &[(440.0, 1.0), (660.0, 0.5)], 1));
        let c = fingerprint(&tone_mix(12.0, &[(523.0, 1.0), (784.0, 0.5)], 2));
        assert!(a.len() > 200, "{}", a.len());
        assert!(audio(&a, &b).unwrap() > 0.95);
        assert!(audio(&a, &c).unwrap() < 0.1, "{:?}", audio(&a, &c));
        // Shifted by two seconds: found at its offset.
        let shifted = &b[(2.0 * AUDIO_PER_SECOND) as usize..];
        assert!(audio(shifted, &a).unwrap() > 0.9);
        // Silence has no fingerprint, nor has a steady tone (its bits would be the noise's).
        let silent = fingerprint(&vec![0; 5 * AUDIO_RATE as usize]);
        assert!(silent.iter().all(Option::is_none));
        assert_eq!(audio(&silent, &silent), None);
        let tone: Vec<i16> = (0..5 * AUDIO_RATE as usize)
            .map(|i| {
                (8000.0 * (2.0 * std::f64::consts::PI * 300.0 * i as f64 / AUDIO_RATE as f64).sin())
                    as i16
            })
            .collect();
        assert!(fingerprint(&tone).iter().all(Option::is_none));
    }

    #[test]
    fn text_likeness_and_round_trip() {
        assert_eq!(text("今天吃火锅", "今天吃火锅！"), Some(1.0));
        assert!(text("今天吃火锅", "明天去爬山").unwrap() < 0.1);
        assert_eq!(text("", "x"), None);
        let s = Signature {
            frames: vec![
                Sample::from_grey(&picture(4)),
                Sample::from_grey(&picture(5)),
            ],
            audio: vec![Some(7), None, Some(u32::MAX)],
        };
        assert_eq!(Signature::from_bytes(&s.to_bytes()), Some(s.clone()));
        assert_eq!(Signature::from_bytes(b"nope"), None);
        assert_eq!(s.window(1, 5).frames.len(), 1);
        assert_eq!(concat([&s, &s]).frames.len(), 4);
    }
}
