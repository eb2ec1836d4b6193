//! Area "ai": AI voice-overs. The voice list (built-in voices and the merchant's ready
//! clones) with favourites per user, synthesis tasks (points per started 100 characters, refunded on
//! failure; a durable `tts` job), a free audition of the first sentence, importing a finished task
//! into the voice-over library (`/speak`) as a voice material with its subtitle lines, voice cloning
//! through a provider (`clone`).

pub mod auditions;
pub mod clone;

use crate::error::{ApiError, ApiResult};
use crate::links;
use domain::ai::{self as rules, Params, TaskState, text};
use domain::i18n::Msg;
use domain::system::points::Reason;
use media::tts::{Kokoro, Request, Speech, Synthesizer, TtsError};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::Db;
use store::ai as st;

/// A synthesis task, a cloned voice.
pub use store::ai::{Clone as VoiceClone, Task};
use store::jobs::{JobCtx, JobError};

/// How the area is configured: the engine that speaks and the cloning provider.
pub struct Ai {
    /// The built-in engine (always there to ask whether it is installed).
    pub kokoro: Arc<Kokoro>,
    /// A cloud provider that synthesizes instead of the built-in engine (Aliyun NLS-style), when
    /// configured.
    pub cloud: Option<Arc<dyn Synthesizer>>,
    /// Whose voice list the voices are: the built-in engine's, or the cloud engine's.
    pub engine: rules::Engine,
    pub clone: Option<clone::Provider>,
    /// Each merchant's auditions in flight and in the last minute.
    pub auditions: auditions::Auditions,
}

pub type AiRef = Arc<Ai>;

impl Ai {
    /// The built-in engine in `tts_dir`, nothing else configured.
    pub fn built_in(tts_dir: &Path) -> Ai {
        Ai {
            kokoro: Arc::new(Kokoro::new(tts_dir)),
            cloud: None,
            engine: rules::Engine::Builtin,
            clone: None,
            auditions: auditions::Auditions::new(Arc::new(domain::now_ms)),
        }
    }

    /// From the environment: `CLIPMATRIX_NLS_APPKEY` with the AccessKey pair
    /// `CLIPMATRIX_NLS_ACCESS_KEY_ID` / `_SECRET` picks the Aliyun NLS engine (tokens are minted
    /// from the pair; `CLIPMATRIX_NLS_URL` and `CLIPMATRIX_NLS_META_URL` point it elsewhere than
    /// Aliyun's Shanghai hosts, e.g. at the sandbox), `CLIPMATRIX_CLONE_URL` (+ `_APPID`, `_TOKEN`)
    /// the cloning provider. `clock` is the platforms' clock the tokens' expiry is read on.
    pub fn from_env(tts_dir: &Path, clock: domain::clock::Clock) -> Ai {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let mut ai = Ai::built_in(tts_dir);
        if let Some(app_key) = var("CLIPMATRIX_NLS_APPKEY") {
            ai.set_nls(
                platforms::voice::NlsConfig {
                    gateway_url: var("CLIPMATRIX_NLS_URL")
                        .unwrap_or_else(|| platforms::voice::NLS_GATEWAY.into()),
                    meta_url: var("CLIPMATRIX_NLS_META_URL")
                        .unwrap_or_else(|| platforms::voice::NLS_META.into()),
                    app_key,
                    access_key_id: var("CLIPMATRIX_NLS_ACCESS_KEY_ID").unwrap_or_default(),
                    access_key_secret: var("CLIPMATRIX_NLS_ACCESS_KEY_SECRET").unwrap_or_default(),
                },
                clock,
            );
        }
        if let Some(url) = var("CLIPMATRIX_CLONE_URL") {
            ai.clone = Some(clone::Provider::new(
                &url,
                &var("CLIPMATRIX_CLONE_APPID").unwrap_or_default(),
                &var("CLIPMATRIX_CLONE_TOKEN").unwrap_or_default(),
            ));
        }
        ai
    }

    /// Aliyun NLS speaks instead of the built-in engine, its own voices.
    pub fn set_nls(&mut self, cfg: platforms::voice::NlsConfig, clock: domain::clock::Clock) {
        self.cloud = Some(Arc::new(clone::Nls::new(cfg, clock)));
        self.engine = rules::Engine::Nls;
    }

