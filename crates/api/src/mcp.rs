//! The MCP server (Model Context Protocol, issue 44): `POST /api/mcp`, the protocol's Streamable HTTP
//! transport without a stream (one JSON-RPC 2.0 request in, one `application/json` answer out; a
//! notification is taken with 202 and no body). `clipmatrix mcp` relays the stdio transport here.
//!
//! It is a thin layer over the API, with no logic of its own: each tool is one API route, called in
//! process through the same guarded router with the caller's `Authorization` (an API token or a
//! session) and `Accept-Language`, so tenant, menus, token scopes, budgets and the operation log are
//! exactly the API's (a `read` token cannot publish through MCP either). A tool's input schema is
//! the route's request body or documented parameters as the OpenAPI document describes them, read
//! once when the router is built, so the tools stay typed and current. A tool's result is the
//! envelope's `data` (as text and as `structuredContent`); an API error is a result with `isError`
//! and the API's message in the caller's language.

use crate::extract::RequestId;
use crate::state::AppState;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;
use utoipa::ToSchema;

/// The protocol versions this server answers in, newest first; a client asking for another gets the
/// newest (MCP's version negotiation).
pub const PROTOCOL_VERSIONS: &[&str] = &["2025-06-18", "2025-03-26", "2024-11-05"];

/// How long `wait_for_renders` waits when not told (below the 60 s most MCP clients give a call), and
/// at most.
const WAIT_DEFAULT_S: u64 = 50;
const WAIT_MAX_S: u64 = 600;
const POLL: Duration = Duration::from_secs(2);
/// The largest API answer a tool relays.
const ANSWER_MAX: usize = 16 * 1024 * 1024;

// ---- the wire ----

/// One JSON-RPC 2.0 message from the client: a request (with `id`), a notification (without), or a
/// response to a request of the server's (no `method`; this server sends none, so it is ignored).
#[derive(Debug, Deserialize, ToSchema)]
pub struct McpRequest {
    /// Always `"2.0"`.
    pub jsonrpc: String,
    /// A string or a number; absent for a notification.
    #[serde(default)]
    pub id: Option<Value>,
    /// `initialize`, `notifications/initialized`, `ping`, `tools/list` or `tools/call`.
    #[serde(default)]
    pub method: Option<String>,
    /// `tools/call`: `{name, arguments}`; `initialize`: `{protocolVersion, capabilities, clientInfo}`.
    #[serde(default)]
    pub params: Option<Value>,
}

/// The JSON-RPC 2.0 answer to a request: its `result`, or an `error`.
#[derive(Debug, Serialize, ToSchema)]
pub struct McpResponse {
    pub jsonrpc: &'static str,
    pub id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<McpError>,
}

/// A JSON-RPC error: -32700 not JSON, -32600 not a request (or a batch), -32601 no such method,
/// -32602 bad parameters (an unknown tool).
#[derive(Debug, Serialize, ToSchema)]
pub struct McpError {
    pub code: i32,
    pub message: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitializeResult {
    protocol_version: String,
    capabilities: Capabilities,
    server_info: Implementation,
    instructions: &'static str,
}

#[derive(Serialize)]
struct Capabilities {
    tools: ToolsCapability,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsCapability {
    list_changed: bool,
}

#[derive(Serialize)]
struct Implementation {
    name: &'static str,
    title: &'static str,
    version: String,
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
struct ToolList<'a> {
    tools: &'a [Tool],
}

/// A tool as `tools/list` lists it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: String,
    pub input_schema: Value,
    pub annotations: ToolAnnotations,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    read_only_hint: bool,
    destructive_hint: bool,
    open_world_hint: bool,
}

#[derive(Deserialize)]
struct CallParams {
    name: String,
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult {
    content: Vec<TextContent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<Value>,
    is_error: bool,
}

#[derive(Serialize)]
struct TextContent {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

/// The API's envelope as a tool reads it.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Envelope {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
    #[serde(default)]
    data: Value,
}

// ---- the tools ----

/// Paging of a list tool (the API's shared list parameters).
#[derive(ToSchema)]
#[allow(dead_code)] // only its schema is used: the arguments go to the API as they are
pub struct McpPaging {
    /// Page number, from 1.
    page: Option<i64>,
    /// Rows per page (1–1000; the API's default when absent).
    limit: Option<i64>,
    /// Filters of the API's list engine: field -> `value|operator` (operators `=`, `!=`, `>`, `>=`,
    /// `<`, `<=`, `include`, `notinclude`).
    #[schema(value_type = Option<Object>, rename = "filterObj")]
    filter_obj: Option<Value>,
    /// Sort field.
    prop: Option<String>,
    /// `asc` or `desc`.
    order: Option<String>,
}

/// `list_material_groups`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpGroupFilter {
    /// Part of the group's name.
    name: Option<String>,
}

/// `list_materials`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpMaterialFilter {
    /// The shot group (`list_material_groups`).
    group_id: Option<i64>,
    /// Part of the material's name.
    name: Option<String>,
}

