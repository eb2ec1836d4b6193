//! Lottery activities, their prizes, draws and coupons (`activities`, `activity_prizes`,
//! `activity_quota`, `activity_draws`, `activity_coupons`).
//!
//! A draw is one transaction whose every limit is a conditional update: the person's counters rise
//! only while under their limit, a prize's `issued` only while under its stock. Under PostgreSQL's
//! read-committed isolation a conditional UPDATE re-reads the row after waiting for its lock, so 1,000
//! concurrent draws never take more than the stock; on SQLite the write lock serializes them.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::activities::{Activity, ActivityState, PrizeKind, Who};
use sqlx::{Any, Transaction};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ActivityRow {
    pub id: i64,
    pub merchant_id: i64,
    pub pkey: String,
    pub name: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub who: String,
    pub per_person: i64,
    pub per_day: i64,
    pub color: String,
    pub rules_text: String,
    pub deleted_at: i64,
    pub created_at: i64,
    pub draws: i64,
    pub wins: i64,
    pub redeemed: i64,
}

impl ActivityRow {
    pub fn state(&self, now: i64) -> ActivityState {
        ActivityState::at(self.starts_at, self.ends_at, self.deleted_at > 0, now)
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrizeRow {
    pub id: i64,
    pub activity_id: i64,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub kind: domain::activities::PrizeKind,
    pub odds_bp: i64,
    pub stock: i64,
    pub issued: i64,
    pub per_person: i64,
    pub per_day: i64,
    pub description: String,
    pub valid_days: i64,
}

const ACTIVITY_COLS: &str = "a.id, a.merchant_id, a.pkey, a.name, a.starts_at, a.ends_at, a.who, a.per_person, \
    a.per_day, a.color, a.rules_text, a.deleted_at, a.created_at, \
    (SELECT COUNT(*) FROM activity_draws d WHERE d.activity_id = a.id) AS draws, \
    (SELECT COUNT(*) FROM activity_draws d WHERE d.activity_id = a.id AND d.won = 1) AS wins, \
    (SELECT COUNT(*) FROM activity_coupons c WHERE c.activity_id = a.id AND c.redeemed_at > 0) AS redeemed";

pub static ACTIVITY_LIST: Entity = Entity {
    fields: &[
        field("name", "a.name", FieldType::Text),
        field("starts_at", "a.starts_at", FieldType::Date),
        field("ends_at", "a.ends_at", FieldType::Date),
        field("created_at", "a.created_at", FieldType::Date),
    ],
    default_order: "a.id DESC",
    tiebreak: "a.id",
};

/// A page of the merchant's activities; `state` (upcoming / running / ended at `now`) is a plain
/// parameter because it depends on the clock.
pub async fn activities(
    db: &Db,
    mid: i64,
    state: Option<ActivityState>,
    now: i64,
    q: &ListQuery,
) -> Result<(Vec<ActivityRow>, Total), PageError> {
    let (scope, binds) = match state {
        None => (
            "a.merchant_id = $1 AND a.deleted_at = 0",
            vec![Bind::I(mid)],
        ),
        Some(ActivityState::Upcoming) => (
            "a.merchant_id = $1 AND a.deleted_at = 0 AND a.starts_at > $2",
            vec![Bind::I(mid), Bind::I(now)],
        ),
        Some(ActivityState::Running) => (
            "a.merchant_id = $1 AND a.deleted_at = 0 AND a.starts_at <= $2 AND a.ends_at > $2",
            vec![Bind::I(mid), Bind::I(now)],
        ),
        Some(ActivityState::Ended) => (
            "a.merchant_id = $1 AND a.deleted_at = 0 AND a.ends_at <= $2",
            vec![Bind::I(mid), Bind::I(now)],
        ),
    };
    list::page(
        db,
        &format!("SELECT {ACTIVITY_COLS} FROM activities a"),
        "FROM activities a",
        scope,
        &binds,
        &ACTIVITY_LIST,
        q,
    )
    .await
}

/// One of the merchant's activities (deleted ones too: their coupons still name them).
pub async fn activity(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<ActivityRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ACTIVITY_COLS} FROM activities a WHERE a.id = $1 AND a.merchant_id = $2"
    )))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// An activity by its public key (the public page).
