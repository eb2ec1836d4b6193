//! The console's API types are generated from the OpenAPI document (`make api-types`); this fails
//! when the checked-in document no longer matches the server's.

#[test]
fn the_checked_in_openapi_document_is_the_servers() {
    let want = api::openapi()
        .to_pretty_json()
        .expect("the document serializes");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/api/openapi.json"
    );
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have.trim_end() != want.trim_end() {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .map_or(have.lines().count().min(want.lines().count()), |i| i);
        panic!(
            "web/src/api/openapi.json is not the server's OpenAPI document (first difference at \
             line {}): run make api-types",
            line + 1
        );
    }
}
