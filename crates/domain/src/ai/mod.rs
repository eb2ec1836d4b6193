//! AI voice (SPEC §2 "AI create", §5 "Voice and clip", §7 `ai.*`): the limits of a synthesis request,
//! how the SPEC's -500..500 scales map onto the engine, the built-in voices, points, and the text
//! normalisation a narration needs (`text`).

pub mod text;

use crate::i18n::Msg;
use crate::validate::Invalid;
use serde::{Deserialize, Serialize};

/// SPEC §5: voice copy is required, up to 300 characters.
pub const MAX_TEXT_CHARS: usize = 300;
/// SPEC §5: volume 0–100 (50 = the engine's own level).
pub const VOLUME_MAX: i64 = 100;
/// SPEC §5: speed and intonation -500–500 (0 = the voice as it is).
pub const RATE_MIN: i64 = -500;
pub const RATE_MAX: i64 = 500;
/// A voice task's name (the console's input stops there too).
pub const TASK_NAME_MAX: usize = 60;
/// Points per started 100 characters of synthesized text (a 300-character script costs 3).
pub const POINTS_PER_100_CHARS: i64 = 1;

/// What synthesizing `chars` characters costs: one point per started hundred, at least one.
pub fn price(chars: usize) -> i64 {
    (chars.div_ceil(100).max(1) as i64) * POINTS_PER_100_CHARS
}

/// The SPEC's speech rate (-500..500) as a tempo factor, Aliyun NLS's scale: 0 -> 1.0, -500 -> 0.5
/// (half speed), 500 -> 2.0 (double); negative values slow down linearly (1 + r/1000), positive ones
/// speed up as 1 / (1 - r/1000), so equal steps feel alike either side of 0.
pub fn speed_factor(rate: i64) -> f64 {
    let r = rate.clamp(RATE_MIN, RATE_MAX) as f64;
    if r >= 0.0 {
        1.0 / (1.0 - r / 1000.0)
    } else {
        1.0 + r / 1000.0
    }
}

/// The SPEC's intonation (-500..500) as a pitch shift in semitones: 100 steps = one semitone, so the
/// range is ±5 semitones (beyond that a voice stops sounding like itself). Duration is unchanged.
pub fn pitch_semitones(intonation: i64) -> f64 {
    intonation.clamp(RATE_MIN, RATE_MAX) as f64 / 100.0
}

/// The SPEC's volume (0..100) as a gain applied after loudness normalisation: 50 is the normalised
/// level (-16 LUFS), 100 is +6 dB, 25 is -6 dB, 0 is silence.
pub fn volume_gain(volume: i64) -> f64 {
    volume.clamp(0, VOLUME_MAX) as f64 / 50.0
}

/// A voice task's progress (%) once `done` of its `of` sentences are spoken: 10 when it starts,
/// 90 when the last sentence is done (storing the file takes the rest).
pub fn synthesis_progress(done: usize, of: usize) -> i64 {
    if of == 0 {
        return 10;
    }
    10 + (80 * done.min(of) / of) as i64
}

/// A checked synthesis request (SPEC §5 limits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub text: String,
    pub voice: String,
    pub volume: i64,
    pub speed: i64,
    pub intonation: i64,
}

