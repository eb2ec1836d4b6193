//! Area "reports" (DESIGN.md §4): the dashboard's series (`/index/dashboard`), per-platform analytics
//! and the special reports (`/common.merchant_report/*`), a user's videos (`/externalApi/getUserVideo`),
//! the data screen (`/databoard.index/*`, GET) and the exports of every report list. Figures come from
//! the daily rollup (`services::reports`). Contract: docs/api-reports.md.

use crate::LangOf;
use crate::download::{attachment, format_of};
use crate::error::{Answer, HttpResult, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use domain::i18n::{Lang, Msg};
use domain::reports::{Dimension, Range};
use serde::{Deserialize, Serialize};
use services::ApiError;
use services::reports as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

mod export;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(overview))
        .routes(routes!(accounts))
        .routes(routes!(videos))
        .routes(routes!(attribution))
        .routes(routes!(delivery))
        .routes(routes!(staff))
        .routes(routes!(export))
        .routes(routes!(user_video))
        .routes(routes!(screen))
}

// ---- the dashboard ----

#[derive(Debug, Serialize, ToSchema)]
pub struct PublishSeries {
    pub days: Vec<String>,
    pub success: Vec<i64>,
    pub failed: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VideoSeries {
    pub days: Vec<String>,
    pub plays: Vec<i64>,
    pub likes: Vec<i64>,
    pub comments: Vec<i64>,
    pub shares: Vec<i64>,
}

/// The home page: points and the last 7 (or 30) days of publishing and plays.
#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardView {
    pub points: i64,
    pub publish: PublishSeries,
    pub video: VideoSeries,
    pub has_publish_data: bool,
    pub has_video_data: bool,
}

#[derive(Debug, Deserialize)]
pub struct DashboardQuery {
    #[serde(default)]
    pub days: Option<i64>,
}

#[utoipa::path(get, path = "/index/dashboard", tag = "reports", params(("days" = Option<DaySpan>, Query, description = "7 (default) | 30")), responses((status = 200, body = Reply<DashboardView>)))]
pub async fn dashboard(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<DashboardQuery>,
) -> Answer<DashboardView> {
    let days = q.days.unwrap_or(7);
    if !domain::reports::DAY_SPANS.contains(&days) {
        return Err(ApiError::invalid_with(
            "days",
            Msg::InvalidValue,
            vec![("reason", "7 | 30".into())],
        )
        .into());
    }
    let d = uc::dashboard(&st.db, c.user.merchant_id, days).await?;
    let any = |v: &[i64]| v.iter().any(|&n| n > 0);
    let s = d.series;
    Ok(reply(DashboardView {
        points: d.points,
        has_publish_data: any(&s.posts) || any(&s.failed),
        has_video_data: any(&s.plays) || any(&s.likes),
        publish: PublishSeries {
            days: s.days.clone(),
            success: s.posts,
            failed: s.failed,
        },
        video: VideoSeries {
            days: s.days,
            plays: s.plays,
            likes: s.likes,
            comments: s.comments,
            shares: s.shares,
        },
    }))
}

// ---- the report filters ----

/// `days`: a day chart's span, 7 (a week) or 30 days (`domain::reports::DAY_SPANS`). For the document
/// only: the wire format is the number, checked by the handler with its own message.
pub struct DaySpan;

impl utoipa::PartialSchema for DaySpan {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::contract::integer_enum(&domain::reports::DAY_SPANS)
    }
}

impl ToSchema for DaySpan {}

// What the report filters accept, for the document only (the wire format is the string).

/// `span`: the range ending today (day, 7 days, 30 days) or `custom` from `start` to `end`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum ReportSpan {
    Day,
    Week,
    Month,
    Custom,
}

/// `platform`: one platform's figures (`all`: every platform). The analytics pages' own names are
/// accepted too: `video` is `sph`, `dd` and `bp` are `shop`.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum ReportPlatform {
    All,
    Dy,
    Ks,
    Xhs,
    Sph,
    Video,
    Bjh,
    Shop,
    Dd,
    Bp,
}

