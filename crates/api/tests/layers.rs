//! The layers show in the code: `api` is HTTP only and `services` holds the use cases; every SQL
//! statement lives in `store`, in a function named for what it does, so neither a handler nor a use
//! case reaches past the store into the pool.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of the crate at `src` that run SQL themselves.
/// Each Rust file under `crates/<krate>/src`: its path from there (with `/`) and its text.
fn sources_of(krate: &str) -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&src)
                .expect("under the crate's src")
                .to_string_lossy()
                .replace('\\', "/");
            (
                rel,
                std::fs::read_to_string(f).expect("readable source file"),
            )
        })
        .collect()
}

fn sql_lines(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    assert!(files.len() > 10, "found only {} source files", files.len());
    files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("readable source file");
            text.lines()
                .enumerate()
                .filter(|(_, l)| {
                    l.contains("sqlx::query") || l.contains(".pool)") || l.contains(".pool.")
                })
                .map(|(n, l)| format!("{}:{}: {}", f.display(), n + 1, l.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn api_and_services_run_no_sql() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["api", "services"] {
        let leaks = sql_lines(&crates.join(krate).join("src"));
        assert!(
            leaks.is_empty(),
            "SQL in the {krate} crate:\n{}",
            leaks.join("\n")
        );
    }
}

/// Every answer is a Rust type with a schema in the OpenAPI document: no hand-built JSON bodies in
/// the api crate (its unit tests aside; the guard builds the envelope of axum's own rejections, and
/// `reply.rs` the error envelope).
#[test]
fn api_answers_typed_bodies() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut found = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        // Unit tests sit at the end of a file, after `#[cfg(test)]`.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, l) in code.lines().enumerate() {
            let rejection_envelope =
                f.ends_with("guard.rs") && l.contains("\"code\": parts.status");
            // The error answer (`ErrorBody` in the document) is built from the pending error.
            let error_envelope = f.ends_with("reply.rs");
            if l.contains("json!(") && !rejection_envelope && !error_envelope {
                found.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "untyped JSON bodies:\n{}",
        found.join("\n")
    );
}

/// The OpenAPI document names a schema by its type's name (or its `#[schema(as = …)]`): two types of
/// one name would silently share one schema, and the console's generated types would describe only
/// one of them. Every `ToSchema` type of the server (api, services, store) has a name of its own.
#[test]
fn schema_names_are_unique() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in ["api", "services", "store", "domain"] {
        rust_files(&crates.join(krate).join("src"), &mut files);
    }
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            // A `text_enum!` is a schema named by its enum, or by the name after `as`.
            if l.contains("text_enum! {") {
                if let Some(rest) = lines[i + 1..]
                    .iter()
                    .find_map(|t| t.trim().strip_prefix("pub enum "))
                {
                    let name = match rest.split_once(" as \"") {
                        Some((_, alias)) => alias.split('"').next().unwrap_or_default().to_string(),
                        None => rest
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                    };
                    seen.entry(name).or_default().push(f.display().to_string());
                }
                continue;
            }
            if !(l.contains("#[derive(") && l.contains("ToSchema")) {
                continue;
            }
            // The attributes after the derive, up to the type's own line.
            let mut alias = None;
            for next in &lines[i + 1..] {
                let t = next.trim();
                if let Some(a) = t.strip_prefix("#[schema(as = ") {
                    alias = Some(a.trim_end_matches(")]").to_string());
                } else if let Some(rest) = t
                    .strip_prefix("pub struct ")
                    .or_else(|| t.strip_prefix("pub enum "))
                {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    seen.entry(alias.take().unwrap_or(name))
                        .or_default()
                        .push(f.display().to_string());
                    break;
                } else if !(t.starts_with("#[") || t.starts_with("///")) {
                    break;
                }
            }
        }
    }
    assert!(seen.len() > 100, "found only {} schemas", seen.len());
    let shared: Vec<String> = seen
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(n, at)| format!("{n}: {}", at.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "schema names used twice:\n{}",
        shared.join("\n")
    );
}

/// The areas (DESIGN.md §4), one name each, the same in every layer.
const AREAS: &[&str] = &[
    "activities",
    "ai",
    "auth",
    "clip",
    "content",
    "engagement",
    "materials",
    "matrix",
    "nfc",
    "reports",
    "seo",
    "system",
];

