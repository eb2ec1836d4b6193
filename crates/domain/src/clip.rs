//! A mixing project's settings (SPEC §5 "Voice and clip") and their rules. No I/O: the API checks that
//! the ids named here belong to the merchant.

use crate::i18n::Msg;
use serde::{Deserialize, Serialize};

pub const MAX_TITLE_CHARS: usize = 20;
pub const RECOMMENDED_POOL: usize = 80;
/// Points one rendered variant costs.
pub const POINTS_PER_VARIANT: i64 = 2;
/// At most this many variants per request.
pub const MAX_BATCH: i64 = 200;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct GroupRule {
    pub group_id: i64,
    /// Longest part of each clip to use, in ms (0: the whole clip). Cuts fall on whole seconds.
    #[serde(default)]
    pub max_ms: i64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Audio {
    /// A file of the merchant's (music or voice library)…
    #[serde(default)]
    pub media_id: Option<i64>,
    /// …or a built-in track (music only).
    #[serde(default)]
    pub system_music_id: Option<i64>,
    /// 0–100.
    #[serde(default = "full")]
    pub volume: i64,
}

fn full() -> i64 {
    100
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TextStyle {
    /// A font of the merchant's font library; none = the built-in CJK font.
    #[serde(default)]
    pub font_id: Option<i64>,
    #[serde(default = "size")]
    pub size: i64,
    #[serde(default = "white")]
    pub color: String,
    /// top | middle | bottom
    #[serde(default = "bottom")]
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

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Subtitles {
    /// Burn the voice-over's recognized lines (the voice material's subtitle timeline).
    #[serde(default)]
    pub enabled: bool,
    #[serde(default)]
    pub style: TextStyle,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Title {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub style: TextStyle,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ProjectConfig {
    /// Shot groups in playing order (at least three).
    #[serde(default)]
    pub groups: Vec<GroupRule>,
    #[serde(default)]
    pub music: Option<Audio>,
    #[serde(default)]
    pub voice: Option<Audio>,
    #[serde(default)]
    pub subtitles: Subtitles,
    #[serde(default)]
    pub title: Option<Title>,
    /// The cover frame's time in the variant, ms.
    #[serde(default)]
    pub cover_ms: i64,
    /// How many variants "generate" makes by default.
    #[serde(default = "one")]
    pub output_count: i64,
}

fn one() -> i64 {
    1
}

/// A broken rule: the field, the message, its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken {
    pub field: &'static str,
    pub msg: Msg,
    pub args: Vec<(&'static str, String)>,
}

fn broken(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Result<(), Broken> {
    Err(Broken { field, msg, args })
}

fn check_style(field: &'static str, s: &TextStyle) -> Result<(), Broken> {
    let hex = s.color.len() == 7
        && s.color.starts_with('#')
        && s.color[1..].chars().all(|c| c.is_ascii_hexdigit());
    if !hex {
        return broken(field, Msg::ColorInvalid, vec![]);
    }
    if !(16..=160).contains(&s.size) {
        return broken(
            field,
            Msg::InvalidValue,
            vec![("reason", "size 16–160".into())],
        );
    }
    if !["top", "middle", "bottom"].contains(&s.position.as_str()) {
        return broken(
            field,
            Msg::InvalidValue,
            vec![("reason", "position top | middle | bottom".into())],
        );
    }
    Ok(())
}

impl ProjectConfig {
    pub fn validate(&self) -> Result<(), Broken> {
        if self.groups.len() < crate::planner::MIN_GROUPS {
            return broken("groups", Msg::TooFewGroups, vec![]);
        }
        let mut seen = std::collections::HashSet::new();
        for g in &self.groups {
            if !seen.insert(g.group_id) || g.max_ms < 0 {
                return broken(
                    "groups",
                    Msg::InvalidValue,
                    vec![("reason", format!("group {}", g.group_id))],
                );
            }
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
                if a.media_id.is_none() && a.system_music_id.is_none()
                    || field == "voice" && a.system_music_id.is_some()
                {
                    return broken(field, Msg::Required, vec![]);
                }
            }
        }
        if self.subtitles.enabled {
            if self.voice.as_ref().and_then(|v| v.media_id).is_none() {
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

    /// The title to burn, if any (blank means none).
    pub fn title_text(&self) -> Option<&str> {
        self.title
            .as_ref()
            .map(|t| t.text.trim())
            .filter(|t| !t.is_empty())
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
                    max_ms: 0,
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
            style: TextStyle::default(),
        });
        assert_eq!(c.validate().unwrap_err().field, "title");
        c.title = Some(Title {
            text: "一二三四五六七八九十一二三四五六七八九十".into(),
            style: TextStyle::default(),
        });
        assert!(c.validate().is_ok());
        c.subtitles.enabled = true;
        assert_eq!(c.validate().unwrap_err().field, "subtitles");
        c.voice = Some(Audio {
            media_id: Some(9),
            system_music_id: None,
            volume: 100,
        });
        assert!(c.validate().is_ok());
        c.subtitles.style.color = "white".into();
        assert_eq!(c.validate().unwrap_err().msg, Msg::ColorInvalid);
        let mut d = cfg(3);
        d.groups[2].group_id = 1;
        assert!(d.validate().is_err());
        let mut e = cfg(3);
        e.music = Some(Audio {
            media_id: None,
            system_music_id: None,
            volume: 50,
        });
        assert_eq!(e.validate().unwrap_err().field, "music");
    }
}
