//! Clip templates (`/clip.merchant_ai_clip_template/*`, page /template_clip): a saved mix recipe — shot
//! slots with lengths, captions and transitions, subtitle style, music mood, title pattern and voice —
//! that is not tied to anyone's groups. "Use template" fills its slots with the merchant's own shot groups
//! (by name, or as the merchant picks them) and makes a quick-mix or advanced project from it.

use crate::clip::{Audio, GroupRule, ProjectConfig, Subtitles, TextStyle, Title, Transition};
use crate::i18n::{Lang, Msg};
use crate::validate::Invalid;
use serde::{Deserialize, Serialize};

/// The industries templates are filed under (`getCategory`), then the merchant's own ones.
pub const CATEGORIES: &[(&str, &str, &str)] = &[
    ("food", "餐饮美食", "Food & drink"),
    ("retail", "零售好物", "Retail"),
    ("beauty", "美业美妆", "Beauty"),
    ("education", "教育培训", "Education"),
    ("real_estate", "房产家居", "Real estate"),
    ("local_services", "本地生活", "Local services"),
    ("custom", "我的模板", "My templates"),
];

/// The category of templates merchants save from their projects.
pub const CUSTOM: &str = "custom";

pub fn category_name(key: &str, lang: Lang) -> String {
    CATEGORIES
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, zh, en)| if lang == Lang::En { *en } else { *zh })
        .unwrap_or(key)
        .to_string()
}

/// Music moods a template names; each maps to a built-in track by its name (docs/builtin-music.md),
/// so a template travels between merchants without naming anyone's files.
pub const MOODS: &[(&str, &str)] = &[
    ("calm", "C–G–Am–F"),
    ("light", "Arpeggio"),
    ("upbeat", "Pulse"),
    ("warm", "Bells"),
];

/// The mood of a built-in track (by its category, else its name), if it has one.
pub fn mood_of_track(name: &str, category: &str) -> Option<&'static str> {
    MOODS
        .iter()
        .find(|(m, prefix)| category == *m || name.starts_with(prefix))
        .map(|(m, _)| *m)
}

/// Which of the built-in tracks (id, name, category) plays a mood: the one of that mood, else the first.
pub fn track_for_mood(mood: &str, tracks: &[(i64, String, String)]) -> Option<i64> {
    tracks
        .iter()
        .find(|(_, n, c)| mood_of_track(n, c) == Some(mood))
        .or(tracks.first())
        .map(|(id, _, _)| *id)
}

/// One shot of a template: what kind of footage goes there (label and search words matched against
/// the merchant's group names) and how it is cut.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Slot {
    pub label: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub max_ms: i64,
    #[serde(default)]
    pub in_ms: i64,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub transition: Option<Transition>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct MusicPick {
    /// One of [`MOODS`].
    pub mood: String,
    #[serde(default = "sixty")]
    pub volume: i64,
}

fn sixty() -> i64 {
    60
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct TitlePattern {
    /// `{name}` is replaced by the project's name (or the one-touch topic); at most 20 characters result.
    pub pattern: String,
    #[serde(default)]
    pub style: TextStyle,
}

/// The AI voice a one-touch video reads its script with (a built-in TTS voice name).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct VoicePick {
    pub voice: String,
    #[serde(default = "hundred")]
    pub volume: i64,
    #[serde(default)]
    pub speed: i64,
}

