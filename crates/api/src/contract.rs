//! The OpenAPI document as a contract the console's types can be generated from: every operation has
//! a unique id, a GET call carries no body (`Input<T>` reads a GET's fields from the query), and every
//! operation lists the error answers the guard and the handlers give, as one `ErrorBody` envelope.

use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::schema::Ref;
use utoipa::openapi::{Content, OpenApi, RefOr};

/// The schema of a number the wire carries as an integer but that takes only `values` (a doc-only
/// type's `PartialSchema`: `DaySpan`, `LoginTypeCode`).
pub fn integer_enum(values: &[i64]) -> RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::{KnownFormat, SchemaFormat};
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .enum_values(Some(values.iter().copied()))
            .build(),
    ))
}

/// The envelope of an error answer.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // only its schema is used: the guard writes these bodies as JSON
pub struct ErrorBody {
    /// The HTTP status again (401, 403, 404, 413, 422, 429, 500).
    code: u16,
    /// What went wrong, in the caller's language.
    message: String,
    /// `{field}` for a 422 naming the field; `{perm}` for a 403; otherwise empty.
    data: serde_json::Value,
}

/// (status, component name, description) of the errors every operation can answer.
const ERRORS: [(&str, &str, &str); 5] = [
    (
        "401",
        "Unauthorized",
        "not signed in, or the session has expired",
    ),
    (
        "403",
        "Forbidden",
        "the caller's role or menus do not grant this call",
    ),
    ("404", "NotFound", "no such record for this merchant"),
    (
        "422",
        "Invalid",
        "a field breaks a rule; data.field names it",
    ),
    (
        "500",
        "ServerError",
        "an unexpected failure; the request id is in the log",
    ),
];

/// `post_clip_merchant_much_clip_add` for POST /clip.merchant_much_clip/add.
fn operation_id(method: &str, path: &str) -> String {
    let mut id = method.to_string();
    for c in path.chars() {
        id.push(if c.is_ascii_alphanumeric() { c } else { '_' });
    }
    id
}

pub fn operations(item: &mut PathItem) -> [(&'static str, &mut Option<Operation>); 5] {
    [
        ("get", &mut item.get),
        ("post", &mut item.post),
        ("put", &mut item.put),
        ("delete", &mut item.delete),
        ("patch", &mut item.patch),
    ]
}

/// Applies the contract's rules to the document the handlers' annotations produced.
pub fn finish(doc: &mut OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    components.schemas.insert(
        "ErrorBody".into(),
        <ErrorBody as utoipa::PartialSchema>::schema(),
    );
    for (_, name, description) in ERRORS {
        let answer = ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                Content::new(Some(Ref::from_schema_name("ErrorBody"))),
            )
            .build();
        components.responses.insert(name.into(), RefOr::T(answer));
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        for (method, op) in operations(item) {
            let Some(op) = op else { continue };
            op.operation_id = Some(operation_id(method, path));
            if method == "get" {
                op.request_body = None;
            }
            for (code, name, _) in ERRORS {
                op.responses
                    .responses
                    .entry(code.into())
                    .or_insert_with(|| RefOr::Ref(Ref::from_response_name(name)));
            }
        }
    }
}
