//! Area "activities": lottery activities with coupon prizes (`/task.merchant_forward_task_activities/*`),
//! the draw itself (from the public page, `/t/a/<key>`), the draw log, coupon redemption and exports.
//! Times come from the caller (the app's `store::Db::clock` in the server), so tests move the clock.

use crate::error::{ApiError, ApiResult};
use domain::activities::{self as rules, ActivityInput, ActivityState, CouponState};
use domain::i18n::Msg;
use store::Db;
use store::activities as db;

pub use db::{ActivityRow, CouponRow, DrawRow, PrizeRow};

/// An activity with its prizes.
pub struct Full {
    pub row: ActivityRow,
    pub prizes: Vec<PrizeRow>,
}

async fn with_prizes(d: &Db, rows: Vec<ActivityRow>) -> ApiResult<Vec<Full>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut prizes = db::prizes(d, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let (mine, rest): (Vec<_>, Vec<_>) =
                prizes.drain(..).partition(|p| p.activity_id == row.id);
            prizes = rest;
            Full { row, prizes: mine }
        })
        .collect())
}

pub async fn list(
    d: &Db,
    mid: i64,
    state: Option<&str>,
    now: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Full>, store::list::Total)> {
    let state = match state {
        None => None,
        Some("upcoming") => Some(ActivityState::Upcoming),
        Some("running") => Some(ActivityState::Running),
        Some("ended") => Some(ActivityState::Ended),
        Some(_) => {
            return Err(ApiError::invalid_with(
                "state",
                Msg::InvalidValue,
                vec![("reason", "upcoming | running | ended".into())],
            ));
        }
    };
    let (rows, total) = db::activities(d, mid, state, now, q).await?;
    Ok((with_prizes(d, rows).await?, total))
}

pub async fn get(d: &Db, mid: i64, id: i64) -> ApiResult<Full> {
    let row = db::activity(d, mid, id)
        .await?
        .filter(|a| a.deleted_at == 0)
        .ok_or(ApiError::NotFound)?;
    Ok(with_prizes(d, vec![row]).await?.pop().expect("one"))
}

pub async fn add(d: &Db, mid: i64, a: &ActivityInput, now: i64) -> ApiResult<Full> {
    let a = rules::activity(a)?;
    let id = db::add_activity(d, mid, &a, &store::random_token(12), now).await?;
    get(d, mid, id).await
}

pub async fn edit(d: &Db, mid: i64, id: i64, a: &ActivityInput, now: i64) -> ApiResult<Full> {
    let a = rules::activity(a)?;
    match db::edit_activity(d, mid, id, &a, now).await? {
        Ok(()) => get(d, mid, id).await,
        Err(db::EditRefused::NotFound) => Err(ApiError::NotFound),
        Err(db::EditRefused::PrizeInUse(name, issued)) => Err(ApiError::invalid_with(
            "prizes",
            Msg::PrizeInUse,
            vec![("name", name), ("issued", issued.to_string())],
        )),
        Err(db::EditRefused::StockBelowIssued(name, issued)) => Err(ApiError::invalid_with(
            "prizes",
            Msg::PrizeStockBelowIssued,
            vec![("name", name), ("issued", issued.to_string())],
        )),
    }
}

