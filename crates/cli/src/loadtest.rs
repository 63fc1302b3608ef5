//! `morris loadtest`: many friend games at once against a server on this machine, or with
//! `--site` clocked, rated games between signed-in players paired through the lobby.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
mod client;
mod site;

use client::{LoadConfig, run as run_load};

use crate::failure::Failure;

/// The settings of `morris loadtest`.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// Games played at once.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Plies each game slot plays at most.
    #[arg(long, default_value_t = 60)]
    plies: usize,
    /// The longest the test runs, in seconds.
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// The mean time between two plies of one game, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// A running `morris serve` to test (loopback only; start it with
    /// `--games-per-minute 0`). Without it a server runs in this process on a temporary
    /// database.
    #[arg(long)]
    addr: Option<SocketAddr>,
    /// Play the site: signed-in players paired by the lobby's quick pairing play rated games
    /// at this time control (such as `10+5`); a running server needs
    /// `--sign-ins-per-minute 0` too.
    #[arg(long, value_name = "CLOCK")]
    site: Option<String>,
}

/// Runs the test and prints the figures: `games … plies … errors …` and
/// `round trip ms p50 … p90 … p99 … max …`.
pub fn run(args: LoadArgs) -> Result<(), Failure> {
    if args.games == 0 || args.games > 10_000 {
        return Err(Failure("--games must be from 1 to 10000".into()));
    }
    if args.duration == 0 || args.duration > 3600 {
        return Err(Failure("--duration must be from 1 to 3600 seconds".into()));
    }
    let config = LoadConfig {
        games: args.games,
        plies: args.plies,
        duration: Duration::from_secs(args.duration),
        think: Duration::from_millis(args.think_ms),
        target: args.addr,
        site: args.site,
    };
    let bar = ProgressBar::new(args.duration);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} s {msg}")
            .map_err(|e| Failure(e.to_string()))?
            .progress_chars("=> "),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(run_load(&config, |plies, elapsed| {
        bar.set_position(elapsed.as_secs().min(args.duration));
        bar.set_message(format!("{plies} plies"));
    }))?;
    bar.finish_and_clear();
    println!("{report}");
    Ok(())
}
