//! Mixing projects (quick mix and advanced): settings checked against the merchant's own groups,
//! music, voice and fonts; a plan of unique variants; "generate" plans and queues one render job per
//! variant, charging points once per variant in the same transaction.

use crate::error::{ApiError, ApiResult};
use domain::clip::planner::Plan;
use domain::clip::{POINTS_PER_VARIANT, ProjectConfig, ProjectMode};
use domain::i18n::Msg;
use domain::materials::MediaKind;
use domain::validate;
use store::Db;
use store::ListQuery;
use store::clip as db;

/// A mix project.
pub use db::Project;
use store::materials as mat;

/// A shot group of a project with its ready clips.
pub type Pool = (mat::Group, Vec<mat::MediaFile>);

/// The ready clips of each of the project's groups, in group order.
pub async fn pools(db: &Db, mid: i64, cfg: &ProjectConfig) -> ApiResult<Vec<Pool>> {
    let mut out = vec![];
    for g in &cfg.groups {
        if !g.images.is_empty() {
            out.push(image_pool(db, mid, &g.images).await?);
            continue;
        }
        let group = mat::group(db, mid, g.group_id).await?.ok_or_else(|| {
            ApiError::invalid_with(
                "groups",
                Msg::MaterialMissing,
                vec![("what", format!("group {}", g.group_id))],
            )
        })?;
        let q = ListQuery {
            limit: Some(1000),
            ..Default::default()
        }
        .with_filter("group_id", Some(&g.group_id.to_string()), "=")
        .with_filter("state", Some("ready"), "=")
        .with_filter("kind", Some("video"), "=");
        let (clips, _) = mat::list(db, mid, "resource", &q).await?;
        out.push((group, clips));
    }
    Ok(out)
}

/// An image shot's pool (one-touch image projects): its images, each the caller's and ready, under a
/// group of no id named after the first.
async fn image_pool(db: &Db, mid: i64, ids: &[i64]) -> ApiResult<Pool> {
    let mut images = vec![];
    for id in ids {
        let m = mat::get(db, mid, *id)
            .await?
            .filter(|m| {
                m.kind == domain::materials::MediaKind::Image
                    && m.state == domain::materials::IngestState::Ready
            })
            .ok_or_else(|| {
                ApiError::invalid_with(
                    "groups",
                    Msg::MaterialMissing,
                    vec![("what", format!("image #{id}"))],
                )
            })?;
        images.push(m);
    }
    let group = mat::Group {
        id: 0,
        classify_id: 0,
        kind: domain::materials::GroupKind::Image,
        name: images[0].name.clone(),
        sort: 0,
        created_at: 0,
        count: images.len() as i64,
        ready: images.len() as i64,
    };
    Ok((group, images))
}

fn ids(pools: &[Pool]) -> Vec<Vec<i64>> {
    pools
        .iter()
        .map(|(_, c)| c.iter().map(|m| m.id).collect())
        .collect()
}

/// How long a project's variants must last, and how long each clip of its pools plays: a variant must
/// carry the whole voice-over (a shorter one cut it off mid-sentence while its last subtitle showed
/// the whole line), so plans take only combinations at least that long.
pub struct Floor {
    /// `lengths[g][i]`: clip i of pool g as the render trims it (on the GOP grid), ms.
    pub lengths: Vec<Vec<i64>>,
    /// The voice-over plus the transitions (each overlaps two shots, shortening the video by its
    /// length), ms; 0 without a voice-over.
    pub min_ms: i64,
    /// The longest of the voice-over's tracks, ms (a variant's track is known only with its id).
    pub voice_ms: i64,
}

impl Floor {
    pub fn rule(&self) -> domain::clip::planner::Floor<'_> {
        domain::clip::planner::Floor {
            lengths: &self.lengths,
            min_ms: self.min_ms,
        }
    }
}

