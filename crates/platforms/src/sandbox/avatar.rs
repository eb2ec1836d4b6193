//! Avatars of sandbox users: a small generated SVG per name (`GET /avatar/{name}.svg`), so the
//! console shows a picture instead of a broken link to a host that does not exist.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The avatar URL of a platform user: stable per (platform, open_id).
pub(crate) fn url(public_base: &str, platform: crate::Platform, open_id: &str) -> String {
    let h = super::stable_hash(&[platform.code(), open_id]);
    format!("{public_base}/avatar/{}-{h:012x}.svg", platform.code())
}

/// Any `<name>.svg` answers a picture coloured by the name: a disc, and a 3x3 symmetric pattern.
pub(crate) async fn serve(Path(file): Path<String>) -> Response {
    let Some(name) = file.strip_suffix(".svg").filter(|n| {
        !n.is_empty()
            && n.len() <= 64
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    }) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let h = super::stable_hash(&[name]);
    let hue = h % 360;
    let mut cells = String::new();
    for i in 0..9u64 {
        if (h >> (16 + i)) & 1 == 1 {
            let (x, y) = (i % 3, i / 3);
            // Mirror the left column onto the right for a face-like symmetry.
            for cx in [x, 4 - x] {
                cells.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" rx=\"2\"/>",
                    20 + cx * 12,
                    26 + y * 12
                ));
            }
        }
    }
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">\
         <circle cx=\"50\" cy=\"50\" r=\"50\" fill=\"hsl({hue},55%,55%)\"/>\
         <g fill=\"hsl({hue},60%,92%)\">{cells}</g></svg>"
    );
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        svg,
    )
        .into_response()
}
