//! The labels of AI-generated content in files (GB 45438-2025; what and why: `domain::clip::aigc` and
//! docs/spec-decisions.md "AI-content labels"):
//! * the implicit label, the `AIGC` metadata field, in MP4 / M4A (an `mdta` key of the `moov/meta`
//!   box, written by ffmpeg with `-movflags use_metadata_tags`, read by ffprobe as a format tag), in
//!   PNG (a `tEXt` chunk `AIGC`) and in JPEG (an XMP packet in APP1 with the `TC260:AIGC` property,
//!   and a COM segment `AIGC=…` for readers without XMP);
//! * the audible cue at the start of generated audio ([`audio_with_cue`]) and the way back to the
//!   plain speech for mixing ([`without_cue`]).
//!
//! The visible label of a video is burned with its other text (`mix::TextLayer::add_label`); the
//! one on a still (a cover) by [`label_filter`] in the same ffmpeg that makes it.

use crate::ffmpeg::{self, ToolError, args};
use domain::clip::aigc::{AUDIO_CUE, AUDIO_CUE_HZ, META_KEY, audio_cue_ms};
use std::path::Path;
use std::time::Duration;

/// The metadata arguments of an MP4/M4A output carrying `meta` (the field's JSON): the field and the
/// flag that makes the mp4 muxer keep a key of its own. With `None`: none (and plain `+faststart`).
pub fn mp4_args(meta: Option<&str>) -> Vec<String> {
    match meta {
        Some(m) => args([
            "-metadata".to_string(),
            format!("{META_KEY}={m}"),
            "-movflags".into(),
            "+faststart+use_metadata_tags".into(),
        ]),
        None => args(["-movflags", "+faststart"]),
    }
}

/// The `AIGC` field of an MP4/M4A file as ffprobe reads it (None: none, or unreadable).
pub async fn mp4_tag(path: &Path) -> Option<String> {
    let a = args([
        "-v".to_string(),
        "error".into(),
        "-show_entries".into(),
        format!("format_tags={META_KEY}"),
        "-of".into(),
        "default=noprint_wrappers=1:nokey=1".into(),
        path.display().to_string(),
    ]);
    let out = ffmpeg::run("ffprobe", &a, Duration::from_secs(30))
        .await
        .ok()?;
    let s = String::from_utf8_lossy(&out).trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The XMP namespace of the implicit label in images (the TC260 practice guide's
/// `http://www.tc260.org.cn/ns/AIGC/1.0/`, prefix `TC260`).
pub const XMP_NS: &str = "http://www.tc260.org.cn/ns/AIGC/1.0/";
const XMP_APP1: &[u8] = b"http://ns.adobe.com/xap/1.0/\0";

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A JPEG with the label: an APP1 XMP packet and a COM segment, right after SOI (and after a JFIF
/// APP0 when there is one). A file that is not a JPEG, or already labelled, comes back as it was.
pub fn tag_jpeg(jpeg: &[u8], meta: &str) -> Vec<u8> {
    if jpeg.len() < 4 || jpeg[0..2] != [0xFF, 0xD8] || jpeg_tag(jpeg).is_some() {
        return jpeg.to_vec();
    }
    let mut at = 2;
    if jpeg[2..4] == [0xFF, 0xE0] && jpeg.len() >= 6 {
        at = 4 + u16::from_be_bytes([jpeg[4], jpeg[5]]) as usize;
    }
    let xmp = format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\
<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" \
xmlns:TC260=\"{XMP_NS}\"><TC260:{META_KEY}>{}</TC260:{META_KEY}></rdf:Description></rdf:RDF>\
</x:xmpmeta><?xpacket end=\"w\"?>",
        xml_escape(meta)
    );
    let mut app1 = XMP_APP1.to_vec();
    app1.extend_from_slice(xmp.as_bytes());
    let com = format!("{META_KEY}={meta}").into_bytes();
    let mut out = Vec::with_capacity(jpeg.len() + app1.len() + com.len() + 8);
    out.extend_from_slice(&jpeg[..at.min(jpeg.len())]);
    for (marker, body) in [(0xE1u8, &app1), (0xFE, &com)] {
        // A segment holds at most 65,533 bytes; a label is far below that.
        if body.len() + 2 > u16::MAX as usize {
            continue;
        }
        out.extend_from_slice(&[0xFF, marker]);
        out.extend_from_slice(&((body.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(body);
    }
    out.extend_from_slice(&jpeg[at.min(jpeg.len())..]);
    out
}

/// The label of a JPEG (its COM segment `AIGC=…`), None without one. Reads the segments up to the
/// image data.
pub fn jpeg_tag(jpeg: &[u8]) -> Option<String> {
    let mut at = 2;
    while at + 4 <= jpeg.len() && jpeg[at] == 0xFF {
        let marker = jpeg[at + 1];
        if marker == 0xDA {
            break;
        }
        let len = u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
        let body = jpeg.get(at + 4..at + 2 + len)?;
        if marker == 0xFE
            && let Some(v) = body.strip_prefix(format!("{META_KEY}=").as_bytes())
        {
            return Some(String::from_utf8_lossy(v).to_string());
        }
        at += 2 + len;
    }
    None
}

/// CRC-32 (ISO-HDLC, PNG's).
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

const PNG_SIG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A PNG with the label: a `tEXt` chunk `AIGC` after IHDR (Latin-1 text: the JSON is escaped to
/// ASCII). Not a PNG, or already labelled: as it was.
pub fn tag_png(png: &[u8], meta: &str) -> Vec<u8> {
    if !png.starts_with(PNG_SIG) || png.len() < 33 || png_tag(png).is_some() {
        return png.to_vec();
    }
    let ascii: String = meta
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                let mut buf = [0u16; 2];
                c.encode_utf16(&mut buf)
                    .iter()
                    .map(|u| format!("\\u{u:04x}"))
                    .collect()
            }
        })
        .collect();
    let mut data = format!("{META_KEY}\0").into_bytes();
    data.extend_from_slice(ascii.as_bytes());
    let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
    let mut typed = b"tEXt".to_vec();
    typed.extend_from_slice(&data);
    chunk.extend_from_slice(&typed);
    chunk.extend_from_slice(&crc32(&typed).to_be_bytes());
    // IHDR is the first chunk: 8 (signature) + 4 + 4 + 13 + 4.
    let at = 33;
    let mut out = png[..at].to_vec();
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[at..]);
    out
}

/// The label of a PNG (its `tEXt` chunk `AIGC`), None without one.
pub fn png_tag(png: &[u8]) -> Option<String> {
    let mut at = PNG_SIG.len();
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().ok()?) as usize;
        let kind = &png[at + 4..at + 8];
        let body = png.get(at + 8..at + 8 + len)?;
        if kind == b"tEXt"
            && let Some(v) = body.strip_prefix(format!("{META_KEY}\0").as_bytes())
        {
            return Some(String::from_utf8_lossy(v).to_string());
        }
        if kind == b"IDAT" {
            return None;
        }
        at += 12 + len;
    }
    None
}

