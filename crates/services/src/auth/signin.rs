//! Sign-in, registration, SMS codes, password reset, proxy sign-in, sessions: the use cases behind
//! `/login/*` and `/token`. Tokens (JWT) are the HTTP layer's (`api::session`).

use crate::error::{ApiError, ApiResult};
use crate::limits::LoginLimits;
use domain::i18n::Msg;
use domain::{UserKind, now_ms, validate};
use store::Db;
use store::auth::users::{self, Session, User};

/// The failed-sign-in bookkeeping: the lock rows in the database and the in-memory budgets.
#[derive(Clone, Copy)]
pub struct Guards<'a> {
    pub db: &'a Db,
    pub limits: &'a LoginLimits,
    /// The server key that signs the known-device cookie.
    pub key: &'a [u8],
}

/// The cookie a browser gets when it signs in: it proves later that this device signed in as this
/// user before, so what strangers spend of the server-wide budgets (the server's failure budget, the
/// username's lock after failures from anywhere) never refuses it.
pub const DEVICE_COOKIE: &str = "cm_device";
/// How long a device stays known after its last sign-in.
pub const DEVICE_MS: i64 = 180 * 24 * 3_600_000;

/// A device that signed in as `user_id` at `since` (from its signed cookie).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownDevice {
    pub user_id: i64,
    pub since: i64,
}

impl KnownDevice {
    /// The cookie's value: `<user id>.<since>.<signature>`.
    pub fn token(self, key: &[u8]) -> String {
        let sig = crate::links::mac(key, &self.signed());
        format!("{}.{}.{sig}", self.user_id, self.since)
    }

    /// The device a cookie value proves, if its signature holds and it has not run out.
    pub fn from_token(key: &[u8], token: &str, now: i64) -> Option<KnownDevice> {
        let mut parts = token.trim().splitn(3, '.');
        let d = KnownDevice {
            user_id: parts.next()?.parse().ok()?,
            since: parts.next()?.parse().ok()?,
        };
        let fresh = d.since <= now && now - d.since < DEVICE_MS;
        (fresh && crate::links::verify_mac(key, &d.signed(), parts.next()?)).then_some(d)
    }

    fn signed(self) -> String {
        format!("device:{}:{}", self.user_id, self.since)
    }

    /// Its own failure budget and lock key (instead of its address's).
    fn budget(self) -> String {
        format!("device:{}:{}", self.user_id, self.since)
    }
}

/// The budgets of code requests (in memory, per server): per client address (`PER_ADDRESS_HOUR`
/// an hour) and for the whole server (`GLOBAL_MINUTE` a minute), so many numbers from one place,
/// or from many, cannot run up the gateway's bill (SMS pumping).
pub fn sms_limits(clock: crate::limits::Clock) -> LoginLimits {
    use domain::system::sms::{GLOBAL_MINUTE, PER_ADDRESS_HOUR};
    LoginLimits::with_rules(
        clock,
        crate::limits::Rule {
            burst: PER_ADDRESS_HOUR as f64,
            per_min: PER_ADDRESS_HOUR as f64 / 60.0,
        },
        crate::limits::Rule {
            burst: GLOBAL_MINUTE as f64,
            per_min: GLOBAL_MINUTE as f64,
        },
    )
}