fn bad(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Invalid {
    Invalid { field, msg, args }
}

fn bad_(field: &'static str, msg: Msg) -> Invalid {
    bad(field, msg, vec![])
}

fn out_of_range(field: &'static str, lo: i64, hi: i64) -> Invalid {
    bad(
        field,
        Msg::OutOfRange,
        vec![("min", lo.to_string()), ("max", hi.to_string())],
    )
}

impl Params {
    /// Checks every field; the first problem names its field. `voice_known` says whether a voice
    /// id is in the caller's list (built in, or a ready clone of theirs).
    pub fn check(&self, voice_known: impl Fn(&str) -> bool) -> Result<(), Invalid> {
        let chars = self.text.trim().chars().count();
        if chars == 0 {
            return Err(bad_("text", Msg::Required));
        }
        // The text is read aloud and copied into the subtitle lines.
        crate::validate::plain_text("text", &self.text)?;
        if chars > MAX_TEXT_CHARS {
            return Err(bad(
                "text",
                Msg::TooLong,
                vec![("max", MAX_TEXT_CHARS.to_string())],
            ));
        }
        if text::sentences(&self.text).is_empty() {
            return Err(bad_("text", Msg::TtsNothingToSay));
        }
        if self.voice.trim().is_empty() {
            return Err(bad_("voice", Msg::Required));
        }
        if !voice_known(&self.voice) {
            return Err(bad(
                "voice",
                Msg::TtsUnknownVoice,
                vec![("voice", self.voice.clone())],
            ));
        }
        if !(0..=VOLUME_MAX).contains(&self.volume) {
            return Err(out_of_range("volume", 0, VOLUME_MAX));
        }
        if !(RATE_MIN..=RATE_MAX).contains(&self.speed) {
            return Err(out_of_range("speed", RATE_MIN, RATE_MAX));
        }
        if !(RATE_MIN..=RATE_MAX).contains(&self.intonation) {
            return Err(out_of_range("intonation", RATE_MIN, RATE_MAX));
        }
        Ok(())
    }
}

/// A spoken language: of a voice (synthesis) and of a recording (`media::asr` re-exports it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Lang {
    /// The text that is no language we speak.
    type Err = String;
    /// `zh`, `en`, and their regional forms (`zh-CN`, `en_US`, ...), any case.
    fn from_str(s: &str) -> Result<Lang, String> {
        let base = s
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match base.as_str() {
            "zh" | "cmn" => Ok(Lang::Zh),
            "en" => Ok(Lang::En),
            _ => Err(s.to_string()),
        }
    }
}

/// One built-in voice: id (the engine's file name), names in both languages, language, gender and
/// style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Voice {
    pub id: &'static str,
    pub name_zh: &'static str,
    pub name_en: &'static str,
    pub lang: Lang,
    /// female | male
    pub gender: &'static str,
    pub style_zh: &'static str,
    pub style_en: &'static str,
}

const fn v(
    id: &'static str,
    name_zh: &'static str,
    name_en: &'static str,
    lang: Lang,
    gender: &'static str,
    style_zh: &'static str,
    style_en: &'static str,
) -> Voice {
    Voice {
        id,
        name_zh,
        name_en,
        lang,
        gender,
        style_zh,
        style_en,
    }
}

/// The voices the built-in engine speaks (Kokoro-82M v1.0's Mandarin voices and a choice of its
/// English ones). The first is the default.
pub const VOICES: &[Voice] = &[
    v(
        "zf_xiaoxiao",
        "晓晓",
        "Xiaoxiao",
        Lang::Zh,
        "female",
        "温柔知性",
        "warm, composed",
    ),
    v(
        "zf_xiaobei",
        "晓北",
        "Xiaobei",
        Lang::Zh,
        "female",
        "清新活泼",
        "bright, lively",
    ),
    v(
        "zf_xiaoni",
        "晓妮",
        "Xiaoni",
        Lang::Zh,
        "female",
        "亲切自然",
        "friendly, natural",
    ),
    v(
        "zf_xiaoyi",
        "晓伊",
        "Xiaoyi",
        Lang::Zh,
        "female",
        "甜美",
        "sweet",
    ),
    v(
        "zm_yunxi",
        "云希",
        "Yunxi",
        Lang::Zh,
        "male",
        "阳光少年",
        "young, upbeat",
    ),
    v(
        "zm_yunjian",
        "云健",
        "Yunjian",
        Lang::Zh,
        "male",
        "沉稳解说",
        "steady narrator",
    ),
    v(
        "zm_yunxia",
        "云夏",
        "Yunxia",
        Lang::Zh,
        "male",
        "青春",
        "youthful",
    ),
    v(
        "zm_yunyang",
        "云扬",
        "Yunyang",
        Lang::Zh,
        "male",
        "新闻播报",
        "newsreader",
    ),
    v(
        "af_heart",
        "Heart（美式）",
        "Heart (US)",
        Lang::En,
        "female",
        "温暖",
        "warm",
    ),
    v(
        "af_bella",
        "Bella（美式）",
        "Bella (US)",
        Lang::En,
        "female",
        "热情",
        "energetic",
    ),
    v(
        "af_nicole",
        "Nicole（美式）",
        "Nicole (US)",
        Lang::En,
        "female",
        "轻柔",
        "soft",
    ),
    v(
        "am_michael",
        "Michael（美式）",
        "Michael (US)",
        Lang::En,
        "male",
        "稳重",
        "steady",
    ),
    v(
        "am_fenrir",
        "Fenrir（美式）",
        "Fenrir (US)",
        Lang::En,
        "male",
        "浑厚",
        "deep",
    ),
    v(
        "bf_emma",
        "Emma（英式）",
        "Emma (UK)",
        Lang::En,
        "female",
        "优雅",
        "elegant",
    ),
    v(
        "bm_george",
        "George（英式）",
        "George (UK)",
        Lang::En,
        "male",
        "沉稳",
        "calm",
    ),
];

