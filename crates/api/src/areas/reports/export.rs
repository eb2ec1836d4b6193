//! The reports as spreadsheets: the same rows as the lists, the headers and names in the reader's
//! language.

use crate::export::{Cell, Table, header};
use domain::i18n::Lang;
use domain::matrix::china_time;
use domain::reports::Dimension;
use services::reports::{self as db, Attribution, DeliveryRow, Series, StoredReason};

/// The name of an attribution row: the imported videos' row is named in the reader's words.
pub fn label(a: &Attribution, lang: Lang) -> String {
    if a.imported {
        domain::i18n::Msg::ImportedVideos.render(lang, &[])
    } else {
        a.label.clone()
    }
}

/// A failure reason in the reader's language.
pub fn reason(r: &StoredReason, lang: Lang) -> String {
    crate::words::failure(&r.code, &r.args, &r.zh, &r.en, lang)
}

const FIGURE_COLS: [(&str, &str); 5] = [
    ("播放", "Plays"),
    ("点赞", "Likes"),
    ("评论", "Comments"),
    ("分享", "Shares"),
    ("发布", "Posts"),
];

/// The follower columns: a platform without a follower API (BJH) has none rather than zeros.
const FOLLOWER_COLS: [(&str, &str); 2] = [("粉丝数", "Followers"), ("粉丝增长", "Follower gain")];

pub fn series_table(s: &Series, followers: bool, lang: Lang) -> Table {
    let mut cols = vec![("日期", "Day")];
    cols.extend(FIGURE_COLS);
    cols.push(("失败", "Failed"));
    if followers {
        cols.extend(FOLLOWER_COLS);
    }
    Table {
        header: header(lang, &cols),
        rows: (0..s.days.len())
            .map(|i| {
                let mut row = vec![
                    s.days[i].as_str().into(),
                    Cell::Int(s.plays[i]),
                    Cell::Int(s.likes[i]),
                    Cell::Int(s.comments[i]),
                    Cell::Int(s.shares[i]),
                    Cell::Int(s.posts[i]),
                    Cell::Int(s.failed[i]),
                ];
                if followers {
                    row.push(Cell::Int(s.followers[i]));
                    row.push(Cell::Int(s.follower_gain[i]));
                }
                row
            })
            .collect(),
    }
}

pub fn account_table(rows: &[db::AccountFigures], followers: bool, lang: Lang) -> Table {
    let mut cols = vec![("账号", "Account"), ("平台", "Platform")];
    cols.extend(FIGURE_COLS);
    if followers {
        cols.extend(FOLLOWER_COLS);
    }
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|r| {
                let mut row = vec![
                    r.nickname.as_str().into(),
                    r.platform.as_str().into(),
                    Cell::Int(r.f.plays),
                    Cell::Int(r.f.likes),
                    Cell::Int(r.f.comments),
                    Cell::Int(r.f.shares),
                    Cell::Int(r.f.posts),
                ];
                if followers {
                    row.push(Cell::Int(r.f.followers));
                    row.push(Cell::Int(r.f.follower_gain));
                }
                row
            })
            .collect(),
    }
}

pub fn video_table(rows: &[db::VideoFigures], lang: Lang) -> Table {
    let cols = [
        ("标题", "Title"),
        ("账号", "Account"),
        ("平台", "Platform"),
        ("发布时间", "Published at"),
        ("播放", "Plays"),
        ("点赞", "Likes"),
        ("评论", "Comments"),
        ("分享", "Shares"),
        ("链接", "Link"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.title.as_str().into(),
                    r.nickname.as_str().into(),
                    r.platform.as_str().into(),
                    china_time(r.published_at).into(),
                    Cell::Int(r.plays),
                    Cell::Int(r.likes),
                    Cell::Int(r.comments),
                    Cell::Int(r.shares),
                    r.share_url.as_str().into(),
                ]
            })
            .collect(),
    }
}

pub fn attribution_table(rows: &[Attribution], dim: Dimension, lang: Lang) -> Table {
    let what = match dim {
        Dimension::Clip => ("镜头素材", "Clip"),
        Dimension::Group => ("镜头组", "Shot group"),
        Dimension::Title => ("标题", "Title"),
        Dimension::Voice => ("配音", "Voice-over"),
        Dimension::Project => ("混剪项目", "Project"),
    };
    let cols = [
        what,
        ("发布数", "Posts"),
        ("播放", "Plays"),
        ("点赞", "Likes"),
        ("条均播放", "Plays per post"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    label(r, lang).into(),
                    Cell::Int(r.posts),
                    Cell::Int(r.plays),
                    Cell::Int(r.likes),
                    Cell::Int(r.per_post),
                ]
            })
            .collect(),
    }
}

pub fn delivery_table(rows: &[DeliveryRow], lang: Lang) -> Table {
    let cols = [
        ("任务", "Task"),
        ("平台", "Platform"),
        ("创建时间", "Created at"),
        ("计划", "Planned"),
        ("已发布", "Published"),
        ("失败", "Failed"),
        ("审核驳回", "Rejected"),
        ("播放", "Plays"),
        ("失败原因", "Failure reasons"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|r| {
                let why = r
                    .reasons
                    .iter()
                    .map(|(t, n)| format!("{} ×{n}", reason(t, lang)))
                    .collect::<Vec<_>>()
                    .join("; ");
                vec![
                    r.d.name.as_str().into(),
                    domain::i18n::platform_name(r.d.platform.as_str(), lang).into(),
                    china_time(r.d.created_at).into(),
                    Cell::Int(r.d.planned),
                    Cell::Int(r.d.published),
                    Cell::Int(r.d.failed),
                    Cell::Int(r.d.rejected),
                    Cell::Int(r.d.plays),
                    why.into(),
                ]
            })
            .collect(),
    }
}

pub fn staff_table(rows: &[db::StaffActivity], lang: Lang) -> Table {
    let cols = [
        ("账号", "User"),
        ("操作数", "Operations"),
        ("被拒绝", "Refused"),
        ("创建发布任务", "Release tasks"),
        ("发起合成", "Render batches"),
        ("最近操作", "Last active"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.username.as_str().into(),
                    Cell::Int(r.actions),
                    Cell::Int(r.refused),
                    Cell::Int(r.tasks),
                    Cell::Int(r.renders),
                    china_time(r.last_at).into(),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::platform::TaskPlatform;

    /// The delivery export names the platform (it wrote the raw code: "dy", "mixed").
    #[test]
    fn the_delivery_export_names_platforms() {
        let row = |platform: TaskPlatform| DeliveryRow {
            d: db::Delivery {
                task_id: 1,
                name: "防晒帽".into(),
                platform,
                created_at: 0,
                planned: 2,
                published: 1,
                failed: 0,
                rejected: 0,
                plays: 0,
            },
            reasons: vec![],
        };
        let rows = [row(TaskPlatform::Dy), row(TaskPlatform::Mixed)];
        let names = |lang| {
            delivery_table(&rows, lang)
                .rows
                .iter()
                .map(|r| match &r[1] {
                    Cell::Text(t) => t.clone(),
                    Cell::Int(n) => n.to_string(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(names(Lang::Zh), ["抖音", "多平台"]);
        assert_eq!(names(Lang::En), ["Douyin", "Several platforms"]);
    }
}