/// `list_finished_videos`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpVideoFilter {
    /// The quick-mix project the videos were made by.
    project_id: Option<i64>,
    /// `processing`, `success` or `failed`.
    state: Option<String>,
    /// `1`: used (published or marked), `0`: not yet.
    used: Option<String>,
}

/// `wait_for_renders` (besides the project).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpWaitArgs {
    /// Only these variants (as `generate_variants` answered them); all of the project's otherwise.
    variant_ids: Option<Vec<i64>>,
    /// How long to wait, 1–600 s (default 50). When the time is up the tool answers the state so far
    /// with `done: false`; call it again to go on waiting.
    #[schema(minimum = 1, maximum = 600)]
    timeout_seconds: Option<u64>,
}

/// `list_accounts`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpAccountFilter {
    /// `dy`, `ks`, `sph`, `xhs`, `bjh` or `shop`.
    platform: Option<String>,
    /// An account group.
    group_id: Option<i64>,
    /// `normal` or `expired`.
    status: Option<String>,
    /// Part of the nickname.
    nickname: Option<String>,
}

/// `release_task_progress`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpItemFilter {
    /// The release task (`create_release_task` answered it as `task.id`).
    task_id: i64,
    /// Only items in this state (`to_release`, `publishing`, `published`, `released`, `failed`).
    state: Option<String>,
}

/// `list_comments`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpCommentFilter {
    platform: Option<String>,
    account_id: Option<String>,
    /// The platform's video id.
    item_id: Option<String>,
    /// `1` replied, `0` not yet.
    replied: Option<String>,
    /// The comment's intent (e.g. `purchase`, `question`).
    intent: Option<String>,
    status: Option<String>,
}

/// `list_leads`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct McpLeadFilter {
    state: Option<String>,
    source: Option<String>,
    platform: Option<String>,
    /// A staff member's user id.
    assignee_id: Option<String>,
}

/// Where a tool's input schema comes from.
enum Args {
    /// The route's JSON request body.
    Body,
    /// The route's documented query parameters, with these fields beside them (their schema).
    Fields(&'static [fn() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>]),
}

/// What a tool does with its arguments.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Run {
    /// One call of its route, answering its data.
    Call,
    /// Polls the route (the project's variants) until none is processing or the time is up.
    WaitRenders,
}

struct Def {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    path: &'static str,
    args: Args,
    run: Run,
    read_only: bool,
}

fn schema_of<T: utoipa::PartialSchema>() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>
{
    T::schema()
}

const PAGING: fn() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> =
    schema_of::<McpPaging>;