/// Labels an image file in place (JPEG or PNG, by its first bytes; others are left alone).
pub async fn tag_image(path: &Path, meta: &str) -> std::io::Result<()> {
    let bytes = tokio::fs::read(path).await?;
    let tagged = if bytes.starts_with(PNG_SIG) {
        tag_png(&bytes, meta)
    } else {
        tag_jpeg(&bytes, meta)
    };
    if tagged.len() != bytes.len() {
        let tmp = path.with_extension(format!("{}.tag.tmp", std::process::id()));
        tokio::fs::write(&tmp, &tagged).await?;
        tokio::fs::rename(&tmp, path).await?;
    }
    Ok(())
}

/// ffmpeg's `volume` gate of the cue: the tone sounds only during the beeps of [`AUDIO_CUE`] (the tone at
/// -12 dBFS peak: `sine`'s 1/8 amplitude doubled, about as loud as the speech normalized to -16 LUFS).
fn cue_gate() -> String {
    let mut at = 0;
    let mut on = vec![];
    for (beep, gap) in AUDIO_CUE {
        on.push(format!(
            "between(t,{:.3},{:.3})",
            at as f64 / 1000.0,
            (at + beep) as f64 / 1000.0
        ));
        at += beep + gap;
    }
    format!("volume=0:enable='not({})'", on.join("+"))
}

/// `speech` (any audio) with the audible cue before it, as 48 kHz mono AAC in an M4A at `dst`
/// carrying the implicit label `meta`: what a merchant downloads of a voice-over. The speech starts
/// [`audio_cue_ms`] later than in `speech`.
pub async fn audio_with_cue(speech: &Path, dst: &Path, meta: &str) -> Result<(), ToolError> {
    let cue = format!(
        "sine=frequency={AUDIO_CUE_HZ}:sample_rate=48000:duration={:.3}",
        audio_cue_ms() as f64 / 1000.0
    );
    let graph = format!(
        "[0:a]volume=2.0,{},aformat=sample_rates=48000:channel_layouts=mono[c];\
[1:a]aformat=sample_rates=48000:channel_layouts=mono[s];[c][s]concat=n=2:v=0:a=1[a]",
        cue_gate()
    );
    let tmp = dst.with_extension(format!("{}.cue.m4a", std::process::id()));
    let mut a = args([
        "-v", "error", "-y", "-nostdin", "-f", "lavfi", "-i", &cue, "-i",
    ]);
    a.push(speech.display().to_string());
    a.extend(args([
        "-filter_complex",
        &graph,
        "-map",
        "[a]",
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ar",
        "48000",
        "-ac",
        "1",
    ]));
    a.extend(mp4_args(Some(meta)));
    a.extend(args(["-f", "mp4"]));
    a.push(tmp.display().to_string());
    if let Err(e) = ffmpeg::run("ffmpeg", &a, Duration::from_secs(300)).await {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e);
    }
    tokio::fs::rename(&tmp, dst).await?;
    Ok(())
}

