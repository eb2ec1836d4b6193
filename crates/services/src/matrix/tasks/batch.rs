//! Release batches (issue 44): one release task from a sheet (or the console's table) with one row
//! per post. The whole batch is checked before anything is stored, by the release form's own rules
//! (`release::check_mount`, `release::check_platform_rules`, the copy precheck, SPEC §9's posts
//! per account and day); every bad row is named with its column, and a good batch is stored as one
//! task through the same insert as the form's (`store::matrix::insert_task`), so it goes through
//! the same review and dispatcher. Each item keeps its row's topics, @-mentions, mount and
//! declaration (`matrix_item_posts`); the publisher reads them over the task's config.

use super::release::{check_mount, check_parts, check_platform_rules};
use crate::error::{ApiError, ApiResult};
use crate::matrix::videos::video;
use domain::i18n::Msg;
use domain::matrix::batch::{self as sheet, BatchReq, BatchRow, column};
use domain::matrix::{self as rules, ItemPost, MountFields, MountType, TaskReq};
use domain::platform::{Platform, TaskPlatform};
use domain::sheet::{RowError, list};
use std::collections::HashMap;
use store::matrix as db;

/// A row that passed every rule: its post.
#[derive(Debug, Clone)]
pub struct Post {
    pub row: usize,
    pub account: db::Account,
    pub video_key: String,
    pub video_name: String,
    pub title: String,
    pub at: i64,
    pub post: ItemPost,
}

/// A row's error from a rule's `ApiError` (an invalid field), in the column `col`; any other error
/// (the database) stops the check.
fn row_error(row: usize, col: &str, e: ApiError) -> ApiResult<RowError> {
    match e {
        ApiError::Invalid { msg, args, .. } => Ok(RowError::new(row, column(col), msg, args)),
        e => Err(e),
    }
}

/// The column a form field's rule is about.
fn column_of(field: &str) -> &'static str {
    match field {
        "titles" => "title",
        "topics" => "topics",
        "at_users" => "at_users",
        "mount_type" => "mount_type",
        "daily_quantity" => "time",
        _ => "title",
    }
}

/// A row read so far: what it names, before the group rows get their accounts.
struct Read {
    row: usize,
    account: Option<usize>,
    group: Option<i64>,
    group_name: String,
    video_key: String,
    video_name: String,
    title: String,
    topics: Vec<String>,
    at: i64,
    post: ItemPost,
}

