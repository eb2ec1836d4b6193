//! Draws and coupons as spreadsheets, headers and words in the reader's language.

use domain::activities as rules;
use domain::activities::CouponState;
use domain::i18n::{Lang, Msg};
use services::activities::{self as uc, CouponRow, DrawRow};

/// The draw log as a table (header + rows) in the reader's language.
pub fn draw_table(rows: &[DrawRow], lang: Lang) -> crate::export::Table {
    let h = |zh: &str, en: &str| {
        if lang == Lang::Zh {
            zh.to_string()
        } else {
            en.to_string()
        }
    };
    let yes_no = |b: bool| match (lang, b) {
        (Lang::Zh, true) => "中奖",
        (Lang::Zh, false) => "未中奖",
        (Lang::En, true) => "won",
        (Lang::En, false) => "not won",
    };
    crate::export::Table {
        header: vec![
            h("编号", "ID"),
            h("活动", "Activity"),
            h("抽奖人", "Person"),
            h("来源", "Source"),
            h("标签", "Tag"),
            h("结果", "Result"),
            h("奖品", "Prize"),
            h("券码", "Coupon code"),
            h("抽奖时间", "Drawn at"),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    crate::export::Cell::Int(r.id),
                    r.activity_name.clone().into(),
                    rules::person_label(&r.person).into(),
                    r.source.clone().into(),
                    r.tag_name.clone().into(),
                    yes_no(r.won == 1).to_string().into(),
                    if r.prize_name.is_empty() {
                        Msg::DrawThanks.render(lang, &[])
                    } else {
                        r.prize_name.clone()
                    }
                    .into(),
                    r.coupon_code.clone().into(),
                    domain::matrix::china_time(r.created_at).into(),
                ]
            })
            .collect(),
    }
}

pub fn coupon_table(rows: &[CouponRow], now: i64, lang: Lang) -> crate::export::Table {
    let h = |zh: &str, en: &str| {
        if lang == Lang::Zh {
            zh.to_string()
        } else {
            en.to_string()
        }
    };
    let state = |s: CouponState| match (lang, s) {
        (Lang::Zh, CouponState::Issued) => "未核销",
        (Lang::Zh, CouponState::Redeemed) => "已核销",
        (Lang::Zh, CouponState::Expired) => "已过期",
        (Lang::En, s) => s.as_str(),
    };
    let time = |ms: i64| {
        if ms > 0 {
            domain::matrix::china_time(ms)
        } else {
            String::new()
        }
    };
    crate::export::Table {
        header: vec![
            h("券码", "Code"),
            h("活动", "Activity"),
            h("奖品", "Prize"),
            h("领取人", "Person"),
            h("状态", "State"),
            h("发放时间", "Issued at"),
            h("有效期至", "Valid until"),
            h("核销时间", "Redeemed at"),
            h("核销人", "Redeemed by"),
        ],
        rows: rows
            .iter()
            .map(|c| {
                vec![
                    c.code.clone().into(),
                    c.activity_name.clone().into(),
                    c.prize_name.clone().into(),
                    rules::person_label(&c.person).into(),
                    state(uc::coupon_state(c, now)).to_string().into(),
                    time(c.issued_at).into(),
                    time(c.expires_at).into(),
                    time(c.redeemed_at).into(),
                    c.redeemed_by_name.clone().into(),
                ]
            })
            .collect(),
    }
}