/// The speech of a cued file ([`audio_with_cue`]) without its cue, by stream copy (cut at the AAC
/// frame at or after the cue's end: within 21 ms), keeping the label: a voice-over for a mix, whose
/// video carries the visible label instead.
pub async fn without_cue(cued: &Path, dst: &Path, meta: &str) -> Result<(), ToolError> {
    copy_labelled(cued, dst, meta, audio_cue_ms()).await
}

/// Generated speech made for a mix (no cue: the videos made of it carry the visible label) with the
/// implicit label `meta`, by stream copy.
pub async fn label_audio(speech: &Path, dst: &Path, meta: &str) -> Result<(), ToolError> {
    copy_labelled(speech, dst, meta, 0).await
}

/// The audio of `src` from `start_ms` on, stream-copied into an M4A at `dst` carrying `meta`.
async fn copy_labelled(src: &Path, dst: &Path, meta: &str, start_ms: i64) -> Result<(), ToolError> {
    let tmp = dst.with_extension(format!("{}.plain.m4a", std::process::id()));
    let mut a = args(["-v", "error", "-y", "-nostdin"]);
    if start_ms > 0 {
        a.extend(args([
            "-ss".to_string(),
            format!("{:.3}", start_ms as f64 / 1000.0),
        ]));
    }
    a.extend(args(["-i".to_string(), src.display().to_string()]));
    a.extend(args(["-map", "0:a", "-c", "copy"]));
    a.extend(mp4_args(Some(meta)));
    a.extend(args(["-f", "mp4"]));
    a.push(tmp.display().to_string());
    if let Err(e) = ffmpeg::run("ffmpeg", &a, Duration::from_secs(120)).await {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e);
    }
    tokio::fs::rename(&tmp, dst).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = r#"{"Label":"1","ContentProducer":"某某科技","ProduceID":"v1"}"#;

    #[test]
    fn jpeg_and_png_carry_the_label_and_read_it_back() {
        // A minimal JPEG's head (SOI, JFIF APP0) and a PNG's (signature, IHDR, IEND) are enough: the
        // segments go before the image data.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        jpeg.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        jpeg.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]);
        assert_eq!(jpeg_tag(&jpeg), None);
        let tagged = tag_jpeg(&jpeg, META);
        assert_eq!(jpeg_tag(&tagged).as_deref(), Some(META));
        assert!(String::from_utf8_lossy(&tagged).contains("TC260:AIGC"));
        assert_eq!(tag_jpeg(&tagged, META), tagged, "labelled once");
        assert_eq!(&tagged[2..4], &[0xFF, 0xE0], "after the JFIF segment");

        let mut png = PNG_SIG.to_vec();
        let ihdr: Vec<u8> = [b"IHDR".as_slice(), &[0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]].concat();
        png.extend_from_slice(&13u32.to_be_bytes());
        png.extend_from_slice(&ihdr);
        png.extend_from_slice(&crc32(&ihdr).to_be_bytes());
        png.extend_from_slice(&[0, 0, 0, 0]);
        png.extend_from_slice(b"IEND");
        png.extend_from_slice(&crc32(b"IEND").to_be_bytes());
        let tagged = tag_png(&png, META);
        let back = png_tag(&tagged).unwrap();
        assert!(
            back.contains(r#""ContentProducer":"\u67d0\u67d0"#),
            "{back}"
        );
        let v: serde_json::Value = serde_json::from_str(&back).unwrap();
        assert_eq!(v["ContentProducer"], "某某科技");
        // The CRC of IEND is the known constant.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn the_cue_sounds_only_during_its_beeps() {
        assert_eq!(
            cue_gate(),
            "volume=0:enable='not(between(t,0.000,0.120)+between(t,0.240,0.600)+between(t,0.960,1.080)+between(t,1.200,1.320))'"
        );
    }
}
