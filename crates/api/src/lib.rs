//! The HTTP API of clipmatrix: one router per area (DESIGN.md §4), one error type, one guard.

pub mod areas;
pub mod client;
pub mod compliance;
pub mod contract;
pub mod download;
pub mod error;
pub mod events;
pub mod export;
pub mod extract;
pub mod files;
pub mod guard;
pub mod import;
pub mod limits;
pub mod mcp;
pub mod ops;
pub mod pages;
pub mod reply;
pub mod session;
pub mod state;
pub mod web;
pub mod words;
pub mod writer;
pub mod zipstream;

pub use state::{AppState, Settings};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// The caller's language, from `accept-language`.
pub struct LangOf(pub domain::i18n::Lang);

#[derive(OpenApi)]
#[openapi(
    info(title = "clipmatrix API", version = "1.6.9", description = "Every call answers {code, message, data}. Paths are relative to /api."),
    servers((url = "/api")),
    modifiers(&BearerAuth),
    // The enums only query parameters take: utoipa does not collect a parameter's schema itself.
    components(schemas(
        areas::reports::ReportSpan,
        areas::reports::DaySpan,
        areas::reports::ReportPlatform,
        areas::reports::RankSort,
        areas::reports::AttributionDimension,
        areas::reports::ReportKind,
        areas::reports::ExportFormat,
        areas::content::hotlists::MusicBoard,
        areas::content::hotlists::KeywordsBoard,
        areas::content::hotlists::VideoBoard,
        areas::content::hotlists::TopicBoard,
        areas::content::hotlists::LifeBoard,
        areas::content::hotlists::DoyenBoard,
        areas::content::CourseCategory,
        areas::materials::asr::AsrField,
    ))
)]
struct ApiDoc;

struct BearerAuth;

/// How a call authenticates, as the document says it.
const TOKEN_AUTH: &str = "`Authorization: Bearer <token>` with either the JWT a sign-in answers \
(`/login/auth`) or a personal API token (`cmx_…`, made in the user center: `/index/addApiToken`). \
A token acts as its owner's session (the same tenant, the same menus, read on every call, so a menu \
taken away applies at once) narrowed by its scopes: `read` reads every area the owner may read and \
changes nothing; `materials` reads and changes the material libraries and uploads; `clip` the editing \
area, AI voice-overs (ai) and SEO titles (seo); `publish` accounts and release tasks (matrix), \
lottery activities and NFC tags; `engagement` comments, leads and messages; `reports` the reports. \
Every token reads the signed-in basics (`/ajax/initAdmin`, `/index/profile`); no token changes the \
user's account or staff, renews or ends a session, or makes or revokes tokens. A revoked or expired \
token answers 401; a call outside its scopes 403; each token has its own budget of 120 calls at once \
then 10 a second (429). Bearer calls use no cookies, so there is no CSRF to guard against.";

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{
            HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
        };
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT or cmx_ API token")
                    .description(Some(TOKEN_AUTH))
                    .build(),
            ),
        );
        openapi.security = Some(vec![SecurityRequirement::new(
            "bearer",
            Vec::<String>::new(),
        )]);
    }
}

/// Every area's routes, with their OpenAPI annotations. New areas are merged here.
fn areas() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(areas::auth::router())
        .merge(areas::system::router())
        .merge(areas::materials::router())
        .merge(areas::clip::router())
        .merge(areas::matrix::router())
        .merge(areas::activities::router())
        .merge(areas::nfc::router())
        .merge(areas::seo::router())
        .merge(areas::content::router())
        .merge(areas::engagement::router())
        .merge(areas::ai::router())
        .merge(areas::reports::router())
        // Shared by the areas: the progress stream of materials, videos, voices and leads.
        .merge(OpenApiRouter::new().routes(utoipa_axum::routes!(events::events)))
        // The copy precheck as the merchant types (the forms of several areas).
        .merge(OpenApiRouter::new().routes(utoipa_axum::routes!(compliance::copy_check)))
        // The MCP server: the main jobs as tools over this API (`mcp`).
        .merge(OpenApiRouter::new().routes(utoipa_axum::routes!(mcp::endpoint)))
}

/// The routes and the OpenAPI document generated from the handlers' annotations, made a contract
/// (`contract::finish`: unique operation ids, no GET bodies, the error answers listed).
fn routes_and_document() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (api, mut doc) = areas().split_for_parts();
    contract::finish(&mut doc);
    doc.extensions
        .get_or_insert_with(Default::default)
        .insert("x-limits".into(), limits::document());
    (api, doc)
}

/// The OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes_and_document().1
}

