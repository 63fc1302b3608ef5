//! `morris serve`: the web app.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use morris_server::{Config, DatabaseLock, Limits, init_logging, open, serve};
use morris_tablebase::BackgroundOptions;

use crate::failure::Failure;
use crate::paths;
use crate::tables::{self, Building};

/// The settings of `morris serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on: loopback by default; `0.0.0.0:8080` lets other machines in.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database file [default: $XDG_DATA_HOME/morris/morris.db or
    /// ~/.local/share/morris/morris.db].
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// A folder of tablebase files that the computer player, hints and analyses probe
    /// [default: the data folder]; created if missing, with the moving-phase tables of up to
    /// ten pieces built in it in the background on first use.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// Games one address may create per minute (0: no limit).
    #[arg(long, default_value_t = Limits::default().games_per_minute, value_name = "N")]
    games_per_minute: u32,
    /// WebSockets (live game views) open at once; more are refused until some close.
    #[arg(long, default_value_t = Limits::default().max_sockets, value_name = "N")]
    max_sockets: usize,
    /// A name the site is reached by (repeat for more), besides its addresses and localhost:
    /// a request naming another host is refused (421), against DNS rebinding.
    #[arg(long = "public-name", value_name = "NAME")]
    public_names: Vec<String>,
    /// WebSockets open at once from one client address (an IPv6 /64 counting as one).
    #[arg(long, default_value_t = Limits::default().sockets_per_addr, value_name = "N")]
    max_sockets_per_addr: usize,
    /// Connections open at once, over all clients; more are answered 503 and closed.
    #[arg(long, default_value_t = Limits::default().connections.max, value_name = "N")]
    max_connections: usize,
    /// Connections open at once from one client address.
    #[arg(long, default_value_t = Limits::default().connections.per_addr, value_name = "N")]
    max_connections_per_addr: usize,
    /// Searches of the computer player run at once [default: the number of cores].
    #[arg(long, value_name = "N")]
    engine_threads: Option<usize>,
    /// Sign-ins, sign-ups and password changes one address may make per minute (0: no
    /// limit).
    #[arg(long, default_value_t = Limits::default().sign_ins_per_minute, value_name = "N")]
    sign_ins_per_minute: u32,
    /// The database's cap, in MiB (0: none): past nine tenths of it new guests and their
    /// games are refused, past it every new game; games being played go on.
    #[arg(long, default_value_t = Limits::default().max_storage >> 20, value_name = "MIB")]
    max_db_size: u64,
    /// Marks the session cookie `Secure`: give it when the site is served over TLS (by a
    /// proxy in front of the server).
    #[arg(long)]
    secure_cookies: bool,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let mut config = Config::new(args.addr, args.db.unwrap_or_else(paths::database));
    // One server per database file, held until the process ends.
    let _lock = DatabaseLock::acquire(&config.db)?;
    // The data folder unless another is given; the small endgame tables are built there in
    // the background on first use, and what the build does is logged.
    let background = BackgroundOptions {
        on_news: Some(Box::new(|news: &str| eprintln!("tablebase: {news}"))),
        ..BackgroundOptions::default()
    };
    let opened = tables::given_or_data(
        args.tablebases.as_deref(),
        Building::Background(background),
        // The data folder's tables are a bonus: without them the engine searches.
        |dir, e| eprintln!("tablebase: cannot open {}: {e}", dir.display()),
    )?;
    if let Some(tables) = opened {
        config.tablebase = Some(Arc::new(tables));
    }
    config.limits.games_per_minute = args.games_per_minute;
    config.limits.max_sockets = args.max_sockets;
    config.limits.sockets_per_addr = args.max_sockets_per_addr.max(1);
    config.public_names = args.public_names;
    config.limits.connections.max = args.max_connections.max(1);
    config.limits.connections.per_addr = args.max_connections_per_addr.max(1);
    config.engine_threads = args.engine_threads;
    config.limits.sign_ins_per_minute = args.sign_ins_per_minute;
    config.secure_cookies = args.secure_cookies;
    config.limits.max_storage = args.max_db_size.saturating_mul(1 << 20);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        init_logging();
        let app = open(&config).await?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| Failure(format!("cannot listen on {}: {e}", config.addr)))?;
        let mut shown = listener.local_addr()?;
        if shown.ip().is_unspecified() {
            shown.set_ip(Ipv4Addr::LOCALHOST.into());
        }
        eprintln!("games are kept in {}", config.db.display());
        println!("morris is running at http://{shown}/");
        use std::io::Write as _;
        std::io::stdout().flush()?;
        serve(listener, app, stop_signal()).await?;
        Ok(())
    })
}

/// Completes on Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
