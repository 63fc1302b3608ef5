//! `morris bench`: the engine's fixed search, printing its node total and speed.

use std::io::Write;

use morris_engine::bench::run_bench;

use crate::failure::Failure;

/// Runs the bench to `depth` and prints a line per position, then `nodes N nps N`.
pub fn run(depth: u32, out: &mut dyn Write) -> Result<(), Failure> {
    if depth == 0 {
        return Err(Failure("--depth must be at least 1".into()));
    }
    let mut failed = None;
    let report = run_bench(depth, &mut |line| {
        if let Err(e) = writeln!(
            out,
            "{} {} bestmove {} score {} nodes {}",
            line.variant, line.position, line.best, line.score, line.nodes
        ) {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    writeln!(out, "nodes {} nps {}", report.nodes, report.nps())?;
    Ok(())
}
