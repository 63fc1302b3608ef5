//! `morris tune`: fits the evaluation's weights to positions labelled by the tablebases.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use morris_core::Variant;
use morris_engine::eval::{PHASES, TERMS, Weights, term_name};
use morris_engine::tune::{SampleOptions, fit, sample};
use morris_tablebase::EngineTables;

use crate::failure::Failure;
use crate::paths;

/// The options of `morris tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The variant of the games the positions come from.
    #[arg(long, default_value = "nine")]
    variant: Variant,
    /// The folder of the tables that label the positions (default: the data folder).
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// How many positions to label.
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
    /// The most games to play for them (default: twice the positions).
    #[arg(long)]
    games: Option<usize>,
    /// The seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The chance that a side takes a removal whenever it can while placing (from 0 to 1):
    /// more removals reach smaller sectors, fewer leave fuller boards.
    #[arg(long, default_value_t = 1.0)]
    placing_removals: f64,
    /// The pull toward the starting weights: the squared error that a change of 100
    /// centi-pieces in one weight costs.
    #[arg(long, default_value_t = 0.002)]
    prior: f64,
    /// Steps of gradient descent.
    #[arg(long, default_value_t = 1_500)]
    rounds: usize,
    /// The phases whose weights are fitted, as a list such as `placing,flying` (default:
    /// all); the others keep the starting weights.
    #[arg(long, value_delimiter = ',')]
    phases: Vec<String>,
    /// The weights file to start from (default: the engine's own).
    #[arg(long)]
    from: Option<PathBuf>,
    /// Where to write the weights found (default: only print them).
    #[arg(long)]
    out: Option<PathBuf>,
}

fn show(e: Option<f64>) -> String {
    e.map_or_else(|| "-".into(), |e| format!("{e:.5}"))
}

/// Runs the fit and prints the errors before and after and the weights.
pub fn run(args: &TuneArgs, out: &mut impl Write) -> Result<(), Failure> {
    if args.positions == 0 || args.positions > 10_000_000 {
        return Err(Failure("--positions is from 1 to 10000000".into()));
    }
    if !(0.0..=1e6).contains(&args.prior) || args.rounds > 1_000_000 {
        return Err(Failure(
            "--prior is from 0 to 1000000 and --rounds at most 1000000".into(),
        ));
    }
    if !(0.0..=1.0).contains(&args.placing_removals) {
        return Err(Failure("--placing-removals is from 0 to 1".into()));
    }
    let start = match &args.from {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))?;
            Weights::parse(&text).map_err(|e| Failure(format!("{}: {e}", path.display())))?
        }
        None => Weights::in_use().clone(),
    };
    let mut phases = [args.phases.is_empty(); 3];
    for name in &args.phases {
        let p = PHASES
            .iter()
            .position(|&x| x == name.as_str())
            .ok_or_else(|| {
                Failure(format!(
                    "--phases: '{name}' is not one of placing, moving, flying"
                ))
            })?;
        phases[p] = true;
    }
    let dir = args.tablebases.clone().unwrap_or_else(paths::tablebase_dir);
    let tables = EngineTables::open(&dir)?;
    let mut options = SampleOptions::new(args.variant, args.positions, args.seed);
    options.placing_removals = args.placing_removals;
    if let Some(g) = args.games {
        options.max_games = g.max(1);
    }
    writeln!(
        out,
        "labelling {} positions of {} with the tables in {}",
        args.positions,
        args.variant,
        dir.display()
    )?;
    out.flush()?;
    let mut last = 0;
    let samples = sample(&options, &tables, |games, found| {
        if found >= last + args.positions.div_ceil(10) || found >= args.positions {
            last = found;
            let _ = writeln!(out, "{games} games, {found} positions");
            let _ = out.flush();
        }
    });
    if samples.is_empty() {
        return Err(Failure(format!(
            "the tables in {} decide no position of the games played: build more with morris tb build",
            dir.display()
        )));
    }
    let result = fit(&samples, &start, args.prior, args.rounds, phases);
    for (p, phase) in PHASES.iter().enumerate() {
        writeln!(
            out,
            "{phase}: {} positions, squared error {} before, {} after",
            result.counts[p],
            show(result.before[p]),
            show(result.after[p])
        )?;
    }
    for (p, phase) in PHASES.iter().enumerate() {
        let line: Vec<String> = (0..TERMS)
            .map(|t| format!("{} {}", term_name(t), result.weights.phases[p][t]))
            .collect();
        writeln!(out, "{phase}: {}", line.join(", "))?;
    }
    if let Some(path) = &args.out {
        let header = format!(
            "The evaluation's weights, in centi-pieces per unit of each term (see eval.rs), and\n\
             the logistic scale of its scores. Made by\n  morris tune --positions {} --seed {} --prior {} --rounds {} --placing-removals {}{}\n\
             from {} positions of {} labelled by the tables\n\
             (placing {}, moving {}, flying {}; squared error {} / {} / {} before, {} / {} / {} after).",
            args.positions,
            args.seed,
            args.prior,
            args.rounds,
            args.placing_removals,
            if args.phases.is_empty() {
                String::new()
            } else {
                format!(" --phases {}", args.phases.join(","))
            },
            samples.len(),
            args.variant,
            result.counts[0],
            result.counts[1],
            result.counts[2],
            show(result.before[0]),
            show(result.before[1]),
            show(result.before[2]),
            show(result.after[0]),
            show(result.after[1]),
            show(result.after[2]),
        );
        std::fs::write(path, result.weights.to_text(&header))
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
        writeln!(out, "weights written to {}", path.display())?;
    }
    Ok(())
}
