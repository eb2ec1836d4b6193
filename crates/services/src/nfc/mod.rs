//! Area "nfc": tap-to-post tags (`/nfc.index/*`) and what a tap does (the public page `/t/<code>`).
//! A tap hands the customer one video of the tag's pool that no tap had before, with a title from the
//! tag's list and a signed Douyin H5 share link; when the platform reports the share posted
//! (create_video webhook, `matrix::webhook`), the tap is posted and the tag's activity lets them draw.

use crate::error::{ApiError, ApiResult};
use crate::platform::Hub;
use domain::activities::{self as rules, PoolKind, TapState, Who};
use domain::i18n::Msg;
use domain::platform::DyOnly;
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

async fn check(
    d: &Db,
    mid: i64,
    t: &TagInput,
) -> ApiResult<(String, DyOnly, PoolKind, Vec<String>)> {
    let name = t.name.trim().to_string();
    domain::validate::required("name", &name)?;
    domain::validate::max_chars("name", &name, rules::NAME_MAX)?;
    domain::validate::plain_text("name", &name)?;
    // The share page is Douyin's: no other platform is accepted.
    let platform = DyOnly::parse(&t.platform).ok_or_else(|| {
        ApiError::invalid_with("platform", Msg::InvalidValue, vec![("reason", "dy".into())])
    })?;
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
    Ok((name, platform, kind, topics(&t.topics)?))
}

/// A tag with its pool's name and sizes.
pub struct Tag {
    pub row: TagRow,
    pub pool_name: String,
    pub pool_size: i64,
    pub pool_left: i64,
}

