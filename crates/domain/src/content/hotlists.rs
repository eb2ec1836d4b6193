//! Hot lists (SPEC §2 "Hot lists": /hotmusic, /keywords, /hotvideo, /hottopic, /life,
//! /doyen): which platform boards each page shows and how long a cached board stays fresh. The
//! boards are read through the platform adapters by the job `content.hotlist_sync` and kept in the
//! `hot_boards` cache (migration 0017); pages read the cache.

use crate::i18n::Msg;
use crate::validate::Invalid;

/// The board read with the adapter's hot-search call (the others are billboards).
pub const KEYWORDS_BOARD: &str = "keywords";

/// A cached board is read again once it is this old (platform time). The platforms renew their
/// billboards daily; an hour keeps the hot-search list current without hammering the API.
pub const REFRESH_MS: i64 = 3_600_000;

crate::text_enum! {
    /// The six hot-list pages.
    pub enum HotPage {
        /// /hotmusic — music boards (hot, rising, original).
        Music = "music",
        /// /keywords — the hot-search words.
        Keywords = "keywords",
        /// /hotvideo — the hot-video board.
        Video = "video",
        /// /hottopic — the topic board.
        Topic = "topic",
        /// /life — the local-life creator boards (food, shop visits, travel).
        Life = "life",
        /// /doyen — the creator (达人) boards by category.
        Doyen = "doyen",
    }
}
impl HotPage {
    /// The page's boards, the default first (codes of `platforms::Board`, plus [`KEYWORDS_BOARD`]).
    pub fn boards(self) -> &'static [&'static str] {
        match self {
            HotPage::Music => &["music_hot", "music_soar", "music_original"],
            HotPage::Keywords => &[KEYWORDS_BOARD],
            HotPage::Video => &["hot_video"],
            HotPage::Topic => &["topic"],
            HotPage::Life => &["food", "food_shop", "travel"],
            HotPage::Doyen => &["stars", "amusement", "sport", "drama", "car", "game"],
        }
    }

    /// The board asked for (trimmed; empty = the page's default), refused when not the page's.
    pub fn board(self, asked: Option<&str>) -> Result<&'static str, Invalid> {
        let asked = asked.map(str::trim).unwrap_or("");
        if asked.is_empty() {
            return Ok(self.boards()[0]);
        }
        self.boards()
            .iter()
            .copied()
            .find(|b| *b == asked)
            .ok_or_else(|| Invalid {
                field: "board",
                msg: Msg::HotBoardUnknown,
                args: vec![
                    ("board", asked.chars().take(40).collect()),
                    ("allowed", self.boards().join(", ")),
                ],
            })
    }
}

/// Every board of every page, each once.
pub fn all_boards() -> Vec<&'static str> {
    HotPage::ALL
        .iter()
        .flat_map(|p| p.boards())
        .copied()
        .collect()
}

/// A board needs reading when it never was or its last read is older than [`REFRESH_MS`].
pub fn is_stale(fetched_at: Option<i64>, now: i64) -> bool {
    fetched_at.is_none_or(|t| now - t >= REFRESH_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_pick_their_boards() {
        assert_eq!(HotPage::Music.board(None).unwrap(), "music_hot");
        assert_eq!(
            HotPage::Music.board(Some(" music_soar ")).unwrap(),
            "music_soar"
        );
        assert_eq!(HotPage::Doyen.board(Some("")).unwrap(), "stars");
        let e = HotPage::Topic.board(Some("music_hot")).unwrap_err();
        assert_eq!((e.field, e.msg), ("board", Msg::HotBoardUnknown));
        assert_eq!(e.args[1].1, "topic");
        let all = all_boards();
        let mut dedup = all.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(all.len(), dedup.len());
        assert_eq!(all.len(), 15);
    }

    #[test]
    fn staleness() {
        assert!(is_stale(None, 5));
        assert!(!is_stale(Some(1_000), 1_000 + REFRESH_MS - 1));
        assert!(is_stale(Some(1_000), 1_000 + REFRESH_MS));
    }
}
