//! What the activities calls answer (docs/api-activities.md).

use domain::activities::{self as rules, CouponState};
use domain::i18n::{Lang, Msg};
use serde::Serialize;
use services::activities::{CouponRow, DrawRow, Full};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Prize)]
pub struct PrizeView {
    pub id: i64,
    pub name: String,
    /// coupon | thanks
    pub kind: domain::activities::PrizeKind,
    /// A percentage.
    pub odds: f64,
    pub stock: i64,
    pub issued: i64,
    pub per_person: i64,
    pub per_day: i64,
    pub description: String,
    pub valid_days: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Activity)]
pub struct ActivityView {
    pub id: i64,
    pub name: String,
    pub starts_at: i64,
    pub ends_at: i64,
    /// anyone | posters
    #[schema(value_type = super::ActivityWho)]
    pub who: String,
    pub per_person: i64,
    pub per_day: i64,
    pub color: String,
    pub rules_text: String,
    pub prizes: Vec<PrizeView>,
    pub state: domain::activities::ActivityState,
    /// The public page (`/t/a/<key>`), absolute.
    pub public_url: String,
    pub draws: i64,
    pub wins: i64,
    pub redeemed: i64,
    pub created_at: i64,
}

pub fn activity(a: &Full, public_url: &str, now: i64, _lang: Lang) -> ActivityView {
    let r = &a.row;
    ActivityView {
        id: r.id,
        name: r.name.clone(),
        starts_at: r.starts_at,
        ends_at: r.ends_at,
        who: r.who.clone(),
        per_person: r.per_person,
        per_day: r.per_day,
        color: r.color.clone(),
        rules_text: r.rules_text.clone(),
        prizes: a
            .prizes
            .iter()
            .map(|p| PrizeView {
                id: p.id,
                name: p.name.clone(),
                kind: p.kind,
                odds: p.odds_bp as f64 / 100.0,
                stock: p.stock,
                issued: p.issued,
                per_person: p.per_person,
                per_day: p.per_day,
                description: p.description.clone(),
                valid_days: p.valid_days,
            })
            .collect(),
        state: r.state(now),
        public_url: format!("{}/t/a/{}", public_url.trim_end_matches('/'), r.pkey),
        draws: r.draws,
        wins: r.wins,
        redeemed: r.redeemed,
        created_at: r.created_at,
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Coupon)]
pub struct CouponView {
    pub id: i64,
    pub code: String,
    pub activity_id: i64,
    pub activity_name: String,
    pub prize_name: String,
    pub description: String,
    /// The customer's device, shortened (`D-3f9a12c0`).
    pub person: String,
    pub state: CouponState,
    pub issued_at: i64,
    pub expires_at: i64,
    pub redeemed_at: i64,
    pub redeemed_by: String,
}

pub fn coupon(c: &CouponRow, now: i64) -> CouponView {
    CouponView {
        id: c.id,
        code: c.code.clone(),
        activity_id: c.activity_id,
        activity_name: c.activity_name.clone(),
        prize_name: c.prize_name.clone(),
        description: c.description.clone(),
        person: rules::person_label(&c.person),
        state: CouponState::of(c.redeemed_at, c.expires_at, now),
        issued_at: c.issued_at,
        expires_at: c.expires_at,
        redeemed_at: c.redeemed_at,
        redeemed_by: c.redeemed_by_name.clone(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Draw)]
pub struct DrawView {
    pub id: i64,
    pub activity_id: i64,
    pub activity_name: String,
    pub person: String,
    /// nfc | page
    #[schema(value_type = rules::DrawSource)]
    pub source: String,
    pub tag_name: String,
    pub won: bool,
    pub prize_name: String,
    pub coupon_code: String,
    pub created_at: i64,
}

pub fn draw(d: &DrawRow, lang: Lang) -> DrawView {
    DrawView {
        id: d.id,
        activity_id: d.activity_id,
        activity_name: d.activity_name.clone(),
        person: rules::person_label(&d.person),
        source: d.source.clone(),
        tag_name: d.tag_name.clone(),
        won: d.won == 1,
        prize_name: if d.prize_name.is_empty() {
            Msg::DrawThanks.render(lang, &[])
        } else {
            d.prize_name.clone()
        },
        coupon_code: d.coupon_code.clone(),
        created_at: d.created_at,
    }
}