    /// The engine whose voices the list offers (the cloned voices come on top).
    pub fn catalog(&self) -> rules::Engine {
        self.engine
    }

    fn engine(&self) -> Arc<dyn Synthesizer> {
        match &self.cloud {
            Some(c) => c.clone(),
            None => self.kokoro.clone(),
        }
    }

    /// Refuses (422 on `voice`) when the built-in engine is needed and not installed.
    pub fn ready(&self) -> ApiResult<()> {
        if self.cloud.is_some() {
            return Ok(());
        }
        self.kokoro.check().map_err(|e| {
            ApiError::invalid_with("voice", Msg::TtsNotInstalled, vec![("hint", e.to_string())])
        })
    }
}

impl Ai {
    /// What a voice-over in `voice` is (`domain::clip::aigc`): synthesized audio, by the engine that
    /// speaks the voice list (`kokoro`, `aliyun_nls`) or a cloned voice (`clone`).
    pub fn provenance(&self, voice: &str) -> domain::clip::aigc::Provenance {
        let engine = match (self.catalog().voice(voice), self.catalog()) {
            (None, _) => "clone",
            (Some(_), rules::Engine::Builtin) => "kokoro",
            (Some(_), rules::Engine::Nls) => "aliyun_nls",
        };
        domain::clip::aigc::Provenance::tts(engine, voice)
    }
}

/// One voice of the list.
#[derive(Debug, Clone)]
pub struct VoiceRow {
    pub id: String,
    pub name: String,
    pub lang: &'static str,
    pub gender: &'static str,
    pub style: String,
    /// builtin | clone
    pub source: &'static str,
    pub liked: bool,
}

/// The engine's voices first (favourites marked), then the merchant's ready clones.
pub async fn voices(db: &Db, ai: &Ai, mid: i64, uid: i64, en: bool) -> ApiResult<Vec<VoiceRow>> {
    let liked = st::likes(db, uid).await?;
    let mut out: Vec<VoiceRow> = ai
        .catalog()
        .voices()
        .iter()
        .map(|v| VoiceRow {
            id: v.id.into(),
            name: if en { v.name_en } else { v.name_zh }.into(),
            lang: v.lang.as_str(),
            gender: v.gender,
            style: if en { v.style_en } else { v.style_zh }.into(),
            source: "builtin",
            liked: liked.iter().any(|l| l == v.id),
        })
        .collect();
    for c in st::clones(db, mid).await? {
        if c.state == rules::CloneState::Ready {
            let id = clone::voice_id(&c.speaker_id);
            out.push(VoiceRow {
                liked: liked.contains(&id),
                id,
                name: c.name,
                lang: "zh",
                gender: "",
                style: String::new(),
                source: "clone",
            });
        }
    }
    Ok(out)
}

/// Likes (or unlikes) a voice of the list for the caller.
pub async fn like(
    db: &Db,
    ai: &Ai,
    mid: i64,
    uid: i64,
    voice: &str,
    liked: bool,
) -> ApiResult<bool> {
    if !known(db, ai, mid, voice).await? {
        return Err(ApiError::invalid_with(
            "voice",
            Msg::TtsUnknownVoice,
            vec![("voice", voice.to_string())],
        ));
    }
    Ok(st::set_like(db, mid, uid, voice, liked).await?)
}

/// Is `voice` in this merchant's list (the engine's, or a ready clone of theirs)?
async fn known(db: &Db, ai: &Ai, mid: i64, voice: &str) -> ApiResult<bool> {
    if ai.catalog().voice(voice).is_some() {
        return Ok(true);
    }
    let Some(speaker) = clone::speaker_of(voice) else {
        return Ok(false);
    };
    Ok(st::clone_by_speaker(db, mid, speaker)
        .await?
        .is_some_and(|c| c.state == rules::CloneState::Ready))
}

async fn check(db: &Db, ai: &Ai, mid: i64, p: &Params) -> ApiResult<()> {
    let ok = known(db, ai, mid, &p.voice).await?;
    p.check(|_| ok)?;
    Ok(())
}

