//! What a caller asks for: the project's clips, music, voice and subtitles ([`ProjectSpec`]), one variant
//! ([`VariantSpec`]) with its title, shot captions and transitions, the text styles, and the rules of
//! advanced mode ([`check_advanced`]).

use super::{
    DEFAULT_FONT_FAMILY, MixError, SHOT_TEXT_MAX_CHARS, TRANSITION_MS, TRANSITIONS, invalid,
};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One clip of a variant: a mezzanine and an optional trim (milliseconds into the clip).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClipSpec {
    pub path: PathBuf,
    #[serde(default)]
    pub in_ms: Option<i64>,
    #[serde(default)]
    pub out_ms: Option<i64>,
}

impl ClipSpec {
    pub fn whole(path: impl Into<PathBuf>) -> Self {
        ClipSpec {
            path: path.into(),
            in_ms: None,
            out_ms: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Font {
    /// A font file (TTF/OTF/TTC), e.g. one the merchant uploaded to the font library.
    File(PathBuf),
    /// A family name fontconfig knows, e.g. "WenQuanYi Zen Hei".
    Family(String),
}

/// Where a text band sits: its centre at a share of the frame height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// Centre at 12 % of the height.
    Top,
    Middle,
    /// Centre at 80 % of the height: above the platforms' caption and button area.
    Bottom,
    /// Centre at this percentage (0–100) of the height.
    Percent(u8),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextStyle {
    pub font: Font,
    /// Font size in pixels of the 1080x1920 frame.
    pub size: u32,
    /// Fill colour `#RRGGBB`; the outline is black.
    pub colour: String,
    pub position: Position,
}

impl TextStyle {
    pub fn new(position: Position, size: u32) -> Self {
        TextStyle {
            font: Font::Family(DEFAULT_FONT_FAMILY.into()),
            size,
            colour: "#FFFFFF".into(),
            position,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtitleLine {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtitles {
    pub lines: Vec<SubtitleLine>,
    pub style: TextStyle,
}

/// A title: shown over the whole video, or from its start until `until_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Title {
    pub text: String,
    pub style: TextStyle,
    /// Shown during the first `until_ms` milliseconds only; `None` shows it to the end. A title that
    /// differs between variants costs a re-encode only where it shows (see [`ProjectSpec::reuse_burns`]).
    #[serde(default)]
    pub until_ms: Option<i64>,
}

impl Title {
    /// A title over the whole video.
    pub fn new(text: impl Into<String>, style: TextStyle) -> Self {
        Title {
            text: text.into(),
            style,
            until_ms: None,
        }
    }
}

/// The visible label of AI-generated content (`domain::clip::aigc`): a text in the top-left corner of
/// the safe area from the first frame until `until_ms`, burned with the variant's other text (pieces
/// are cut where it ends, like a time-limited title's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    pub text: String,
    pub until_ms: i64,
}

impl Label {
    /// The standard's label: "AI生成" for the opening [`VIDEO_LABEL_MS`](domain::clip::aigc::VIDEO_LABEL_MS).
    pub fn aigc() -> Label {
        Label {
            text: domain::clip::aigc::LABEL_TEXT.into(),
            until_ms: domain::clip::aigc::VIDEO_LABEL_MS,
        }
    }
}

/// What does not change between the variants of a project.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectSpec {
    /// Every mezzanine the project's shot groups hold (probed once here; others are probed on use).
    pub clips: Vec<PathBuf>,
    /// Background music (any audio file ffmpeg reads): looped or cut to length, under the voice.
    pub music: Option<PathBuf>,
    /// 0–100 (100 = as normalized).
    pub music_volume: u8,
    pub voice: Option<PathBuf>,
    pub voice_volume: u8,
    /// Subtitles of the project (they follow the voice-over, so they are the same in every variant).
    pub subtitles: Option<Subtitles>,
    /// Length of the shared audio bed: at least the longest variant (see [`planned_ms`]). A longer variant
    /// still renders, with a bed of its own made on the fly.
    pub bed_ms: i64,
    /// Every variant puts the same clip at the same times of the same slot (the shot groups have fixed
    /// slot lengths), so burned text is cached per segment and reused: a variant with text becomes a
    /// stream-copy join of pre-burned segments (see [`render`](super::render)). False: one re-encode
    /// per variant.
    #[serde(default)]
    pub reuse_burns: bool,
    /// Size the cache of pre-burned segments may take in the prep folder; the least recently used go
    /// first beyond it.
    #[serde(default = "default_burn_budget")]
    pub burn_budget_mb: u64,
    /// How the pre-burned pieces are encoded (see [`PieceSpeed`]). Left out of the JSON when it is the
    /// default, so the prep folders of projects made before it keep their digests.
    #[serde(default, skip_serializing_if = "PieceSpeed::is_quality")]
    pub piece_speed: PieceSpeed,
}

/// The encoder settings of a project's pre-burned pieces (`burn::piece_args`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceSpeed {
    /// The mezzanine's veryfast at CRF 18: the smallest file at the one-pass burn's picture (SSIM ≥
    /// 0.995 against it), worth it when many variants share each piece.
    #[default]
    Quality,
    /// superfast at CRF 23 (no macroblock tree, no lookahead): about two thirds of the encoder's time
    /// for ~1.2x the bytes and an SSIM 0.0002–0.0006 lower against the mezzanine (measured on noisy
    /// and on detailed 1080x1920 clips). For a project whose few variants are waited for as one
    /// job (one-touch video), where the pieces are most of the time.
    Fast,
}

impl PieceSpeed {
    fn is_quality(&self) -> bool {
        *self == PieceSpeed::Quality
    }
}

fn default_burn_budget() -> u64 {
    BURN_BUDGET_MB
}

/// The default [`ProjectSpec::burn_budget_mb`]: 2 GiB, ~600 burned 10 s segments.
pub const BURN_BUDGET_MB: u64 = 2048;

impl Default for ProjectSpec {
    fn default() -> Self {
        ProjectSpec {
            clips: vec![],
            music: None,
            music_volume: 100,
            voice: None,
            voice_volume: 100,
            subtitles: None,
            bed_ms: 60_000,
            reuse_burns: false,
            burn_budget_mb: BURN_BUDGET_MB,
            piece_speed: PieceSpeed::Quality,
        }
    }
}

/// A transition from one shot into the next: an ffmpeg `xfade` transition (one of [`TRANSITIONS`]) lasting
/// `ms` milliseconds (within [`TRANSITION_MS`]). The two shots overlap for that long, so the video gets
/// shorter by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub kind: String,
    pub ms: i64,
}

/// One variant to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantSpec {
    pub clips: Vec<ClipSpec>,
    pub title: Option<Title>,
    /// Burn the project's subtitles (when it has any).
    pub burn_subtitles: bool,
    /// The clips' own sound, 0–100: `None` mutes it when there is a bed (music or voice) and keeps it at
    /// 100 when there is none.
    pub clip_audio_volume: Option<u8>,
    /// The cover is the frame at this time (clamped into the video).
    pub cover_at_ms: i64,
    /// Entry i: the transition from clip i into clip i+1 (`None`, or no entry, is a hard cut). Any
    /// transition makes the render a composed one (see [`render`]).
    #[serde(default)]
    pub transitions: Vec<Option<Transition>>,
    /// Entry i: a caption shown while clip i plays (empty, or no entry, shows none); at most
    /// [`SHOT_TEXT_MAX_CHARS`] characters.
    #[serde(default)]
    pub shot_texts: Vec<String>,
    /// Style of the shot captions; `None` is [`default_shot_style`].
    #[serde(default)]
    pub shot_style: Option<TextStyle>,
    /// The visible label of generated content ([`Label::aigc`]); also drawn on the cover when the
    /// cover's frame is past it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<Label>,
    /// The implicit label of generated content: the `AIGC` metadata field's JSON
    /// (`domain::clip::aigc::AigcMeta`), written into the MP4 and the cover JPEG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aigc: Option<String>,
}

impl VariantSpec {
    pub fn new(clips: Vec<ClipSpec>) -> Self {
        VariantSpec {
            clips,
            title: None,
            burn_subtitles: false,
            clip_audio_volume: None,
            cover_at_ms: 1000,
            transitions: vec![],
            shot_texts: vec![],
            shot_style: None,
            label: None,
            aigc: None,
        }
    }

