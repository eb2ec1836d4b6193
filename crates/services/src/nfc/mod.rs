//! Area "nfc": tap-to-post tags (`/nfc.index/*`) and what a tap does (the public page `/t/<code>`).
//! A tap hands the customer one video of the tag's pool that no tap had before, with a title from the
//! tag's list and a signed Douyin H5 share link; when the platform reports the share posted
//! (create_video webhook, `matrix::webhook`), the tap is posted and the tag's activity lets them draw.

use crate::error::{ApiError, ApiResult};
use crate::matrix::hub::Hub;
use domain::activities::{self as rules, PoolKind, TapState, Who};
use domain::i18n::{Lang, Msg};
use store::Db;
use store::nfc as db;

pub use db::{TagRow, TapRow, TitleRow};

/// A tag as the form sends it.
#[derive(Debug, Clone, Default)]
pub struct TagInput {
    pub name: String,
    pub platform: String,
    pub pool_kind: String,
    pub pool_id: i64,
    pub activity_id: i64,
    pub topics: Vec<String>,
    pub enabled: bool,
}

/// Topics of a tag: optional, at most five, each within the title limit.
fn topics(raw: &[String]) -> ApiResult<Vec<String>> {
    if raw
        .iter()
        .all(|t| t.trim().trim_start_matches('#').trim().is_empty())
    {
        return Ok(vec![]);
    }
    let t = domain::matrix::topics(raw)?;
    if t.len() > 5 {
        return Err(ApiError::invalid_with(
            "topics",
            Msg::TooManyValues,
            vec![("max", "5".into())],
        ));
    }
    Ok(t)
}

async fn check(d: &Db, mid: i64, t: &TagInput) -> ApiResult<(String, PoolKind, Vec<String>)> {
    let name = t.name.trim().to_string();
    domain::validate::required("name", &name)?;
    domain::validate::max_chars("name", &name, rules::NAME_MAX)?;
    domain::validate::plain_text("name", &name)?;
    if t.platform != "dy" {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy".into())],
        ));
    }
    let kind = PoolKind::parse(&t.pool_kind).ok_or_else(|| {
        ApiError::invalid_with(
            "pool_kind",
            Msg::InvalidValue,
            vec![("reason", "project | group".into())],
        )
    })?;
    if db::pool_name(d, mid, kind, t.pool_id).await?.is_none() {
        return Err(ApiError::invalid_with(
            "pool_id",
            Msg::PoolMissing,
            vec![("what", t.pool_id.to_string())],
        ));
    }
    if t.activity_id != 0
        && store::activities::activity(d, mid, t.activity_id)
            .await?
            .filter(|a| a.deleted_at == 0)
            .is_none()
    {
        return Err(ApiError::invalid("activity_id", Msg::NotFound));
    }
    Ok((name, kind, topics(&t.topics)?))
}

/// A tag with its pool's name and sizes.
pub struct Tag {
    pub row: TagRow,
    pub pool_name: String,
    pub pool_size: i64,
    pub pool_left: i64,
}

async fn tag_full(d: &Db, row: TagRow) -> ApiResult<Tag> {
    let kind = PoolKind::parse(&row.pool_kind).unwrap_or(PoolKind::Project);
    let pool_name = db::pool_name(d, row.merchant_id, kind, row.pool_id)
        .await?
        .unwrap_or_default();
    let (pool_size, pool_left) = db::pool_size(d, row.merchant_id, kind, row.pool_id).await?;
    Ok(Tag {
        row,
        pool_name,
        pool_size,
        pool_left,
    })
}

pub async fn list(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Tag>, store::list::Total)> {
    let (rows, total) = db::tags(d, mid, q).await?;
    let mut out = vec![];
    for r in rows {
        out.push(tag_full(d, r).await?);
    }
    Ok((out, total))
}

pub async fn get(d: &Db, mid: i64, id: i64) -> ApiResult<Tag> {
    let row = db::tag(d, mid, id).await?.ok_or(ApiError::NotFound)?;
    tag_full(d, row).await
}

