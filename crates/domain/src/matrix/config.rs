//! A release task's config (`matrix_tasks.config`, JSON as TEXT): what the task form chose that the
//! task's columns do not hold, read back by the task list (titles, topics, mount, accounts), the
//! publisher (topics, @-users, mounts) and the form (the mini programs used before).

use super::{ContentDeclaration, MountType};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The task form's mount and place fields: which mount type needs which is `MountType`'s rule
/// (the release check); the publisher sends them. The form and the stored config share them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct MountFields {
    pub province: String,
    pub city: String,
    pub merchant_abbr: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub mini_app_id: String,
    pub mini_app_title: String,
    pub mini_app_url: String,
    pub official_title: String,
    pub official_url: String,
    pub product_id: String,
}

/// The stored config. Every field has a default, so rows written by older versions (with fields
/// this type no longer names, or without some it names) still load; a config that is no JSON
/// object at all loads as the default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskConfig {
    /// As the task form sent them ('title one#title two').
    pub titles: String,
    /// The checked titles, one each.
    pub titles_list: Vec<String>,
    /// The checked topics, without '#'.
    pub topics: Vec<String>,
    /// As the form sent them, one per line.
    pub top_comments: String,
    /// The checked comment scripts.
    pub comments_list: Vec<String>,
    pub at_users: Vec<String>,
    #[serde(deserialize_with = "mount_or_none")]
    pub mount_type: MountType,
    /// What the posts mount and where (stored at the top level, as the form sends them).
    #[serde(flatten)]
    pub mount: MountFields,
    /// `HH:mm`, as the form sent them.
    pub times: Vec<String>,
    pub account_ids: Vec<i64>,
    pub video_ids: Vec<i64>,
    pub material_ids: Vec<i64>,
    pub publish_count: Option<i64>,
    /// The posts' content declaration (`auto` in tasks from before declarations).
    pub declaration: ContentDeclaration,
    /// Image notes: the image-library pictures in order, then the frames of a finished video
    /// (grabbed when the first post goes out, kept under `notes/<merchant>/<task>/`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub image_ids: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<super::NoteFrames>,
}

/// A stored mount type; an unknown word (never written, the form is checked) reads as `none`.
fn mount_or_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<MountType, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    Ok(s.as_deref()
        .and_then(MountType::parse)
        .unwrap_or(MountType::None))
}

impl TaskConfig {
    /// The stored text; any text that is not a config object loads as the default.
    pub fn read(text: &str) -> TaskConfig {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The text to store.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The mini program the posts mount, when they mount one.
    pub fn mini_program(&self) -> Option<(&str, &str, &str)> {
        (self.mount_type == MountType::MiniProgram).then_some((
            self.mount.mini_app_id.as_str(),
            self.mount.mini_app_title.as_str(),
            self.mount.mini_app_url.as_str(),
        ))
    }
}

/// What one post carries when it differs from its task's form (`matrix_item_posts.post`): a release
/// batch imported from a sheet gives each row its own topics, @-mentions, mount and declaration.
/// The publisher reads the task's config with these in place ([`ItemPost::over`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ItemPost {
    pub topics: Vec<String>,
    pub at_users: Vec<String>,
    #[serde(deserialize_with = "mount_or_none")]
    pub mount_type: MountType,
    #[serde(flatten)]
    pub mount: MountFields,
    pub declaration: ContentDeclaration,
}

impl ItemPost {
    pub fn read(text: &str) -> ItemPost {
        serde_json::from_str(text).unwrap_or_default()
    }
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    /// The task's config as this post publishes it.
    pub fn over(&self, task: &TaskConfig) -> TaskConfig {
        TaskConfig {
            topics: self.topics.clone(),
            at_users: self.at_users.clone(),
            mount_type: self.mount_type,
            mount: self.mount.clone(),
            declaration: self.declaration,
            ..task.clone()
        }
    }
}

/// What store rows decode the column through (`#[sqlx(try_from = "String")]`).
impl From<String> for TaskConfig {
    fn from(text: String) -> TaskConfig {
        TaskConfig::read(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_rows_load() {
        // A config as versions before this type stored it: the whole form, with fields it no
        // longer names (name, preview, seed, approved …).
        let old = r#"{"platform":"dy","name":"T","titles":"a#b","titles_list":["a","b"],
            "topics":["x"],"top_comments":"hi","comments_list":["hi"],"at_users":["@u"],
            "mount_type":"mini_program","mini_app_id":"tt1","mini_app_title":"M","mini_app_url":"u",
            "time_mode":"timed","start_date":"2026-01-01","daily_quantity":1,"days":1,
            "times":["09:00"],"account_ids":[1,2],"video_ids":[3],"material_ids":[],
            "publish_count":null,"preview":false,"seed":7,"planned_at":1,"approved":null}"#;
        let c = TaskConfig::read(old);
        assert_eq!(c.titles, "a#b");
        assert_eq!(c.topics, ["x"]);
        assert_eq!(c.account_ids, [1, 2]);
        assert_eq!(c.mount_type, MountType::MiniProgram);
        assert_eq!(c.mini_program(), Some(("tt1", "M", "u")));
        // Written back, it reads the same.
        assert_eq!(TaskConfig::read(&c.to_text()), c);
    }

    #[test]
    fn missing_empty_and_broken_configs_load_as_defaults() {
        assert_eq!(TaskConfig::read(""), TaskConfig::default());
        assert_eq!(TaskConfig::read("not json"), TaskConfig::default());
        assert_eq!(TaskConfig::read("{}").mount_type, MountType::None);
        let c = TaskConfig::read(r#"{"mount_type":"","topics":["t"]}"#);
        assert_eq!(
            (c.mount_type, c.topics),
            (MountType::None, vec!["t".into()])
        );
        assert_eq!(
            TaskConfig::read(r#"{"mount_type":"rocket"}"#).mount_type,
            MountType::None
        );
        assert_eq!(
            TaskConfig::read(r#"{"mount_type":null}"#).mount_type,
            MountType::None
        );
        assert_eq!(
            TaskConfig::read(r#"{"mount_type":"poi"}"#).mini_program(),
            None
        );
        assert_eq!(TaskConfig::from(String::from("{}")), TaskConfig::default());
    }
}
