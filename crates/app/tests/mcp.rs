//! The MCP server (issue 44, part 2): `POST /api/mcp` answers JSON-RPC with the main jobs as tools,
//! each one call of the API as the caller (token scopes, tenant and language included), and
//! `clipmatrix mcp` relays the stdio transport to it.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// A personal API token of the caller's.
async fn token(app: &TestApp, t: &str, name: &str, scopes: &[&str]) -> String {
    let r = app
        .post(
            "/index/addApiToken",
            Some(t),
            json!({"name": name, "scopes": scopes, "expires_in_days": 30}),
        )
        .await;
    r.ok()["token"].as_str().unwrap().to_string()
}

/// One JSON-RPC message to the endpoint: (HTTP status, body or Null).
async fn rpc(app: &TestApp, token: Option<&str>, lang: &str, msg: Value) -> (u16, Value) {
    let mut req = app
        .http
        .post(app.url("/api/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("accept-language", lang)
        .json(&msg);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `tools/call` of one tool: its result.
async fn call(app: &TestApp, token: &str, lang: &str, name: &str, args: Value) -> Value {
    let (status, body) = rpc(
        app,
        Some(token),
        lang,
        json!({"jsonrpc": "2.0", "id": name, "method": "tools/call", "params": {"name": name, "arguments": args}}),
    )
    .await;
    assert_eq!((status, &body["id"]), (200, &json!(name)), "{body}");
    body["result"].clone()
}

fn ids(result: &Value) -> Vec<i64> {
    result["structuredContent"]["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {result}"))
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect()
}

const TOOLS: [&str; 15] = [
    "list_material_groups",
    "list_materials",
    "create_quick_mix_project",
    "generate_variants",
    "wait_for_renders",
    "list_finished_videos",
    "make_voice_over",
    "list_voice_overs",
    "write_titles",
    "list_accounts",
    "create_release_task",
    "release_task_progress",
    "list_comments",
    "list_leads",
    "report_overview",
];

#[tokio::test]
async fn mcp_tools_are_api_calls_as_the_caller() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let read = token(&app, &demo, "mcp-read", &["read"]).await;
        let g = group(&app, &demo, &format!("MCP 开场 {b:?}")).await;

        // No token, a bad one: 401 as every API call.
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}});
        assert_eq!(rpc(&app, None, "en", init.clone()).await.0, 401);
        assert_eq!(rpc(&app, Some("cmx_nope"), "en", init.clone()).await.0, 401);

        // The handshake.
        let (status, body) = rpc(&app, Some(&read), "en", init.clone()).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["id"], 1);
        let r = &body["result"];
        assert_eq!(r["protocolVersion"], "2025-06-18");
        assert_eq!(r["serverInfo"]["name"], "clipmatrix");
        assert!(r["capabilities"]["tools"].is_object(), "{r}");
        // A web page of another origin (DNS rebinding) is refused; the server's own origin is not.
        for (origin, want) in [
            ("http://evil.example:8080", 403),
            (format!("http://{}", app.addr).as_str(), 200),
        ] {
            let res = app
                .http
                .post(app.url("/api/mcp"))
                .bearer_auth(&read)
                .header("origin", origin)
                .json(&init)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status().as_u16(), want, "{origin}");
        }
        // A version the server does not speak: it answers its newest.
        let mut old = init.clone();
        old["params"]["protocolVersion"] = json!("1999-01-01");
        let (_, body) = rpc(&app, Some(&read), "en", old).await;
        assert_eq!(
            body["result"]["protocolVersion"],
            api::mcp::PROTOCOL_VERSIONS[0]
        );
        let (status, body) = rpc(
            &app,
            Some(&read),
            "en",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
        assert_eq!((status, body), (202, Value::Null));
        let (_, body) = rpc(
            &app,
            Some(&read),
            "en",
            json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}),
        )
        .await;
        assert_eq!(body["result"], json!({}));

        // The tools, each with an object schema made from the OpenAPI document.
        let (_, body) = rpc(
            &app,
            Some(&read),
            "en",
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        )
        .await;
        let tools = body["result"]["tools"].as_array().unwrap().clone();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, TOOLS);
        for t in &tools {
            let s = &t["inputSchema"];
            assert_eq!(s["type"], "object", "{}: {s}", t["name"]);
            assert!(s["properties"].is_object(), "{}: {s}", t["name"]);
            assert!(
                !s.to_string().contains("#/components/"),
                "{}: a reference outside the schema: {s}",
                t["name"]
            );
            assert!(!t["description"].as_str().unwrap().is_empty());
        }
        let tool = |n: &str| tools.iter().find(|t| t["name"] == n).unwrap().clone();
        // A body schema with its components under $defs; a flattened one merged into one object.
        let project = tool("create_quick_mix_project")["inputSchema"].clone();
        assert_eq!(
            project["properties"]["config"]["$ref"],
            "#/$defs/ProjectConfig"
        );
        assert!(project["$defs"]["GroupRule"]["properties"]["group_id"].is_object());
        let task = tool("create_release_task")["inputSchema"].clone();
        for f in ["account_ids", "video_ids", "time_mode", "poi_id"] {
            assert!(task["properties"][f].is_object(), "{f}: {task}");
        }
        assert!(
            task["required"]
                .as_array()
                .unwrap()
                .contains(&json!("account_ids"))
        );
        // Documented query parameters, with the tool's own fields beside them.
        let wait = tool("wait_for_renders")["inputSchema"].clone();
        assert_eq!(wait["required"], json!(["project_id"]));
        assert!(wait["properties"]["timeout_seconds"].is_object());
        let report = tool("report_overview")["inputSchema"].clone();
        assert_eq!(report["properties"]["span"]["$ref"], "#/$defs/ReportSpan");
        assert_eq!(tool("list_accounts")["annotations"]["readOnlyHint"], true);
        assert_eq!(
            tool("create_release_task")["annotations"]["readOnlyHint"],
            false
        );

        // A read: the envelope's data, as text and structured.
        let r = call(
            &app,
            &read,
            "en",
            "list_material_groups",
            json!({"limit": 50}),
        )
        .await;
        assert_eq!(r["isError"], false, "{r}");
        assert!(ids(&r).contains(&g), "{r}");
        let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, r["structuredContent"]);
        let r = call(
            &app,
            &read,
            "en",
            "report_overview",
            json!({"span": "week"}),
        )
        .await;
        assert_eq!(r["isError"], false, "{r}");
        assert!(r["structuredContent"]["totals"].is_object(), "{r}");
        // No variants yet: nothing to wait for.
        let r = call(
            &app,
            &read,
            "en",
            "wait_for_renders",
            json!({"project_id": 1, "timeout_seconds": 1}),
        )
        .await;
        assert_eq!(r["isError"], false, "{r}");
        assert_eq!(r["structuredContent"]["done"], true, "{r}");

        // A read token publishes nothing through MCP either: the API's refusal, in the caller's language.
        let task_args = json!({"name": "MCP", "time_mode": "random", "start_date": "2030-01-01",
            "daily_quantity": 1, "days": 1, "account_ids": [1], "video_ids": [1]});
        let r = call(&app, &read, "en", "create_release_task", task_args.clone()).await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(
            r["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("scopes (read)"),
            "{r}"
        );
        assert_eq!(r["structuredContent"]["code"], 403, "{r}");
        let r = call(
            &app,
            &read,
            "zh-CN",
            "create_quick_mix_project",
            json!({"name": "P"}),
        )
        .await;
        assert_eq!(r["isError"], true, "{r}");
        assert!(
            r["content"][0]["text"].as_str().unwrap().contains("read"),
            "{r}"
        );
        // The same call as the owner's session gets as far as the API's own checks.
        let r = call(&app, &demo, "en", "create_release_task", task_args).await;
        assert_eq!(r["isError"], true, "{r}");
        assert_ne!(r["structuredContent"]["code"], 403, "{r}");
        // Not a table of names: an unknown account.
        assert!(!r["content"][0]["text"].as_str().unwrap().is_empty(), "{r}");

        // Another merchant sees none of demo's records through the tools.
        let admin = app.admin().await;
        let other = app
            .second_merchant(&admin, &format!("mcpshop{}", b as u8))
            .await;
        let other = token(&app, &other, "other", &["read"]).await;
        let r = call(
            &app,
            &other,
            "en",
            "list_material_groups",
            json!({"limit": 50}),
        )
        .await;
        assert!(!ids(&r).contains(&g), "{r}");
        let r = call(&app, &other, "en", "list_materials", json!({"group_id": g})).await;
        assert!(r["isError"] == true || ids(&r).is_empty(), "{r}");
        let mine = call(&app, &read, "en", "list_materials", json!({"group_id": g})).await;
        assert_eq!(mine["isError"], false, "{mine}");

        // The protocol's errors.
        let (_, body) = rpc(&app, Some(&read), "en", json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "drop_tables"}})).await;
        assert_eq!(body["error"]["code"], -32602, "{body}");
        let (_, body) = rpc(
            &app,
            Some(&read),
            "en",
            json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list"}),
        )
        .await;
        assert_eq!(body["error"]["code"], -32601, "{body}");
        let (_, body) = rpc(
            &app,
            Some(&read),
            "en",
            json!([{"jsonrpc": "2.0", "id": 5, "method": "ping"}]),
        )
        .await;
        assert_eq!(body["error"]["code"], -32600, "{body}");
        let res = app
            .http
            .post(app.url("/api/mcp"))
            .bearer_auth(&read)
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"]["code"], -32700, "{body}");
        // No stream: GET is not allowed.
        let res = app
            .http
            .get(app.url("/api/mcp"))
            .bearer_auth(&read)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 405);
    }
}