/// The voices of Aliyun Intelligent Speech Interaction's speech synthesis (the cloud engine,
/// `platforms::voice::Nls`): the `voice` parameter values and their types as the public voice list
/// gives them (help.aliyun.com "语音合成 音色列表", alibabacloud.com/help/zh/doc-detail/84435; 知甜
/// from the ICE voice list `ListSmartVoiceGroups`). Every one of them speaks at 16 kHz, the rate the
/// engine asks for. The first is the default.
pub const NLS_VOICES: &[Voice] = &[
    v(
        "xiaoyun",
        "小云",
        "Xiaoyun",
        Lang::Zh,
        "female",
        "标准女声",
        "standard",
    ),
    v(
        "xiaogang",
        "小刚",
        "Xiaogang",
        Lang::Zh,
        "male",
        "标准男声",
        "standard",
    ),
    v(
        "ruoxi",
        "若兮",
        "Ruoxi",
        Lang::Zh,
        "female",
        "温柔女声",
        "gentle",
    ),
    v(
        "siqi",
        "思琪",
        "Siqi",
        Lang::Zh,
        "female",
        "温柔女声",
        "gentle",
    ),
    v(
        "sijia",
        "思佳",
        "Sijia",
        Lang::Zh,
        "female",
        "标准女声",
        "standard",
    ),
    v(
        "sicheng",
        "思诚",
        "Sicheng",
        Lang::Zh,
        "male",
        "标准男声",
        "standard",
    ),
    v(
        "aiqi",
        "艾琪",
        "Aiqi",
        Lang::Zh,
        "female",
        "温柔女声",
        "gentle",
    ),
    v(
        "aijia",
        "艾佳",
        "Aijia",
        Lang::Zh,
        "female",
        "标准女声",
        "standard",
    ),
    v(
        "aicheng",
        "艾诚",
        "Aicheng",
        Lang::Zh,
        "male",
        "标准男声",
        "standard",
    ),
    v(
        "aida",
        "艾达",
        "Aida",
        Lang::Zh,
        "male",
        "标准男声",
        "standard",
    ),
    v(
        "ninger",
        "宁儿",
        "Ninger",
        Lang::Zh,
        "female",
        "标准女声",
        "standard",
    ),
    v(
        "ruilin",
        "瑞琳",
        "Ruilin",
        Lang::Zh,
        "female",
        "标准女声",
        "standard",
    ),
    v(
        "siyue",
        "思悦",
        "Siyue",
        Lang::Zh,
        "female",
        "温柔女声（客服）",
        "gentle (service)",
    ),
    v(
        "aiya",
        "艾雅",
        "Aiya",
        Lang::Zh,
        "female",
        "严厉女声（客服）",
        "stern (service)",
    ),
    v(
        "aixia",
        "艾夏",
        "Aixia",
        Lang::Zh,
        "female",
        "亲和女声（客服）",
        "friendly (service)",
    ),
    v(
        "aimei",
        "艾美",
        "Aimei",
        Lang::Zh,
        "female",
        "甜美女声（客服）",
        "sweet (service)",
    ),
    v(
        "aiyu",
        "艾雨",
        "Aiyu",
        Lang::Zh,
        "female",
        "自然女声（客服）",
        "natural (service)",
    ),
    v(
        "aiyue",
        "艾悦",
        "Aiyue",
        Lang::Zh,
        "female",
        "温柔女声（客服）",
        "gentle (service)",
    ),
    v(
        "aijing",
        "艾婧",
        "Aijing",
        Lang::Zh,
        "female",
        "严厉女声（客服）",
        "stern (service)",
    ),
    v(
        "xiaomei",
        "小美",
        "Xiaomei",
        Lang::Zh,
        "female",
        "甜美女声（客服）",
        "sweet (service)",
    ),
    v(
        "zhitian",
        "知甜",
        "Zhitian",
        Lang::Zh,
        "female",
        "甜美女声",
        "sweet",
    ),
    v(
        "xiaobei",
        "小北",
        "Xiaobei",
        Lang::Zh,
        "female",
        "萝莉女声",
        "young girl",
    ),
    v(
        "harry",
        "Harry（英式）",
        "Harry (UK)",
        Lang::En,
        "male",
        "英音男声",
        "British male",
    ),
    v(
        "abby",
        "Abby（美式）",
        "Abby (US)",
        Lang::En,
        "female",
        "美音女声",
        "American female",
    ),
    v(
        "andy",
        "Andy（美式）",
        "Andy (US)",
        Lang::En,
        "male",
        "美音男声",
        "American male",
    ),
];

