//! One-touch video: AI clip projects (`/clip.merchant_ai_clip/*`) and the one-touch calls
//! (`/media.merchant_key_slice/*`). A request is a draft until started; starting queues ONE durable
//! `clip.one_touch` job that writes the script (built-in writer from the topic's keywords and the
//! merchant's lexicon, or the configured LLM provider), synthesizes the voice-over (one subtitle line per
//! sentence, kept as a voice material), matches the sentences to the merchant's shot groups and makes a
//! mix project of them (mode `ai`: voice, its lines burned as subtitles, music by mood, the title), then
//! plans N unique variants — each rendered by the mix engine's `clip.render` job, its points charged
//! with it and refunded if it fails. The render job reports back ([`variant_settled`]), so the row's
//! progress covers every step until its videos are made.

use crate::error::{ApiError, ApiResult};
use crate::writer;
use domain::clip::one_touch::{self as rules, GroupInfo, Request, State};
use domain::clip::templates as tpl;
use domain::clip::{Audio, GroupRule, ProjectConfig, Subtitles, TextStyle, Title};
use domain::i18n::Msg;
use std::sync::Arc;
use store::Db;
use store::clip::one_touch as db;

/// A one-touch job.
pub use db::AiClip;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;

pub use super::projects::ONE_TOUCH_MODE as MODE;

/// What the job needs beside the database.
pub struct Deps {
    pub storage: media::Storage,
    pub ai: crate::ai::AiRef,
    pub sealer: store::secrets::Sealer,
}

/// The engine's first voice in the script's language.
fn default_voice(engine: domain::ai::Engine, req: &Request) -> &'static str {
    engine.default_voice(if req.english() {
        domain::ai::Lang::En
    } else {
        domain::ai::Lang::Zh
    })
}

pub fn request_of(row: &db::AiClip) -> Request {
    serde_json::from_str(&row.request).unwrap_or_default()
}

pub fn script_of(row: &db::AiClip) -> Vec<String> {
    serde_json::from_str(&row.script).unwrap_or_default()
}

pub fn shots_of(row: &db::AiClip) -> Vec<rules::Shot> {
    serde_json::from_str(&row.shots).unwrap_or_default()
}

/// The step a failed row stopped at, read from what it had made: no script, no voice-over, no project,
/// else its videos.
pub fn failed_step(row: &db::AiClip) -> &'static str {
    if script_of(row).is_empty() {
        State::Script.as_str()
    } else if row.voice_media_id == 0 {
        State::Voice.as_str()
    } else if row.project_id == 0 {
        State::Match.as_str()
    } else {
        State::Rendering.as_str()
    }
}

/// Checks a request against the merchant's own groups, template and the voices.
async fn check(
    db: &Db,
    engine: domain::ai::Engine,
    mid: i64,
    uid: i64,
    req: &mut Request,
) -> ApiResult<()> {
    req.validate()?;
    req.topic = req.topic.trim().to_string();
    req.name = req.name.trim().to_string();
    // The copy precheck: the title is burned into the videos, the topic steers the script.
    let copy = [("title", req.title.as_str()), ("topic", req.topic.as_str())];
    crate::compliance::form(db, mid, &copy, &[]).await?;
    let mut seen = std::collections::HashSet::new();
    let categories = if req.images() {
        mat::file_types(db, mid, "image").await?
    } else {
        vec![]
    };
    for g in &req.group_ids {
        if !seen.insert(*g) {
            return Err(ApiError::invalid_with(
                "group_ids",
                Msg::InvalidValue,
                vec![("reason", format!("group {g} twice"))],
            ));
        }
        // An image project names image categories; a video project shot groups.
        let found = if req.images() {
            categories.iter().any(|c| c.id == *g)
        } else {
            mat::group(db, mid, *g)
                .await?
                .is_some_and(|x| x.kind == domain::materials::GroupKind::Video)
        };
        if !found {
            return Err(ApiError::invalid_with(
                "group_ids",
                Msg::MaterialMissing,
                vec![("what", format!("group {g}"))],
            ));
        }
    }
    if !req.images()
        && !req.group_ids.is_empty()
        && req.group_ids.len() < domain::clip::planner::MIN_GROUPS
    {
        return Err(ApiError::invalid("group_ids", Msg::TooFewGroups));
    }
    if let Some(t) = req.template_id {
        store::clip::templates::get(db, mid, uid, t)
            .await?
            .ok_or_else(|| {
                ApiError::invalid_with(
                    "template_id",
                    Msg::MaterialMissing,
                    vec![("what", format!("template #{t}"))],
                )
            })?;
    }
    if req.voice.trim().is_empty() {
        req.voice = default_voice(engine, req).into();
    }
    if engine.voice(&req.voice).is_none() {
        return Err(ApiError::invalid_with(
            "voice",
            Msg::InvalidValue,
            vec![("reason", req.voice.clone())],
        ));
    }
    Ok(())
}

