//! A zip of stored files, written as it is sent (issue 44, downloads): STORE (no compression, right
//! for MP4s), each entry's CRC-32 computed while its bytes pass and written after them in a data
//! descriptor (flag bit 3), so no file is held in memory or read twice. The sizes are known before
//! (the store says them), so the whole length is too (`Content-Length`). No Zip64: a zip stays under
//! 4 GiB (`MAX_BYTES`), which the caller checks before it hands out a link.

/// Flags of every entry: sizes and CRC in a data descriptor (bit 3), the name in UTF-8 (bit 11).
const FLAGS: u16 = 0x0808;
/// Version 2.0: what STORE and data descriptors need.
const VERSION: u16 = 20;
/// "Made by" Unix (3), so the external attributes are permission bits.
const MADE_BY: u16 = (3 << 8) | VERSION;
/// A regular file, rw-r--r--.
const UNIX_FILE: u32 = 0o100644 << 16;
/// The largest zip written: every offset fits in 32 bits.
pub const MAX_BYTES: u64 = u32::MAX as u64;

const LOCAL_LEN: u64 = 30;
const DESCRIPTOR_LEN: u64 = 16;
const CENTRAL_LEN: u64 = 46;
const END_LEN: u64 = 22;

/// One file of the zip: its name inside and its size.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub size: u64,
}

/// The zip's length in bytes for these entries.
pub fn zip_len(entries: &[Entry]) -> u64 {
    entries
        .iter()
        .map(|e| LOCAL_LEN + DESCRIPTOR_LEN + CENTRAL_LEN + 2 * e.name.len() as u64 + e.size)
        .sum::<u64>()
        + END_LEN
}

/// An MS-DOS time and date (what zip stores) of a unix ms instant, in UTC.
pub fn dos_time(ms: i64) -> (u16, u16) {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    let y = y.clamp(1980, 2107);
    let time = ((rem / 3600) << 11 | ((rem % 3600) / 60) << 5 | (rem % 60) / 2) as u16;
    let date = (((y - 1980) << 9) | (m << 5) | d) as u16;
    (time, date)
}

/// The header before an entry's bytes (CRC and sizes follow them, in the descriptor).
pub fn local_header(name: &str, at: (u16, u16)) -> Vec<u8> {
    let mut b = Vec::with_capacity(LOCAL_LEN as usize + name.len());
    b.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&FLAGS.to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes()); // STORE
    b.extend_from_slice(&at.0.to_le_bytes());
    b.extend_from_slice(&at.1.to_le_bytes());
    b.extend_from_slice(&[0; 12]); // CRC, sizes: in the descriptor
    b.extend_from_slice(&(name.len() as u16).to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b.extend_from_slice(name.as_bytes());
    b
}

/// What follows an entry's bytes: its CRC-32 and sizes.
pub fn descriptor(crc: u32, size: u64) -> Vec<u8> {
    let mut b = Vec::with_capacity(DESCRIPTOR_LEN as usize);
    b.extend_from_slice(&0x0807_4b50u32.to_le_bytes());
    b.extend_from_slice(&crc.to_le_bytes());
    b.extend_from_slice(&(size as u32).to_le_bytes());
    b.extend_from_slice(&(size as u32).to_le_bytes());
    b
}

/// A written entry, for the central directory.
#[derive(Debug, Clone)]
pub struct Written {
    pub name: String,
    pub crc: u32,
    pub size: u64,
    pub offset: u64,
}

