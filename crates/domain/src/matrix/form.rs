//! The release-task form (docs/api-matrix.md `TaskReq`): what the console sends to preview and to
//! create a task. Its words stay plain text here (platform, mount type, time mode) so the release
//! check answers an unknown one with SPEC's message; the document still lists their values.

use super::config::MountFields;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(default)]
pub struct TaskReq {
    #[schema(value_type = Option<crate::platform::Platform>)]
    pub platform: Option<String>,
    // required: no default in the document (the container default would be an invalid "")
    #[schema(required = true, default, min_length = 1, max_length = 50)]
    pub name: String,
    pub titles: String,
    pub topics: Vec<String>,
    pub top_comments: String,
    pub at_users: Vec<String>,
    /// One of `MountType`'s words; empty is `none`.
    #[schema(value_type = super::MountType, default)]
    pub mount_type: String,
    #[serde(flatten)]
    pub mount: MountFields,
    /// One of `ContentDeclaration`'s words; empty is `auto` (declared by the videos).
    #[schema(value_type = super::ContentDeclaration, default)]
    pub declaration: String,
    #[schema(required = true, default, value_type = super::TimeMode)]
    pub time_mode: String,
    /// `YYYY-MM-DD`, today or later.
    #[schema(required = true, default, format = Date)]
    pub start_date: String,
    #[schema(required = true, default, minimum = 1, maximum = 3)]
    pub daily_quantity: i64,
    #[schema(required = true, default, minimum = 1, maximum = 90)]
    pub days: i64,
    pub times: Vec<String>,
    #[schema(required = true, default, min_items = 1)]
    pub account_ids: Vec<i64>,
    pub video_ids: Vec<i64>,
    pub material_ids: Vec<i64>,
    /// `video` (empty) or `image_note`: an image note posts `image_ids` and/or `frames` (1–18 in
    /// all, in that order) once on each chosen account instead of videos.
    #[schema(value_type = super::TaskKind, default)]
    pub kind: String,
    /// Image-library pictures of the note, in order.
    #[schema(max_items = 18)]
    pub image_ids: Vec<i64>,
    /// Frames grabbed from a finished video for the note (after `image_ids`).
    pub frames: Option<NoteFrames>,
    #[schema(minimum = 1)]
    pub publish_count: Option<i64>,
    /// Refuse the task (instead of warning) when a post's duplicate risk against its account's own
    /// history is high (`domain::clip::risk::HIGH`).
    pub refuse_duplicates: bool,
    pub preview: bool,
    /// The preview's seed: confirming with it stores the plan that was shown.
    pub seed: Option<i64>,
    /// The preview's `planned_at`: confirming plans from that instant again, so a minute passing
    /// between preview and confirm does not move the times.
    pub planned_at: Option<i64>,
    /// The posts the merchant approved (the preview's items): the task stores exactly these, or the
    /// confirm is refused (`plan`) when they are no longer possible.
    pub approved: Option<Vec<ApprovedPost>>,
}

/// Frames of a finished video (a variant of the video library) for an image note: `count` of
/// them, evenly spaced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
pub struct NoteFrames {
    pub video_id: i64,
    #[schema(minimum = 1, maximum = 18)]
    pub count: i64,
}

/// One post of the plan the merchant approved.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
pub struct ApprovedPost {
    pub account_id: i64,
    pub video_key: String,
    pub at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_fields_come_from_the_top_level() {
        let r: TaskReq = serde_json::from_str(
            r#"{"name":"T","mount_type":"poi","poi_id":"p1","city":"杭州","days":2}"#,
        )
        .unwrap();
        assert_eq!(
            (r.mount.poi_id.as_str(), r.mount.city.as_str()),
            ("p1", "杭州")
        );
        assert_eq!((r.mount_type.as_str(), r.days), ("poi", 2));
        let back = serde_json::to_value(&r).unwrap();
        assert_eq!(back["poi_id"], "p1");
    }
}
