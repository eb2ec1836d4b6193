//! Hot lists: the platforms' boards read through the adapters by the job
//! `content.hotlist_sync` into the `hot_boards` cache, hourly (platform time) by a ticker and at
//! once when a page finds its board missing or stale; the pages read the cache only. A platform's
//! refusal keeps the last good rows and is shown beside them. Mapping to the real endpoints:
//! docs/content-platforms.md.

use crate::error::{ApiError, ApiResult};
use crate::platform::{self as hub, Hub, HubRef};
use domain::content::hotlists::{self as rules, HotPage, KEYWORDS_BOARD};
use domain::jobs::{HotBoardRef, Job};
use domain::platform::DyOnly;
use platforms::{Board, BoardEntry, Platform};
use store::content::hotlists as db;
use store::jobs::JobError;

/// Every board is Douyin's: the only platform with billboards (KS has no such API; its sandbox
/// hot search is the SEO pages').
pub const PLATFORM: DyOnly = DyOnly::Dy;

/// A board as the pages read it.
pub struct BoardView {
    pub board: &'static str,
    pub rows: Vec<BoardEntry>,
    pub day: String,
    /// Last good read (platform clock); 0 = not read yet (a read is queued).
    pub fetched_at: i64,
    /// The platform's refusal of the last attempt (`{reason_zh, reason_en}`), '' if none.
    pub last_error: String,
    /// The rows came from the sandbox (the page marks them simulated).
    pub simulated: bool,
}

/// Reads one board from the platform now; whether the sandbox answered.
async fn fetch(h: &Hub, board: &str) -> Result<(Vec<BoardEntry>, bool), Fetch> {
    let (a, sandbox) = h
        .adapter(Platform::from(PLATFORM))
        .await
        .map_err(|e| Fetch::Internal(e.to_string()))?;
    if board == KEYWORDS_BOARD {
        let words = a.hot_search().await.map_err(Fetch::Platform)?;
        let rows = words
            .into_iter()
            .map(|w| BoardEntry {
                rank: w.rank,
                title: w.word,
                heat: w.hot_level,
                label: w.label,
                ..BoardEntry::default()
            })
            .collect();
        return Ok((rows, sandbox));
    }
    let b =
        Board::from_code(board).ok_or_else(|| Fetch::Internal(format!("unknown board {board}")))?;
    Ok((a.billboard(b).await.map_err(Fetch::Platform)?, sandbox))
}

enum Fetch {
    Platform(platforms::PlatformError),
    Internal(String),
}

/// Reads one board and keeps it (or the platform's refusal) in the cache.
pub async fn sync_one(h: &Hub, board: &str) -> Result<(), JobError> {
    let now = h.db.clock.platform_now();
    match fetch(h, board).await {
        Ok((rows, simulated)) => {
            let items = serde_json::to_string(&rows).map_err(|e| JobError::Retry(e.to_string()))?;
            let day = domain::matrix::fmt_day(domain::matrix::day_of(now));
            db::save(
                &h.db,
                board,
                PLATFORM.as_str(),
                &items,
                &day,
                now,
                simulated,
            )
            .await
        }
        // Kept beside the last good rows; the ticker tries again next period.
        Err(Fetch::Platform(e)) => {
            db::failed(
                &h.db,
                board,
                PLATFORM.as_str(),
                &hub::platform_reason(&e),
                now,
            )
            .await
        }
        Err(Fetch::Internal(e)) => return Err(JobError::Retry(e)),
    }
    .map_err(|e| JobError::Retry(e.to_string()))
}

/// The job: one board.
pub async fn run(r: HotBoardRef, h: HubRef) -> Result<(), JobError> {
    sync_one(&h, &r.board).await
}

/// Queues a read of `board` for the current period; every node's ticker and page agree on one
/// job per board and period through the key.
async fn queue(d: &store::Db, board: &str, now: i64) -> sqlx::Result<()> {
    let job = store::jobs::NewJob {
        idempotency_key: Some(format!("hot:{board}:{}", now / rules::REFRESH_MS)),
        ..store::jobs::NewJob::new(Job::ContentHotlistSync(HotBoardRef {
            board: board.to_string(),
        }))
    };
    store::jobs::submit(d, &job).await.map(|_| ())
}

/// Queues a read of every board that is missing or older than [`rules::REFRESH_MS`]; answers how
/// many were due.
pub async fn queue_due(d: &store::Db, now: i64) -> sqlx::Result<usize> {
    let cached = db::boards(d).await?;
    let mut due = 0;
    for b in rules::all_boards() {
        let at = cached.iter().find(|r| r.board == b).map(|r| r.tried_at);
        if rules::is_stale(at.filter(|t| *t > 0), now) {
            queue(d, b, now).await?;
            due += 1;
        }
    }
    Ok(due)
}

/// The operator's "refresh now": every board, whatever its age (a key of its own, so it does
/// not collide with the period's job).
pub async fn refresh_all(d: &store::Db, now: i64) -> sqlx::Result<usize> {
    let boards = rules::all_boards();
    for b in &boards {
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!("hot:{b}:manual:{now}")),
            ..store::jobs::NewJob::new(Job::ContentHotlistSync(HotBoardRef {
                board: b.to_string(),
            }))
        };
        store::jobs::submit(d, &job).await?;
    }
    Ok(boards.len())
}

/// Looks for stale boards at start and every 10 minutes.
pub async fn schedule(d: store::Db, shutdown: tokio::sync::watch::Receiver<bool>) {
    let period = std::time::Duration::from_secs(600);
    crate::ticker::every(&d, period, shutdown, "hot-list reads", || {
        queue_due(&d, d.clock.platform_now())
    })
    .await
}

/// A page's board from the cache (`board` empty = the page's first). A board missing or stale
/// gets a read queued; the answer is what the cache holds now.
pub async fn read(d: &store::Db, page: HotPage, board: Option<&str>) -> ApiResult<BoardView> {
    let board = page.board(board).map_err(ApiError::from)?;
    let row = db::board(d, board).await?;
    let now = d.clock.platform_now();
    let tried = row.as_ref().map(|r| r.tried_at).filter(|t| *t > 0);
    if rules::is_stale(tried, now) {
        queue(d, board, now).await?;
    }
    Ok(match row {
        Some(r) => BoardView {
            board,
            rows: serde_json::from_str(&r.items).unwrap_or_default(),
            day: r.day,
            fetched_at: r.fetched_at,
            last_error: r.last_error,
            simulated: r.simulated == 1,
        },
        None => BoardView {
            board,
            rows: vec![],
            day: String::new(),
            fetched_at: 0,
            last_error: String::new(),
            simulated: false,
        },
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_board_of_the_pages_is_a_platform_board_or_the_hot_search() {
        for b in domain::content::hotlists::all_boards() {
            assert!(
                b == domain::content::hotlists::KEYWORDS_BOARD
                    || platforms::Board::from_code(b).is_some(),
                "{b}"
            );
        }
    }
}