    /// True when some shot has a transition into the next one: the variant is rendered composed.
    pub fn has_transitions(&self) -> bool {
        self.transitions.iter().any(Option::is_some)
    }
}

/// The style of shot captions when the variant names none: the default font, 64 px, mid-frame.
pub fn default_shot_style() -> TextStyle {
    TextStyle::new(Position::Middle, 64)
}

/// The rules of advanced mode: transitions (known kinds, lengths within [`TRANSITION_MS`], at most one per
/// join) and shot captions (at most one per clip, each at most [`SHOT_TEXT_MAX_CHARS`] characters).
pub fn check_advanced(variant: &VariantSpec) -> Result<(), MixError> {
    let joins = variant.clips.len().saturating_sub(1);
    if variant.transitions.len() > joins {
        return invalid(format!(
            "{} transitions for {} clips; at most {joins}",
            variant.transitions.len(),
            variant.clips.len()
        ));
    }
    for t in variant.transitions.iter().flatten() {
        if !TRANSITIONS.contains(&t.kind.as_str()) {
            return invalid(format!(
                "unknown transition {:?}; one of {}",
                t.kind,
                TRANSITIONS.join(", ")
            ));
        }
        let (lo, hi) = TRANSITION_MS;
        if !(lo..=hi).contains(&t.ms) {
            return invalid(format!("a transition lasts {lo}–{hi} ms, got {} ms", t.ms));
        }
    }
    if variant.shot_texts.len() > variant.clips.len() {
        return invalid(format!(
            "{} shot captions for {} clips",
            variant.shot_texts.len(),
            variant.clips.len()
        ));
    }
    for t in &variant.shot_texts {
        let n = t.trim().chars().count();
        if n > SHOT_TEXT_MAX_CHARS {
            return invalid(format!(
                "a shot caption is {n} characters; at most {SHOT_TEXT_MAX_CHARS}"
            ));
        }
    }
    if variant.shot_texts.iter().any(|t| !t.trim().is_empty()) {
        check_style(variant.shot_style.as_ref().unwrap_or(&default_shot_style()))?;
    }
    Ok(())
}

/// `#RRGGBB` as an ASS colour (`&H00BBGGRR`).
pub fn ass_colour(hex: &str) -> Result<String, MixError> {
    let h = hex.trim().trim_start_matches('#');
    if h.len() != 6 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return invalid(format!("colour must be #RRGGBB, got {hex:?}"));
    }
    let (r, g, b) = (&h[0..2], &h[2..4], &h[4..6]);
    Ok(format!("&H00{b}{g}{r}").to_uppercase())
}

