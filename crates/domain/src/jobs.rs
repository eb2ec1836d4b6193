//! The kinds of background job and what each one's payload holds. `as_str` is the only spelling of a
//! kind: it is what the `jobs.kind` column stores, so these strings never change.

use crate::i18n::Msg;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JobKind {
    /// An account's works and statistics from its platform. Payload: [`AccountRef`].
    MatrixSync,
    /// Renews an account's access token before it ends. Payload: [`AccountRef`].
    MatrixTokenRefresh,
    /// Posts one due matrix item. Payload: [`ItemRef`].
    PublishItem,
    /// Looks at a posted work again until the platform's review decides. Payload: [`ItemRef`].
    PublishReview,
    /// Renders one variant of a clip project. Payload: [`ClipRender`].
    ClipRender,
    /// Cuts one source video of a slicing project. Payload: [`ClipSlice`].
    ClipSlice,
    /// Subtitle recognition of one video material. Payload: [`MediaAsr`].
    MediaAsr,
    /// Mezzanine, loudness, poster and thumbnails of an uploaded material. Payload: [`MediaIngest`].
    MediaIngest,
    /// The hourly cleanup of expired rows and stale temporary files. Payload: [`Cleanup`].
    MaintenanceCleanup,
    /// A benchmark (competitor) account's public works and figures. Payload: [`BenchmarkRef`].
    SeoBenchmarkSync,
    /// Reads one hot-list board from its platform into the cache. Payload: [`HotBoardRef`].
    ContentHotlistSync,
    /// An account's comments, read since its cursor (engagement). Payload: [`AccountRef`].
    EngagementSync,
    /// Keyword auto-replies to an account's new comments, each at most once. Payload: [`AccountRef`].
    EngagementAutoReply,
    /// Tells a new lead's assignee through the merchant's WeChat official account, once. Payload:
    /// [`NoticeRef`].
    EngagementLeadNotify,
    /// An AI voice-over synthesis. Payload: [`TtsRef`].
    Tts,
    /// One-touch video: script, voice-over, clip matching, then the variants queued. Payload: [`AiClipRef`].
    ClipOneTouch,
    /// AI smart editing of one long video: analyse, pick, cut. Payload: [`IntellectRef`].
    ClipIntellect,
}

impl JobKind {
    pub const ALL: [JobKind; 17] = [
        JobKind::MatrixSync,
        JobKind::MatrixTokenRefresh,
        JobKind::PublishItem,
        JobKind::PublishReview,
        JobKind::ClipRender,
        JobKind::ClipSlice,
        JobKind::MediaAsr,
        JobKind::MediaIngest,
        JobKind::MaintenanceCleanup,
        JobKind::SeoBenchmarkSync,
        JobKind::ContentHotlistSync,
        JobKind::EngagementSync,
        JobKind::EngagementAutoReply,
        JobKind::EngagementLeadNotify,
        JobKind::Tts,
        JobKind::ClipOneTouch,
        JobKind::ClipIntellect,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::MatrixSync => "matrix.sync",
            JobKind::MatrixTokenRefresh => "matrix.token_refresh",
            JobKind::PublishItem => "publish.item",
            JobKind::PublishReview => "publish.review",
            JobKind::ClipRender => "clip.render",
            JobKind::ClipSlice => "clip.slice",
            JobKind::MediaAsr => "media.asr",
            JobKind::MediaIngest => "media.ingest",
            JobKind::MaintenanceCleanup => "maintenance.cleanup",
            JobKind::SeoBenchmarkSync => "seo.benchmark_sync",
            JobKind::ContentHotlistSync => "content.hotlist_sync",
            JobKind::EngagementSync => "engagement.sync",
            JobKind::EngagementAutoReply => "engagement.auto_reply",
            JobKind::EngagementLeadNotify => "engagement.lead_notify",
            JobKind::Tts => "tts",
            JobKind::ClipOneTouch => "clip.one_touch",
            JobKind::ClipIntellect => "clip.intellect",
        }
    }

    /// The kind's name in the job monitor.
    pub fn label(self) -> Msg {
        match self {
            JobKind::MatrixSync => Msg::JobMatrixSync,
            JobKind::MatrixTokenRefresh => Msg::JobMatrixTokenRefresh,
            JobKind::PublishItem => Msg::JobPublishItem,
            JobKind::PublishReview => Msg::JobPublishReview,
            JobKind::ClipRender => Msg::JobClipRender,
            JobKind::ClipSlice => Msg::JobClipSlice,
            JobKind::MediaAsr => Msg::JobMediaAsr,
            JobKind::MediaIngest => Msg::JobMediaIngest,
            JobKind::MaintenanceCleanup => Msg::JobMaintenanceCleanup,
            JobKind::SeoBenchmarkSync => Msg::JobSeoBenchmarkSync,
            JobKind::ContentHotlistSync => Msg::JobContentHotlistSync,
            JobKind::EngagementSync => Msg::JobEngagementSync,
            JobKind::EngagementAutoReply => Msg::JobEngagementAutoReply,
            JobKind::EngagementLeadNotify => Msg::JobEngagementLeadNotify,
            JobKind::Tts => Msg::JobTts,
            JobKind::ClipOneTouch => Msg::JobClipOneTouch,
            JobKind::ClipIntellect => Msg::JobClipIntellect,
        }
    }
}

