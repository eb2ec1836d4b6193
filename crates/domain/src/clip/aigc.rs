//! AI-generated and synthesized content (人工智能生成合成内容): what of a finished video, a voice-over
//! or a text the product generated (its **provenance**), and the labels that content carries under the
//! 《人工智能生成合成内容标识办法》 (CAC et al., in force 2025-09-01) and the mandatory national standard
//! GB 45438-2025 《网络安全技术 人工智能生成合成内容标识方法》. The clauses and what is certain about
//! them: docs/spec-decisions.md "AI-content labels".
//!
//! * **Explicit labels** (显式标识, GB 45438-2025 §5): a visible text on the opening frames of a video
//!   ([`VIDEO_LABEL_MS`], at least [`LABEL_HEIGHT_PERCENT`] of the picture's shorter side), a corner
//!   text on an image, an audible cue at the start of audio ([`AUDIO_CUE`]), and a text prompt with
//!   exported text ([`text_with_label`]).
//! * **Implicit labels** (隐式标识, §6, file metadata): the `AIGC` field, a JSON object of
//!   [`AigcMeta`], written into every generated MP4, M4A, PNG and JPEG.
//!
//! Pure: the services decide from their rows, the media engine writes the bytes.

use serde::{Deserialize, Serialize};

/// The visible label's text (the measures' Art. 4 and GB 45438-2025 §5: a text prompt naming
/// "人工智能" or "AI" together with "生成" or "合成").
pub const LABEL_TEXT: &str = "AI生成";
/// The same in English, for the console's English readers (the burned label stays the Chinese one:
/// the platforms and the regulator read that).
pub const LABEL_TEXT_EN: &str = "AI-generated";
/// The text prompt put before exported generated text (§5.1: at the start, end or a suitable place).
pub const TEXT_LABEL: &str = "【本内容由AI生成】";
/// How long the visible label shows from the first frame: the standard asks for at least 2 s at the
/// start of a video (§5.4); 3 s keeps a whole second of margin and ends on the 1 s GOP grid, so the
/// pre-burned pieces cut there without a re-encode elsewhere.
pub const VIDEO_LABEL_MS: i64 = 3_000;
/// The standard's floor for the label's duration (§5.4).
pub const VIDEO_LABEL_MIN_MS: i64 = 2_000;
// The label lasts the standard's floor at least and ends on the 1 s GOP grid.
const _: () = assert!(VIDEO_LABEL_MS >= VIDEO_LABEL_MIN_MS && VIDEO_LABEL_MS % 1000 == 0);

/// The label's text height, as a share of the picture's shorter side: at least 5 % (§5.2, §5.4).
pub const LABEL_HEIGHT_PERCENT: i64 = 5;

/// The font size (px) of the visible label on a picture whose shorter side is `shorter` px: the
/// glyphs of a CJK font fill ~85–90 % of its size, so 6.5 % of the side gives glyphs above the 5 %
/// the standard asks for (1080x1920: size 71, glyphs ~62 px, the floor 54 px).
pub fn label_font_px(shorter: i64) -> i64 {
    ((shorter * 65 + 999) / 1000).max(12)
}

/// The smallest text height (px) the standard allows on a picture whose shorter side is `shorter`.
pub fn label_min_height_px(shorter: i64) -> i64 {
    (shorter * LABEL_HEIGHT_PERCENT + 99) / 100
}

/// The audible cue at the start of generated audio (§5.3 allows a spoken prompt or a rhythm prompt):
/// the rhythm "short long, short short" (Morse for "AI"), as tone beeps of these lengths in ms, each
/// followed by its gap; then [`AUDIO_CUE_TAIL_MS`] of silence before the speech.
pub const AUDIO_CUE: &[(i64, i64)] = &[(120, 120), (360, 360), (120, 120), (120, 120)];
/// The cue's tone (Hz).
pub const AUDIO_CUE_HZ: u32 = 880;
/// Silence after the last beep, before the speech starts.
pub const AUDIO_CUE_TAIL_MS: i64 = 320;

/// The cue's whole length: beeps, gaps and the tail. 1,760 ms, which is 84,480 samples at 48 kHz,
/// 82.5 AAC frames: the cue is cut off again only by a re-encode-free trim at a frame (see
/// `media::aigc`), which the media engine rounds.
pub fn audio_cue_ms() -> i64 {
    AUDIO_CUE.iter().map(|(b, g)| b + g).sum::<i64>() + AUDIO_CUE_TAIL_MS
}

/// Who generated one part of a piece of content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Voice {
    /// The speech engine (`kokoro`, `nls`, `clone`, ...).
    pub engine: String,
    /// The voice of that engine.
    pub voice: String,
}

