//! A mixing project's settings (SPEC §5 "Voice and clip") and their rules. No I/O: the API checks that
//! the ids named here belong to the merchant.

pub mod aigc;
pub mod intellect;
pub mod one_touch;
pub mod planner;
pub mod risk;
pub mod slicing;
pub mod templates;

use crate::i18n::Msg;
use crate::validate::Invalid;
use serde::{Deserialize, Serialize};

pub const MAX_TITLE_CHARS: usize = 20;
/// A project may give up to this many titles, its variants taking them in turn.
pub const MAX_TITLES: usize = 10;
pub const RECOMMENDED_POOL: usize = 80;
/// Points one rendered variant costs.
pub const POINTS_PER_VARIANT: i64 = 2;

crate::text_enum! {
    /// Which page a mixing project belongs to (`clip_projects.mode`): quick mix, advanced mode, or
    /// the projects one-touch video makes (not listed with the others).
    pub enum ProjectMode {
        Normal = "normal",
        Senior = "senior",
        Ai = "ai",
    }
}
/// At most this many variants per request.
pub const MAX_BATCH: i64 = 200;

/// A shot of a project: the group its clips come from and how they are cut.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct GroupRule {
    pub group_id: i64,
    /// Longest part of each clip to use, in ms (0: the whole clip). Cuts fall on whole seconds.
    #[serde(default)]
    pub max_ms: i64,
    /// Advanced mode: where each clip of this shot starts, in ms (0: its beginning).
    #[serde(default)]
    pub in_ms: i64,
    /// Advanced mode: a caption shown while this shot plays (blank: none).
    #[serde(default)]
    pub text: String,
    /// Advanced mode: the transition into the next shot (none: a hard cut). Not on the last shot.
    #[serde(default)]
    pub transition: Option<Transition>,
    /// An image shot (one-touch image projects; `group_id` 0): the images it draws from instead of a
    /// group's clips, each shown for `max_ms` with a pan-and-zoom.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<i64>,
}

/// A transition between two shots: an ffmpeg `xfade` kind and its length.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct Transition {
    /// One of [`TRANSITIONS`] (checked by [`ProjectConfig::validate`]).
    #[schema(value_type = TransitionKind)]
    pub kind: String,
    /// 200–2000, default 500.
    #[serde(default = "transition_ms")]
    #[schema(required = true)]
    pub ms: i64,
}

fn transition_ms() -> i64 {
    500
}

crate::text_enum! {
    /// The transitions advanced mode offers (ffmpeg `xfade` names; media::mix renders the same list).
    pub enum TransitionKind {
        Fade = "fade",
        Dissolve = "dissolve",
        Wipeleft = "wipeleft",
        Wiperight = "wiperight",
        Wipeup = "wipeup",
        Wipedown = "wipedown",
        Slideleft = "slideleft",
        Slideright = "slideright",
        Slideup = "slideup",
        Slidedown = "slidedown",
        Circleopen = "circleopen",
        Circleclose = "circleclose",
    }
}

/// The names of [`TransitionKind`], in its order.
pub const TRANSITIONS: &[&str] = &{
    let mut out = [""; TransitionKind::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = TransitionKind::ALL[i].as_str();
        i += 1;
    }
    out
};
/// A transition lasts 200 ms to 2 s.
pub const TRANSITION_MS: (i64, i64) = (200, 2000);
/// With a transition anywhere the variant is one composed ffmpeg run that keeps a decoder open per shot
/// (~70 MB each): this many shots keeps a render well under 1 GB.
pub const MAX_COMPOSED_SHOTS: usize = 10;
/// A shot's caption is at most this many characters.
pub const SHOT_TEXT_MAX_CHARS: usize = 30;

/// SPEC §5 "Voice and clip": up to 3 files in one selection — a project's music (or voice-over) may name
/// up to three library files, and its variants take them in turn.
pub const MAX_TRACKS: usize = 3;
/// A caption's or title's font size, in pixels of the 1080-wide frame.
pub const FONT_SIZE: (i64, i64) = (16, 160);

