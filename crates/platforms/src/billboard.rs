//! The platforms' billboards (hot lists): Douyin's open-platform "data open" billboards
//! (`/data/extern/billboard/...`: hot videos, topics, music, and the creator boards per category).
//! The types are the product's; wire formats stay in the adapters. What each board maps to on the
//! real host: docs/content-platforms.md.

use crate::http::{num, text};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A billboard. `code()` is the product's name for it (what the hot-list cache stores), `path()` the
/// Douyin open-platform endpoint it is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Board {
    /// 热门视频榜: videos with plays, likes, comments, hot words and heat.
    HotVideo,
    /// 话题榜: topics with their effect value and rank change.
    Topic,
    /// 音乐榜 — 热歌 / 飙升 / 原创.
    MusicHot,
    MusicSoar,
    MusicOriginal,
    /// Creator boards (达人榜) per category: nickname, avatar, followers, effect value, top videos.
    Stars,
    Amusement,
    Sport,
    Drama,
    Car,
    Game,
    /// The local-life creator boards (美食, 探店, 旅游).
    Food,
    FoodShop,
    Travel,
}

/// What kind of rows a board answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardShape {
    Video,
    Topic,
    Music,
    Creator,
}

impl Board {
    pub const ALL: [Board; 14] = [
        Board::HotVideo,
        Board::Topic,
        Board::MusicHot,
        Board::MusicSoar,
        Board::MusicOriginal,
        Board::Stars,
        Board::Amusement,
        Board::Sport,
        Board::Drama,
        Board::Car,
        Board::Game,
        Board::Food,
        Board::FoodShop,
        Board::Travel,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Board::HotVideo => "hot_video",
            Board::Topic => "topic",
            Board::MusicHot => "music_hot",
            Board::MusicSoar => "music_soar",
            Board::MusicOriginal => "music_original",
            Board::Stars => "stars",
            Board::Amusement => "amusement",
            Board::Sport => "sport",
            Board::Drama => "drama",
            Board::Car => "car",
            Board::Game => "game",
            Board::Food => "food",
            Board::FoodShop => "food_shop",
            Board::Travel => "travel",
        }
    }

    pub fn from_code(code: &str) -> Option<Board> {
        Board::ALL.into_iter().find(|b| b.code() == code)
    }

    /// The open-platform path (trailing slash as Douyin writes it).
    pub fn path(self) -> &'static str {
        match self {
            Board::HotVideo => "/data/extern/billboard/hot_video/",
            Board::Topic => "/data/extern/billboard/topic/",
            Board::MusicHot => "/data/extern/billboard/music/hot/",
            Board::MusicSoar => "/data/extern/billboard/music/soar/",
            Board::MusicOriginal => "/data/extern/billboard/music/original/",
            Board::Stars => "/data/extern/billboard/stars/",
            Board::Amusement => "/data/extern/billboard/amusement/overall/",
            Board::Sport => "/data/extern/billboard/sport/overall/",
            Board::Drama => "/data/extern/billboard/drama/overall/",
            Board::Car => "/data/extern/billboard/car/overall/",
            Board::Game => "/data/extern/billboard/game/console/",
            Board::Food => "/data/extern/billboard/food/overall/",
            Board::FoodShop => "/data/extern/billboard/food/shop/",
            Board::Travel => "/data/extern/billboard/travel/overall/",
        }
    }

    pub fn shape(self) -> BoardShape {
        match self {
            Board::HotVideo => BoardShape::Video,
            Board::Topic => BoardShape::Topic,
            Board::MusicHot | Board::MusicSoar | Board::MusicOriginal => BoardShape::Music,
            _ => BoardShape::Creator,
        }
    }
}

/// One video shown under a creator of a creator board.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardVideo {
    pub title: String,
    pub cover: String,
    pub share_url: String,
}

