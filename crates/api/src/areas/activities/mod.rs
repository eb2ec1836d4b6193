//! Area "activities" (DESIGN.md §4): lottery activities with coupon prizes
//! (`/task.merchant_forward_task_activities/*`), the draw log (`get_task_luck_draw_log`), coupon
//! redemption and exports (`services::activities`). Contract: docs/api-activities.md.

mod export;
pub mod views;

use crate::LangOf;
use crate::download::{attachment, format_of};
use crate::error::{Answer, Done, HttpResult, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use domain::i18n::Msg;
use serde::Deserialize;
use services::ListQuery;
use services::activities as uc;
use services::error::ApiError;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use views::{ActivityView, CouponView, DrawView};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(index))
        .routes(routes!(info))
        .routes(routes!(add))
        .routes(routes!(edit))
        .routes(routes!(delete))
        .routes(routes!(coupons))
        .routes(routes!(redeem))
        .routes(routes!(export_draws))
        .routes(routes!(export_coupons))
        .routes(routes!(draw_log))
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
    pub state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task_activities/index", tag = "activities", responses((status = 200, body = Reply<Page<ActivityView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<ActivityView>> {
    let lq = q.list.with_filter(
        "name",
        q.name.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let now = st.db.clock.platform_now();
    let state = q.state.as_deref().filter(|s| !s.is_empty());
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, state, now, &lq).await?;
    let rows = rows
        .iter()
        .map(|a| views::activity(a, &st.settings.public_url, now, lang))
        .collect();
    Ok(reply(Page::new(rows, total)))
}

#[utoipa::path(post, path = "/task.merchant_forward_task_activities/info", tag = "activities", request_body = IdReq, responses((status = 200, body = Reply<ActivityView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<ActivityView> {
    let a = uc::get(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(views::activity(
        &a,
        &st.settings.public_url,
        st.db.clock.platform_now(),
        lang,
    )))
}

/// Who may draw (the document's enum of `ActivityReq.who`; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum ActivityWho {
    Anyone,
    Posters,
}

/// A prize's kind (the document's enum of `PrizeReq.kind`).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum PrizeKindCode {
    Coupon,
    Thanks,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PrizeReq {
    /// An existing prize's; left out for a new one.
    #[serde(default)]
    #[schema(value_type = i64, required = false)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 30)]
    pub name: String,
    /// coupon | thanks
    #[serde(default)]
    #[schema(required = true, value_type = PrizeKindCode)]
    pub kind: String,
    /// A percentage, 0.01..100 with two decimals at most.
    #[serde(default)]
    pub odds: f64,
    #[serde(default)]
    pub stock: i64,
    #[serde(default)]
    pub per_person: i64,
    #[serde(default)]
    pub per_day: i64,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub description: String,
    #[serde(default)]
    pub valid_days: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ActivityReq {
    /// The activity's on `edit`; left out on `add`.
    #[serde(default)]
    #[schema(value_type = i64, required = false)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    /// Unix ms.
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub starts_at: i64,
    /// Unix ms, after `starts_at`.
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub ends_at: i64,
    /// anyone | posters
    #[serde(default)]
    #[schema(required = true, value_type = ActivityWho)]
    pub who: String,
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 1000)]
    pub per_person: i64,
    /// At most `per_person`.
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 100)]
    pub per_day: i64,
    /// `#rrggbb`; blank: the default red.
    #[serde(default)]
    pub color: String,
    #[serde(default)]
    #[schema(max_length = 500)]
    pub rules_text: String,
    /// At least one coupon.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 10)]
    pub prizes: Vec<PrizeReq>,
}

impl ActivityReq {
    fn input(&self) -> domain::activities::ActivityInput {
        domain::activities::ActivityInput {
            name: self.name.clone(),
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            who: self.who.clone(),
            per_person: self.per_person,
            per_day: self.per_day,
            color: self.color.clone(),
            rules_text: self.rules_text.clone(),
            prizes: self
                .prizes
                .iter()
                .map(|p| domain::activities::PrizeInput {
                    id: p.id,
                    name: p.name.clone(),
                    kind: p.kind.clone(),
                    odds: p.odds,
                    stock: p.stock,
                    per_person: p.per_person,
                    per_day: p.per_day,
                    description: p.description.clone(),
                    valid_days: p.valid_days,
                })
                .collect(),
        }
    }
}

#[utoipa::path(post, path = "/task.merchant_forward_task_activities/add", tag = "activities", request_body = ActivityReq, responses((status = 200, body = Reply<ActivityView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<ActivityReq>,
) -> Answer<ActivityView> {
    let now = st.db.clock.platform_now();
    let a = uc::add(&st.db, c.merchant_id()?, &r.input(), now).await?;
    Ok(reply(views::activity(
        &a,
        &st.settings.public_url,
        now,
        lang,
    )))
}