/// A project's music or voice-over.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[schema(as = AudioRef)]
pub struct Audio {
    /// A file of the merchant's (music or voice library)…
    #[serde(default)]
    pub media_id: Option<i64>,
    /// …or up to [`MAX_TRACKS`] of them, used by the variants in turn (when given, `media_id` is
    /// ignored; the console sends it as the first of these for older readers).
    #[serde(default)]
    pub media_ids: Vec<i64>,
    /// …or a built-in track (music only).
    #[serde(default)]
    pub system_music_id: Option<i64>,
    /// 0–100.
    #[serde(default = "full")]
    #[schema(required = true)]
    pub volume: i64,
}

fn full() -> i64 {
    100
}

impl Audio {
    /// The library files named, in order: `media_ids`, or `media_id` alone.
    pub fn tracks(&self) -> Vec<i64> {
        if self.media_ids.is_empty() {
            self.media_id.into_iter().collect()
        } else {
            self.media_ids.clone()
        }
    }

    /// The library file a variant uses: the tracks in turn by the variant's id (spread evenly over a
    /// batch, the same file on every retry of one variant).
    pub fn track_for(&self, variant_id: i64) -> Option<i64> {
        let t = self.tracks();
        (!t.is_empty()).then(|| t[variant_id.rem_euclid(t.len() as i64) as usize])
    }
}

crate::text_enum! {
    /// Where a caption or title sits on the frame.
    pub enum TextPosition {
        Top = "top",
        Middle = "middle",
        Bottom = "bottom",
    }
}

/// How a caption, subtitle or title is drawn.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct TextStyle {
    /// A font of the merchant's font library; none = the built-in CJK font.
    #[serde(default)]
    #[schema(required = true)]
    pub font_id: Option<i64>,
    /// 16–160 px on the 1080x1920 frame.
    #[serde(default = "size")]
    #[schema(required = true)]
    pub size: i64,
    /// #RRGGBB
    #[serde(default = "white")]
    #[schema(required = true)]
    pub color: String,
    /// top | middle | bottom (checked by [`ProjectConfig::validate`]).
    #[serde(default = "bottom")]
    #[schema(required = true, value_type = TextPosition)]
    pub position: String,
}

impl Default for TextStyle {
    fn default() -> Self {
        TextStyle {
            font_id: None,
            size: size(),
            color: white(),
            position: bottom(),
        }
    }
}

fn size() -> i64 {
    56
}
fn white() -> String {
    "#FFFFFF".into()
}
fn bottom() -> String {
    "bottom".into()
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct Subtitles {
    /// Burn the voice-over's recognized lines (the voice material's subtitle timeline).
    #[serde(default)]
    #[schema(required = true)]
    pub enabled: bool,
    #[serde(default)]
    #[schema(required = true)]
    pub style: TextStyle,
}

/// A project's title over its variants.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[schema(as = ProjectTitle)]
pub struct Title {
    #[serde(default)]
    #[schema(required = true)]
    pub text: String,
    /// …or up to [`MAX_TITLES`] titles (the writer's, say), the variants taking them in turn so
    /// siblings do not burn one text (duplicate risk). When given, `text` is ignored; the console
    /// sends it as the first of these for older readers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texts: Vec<String>,
    #[serde(default)]
    #[schema(required = true)]
    pub style: TextStyle,
}

/// A mixing project's settings, as saved and as answered.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct ProjectConfig {
    /// Shot groups in playing order (at least three).
    #[serde(default)]
    #[schema(required = true)]
    pub groups: Vec<GroupRule>,
    #[serde(default)]
    pub music: Option<Audio>,
    #[serde(default)]
    pub voice: Option<Audio>,
    #[serde(default)]
    #[schema(required = true)]
    pub subtitles: Subtitles,
    #[serde(default)]
    pub title: Option<Title>,
    /// The cover frame's time in the variant, ms.
    #[serde(default)]
    #[schema(required = true)]
    pub cover_ms: i64,
    /// Each variant's cover from another second: `cover_ms` plus the variant's turn (0–4 s later,
    /// within its length), so siblings' covers differ (duplicate risk); it costs no encoding.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cover_vary: bool,
    /// Each variant takes another stretch of every clip longer than its shot's length (whole seconds
    /// later, by the variant's turn), so siblings sharing a clip show less of the same pictures
    /// (duplicate risk). No encoding cost; a clip with no slack stays as it is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trim_vary: bool,
    /// Each variant draws its subtitles, title and captions in another place (the three positions in
    /// turn, moved together so they never meet), so siblings' frames differ where the text is
    /// (duplicate risk). Costs burns: a look's text is burned apart from the others'.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text_vary: bool,
    /// How many variants "generate" makes by default.
    #[serde(default = "one")]
    #[schema(required = true)]
    pub output_count: i64,
    /// Advanced mode: the style of the shots' captions.
    #[serde(default = "shot_style")]
    pub shot_style: TextStyle,
}