/// One row of a billboard; the fields a board's shape does not have stay empty / 0.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardEntry {
    /// 1 = top.
    pub rank: u32,
    /// Video title, topic, song title or creator nickname.
    pub title: String,
    /// Video author or song author.
    #[serde(default)]
    pub author: String,
    /// Cover (video, song) or avatar (creator).
    #[serde(default)]
    pub cover: String,
    #[serde(default)]
    pub share_url: String,
    /// Heat (videos: `hot_value`; topics and creators: `effect_value`; songs: `use_count`).
    #[serde(default)]
    pub heat: i64,
    #[serde(default)]
    pub plays: i64,
    #[serde(default)]
    pub likes: i64,
    #[serde(default)]
    pub comments: i64,
    /// Songs: seconds.
    #[serde(default)]
    pub duration: i64,
    #[serde(default)]
    pub followers: i64,
    /// As the platform gives it ("+3", "-2", "0", "new" …); empty when it gives none.
    #[serde(default)]
    pub rank_change: String,
    /// A hot-search word's badge ("新", "荐", "热", "爆", "首发"; "" none).
    #[serde(default)]
    pub label: String,
    /// A hot video's hot words (what to tag a post with).
    #[serde(default)]
    pub hot_words: Vec<String>,
    #[serde(default)]
    pub videos: Vec<BoardVideo>,
}

/// Reads one list entry of `board` (lenient: numbers may come as strings or decimals).
pub(crate) fn entry(board: Board, v: &Value, index: usize) -> BoardEntry {
    let rank = match num(v, "rank") {
        r if r > 0 => r as u32,
        _ => index as u32 + 1,
    };
    let dec = |k: &str| -> i64 {
        v.get(k)
            .and_then(|x| x.as_f64().or_else(|| x.as_str()?.trim().parse().ok()))
            .map(|f| f.round() as i64)
            .unwrap_or(0)
    };
    let mut e = BoardEntry {
        rank,
        title: text(v, "title"),
        share_url: text(v, "share_url"),
        rank_change: text(v, "rank_change"),
        ..BoardEntry::default()
    };
    match board.shape() {
        BoardShape::Video => {
            e.author = text(v, "author");
            e.cover = text(v, "item_cover");
            e.heat = dec("hot_value");
            e.plays = num(v, "play_count");
            e.likes = num(v, "digg_count");
            e.comments = num(v, "comment_count");
            // `hot_words` is one string ("火锅,成都美食" — separators vary).
            e.hot_words = text(v, "hot_words")
                .split([',', '，', '#', ' ', '、'])
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect();
        }
        BoardShape::Topic => e.heat = dec("effect_value"),
        BoardShape::Music => {
            e.author = text(v, "author");
            e.cover = text(v, "cover");
            e.duration = num(v, "duration");
            e.heat = num(v, "use_count");
        }
        BoardShape::Creator => {
            e.title = text(v, "nickname");
            e.cover = text(v, "avatar");
            e.followers = num(v, "follower_count");
            e.heat = dec("effect_value");
            e.videos = v
                .get("video_list")
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .map(|x| BoardVideo {
                            title: text(x, "title"),
                            cover: text(x, "item_cover"),
                            share_url: text(x, "share_url"),
                        })
                        .collect()
                })
                .unwrap_or_default();
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn codes_round_trip_and_paths_are_the_open_platforms() {
        for b in Board::ALL {
            assert_eq!(Board::from_code(b.code()), Some(b));
            assert!(b.path().starts_with("/data/extern/billboard/") && b.path().ends_with('/'));
        }
        assert_eq!(Board::from_code("nope"), None);
    }

    #[test]
    fn entries_read_each_shape() {
        let v = json!({"rank": 2, "title": "t", "author": "a", "item_cover": "c", "hot_value": "1234.6",
            "play_count": "10", "digg_count": 3, "comment_count": 1, "hot_words": "火锅，成都美食, 探店"});
        let e = entry(Board::HotVideo, &v, 0);
        assert_eq!((e.rank, e.heat, e.plays, e.likes), (2, 1235, 10, 3));
        assert_eq!(e.hot_words, ["火锅", "成都美食", "探店"]);
        let c = json!({"nickname": "n", "avatar": "x", "follower_count": 5, "effect_value": 9.4,
            "video_list": [{"title": "v", "item_cover": "c", "share_url": "s"}]});
        let e = entry(Board::Food, &c, 4);
        assert_eq!(
            (e.rank, e.title.as_str(), e.heat, e.videos.len()),
            (5, "n", 9, 1)
        );
        let m = json!({"title": "song", "author": "s", "duration": 31, "use_count": "88"});
        let e = entry(Board::MusicSoar, &m, 0);
        assert_eq!((e.duration, e.heat), (31, 88));
    }
}