async fn tag_full(d: &Db, row: TagRow) -> ApiResult<Tag> {
    let kind = row.pool_kind;
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

/// One page of a tag's titles (the tag must be the merchant's).
pub async fn titles(
    d: &Db,
    mid: i64,
    tag_id: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<TitleRow>, store::list::Total)> {
    db::tag(d, mid, tag_id).await?.ok_or(ApiError::NotFound)?;
    Ok(db::titles(d, mid, tag_id, q).await?)
}

/// What a tag may draw from: mixing projects with finished videos and video-library shot groups,
/// each `(id, name, videos, left unused)`.
pub async fn pools(d: &Db, mid: i64) -> ApiResult<(Vec<Pool>, Vec<Pool>)> {
    Ok(db::pools(d, mid).await?)
}

/// A pool: id, name, its videos, those left unused.
pub type Pool = (i64, String, i64, i64);

pub async fn get(d: &Db, mid: i64, id: i64) -> ApiResult<Tag> {
    let row = db::tag(d, mid, id).await?.ok_or(ApiError::NotFound)?;
    tag_full(d, row).await
}

pub async fn add(d: &Db, mid: i64, t: &TagInput, now: i64) -> ApiResult<Tag> {
    let (name, platform, kind, topics) = check(d, mid, t).await?;
    let spec = db::TagSpec {
        name: &name,
        platform,
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
    let (name, platform, kind, topics) = check(d, mid, t).await?;
    let spec = db::TagSpec {
        name: &name,
        platform,
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

/// The copy precheck on titles a tap posts to Douyin: a `block` finding refuses them.
async fn copy_check(d: &Db, mid: i64, field: &'static str, titles: &[String]) -> ApiResult<()> {
    let fields: Vec<(&'static str, &str)> = titles.iter().map(|t| (field, t.as_str())).collect();
    crate::compliance::form(d, mid, &fields, &[domain::platform::Platform::Dy]).await?;
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
    copy_check(d, mid, "titles", &titles).await?;
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
    copy_check(d, mid, "title", &titles).await?;
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
    if !domain::reports::DAY_SPANS.contains(&days) {
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
    /// The shop's name (the merchant's), which the page shows as its header.
    pub shop: String,
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
pub async fn tap(hub: &Hub, code: &str, device: &str, now: i64) -> ApiResult<Tapped> {
    let d = &hub.db;
    let tag = db::tag_by_code(d, code)
        .await?
        .ok_or_else(|| ApiError::invalid("tag", Msg::TagUnknown))?;
    db::count_tap(d, tag.id, domain::matrix::day_of(now)).await?;
    let kind = tag.pool_kind;
    let topics: Vec<String> = serde_json::from_str(&tag.topics).unwrap_or_default();
    let last = db::last_tap(d, tag.id, device).await?;
    // A phone that posted today sees its post again (its draw and coupon) rather than taking another
    // video of the pool with every reload; the next day it gets a new one.
    if let Some(t) = last.as_ref().filter(|t| {
        t.state == TapState::Posted
            && domain::matrix::day_of(t.posted_at) == domain::matrix::day_of(now)
    }) {
        let tap = t.clone();
        let (activity, can_draw) = draw_open(d, &tag, device, now).await?;
        return Ok(Tapped {
            shop: shop_name(d, tag.merchant_id).await?,
            tag,
            tap,
            activity,
            can_draw,
        });
    }
    let last = last.filter(|t| t.state == TapState::Handed && !t.share_id.is_empty());
    let tap = match last {
        Some(t) if now - t.created_at < SHARE_FRESH_MS => t,
        Some(t) => {
            let link = crate::matrix::accounts::make_share(
                hub,
                tag.merchant_id,
                &t.video_key,
                &t.title,
                &topics,
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
        shop: shop_name(d, tag.merchant_id).await?,
        tag,
        tap,
        activity,
        can_draw,
    })
}

/// The name a customer knows the shop by: the merchant's.
pub async fn shop_name(d: &Db, merchant_id: i64) -> ApiResult<String> {
    Ok(store::auth::users::merchant_by_id(d, merchant_id)
        .await?
        .map(|m| m.name)
        .unwrap_or_default())
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

/// A phone's device cookie as the server makes it: a random id and the server's signature of it, so
/// a script cannot make up devices (each new one would take a video of the pool); only the server
/// makes them, rationed by [`PublicLimits::mint`].
pub fn sign_device(key: &[u8], id: &str) -> String {
    format!("{id}.{}", crate::links::mac(key, &format!("device:{id}")))
}

/// The device id of a cookie value made by [`sign_device`]; a cookie of the pages' first version
/// (a bare id) only when that device already tapped or drew.
pub async fn device_of(d: &Db, key: &[u8], cookie: &str) -> ApiResult<Option<String>> {
    let plain =
        |v: &str| (16..=64).contains(&v.len()) && v.chars().all(|c| c.is_ascii_alphanumeric());
    if let Some((id, sig)) = cookie.split_once('.') {
        let signed = plain(id) && crate::links::verify_mac(key, &format!("device:{id}"), sig);
        return Ok(signed.then(|| id.to_string()));
    }
    if plain(cookie) && db::device_seen(d, cookie).await? {
        return Ok(Some(cookie.to_string()));
    }
    Ok(None)
}

/// Rations the public pages: per device (the cookie), per client address (a script that drops its
/// cookie) and per tag or activity (all phones together), so a flood from one phone is refused
/// while the shop's other customers still get through. New devices are rationed on their own, per
/// address and per tag or activity: each new one may take a video.
pub struct PublicLimits {
    device: crate::limits::LoginLimits,
    address: crate::limits::LoginLimits,
    tag: crate::limits::LoginLimits,
    new_by_address: crate::limits::LoginLimits,
    new_by_tag: crate::limits::LoginLimits,
}

use crate::limits::Rule;
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
/// New devices from one address: 10 at once, then one every 2 minutes.
pub const NEW_PER_ADDRESS: Rule = Rule {
    burst: 10.0,
    per_min: 0.5,
};
/// New devices on one tag or activity: 60 at once, then 4 a minute (a counter's queue of customers).
pub const NEW_PER_TAG: Rule = Rule {
    burst: 60.0,
    per_min: 4.0,
};
const UNBOUNDED: Rule = Rule {
    burst: 1e12,
    per_min: 1e12,
};

impl PublicLimits {
    pub fn new(clock: crate::limits::Clock) -> PublicLimits {
        use crate::limits::LoginLimits;
        PublicLimits {
            device: LoginLimits::with_rules(clock.clone(), PER_DEVICE, UNBOUNDED),
            address: LoginLimits::with_rules(clock.clone(), PER_ADDRESS, UNBOUNDED),
            tag: LoginLimits::with_rules(clock.clone(), PER_TAG, UNBOUNDED),
            new_by_address: LoginLimits::with_rules(clock.clone(), NEW_PER_ADDRESS, UNBOUNDED),
            new_by_tag: LoginLimits::with_rules(clock, NEW_PER_TAG, UNBOUNDED),
        }
    }

    /// No limits (benchmarks from one address).
    pub fn unbounded() -> PublicLimits {
        use crate::limits::LoginLimits;
        let clock: crate::limits::Clock = std::sync::Arc::new(domain::now_ms);
        let free = || LoginLimits::with_rules(clock.clone(), UNBOUNDED, UNBOUNDED);
        PublicLimits {
            device: free(),
            address: free(),
            tag: free(),
            new_by_address: free(),
            new_by_tag: free(),
        }
    }

    /// Takes one request from each budget, or refuses with the ms to wait. A refusal by a later
    /// budget gives back what the earlier ones took.
    pub fn take(&self, device: &str, address: &str, tag: &str) -> Result<(), i64> {
        take_all(&[
            (&self.device, device),
            (&self.address, address),
            (&self.tag, tag),
        ])
    }

    /// One new device from `address` on tag or activity `tag`, or the ms to wait.
    pub fn mint(&self, address: &str, tag: &str) -> Result<(), i64> {
        take_all(&[(&self.new_by_address, address), (&self.new_by_tag, tag)])
    }
}

/// Takes one from each budget in turn; a refusal gives back what the earlier ones took.
fn take_all(budgets: &[(&crate::limits::LoginLimits, &str)]) -> Result<(), i64> {
    for (i, (limits, key)) in budgets.iter().enumerate() {
        if let Err(r) = limits.take(key) {
            for (l, k) in &budgets[..i] {
                l.give_back(k);
            }
            return Err(r.wait_ms);
        }
    }
    Ok(())
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

    #[test]
    fn new_devices_are_rationed_per_address_and_per_tag() {
        let t = Arc::new(AtomicI64::new(1_000_000));
        let t2 = t.clone();
        let l = PublicLimits::new(Arc::new(move || t2.load(Ordering::SeqCst)));
        let from_one = (0..30).filter(|_| l.mint("1.1.1.1", "tag").is_ok()).count();
        assert_eq!(from_one, 10);
        // Many addresses together stop at the tag's budget (less the ten above).
        let many = (0..100)
            .filter(|i| l.mint(&format!("10.0.0.{i}"), "tag").is_ok())
            .count();
        assert_eq!(many, 50);
        assert!(l.mint("10.0.0.200", "other-tag").is_ok());
        t.fetch_add(120_000, Ordering::SeqCst);
        assert!(l.mint("1.1.1.1", "other-tag").is_ok());
    }

    #[test]
    fn only_the_servers_device_cookies_count() {
        let signed = sign_device(b"k", "abcdefghijklmnop1234");
        let (id, sig) = signed.split_once('.').unwrap();
        assert_eq!(id, "abcdefghijklmnop1234");
        assert!(crate::links::verify_mac(b"k", &format!("device:{id}"), sig));
        assert_ne!(sign_device(b"other", id), signed);
    }
}

/// A new visitor device's id (signed into its cookie by `sign_device`).
pub fn new_device() -> String {
    store::random_token(18)
}

/// The enabled tag of a code, if any.
pub async fn tag_by_code(d: &Db, code: &str) -> ApiResult<Option<TagRow>> {
    Ok(db::tag_by_code(d, code).await?)
}

/// The posts a device made from an activity's tags that no draw has used yet.
pub async fn undrawn_posts(d: &Db, activity_id: i64, device: &str) -> ApiResult<i64> {
    Ok(db::undrawn_posts(d, activity_id, device).await?)
}

/// The NFC titles import's column (its template's header).
pub const TITLE_COLUMNS: [domain::sheet::Column; 1] =
    [domain::sheet::col("title", "标题", "Title")];

/// Adds a sheet's titles (one per row) to a tag's titles: every row is checked first (at most 50
/// characters, the copy precheck for Douyin), any bad one refuses the sheet naming every bad row;
/// then all are added in one transaction. How many were added.
pub async fn import_titles(
    d: &Db,
    mid: i64,
    tag_id: i64,
    sheet: &domain::sheet::Sheet,
    now: i64,
) -> ApiResult<usize> {
    use domain::sheet::RowError;
    db::tag(d, mid, tag_id).await?.ok_or(ApiError::NotFound)?;
    let checker = crate::compliance::checker(d, Some(mid)).await?;
    let mut errors = vec![];
    let mut out: Vec<String> = vec![];
    for (row, cells) in &sheet.rows {
        let t = sheet.cell(cells, "title");
        let err = |msg: Msg, args: Vec<(&'static str, String)>| {
            RowError::new(*row, TITLE_COLUMNS[0], msg, args)
        };
        if t.is_empty() {
            errors.push(err(Msg::Required, vec![]));
            continue;
        }
        if t.chars().count() > domain::matrix::TITLE_MAX {
            errors.push(err(
                Msg::TooLong,
                vec![("max", domain::matrix::TITLE_MAX.to_string())],
            ));
            continue;
        }
        let checked = domain::validate::plain_text("title", t).and_then(|_| {
            checker
                .form(&[("title", t)], &[domain::platform::Platform::Dy])
                .map(|_| ())
        });
        match checked {
            Err(e) => errors.push(err(e.msg, e.args)),
            Ok(()) => out.push(t.to_string()),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::rows_invalid(&errors));
    }
    if out.is_empty() {
        return Err(ApiError::invalid("rows", Msg::ImportEmpty));
    }
    if out.len() > rules::TITLES_AT_ONCE {
        return Err(ApiError::too_many_rows(rules::TITLES_AT_ONCE, out.len()));
    }
    db::add_titles(d, mid, tag_id, &out, now).await?;
    Ok(out.len())
}