/// `sort`: the figure a ranking is ordered by (descending).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum RankSort {
    Plays,
    Likes,
    Comments,
    Shares,
    Posts,
}

/// `dimension`: what attribution groups the posts of rendered variants by.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum AttributionDimension {
    Clip,
    Group,
    Title,
    Voice,
    Project,
}

/// `report`: which report an export writes.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum ReportKind {
    Overview,
    Accounts,
    Videos,
    Attribution,
    Delivery,
    Staff,
}

/// `format`: the export's file type (default xlsx).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum ExportFormat {
    Xlsx,
    Csv,
}

/// The filters every report takes (the export takes the same plus `report` and `format`).
#[derive(Debug, Default, Deserialize)]
pub struct ReportQuery {
    /// dy | ks | sph (video) | xhs | bjh | shop (dd); empty = every platform
    #[serde(default)]
    pub platform: Option<String>,
    /// day | week | month | custom
    #[serde(default)]
    pub span: Option<String>,
    /// YYYY-MM-DD (custom)
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub end: Option<String>,
    /// plays | likes | comments | shares | posts (the table kit sends it as `prop`; always descending)
    #[serde(default, alias = "prop")]
    pub sort: Option<String>,
    #[serde(default)]
    pub account_id: Option<i64>,
    /// The operator only: one merchant's figures (absent or 0: every merchant's, as the dashboard and
    /// the data screen sum them). A merchant's own users always read their merchant.
    #[serde(default)]
    pub merchant_id: Option<i64>,
    /// clip | group | title | voice | project
    #[serde(default)]
    pub dimension: Option<String>,
    #[serde(default)]
    pub page: Option<i64>,
    #[serde(default, alias = "pageSize")]
    pub limit: Option<i64>,
    /// overview | accounts | videos | attribution | delivery | staff (export)
    #[serde(default)]
    pub report: Option<String>,
    /// xlsx | csv (export)
    #[serde(default)]
    pub format: Option<String>,
}

fn s(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("").trim()
}

impl ReportQuery {
    /// Whose figures: the caller's merchant, or for the operator every merchant or the one chosen.
    fn scope(&self, c: &Caller) -> Option<i64> {
        match c.user.merchant_id {
            Some(m) => Some(m),
            None => self.merchant_id.filter(|&m| m > 0),
        }
    }
    fn filter(&self) -> Result<domain::reports::PlatformFilter, ApiError> {
        Ok(domain::reports::platform(s(&self.platform))?)
    }
    /// The filter's code, as the report queries take it ('' = every platform).
    fn platform(&self) -> Result<&'static str, ApiError> {
        Ok(self.filter()?.as_str())
    }
    fn range(&self, clock: &domain::clock::Clock) -> Result<Range, ApiError> {
        self.range_at(uc::today(clock))
    }
    /// The operation log is stamped with real time, not the platform clock: its "today" is the wall
    /// clock's (the two differ only while the sandbox's clock is moved).
    fn log_range(&self) -> Result<Range, ApiError> {
        self.range_at(domain::matrix::day_of(domain::now_ms()))
    }
    fn range_at(&self, today: i64) -> Result<Range, ApiError> {
        Ok(domain::reports::range(
            s(&self.span),
            s(&self.start),
            s(&self.end),
            today,
        )?)
    }
    fn sort(&self) -> Result<&str, ApiError> {
        let v = s(&self.sort);
        if v.is_empty() || uc::RANK_SORTS.contains(&v) {
            Ok(if v.is_empty() { "plays" } else { v })
        } else {
            Err(ApiError::invalid_with(
                "sort",
                Msg::InvalidValue,
                vec![("reason", uc::RANK_SORTS.join(" | "))],
            ))
        }
    }
    fn window(&self) -> (i64, i64) {
        uc::window(self.page.unwrap_or(1), self.limit.unwrap_or(10), 100)
    }
    fn dimension(&self) -> Result<Dimension, ApiError> {
        Ok(Dimension::read(s(&self.dimension))?)
    }
}

