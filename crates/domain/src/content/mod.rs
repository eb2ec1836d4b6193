//! Operator-managed content (area `content`): courses of the four course pages, home banners and the
//! update log. Rules only; the texts live in `i18n::Msg`.

pub mod hotlists;

use crate::i18n::Msg;
use crate::validate::{self, Invalid};

crate::text_enum! {
    /// The course page a course is listed on (SPEC §2 "Courses": /account, /Popular, /course, /shot_tutorial).
    pub enum Category as "ContentCategory" {
        /// Account operation (/account).
        Account = "account",
        /// Popular / trending know-how (/Popular).
        Popular = "popular",
        /// General courses (/course).
        Course = "course",
        /// Shooting tutorials (/shot_tutorial).
        Shot = "shot",
    }
}

crate::text_enum! {
    /// What opening a course shows: a video (played in the page) or rich text (zh + en).
    pub enum Kind as "CourseKind" {
        Video = "video",
        Rich = "rich",
    }
}

pub const TITLE_MAX: usize = 100;
pub const SUMMARY_MAX: usize = 300;
/// Rich text of one language (a small Markdown subset the console renders without HTML).
pub const BODY_MAX: usize = 100_000;
pub const LINK_MAX: usize = 1_000;
pub const VERSION_MAX: usize = 32;
pub const NOTES_MAX: usize = 5_000;
pub const SORT_MAX: i64 = 1_000_000;

crate::text_enum! {
    /// What an uploaded course file is (`content_files.kind`).
    pub enum FileKind as "CourseFileKind" {
        Video = "video",
        Image = "image",
    }
}

/// A required one-line text: trimmed, not empty, at most `max` characters, no bidi controls.
pub fn line(field: &'static str, v: &str, max: usize) -> Result<String, Invalid> {
    let v = v.trim();
    validate::required(field, v)?;
    optional_line(field, v, max)
}

/// An optional one-line text (the English twin of a title): trimmed, at most `max` characters.
pub fn optional_line(field: &'static str, v: &str, max: usize) -> Result<String, Invalid> {
    let v = v.trim();
    validate::max_chars(field, v, max)?;
    validate::plain_text(field, v)?;
    Ok(v.to_string())
}

/// A link the console opens or plays: `http(s)://…` or a path of this site (`/files/…`), no spaces,
/// nothing else (no `javascript:`). Empty is allowed where the link is optional.
pub fn link(field: &'static str, v: &str) -> Result<String, Invalid> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(String::new());
    }
    validate::max_chars(field, v, LINK_MAX)?;
    let lower = v.to_ascii_lowercase();
    let web = ["http://", "https://"]
        .iter()
        .any(|p| lower.starts_with(p) && lower.len() > p.len());
    let own = v.starts_with('/') && !v.starts_with("//");
    if !(web || own) || v.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Invalid {
            field,
            msg: Msg::LinkInvalid,
            args: vec![],
        });
    }
    Ok(v.to_string())
}

/// Sort order: 0 ..= SORT_MAX, smaller first.
pub fn sort(field: &'static str, v: i64) -> Result<i64, Invalid> {
    if (0..=SORT_MAX).contains(&v) {
        Ok(v)
    } else {
        Err(Invalid {
            field,
            msg: Msg::InvalidValue,
            args: vec![("reason", format!("0 - {SORT_MAX}"))],
        })
    }
}

/// The text of the reader's language: English where written, else the Chinese.
pub fn pick<'a>(en: bool, zh: &'a str, en_text: &'a str) -> &'a str {
    if en && !en_text.trim().is_empty() {
        en_text
    } else {
        zh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_round_trip() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.as_str()), Some(c));
        }
        assert_eq!(Category::parse("shot_tutorial"), None);
        assert_eq!(Kind::parse("rich"), Some(Kind::Rich));
        assert_eq!(Kind::parse("html"), None);
    }

    #[test]
    fn links() {
        assert_eq!(
            link("v", " https://x.cn/a.mp4 ").unwrap(),
            "https://x.cn/a.mp4"
        );
        assert_eq!(link("v", "/files/1/original").unwrap(), "/files/1/original");
        assert_eq!(link("v", "").unwrap(), "");
        for bad in [
            "javascript:alert(1)",
            "//evil.com/x",
            "https://",
            "ftp://x",
            "http://a b",
        ] {
            let e = link("video_url", bad).unwrap_err();
            assert_eq!((e.field, e.msg), ("video_url", Msg::LinkInvalid), "{bad}");
        }
    }

    #[test]
    fn lines_and_sort() {
        assert_eq!(line("title", "  a ", 5).unwrap(), "a");
        assert_eq!(line("title", " ", 5).unwrap_err().msg, Msg::Required);
        assert_eq!(line("title", "abcdef", 5).unwrap_err().msg, Msg::TooLong);
        assert!(sort("sort", -1).is_err());
        assert_eq!(sort("sort", 7).unwrap(), 7);
        assert_eq!(pick(true, "中", ""), "中");
        assert_eq!(pick(true, "中", "en"), "en");
        assert_eq!(pick(false, "中", "en"), "中");
    }
}
