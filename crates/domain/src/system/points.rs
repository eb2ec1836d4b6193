//! Why a merchant's points changed: the ledger stores a code and each reader sees it in their own
//! language (the rows used to hold English sentences, which zh users saw as they were).

use crate::i18n::{Lang, Msg};

crate::text_enum! {
    /// Which way a ledger entry moved the balance (`points_ledger.kind`).
    pub enum EntryKind as "PointsKind" {
        Deduct = "deduct",
        Refund = "refund",
        Topup = "topup",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Welcome,
    Topup,
    VideoSynthesis,
    VideoSynthesisFailed,
    VideoSynthesisCancelled,
    SubtitleRecognition,
    SubtitleRecognitionFailed,
    SubtitleRecognitionNotStarted,
    Tts,
    TtsFailed,
    TtsNotStarted,
}

const ALL: &[(Reason, &str, Msg)] = &[
    (Reason::Welcome, "welcome", Msg::ReasonWelcome),
    (Reason::Topup, "topup", Msg::ReasonTopup),
    (
        Reason::VideoSynthesis,
        "video_synthesis",
        Msg::ReasonVideoSynthesis,
    ),
    (
        Reason::VideoSynthesisFailed,
        "video_synthesis_failed",
        Msg::ReasonVideoSynthesisFailed,
    ),
    (
        Reason::VideoSynthesisCancelled,
        "video_synthesis_cancelled",
        Msg::ReasonVideoSynthesisCancelled,
    ),
    (
        Reason::SubtitleRecognition,
        "subtitle_recognition",
        Msg::ReasonSubtitleRecognition,
    ),
    (
        Reason::SubtitleRecognitionFailed,
        "subtitle_recognition_failed",
        Msg::ReasonSubtitleRecognitionFailed,
    ),
    (
        Reason::SubtitleRecognitionNotStarted,
        "subtitle_recognition_not_started",
        Msg::ReasonSubtitleRecognitionNotStarted,
    ),
    (Reason::Tts, "tts", Msg::ReasonTts),
    (Reason::TtsFailed, "tts_failed", Msg::ReasonTtsFailed),
    (
        Reason::TtsNotStarted,
        "tts_not_started",
        Msg::ReasonTtsNotStarted,
    ),
];

impl Reason {
    /// What the ledger stores (the migration maps the old English sentences to these).
    pub fn code(self) -> &'static str {
        ALL.iter()
            .find(|(r, ..)| *r == self)
            .map_or("", |(_, c, _)| c)
    }
}

/// A ledger row's reason for a reader: the operator's own note when there is one, else the code in the
/// reader's language (an unknown code as it is).
pub fn reason_text(code: &str, note: &str, lang: Lang) -> String {
    if !note.trim().is_empty() {
        return note.to_string();
    }
    ALL.iter()
        .find(|(_, c, _)| *c == code)
        .map_or_else(|| code.to_string(), |(.., m)| m.template(lang).to_string())
}

/// Who made a change: a user's name, or "system" in the reader's language for automatic entries.
pub fn operator_text(operator: &str, lang: Lang) -> String {
    if operator.is_empty() {
        Msg::OperatorSystem.template(lang).to_string()
    } else {
        operator.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_read_in_each_language() {
        let codes: std::collections::HashSet<_> = ALL.iter().map(|(r, ..)| r.code()).collect();
        assert_eq!(codes.len(), ALL.len());
        assert_eq!(reason_text("video_synthesis", "", Lang::Zh), "视频合成");
        assert_eq!(reason_text("welcome", "", Lang::En), "Welcome points");
        assert_eq!(reason_text("topup", "春节活动", Lang::En), "春节活动");
        assert_eq!(operator_text("", Lang::Zh), "系统");
        assert_eq!(operator_text("admin", Lang::Zh), "admin");
    }
}
