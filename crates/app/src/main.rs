use app::{Config, Layer};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "clipmatrix",
    version,
    about = "Short-video matrix console: API, console and workers in one binary"
)]
struct Cli {
    /// A clipmatrix.toml to read (default: ./clipmatrix.toml when present).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    #[arg(long, global = true)]
    database_url: Option<String>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// API + console + background workers.
    Serve {
        #[arg(long)]
        listen: Option<String>,
        /// API only; run `clipmatrix worker` nodes for the jobs.
        #[arg(long)]
        no_workers: bool,
        #[arg(long)]
        sandbox: Option<bool>,
    },
    /// Background jobs only.
    Worker,
    /// The platform simulator alone (PLATFORMS.md), under `/sandbox`. Point a server at it with
    /// CLIPMATRIX_PLATFORM_BASE=http://<listen>/sandbox. Its state lives as long as this process,
    /// or in `--data` when given.
    Sandbox {
        #[arg(long, default_value = "127.0.0.1:9090")]
        listen: String,
        /// Where Douyin webhooks go (e.g. http://127.0.0.1:8080/webhook/dy).
        #[arg(long)]
        webhook_url: Option<String>,
        /// Platform review delay in ms (platform clock).
        #[arg(long)]
        review_delay_ms: Option<i64>,
        /// Keep the simulator's state (tokens, works, messages) in this folder across restarts.
        #[arg(long)]
        data: Option<PathBuf>,
    },
    /// Apply database migrations and exit.
    Migrate,
    /// An MCP server on stdin/stdout (newline-delimited JSON-RPC) for desktop MCP clients: relays each
    /// message to `<url>/api/mcp` with the API token (made in the user center); logs go to stderr.
    Mcp {
        /// The clipmatrix server, e.g. http://127.0.0.1:8080 (or its /api/mcp endpoint).
        #[arg(long, env = "CLIPMATRIX_URL")]
        url: String,
        /// A personal API token (`cmx_…`); its scopes bound what the tools may do.
        #[arg(long, env = "CLIPMATRIX_TOKEN", hide_env_values = true)]
        token: String,
        /// The language of the answers' messages (zh or en; default the server's).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Print the OpenAPI document (what `/api/openapi.json` serves); `make api-types` generates the
    /// console's types from it.
    Openapi,
    /// Account administration.
    Admin {
        #[command(subcommand)]
        cmd: AdminCmd,
    },
    /// The creator consoles (Xiaohongshu, WeChat Channels, the shop).
    Platforms {
        #[command(subcommand)]
        cmd: PlatformsCmd,
    },
}

#[derive(Subcommand)]
enum PlatformsCmd {
    /// The page check (canary): walks a publish on `xhs`, `sph` or `shop` up to its last click on one
    /// live account, without publishing, and names the step that no longer matches. A failure pauses
    /// the platform's due items until a check passes or the operator resumes (System → Platform apps).
    Check { platform: String },
}

#[derive(Subcommand)]
enum AdminCmd {
    /// Create a merchant and its owner account.
    CreateMerchant {
        #[arg(long)]
        username: String,
        #[arg(long)]
        password: String,
        #[arg(long)]
        name: Option<String>,
    },
    /// Create an operator (Administrator) account.
    CreateOperator {
        #[arg(long)]
        username: String,
        #[arg(long)]
        password: String,
    },
    /// Set a user's password (ends their sessions, lifts a lockout).
    ResetPassword {
        #[arg(long)]
        username: String,
        #[arg(long)]
        password: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn,tower_http=warn".into());
    // One JSON object per line for log collectors (CLIPMATRIX_LOG_FORMAT=json); text otherwise.
    let json = std::env::var("CLIPMATRIX_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_writer(std::io::stderr);
    if json {
        logs.json().with_current_span(false).init();
    } else {
        logs.init();
    }
    let cli = Cli::parse();
    // The stdio relay reads no configuration: it only talks to a server.
    if let Cmd::Mcp { url, token, lang } = &cli.cmd {
        return app::mcp::stdio(url, token, lang.as_deref()).await;
    }
    let mut flags = Layer {
        data_dir: cli.data_dir,
        database_url: cli.database_url,
        ..Default::default()
    };
    if let Cmd::Serve {
        listen,
        no_workers,
        sandbox,
    } = &cli.cmd
    {
        flags.listen = listen.clone();
        flags.sandbox = *sandbox;
        flags.workers = no_workers.then_some(false);
    }
    let cfg = Config::load(cli.config, flags)?;
    match cli.cmd {
        Cmd::Serve { .. } => app::serve(cfg).await,
        Cmd::Worker => app::worker(cfg).await,
        Cmd::Sandbox {
            listen,
            webhook_url,
            review_delay_ms,
            data,
        } => app::sandbox(&listen, webhook_url, review_delay_ms, data).await,
        Cmd::Migrate => {
            app::open_db(&cfg).await?;
            println!("migrations applied to {}", app::redact(&cfg.database_url));
            Ok(())
        }
        Cmd::Admin { cmd } => admin(cfg, cmd).await,
        Cmd::Platforms {
            cmd: PlatformsCmd::Check { platform },
        } => app::platforms_check(cfg, &platform).await,
        Cmd::Mcp { .. } => unreachable!("handled before the configuration"),
        Cmd::Openapi => {
            println!("{}", api::openapi().to_pretty_json()?);
            Ok(())
        }
    }
}

async fn admin(cfg: Config, cmd: AdminCmd) -> anyhow::Result<()> {
    let db = app::open_db(&cfg).await?;
    let check = |u: &str, p: &str| -> anyhow::Result<()> {
        domain::validate::username(u)
            .map_err(|_| anyhow::anyhow!("username: 3-32 letters, digits, '_' or '-'"))?;
        domain::validate::new_password(p, p)
            .map_err(|_| anyhow::anyhow!("password: 8+ characters with letters and digits"))
    };
    match cmd {
        AdminCmd::CreateMerchant {
            username,
            password,
            name,
        } => {
            check(&username, &password)?;
            anyhow::ensure!(
                store::auth::users::user_by_username(&db, &username)
                    .await?
                    .is_none(),
                "{username} exists"
            );
            let name = name.unwrap_or_else(|| username.clone());
            let (m, _) = store::auth::users::create_merchant(
                &db,
                &name,
                &username,
                None,
                &store::auth::password::hash(&password),
            )
            .await?;
            println!(
                "merchant {} created (id {}), owner {username}",
                m.name, m.id
            );
        }
        AdminCmd::CreateOperator { username, password } => {
            check(&username, &password)?;
            anyhow::ensure!(
                store::auth::users::user_by_username(&db, &username)
                    .await?
                    .is_none(),
                "{username} exists"
            );
            store::auth::users::create_operator(
                &db,
                &username,
                &store::auth::password::hash(&password),
            )
            .await?;
            println!("operator {username} created");
        }
        AdminCmd::ResetPassword { username, password } => {
            check(&username, &password)?;
            let u = store::auth::users::user_by_username(&db, &username)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no user {username}"))?;
            store::auth::users::set_password(&db, u.id, &store::auth::password::hash(&password))
                .await?;
            store::auth::users::clear_user_failures(&db, &username).await?;
            println!("password of {username} reset; their sessions were ended");
        }
    }
    db.close().await;
    Ok(())
}
