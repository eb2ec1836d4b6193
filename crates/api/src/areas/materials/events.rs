//! `GET /api/events`: server-sent events with the progress of the caller's materials (ingest,
//! recognition), so the console's bars move without polling every list.

use crate::extract::Caller;
use crate::state::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use std::convert::Infallible;
use std::time::Duration;

#[utoipa::path(get, path = "/events", tag = "materials", responses((status = 200, description = "text/event-stream; event `media`: [{id, state, progress, error, asr_state, updated_at}]")))]
pub async fn events(
    State(st): State<AppState>,
    c: Caller,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mid = c.user.merchant_id;
    let start = domain::now_ms() - 2_000;
    let s = stream::unfold((st, start), move |(st, since)| async move {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let Some(mid) = mid else {
            return Some((Ok(Event::default().comment("no merchant")), (st, since)));
        };
        match store::materials::changed_since(&st.db, mid, since).await {
            Ok(rows) if !rows.is_empty() => {
                let next = rows.iter().map(|r| r.updated_at).max().unwrap_or(since);
                let ev = Event::default()
                    .event("media")
                    .json_data(&rows)
                    .unwrap_or_else(|_| Event::default().comment("encode"));
                Some((Ok(ev), (st, next)))
            }
            Ok(_) => Some((Ok(Event::default().comment("tick")), (st, since))),
            Err(e) => {
                tracing::warn!(error = %e, "progress stream query failed");
                Some((Ok(Event::default().comment("retry")), (st, since)))
            }
        }
    });
    Sse::new(s).keep_alive(KeepAlive::default())
}
