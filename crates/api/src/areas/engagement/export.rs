//! Leads as a spreadsheet, in the reader's language.

use crate::export::{Cell, Table};
use domain::engagement::intent_name;
use domain::i18n::Lang;
use domain::matrix::china_time;
use services::engagement::leads::Row;

/// The leads as a spreadsheet (SPEC §3 "Lead: name, content, source, time" and the follow-up).
pub fn leads_table(rows: &[Row], lang: Lang) -> Table {
    let zh = matches!(lang, Lang::Zh);
    let h: &[&str] = if zh {
        &[
            "编号",
            "客户",
            "内容",
            "来源",
            "平台",
            "账号",
            "视频",
            "手机号",
            "微信",
            "意向",
            "状态",
            "跟进人",
            "时间",
        ]
    } else {
        &[
            "ID", "Customer", "Content", "Source", "Platform", "Account", "Video", "Phone",
            "WeChat", "Intent", "State", "Assignee", "Time",
        ]
    };
    Table {
        header: h.iter().map(|s| s.to_string()).collect(),
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
