//! `/seo.benchmark/*`: benchmark (competitor) accounts and what their public works show.

use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::seo::benchmark as uc;
use utoipa::ToSchema;

const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Serialize, ToSchema)]
pub struct BenchmarkView {
    pub id: i64,
    pub platform: domain::platform::DyOnly,
    pub account_id: String,
    pub nickname: String,
    pub avatar: String,
    pub share_url: String,
    pub followers: i64,
    pub likes: i64,
    pub works: i64,
    /// Works posted in the last 7 days (platform time).
    pub posts_7d: i64,
    /// Plays of those works.
    pub plays_7d: i64,
    pub last_sync_at: i64,
    /// Why the last sync failed, in the caller's language; empty when it worked.
    pub last_error: String,
    pub created_at: i64,
    /// Where the figures (followers, likes, works and their plays) were last read from; `none`
    /// for an account not read since sources were kept.
    pub source: domain::seo::DataSource,
}

async fn view(
    st: &AppState,
    b: uc::BenchmarkRow,
    lang: Lang,
) -> services::ApiResult<BenchmarkView> {
    let (posts_7d, plays_7d) =
        uc::posts_since(&st.db, b.id, st.db.clock.platform_now() - 7 * DAY_MS).await?;
    Ok(BenchmarkView {
        posts_7d,
        plays_7d,
        last_error: crate::words::localize_error(&b.last_error, lang),
        id: b.id,
        platform: b.platform,
        account_id: b.account_id,
        nickname: b.nickname,
        avatar: b.avatar,
        share_url: b.share_url,
        followers: b.followers,
        likes: b.likes,
        works: b.works,
        last_sync_at: b.last_sync_at,
        created_at: b.created_at,
        source: domain::seo::DataSource::parse(&b.source).unwrap_or(domain::seo::DataSource::None),
    })
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub nickname: Option<String>,
}

#[utoipa::path(method(get, post), path = "/seo.benchmark/index", tag = "seo", responses((status = 200, body = Reply<Page<BenchmarkView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<BenchmarkView>> {
    let lq = q.list.with_filter(
        "nickname",
        q.nickname.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &lq).await?;
    let mut out = vec![];
    for r in rows {
        out.push(view(&st, r, lang).await?);
    }
    Ok(reply(Page::new(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddReq {
    /// dy (blank: dy)
    #[serde(default)]
    #[schema(value_type = domain::platform::DyOnly)]
    pub platform: String,
    /// A share link (or the shared text holding one) or an account id.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 500)]
    pub link: String,
}

#[utoipa::path(post, path = "/seo.benchmark/add", tag = "seo", request_body = AddReq, responses((status = 200, body = Reply<BenchmarkView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AddReq>,
) -> Answer<BenchmarkView> {
    let platform = if r.platform.is_empty() {
        "dy"
    } else {
        r.platform.as_str()
    };
    let b = uc::add(&st.hub, c.merchant_id()?, platform, &r.link).await?;
    Ok(reply(view(&st, b, lang).await?))
}

#[utoipa::path(post, path = "/seo.benchmark/sync", tag = "seo", request_body = IdReq, responses((status = 200, body = Reply<BenchmarkView>)))]
pub async fn sync(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<BenchmarkView> {
    let b = uc::sync(&st.hub, c.merchant_id()?, r.id).await?;
    Ok(reply(view(&st, b, lang).await?))
}

#[utoipa::path(post, path = "/seo.benchmark/delete", tag = "seo", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayView {
    pub day: String,
    pub followers: i64,
    pub works: i64,
    pub plays: i64,
    pub likes: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BenchmarkWork)]
pub struct WorkView {
    pub work_id: String,
    pub title: String,
    pub create_time: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TitleWord {
    pub word: String,
    pub weight: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BenchmarkDetail {
    #[serde(flatten)]
    pub account: BenchmarkView,
    pub series: Vec<DayView>,
    /// The 10 most played works.
    pub top: Vec<WorkView>,
    /// The words of its titles, strongest first.
    pub words: Vec<TitleWord>,
    /// Posts a day over the last 30 days.
    pub per_day: f64,
    /// Posts per China day over the last 30 days, oldest first.
    pub posts: Vec<DayPosts>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayPosts {
    pub day: String,
    pub posts: i64,
}

#[utoipa::path(post, path = "/seo.benchmark/info", tag = "seo", request_body = IdReq, responses((status = 200, body = Reply<BenchmarkDetail>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<BenchmarkDetail> {
    let d = uc::detail(&st.db, c.merchant_id()?, r.id).await?;
    let now = st.db.clock.platform_now();
    let today = domain::matrix::day_of(now);
    let mut posts: Vec<DayPosts> = (today - 29..=today)
        .map(|day| DayPosts {
            day: domain::matrix::fmt_day(day),
            posts: 0,
        })
        .collect();
    for w in &d.works {
        let i = domain::matrix::day_of(w.create_time) - (today - 29);
        if (0..30).contains(&i) {
            posts[i as usize].posts += 1;
        }
    }
    let per_day = posts.iter().map(|p| p.posts).sum::<i64>() as f64 / 30.0;
    let text: String = d
        .works
        .iter()
        .map(|w| w.title.as_str())
        .collect::<Vec<_>>()
        .join("。");
    let words = tokio::task::spawn_blocking(move || {
        domain::seo::extract_keywords(&text, 30, &domain::seo::Lexicon::default())
    })
    .await
    .unwrap_or_default()
    .into_iter()
    .map(|k| TitleWord {
        word: k.word,
        weight: k.weight,
    })
    .collect();
    let mut top: Vec<&uc::WorkRow> = d.works.iter().collect();
    top.sort_by_key(|w| std::cmp::Reverse(w.plays));
    let top = top
        .into_iter()
        .take(10)
        .map(|w| WorkView {
            work_id: w.work_id.clone(),
            title: w.title.clone(),
            create_time: w.create_time,
            plays: w.plays,
            likes: w.likes,
            comments: w.comments,
            shares: w.shares,
        })
        .collect();
    let series = d
        .days
        .into_iter()
        .map(|x| DayView {
            day: x.day,
            followers: x.followers,
            works: x.works,
            plays: x.plays,
            likes: x.likes,
        })
        .collect();
    Ok(reply(BenchmarkDetail {
        account: view(&st, d.row, lang).await?,
        series,
        top,
        words,
        per_day,
        posts,
    }))
}
