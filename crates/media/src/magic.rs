//! What a file is, decided by its first bytes, never by its name or the browser's MIME type.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Jpeg,
    Png,
    Gif,
    Ico,
    /// MP4 / MOV / M4V (ISO base media with a video brand).
    Mp4,
    /// Matroska / WebM.
    Mkv,
    Avi,
    Flv,
    /// M4A / AAC in ISO base media.
    M4a,
    Mp3,
    Aac,
    Wav,
    Ogg,
    Flac,
    Ttf,
    Otf,
    /// Something we refuse: executables, archives, unknown bytes.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Image,
    Video,
    Audio,
    Font,
    Other,
}

impl Kind {
    pub fn class(self) -> Class {
        use Kind::*;
        match self {
            Jpeg | Png | Gif | Ico => Class::Image,
            Mp4 | Mkv | Avi | Flv => Class::Video,
            M4a | Mp3 | Aac | Wav | Ogg | Flac => Class::Audio,
            Ttf | Otf => Class::Font,
            Other => Class::Other,
        }
    }

    /// The extension files of this kind are stored with.
    pub fn ext(self) -> &'static str {
        use Kind::*;
        match self {
            Jpeg => "jpg",
            Png => "png",
            Gif => "gif",
            Ico => "ico",
            Mp4 => "mp4",
            Mkv => "mkv",
            Avi => "avi",
            Flv => "flv",
            M4a => "m4a",
            Mp3 => "mp3",
            Aac => "aac",
            Wav => "wav",
            Ogg => "ogg",
            Flac => "flac",
            Ttf => "ttf",
            Otf => "otf",
            Other => "bin",
        }
    }

    pub fn mime(self) -> &'static str {
        use Kind::*;
        match self {
            Jpeg => "image/jpeg",
            Png => "image/png",
            Gif => "image/gif",
            Ico => "image/x-icon",
            Mp4 => "video/mp4",
            Mkv => "video/x-matroska",
            Avi => "video/x-msvideo",
            Flv => "video/x-flv",
            M4a => "audio/mp4",
            Mp3 => "audio/mpeg",
            Aac => "audio/aac",
            Wav => "audio/wav",
            Ogg => "audio/ogg",
            Flac => "audio/flac",
            Ttf => "font/ttf",
            Otf => "font/otf",
            Other => "application/octet-stream",
        }
    }
}

/// Sniffs the kind from the first bytes (16 are enough; pass what you have).
pub fn sniff(b: &[u8]) -> Kind {
    let at = |i: usize, sig: &[u8]| b.len() >= i + sig.len() && &b[i..i + sig.len()] == sig;
    if at(0, &[0xFF, 0xD8, 0xFF]) {
        Kind::Jpeg
    } else if at(0, &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Kind::Png
    } else if at(0, b"GIF87a") || at(0, b"GIF89a") {
        Kind::Gif
    } else if at(0, &[0, 0, 1, 0]) && b.len() >= 6 && b[4] > 0 {
        Kind::Ico
    } else if at(4, b"ftyp") {
        if at(8, b"M4A ") || at(8, b"M4B ") {
            Kind::M4a
        } else {
            Kind::Mp4
        }
    } else if at(0, &[0x1A, 0x45, 0xDF, 0xA3]) {
        Kind::Mkv
    } else if at(0, b"RIFF") && at(8, b"AVI ") {
        Kind::Avi
    } else if at(0, b"RIFF") && at(8, b"WAVE") {
        Kind::Wav
    } else if at(0, b"FLV") {
        Kind::Flv
    } else if at(0, b"ID3") || (b.len() >= 2 && b[0] == 0xFF && (b[1] & 0xE6) == 0xE2) {
        Kind::Mp3
    } else if b.len() >= 2 && b[0] == 0xFF && (b[1] & 0xF6) == 0xF0 {
        Kind::Aac
    } else if at(0, b"OggS") {
        Kind::Ogg
    } else if at(0, b"fLaC") {
        Kind::Flac
    } else if at(0, &[0, 1, 0, 0]) || at(0, b"true") {
        Kind::Ttf
    } else if at(0, b"OTTO") {
        Kind::Otf
    } else {
        Kind::Other
    }
}

/// A safe display name: the last path component, control characters and separators removed,
/// at most 120 characters. `None` when nothing usable is left.
pub fn clean_name(name: &str) -> Option<String> {
    let last = name.rsplit(['/', '\\']).next().unwrap_or("");
    let cleaned: String = last.chars().filter(|c| !c.is_control()).take(120).collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_string();
    if cleaned.is_empty() || cleaned == ".." {
        None
    } else {
        Some(cleaned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_by_content() {
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), Kind::Jpeg);
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Kind::Png);
        assert_eq!(sniff(b"GIF89a......"), Kind::Gif);
        assert_eq!(sniff(b"\0\0\0\x20ftypisom\0\0\x02\0"), Kind::Mp4);
        assert_eq!(sniff(b"\0\0\0\x20ftypM4A \0\0\x02\0"), Kind::M4a);
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt "), Kind::Wav);
        assert_eq!(sniff(b"ID3\x04\0\0\0\0"), Kind::Mp3);
        assert_eq!(sniff(&[0, 1, 0, 0, 0, 0x10]), Kind::Ttf);
        assert_eq!(sniff(b"OTTO\0\x0b"), Kind::Otf);
        // A renamed executable stays an executable.
        assert_eq!(sniff(b"MZ\x90\0\x03\0\0\0"), Kind::Other);
        assert_eq!(sniff(b"\x7fELF\x02\x01\x01"), Kind::Other);
        assert_eq!(sniff(b""), Kind::Other);
    }

    #[test]
    fn names_lose_their_paths() {
        assert_eq!(clean_name("../../etc/passwd").as_deref(), Some("passwd"));
        assert_eq!(
            clean_name("C:\\\\x\\\\clip.mp4").as_deref(),
            Some("clip.mp4")
        );
        assert_eq!(clean_name("..").as_deref(), None);
        assert_eq!(clean_name("a\nb.mp4").as_deref(), Some("ab.mp4"));
        assert_eq!(clean_name("").as_deref(), None);
    }
}
