//! Lottery activities (SPEC §2 /Events, §3 Coupon) and NFC tap-to-post tags: their rules, limits and
//! states, the odds of a draw, coupon codes. Pure: the clock and the random numbers are arguments.

use crate::i18n::Msg;
use crate::validate::Invalid;

pub const NAME_MAX: usize = 50;
pub const PRIZE_NAME_MAX: usize = 30;
pub const DESCRIPTION_MAX: usize = 200;
pub const RULES_MAX: usize = 500;
pub const PRIZES_MAX: usize = 10;
/// Odds are kept in hundredths of a percent (basis points): 10,000 = certain.
pub const ODDS_SCALE: i64 = 10_000;
pub const STOCK_MAX: i64 = 1_000_000;
pub const PER_PERSON_MAX: i64 = 1000;
pub const PER_DAY_MAX: i64 = 100;
pub const PRIZE_LIMIT_MAX: i64 = 100;
pub const VALID_DAYS_MAX: i64 = 3650;
pub const DAY_MS: i64 = 86_400_000;
/// Titles of an NFC tag added at once.
pub const TITLES_AT_ONCE: usize = 200;

crate::text_enum! {
    /// Who may draw.
    pub enum Who {
        /// Anybody who opens the activity's page.
        Anyone = "anyone",
        /// Only a customer whose tap-to-post came back posted: one draw per post.
        Posters = "posters",
    }
}

crate::text_enum! {
    /// Where a draw came from: the activity's public page, or a customer's tap-to-post (NFC).
    pub enum DrawSource {
        Nfc = "nfc",
        Page = "page",
    }
}

crate::text_enum! {
    pub enum PrizeKind {
        Coupon = "coupon",
        Thanks = "thanks",
    }
}

crate::text_enum! {
    /// Where an activity stands at `now`.
    pub enum ActivityState {
        Upcoming = "upcoming",
        Running = "running",
        Ended = "ended",
    }
}
impl ActivityState {
    pub fn at(starts_at: i64, ends_at: i64, deleted: bool, now: i64) -> ActivityState {
        if deleted || now >= ends_at {
            ActivityState::Ended
        } else if now < starts_at {
            ActivityState::Upcoming
        } else {
            ActivityState::Running
        }
    }
}

crate::text_enum! {
    /// A coupon's state: issued by a draw, then redeemed by the shop or expired. Stored as its times.
    pub enum CouponState {
        Issued = "issued",
        Redeemed = "redeemed",
        Expired = "expired",
    }
}
impl CouponState {
    pub fn of(redeemed_at: i64, expires_at: i64, now: i64) -> CouponState {
        if redeemed_at > 0 {
            CouponState::Redeemed
        } else if now >= expires_at {
            CouponState::Expired
        } else {
            CouponState::Issued
        }
    }
    /// Only an issued coupon moves, and only to redeemed (expiry is time passing, not a move).
    pub fn can_become(self, next: CouponState) -> bool {
        matches!((self, next), (CouponState::Issued, CouponState::Redeemed))
    }
}

/// A prize as the form sends it, odds as a percentage.
#[derive(Debug, Clone, PartialEq)]
pub struct PrizeInput {
    pub id: Option<i64>,
    pub name: String,
    pub kind: String,
    pub odds: f64,
    pub stock: i64,
    pub per_person: i64,
    pub per_day: i64,
    pub description: String,
    pub valid_days: i64,
}

