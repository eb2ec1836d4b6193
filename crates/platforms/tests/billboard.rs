//! Billboards (hot lists) end to end: the DY adapter against the sandbox's
//! `/data/extern/billboard/...`, which moves with the platform clock; faults; other platforms.

mod common;

use common::*;
use platforms::{Board, BoardShape, ErrorKind, Platform, adapter};
use serde_json::json;

#[tokio::test]
async fn every_board_is_ranked_and_carries_its_shapes_fields() {
    let (_s, dy) = dy_setup().await;
    for b in Board::ALL {
        let rows = dy.billboard(b).await.unwrap();
        let len = if b.shape() == BoardShape::Creator {
            20
        } else {
            30
        };
        assert_eq!(rows.len(), len, "{b:?}");
        assert!(rows.iter().enumerate().all(|(i, r)| r.rank == i as u32 + 1));
        assert!(rows.windows(2).all(|w| w[0].heat >= w[1].heat), "{b:?}");
        assert!(rows.iter().all(|r| !r.title.is_empty() && r.heat > 0));
        let r = &rows[0];
        match b.shape() {
            BoardShape::Video => {
                assert!(r.plays > r.likes && r.likes > r.comments && r.comments > 0);
                assert!(!r.author.is_empty() && !r.cover.is_empty() && !r.share_url.is_empty());
                assert!(r.hot_words.len() >= 2, "{r:?}");
            }
            BoardShape::Topic => assert!(!r.rank_change.is_empty()),
            BoardShape::Music => assert!(r.duration > 0 && !r.author.is_empty()),
            BoardShape::Creator => {
                assert!(r.followers > 0 && r.cover.contains("/avatar/"));
                assert_eq!(r.videos.len(), 3);
                assert!(r.videos.iter().all(|v| !v.title.is_empty()));
            }
        }
    }
}

#[tokio::test]
async fn boards_move_with_the_day_not_within_it() {
    let (s, dy) = dy_setup().await;
    s.pin_early_morning();
    let a = dy.billboard(Board::Topic).await.unwrap();
    s.control("clock", json!({"advance_ms": 3 * 3_600_000}))
        .await;
    assert_eq!(
        dy.billboard(Board::Topic).await.unwrap(),
        a,
        "same day, same board"
    );
    s.control("clock", json!({"advance_ms": DAY})).await;
    let b = dy.billboard(Board::Topic).await.unwrap();
    assert_ne!(a, b);
    // rank_change compares with the day before: a row that kept its title moved as it says.
    for row in &b {
        match a.iter().find(|x| x.title == row.title) {
            None => assert_eq!(row.rank_change, "new", "{row:?}"),
            Some(old) => {
                let moved = old.rank as i64 - row.rank as i64;
                let want = match moved {
                    0 => "0".to_string(),
                    m if m > 0 => format!("+{m}"),
                    m => m.to_string(),
                };
                assert_eq!(row.rank_change, want, "{row:?} was {old:?}");
            }
        }
    }
}

#[tokio::test]
async fn billboard_faults_map_to_their_kinds_and_expired_tokens_are_renewed() {
    let (s, dy) = dy_setup().await;
    s.control(
        "faults",
        json!({"call": "dy.billboard", "fault": "rate_limit", "count": 1}),
    )
    .await;
    let e = dy.billboard(Board::HotVideo).await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Retryable, "28003018")
    );
    dy.billboard(Board::HotVideo).await.unwrap();
    s.control(
        "faults",
        json!({"call": "dy.billboard", "fault": "expired_token", "count": 1}),
    )
    .await;
    dy.billboard(Board::MusicHot).await.unwrap();
    assert_eq!(s.counts().await["client_tokens_issued"], 2);
}

#[tokio::test]
async fn a_wrong_app_secret_gets_no_board_and_other_platforms_have_none() {
    let s = start(|_| {}).await;
    let mut ep = s.endpoint(Platform::Dy);
    ep.app.client_secret = "wrong".into();
    let e = adapter(Platform::Dy, ep)
        .unwrap()
        .billboard(Board::Topic)
        .await
        .unwrap_err();
    assert_ne!(e.kind, ErrorKind::Retryable, "{e:?}");
    for p in [Platform::Ks, Platform::Bjh] {
        let e = adapter(p, s.endpoint(p))
            .unwrap()
            .billboard(Board::HotVideo)
            .await
            .unwrap_err();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::Permanent, "unsupported")
        );
        assert!(
            e.zh.contains("不支持") && e.en.contains("billboard"),
            "{e:?}"
        );
    }
}