/// Which engine speaks the voice list's (non-cloned) voices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The built-in Kokoro engine.
    Builtin,
    /// Aliyun NLS (the cloud engine).
    Nls,
}

impl Engine {
    /// The engine's voices; the first is the default.
    pub fn voices(self) -> &'static [Voice] {
        match self {
            Engine::Builtin => VOICES,
            Engine::Nls => NLS_VOICES,
        }
    }

    /// One of the engine's voices by id.
    pub fn voice(self, id: &str) -> Option<&'static Voice> {
        self.voices().iter().find(|v| v.id == id)
    }

    /// The default voice for a text in `lang`: the engine's first voice of that language.
    pub fn default_voice(self, lang: Lang) -> &'static str {
        let all = self.voices();
        all.iter().find(|v| v.lang == lang).unwrap_or(&all[0]).id
    }
}

crate::text_enum! {
    /// The language a voice speaks.
    pub enum VoiceLanguage as "AiVoiceLanguage" {
        Zh = "zh",
        En = "en",
    }
}

crate::text_enum! {
    /// Where a voice comes from: the engine's own, or the merchant's clone.
    pub enum VoiceSource as "AiVoiceSource" {
        Builtin = "builtin",
        Clone = "clone",
    }
}

crate::text_enum! {
    /// A synthesis task's state: queued -> running -> done | failed.
    pub enum TaskState as "AiTaskState" {
        Queued = "queued",
        Running = "running",
        Done = "done",
        Failed = "failed",
    }
}
impl TaskState {
    pub fn read(s: &str) -> TaskState {
        match s {
            "running" => TaskState::Running,
            "done" => TaskState::Done,
            "failed" => TaskState::Failed,
            _ => TaskState::Queued,
        }
    }
    /// A retried job runs a failed-once task again; a finished task stays finished.
    pub fn can_become(self, next: TaskState) -> bool {
        use TaskState::*;
        matches!(
            (self, next),
            (Queued, Running)
                | (Running, Running)
                | (Running, Done)
                | (Running, Failed)
                | (Queued, Failed)
        )
    }
}