// ---- analytics ----

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReportFigures)]
pub struct FiguresView {
    pub posts: i64,
    pub failed: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    /// The accounts' followers on the period's last day (0 where the platform reports none).
    pub followers: i64,
    /// Followers gained over the period.
    pub follower_gain: i64,
}

impl From<uc::Figures> for FiguresView {
    fn from(f: uc::Figures) -> Self {
        FiguresView {
            posts: f.posts,
            failed: f.failed,
            plays: f.plays,
            likes: f.likes,
            comments: f.comments,
            shares: f.shares,
            followers: f.followers,
            follower_gain: f.follower_gain,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReportSeries)]
pub struct SeriesView {
    pub days: Vec<String>,
    pub posts: Vec<i64>,
    pub failed: Vec<i64>,
    pub plays: Vec<i64>,
    pub likes: Vec<i64>,
    pub comments: Vec<i64>,
    pub shares: Vec<i64>,
    /// Followers at the end of each day, and each day's gain.
    pub followers: Vec<i64>,
    pub follower_gain: Vec<i64>,
}

impl From<uc::Series> for SeriesView {
    fn from(s: uc::Series) -> Self {
        SeriesView {
            days: s.days,
            posts: s.posts,
            failed: s.failed,
            plays: s.plays,
            likes: s.likes,
            comments: s.comments,
            shares: s.shares,
            followers: s.followers,
            follower_gain: s.follower_gain,
        }
    }
}

/// One figure's change against the previous period.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangeView {
    pub figure: String,
    /// Percent; null when the previous period had none.
    pub pct: Option<i64>,
}