/// The [`Floor`] of a project's settings over its pools. One-touch projects (mode `ai`) have none: their
/// shots are cut to the voice-over's lines on whole seconds and held to its own footage rule
/// (`aiclip::check_footage`).
pub async fn floor(
    db: &Db,
    mid: i64,
    mode: ProjectMode,
    cfg: &ProjectConfig,
    pools: &[Pool],
) -> ApiResult<Floor> {
    let lengths = pools
        .iter()
        .zip(&cfg.groups)
        .map(|((_, clips), g)| {
            clips
                .iter()
                .map(|m| {
                    if !g.images.is_empty() {
                        return g.max_ms;
                    }
                    let (a, b) = media::mix::snap_trim(
                        m.duration_ms,
                        (g.in_ms > 0).then_some(g.in_ms),
                        (g.max_ms > 0).then_some(g.in_ms + g.max_ms),
                    );
                    b - a
                })
                .collect()
        })
        .collect();
    let mut voice_ms = 0;
    let voices = match mode {
        ONE_TOUCH_MODE => vec![],
        _ => cfg.voice.as_ref().map(|v| v.tracks()).unwrap_or_default(),
    };
    for id in voices {
        if let Some(m) = mat::get(db, mid, id).await? {
            voice_ms = voice_ms.max(m.duration_ms);
        }
    }
    let transitions: i64 = cfg
        .groups
        .iter()
        .filter_map(|g| g.transition.as_ref().map(|t| t.ms))
        .sum();
    Ok(Floor {
        lengths,
        min_ms: if voice_ms > 0 {
            voice_ms + transitions
        } else {
            0
        },
        voice_ms,
    })
}

/// A shot group chosen for two shots is refused naming the group and both shots (`ids` in shot
/// order; 0 is an image shot, never a group), on `field`.
pub async fn check_reuse(db: &Db, mid: i64, field: &'static str, ids: &[i64]) -> ApiResult<()> {
    for (second, id) in ids.iter().enumerate() {
        let Some(first) = ids[..second].iter().position(|x| x == id && *x != 0) else {
            continue;
        };
        let name = mat::group(db, mid, *id)
            .await?
            .map(|g| g.name)
            .unwrap_or_else(|| format!("#{id}"));
        return Err(ApiError::invalid_with(
            field,
            Msg::GroupReused,
            vec![
                ("name", name),
                ("first", (first + 1).to_string()),
                ("second", (second + 1).to_string()),
            ],
        ));
    }
    Ok(())
}

/// Every id the settings name must be the caller's and of the right kind.
pub async fn check_refs(db: &Db, mid: i64, cfg: &ProjectConfig) -> ApiResult<()> {
    let groups: Vec<i64> = cfg
        .groups
        .iter()
        .map(|g| if g.images.is_empty() { g.group_id } else { 0 })
        .collect();
    check_reuse(db, mid, "groups", &groups).await?;
    cfg.validate()?;
    pools(db, mid, cfg).await?;
    let missing = |field: &str, what: String| {
        ApiError::invalid_with(field, Msg::MaterialMissing, vec![("what", what)])
    };
    for (field, a, kind) in [
        ("music", &cfg.music, MediaKind::Audio),
        ("voice", &cfg.voice, MediaKind::Audio),
    ] {
        if let Some(a) = a {
            for id in a.tracks() {
                mat::get(db, mid, id)
                    .await?
                    .filter(|m| m.kind == kind)
                    .ok_or_else(|| missing(field, format!("#{id}")))?;
            }
            if let Some(id) = a.system_music_id {
                mat::system_music_one(db, id)
                    .await?
                    .ok_or_else(|| missing(field, format!("built-in #{id}")))?;
            }
        }
    }
    let fonts = [
        cfg.subtitles.enabled.then_some(&cfg.subtitles.style),
        cfg.title.as_ref().map(|t| &t.style),
        cfg.has_shot_texts().then_some(&cfg.shot_style),
    ];
    for style in fonts.into_iter().flatten() {
        if let Some(id) = style.font_id {
            mat::get(db, mid, id)
                .await?
                .filter(|m| m.kind == domain::materials::MediaKind::Font)
                .ok_or_else(|| missing("font_id", format!("#{id}")))?;
        }
    }
    Ok(())
}

