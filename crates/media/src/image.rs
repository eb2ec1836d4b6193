//! Images are checked when they are uploaded: the size read from the header, a pixel limit, and one
//! real decode. A truncated picture or one too large to decode is refused, not stored as a 0x0 image
//! that fails later in a mix.

use crate::ffmpeg::{self, ToolError};
use std::path::Path;
use std::time::Duration;

/// 40 megapixels (e.g. 8000x5000): more than any phone photo, far below what exhausts memory.
pub const MAX_PIXELS: u64 = 40_000_000;
/// The longest side ffmpeg's encoders and our mixes handle.
pub const MAX_SIDE: u32 = 16_384;

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("the image header has no readable size")]
    NoSize,
    #[error("{width}x{height} is over the limit")]
    TooLarge { width: u32, height: u32 },
    #[error("the image cannot be decoded: {0}")]
    Undecodable(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Width and height from a PNG, GIF, JPEG or ICO header; `None` when there is no usable size.
pub fn dimensions(b: &[u8]) -> Option<(u32, u32)> {
    let le16 = |i: usize| Some(u16::from_le_bytes([*b.get(i)?, *b.get(i + 1)?]) as u32);
    let be32 = |i: usize| Some(u32::from_be_bytes(b.get(i..i + 4)?.try_into().ok()?));
    let size = if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        (b.get(12..16)? == b"IHDR").then_some(())?;
        (be32(16)?, be32(20)?)
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        (le16(6)?, le16(8)?)
    } else if b.starts_with(&[0xFF, 0xD8]) {
        jpeg_size(b)?
    } else if b.starts_with(&[0, 0, 1, 0]) {
        // ICO: the largest entry; 0 stands for 256.
        let n = le16(4)? as usize;
        let side = |v: u8| if v == 0 { 256 } else { v as u32 };
        (0..n)
            .filter_map(|i| Some((side(*b.get(6 + i * 16)?), side(*b.get(7 + i * 16)?))))
            .max_by_key(|(w, h)| w * h)?
    } else {
        return None;
    };
    (size.0 > 0 && size.1 > 0).then_some(size)
}

/// Walks the JPEG markers to the first frame header (SOFn), which holds the size.
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        while *b.get(i)? == 0xFF && *b.get(i + 1)? == 0xFF {
            i += 1;
        }
        if *b.get(i)? != 0xFF {
            return None;
        }
        let marker = *b.get(i + 1)?;
        match marker {
            0x01 | 0xD0..=0xD7 => i += 2,
            // Image data or its end before any frame header: no size.
            0xD9 | 0xDA => return None,
            _ => {
                let len = u16::from_be_bytes([*b.get(i + 2)?, *b.get(i + 3)?]) as usize;
                let sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
                if sof {
                    let h = u16::from_be_bytes([*b.get(i + 5)?, *b.get(i + 6)?]) as u32;
                    let w = u16::from_be_bytes([*b.get(i + 7)?, *b.get(i + 8)?]) as u32;
                    return Some((w, h));
                }
                i += 2 + len;
            }
        }
    }
}

/// Refuses a size over `MAX_SIDE` a side or `MAX_PIXELS` in all.
pub fn within_limits(width: u32, height: u32) -> Result<(), ImageError> {
    if width > MAX_SIDE || height > MAX_SIDE || width as u64 * height as u64 > MAX_PIXELS {
        return Err(ImageError::TooLarge { width, height });
    }
    Ok(())
}

/// Checks an uploaded image (at most a few MB, read whole): its size, the limit, then one decode.
pub async fn check(path: &Path) -> Result<(u32, u32), ImageError> {
    let bytes = tokio::fs::read(path).await?;
    let (w, h) = dimensions(&bytes).ok_or(ImageError::NoSize)?;
    within_limits(w, h)?;
    decode(path).await?;
    Ok((w, h))
}