pub async fn add(d: &Db, mid: i64, t: &TagInput, now: i64) -> ApiResult<Tag> {
    let (name, kind, topics) = check(d, mid, t).await?;
    let spec = db::TagSpec {
        name: &name,
        platform: &t.platform,
        pool_kind: kind,
        pool_id: t.pool_id,
        activity_id: t.activity_id,
        topics: &topics,
        enabled: t.enabled,
    };
    // 12 random characters: a tag's address cannot be guessed from another's.
    let id = db::add_tag(d, mid, &store::random_token(9), &spec, now).await?;
    get(d, mid, id).await
}

pub async fn edit(d: &Db, mid: i64, id: i64, t: &TagInput, now: i64) -> ApiResult<Tag> {
    let (name, kind, topics) = check(d, mid, t).await?;
    let spec = db::TagSpec {
        name: &name,
        platform: &t.platform,
        pool_kind: kind,
        pool_id: t.pool_id,
        activity_id: t.activity_id,
        topics: &topics,
        enabled: t.enabled,
    };
    if !db::edit_tag(d, mid, id, &spec, now).await? {
        return Err(ApiError::NotFound);
    }
    get(d, mid, id).await
}

pub async fn delete(d: &Db, mid: i64, id: i64, now: i64) -> ApiResult<()> {
    if !db::delete_tag(d, mid, id, now).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

pub async fn add_titles(
    d: &Db,
    mid: i64,
    tag_id: i64,
    lines: &[String],
    now: i64,
) -> ApiResult<usize> {
    db::tag(d, mid, tag_id).await?.ok_or(ApiError::NotFound)?;
    let titles = rules::tag_titles(lines)?;
    db::add_titles(d, mid, tag_id, &titles, now).await?;
    Ok(titles.len())
}

pub async fn edit_title(d: &Db, mid: i64, id: i64, title: &str) -> ApiResult<TitleRow> {
    let titles = rules::tag_titles(&[title.to_string()]).map_err(|mut e| {
        e.field = "title";
        if e.msg == Msg::TitleTooLong {
            e.msg = Msg::TooLong;
            e.args.retain(|(k, _)| *k == "max");
        }
        e
    })?;
    db::edit_title(d, mid, id, &titles[0])
        .await?
        .ok_or(ApiError::NotFound)
}

/// Removes the merchant's titles, all or none: an id of another merchant's is "not found".
pub async fn delete_titles(d: &Db, mid: i64, ids: &[i64]) -> ApiResult<()> {
    if db::delete_titles(d, mid, ids).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// A tag's figures: all-time totals and the last `days` China days.
pub struct Stats {
    /// taps, shares, posts, draws, coupons, redeemed
    pub totals: [i64; 6],
    /// (YYYY-MM-DD, [taps, shares, posts, draws, redeemed]), every day of the range.
    pub days: Vec<(String, [i64; 5])>,
}

pub async fn stats(d: &Db, mid: i64, id: i64, days: i64, now: i64) -> ApiResult<Stats> {
    if !matches!(days, 7 | 30) {
        return Err(ApiError::invalid_with(
            "days",
            Msg::InvalidValue,
            vec![("reason", "7 | 30".into())],
        ));
    }
    let tag = db::tag(d, mid, id).await?.ok_or(ApiError::NotFound)?;
    let today = domain::matrix::day_of(now);
    let from = today - days + 1;
    let found = db::daily(d, tag.id, from).await?;
    let days = (from..=today)
        .map(|n| {
            let v = found
                .iter()
                .find(|(d, _)| *d == n)
                .map(|(_, v)| *v)
                .unwrap_or_default();
            (domain::matrix::fmt_day(n), v)
        })
        .collect();
    Ok(Stats {
        totals: db::totals(d, tag.id).await?,
        days,
    })
}

// ---- the public side ----

/// What a tap shows.
pub struct Tapped {
    pub tag: TagRow,
    pub tap: TapRow,
    pub activity: Option<store::activities::ActivityRow>,
    /// The activity's draw is open to this device now.
    pub can_draw: bool,
}

/// A Douyin H5 share link lives about two hours (its ticket); a tap shown again after ~100 minutes
/// gets a fresh link for the same video.
const SHARE_FRESH_MS: i64 = 100 * 60_000;

/// A tap on a tag by a device: the device's unposted video again, or a new one from the pool.
pub async fn tap(hub: &Hub, code: &str, device: &str, now: i64, lang: Lang) -> ApiResult<Tapped> {
    let d = &hub.db;
    let tag = db::tag_by_code(d, code)
        .await?
        .ok_or_else(|| ApiError::invalid("tag", Msg::TagUnknown))?;
    db::count_tap(d, tag.id, domain::matrix::day_of(now)).await?;
    let kind = PoolKind::parse(&tag.pool_kind).unwrap_or(PoolKind::Project);
    let topics: Vec<String> = serde_json::from_str(&tag.topics).unwrap_or_default();
    let last = db::last_tap(d, tag.id, device).await?;
    // A phone that posted today sees its post again (its draw and coupon) rather than taking another
    // video of the pool with every reload; the next day it gets a new one.
    if let Some(t) = last.as_ref().filter(|t| {
        t.state == TapState::Posted.as_str()
            && domain::matrix::day_of(t.posted_at) == domain::matrix::day_of(now)
    }) {
        let tap = t.clone();
        let (activity, can_draw) = draw_open(d, &tag, device, now).await?;
        return Ok(Tapped {
            tag,
            tap,
            activity,
            can_draw,
        });
    }
    let last = last.filter(|t| t.state == TapState::Handed.as_str() && !t.share_id.is_empty());
    let tap = match last {
        Some(t) if now - t.created_at < SHARE_FRESH_MS => t,
        Some(t) => {
            let link = crate::matrix::accounts::make_share(
                hub,
                tag.merchant_id,
                &t.video_key,
                &t.title,
                &topics,
                lang,
            )
            .await?;
            db::set_share(d, t.id, &link.share_id, &link.schema).await?;
            db::tap(d, t.id).await?.ok_or(ApiError::NotFound)?
        }
        None => {
            let title = db::some_title(d, tag.id, rand::random())
                .await?
                .unwrap_or_else(|| tag.name.clone());
            let t = db::reserve_video(d, &tag, kind, device, &title, now)
                .await?
                .ok_or_else(|| ApiError::invalid("tag", Msg::PoolEmpty))?;
            let link = match crate::matrix::accounts::make_share(
                hub,
                tag.merchant_id,
                &t.video_key,
                &title,
                &topics,
                lang,
            )
            .await
            {
                Ok(l) => l,
                Err(e) => {
                    // The video goes back to the pool: nothing was handed out.
                    db::release(d, t.id).await?;
                    return Err(e);
                }
            };
            db::set_share(d, t.id, &link.share_id, &link.schema).await?;
            db::tap(d, t.id).await?.ok_or(ApiError::NotFound)?
        }
    };
    let (activity, can_draw) = draw_open(d, &tag, device, now).await?;
    Ok(Tapped {
        tag,
        tap,
        activity,
        can_draw,
    })
}

/// The tag's activity and whether this device may draw in it now.
pub async fn draw_open(
    d: &Db,
    tag: &TagRow,
    device: &str,
    now: i64,
) -> ApiResult<(Option<store::activities::ActivityRow>, bool)> {
    if tag.activity_id == 0 {
        return Ok((None, false));
    }
    let Some(a) = store::activities::activity(d, tag.merchant_id, tag.activity_id)
        .await?
        .filter(|a| a.deleted_at == 0)
    else {
        return Ok((None, false));
    };
    if a.state(now) != domain::activities::ActivityState::Running {
        return Ok((Some(a), false));
    }
    let (left_total, left_today) = crate::activities::left(d, &a, device, now).await?;
    let mut open = left_total > 0 && left_today > 0;
    if open && Who::parse(&a.who) == Some(Who::Posters) {
        open = db::undrawn_posts(d, a.id, device).await? > 0;
    }
    Ok((Some(a), open))
}

/// The device's latest tap on a tag (the page polls it while the customer posts).
pub async fn status(
    d: &Db,
    code: &str,
    device: &str,
    now: i64,
) -> ApiResult<(Option<TapRow>, bool)> {
    let tag = db::tag_by_code(d, code)
        .await?
        .ok_or_else(|| ApiError::invalid("tag", Msg::TagUnknown))?;
    let tap = db::last_tap(d, tag.id, device).await?;
    let (_, can_draw) = draw_open(d, &tag, device, now).await?;
    Ok((tap, can_draw))
}

/// Rations the public pages: per device (the cookie), per client address (a script that drops its
/// cookie) and per tag or activity (all phones together), so a flood from one phone is refused
/// while the shop's other customers still get through.
pub struct PublicLimits {
    device: crate::auth::limits::LoginLimits,
    address: crate::auth::limits::LoginLimits,
    tag: crate::auth::limits::LoginLimits,
}

use crate::auth::limits::Rule;
/// A phone: 10 pages at once, then one every 2 s.
pub const PER_DEVICE: Rule = Rule {
    burst: 10.0,
    per_min: 30.0,
};
/// An address (a shop's Wi-Fi holds many phones): 60 at once, then 2 a second.
pub const PER_ADDRESS: Rule = Rule {
    burst: 60.0,
    per_min: 120.0,
};
/// A tag or an activity: 300 at once, then 20 a second.
pub const PER_TAG: Rule = Rule {
    burst: 300.0,
    per_min: 1200.0,
};
const UNBOUNDED: Rule = Rule {
    burst: 1e12,
    per_min: 1e12,
};

impl PublicLimits {
    pub fn new(clock: crate::auth::limits::Clock) -> PublicLimits {
        use crate::auth::limits::LoginLimits;
        PublicLimits {
            device: LoginLimits::with_rules(clock.clone(), PER_DEVICE, UNBOUNDED),
            address: LoginLimits::with_rules(clock.clone(), PER_ADDRESS, UNBOUNDED),
            tag: LoginLimits::with_rules(clock, PER_TAG, UNBOUNDED),
        }
    }

    /// No limits (benchmarks from one address).
    pub fn unbounded() -> PublicLimits {
        use crate::auth::limits::LoginLimits;
        let clock: crate::auth::limits::Clock = std::sync::Arc::new(domain::now_ms);
        PublicLimits {
            device: LoginLimits::with_rules(clock.clone(), UNBOUNDED, UNBOUNDED),
            address: LoginLimits::with_rules(clock.clone(), UNBOUNDED, UNBOUNDED),
            tag: LoginLimits::with_rules(clock, UNBOUNDED, UNBOUNDED),
        }
    }

    /// Takes one request from each budget, or refuses with the ms to wait. A refusal by a later
    /// budget gives back what the earlier ones took.
    pub fn take(&self, device: &str, address: &str, tag: &str) -> Result<(), i64> {
        self.device.take(device).map_err(|r| r.wait_ms)?;
        if let Err(r) = self.address.take(address) {
            self.device.give_back(device);
            return Err(r.wait_ms);
        }
        if let Err(r) = self.tag.take(tag) {
            self.device.give_back(device);
            self.address.give_back(address);
            return Err(r.wait_ms);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn one_phone_flooding_is_refused_but_others_pass() {
        let t = Arc::new(AtomicI64::new(1_000_000));
        let t2 = t.clone();
        let l = PublicLimits::new(Arc::new(move || t2.load(Ordering::SeqCst)));
        let mut passed = 0;
        // 100 taps within one second from one phone.
        for _ in 0..100 {
            if l.take("phone-a", "1.1.1.1", "tag").is_ok() {
                passed += 1;
            }
        }
        assert_eq!(passed, 10);
        assert!(l.take("phone-b", "1.1.1.1", "tag").is_ok());
        // Dropping the cookie does not help beyond the address's budget.
        let fresh = (0..100)
            .filter(|i| l.take(&format!("new-{i}"), "9.9.9.9", "tag").is_ok())
            .count();
        assert_eq!(fresh, 60);
        t.fetch_add(2_000, Ordering::SeqCst);
        assert!(l.take("phone-a", "1.1.1.1", "tag").is_ok());
    }
}