/// One layer's folder and what it holds besides one entry per area.
struct Layer {
    name: &'static str,
    /// From the repository's root.
    dir: &'static str,
    /// `None`: an area is a folder (files of this layer's kind beside them are shared pieces);
    /// `Some(suffix)`: an area is a file `<area><suffix>`.
    file: Option<&'static str>,
    /// Entries that are no area: shared infrastructure, each named here.
    shared: &'static [&'static str],
    /// Entries that are a sub-feature of an area (entry, area).
    features: &'static [(&'static str, &'static str)],
    /// Areas this layer has no entry for, and where they are instead.
    elsewhere: &'static [(&'static str, &'static str)],
}

const LAYERS: &[Layer] = &[
    Layer {
        name: "domain",
        dir: "crates/domain/src",
        file: None,
        shared: &[
            "actions",
            "clock",
            "compliance",
            "i18n",
            "jobs",
            "menus",
            "permission",
            "platform",
            "sheet",
            "text_enum",
            "validate",
        ],
        features: &[],
        elsewhere: &[
            (
                "auth",
                "permission.rs and actions.rs: the access table and the actions",
            ),
            (
                "nfc",
                "activities: the tap states beside the activities a tag runs",
            ),
        ],
    },
    Layer {
        name: "store",
        dir: "crates/store/src",
        file: None,
        shared: &["db", "jobs", "list", "ops", "secrets"],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "services",
        dir: "crates/services/src",
        file: None,
        shared: &[
            "aigc",
            "app",
            "compliance",
            "error",
            "jobs",
            "limits",
            "links",
            "platform",
            "ticker",
            "writer",
        ],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "api",
        dir: "crates/api/src/areas",
        file: None,
        shared: &[],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "web pages",
        dir: "web/src/pages",
        file: None,
        shared: &["exception"],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "web api",
        dir: "web/src/api",
        file: None,
        shared: &[],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "router modules",
        dir: "web/src/router/modules",
        file: Some(".ts"),
        shared: &[],
        features: &[],
        elsewhere: &[],
    },
    Layer {
        name: "locales (zh-CN)",
        dir: "web/src/locales/zh-CN",
        file: Some(".json"),
        shared: &["common", "widgets"],
        features: &[("slice", "clip")],
        elsewhere: &[],
    },
    Layer {
        name: "locales (en)",
        dir: "web/src/locales/en",
        file: Some(".json"),
        shared: &["common", "widgets"],
        features: &[("slice", "clip")],
        elsewhere: &[],
    },
    Layer {
        name: "e2e specs",
        dir: "e2e",
        file: Some(".spec.mjs"),
        // mcp: the MCP server's story runs the main jobs of several areas as tools.
        shared: &["layout", "mcp", "widgets"],
        features: &[("aiclip", "clip"), ("intellect", "clip")],
        elsewhere: &[
            (
                "activities",
                "nfc.spec.mjs: the NFC story runs the tag's activity",
            ),
            ("system", "auth.spec.mjs: the operator's screens"),
        ],
    },
];

/// The entries of a layer: (name, is a folder). Rust layers list their `.rs` files too (but the
/// crate root and `mod.rs`); web layers of folders list folders only.
fn entries(layer: &Layer) -> Vec<(String, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = vec![];
    for e in std::fs::read_dir(root.join(layer.dir)).expect("a layer's folder") {
        let path = e.expect("a folder entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if layer.file.is_none() && name != "node_modules" {
                out.push((name, true));
            }
            continue;
        }
        match layer.file {
            Some(suffix) => {
                if let Some(stem) = name.strip_suffix(suffix) {
                    out.push((stem.to_string(), false));
                }
            }
            None => {
                if let Some(stem) = name.strip_suffix(".rs")
                    && !["lib", "mod", "main"].contains(&stem)
                {
                    out.push((stem.to_string(), false));
                }
            }
        }
    }
    out.sort();
    out
}

