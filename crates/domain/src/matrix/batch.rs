//! A release batch (issue 44): one release task from a sheet with one row per post — its video,
//! account (or a group to pick one from), title, topics, @-mentions, time, mount and declaration,
//! in the release-task form's vocabulary. The console edits the rows as a table before sending
//! them; every cell travels as the text the sheet held, the release check reads it
//! (`services::matrix::tasks::batch`).

use super::{ContentDeclaration, MountType};
use crate::sheet::{Column, col};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The sheet's columns in order (the template's header).
pub const COLUMNS: [Column; 12] = [
    col("video", "视频编号", "Video ID"),
    col("account", "账号", "Account"),
    col("group", "分组", "Group"),
    col("title", "标题", "Title"),
    col("topics", "话题", "Topics"),
    col("at_users", "@用户", "Mentions"),
    col("time", "发布时间", "Publish time"),
    col("mount_type", "挂载类型", "Mount type"),
    col("mount_id", "挂载编号", "Mount ID"),
    col("mount_title", "挂载标题", "Mount title"),
    col("mount_url", "挂载链接", "Mount link"),
    col("declaration", "内容声明", "Declaration"),
];

/// A column by its key.
pub fn column(key: &str) -> Column {
    COLUMNS
        .iter()
        .copied()
        .find(|c| c.key == key)
        .unwrap_or(COLUMNS[0])
}

/// One post of a batch, every cell as text (as the sheet or the console's table holds it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(default)]
pub struct BatchRow {
    /// The row's number in the sheet (the header is row 1); rows added in the console have none
    /// and are numbered by their place.
    pub row: Option<i64>,
    /// A finished video's id (the video library).
    pub video: String,
    /// An account's id or nickname…
    pub account: String,
    /// …or a group's name: the post goes to the group's usable account with the fewest posts that
    /// day in the batch.
    pub group: String,
    pub title: String,
    /// Separated by spaces, commas or `、`; a leading `#` is dropped.
    pub topics: String,
    pub at_users: String,
    /// China time, `YYYY-MM-DD HH:mm` (or a spreadsheet date).
    pub time: String,
    /// none | poi | mini_program | official | product (or the console's words for them).
    pub mount_type: String,
    /// The POI's, mini program's or product's id.
    pub mount_id: String,
    /// The POI's name, the mini program's or official account's title.
    pub mount_title: String,
    /// The mini program's path or the official account's article link.
    pub mount_url: String,
    /// auto | none | original | ai_generated | reposted | fiction (or the console's words).
    pub declaration: String,
}

/// What creating a batch sends: the task's name and its rows.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(default)]
pub struct BatchReq {
    #[schema(max_length = 50)]
    pub name: String,
    #[schema(max_items = 2000)]
    pub rows: Vec<BatchRow>,
    /// Only check the rows (answers their errors; nothing is stored).
    pub check: bool,
}

fn word<T: Copy>(s: &str, words: &[(&[&str], T)]) -> Option<T> {
    let s = s.trim().to_lowercase().replace([' ', '-'], "");
    words
        .iter()
        .find(|(names, _)| names.iter().any(|n| n.replace(' ', "") == s))
        .map(|(_, v)| *v)
}

/// A mount type cell: the form's word or the console's (zh / en); empty is none.
pub fn mount_word(s: &str) -> Option<MountType> {
    use MountType as M;
    word(
        s,
        &[
            (&["", "none", "不挂载", "无"], M::None),
            (&["poi", "poi地址", "地址", "poi(location)"], M::Poi),
            (&["mini_program", "miniprogram", "小程序"], M::MiniProgram),
            (
                &["official", "公众号", "公众号链接", "officialaccountlink"],
                M::Official,
            ),
            (&["product", "商品"], M::Product),
        ],
    )
}

/// A declaration cell: the form's word or the console's (zh / en); empty is auto.
pub fn declaration_word(s: &str) -> Option<ContentDeclaration> {
    use ContentDeclaration as D;
    word(
        s,
        &[
            (&["", "auto", "按视频", "自动", "byvideo"], D::Auto),
            (&["none", "不声明", "nodeclaration"], D::None),
            (&["original", "原创"], D::Original),
            (
                &["ai_generated", "aigenerated", "ai生成", "ai"],
                D::AiGenerated,
            ),
            (&["reposted", "转载"], D::Reposted),
            (&["fiction", "虚构", "虚构演绎"], D::Fiction),
        ],
    )
}

pub const MOUNT_WORDS: &str = "none | poi | mini_program | official | product";
pub const DECLARATION_WORDS: &str = "auto | none | original | ai_generated | reposted | fiction";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_read_in_either_language() {
        assert_eq!(mount_word(""), Some(MountType::None));
        assert_eq!(mount_word("小程序"), Some(MountType::MiniProgram));
        assert_eq!(mount_word("Mini-program"), Some(MountType::MiniProgram));
        assert_eq!(mount_word("POI"), Some(MountType::Poi));
        assert_eq!(mount_word("rocket"), None);
        assert_eq!(
            declaration_word("AI 生成"),
            Some(ContentDeclaration::AiGenerated)
        );
        assert_eq!(declaration_word("原创"), Some(ContentDeclaration::Original));
        assert_eq!(declaration_word(" "), Some(ContentDeclaration::Auto));
        assert_eq!(declaration_word("maybe"), None);
    }
}
