//! `morris accuracy`: the share of the engine's plies that throw away value, by the tables.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use morris_core::{Color, Ply, Position, Variant};
use morris_engine::accuracy::{Judgement, judge_answers, measure, sample_positions};
use morris_engine::arena::{EngineSpec, Player, PlayerError};
use morris_engine::text::printable;
use morris_engine::{EngineOptions, Probe};
use morris_tablebase::EngineTables;

use crate::failure::Failure;
use crate::paths;

/// The options of `morris accuracy`.
#[derive(Debug, Args)]
pub struct AccuracyArgs {
    /// The variant.
    #[arg(long, default_value = "nine")]
    variant: Variant,
    /// The engine's time for each position, in milliseconds.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// How many positions to test.
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// The folder of the tables that judge (default: the data folder).
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// The level of the built-in engine (default 10).
    #[arg(long, conflicts_with = "engine")]
    level: Option<u8>,
    /// The seed of the games the positions come from (the same seed, the same positions).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Lets the engine probe the judging tables too (by default it plays by its own search).
    #[arg(long, conflicts_with = "engine")]
    engine_uses_tables: bool,
    /// Another engine to measure, by its command line (such as "OTHER/morris engine"), spoken
    /// to through the protocol: it answers each position (`position fen …`, `go movetime …`)
    /// instead of the built-in engine. The positions are drawn as always, so that engines
    /// measured with the same seed answer the same positions.
    #[arg(long)]
    engine: Option<String>,
    /// That engine's options, as NAME=VALUE,NAME=VALUE.
    #[arg(long, requires = "engine")]
    engine_options: Option<String>,
    /// How many of the worst plies to list.
    #[arg(long, default_value_t = 10)]
    worst: usize,
}

/// Where a position stands: its phase and its pieces.
fn phase(pos: &Position) -> &'static str {
    let rules = pos.rules();
    if Color::ALL.iter().any(|&c| pos.in_hand(c) > 0) {
        "placing"
    } else if Color::ALL
        .iter()
        .any(|&c| pos.pieces(c).count() as u8 <= rules.fly_at)
    {
        "flying"
    } else {
        "moving"
    }
}

fn pieces(pos: &Position) -> u32 {
    Color::ALL
        .iter()
        .map(|&c| pos.pieces(c).count() as u32 + u32::from(pos.in_hand(c)))
        .sum()
}

fn share(lost: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * lost as f64 / of as f64)
    }
}

/// Runs the measure and prints it; the last line is `accuracy P% lost-value N of M`.
pub fn run(args: &AccuracyArgs, out: &mut impl Write) -> Result<(), Failure> {
    if args.positions == 0 || args.movetime == 0 {
        return Err(Failure(
            "--positions and --movetime must be at least 1".into(),
        ));
    }
    if args.positions > 100_000 {
        return Err(Failure("--positions is at most 100000".into()));
    }
    let dir = args.tablebases.clone().unwrap_or_else(paths::tablebase_dir);
    let tables: Arc<dyn Probe> = Arc::new(EngineTables::open(&dir)?);
    writeln!(
        out,
        "drawing {} positions of {} from games of the engine against itself",
        args.positions, args.variant
    )?;
    out.flush()?;
    let positions = sample_positions(
        args.variant,
        &*tables,
        args.positions,
        args.seed,
        args.positions * 20,
    );
    if positions.is_empty() {
        return Err(Failure(format!(
            "the tables in {} hold no position of the games played: build more of {} with morris tb build",
            dir.display(),
            args.variant
        )));
    }
    let movetime = Duration::from_millis(args.movetime);
    let judged = match &args.engine {
        None => {
            let level = args.level.unwrap_or(10);
            writeln!(
                out,
                "{} positions, engine level {level} at {} ms a ply, judged by the tables in {}",
                positions.len(),
                args.movetime,
                dir.display()
            )?;
            out.flush()?;
            let options = EngineOptions {
                level,
                seed: Some(args.seed),
                ..EngineOptions::default()
            };
            let engine_tables = args.engine_uses_tables.then(|| tables.clone());
            measure(
                &positions,
                &options,
                movetime,
                &*tables,
                engine_tables,
                |_, _| {},
            )
        }
        Some(command) => {
            let options = match &args.engine_options {
                Some(text) => EngineSpec::parse_options(text).map_err(Failure)?,
                None => Vec::new(),
            };
            let spec = EngineSpec {
                command: command.clone(),
                options,
                name: String::new(),
            };
            let mut player = Player::start(&spec, args.variant)
                .map_err(|e| Failure(format!("the engine {command:?}: {e}")))?;
            writeln!(
                out,
                "{} positions, engine {} at {} ms a ply, judged by the tables in {}",
                positions.len(),
                printable(&player.name),
                args.movetime,
                dir.display()
            )?;
            out.flush()?;
            let mut failure = None;
            let judged = judge_answers(
                &positions,
                &*tables,
                |pos| {
                    if failure.is_some() {
                        return None;
                    }
                    match ask(&mut player, pos, movetime) {
                        Ok(ply) => Some(ply),
                        Err(e) => {
                            failure = Some(e);
                            None
                        }
                    }
                },
                |_, _| {},
            );
            if let Some(e) = failure {
                return Err(e);
            }
            judged
        }
    };
    report(&judged, args.worst, out)
}