/// Sends a 6-digit code for `scene` (`login`, `register` or `reset`) through the operator's gateway:
/// at most one per number per `SMS_RESEND_MS` and `PER_MOBILE_DAY` a China day, within the
/// address's and the server's budgets. A code the gateway refused is not kept, so asking again is
/// not held back by it.
pub async fn send_sms(
    db: &Db,
    sms: &super::sms::Sms,
    limits: &LoginLimits,
    ip: &str,
    mobile: &str,
    scene: &str,
) -> ApiResult<()> {
    use domain::system::sms::{PER_MOBILE_DAY, SmsScene};
    let mobile = mobile.trim();
    validate::mobile(mobile)?;
    let scene = SmsScene::parse(scene).ok_or_else(|| {
        ApiError::invalid_with(
            "scene",
            Msg::InvalidValue,
            vec![("reason", "login | register | reset".into())],
        )
    })?;
    let now = now_ms();
    if let Some(last) = users::last_sms_at(db, mobile).await? {
        let wait = last + domain::SMS_RESEND_MS - now;
        if wait > 0 {
            return Err(ApiError::TooMany(
                Msg::SmsTooFrequent,
                vec![("seconds", ((wait + 999) / 1000).to_string())],
            ));
        }
    }
    let day_start = domain::matrix::at(domain::matrix::day_of(now), 0);
    if users::sms_count_since(db, mobile, day_start).await? >= PER_MOBILE_DAY {
        return Err(ApiError::TooMany(
            Msg::SmsDailyLimit,
            vec![("count", PER_MOBILE_DAY.to_string())],
        ));
    }
    let registered = users::user_by_mobile(db, mobile).await?.is_some();
    match (scene, registered) {
        (SmsScene::Register, true) => return Err(ApiError::invalid("mobile", Msg::MobileTaken)),
        (SmsScene::Login | SmsScene::Reset, false) => {
            return Err(ApiError::invalid("mobile", Msg::MobileNotRegistered));
        }
        _ => {}
    }
    if let Err(r) = limits.take(ip) {
        return Err(ApiError::TooMany(
            Msg::SmsBusy,
            vec![("seconds", ((r.wait_ms + 999) / 1000).to_string())],
        ));
    }
    let code = {
        use rand::Rng;
        format!("{:06}", rand::rng().random_range(0..1_000_000))
    };
    // Stored before it is sent: a code that arrives is always one we know.
    users::insert_sms(db, mobile, scene.as_str(), &code).await?;
    if let Err(e) = sms.send(db, mobile, &code, scene).await {
        users::delete_sms(db, mobile, scene.as_str(), &code).await?;
        return Err(super::sms::refused(&e));
    }
    Ok(())
}

/// What a sign-in form sends.
pub struct Credentials<'a> {
    /// 1 enterprise account + password, 2 mobile + SMS code, 3 staff account.
    pub login_type: i64,
    pub username: &'a str,
    pub password: &'a str,
    pub mobile: &'a str,
    pub code: &'a str,
    pub agree: bool,
    /// The known-device cookie's value, if the browser sent one.
    pub device: Option<&'a str>,
}

/// Signing in and signing up both need the agreements accepted.
fn agreed(agree: bool) -> ApiResult<()> {
    if agree {
        Ok(())
    } else {
        Err(ApiError::invalid("agree", Msg::AgreementRequired))
    }
}

/// The user the credentials prove, or why not (wrong ones count towards the locks).
pub async fn authenticate(g: Guards<'_>, ip: &str, r: &Credentials<'_>) -> ApiResult<User> {
    agreed(r.agree)?;
    match r.login_type {
        1 | 3 => password_login(g, ip, r).await,
        2 => sms_login(g, ip, r).await,
        _ => Err(ApiError::invalid_with(
            "login_type",
            Msg::InvalidValue,
            vec![("reason", "1 | 2 | 3".into())],
        )),
    }
}

/// Refuses a locked login key (429) before any check runs.
async fn check_lock(db: &Db, key: &str, now: i64) -> ApiResult<()> {
    if let Some(until) = users::locked_until(db, key, now).await? {
        return Err(locked(until, now));
    }
    Ok(())
}

fn locked(until: i64, now: i64) -> ApiError {
    let mins = ((until - now) + 59_999) / 60_000;
    ApiError::TooMany(Msg::Locked, vec![("until", format!("{mins} min"))])
}

/// Counts one wrong password or code against each key (with its limit) and answers with how many tries
/// the first key has left, or the lock.
async fn wrong(db: &Db, keys: &[(&str, i64)], field: &str, msg: Msg, now: i64) -> ApiError {
    let (mut left, mut lock) = (i64::MAX, None);
    for (i, (key, limit)) in keys.iter().enumerate() {
        match users::record_failure(db, key, *limit, now).await {
            Ok((n, until)) => {
                lock = lock.max(until);
                if i == 0 {
                    left = limit - n;
                }
            }
            Err(e) => return e.into(),
        }
    }
    match lock {
        Some(until) => locked(until, now),
        None => ApiError::invalid_with(field, msg, vec![("left", left.to_string())]),
    }
}

