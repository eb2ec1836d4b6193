//! Creating a release task: every SPEC §5 rule checked before anything is stored, the distribution
//! plan shown as a preview and stored as the task's items on confirming.

use crate::error::{ApiError, ApiResult};
use crate::matrix::videos::{Video, video};
use crate::platform::Hub;
use domain::i18n::{Msg, Said};
use domain::matrix as rules;
use domain::platform::TaskPlatform;
use platforms::Platform;
use serde::Serialize;
use store::ListQuery;
use store::matrix as db;

pub use domain::matrix::{ApprovedPost, TaskReq};

fn bad(field: &str, msg: Msg, args: Vec<(&'static str, String)>) -> ApiError {
    ApiError::invalid_with(field, msg, args)
}

/// Mount fields the chosen mount type needs.
pub(super) fn check_mount(r: &TaskReq) -> ApiResult<rules::MountType> {
    use rules::MountType;
    let need = |what: &str, v: &str| -> ApiResult<()> {
        if v.trim().is_empty() {
            return Err(bad(
                "mount_type",
                Msg::MountRequired,
                vec![("mount", r.mount_type.clone()), ("what", what.into())],
            ));
        }
        Ok(())
    };
    let mount = MountType::parse(&r.mount_type).ok_or_else(|| {
        bad(
            "mount_type",
            Msg::InvalidValue,
            vec![(
                "reason",
                "none | poi | mini_program | official | product".into(),
            )],
        )
    })?;
    match mount {
        MountType::None => {}
        MountType::Poi => need("poi_id", &r.mount.poi_id)?,
        MountType::MiniProgram => {
            need("mini_app_id", &r.mount.mini_app_id)?;
            need("mini_app_title", &r.mount.mini_app_title)?;
        }
        MountType::Official => {
            need("official_title", &r.mount.official_title)?;
            need("official_url", &r.mount.official_url)?;
        }
        MountType::Product => need("product_id", &r.mount.product_id)?,
    }
    Ok(mount)
}

/// The platforms' own rules (`domain::matrix::platform_rules`) for every platform the task's
/// accounts are on: a task one of them cannot take is refused naming the platform and the rule.
pub(super) fn check_platform_rules(
    accounts: &[db::Account],
    titles: &[String],
    topics: &[String],
    r: &TaskReq,
) -> ApiResult<()> {
    use domain::matrix::platform_rules::{Post, RuleKind, broken};
    let mentions = r.at_users.iter().filter(|u| !u.trim().is_empty()).count();
    let post = Post {
        titles,
        topics: topics.len(),
        mentions,
        posts_per_day: r.daily_quantity.max(0) as u32,
    };
    let mut seen = vec![];
    for a in accounts {
        if seen.contains(&a.platform) {
            continue;
        }
        seen.push(a.platform);
        if let Some((rule, max, value)) = broken(a.platform, &post) {
            let field = match rule {
                RuleKind::TitleMax | RuleKind::BodyMax => "titles",
                RuleKind::TopicsMax => "topics",
                RuleKind::MentionsMax => "at_users",
                _ => "daily_quantity",
            };
            let code = a.platform.code();
            return Err(bad(
                field,
                Msg::PlatformRuleBroken,
                vec![
                    (
                        "platform.zh",
                        domain::i18n::platform_name(code, domain::i18n::Lang::Zh),
                    ),
                    (
                        "platform.en",
                        domain::i18n::platform_name(code, domain::i18n::Lang::En),
                    ),
                    ("rule.zh", rule.zh().to_string()),
                    ("rule.en", rule.en().to_string()),
                    ("max", max.to_string()),
                    ("value", value.to_string()),
                ],
            ));
        }
    }
    Ok(())
}

/// The part of a post a mount is (None: no mount).
fn part_of(mount: rules::MountType) -> Option<domain::matrix::platform_rules::Part> {
    use domain::matrix::platform_rules::Part;
    use rules::MountType as M;
    match mount {
        M::None => None,
        M::Poi => Some(Part::Poi),
        M::MiniProgram => Some(Part::MiniProgram),
        M::Official => Some(Part::Official),
        M::Product => Some(Part::Product),
    }
}

/// The post's parts beyond video, title and topics (@-mentions, the mount) on every platform the
/// task's accounts are on: one a platform's post would not carry is refused, naming the platform,
/// the part and why, instead of being dropped at publish time.
pub(super) fn check_parts(
    accounts: &[db::Account],
    r: &TaskReq,
    mount: rules::MountType,
) -> ApiResult<()> {
    use domain::matrix::platform_rules::{Part, carries};
    let mut asked = vec![];
    if r.at_users.iter().any(|u| !u.trim().is_empty()) {
        asked.push(("at_users", Part::Mentions));
    }
    if let Some(part) = part_of(mount) {
        asked.push(("mount_type", part));
    }
    for a in accounts {
        for (field, part) in &asked {
            if let Some(why) = carries(a.platform, *part) {
                let mut args = crate::platform::platform_args(a.platform.code());
                args.extend([
                    ("part.zh", part.zh().to_string()),
                    ("part.en", part.en().to_string()),
                    ("why.zh", why.zh().to_string()),
                    ("why.en", why.en().to_string()),
                ]);
                return Err(bad(field, Msg::PlatformCannotCarry, args));
            }
        }
    }
    Ok(())
}

/// A task form that passed every rule, with what it names read from the store.
pub struct Checked {
    pub name: String,
    pub titles: Vec<String>,
    pub topics: Vec<String>,
    pub comments: Vec<String>,
    pub mount: rules::MountType,
    pub declaration: rules::ContentDeclaration,
    pub schedule: rules::Schedule,
    pub accounts: Vec<db::Account>,
    pub videos: Vec<Video>,
    pub count: usize,
    /// The copy precheck's `warn` findings (a `block` one refused the form).
    pub copy_warnings: Vec<Said>,
    /// Videos, or one image note posted once per account (`videos` then holds one post each).
    pub kind: rules::TaskKind,
    /// A post at high duplicate risk against its account refuses the task instead of warning.
    pub refuse_duplicates: bool,
}

/// Every rule of SPEC §5 "Publishing", before anything is stored.
pub async fn check(
    d: &store::Db,
    mid: i64,
    p: Option<Platform>,
    r: &TaskReq,
) -> ApiResult<Checked> {
    let name = r.name.trim().to_string();
    domain::validate::required("name", &name)?;
    domain::validate::max_chars("name", &name, domain::matrix::TASK_NAME_MAX)?;
    let titles = rules::titles(&r.titles)?;
    let topics = rules::topics(&r.topics)?;
    let comments = rules::comments(&r.top_comments)?;
    let mount = check_mount(r)?;
    let declaration = rules::ContentDeclaration::parse(r.declaration.trim()).ok_or_else(|| {
        bad(
            "declaration",
            Msg::InvalidValue,
            vec![(
                "reason",
                "auto | none | original | ai_generated | reposted | fiction".into(),
            )],
        )
    })?;
    let now = d.clock.platform_now();
    let schedule = rules::schedule(
        &r.time_mode,
        &r.start_date,
        r.days,
        r.daily_quantity,
        &r.times,
        rules::day_of(now),
    )?;
    let mut ids = r.account_ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(bad("account_ids", Msg::Required, vec![]));
    }
    let mut accounts = vec![];
    for id in ids {
        let a = db::account(d, mid, id).await?.ok_or(ApiError::NotFound)?;
        let expired = rules::account_status(a.auth_expires_at, a.revoked == 1, now)
            == rules::AuthState::Expired;
        if expired || p.is_some_and(|p| p != a.platform) {
            return Err(bad(
                "account_ids",
                Msg::AccountUnusable,
                vec![("name", a.nickname.clone())],
            ));
        }
        accounts.push(a);
    }
    check_platform_rules(&accounts, &titles, &topics, r)?;
    check_parts(&accounts, r, mount)?;
    let kind = super::notes::kind(r)?;
    let notes = match kind {
        rules::TaskKind::ImageNote => Some(super::notes::check(d, mid, &name, &accounts, r).await?),
        rules::TaskKind::Video => None,
    };
    let copy_warnings = check_copy(d, mid, r, &titles, &topics, &comments, &accounts).await?;
    // A note's pictures are its "videos", all of them posted; else the chosen videos.
    let (videos, count) = match notes {
        Some(pictures) => {
            let n = pictures.len();
            (pictures, n)
        }
        None => chosen_videos(d, mid, r, accounts.len()).await?,
    };
    Ok(Checked {
        name,
        titles,
        topics,
        comments,
        mount,
        declaration,
        schedule,
        accounts,
        videos,
        count,
        copy_warnings,
        kind,
        refuse_duplicates: r.refuse_duplicates,
    })
}