pub(super) fn check_style(style: &TextStyle) -> Result<(), MixError> {
    if !(8..=300).contains(&style.size) {
        return invalid(format!("font size must be 8–300 px, got {}", style.size));
    }
    ass_colour(&style.colour).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_piece_speed_leaves_the_spec_json_as_it_was() {
        // The JSON names the prep folder (its digest): projects made before `piece_speed` keep theirs.
        let json = serde_json::to_string(&ProjectSpec::default()).unwrap();
        assert!(!json.contains("piece_speed"), "{json}");
        let fast = ProjectSpec {
            piece_speed: PieceSpeed::Fast,
            ..Default::default()
        };
        let json = serde_json::to_string(&fast).unwrap();
        assert!(json.contains(r#""piece_speed":"fast""#), "{json}");
        let back: ProjectSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(back.piece_speed, PieceSpeed::Fast);
    }

    #[test]
    fn advanced_rules() {
        let clips = vec![
            ClipSpec::whole("a"),
            ClipSpec::whole("b"),
            ClipSpec::whole("c"),
        ];
        let t = |kind: &str, ms| {
            Some(Transition {
                kind: kind.into(),
                ms,
            })
        };
        let mut v = VariantSpec::new(clips);
        assert!(check_advanced(&v).is_ok() && !v.has_transitions());
        v.transitions = vec![t("fade", 200), None];
        assert!(check_advanced(&v).is_ok() && v.has_transitions());
        v.transitions = vec![None, None];
        assert!(!v.has_transitions());
        let err = |v: &VariantSpec| match check_advanced(v) {
            Err(MixError::Invalid(m)) => m,
            other => panic!("{other:?}"),
        };
        v.transitions = vec![t("zoomin", 500)];
        assert!(err(&v).contains("unknown transition"));
        v.transitions = vec![t("fade", 199)];
        assert!(err(&v).contains("200–2000 ms"));
        v.transitions = vec![t("fade", 2001)];
        assert!(err(&v).contains("200–2000 ms"));
        v.transitions = vec![None, t("wipeup", 500), None];
        assert!(err(&v).contains("at most 2"));
        v.transitions = vec![];
        v.shot_texts = vec!["一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十".into()];
        assert!(check_advanced(&v).is_ok(), "30 characters is fine");
        v.shot_texts[0].push('!');
        assert!(err(&v).contains("at most 30"));
        v.shot_texts = vec![String::new(); 4];
        assert!(err(&v).contains("4 shot captions for 3 clips"));
        v.shot_texts = vec!["ok".into()];
        v.shot_style = Some(TextStyle {
            colour: "pink".into(),
            ..default_shot_style()
        });
        assert!(err(&v).contains("#RRGGBB"));
        // Every supported kind is an xfade transition name; serde defaults keep old specs readable.
        assert_eq!(TRANSITIONS.len(), 12);
        let old: VariantSpec = serde_json::from_str(
            r#"{"clips":[],"title":null,"burn_subtitles":false,"clip_audio_volume":null,"cover_at_ms":0}"#,
        )
        .unwrap();
        assert!(
            old.transitions.is_empty() && old.shot_texts.is_empty() && old.shot_style.is_none()
        );
    }
}
