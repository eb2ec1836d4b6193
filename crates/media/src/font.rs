//! Which characters a font file can draw: its character map (`cmap`) read directly, so a font without
//! Chinese glyphs is refused for a Chinese title before libass silently draws boxes or falls back to
//! another font. TrueType/OpenType files and the first font of a collection (`.ttc`); the cmap
//! subtables of Unicode fonts (format 4 for the Basic Multilingual Plane, 12 for all of Unicode).
//! No crate: this is the one table read, and the parser is small.

/// The characters of `text` (spaces and control characters aside, each once, in order) that the font
/// in `bytes` has no glyph for; `None` when the file has no readable Unicode character map.
pub fn missing_glyphs(bytes: &[u8], text: &str) -> Option<Vec<char>> {
    let cmap = Cmap::of(bytes)?;
    let mut out: Vec<char> = vec![];
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() || out.contains(&c) {
            continue;
        }
        if cmap.glyph(c as u32) == 0 {
            out.push(c);
        }
    }
    Some(out)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The best Unicode subtable of a font's `cmap`: its bytes from the subtable's start, and its format.
struct Cmap<'a> {
    table: &'a [u8],
    format: u16,
}

impl<'a> Cmap<'a> {
    fn of(b: &'a [u8]) -> Option<Cmap<'a>> {
        // A collection: the first font's table directory.
        let font = if b.get(0..4)? == b"ttcf" {
            u32_at(b, 12)? as usize
        } else {
            0
        };
        let tables = u16_at(b, font + 4)? as usize;
        let cmap = (0..tables).find_map(|i| {
            let rec = font + 12 + i * 16;
            (b.get(rec..rec + 4)? == b"cmap").then_some(u32_at(b, rec + 8)? as usize)
        })?;
        let subtables = u16_at(b, cmap + 2)? as usize;
        let mut best: Option<(u8, &[u8], u16)> = None;
        for i in 0..subtables {
            let rec = cmap + 4 + i * 8;
            let (platform, encoding) = (u16_at(b, rec)?, u16_at(b, rec + 2)?);
            let at = cmap + u32_at(b, rec + 4)? as usize;
            let format = u16_at(b, at)?;
            // Full Unicode first, then the BMP; Windows Unicode or the Unicode platform only.
            let rank = match (platform, encoding, format) {
                (3, 10, 12) | (0, 4, 12) | (0, 6, 12) => 2,
                (3, 1, 4) | (0, 3, 4) | (0, 1, 4) | (0, 0, 4) => 1,
                _ => continue,
            };
            if best.is_none_or(|(r, _, _)| rank > r) {
                best = Some((rank, b.get(at..)?, format));
            }
        }
        best.map(|(_, table, format)| Cmap { table, format })
    }

    /// The glyph of code point `c`, 0 when there is none (glyph 0 is `.notdef`).
    fn glyph(&self, c: u32) -> u32 {
        match self.format {
            4 => self.format4(c),
            12 => self.format12(c),
            _ => None,
        }
        .unwrap_or(0)
    }

    fn format4(&self, c: u32) -> Option<u32> {
        let t = self.table;
        let c = u16::try_from(c).ok()?;
        let segs = u16_at(t, 6)? as usize / 2;
        let (ends, starts) = (14, 16 + segs * 2);
        let (deltas, ranges) = (starts + segs * 2, starts + segs * 4);
        // Segments are sorted by their end code.
        let (mut lo, mut hi) = (0, segs);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if u16_at(t, ends + mid * 2)? < c {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let s = lo;
        if s >= segs || u16_at(t, starts + s * 2)? > c {
            return Some(0);
        }
        let delta = u16_at(t, deltas + s * 2)?;
        let range = u16_at(t, ranges + s * 2)? as usize;
        if range == 0 {
            return Some(u32::from(c.wrapping_add(delta)));
        }
        let start = u16_at(t, starts + s * 2)?;
        let at = ranges + s * 2 + range + (c - start) as usize * 2;
        let g = u16_at(t, at)?;
        Some(if g == 0 {
            0
        } else {
            u32::from(g.wrapping_add(delta))
        })
    }

    fn format12(&self, c: u32) -> Option<u32> {
        let t = self.table;
        let groups = u32_at(t, 12)? as usize;
        let (mut lo, mut hi) = (0, groups);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let g = 16 + mid * 12;
            let (first, last) = (u32_at(t, g)?, u32_at(t, g + 4)?);
            if c < first {
                hi = mid;
            } else if c > last {
                lo = mid + 1;
            } else {
                return Some(u32_at(t, g + 8)? + (c - first));
            }
        }
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A font whose cmap (format 4) maps 'A'..='Z' to glyphs 1..=26 and nothing else.
    pub(crate) fn latin_only() -> Vec<u8> {
        let mut sub = vec![];
        let segs: [(u16, u16); 2] = [(0x41, 0x5A), (0xFFFF, 0xFFFF)];
        sub.extend(4u16.to_be_bytes()); // format
        sub.extend(0u16.to_be_bytes()); // length (unchecked)
        sub.extend(0u16.to_be_bytes()); // language
        sub.extend((segs.len() as u16 * 2).to_be_bytes());
        sub.extend([0u8; 6]); // search fields
        for (_, end) in segs {
            sub.extend(end.to_be_bytes());
        }
        sub.extend(0u16.to_be_bytes()); // reserved
        for (start, _) in segs {
            sub.extend(start.to_be_bytes());
        }
        sub.extend(((1i32 - 0x41) as u16).to_be_bytes());
        sub.extend(1u16.to_be_bytes());
        sub.extend([0u8; 4]); // id range offsets
        let mut cmap = vec![];
        cmap.extend(0u16.to_be_bytes());
        cmap.extend(1u16.to_be_bytes());
        cmap.extend(3u16.to_be_bytes());
        cmap.extend(1u16.to_be_bytes());
        cmap.extend(12u32.to_be_bytes());
        cmap.extend(sub);
        let mut f = vec![0, 1, 0, 0];
        f.extend(1u16.to_be_bytes());
        f.extend([0u8; 6]);
        f.extend(*b"cmap");
        f.extend(0u32.to_be_bytes());
        f.extend(28u32.to_be_bytes());
        f.extend((cmap.len() as u32).to_be_bytes());
        f.extend(cmap);
        f
    }

    #[test]
    fn reads_the_character_map() {
        let f = latin_only();
        assert_eq!(missing_glyphs(&f, "ABC"), Some(vec![]));
        assert_eq!(
            missing_glyphs(&f, "A 防晒帽 防a"),
            Some(vec!['防', '晒', '帽', 'a'])
        );
        assert_eq!(missing_glyphs(b"not a font", "A"), None);
        assert_eq!(missing_glyphs(&f[..20], "A"), None);
    }

    /// The system's fonts (Debian: DejaVu comes with fontconfig, WenQuanYi Zen Hei is the default CJK
    /// font, a collection): read when present.
    #[test]
    fn reads_real_fonts() {
        let dejavu = std::path::Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
        if let Ok(b) = std::fs::read(dejavu) {
            assert_eq!(missing_glyphs(&b, "Sun hat, 50% off! é"), Some(vec![]));
            assert_eq!(missing_glyphs(&b, "防晒帽"), Some(vec!['防', '晒', '帽']));
        }
        let wqy = std::path::Path::new("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc");
        if let Ok(b) = std::fs::read(wqy) {
            assert_eq!(missing_glyphs(&b, "夏季新款防晒帽 UPF50+"), Some(vec![]));
        }
    }
}