crate::text_enum! {
    /// Where a job waits for a worker: each lane has its own slots in every worker, so a due post never
    /// waits behind renders, nor a render behind a flood of syncs.
    #[derive(PartialOrd, Ord)]
    pub enum Lane {
        /// Short, time-bound platform calls: a due post, its review, a token about to end, replies and
        /// notices.
        Publish = "publish",
        /// Background reads from the platforms and housekeeping.
        Sync = "sync",
        /// CPU-bound media work: renders, cuts, recognition, speech, one-touch and smart editing.
        Media = "media",
    }
}
impl Lane {
    /// The lane of a stored kind; a kind this build does not know (the queue's own tests name
    /// made-up ones) waits in the media lane.
    pub fn of(kind: &str) -> Lane {
        kind.parse::<JobKind>()
            .map(JobKind::lane)
            .unwrap_or(Lane::Media)
    }
}

impl JobKind {
    pub fn lane(self) -> Lane {
        match self {
            JobKind::PublishItem
            | JobKind::PublishReview
            | JobKind::MatrixTokenRefresh
            | JobKind::EngagementAutoReply
            | JobKind::EngagementLeadNotify => Lane::Publish,
            JobKind::MatrixSync
            | JobKind::EngagementSync
            | JobKind::SeoBenchmarkSync
            | JobKind::ContentHotlistSync
            | JobKind::MaintenanceCleanup => Lane::Sync,
            JobKind::ClipRender
            | JobKind::ClipSlice
            | JobKind::MediaAsr
            | JobKind::MediaIngest
            | JobKind::Tts
            | JobKind::ClipOneTouch
            | JobKind::ClipIntellect => Lane::Media,
        }
    }
}

/// Lets the queue's registry take a kind where its tests name their own.
impl AsRef<str> for JobKind {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown job kind: {0}")]
pub struct UnknownKind(pub String);

impl std::str::FromStr for JobKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<JobKind, UnknownKind> {
        JobKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

impl Serialize for JobKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for JobKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JobKind, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A job's payload, stored as JSON in `jobs.payload`; `KINDS` are the kinds that carry it.
pub trait Payload: Serialize + DeserializeOwned {
    const KINDS: &'static [JobKind];
}

/// `matrix.sync`, `matrix.token_refresh`, `engagement.sync` and `engagement.auto_reply`: the account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountRef {
    pub account_id: i64,
}

impl Payload for AccountRef {
    const KINDS: &'static [JobKind] = &[
        JobKind::MatrixSync,
        JobKind::MatrixTokenRefresh,
        JobKind::EngagementSync,
        JobKind::EngagementAutoReply,
    ];
}

/// `engagement.lead_notify`: the notice (`eng_notices` row) of a new lead to its assignee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoticeRef {
    pub notice_id: i64,
}

impl Payload for NoticeRef {
    const KINDS: &'static [JobKind] = &[JobKind::EngagementLeadNotify];
}

