//! The web app of morris: play Nine Men's Morris and its family in the browser, against the
//! computer or a friend online, with every game kept in SQLite.
//!
//! The server is the referee: every ply is checked by the rules core, and an accepted ply is
//! committed to the database before it is acknowledged, so that a crash loses nothing that a
//! player was told. The page (HTML, CSS and JavaScript in `web/`) is embedded in the binary.
//!
//! The HTTP and WebSocket API is described in `docs/api.md`.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use morris_server::{Config, open, serve};
//!
//! let config = Config::new("127.0.0.1:8080".parse()?, "games.db".into());
//! let app = open(&config).await?;
//! let listener = tokio::net::TcpListener::bind(config.addr).await?;
//! serve(listener, app, std::future::pending()).await?;
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accounts;
pub mod api;
pub mod app;
pub mod assets;
pub mod chat;
pub mod clock;
pub mod computer;
pub mod connections;
pub mod error;
pub mod fair;
pub mod game_state;
pub mod host;
pub mod limits;
pub mod lobby;
pub mod lobby_hub;
pub mod notify;
pub mod position_check;
pub mod presence;
pub mod queue;
pub mod rating;
pub mod request;
pub mod response;
pub mod review;
pub mod seat;
pub mod session;
pub mod storage;
pub mod store;
pub mod text;
pub mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};

pub use app::{AppState, Limits, Resumed, Retry};
pub use computer::Computer;
pub use connections::ConnectionLimits;
pub use error::ApiError;
pub use store::{DatabaseLock, Store, StoreError};

/// How the server runs.
#[derive(Clone)]
pub struct Config {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The database file (`:memory:` for one that is not kept).
    pub db: PathBuf,
    /// Tablebases that the computer player, hints and analyses probe.
    pub tablebase: Option<Arc<dyn morris_engine::Probe>>,
    /// The limits.
    pub limits: Limits,
    /// Searches run at once (default: the number of cores).
    pub engine_threads: Option<usize>,
    /// Where clocks read the time (default: the system's clock).
    pub now: Arc<dyn clock::Now>,
    /// Whether the session cookie is marked `Secure` (the site is served over TLS, by this
    /// server or a proxy in front of it).
    pub secure_cookies: bool,
    /// The names the site is reached by, besides its addresses and `localhost`: a request
    /// naming another host is refused (421).
    pub public_names: Vec<String>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("db", &self.db)
            .field("tablebase", &self.tablebase.is_some())
            .field("limits", &self.limits)
            .field("engine_threads", &self.engine_threads)
            .field("secure_cookies", &self.secure_cookies)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// The default settings for an address and a database.
    pub fn new(addr: SocketAddr, db: PathBuf) -> Config {
        Config {
            addr,
            db,
            tablebase: None,
            limits: Limits::default(),
            engine_threads: None,
            now: Arc::new(clock::SystemNow),
            secure_cookies: false,
            public_names: Vec::new(),
        }
    }
}

/// Opens the database and builds the server's state; the computer resumes every game in
/// which it was to move when the server last stopped.
///
/// Two servers must not share a database file: take its [`DatabaseLock`] first and keep it
/// while the server runs, as `morris serve` does.
///
/// # Errors
///
/// When the database cannot be opened or read.
pub async fn open(config: &Config) -> Result<Arc<AppState>, StoreError> {
    let store = Store::open(&config.db)?;
    let mut computer = match config.engine_threads {
        Some(n) => Computer::with_limits(n, config.limits.coaching),
        None => Computer::with_limits(
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            config.limits.coaching,
        ),
    };
    if let Some(tablebase) = &config.tablebase {
        computer = computer.with_tablebase(tablebase.clone());
    }
    let mut state = AppState::with_now(store, computer, config.limits, config.now.clone());
    state.secure_cookies = config.secure_cookies;
    state.public_names = config.public_names.clone();
    let app = Arc::new(state);
    app.measure_storage().await;
    match app.watch_stored_clocks().await {
        Ok(n) if n > 0 => tracing::info!("the clocks of {n} games run on"),
        Ok(_) => {}
        Err(e) => tracing::error!("cannot read the clocks of the stored games: {e}"),
    }
    match app.resume_computer_games().await {
        Ok(resumed) => {
            for (id, reason) in &resumed.skipped {
                tracing::error!(
                    "game {id} waits for the computer but cannot be read: {}",
                    error::log_safe(reason)
                );
            }
            if resumed.games > 0 {
                tracing::info!("the computer resumes {} games", resumed.games);
            }
        }
        Err(e) => tracing::error!("cannot resume the computer's games: {e}"),
    }
    Ok(app)
}