/// The engine's request for a checked text.
/// The engine's request for `p`'s `sentences`, on behalf of `tenant` (the merchant; 0 the server).
pub fn request(p: &Params, sentences: Vec<text::Sentence>, tenant: i64) -> Request {
    Request {
        tenant,
        sentences,
        voice: p.voice.clone(),
        speed: rules::speed_factor(p.speed),
        pitch_semitones: rules::pitch_semitones(p.intonation),
        gain: rules::volume_gain(p.volume),
    }
}

/// A queued task and what it cost.
pub struct Queued {
    pub task: st::Task,
    pub points: i64,
}

/// putNlsTask / add_dub: checks everything, takes the points, records the task and queues its job.
/// Nothing is queued and nothing is taken when a check fails.
pub async fn put_task(
    db: &Db,
    ai: &Ai,
    mid: i64,
    uid: i64,
    name: &str,
    p: &Params,
) -> ApiResult<Queued> {
    check(db, ai, mid, p).await?;
    // The copy precheck: a voice-over says the merchant's words in its videos.
    crate::compliance::form(db, mid, &[("text", p.text.as_str())], &[]).await?;
    if clone::speaker_of(&p.voice).is_none() {
        ai.ready()?;
    } else if ai.clone.is_none() {
        return Err(ApiError::invalid("voice", Msg::CloneNotConfigured));
    }
    domain::validate::plain_text("name", name)?;
    // refused, not cut: a name over the limit is a client that skipped the form
    domain::validate::max_chars("name", name.trim(), rules::TASK_NAME_MAX)?;
    let chars = p.text.trim().chars().count();
    let points = rules::price(chars);
    let key = format!("tts:{mid}:{}", store::random_token(12));
    store::system::points::deduct(db, mid, points, Reason::Tts, &key).await?;
    let name: String = if name.trim().is_empty() {
        p.text.trim().chars().take(20).collect()
    } else {
        name.trim().to_string()
    };
    let new = st::NewTask {
        merchant_id: mid,
        user_id: uid,
        name: &name,
        params: p,
        chars: chars as i64,
        points,
        points_key: &key,
    };
    match st::insert_task(db, &new, domain::now_ms()).await {
        Ok((id, _)) => {
            let task = st::task(db, mid, id).await?.ok_or(ApiError::NotFound)?;
            Ok(Queued { task, points })
        }
        Err(e) => {
            store::system::points::refund(db, mid, &key, Reason::TtsNotStarted).await?;
            Err(e.into())
        }
    }
}

/// nlsAudition: the first sentence only, synthesized now (free: it is a preview), as an in-memory
/// m4a with its length.
pub async fn audition(
    db: &Db,
    ai: &Ai,
    storage: &media::Storage,
    mid: i64,
    p: &Params,
) -> ApiResult<(Vec<u8>, Speech)> {
    check(db, ai, mid, p).await?;
    ai.ready()?;
    let _playing = ai.auditions.start(mid)?;
    let first = text::sentences(&p.text).into_iter().take(1).collect();
    let dst = storage
        .workspace()
        .temp_path("m4a")
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let res = synthesize(ai, &request(p, first, mid), &dst).await;
    let out = match res {
        Ok(speech) => tokio::fs::read(&dst)
            .await
            .map(|b| (b, speech))
            .map_err(|e| ApiError::Internal(e.into())),
        Err(e) => Err(synth_error(e)),
    };
    let _ = tokio::fs::remove_file(&dst).await;
    out
}

/// A streamed audition's ticket lives this long (it is used at once by the `<audio>` element).
const TICKET_TTL_MS: i64 = 5 * 60_000;

/// What a streamed audition's ticket carries: the checked request, whose it is, until when, and the
/// nonce that makes it usable once.
#[derive(serde::Serialize, serde::Deserialize)]
struct Ticket {
    m: i64,
    e: i64,
    p: Params,
    #[serde(default)]
    n: String,
}