/// `publish.item` and `publish.review`: the matrix item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRef {
    pub item_id: i64,
}

impl Payload for ItemRef {
    const KINDS: &'static [JobKind] = &[JobKind::PublishItem, JobKind::PublishReview];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClipRender {
    pub variant_id: i64,
}

impl Payload for ClipRender {
    const KINDS: &'static [JobKind] = &[JobKind::ClipRender];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClipSlice {
    pub source_id: i64,
}

impl Payload for ClipSlice {
    const KINDS: &'static [JobKind] = &[JobKind::ClipSlice];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaAsr {
    pub media_id: i64,
    /// The spoken language as `media::asr::Lang` spells it (`zh`, `en`): the handler parses it.
    pub lang: String,
    /// The points deduction this recognition is paid by (refunded if it fails).
    pub points_key: String,
}

impl Payload for MediaAsr {
    const KINDS: &'static [JobKind] = &[JobKind::MediaAsr];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaIngest {
    pub media_id: i64,
}

impl Payload for MediaIngest {
    const KINDS: &'static [JobKind] = &[JobKind::MediaIngest];
}

/// The cleanup needs nothing: its payload is JSON `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cleanup;

impl Payload for Cleanup {
    const KINDS: &'static [JobKind] = &[JobKind::MaintenanceCleanup];
}

/// `seo.benchmark_sync`: the benchmark account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkRef {
    pub benchmark_id: i64,
}

impl Payload for BenchmarkRef {
    const KINDS: &'static [JobKind] = &[JobKind::SeoBenchmarkSync];
}

/// `content.hotlist_sync`: the board's code (`domain::content::hotlists`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotBoardRef {
    pub board: String,
}

impl Payload for HotBoardRef {
    const KINDS: &'static [JobKind] = &[JobKind::ContentHotlistSync];
}

/// `tts`: the synthesis task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TtsRef {
    pub task_id: i64,
}

impl Payload for TtsRef {
    const KINDS: &'static [JobKind] = &[JobKind::Tts];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AiClipRef {
    pub ai_clip_id: i64,
}

impl Payload for AiClipRef {
    const KINDS: &'static [JobKind] = &[JobKind::ClipOneTouch];
}

/// `clip.intellect`: the smart-editing run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntellectRef {
    pub run_id: i64,
}

impl Payload for IntellectRef {
    const KINDS: &'static [JobKind] = &[JobKind::ClipIntellect];
}

crate::text_enum! {
    /// Where a job of the durable queue stands (`jobs.state`). `Failed` waits for its next attempt;
    /// `Dead` ran out of attempts (or was cancelled) and stays until someone retries it.
    pub enum JobState {
        Queued = "queued",
        Running = "running",
        Failed = "failed",
        Done = "done",
        Dead = "dead",
    }
}
impl JobState {
    /// The queue's moves: a worker claims a queued or backed-off job (or a running one whose lease ran
    /// out); an attempt ends done, failed (to back off) or dead; cancelling kills anything unfinished;
    /// retrying queues a failed or dead job again. Done is final.
    pub fn can_become(self, next: JobState) -> bool {
        use JobState::*;
        matches!(
            (self, next),
            (Queued | Failed | Running, Running)
                | (Running, Done | Failed)
                | (Queued | Failed | Running, Dead)
                | (Failed | Dead, Queued)
        )
    }

    /// The states that may move to `next`, in `ALL`'s order.
    pub fn sources_of(next: JobState) -> Vec<JobState> {
        JobState::ALL
            .into_iter()
            .filter(|s| s.can_become(next))
            .collect()
    }