/// `count` JPEG stills of a video, evenly spaced (one in the middle of each of `count` equal parts,
/// so never the black first frame), at most 1080 px wide, written as `dir/frame_01.jpg`… in one
/// ffmpeg run; the files in order. An image note's "frames of a video" (issue 44).
pub async fn frames(
    src: &Path,
    dir: &Path,
    count: usize,
    duration_ms: i64,
) -> Result<Vec<std::path::PathBuf>, ImageError> {
    let count = count.max(1);
    let secs = (duration_ms.max(100) as f64) / 1000.0;
    let part = secs / count as f64;
    let mut a = ffmpeg::args(["-v", "error", "-y", "-ss"]);
    a.push(format!("{:.3}", part / 2.0));
    a.push("-i".into());
    a.push(src.display().to_string());
    a.extend(ffmpeg::args(["-vf"]));
    a.push(format!(
        "fps=1/{:.4},scale='min(1080,iw)':-2",
        part.max(0.001)
    ));
    a.extend(ffmpeg::args(["-frames:v"]));
    a.push(count.to_string());
    a.extend(ffmpeg::args(["-q:v", "3"]));
    a.push(dir.join("frame_%02d.jpg").display().to_string());
    ffmpeg::run("ffmpeg", &a, Duration::from_secs(60 + secs as u64 / 10)).await?;
    let files: Vec<_> = (1..=count)
        .map(|i| dir.join(format!("frame_{i:02}.jpg")))
        .filter(|f| f.exists())
        .collect();
    if files.is_empty() {
        return Err(ImageError::Undecodable("no frame written".into()));
    }
    Ok(files)
}

/// Decodes the first frame. At `-v error` a clean picture prints nothing; a truncated JPEG still
/// "succeeds" but says so on stderr, so anything printed counts as a failure too.
async fn decode(path: &Path) -> Result<(), ImageError> {
    let args = ffmpeg::args(["-v", "error", "-xerror", "-i"])
        .into_iter()
        .chain([path.display().to_string()])
        .chain(ffmpeg::args(["-frames:v", "1", "-f", "null", "-"]))
        .collect::<Vec<_>>();
    let out = ffmpeg::output("ffmpeg", &args, Duration::from_secs(30)).await?;
    let said = ffmpeg::tail(&out.stderr, 3);
    if !out.status.success() || !out.stderr.iter().all(u8::is_ascii_whitespace) {
        return Err(ImageError::Undecodable(said));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend(w.to_be_bytes());
        b.extend(h.to_be_bytes());
        b.extend([8, 2, 0, 0, 0]);
        b
    }

    #[test]
    fn sizes_come_from_the_header() {
        assert_eq!(dimensions(&png_header(320, 240)), Some((320, 240)));
        assert_eq!(dimensions(&png_header(0, 240)), None);
        assert_eq!(dimensions(b"GIF89a\x40\x01\xf0\x00\0\0"), Some((320, 240)));
        // SOI, an APP0 segment, then SOF0 with height 240 and width 320.
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 240, 1, 64, 3,
        ];
        assert_eq!(dimensions(&jpeg), Some((320, 240)));
        assert_eq!(dimensions(&jpeg[..10]), None);
        assert_eq!(dimensions(&[0xFF, 0xD8, 0xFF, 0xDA, 0, 2]), None);
        // Two icon entries, 16x16 and 0x0 (= 256x256): the larger counts.
        let mut ico = vec![0, 0, 1, 0, 2, 0];
        ico.extend([16, 16].iter().chain(&[0; 14]));
        ico.extend([0, 0].iter().chain(&[0; 14]));
        assert_eq!(dimensions(&ico), Some((256, 256)));
        assert_eq!(dimensions(&ico[..22]), Some((16, 16)));
        assert_eq!(dimensions(b"not an image at all"), None);
    }

    #[test]
    fn the_pixel_limit_holds() {
        assert!(within_limits(8000, 5000).is_ok());
        assert!(within_limits(1080, 1920).is_ok());
        assert!(matches!(
            within_limits(30000, 30000),
            Err(ImageError::TooLarge { .. })
        ));
        assert!(within_limits(16_385, 10).is_err());
        assert!(within_limits(8000, 5001).is_err());
    }
}
