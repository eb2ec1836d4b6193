//! Every property named state, status, kind, platform or mode in the OpenAPI document lists its
//! words (`enum`, directly or through its `$ref`), so the console's generated types are unions of
//! them and no page narrows a `string` by hand.

use serde_json::Value;

const NAMES: &[&str] = &["state", "status", "kind", "platform", "mode"];

/// Legacy shapes whose `status` is an integer flag (1 enabled / 0 disabled), as the original API had.
const INTEGER_STATUS: &[&str] = &[
    "LogRow",
    "MerchantRow",
    "MerchantStatusReq",
    "ProjectStatusReq",
    "ProjectView",
    "StaffEditReq",
    "StaffView",
    "UserRow",
];

/// The schema a wrapper is about: `Reply_Page_TaskView` → `TaskView`.
fn owner(name: &str) -> &str {
    let mut n = name;
    loop {
        let stripped = ["Reply_", "Page_", "Rows_", "Vec_", "Option_"]
            .iter()
            .find_map(|p| n.strip_prefix(p));
        match stripped {
            Some(rest) => n = rest,
            None => return n,
        }
    }
}

fn resolve<'a>(doc: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => s,
    }
}

/// Whether a property's schema lists its words (a `null` alternative aside), or is an integer.
fn listed(doc: &Value, s: &Value) -> (bool, bool) {
    let s = resolve(doc, s);
    if s.get("enum").is_some() {
        return (true, false);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(alts) = s.get(key).and_then(Value::as_array) {
            let real: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type") != Some(&Value::from("null")))
                .collect();
            if !real.is_empty() {
                let each: Vec<(bool, bool)> = real.iter().map(|a| listed(doc, a)).collect();
                return (each.iter().all(|e| e.0), each.iter().all(|e| e.1));
            }
        }
    }
    let ty = s.get("type");
    let integer = ty == Some(&Value::from("integer"))
        || ty.and_then(Value::as_array).is_some_and(|t| {
            t.contains(&Value::from("integer")) && t.iter().all(|x| x == "integer" || x == "null")
        });
    (false, integer)
}

fn walk(doc: &Value, schema: &str, s: &Value, found: &mut Vec<String>) {
    if s.get("$ref").is_some() {
        return; // a named schema, checked on its own
    }
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            if NAMES.contains(&name.as_str()) {
                let (words, integer) = listed(doc, p);
                let owner = owner(schema);
                let allowed =
                    words || (integer && name == "status" && INTEGER_STATUS.contains(&owner));
                if !allowed {
                    found.push(format!("{schema}.{name}: {p}"));
                }
            }
            walk(doc, schema, p, found);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for alt in s.get(key).and_then(Value::as_array).into_iter().flatten() {
            walk(doc, schema, alt, found);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = s.get(key) {
            walk(doc, schema, inner, found);
        }
    }
}

#[test]
fn state_kind_status_platform_and_mode_properties_list_their_words() {
    let doc = serde_json::to_value(api::openapi()).expect("the document serializes");
    let schemas = doc["components"]["schemas"]
        .as_object()
        .expect("components.schemas");
    assert!(schemas.len() > 100, "found only {} schemas", schemas.len());
    let mut found = vec![];
    for (name, s) in schemas {
        walk(&doc, name, s, &mut found);
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "plain-string state/status/kind/platform/mode properties (type them with a domain \
         text_enum!):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_exceptions_are_still_exceptions() {
    let doc = serde_json::to_value(api::openapi()).expect("the document serializes");
    let schemas = &doc["components"]["schemas"];
    for schema in INTEGER_STATUS {
        let p = &schemas[*schema]["properties"]["status"];
        assert!(
            listed(&doc, p).1,
            "{schema}.status is no integer flag: drop it from INTEGER_STATUS"
        );
    }
}