crate::text_enum! {
    /// A voice clone's state with the provider: uploaded -> training -> ready | failed.
    pub enum CloneState as "AiCloneState" {
        Training = "training",
        Ready = "ready",
        Failed = "failed",
    }
}
impl CloneState {
    pub fn read(s: &str) -> CloneState {
        match s {
            "ready" => CloneState::Ready,
            "failed" => CloneState::Failed,
            _ => CloneState::Training,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesis_progress_moves_with_the_sentences() {
        let steps: Vec<i64> = (0..=4).map(|d| synthesis_progress(d, 4)).collect();
        assert_eq!(steps, vec![10, 30, 50, 70, 90]);
        assert_eq!(
            (synthesis_progress(0, 0), synthesis_progress(9, 3)),
            (10, 90)
        );
    }

    fn params() -> Params {
        Params {
            text: "今天全场九折。".into(),
            voice: "zf_xiaoxiao".into(),
            volume: 50,
            speed: 0,
            intonation: 0,
        }
    }

    #[test]
    fn every_field_is_checked_by_name() {
        let known = |v: &str| Engine::Builtin.voice(v).is_some();
        assert!(params().check(known).is_ok());
        let field = |p: Params| p.check(known).unwrap_err().field;
        assert_eq!(
            field(Params {
                text: " ".into(),
                ..params()
            }),
            "text"
        );
        assert_eq!(
            field(Params {
                text: "字".repeat(301),
                ..params()
            }),
            "text"
        );
        assert!(
            Params {
                text: "字".repeat(300),
                ..params()
            }
            .check(known)
            .is_ok()
        );
        assert_eq!(
            field(Params {
                text: "。。！".into(),
                ..params()
            }),
            "text"
        );
        assert_eq!(
            field(Params {
                voice: "nobody".into(),
                ..params()
            }),
            "voice"
        );
        assert_eq!(
            field(Params {
                voice: "".into(),
                ..params()
            }),
            "voice"
        );
        assert_eq!(
            field(Params {
                volume: 101,
                ..params()
            }),
            "volume"
        );
        assert_eq!(
            field(Params {
                volume: -1,
                ..params()
            }),
            "volume"
        );
        assert_eq!(
            field(Params {
                speed: 501,
                ..params()
            }),
            "speed"
        );
        assert_eq!(
            field(Params {
                intonation: -501,
                ..params()
            }),
            "intonation"
        );
        assert!(
            Params {
                speed: -500,
                intonation: 500,
                volume: 0,
                ..params()
            }
            .check(known)
            .is_ok()
        );
    }

    #[test]
    fn scales_map_as_documented() {
        assert_eq!(speed_factor(0), 1.0);
        assert_eq!(speed_factor(-500), 0.5);
        assert_eq!(speed_factor(500), 2.0);
        assert!(speed_factor(250) > 1.0 && speed_factor(-250) < 1.0);
        assert_eq!(pitch_semitones(500), 5.0);
        assert_eq!(pitch_semitones(-100), -1.0);
        assert_eq!(volume_gain(50), 1.0);
        assert_eq!(volume_gain(0), 0.0);
        assert_eq!(volume_gain(100), 2.0);
    }

    #[test]
    fn price_is_per_started_hundred() {
        assert_eq!(price(1), 1);
        assert_eq!(price(100), 1);
        assert_eq!(price(101), 2);
        assert_eq!(price(300), 3);
    }

    #[test]
    fn voices_are_unique_and_default_is_mandarin() {
        let mut ids: Vec<_> = VOICES.iter().map(|v| v.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), VOICES.len());
        assert_eq!(VOICES[0].lang, Lang::Zh);
        assert_eq!(VOICES.iter().filter(|v| v.lang == Lang::Zh).count(), 8);
        for e in [Engine::Builtin, Engine::Nls] {
            let mut ids: Vec<_> = e.voices().iter().map(|v| v.id).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), e.voices().len());
            assert_eq!(e.voices()[0].lang, Lang::Zh);
            assert!(
                e.voices()
                    .iter()
                    .all(|v| v.gender == "female" || v.gender == "male")
            );
        }
        assert_eq!(Engine::Nls.default_voice(Lang::Zh), "xiaoyun");
        assert_eq!(Engine::Nls.default_voice(Lang::En), "harry");
        assert_eq!(Engine::Builtin.default_voice(Lang::En), "af_heart");
        // Kokoro's ids are not NLS voices (the cloud engine was once sent them).
        assert!(Engine::Nls.voice("zf_xiaoxiao").is_none());
        assert!(Engine::Nls.voice("aixia").is_some());
    }
}
