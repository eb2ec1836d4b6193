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

/// Writes a zip of `entries` into `out` chunk by chunk, reading each entry's bytes from `open(i)`
/// (an async reader of exactly `entries[i].size` bytes). Memory stays at one 64 KiB buffer plus what
/// the bounded channel holds. An entry whose reader gives another size fails the zip (the error is
/// sent too, so the body ends in an error rather than as a short zip).
pub async fn write<R, F, Fut>(entries: &[Entry], at: (u16, u16), mut open: F, out: &Out)
where
    R: tokio::io::AsyncRead + Unpin,
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = std::io::Result<R>>,
{
    if let Err(e) = write_all(entries, at, &mut open, out).await {
        let _ = out.send(Err(e)).await;
    }
}

async fn write_all<R, F, Fut>(
    entries: &[Entry],
    at: (u16, u16),
    open: &mut F,
    out: &Out,
) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = std::io::Result<R>>,
{
    use tokio::io::AsyncReadExt;
    let send = |b: Vec<u8>| async move {
        out.send(Ok(axum::body::Bytes::from(b))).await.map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    };
    let mut offset = 0u64;
    let mut written = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let header = local_header(&e.name, at);
        let start = offset;
        offset += header.len() as u64;
        send(header).await?;
        let mut r = open(i).await?;
        let mut crc = crc32fast::Hasher::new();
        let mut n = 0u64;
        loop {
            let mut buf = vec![0u8; 64 * 1024];
            let got = r.read(&mut buf).await?;
            if got == 0 {
                break;
            }
            buf.truncate(got);
            crc.update(&buf);
            n += got as u64;
            send(buf).await?;
        }
        if n != e.size {
            return Err(std::io::Error::other(format!(
                "{}: {n} bytes read, {} expected",
                e.name, e.size
            )));
        }
        let crc = crc.finalize();
        offset += n + DESCRIPTOR_LEN;
        send(descriptor(crc, n)).await?;
        written.push(Written {
            name: e.name.clone(),
            crc,
            size: n,
            offset: start,
        });
    }
    send(directory(&written, at, offset)).await
}