/// What of a piece of content was generated or synthesized by AI. Empty: the merchant's own
/// (uploaded or shot) content. Stored as JSON (`clip_variants.provenance`,
/// `media_files.provenance`; '' for the merchant's own).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Provenance {
    /// A synthesized voice (TTS or a cloned voice): the audio is synthetic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice: Option<Voice>,
    /// The spoken and burned script (or a title) was written by the product: `builtin` (the built-in
    /// writer) or `llm:<model>` (the operator's model), as `services::writer::Source::code` keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<String>,
    /// Made by one-touch video / an AI clip project (`ProjectMode::Ai`): the product chose, cut and
    /// assembled the shots.
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_touch: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

crate::text_enum! {
    /// A part of a finished piece that can be generated (the console's tags).
    pub enum AiPart {
        Audio = "audio",
        Text = "text",
        Video = "video",
    }
}

impl Provenance {
    /// A voice-over synthesized by `engine` with `voice`.
    pub fn tts(engine: &str, voice: &str) -> Provenance {
        Provenance {
            voice: Some(Voice {
                engine: engine.into(),
                voice: voice.into(),
            }),
            ..Default::default()
        }
    }

    /// Reads a stored column ('' or unreadable: the merchant's own).
    pub fn parse(s: &str) -> Provenance {
        if s.trim().is_empty() {
            return Provenance::default();
        }
        serde_json::from_str(s).unwrap_or_default()
    }

    /// The column's text: '' for the merchant's own.
    pub fn to_column(&self) -> String {
        if self.is_generated() {
            serde_json::to_string(self).unwrap_or_default()
        } else {
            String::new()
        }
    }

    /// Any part generated or synthesized: the content carries the labels and declares AI.
    pub fn is_generated(&self) -> bool {
        !self.parts().is_empty()
    }

    /// The generated parts: a synthesized voice makes the audio synthetic, a written script the text
    /// (and the subtitles burned from it), one-touch's assembly the video.
    pub fn parts(&self) -> Vec<AiPart> {
        let mut out = vec![];
        if self.voice.is_some() {
            out.push(AiPart::Audio);
        }
        if self.writer.is_some() {
            out.push(AiPart::Text);
        }
        if self.one_touch {
            out.push(AiPart::Video);
        }
        out
    }

    /// Both together (a video whose voice-over is a material with its own provenance).
    pub fn merge(mut self, other: &Provenance) -> Provenance {
        if self.voice.is_none() {
            self.voice = other.voice.clone();
        }
        if self.writer.is_none() {
            self.writer = other.writer.clone();
        }
        self.one_touch |= other.one_touch;
        self
    }
}

/// The value of [`AigcMeta::label`] (GB 45438-2025 Annex E): "1" the content is AI-generated, "2" it
/// may be, "3" it is suspected to be. What the product made itself is always "1".
pub const LABEL_GENERATED: &str = "1";
/// The metadata key of the implicit label (GB 45438-2025 §6.1 and Annex E).
pub const META_KEY: &str = "AIGC";

/// The implicit label (GB 45438-2025 §6.1, Annex E): the generation attribute, the generating
/// service's provider (name or code) and its content id, and the propagation fields left empty for
/// the platforms that spread it; the two reserved codes are for the providers' integrity checks.
/// Serialized with exactly these keys, in this order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AigcMeta {
    #[serde(rename = "Label")]
    pub label: String,
    #[serde(rename = "ContentProducer")]
    pub content_producer: String,
    #[serde(rename = "ProduceID")]
    pub produce_id: String,
    #[serde(rename = "ReservedCode1")]
    pub reserved_code1: String,
    #[serde(rename = "ContentPropagator")]
    pub content_propagator: String,
    #[serde(rename = "PropagateID")]
    pub propagate_id: String,
    #[serde(rename = "ReservedCode2")]
    pub reserved_code2: String,
}

impl AigcMeta {
    /// Generated content of `producer` (the provider's code, else its name) with the id `produce_id`.
    pub fn generated(producer: &str, produce_id: &str) -> AigcMeta {
        AigcMeta {
            label: LABEL_GENERATED.into(),
            content_producer: producer.into(),
            produce_id: produce_id.into(),
            reserved_code1: String::new(),
            content_propagator: String::new(),
            propagate_id: String::new(),
            reserved_code2: String::new(),
        }
    }