/// A prize checked: odds in basis points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prize {
    pub id: Option<i64>,
    pub name: String,
    pub kind: PrizeKind,
    pub odds_bp: i64,
    pub stock: i64,
    pub per_person: i64,
    pub per_day: i64,
    pub description: String,
    pub valid_days: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ActivityInput {
    pub name: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub who: String,
    pub per_person: i64,
    pub per_day: i64,
    pub color: String,
    pub rules_text: String,
    pub prizes: Vec<PrizeInput>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activity {
    pub name: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub who: Who,
    pub per_person: i64,
    pub per_day: i64,
    pub color: String,
    pub rules_text: String,
    pub prizes: Vec<Prize>,
}

fn invalid(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Invalid {
    Invalid { field, msg, args }
}

fn range(field: &'static str, v: i64, min: i64, max: i64) -> Result<(), Invalid> {
    if v < min || v > max {
        return Err(invalid(
            field,
            Msg::OutOfRange,
            vec![("min", min.to_string()), ("max", max.to_string())],
        ));
    }
    Ok(())
}

/// The last moment a form's time may name (2100-01-01 00:00 UTC, ms): far past any activity, and a
/// value past it (or before 1970) is a typo or a probe, not "empty".
const TIME_MAX: i64 = 4_102_444_800_000;

fn time(field: &'static str, v: i64) -> Result<(), Invalid> {
    if !(0..=TIME_MAX).contains(&v) {
        return Err(invalid(
            field,
            Msg::OutOfRange,
            vec![("min", "1970-01-01".into()), ("max", "2100-01-01".into())],
        ));
    }
    Ok(())
}

fn text(field: &'static str, v: &str, required: bool, max: usize) -> Result<String, Invalid> {
    let v = v.trim();
    if required {
        crate::validate::required(field, v)?;
    }
    crate::validate::max_chars(field, v, max)?;
    crate::validate::plain_text(field, v)?;
    Ok(v.to_string())
}

/// `#RRGGBB`, or the default red when empty.
pub fn color(v: &str) -> Result<String, Invalid> {
    let v = v.trim();
    if v.is_empty() {
        return Ok("#e4393c".into());
    }
    let ok = v.len() == 7 && v.starts_with('#') && v[1..].chars().all(|c| c.is_ascii_hexdigit());
    if !ok {
        return Err(invalid(
            "color",
            Msg::InvalidValue,
            vec![("reason", "#RRGGBB".into())],
        ));
    }
    Ok(v.to_ascii_lowercase())
}

/// A percentage with at most two decimals, in basis points.
fn odds_bp(odds: f64) -> Result<i64, Invalid> {
    let bp = (odds * 100.0).round();
    if !odds.is_finite()
        || (odds * 100.0 - bp).abs() > 1e-6
        || !(1.0..=ODDS_SCALE as f64).contains(&bp)
    {
        return Err(invalid("odds", Msg::PrizeOdds, vec![]));
    }
    Ok(bp as i64)
}

/// Checks an activity as the form sends it.
pub fn activity(a: &ActivityInput) -> Result<Activity, Invalid> {
    let name = text("name", &a.name, true, NAME_MAX)?;
    if a.starts_at == 0 {
        return Err(invalid("starts_at", Msg::Required, vec![]));
    }
    time("starts_at", a.starts_at)?;
    time("ends_at", a.ends_at)?;
    if a.ends_at <= a.starts_at {
        return Err(invalid("ends_at", Msg::ActivityEndsBeforeStart, vec![]));
    }
    let who = Who::parse(a.who.trim()).ok_or_else(|| {
        invalid(
            "who",
            Msg::InvalidValue,
            vec![("reason", "anyone | posters".into())],
        )
    })?;
    range("per_person", a.per_person, 1, PER_PERSON_MAX)?;
    range("per_day", a.per_day, 1, PER_DAY_MAX.min(a.per_person))?;
    let color = color(&a.color)?;
    let rules_text = text("rules_text", &a.rules_text, false, RULES_MAX)?;
    if a.prizes.is_empty() || a.prizes.len() > PRIZES_MAX {
        return Err(invalid(
            "prizes",
            Msg::PrizeCount,
            vec![("max", PRIZES_MAX.to_string())],
        ));
    }
    let mut prizes = vec![];
    for p in &a.prizes {
        prizes.push(prize(p)?);
    }
    if !prizes.iter().any(|p| p.kind == PrizeKind::Coupon) {
        return Err(invalid(
            "prizes",
            Msg::PrizeCount,
            vec![("max", PRIZES_MAX.to_string())],
        ));
    }
    let total: i64 = prizes.iter().map(|p| p.odds_bp).sum();
    if total > ODDS_SCALE {
        return Err(invalid(
            "prizes",
            Msg::PrizeOddsTotal,
            vec![("total", percent(total))],
        ));
    }
    Ok(Activity {
        name,
        starts_at: a.starts_at,
        ends_at: a.ends_at,
        who,
        per_person: a.per_person,
        per_day: a.per_day,
        color,
        rules_text,
        prizes,
    })
}

fn prize(p: &PrizeInput) -> Result<Prize, Invalid> {
    let name = text("prize_name", &p.name, true, PRIZE_NAME_MAX)?;
    let kind = PrizeKind::parse(p.kind.trim()).ok_or_else(|| {
        invalid(
            "prize_kind",
            Msg::InvalidValue,
            vec![("reason", "coupon | thanks".into())],
        )
    })?;
    let odds_bp = odds_bp(p.odds)?;
    let description = text("description", &p.description, false, DESCRIPTION_MAX)?;
    if kind == PrizeKind::Thanks {
        return Ok(Prize {
            id: p.id,
            name,
            kind,
            odds_bp,
            stock: 0,
            per_person: 0,
            per_day: 0,
            description,
            valid_days: 0,
        });
    }
    range("stock", p.stock, 1, STOCK_MAX)?;
    range("per_person", p.per_person, 1, PRIZE_LIMIT_MAX)?;
    range("per_day", p.per_day, 1, PRIZE_LIMIT_MAX)?;
    range("valid_days", p.valid_days, 1, VALID_DAYS_MAX)?;
    Ok(Prize {
        id: p.id,
        name,
        kind,
        odds_bp,
        stock: p.stock,
        per_person: p.per_person,
        per_day: p.per_day,
        description,
        valid_days: p.valid_days,
    })
}

/// Basis points as the console shows them: "12.5%".
pub fn percent(bp: i64) -> String {
    let s = format!("{:.2}", bp as f64 / 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

/// Which prize a roll in `0..ODDS_SCALE` lands on: prizes take consecutive slices of the odds in the
/// given order; a roll past them all is "thanks for taking part" (None).
pub fn pick(odds_bp: &[i64], roll: i64) -> Option<usize> {
    let mut upper = 0;
    for (i, bp) in odds_bp.iter().enumerate() {
        upper += bp;
        if roll < upper {
            return Some(i);
        }
    }
    None
}

/// Coupon codes: 12 characters from an alphabet without look-alikes (no 0/O, 1/I/L), 60 bits of
/// randomness, grouped `XXXX-XXXX-XXXX` for reading aloud at the counter.
const CODE_ALPHABET: &[u8; 32] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789#";

pub fn coupon_code(random: u64) -> String {
    // 31 usable symbols ('#' is never chosen): base-31 digits of the random value.
    let mut v = random;
    let mut out = String::with_capacity(14);
    for i in 0..12 {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(CODE_ALPHABET[(v % 31) as usize] as char);
        v /= 31;
    }
    out
}

/// What a person typed at the counter, in the stored form: upper case, groups re-joined, look-alikes
/// mapped (O→0 is not in the alphabet, so O stays and simply does not match).
pub fn normalize_code(v: &str) -> String {
    let compact: String = v
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if compact.len() != 12 {
        return compact;
    }
    format!("{}-{}-{}", &compact[..4], &compact[4..8], &compact[8..])
}

/// A device id as the merchant sees it in logs: short, not the cookie itself.
pub fn person_label(device: &str) -> String {
    format!("D-{}", device.chars().take(8).collect::<String>())
}

crate::text_enum! {
    /// An NFC tag's pool: where its videos come from.
    pub enum PoolKind {
        /// The finished videos of a mixing project.
        Project = "project",
        /// The uploaded videos of a video-library shot group.
        Group = "group",
    }
}

crate::text_enum! {
    /// A tap's state: a video handed out with its share link, then posted (the create_video webhook).
    pub enum TapState {
        Handed = "handed",
        Posted = "posted",
    }
}
impl TapState {
    pub fn can_become(self, next: TapState) -> bool {
        matches!((self, next), (TapState::Handed, TapState::Posted))
    }
}

/// An NFC tag's titles as typed, one per line: blank lines dropped, each within the task title limit.
pub fn tag_titles(lines: &[String]) -> Result<Vec<String>, Invalid> {
    let out: Vec<String> = lines
        .iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    if out.is_empty() {
        return Err(invalid("titles", Msg::Required, vec![]));
    }
    if out.len() > TITLES_AT_ONCE {
        return Err(invalid(
            "titles",
            Msg::TooManyValues,
            vec![("max", TITLES_AT_ONCE.to_string())],
        ));
    }
    for (i, t) in out.iter().enumerate() {
        if t.chars().count() > crate::matrix::TITLE_MAX {
            return Err(invalid(
                "titles",
                Msg::TitleTooLong,
                vec![
                    ("n", (i + 1).to_string()),
                    ("max", crate::matrix::TITLE_MAX.to_string()),
                ],
            ));
        }
        crate::validate::plain_text("titles", t)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn coupon(odds: f64) -> PrizeInput {
        PrizeInput {
            id: None,
            name: "9折券".into(),
            kind: "coupon".into(),
            odds,
            stock: 10,
            per_person: 1,
            per_day: 1,
            description: "到店使用".into(),
            valid_days: 30,
        }
    }

    fn input(prizes: Vec<PrizeInput>) -> ActivityInput {
        ActivityInput {
            name: "开业抽奖".into(),
            starts_at: 1_000,
            ends_at: 2_000,
            who: "anyone".into(),
            per_person: 3,
            per_day: 1,
            color: "".into(),
            rules_text: "".into(),
            prizes,
        }
    }

    #[test]
    fn odds_are_checked_alone_and_together() {
        assert_eq!(
            activity(&input(vec![coupon(12.5)])).unwrap().prizes[0].odds_bp,
            1250
        );
        assert_eq!(
            activity(&input(vec![coupon(0.0)])).unwrap_err().msg,
            Msg::PrizeOdds
        );
        assert_eq!(
            activity(&input(vec![coupon(12.345)])).unwrap_err().msg,
            Msg::PrizeOdds
        );
        assert_eq!(
            activity(&input(vec![coupon(f64::NAN)])).unwrap_err().msg,
            Msg::PrizeOdds
        );
        let e = activity(&input(vec![coupon(60.0), coupon(50.0)])).unwrap_err();
        assert_eq!((e.field, e.msg), ("prizes", Msg::PrizeOddsTotal));
        assert!(activity(&input(vec![coupon(60.0), coupon(40.0)])).is_ok());
    }

    #[test]
    fn an_activity_needs_a_coupon_a_window_and_sane_limits() {
        let mut thanks = coupon(10.0);
        thanks.kind = "thanks".into();
        assert_eq!(activity(&input(vec![thanks])).unwrap_err().field, "prizes");
        assert_eq!(activity(&input(vec![])).unwrap_err().field, "prizes");
        let mut a = input(vec![coupon(10.0)]);
        a.ends_at = a.starts_at;
        assert_eq!(activity(&a).unwrap_err().field, "ends_at");
        // a time out of range is not "empty"
        let mut b = input(vec![coupon(10.0)]);
        b.starts_at = i64::MIN;
        let e = activity(&b).unwrap_err();
        assert_eq!((e.field, e.msg), ("starts_at", Msg::OutOfRange));
        b.starts_at = 1_000;
        b.ends_at = i64::MAX;
        assert_eq!(activity(&b).unwrap_err().msg, Msg::OutOfRange);
        let mut a = input(vec![coupon(10.0)]);
        a.per_day = 5;
        assert_eq!(activity(&a).unwrap_err().field, "per_day");
        let mut a = input(vec![coupon(10.0)]);
        a.color = "red".into();
        assert_eq!(activity(&a).unwrap_err().field, "color");
        let mut p = coupon(10.0);
        p.stock = 0;
        assert_eq!(activity(&input(vec![p])).unwrap_err().field, "stock");
    }

    #[test]
    fn states_follow_the_clock() {
        assert_eq!(ActivityState::at(10, 20, false, 5), ActivityState::Upcoming);
        assert_eq!(ActivityState::at(10, 20, false, 10), ActivityState::Running);
        assert_eq!(ActivityState::at(10, 20, false, 20), ActivityState::Ended);
        assert_eq!(ActivityState::at(10, 20, true, 15), ActivityState::Ended);
        assert_eq!(CouponState::of(0, 100, 99), CouponState::Issued);
        assert_eq!(CouponState::of(0, 100, 100), CouponState::Expired);
        assert_eq!(CouponState::of(50, 100, 200), CouponState::Redeemed);
        assert!(CouponState::Issued.can_become(CouponState::Redeemed));
        assert!(!CouponState::Expired.can_become(CouponState::Redeemed));
        assert!(!CouponState::Redeemed.can_become(CouponState::Redeemed));
        assert!(TapState::Handed.can_become(TapState::Posted));
        assert!(!TapState::Posted.can_become(TapState::Handed));
    }

    #[test]
    fn codes_read_back_from_what_staff_type() {
        let c = coupon_code(0xdead_beef_1234_5678);
        assert_eq!(c.len(), 14);
        assert_eq!(normalize_code(&c.to_lowercase().replace('-', " ")), c);
        assert!(!c.contains('#'));
        assert_ne!(coupon_code(1), coupon_code(2));
    }

    #[test]
    fn tag_titles_name_the_long_line() {
        let e = tag_titles(&["好".into(), "".into(), "长".repeat(51)]).unwrap_err();
        assert_eq!(e.msg, Msg::TitleTooLong);
        assert_eq!(e.args[0].1, "2");
        assert_eq!(tag_titles(&[" a ".into(), " ".into()]).unwrap(), vec!["a"]);
        assert_eq!(tag_titles(&[" ".into()]).unwrap_err().msg, Msg::Required);
    }

    proptest! {
        /// A roll lands on a prize exactly as often as its odds say: each prize owns a slice of
        /// `0..ODDS_SCALE` as wide as its odds, the rest is "thanks".
        #[test]
        fn every_roll_lands_in_its_slice(odds in proptest::collection::vec(1i64..3000, 1..5), roll in 0i64..ODDS_SCALE) {
            let total: i64 = odds.iter().sum();
            match pick(&odds, roll) {
                Some(i) => {
                    let lo: i64 = odds[..i].iter().sum();
                    prop_assert!(lo <= roll && roll < lo + odds[i]);
                }
                None => prop_assert!(roll >= total),
            }
        }
    }
}