pub async fn activity_by_key(db: &Db, key: &str) -> sqlx::Result<Option<ActivityRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ACTIVITY_COLS} FROM activities a WHERE a.pkey = $1 AND a.deleted_at = 0"
    )))
    .bind(key)
    .fetch_optional(&db.pool)
    .await
}

/// The live prizes of some activities, in their order.
pub async fn prizes(db: &Db, activity_ids: &[i64]) -> sqlx::Result<Vec<PrizeRow>> {
    if activity_ids.is_empty() {
        return Ok(vec![]);
    }
    let ids: Vec<String> = activity_ids.iter().map(|i| i.to_string()).collect();
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, activity_id, name, kind, odds_bp, stock, issued, per_person, per_day, description, valid_days \
         FROM activity_prizes WHERE removed = 0 AND activity_id IN ({}) ORDER BY activity_id, sort, id",
        ids.join(",")
    )))
    .fetch_all(&db.pool)
    .await
}

async fn insert_prize(
    tx: &mut Transaction<'static, Any>,
    mid: i64,
    activity_id: i64,
    p: &domain::activities::Prize,
    sort: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO activity_prizes (merchant_id, activity_id, name, kind, odds_bp, stock, per_person, per_day, \
         description, valid_days, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(mid)
    .bind(activity_id)
    .bind(&p.name)
    .bind(p.kind.as_str())
    .bind(p.odds_bp)
    .bind(p.stock)
    .bind(p.per_person)
    .bind(p.per_day)
    .bind(&p.description)
    .bind(p.valid_days)
    .bind(sort)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn add_activity(
    db: &Db,
    mid: i64,
    a: &Activity,
    pkey: &str,
    now: i64,
) -> sqlx::Result<i64> {
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO activities (merchant_id, pkey, name, starts_at, ends_at, who, per_person, per_day, color, \
         rules_text, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
    )
    .bind(mid)
    .bind(pkey)
    .bind(&a.name)
    .bind(a.starts_at)
    .bind(a.ends_at)
    .bind(a.who.as_str())
    .bind(a.per_person)
    .bind(a.per_day)
    .bind(&a.color)
    .bind(&a.rules_text)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    for (i, p) in a.prizes.iter().enumerate() {
        insert_prize(&mut tx, mid, id, p, i as i64).await?;
    }
    tx.commit().await?;
    Ok(id)
}

/// Why an edit was refused.
#[derive(Debug)]
pub enum EditRefused {
    NotFound,
    /// A prize that issued coupons was left out: (name, issued).
    PrizeInUse(String, i64),
    /// A prize's stock went under what it issued.
    StockBelowIssued(String, i64),
}

/// Saves an edited activity; prizes keep their ids (and what they issued), new ones are added, and
/// left-out ones are removed only when they issued nothing. All or nothing.
pub async fn edit_activity(
    db: &Db,
    mid: i64,
    id: i64,
    a: &Activity,
    now: i64,
) -> Result<Result<(), EditRefused>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE activities SET name = $1, starts_at = $2, ends_at = $3, who = $4, per_person = $5, per_day = $6, \
         color = $7, rules_text = $8, updated_at = $9 WHERE id = $10 AND merchant_id = $11 AND deleted_at = 0",
    )
    .bind(&a.name)
    .bind(a.starts_at)
    .bind(a.ends_at)
    .bind(a.who.as_str())
    .bind(a.per_person)
    .bind(a.per_day)
    .bind(&a.color)
    .bind(&a.rules_text)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n != 1 {
        return Ok(Err(EditRefused::NotFound));
    }
    let old: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT id, name, issued FROM activity_prizes WHERE activity_id = $1 AND removed = 0",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    for (pid, name, issued) in &old {
        if !a.prizes.iter().any(|p| p.id == Some(*pid)) {
            if *issued > 0 {
                return Ok(Err(EditRefused::PrizeInUse(name.clone(), *issued)));
            }
            sqlx::query("UPDATE activity_prizes SET removed = 1 WHERE id = $1")
                .bind(pid)
                .execute(&mut *tx)
                .await?;
        }
    }
    for (i, p) in a.prizes.iter().enumerate() {
        let known = p.id.and_then(|pid| old.iter().find(|(o, ..)| *o == pid));
        match known {
            Some((pid, _, issued)) => {
                if p.kind == PrizeKind::Coupon && p.stock < *issued {
                    return Ok(Err(EditRefused::StockBelowIssued(p.name.clone(), *issued)));
                }
                sqlx::query(
                    "UPDATE activity_prizes SET name = $1, kind = $2, odds_bp = $3, stock = $4, per_person = $5, \
                     per_day = $6, description = $7, valid_days = $8, sort = $9 WHERE id = $10 AND issued <= $4",
                )
                .bind(&p.name)
                .bind(p.kind.as_str())
                .bind(p.odds_bp)
                .bind(p.stock.max(*issued))
                .bind(p.per_person)
                .bind(p.per_day)
                .bind(&p.description)
                .bind(p.valid_days)
                .bind(i as i64)
                .bind(pid)
                .execute(&mut *tx)
                .await?;
            }
            None => insert_prize(&mut tx, mid, id, p, i as i64).await?,
        }
    }
    tx.commit().await?;
    Ok(Ok(()))
}