/// Checks every row; the posts of a good batch, or every row's errors.
pub async fn check(
    d: &store::Db,
    mid: i64,
    rows: &[BatchRow],
) -> ApiResult<Result<Vec<Post>, Vec<RowError>>> {
    let mut errors: Vec<RowError> = vec![];
    if rows.is_empty() {
        return Err(ApiError::invalid("rows", Msg::ImportEmpty));
    }
    if rows.len() > domain::sheet::ROWS_MAX {
        return Err(ApiError::too_many_rows(domain::sheet::ROWS_MAX, rows.len()));
    }
    let now = d.clock.platform_now();
    let accounts = db::all_accounts(d, mid).await?;
    let groups = db::group_names(d, mid).await?;
    let usable = |a: &db::Account| {
        rules::account_status(a.auth_expires_at, a.revoked == 1, now) != rules::AuthState::Expired
    };
    let keys: Vec<String> = rows
        .iter()
        .filter_map(|r| video_id(&r.video).map(|v| format!("v:{v}")))
        .collect();
    let used = db::used_videos(d, mid, &keys).await?;
    let checker = crate::compliance::checker(d, Some(mid)).await?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut read: Vec<Read> = vec![];
    for (i, r) in rows.iter().enumerate() {
        let row = r.row.filter(|n| *n > 1).map_or(i + 2, |n| n as usize);
        let before = errors.len();
        let mut err = |col: &str, msg: Msg, args: Vec<(&'static str, String)>| {
            errors.push(RowError::new(row, column(col), msg, args));
        };
        // The video: a finished one of this merchant's, not given to a task, once in the batch.
        let mut video_key = String::new();
        let mut video_name = String::new();
        match video_id(&r.video) {
            None if r.video.trim().is_empty() => err("video", Msg::Required, vec![]),
            None => err(
                "video",
                Msg::ImportVideoUnknown,
                vec![("id", r.video.trim().to_string())],
            ),
            Some(id) => {
                let key = format!("v:{id}");
                if let Some(first) = seen.get(&key) {
                    err(
                        "video",
                        Msg::ImportVideoTwice,
                        vec![("id", id.to_string()), ("row", first.to_string())],
                    );
                } else if used.contains(&key) {
                    err("video", Msg::ImportVideoUsed, vec![("id", id.to_string())]);
                } else {
                    match video(d, mid, &key).await? {
                        Some(v) => (video_key, video_name) = (v.key, v.name),
                        None => err(
                            "video",
                            Msg::ImportVideoUnknown,
                            vec![("id", id.to_string())],
                        ),
                    }
                }
                seen.entry(key).or_insert(row);
            }
        }
        // The account (id or nickname) or the group.
        let (name, group_name) = (r.account.trim(), r.group.trim());
        let mut account = None;
        let mut group = None;
        match (name.is_empty(), group_name.is_empty()) {
            (false, true) => {
                let by_id = name
                    .parse::<i64>()
                    .ok()
                    .and_then(|id| accounts.iter().position(|a| a.id == id));
                let found = match by_id {
                    Some(p) => vec![p],
                    None => (0..accounts.len())
                        .filter(|p| accounts[*p].nickname.trim() == name)
                        .collect(),
                };
                match found.as_slice() {
                    [] => err(
                        "account",
                        Msg::ImportAccountUnknown,
                        vec![("name", name.into())],
                    ),
                    [p] if !usable(&accounts[*p]) => err(
                        "account",
                        Msg::ImportAccountUnusable,
                        vec![("name", accounts[*p].nickname.clone())],
                    ),
                    [p] => account = Some(*p),
                    many => err(
                        "account",
                        Msg::ImportAccountAmbiguous,
                        vec![("name", name.into()), ("count", many.len().to_string())],
                    ),
                }
            }
            (true, false) => match groups.iter().find(|(_, n)| n.trim() == group_name) {
                Some((id, _)) => group = Some(*id),
                None => err(
                    "group",
                    Msg::ImportGroupUnknown,
                    vec![("name", group_name.into())],
                ),
            },
            _ => err("account", Msg::ImportAccountOrGroup, vec![]),
        }
        // The title (one per row), the topics and @-mentions, by the form's rules.
        let title = r.title.trim().to_string();
        match rules::titles(&title) {
            Err(e) => errors.push(row_error(row, "title", e.into())?),
            Ok(t) if t.len() > 1 => errors.push(RowError::new(
                row,
                column("title"),
                Msg::InvalidValue,
                vec![("reason", "#".into())],
            )),
            Ok(_) => {}
        }
        let topics = match rules::topics(&list(&r.topics)) {
            Ok(t) => t,
            Err(e) => {
                errors.push(row_error(row, "topics", e.into())?);
                vec![]
            }
        };
        let at_users: Vec<String> = list(&r.at_users)
            .into_iter()
            .map(|u| u.trim_start_matches(['@', '＠']).to_string())
            .filter(|u| !u.is_empty())
            .collect();
        // The time, China time, not yet due.
        let at = match domain::sheet::china_time(&r.time) {
            None if r.time.trim().is_empty() => {
                errors.push(RowError::new(row, column("time"), Msg::Required, vec![]));
                0
            }
            None => {
                errors.push(RowError::new(
                    row,
                    column("time"),
                    Msg::ImportTimeInvalid,
                    vec![("value", r.time.trim().to_string())],
                ));
                0
            }
            Some(at) if at <= now => {
                errors.push(RowError::new(
                    row,
                    column("time"),
                    Msg::ImportTimePassed,
                    vec![("at", rules::fmt_minute(at))],
                ));
                0
            }
            Some(at) => at,
        };
        // The mount and the declaration, in the form's words.
        let mut post = ItemPost {
            topics: topics.clone(),
            at_users,
            ..Default::default()
        };
        match sheet::mount_word(&r.mount_type) {
            None => errors.push(RowError::new(
                row,
                column("mount_type"),
                Msg::ImportWordUnknown,
                vec![
                    ("value", r.mount_type.trim().into()),
                    ("allowed", sheet::MOUNT_WORDS.into()),
                ],
            )),
            Some(m) => {
                post.mount_type = m;
                post.mount = mount_fields(m, r);
                let form = TaskReq {
                    mount_type: m.as_str().to_string(),
                    mount: post.mount.clone(),
                    ..Default::default()
                };
                if let Err(e) = check_mount(&form) {
                    errors.push(row_error(row, "mount_type", e)?);
                }
            }
        }
        match sheet::declaration_word(&r.declaration) {
            Some(dcl) => post.declaration = dcl,
            None => errors.push(RowError::new(
                row,
                column("declaration"),
                Msg::ImportWordUnknown,
                vec![
                    ("value", r.declaration.trim().into()),
                    ("allowed", sheet::DECLARATION_WORDS.into()),
                ],
            )),
        }
        if errors.len() == before {
            read.push(Read {
                row,
                account,
                group,
                group_name: group_name.into(),
                video_key,
                video_name,
                title,
                topics,
                at,
                post,
            });
        }
    }
    // Posts per account and (China) day: the named accounts first, then each group row goes to its
    // group's usable account with the fewest posts that day (then the lowest id).
    let mut per_day: HashMap<(usize, i64), u32> = HashMap::new();
    for r in &read {
        if let Some(a) = r.account {
            *per_day.entry((a, rules::day_of(r.at))).or_default() += 1;
        }
    }
    for r in read.iter_mut().filter(|r| r.account.is_none()) {
        let day = rules::day_of(r.at);
        let pick = (0..accounts.len())
            .filter(|p| Some(accounts[*p].group_id) == r.group && usable(&accounts[*p]))
            .min_by_key(|p| {
                (
                    per_day.get(&(*p, day)).copied().unwrap_or(0),
                    accounts[*p].id,
                )
            });
        match pick {
            Some(p) => {
                r.account = Some(p);
                *per_day.entry((p, day)).or_default() += 1;
            }
            None => errors.push(RowError::new(
                r.row,
                column("group"),
                Msg::ImportGroupEmpty,
                vec![("name", r.group_name.clone())],
            )),
        }
    }
    // The rules of the account's platform: its limits, its mounts, the copy precheck.
    let mut counted: HashMap<(usize, i64), u32> = HashMap::new();
    let mut posts = vec![];
    for r in read {
        let Some(p) = r.account else { continue };
        let a = &accounts[p];
        let day = rules::day_of(r.at);
        let nth = counted.entry((p, day)).or_default();
        *nth += 1;
        let before = errors.len();
        if *nth > rules::PER_ACCOUNT_DAY {
            errors.push(RowError::new(
                r.row,
                column("time"),
                Msg::ImportAccountDayOver,
                vec![
                    ("name", a.nickname.clone()),
                    ("day", rules::fmt_day(day)),
                    ("count", per_day[&(p, day)].to_string()),
                    ("max", rules::PER_ACCOUNT_DAY.to_string()),
                ],
            ));
        }
        let form = TaskReq {
            at_users: r.post.at_users.clone(),
            daily_quantity: per_day[&(p, day)] as i64,
            ..Default::default()
        };
        let titles = [r.title.clone()];
        if let Err(e) = check_platform_rules(std::slice::from_ref(a), &titles, &r.topics, &form) {
            let field = match &e {
                ApiError::Invalid { field, .. } => column_of(field),
                _ => "title",
            };
            errors.push(row_error(r.row, field, e)?);
        }
        // A part the platform's post would not carry (@, the mount), named with why.
        if let Err(e) = check_parts(std::slice::from_ref(a), &form, r.post.mount_type) {
            let field = match &e {
                ApiError::Invalid { field, .. } => column_of(field),
                _ => "mount_type",
            };
            errors.push(row_error(r.row, field, e)?);
        }
        let mut fields: Vec<(&'static str, &str)> = vec![("titles", r.title.as_str())];
        fields.extend(r.topics.iter().map(|t| ("topics", t.as_str())));
        fields.extend(r.post.at_users.iter().map(|t| ("at_users", t.as_str())));
        fields.push(("mount_type", r.post.mount.mini_app_title.as_str()));
        fields.push(("mount_type", r.post.mount.official_title.as_str()));
        if let Err(e) = checker.form(&fields, &[a.platform]) {
            errors.push(RowError::new(
                r.row,
                column(column_of(e.field)),
                e.msg,
                e.args,
            ));
        }
        if errors.len() == before {
            posts.push(Post {
                row: r.row,
                account: a.clone(),
                video_key: r.video_key,
                video_name: r.video_name,
                title: r.title,
                at: r.at,
                post: r.post,
            });
        }
    }
    if errors.is_empty() {
        Ok(Ok(posts))
    } else {
        errors.sort_by_key(|e| e.row);
        Ok(Err(errors))
    }
}

/// A video cell: a finished video's id (`123`, also `v:123` as the API names videos).
fn video_id(cell: &str) -> Option<i64> {
    let s = cell.trim();
    let s = s.strip_prefix("v:").unwrap_or(s);
    // A spreadsheet may hold the id as a number with a fraction ("12.0").
    let s = s.strip_suffix(".0").unwrap_or(s);
    s.parse::<i64>().ok().filter(|v| *v > 0)
}

/// The form's mount fields of a row: its id, title and link where the mount type takes them.
fn mount_fields(m: MountType, r: &BatchRow) -> MountFields {
    let (id, title, url) = (
        r.mount_id.trim().to_string(),
        r.mount_title.trim().to_string(),
        r.mount_url.trim().to_string(),
    );
    match m {
        MountType::None => MountFields::default(),
        MountType::Poi => MountFields {
            poi_id: id,
            poi_name: title,
            ..Default::default()
        },
        MountType::MiniProgram => MountFields {
            mini_app_id: id,
            mini_app_title: title,
            mini_app_url: url,
            ..Default::default()
        },
        MountType::Official => MountFields {
            official_title: title,
            official_url: url,
            ..Default::default()
        },
        MountType::Product => MountFields {
            product_id: id,
            ..Default::default()
        },
    }
}

/// What a batch gives: its rows' errors when only checking, or the stored task.
pub enum Made {
    Checked(Vec<RowError>),
    Task(db::Task),
}

/// Checks a batch; stores it as one task (under review like every task) unless it only checks.
/// A batch with any bad row stores nothing and is refused naming every bad row.
pub async fn create(d: &store::Db, (mid, uid): (i64, i64), r: &BatchReq) -> ApiResult<Made> {
    let name = r.name.trim().to_string();
    if !r.check {
        domain::validate::required("name", &name)?;
    }
    domain::validate::max_chars("name", &name, rules::TASK_NAME_MAX)?;
    let posts = match check(d, mid, &r.rows).await? {
        Ok(_) if r.check => return Ok(Made::Checked(vec![])),
        Ok(posts) => posts,
        Err(errors) if r.check => return Ok(Made::Checked(errors)),
        Err(errors) => return Err(ApiError::rows_invalid(&errors)),
    };
    let mut platforms: Vec<Platform> = posts.iter().map(|p| p.account.platform).collect();
    platforms.sort_unstable_by_key(|p| p.as_str());
    platforms.dedup();
    let first = posts.iter().map(|p| rules::day_of(p.at)).min().unwrap_or(0);
    let last = posts.iter().map(|p| rules::day_of(p.at)).max().unwrap_or(0);
    let mut daily: HashMap<(i64, i64), i64> = HashMap::new();
    for p in &posts {
        *daily
            .entry((p.account.id, rules::day_of(p.at)))
            .or_default() += 1;
    }
    let mut account_ids: Vec<i64> = posts.iter().map(|p| p.account.id).collect();
    account_ids.sort_unstable();
    account_ids.dedup();
    let titles: Vec<String> = posts.iter().map(|p| p.title.clone()).collect();
    let mut topics: Vec<String> = vec![];
    for t in posts.iter().flat_map(|p| p.post.topics.iter()) {
        if !topics.contains(t) {
            topics.push(t.clone());
        }
    }
    let config = rules::TaskConfig {
        titles: titles.join("#"),
        titles_list: titles,
        topics,
        account_ids,
        video_ids: posts
            .iter()
            .filter_map(|p| video_id(&p.video_key))
            .collect(),
        ..Default::default()
    };
    let task = db::NewTask {
        name,
        platform: match platforms.as_slice() {
            [p] => TaskPlatform::from(*p),
            _ => TaskPlatform::Mixed,
        },
        config,
        time_mode: rules::TimeMode::Specified,
        start_date: rules::fmt_day(first),
        days: last - first + 1,
        daily_quantity: daily.values().copied().max().unwrap_or(1),
        review_due_at: rules::review_due(domain::now_ms()),
        seed: 1,
        user_id: uid,
        // A sheet's rows are videos, one per post.
        kind: rules::TaskKind::Video,
    };
    let items: Vec<db::NewItem> = posts
        .into_iter()
        .map(|p| db::NewItem {
            account_id: p.account.id,
            platform: p.account.platform,
            video_key: p.video_key,
            video_name: p.video_name,
            title: p.title,
            comments: vec![],
            scheduled_at: p.at,
            post: Some(p.post),
        })
        .collect();
    let id = db::insert_task(d, mid, &task, &items)
        .await?
        .ok_or_else(|| {
            ApiError::invalid_with("rows", Msg::VideoUnusable, vec![("name", "?".into())])
        })?;
    Ok(Made::Task(super::task(d, Some(mid), id).await?))
}
