//! `morris tb …` and `morris solve`: building, inspecting, probing and verifying tablebases.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use morris_core::{Position, Variant};
use morris_tablebase::{
    BuildOptions, GroupReport, Plan, Sector, Tablebase, build, default_dir, memory_needed, names,
    sector_len, verify,
};

use crate::cli::Failure;
use crate::position_args::PositionArgs;

/// The tablebase subcommands.
#[derive(Debug, Subcommand)]
pub enum TbCommand {
    /// Builds sectors (and, unless --no-deps, the sectors they depend on first).
    Build {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        which: Which,
        /// Builds only the groups of the listed sectors, from dependencies already built (for
        /// sharing the work of one level among machines).
        #[arg(long)]
        no_deps: bool,
        /// The most memory one group may use while it is solved, in MiB.
        #[arg(long, default_value_t = 18 * 1024)]
        memory: u64,
    },
    /// Prints the solving order: levels of groups; the groups of one level are independent.
    Plan {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        which: Which,
    },
    /// Builds a moving-phase sector if missing and counts it over every placement.
    Stats {
        #[command(flatten)]
        common: Common,
        /// The sector, W-B (pieces of the side to move, then of the other side).
        #[arg(long)]
        sector: Sector,
    },
    /// Prints the value of a position and of each legal ply from it.
    Probe {
        #[command(flatten)]
        position: PositionArgs,
        /// The folder of the tables.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Rechecks every stored value from forward move generation.
    Verify {
        #[command(flatten)]
        common: Common,
        /// The sectors to check (default: every sector built in the folder).
        #[arg(long, value_delimiter = ',')]
        sectors: Vec<Sector>,
    },
}

/// `--variant` and `--dir`.
#[derive(Debug, Args)]
pub struct Common {
    /// The variant: nine, three, six, twelve or morabaraba.
    #[arg(long, default_value = "nine")]
    variant: Variant,
    /// The folder of the tables (default: the data folder).
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl Common {
    fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(default_dir)
    }
}

/// Which sectors: a list, every moving sector up to a number of pieces, or the whole game.
#[derive(Debug, Args)]
pub struct Which {
    /// Sectors, comma-separated: 3-3,4-3 (moving phase) or W-B-WF-BF (pieces in hand).
    #[arg(long, value_delimiter = ',')]
    sectors: Vec<Sector>,
    /// Every moving-phase sector with at most this many pieces on the board.
    #[arg(long)]
    max_pieces: Option<u8>,
    /// The whole game from the start, placing phase included.
    #[arg(long)]
    full: bool,
}

impl Which {
    fn targets(&self, variant: Variant) -> Result<Vec<Sector>, Failure> {
        let rules = variant.rules();
        let mut out = self.sectors.clone();
        if let Some(n) = self.max_pieces {
            out.extend(Sector::moving_up_to(&rules, n));
        }
        if self.full {
            out.push(Sector::start(&rules));
        }
        if out.is_empty() {
            return Err(Failure(
                "no sectors: give --sectors, --max-pieces or --full".into(),
            ));
        }
        for s in &out {
            s.check(&rules).map_err(Failure)?;
        }
        Ok(out)
    }
}

fn report_line(r: &GroupReport) -> String {
    if r.solved {
        format!(
            "{} solved: {} positions in {:.2} s",
            names(&r.sectors),
            r.positions,
            r.seconds
        )
    } else {
        format!("{} already built", names(&r.sectors))
    }
}

fn build_with_log(opts: &BuildOptions, targets: &[Sector]) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut failed = None;
    build(opts, targets, |r| {
        let mut out = stdout.lock();
        if let Err(e) = writeln!(out, "{}", report_line(r)).and_then(|()| out.flush()) {
            failed = Some(e);
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok(())
}

/// Runs a tablebase subcommand.
pub fn run(command: TbCommand, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        TbCommand::Build {
            common,
            which,
            no_deps,
            memory,
        } => {
            let targets = which.targets(common.variant)?;
            let mut opts = BuildOptions::new(common.variant.rules(), common.dir());
            opts.dependencies = !no_deps;
            opts.memory_limit = memory << 20;
            opts.progress = true;
            let start = Instant::now();
            build_with_log(&opts, &targets)?;
            writeln!(
                out,
                "done in {:.2} s, tables in {}",
                start.elapsed().as_secs_f64(),
                opts.dir.display()
            )?;
        }
        TbCommand::Plan { common, which } => {
            let rules = common.variant.rules();
            let plan = Plan::new(&rules, &which.targets(common.variant)?).map_err(Failure)?;
            let (mut total, mut peak) = (0u64, 0u64);
            for (l, level) in plan.levels.iter().enumerate() {
                for group in level {
                    let n: u64 = group.iter().map(|&s| sector_len(&rules, s)).sum();
                    let mem = memory_needed(&rules, group);
                    total += n;
                    peak = peak.max(mem);
                    writeln!(
                        out,
                        "level {l}: {} positions {n} memory {} MiB",
                        names(group),
                        mem.div_ceil(1 << 20)
                    )?;
                }
            }
            writeln!(
                out,
                "levels {} groups {} positions {total} peak memory {} MiB",
                plan.levels.len(),
                plan.groups().count(),
                peak.div_ceil(1 << 20)
            )?;
        }
        TbCommand::Stats { common, sector } => {
            let rules = common.variant.rules();
            if !sector.is_moving() {
                return Err(Failure(format!(
                    "sector {sector}: stats counts moving-phase sectors, written W-B"
                )));
            }
            sector.check(&rules).map_err(Failure)?;
            let mut opts = BuildOptions::new(rules, common.dir());
            opts.progress = true;
            let tb = Tablebase::new(&opts.dir, rules);
            if !tb.has(sector) {
                build_with_log(&opts, &[sector])?;
                tb.refresh();
            }
            let table = tb.table(sector)?;
            let s = table.file().stats();
            writeln!(
                out,
                "sector {sector} of {}: {} classes stored",
                common.variant,
                table.index().len()
            )?;
            writeln!(
                out,
                "wins {} losses {} draws {} longest {}",
                s.wins, s.losses, s.draws, s.longest
            )?;
        }
        TbCommand::Probe { position, dir } => {
            let pos = position.position().map_err(Failure)?;
            let tb = Tablebase::new(dir.unwrap_or_else(default_dir), *pos.rules());
            writeln!(out, "value: {}", tb.probe(&pos)?)?;
            for (ply, v) in tb.probe_plies(&pos)? {
                writeln!(out, "{} {v}", ply.display(pos.board()))?;
            }
        }
        TbCommand::Verify { common, sectors } => {
            let tb = Tablebase::new(common.dir(), common.variant.rules());
            let sectors = if sectors.is_empty() {
                tb.built_sectors()
            } else {
                sectors
            };
            if sectors.is_empty() {
                return Err(Failure(format!(
                    "no {} tables in {}",
                    common.variant,
                    tb.dir().display()
                )));
            }
            let start = Instant::now();
            let n = verify(&tb, &sectors, true)?;
            writeln!(
                out,
                "verified {n} positions in {} sectors in {:.2} s: all agree",
                sectors.len(),
                start.elapsed().as_secs_f64()
            )?;
        }
    }
    Ok(())
}

/// `morris solve`: solves a whole game, placing phase included.
pub fn solve(variant: Variant, dir: Option<PathBuf>, out: &mut impl Write) -> Result<(), Failure> {
    if !matches!(variant, Variant::Three | Variant::Six) {
        return Err(Failure(format!(
            "solve takes three or six; {variant} is solved sector by sector with morris tb build (see the README)"
        )));
    }
    let rules = variant.rules();
    let start_sector = Sector::start(&rules);
    start_sector.check(&rules).map_err(Failure)?;
    let mut opts = BuildOptions::new(rules, dir.unwrap_or_else(default_dir));
    opts.progress = true;
    let plan = Plan::new(&rules, &[start_sector]).map_err(Failure)?;
    writeln!(
        out,
        "solving {variant}: {} groups of sectors in {} levels",
        plan.groups().count(),
        plan.levels.len()
    )?;
    out.flush()?;
    let start = Instant::now();
    build_with_log(&opts, &[start_sector])?;
    let tb = Tablebase::new(&opts.dir, rules);
    let value = tb.probe(&Position::new(rules))?;
    writeln!(out, "solved in {:.2} s", start.elapsed().as_secs_f64())?;
    let line = match value {
        morris_tablebase::Value::Draw => "value: draw".to_string(),
        morris_tablebase::Value::Win(d) => format!("value: white wins in {d}"),
        morris_tablebase::Value::Loss(d) => format!("value: black wins in {d}"),
    };
    writeln!(out, "{line}")?;
    Ok(())
}
