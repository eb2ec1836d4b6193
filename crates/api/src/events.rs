//! `GET /api/events`: server-sent events with the progress of the caller's materials (ingest,
//! recognition) and finished videos (rendering), so the console's bars move without polling every list.
//! A staff member hears only of what their menus open: materials of the libraries they may use, voice
//! tasks with the AI voice menu, and so on.

use crate::extract::Caller;
use crate::state::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Serialize;
use services::materials::changes;
use std::convert::Infallible;
use std::time::Duration;

/// Which kinds of change the caller may hear of: what the list pages showing them would let them read.
#[derive(Debug, Clone)]
pub struct Audience {
    grants: Vec<String>,
    pub variants: bool,
    pub tts: bool,
    pub one_touch: bool,
}

impl Audience {
    /// Pages showing finished videos' progress (quick mix and the other editors, the video library).
    const VARIANT_PAGES: &[&str] = &[
        "/clip.merchant_much_clip/index",
        "/clip.merchant_video_library/index",
        "/clip.merchant_senior_clip/index",
        "/clip.merchant_visual_editing/index",
        "/clip.merchant_ai_clip/index",
        "/clip.merchant_project/index",
    ];

    pub fn of(grants: &[String]) -> Audience {
        let may = |path: &str| match domain::permission::access_for(path) {
            domain::permission::Access::Permission(p) => domain::permission::granted(grants, &p),
            _ => true,
        };
        Audience {
            grants: grants.to_vec(),
            variants: Self::VARIANT_PAGES.iter().any(|p| may(p)),
            tts: may("/ai.MerchantDub/taskList"),
            one_touch: may("/media.merchant_key_slice/my_one_touch_job"),
        }
    }

    /// A material of `library`: heard of by who may use that library.
    pub fn media(&self, library: &str) -> bool {
        domain::permission::granted(&self.grants, &domain::actions::library_permission(library))
    }
}

/// Where the stream is: the newest change sent of each kind.
struct Cursor {
    st: AppState,
    hears: Audience,
    media_since: i64,
    variant_since: i64,
    tts_since: i64,
    /// The caller's newest new-lead notice sent (by id).
    lead_since: i64,
    one_touch_since: i64,
}

/// A one-touch job's progress as the stream sends it.
#[derive(Serialize)]
struct OneTouchChange {
    id: i64,
    state: domain::clip::one_touch::State,
    progress: i64,
    reason: String,
    project_id: i64,
    updated_at: i64,
}

/// The rows changed since `since` as one event named `name` (none when nothing changed), moving
/// `since` to the newest of them.
fn changes<T: Serialize>(
    name: &str,
    rows: sqlx::Result<Vec<T>>,
    since: &mut i64,
    updated_at: fn(&T) -> i64,
) -> Option<Event> {
    match rows {
        Ok(rows) if !rows.is_empty() => {
            *since = rows
                .iter()
                .map(updated_at)
                .max()
                .unwrap_or(*since)
                .max(*since);
            Some(
                Event::default()
                    .event(name)
                    .json_data(&rows)
                    .unwrap_or_else(|_| Event::default().comment("encode")),
            )
        }
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(error = %e, "progress stream query failed");
            None
        }
    }
}

/// The rows of a kind the caller hears of; none (and no query) for one they do not.
async fn heard<T>(
    allowed: bool,
    rows: impl std::future::Future<Output = sqlx::Result<Vec<T>>>,
) -> sqlx::Result<Vec<T>> {
    if allowed { rows.await } else { Ok(vec![]) }
}