/// nlsAudition with `stream`: everything is checked as for a task, then the answer is a URL whose GET
/// streams the first sentence as MP3 while the engine speaks it (the first words play after one
/// clause's compute instead of the whole sentence's). An `<audio>` element cannot send the bearer
/// token, so the URL carries a signed ticket (the request, the merchant, five minutes, once). Only the
/// built-in engine streams: `None` for a cloned voice or a cloud provider (the caller answers the
/// whole preview instead).
pub async fn audition_url(
    db: &Db,
    ai: &Ai,
    key: &[u8],
    mid: i64,
    p: &Params,
) -> ApiResult<Option<String>> {
    check(db, ai, mid, p).await?;
    ai.ready()?;
    if ai.cloud.is_some() || clone::speaker_of(&p.voice).is_some() {
        return Ok(None);
    }
    ai.auditions.admit(mid)?;
    let now = domain::now_ms();
    let t = Ticket {
        m: mid,
        e: now + TICKET_TTL_MS,
        p: p.clone(),
        n: store::random_token(16),
    };
    st::issue_ticket(db, &t.n, t.e, now).await?;
    let blob = hex::encode(serde_json::to_vec(&t).map_err(|e| ApiError::Internal(e.into()))?);
    let sig = links::mac(key, &format!("audition:{blob}"));
    Ok(Some(format!("/audition?t={blob}&s={sig}")))
}

/// Why a streamed audition's URL is refused.
pub enum TicketError {
    /// Not signed by this server (or altered).
    Forged,
    Expired,
    /// Played already: a ticket plays once.
    Used,
    /// Another audition of the merchant is in flight.
    Busy(ApiError),
    Store(ApiError),
}

/// The MP3 stream of a ticket made by [`audition_url`]; the ticket is used up by it.
pub async fn audition_stream(
    db: &Db,
    ai: &Ai,
    key: &[u8],
    blob: &str,
    sig: &str,
) -> Result<tokio::sync::mpsc::Receiver<Result<Vec<u8>, TtsError>>, TicketError> {
    if !links::verify_mac(key, &format!("audition:{blob}"), sig) {
        return Err(TicketError::Forged);
    }
    let t: Ticket = hex::decode(blob)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or(TicketError::Forged)?;
    let now = domain::now_ms();
    if t.e < now {
        return Err(TicketError::Expired);
    }
    // In flight before the ticket is used: a refused play leaves the ticket for a later one.
    let playing = ai.auditions.play(t.m).map_err(TicketError::Busy)?;
    if !st::use_ticket(db, &t.n, now)
        .await
        .map_err(|e| TicketError::Store(e.into()))?
    {
        return Err(TicketError::Used);
    }
    let first = text::sentences(&t.p.text).into_iter().take(1).collect();
    Ok(media::tts::stream_mp3(
        ai.kokoro.clone(),
        request(&t.p, first, t.m),
        playing,
    ))
}

pub async fn synthesize(ai: &Ai, req: &Request, dst: &Path) -> Result<Speech, TtsError> {
    synthesize_reporting(ai, req, dst, &|_, _| {}).await
}

/// The same, telling `progress` after each sentence (where the engine can).
pub async fn synthesize_reporting(
    ai: &Ai,
    req: &Request,
    dst: &Path,
    progress: media::tts::Progress<'_>,
) -> Result<Speech, TtsError> {
    match clone::speaker_of(&req.voice) {
        Some(_) => match &ai.clone {
            Some(p) => p.synthesize(req, dst, progress).await,
            None => Err(TtsError::Provider(
                "no voice cloning service is configured".into(),
            )),
        },
        None => ai.engine().synthesize_reporting(req, dst, progress).await,
    }
}

fn synth_error(e: TtsError) -> ApiError {
    match e {
        TtsError::NotInstalled(hint) => {
            ApiError::invalid_with("voice", Msg::TtsNotInstalled, vec![("hint", hint)])
        }
        TtsError::UnknownVoice(v) => {
            ApiError::invalid_with("voice", Msg::TtsUnknownVoice, vec![("voice", v)])
        }
        TtsError::Provider(reason) => {
            ApiError::invalid_with("voice", Msg::TtsProviderFailed, vec![("reason", reason)])
        }
        other => {
            ApiError::invalid_with("text", Msg::TtsFailed, vec![("reason", other.to_string())])
        }
    }
}

/// taskList: the merchant's tasks, newest first (the list engine's filters).
pub async fn tasks(
    db: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<st::Task>, store::list::Total)> {
    Ok(st::tasks(db, mid, q).await?)
}