/// The HTTP routes: the API under `/api`, the page everywhere else.
pub fn router(app: Arc<AppState>) -> Router {
    let max_body = app.limits.max_body;
    let api = Router::new()
        .route("/variants", get(api::variants))
        .route("/levels", get(api::levels))
        .route("/games", post(api::create))
        .route("/import", post(api::import))
        .route("/games/{id}", get(api::game))
        .route("/games/{id}/moves", post(api::play))
        .route("/games/{id}/takeback", post(api::takeback))
        .route("/games/{id}/resign", post(api::resign))
        .route("/games/{id}/draw", post(api::draw))
        .route("/games/{id}/abort", post(api::play::abort))
        .route("/games/{id}/claim", post(api::play::claim))
        .route("/games/{id}/rematch", post(api::play::rematch))
        .route(
            "/games/{id}/chat",
            get(api::play::lines).post(api::play::say),
        )
        .route("/games/{id}/hint", get(api::hint))
        .route("/games/{id}/analysis", get(api::analysis))
        .route("/games/{id}/record", get(api::record))
        .route("/games/{id}/review", post(review::review))
        .route("/positions/check", post(position_check::check))
        .route("/games/{id}/ws", get(ws::watch))
        .route("/session", get(api::accounts::session))
        .route("/session/signup", post(api::accounts::sign_up))
        .route("/session/signin", post(api::accounts::sign_in))
        .route("/session/signout", post(api::accounts::sign_out))
        .route("/session/password", post(api::accounts::change_password))
        .route("/session/games", get(api::players::my_games))
        .route("/session/list", get(api::accounts::list))
        .route("/session/list/{id}", delete(api::accounts::revoke))
        .route("/players/{name}", get(api::players::player))
        .route("/players/{name}/games", get(api::players::player_games))
        .route("/playing", get(api::players::playing))
        .route("/leaderboard", get(api::players::leaderboard))
        .route(
            "/players/{name}/block",
            post(api::players::block).delete(api::players::unblock),
        )
        .route("/players/{name}/report", post(api::players::report))
        .route(
            "/players/{name}/follow",
            post(api::players::follow).delete(api::players::unfollow),
        )
        .route("/players", get(api::players::search))
        .route("/online", get(api::players::online))
        .route("/session/following", get(api::players::following))
        .route("/session/blocks", get(api::players::blocks))
        .route("/mod/reports", get(api::moderation::reports))
        .route("/mod/reports/{id}/resolve", post(api::moderation::resolve))
        .route("/mod/players/{name}/mute", post(api::moderation::mute))
        .route("/mod/players/{name}/close", post(api::moderation::close))
        .route("/mod/log", get(api::moderation::log))
        .route("/lobby", get(api::lobby::lobby))
        .route("/lobby/ws", get(api::lobby::watch))
        .route("/lobby/challenges", post(api::lobby::challenge))
        .route("/lobby/challenges/{id}", delete(api::lobby::withdraw))
        .route("/lobby/challenges/{id}/accept", post(api::lobby::accept))
        .route("/lobby/challenges/{id}/decline", post(api::lobby::decline))
        .route("/notify/ws", get(api::notify::watch))
        .route("/session/turn", get(api::players::my_turn))
        .route(
            "/lobby/quick",
            post(api::lobby::quick).delete(api::lobby::cancel_quick),
        )
        .fallback(api::unknown)
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed });
    Router::new()
        .nest("/api", api)
        .fallback(assets::page)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn(assets::security_headers))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            host::check,
        ))
        .with_state(app)
}

/// Serves the app on a bound listener until `shutdown` completes, within the connection
/// limits ([`ConnectionLimits`]). Games nobody uses leave memory after the idle time (they
/// stay in the database).
///
/// # Errors
///
/// When the listener fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let clocks = {
        let app = app.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(app.limits.clock_sweep);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let ended = app.sweep_clocks().await;
                if ended > 0 {
                    tracing::debug!("{ended} games ended on time");
                }
                let paired = api::lobby::pair_waiting(&app).await;
                if paired > 0 {
                    tracing::debug!("quick pairing started {paired} games");
                }
            }
        })
    };
    let sweeper = {
        let app = app.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(app.limits.sweep);
            loop {
                tick.tick().await;
                let restarted = app.restart_stuck().await;
                if restarted > 0 {
                    tracing::warn!("the computer starts again in {restarted} games left waiting");
                }
                app.measure_storage().await;
                app.end_expired_sessions().await;
                crate::lobby_hub::expire_challenges(&app);
                let dropped = app.evict_idle();
                if dropped > 0 {
                    tracing::debug!("{dropped} idle games left memory");
                }
                // A table file found damaged (at start, or since) is named once; the
                // others are used.
                for problem in app.computer.tablebase_problems() {
                    tracing::warn!("tablebase: {}", crate::error::log_safe(&problem));
                }
            }
        })
    };
    let limits = app.limits.connections;
    let result = connections::serve(listener, router(app), limits, shutdown).await;
    sweeper.abort();
    clocks.abort();
    result
}

/// Logs to standard error: `RUST_LOG` if set, else the server's notices and every warning.
pub fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,morris_server=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}