pub async fn delete(d: &Db, mid: i64, id: i64, now: i64) -> ApiResult<()> {
    if !db::delete_activity(d, mid, id, now).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// What a draw came to, for the public page.
#[derive(Debug, Clone)]
pub struct DrawResult {
    pub won: bool,
    /// Empty when nothing was won (the page says thanks in the reader's words).
    pub prize_name: String,
    pub coupon: Option<db::CouponIssued>,
    pub left_total: i64,
    pub left_today: i64,
}

/// One draw of `person` (a device id) in a running activity.
pub async fn draw(
    d: &Db,
    a: &ActivityRow,
    person: &str,
    source: &str,
    tag_id: i64,
    now: i64,
) -> ApiResult<DrawResult> {
    use rand::Rng;
    let day = store::nfc::china_day(now);
    // The thread's generator is not Send: take what is needed before awaiting.
    let (roll, code_random) = {
        let mut rng = rand::rng();
        (rng.random_range(0..rules::ODDS_SCALE), rng.random::<u64>())
    };
    let req = db::DrawReq {
        activity_id: a.id,
        person,
        day: &day,
        now,
        roll,
        code_random,
        source,
        tag_id,
    };
    let drawn = match db::draw(d, &req).await? {
        Ok(x) => x,
        Err(db::DrawRefused::NotRunning) => {
            return Err(ApiError::invalid("activity", Msg::ActivityNotRunning));
        }
        Err(db::DrawRefused::NeedsPost) => {
            return Err(ApiError::invalid("activity", Msg::DrawNeedsPost));
        }
        Err(db::DrawRefused::LimitTotal(max)) => {
            return Err(ApiError::invalid_with(
                "activity",
                Msg::DrawLimitTotal,
                vec![("max", max.to_string())],
            ));
        }
        Err(db::DrawRefused::LimitDay(max)) => {
            return Err(ApiError::invalid_with(
                "activity",
                Msg::DrawLimitDay,
                vec![("max", max.to_string())],
            ));
        }
    };
    let (left_total, left_today) =
        db::draws_left(d, a.id, person, &day, a.per_person, a.per_day).await?;
    Ok(DrawResult {
        won: drawn.coupon.is_some(),
        prize_name: drawn.prize_name,
        coupon: drawn.coupon,
        left_total,
        left_today,
    })
}

/// Draws left to a person now: (over the activity, today).
pub async fn left(d: &Db, a: &ActivityRow, person: &str, now: i64) -> ApiResult<(i64, i64)> {
    let day = store::nfc::china_day(now);
    Ok(db::draws_left(d, a.id, person, &day, a.per_person, a.per_day).await?)
}

pub fn coupon_state(c: &CouponRow, now: i64) -> CouponState {
    CouponState::of(c.redeemed_at, c.expires_at, now)
}

pub fn parse_coupon_state(s: Option<&str>) -> ApiResult<Option<CouponState>> {
    Ok(match s {
        None => None,
        Some("issued") => Some(CouponState::Issued),
        Some("redeemed") => Some(CouponState::Redeemed),
        Some("expired") => Some(CouponState::Expired),
        Some(_) => {
            return Err(ApiError::invalid_with(
                "state",
                Msg::InvalidValue,
                vec![("reason", "issued | redeemed | expired".into())],
            ));
        }
    })
}

/// Redeems a coupon at the counter by its code (as typed: case and dashes do not matter).
pub async fn redeem(
    d: &Db,
    mid: i64,
    code: &str,
    now: i64,
    by: i64,
    by_name: &str,
) -> ApiResult<CouponRow> {
    let code = rules::normalize_code(code);
    if code.is_empty() {
        return Err(ApiError::invalid("code", Msg::CouponUnknown));
    }
    if db::redeem(d, mid, &code, now, by, by_name).await? {
        return db::coupon_by_code(d, mid, &code)
            .await?
            .ok_or(ApiError::NotFound);
    }
    let Some(c) = db::coupon_by_code(d, mid, &code).await? else {
        return Err(ApiError::invalid("code", Msg::CouponUnknown));
    };
    let at = |ms: i64| domain::matrix::china_time(ms);
    if c.redeemed_at > 0 {
        return Err(ApiError::invalid_with(
            "code",
            Msg::CouponRedeemed,
            vec![
                ("at", at(c.redeemed_at)),
                ("by", c.redeemed_by_name.clone()),
            ],
        ));
    }
    Err(ApiError::invalid_with(
        "code",
        Msg::CouponExpired,
        vec![("at", at(c.expires_at))],
    ))
}

/// Every row of a list, page after page (exports), up to `max` rows.
pub async fn all_pages<T, F, Fut>(
    q: &store::ListQuery,
    max: usize,
    mut page: F,
) -> ApiResult<Vec<T>>
where
    F: FnMut(store::ListQuery) -> Fut,
    Fut: std::future::Future<Output = ApiResult<(Vec<T>, store::list::Total)>>,
{
    let mut out = vec![];
    let mut n = 1;
    loop {
        let mut lq = q.clone();
        lq.page = Some(n);
        lq.limit = Some(1000);
        lq.page_size = None;
        let (rows, _) = page(lq).await?;
        let short = rows.len() < 1000;
        out.extend(rows);
        if short || out.len() >= max {
            out.truncate(max);
            return Ok(out);
        }
        n += 1;
    }
}

pub async fn draws(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<DrawRow>, store::list::Total)> {
    Ok(db::draws(d, mid, q).await?)
}

pub async fn coupons(
    d: &Db,
    mid: i64,
    state: Option<CouponState>,
    now: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<CouponRow>, store::list::Total)> {
    Ok(db::coupons(d, mid, state, now, q).await?)
}

/// The activity of a public page's key (deleted ones are unknown).
pub async fn by_key(d: &Db, key: &str) -> ApiResult<Option<ActivityRow>> {
    Ok(db::activity_by_key(d, key).await?)
}

/// What an activity's public page shows a device: the prizes, and the coupons it won.
pub async fn shown_to(
    d: &Db,
    a: &ActivityRow,
    device: &str,
) -> ApiResult<(Vec<PrizeRow>, Vec<CouponRow>)> {
    let prizes = db::prizes(d, &[a.id]).await?;
    let coupons = db::person_coupons(d, a.id, device).await?;
    Ok((prizes, coupons))
}