/// The central directory and its end record, after the last entry (which ended at `offset`).
pub fn directory(entries: &[Written], at: (u16, u16), offset: u64) -> Vec<u8> {
    let mut b = Vec::new();
    for e in entries {
        b.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        b.extend_from_slice(&MADE_BY.to_le_bytes());
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&FLAGS.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&at.0.to_le_bytes());
        b.extend_from_slice(&at.1.to_le_bytes());
        b.extend_from_slice(&e.crc.to_le_bytes());
        b.extend_from_slice(&(e.size as u32).to_le_bytes());
        b.extend_from_slice(&(e.size as u32).to_le_bytes());
        b.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        b.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attributes
        b.extend_from_slice(&UNIX_FILE.to_le_bytes());
        b.extend_from_slice(&(e.offset as u32).to_le_bytes());
        b.extend_from_slice(e.name.as_bytes());
    }
    let size = b.len() as u32;
    b.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    b.extend_from_slice(&[0; 4]); // disk numbers
    b.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    b.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    b.extend_from_slice(&size.to_le_bytes());
    b.extend_from_slice(&(offset as u32).to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    b
}

/// Where the zip's chunks go: a bounded channel the response body reads.
pub type Out = tokio::sync::mpsc::Sender<std::io::Result<axum::body::Bytes>>;

/// The bytes of the zip a request asks for, `[start, end)`: all of it, or the rest of an
/// interrupted download (`Range`). The zip is the same bytes every time for the same link (names,
/// sizes, time and order fixed), so a part of it is a part of the whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub start: u64,
    pub end: u64,
}

impl Window {
    pub fn all(len: u64) -> Self {
        Window { start: 0, end: len }
    }
}

/// Writes the `window` of a zip of `entries` into `out` chunk by chunk, reading each entry's bytes
/// from `open(i, from)` (an async reader of entry `i` from byte `from` to its end). Memory stays at
/// one 64 KiB buffer plus what the bounded channel holds. `known[i]` is entry `i`'s CRC-32 when an
/// earlier download computed it: a resumed download then skips that entry's bytes without reading
/// them; an unknown CRC the window needs (for the entry's descriptor or the central directory) is
/// computed by reading the entry, sending only what the window holds. Returns the CRCs it learned.
/// An entry whose reader gives another size fails the zip (the error is sent too, so the body ends
/// in an error rather than as a short zip).
pub async fn write<R, F, Fut>(
    entries: &[Entry],
    at: (u16, u16),
    window: Window,
    known: &[Option<u32>],
    mut open: F,
    out: &Out,
) -> Vec<(usize, u32)>
where
    R: tokio::io::AsyncRead + Unpin,
    F: FnMut(usize, u64) -> Fut,
    Fut: std::future::Future<Output = std::io::Result<R>>,
{
    let mut w = Windowed {
        out,
        window,
        pos: 0,
        learned: vec![],
    };
    if let Err(e) = w.zip(entries, at, known, &mut open).await {
        let _ = out.send(Err(e)).await;
    }
    w.learned
}

/// The writer's place in the whole zip, sending only what falls in the window.
struct Windowed<'a> {
    out: &'a Out,
    window: Window,
    pos: u64,
    learned: Vec<(usize, u32)>,
}