fn hundred() -> i64 {
    100
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Recipe {
    pub slots: Vec<Slot>,
    #[serde(default)]
    pub subtitles: Subtitles,
    #[serde(default)]
    pub music: Option<MusicPick>,
    #[serde(default)]
    pub title: Option<TitlePattern>,
    #[serde(default)]
    pub voice: Option<VoicePick>,
    #[serde(default)]
    pub shot_style: Option<TextStyle>,
    #[serde(default = "three")]
    pub output_count: i64,
}

fn three() -> i64 {
    3
}

fn invalid(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Invalid {
    Invalid { field, msg, args }
}

impl Recipe {
    /// The same rules a project's settings follow (checked on the config it would make, with
    /// placeholder groups), plus a known mood and a non-blank slot label.
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.slots.iter().any(|s| s.label.trim().is_empty()) {
            return Err(invalid("slots", Msg::Required, vec![]));
        }
        if let Some(m) = &self.music {
            if !MOODS.iter().any(|(k, _)| *k == m.mood) {
                return Err(invalid(
                    "music",
                    Msg::InvalidValue,
                    vec![(
                        "reason",
                        MOODS
                            .iter()
                            .map(|(k, _)| *k)
                            .collect::<Vec<_>>()
                            .join(" | "),
                    )],
                ));
            }
        }
        let ids: Vec<i64> = (1..=self.slots.len() as i64).collect();
        let mut cfg = self.to_config(&ids, "", None, Some(1));
        // The subtitles' rule is about a voice-over material, which a template never names.
        cfg.subtitles.enabled = false;
        cfg.validate().map_err(|e| {
            if e.field == "groups" {
                Invalid {
                    field: "slots",
                    ..e
                }
            } else {
                e
            }
        })
    }

    /// The mode a project made from it has: advanced when a shot has a start, caption or transition.
    pub fn mode(&self) -> super::ProjectMode {
        let senior = self
            .slots
            .iter()
            .any(|s| s.in_ms > 0 || !s.text.trim().is_empty() || s.transition.is_some());
        if senior {
            super::ProjectMode::Senior
        } else {
            super::ProjectMode::Normal
        }
    }

    /// The title a project named `name` gets: the pattern with `{name}`, cut to the title limit.
    pub fn title_for(&self, name: &str) -> Option<Title> {
        let t = self.title.as_ref()?;
        let text: String = t
            .pattern
            .replace("{name}", name.trim())
            .chars()
            .take(crate::clip::MAX_TITLE_CHARS)
            .collect();
        Some(Title {
            text,
            texts: vec![],
            style: t.style.clone(),
        })
    }

    /// A project's settings from this recipe: `groups[i]` fills slot `i` (extra slots are dropped),
    /// `music` the built-in track chosen for the mood, `voice` a voice-over material when there is one
    /// (subtitles need it).
    pub fn to_config(
        &self,
        groups: &[i64],
        name: &str,
        music: Option<i64>,
        voice: Option<i64>,
    ) -> ProjectConfig {
        let groups = self
            .slots
            .iter()
            .zip(groups)
            .enumerate()
            .map(|(i, (s, g))| GroupRule {
                group_id: *g,
                max_ms: s.max_ms,
                in_ms: s.in_ms,
                text: s.text.clone(),
                // The last shot used has no next shot to go into.
                transition: s
                    .transition
                    .clone()
                    .filter(|_| i + 1 < groups.len().min(self.slots.len())),
                images: vec![],
            })
            .collect();
        let vol = self.voice.as_ref().map(|v| v.volume).unwrap_or(100);
        ProjectConfig {
            groups,
            music: match (&self.music, music) {
                (Some(m), Some(id)) => Some(Audio {
                    system_music_id: Some(id),
                    volume: m.volume,
                    ..Default::default()
                }),
                _ => None,
            },
            voice: voice.map(|id| Audio {
                media_id: Some(id),
                volume: vol,
                ..Default::default()
            }),
            subtitles: Subtitles {
                enabled: self.subtitles.enabled && voice.is_some(),
                style: self.subtitles.style.clone(),
            },
            title: self.title_for(name),
            cover_ms: 0,
            cover_vary: false,
            trim_vary: false,
            text_vary: false,
            output_count: self.output_count,
            shot_style: self
                .shot_style
                .clone()
                .unwrap_or_else(|| ProjectConfig::default_shot_style()),
        }
    }

    /// "Save as template": a project's settings with each group replaced by a slot named after it
    /// (`names` in group order), the built-in music's mood, the title as a pattern (the project's
    /// name becomes `{name}`). The merchant's own music and voice files do not travel.
    pub fn from_config(
        cfg: &ProjectConfig,
        names: &[String],
        project_name: &str,
        mood: Option<&str>,
    ) -> Recipe {
        let slots = cfg
            .groups
            .iter()
            .zip(names)
            .map(|(g, n)| Slot {
                label: n.clone(),
                tags: words(n),
                max_ms: g.max_ms,
                in_ms: g.in_ms,
                text: g.text.clone(),
                transition: g.transition.clone(),
            })
            .collect();
        let pname = project_name.trim();
        Recipe {
            slots,
            subtitles: cfg.subtitles.clone(),
            music: cfg.music.as_ref().and_then(|m| {
                mood.map(|mood| MusicPick {
                    mood: mood.to_string(),
                    volume: m.volume,
                })
            }),
            title: cfg
                .title
                .as_ref()
                .filter(|t| !t.text.trim().is_empty())
                .map(|t| TitlePattern {
                    pattern: if pname.is_empty() {
                        t.text.clone()
                    } else {
                        t.text.replace(pname, "{name}")
                    },
                    style: t.style.clone(),
                }),
            voice: None,
            shot_style: cfg.has_shot_texts().then(|| cfg.shot_style.clone()),
            output_count: cfg.output_count,
        }
    }
}

/// The search words of a label: its parts split on spaces and punctuation, lower-cased.
pub fn words(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || "/·,，、|-_()（）".contains(c))
        .map(|w| w.trim().to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// How well a group name fits a slot: label or tag words found in the name (or the name in them).
pub fn fit(slot: &Slot, group_name: &str) -> usize {
    let name = group_name.to_lowercase();
    let mut terms = words(&slot.label);
    terms.extend(slot.tags.iter().map(|t| t.to_lowercase()));
    terms.sort();
    terms.dedup();
    terms
        .iter()
        .filter(|t| name.contains(t.as_str()) || (!name.is_empty() && t.contains(&name)))
        .count()
}

/// A merchant's shot group as matching sees it.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: i64,
    pub name: String,
    pub ready: i64,
}

/// Fills a template's slots with the merchant's groups: slot by slot, the unused group with ready
/// clips whose name fits best (ties: more ready clips, then the merchant's order). Every slot gets a
/// group: when the groups with clips run out, the slots left without one are named in the refusal
/// (a 4-shot template silently became a 3-shot project), and the merchant adds groups or picks.
pub fn match_groups(slots: &[Slot], groups: &[Candidate]) -> Result<Vec<i64>, Invalid> {
    let usable: Vec<&Candidate> = groups.iter().filter(|g| g.ready > 0).collect();
    let n = slots.len();
    if n.min(usable.len()) < crate::clip::planner::MIN_GROUPS {
        return Err(invalid("groups", Msg::TooFewGroups, vec![]));
    }
    // Slots with a named fit choose first, so a generic slot does not take a group another one names.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| {
        std::cmp::Reverse(
            usable
                .iter()
                .map(|g| fit(&slots[i], &g.name))
                .max()
                .unwrap_or(0),
        )
    });
    let mut taken = vec![None; n];
    let mut used = std::collections::HashSet::new();
    for i in order {
        let best = usable
            .iter()
            .enumerate()
            .filter(|(_, g)| !used.contains(&g.id))
            .max_by_key(|(pos, g)| (fit(&slots[i], &g.name), g.ready, std::cmp::Reverse(*pos)))
            .map(|(_, g)| g.id);
        if let Some(id) = best {
            used.insert(id);
            taken[i] = Some(id);
        }
    }
    let unmatched: Vec<String> = taken
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_none())
        .map(|(i, _)| format!("#{} {}", i + 1, slots[i].label).trim().to_string())
        .collect();
    if !unmatched.is_empty() {
        return Err(invalid(
            "group_ids",
            Msg::SlotsUnmatched,
            vec![
                ("shots", unmatched.join(", ")),
                ("count", usable.len().to_string()),
                ("slots", n.to_string()),
            ],
        ));
    }
    Ok(taken.into_iter().flatten().collect())
}

