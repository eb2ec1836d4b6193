//! Running several nodes on one database: the cluster lock (`Db::lead`) lets one node lead and hands
//! over when that node's connection goes (it died); the job figures `/metrics` reads. The lock is
//! checked on PostgreSQL (CLIPMATRIX_TEST_POSTGRES_URL); on SQLite every node leads.

use store::Db;

#[tokio::test]
async fn one_node_leads_and_another_takes_over_when_it_dies() {
    let dir = std::env::temp_dir().join(format!(
        "cm-lead-{}-{}",
        std::process::id(),
        store::random_token(4)
    ));
    let url = format!("sqlite://{}/t.db", dir.display());
    let (a, b) = (
        Db::connect(&url).await.unwrap(),
        Db::connect(&url).await.unwrap(),
    );
    assert!(
        a.lead("dispatcher").await && b.lead("dispatcher").await,
        "SQLite: one machine, always lead"
    );
    let _ = std::fs::remove_dir_all(&dir);

    let Ok(pg) = std::env::var("CLIPMATRIX_TEST_POSTGRES_URL") else {
        return;
    };
    if pg.is_empty() {
        return;
    }
    let url = testkit::fresh_pg_database(&pg).await;
    let a = Db::connect(&url).await.unwrap();
    let b = Db::connect(&url).await.unwrap();
    assert!(a.lead("dispatcher").await);
    assert!(a.lead("dispatcher").await, "the leader keeps leading");
    assert!(!b.lead("dispatcher").await, "one leader per cluster");
    assert!(b.lead("cleanup").await, "locks are per name");
    assert!(!a.lead("cleanup").await);
    // A dies (dropped without closing, as a killed process): its connections go, its locks with them.
    drop(a);
    let mut took = false;
    for _ in 0..50 {
        if b.lead("dispatcher").await {
            took = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(took, "another node takes over");
    assert!(b.lead("cleanup").await);
    // A node that stops cleanly gives its locks up at once, and closing does not wait on them.
    let c = Db::connect(&url).await.unwrap();
    assert!(!c.lead("dispatcher").await);
    b.close().await;
    assert!(c.lead("dispatcher").await);
    c.close().await;
}

#[tokio::test]
async fn the_job_figures_count_queued_running_and_failed_jobs() {
    let dir = std::env::temp_dir().join(format!(
        "cm-ops-{}-{}",
        std::process::id(),
        store::random_token(4)
    ));
    let db = Db::connect(&format!("sqlite://{}/t.db", dir.display()))
        .await
        .unwrap();
    db.migrate().await.unwrap();
    let now = domain::now_ms();
    for (kind, state, run_at, started, finished, err) in [
        ("clip.render", "queued", now - 5_000, None, None, None),
        ("clip.render", "queued", now + 60_000, None, None, None),
        (
            "clip.render",
            "running",
            now - 9_000,
            Some(now - 8_000),
            None,
            None,
        ),
        (
            "clip.render",
            "done",
            now - 9_000,
            Some(now - 4_000),
            Some(now - 1_000),
            None,
        ),
        (
            "publish.item",
            "dead",
            now - 9_000,
            Some(now - 4_000),
            Some(now - 1_000),
            Some("platform refused: token expired"),
        ),
    ] {
        sqlx::query(
            "INSERT INTO jobs (kind, state, run_at, started_at, finished_at, last_error, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
        )
        .bind(kind)
        .bind(state)
        .bind(run_at)
        .bind(started)
        .bind(finished)
        .bind(err)
        .bind(now - 10_000)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    let d = store::ops::queue_depth(&db, now).await.unwrap();
    let get = |state: &str| {
        d.iter()
            .find(|q| q.kind == domain::jobs::JobKind::ClipRender && q.state.as_str() == state)
            .unwrap()
            .clone()
    };
    // Two queued (one not yet due: counted, but the age is the due one's), one running.
    assert_eq!(
        (get("queued").count, get("queued").oldest),
        (2, Some(now - 5_000))
    );
    assert_eq!(
        (get("running").count, get("running").oldest),
        (1, Some(now - 8_000))
    );
    assert_eq!(
        store::ops::run_times(&db, domain::jobs::JobKind::ClipRender, now - 60_000, 10)
            .await
            .unwrap(),
        [3_000]
    );
    let f = store::ops::failures(&db, now - 60_000).await.unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!(
        (f[0].kind.as_str(), f[0].state.as_str(), f[0].count),
        ("publish.item", "dead", 1)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A creator-console account's browser login for every node, and the lease two nodes take turns
/// on (`store::matrix::profiles`), on SQLite and (when set) PostgreSQL.
#[tokio::test]
async fn browser_logins_are_versioned_and_leased_one_holder_at_a_time() {
    let dir = std::env::temp_dir().join(format!(
        "cm-profiles-{}-{}",
        std::process::id(),
        store::random_token(4)
    ));
    let mut urls = vec![format!("sqlite://{}/t.db", dir.display())];
    if let Ok(pg) = std::env::var("CLIPMATRIX_TEST_POSTGRES_URL")
        && !pg.is_empty()
    {
        urls.push(testkit::fresh_pg_database(&pg).await);
    }
    for url in urls {
        use store::matrix::*;
        let (a, b) = (
            Db::connect(&url).await.unwrap(),
            Db::connect(&url).await.unwrap(),
        );
        a.migrate().await.unwrap();
        assert_eq!(profile_state(&a, "xhs-1").await.unwrap(), None);
        assert!(
            take_profile_lease(&a, "xhs-1", "node-a", 60_000)
                .await
                .unwrap()
        );
        assert_eq!(
            profile_state(&a, "xhs-1").await.unwrap(),
            None,
            "a lease alone stores no login"
        );
        assert!(
            take_profile_lease(&a, "xhs-1", "node-a", 60_000)
                .await
                .unwrap(),
            "renewed"
        );
        assert!(
            !take_profile_lease(&b, "xhs-1", "node-b", 60_000)
                .await
                .unwrap()
        );
        drop_profile_lease(&b, "xhs-1", "node-b").await.unwrap();
        assert!(
            !take_profile_lease(&b, "xhs-1", "node-b", 60_000)
                .await
                .unwrap(),
            "not b's to give back"
        );
        assert_eq!(
            save_profile_state(&a, "xhs-1", "sealed-1", 10)
                .await
                .unwrap(),
            1
        );
        assert_eq!(
            save_profile_state(&a, "xhs-1", "sealed-2", 12)
                .await
                .unwrap(),
            2
        );
        drop_profile_lease(&a, "xhs-1", "node-a").await.unwrap();
        assert!(take_profile_lease(&b, "xhs-1", "node-b", -1).await.unwrap());
        assert!(
            take_profile_lease(&a, "xhs-1", "node-a", 60_000)
                .await
                .unwrap(),
            "a lease that ran out is anyone's"
        );
        assert_eq!(
            profile_lease_holder(&b, "xhs-1").await.unwrap().as_deref(),
            Some("node-a")
        );
        // node-a died: node-c takes its lease over, once.
        assert!(
            !take_over_profile_lease(&b, "xhs-1", "node-x", "node-c", 60_000)
                .await
                .unwrap()
        );
        assert!(
            take_over_profile_lease(&b, "xhs-1", "node-a", "node-c", 60_000)
                .await
                .unwrap()
        );
        assert!(
            !take_over_profile_lease(&a, "xhs-1", "node-a", "node-d", 60_000)
                .await
                .unwrap()
        );
        drop_profile_lease(&b, "xhs-1", "node-c").await.unwrap();
        assert_eq!(profile_lease_holder(&b, "xhs-1").await.unwrap(), None);
        assert!(
            take_profile_lease(&a, "xhs-1", "node-a", 60_000)
                .await
                .unwrap()
        );
        assert_eq!(
            profile_state(&b, "xhs-1").await.unwrap(),
            Some((2, "sealed-2".to_string()))
        );
        // A first login without a lease; both become account 7's, the later one replacing the other.
        assert_eq!(
            save_profile_state(&a, "xhs-2", "sealed-x", 30)
                .await
                .unwrap(),
            1
        );
        link_profile(&a, "xhs-1", 7).await.unwrap();
        link_profile(&a, "xhs-2", 7).await.unwrap();
        assert_eq!(
            profile_state(&a, "xhs-1").await.unwrap(),
            None,
            "the older login went"
        );
        assert_eq!(
            profile_state(&a, "xhs-2").await.unwrap(),
            Some((1, "sealed-x".to_string()))
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
