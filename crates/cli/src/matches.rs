//! `morris match`: engine against engine through the protocol, with a record of every game.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use morris_core::Variant;
use morris_engine::arena::{Adjudication, EngineSpec, MatchConfig, TimeControl, run_match};
use morris_engine::text::printable;
use morris_tablebase::EngineTables;

use crate::failure::Failure;

/// The arguments of `morris match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine's command line, such as "target/release/morris engine"; give it twice.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Options of the engine of the same rank, as NAME=VALUE,NAME=VALUE.
    #[arg(long = "engine-options")]
    engine_options: Vec<String>,
    /// Names of the engines in the report and the records, in order.
    #[arg(long = "name")]
    names: Vec<String>,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// The variant.
    #[arg(long, default_value = "nine")]
    variant: Variant,
    /// Milliseconds per ply.
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<u64>,
    /// Nodes per ply instead of time (each answer still within 10 s).
    #[arg(long, conflicts_with_all = ["movetime", "tc"])]
    nodes: Option<u64>,
    /// A clock: seconds per game and increment in seconds, as BASE+INC (such as 10+0.1).
    #[arg(long)]
    tc: Option<String>,
    /// Plies of the openings.
    #[arg(long, default_value_t = 2)]
    opening_plies: usize,
    /// The order of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds of lateness forgiven before a ply loses on time.
    #[arg(long, default_value_t = 500)]
    time_margin: u64,
    /// Games still going after this many plies are drawn.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Appends every game to this file as a game record.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Games played at the same time, each by its own pair of engine processes (at most 64):
    /// on a machine with N cores, N games of engines that think on one thread each. Each
    /// game keeps its opening and colours; the lines come in the order the games end.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Ends a game as soon as no pieces are left in hand and the tables of this folder hold
    /// its position, with their verdict: with the whole game built, a match of the placing
    /// phase alone, judged exactly.
    #[arg(long, value_name = "DIR")]
    adjudicate: Option<PathBuf>,
}

fn seconds(text: &str, what: &str) -> Result<Duration, Failure> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| Failure(format!("--tc: {what} '{text}' is not a number of seconds")))
}

impl MatchArgs {
    fn config(&self) -> Result<MatchConfig, Failure> {
        if self.engines.len() != 2 {
            return Err(Failure(format!(
                "give --engine exactly twice, not {} times",
                self.engines.len()
            )));
        }
        if self.engine_options.len() > 2 || self.names.len() > 2 {
            return Err(Failure(
                "give --engine-options and --name at most once per engine".into(),
            ));
        }
        if self.games == 0 {
            return Err(Failure("--games must be at least 1".into()));
        }
        if !(1..=64).contains(&self.concurrency) {
            return Err(Failure("--concurrency must be from 1 to 64".into()));
        }
        let spec = |i: usize| -> Result<EngineSpec, Failure> {
            let options = match self.engine_options.get(i) {
                Some(text) => EngineSpec::parse_options(text).map_err(Failure)?,
                None => Vec::new(),
            };
            Ok(EngineSpec {
                command: self.engines[i].clone(),
                options,
                name: self.names.get(i).cloned().unwrap_or_default(),
            })
        };
        let time = match (&self.tc, self.movetime) {
            _ if self.nodes.is_some() => TimeControl::Nodes {
                nodes: self.nodes.unwrap_or(1).max(1),
                limit: Duration::from_secs(10),
            },
            (Some(tc), _) => {
                let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
                TimeControl::Clock {
                    base: seconds(base, "base")?,
                    inc: seconds(inc, "increment")?,
                }
            }
            (None, Some(ms)) => TimeControl::PerPly(Duration::from_millis(ms.max(1))),
            (None, None) => TimeControl::PerPly(Duration::from_millis(100)),
        };
        Ok(MatchConfig {
            engines: [spec(0)?, spec(1)?],
            games: self.games,
            variant: self.variant,
            time,
            opening_plies: self.opening_plies,
            seed: self.seed,
            time_margin: Duration::from_millis(self.time_margin),
            max_plies: self.max_plies.max(1),
            concurrency: self.concurrency,
            adjudicate: match &self.adjudicate {
                Some(dir) => {
                    if !dir.is_dir() {
                        return Err(Failure(format!(
                            "--adjudicate: {} is not a folder of tables",
                            dir.display()
                        )));
                    }
                    let tables = EngineTables::open(dir)
                        .map_err(|e| Failure(format!("--adjudicate: {e}")))?;
                    Some(Adjudication(Arc::new(tables)))
                }
                None => None,
            },
        })
    }
}

/// Plays the match; prints one line per game, then the tally and the Elo difference.
pub fn run(args: &MatchArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let config = args.config()?;
    let mut record = match &args.record {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let bar = ProgressBar::new(u64::from(config.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut failed: Option<Failure> = None;
    let mut tally = morris_engine::arena::Tally::default();
    let report = run_match(&config, &mut |game| {
        match game.winner {
            Some(0) => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        let result = game.record.game.outcome().map_or("*", |o| o.result());
        let white = game.record.tag("White").unwrap_or("?");
        let black = game.record.tag("Black").unwrap_or("?");
        bar.suspend(|| {
            // Names and reasons come from the engines and the arguments: escaped.
            if let Err(e) = writeln!(
                out,
                "game {} {} - {} {result} ({})",
                game.number,
                printable(white),
                printable(black),
                printable(&game.reason)
            ) {
                failed.get_or_insert(e.into());
            }
        });
        if let Some(file) = record.as_mut() {
            if let Err(e) = writeln!(file, "{}", game.record) {
                failed.get_or_insert(e.into());
            }
        }
        bar.set_message(format!(
            "+{} ={} -{}",
            tally.wins, tally.draws, tally.losses
        ));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let report = report.map_err(|e| Failure(e.to_string()))?;
    if let Some(e) = failed {
        return Err(e);
    }
    let t = report.tally;
    writeln!(
        out,
        "{} vs {}: wins {} draws {} losses {} score {:.3}",
        printable(&report.names[0]),
        printable(&report.names[1]),
        t.wins,
        t.draws,
        t.losses,
        t.score().unwrap_or(0.5)
    )?;
    if let Some((elo, margin)) = t.elo() {
        let margin = if margin.is_nan() {
            f64::INFINITY
        } else {
            margin
        };
        writeln!(out, "elo {elo:.1} +/- {margin:.1}")?;
    }
    Ok(())
}
