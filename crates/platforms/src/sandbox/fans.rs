//! Follower counts of authorized accounts (reports): a pure function of the platform, the
//! account and the China day of the platform clock, so they move as the clock is advanced and the
//! same day always gives the same figure (tests compare the reports with `/_control/followers`).
//! Every day gains between `rate` and `2 * rate - 1` followers, never loses any.

use super::S;
use crate::Platform;
use axum::Json;
use axum::extract::{Extension, Query, State as St};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::matrix::parse_day;
use serde_json::json;
use std::collections::HashMap;

/// 2024-01-01: the accounts' history starts there (earlier days answer that day's figure).
const EPOCH_DAY: i64 = 19_723;

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The account's followers at the end of China day `day`.
pub(crate) fn total(p: Platform, open_id: &str, day: i64) -> i64 {
    let h = fnv(&format!("{}:{open_id}", p.code()));
    let base = 200 + (h % 3000) as i64;
    let rate = 3 + ((h >> 16) % 40) as i64;
    let d = day.max(EPOCH_DAY) - EPOCH_DAY;
    // The day's jitter stays below `rate`, so each day still gains at least one follower.
    let jitter = (fnv(&format!("{h}:{d}")) % rate as u64) as i64;
    base + rate * d + jitter
}

/// `GET /_control/followers?platform&open_id&day=YYYY-MM-DD` (day: today by default) ->
/// `{platform, open_id, day, total}`: what the platform would report for that day.
/// A merchant asks about its own accounts only (404 otherwise, as for an account it does not have).
pub(crate) async fn control(
    St(s): St<S>,
    Extension(who): Extension<super::Viewer>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let v = |k: &str| q.get(k).map(String::as_str).unwrap_or("");
    if !who.sees(v("platform"), v("open_id")) {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "no such account"})),
        )
            .into_response();
    }
    let Some(p) = Platform::from_code(v("platform")) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "platform: dy | ks | sph | xhs | bjh | shop"})),
        )
            .into_response();
    };
    let day = match v("day") {
        "" => super::words::today(&s.clock),
        d => match parse_day(d) {
            Some(d) => d,
            None => {
                return (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"error": "day: YYYY-MM-DD"})),
                )
                    .into_response();
            }
        },
    };
    Json(
        json!({"platform": p.code(), "open_id": v("open_id"), "day": domain::matrix::fmt_day(day),
                "total": total(p, v("open_id"), day)}),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn followers_grow_every_day_and_differ_by_account() {
        for d in EPOCH_DAY..EPOCH_DAY + 400 {
            let gain = total(Platform::Dy, "ou_a", d + 1) - total(Platform::Dy, "ou_a", d);
            assert!(gain > 0, "day {d}: {gain}");
        }
        assert_eq!(
            total(Platform::Ks, "x", 20_000),
            total(Platform::Ks, "x", 20_000)
        );
        assert_ne!(
            total(Platform::Ks, "x", 20_000),
            total(Platform::Xhs, "x", 20_000)
        );
    }
}