/// Each password or code check is rationed per address and server-wide before it runs (a password
/// check costs an argon2 hash); a sign-in that succeeds gives its attempt back.
fn ration(limits: &LoginLimits, ip: &str) -> ApiResult<()> {
    limits.take(ip).map_err(throttled)
}

fn throttled(r: crate::limits::Refused) -> ApiError {
    let seconds = ((r.wait_ms + 999) / 1000).to_string();
    ApiError::TooMany(Msg::SignInThrottled, vec![("seconds", seconds)])
}

/// Checks an SMS code of `scene` for `mobile`: a wrong one counts against `sms:<mobile>` (5 tries).
async fn check_code(g: Guards<'_>, mobile: &str, scene: &str, code: &str) -> ApiResult<()> {
    let key = format!("sms:{mobile}");
    let now = g.limits.now();
    check_lock(g.db, &key, now).await?;
    if !users::consume_sms(g.db, mobile, scene, code.trim()).await? {
        let keys = [(key.as_str(), domain::LOCK_AFTER_FAILURES)];
        return Err(wrong(g.db, &keys, "code", Msg::BadCode, now).await);
    }
    Ok(())
}

/// Wrong passwords lock one username for one address (`pwd:<name>@<address>`, 5 tries), so a stranger
/// cannot lock the owner out; all addresses together have a slower limit per username (`pwd:<name>`).
/// A device that signed in as this user before (its cookie) has a budget and a lock of its own in
/// place of its address's, and neither the server's budget nor the username's lock holds it back.
async fn password_login(g: Guards<'_>, ip: &str, r: &Credentials<'_>) -> ApiResult<User> {
    let username = r.username.trim();
    validate::required("username", username)?;
    validate::required("password", r.password)?;
    let now = g.limits.now();
    let user = users::user_by_username(g.db, username).await?;
    let known = r
        .device
        .and_then(|t| KnownDevice::from_token(g.key, t, now))
        .filter(|d| user.as_ref().is_some_and(|u| u.id == d.user_id));
    let budget = match known {
        Some(d) => d.budget(),
        None => ip.to_string(),
    };
    match known {
        Some(_) => g.limits.take_own(&budget),
        None => g.limits.take(&budget),
    }
    .map_err(throttled)?;
    let name_key = format!("pwd:{}", username.to_lowercase());
    let addr_key = format!("{name_key}@{budget}");
    check_lock(g.db, &addr_key, now).await?;
    if known.is_none() {
        check_lock(g.db, &name_key, now).await?;
    }
    // Same work either way, so timing does not tell which usernames exist; off the async threads, so
    // a burst of sign-ins does not stall every other request.
    let hash = user
        .as_ref()
        .map_or(dummy_hash().to_string(), |u| u.password_hash.clone());
    let ok = match known {
        Some(_) => super::hashing::verify_known(r.password, &hash).await?,
        None => super::hashing::verify(r.password, &hash).await?,
    };
    let Some(user) = user.filter(|_| ok) else {
        let mut keys = vec![(addr_key.as_str(), domain::LOCK_AFTER_FAILURES)];
        if known.is_none() {
            keys.push((name_key.as_str(), domain::USER_LOCK_AFTER_FAILURES));
        }
        return Err(wrong(g.db, &keys, "password", Msg::BadCredentials, now).await);
    };
    // Only failures use the budgets.
    match known {
        Some(_) => g.limits.give_back_own(&budget),
        None => g.limits.give_back(&budget),
    }
    users::clear_failures(g.db, &addr_key).await?;
    let staff = user.kind == UserKind::Staff;
    match (r.login_type, staff) {
        (1, true) => Err(ApiError::invalid("login_type", Msg::StaffUseStaffLogin)),
        (3, false) => Err(ApiError::invalid("login_type", Msg::NotStaffAccount)),
        _ => Ok(user),
    }
}

fn dummy_hash() -> &'static str {
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| store::auth::password::hash("not-a-real-password-1"))
}

async fn sms_login(g: Guards<'_>, ip: &str, r: &Credentials<'_>) -> ApiResult<User> {
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    validate::required("code", r.code)?;
    ration(g.limits, ip)?;
    check_code(g, mobile, "login", r.code).await?;
    g.limits.give_back(ip);
    users::clear_failures(g.db, &format!("sms:{mobile}")).await?;
    users::user_by_mobile(g.db, mobile)
        .await?
        .ok_or(ApiError::invalid("mobile", Msg::MobileNotRegistered))
}

