//! Area "nfc" (DESIGN.md §4): tap-to-post tags (`/nfc.index/*`: config and title CRUD, pools,
//! statistics) and the public pages a tap opens (`public`). Contract: docs/api-activities.md.

pub mod public;

use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, IdsReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::activities::PoolKind;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::nfc as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    // The sheet upload takes up to `domain::sheet::FILE_MAX`; every other call the app's small limit.
    let sheets = OpenApiRouter::new().routes(routes!(title_import)).layer(
        axum::extract::DefaultBodyLimit::max(domain::sheet::FILE_MAX + 64 * 1024),
    );
    OpenApiRouter::new()
        .merge(sheets)
        .routes(routes!(title_import_template))
        .routes(routes!(index))
        .routes(routes!(info))
        .routes(routes!(add))
        .routes(routes!(edit))
        .routes(routes!(delete))
        .routes(routes!(pools))
        .routes(routes!(titles))
        .routes(routes!(title_add))
        .routes(routes!(title_edit))
        .routes(routes!(title_delete))
        .routes(routes!(stats))
        .routes(routes!(export_stats))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Tag)]
pub struct TagView {
    pub id: i64,
    pub name: String,
    pub code: String,
    /// The address written into the tag or printed as a QR code (`/t/<code>`), absolute.
    pub url: String,
    /// dy
    pub platform: domain::platform::DyOnly,
    /// project | group
    pub pool_kind: PoolKind,
    pub pool_id: i64,
    pub pool_name: String,
    pub activity_id: i64,
    pub activity_name: String,
    pub topics: Vec<String>,
    pub enabled: bool,
    pub titles: i64,
    pub pool_size: i64,
    pub pool_left: i64,
    pub taps: i64,
    pub posts: i64,
    pub created_at: i64,
}

fn view(t: &uc::Tag, public_url: &str) -> TagView {
    let r = &t.row;
    TagView {
        id: r.id,
        name: r.name.clone(),
        code: r.code.clone(),
        url: format!("{}/t/{}", public_url.trim_end_matches('/'), r.code),
        platform: r.platform,
        pool_kind: r.pool_kind,
        pool_id: r.pool_id,
        pool_name: t.pool_name.clone(),
        activity_id: r.activity_id,
        activity_name: r.activity_name.clone(),
        topics: serde_json::from_str(&r.topics).unwrap_or_default(),
        enabled: r.enabled == 1,
        titles: r.titles,
        pool_size: t.pool_size,
        pool_left: t.pool_left,
        taps: r.taps,
        posts: r.posts,
        created_at: r.created_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
}

#[utoipa::path(method(get, post), path = "/nfc.index/index", tag = "nfc", responses((status = 200, body = Reply<Page<TagView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<TagView>> {
    let lq = q.list.with_filter(
        "name",
        q.name.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &lq).await?;
    let rows = rows
        .iter()
        .map(|t| view(t, &st.settings.public_url))
        .collect();
    Ok(reply(Page::new(rows, total)))
}

#[utoipa::path(post, path = "/nfc.index/info", tag = "nfc", request_body = IdReq, responses((status = 200, body = Reply<TagView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<TagView> {
    let t = uc::get(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(view(&t, &st.settings.public_url)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TagReq {
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    /// dy
    #[serde(default)]
    #[schema(required = true, value_type = domain::platform::DyOnly)]
    pub platform: String,
    /// project | group
    #[serde(default)]
    #[schema(required = true, value_type = PoolKind)]
    pub pool_kind: String,
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub pool_id: i64,
    /// 0: none.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub activity_id: i64,
    #[serde(default)]
    pub topics: Vec<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

impl TagReq {
    fn input(&self) -> uc::TagInput {
        uc::TagInput {
            name: self.name.clone(),
            platform: self.platform.clone(),
            pool_kind: self.pool_kind.clone(),
            pool_id: self.pool_id,
            activity_id: self.activity_id,
            topics: self.topics.clone(),
            enabled: self.enabled,
        }
    }
}

#[utoipa::path(post, path = "/nfc.index/add", tag = "nfc", request_body = TagReq, responses((status = 200, body = Reply<TagView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TagReq>,
) -> Answer<TagView> {
    let t = uc::add(
        &st.db,
        c.merchant_id()?,
        &r.input(),
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(view(&t, &st.settings.public_url)))
}

#[utoipa::path(post, path = "/nfc.index/edit", tag = "nfc", request_body = TagReq, responses((status = 200, body = Reply<TagView>)))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TagReq>,
) -> Answer<TagView> {
    let id =
        r.id.ok_or_else(|| services::ApiError::invalid("id", domain::i18n::Msg::Required))?;
    let t = uc::edit(
        &st.db,
        c.merchant_id()?,
        id,
        &r.input(),
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(view(&t, &st.settings.public_url)))
}

#[utoipa::path(post, path = "/nfc.index/delete", tag = "nfc", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id, st.db.clock.platform_now()).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PoolView {
    pub id: i64,
    pub name: String,
    pub videos: i64,
    pub left: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Pools)]