/// The task's videos (finished videos and materials, each unused) and how many of them to publish.
async fn chosen_videos(
    d: &store::Db,
    mid: i64,
    r: &TaskReq,
    accounts: usize,
) -> ApiResult<(Vec<Video>, usize)> {
    let mut keys: Vec<String> = r.video_ids.iter().map(|i| format!("v:{i}")).collect();
    keys.extend(r.material_ids.iter().map(|i| format!("m:{i}")));
    keys.dedup();
    if keys.is_empty() {
        return Err(bad("video_ids", Msg::Required, vec![]));
    }
    // One file, one post: an imported video and its material are the same file under two keys.
    let mut twins = std::collections::HashMap::new();
    for k in &keys {
        if let Some(t) = twin(d, mid, k).await? {
            twins.insert(k.clone(), t);
        }
    }
    let mut asked: Vec<String> = keys.clone();
    asked.extend(twins.values().cloned());
    let used = db::used_videos(d, mid, &asked).await?;
    let mut videos: Vec<Video> = vec![];
    for k in &keys {
        let twin = twins.get(k);
        let same_file =
            twin.is_some_and(|t| used.contains(t) || videos.iter().any(|v| &v.key == t));
        match video(d, mid, k).await? {
            Some(v) if same_file => {
                return Err(bad("video_ids", Msg::VideoSameFile, vec![("name", v.name)]));
            }
            Some(v) if !used.contains(k) => videos.push(v),
            Some(v) => return Err(bad("video_ids", Msg::VideoUnusable, vec![("name", v.name)])),
            None => {
                return Err(bad(
                    "video_ids",
                    Msg::VideoUnusable,
                    vec![("name", k.clone())],
                ));
            }
        }
    }
    if accounts > videos.len() {
        return Err(bad(
            "account_ids",
            Msg::AccountsOverVideos,
            vec![
                ("accounts", accounts.to_string()),
                ("videos", videos.len().to_string()),
            ],
        ));
    }
    let count = match r.publish_count {
        Some(n) if n < 1 => {
            return Err(bad(
                "publish_count",
                Msg::InvalidValue,
                vec![("reason", ">= 1".into())],
            ));
        }
        Some(n) if n as usize > videos.len() => {
            return Err(bad(
                "publish_count",
                Msg::PublishCountOverVideos,
                vec![
                    ("count", n.to_string()),
                    ("videos", videos.len().to_string()),
                ],
            ));
        }
        Some(n) => n as usize,
        None => videos.len(),
    };
    Ok((videos, count))
}

