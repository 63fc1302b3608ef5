//! Argument parsing and dispatch.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use morris_core::{divide, perft};
use morris_engine::text::printable;

use crate::failure::Failure;
use crate::loadtest::LoadArgs;
use crate::position_args::PositionArgs;
use crate::serve::ServeArgs;

/// Nine Men's Morris and its family.
#[derive(Debug, Parser)]
#[command(name = "morris", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Counts the sequences of exactly D legal plies (draw rules ignored).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// The number of plies.
        #[arg(long)]
        depth: u32,
        /// Also prints the count after each legal ply.
        #[arg(long)]
        divide: bool,
    },
    /// Lists the legal plies, one per line.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// The web app: play in the browser against the computer or a friend.
    Serve(ServeArgs),
    /// Plays many friend games at once against a server on this machine and reports the
    /// ply round trips.
    Loadtest(LoadArgs),
    /// Speaks the engine protocol on standard input and output.
    Engine,
    /// Searches a fixed set of positions to a fixed depth on one thread; the last line is
    /// `nodes N nps N`.
    Bench {
        /// The depth of every search.
        #[arg(long, default_value_t = morris_engine::bench::BENCH_DEPTH)]
        depth: u32,
    },
    /// Plays engine against engine through the protocol and reports the Elo difference.
    Match(crate::matches::MatchArgs),
    /// Measures the engine against the tablebases: the share of its plies that throw away
    /// value, by phase and pieces; the last line is `accuracy P% lost-value N of M`.
    Accuracy(crate::accuracy::AccuracyArgs),
    /// Fits the evaluation's weights to positions labelled by the tablebases (logistic
    /// tuning) and writes them as a weights file.
    Tune(crate::tune::TuneArgs),
    /// Tablebases: build, plan, stats, probe, verify.
    #[command(subcommand)]
    Tb(crate::tb::TbCommand),
    /// Solves a whole game with the tablebase solver, placing phase included.
    Solve {
        /// The variant: three and six are solved at once; the others are read from tables
        /// built with `morris tb build --full`.
        #[arg(long, default_value = "three")]
        variant: morris_core::Variant,
        /// The folder of the tables (default: the data folder).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Plays in the terminal: full-screen, or line by line with --plain.
    Play(crate::play::PlayArgs),
    /// Writes a game or a position for another program: reads one or more games or positions
    /// on standard input (records of morris, Sanmill, PlayOK or GoldToken, position strings,
    /// Malom positions), or the game of --position and --moves.
    Convert(crate::convert::ConvertArgs),
    /// The site's moderation on the database of `morris serve`: moderators, reports, mutes,
    /// closed accounts and the log of every moderator's action.
    Admin(crate::admin::AdminArgs),
}

/// The deepest perft: the count recurses once per ply, and this many levels stay far inside
/// the stack of the thread it runs on (a count that deep never ends anyway, unless the game
/// does).
const MAX_PERFT_DEPTH: u32 = 256;

/// The stack of the perft thread: ample for [`MAX_PERFT_DEPTH`] levels even unoptimised
/// (under 8 KiB a level).
const PERFT_STACK: usize = 8 << 20;

/// Parses the arguments, runs the command and maps failures to status 2.
pub fn run() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        eprintln!("error: internal error: {}", printable(&message));
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprintln!("error: a command is required (see morris --help)");
                return ExitCode::from(2);
            }
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("error: bad arguments");
            let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
            if message.ends_with(':') {
                if let Some(next) = lines.next() {
                    message = format!("{message} {next}");
                }
            }
            eprintln!("error: {}", printable(&message));
            return ExitCode::from(2);
        }
    };
    match std::panic::catch_unwind(|| dispatch(cli)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure(message))) => {
            // Messages quote the input: its control characters are escaped.
            eprintln!("error: {}", printable(&message));
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(2),
    }
}

fn dispatch(cli: Cli) -> Result<(), Failure> {
    // Every command that searches reads the evaluation's weights: a file named in the
    // environment that cannot be used is an error before anything starts.
    morris_engine::eval::Weights::from_env()?;
    if let Command::Engine = cli.command {
        // The protocol writes to standard output from its own threads: no lock is held here.
        crate::engine::run();
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Serve(args) => {
            // The server writes its own lines; release standard output to it.
            drop(out);
            return crate::serve::run(args);
        }
        Command::Loadtest(args) => {
            drop(out);
            return crate::loadtest::run(args);
        }
        Command::Perft {
            position,
            depth,
            divide: per_ply,
        } => {
            let pos = position.position()?;
            if depth > MAX_PERFT_DEPTH {
                return Err(Failure(format!(
                    "--depth {depth} is too deep: perft counts at most {MAX_PERFT_DEPTH} plies"
                )));
            }
            let board = pos.board();
            let per_ply = per_ply && depth > 0;
            // The count after each ply (with --divide), or the total alone.
            let counted = std::thread::Builder::new()
                .name("perft".into())
                .stack_size(PERFT_STACK)
                .spawn(move || {
                    if per_ply {
                        (divide(&pos, depth), 0)
                    } else {
                        (Vec::new(), perft(&pos, depth))
                    }
                })?
                .join();
            // A panic has been reported by the hook; it ends the program as any other does.
            let (plies, mut total) = counted.unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (ply, n) in plies {
                writeln!(out, "{} {n}", ply.display(board))?;
                total += n;
            }
            writeln!(out, "{total}")?;
        }
        Command::Moves { position } => {
            let pos = position.position()?;
            let board = pos.board();
            for ply in pos.legal_plies() {
                writeln!(out, "{}", ply.display(board))?;
            }
        }
        // Handled above, before standard output is locked.
        Command::Engine => {}
        Command::Bench { depth } => crate::bench::run(depth, &mut out)?,
        Command::Match(args) => crate::matches::run(&args, &mut out)?,
        Command::Accuracy(args) => crate::accuracy::run(&args, &mut out)?,
        Command::Tune(args) => crate::tune::run(&args, &mut out)?,
        Command::Tb(command) => crate::tb::run(command, &mut out)?,
        Command::Solve { variant, dir } => crate::tb::solve(variant, dir, &mut out)?,
        Command::Convert(args) => crate::convert::run(&args, &mut out)?,
        Command::Admin(args) => crate::admin::run(args, &mut out)?,
        Command::Play(args) => {
            drop(out);
            return crate::play::run(args);
        }
    }
    out.flush()?;
    Ok(())
}
