//! `/seo.merchant_keywords/*`: keyword search and mining, the hot list, collected words.

use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdsReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::seo::search as uc;
use utoipa::ToSchema;

use domain::platform::SearchPlatform;

#[derive(Debug, Deserialize, ToSchema)]
pub struct WordReq {
    /// dy | ks
    #[serde(default)]
    #[schema(required = true, value_type = SearchPlatform)]
    pub platform: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub word: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchWordView {
    pub word: String,
    pub kind: domain::seo::SearchWordKind,
    pub heat: i64,
    /// The last 7 days, oldest first.
    pub trend: Vec<i64>,
    /// Today against the first day of `trend` (6 days earlier): (today − then) / then; 0 when then is 0.
    pub change: f64,
    pub collected: bool,
    /// The merchant's posted titles carrying the word.
    pub covered: i64,
    /// 1: the seed's words; 2: the words of a level-1 word (`excavate`).
    pub depth: u8,
    pub parent: String,
}

/// `{rows, source}`: SEO figures with where they come from (`none`: no configured source provides
/// them, `rows` is empty and the console names the source that would; `sandbox`: simulated).
#[derive(Debug, Serialize, ToSchema)]
pub struct Sourced<T> {
    pub rows: Vec<T>,
    pub source: domain::seo::DataSource,
}

/// The change the console shows as "vs 7 days ago" (the platform's own ratio is day over day).
fn week_change(trend: &[i64]) -> f64 {
    match (trend.first(), trend.last()) {
        (Some(&then), Some(&now)) if then > 0 => (now - then) as f64 / then as f64,
        _ => 0.0,
    }
}

fn view(f: uc::Found) -> SearchWordView {
    let change = week_change(&f.word.trend);
    SearchWordView {
        kind: f.word.kind,
        word: f.word.word,
        heat: f.word.heat,
        trend: f.word.trend,
        change,
        collected: f.collected,
        covered: f.covered,
        depth: f.depth,
        parent: f.parent,
    }
}

#[utoipa::path(post, path = "/seo.merchant_keywords/search", tag = "seo", request_body = WordReq, responses((status = 200, body = Reply<Sourced<SearchWordView>>)))]
pub async fn search(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WordReq>,
) -> Answer<Sourced<SearchWordView>> {
    let (rows, source) = uc::search(&st.hub, c.merchant_id()?, &r.platform, &r.word).await?;
    Ok(reply(Sourced {
        rows: rows.into_iter().map(view).collect(),
        source,
    }))
}

#[utoipa::path(post, path = "/seo.merchant_keywords/excavate", tag = "seo", request_body = WordReq, responses((status = 200, body = Reply<Sourced<SearchWordView>>)))]
pub async fn excavate(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WordReq>,
) -> Answer<Sourced<SearchWordView>> {
    let (rows, source) = uc::excavate(&st.hub, c.merchant_id()?, &r.platform, &r.word).await?;
    Ok(reply(Sourced {
        rows: rows.into_iter().map(view).collect(),
        source,
    }))
}

/// A video Douyin's keyword video search found (anyone's, posted in the last day).
#[derive(Debug, Serialize, ToSchema)]
pub struct KeywordVideoView {
    pub sec_item_id: String,
    pub title: String,
    pub cover: String,
    /// Unix ms.
    pub created_at: i64,
    pub share_url: String,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct KeywordReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub word: String,
}

/// Douyin's keyword video search: the last day's videos for a word (`source` none: no Douyin
/// account of the merchant granted `video.search`).
#[utoipa::path(post, path = "/seo.merchant_keywords/videos", tag = "seo", request_body = KeywordReq, responses((status = 200, body = Reply<Sourced<KeywordVideoView>>)))]
pub async fn videos(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<KeywordReq>,
) -> Answer<Sourced<KeywordVideoView>> {
    let (rows, source) = uc::videos(&st.hub, c.merchant_id()?, &r.word).await?;
    Ok(reply(Sourced {
        source,
        rows: rows
            .into_iter()
            .map(|v| KeywordVideoView {
                sec_item_id: v.sec_item_id,
                title: v.title,
                cover: v.cover,
                created_at: v.create_time * 1000,
                share_url: v.share_url,
                plays: v.stats.play,
                likes: v.stats.like,
                comments: v.stats.comment,
                shares: v.stats.share,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = HotReq)]
pub struct PlatformReq {
    #[serde(default)]
    pub platform: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HotWordView {
    pub rank: u32,
    pub word: String,
    pub heat: i64,
    pub label: String,
    pub collected: bool,
}

#[utoipa::path(method(get, post), path = "/seo.merchant_keywords/hot", tag = "seo", responses((status = 200, body = Reply<Sourced<HotWordView>>)))]
pub async fn hot(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PlatformReq>,
) -> Answer<Sourced<HotWordView>> {
    let platform = if r.platform.is_empty() {
        "dy"
    } else {
        r.platform.as_str()
    };
    let (rows, source) = uc::hot(&st.hub, c.merchant_id()?, platform).await?;
    Ok(reply(Sourced {
        source,
        rows: rows
            .into_iter()
            .map(|h| HotWordView {
                rank: h.word.rank,
                word: h.word.word,
                heat: h.word.hot_level,
                label: h.word.label,
                collected: h.collected,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CollectReq {
    #[serde(default)]
    #[schema(required = true, value_type = SearchPlatform)]
    pub platform: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub word: String,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub heat: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CollectedView {
    pub id: i64,
    pub word: String,
    pub platform: SearchPlatform,
    pub heat: i64,
    pub covered: i64,
    pub created_at: i64,
}

fn collected(r: services::seo::library::CollectedRow, covered: i64) -> CollectedView {
    CollectedView {
        id: r.id,
        word: r.word,
        platform: r.platform,
        heat: r.heat,
        covered,
        created_at: r.created_at,
    }
}

#[utoipa::path(post, path = "/seo.merchant_keywords/collect", tag = "seo", request_body = CollectReq, responses((status = 200, body = Reply<CollectedView>)))]
pub async fn collect(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<CollectReq>,
) -> Answer<CollectedView> {
    let (row, covered) = uc::collect(
        &st.db,
        c.merchant_id()?,
        &r.platform,
        &r.word,
        r.heat,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(collected(row, covered)))
}

#[derive(Debug, Deserialize)]
pub struct ListReq {
    #[serde(flatten)]
    pub list: ListQuery,
    pub word: Option<String>,
    pub platform: Option<String>,
}

#[utoipa::path(method(get, post), path = "/seo.merchant_keywords/list", tag = "seo", responses((status = 200, body = Reply<Page<CollectedView>>)))]
pub async fn list(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ListReq>,
) -> Answer<Page<CollectedView>> {
    let lq = q
        .list
        .with_filter(
            "word",
            q.word.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter(
            "platform",
            q.platform.as_deref().filter(|s| !s.is_empty()),
            "=",
        );
    let (rows, total) = uc::collected(&st.db, c.merchant_id()?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(|(r, n)| collected(r, n)).collect(),
        total,
    )))
}

#[utoipa::path(post, path = "/seo.merchant_keywords/delete", tag = "seo", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    uc::delete_collected(&st.db, c.merchant_id()?, &r.all("id")?).await?;
    Ok(reply(Done {}))
}