/// The copy precheck (issue 39) on every text the posts carry, by the rules of the accounts'
/// platforms: titles, topics, top comments, @-mentions and the mount's titles. A `block` finding
/// refuses the task (also its preview), so a post the law or a platform forbids is never queued.
async fn check_copy(
    d: &store::Db,
    mid: i64,
    r: &TaskReq,
    titles: &[String],
    topics: &[String],
    comments: &[String],
    accounts: &[db::Account],
) -> ApiResult<Vec<Said>> {
    let mut scope: Vec<Platform> = accounts.iter().map(|a| a.platform).collect();
    scope.sort_unstable_by_key(|p| p.as_str());
    scope.dedup();
    let mut fields: Vec<(&'static str, &str)> = vec![];
    fields.extend(titles.iter().map(|t| ("titles", t.as_str())));
    fields.extend(topics.iter().map(|t| ("topics", t.as_str())));
    fields.extend(comments.iter().map(|t| ("top_comments", t.as_str())));
    fields.extend(r.at_users.iter().map(|t| ("at_users", t.as_str())));
    fields.push(("mount_type", r.mount.mini_app_title.as_str()));
    fields.push(("mount_type", r.mount.official_title.as_str()));
    crate::compliance::form(d, mid, &fields, &scope).await
}

/// One planned post of a distribution plan.
#[derive(Debug, Serialize)]
pub struct PlanItem {
    pub account_id: i64,
    pub nickname: String,
    pub platform: Platform,
    pub video_key: String,
    pub video_name: String,
    pub at: i64,
    pub title: String,
    /// How alike the video is to what this account published or has scheduled (duplicate risk);
    /// `None` when either side was never measured.
    pub risk: Option<domain::clip::risk::Reason>,
}

#[derive(Debug, Serialize)]
pub struct MinMax {
    pub min: usize,
    pub max: usize,
}

/// The distribution plan shown before confirming a task.
#[derive(Debug)]
pub struct Plan {
    pub items: Vec<PlanItem>,
    pub count: usize,
    pub per_account: MinMax,
    pub first_at: Option<i64>,
    pub last_at: Option<i64>,
    /// Videos that do not fit into the schedule.
    pub unplaced: usize,
    pub warnings: Vec<Said>,
    /// Confirming with this seed stores the plan that was shown.
    pub seed: u64,
    /// The instant the plan was made from (platform clock); confirming sends it back with the seed.
    pub planned_at: i64,
}

/// The plan of a checked task: items ready to store, and the plan as the console shows it.
pub async fn plan(
    d: &store::Db,
    mid: i64,
    c: &Checked,
    seed: u64,
    planned_at: i64,
) -> ApiResult<(Vec<db::NewItem>, Plan)> {
    let s = &c.schedule;
    let from = rules::at(s.start_day, 0);
    let to = rules::at(s.start_day + s.days as i64 + 1, 0);
    let taken = db::taken_minutes(d, mid, from, to).await?;
    let dist = rules::distribute(
        c.accounts.len(),
        c.videos.len(),
        c.count,
        s,
        planned_at,
        &taken,
        seed,
    );
    let mut items = vec![];
    let mut rows = vec![];
    let mut per = vec![0usize; c.accounts.len()];
    // What each video is measured by (duplicate risk), read once for the dealing and the warnings.
    let measured = match c.kind {
        rules::TaskKind::Video => {
            let mut m = Vec::with_capacity(c.videos.len());
            for v in &c.videos {
                m.push(
                    crate::clip::risk::of_key(d, mid, &v.key)
                        .await
                        .map_err(ApiError::Internal)?,
                );
            }
            m
        }
        rules::TaskKind::ImageNote => vec![],
    };
    let chosen = match c.kind {
        rules::TaskKind::Video => spread_apart(c, &dist.slots, &measured),
        rules::TaskKind::ImageNote => dist.slots.iter().map(|s| s.video).collect(),
    };
    for (slot, &video) in dist.slots.iter().zip(&chosen) {
        let a = &c.accounts[slot.account];
        let v = &c.videos[video];
        // An image note is one post per account, keyed by this plan (the confirm sends it back).
        let key = match c.kind {
            rules::TaskKind::ImageNote => rules::notes::note_key(planned_at, seed, a.id),
            rules::TaskKind::Video => v.key.clone(),
        };
        per[slot.account] += 1;
        let title = c.titles[(slot.account + slot.nth) % c.titles.len()].clone();
        let comments = rules::pick_comments(
            &c.comments,
            seed ^ (slot.video as u64).wrapping_mul(0x9E37_79B9),
        );
        rows.push(PlanItem {
            account_id: a.id,
            nickname: a.nickname.clone(),
            platform: a.platform,
            video_key: key.clone(),
            video_name: v.name.clone(),
            at: slot.at,
            title: title.clone(),
            risk: None,
        });
        items.push(db::NewItem {
            account_id: a.id,
            platform: a.platform,
            video_key: key,
            video_name: v.name.clone(),
            title,
            comments,
            scheduled_at: slot.at,
            post: None,
        });
    }
    let mut warnings: Vec<Said> = c.copy_warnings.clone();
    if c.kind == rules::TaskKind::Video {
        let risky = account_risks(d, mid, &mut rows, &chosen, &measured).await?;
        // The merchant's choice: a warning to read before confirming, or no task at all.
        if c.refuse_duplicates
            && let Some(first) = risky.first()
        {
            return Err(ApiError::invalid_with(
                "video_ids",
                first.msg,
                first.args.clone(),
            ));
        }
        warnings.extend(risky);
    }
    if dist.unplaced > 0 {
        warnings.push(Said::new(
            Msg::PlanUnplaced,
            vec![
                ("count", dist.unplaced.to_string()),
                ("days", s.days.to_string()),
                ("daily", s.daily.to_string()),
            ],
        ));
    }
    for day in &dist.crowded_days {
        warnings.push(Said::new(
            Msg::PlanCrowdedDay,
            vec![("day", rules::fmt_day(*day))],
        ));
    }
    let plan = Plan {
        count: items.len(),
        items: rows,
        per_account: MinMax {
            min: per.iter().min().copied().unwrap_or(0),
            max: per.iter().max().copied().unwrap_or(0),
        },
        first_at: dist.slots.first().map(|x| x.at),
        last_at: dist.slots.last().map(|x| x.at),
        unplaced: dist.unplaced,
        warnings,
        seed,
        planned_at,
    };
    Ok((items, plan))
}

/// The other key the same file goes by: a video imported into the library (`v:`, no project) is its
/// material's file (`m:`), and the reverse.
async fn twin(d: &store::Db, mid: i64, key: &str) -> ApiResult<Option<String>> {
    let id = |p: &str| key.strip_prefix(p).and_then(|n| n.parse::<i64>().ok());
    if let Some(v) = id("v:") {
        return Ok(store::clip::variant(d, mid, v)
            .await?
            .filter(|v| v.project_id == store::clip::IMPORTED)
            .and_then(|v| match v.seq()[..] {
                [m] => Some(format!("m:{m}")),
                _ => None,
            }));
    }
    if let Some(m) = id("m:") {
        return Ok(store::clip::imported_variant(d, mid, m)
            .await?
            .map(|v| format!("v:{v}")));
    }
    Ok(None)
}

/// Videos compared pairwise to spread them over audiences: at most this many (the comparisons grow with
/// the square; past it the schedule's choice stands).
const SPREAD_MAX_VIDEOS: usize = 60;

/// Which video each planned post gets: the schedule's choice, re-dealt so that accounts sharing an
/// audience (one place, else one city, else the merchant's accounts without either) get the videos
/// least alike one another (`domain::clip::risk::spread_over_audiences`, duplicate risk's likeness).
fn spread_apart(
    c: &Checked,
    slots: &[rules::Slot],
    measured: &[Option<crate::clip::risk::Measured>],
) -> Vec<usize> {
    let given: Vec<usize> = slots.iter().map(|s| s.video).collect();
    if c.videos.len() > SPREAD_MAX_VIDEOS || slots.len() < 2 {
        return given;
    }
    let mut names: std::collections::HashMap<String, usize> = Default::default();
    let audience: Vec<usize> = slots
        .iter()
        .map(|s| {
            let a = &c.accounts[s.account];
            let key = if !a.poi_id.is_empty() {
                format!("poi:{}", a.poi_id)
            } else if !a.city.is_empty() {
                format!("city:{}", a.city)
            } else {
                String::new()
            };
            let n = names.len();
            *names.entry(key).or_insert(n)
        })
        .collect();
    let cache = std::cell::RefCell::new(std::collections::HashMap::new());
    let alike = |x: usize, y: usize| {
        *cache
            .borrow_mut()
            .entry((x, y))
            .or_insert_with(|| match (&measured[x], &measured[y]) {
                (Some(a), Some(b)) => crate::clip::risk::likeness(a, b).score(),
                _ => 0,
            })
    };
    domain::clip::risk::spread_over_audiences(&audience, &given, c.videos.len(), alike)
}

/// Each planned post's duplicate risk against what its account published or has scheduled, and a
/// warning for each high one: a platform compares a new post with the account's own history first.
async fn account_risks(
    d: &store::Db,
    mid: i64,
    rows: &mut [PlanItem],
    videos: &[usize],
    measured: &[Option<crate::clip::risk::Measured>],
) -> ApiResult<Vec<Said>> {
    use crate::clip::risk;
    let mut warnings = vec![];
    // Each account's history read once, however many of its posts are planned.
    let mut history: std::collections::HashMap<i64, Vec<store::clip::risk::Published>> =
        Default::default();
    for (r, &v) in rows.iter_mut().zip(videos) {
        let Some(me) = &measured[v] else { continue };
        if !history.contains_key(&r.account_id) {
            let h = store::clip::risk::published(d, mid, Some(r.account_id), "").await?;
            history.insert(r.account_id, h);
        }
        r.risk = risk::most_alike(
            domain::clip::risk::Against::Account,
            me,
            &history[&r.account_id],
            &r.video_key,
        );
        if let Some(x) = r
            .risk
            .as_ref()
            .filter(|x| x.score >= domain::clip::risk::HIGH)
        {
            warnings.push(Said::new(
                Msg::PlanDuplicateRisk,
                vec![
                    ("video", r.video_name.clone()),
                    ("account", r.nickname.clone()),
                    ("score", x.score.to_string()),
                ],
            ));
        }
    }
    Ok(warnings)
}

/// The plan about to be stored must be the one the merchant approved, with no post already due;
/// otherwise the console previews again and asks once more.
fn check_approved(plan: &Plan, approved: &[ApprovedPost], now: i64) -> ApiResult<()> {
    let same = plan.items.len() == approved.len()
        && plan.items.iter().zip(approved).all(|(p, a)| {
            p.account_id == a.account_id && p.video_key == a.video_key && p.at == a.at
        });
    if !same {
        return Err(bad("plan", Msg::PlanChanged, vec![]));
    }
    if let Some(first) = plan
        .items
        .iter()
        .map(|i| i.at)
        .min()
        .filter(|at| *at <= now)
    {
        return Err(bad(
            "plan",
            Msg::PlanPassed,
            vec![("at", rules::fmt_minute(first))],
        ));
    }
    Ok(())
}

/// What a confirmed task stores of its form: the checked titles, topics and scripts beside the
/// form's own texts, the mount, the picks.
fn task_config(r: &TaskReq, c: &Checked) -> rules::TaskConfig {
    rules::TaskConfig {
        titles: r.titles.clone(),
        titles_list: c.titles.clone(),
        topics: c.topics.clone(),
        top_comments: r.top_comments.clone(),
        comments_list: c.comments.clone(),
        at_users: r.at_users.clone(),
        mount_type: c.mount,
        mount: r.mount.clone(),
        times: r.times.clone(),
        account_ids: r.account_ids.clone(),
        video_ids: r.video_ids.clone(),
        material_ids: r.material_ids.clone(),
        publish_count: r.publish_count,
        declaration: c.declaration,
        image_ids: super::notes::image_ids(r),
        frames: r.frames.clone(),
    }
}

/// What creating a task gives: the plan only (a preview), or the stored task and its plan.
pub enum Created {
    Preview(Plan),
    Task(db::Task, Plan),
}

/// Checks and plans a task; stores it with its items unless it is a preview.
pub async fn create(
    d: &store::Db,
    (mid, uid): (i64, i64),
    p: Option<Platform>,
    r: &TaskReq,
) -> ApiResult<Created> {
    let c = check(d, mid, p, r).await?;
    let seed: u64 = r
        .seed
        .filter(|s| *s > 0)
        .map(|s| s as u64)
        .unwrap_or_else(|| rand::random::<u32>() as u64 + 1);
    let now = d.clock.platform_now();
    // The shown plan is planned again from the instant it was made (never from the future).
    let planned_at = r
        .planned_at
        .filter(|_| r.seed.is_some())
        .unwrap_or(now)
        .min(now);
    let (items, plan) = plan(d, mid, &c, seed, planned_at).await?;
    if r.preview {
        return Ok(Created::Preview(plan));
    }
    if let Some(approved) = &r.approved {
        check_approved(&plan, approved, now)?;
    }
    let config = task_config(r, &c);
    let task = db::NewTask {
        name: c.name.clone(),
        platform: p.map_or(TaskPlatform::Mixed, TaskPlatform::from),
        kind: c.kind,
        config,
        time_mode: c.schedule.mode,
        start_date: r.start_date.trim().to_string(),
        days: r.days,
        daily_quantity: r.daily_quantity,
        review_due_at: rules::review_due(domain::now_ms()),
        seed: seed as i64,
        user_id: uid,
    };
    let id = db::insert_task(d, mid, &task, &items)
        .await?
        .ok_or_else(|| bad("video_ids", Msg::VideoUnusable, vec![("name", "?".into())]))?;
    let t = super::task(d, Some(mid), id).await?;
    Ok(Created::Task(t, plan))
}

/// What the form of a platform offers: its mount types, its selectable accounts, sandbox or live.
pub async fn config(
    hub: &Hub,
    mid: i64,
    p: Platform,
) -> ApiResult<(&'static [rules::MountType], Vec<db::Account>, bool)> {
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("platform", Some(p.code()), "=");
    let rows = crate::matrix::accounts::selectable(&hub.db, mid, &lq).await?;
    let (_, sandbox) = hub.adapter(p).await?;
    Ok((mount_types(p), rows, sandbox))
}

/// The mount types a platform's posts take: only what its post carries as we publish it
/// (`platform_rules::carries`).
pub fn mount_types(p: Platform) -> &'static [rules::MountType] {
    use rules::MountType as M;
    match p {
        Platform::Dy => &[M::None, M::Poi, M::MiniProgram],
        Platform::Shop => &[M::None, M::Poi, M::Product],
        Platform::Xhs => &[M::None, M::Poi],
        Platform::Ks | Platform::Sph | Platform::Bjh => &[M::None],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::matrix::platform_rules::carries;
    use rules::MountType as M;

    /// The form offers a platform exactly the mounts its post carries as we publish it.
    #[test]
    fn the_mounts_offered_are_the_ones_carried() {
        for p in domain::matrix::platform_rules::ALL.map(|r| r.platform) {
            for m in [M::Poi, M::MiniProgram, M::Official, M::Product] {
                let carried = carries(p, part_of(m).unwrap()).is_none();
                assert_eq!(mount_types(p).contains(&m), carried, "{p:?} {m:?}");
            }
        }
    }
}