#[utoipa::path(get, path = "/events", tag = "materials", responses((status = 200, description = "text/event-stream; event `media`: [{id, state, progress, error, asr_state, updated_at}]; event `variant`: [{id, project_id, state, progress, error, duration_ms, updated_at}]; event `tts`: [{id, state, progress, reason, duration_ms, updated_at}]; event `lead`: new leads assigned to the caller [{id, lead_id, user_id, name, content, platform, source, wx_state, wx_reason, created_at}]; event `one_touch`: [{id, state, progress, reason, project_id, updated_at}]")))]
pub async fn events(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mid = c.user.merchant_id;
    let uid = c.user.id;
    let start = domain::now_ms() - 2_000;
    // New-lead notices are numbered: the stream tells those that arrive after it opened.
    let lead_since = changes::last_notice(&st.db, uid).await.unwrap_or(0);
    let cursor = Cursor {
        st,
        hears: Audience::of(&c.grants),
        media_since: start,
        variant_since: start,
        tts_since: start,
        lead_since,
        one_touch_since: start,
    };
    // Each tick yields the events of what changed (a comment when nothing did), sent one after another.
    let ticks = stream::unfold(cursor, move |mut cur| async move {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let Some(mid) = mid else {
            return Some((vec![Event::default().comment("no merchant")], cur));
        };
        let media = changes::media(&cur.st.db, mid, cur.media_since)
            .await
            .map(|rows| {
                // The cursor still moves past rows the caller does not hear of.
                if let Some(last) = rows.iter().map(|r| r.updated_at).max() {
                    cur.media_since = cur.media_since.max(last);
                }
                rows.into_iter()
                    .filter(|r| cur.hears.media(&r.library))
                    .collect::<Vec<_>>()
            });
        // A variant's reason (a cancel) is stored as a code: it goes out in the reader's language.
        let variants = heard(cur.hears.variants, async {
            changes::variants(&cur.st.db, mid, cur.variant_since).await
        })
        .await
        .map(|rows| {
            rows.into_iter()
                .map(|mut r| {
                    r.error = domain::i18n::localize_reason(&r.error, lang);
                    r
                })
                .collect::<Vec<_>>()
        });
        // AI voice tasks; a failure's reason in the reader's language.
        let tts = heard(cur.hears.tts, async {
            changes::tts(&cur.st.db, mid, cur.tts_since).await
        })
        .await
        .map(|rows| {
            rows.into_iter()
                .map(|mut r| {
                    r.reason = domain::i18n::localize_reason(&r.reason, lang);
                    r
                })
                .collect::<Vec<_>>()
        });
        // New leads given to the caller (only to them), with the WeChat delivery's state.
        let leads = changes::notices(&cur.st.db, uid, cur.lead_since)
            .await
            .map(|rows| {
                rows.into_iter()
                    .map(|n| crate::areas::engagement::wechat::notice_view(n, lang))
                    .collect::<Vec<_>>()
            });
        // One-touch videos: each step and the renders move the row.
        let one_touch = heard(cur.hears.one_touch, async {
            changes::one_touch(&cur.st.db, mid, cur.one_touch_since).await
        })
        .await
        .map(|rows| {
            rows.into_iter()
                .map(|r| OneTouchChange {
                    id: r.id,
                    state: r.state,
                    progress: r.progress,
                    reason: domain::i18n::localize_reason(&r.reason, lang),
                    project_id: r.project_id,
                    updated_at: r.updated_at,
                })
                .collect::<Vec<_>>()
        });
        let out: Vec<Event> = [
            changes("media", media, &mut cur.media_since, |r| r.updated_at),
            changes("variant", variants, &mut cur.variant_since, |r| {
                r.updated_at
            }),
            changes("tts", tts, &mut cur.tts_since, |r| r.updated_at),
            changes("lead", leads, &mut cur.lead_since, |r| r.id),
            changes("one_touch", one_touch, &mut cur.one_touch_since, |r| {
                r.updated_at
            }),
        ]
        .into_iter()
        .flatten()
        .collect();
        let out = if out.is_empty() {
            vec![Event::default().comment("tick")]
        } else {
            out
        };
        Some((out, cur))
    });
    let s = ticks.flat_map(|events| stream::iter(events.into_iter().map(Ok)));
    Sse::new(s).keep_alive(KeepAlive::default())
}