fn shot_style() -> TextStyle {
    TextStyle {
        position: "middle".into(),
        size: 64,
        ..TextStyle::default()
    }
}

fn one() -> i64 {
    1
}

fn broken(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Result<(), Invalid> {
    Err(Invalid { field, msg, args })
}

fn check_style(field: &'static str, s: &TextStyle) -> Result<(), Invalid> {
    let hex = s.color.len() == 7
        && s.color.starts_with('#')
        && s.color[1..].chars().all(|c| c.is_ascii_hexdigit());
    if !hex {
        return broken(field, Msg::ColorInvalid, vec![]);
    }
    if !(FONT_SIZE.0..=FONT_SIZE.1).contains(&s.size) {
        return broken(
            field,
            Msg::InvalidValue,
            vec![("reason", "size 16–160".into())],
        );
    }
    if TextPosition::parse(&s.position).is_none() {
        return broken(
            field,
            Msg::InvalidValue,
            vec![("reason", "position top | middle | bottom".into())],
        );
    }
    Ok(())
}

/// How many seconds a varied cover moves through (`ProjectConfig::cover_vary`).
pub const COVER_TURNS: i64 = 5;

impl ProjectConfig {
    /// Variant `variant_id`'s title to burn: the titles in turn, or the one title (blank: none).
    pub fn title_for(&self, variant_id: i64) -> Option<&str> {
        let texts = self.titles();
        if texts.len() > 1 {
            Some(texts[variant_id.rem_euclid(texts.len() as i64) as usize])
        } else {
            texts.first().copied()
        }
    }

    /// Every title the variants may burn (blanks left out).
    pub fn titles(&self) -> Vec<&str> {
        let Some(t) = &self.title else {
            return vec![];
        };
        if t.texts.is_empty() {
            self.title_text().into_iter().collect()
        } else {
            t.texts
                .iter()
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .collect()
        }
    }

    /// A text style as variant `variant_id` draws it: with `text_vary` its position moves on by the
    /// variant's turn (top, middle, bottom, round), every text by the same step.
    pub fn look_for(&self, style: &TextStyle, variant_id: i64) -> TextStyle {
        if !self.text_vary {
            return style.clone();
        }
        let all = TextPosition::ALL;
        let at = all
            .iter()
            .position(|p| p.as_str() == style.position)
            .unwrap_or(all.len() - 1);
        let turn = variant_id.rem_euclid(all.len() as i64) as usize;
        TextStyle {
            position: all[(at + turn) % all.len()].as_str().into(),
            ..style.clone()
        }
    }

    /// How much later variant `variant_id` starts shot `slot`'s clip (a clip of `duration_ms`), ms:
    /// with `trim_vary`, a step of the shot's length (whole seconds, for the key frames) at a time
    /// within the clip's slack, by the variant's turn (and the slot's, so the shots do not all move in
    /// step) — so neighbouring variants show apart stretches, not half the same one; else 0.
    pub fn trim_offset(&self, variant_id: i64, slot: usize, duration_ms: i64) -> i64 {
        let Some(g) = self.groups.get(slot).filter(|_| self.trim_vary) else {
            return 0;
        };
        if g.max_ms <= 0 || !g.images.is_empty() {
            return 0;
        }
        let slack_s = (duration_ms - g.in_ms - g.max_ms) / 1000;
        if slack_s <= 0 {
            return 0;
        }
        let step_s = (g.max_ms + 999) / 1000;
        let starts = slack_s / step_s + 1;
        (variant_id + slot as i64).rem_euclid(starts) * step_s * 1000
    }

    /// Where variant `variant_id`'s cover is taken from, ms (the render keeps it within the video).
    pub fn cover_at(&self, variant_id: i64) -> i64 {
        if self.cover_vary {
            self.cover_ms + variant_id.rem_euclid(COVER_TURNS) * 1000
        } else {
            self.cover_ms
        }
    }

    pub fn validate(&self) -> Result<(), Invalid> {
        if self.groups.len() < crate::clip::planner::MIN_GROUPS {
            return broken("groups", Msg::TooFewGroups, vec![]);
        }
        let mut seen = std::collections::HashMap::new();
        let mut images = std::collections::HashSet::new();
        for (i, g) in self.groups.iter().enumerate() {
            // A group once; an image shot names its images (none twice, and a length to show them).
            let once = if g.images.is_empty() {
                if let Some(first) = seen.insert(g.group_id, i) {
                    return broken(
                        "groups",
                        Msg::GroupReused,
                        vec![
                            ("name", format!("#{}", g.group_id)),
                            ("first", (first + 1).to_string()),
                            ("second", (i + 1).to_string()),
                        ],
                    );
                }
                true
            } else {
                g.group_id == 0 && g.max_ms > 0 && g.images.iter().all(|m| images.insert(*m))
            };
            if !once || g.max_ms < 0 || g.in_ms < 0 {
                return broken(
                    "groups",
                    Msg::InvalidValue,
                    vec![("reason", format!("group {}", g.group_id))],
                );
            }
            if g.text.trim().chars().count() > SHOT_TEXT_MAX_CHARS {
                return broken(
                    "groups",
                    Msg::TooLong,
                    vec![("max", SHOT_TEXT_MAX_CHARS.to_string())],
                );
            }
            crate::validate::plain_text("groups", &g.text)?;
            if let Some(t) = &g.transition {
                let last = i + 1 == self.groups.len();
                let reason = if last {
                    Some("the last shot has no next shot to transition into".to_string())
                } else if !TRANSITIONS.contains(&t.kind.as_str()) {
                    Some(format!("transition {}", TRANSITIONS.join(" | ")))
                } else if !(TRANSITION_MS.0..=TRANSITION_MS.1).contains(&t.ms) {
                    Some(format!(
                        "transition {}–{} ms",
                        TRANSITION_MS.0, TRANSITION_MS.1
                    ))
                } else {
                    None
                };
                if let Some(reason) = reason {
                    return broken("groups", Msg::InvalidValue, vec![("reason", reason)]);
                }
            }
        }
        if self.groups.iter().any(|g| g.transition.is_some())
            && self.groups.len() > MAX_COMPOSED_SHOTS
        {
            return broken(
                "groups",
                Msg::TooManyShots,
                vec![("max", MAX_COMPOSED_SHOTS.to_string())],
            );
        }
        if self.has_shot_texts() {
            check_style("shot_style", &self.shot_style)?;
        }
        for (field, a) in [("music", &self.music), ("voice", &self.voice)] {
            if let Some(a) = a {
                if !(0..=100).contains(&a.volume) {
                    return broken(
                        field,
                        Msg::InvalidValue,
                        vec![("reason", "volume 0–100".into())],
                    );
                }
                let tracks = a.tracks();
                if tracks.is_empty() && a.system_music_id.is_none()
                    || field == "voice" && a.system_music_id.is_some()
                {
                    return broken(field, Msg::Required, vec![]);
                }
                let distinct: std::collections::HashSet<_> = tracks.iter().collect();
                if tracks.len() > MAX_TRACKS {
                    return broken(
                        field,
                        Msg::TooManyTracks,
                        vec![("max", MAX_TRACKS.to_string())],
                    );
                }
                if distinct.len() != tracks.len() {
                    return broken(
                        field,
                        Msg::InvalidValue,
                        vec![("reason", "a file is named twice".into())],
                    );
                }
            }
        }
        if self.subtitles.enabled {
            if self.voice.as_ref().is_none_or(|v| v.tracks().is_empty()) {
                return broken(
                    "subtitles",
                    Msg::InvalidValue,
                    vec![("reason", "subtitles come from the voice-over".into())],
                );
            }
            check_style("subtitles", &self.subtitles.style)?;
        }
        if let Some(t) = &self.title {
            if t.text.chars().count() > MAX_TITLE_CHARS {
                return broken(
                    "title",
                    Msg::TooLong,
                    vec![("max", MAX_TITLE_CHARS.to_string())],
                );
            }
            crate::validate::plain_text("title", &t.text)?;
            if t.texts.len() > MAX_TITLES {
                return broken(
                    "title",
                    Msg::TooManyValues,
                    vec![("max", MAX_TITLES.to_string())],
                );
            }
            let mut seen = std::collections::HashSet::new();
            for (i, text) in t.texts.iter().enumerate() {
                if text.chars().count() > MAX_TITLE_CHARS {
                    return broken(
                        "title",
                        Msg::TitleTooLong,
                        vec![
                            ("n", (i + 1).to_string()),
                            ("max", MAX_TITLE_CHARS.to_string()),
                        ],
                    );
                }
                crate::validate::plain_text("title", text)?;
                if !text.trim().is_empty() && !seen.insert(text.trim()) {
                    return broken(
                        "title",
                        Msg::InvalidValue,
                        vec![("reason", format!("title {} is given twice", i + 1))],
                    );
                }
            }
            check_style("title", &t.style)?;
        }
        if self.cover_ms < 0 {
            return broken(
                "cover_ms",
                Msg::InvalidValue,
                vec![("reason", "≥ 0".into())],
            );
        }
        if !(1..=MAX_BATCH).contains(&self.output_count) {
            return broken(
                "output_count",
                Msg::InvalidValue,
                vec![("reason", format!("1–{MAX_BATCH}"))],
            );
        }
        Ok(())
    }

    /// The captions' style when a config names none.
    pub fn default_shot_style() -> TextStyle {
        shot_style()
    }

    /// Whether any shot has a caption (advanced mode).
    pub fn has_shot_texts(&self) -> bool {
        self.groups.iter().any(|g| !g.text.trim().is_empty())
    }

    /// The title to burn, if any (blank means none).
    pub fn title_text(&self) -> Option<&str> {
        self.title
            .as_ref()
            .map(|t| t.text.trim())
            .filter(|t| !t.is_empty())
    }
}

#[cfg(test)]
mod lever_tests {
    //! The variation levers against duplicate risk: cover, trim, titles and text looks per variant.
    use super::*;

    #[test]
    fn a_varied_trim_moves_a_shot_length_at_a_time_within_the_slack() {
        let mut c: ProjectConfig = serde_json::from_str(
            r#"{"groups":[{"group_id":1,"max_ms":2000},{"group_id":2},{"group_id":3,"max_ms":2000,"in_ms":1000}]}"#,
        )
        .unwrap();
        assert_eq!(c.trim_offset(3, 0, 8000), 0, "off: no offset");
        c.trim_vary = true;
        // 8 s clip, 2 s shot: 6 s of slack, 4 starts two seconds apart (neighbours do not overlap).
        assert_eq!(
            (0..5)
                .map(|v| c.trim_offset(v, 0, 8000))
                .collect::<Vec<_>>(),
            [0, 2000, 4000, 6000, 0]
        );
        // 1.5 s shot: steps of 2 s (whole seconds), 4.5 s of slack counted as 4: starts 0, 2 and 4 s.
        c.groups[0].max_ms = 1500;
        assert_eq!(
            (0..4)
                .map(|v| c.trim_offset(v, 0, 6000))
                .collect::<Vec<_>>(),
            [0, 2000, 4000, 0]
        );
        c.groups[0].max_ms = 2000;
        // Every start keeps the whole shot inside the clip (a part second of slack does not count).
        for v in 0..20 {
            assert!(c.trim_offset(v, 0, 4900) + 2000 <= 4900);
            assert!(c.trim_offset(v, 2, 6000) + 1000 + 2000 <= 6000);
        }
        assert_eq!(c.trim_offset(1, 0, 2500), 0, "less than a second of slack");
        assert_eq!(
            c.trim_offset(1, 1, 9000),
            0,
            "a whole-clip shot has no slack"
        );
        assert_eq!(c.trim_offset(1, 9, 9000), 0, "no such shot");
        // The shots do not move in step.
        assert_ne!(c.trim_offset(1, 0, 8000), c.trim_offset(1, 2, 9000));
        assert!(serde_json::to_string(&c).unwrap().contains("trim_vary"));
    }

    #[test]
    fn titles_are_taken_in_turn_and_checked_each() {
        let mut c: ProjectConfig = serde_json::from_str(
            r#"{"groups":[{"group_id":1},{"group_id":2},{"group_id":3}],"title":{"text":"一"}}"#,
        )
        .unwrap();
        assert_eq!((c.title_for(0), c.title_for(5)), (Some("一"), Some("一")));
        let t = c.title.as_mut().unwrap();
        t.texts = vec!["一".into(), " ".into(), "二".into(), "三".into()];
        assert_eq!(
            (0..4).map(|v| c.title_for(v).unwrap()).collect::<Vec<_>>(),
            ["一", "二", "三", "一"],
            "blanks left out"
        );
        assert_eq!(c.titles().len(), 3);
        c.validate().unwrap();
        let t = c.title.as_mut().unwrap();
        t.texts[1] = "一".into();
        assert_eq!(c.validate().unwrap_err().msg, Msg::InvalidValue, "twice");
        let t = c.title.as_mut().unwrap();
        t.texts[1] = "长".repeat(MAX_TITLE_CHARS + 1);
        let e = c.validate().unwrap_err();
        assert_eq!((e.msg, e.args[0].1.as_str()), (Msg::TitleTooLong, "2"));
        let t = c.title.as_mut().unwrap();
        t.texts = (0..=MAX_TITLES).map(|i| i.to_string()).collect();
        assert_eq!(c.validate().unwrap_err().msg, Msg::TooManyValues);
        c.title = None;
        assert_eq!(c.title_for(1), None);
    }

    #[test]
    fn a_varied_look_moves_every_text_by_one_step() {
        let mut c = ProjectConfig::default();
        let bottom = TextStyle::default();
        let top = TextStyle {
            position: "top".into(),
            ..TextStyle::default()
        };
        assert_eq!(c.look_for(&bottom, 1), bottom, "off: as set");
        c.text_vary = true;
        let at = |s: &TextStyle, v| c.look_for(s, v).position;
        assert_eq!(
            (0..4).map(|v| at(&bottom, v)).collect::<Vec<_>>(),
            ["bottom", "top", "middle", "bottom"]
        );
        // Two texts set apart stay apart in every look; the rest of the style is kept.
        for v in 0..3 {
            assert_ne!(at(&bottom, v), at(&top, v));
        }
        assert_eq!(c.look_for(&bottom, 1).size, bottom.size);
    }

    #[test]
    fn a_varied_cover_moves_by_the_variants_turn() {
        let mut c: ProjectConfig =
            serde_json::from_str(r#"{"groups":[],"cover_ms":1000}"#).unwrap();
        assert_eq!((c.cover_at(7), c.cover_at(8)), (1000, 1000));
        c.cover_vary = true;
        assert_eq!(
            (0..6).map(|v| c.cover_at(v)).collect::<Vec<_>>(),
            [1000, 2000, 3000, 4000, 5000, 1000]
        );
        // Sent only when on: older readers see the same config.
        assert!(serde_json::to_string(&c).unwrap().contains("cover_vary"));
        c.cover_vary = false;
        assert!(!serde_json::to_string(&c).unwrap().contains("cover_vary"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(groups: usize) -> ProjectConfig {
        ProjectConfig {
            groups: (1..=groups as i64)
                .map(|g| GroupRule {
                    group_id: g,
                    ..Default::default()
                })
                .collect(),
            output_count: 1,
            ..Default::default()
        }
    }

    #[test]
    fn rules() {
        assert_eq!(cfg(2).validate().unwrap_err().msg, Msg::TooFewGroups);
        assert!(cfg(3).validate().is_ok());
        let mut c = cfg(3);
        c.title = Some(Title {
            text: "一二三四五六七八九十一二三四五六七八九十一".into(),
            texts: vec![],
            style: TextStyle::default(),
        });
        assert_eq!(c.validate().unwrap_err().field, "title");
        c.title = Some(Title {
            text: "一二三四五六七八九十一二三四五六七八九十".into(),
            texts: vec![],
            style: TextStyle::default(),
        });
        assert!(c.validate().is_ok());
        c.subtitles.enabled = true;
        assert_eq!(c.validate().unwrap_err().field, "subtitles");
        c.voice = Some(Audio {
            media_id: Some(9),
            volume: 100,
            ..Default::default()
        });
        assert!(c.validate().is_ok());
        c.subtitles.style.color = "white".into();
        assert_eq!(c.validate().unwrap_err().msg, Msg::ColorInvalid);
        let mut d = cfg(3);
        d.groups[2].group_id = 1;
        assert!(d.validate().is_err());
        let mut e = cfg(3);
        e.music = Some(Audio {
            volume: 50,
            ..Default::default()
        });
        assert_eq!(e.validate().unwrap_err().field, "music");
    }

    #[test]
    fn advanced_rules() {
        let mut c = cfg(3);
        c.groups[0].in_ms = 1500;
        c.groups[0].text = "第一镜".into();
        c.groups[0].transition = Some(Transition {
            kind: "fade".into(),
            ms: 500,
        });
        c.groups[1].transition = Some(Transition {
            kind: "slideleft".into(),
            ms: 2000,
        });
        assert!(c.validate().is_ok());
        let mut last = c.clone();
        last.groups[2].transition = Some(Transition {
            kind: "fade".into(),
            ms: 500,
        });
        assert_eq!(last.validate().unwrap_err().field, "groups");
        let mut kind = c.clone();
        kind.groups[0].transition.as_mut().unwrap().kind = "explode".into();
        assert_eq!(kind.validate().unwrap_err().msg, Msg::InvalidValue);
        let mut long = c.clone();
        long.groups[1].transition.as_mut().unwrap().ms = 2001;
        assert!(long.validate().is_err());
        let mut text = c.clone();
        text.groups[1].text = "字".repeat(SHOT_TEXT_MAX_CHARS + 1);
        assert_eq!(text.validate().unwrap_err().msg, Msg::TooLong);
        let mut tracks = c.clone();
        tracks.music = Some(Audio {
            media_ids: vec![7, 8, 9],
            volume: 50,
            ..Default::default()
        });
        assert!(tracks.validate().is_ok());
        let m = tracks.music.as_ref().unwrap();
        assert_eq!(
            (10..16)
                .map(|v| m.track_for(v).unwrap())
                .collect::<Vec<_>>(),
            vec![8, 9, 7, 8, 9, 7]
        );
        tracks.music.as_mut().unwrap().media_ids.push(10);
        assert_eq!(tracks.validate().unwrap_err().msg, Msg::TooManyTracks);
        tracks.music.as_mut().unwrap().media_ids = vec![7, 7];
        assert_eq!(tracks.validate().unwrap_err().msg, Msg::InvalidValue);
        let one = Audio {
            media_id: Some(5),
            ..Default::default()
        };
        assert_eq!((one.tracks(), one.track_for(3)), (vec![5], Some(5)));
        let mut many = cfg(MAX_COMPOSED_SHOTS + 1);
        many.groups[0].transition = c.groups[0].transition.clone();
        assert_eq!(many.validate().unwrap_err().msg, Msg::TooManyShots);
        many.groups[0].transition = None;
        assert!(
            many.validate().is_ok(),
            "hard cuts only: stream copy, no limit"
        );
        let mut negative = c.clone();
        negative.groups[2].in_ms = -1;
        assert!(negative.validate().is_err());
        let mut style = c;
        style.shot_style.color = "red".into();
        assert_eq!(style.validate().unwrap_err().field, "shot_style");
        // A quick-mix config without any of it still reads (old projects).
        let old: ProjectConfig =
            serde_json::from_str(r#"{"groups":[{"group_id":1},{"group_id":2},{"group_id":3}]}"#)
                .unwrap();
        assert!(old.validate().is_ok() && !old.has_shot_texts());
    }
}

crate::text_enum! {
    /// The state of a variant (a finished video of the library), as stored in `clip_variants.state`.
    pub enum VariantState {
        /// Queued or rendering (also while a failed render still has retries).
        Processing = "processing",
        Success = "success",
        /// Failed for good, or cancelled: its points were refunded.
        Failed = "failed",
        /// Removed from the library; the row stays so its sequence is never made again.
        Deleted = "deleted",
    }
}
impl VariantState {
    /// A render moves on (progress) or ends; a finished or failed variant may be deleted; a deleted
    /// imported video comes back when imported again. Nothing leaves `Processing` but the render or a
    /// cancel, so a rendering variant is never deleted.
    pub fn can_become(self, next: VariantState) -> bool {
        use VariantState::*;
        matches!(
            (self, next),
            (Processing, Processing | Success | Failed)
                | (Success | Failed, Deleted)
                | (Deleted, Success)
        )
    }
}

#[cfg(test)]
mod variant_state_tests {
    use super::VariantState::{self, *};

    #[test]
    fn names_round_trip() {
        for s in [Processing, Success, Failed, Deleted] {
            assert_eq!(VariantState::parse(s.as_str()), Some(s));
        }
        assert_eq!(VariantState::parse("cancelled"), None);
    }

    #[test]
    fn transitions() {
        assert!(Processing.can_become(Processing));
        assert!(Processing.can_become(Success));
        assert!(Processing.can_become(Failed));
        assert!(Success.can_become(Deleted));
        assert!(Failed.can_become(Deleted));
        assert!(Deleted.can_become(Success));
        // A rendering variant is not deleted; a finished one is not rendered again.
        assert!(!Processing.can_become(Deleted));
        assert!(!Success.can_become(Processing));
        assert!(!Failed.can_become(Processing));
        assert!(!Failed.can_become(Success));
        assert!(!Deleted.can_become(Processing));
    }
}