#[utoipa::path(post, path = "/task.merchant_forward_task_activities/edit", tag = "activities", request_body = ActivityReq, responses((status = 200, body = Reply<ActivityView>)))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<ActivityReq>,
) -> Answer<ActivityView> {
    let now = st.db.clock.platform_now();
    let id = r.id.ok_or_else(|| ApiError::invalid("id", Msg::Required))?;
    let a = uc::edit(&st.db, c.merchant_id()?, id, &r.input(), now).await?;
    Ok(reply(views::activity(
        &a,
        &st.settings.public_url,
        now,
        lang,
    )))
}

#[utoipa::path(post, path = "/task.merchant_forward_task_activities/delete", tag = "activities", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id, st.db.clock.platform_now()).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize)]
pub struct CouponQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub activity_id: Option<i64>,
    pub state: Option<String>,
    pub code: Option<String>,
    pub format: Option<String>,
}

impl CouponQuery {
    fn list(&self) -> ListQuery {
        self.list
            .clone()
            .with_filter(
                "activity_id",
                self.activity_id.map(|a| a.to_string()).as_deref(),
                "=",
            )
            .with_filter(
                "code",
                self.code.as_deref().filter(|s| !s.is_empty()),
                "include",
            )
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task_activities/coupons", tag = "activities", responses((status = 200, body = Reply<Page<CouponView>>)))]
pub async fn coupons(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<CouponQuery>,
) -> Answer<Page<CouponView>> {
    let now = st.db.clock.platform_now();
    let state = uc::parse_coupon_state(q.state.as_deref().filter(|s| !s.is_empty()))?;
    let (rows, total) = uc::coupons(&st.db, c.merchant_id()?, state, now, &q.list()).await?;
    Ok(reply(Page::new(
        rows.iter().map(|r| views::coupon(r, now)).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RedeemReq {
    /// The coupon's code as the customer shows it (case and dashes do not matter).
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub code: String,
}

#[utoipa::path(post, path = "/task.merchant_forward_task_activities/redeem", tag = "activities", request_body = RedeemReq, responses((status = 200, body = Reply<CouponView>)))]
pub async fn redeem(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RedeemReq>,
) -> Answer<CouponView> {
    let now = st.db.clock.platform_now();
    let by = if c.user.nickname.is_empty() {
        c.user.username.clone()
    } else {
        c.user.nickname.clone()
    };
    let coupon = uc::redeem(&st.db, c.merchant_id()?, &r.code, now, c.user.id, &by).await?;
    Ok(reply(views::coupon(&coupon, now)))
}

#[derive(Debug, Deserialize)]
pub struct DrawQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub activity_id: Option<i64>,
    pub format: Option<String>,
}

impl DrawQuery {
    fn list(&self) -> ListQuery {
        self.list.clone().with_filter(
            "activity_id",
            self.activity_id.map(|a| a.to_string()).as_deref(),
            "=",
        )
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/get_task_luck_draw_log", tag = "activities", responses((status = 200, body = Reply<Page<DrawView>>)))]
pub async fn draw_log(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<DrawQuery>,
) -> Answer<Page<DrawView>> {
    let (rows, total) = uc::draws(&st.db, c.merchant_id()?, &q.list()).await?;
    Ok(reply(Page::new(
        rows.iter().map(|r| views::draw(r, lang)).collect(),
        total,
    )))
}

/// Exports hold at most this many rows (a year of a busy shop's draws).
const EXPORT_MAX: usize = 100_000;

/// The draw log as a spreadsheet, with the same filters as the list.
#[utoipa::path(get, path = "/task.merchant_forward_task_activities/export_draws", tag = "activities", responses((status = 200, description = "the draw log (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export_draws(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<DrawQuery>,
) -> HttpResult<Response> {
    let f = format_of(q.format.as_deref())?;
    let mid = c.merchant_id()?;
    let lq = q.list();
    let db = st.db.clone();
    let rows = uc::all_pages(&lq, EXPORT_MAX, |page| {
        let db = db.clone();
        async move { uc::draws(&db, mid, &page).await }
    })
    .await?;
    Ok(attachment(
        "draws",
        f,
        export::draw_table(&rows, lang).render(f),
        st.db.clock.platform_now(),
    ))
}

/// Coupons as a spreadsheet, with the same filters as the list.
#[utoipa::path(get, path = "/task.merchant_forward_task_activities/export_coupons", tag = "activities", responses((status = 200, description = "the coupons (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export_coupons(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<CouponQuery>,
) -> HttpResult<Response> {
    let f = format_of(q.format.as_deref())?;
    let mid = c.merchant_id()?;
    let now = st.db.clock.platform_now();
    let state = uc::parse_coupon_state(q.state.as_deref().filter(|s| !s.is_empty()))?;
    let lq = q.list();
    let db = st.db.clone();
    let rows = uc::all_pages(&lq, EXPORT_MAX, |page| {
        let db = db.clone();
        async move { uc::coupons(&db, mid, state, now, &page).await }
    })
    .await?;
    Ok(attachment(
        "coupons",
        f,
        export::coupon_table(&rows, now, lang).render(f),
        now,
    ))
}