/// `add`: a draft AI clip project.
pub async fn add(
    db: &Db,
    engine: domain::ai::Engine,
    mid: i64,
    uid: i64,
    mut req: Request,
) -> ApiResult<db::AiClip> {
    check(db, engine, mid, uid, &mut req).await?;
    let json = serde_json::to_string(&req).unwrap_or_default();
    let id = db::insert(
        db,
        mid,
        uid,
        &req.kind,
        &req.display_name(),
        &req.topic,
        &json,
    )
    .await?;
    get(db, mid, id).await
}

pub async fn get(db: &Db, mid: i64, id: i64) -> ApiResult<db::AiClip> {
    db::get(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// `edit`: a new request for a project that is not working.
pub async fn edit(
    db: &Db,
    engine: domain::ai::Engine,
    mid: i64,
    uid: i64,
    id: i64,
    mut req: Request,
) -> ApiResult<db::AiClip> {
    get(db, mid, id).await?;
    check(db, engine, mid, uid, &mut req).await?;
    let json = serde_json::to_string(&req).unwrap_or_default();
    if !db::update_request(db, mid, id, &req.display_name(), &req.topic, &json).await? {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    get(db, mid, id).await
}

/// `createVideo`: starts a draft (or a failed one again). Refused up front when the voice engine is not
/// installed, fewer than three groups have ready clips, or the points cannot pay for the videos.
pub async fn start(db: &Db, ai: &crate::ai::Ai, mid: i64, id: i64) -> ApiResult<db::AiClip> {
    let row = get(db, mid, id).await?;
    let state = row.state;
    if !state.can_become(State::Queued) {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    let req = request_of(&row);
    ai.ready()?;
    if req.images() {
        let n = image_candidates(db, mid, &req.group_ids).await?.len();
        if n < domain::clip::planner::MIN_GROUPS {
            return Err(ApiError::invalid_with(
                "group_ids",
                Msg::TooFewImages,
                vec![("count", n.to_string())],
            ));
        }
    } else {
        let groups = candidates(db, mid, &req.group_ids).await?;
        usable_groups(&groups)?;
        // The length check runs here, before the voice-over is made and the videos are charged: a
        // target the footage cannot carry used to fail only after the voice-over.
        let (voice_ms, sentences) = expected_voice(db, &row, &req).await?;
        rules::check_length(&groups, voice_ms, sentences)?;
    }
    let need = req.count * domain::clip::POINTS_PER_VARIANT;
    let have = store::system::points::balance(db, mid).await?;
    if have < need {
        return Err(ApiError::invalid_with(
            "variants",
            Msg::PointsInsufficient,
            vec![("need", need.to_string()), ("balance", have.to_string())],
        ));
    }
    if !db::start(db, mid, id).await? {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    get(db, mid, id).await
}

/// How long the voice-over will be (ms) and in how many sentences: the built-in writer's script is
/// known before it is written (the same seed as the job's first run); a provider's is asked for the
/// target length in about one sentence per three seconds.
async fn expected_voice(db: &Db, row: &db::AiClip, req: &Request) -> ApiResult<(i64, usize)> {
    if writer::provider_setting(db).await?.is_some() {
        let n = (req.seconds / 3).max(rules::MIN_SENTENCES as i64) as usize;
        return Ok((req.seconds * 1000, n));
    }
    let (lexicon, _) = crate::seo::titles::merchant_words(db, row.merchant_id).await?;
    // Starting adds an attempt: the job's run writes with the next one.
    let seed = script_seed(row.id, row.attempt + 1);
    let script = rules::write_script(&req.topic, &lexicon, seed, req.seconds);
    Ok((
        script.iter().map(|s| rules::spoken_ms(s)).sum(),
        script.len(),
    ))
}

/// The built-in writer's seed of a row's run.
fn script_seed(id: i64, attempt: i64) -> u64 {
    (id as u64) << 8 | (attempt as u64 & 0xff)
}

/// `oneTouchNew` / `createVideoV2`: a new project started at once.
pub async fn one_touch(
    db: &Db,
    ai: &crate::ai::Ai,
    mid: i64,
    uid: i64,
    req: Request,
) -> ApiResult<db::AiClip> {
    let row = add(db, ai.catalog(), mid, uid, req).await?;
    match start(db, ai, mid, row.id).await {
        Ok(r) => Ok(r),
        Err(e) => {
            // Nothing was queued: the draft is not kept.
            db::delete(db, mid, row.id).await?;
            Err(e)
        }
    }
}

/// `copy`: a new draft with the same request, named "<name> (2)".
pub async fn copy(
    db: &Db,
    engine: domain::ai::Engine,
    mid: i64,
    uid: i64,
    id: i64,
) -> ApiResult<db::AiClip> {
    let row = get(db, mid, id).await?;
    let mut req = request_of(&row);
    req.name = format!("{} (2)", row.name).chars().take(50).collect();
    add(db, engine, mid, uid, req).await
}

pub async fn rename(db: &Db, mid: i64, id: i64, name: &str) -> ApiResult<db::AiClip> {
    let name = super::projects::project_name(name)?;
    if !db::rename(db, mid, id, name).await? {
        return Err(ApiError::NotFound);
    }
    get(db, mid, id).await
}

/// `delete`: a project that is not working; its videos stay in the finished-video library.
pub async fn delete(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    get(db, mid, id).await?;
    if !db::delete(db, mid, id).await? {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    Ok(())
}

/// At least three groups with ready clips; when fewer, a group with none is named (the chosen ones
/// first), else the rule is.
fn usable_groups(groups: &[GroupInfo]) -> ApiResult<()> {
    if groups.iter().filter(|g| g.ready > 0).count() >= domain::clip::planner::MIN_GROUPS {
        return Ok(());
    }
    Err(match groups.iter().find(|g| g.ready == 0) {
        Some(empty) => ApiError::invalid_with(
            "group_ids",
            Msg::GroupEmpty,
            vec![("name", empty.name.clone())],
        ),
        None => ApiError::invalid("group_ids", Msg::TooFewGroups),
    })
}

/// The merchant's video groups (those named, in that order, or all) with their ready clips' typical
/// length and what the clips say.
pub async fn candidates(db: &Db, mid: i64, only: &[i64]) -> ApiResult<Vec<GroupInfo>> {
    let q = store::ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = mat::groups(db, mid, "video", &q).await?;
    let clips = db::ready_clips(db, mid).await?;
    let speech = db::clip_speech(db, mid).await?;
    let mut out = vec![];
    let pick: Vec<&mat::Group> = if only.is_empty() {
        groups.iter().collect()
    } else {
        only.iter()
            .filter_map(|id| groups.iter().find(|g| g.id == *id))
            .collect()
    };
    for g in pick {
        let mut lens: Vec<i64> = clips
            .iter()
            .filter(|(gid, _)| *gid == g.id)
            .map(|(_, d)| *d)
            .collect();
        lens.sort();
        let text: Vec<&str> = speech
            .iter()
            .filter(|(gid, _)| *gid == g.id)
            .map(|(_, t)| t.as_str())
            .collect();
        out.push(GroupInfo {
            id: g.id,
            name: g.name.clone(),
            text: text.join(" "),
            ready: lens.len() as i64,
            clip_ms: lens.get(lens.len() / 2).copied().unwrap_or(0),
            longest_ms: lens.last().copied().unwrap_or(0),
        });
    }
    Ok(out)
}

/// The merchant's ready images (of the named image categories and their sub-categories, or all) with
/// the words that describe each: its original file name, its category (and the category's parent) and
/// its shot group.
pub async fn image_candidates(db: &Db, mid: i64, only: &[i64]) -> ApiResult<Vec<rules::ImageInfo>> {
    let types = mat::file_types(db, mid, "image").await?;
    let q = store::ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = mat::groups(db, mid, "video", &q).await?;
    let type_of = |id: i64| types.iter().find(|t| t.id == id);
    let mut out = vec![];
    for m in db::ready_images(db, mid).await? {
        let cat = type_of(m.file_type_id);
        let parent = cat.and_then(|c| type_of(c.parent_id));
        let chosen =
            only.is_empty() || [cat, parent].iter().flatten().any(|t| only.contains(&t.id));
        if !chosen {
            continue;
        }
        let mut words: Vec<&str> = vec![m.original_name.as_str()];
        words.extend(cat.map(|c| c.name.as_str()));
        words.extend(parent.map(|c| c.name.as_str()));
        words.extend(
            groups
                .iter()
                .find(|g| g.id == m.group_id)
                .map(|g| g.name.as_str()),
        );
        out.push(rules::ImageInfo {
            id: m.id,
            name: m.name,
            text: words.join(" "),
        });
    }
    Ok(out)
}

// ---- the job ----

fn permanent(e: ApiError) -> JobError {
    match e {
        ApiError::Invalid { msg, args, .. } => {
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            JobError::Permanent(domain::i18n::reason(msg, &args))
        }
        ApiError::NotFound => JobError::Permanent("not found".into()),
        other => JobError::Retry(other.to_string()),
    }
}

/// The script: the configured provider's (prompt `writer/prompts/script.txt`; sentences with a banned
/// word dropped, too few falls back), else, or when it fails, the built-in writer's. Answers the
/// sentences and who wrote them, as `ai_clips.writer` keeps it (`writer::keep`).
async fn write(
    d: &Db,
    deps: &Deps,
    row: &db::AiClip,
    req: &Request,
) -> Result<(Vec<String>, String), JobError> {
    let (lexicon, _) = crate::seo::titles::merchant_words(d, row.merchant_id)
        .await
        .map_err(permanent)?;
    let mut fallback = None;
    if let Some(cfg) = writer::provider(d, &deps.sealer).await.map_err(permanent)? {
        // About one sentence per three seconds of the target length.
        let n = (req.seconds / 3).max(rules::MIN_SENTENCES as i64);
        let (lang, max_chars) = if req.english() {
            (domain::i18n::Lang::En, 60)
        } else {
            (domain::i18n::Lang::Zh, 20)
        };
        let asked = writer::ask(
            d,
            &cfg,
            writer::Use::Script,
            lang,
            &[
                ("count", n.to_string()),
                ("seconds", req.seconds.to_string()),
                ("max_chars", max_chars.to_string()),
                ("topic", req.topic.clone()),
            ],
        )
        .await;
        match asked {
            Ok(text) => {
                let lines: Vec<String> = rules::parse_script(&text)
                    .into_iter()
                    .filter(|l| domain::seo::banned_word(l, &lexicon.banned).is_none())
                    .collect();
                if lines.len() >= domain::clip::planner::MIN_GROUPS {
                    let source = writer::Source::Llm { model: cfg.model };
                    return Ok((lines, writer::keep(&source, None)));
                }
                fallback = Some(writer::unusable(d, &cfg, writer::Use::Script).await);
            }
            Err(f) => fallback = Some(f),
        }
    }
    Ok((
        rules::write_script(
            &req.topic,
            &lexicon,
            script_seed(row.id, row.attempt),
            req.seconds,
        ),
        writer::keep(&writer::Source::BuiltIn, fallback.as_ref()),
    ))
}

/// The voice-over of the script as a voice material with one subtitle line per sentence.
async fn voice(
    d: &Db,
    deps: &Deps,
    row: &db::AiClip,
    req: &Request,
    script: &[String],
) -> Result<mat::MediaFile, JobError> {
    let sep = if req.english() { " " } else { "" };
    // A provider's long answer is cut at a sentence (the built-in writer stays below the limit).
    let mut text = String::new();
    for s in script {
        if text.chars().count() + s.chars().count() + 1 > rules::MAX_SCRIPT_CHARS {
            break;
        }
        if !text.is_empty() {
            text.push_str(sep);
        }
        text.push_str(s);
    }
    let params = domain::ai::Params {
        text: text.clone(),
        voice: req.voice.clone(),
        volume: 50,
        speed: 0,
        intonation: 0,
    };
    let request = crate::ai::request(&params, domain::ai::text::sentences(&text), row.merchant_id);
    let dst = deps
        .storage
        .workspace()
        .temp_path("m4a")
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    let speech = crate::ai::synthesize(&deps.ai, &request, &dst).await;
    let speech = match speech {
        Ok(s) => s,
        Err(e) => {
            let _ = tokio::fs::remove_file(&dst).await;
            return Err(match e {
                media::tts::TtsError::Timeout(_) | media::tts::TtsError::Io(_) => {
                    JobError::Retry(e.to_string())
                }
                other => JobError::Permanent(domain::i18n::reason(
                    Msg::TtsFailed,
                    &[("reason", &other.to_string())],
                )),
            });
        }
    };
    // A voice-over the product made carries the implicit label (GB 45438-2025 §6) like a TTS task's
    // file; no audible cue: it is made for the videos, which carry the visible label.
    let labelled = dst.with_extension("aigc.m4a");
    let tagged = match crate::aigc::meta(d, row.merchant_id, &format!("ai{}", row.id)).await {
        Ok(meta) => media::aigc::label_audio(&dst, &labelled, &meta)
            .await
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let _ = tokio::fs::remove_file(&dst).await;
    if let Err(e) = tagged {
        let _ = tokio::fs::remove_file(&labelled).await;
        return Err(JobError::Retry(e));
    }
    let key = media::Storage::new_key(row.merchant_id, "m4a");
    let put = deps.storage.put_file(&key, &labelled).await;
    let _ = tokio::fs::remove_file(&labelled).await;
    put.map_err(|e| JobError::Retry(e.to_string()))?;
    let name: String = format!("AI-{}", row.name).chars().take(60).collect();
    let m = crate::ai::voice_material(
        d,
        &deps.storage,
        row.merchant_id,
        0,
        &key,
        &name,
        speech.duration_ms,
        &speech.lines,
        &deps.ai.provenance(&req.voice),
    )
    .await;
    // The material holds its own link to the file.
    let _ = deps.storage.delete(&key).await;
    m.map_err(permanent)
}

/// Sets the voice-over `made` over the one `row` holds; when a twin run set its own first, `made` goes
/// (material and file) and the twin's is the one. Answers the voice-over the row holds now.
pub async fn keep_voice(
    d: &Db,
    storage: &media::Storage,
    row: &db::AiClip,
    made: i64,
) -> Result<i64, JobError> {
    if db::set_voice(d, row.id, made, row.voice_media_id).await? {
        return Ok(made);
    }
    crate::materials::library::delete(d, storage, row.merchant_id, &[made], |_| Ok(()))
        .await
        .map_err(permanent)?;
    db::get_any(d, row.id)
        .await?
        .map(|r| r.voice_media_id)
        .filter(|&v| v > 0)
        .ok_or_else(|| JobError::Retry("the voice-over was replaced meanwhile".into()))
}

/// The project's settings: one shot per matched group with its length, the voice-over and its lines
/// as subtitles, the template's (or default) music mood, subtitle style and title.
async fn config(
    d: &Db,
    row: &db::AiClip,
    req: &Request,
    shots: &[rules::Shot],
    voice_id: i64,
) -> Result<ProjectConfig, JobError> {
    let recipe = match req.template_id {
        Some(t) => match store::clip::templates::get(d, row.merchant_id, row.user_id, t).await? {
            Some(t) => Some(super::templates::recipe_of(&t).map_err(permanent)?),
            None => None,
        },
        None => None,
    };
    let mood = recipe
        .as_ref()
        .and_then(|r| r.music.as_ref())
        .map(|m| (m.mood.clone(), m.volume))
        .unwrap_or_else(|| ("light".into(), 30));
    let q = store::ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (tracks, _) = mat::system_music(d, &q).await.map_err(ApiError::from)?;
    let mut tracks: Vec<(i64, String, String)> = tracks
        .into_iter()
        .map(|m| (m.id, m.name, m.category))
        .collect();
    tracks.sort_by_key(|t| t.0);
    let music = tpl::track_for_mood(&mood.0, &tracks).map(|id| Audio {
        system_music_id: Some(id),
        volume: mood.1,
        ..Default::default()
    });
    // The title on the videos is the request's (or the product the topic names), never the project's
    // name, which is the merchant's own label.
    let (lexicon, _) = crate::seo::titles::merchant_words(d, row.merchant_id)
        .await
        .map_err(permanent)?;
    let text = req.video_title(&lexicon);
    let title = match recipe.as_ref().and_then(|r| r.title_for(&text)) {
        Some(t) => t,
        None => Title {
            text,
            texts: vec![],
            style: TextStyle {
                size: 72,
                color: "#FFD700".into(),
                position: "top".into(),
                font_id: None,
            },
        },
    };
    let sub_style = recipe
        .as_ref()
        .map(|r| r.subtitles.style.clone())
        .unwrap_or_default();
    Ok(ProjectConfig {
        groups: shots
            .iter()
            .map(|s| GroupRule {
                group_id: s.group_id,
                max_ms: s.max_ms,
                images: s.images.clone(),
                ..Default::default()
            })
            .collect(),
        music,
        voice: Some(Audio {
            media_id: Some(voice_id),
            volume: 100,
            ..Default::default()
        }),
        subtitles: Subtitles {
            enabled: true,
            style: sub_style,
        },
        title: Some(title),
        cover_ms: 0,
        cover_vary: false,
        trim_vary: false,
        text_vary: false,
        output_count: req.count,
        shot_style: ProjectConfig::default_shot_style(),
    })
}

async fn steps(ctx: &JobCtx, deps: &Deps, id: i64) -> Result<(), JobError> {
    let d = &ctx.db;
    let Some(mut row) = db::get_any(d, id).await? else {
        return Err(JobError::Permanent("the project was deleted".into()));
    };
    let req = request_of(&row);
    // 1. The script (kept: a retry reads the same words).
    let mut script = script_of(&row);
    if script.is_empty() {
        db::step(d, id, State::Script.as_str(), State::Script.base_progress()).await?;
        ctx.progress(State::Script.base_progress()).await?;
        let (s, writer) = write(d, deps, &row, &req).await?;
        let json = serde_json::to_string(&s).unwrap_or_default();
        script = if db::set_script(d, id, &json, &writer).await? {
            s
        } else {
            // A twin run wrote its script first: both read that one aloud.
            let Some(now) = db::get_any(d, id).await? else {
                return Err(JobError::Permanent("the project was deleted".into()));
            };
            script_of(&now)
        };
    }
    // 2. The voice-over.
    if row.voice_media_id == 0
        || mat::get(d, row.merchant_id, row.voice_media_id)
            .await?
            .is_none()
    {
        db::step(d, id, State::Voice.as_str(), State::Voice.base_progress()).await?;
        ctx.progress(State::Voice.base_progress()).await?;
        let m = voice(d, deps, &row, &req, &script).await?;
        row.voice_media_id = keep_voice(d, &deps.storage, &row, m.id).await?;
    }
    // 3. Sentences to groups, and the project.
    db::step(d, id, State::Match.as_str(), State::Match.base_progress()).await?;
    ctx.progress(State::Match.base_progress()).await?;
    let project_id = if row.project_id > 0
        && store::clip::project(d, row.merchant_id, row.project_id)
            .await?
            .is_some()
    {
        row.project_id
    } else {
        let voice = mat::get(d, row.merchant_id, row.voice_media_id)
            .await?
            .ok_or_else(|| JobError::Retry("the voice-over is gone".into()))?;
        let lines: Vec<rules::Line> = mat::asr_lines(d, row.merchant_id, voice.id)
            .await?
            .into_iter()
            .map(|l| rules::Line {
                start_ms: l.start_ms,
                end_ms: l.end_ms,
                content: l.content,
            })
            .collect();
        let shots = if req.images() {
            let images = image_candidates(d, row.merchant_id, &req.group_ids)
                .await
                .map_err(permanent)?;
            rules::match_images(&lines, &images, voice.duration_ms, req.count as usize)
                .map_err(|e| permanent(e.into()))?
        } else {
            let groups = candidates(d, row.merchant_id, &req.group_ids)
                .await
                .map_err(permanent)?;
            usable_groups(&groups).map_err(permanent)?;
            let shots = rules::match_shots(&lines, &groups, voice.duration_ms)
                .map_err(|e| permanent(e.into()))?;
            rules::check_footage(&shots, &groups, voice.duration_ms)
                .map_err(|e| permanent(e.into()))?;
            shots
        };
        let cfg = config(d, &row, &req, &shots, voice.id).await?;
        let p = super::projects::save(d, row.merchant_id, MODE, None, &row.name, &cfg)
            .await
            .map_err(permanent)?;
        let shots = serde_json::to_string(&shots).unwrap_or_default();
        if db::set_project(d, id, &shots, p.id, row.project_id).await? {
            p.id
        } else {
            // A twin run of this job (its lease lapsed while this one lived) set its project first:
            // this one goes, and both go on with the twin's.
            store::clip::delete_project(d, row.merchant_id, p.id).await?;
            db::get_any(d, id)
                .await?
                .map(|r| r.project_id)
                .filter(|&p| p > 0)
                .ok_or_else(|| JobError::Retry("the project was replaced meanwhile".into()))?
        }
    };
    // 4. The variants: planned unique, charged and queued in one transaction, only while the project
    // has none (a retry, or a twin running at once, finds them made already and adds nothing).
    super::projects::generate_first(d, row.merchant_id, project_id, req.count)
        .await
        .map_err(permanent)?;
    db::step(
        d,
        id,
        State::Rendering.as_str(),
        State::Rendering.base_progress(),
    )
    .await?;
    ctx.progress(State::Rendering.base_progress()).await?;
    // Variants that finished before the row said "rendering" reported to no one: settle now.
    variant_settled(d, project_id).await?;
    Ok(())
}

/// The `clip.one_touch` job.
pub async fn run(ctx: JobCtx, p: domain::jobs::AiClipRef, deps: Arc<Deps>) -> Result<(), JobError> {
    let result = ctx.attempt(steps(&ctx, &deps, p.ai_clip_id)).await;
    if let Err(e) = &result
        && ctx.is_final(e)
    {
        db::failed(&ctx.db, p.ai_clip_id, e.message()).await?;
    }
    result
}

/// Called by the render job when a variant of `project_id` settles (or moves): the one-touch row of
/// that project follows — progress 40–100 by its variants, done when none renders and one succeeded,
/// failed (every variant's points refunded by the render job) when all failed.
pub async fn variant_settled(d: &Db, project_id: i64) -> sqlx::Result<()> {
    let Some(id) = db::of_project(d, project_id).await? else {
        return Ok(());
    };
    let counts = store::clip::variant_state_counts(d, project_id).await?;
    let (processing, success, failed) = (
        counts.of("processing"),
        counts.of("success"),
        counts.of("failed"),
    );
    let total = processing + success + failed;
    if total == 0 {
        return Ok(());
    }
    if processing == 0 {
        if success > 0 {
            db::settle(d, id, State::Done.as_str(), 100, "").await
        } else {
            // The first video's reason tells why (they share their inputs).
            let why = db::first_variant_error(d, project_id)
                .await?
                .unwrap_or_default();
            db::settle(
                d,
                id,
                State::Failed.as_str(),
                100,
                &domain::i18n::reason(Msg::OneTouchFailed, &[("reason", &why)]),
            )
            .await
        }
    } else {
        let pct = store::clip::batch_progress(d, project_id)
            .await?
            .unwrap_or(0);
        db::render_progress(d, id, 40 + pct * 60 / 100).await
    }
}

/// One page of the merchant's one-touch jobs (`started`: those past the draft).
pub async fn list(
    d: &Db,
    mid: i64,
    started: bool,
    q: &store::ListQuery,
) -> ApiResult<(Vec<AiClip>, store::list::Total)> {
    Ok(db::list(d, mid, started, q).await?)
}

/// A job's videos by state (none before its project is matched).
pub async fn variant_counts(d: &Db, r: &AiClip) -> ApiResult<store::clip::StateCounts> {
    Ok(if r.project_id > 0 {
        store::clip::variant_state_counts(d, r.project_id).await?
    } else {
        Default::default()
    })
}

/// A job's voice-over material, if any, and its recognized lines.
pub async fn voice_over(
    d: &Db,
    mid: i64,
    r: &AiClip,
) -> ApiResult<(Option<mat::MediaFile>, Vec<mat::AsrLine>)> {
    let media = mat::get(d, mid, r.voice_media_id).await?;
    let lines = match &media {
        Some(m) => mat::asr_lines(d, mid, m.id).await?,
        None => vec![],
    };
    Ok((media, lines))
}
