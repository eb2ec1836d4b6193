//! What changed since a moment, for the progress event stream: materials, finished videos, AI voice
//! tasks, one-touch jobs (each merchant's), and the new-lead notices of one user. A failed read is
//! skipped by the stream (it tries again on the next tick), so these answer the store's own error.

use store::Db;

pub async fn media(db: &Db, mid: i64, since: i64) -> sqlx::Result<Vec<store::materials::Progress>> {
    store::materials::changed_since(db, mid, since).await
}

pub async fn variants(
    db: &Db,
    mid: i64,
    since: i64,
) -> sqlx::Result<Vec<store::clip::VariantProgress>> {
    store::clip::variants_changed_since(db, mid, since).await
}

pub async fn tts(db: &Db, mid: i64, since: i64) -> sqlx::Result<Vec<store::ai::TaskProgress>> {
    store::ai::tasks_changed_since(db, mid, since).await
}

pub async fn one_touch(
    db: &Db,
    mid: i64,
    since: i64,
) -> sqlx::Result<Vec<store::clip::one_touch::AiClip>> {
    store::clip::one_touch::changed_since(db, mid, since).await
}

/// The newest new-lead notice of a user (0: none), where their stream starts.
pub async fn last_notice(db: &Db, uid: i64) -> sqlx::Result<i64> {
    store::engagement::messages::last_notice_id(db, uid).await
}

pub async fn notices(
    db: &Db,
    uid: i64,
    since: i64,
) -> sqlx::Result<Vec<store::engagement::messages::NoticeRow>> {
    store::engagement::messages::notices_since(db, uid, since).await
}