/// Who a request's session is, for the sandbox's controls: the operator sees everything, a
/// merchant its own accounts, staff nothing; a bad or missing token is anonymous.
fn sandbox_viewer(st: AppState) -> platforms::sandbox::access::Identify {
    use platforms::sandbox::Viewer;
    Arc::new(move |headers| {
        let st = st.clone();
        Box::pin(async move {
            let Some(token) = session::token_of(&headers) else {
                return Viewer::Anonymous;
            };
            let Ok(c) = session::caller_of(&st, &token).await else {
                return Viewer::Anonymous;
            };
            match (c.kind, c.user.merchant_id) {
                (domain::UserKind::Operator, _) => Viewer::Operator,
                (domain::UserKind::Merchant, Some(mid)) => {
                    match store::matrix::platform_ids(&st.db, mid).await {
                        Ok(ids) => Viewer::Tenant(Arc::new(ids.into_iter().collect())),
                        Err(_) => Viewer::Refused,
                    }
                }
                _ => Viewer::Refused,
            }
        })
    })
}

/// Whether a request carries the sandbox token (header, or the cookie a sandbox page set).
pub(crate) async fn holds_sandbox_token(st: &AppState, headers: &axum::http::HeaderMap) -> bool {
    let token = platforms::sandbox::access::Access::new(&st.sandbox_token, None);
    matches!(
        token.viewer(headers, None).await.0,
        platforms::sandbox::Viewer::Operator
    )
}

/// The whole application: API, console, health, sandbox pages.
pub fn app(state: AppState) -> Router {
    let (api, doc) = routes_and_document();
    let tools = mcp::Tools::of(&doc);
    let doc = Arc::new(doc.to_json().unwrap_or_default());
    let api = api
        .route(
            "/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move {
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        (*doc).clone(),
                    )
                }
            }),
        )
        .route(
            "/docs",
            get(|| async { axum::response::Html(web::DOCS_HTML) }),
        )
        .fallback(|| async { error::HttpError(error::ApiError::NotFound) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ));
    let api = mcp::mount(api, tools, &state);
    let mut router = Router::new()
        .nest("/api", api)
        // Public mobile pages (NFC tap, lottery): no sign-in.
        .merge(areas::nfc::public::routes())
        // The video-library page the console frames (/visualIframe), opened by a signed token.
        .merge(areas::content::embed::page_routes())
        .route("/healthz", get(web::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics))
        .route("/agreement/{kind}", get(web::agreement))
        .route("/files/{id}/{variant}", get(files::serve))
        // A zip of finished videos (signed link, no token: the browser downloads it).
        .route("/files/zip", get(files::zip))
        // A streamed audition (signed ticket, no token: an `<audio>` element plays it).
        .route("/audition", get(areas::ai::audition_stream))
        // Public: the platform's consent page and its event push come here without our token.
        .route(
            "/oauth/{platform}/callback",
            get(areas::matrix::accounts::oauth_callback),
        )
        .route(
            "/webhook/dy",
            axum::routing::post(areas::matrix::webhook::dy),
        );
    if state.settings.sandbox {
        // The platform simulator (PLATFORMS.md) and the SMS outbox share the `/sandbox` prefix;
        // the outbox and the simulator's controls open with the sandbox token or a session.
        let access = Arc::new(platforms::sandbox::access::Access::new(
            &state.sandbox_token,
            Some(sandbox_viewer(state.clone())),
        ));
        let sms = Router::new()
            .route("/sms", get(web::sms_outbox))
            .route("/sms.json", get(web::sms_outbox_json))
            .layer(axum::middleware::from_fn_with_state(
                access,
                platforms::sandbox::access::operator_only,
            ))
            .with_state(state.clone());
        let platforms = platforms::sandbox::router(platforms::sandbox::Config {
            public_base: format!("{}/sandbox", state.settings.public_url),
            webhook_url: Some(format!("{}/webhook/dy", state.settings.public_url)),
            // The simulated official account pushes its QR scans where a real one would be told to.
            wechat_push_url: Some(format!(
                "{}/api/msg.wxgzh/callback",
                state.settings.public_url
            )),
            // The platform's memory (authorized tokens, works) survives a restart of the server.
            state_dir: Some(state.settings.data_dir.join("sandbox")),
            token: state.sandbox_token.clone(),
            identify: Some(sandbox_viewer(state.clone())),
            // The app's own clock: moving the sandbox's moves this app's platforms (and its product
            // time when it follows), never another app's in the same process.
            clock: state.db.clock.clone(),
            ..Default::default()
        });
        router = router.nest_service("/sandbox", sms.merge(platforms));
    }
    router
        .fallback(web::console)
        .with_state(state)
        .layer(DefaultBodyLimit::max(extract::BODY_MAX))
        // Videos and zips of them are compressed already: gzip would only cost a core and drop
        // their length and ranges.
        .layer(
            CompressionLayer::new().compress_when(
                DefaultPredicate::new()
                    .and(NotForContentType::const_new("video/"))
                    .and(NotForContentType::const_new("application/zip")),
            ),
        )
        .layer(axum::middleware::from_fn(web::security_headers))
        .layer(axum::middleware::from_fn(guard::request_context))
        .layer(axum::middleware::from_fn(ops::track))
}