fn slot(label: &str, tags: &[&str], max_ms: i64) -> Slot {
    Slot {
        label: label.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        max_ms,
        ..Default::default()
    }
}

fn with(mut s: Slot, text: &str, transition: Option<&str>) -> Slot {
    s.text = text.into();
    s.transition = transition.map(|k| Transition {
        kind: k.into(),
        ms: 500,
    });
    s
}

/// A built-in template: a stable key (seeded into the table under it), its industry, names and recipe.
pub struct Builtin {
    pub key: &'static str,
    pub category: &'static str,
    pub name: &'static str,
    pub name_en: &'static str,
    pub recipe: fn() -> Recipe,
}

fn style(size: i64, color: &str, position: &str) -> TextStyle {
    TextStyle {
        font_id: None,
        size,
        color: color.into(),
        position: position.into(),
    }
}

fn recipe(slots: Vec<Slot>, mood: &str, title: &str, voice: &str, title_color: &str) -> Recipe {
    Recipe {
        slots,
        subtitles: Subtitles {
            enabled: true,
            style: style(56, "#FFFFFF", "bottom"),
        },
        music: Some(MusicPick {
            mood: mood.into(),
            volume: 40,
        }),
        title: Some(TitlePattern {
            pattern: title.into(),
            style: style(72, title_color, "top"),
        }),
        voice: Some(VoicePick {
            voice: voice.into(),
            volume: 100,
            speed: 0,
        }),
        shot_style: None,
        output_count: 5,
    }
}

