//! `morris play`: the terminal app, full-screen or plain.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args;
use morris_engine::Probe;
use morris_play::{Engine, MAX_LEVEL, MIN_LEVEL, Settings, Sides};

use morris_tablebase::BackgroundOptions;

use crate::failure::Failure;
use crate::position_args::PositionArgs;
use crate::tables::{self, Building};

/// The arguments of `morris play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The computer's level, 1 (weakest) to 10 (strongest).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL)))]
    level: u8,
    /// The side you play: white, black, both (two players at one keyboard) or none (watch the
    /// computer play itself).
    #[arg(long, default_value = "white")]
    color: Sides,
    /// Continues the game of a record file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves"])]
    load: Option<String>,
    /// Plays line by line on standard input and output (the default when either is not a
    /// terminal).
    #[arg(long)]
    plain: bool,
    /// The seed of the computer's choices among equal plies (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// A folder of tablebase files for the computer and the hints (default: the data folder);
    /// the moving-phase tables of up to ten pieces are built there in the background on first
    /// use.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
}

/// The tables of `--tablebases`, or of the data folder; the small endgame tables are built
/// there in the background on first use.
fn tables(dir: Option<&Path>) -> Result<Option<Arc<dyn Probe>>, Failure> {
    let building = Building::Background(BackgroundOptions::new(BackgroundOptions::PIECES));
    // The data folder's tables are a bonus: without them the engine searches.
    let opened = tables::given_or_data(dir, building, |_, _| {})?;
    Ok(opened.map(|t| Arc::new(t) as Arc<dyn Probe>))
}

/// Runs `morris play`.
pub fn run(args: PlayArgs) -> Result<(), Failure> {
    let game = match &args.load {
        Some(path) => morris_play::load(path, args.position.variant.rules())?,
        None => args.position.game()?,
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let settings = Settings {
        game,
        seats: args.color.seats(),
        level: args.level,
        seed,
        engine: Some(Engine::with_tables(tables(args.tablebases.as_deref())?)),
    };
    let stdin = std::io::stdin();
    let plain = args.plain || !stdin.is_terminal() || !std::io::stdout().is_terminal();
    if plain {
        let interactive = stdin.is_terminal();
        morris_play::run_plain(
            settings,
            stdin.lock(),
            std::io::stdout().lock(),
            interactive,
        )?;
    } else {
        morris_play::run(settings)?;
    }
    Ok(())
}
