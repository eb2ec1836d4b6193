//! Hot lists (SPEC §2 /hotmusic, /keywords, /hotvideo, /hottopic, /life, /doyen): one read per page,
//! `board` choosing among the page's boards, answered from the cache the job
//! `content.hotlist_sync` fills (services::content::hotlists); and the operator's "refresh now".

use crate::LangOf;
use crate::error::{Answer, Reply, reply};
use crate::extract::Input;
use crate::state::AppState;
use crate::words::localize_error;
use axum::extract::State;
use domain::content::hotlists::HotPage;
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::content::hotlists as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(music))
        .routes(routes!(keywords))
        .routes(routes!(video))
        .routes(routes!(topic))
        .routes(routes!(life))
        .routes(routes!(doyen))
        .routes(routes!(refresh))
}

/// A video under a creator of a creator board.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = HotVideoRef)]
pub struct HotVideoView {
    pub title: String,
    pub cover: String,
    pub share_url: String,
}

/// One row of a board; what a board's kind lacks is empty / 0.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = HotRow)]
pub struct HotRowView {
    pub rank: u32,
    /// Video title, topic, hot word, song title or creator nickname.
    pub title: String,
    /// Video or song author.
    pub author: String,
    /// Cover, or a creator's avatar.
    pub cover: String,
    pub share_url: String,
    /// Heat: hot value, effect value, song use count or hot-search level.
    pub heat: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    /// Songs: seconds.
    pub duration: i64,
    pub followers: i64,
    /// "+3", "-2", "0", "new" or "".
    pub rank_change: String,
    /// Hot-search badge: 新 荐 热 爆 首发 or "".
    pub label: String,
    /// A hot video's hot words (topics to post with).
    pub hot_words: Vec<String>,
    pub videos: Vec<HotVideoView>,
}

/// A board as cached.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = HotBoard)]
pub struct HotBoardView {
    /// The board shown.
    pub board: String,
    /// The page's boards, the default first.
    pub boards: Vec<String>,
    pub platform: domain::platform::DyOnly,
    /// The platform's China day of the data (YYYY-MM-DD), "" before the first read.
    pub day: String,
    /// Last good read (platform clock, ms); 0 = not read yet, a read is queued.
    pub fetched_at: i64,
    /// Why the last read failed, in the caller's language ("" when it did not).
    pub last_error: String,
    /// The rows came from the sandbox: the page marks them "模拟数据 / Simulated".
    pub simulated: bool,
    pub rows: Vec<HotRowView>,
}

#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    pub board: Option<String>,
}

async fn board(st: &AppState, lang: Lang, page: HotPage, q: BoardQuery) -> Answer<HotBoardView> {
    let b = uc::read(&st.db, page, q.board.as_deref()).await?;
    Ok(reply(HotBoardView {
        board: b.board.to_string(),
        boards: page.boards().iter().map(|s| s.to_string()).collect(),
        platform: uc::PLATFORM,
        day: b.day,
        fetched_at: b.fetched_at,
        simulated: b.simulated,
        last_error: if b.last_error.is_empty() {
            String::new()
        } else {
            localize_error(&b.last_error, lang)
        },
        rows: b
            .rows
            .into_iter()
            .map(|e| HotRowView {
                rank: e.rank,
                title: e.title,
                author: e.author,
                cover: e.cover,
                share_url: e.share_url,
                heat: e.heat,
                plays: e.plays,
                likes: e.likes,
                comments: e.comments,
                duration: e.duration,
                followers: e.followers,
                rank_change: e.rank_change,
                label: e.label,
                hot_words: e.hot_words,
                videos: e
                    .videos
                    .into_iter()
                    .map(|v| HotVideoView {
                        title: v.title,
                        cover: v.cover,
                        share_url: v.share_url,
                    })
                    .collect(),
            })
            .collect(),
    }))
}

// Each hot-list page's boards (`board`; empty: the first), for the document only.

/// The boards of `/content.hot_list/music_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum MusicBoard {
    MusicHot,
    MusicSoar,
    MusicOriginal,
}

/// The boards of `/content.hot_list/keywords_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum KeywordsBoard {
    Keywords,
}

/// The boards of `/content.hot_list/video_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum VideoBoard {
    HotVideo,
}

/// The boards of `/content.hot_list/topic_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum TopicBoard {
    Topic,
}

/// The boards of `/content.hot_list/life_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum LifeBoard {
    Food,
    FoodShop,
    Travel,
}

/// The boards of `/content.hot_list/doyen_index`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum DoyenBoard {
    Stars,
    Amusement,
    Sport,
    Drama,
    Car,
    Game,
}

#[utoipa::path(method(get, post), path = "/content.hot_list/music_index", tag = "content", params(("board" = Option<MusicBoard>, Query, description = "music_hot | music_soar | music_original")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn music(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Music, q).await
}

#[utoipa::path(method(get, post), path = "/content.hot_list/keywords_index", tag = "content", params(("board" = Option<KeywordsBoard>, Query, description = "keywords")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn keywords(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Keywords, q).await
}

#[utoipa::path(method(get, post), path = "/content.hot_list/video_index", tag = "content", params(("board" = Option<VideoBoard>, Query, description = "hot_video")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn video(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Video, q).await
}

#[utoipa::path(method(get, post), path = "/content.hot_list/topic_index", tag = "content", params(("board" = Option<TopicBoard>, Query, description = "topic")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn topic(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Topic, q).await
}

#[utoipa::path(method(get, post), path = "/content.hot_list/life_index", tag = "content", params(("board" = Option<LifeBoard>, Query, description = "food | food_shop | travel")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn life(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Life, q).await
}

#[utoipa::path(method(get, post), path = "/content.hot_list/doyen_index", tag = "content", params(("board" = Option<DoyenBoard>, Query, description = "stars | amusement | sport | drama | car | game")), responses((status = 200, body = Reply<HotBoardView>)))]
pub async fn doyen(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(q): Input<BoardQuery>,
) -> Answer<HotBoardView> {
    board(&st, lang, HotPage::Doyen, q).await
}

/// How many board reads were queued.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = HotRefreshQueued)]
pub struct Queued {
    pub queued: usize,
}

#[utoipa::path(post, path = "/system/content/hot_refresh", tag = "content", responses((status = 200, body = Reply<Queued>, description = "every board queued for a read now")))]
pub async fn refresh(State(st): State<AppState>) -> Answer<Queued> {
    let queued = uc::refresh_all(&st.db, st.db.clock.platform_now()).await?;
    Ok(reply(Queued { queued }))
}
