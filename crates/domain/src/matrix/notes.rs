//! Image notes (图文, issue 44 part 4): a release task of kind `image_note` posts 1–18 images with
//! its title and text instead of a video. Which platforms take one, and their own limits, each
//! number with where it comes from (PLATFORMS.md: never a protocol or a rule of our own design).
//!
//! - Douyin (open platform): `POST /api/douyin/v1/video/upload_image/` (multipart `image`) gives
//!   an `image_id` per picture, `POST /api/douyin/v1/video/create_image_text/` posts them
//!   (`image_list`, scope `video.create.bind`): "单张图片最大支持 20M，每次最多上传 30 张图片"
//!   (the open platform's create_image_text page, as quoted at blog.csdn.net/buda_l/article/details/130852833).
//! - Xiaohongshu (creator console, 上传图文 tab): at most 18 images a note (the console's own cap,
//!   the number issue 44 names), jpg / png / webp (the formats xiaohongshu-mcp's
//!   `xiaohongshu/publish.go` feeds the tab's file input; its `publish-workflow.md`). We found no
//!   published size limit, so the product's own 20 MB applies.
//! - Not taken (refused when the task is created, naming the platform): Kuaishou's open API
//!   publishes a video upload only (`/openapi/photo/publish` takes an `upload_token` of a video);
//!   Baijiahao's developer service publishes a video by URL (`/resource/video/publish`); WeChat
//!   Channels' and the Douyin shop's creator consoles do have image posts, but clipmatrix's flows for
//!   them drive the video form only (`platforms::browser::{sph, shop}`), so they are refused until
//!   those flows learn the image tab.

use crate::platform::Platform;
use serde::Serialize;

crate::text_enum! {
    /// What a release task posts (`matrix_tasks.kind`).
    #[derive(Default)]
    pub enum TaskKind {
        #[default]
        Video = "video",
        ImageNote = "image_note",
    }
}

/// The product's own bounds of a note's images (issue 44: 1–18).
pub const IMAGES_MIN: usize = 1;
pub const IMAGES_MAX: usize = 18;
/// The product's cap of one picture (the stricter of the platforms' below).
pub const IMAGE_BYTES_MAX: i64 = 20 * 1024 * 1024;
/// Frames grabbed from one finished video for a note.
pub const FRAMES_MAX: usize = IMAGES_MAX;

/// One platform's limits for an image note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NoteRules {
    pub platform: Platform,
    pub images_max: usize,
    pub image_bytes_max: i64,
    /// File extensions the platform takes.
    pub formats: &'static [&'static str],
    pub sources: &'static str,
}

const DY: NoteRules = NoteRules {
    platform: Platform::Dy,
    images_max: 30,
    image_bytes_max: 20 * 1024 * 1024,
    formats: &["jpg", "jpeg", "png", "webp"],
    sources: "open.douyin.com create_image_text (≤ 30 images, ≤ 20 MB each)",
};

const XHS: NoteRules = NoteRules {
    platform: Platform::Xhs,
    images_max: 18,
    image_bytes_max: IMAGE_BYTES_MAX,
    formats: &["jpg", "jpeg", "png", "webp"],
    sources: "creator.xiaohongshu.com 上传图文; xiaohongshu-mcp publish.go",
};

/// The platform's image-note rules, or None when clipmatrix cannot post an image note there.
pub const fn note_rules(p: Platform) -> Option<&'static NoteRules> {
    match p {
        Platform::Dy => Some(&DY),
        Platform::Xhs => Some(&XHS),
        Platform::Ks | Platform::Sph | Platform::Bjh | Platform::Shop => None,
    }
}

/// The first limit `n` images of `ext` extensions (lower case, no dot) and `bytes` sizes break on
/// `p`: (what, max, value). What is `images`, `size` or `format`.
pub fn note_broken(
    p: Platform,
    n: usize,
    largest_bytes: i64,
    exts: &[String],
) -> Option<(&'static str, String, String)> {
    let r = note_rules(p)?;
    if n > r.images_max {
        return Some(("images", r.images_max.to_string(), n.to_string()));
    }
    if largest_bytes > r.image_bytes_max {
        return Some((
            "size",
            format!("{} MB", r.image_bytes_max / 1024 / 1024),
            format!("{:.1} MB", largest_bytes as f64 / 1024.0 / 1024.0),
        ));
    }
    if let Some(bad) = exts.iter().find(|e| !r.formats.contains(&e.as_str())) {
        return Some(("format", r.formats.join(" / "), bad.clone()));
    }
    None
}

/// The item key of a note's post on one account: the note is posted once per account, so the key
/// names the task's plan (`planned_at`, `seed`: the confirm sends both back) and the account.
pub fn note_key(planned_at: i64, seed: u64, account_id: i64) -> String {
    format!("n:{planned_at}-{seed}:{account_id}")
}

/// Is an item key a note's (`note_key`)?
pub fn is_note_key(key: &str) -> bool {
    key.starts_with("n:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_douyin_and_xiaohongshu_take_notes() {
        assert!(note_rules(Platform::Dy).is_some());
        assert!(note_rules(Platform::Xhs).is_some());
        for p in [Platform::Ks, Platform::Sph, Platform::Bjh, Platform::Shop] {
            assert!(note_rules(p).is_none());
        }
    }

    #[test]
    fn limits_are_named() {
        let jpg = vec!["jpg".to_string()];
        assert_eq!(note_broken(Platform::Xhs, 18, 1, &jpg), None);
        assert_eq!(
            note_broken(Platform::Xhs, 19, 1, &jpg).map(|b| b.0),
            Some("images")
        );
        assert_eq!(
            note_broken(Platform::Dy, 2, 21 * 1024 * 1024, &jpg).map(|b| b.0),
            Some("size")
        );
        assert_eq!(
            note_broken(Platform::Dy, 2, 1, &["gif".to_string()]).map(|b| b.0),
            Some("format")
        );
        assert!(is_note_key(&note_key(1, 2, 3)));
        assert!(!is_note_key("v:3"));
    }
}