/// Ends an activity for good; its coupons stay redeemable.
pub async fn delete_activity(db: &Db, mid: i64, id: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE activities SET deleted_at = $1 WHERE id = $2 AND merchant_id = $3 AND deleted_at = 0",
    )
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

// ---- drawing ----

/// One draw asked for.
#[derive(Debug, Clone)]
pub struct DrawReq<'a> {
    pub activity_id: i64,
    pub person: &'a str,
    /// China day of `now` (`YYYY-MM-DD`), the per-day limits' key.
    pub day: &'a str,
    pub now: i64,
    /// `0..ODDS_SCALE`, which prize it lands on.
    pub roll: i64,
    /// Randomness for the coupon code.
    pub code_random: u64,
    /// 'nfc' (from a tag's page) or 'page' (the activity's own page).
    pub source: &'a str,
    /// The tag whose page the draw came from (0: none); a posted tap's own tag wins.
    pub tag_id: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    pub draw_id: i64,
    pub prize_name: String,
    pub coupon: Option<CouponIssued>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponIssued {
    pub code: String,
    pub expires_at: i64,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawRefused {
    NotRunning,
    NeedsPost,
    LimitTotal(i64),
    LimitDay(i64),
}

/// Raises a person's counter while it is under `limit`; false (nothing changed) at the limit.
async fn bump(
    tx: &mut Transaction<'static, Any>,
    scope: &str,
    person: &str,
    day: &str,
    limit: i64,
) -> sqlx::Result<bool> {
    sqlx::query(
        "INSERT INTO activity_quota (scope, person, day, used) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING",
    )
    .bind(scope)
    .bind(person)
    .bind(day)
    .execute(&mut **tx)
    .await?;
    let n = sqlx::query(
        "UPDATE activity_quota SET used = used + 1 WHERE scope = $1 AND person = $2 AND day = $3 AND used < $4",
    )
    .bind(scope)
    .bind(person)
    .bind(day)
    .bind(limit)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(n == 1)
}

async fn unbump(
    tx: &mut Transaction<'static, Any>,
    scope: &str,
    person: &str,
    day: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE activity_quota SET used = used - 1 WHERE scope = $1 AND person = $2 AND day = $3",
    )
    .bind(scope)
    .bind(person)
    .bind(day)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Takes a coupon of `prize` for the person if their limits for it and its stock allow; else
/// changes nothing.
async fn take_coupon(
    tx: &mut Transaction<'static, Any>,
    prize: &PrizeRow,
    person: &str,
    day: &str,
) -> sqlx::Result<bool> {
    let scope = format!("p:{}", prize.id);
    if !bump(tx, &scope, person, "", prize.per_person).await? {
        return Ok(false);
    }
    if !bump(tx, &scope, person, day, prize.per_day).await? {
        unbump(tx, &scope, person, "").await?;
        return Ok(false);
    }
    let n = sqlx::query(
        "UPDATE activity_prizes SET issued = issued + 1 WHERE id = $1 AND issued < stock AND removed = 0",
    )
    .bind(prize.id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if n != 1 {
        unbump(tx, &scope, person, "").await?;
        unbump(tx, &scope, person, day).await?;
        return Ok(false);
    }
    Ok(true)
}

/// Draws once: checks the activity is running and the person may draw, picks the prize by the roll,
/// issues its coupon when its stock and the person's limits allow (else the draw is a "thanks"), and
/// records the draw, all in one transaction.
pub async fn draw(db: &Db, r: &DrawReq<'_>) -> sqlx::Result<Result<Drawn, DrawRefused>> {
    let mut tx = db.begin().await?;
    let a: Option<(i64, i64, i64, String, i64, i64)> = sqlx::query_as(
        "SELECT merchant_id, starts_at, ends_at, who, per_person, per_day FROM activities \
         WHERE id = $1 AND deleted_at = 0",
    )
    .bind(r.activity_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((mid, starts_at, ends_at, who, per_person, per_day)) = a else {
        return Ok(Err(DrawRefused::NotRunning));
    };
    if ActivityState::at(starts_at, ends_at, false, r.now) != ActivityState::Running {
        return Ok(Err(DrawRefused::NotRunning));
    }
    // A posters-only draw uses one posted tap of this person on a tag of this activity.
    let mut tap: Option<(i64, i64)> = None;
    if Who::parse(&who) == Some(Who::Posters) {
        let posted: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT t.id, t.tag_id FROM nfc_taps t JOIN nfc_tags g ON g.id = t.tag_id \
             WHERE g.activity_id = $1 AND t.device = $2 AND t.state = 'posted' AND t.draw_id = 0 \
             ORDER BY t.id LIMIT 5",
        )
        .bind(r.activity_id)
        .bind(r.person)
        .fetch_all(&mut *tx)
        .await?;
        for (id, tag) in posted {
            let n = sqlx::query("UPDATE nfc_taps SET draw_id = -1 WHERE id = $1 AND draw_id = 0")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n == 1 {
                tap = Some((id, tag));
                break;
            }
        }
        if tap.is_none() {
            return Ok(Err(DrawRefused::NeedsPost));
        }
    }
    let scope = format!("a:{}", r.activity_id);
    if !bump(&mut tx, &scope, r.person, "", per_person).await? {
        return Ok(Err(DrawRefused::LimitTotal(per_person)));
    }
    if !bump(&mut tx, &scope, r.person, r.day, per_day).await? {
        return Ok(Err(DrawRefused::LimitDay(per_day)));
    }
    let prizes: Vec<PrizeRow> = sqlx::query_as(
        "SELECT id, activity_id, name, kind, odds_bp, stock, issued, per_person, per_day, description, valid_days \
         FROM activity_prizes WHERE activity_id = $1 AND removed = 0 ORDER BY sort, id",
    )
    .bind(r.activity_id)
    .fetch_all(&mut *tx)
    .await?;
    let odds: Vec<i64> = prizes.iter().map(|p| p.odds_bp).collect();
    let picked = domain::activities::pick(&odds, r.roll).map(|i| &prizes[i]);
    let mut won: Option<&PrizeRow> = None;
    let mut prize_name = String::new();
    let mut prize_id = 0;
    if let Some(p) = picked {
        if p.kind == PrizeKind::Coupon {
            if take_coupon(&mut tx, p, r.person, r.day).await? {
                won = Some(p);
                prize_name = p.name.clone();
                prize_id = p.id;
            }
        } else {
            prize_name = p.name.clone();
            prize_id = p.id;
        }
    }
    let code = won.map(|_| domain::activities::coupon_code(r.code_random));
    let tag_id = tap.map(|(_, t)| t).unwrap_or(r.tag_id);
    // A draw unlocked by a tap's post came from NFC whichever page asked for it.
    let source = if tap.is_some() { "nfc" } else { r.source };
    let draw_id: i64 = sqlx::query_scalar(
        "INSERT INTO activity_draws (merchant_id, activity_id, person, source, tag_id, prize_id, prize_name, won, \
         coupon_code, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(mid)
    .bind(r.activity_id)
    .bind(r.person)
    .bind(source)
    .bind(tag_id)
    .bind(prize_id)
    .bind(&prize_name)
    .bind(won.is_some() as i64)
    .bind(code.clone().unwrap_or_default())
    .bind(r.now)
    .fetch_one(&mut *tx)
    .await?;
    let mut coupon = None;
    if let (Some(p), Some(code)) = (won, code) {
        let expires_at = r.now + p.valid_days * domain::activities::DAY_MS;
        sqlx::query(
            "INSERT INTO activity_coupons (merchant_id, activity_id, prize_id, draw_id, code, person, tag_id, \
             issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(mid)
        .bind(r.activity_id)
        .bind(p.id)
        .bind(draw_id)
        .bind(&code)
        .bind(r.person)
        .bind(tag_id)
        .bind(r.now)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        coupon = Some(CouponIssued {
            code,
            expires_at,
            description: p.description.clone(),
        });
    }
    if let Some((tap_id, _)) = tap {
        sqlx::query("UPDATE nfc_taps SET draw_id = $1 WHERE id = $2")
            .bind(draw_id)
            .bind(tap_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(Ok(Drawn {
        draw_id,
        prize_name,
        coupon,
    }))
}

/// Draws left to a person: (over the activity, today).
pub async fn draws_left(
    db: &Db,
    activity_id: i64,
    person: &str,
    day: &str,
    per_person: i64,
    per_day: i64,
) -> sqlx::Result<(i64, i64)> {
    let used: Vec<(String, i64)> = sqlx::query_as(
        "SELECT day, used FROM activity_quota WHERE scope = $1 AND person = $2 AND (day = '' OR day = $3)",
    )
    .bind(format!("a:{activity_id}"))
    .bind(person)
    .bind(day)
    .fetch_all(&db.pool)
    .await?;
    let total = used
        .iter()
        .find(|(d, _)| d.is_empty())
        .map(|x| x.1)
        .unwrap_or(0);
    let today = used
        .iter()
        .find(|(d, _)| d == day)
        .map(|x| x.1)
        .unwrap_or(0);
    let left_total = (per_person - total).max(0);
    Ok((left_total, (per_day - today).max(0).min(left_total)))
}

// ---- draw log and coupons ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DrawRow {
    pub id: i64,
    pub activity_id: i64,
    pub activity_name: String,
    pub person: String,
    pub source: String,
    pub tag_name: String,
    pub won: i64,
    pub prize_name: String,
    pub coupon_code: String,
    pub created_at: i64,
}

pub static DRAW_LIST: Entity = Entity {
    fields: &[
        field("activity_id", "d.activity_id", FieldType::Int),
        field("won", "d.won", FieldType::Switch),
        field("person", "d.person", FieldType::Text),
        field("coupon_code", "d.coupon_code", FieldType::Text),
        field("created_at", "d.created_at", FieldType::Date),
    ],
    default_order: "d.id DESC",
    tiebreak: "d.id",
};

pub async fn draws(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<DrawRow>, Total), PageError> {
    list::page(
        db,
        "SELECT d.id, d.activity_id, a.name AS activity_name, d.person, d.source, \
           COALESCE(g.name, '') AS tag_name, d.won, d.prize_name, d.coupon_code, d.created_at \
         FROM activity_draws d JOIN activities a ON a.id = d.activity_id LEFT JOIN nfc_tags g ON g.id = d.tag_id",
        "FROM activity_draws d",
        "d.merchant_id = $1",
        &[Bind::I(mid)],
        &DRAW_LIST,
        q,
    )
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CouponRow {
    pub id: i64,
    pub code: String,
    pub activity_id: i64,
    pub activity_name: String,
    pub prize_name: String,
    pub description: String,
    pub person: String,
    pub issued_at: i64,
    pub expires_at: i64,
    pub redeemed_at: i64,
    pub redeemed_by_name: String,
}

const COUPON_SELECT: &str = "SELECT c.id, c.code, c.activity_id, a.name AS activity_name, p.name AS prize_name, \
    p.description, c.person, c.issued_at, c.expires_at, c.redeemed_at, c.redeemed_by_name \
    FROM activity_coupons c JOIN activities a ON a.id = c.activity_id JOIN activity_prizes p ON p.id = c.prize_id";

pub static COUPON_LIST: Entity = Entity {
    fields: &[
        field("code", "c.code", FieldType::Text),
        field("activity_id", "c.activity_id", FieldType::Int),
        field("person", "c.person", FieldType::Text),
        field("issued_at", "c.issued_at", FieldType::Date),
        field("expires_at", "c.expires_at", FieldType::Date),
        field("redeemed_at", "c.redeemed_at", FieldType::Date),
    ],
    default_order: "c.id DESC",
    tiebreak: "c.id",
};

/// A page of coupons; `state` is a plain parameter (expiry depends on the clock).
pub async fn coupons(
    db: &Db,
    mid: i64,
    state: Option<domain::activities::CouponState>,
    now: i64,
    q: &ListQuery,
) -> Result<(Vec<CouponRow>, Total), PageError> {
    use domain::activities::CouponState as S;
    let (scope, binds) = match state {
        None => ("c.merchant_id = $1", vec![Bind::I(mid)]),
        Some(S::Redeemed) => (
            "c.merchant_id = $1 AND c.redeemed_at > 0",
            vec![Bind::I(mid)],
        ),
        Some(S::Issued) => (
            "c.merchant_id = $1 AND c.redeemed_at = 0 AND c.expires_at > $2",
            vec![Bind::I(mid), Bind::I(now)],
        ),
        Some(S::Expired) => (
            "c.merchant_id = $1 AND c.redeemed_at = 0 AND c.expires_at <= $2",
            vec![Bind::I(mid), Bind::I(now)],
        ),
    };
    list::page(
        db,
        COUPON_SELECT,
        "FROM activity_coupons c",
        scope,
        &binds,
        &COUPON_LIST,
        q,
    )
    .await
}

pub async fn coupon_by_code(db: &Db, mid: i64, code: &str) -> sqlx::Result<Option<CouponRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{COUPON_SELECT} WHERE c.merchant_id = $1 AND c.code = $2"
    )))
    .bind(mid)
    .bind(code)
    .fetch_optional(&db.pool)
    .await
}

/// A person's coupons of one activity (the public page shows them again).
pub async fn person_coupons(
    db: &Db,
    activity_id: i64,
    person: &str,
) -> sqlx::Result<Vec<CouponRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{COUPON_SELECT} WHERE c.activity_id = $1 AND c.person = $2 ORDER BY c.id DESC LIMIT 50"
    )))
    .bind(activity_id)
    .bind(person)
    .fetch_all(&db.pool)
    .await
}