/// Every font chosen for text draws that text: the title's and the shot captions' characters, and the
/// recognized lines of the voice-over for subtitles (when recognized). A font without them (a Latin-only
/// font for a Chinese title) is refused naming it and the characters it lacks: burned, they would show
/// as empty boxes. A font that is gone or no font is left to [`check_refs`].
pub async fn check_fonts(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    cfg: &ProjectConfig,
) -> ApiResult<()> {
    let mut uses: Vec<(&'static str, i64, String)> = vec![];
    let titles = cfg.titles();
    if let (false, Some(id)) = (
        titles.is_empty(),
        cfg.title.as_ref().and_then(|t| t.style.font_id),
    ) {
        uses.push(("title", id, titles.concat()));
    }
    if let (true, Some(id)) = (cfg.has_shot_texts(), cfg.shot_style.font_id) {
        let texts: Vec<&str> = cfg.groups.iter().map(|g| g.text.as_str()).collect();
        uses.push(("shot_style", id, texts.concat()));
    }
    if let (true, Some(id)) = (cfg.subtitles.enabled, cfg.subtitles.style.font_id) {
        let mut text = String::new();
        for voice in cfg.voice.as_ref().map(|v| v.tracks()).unwrap_or_default() {
            for l in mat::asr_lines(db, mid, voice).await? {
                text.push_str(&l.content);
            }
        }
        uses.push(("subtitles", id, text));
    }
    for (field, id, text) in uses {
        let Some(m) = mat::get(db, mid, id)
            .await?
            .filter(|m| m.kind == domain::materials::MediaKind::Font)
        else {
            continue;
        };
        let file = storage
            .local_copy(&m.storage_key)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        let bytes = tokio::fs::read(file.path())
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        let missing = media::font::missing_glyphs(&bytes, &text).unwrap_or_default();
        if !missing.is_empty() {
            let shown: String = missing.iter().take(10).collect();
            let more = if missing.len() > 10 { "…" } else { "" };
            return Err(ApiError::invalid_with(
                field,
                Msg::FontMissingGlyphs,
                vec![("name", m.name), ("chars", format!("{shown}{more}"))],
            ));
        }
    }
    Ok(())
}

/// What a project's list row and form show beside its row.
pub struct Overview {
    pub config: ProjectConfig,
    /// Its groups with their ready clips (empty when a group is gone).
    pub pools: Vec<Pool>,
    pub capacity: u64,
    /// Unique combinations left that are shorter than the voice-over: not planned (see [`Floor`]).
    pub short: u64,
    /// The voice-over's length (its longest track), ms; 0 without one.
    pub voice_ms: i64,
    pub pool: usize,
    pub success: i64,
    pub processing: i64,
    pub failed: i64,
    /// The running batch's progress, when something renders.
    pub progress: Option<i64>,
    /// Every slot puts each of its clips at the same times (the render's `reuse_burns`): variants with
    /// text are joins of pieces burned once, several times faster in a batch than one encode each.
    pub fixed_slots: bool,
}

pub async fn overview(db: &Db, mid: i64, p: &db::Project) -> ApiResult<Overview> {
    let config: ProjectConfig = serde_json::from_str(&p.config).unwrap_or_default();
    let pools = pools(db, mid, &config).await.ok();
    let groups = pools.as_deref().map(ids).unwrap_or_default();
    let made = db::made_sequences(db, p.id).await?;
    let floor = floor(
        db,
        mid,
        p.mode,
        &config,
        pools.as_deref().unwrap_or_default(),
    )
    .await?;
    let (capacity, short) =
        domain::clip::planner::capacity_long_enough(&groups, &made, &floor.rule())
            .unwrap_or((0, 0));
    let pool: usize = groups.iter().map(Vec::len).sum();
    let counts = db::variant_state_counts(db, p.id).await?;
    let processing = counts.of("processing");
    // Only a project with something rendering has a batch to measure: the extra query is for those rows.
    let progress = if processing > 0 {
        db::batch_progress(db, p.id).await?
    } else {
        None
    };
    let pools = pools.unwrap_or_default();
    Ok(Overview {
        fixed_slots: super::slots::fixed_slots(
            &config.groups,
            &pools
                .iter()
                .map(|(_, c)| c.iter().map(|m| m.duration_ms).collect())
                .collect::<Vec<_>>(),
        ),
        config,
        pools,
        capacity,
        short,
        voice_ms: floor.voice_ms,
        pool,
        success: counts.of("success"),
        processing,
        failed: counts.of("failed"),
        progress,
    })
}

/// How many more unique variants a project of the merchant allows.
pub async fn capacity(db: &Db, mid: i64, project_id: i64) -> ApiResult<i64> {
    let p = db::project(db, mid, project_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let cfg: ProjectConfig = serde_json::from_str(&p.config).unwrap_or_default();
    let pools = pools(db, mid, &cfg).await?;
    let floor = floor(db, mid, p.mode, &cfg, &pools).await?;
    let made = db::made_sequences(db, p.id).await?;
    let (n, _) = domain::clip::planner::capacity_long_enough(&ids(&pools), &made, &floor.rule())
        .unwrap_or((0, 0));
    Ok(i64::try_from(n).unwrap_or(i64::MAX))
}

/// The most characters a project's name may have.
pub const PROJECT_NAME_MAX: usize = 50;

/// The mode of the mix projects one-touch video makes (not listed with quick mix or advanced ones).
pub const ONE_TOUCH_MODE: ProjectMode = ProjectMode::Ai;

pub fn project_name(name: &str) -> ApiResult<&str> {
    let n = name.trim();
    validate::required("name", n)?;
    validate::max_chars("name", n, PROJECT_NAME_MAX)?;
    validate::plain_text("name", n)?;
    Ok(n)
}

/// Creates (no id) or updates a project of one mode after checking its settings and every id in them.
pub async fn save(
    db: &Db,
    mid: i64,
    mode: ProjectMode,
    id: Option<i64>,
    name: &str,
    config: &ProjectConfig,
) -> ApiResult<db::Project> {
    if let Some(id) = id {
        db::project(db, mid, id)
            .await?
            .filter(|p| p.mode == mode)
            .ok_or(ApiError::NotFound)?;
    }
    let name = project_name(name)?;
    check_refs(db, mid, config).await?;
    let config = serde_json::to_string(config).unwrap_or_default();
    let id = match id {
        Some(id) => {
            db::update_project(db, mid, id, name, &config).await?;
            id
        }
        None => db::add_project(db, mid, mode, name, &config).await?,
    };
    db::project(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// [`save`] from the project form: the fonts are checked against the text they draw first.
pub async fn save_form(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    mode: ProjectMode,
    id: Option<i64>,
    name: &str,
    config: &ProjectConfig,
) -> ApiResult<db::Project> {
    check_fonts(db, storage, mid, config).await?;
    save(db, mid, mode, id, name, config).await
}

/// The mode of one of the merchant's projects (the library and the advanced page share `modify`).
pub async fn mode_of(db: &Db, mid: i64, id: i64) -> ApiResult<ProjectMode> {
    Ok(db::project(db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?
        .mode)
}

/// A copy of a project, named "<name> (2)".
pub async fn copy(db: &Db, mid: i64, id: i64) -> ApiResult<db::Project> {
    let p = db::project(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    let name: String = format!("{} (2)", p.name).chars().take(50).collect();
    let id = db::add_project(db, mid, p.mode, &name, &p.config).await?;
    db::project(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// Enables (1) or disables (0) a project.
pub async fn set_status(db: &Db, mid: i64, id: i64, status: i64) -> ApiResult<()> {
    if status != 0 && status != 1 {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "1 | 0".into())],
        ));
    }
    if !db::set_project_status(db, mid, id, status).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// Deletes a project (of `mode` when given) with its variants, refused while any still renders.
pub async fn remove(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    mode: Option<ProjectMode>,
    id: i64,
) -> ApiResult<()> {
    db::project(db, mid, id)
        .await?
        .filter(|p| mode.is_none_or(|m| p.mode == m))
        .ok_or(ApiError::NotFound)?;
    if db::rendering_variants(db, id).await? > 0 {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    for key in db::delete_project(db, mid, id).await?.unwrap_or_default() {
        let _ = storage.delete(&key).await;
    }
    Ok(())
}

/// The ready clips of one of the merchant's groups.
pub async fn group_clips(
    db: &Db,
    mid: i64,
    group_id: i64,
) -> ApiResult<(Vec<mat::MediaFile>, store::list::Total)> {
    mat::group(db, mid, group_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("group_id", Some(&group_id.to_string()), "=")
    .with_filter("state", Some("ready"), "=");
    Ok(mat::list(db, mid, "resource", &q).await?)
}

/// A plan of new variants with the pools it drew from.
pub struct Planned {
    pub plan: Plan,
    pub pools: Vec<Pool>,
    /// The points the plan costs.
    pub points: i64,
    /// How many variants the project had when it was planned.
    pub made: i64,
    /// When some two variants share more than half the slots (their duplicate risk is high): the
    /// groups that lack clips for every variant to take its own (index into `pools`, clips lacking).
    pub lacking: Vec<(usize, usize)>,
}

/// Plans `count` (default: the project's output count) variants of a project against what it
/// already made.
pub async fn plan(
    db: &Db,
    mid: i64,
    id: i64,
    count: Option<i64>,
) -> ApiResult<(db::Project, Planned)> {
    let p = db::project(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    if p.status == 0 {
        return Err(ApiError::invalid("id", Msg::ProjectDisabled));
    }
    let cfg: ProjectConfig =
        serde_json::from_str(&p.config).map_err(|e| ApiError::Internal(e.into()))?;
    let count = count.unwrap_or(cfg.output_count);
    if !(1..=domain::clip::MAX_BATCH).contains(&count) {
        return Err(ApiError::invalid_with(
            "count",
            Msg::InvalidValue,
            vec![("reason", format!("1–{}", domain::clip::MAX_BATCH))],
        ));
    }
    let pools = pools(db, mid, &cfg).await?;
    if let Some((g, _)) = pools.iter().find(|(_, c)| c.is_empty()) {
        return Err(ApiError::invalid_with(
            "groups",
            Msg::GroupEmpty,
            vec![("name", g.name.clone())],
        ));
    }
    let made = db::made_sequences(db, p.id).await?;
    let floor = floor(db, mid, p.mode, &cfg, &pools).await?;
    // A clip uploaded twice (renamed, re-encoded) is one clip to a duplicate check: so to the planner.
    let twins = super::risk::twins(db, mid, &pools).await?;
    let plan = domain::clip::planner::plan_least_alike(
        &ids(&pools),
        &made,
        count as usize,
        p.seed as u64,
        &floor.rule(),
        &twins,
    )
    .map_err(|e| match e {
        domain::clip::planner::PlanError::TooShort {
            requested,
            capacity,
            short,
            ..
        } => ApiError::invalid_with(
            "count",
            Msg::ShorterThanVoice,
            vec![
                ("voice", format!("{:.1}", floor.voice_ms as f64 / 1000.0)),
                ("capacity", capacity.to_string()),
                ("requested", requested.to_string()),
                ("short", short.to_string()),
            ],
        ),
        domain::clip::planner::PlanError::OverCapacity {
            requested,
            capacity,
        } => ApiError::invalid_with(
            "count",
            Msg::OverCapacity,
            vec![
                ("capacity", capacity.to_string()),
                ("requested", requested.to_string()),
            ],
        ),
        domain::clip::planner::PlanError::TooFewGroups { .. } => {
            ApiError::invalid("groups", Msg::TooFewGroups)
        }
        other => ApiError::invalid_with(
            "groups",
            Msg::InvalidValue,
            vec![("reason", other.to_string())],
        ),
    })?;
    let points = plan.variants.len() as i64 * POINTS_PER_VARIANT;
    let lacking = if plan.max_shared as usize * 2 > pools.len() {
        let sizes: Vec<usize> = twins
            .iter()
            .map(|t| domain::clip::planner::unlike_count(t))
            .collect();
        domain::clip::planner::clips_lacking(&sizes, made.len() + plan.variants.len())
    } else {
        vec![]
    };
    Ok((
        p,
        Planned {
            plan,
            pools,
            points,
            made: made.len() as i64,
            lacking,
        },
    ))
}

/// Plans and queues variants (also "continue adding": the planner never repeats a made sequence):
/// one render job per variant, its points charged in the same transaction. Returns the plan and the
/// new variants' ids.
pub async fn generate(
    db: &Db,
    mid: i64,
    id: i64,
    count: Option<i64>,
) -> ApiResult<(Planned, Vec<i64>)> {
    let (p, planned) = plan(db, mid, id, count).await?;
    let ids = queue_planned(db, &p, &planned).await?;
    Ok((planned, ids))
}

/// The planned variants written, charged and queued, only while the project still has the variants it
/// was planned against: two requests at once (a double click, two tabs) plan the same next sequences,
/// and the second would repeat the first's videos. It is refused instead.
pub async fn queue_planned(db: &Db, p: &db::Project, planned: &Planned) -> ApiResult<Vec<i64>> {
    let ids = add_planned(db, p, planned, planned.made).await?;
    if ids.is_empty() {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    Ok(ids)
}

/// The project's first `count` variants, unless it has some already (made by a twin run of the same
/// job: nothing is added or charged twice).
pub async fn generate_first(db: &Db, mid: i64, id: i64, count: i64) -> ApiResult<Vec<i64>> {
    let (p, planned) = match plan(db, mid, id, Some(count)).await {
        Ok(p) => p,
        // The twin's variants can also leave no room for these (capacity is what is not made yet).
        Err(_) if !db::made_sequences(db, id).await?.is_empty() => return Ok(vec![]),
        Err(e) => return Err(e),
    };
    add_planned(db, &p, &planned, 0).await
}

/// The planned variants written, charged and queued while the project has `made` variants (see
/// `db::add_variants`).
async fn add_planned(
    db: &Db,
    p: &db::Project,
    planned: &Planned,
    made: i64,
) -> ApiResult<Vec<i64>> {
    let v = &planned.plan.variants;
    Ok(db::add_variants(db, p.merchant_id, p.id, v, POINTS_PER_VARIANT, made).await?)
}

/// Renders every unique variant the project still allows (at most `MAX_BATCH` per call).
pub async fn generate_all(db: &Db, mid: i64, id: i64) -> ApiResult<(Planned, Vec<i64>)> {
    let capacity = capacity(db, mid, id).await?;
    generate(
        db,
        mid,
        id,
        Some(capacity.clamp(1, domain::clip::MAX_BATCH)),
    )
    .await
}

/// One page of the merchant's projects of one mode.
pub async fn list(
    d: &Db,
    mid: i64,
    mode: ProjectMode,
    q: &ListQuery,
) -> ApiResult<(Vec<Project>, store::list::Total)> {
    Ok(db::projects(d, mid, mode, q).await?)
}
