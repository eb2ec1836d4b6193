//! Image notes (图文, issue 44 part 4): a release task of kind `image_note` posts one note — image
//! library pictures and/or frames of a finished video, 1–18 in all — once on each chosen account,
//! through the same plan, review, publisher and verification as videos. The platforms' rules and
//! which platforms take notes at all are `domain::matrix::notes`; a task naming an account whose
//! platform cannot take one is refused here, before anything is stored.

use crate::error::{ApiError, ApiResult};
use crate::matrix::videos::{Video, video};
use domain::i18n::{Lang, Msg, platform_name};
use domain::matrix::TaskReq;
use domain::matrix::notes::{self, IMAGES_MAX, IMAGES_MIN, TaskKind};
use platforms::Platform;
use store::matrix as db;

fn bad(field: &str, msg: Msg, args: Vec<(&'static str, String)>) -> ApiError {
    ApiError::invalid_with(field, msg, args)
}

fn platform_args(p: Platform) -> Vec<(&'static str, String)> {
    vec![
        ("platform.zh", platform_name(p.code(), Lang::Zh)),
        ("platform.en", platform_name(p.code(), Lang::En)),
    ]
}

/// The form's kind: empty is a video task.
pub fn kind(r: &TaskReq) -> ApiResult<TaskKind> {
    match r.kind.trim() {
        "" => Ok(TaskKind::Video),
        k => TaskKind::parse(k).ok_or_else(|| {
            bad(
                "kind",
                Msg::InvalidValue,
                vec![("reason", "video | image_note".into())],
            )
        }),
    }
}

/// The library pictures in the form's order, each once.
pub fn image_ids(r: &TaskReq) -> Vec<i64> {
    let mut out: Vec<i64> = vec![];
    for id in &r.image_ids {
        if !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

/// The note's checks: every account's platform takes notes, 1–18 pictures, library pictures of
/// the merchant's that are ready, a finished video for the frames, and each platform's own limits
/// (count, size, format). Answers one post per account, as the plan's "videos".
pub async fn check(
    d: &store::Db,
    mid: i64,
    name: &str,
    accounts: &[db::Account],
    r: &TaskReq,
) -> ApiResult<Vec<Video>> {
    let mut platforms: Vec<Platform> = vec![];
    for a in accounts {
        if !platforms.contains(&a.platform) {
            platforms.push(a.platform);
        }
    }
    if let Some(p) = platforms.iter().find(|p| notes::note_rules(**p).is_none()) {
        return Err(bad("account_ids", Msg::NoteNotTaken, platform_args(*p)));
    }
    let ids = image_ids(r);
    let frames = match &r.frames {
        None => 0,
        Some(f) if f.count < 1 || f.count as usize > notes::FRAMES_MAX => {
            return Err(bad(
                "frames",
                Msg::InvalidValue,
                vec![("reason", format!("1–{}", notes::FRAMES_MAX))],
            ));
        }
        Some(f) => {
            if video(d, mid, &format!("v:{}", f.video_id)).await?.is_none() {
                return Err(bad(
                    "frames",
                    Msg::VideoUnusable,
                    vec![("name", f.video_id.to_string())],
                ));
            }
            f.count as usize
        }
    };
    let total = ids.len() + frames;
    if !(IMAGES_MIN..=IMAGES_MAX).contains(&total) {
        return Err(bad(
            "image_ids",
            Msg::NoteImagesCount,
            vec![
                ("min", IMAGES_MIN.to_string()),
                ("max", IMAGES_MAX.to_string()),
                ("count", total.to_string()),
            ],
        ));
    }
    let rows = store::materials::get_many(d, mid, &ids).await?;
    let mut largest = 0i64;
    let mut exts: Vec<String> = vec![];
    if frames > 0 {
        exts.push("jpg".into());
    }
    for id in &ids {
        let m = rows.iter().find(|m| m.id == *id).filter(|m| {
            m.kind == domain::materials::MediaKind::Image
                && m.library == "image"
                && m.state == domain::materials::IngestState::Ready
        });
        let Some(m) = m else {
            return Err(bad(
                "image_ids",
                Msg::NoteImageUnusable,
                vec![("name", id.to_string())],
            ));
        };
        largest = largest.max(m.size);
        let ext = ext_of(&m.original_name, &m.mime);
        if !exts.contains(&ext) {
            exts.push(ext);
        }
    }
    for p in &platforms {
        if let Some((what, max, value)) = notes::note_broken(*p, total, largest, &exts) {
            let (zh, en) = match what {
                "images" => ("图片张数", "number of images"),
                "size" => ("单张图片大小", "size of one image"),
                _ => ("图片格式", "image format"),
            };
            let mut args = platform_args(*p);
            args.extend([
                ("what.zh", zh.to_string()),
                ("what.en", en.to_string()),
                ("max", max),
                ("value", value),
            ]);
            return Err(bad("image_ids", Msg::NoteRuleBroken, args));
        }
    }
    Ok(accounts
        .iter()
        .map(|a| Video {
            key: format!("n:{}", a.id),
            name: format!("{name} · {total}P"),
            storage_key: String::new(),
        })
        .collect())
}

/// A picture's extension (lower case, no dot), from its file name or else its type.
fn ext_of(name: &str, mime: &str) -> String {
    let from_name = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| e.len() <= 5);
    from_name.unwrap_or_else(|| {
        mime.rsplit('/')
            .next()
            .unwrap_or_default()
            .replace("jpeg", "jpg")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_come_from_the_name_or_the_type() {
        assert_eq!(ext_of("a.JPG", "image/jpeg"), "jpg");
        assert_eq!(ext_of("noext", "image/jpeg"), "jpg");
        assert_eq!(ext_of("x.webp", ""), "webp");
    }
}
