//! Draws and coupons as spreadsheets, headers and words in the reader's language.

use crate::export::{Cell, Table, header};
use domain::activities as rules;
use domain::activities::CouponState;
use domain::i18n::{Lang, Msg};
use services::activities::{self as uc, CouponRow, DrawRow};

/// The draw log as a table (header + rows) in the reader's language.
pub fn draw_table(rows: &[DrawRow], lang: Lang) -> Table {
    let yes_no = |b: bool| match (lang, b) {
        (Lang::Zh, true) => "中奖",
        (Lang::Zh, false) => "未中奖",
        (Lang::En, true) => "won",
        (Lang::En, false) => "not won",
    };
    Table {
        header: header(
            lang,
            &[
                ("编号", "ID"),
                ("活动", "Activity"),
                ("抽奖人", "Person"),
                ("来源", "Source"),
                ("标签", "Tag"),
                ("结果", "Result"),
                ("奖品", "Prize"),
                ("券码", "Coupon code"),
                ("抽奖时间", "Drawn at"),
            ],
        ),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    Cell::Int(r.id),
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

pub fn coupon_table(rows: &[CouponRow], now: i64, lang: Lang) -> Table {
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
    Table {
        header: header(
            lang,
            &[
                ("券码", "Code"),
                ("活动", "Activity"),
                ("奖品", "Prize"),
                ("领取人", "Person"),
                ("状态", "State"),
                ("发放时间", "Issued at"),
                ("有效期至", "Valid until"),
                ("核销时间", "Redeemed at"),
                ("核销人", "Redeemed by"),
            ],
        ),
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
