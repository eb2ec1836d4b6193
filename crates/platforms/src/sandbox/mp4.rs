//! Reads a video's display size from its MP4 header while the upload streams by, without keeping
//! the file: top-level boxes are skipped by length, only `moov` (small) is buffered, and the video
//! track's `tkhd` gives width and height (swapped when its matrix turns it by 90°).

/// Largest `moov` we buffer; real ones are kilobytes to a few MB.
const MOOV_MAX: u64 = 32 * 1024 * 1024;

#[derive(Default)]
pub(crate) struct Probe {
    hdr: Vec<u8>,
    skip: u64,
    moov: Option<(Vec<u8>, u64)>,
    found: Option<(u32, u32)>,
    dead: bool,
}

impl Probe {
    /// The next bytes of the file, in order.
    pub fn feed(&mut self, mut data: &[u8]) {
        while !data.is_empty() && self.found.is_none() && !self.dead {
            if self.skip > 0 {
                let n = (self.skip.min(data.len() as u64)) as usize;
                self.skip -= n as u64;
                data = &data[n..];
                continue;
            }
            if let Some((buf, left)) = self.moov.as_mut() {
                let n = ((*left).min(data.len() as u64)) as usize;
                buf.extend_from_slice(&data[..n]);
                *left -= n as u64;
                data = &data[n..];
                if *left == 0 {
                    let buf = std::mem::take(buf);
                    self.moov = None;
                    match moov_size(&buf) {
                        Some(d) => self.found = Some(d),
                        None => self.dead = true,
                    }
                }
                continue;
            }
            // A box header: 8 bytes, 16 with a 64-bit size.
            let need = if self.hdr.len() >= 4 && self.hdr[..4] == [0, 0, 0, 1] {
                16
            } else {
                8
            };
            let n = (need - self.hdr.len()).min(data.len());
            self.hdr.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.hdr.len() < 8 || (self.hdr[..4] == [0, 0, 0, 1] && self.hdr.len() < 16) {
                continue;
            }
            let kind: [u8; 4] = self.hdr[4..8].try_into().expect("4 bytes");
            let (size, hlen) = if self.hdr[..4] == [0, 0, 0, 1] {
                (be64(&self.hdr[8..16]), 16)
            } else {
                (be32(&self.hdr[..4]) as u64, 8)
            };
            self.hdr.clear();
            // Not an MP4 (or a box "to the end of file", which no header box is).
            if !kind.iter().all(|c| c.is_ascii_graphic() || *c == b' ') || size < hlen {
                self.dead = true;
                continue;
            }
            let body = size - hlen;
            if &kind == b"moov" {
                if body == 0 || body > MOOV_MAX {
                    self.dead = true;
                } else {
                    self.moov = Some((Vec::with_capacity(body as usize), body));
                }
            } else {
                self.skip = body;
            }
        }
    }

    /// (width, height) once the header was read; None for files that are not an MP4 we can read.
    pub fn dims(&self) -> Option<(u32, u32)> {
        self.found
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes(b[..4].try_into().expect("4 bytes"))
}

fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes(b[..8].try_into().expect("8 bytes"))
}

/// Child boxes of a container body: (type, body).
fn children(mut b: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let mut out = vec![];
    while b.len() >= 8 {
        let size = be32(b) as usize;
        let kind: [u8; 4] = b[4..8].try_into().expect("4 bytes");
        let (hlen, size) = match size {
            1 if b.len() >= 16 => (16, be64(&b[8..16]) as usize),
            0 => (8, b.len()),
            s => (8, s),
        };
        if size < hlen || size > b.len() {
            break;
        }
        out.push((kind, &b[hlen..size]));
        b = &b[size..];
    }
    out
}

/// The display size of the first video track in a `moov` body.
fn moov_size(moov: &[u8]) -> Option<(u32, u32)> {
    children(moov)
        .into_iter()
        .filter(|(k, _)| k == b"trak")
        .find_map(|(_, trak)| {
            let kids = children(trak);
            let video = kids.iter().any(|(k, mdia)| {
                k == b"mdia"
                    && children(mdia).iter().any(|(k, hdlr)| {
                        k == b"hdlr" && hdlr.len() >= 12 && &hdlr[8..12] == b"vide"
                    })
            });
            let tkhd = kids.iter().find(|(k, _)| k == b"tkhd")?.1;
            let (w, h) = tkhd_size(tkhd)?;
            (video && w > 0 && h > 0).then_some((w, h))
        })
}

fn tkhd_size(t: &[u8]) -> Option<(u32, u32)> {
    let version = *t.first()?;
    let matrix = 4 + if version == 1 { 32 } else { 20 } + 16;
    if t.len() < matrix + 44 {
        return None;
    }
    let (a, b) = (be32(&t[matrix..]) as i32, be32(&t[matrix + 4..]) as i32);
    let w = be32(&t[matrix + 36..]) >> 16;
    let h = be32(&t[matrix + 40..]) >> 16;
    // A 90° or 270° rotation shows the picture on its side.
    Some(if a == 0 && b != 0 { (h, w) } else { (w, h) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut v = ((body.len() + 8) as u32).to_be_bytes().to_vec();
        v.extend_from_slice(kind);
        v.extend_from_slice(body);
        v
    }

    fn trak(handler: &[u8; 4], w: u32, h: u32, rotate: bool) -> Vec<u8> {
        let mut tkhd = vec![0u8; 4 + 20 + 16];
        let (a, b, c) = if rotate {
            (0, 0x1_0000u32, 0xffff_0000u32)
        } else {
            (0x1_0000, 0, 0)
        };
        for x in [
            a,
            b,
            0,
            c,
            if rotate { 0 } else { 0x1_0000 },
            0,
            0,
            0,
            0x4000_0000,
        ] {
            tkhd.extend_from_slice(&x.to_be_bytes());
        }
        tkhd.extend_from_slice(&(w << 16).to_be_bytes());
        tkhd.extend_from_slice(&(h << 16).to_be_bytes());
        let mut hdlr = vec![0u8; 8];
        hdlr.extend_from_slice(handler);
        hdlr.extend_from_slice(&[0u8; 13]);
        let mdia = boxed(b"mdia", &boxed(b"hdlr", &hdlr));
        boxed(b"trak", &[boxed(b"tkhd", &tkhd), mdia].concat())
    }

    fn file(rotate: bool) -> Vec<u8> {
        let moov = boxed(
            b"moov",
            &[trak(b"soun", 0, 0, false), trak(b"vide", 720, 1280, rotate)].concat(),
        );
        [
            boxed(b"ftyp", b"isom\0\0\x02\0isomiso2"),
            boxed(b"mdat", &vec![9u8; 5000]),
            moov,
        ]
        .concat()
    }

    fn probe(bytes: &[u8], chunk: usize) -> Option<(u32, u32)> {
        let mut p = Probe::default();
        for c in bytes.chunks(chunk) {
            p.feed(c);
        }
        p.dims()
    }

    #[test]
    fn reads_the_video_track_size_in_any_chunking() {
        for chunk in [1, 7, 4096, 1 << 20] {
            assert_eq!(probe(&file(false), chunk), Some((720, 1280)), "{chunk}");
        }
        assert_eq!(probe(&file(true), 13), Some((1280, 720)));
    }

    #[test]
    fn other_files_have_no_size() {
        assert_eq!(probe(&[0u8; 10_000], 100), None);
        assert_eq!(probe(&[7u8; 100], 100), None);
        assert_eq!(probe(b"not a video at all", 3), None);
    }
}