impl Windowed<'_> {
    /// Passes over `b` (the next bytes of the whole zip), sending the part inside the window.
    async fn emit(&mut self, b: Vec<u8>) -> std::io::Result<()> {
        let (s, e) = (self.pos, self.pos + b.len() as u64);
        self.pos = e;
        let (ws, we) = (self.window.start, self.window.end);
        if e <= ws || s >= we {
            return Ok(());
        }
        let part = if s >= ws && e <= we {
            b
        } else {
            b[(ws.max(s) - s) as usize..(we.min(e) - s) as usize].to_vec()
        };
        self.out
            .send(Ok(axum::body::Bytes::from(part)))
            .await
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
            })
    }

    fn done(&self) -> bool {
        self.pos >= self.window.end
    }

    async fn zip<R, F, Fut>(
        &mut self,
        entries: &[Entry],
        at: (u16, u16),
        known: &[Option<u32>],
        open: &mut F,
    ) -> std::io::Result<()>
    where
        R: tokio::io::AsyncRead + Unpin,
        F: FnMut(usize, u64) -> Fut,
        Fut: std::future::Future<Output = std::io::Result<R>>,
    {
        let mut written = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            if self.done() {
                return Ok(());
            }
            let start = self.pos;
            self.emit(local_header(&e.name, at)).await?;
            let crc = match known.get(i).copied().flatten() {
                Some(crc) => {
                    self.pass(e, i, open).await?;
                    crc
                }
                None => match self.read(e, i, open).await? {
                    Some(crc) => {
                        self.learned.push((i, crc));
                        crc
                    }
                    // The window ends inside this entry: nothing after it is sent.
                    None => return Ok(()),
                },
            };
            if self.done() {
                return Ok(());
            }
            self.emit(descriptor(crc, e.size)).await?;
            written.push(Written {
                name: e.name.clone(),
                crc,
                size: e.size,
                offset: start,
            });
        }
        let offset = self.pos;
        self.emit(directory(&written, at, offset)).await
    }

    /// An entry whose CRC is known: only the part inside the window is read.
    async fn pass<R, F, Fut>(&mut self, e: &Entry, i: usize, open: &mut F) -> std::io::Result<()>
    where
        R: tokio::io::AsyncRead + Unpin,
        F: FnMut(usize, u64) -> Fut,
        Fut: std::future::Future<Output = std::io::Result<R>>,
    {
        let (s, end) = (self.pos, self.pos + e.size);
        if end <= self.window.start || s >= self.window.end {
            self.pos = end;
            return Ok(());
        }
        let from = self.window.start.saturating_sub(s);
        self.pos = s + from;
        let r = open(i, from).await?;
        self.copy(e, r, end, None).await.map(|_| ())
    }

    /// An entry whose CRC is not known: read from its start, hashed. `None` when the window ends
    /// inside it (then its CRC is not needed, and not all of it is read).
    async fn read<R, F, Fut>(
        &mut self,
        e: &Entry,
        i: usize,
        open: &mut F,
    ) -> std::io::Result<Option<u32>>
    where
        R: tokio::io::AsyncRead + Unpin,
        F: FnMut(usize, u64) -> Fut,
        Fut: std::future::Future<Output = std::io::Result<R>>,
    {
        let end = self.pos + e.size;
        if end >= self.window.end {
            // The window ends inside this entry: no CRC is needed, only what is sent is read.
            let from = self.window.start.saturating_sub(self.pos);
            self.pos += from;
            let r = open(i, from).await?;
            return self.copy(e, r, end, None).await.map(|_| None);
        }
        let r = open(i, 0).await?;
        let mut crc = crc32fast::Hasher::new();
        self.copy(e, r, end, Some(&mut crc)).await?;
        Ok(Some(crc.finalize()))
    }

    /// Copies an entry's bytes (from the writer's place to `end`) through the window, hashing them
    /// when asked (then every byte is read, not only the window's). Fails when the entry is not as
    /// long as announced.
    async fn copy<R: tokio::io::AsyncRead + Unpin>(
        &mut self,
        e: &Entry,
        mut r: R,
        end: u64,
        mut crc: Option<&mut crc32fast::Hasher>,
    ) -> std::io::Result<()> {
        use tokio::io::AsyncReadExt;
        while self.pos < end {
            if crc.is_none() && self.done() {
                return Ok(());
            }
            let want = (end - self.pos).min(64 * 1024) as usize;
            let mut buf = vec![0u8; want];
            let got = r.read(&mut buf).await?;
            if got == 0 {
                break;
            }
            buf.truncate(got);
            if let Some(c) = crc.as_deref_mut() {
                c.update(&buf);
            }
            self.emit(buf).await?;
        }
        if self.pos != end {
            return Err(std::io::Error::other(format!(
                "{}: {} bytes short of {}",
                e.name,
                end - self.pos,
                e.size
            )));
        }
        // A reader longer than announced is as wrong as a short one.
        let mut extra = [0u8; 1];
        if r.read(&mut extra).await? != 0 {
            return Err(std::io::Error::other(format!(
                "{}: longer than {} bytes",
                e.name, e.size
            )));
        }
        Ok(())
    }
}
