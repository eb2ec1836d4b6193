//! The background jobs: a [`Job`] is a kind with its payload, one enum, so a kind cannot be queued
//! with another kind's payload. The queue stores the two halves: [`JobKind`]'s text in `jobs.kind`
//! (these strings never change) and the payload's JSON in `jobs.payload`.

use crate::i18n::Msg;
use serde::{Deserialize, Serialize};

crate::text_enum! {
    /// A kind of background job, the half of a [`Job`] that `jobs.kind` stores.
    #[derive(PartialOrd, Ord)]
    pub enum JobKind {
        /// An account's works and statistics from its platform.
        MatrixSync = "matrix.sync",
        /// Renews an account's access token before it ends.
        MatrixTokenRefresh = "matrix.token_refresh",
        /// Posts one due matrix item.
        PublishItem = "publish.item",
        /// Looks at a posted work again until the platform's review decides.
        PublishReview = "publish.review",
        /// Renders one variant of a clip project.
        ClipRender = "clip.render",
        /// Cuts one source video of a slicing project.
        ClipSlice = "clip.slice",
        /// Subtitle recognition of one video material.
        MediaAsr = "media.asr",
        /// Mezzanine, loudness, poster and thumbnails of an uploaded material.
        MediaIngest = "media.ingest",
        /// The hourly cleanup of expired rows and stale temporary files.
        MaintenanceCleanup = "maintenance.cleanup",
        /// A benchmark (competitor) account's public works and figures.
        SeoBenchmarkSync = "seo.benchmark_sync",
        /// Reads one hot-list board from its platform into the cache.
        ContentHotlistSync = "content.hotlist_sync",
        /// An account's comments, read since its cursor (engagement).
        EngagementSync = "engagement.sync",
        /// Keyword auto-replies to an account's new comments, each at most once.
        EngagementAutoReply = "engagement.auto_reply",
        /// Tells a new lead's assignee through the merchant's WeChat official account, once.
        EngagementLeadNotify = "engagement.lead_notify",
        /// An AI voice-over synthesis.
        Tts = "tts",
        /// One-touch video: script, voice-over, clip matching, then the variants queued.
        ClipOneTouch = "clip.one_touch",
        /// AI smart editing of one long video: analyse, pick, cut.
        ClipIntellect = "clip.intellect",
        /// A creator-console platform's canary: a publish walked up to its last click.
        PlatformCanary = "platform.canary",
    }
}

impl JobKind {
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
            JobKind::PlatformCanary => Msg::JobPlatformCanary,
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
            | JobKind::MaintenanceCleanup
            | JobKind::PlatformCanary => Lane::Sync,
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

/// `matrix.sync`, `matrix.token_refresh`, `engagement.sync` and `engagement.auto_reply`: the account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountRef {
    pub account_id: i64,
}

/// `engagement.lead_notify`: the notice (`eng_notices` row) of a new lead to its assignee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoticeRef {
    pub notice_id: i64,
}

/// `platform.canary`: the platform's code (`xhs`, `sph`, `shop`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanaryRef {
    pub platform: String,
}

/// `publish.item` and `publish.review`: the matrix item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRef {
    pub item_id: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClipRender {
    pub variant_id: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClipSlice {
    pub source_id: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaAsr {
    pub media_id: i64,
    /// The spoken language as `media::asr::Lang` spells it (`zh`, `en`): the handler parses it.
    pub lang: String,
    /// The points deduction this recognition is paid by (refunded if it fails).
    pub points_key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaIngest {
    pub media_id: i64,
}

/// The cleanup needs nothing: its payload is JSON `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cleanup;

/// `seo.benchmark_sync`: the benchmark account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkRef {
    pub benchmark_id: i64,
}

/// `content.hotlist_sync`: the board's code (`domain::content::hotlists`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotBoardRef {
    pub board: String,
}

/// `tts`: the synthesis task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TtsRef {
    pub task_id: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AiClipRef {
    pub ai_clip_id: i64,
}

/// `clip.intellect`: the smart-editing run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntellectRef {
    pub run_id: i64,
}