/// Every layer has one folder (or file) per area, named as the area, and nothing else but the shared
/// pieces and sub-features listed in `LAYERS`: a new area shows where it is still missing, and a
/// piece that is no area has to be named as shared.
#[test]
fn every_layer_has_one_entry_per_area() {
    let mut problems = vec![];
    for layer in LAYERS {
        let found = entries(layer);
        let mut present: Vec<&str> = vec![];
        for (name, is_dir) in &found {
            if AREAS.contains(&name.as_str()) {
                if layer.file.is_none() && !is_dir {
                    problems.push(format!(
                        "{}: area {name} is a file, not a folder",
                        layer.name
                    ));
                }
                present.push(AREAS.iter().find(|a| **a == name).unwrap());
            } else if let Some((_, area)) = layer.features.iter().find(|(f, _)| f == name) {
                present.push(area);
            } else if !layer.shared.contains(&name.as_str()) {
                problems.push(format!(
                    "{}: {name} is neither an area nor listed as shared",
                    layer.name
                ));
            }
        }
        for area in AREAS {
            let elsewhere = layer.elsewhere.iter().any(|(a, _)| a == area);
            if !present.contains(area) && !elsewhere {
                problems.push(format!("{}: area {area} is missing", layer.name));
            }
            if present.contains(area) && elsewhere {
                problems.push(format!(
                    "{}: area {area} is there now; drop it from `elsewhere`",
                    layer.name
                ));
            }
        }
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        for listed in layer
            .shared
            .iter()
            .chain(layer.features.iter().map(|(f, _)| f))
        {
            if !names.contains(listed) {
                problems.push(format!("{}: listed {listed} does not exist", layer.name));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "area folders:\n{}",
        problems.join("\n")
    );
}

/// Where `path::` begins a path in `line` (not inside a longer name such as `keystore::`).
fn names_path(line: &str, path: &str) -> bool {
    line.match_indices(path).any(|(i, _)| {
        !line[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Handlers call the use cases only: the areas of `api` name no path of `store`, `media` or
/// `platforms`; what they read of those comes as `services`' read models (or its re-exports).
#[test]
fn api_areas_call_only_services() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/areas"),
        &mut files,
    );
    assert!(files.len() > 50, "found only {} area files", files.len());
    let mut found = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        for (n, l) in text.lines().enumerate() {
            if ["store::", "media::", "platforms::"]
                .iter()
                .any(|p| names_path(l, p))
            {
                found.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "api areas reaching past services:\n{}",
        found.join("\n")
    );
}

/// The store's rows are not API schemas: `api` answers views of its own (same JSON, same schema
/// names), so a column can change without changing the contract by accident.
#[test]
fn store_rows_are_not_schemas() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../store");
    let mut files = Vec::new();
    rust_files(&store.join("src"), &mut files);
    let mut found = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        for (n, l) in text.lines().enumerate() {
            if l.contains("ToSchema") || l.contains("utoipa") {
                found.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
            }
        }
    }
    let manifest = std::fs::read_to_string(store.join("Cargo.toml")).expect("store's manifest");
    if manifest.contains("utoipa") {
        found.push("crates/store/Cargo.toml depends on utoipa".into());
    }
    assert!(found.is_empty(), "schemas in store:\n{}", found.join("\n"));
}

/// Store rows carry their states, kinds, statuses and platforms as the domain's `text_enum!`s
/// (decoded with `#[sqlx(try_from = "String")]`), never as free text: what the database may hold is
/// the enum's words, and services compare enums, not strings.
#[test]
fn store_rows_have_no_text_states() {
    // Every state, kind, status and platform field of a store row is typed (empty: kept so a field
    // that cannot be typed yet is named here with its reason).
    const NOT_YET: &[(&str, &str)] = &[];
    let mut found = vec![];
    for (rel, text) in sources_of("store") {
        for (n, l) in text.lines().enumerate() {
            let t = l.trim();
            for field in ["state", "kind", "status", "platform"] {
                let text_field = t == format!("pub {field}: String,")
                    || t == format!("pub {field}: Option<String>,");
                if text_field && !NOT_YET.contains(&(rel.as_str(), field)) {
                    found.push(format!("store/src/{rel}:{}: {t}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "store rows with a text state (use its domain text_enum!):\n{}",
        found.join("\n")
    );
}

/// The console's area types (`web/src/api/<area>/types.ts`) alias the generated schemas as they are:
/// no `Omit<Schemas…>` re-narrowing a field by hand (the OpenAPI document lists the words itself).
#[test]
fn web_types_do_not_renarrow_schemas() {
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/api");
    let mut found = vec![];
    let mut areas = 0;
    for entry in std::fs::read_dir(&api).expect("web/src/api") {
        let types = entry.expect("a folder entry").path().join("types.ts");
        let Ok(text) = std::fs::read_to_string(&types) else {
            continue;
        };
        areas += 1;
        for (n, l) in text.lines().enumerate() {
            if l.contains("Omit<Schemas") {
                found.push(format!("{}:{}: {}", types.display(), n + 1, l.trim()));
            }
        }
    }
    assert!(areas >= 12, "only {areas} area type files read");
    assert!(
        found.is_empty(),
        "hand-narrowed schemas:\n{}",
        found.join("\n")
    );
}

/// Time is a value each application opens (`domain::clock::Clock`, carried by `store::Db`), not a
/// process-wide setting: `domain` holds no `static` atomics (two apps in one process, as in the
/// tests, each move their own clock).
#[test]
fn domain_has_no_global_state() {
    let domain = Path::new(env!("CARGO_MANIFEST_DIR")).join("../domain/src");
    let mut files = Vec::new();
    rust_files(&domain, &mut files);
    let mut found = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        for (n, l) in text.lines().enumerate() {
            let l = l.trim();
            if l.starts_with("static ") || l.starts_with("pub static ") || l.contains(" static ") {
                if l.contains("Atomic") || l.contains("Mutex") || l.contains("RwLock") {
                    found.push(format!("{}:{}: {l}", f.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "global state in domain:\n{}",
        found.join("\n")
    );
}

/// The words a reader reads are chosen in `api` (`api::words`, the views, the exports): a use case in
/// `services` takes no reader's language. It answers message keys with their arguments (`Msg`,
/// `Said`, a platform's refusal as a `reason.zh`/`reason.en` pair), stored reason codes and typed
/// codes instead.
#[test]
fn use_cases_take_no_readers_language() {
    // The language generated copy is written in (content the merchant publishes, not interface
    // words): the title writer's random titles and topics, and the prompt the writer asks the LLM in.
    const CONTENT_LANGUAGE: &[(&str, &str)] = &[
        ("seo/titles.rs", "random_titles"),
        ("seo/titles.rs", "random_topics"),
        ("writer/mod.rs", "ask"),
    ];
    let mut found = vec![];
    for (rel, text) in sources_of("services") {
        for (at, _) in text.match_indices("pub async fn ") {
            let sig = &text[at..text[at..].find('{').map_or(text.len(), |e| at + e)];
            let name = sig["pub async fn ".len()..]
                .split(|c: char| c == '(' || c == '<')
                .next()
                .unwrap_or_default();
            let takes_lang = sig.contains(": Lang") || sig.contains("i18n::Lang");
            if takes_lang && !CONTENT_LANGUAGE.contains(&(rel.as_str(), name)) {
                found.push(format!("services/src/{rel}: {name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "use cases taking the reader's language (render in api instead):\n{}",
        found.join("\n")
    );
}

/// `services` is the application without its transport: no HTTP framework and no OpenAPI schemas
/// (`api` owns the envelope, `IntoResponse` and every schema).
#[test]
fn services_know_no_http() {
    let services = Path::new(env!("CARGO_MANIFEST_DIR")).join("../services");
    let manifest =
        std::fs::read_to_string(services.join("Cargo.toml")).expect("services' manifest");
    let mut found: Vec<String> = ["axum", "utoipa"]
        .iter()
        .filter(|d| manifest.lines().any(|l| l.trim_start().starts_with(*d)))
        .map(|d| format!("crates/services/Cargo.toml depends on {d}"))
        .collect();
    let mut files = Vec::new();
    rust_files(&services.join("src"), &mut files);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source file");
        for (n, l) in text.lines().enumerate() {
            if ["axum::", "utoipa", "ToSchema", "IntoResponse"]
                .iter()
                .any(|p| names_path(l, p))
            {
                found.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
            }
        }
    }
    assert!(found.is_empty(), "HTTP in services:\n{}", found.join("\n"));
}

/// The text of `fn name` in `src`: from its signature to the first line that closes it.
fn fn_body<'a>(src: &'a str, name: &str) -> &'a str {
    let start = src
        .find(&format!("pub async fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let len = src[start..].find("\n}\n").expect("the function ends");
    &src[start..start + len]
}

/// `clipmatrix worker` opens the application without HTTP (no `api::`), and the background work
/// (job worker, publish dispatch, schedulers) is started in one place, `services::background`,
/// for `serve` and `worker` alike.
#[test]
fn the_worker_needs_no_api() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src/lib.rs");
    let src = std::fs::read_to_string(app).expect("crates/app/src/lib.rs");
    let worker = fn_body(&src, "worker");
    assert!(
        !names_path(worker, "api::"),
        "the worker names the HTTP layer:\n{worker}"
    );
    for f in ["worker", "serve"] {
        assert!(
            fn_body(&src, f).contains("services::background("),
            "{f} does not start services::background"
        );
    }
    for spawned in ["run_worker", "dispatch_loop", "::schedule("] {
        assert!(
            !src.contains(spawned),
            "crates/app/src/lib.rs starts {spawned} itself, beside services::background"
        );
    }
}