const DEFS: &[Def] = &[
    Def {
        name: "list_material_groups",
        title: "List shot groups",
        description: "The merchant's shot groups (material groups of video clips) with how many clips each holds and how many are ready. A quick-mix project draws each shot from one group.",
        path: "/media.merchant_much_resource/video_resource_group_index",
        args: Args::Fields(&[PAGING, schema_of::<McpGroupFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "list_materials",
        title: "List materials",
        description: "Video clips of the material library (of one shot group with group_id), with their state (`ready` once ingested), duration and links.",
        path: "/media.merchant_much_resource/video_resource_detail",
        args: Args::Fields(&[PAGING, schema_of::<McpMaterialFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "create_quick_mix_project",
        title: "Create a quick-mix project",
        description: "Creates a quick-mix project: at least three shot groups in playing order (config.groups[].group_id), with an optional title, music and voice-over. Answers the project (its id) and how many unique variants its groups allow (capacity).",
        path: "/clip.merchant_much_clip/add",
        args: Args::Body,
        run: Run::Call,
        read_only: false,
    },
    Def {
        name: "generate_variants",
        title: "Generate variants",
        description: "Renders `count` unique variants of a quick-mix project (points are charged per variant). Answers the new variants' ids; they render in the background (wait_for_renders).",
        path: "/clip.merchant_much_clip/add_video",
        args: Args::Body,
        run: Run::Call,
        read_only: false,
    },
    Def {
        name: "wait_for_renders",
        title: "Wait for renders",
        description: "Waits until a project's variants (or the given ones) have finished rendering, up to timeout_seconds. Answers done, the counts by state and the variants (with their video links); call it again while done is false.",
        path: "/clip.merchant_video_library/video_index",
        args: Args::Fields(&[schema_of::<McpWaitArgs>]),
        run: Run::WaitRenders,
        read_only: true,
    },
    Def {
        name: "list_finished_videos",
        title: "List finished videos",
        description: "The finished-video library: rendered variants and imported videos, newest first, with state, duration and links. These ids are the video_ids of a release task.",
        path: "/clip.merchant_video_library/index",
        args: Args::Fields(&[PAGING, schema_of::<McpVideoFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "make_voice_over",
        title: "Make a voice-over",
        description: "Starts an AI voice-over (speech synthesis) task of a text of up to 300 characters. The audio lands in the voice library when done (list_voice_overs).",
        path: "/ai.MerchantDub/putNlsTask",
        args: Args::Body,
        run: Run::Call,
        read_only: false,
    },
    Def {
        name: "list_voice_overs",
        title: "List voice-over tasks",
        description: "The AI voice-over tasks with their state and, when done, the audio.",
        path: "/ai.MerchantDub/taskList",
        args: Args::Fields(&[PAGING]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "write_titles",
        title: "Write titles",
        description: "The SEO title writer: titles (and #topics when asked) from keywords, selling points or a product description. Banned words of the merchant are left out.",
        path: "/screen.merchant_seo_lexicon/ai_title",
        args: Args::Body,
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "list_accounts",
        title: "List platform accounts",
        description: "The merchant's authorized platform accounts (Douyin, Kuaishou, WeChat Channels, Xiaohongshu, Baijiahao, shop) with their state. These ids are the account_ids of a release task.",
        path: "/task.merchant_group_user/index",
        args: Args::Fields(&[PAGING, schema_of::<McpAccountFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "create_release_task",
        title: "Create a release task",
        description: "Creates a release task: finished videos (video_ids) or materials (material_ids) posted on accounts (account_ids) from start_date, daily_quantity a day for `days` days, at random, specified or timed times (time_mode), with titles (several separated by `#`, each at most 50 characters) and topics. Operator review may come first; release_task_progress follows it.",
        path: "/matrix.merchant_publish_management/createCommonPublishTask",
        args: Args::Body,
        run: Run::Call,
        read_only: false,
    },
    Def {
        name: "release_task_progress",
        title: "Release task progress",
        description: "A release task's items (one video on one account at one time) with their state, review state, error and the platform's link, and the counts by state (summary).",
        path: "/task.merchant_forward_task/forward_video_release",
        args: Args::Fields(&[PAGING, schema_of::<McpItemFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "list_comments",
        title: "List comments",
        description: "Comments on the merchant's published videos, with their intent and whether they were replied to.",
        path: "/task.merchant_comment/index",
        args: Args::Fields(&[PAGING, schema_of::<McpCommentFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "list_leads",
        title: "List leads",
        description: "Sales leads from comments and private messages, with state, source and the staff member following each up.",
        path: "/msg.merchant_clue/index",
        args: Args::Fields(&[PAGING, schema_of::<McpLeadFilter>]),
        run: Run::Call,
        read_only: true,
    },
    Def {
        name: "report_overview",
        title: "Report overview",
        description: "The publishing and audience report of a span (day, week, month or custom start..end), of one platform or all: totals (posts, plays, likes, comments, followers…) and their series.",
        path: "/common.merchant_report/overview",
        args: Args::Fields(&[]),
        run: Run::Call,
        read_only: true,
    },
];

/// The tools, their input schemas made from the OpenAPI document once.
pub struct Tools {
    tools: Vec<Tool>,
    version: String,
}

impl Tools {
    pub fn of(doc: &utoipa::openapi::OpenApi) -> Tools {
        let doc = serde_json::to_value(doc).unwrap_or_default();
        let components = doc["components"]["schemas"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let tools = DEFS
            .iter()
            .map(|d| {
                let op = &doc["paths"][d.path]["post"];
                let schema = match &d.args {
                    Args::Body => {
                        let body = &op["requestBody"]["content"]["application/json"]["schema"];
                        object_schema(body, &components)
                    }
                    Args::Fields(parts) => fields_schema(op, parts),
                };
                Tool {
                    name: d.name,
                    title: d.title,
                    description: format!("{} (POST /api{})", d.description, d.path),
                    input_schema: self_contained(schema, &components),
                    annotations: ToolAnnotations {
                        read_only_hint: d.read_only,
                        destructive_hint: false,
                        open_world_hint: !d.read_only,
                    },
                }
            })
            .collect();
        Tools {
            tools,
            version: doc["info"]["version"].as_str().unwrap_or("").to_string(),
        }
    }

    pub fn list(&self) -> &[Tool] {
        &self.tools
    }
}

fn component<'a>(r: &str, components: &'a Map<String, Value>) -> Option<&'a Value> {
    components.get(r.strip_prefix("#/components/schemas/")?)
}

/// A body schema as one object: a `$ref` read through, an `allOf` (a type with flattened fields)
/// merged into one object's properties and required fields.
fn object_schema(schema: &Value, components: &Map<String, Value>) -> Value {
    let schema = match schema["$ref"]
        .as_str()
        .and_then(|r| component(r, components))
    {
        Some(s) => s,
        None => schema,
    };
    let mut out = schema.as_object().cloned().unwrap_or_default();
    if let Some(parts) = out.remove("allOf").and_then(|p| p.as_array().cloned()) {
        let (mut props, mut required) = (Map::new(), Vec::<Value>::new());
        for part in &parts {
            let part = part["$ref"]
                .as_str()
                .and_then(|r| component(r, components))
                .unwrap_or(part);
            props.extend(part["properties"].as_object().cloned().unwrap_or_default());
            required.extend(part["required"].as_array().cloned().unwrap_or_default());
        }
        out.insert("properties".into(), Value::Object(props));
        out.insert("required".into(), Value::Array(required));
    }
    out.insert("type".into(), Value::String("object".into()));
    Value::Object(out)
}

/// An object of the route's documented query parameters and the given fields.
fn fields_schema(
    op: &Value,
    parts: &[fn() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>],
) -> Value {
    let (mut props, mut required) = (Map::new(), Vec::<Value>::new());
    for p in op["parameters"].as_array().into_iter().flatten() {
        let Some(name) = p["name"].as_str() else {
            continue;
        };
        let mut s = p["schema"].clone();
        if let (Some(d), Some(o)) = (p["description"].as_str(), s.as_object_mut()) {
            o.entry("description").or_insert_with(|| d.into());
        }
        props.insert(name.into(), s);
        if p["required"].as_bool() == Some(true) {
            required.push(name.into());
        }
    }
    for part in parts {
        let s = serde_json::to_value(part()).unwrap_or_default();
        props.extend(s["properties"].as_object().cloned().unwrap_or_default());
        required.extend(s["required"].as_array().cloned().unwrap_or_default());
    }
    let mut out = Map::new();
    out.insert("type".into(), Value::String("object".into()));
    out.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    Value::Object(out)
}

/// The schema with the components it names under `$defs` (every `#/components/schemas/X` becomes
/// `#/$defs/X`): a JSON Schema a client reads without the OpenAPI document.
fn self_contained(mut schema: Value, components: &Map<String, Value>) -> Value {
    let mut defs = Map::new();
    let mut todo = refs(&schema);
    while let Some(name) = todo.pop() {
        if defs.contains_key(&name) {
            continue;
        }
        let Some(s) = components.get(&name) else {
            continue;
        };
        todo.extend(refs(s));
        let mut s = s.clone();
        rewrite(&mut s);
        defs.insert(name, s);
    }
    rewrite(&mut schema);
    if !defs.is_empty()
        && let Some(o) = schema.as_object_mut()
    {
        o.insert("$defs".into(), Value::Object(defs));
    }
    schema
}

fn refs(v: &Value) -> Vec<String> {
    let mut out = vec![];
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x.as_str()) {
                    ("$ref", Some(r)) => {
                        if let Some(n) = r.strip_prefix("#/components/schemas/") {
                            out.push(n.to_string());
                        }
                    }
                    _ => out.extend(refs(x)),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| out.extend(refs(x))),
        _ => {}
    }
    out
}

fn rewrite(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if k == "$ref"
                    && let Some(n) = x
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                {
                    *x = Value::String(format!("#/$defs/{n}"));
                } else {
                    rewrite(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(rewrite),
        _ => {}
    }
}

// ---- the server ----

/// The tools and the API they call (the guarded API router, without this endpoint's extension).
pub struct Server {
    api: Router,
    tools: Tools,
    /// This server's own origin (`scheme://host[:port]` of its public URL).
    origin: String,
}

/// The API router with this endpoint's server beside it: the tools call a copy of `api` as it is
/// (guard included).
pub fn mount(api: Router<AppState>, tools: Tools, st: &AppState) -> Router<AppState> {
    let server = Arc::new(Server {
        api: api.clone().with_state(st.clone()),
        tools,
        origin: origin_of(&st.settings.public_url),
    });
    api.layer(Extension(server))
}

/// What a tool's API calls carry of the MCP request: who calls (authorization and language) and
/// where from (address, request id), so the guard sees the same caller.
struct Ctx {
    headers: HeaderMap,
    request_id: Option<RequestId>,
    peer: Option<ConnectInfo<std::net::SocketAddr>>,
}

#[utoipa::path(post, path = "/mcp", tag = "auth", request_body = McpRequest,
    description = "The MCP server (Model Context Protocol, Streamable HTTP transport without streams): one \
JSON-RPC 2.0 request in, its answer out as `application/json`; a notification answers 202 without a body; \
batches are refused. Methods: `initialize`, `ping`, `tools/list`, `tools/call`. Each tool is one call of \
this API with the same bearer token, so its scopes apply; an API error is a tool result with `isError`. \
`clipmatrix mcp --url <server> --token <token>` serves the same tools over stdio.",
    responses((status = 200, body = McpResponse, description = "the JSON-RPC answer"),
        (status = 202, description = "a notification, taken")))]
pub async fn endpoint(Extension(server): Extension<Arc<Server>>, req: Request) -> Response {
    if !origin_allowed(req.headers(), &server.origin) {
        return (
            StatusCode::FORBIDDEN,
            axum::Json(rpc_error(
                Value::Null,
                -32600,
                "this Origin may not call the MCP endpoint",
            )),
        )
            .into_response();
    }
    let ctx = Ctx {
        headers: req.headers().clone(),
        request_id: req.extensions().get::<RequestId>().cloned(),
        peer: req
            .extensions()
            .get::<ConnectInfo<std::net::SocketAddr>>()
            .cloned(),
    };
    let Ok(body) = axum::body::to_bytes(req.into_body(), crate::extract::BODY_MAX).await else {
        return answer(rpc_error(Value::Null, -32700, "the body could not be read"));
    };
    let value: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return answer(rpc_error(Value::Null, -32700, &format!("not JSON: {e}"))),
    };
    if value.is_array() {
        return answer(rpc_error(
            Value::Null,
            -32600,
            "batches are not supported: send one message per request",
        ));
    }
    let msg: McpRequest = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => {
            return answer(rpc_error(
                Value::Null,
                -32600,
                &format!("not a JSON-RPC message: {e}"),
            ));
        }
    };
    let (Some(method), Some(id)) = (msg.method.clone(), msg.id.clone()) else {
        // A notification (`notifications/initialized`, `notifications/cancelled`) or a response.
        return StatusCode::ACCEPTED.into_response();
    };
    if msg.jsonrpc != "2.0" {
        return answer(rpc_error(id, -32600, "jsonrpc must be \"2.0\""));
    }
    let result = match method.as_str() {
        "initialize" => Ok(to_value(initialize(&server, msg.params.as_ref()))),
        "ping" => Ok(to_value(Empty {})),
        "tools/list" => Ok(to_value(ToolList {
            tools: server.tools.list(),
        })),
        "tools/call" => server.call(&ctx, msg.params).await,
        other => Err((-32601, format!("method not found: {other}"))),
    };
    answer(match result {
        Ok(result) => McpResponse {
            jsonrpc: "2.0",
            id,
            result: Some(result),
            error: None,
        },
        Err((code, message)) => rpc_error(id, code, &message),
    })
}

fn to_value<T: Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or_default()
}

fn rpc_error(id: Value, code: i32, message: &str) -> McpResponse {
    McpResponse {
        jsonrpc: "2.0",
        id,
        result: None,
        error: Some(McpError {
            code,
            message: message.to_string(),
        }),
    }
}

/// `scheme://host[:port]` of a URL (what an `Origin` header holds).
fn origin_of(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            format!(
                "{}://{}",
                scheme.to_ascii_lowercase(),
                host.to_ascii_lowercase()
            )
        }
        None => String::new(),
    }
}

/// The transport's DNS-rebinding guard (MCP 2025-06-18, Streamable HTTP, "Security Warning": servers
/// must validate `Origin`): a request a web page sent (it carries `Origin`) is taken only from this
/// server's own public origin. Not the `Host` it was sent to: a rebound name makes the page's origin
/// and the `Host` the same attacker's name. Agents and the stdio relay send no `Origin`.
pub fn origin_allowed(h: &HeaderMap, own: &str) -> bool {
    match h.get(header::ORIGIN).map(|o| o.to_str()) {
        None => true,
        Some(Ok(o)) => {
            let o = origin_of(o);
            !o.is_empty() && o == own
        }
        Some(Err(_)) => false,
    }
}

fn answer(r: McpResponse) -> Response {
    axum::Json(r).into_response()
}

fn initialize(server: &Server, params: Option<&Value>) -> InitializeResult {
    let asked = params
        .and_then(|p| p["protocolVersion"].as_str())
        .unwrap_or_default();
    let version = PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == asked)
        .unwrap_or(&PROTOCOL_VERSIONS[0]);
    InitializeResult {
        protocol_version: version.to_string(),
        capabilities: Capabilities {
            tools: ToolsCapability {
                list_changed: false,
            },
        },
        server_info: Implementation {
            name: "clipmatrix",
            title: "clipmatrix",
            version: server.tools.version.clone(),
        },
        instructions: "clipmatrix makes short videos and publishes them on a matrix of platform accounts. \
Typical flow: list_material_groups -> create_quick_mix_project (three or more shot groups) -> \
generate_variants -> wait_for_renders -> write_titles -> list_accounts -> create_release_task \
(video_ids = the variants) -> release_task_progress. Reads: list_comments, list_leads, report_overview.",
    }
}

impl Server {
    async fn call(&self, ctx: &Ctx, params: Option<Value>) -> Result<Value, (i32, String)> {
        let p: CallParams = serde_json::from_value(params.unwrap_or_default())
            .map_err(|e| (-32602, format!("tools/call takes {{name, arguments}}: {e}")))?;
        let Some(def) = DEFS.iter().find(|d| d.name == p.name) else {
            return Err((-32602, format!("unknown tool: {}", p.name)));
        };
        let args = match p.arguments {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(o)) => o,
            Some(_) => return Err((-32602, "arguments must be an object".into())),
        };
        let outcome = match def.run {
            Run::Call => self.api_call(ctx, def.path, Value::Object(args)).await,
            Run::WaitRenders => self.wait_renders(ctx, def.path, args).await,
        };
        Ok(to_value(match outcome {
            Ok(data) => CallResult {
                content: vec![TextContent {
                    kind: "text",
                    text: data.to_string(),
                }],
                structured_content: data.is_object().then_some(data),
                is_error: false,
            },
            Err(env) => CallResult {
                content: vec![TextContent {
                    kind: "text",
                    text: env.message.clone(),
                }],
                structured_content: Some(to_value(env)),
                is_error: true,
            },
        }))
    }

    /// One API call as the MCP caller: the envelope's data, or the envelope of its error.
    async fn api_call(&self, ctx: &Ctx, path: &str, body: Value) -> Result<Value, Envelope> {
        let mut req = Request::new(axum::body::Body::from(body.to_string()));
        *req.method_mut() = Method::POST;
        *req.uri_mut() = path.parse().map_err(|_| Envelope {
            code: 500,
            message: format!("bad route {path}"),
            data: Value::Null,
        })?;
        let h = req.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        for name in [
            header::AUTHORIZATION,
            header::ACCEPT_LANGUAGE,
            header::HeaderName::from_static("token"),
            header::HeaderName::from_static("x-forwarded-for"),
            header::HeaderName::from_static("x-real-ip"),
        ] {
            if let Some(v) = ctx.headers.get(&name) {
                h.insert(name, v.clone());
            }
        }
        if let Some(id) = &ctx.request_id {
            req.extensions_mut().insert(id.clone());
        }
        if let Some(peer) = &ctx.peer {
            req.extensions_mut().insert(*peer);
        }
        let res = match self.api.clone().oneshot(req).await {
            Ok(r) => r,
            Err(e) => match e {},
        };
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), ANSWER_MAX)
            .await
            .unwrap_or_default();
        let env: Envelope = serde_json::from_slice(&bytes).unwrap_or_else(|_| Envelope {
            code: status.as_u16() as i64,
            message: String::from_utf8_lossy(&bytes).trim().to_string(),
            data: Value::Null,
        });
        if status.is_success() && env.code == 200 {
            Ok(env.data)
        } else {
            Err(env)
        }
    }

    /// Polls the project's variants until none of those asked for is still processing, or the time
    /// is up: `{done, timed_out, counts, variants}`.
    async fn wait_renders(
        &self,
        ctx: &Ctx,
        path: &str,
        mut args: Map<String, Value>,
    ) -> Result<Value, Envelope> {
        let timeout = args
            .remove("timeout_seconds")
            .and_then(|v| v.as_u64())
            .unwrap_or(WAIT_DEFAULT_S)
            .clamp(1, WAIT_MAX_S);
        let wanted: Option<Vec<i64>> = args
            .remove("variant_ids")
            .and_then(|v| serde_json::from_value(v).ok());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
        loop {
            let mut rows: Vec<Value> = vec![];
            for page in 1..=20 {
                let mut q = args.clone();
                q.insert("page".into(), page.into());
                q.insert("limit".into(), 200.into());
                let data = self.api_call(ctx, path, Value::Object(q)).await?;
                let got = data["rows"].as_array().cloned().unwrap_or_default();
                let total = data["total"].as_u64().unwrap_or(0) as usize;
                let last = got.is_empty();
                rows.extend(got);
                if last || rows.len() >= total {
                    break;
                }
            }
            if let Some(ids) = &wanted {
                rows.retain(|r| r["id"].as_i64().is_some_and(|id| ids.contains(&id)));
            }
            let count = |s: &str| rows.iter().filter(|r| r["state"] == s).count();
            let processing = count("processing");
            let all_there = wanted.as_ref().is_none_or(|ids| ids.len() <= rows.len());
            let done = processing == 0 && all_there;
            let timed_out = !done && tokio::time::Instant::now() + POLL > deadline;
            if done || timed_out {
                return Ok(to_value(RenderWait {
                    done,
                    timed_out,
                    counts: RenderCounts {
                        processing,
                        success: count("success"),
                        failed: count("failed"),
                    },
                    variants: rows,
                }));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

#[derive(Serialize)]
struct RenderWait {
    done: bool,
    timed_out: bool,
    counts: RenderCounts,
    variants: Vec<Value>,
}

#[derive(Serialize)]
struct RenderCounts {
    processing: usize,
    success: usize,
    failed: usize,
}