    /// A quoted SQL list of states (`'queued', 'failed'`): the spellings are ours, never a user's.
    pub fn sql_list(states: &[JobState]) -> String {
        states
            .iter()
            .map(|s| format!("'{}'", s.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn posting_never_shares_a_lane_with_media_work() {
        use super::{JobKind, Lane};
        assert_eq!(JobKind::PublishItem.lane(), Lane::Publish);
        assert_eq!(Lane::of("publish.item"), Lane::Publish);
        for k in [
            JobKind::ClipRender,
            JobKind::Tts,
            JobKind::ClipOneTouch,
            JobKind::MediaIngest,
        ] {
            assert_eq!(k.lane(), Lane::Media, "{k}");
        }
        assert_eq!(Lane::of("test.made_up"), Lane::Media);
    }

    #[test]
    fn job_states_round_trip_and_move_as_the_queue_does() {
        use super::JobState::{self, *};
        for s in JobState::ALL {
            assert_eq!(JobState::parse(s.as_str()), Some(s));
        }
        assert_eq!(JobState::parse("cancelled"), None);
        let allowed = [
            (Queued, Running),
            (Failed, Running),
            (Running, Running),
            (Running, Done),
            (Running, Failed),
            (Queued, Dead),
            (Failed, Dead),
            (Running, Dead),
            (Failed, Queued),
            (Dead, Queued),
        ];
        for a in JobState::ALL {
            for b in JobState::ALL {
                assert_eq!(a.can_become(b), allowed.contains(&(a, b)), "{a} -> {b}");
            }
        }
        assert!(!Done.can_become(Queued), "a done job is final");
        assert!(!Queued.can_become(Done), "only a running job finishes");
        assert_eq!(JobState::sources_of(Queued), vec![Failed, Dead]);
        assert_eq!(
            JobState::sql_list(&JobState::sources_of(Dead)),
            "'queued', 'running', 'failed'"
        );
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_round_trips_through_its_string() {
        for k in JobKind::ALL {
            assert_eq!(k.as_str().parse::<JobKind>(), Ok(k));
            assert_eq!(k.to_string(), k.as_str());
            let j = serde_json::to_value(k).unwrap();
            assert_eq!(j, json!(k.as_str()));
            assert_eq!(serde_json::from_value::<JobKind>(j).unwrap(), k);
        }
        assert!("test.slow".parse::<JobKind>().is_err());
        let mut names: Vec<&str> = JobKind::ALL.iter().map(|k| k.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), JobKind::ALL.len(), "two kinds share a string");
    }

    #[test]
    fn the_stored_strings_and_payload_shapes_stay_as_they_were() {
        let names: Vec<&str> = JobKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "matrix.sync",
                "matrix.token_refresh",
                "publish.item",
                "publish.review",
                "clip.render",
                "clip.slice",
                "media.asr",
                "media.ingest",
                "maintenance.cleanup",
                "seo.benchmark_sync",
                "content.hotlist_sync",
                "engagement.sync",
                "engagement.auto_reply",
                "engagement.lead_notify",
                "tts",
                "clip.one_touch",
                "clip.intellect"
            ]
        );
        assert_eq!(
            serde_json::to_value(AccountRef { account_id: 3 }).unwrap(),
            json!({"account_id": 3})
        );
        assert_eq!(
            serde_json::to_value(MediaAsr {
                media_id: 1,
                lang: "zh".into(),
                points_key: "asr:1:2".into()
            })
            .unwrap(),
            json!({"media_id": 1, "lang": "zh", "points_key": "asr:1:2"})
        );
        assert_eq!(
            serde_json::to_value(NoticeRef { notice_id: 4 }).unwrap(),
            json!({"notice_id": 4})
        );
        assert_eq!(serde_json::to_value(Cleanup).unwrap(), json!(null));
        serde_json::from_str::<Cleanup>("null").unwrap();
    }

    #[test]
    fn every_kind_has_exactly_one_payload_type() {
        let kinds = [
            AccountRef::KINDS,
            ItemRef::KINDS,
            ClipRender::KINDS,
            ClipSlice::KINDS,
            MediaAsr::KINDS,
            MediaIngest::KINDS,
            Cleanup::KINDS,
            BenchmarkRef::KINDS,
            HotBoardRef::KINDS,
            TtsRef::KINDS,
            NoticeRef::KINDS,
            AiClipRef::KINDS,
            IntellectRef::KINDS,
        ]
        .concat();
        let mut sorted = kinds.clone();
        sorted.sort();
        let mut all = JobKind::ALL.to_vec();
        all.sort();
        assert_eq!(sorted, all);
    }
}