/// Declares [`Job`] from `Kind(Payload)` pairs, each variant named as its [`JobKind`]: the one place a
/// kind is paired with its payload (a kind without a payload, or one of two, does not build).
macro_rules! jobs {
    ($( $(#[$m:meta])* $kind:ident($payload:ty), )+) => {
        /// A job to queue, or one a worker runs: its kind with its payload.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Job {
            $( $(#[$m])* $kind($payload), )+
        }

        impl Job {
            pub fn kind(&self) -> JobKind {
                match self {
                    $( Job::$kind(_) => JobKind::$kind, )+
                }
            }

            /// The payload as `jobs.payload` stores it.
            pub fn payload(&self) -> serde_json::Value {
                // Plain structs of numbers and strings: serializing them cannot fail.
                match self {
                    $( Job::$kind(p) => serde_json::to_value(p), )+
                }
                .expect("a job payload serializes")
            }

            /// A stored job: its kind and the payload's JSON. An error is a payload this build
            /// cannot read.
            pub fn decode(kind: JobKind, payload: &str) -> Result<Job, serde_json::Error> {
                Ok(match kind {
                    $( JobKind::$kind => Job::$kind(serde_json::from_str(payload)?), )+
                })
            }
        }
    };
}

jobs! {
    MatrixSync(AccountRef),
    MatrixTokenRefresh(AccountRef),
    PublishItem(ItemRef),
    PublishReview(ItemRef),
    ClipRender(ClipRender),
    ClipSlice(ClipSlice),
    MediaAsr(MediaAsr),
    MediaIngest(MediaIngest),
    MaintenanceCleanup(Cleanup),
    SeoBenchmarkSync(BenchmarkRef),
    ContentHotlistSync(HotBoardRef),
    EngagementSync(AccountRef),
    EngagementAutoReply(AccountRef),
    EngagementLeadNotify(NoticeRef),
    Tts(TtsRef),
    ClipOneTouch(AiClipRef),
    ClipIntellect(IntellectRef),
    PlatformCanary(CanaryRef),
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
        for k in [
            JobKind::ClipRender,
            JobKind::Tts,
            JobKind::ClipOneTouch,
            JobKind::MediaIngest,
        ] {
            assert_eq!(k.lane(), Lane::Media, "{k}");
        }
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
        assert!("test.made_up".parse::<JobKind>().is_err());
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
                "clip.intellect",
                "platform.canary"
            ]
        );
        assert_eq!(
            serde_json::to_value(AccountRef { account_id: 3 }).unwrap(),
            json!({"account_id": 3})
        );
        assert_eq!(
            serde_json::to_value(CanaryRef {
                platform: "sph".into()
            })
            .unwrap(),
            json!({"platform": "sph"})
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
    fn every_job_round_trips_through_its_kind_and_payload() {
        let samples = [
            Job::MatrixSync(AccountRef { account_id: 1 }),
            Job::MatrixTokenRefresh(AccountRef { account_id: 2 }),
            Job::PublishItem(ItemRef { item_id: 3 }),
            Job::PublishReview(ItemRef { item_id: 4 }),
            Job::ClipRender(ClipRender { variant_id: 5 }),
            Job::ClipSlice(ClipSlice { source_id: 6 }),
            Job::MediaAsr(MediaAsr {
                media_id: 7,
                lang: "en".into(),
                points_key: "asr:7".into(),
            }),
            Job::MediaIngest(MediaIngest { media_id: 8 }),
            Job::MaintenanceCleanup(Cleanup),
            Job::SeoBenchmarkSync(BenchmarkRef { benchmark_id: 9 }),
            Job::ContentHotlistSync(HotBoardRef {
                board: "douyin_hot".into(),
            }),
            Job::EngagementSync(AccountRef { account_id: 10 }),
            Job::EngagementAutoReply(AccountRef { account_id: 11 }),
            Job::EngagementLeadNotify(NoticeRef { notice_id: 12 }),
            Job::Tts(TtsRef { task_id: 13 }),
            Job::ClipOneTouch(AiClipRef { ai_clip_id: 14 }),
            Job::ClipIntellect(IntellectRef { run_id: 15 }),
            Job::PlatformCanary(CanaryRef {
                platform: "xhs".into(),
            }),
        ];
        let kinds: Vec<JobKind> = samples.iter().map(Job::kind).collect();
        assert_eq!(kinds, JobKind::ALL, "one sample of every kind, in order");
        for j in samples {
            let stored = j.payload().to_string();
            assert_eq!(Job::decode(j.kind(), &stored).unwrap(), j);
        }
        // As rows written before the enum hold them.
        assert_eq!(
            Job::decode(JobKind::PublishReview, r#"{"item_id":4}"#).unwrap(),
            Job::PublishReview(ItemRef { item_id: 4 })
        );
        assert_eq!(
            Job::decode(JobKind::MaintenanceCleanup, "null").unwrap(),
            Job::MaintenanceCleanup(Cleanup)
        );
        assert!(Job::decode(JobKind::ClipRender, r#"{"x":1}"#).is_err());
    }
}