/// `clipmatrix mcp`: stdin's messages go to the endpoint with the token, the answers come back on
/// stdout one a line (a notification's none); a refused token answers the request's id with an error.
#[tokio::test]
async fn the_stdio_relay_speaks_to_the_endpoint() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let read = token(&app, &demo, "stdio", &["read"]).await;
    let g = group(&app, &demo, "stdio 开场").await;
    let base = app.url("");
    let lines = tokio::task::spawn_blocking(move || {
        let run = |token: &str, input: &[Value], answers: usize| -> Vec<Value> {
            let mut child = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
                .args(["mcp", "--url", &base, "--token", token, "--lang", "en"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            for m in input {
                writeln!(stdin, "{m}").unwrap();
            }
            let mut out = BufReader::new(child.stdout.take().unwrap());
            let mut got = vec![];
            for _ in 0..answers {
                let mut line = String::new();
                out.read_line(&mut line).unwrap();
                got.push(serde_json::from_str::<Value>(&line).unwrap_or(Value::String(line)));
            }
            drop(stdin);
            assert!(child.wait().unwrap().success());
            got
        };
        let ok = run(
            &read,
            &[
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_material_groups", "arguments": {}}}),
            ],
            2,
        );
        let refused = run(
            "cmx_revoked",
            &[json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})],
            1,
        );
        (ok, refused)
    })
    .await
    .unwrap();
    let (ok, refused) = lines;
    let by_id = |id: i64| {
        ok.iter()
            .find(|l| l["id"] == id)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        by_id(1)["result"]["protocolVersion"],
        "2025-03-26",
        "{ok:?}"
    );
    let listed = &by_id(2)["result"];
    assert_eq!(listed["isError"], false, "{ok:?}");
    assert!(ids(listed).contains(&g), "{listed}");
    assert_eq!(refused[0]["id"], 7, "{refused:?}");
    assert!(
        refused[0]["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("401"),
        "{refused:?}"
    );
}