/// The ply that an engine run through the protocol plays in `pos` (the start of a game) in
/// `movetime`, allowing it five seconds more to answer.
fn ask(player: &mut Player, pos: &Position, movetime: Duration) -> Result<Ply, Failure> {
    let failed = |e: PlayerError| Failure(format!("the engine failed in {pos}: {e}"));
    player
        .send("ucinewgame")
        .and_then(|()| player.ready())
        .and_then(|()| player.send(&format!("position fen {pos}")))
        .and_then(|()| player.send(&format!("go movetime {}", movetime.as_millis())))
        .map_err(failed)?;
    let lines = player
        .wait_for("bestmove", movetime + Duration::from_secs(5), "go")
        .map_err(failed)?;
    let text = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("");
    pos.parse_ply(text).map_err(|e| {
        Failure(format!(
            "the engine answered {:?} in {pos}: {e}",
            printable(text)
        ))
    })
}

/// Prints the shares by phase and by pieces, the worst plies and the last line.
fn report(judged: &[Judgement], worst: usize, out: &mut impl Write) -> Result<(), Failure> {
    let mut by_phase: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut by_pieces: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for j in judged {
        let lost = usize::from(j.lost_value());
        let e = by_phase.entry(phase(&j.position)).or_default();
        e.0 += lost;
        e.1 += 1;
        let e = by_pieces.entry(pieces(&j.position)).or_default();
        e.0 += lost;
        e.1 += 1;
    }
    for (name, (lost, of)) in &by_phase {
        writeln!(
            out,
            "phase {name}: lost value {lost} of {of} ({})",
            share(*lost, *of)
        )?;
    }
    for (n, (lost, of)) in &by_pieces {
        writeln!(
            out,
            "pieces {n}: lost value {lost} of {of} ({})",
            share(*lost, *of)
        )?;
    }
    let mut bad: Vec<&Judgement> = judged.iter().filter(|j| j.lost_value()).collect();
    bad.sort_by_key(|j| {
        (
            std::cmp::Reverse(j.steps_lost()),
            std::cmp::Reverse(j.best_value),
        )
    });
    if !bad.is_empty() {
        writeln!(out, "worst plies:")?;
    }
    for j in bad.iter().take(worst) {
        let board = j.position.board();
        writeln!(
            out,
            "  {} played {} ({}), best {} ({})",
            j.position,
            j.played.display(board),
            j.value,
            j.best.display(board),
            j.best_value
        )?;
    }
    let lost = bad.len();
    let total = judged.len();
    writeln!(
        out,
        "accuracy {:.1}% lost-value {lost} of {total}",
        100.0 * (total - lost) as f64 / total.max(1) as f64
    )?;
    Ok(())
}
