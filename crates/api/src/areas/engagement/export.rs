//! Leads as a spreadsheet, in the reader's language.

use crate::export::{Cell, Table, header};
use domain::engagement::intent_name;
use domain::i18n::Lang;
use domain::matrix::china_time;
use services::engagement::leads::Row;

/// The leads as a spreadsheet (SPEC §3 "Lead: name, content, source, time" and the follow-up).
pub fn leads_table(rows: &[Row], lang: Lang) -> Table {
    let zh = matches!(lang, Lang::Zh);
    let cols = [
        ("编号", "ID"),
        ("客户", "Customer"),
        ("内容", "Content"),
        ("来源", "Source"),
        ("平台", "Platform"),
        ("账号", "Account"),
        ("视频", "Video"),
        ("手机号", "Phone"),
        ("微信", "WeChat"),
        ("意向", "Intent"),
        ("状态", "State"),
        ("跟进人", "Assignee"),
        ("时间", "Time"),
    ];
    Table {
        header: header(lang, &cols),
        rows: rows
            .iter()
            .map(|l| {
                let source = match (l.source.as_str(), zh) {
                    ("comment", true) => "评论",
                    ("comment", false) => "comment",
                    (_, true) => "私信",
                    (_, false) => "private message",
                };
                vec![
                    Cell::Int(l.id),
                    l.name.as_str().into(),
                    l.content.as_str().into(),
                    source.into(),
                    l.platform.as_str().into(),
                    l.account_name.clone().unwrap_or_default().into(),
                    l.item_id.as_str().into(),
                    l.phone.as_str().into(),
                    l.wechat.as_str().into(),
                    intent_name(&l.intent, lang).into(),
                    l.state.name(lang).into(),
                    l.assignee_name.clone().unwrap_or_default().into(),
                    china_time(l.created_at).into(),
                ]
            })
            .collect(),
    }
}
