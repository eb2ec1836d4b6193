//! The whole app a bench measures: a fresh data directory under the system temp dir, the first run's
//! demo merchant and operator, served on a random loopback port. Included by the app crate's benches
//! (`#[path = "../common/server.rs"] mod server;`).

/// A started bench server.
pub struct Server {
    pub dir: std::path::PathBuf,
    pub db: store::Db,
    pub state: api::AppState,
    /// `127.0.0.1:<port>`.
    pub addr: String,
}

/// Starts the app in `<temp>/cm-<tag>-<pid>`.
pub async fn start(tag: &str) -> anyhow::Result<Server> {
    let dir = std::env::temp_dir().join(format!("cm-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let cfg = app::Config::build(&[app::Layer {
        data_dir: Some(dir.clone()),
        demo_password: Some("Demo12345".into()),
        admin_password: Some("Admin12345".into()),
        ..Default::default()
    }]);
    let db = app::open_db(&cfg).await?;
    app::first_run(&db, &cfg).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    let state = api::AppState::new(db.clone(), app::settings(&cfg, &addr)).await?;
    let router =
        api::app(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(Server {
        dir,
        db,
        state,
        addr,
    })
}
