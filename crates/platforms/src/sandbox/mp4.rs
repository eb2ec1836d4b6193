//! Reads a video's display size from its MP4 header while the upload streams by, without keeping
//! the file: top-level boxes are skipped by length, only `moov` (small) is buffered, and the video
//! track's `tkhd` gives width and height (swapped when its matrix turns it by 90°). The same `moov`
//! gives the file's AI-content label: the `AIGC` metadata key (GB 45438-2025 Annex E), which Douyin
//! reads on upload since 2025-09-01 to label AI-generated works (its announcement when the labelling
//! measures came into force; the key's box layout is QuickTime `mdta` metadata as ffmpeg's mov muxer
//! writes it with `use_metadata_tags`). How Douyin words the label on a work is not public here: the
//! sandbox index's "AI生成（文件隐式标识）" is our own wording.

/// Largest `moov` we buffer; real ones are kilobytes to a few MB.
const MOOV_MAX: u64 = 32 * 1024 * 1024;

#[derive(Default)]
pub(crate) struct Probe {
    hdr: Vec<u8>,
    skip: u64,
    moov: Option<(Vec<u8>, u64)>,
    found: Option<(u32, u32)>,
    aigc: Option<String>,
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
                    self.aigc = moov_aigc(&buf);
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

    /// The value of the file's `AIGC` metadata key (a JSON object), once the header was read.
    pub fn aigc(&self) -> Option<String> {
        self.aigc.clone()
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

/// The `AIGC` key of a `moov`'s QuickTime metadata (`meta` with an `mdta` handler, `keys` and `ilst`:
/// what ffmpeg writes with `-movflags use_metadata_tags`), directly in `moov` or in its `udta`.
fn moov_aigc(moov: &[u8]) -> Option<String> {
    let kids = children(moov);
    let udta_metas = kids
        .iter()
        .filter(|(k, _)| k == b"udta")
        .flat_map(|(_, u)| children(u))
        .filter(|(k, _)| k == b"meta");
    kids.iter()
        .filter(|(k, _)| k == b"meta")
        .copied()
        .chain(udta_metas)
        .find_map(|(_, meta)| meta_value(meta, b"AIGC"))
}

/// One key's UTF-8 value in a `meta` body (with or without the ISO full-box version and flags).
fn meta_value(meta: &[u8], want: &[u8]) -> Option<String> {
    let boxes = match children(meta).first() {
        Some((k, _)) if k == b"hdlr" || k == b"keys" => children(meta),
        _ => children(meta.get(4..)?),
    };
    let keys = boxes.iter().find(|(k, _)| k == b"keys")?.1;
    let count = be32(keys.get(4..8)?) as usize;
    let mut at = 8;
    let mut index = None;
    for i in 1..=count {
        let size = be32(keys.get(at..at + 4)?) as usize;
        if size < 8 || at + size > keys.len() {
            return None;
        }
        if &keys[at + 8..at + size] == want {
            index = Some(i as u32);
            break;
        }
        at += size;
    }
    let index = index?;
    let ilst = boxes.iter().find(|(k, _)| k == b"ilst")?.1;
    // ilst's items are boxes whose type is the key's 1-based index; each holds a `data` box: type
    // (1 = UTF-8), locale, then the value.
    children(ilst)
        .into_iter()
        .find(|(k, _)| u32::from_be_bytes(*k) == index)
        .and_then(|(_, item)| {
            let data = children(item).into_iter().find(|(k, _)| k == b"data")?.1;
            (data.len() >= 8 && be32(data) & 0xFF_FFFF == 1)
                .then(|| String::from_utf8_lossy(&data[8..]).into_owned())
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

    /// A `meta` as ffmpeg's `use_metadata_tags` writes it: full-box header, `hdlr` mdta, `keys`, `ilst`.
    fn mdta(pairs: &[(&str, &str)]) -> Vec<u8> {
        let mut keys = vec![0u8; 4];
        keys.extend_from_slice(&(pairs.len() as u32).to_be_bytes());
        let mut ilst = vec![];
        for (i, (k, v)) in pairs.iter().enumerate() {
            keys.extend_from_slice(&((k.len() + 8) as u32).to_be_bytes());
            keys.extend_from_slice(b"mdta");
            keys.extend_from_slice(k.as_bytes());
            let data = [&1u32.to_be_bytes()[..], &[0u8; 4], v.as_bytes()].concat();
            let item = boxed(&(i as u32 + 1).to_be_bytes(), &boxed(b"data", &data));
            ilst.extend_from_slice(&item);
        }
        let hdlr = [&[0u8; 8][..], b"mdta", &[0u8; 13]].concat();
        let body = [
            &[0u8; 4][..],
            &boxed(b"hdlr", &hdlr),
            &boxed(b"keys", &keys),
            &boxed(b"ilst", &ilst),
        ]
        .concat();
        boxed(b"meta", &body)
    }

    #[test]
    fn reads_the_ai_content_label_of_the_metadata() {
        let label = r#"{"Label":"1","ContentProducer":"clipmatrix","ProduceID":"m1-v2"}"#;
        let moov = boxed(
            b"moov",
            &[
                trak(b"vide", 1080, 1920, false),
                mdta(&[("encoder", "Lavf"), ("AIGC", label)]),
            ]
            .concat(),
        );
        let f = [boxed(b"ftyp", b"isom\0\0\x02\0isomiso2"), moov].concat();
        for chunk in [5, 4096] {
            let mut p = Probe::default();
            for c in f.chunks(chunk) {
                p.feed(c);
            }
            assert_eq!(p.dims(), Some((1080, 1920)));
            assert_eq!(p.aigc().as_deref(), Some(label), "{chunk}");
        }
        // No such key: no label.
        let plain = boxed(
            b"moov",
            &[
                trak(b"vide", 720, 1280, false),
                mdta(&[("encoder", "Lavf")]),
            ]
            .concat(),
        );
        let mut p = Probe::default();
        p.feed(&plain);
        assert_eq!((p.dims(), p.aigc()), (Some((720, 1280)), None));
    }
}
