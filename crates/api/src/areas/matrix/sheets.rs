//! Accounts, release tasks and release items as spreadsheets, in the reader's language: states as
//! the console words them (`crate::download::console_word`), times in China time.

use super::views::{AccountView, ItemView, TaskView};
use crate::download::console_word;
use crate::export::{Cell, Table, china, header};
use domain::i18n::{Lang, platform_name};

pub fn accounts(rows: &[AccountView], lang: Lang) -> Table {
    let cols = [
        ("编号", "ID"),
        ("平台", "Platform"),
        ("昵称", "Nickname"),
        ("平台账号", "Platform ID"),
        ("账号类型", "Account type"),
        ("分组", "Group"),
        ("授权状态", "Authorization"),
        ("授权到期", "Expires at"),
        ("省份", "Province"),
        ("城市", "City"),
        ("POI", "POI"),
        ("备注", "Remarks"),
        ("作品数", "Videos"),
        ("播放", "Plays"),
        ("评论", "Comments"),
        ("点赞", "Likes"),
        ("授权时间", "Authorized at"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|a| {
                vec![
                    Cell::Int(a.id),
                    platform_name(a.platform.as_str(), lang).into(),
                    a.nickname.as_str().into(),
                    a.open_id.as_str().into(),
                    console_word(
                        lang,
                        "matrix",
                        &format!("accountType.{}", a.account_type.as_str()),
                    )
                    .into(),
                    a.group_name.as_str().into(),
                    console_word(
                        lang,
                        "matrix",
                        &format!("accountStatus.{}", a.status.as_str()),
                    )
                    .into(),
                    china(a.expires_at),
                    a.province.as_str().into(),
                    a.city.as_str().into(),
                    a.poi_name.as_str().into(),
                    a.remarks.as_str().into(),
                    Cell::Int(a.videos),
                    Cell::Int(a.plays),
                    Cell::Int(a.comments),
                    Cell::Int(a.likes),
                    china(a.created_at),
                ]
            })
            .collect(),
    }
}

fn review(lang: Lang, r: domain::matrix::Review) -> String {
    console_word(lang, "matrix", &format!("review.{}", r.as_str()))
}

pub fn tasks(rows: &[TaskView], lang: Lang) -> Table {
    let cols = [
        ("编号", "ID"),
        ("任务名称", "Task"),
        ("平台", "Platform"),
        ("审核", "Review"),
        ("账号数", "Accounts"),
        ("视频数", "Videos"),
        ("计划条数", "Planned"),
        ("已发布", "Published"),
        ("失败", "Failed"),
        ("进度 %", "Progress %"),
        ("开始日期", "Start date"),
        ("天数", "Days"),
        ("每日条数", "Per day"),
        ("创建时间", "Created at"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|t| {
                vec![
                    Cell::Int(t.id),
                    t.name.as_str().into(),
                    platform_name(t.platform.as_str(), lang).into(),
                    review(lang, t.review_state).into(),
                    Cell::Int(t.accounts as i64),
                    Cell::Int(t.videos),
                    Cell::Int(t.counts.total),
                    Cell::Int(t.counts.published + t.counts.released),
                    Cell::Int(t.failed),
                    Cell::Int(t.progress),
                    t.start_date.as_str().into(),
                    Cell::Int(t.days),
                    Cell::Int(t.daily_quantity),
                    china(t.created_at),
                ]
            })
            .collect(),
    }
}

pub fn items(rows: &[ItemView], lang: Lang) -> Table {
    let cols = [
        ("编号", "ID"),
        ("任务", "Task"),
        ("平台", "Platform"),
        ("账号", "Account"),
        ("视频", "Video"),
        ("标题", "Title"),
        ("计划时间", "Scheduled at"),
        ("状态", "State"),
        ("审核", "Review"),
        ("失败原因", "Failure reason"),
        ("尝试次数", "Attempts"),
        ("作品链接", "Link"),
        ("发布时间", "Published at"),
        ("播放", "Plays"),
        ("点赞", "Likes"),
        ("评论", "Comments"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|i| {
                vec![
                    Cell::Int(i.id),
                    i.task_name.clone().unwrap_or_default().into(),
                    platform_name(i.account.platform.as_str(), lang).into(),
                    i.account.nickname.clone().unwrap_or_default().into(),
                    i.video.name.as_str().into(),
                    i.title.as_str().into(),
                    china(i.scheduled_at),
                    console_word(lang, "matrix", &format!("itemState.{}", i.state.as_str())).into(),
                    review(lang, i.review_state).into(),
                    i.error.as_str().into(),
                    Cell::Int(i.attempts),
                    i.share_url.as_str().into(),
                    china(i.published_at.unwrap_or(0)),
                    Cell::Int(i.plays),
                    Cell::Int(i.likes),
                    Cell::Int(i.comment_count),
                ]
            })
            .collect(),
    }
}