/// Redeems an issued, unexpired coupon: true when this call did it.
pub async fn redeem(
    db: &Db,
    mid: i64,
    code: &str,
    now: i64,
    by: i64,
    by_name: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE activity_coupons SET redeemed_at = $1, redeemed_by = $2, redeemed_by_name = $3 \
         WHERE merchant_id = $4 AND code = $5 AND redeemed_at = 0 AND expires_at > $1",
    )
    .bind(now)
    .bind(by)
    .bind(by_name)
    .bind(mid)
    .bind(code)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Checks every coupon has its draw and no prize issued more than its stock (tests and the bench).
pub async fn integrity(db: &Db, activity_id: i64) -> sqlx::Result<(i64, i64, i64)> {
    let orphans: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM activity_coupons c LEFT JOIN activity_draws d ON d.id = c.draw_id \
         WHERE c.activity_id = $1 AND (d.id IS NULL OR d.won = 0 OR d.coupon_code <> c.code)",
    )
    .bind(activity_id)
    .fetch_one(&db.pool)
    .await?;
    let over: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM activity_prizes p WHERE p.activity_id = $1 AND (p.issued > p.stock OR \
         p.issued <> (SELECT COUNT(*) FROM activity_coupons c WHERE c.prize_id = p.id))",
    )
    .bind(activity_id)
    .fetch_one(&db.pool)
    .await?;
    let coupons: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM activity_coupons WHERE activity_id = $1")
            .bind(activity_id)
            .fetch_one(&db.pool)
            .await?;
    Ok((orphans, over, coupons))
}
