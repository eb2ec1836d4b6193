//! The request schemas declare what the server enforces: the fields it always refuses when missing
//! are `required`, the fields it takes from a fixed set are enums, and its limits are bounds. utoipa
//! only takes number literals for bounds, so each declared literal is checked here against the
//! constant the server enforces, and every bound a request schema declares must be in that table.

use serde_json::Value;
use std::collections::BTreeSet;

fn schemas() -> serde_json::Map<String, Value> {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    doc["components"]["schemas"]
        .as_object()
        .expect("components.schemas")
        .clone()
}

/// The names of the schemas some operation takes as its body.
fn request_schemas() -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&api::openapi().to_json().expect("serializes"))
        .expect("the document is JSON");
    let mut out = BTreeSet::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        for op in item.as_object().expect("a path item").values() {
            for media in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flat_map(|c| c.values())
            {
                if let Some(r) = media["schema"]["$ref"].as_str() {
                    out.insert(r.trim_start_matches("#/components/schemas/").to_string());
                }
            }
        }
    }
    out
}

/// (schema, property, keyword, the server's value).
fn mirrored() -> Vec<(&'static str, &'static str, &'static str, i64)> {
    use domain::clip::one_touch as aiclip;
    use domain::{activities, ai, clip, matrix, seo};
    vec![
        ("AiDubReq", "text", "maxLength", ai::MAX_TEXT_CHARS as i64),
        ("AiDubReq", "volume", "minimum", 0),
        ("AiDubReq", "volume", "maximum", ai::VOLUME_MAX),
        ("AiDubReq", "speed", "minimum", ai::RATE_MIN),
        ("AiDubReq", "speed", "maximum", ai::RATE_MAX),
        ("AiDubReq", "intonation", "minimum", ai::RATE_MIN),
        ("AiDubReq", "intonation", "maximum", ai::RATE_MAX),
        ("TaskReq", "name", "maxLength", matrix::TASK_NAME_MAX as i64),
        ("TaskReq", "days", "maximum", matrix::MAX_DAYS as i64),
        (
            "TaskReq",
            "daily_quantity",
            "maximum",
            matrix::PER_ACCOUNT_DAY as i64,
        ),
        ("AiClipReq", "topic", "maxLength", aiclip::TOPIC_MAX as i64),
        ("AiClipReq", "seconds", "minimum", aiclip::SECONDS.0),
        ("AiClipReq", "seconds", "maximum", aiclip::SECONDS.1),
        ("AiClipReq", "count", "maximum", aiclip::MAX_VARIANTS),
        (
            "ProjectSaveReq",
            "name",
            "maxLength",
            services::clip::projects::PROJECT_NAME_MAX as i64,
        ),
        ("GenerateReq", "count", "maximum", clip::MAX_BATCH),
        (
            "FileTypeAddReq",
            "name",
            "maxLength",
            services::materials::library::FILE_TYPE_NAME_MAX as i64,
        ),
        ("TagReq", "name", "maxLength", activities::NAME_MAX as i64),
        ("WordReq", "word", "maxLength", seo::limits::SEED_MAX as i64),
        (
            "AccountGroupReq",
            "name",
            "maxLength",
            matrix::GROUP_NAME_MAX as i64,
        ),
    ]
}

/// The property's own schema, through a `oneOf` with null (an `Option` of a referenced type).
fn prop<'a>(all: &'a serde_json::Map<String, Value>, schema: &str, field: &str) -> &'a Value {
    let p = &all[schema]["properties"][field];
    assert!(p.is_object(), "{schema}.{field} is not in the document");
    p
}

#[test]
fn every_declared_bound_is_the_constant_the_server_enforces() {
    let all = schemas();
    let table = mirrored();
    for (schema, field, key, want) in &table {
        let have = prop(&all, schema, field)[*key].as_i64();
        assert_eq!(have, Some(*want), "{schema}.{field}.{key}");
    }
    // A bound declared anywhere else must be added to the table above (1 and 0 are the id and
    // count floors, and minLength 1 the "required, not blank" rule: nothing to mirror).
    for name in request_schemas() {
        let Some(props) = all[&name]["properties"].as_object() else {
            continue;
        };
        for (field, p) in props {
            for key in ["maximum", "minimum", "maxLength", "minLength", "maxItems"] {
                let Some(v) = p[key].as_i64() else { continue };
                let trivial = matches!((key, v), ("minimum", 0 | 1) | ("minLength", 1));
                let listed = table
                    .iter()
                    .any(|(s, f, k, _)| *s == name && f == field && *k == key);
                assert!(
                    trivial || listed,
                    "{name}.{field}.{key} = {v} mirrors no server constant: add it to mirrored()"
                );
            }
        }
    }
}

fn enum_of(all: &serde_json::Map<String, Value>, name: &str) -> Vec<String> {
    all[name]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} is no enum"))
        .iter()
        .map(|v| v.as_str().expect("a string value").to_string())
        .collect()
}

#[test]
fn declared_enums_are_the_sets_the_server_accepts() {
    let all = schemas();
    let mut codes: Vec<String> = platforms::Platform::ALL
        .iter()
        .map(|p| p.code().to_string())
        .collect();
    codes.push("bp".into());
    assert_eq!(enum_of(&all, "PlatformCode"), codes);
    for c in enum_of(&all, "PlatformCode") {
        assert!(services::matrix::hub::platform(&c).is_ok(), "{c}");
    }
    for m in enum_of(&all, "TimeModeCode") {
        assert!(domain::matrix::TimeMode::parse(&m).is_some(), "{m}");
    }
    assert_eq!(enum_of(&all, "TimeModeCode").len(), 3);
    assert_eq!(enum_of(&all, "AiClipKind"), domain::clip::one_touch::KINDS);
    assert_eq!(
        enum_of(&all, "MountType"),
        ["none", "poi", "mini_program", "official", "product"]
    );
    for k in enum_of(&all, "TagPoolKind") {
        assert!(domain::activities::PoolKind::parse(&k).is_some(), "{k}");
    }
    assert_eq!(enum_of(&all, "TagPlatform"), ["dy"]);
    assert_eq!(enum_of(&all, "SearchPlatform"), ["dy", "ks"]);
    assert_eq!(enum_of(&all, "FileKind"), ["audio", "video", "image"]);
}

/// (schema, fields the server refuses when missing or blank, on every operation taking the schema).
const REQUIRED: &[(&str, &[&str])] = &[
    ("IdReq", &["id"]),
    (
        "TaskReq",
        &[
            "name",
            "time_mode",
            "start_date",
            "daily_quantity",
            "days",
            "account_ids",
        ],
    ),
    ("RenameReq", &["id", "name"]),
    ("AiClipReq", &["topic"]),
    ("AiDubReq", &["text"]),
    ("ProjectSaveReq", &["name"]),
    ("FileTypeAddReq", &["kind", "name"]),
    ("TagReq", &["name", "platform", "pool_kind", "pool_id"]),
    ("WordReq", &["platform", "word"]),
    ("AppReq", &["platform"]),
    ("AccountGroupReq", &["name"]),
    ("RoleReq", &["name"]),
];

#[test]
fn fields_the_server_refuses_when_missing_are_required() {
    let all = schemas();
    for (schema, fields) in REQUIRED {
        let required: Vec<&str> = all[*schema]["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for f in *fields {
            assert!(required.contains(f), "{schema}.{f} is not required");
            // a required field with a default would tell a client it may leave it out
            assert!(
                prop(&all, schema, f).get("default").is_none(),
                "{schema}.{f} declares a default"
            );
        }
    }
}