/// A platform's figures over the range, per day and summed, against the period just before.
#[derive(Debug, Serialize, ToSchema)]
pub struct OverviewView {
    /// '' for every platform.
    pub platform: domain::reports::PlatformFilter,
    pub start: String,
    pub end: String,
    pub previous_start: String,
    pub previous_end: String,
    pub accounts: i64,
    pub active_accounts: i64,
    /// Accounts authorized against the sandbox: when any, the page marks its figures simulated.
    pub simulated_accounts: i64,
    pub series: SeriesView,
    pub totals: FiguresView,
    pub previous: FiguresView,
    pub change: Vec<ChangeView>,
    /// False for a platform that tells apps no follower count (BJH): the page says so instead of 0.
    pub has_followers: bool,
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/overview", tag = "reports", params(("platform" = Option<ReportPlatform>, Query), ("span" = Option<ReportSpan>, Query, description = "day | week | month | custom"), ("start" = Option<String>, Query), ("end" = Option<String>, Query)), responses((status = 200, body = Reply<OverviewView>)))]
pub async fn overview(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ReportQuery>,
) -> Answer<OverviewView> {
    let (filter, r) = (q.filter()?, q.range(&st.db.clock)?);
    let platform = filter.as_str();
    let o = uc::overview(&st.db, q.scope(&c), platform, r).await?;
    let p = r.previous();
    Ok(reply(OverviewView {
        platform: filter,
        start: domain::matrix::fmt_day(r.first),
        end: domain::matrix::fmt_day(r.last),
        previous_start: domain::matrix::fmt_day(p.first),
        previous_end: domain::matrix::fmt_day(p.last),
        accounts: o.accounts,
        active_accounts: o.active_accounts,
        simulated_accounts: o.simulated_accounts,
        series: o.series.into(),
        totals: o.totals.into(),
        previous: o.previous.into(),
        change: o
            .change
            .into_iter()
            .map(|(f, pct)| ChangeView {
                figure: f.to_string(),
                pct,
            })
            .collect(),
        has_followers: uc::has_followers(platform),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccountRankView {
    pub account_id: i64,
    pub nickname: String,
    pub platform: domain::platform::Platform,
    pub avatar: String,
    pub province: String,
    /// Authorized against the sandbox: its figures are simulated.
    pub sandbox: bool,
    pub posts: i64,
    pub failed: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    /// Followers on the range's last day and gained over it.
    pub followers: i64,
    pub follower_gain: i64,
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/accounts", tag = "reports", params(("platform" = Option<ReportPlatform>, Query), ("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query), ("sort" = Option<RankSort>, Query), ("page" = Option<i64>, Query), ("limit" = Option<i64>, Query)), responses((status = 200, description = "accounts ranked by a figure over the range", body = Reply<Page<AccountRankView>>)))]
pub async fn accounts(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<AccountRankView>> {
    let (rows, total) = uc::account_rank(
        &st.db,
        q.scope(&c),
        q.platform()?,
        q.range(&st.db.clock)?,
        q.sort()?,
        q.window(),
    )
    .await?;
    Ok(reply(Page::exact(
        rows.into_iter().map(account_view).collect(),
        total,
    )))
}

fn account_view(r: uc::AccountFigures) -> AccountRankView {
    AccountRankView {
        account_id: r.account_id,
        nickname: r.nickname,
        platform: r.platform,
        avatar: r.avatar,
        province: r.province,
        sandbox: r.sandbox == 1,
        posts: r.f.posts,
        failed: r.f.failed,
        plays: r.f.plays,
        likes: r.f.likes,
        comments: r.f.comments,
        shares: r.f.shares,
        followers: r.f.followers,
        follower_gain: r.f.follower_gain,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VideoRankView {
    pub id: i64,
    pub task_id: i64,
    pub account_id: i64,
    pub nickname: String,
    pub platform: domain::platform::Platform,
    pub title: String,
    pub video_key: String,
    pub video_name: String,
    pub share_url: String,
    pub published_at: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
}

fn video_view(r: uc::VideoFigures) -> VideoRankView {
    VideoRankView {
        id: r.id,
        task_id: r.task_id,
        account_id: r.account_id,
        nickname: r.nickname,
        platform: r.platform,
        title: r.title,
        video_key: r.video_key,
        video_name: r.video_name,
        share_url: r.share_url,
        published_at: r.published_at,
        plays: r.plays,
        likes: r.likes,
        comments: r.comments,
        shares: r.shares,
    }
}

async fn video_page(
    st: &AppState,
    mid: Option<i64>,
    q: &ReportQuery,
) -> Answer<Page<VideoRankView>> {
    let (rows, total) = uc::video_rank(
        &st.db,
        mid,
        q.platform()?,
        q.account_id.unwrap_or(0),
        q.range(&st.db.clock)?,
        q.sort()?,
        q.window(),
    )
    .await?;
    Ok(reply(Page::exact(
        rows.into_iter().map(video_view).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/videos", tag = "reports", params(("platform" = Option<ReportPlatform>, Query), ("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query), ("sort" = Option<RankSort>, Query), ("account_id" = Option<i64>, Query), ("page" = Option<i64>, Query), ("limit" = Option<i64>, Query)), responses((status = 200, description = "videos published in the range, ranked by a figure", body = Reply<Page<VideoRankView>>)))]
pub async fn videos(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<VideoRankView>> {
    video_page(&st, q.scope(&c), &q).await
}

/// A user's (an authorized account's) published videos with their figures, newest ranges as the
/// analytics pages: the same rows as `/common.merchant_report/videos` for one `account_id`.
#[utoipa::path(get, path = "/externalApi/getUserVideo", tag = "reports", params(("account_id" = Option<i64>, Query), ("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query), ("sort" = Option<RankSort>, Query), ("page" = Option<i64>, Query), ("limit" = Option<i64>, Query)), responses((status = 200, body = Reply<Page<VideoRankView>>)))]
pub async fn user_video(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<VideoRankView>> {
    video_page(&st, q.scope(&c), &q).await
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AttributionView {
    /// The clip's, group's, voice-over's or project's id (0 for a title).
    pub id: i64,
    pub label: String,
    pub posts: i64,
    pub plays: i64,
    pub likes: i64,
    pub per_post: i64,
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/attribution", tag = "reports", params(("dimension" = Option<AttributionDimension>, Query, description = "clip | group | title | voice | project"), ("platform" = Option<ReportPlatform>, Query), ("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query)), responses((status = 200, description = "plays per post by clip, shot group, title, voice-over or project, best first", body = Reply<Page<AttributionView>>)))]
pub async fn attribution(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<AttributionView>> {
    let rows = uc::attribution(
        &st.db,
        q.scope(&c),
        q.platform()?,
        q.range(&st.db.clock)?,
        q.dimension()?,
    )
    .await?;
    Ok(reply(Page::whole(
        rows.into_iter()
            .map(|a| attribution_view(a, lang))
            .collect(),
    )))
}

fn attribution_view(a: uc::Attribution, lang: Lang) -> AttributionView {
    AttributionView {
        id: a.id,
        label: export::label(&a, lang),
        posts: a.posts,
        plays: a.plays,
        likes: a.likes,
        per_post: a.per_post,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReasonView {
    pub reason: String,
    pub count: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    pub task_id: i64,
    pub name: String,
    pub platform: domain::platform::TaskPlatform,
    pub created_at: i64,
    pub planned: i64,
    pub published: i64,
    pub failed: i64,
    pub rejected: i64,
    pub plays: i64,
    pub reasons: Vec<ReasonView>,
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/delivery", tag = "reports", params(("platform" = Option<ReportPlatform>, Query), ("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query), ("page" = Option<i64>, Query), ("limit" = Option<i64>, Query)), responses((status = 200, description = "release tasks created in the range: planned against published and failed, with the reasons", body = Reply<Page<DeliveryView>>)))]
pub async fn delivery(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<DeliveryView>> {
    let (rows, total) = uc::delivery(
        &st.db,
        q.scope(&c),
        q.platform()?,
        q.range(&st.db.clock)?,
        q.window(),
    )
    .await?;
    Ok(reply(Page::exact(
        rows.into_iter().map(|r| delivery_view(r, lang)).collect(),
        total,
    )))
}

fn delivery_view(r: uc::DeliveryRow, lang: Lang) -> DeliveryView {
    DeliveryView {
        task_id: r.d.task_id,
        name: r.d.name,
        platform: r.d.platform,
        created_at: r.d.created_at,
        planned: r.d.planned,
        published: r.d.published,
        failed: r.d.failed,
        rejected: r.d.rejected,
        plays: r.d.plays,
        reasons: r
            .reasons
            .into_iter()
            .map(|(reason, count)| ReasonView {
                reason: export::reason(&reason, lang),
                count,
            })
            .collect(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StaffActivityView {
    pub user_id: i64,
    pub username: String,
    pub actions: i64,
    pub refused: i64,
    pub tasks: i64,
    pub renders: i64,
    pub last_at: i64,
}

#[utoipa::path(method(get, post), path = "/common.merchant_report/staff", tag = "reports", params(("span" = Option<ReportSpan>, Query), ("start" = Option<String>, Query), ("end" = Option<String>, Query)), responses((status = 200, description = "each person's operations over the range (operation log), busiest first", body = Reply<Page<StaffActivityView>>)))]
pub async fn staff(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ReportQuery>,
) -> Answer<Page<StaffActivityView>> {
    let rows = uc::staff(&st.db, q.scope(&c), q.log_range()?).await?;
    Ok(reply(Page::whole(
        rows.into_iter().map(staff_view).collect(),
    )))
}

fn staff_view(r: uc::StaffActivity) -> StaffActivityView {
    StaffActivityView {
        user_id: r.user_id,
        username: r.username,
        actions: r.actions,
        refused: r.refused,
        tasks: r.tasks,
        renders: r.renders,
        last_at: r.last_at,
    }
}

// ---- exports ----

/// Exports hold at most this many rows.
const EXPORT_MAX: i64 = 100_000;

/// Any report list as a spreadsheet (`format` xlsx | csv), with the same filters as the list.
#[utoipa::path(get, path = "/common.merchant_report/export", tag = "reports", params(("report" = ReportKind, Query, description = "overview | accounts | videos | attribution | delivery | staff"), ("format" = Option<ExportFormat>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the report (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ReportQuery>,
) -> HttpResult<Response> {
    let f = format_of(q.format.as_deref())?;
    let mid = q.scope(&c);
    let all = (0, EXPORT_MAX);
    let report = s(&q.report);
    let table = match report {
        "overview" => {
            let platform = q.platform()?;
            let o = uc::overview(&st.db, mid, platform, q.range(&st.db.clock)?).await?;
            export::series_table(&o.series, uc::has_followers(platform), lang)
        }
        "accounts" => {
            let platform = q.platform()?;
            let (rows, _) = uc::account_rank(
                &st.db,
                mid,
                platform,
                q.range(&st.db.clock)?,
                q.sort()?,
                all,
            )
            .await?;
            export::account_table(&rows, uc::has_followers(platform), lang)
        }
        "videos" => {
            let (rows, _) = uc::video_rank(
                &st.db,
                mid,
                q.platform()?,
                q.account_id.unwrap_or(0),
                q.range(&st.db.clock)?,
                q.sort()?,
                all,
            )
            .await?;
            export::video_table(&rows, lang)
        }
        "attribution" => {
            let dim = q.dimension()?;
            let rows =
                uc::attribution(&st.db, mid, q.platform()?, q.range(&st.db.clock)?, dim).await?;
            export::attribution_table(&rows, dim, lang)
        }
        "delivery" => {
            let (rows, _) =
                uc::delivery(&st.db, mid, q.platform()?, q.range(&st.db.clock)?, all).await?;
            export::delivery_table(&rows, lang)
        }
        "staff" => export::staff_table(&uc::staff(&st.db, mid, q.log_range()?).await?, lang),
        _ => {
            return Err(ApiError::invalid_with(
                "report",
                Msg::InvalidValue,
                vec![(
                    "reason",
                    "overview | accounts | videos | attribution | delivery | staff".into(),
                )],
            )
            .into());
        }
    };
    Ok(attachment(
        &format!("report-{report}"),
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}

// ---- the data screen ----

#[derive(Debug, Serialize, ToSchema)]
pub struct RegionView {
    pub province: String,
    pub accounts: i64,
    pub plays: i64,
}

/// Everything the full-screen data board shows, read again every refresh.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScreenView {
    pub accounts: i64,
    pub active_accounts: i64,
    pub week: SeriesView,
    pub week_totals: FiguresView,
    /// Today's plan: items due today, of those published, of those failed.
    pub today_planned: i64,
    pub today_published: i64,
    pub today_failed: i64,
    /// Posts published today, whatever day they were due (the week's last day says the same).
    pub today_posts: i64,
    /// Of `today_posts`, those due on another day: `today_posts` is the plan's `today_published`
    /// plus these. The week's figures (posts, plays, likes) cover every platform.
    pub today_posts_other_days: i64,
    pub regions: Vec<RegionView>,
    pub top: Vec<VideoRankView>,
    /// Platform-clock ms of the figures.
    pub updated_at: i64,
}

#[utoipa::path(get, path = "/databoard.index/index", tag = "reports", responses((status = 200, description = "the data screen: counters, today's publishing, the week, regions, top videos", body = Reply<ScreenView>)))]
pub async fn screen(State(st): State<AppState>, c: Caller) -> Answer<ScreenView> {
    let s = uc::screen(&st.db, c.user.merchant_id).await?;
    Ok(reply(ScreenView {
        accounts: s.accounts,
        active_accounts: s.active_accounts,
        week_totals: s.week.totals().into(),
        week: s.week.into(),
        today_planned: s.today_planned,
        today_published: s.today_published,
        today_failed: s.today_failed,
        today_posts: s.today_posts,
        today_posts_other_days: s.today_posts_other_days,
        regions: s
            .regions
            .into_iter()
            .map(|(province, accounts, plays)| RegionView {
                province,
                accounts,
                plays,
            })
            .collect(),
        top: s.top.into_iter().map(video_view).collect(),
        updated_at: s.updated_at,
    }))
}