pub struct PoolsView {
    /// Mixing projects with finished videos.
    pub projects: Vec<PoolView>,
    /// Video-library shot groups.
    pub groups: Vec<PoolView>,
}

#[utoipa::path(method(get, post), path = "/nfc.index/pools", tag = "nfc", responses((status = 200, body = Reply<PoolsView>)))]
pub async fn pools(State(st): State<AppState>, c: Caller) -> Answer<PoolsView> {
    let (projects, groups) = uc::pools(&st.db, c.merchant_id()?).await?;
    let v = |rows: Vec<(i64, String, i64, i64)>| {
        rows.into_iter()
            .map(|(id, name, videos, left)| PoolView {
                id,
                name,
                videos,
                left,
            })
            .collect()
    };
    Ok(reply(PoolsView {
        projects: v(projects),
        groups: v(groups),
    }))
}

#[derive(Debug, Deserialize)]
pub struct TitlesQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub tag_id: i64,
    pub title: Option<String>,
}

#[utoipa::path(method(get, post), path = "/nfc.index/titles", tag = "nfc", responses((status = 200, body = Reply<Page<TitleRow>>)))]
pub async fn titles(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TitlesQuery>,
) -> Answer<Page<TitleRow>> {
    let mid = c.merchant_id()?;
    let lq = q.list.with_filter(
        "title",
        q.title.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let (rows, total) = uc::titles(&st.db, mid, q.tag_id, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(TitleRow::from).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TitlesReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub tag_id: i64,
    /// One title per entry (blank ones are dropped), each at most 50 characters, 200 at once.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub titles: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TitlesAdded)]
pub struct Added {
    pub added: usize,
}

#[utoipa::path(post, path = "/nfc.index/title_add", tag = "nfc", request_body = TitlesReq, responses((status = 200, body = Reply<Added>)))]
pub async fn title_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TitlesReq>,
) -> Answer<Added> {
    let added = uc::add_titles(
        &st.db,
        c.merchant_id()?,
        r.tag_id,
        &r.titles,
        st.db.clock.platform_now(),
    )
    .await?;
    Ok(reply(Added { added }))
}

/// The NFC titles import's template (one column of titles), its header in the caller's language.
#[utoipa::path(get, path = "/nfc.index/title_import_template", tag = "nfc", params(("format" = Option<String>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the template (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn title_import_template(
    State(st): State<AppState>,
    _c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<crate::import::TemplateQuery>,
) -> crate::error::HttpResult<axum::response::Response> {
    crate::import::template_file(
        st.db.clock.platform_now(),
        "nfc-titles-import",
        &uc::TITLE_COLUMNS,
        lang,
        &q,
    )
}

/// Adds a sheet's titles (one per row) to a tag (`tag_id`). Any bad row: 422 naming every bad row,
/// nothing stored.
#[utoipa::path(post, path = "/nfc.index/title_import", tag = "nfc", request_body(content_type = "multipart/form-data", description = "file: the sheet; tag_id: the tag"), responses((status = 200, body = Reply<Added>)))]
pub async fn title_import(
    State(st): State<AppState>,
    c: Caller,
    mp: axum::extract::Multipart,
) -> Answer<Added> {
    let mid = c.merchant_id()?;
    let (sheet, up) =
        crate::import::sheet_of(mp, &uc::TITLE_COLUMNS, &[&[uc::TITLE_COLUMNS[0]]]).await?;
    let tag_id = up
        .fields
        .get("tag_id")
        .and_then(|t| t.trim().parse::<i64>().ok())
        .ok_or_else(|| crate::error::ApiError::invalid("tag_id", domain::i18n::Msg::Required))?;
    let added = uc::import_titles(&st.db, mid, tag_id, &sheet, st.db.clock.platform_now()).await?;
    Ok(reply(Added { added }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TitleReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub title: String,
}

#[utoipa::path(post, path = "/nfc.index/title_edit", tag = "nfc", request_body = TitleReq, responses((status = 200, body = Reply<TitleRow>)))]
pub async fn title_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TitleReq>,
) -> Answer<TitleRow> {
    Ok(reply(
        uc::edit_title(&st.db, c.merchant_id()?, r.id, &r.title)
            .await?
            .into(),
    ))
}

#[utoipa::path(post, path = "/nfc.index/title_delete", tag = "nfc", request_body = IdsReq, responses((status = 200, body = Reply<Done>)))]
pub async fn title_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Done> {
    let ids: Vec<i64> = r.id.into_iter().chain(r.ids).collect();
    uc::delete_titles(&st.db, c.merchant_id()?, &ids).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StatsReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub id: i64,
    /// 7 (default) or 30.
    #[serde(default = "week")]
    #[schema(value_type = crate::areas::reports::DaySpan)]
    pub days: i64,
}

fn week() -> i64 {
    7
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StatTotals {
    pub taps: i64,
    pub shares: i64,
    pub posts: i64,
    pub draws: i64,
    pub coupons: i64,
    pub redeemed: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StatDay {
    /// YYYY-MM-DD, China time.
    pub day: String,
    pub taps: i64,
    pub shares: i64,
    pub posts: i64,
    pub draws: i64,
    pub redeemed: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TagStats)]
pub struct StatsView {
    pub totals: StatTotals,
    pub days: Vec<StatDay>,
}

#[utoipa::path(post, path = "/nfc.index/stats", tag = "nfc", request_body = StatsReq, responses((status = 200, body = Reply<StatsView>)))]
pub async fn stats(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<StatsReq>,
) -> Answer<StatsView> {
    let s = uc::stats(
        &st.db,
        c.merchant_id()?,
        r.id,
        r.days,
        st.db.clock.platform_now(),
    )
    .await?;
    let [taps, shares, posts, draws, coupons, redeemed] = s.totals;
    Ok(reply(StatsView {
        totals: StatTotals {
            taps,
            shares,
            posts,
            draws,
            coupons,
            redeemed,
        },
        days: s
            .days
            .into_iter()
            .map(|(day, [taps, shares, posts, draws, redeemed])| StatDay {
                day,
                taps,
                shares,
                posts,
                draws,
                redeemed,
            })
            .collect(),
    }))
}

/// One tag's daily figures (the statistics dialog's days) as a spreadsheet, with a total row.
#[utoipa::path(get, path = "/nfc.index/export_stats", tag = "nfc", params(("id" = i64, Query), ("days" = Option<i64>, Query, description = "7 (default) or 30"), ("format" = Option<String>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the tag's figures (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export_stats(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(e): Input<crate::download::Export<StatsReq>>,
) -> crate::error::HttpResult<axum::response::Response> {
    use crate::export::{Cell, Table, header};
    let f = crate::download::format_of(e.format.as_deref())?;
    let now = st.db.clock.platform_now();
    let s = uc::stats(&st.db, c.merchant_id()?, e.q.id, e.q.days, now).await?;
    let word = |k: &str| crate::download::console_word(lang, "nfc", &format!("stats.{k}"));
    let mut header = header(lang, &[("日期", "Day")]);
    header.extend(["taps", "shares", "posts", "draws", "redeemed"].map(word));
    let mut rows: Vec<Vec<Cell>> = s
        .days
        .into_iter()
        .map(|(day, n)| {
            std::iter::once(Cell::Text(day))
                .chain(n.map(Cell::Int))
                .collect()
        })
        .collect();
    let [taps, shares, posts, draws, _, redeemed] = s.totals;
    let total = match lang {
        domain::i18n::Lang::Zh => "合计",
        domain::i18n::Lang::En => "Total",
    };
    rows.push(
        std::iter::once(Cell::Text(total.into()))
            .chain([taps, shares, posts, draws, redeemed].map(Cell::Int))
            .collect(),
    );
    let table = Table { header, rows };
    Ok(crate::download::attachment(
        "nfc-stats",
        f,
        table.render(f),
        now,
    ))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TagTitle)]
pub struct TitleRow {
    pub id: i64,
    pub tag_id: i64,
    pub title: String,
    pub created_at: i64,
}
view_of!(uc::TitleRow => TitleRow { id, tag_id, title, created_at });