/// Lines moved by `ms` (never before 0).
fn shifted(lines: &[media::asr::Line], ms: i64) -> Vec<media::asr::Line> {
    lines
        .iter()
        .map(|l| media::asr::Line {
            start_ms: (l.start_ms + ms).max(0),
            end_ms: (l.end_ms + ms).max(0),
            content: l.content.clone(),
        })
        .collect()
}

/// The subtitle lines a finished task stored.
pub fn lines_of(t: &st::Task) -> Vec<media::asr::Line> {
    serde_json::from_str(&t.lines).unwrap_or_default()
}

/// deleteTask: a task not being synthesized, with its file.
pub async fn delete_task(db: &Db, storage: &media::Storage, mid: i64, id: i64) -> ApiResult<()> {
    let t = st::task(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    let state = t.state;
    if matches!(state, TaskState::Queued | TaskState::Running) {
        return Err(ApiError::invalid("id", Msg::TtsBusy));
    }
    let Some(t) = st::delete_task(db, mid, id).await? else {
        return Err(ApiError::invalid("id", Msg::TtsBusy));
    };
    if !t.storage_key.is_empty() {
        let _ = storage.delete(&t.storage_key).await;
    }
    Ok(())
}

/// importingBroadcast / add_dub_broadcast: a finished task into the voice-over library (`/speak`) as an
/// audio material with the task's subtitle lines; importing again answers the same material while it
/// exists. The material goes through ingest like an uploaded voice-over.
///
/// The task's file starts with the audible cue of AI-generated audio (see [`run`]); the material is
/// the speech without it (a stream-copy cut, its implicit label kept), since the videos made of it
/// carry the visible label instead and the subtitles follow the speech.
pub async fn import(
    db: &Db,
    storage: &media::Storage,
    ai: &Ai,
    mid: i64,
    id: i64,
    group_id: i64,
) -> ApiResult<store::materials::MediaFile> {
    let t = st::task(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    if t.state != TaskState::Done || t.storage_key.is_empty() {
        return Err(ApiError::invalid("id", Msg::TtsNotDone));
    }
    if t.media_id > 0
        && let Some(m) = store::materials::get(db, mid, t.media_id).await?
    {
        return Ok(m);
    }
    let internal = |e: String| ApiError::Internal(anyhow::anyhow!(e));
    let file = storage
        .local_copy(&t.storage_key)
        .await
        .map_err(|e| internal(e.to_string()))?;
    // A task made before the labels has no cue (and no label): its file is the speech.
    let (key, duration, plain) = match media::aigc::mp4_tag(file.path()).await {
        Some(meta) => {
            let dst = storage
                .workspace()
                .temp_path("m4a")
                .await
                .map_err(|e| internal(e.to_string()))?;
            let cut = media::aigc::without_cue(file.path(), &dst, &meta).await;
            let key = media::Storage::new_key(mid, "m4a");
            let put = match cut {
                Ok(()) => storage
                    .put_file(&key, &dst)
                    .await
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            let _ = tokio::fs::remove_file(&dst).await;
            put.map_err(internal)?;
            let cue = domain::clip::aigc::audio_cue_ms();
            (key, (t.duration_ms - cue).max(0), true)
        }
        None => (t.storage_key.clone(), t.duration_ms, false),
    };
    let cue = if plain {
        domain::clip::aigc::audio_cue_ms()
    } else {
        0
    };
    let row = voice_material(
        db,
        storage,
        mid,
        group_id,
        &key,
        &t.name,
        duration,
        &shifted(&lines_of(&t), -cue),
        &ai.provenance(&t.voice),
    )
    .await;
    if plain {
        // The material holds its own link to the file.
        let _ = storage.delete(&key).await;
    }
    let row = row?;
    st::set_media(db, mid, id, row.id).await?;
    Ok(row)
}

/// A synthesized voice-over (stored under `src_key`) as a ready voice material named `<name>.m4a` with
/// its lines as its subtitles (recognition done). Every engine's output already is what ingest would
/// make of an upload (`media::tts::finish`: 48 kHz AAC, loudness-normalized), so the file is its own
/// mezzanine and no ingest job runs: a one-touch render that starts right after sees the same file
/// as the ones after it (with an ingest in between, the first prepared a second sound bed). The
/// material keeps its own link to the file.
#[allow(clippy::too_many_arguments)]
pub async fn voice_material(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    group_id: i64,
    src_key: &str,
    name: &str,
    duration_ms: i64,
    lines: &[media::asr::Line],
    provenance: &domain::clip::aigc::Provenance,
) -> ApiResult<store::materials::MediaFile> {
    let key = media::Storage::new_key(mid, "m4a");
    storage
        .link(src_key, &key)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let local = storage.local_copy(&key).await.ok();
    let size = local
        .as_ref()
        .and_then(|f| std::fs::metadata(&**f).ok())
        .map_or(0, |m| m.len() as i64);
    // Measured like ingest does (the engines aim at -16 LUFS; a cloned voice may land beside it).
    let loudness = match &local {
        Some(f) => media::ingest::loudness(f).await.ok().flatten(),
        None => None,
    };
    let m = store::materials::NewMedia {
        merchant_id: mid,
        library: "voice".into(),
        kind: domain::materials::MediaKind::Audio,
        group_id,
        name: format!("{name}.m4a"),
        original_name: format!("{name}.m4a"),
        storage_key: key.clone(),
        mime: "audio/mp4".into(),
        size,
        duration_ms,
        audio_codec: "aac".into(),
        has_audio: true,
        state: domain::materials::IngestState::Ready,
        ..Default::default()
    };
    let row = match store::materials::insert(db, &m, false).await {
        Ok(r) => r,
        Err(e) => {
            let _ = storage.delete(&key).await;
            return Err(e.into());
        }
    };
    let lines: Vec<(i64, i64, String)> = lines
        .iter()
        .map(|l| (l.start_ms, l.end_ms, l.content.clone()))
        .collect();
    store::materials::replace_asr_lines(db, mid, row.id, &lines).await?;
    store::materials::asr_succeeded(db, row.id).await?;
    store::materials::set_outputs(db, row.id, "", "", &key, loudness).await?;
    store::materials::set_provenance(db, row.id, &provenance.to_column()).await?;
    Ok(store::materials::get(db, mid, row.id).await?.unwrap_or(row))
}

/// The `tts` job: synthesize, store the file, record its length and lines — or, on the last failure,
/// give the points back and keep the reason.
pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::TtsRef,
    storage: media::Storage,
    ai: AiRef,
) -> Result<(), JobError> {
    let Some(t) = st::task_any(&ctx.db, p.task_id).await? else {
        return Err(JobError::Permanent("the task was deleted".into()));
    };
    if t.state == TaskState::Done {
        return Ok(());
    }
    let result = ctx
        .attempt(async {
            st::task_running(&ctx.db, t.id, 10).await?;
            ctx.progress(10).await?;
            let params = Params {
                text: t.text.clone(),
                voice: t.voice.clone(),
                volume: t.volume,
                speed: t.speed,
                intonation: t.intonation,
            };
            let req = request(&params, text::sentences(&t.text), t.merchant_id);
            let dst = storage
                .workspace()
                .temp_path("m4a")
                .await
                .map_err(|e| JobError::Retry(e.to_string()))?;
            let speech = synthesize_tracked(&ctx, t.id, &ai, &req, &dst).await?;
            let speech = match speech {
                Ok(s) => s,
                Err(e) => {
                    let _ = tokio::fs::remove_file(&dst).await;
                    return Err(match e {
                        TtsError::Timeout(_) | TtsError::Io(_) => JobError::Retry(e.to_string()),
                        other => JobError::Permanent(other.to_string()),
                    });
                }
            };
            st::task_running(&ctx.db, t.id, 90).await?;
            ctx.progress(90).await?;
            // What the merchant plays and downloads is audio-only generated content: the audible
            // cue before the speech and the implicit label (GB 45438-2025 §5.3, §6).
            let meta = crate::aigc::meta(&ctx.db, t.merchant_id, &format!("tts{}", t.id)).await?;
            let cued = dst.with_extension("cued.m4a");
            let labelled = media::aigc::audio_with_cue(&dst, &cued, &meta).await;
            let _ = tokio::fs::remove_file(&dst).await;
            if let Err(e) = labelled {
                let _ = tokio::fs::remove_file(&cued).await;
                return Err(JobError::Retry(e.to_string()));
            }
            let key = media::Storage::new_key(t.merchant_id, "m4a");
            let put = storage.put_file(&key, &cued).await;
            let _ = tokio::fs::remove_file(&cued).await;
            put.map_err(|e| JobError::Retry(e.to_string()))?;
            // The lines are those of the file: after the cue.
            let cue = domain::clip::aigc::audio_cue_ms();
            let lines =
                serde_json::to_string(&shifted(&speech.lines, cue)).unwrap_or_else(|_| "[]".into());
            let duration = speech.duration_ms + cue;
            if !st::task_done(&ctx.db, t.id, &key, duration, &lines).await? {
                // A twin run (its lease lapsed while this one ran) ended the task first: this file is no one's.
                let _ = storage.delete(&key).await;
                return Ok(());
            }
            tracing::info!(
                task = t.id,
                audio_ms = speech.duration_ms,
                "voice-over synthesized"
            );
            Ok::<(), JobError>(())
        })
        .await;
    // A twin run that already delivered the voice-over leaves nothing to refund.
    let delivered = || async {
        Ok::<_, JobError>(
            st::task_any(&ctx.db, t.id)
                .await?
                .is_some_and(|n| n.state == TaskState::Done),
        )
    };
    if let Err(e) = &result
        && ctx.is_final(e)
        && !delivered().await?
    {
        store::system::points::refund(&ctx.db, t.merchant_id, &t.points_key, Reason::TtsFailed)
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        st::task_failed(
            &ctx.db,
            t.id,
            &domain::i18n::reason(Msg::TtsFailed, &[("reason", e.message())]),
        )
        .await?;
    }
    result
}

/// Synthesizes a task's voice-over, moving its progress from 10 to 90 % as sentences are done (the
/// bar would otherwise sit at 10 % for the whole of a long script).
async fn synthesize_tracked(
    ctx: &JobCtx,
    task: i64,
    ai: &Ai,
    req: &Request,
    dst: &Path,
) -> Result<Result<Speech, TtsError>, JobError> {
    let (tx, mut rx) = tokio::sync::watch::channel(10i64);
    let report = move |done: usize, of: usize| {
        tx.send_replace(domain::ai::synthesis_progress(done, of));
    };
    let synth = synthesize_reporting(ai, req, dst, &report);
    tokio::pin!(synth);
    let mut shown = 10;
    loop {
        tokio::select! {
            speech = &mut synth => return Ok(speech),
            Ok(()) = rx.changed() => {
                let pct = *rx.borrow_and_update();
                if pct > shown {
                    shown = pct;
                    st::task_running(&ctx.db, task, pct).await?;
                    ctx.progress(pct).await?;
                }
            }
        }
    }
}

/// The file a voice's sample is kept under in the store.
pub fn sample_key(voice: &str) -> String {
    format!("ai/samples/{voice}.m4a")
}

/// A voice of the engine's list: its sample, synthesized by the engine on first use and kept in the
/// store.
pub async fn sample(ai: &Ai, storage: &media::Storage, voice: &str) -> ApiResult<String> {
    let v = ai.catalog().voice(voice).ok_or(ApiError::NotFound)?;
    let key = sample_key(voice);
    if storage.exists(&key).await {
        return Ok(key);
    }
    ai.ready()?;
    let words = match v.lang {
        rules::Lang::Zh => format!("您好，我是{}，很高兴为您的视频配音。", v.name_zh),
        rules::Lang::En => format!(
            "Hi, I'm {}. I would love to narrate your next video.",
            v.name_en
        ),
    };
    let p = Params {
        text: words,
        voice: voice.into(),
        volume: 50,
        speed: 0,
        intonation: 0,
    };
    let dst: PathBuf = storage
        .workspace()
        .temp_path("m4a")
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let res = ai
        .engine()
        .synthesize(&request(&p, text::sentences(&p.text), 0), &dst)
        .await
        .map_err(synth_error);
    if res.is_ok() {
        storage
            .put_file(&key, &dst)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
    }
    let _ = tokio::fs::remove_file(&dst).await;
    res.map(|_| key)
}