/// Refuses a disabled user, or a user of a disabled (or vanished) merchant.
pub async fn check_enabled(db: &Db, u: &User) -> ApiResult<()> {
    let merchant_off = match u.merchant_id {
        Some(id) => users::merchant_by_id(db, id)
            .await?
            .is_none_or(|m| m.status == 0),
        None => false,
    };
    if u.status == 0 || merchant_off {
        return Err(ApiError::forbidden(Msg::AccountDisabled));
    }
    Ok(())
}

/// Starts a session for a user who just proved who they are.
pub async fn start_session(
    db: &Db,
    user: &User,
    remember: bool,
    proxy_user: Option<&str>,
) -> ApiResult<Session> {
    let ttl = if remember {
        domain::REMEMBER_MS
    } else {
        domain::SESSION_MS
    };
    let session = users::create_session(db, user.id, remember, proxy_user, ttl).await?;
    users::touch_login(db, user.id).await?;
    Ok(session)
}

/// Slides a session forward by its lifetime (6 h, 24 h with remember-me).
pub async fn refresh(db: &Db, session_id: &str, remember: bool) -> ApiResult<Session> {
    let ttl = if remember {
        domain::REMEMBER_MS
    } else {
        domain::SESSION_MS
    };
    users::extend_session(db, session_id, now_ms() + ttl).await?;
    users::session(db, session_id)
        .await?
        .ok_or(ApiError::SessionRevoked)
}

/// A single-use proxy token: the merchant owner it signs in as, and the operator who asked for it.
pub async fn consume_proxy(db: &Db, token: &str) -> ApiResult<(User, User)> {
    validate::required("proxyToken", token)?;
    let (merchant_id, operator_id) = users::consume_proxy_token(db, token.trim())
        .await?
        .ok_or(ApiError::invalid("proxyToken", Msg::ProxyTokenInvalid))?;
    let owner = users::merchant_owner(db, merchant_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let operator = users::user_by_id(db, operator_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok((owner, operator))
}

/// What the registration form sends.
pub struct Registration<'a> {
    pub merchant_name: &'a str,
    pub username: &'a str,
    pub mobile: &'a str,
    pub code: &'a str,
    pub password: &'a str,
    pub password_confirm: &'a str,
    pub agree: bool,
}

/// A new merchant and its owner account, after the SMS code of `register`.
pub async fn register(g: Guards<'_>, r: &Registration<'_>) -> ApiResult<User> {
    agreed(r.agree)?;
    let name = r.merchant_name.trim();
    validate::required("merchant_name", name)?;
    validate::max_chars("merchant_name", name, validate::MERCHANT_NAME_MAX)?;
    let username = r.username.trim();
    validate::username(username)?;
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    validate::new_password(r.password, r.password_confirm)?;
    if users::user_by_username(g.db, username).await?.is_some() {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    if users::user_by_mobile(g.db, mobile).await?.is_some() {
        return Err(ApiError::invalid("mobile", Msg::MobileTaken));
    }
    check_code(g, mobile, "register", r.code).await?;
    let (_, owner) = users::create_merchant(
        g.db,
        name,
        username,
        Some(mobile),
        &super::hashing::hash(r.password).await?,
    )
    .await?;
    Ok(owner)
}

/// Sets a new password after the SMS code of `reset`; every session of the user ends and the
/// username's locks are lifted.
pub async fn reset_password(
    g: Guards<'_>,
    mobile: &str,
    code: &str,
    password: &str,
    password_confirm: &str,
) -> ApiResult<()> {
    let mobile = mobile.trim();
    validate::mobile(mobile)?;
    validate::new_password(password, password_confirm)?;
    let user = users::user_by_mobile(g.db, mobile)
        .await?
        .ok_or(ApiError::invalid("mobile", Msg::MobileNotRegistered))?;
    check_code(g, mobile, "reset", code).await?;
    users::set_password(g.db, user.id, &super::hashing::hash(password).await?).await?;
    users::clear_user_failures(g.db, &user.username).await?;
    Ok(())
}

pub async fn logout(db: &Db, session_id: &str) -> ApiResult<()> {
    Ok(users::revoke_session(db, session_id).await?)
}