    /// The field's value: compact JSON.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Who the operator says generates the content (System → AI provider): the service provider's name
/// and its code (统一社会信用代码 or the code the practice guide assigns). Settings key [`PROVIDER_KEY`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct AigcProvider {
    #[schema(max_length = 64)]
    pub name: String,
    #[schema(max_length = 64)]
    pub code: String,
}

/// The settings row of [`AigcProvider`].
pub const PROVIDER_KEY: &str = "aigc.provider";
/// The producer named before the operator names one.
pub const DEFAULT_PRODUCER: &str = "clipmatrix";
pub const PROVIDER_MAX_CHARS: usize = 64;

impl AigcProvider {
    /// `ContentProducer`: the code when there is one (the standard allows name or code, and a code is
    /// what the platforms match), else the name, else [`DEFAULT_PRODUCER`].
    pub fn producer(&self) -> String {
        [self.code.trim(), self.name.trim()]
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or(DEFAULT_PRODUCER)
            .to_string()
    }

    /// Trimmed; a field too long or with control characters is refused (it goes into file metadata).
    pub fn checked(&self) -> Result<AigcProvider, &'static str> {
        let p = AigcProvider {
            name: self.name.trim().to_string(),
            code: self.code.trim().to_string(),
        };
        for (field, v) in [("name", &p.name), ("code", &p.code)] {
            if v.chars().count() > PROVIDER_MAX_CHARS || v.chars().any(char::is_control) {
                return Err(field);
            }
        }
        Ok(p)
    }
}

/// Generated text as it is copied or exported: the text prompt before it (§5.1), once.
pub fn text_with_label(text: &str) -> String {
    let t = text.trim();
    if t.starts_with(TEXT_LABEL) {
        t.to_string()
    } else {
        format!("{TEXT_LABEL}{t}")
    }
}

/// Whether a merchant may turn a label off: only on content nothing generated. Generated content
/// always carries both labels (the measures' Art. 9 forbids removing them).
pub fn label_removable(p: &Provenance) -> bool {
    !p.is_generated()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provenance_parts_and_columns() {
        let own = Provenance::parse("");
        assert!(!own.is_generated() && own.to_column().is_empty() && label_removable(&own));
        let tts = Provenance::tts("kokoro", "zf_001");
        assert_eq!(tts.parts(), vec![AiPart::Audio]);
        let col = tts.to_column();
        assert_eq!(col, r#"{"voice":{"engine":"kokoro","voice":"zf_001"}}"#);
        assert_eq!(Provenance::parse(&col), tts);
        let all = Provenance {
            writer: Some("llm:qwen".into()),
            one_touch: true,
            ..Default::default()
        }
        .merge(&tts);
        assert_eq!(
            all.parts(),
            vec![AiPart::Audio, AiPart::Text, AiPart::Video]
        );
        assert!(!label_removable(&all));
        assert_eq!(Provenance::parse("not json"), Provenance::default());
    }

    #[test]
    fn the_implicit_label_has_the_standards_keys_in_order() {
        let m = AigcMeta::generated("91110000MA00000000", "v42");
        assert_eq!(
            m.json(),
            r#"{"Label":"1","ContentProducer":"91110000MA00000000","ProduceID":"v42","ReservedCode1":"","ContentPropagator":"","PropagateID":"","ReservedCode2":""}"#
        );
        let back: AigcMeta = serde_json::from_str(&m.json()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn the_visible_label_meets_the_standards_floors() {
        // 1080x1920: the floor is 54 px; the font's glyphs (~88 % of its size) stay above it.
        assert_eq!(label_min_height_px(1080), 54);
        assert_eq!(label_font_px(1080), 71);
        assert!(label_font_px(1080) * 85 / 100 >= label_min_height_px(1080));
        assert!(LABEL_TEXT.contains("AI") && LABEL_TEXT.contains("生成"));
        assert_eq!(audio_cue_ms(), 1_760);
    }

    #[test]
    fn providers_and_text_labels() {
        assert_eq!(AigcProvider::default().producer(), DEFAULT_PRODUCER);
        let p = AigcProvider {
            name: " 某某科技 ".into(),
            code: String::new(),
        };
        assert_eq!(p.producer(), "某某科技");
        assert_eq!(p.checked().unwrap().name, "某某科技");
        let p = AigcProvider {
            name: "x".into(),
            code: "C1".into(),
        };
        assert_eq!(p.producer(), "C1");
        let bad = AigcProvider {
            name: "a\nb".into(),
            code: String::new(),
        };
        assert_eq!(bad.checked(), Err("name"));
        let once = text_with_label("春季上新");
        assert_eq!(once, "【本内容由AI生成】春季上新");
        assert_eq!(text_with_label(&once), once);
    }
}