const STORE: &[&str] = &[
    "门店", "外景", "店铺", "门头", "store", "shop", "exterior", "open",
];
const CLOSE: &[&str] = &[
    "结尾", "地址", "联系", "logo", "end", "close", "contact", "address",
];

pub static BUILTINS: &[Builtin] = &[
    Builtin {
        key: "food-signature",
        category: "food",
        name: "招牌菜探店",
        name_en: "Signature dish visit",
        recipe: || {
            recipe(
                vec![
                    slot("门店外景", STORE, 3000),
                    slot(
                        "招牌菜",
                        &["菜", "招牌", "美食", "dish", "food", "middle"],
                        4000,
                    ),
                    slot(
                        "后厨制作",
                        &["后厨", "制作", "烹饪", "kitchen", "cooking"],
                        3000,
                    ),
                    slot("顾客用餐", &["顾客", "用餐", "diners", "guests"], 3000),
                    slot("结尾地址", CLOSE, 3000),
                ],
                "upbeat",
                "{name}·必吃招牌",
                "zf_xiaoxiao",
                "#FFD700",
            )
        },
    },
    Builtin {
        key: "food-new-menu",
        category: "food",
        name: "新品上市",
        name_en: "New on the menu",
        recipe: || {
            recipe(
                vec![
                    with(
                        slot("新品特写", &["新品", "特写", "new", "close-up"], 3000),
                        "新品上市",
                        Some("fade"),
                    ),
                    with(
                        slot("食材", &["食材", "原料", "ingredients"], 3000),
                        "",
                        Some("slideleft"),
                    ),
                    slot("出餐", &["出餐", "上菜", "serving", "dish"], 3000),
                    slot("门店", STORE, 3000),
                ],
                "light",
                "{name}新品尝鲜",
                "zf_xiaoxiao",
                "#FFFFFF",
            )
        },
    },
    Builtin {
        key: "retail-product",
        category: "retail",
        name: "爆款好物推荐",
        name_en: "Best-seller pick",
        recipe: || {
            recipe(
                vec![
                    slot("商品全景", &["商品", "产品", "product", "open"], 3000),
                    slot("细节特写", &["细节", "特写", "detail", "middle"], 3000),
                    slot("使用场景", &["使用", "场景", "use", "scene"], 4000),
                    slot(
                        "价格优惠",
                        &["价格", "优惠", "price", "offer", "close"],
                        3000,
                    ),
                ],
                "upbeat",
                "{name}·今日爆款",
                "zf_xiaoxiao",
                "#FF4D4F",
            )
        },
    },
    Builtin {
        key: "retail-store-tour",
        category: "retail",
        name: "门店逛逛",
        name_en: "Store tour",
        recipe: || {
            recipe(
                vec![
                    slot("门头", STORE, 3000),
                    with(
                        slot("货架", &["货架", "陈列", "shelf", "display"], 3000),
                        "",
                        Some("wipeleft"),
                    ),
                    slot("热卖区", &["热卖", "爆款", "hot", "best"], 3000),
                    slot("收银台", &["收银", "结账", "checkout", "counter"], 2000),
                ],
                "light",
                "逛{name}",
                "zm_yunjian",
                "#FFFFFF",
            )
        },
    },
    Builtin {
        key: "beauty-before-after",
        category: "beauty",
        name: "前后对比",
        name_en: "Before and after",
        recipe: || {
            recipe(
                vec![
                    with(
                        slot("护理前", &["前", "before"], 3000),
                        "Before",
                        Some("dissolve"),
                    ),
                    slot("护理过程", &["过程", "护理", "process", "care"], 4000),
                    with(
                        slot("护理后", &["后", "after", "效果"], 3000),
                        "After",
                        None,
                    ),
                    slot("环境", &["环境", "店内", "salon", "room"], 3000),
                ],
                "calm",
                "{name}·焕新对比",
                "zf_xiaoyi",
                "#FFC0CB",
            )
        },
    },
    Builtin {
        key: "beauty-product",
        category: "beauty",
        name: "美妆试色",
        name_en: "Swatch and try-on",
        recipe: || {
            recipe(
                vec![
                    slot("产品", &["产品", "product", "open"], 3000),
                    slot("试色", &["试色", "上妆", "swatch", "middle"], 4000),
                    slot("妆效", &["妆效", "效果", "look", "result"], 3000),
                    slot("门店", STORE, 2000),
                ],
                "warm",
                "{name}试色",
                "zf_xiaoyi",
                "#FFFFFF",
            )
        },
    },
    Builtin {
        key: "education-course",
        category: "education",
        name: "课程介绍",
        name_en: "Course introduction",
        recipe: || {
            recipe(
                vec![
                    slot("校区环境", &["校区", "环境", "campus", "school"], 3000),
                    slot("课堂", &["课堂", "上课", "class", "lesson"], 4000),
                    slot("老师", &["老师", "讲师", "teacher"], 3000),
                    slot(
                        "学员成果",
                        &["成果", "作品", "学员", "results", "students"],
                        3000,
                    ),
                ],
                "calm",
                "{name}·课程介绍",
                "zm_yunjian",
                "#1677FF",
            )
        },
    },
    Builtin {
        key: "education-tips",
        category: "education",
        name: "干货小知识",
        name_en: "Quick tips",
        recipe: || {
            recipe(
                vec![
                    with(
                        slot("提问", &["问题", "提问", "question", "open"], 3000),
                        "你知道吗？",
                        Some("fade"),
                    ),
                    slot("讲解", &["讲解", "板书", "explain", "middle"], 5000),
                    slot("总结", &["总结", "summary", "close"], 3000),
                ],
                "light",
                "{name}小知识",
                "zf_xiaoxiao",
                "#FFFFFF",
            )
        },
    },
    Builtin {
        key: "real-estate-tour",
        category: "real_estate",
        name: "看房带看",
        name_en: "House tour",
        recipe: || {
            recipe(
                vec![
                    slot(
                        "小区外景",
                        &["小区", "外景", "楼盘", "exterior", "open"],
                        3000,
                    ),
                    with(
                        slot("客厅", &["客厅", "living"], 3000),
                        "",
                        Some("slideleft"),
                    ),
                    with(
                        slot("卧室", &["卧室", "bedroom"], 3000),
                        "",
                        Some("slideleft"),
                    ),
                    slot("厨卫", &["厨房", "卫生间", "kitchen", "bath"], 3000),
                    slot("周边配套", &["配套", "周边", "area", "close"], 3000),
                ],
                "warm",
                "{name}实景看房",
                "zm_yunjian",
                "#FFFFFF",
            )
        },
    },
    Builtin {
        key: "real-estate-decor",
        category: "real_estate",
        name: "装修案例",
        name_en: "Renovation case",
        recipe: || {
            recipe(
                vec![
                    slot("施工前", &["施工前", "毛坯", "before"], 3000),
                    slot("施工中", &["施工", "工地", "work"], 3000),
                    slot("完工", &["完工", "效果", "after", "finished"], 4000),
                ],
                "calm",
                "{name}装修实拍",
                "zm_yunjian",
                "#FFD700",
            )
        },
    },
    Builtin {
        key: "local-services-shop",
        category: "local_services",
        name: "到店服务",
        name_en: "In-store service",
        recipe: || {
            recipe(
                vec![
                    slot("门店", STORE, 3000),
                    slot("服务过程", &["服务", "过程", "service", "middle"], 4000),
                    slot(
                        "顾客好评",
                        &["顾客", "好评", "评价", "review", "customer"],
                        3000,
                    ),
                    slot(
                        "团购优惠",
                        &["团购", "优惠", "deal", "offer", "close"],
                        3000,
                    ),
                ],
                "upbeat",
                "{name}·到店有礼",
                "zf_xiaoxiao",
                "#FF4D4F",
            )
        },
    },
    Builtin {
        key: "local-services-fitness",
        category: "local_services",
        name: "健身打卡",
        name_en: "Gym check-in",
        recipe: || {
            recipe(
                vec![
                    with(
                        slot("场馆", &["场馆", "健身房", "gym", "open"], 3000),
                        "",
                        Some("circleopen"),
                    ),
                    slot("器械训练", &["器械", "训练", "training", "middle"], 3000),
                    slot("团课", &["团课", "课程", "class"], 3000),
                    slot("教练", &["教练", "coach", "close"], 3000),
                ],
                "upbeat",
                "{name}打卡",
                "zm_yunjian",
                "#FFFFFF",
            )
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_cover_every_industry_and_are_valid() {
        assert!(BUILTINS.len() >= 12);
        for (cat, _, _) in CATEGORIES.iter().filter(|(k, _, _)| *k != CUSTOM) {
            assert!(
                BUILTINS.iter().filter(|b| b.category == *cat).count() >= 2,
                "{cat}"
            );
        }
        let mut keys = std::collections::HashSet::new();
        for b in BUILTINS {
            assert!(keys.insert(b.key), "{} twice", b.key);
            let r = (b.recipe)();
            r.validate().unwrap_or_else(|e| panic!("{}: {e:?}", b.key));
            assert!(r.slots.len() >= 3);
            assert!(category_name(b.category, Lang::En) != b.category);
        }
    }

    fn cand(id: i64, name: &str, ready: i64) -> Candidate {
        Candidate {
            id,
            name: name.into(),
            ready,
        }
    }

    #[test]
    fn slots_take_the_groups_named_for_them() {
        let r = (BUILTINS[0].recipe)();
        let groups = [
            cand(1, "顾客用餐", 3),
            cand(2, "门店外景", 2),
            cand(3, "空组", 0),
            cand(4, "招牌菜特写", 5),
            cand(5, "结尾地址", 1),
            cand(6, "后厨制作", 2),
        ];
        assert_eq!(
            match_groups(&r.slots, &groups).unwrap(),
            vec![2, 4, 6, 1, 5]
        );
        // Fewer usable groups than slots: the slots left without a group are named (the least
        // fitting ones), not dropped; fewer than three is refused.
        let e = match_groups(&r.slots, &groups[..4]).unwrap_err();
        assert_eq!((e.field, e.msg), ("group_ids", Msg::SlotsUnmatched));
        assert_eq!(
            e.args,
            vec![
                ("shots", "#3 后厨制作, #5 结尾地址".to_string()),
                ("count", "3".to_string()),
                ("slots", "5".to_string())
            ]
        );
        let e = match_groups(&r.slots, &groups[..3]).unwrap_err();
        assert_eq!(e.msg, Msg::TooFewGroups);
    }

    #[test]
    fn a_project_round_trips_through_a_recipe() {
        let cfg = ProjectConfig {
            groups: vec![
                GroupRule {
                    group_id: 7,
                    max_ms: 2000,
                    transition: Some(Transition {
                        kind: "fade".into(),
                        ms: 400,
                    }),
                    ..Default::default()
                },
                GroupRule {
                    group_id: 8,
                    text: "第二镜".into(),
                    ..Default::default()
                },
                GroupRule {
                    group_id: 9,
                    in_ms: 500,
                    ..Default::default()
                },
            ],
            music: Some(Audio {
                system_music_id: Some(3),
                volume: 55,
                ..Default::default()
            }),
            title: Some(Title {
                text: "春季上新·小店".into(),
                texts: vec![],
                style: TextStyle::default(),
            }),
            output_count: 4,
            ..Default::default()
        };
        let names = ["Open", "Middle", "Close"].map(String::from);
        let r = Recipe::from_config(&cfg, &names, "小店", Some("calm"));
        r.validate().unwrap();
        assert_eq!(r.title.as_ref().unwrap().pattern, "春季上新·{name}");
        assert_eq!(r.mode(), super::super::ProjectMode::Senior);
        let back = r.to_config(&[17, 18, 19], "新店", Some(30), None);
        assert_eq!(
            back.groups.iter().map(|g| g.group_id).collect::<Vec<_>>(),
            vec![17, 18, 19]
        );
        assert_eq!(back.groups[0].transition, cfg.groups[0].transition);
        assert_eq!(
            (back.groups[1].text.as_str(), back.groups[2].in_ms),
            ("第二镜", 500)
        );
        assert_eq!(back.title.unwrap().text, "春季上新·新店");
        assert_eq!(back.music.unwrap().system_music_id, Some(30));
        assert_eq!(back.output_count, 4);
        // Two slots filled only: the transition into a missing shot is dropped.
        let short = r.to_config(&[1, 2], "x", None, None);
        assert!(short.groups[1].transition.is_none());
        let tracks = vec![
            (1, "C–G–Am–F · 90 BPM".to_string(), String::new()),
            (2, "Pulse · 100 BPM".to_string(), String::new()),
        ];
        assert_eq!(track_for_mood("upbeat", &tracks), Some(2));
        assert_eq!(track_for_mood("warm", &tracks), Some(1));
        assert_eq!(track_for_mood("warm", &[]), None);
    }
}
