//! `morris tb …` and `morris solve`: building, inspecting, probing and verifying tablebases.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand};
use morris_core::{Position, Variant};
use morris_tablebase::{
    BuildOptions, GroupReport, Plan, Sector, SectorStats, Tablebase, TbError, build,
    file::file_name, memory_needed, names, sector_len, verify,
};

use crate::bars::Bars;

use crate::failure::Failure;
use crate::journal::{self, Usage};
use crate::paths;
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
        /// `text` (the levels, for people) or `make` (a Makefile whose targets are the groups'
        /// files, for `make -j` or a scheduler that runs make targets).
        #[arg(long, default_value = "text")]
        format: PlanFormat,
    },
    /// Counts a sector over every placement and over symmetry classes, building it first if
    /// it is a missing moving-phase sector; with --all, every sector of the whole game.
    Stats {
        #[command(flatten)]
        common: Common,
        /// The sector, W-B (moving phase) or W-B-WF-BF (pieces in hand).
        #[arg(long, required_unless_present = "all", conflicts_with = "all")]
        sector: Option<Sector>,
        /// One line per sector of the whole game (as built; nothing is built) and the totals.
        #[arg(long)]
        all: bool,
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
        #[arg(long, value_delimiter = ',', conflicts_with = "full")]
        sectors: Vec<Sector>,
        /// Every sector of the whole game, all of which must be built. A long run: each sector
        /// verified is written to the folder's verification journal, and a run started again
        /// goes on from there (a sector whose file changed since is verified again).
        #[arg(long)]
        full: bool,
        /// With --full, forget the journal and verify every sector again.
        #[arg(long, requires = "full")]
        again: bool,
    },
}

/// How `morris tb plan` prints the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlanFormat {
    /// Levels of groups with their sizes and memory.
    Text,
    /// A Makefile: one target per group, the files of the groups it depends on as
    /// prerequisites.
    Make,
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
        self.dir.clone().unwrap_or_else(paths::tablebase_dir)
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

/// Builds `targets` with a bar for the step under way and one for the whole, a line per
/// group, and a summary at the end.
fn build_with_log(
    opts: &mut BuildOptions,
    targets: &[Sector],
    out: &mut impl Write,
) -> Result<(), Failure> {
    let rules = opts.rules;
    let plan = Plan::new(&rules, targets).map_err(Failure)?;
    let sectors: Vec<Sector> = plan.groups().flatten().copied().collect();
    let total: u64 = sectors.iter().map(|&s| sector_len(&rules, s)).sum();
    let bars = Arc::new(Bars::with_overall(total, "overall"));
    opts.progress = bars.clone();
    let start = Instant::now();
    let (mut solved, mut found) = (0u64, 0u64);
    let journal_path = journal::path(&opts.dir, &rules);
    let mut usage = Usage::now();
    let result = build(opts, targets, |r| {
        bars.done(r.positions);
        let now = Usage::now();
        if r.solved {
            solved += r.positions;
            let entry = journal::Entry {
                group: names(&r.sectors),
                positions: r.positions,
                wall_s: r.seconds,
                cpu_s: now.cpu_s - usage.cpu_s,
                peak_mib: now.peak_mib,
            };
            if let Err(e) = journal::append(&journal_path, &entry) {
                bars.println(&format!(
                    "warning: cannot write {}: {e}",
                    journal_path.display()
                ));
            }
        } else {
            found += r.positions;
        }
        usage = now;
        let done = solved + found;
        let elapsed = start.elapsed().as_secs_f64();
        let left = if solved > 0 && done < total {
            format!(
                ", about {} left",
                duration((total - done) as f64 * elapsed / solved as f64)
            )
        } else {
            String::new()
        };
        bars.println(&format!(
            "{} ({:.1}% of the positions{left})",
            report_line(r),
            100.0 * done as f64 / total.max(1) as f64
        ));
    });
    bars.finish();
    result?;
    let files: Vec<u64> = sectors
        .iter()
        .filter_map(|&s| std::fs::metadata(opts.dir.join(file_name(&rules, s))).ok())
        .map(|m| m.len())
        .collect();
    let bytes: u64 = files.iter().sum();
    writeln!(
        out,
        "built {} sectors in {} files: {total} positions, {bytes} bytes, in {:.2} s ({} solved now)",
        sectors.len(),
        files.len(),
        start.elapsed().as_secs_f64(),
        solved
    )?;
    let (groups, positions, wall_s, cpu_s, peak_mib) =
        journal::totals(&journal::read(&journal_path));
    if groups > 0 {
        writeln!(
            out,
            "over every run in this folder ({}): {groups} groups solved, {positions} positions, wall {}, CPU {}, peak memory {peak_mib:.0} MiB",
            journal_path.display(),
            duration(wall_s),
            duration(cpu_s)
        )?;
    }
    Ok(())
}

/// A duration for people: `42 s`, `17 min`, `2 h 05 min`.
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s < 120 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min", s / 60)
    } else {
        format!("{} h {:02} min", s / 3600, s / 60 % 60)
    }
}

/// The statistics line of one sector.
fn stats_line(sector: Sector, positions: u64, s: &SectorStats) -> String {
    format!(
        "{sector} positions {positions} wins {} losses {} draws {} longest {} classes wins {} losses {} draws {}",
        s.wins, s.losses, s.draws, s.longest, s.class_wins, s.class_losses, s.class_draws
    )
}

/// Prints a Makefile that builds the plan's groups, each by one `morris tb build --no-deps`,
/// with the files of the groups it reads as prerequisites. `make -j N` runs the independent
/// groups side by side; `MORRIS`, `DIR` and `MEMORY` may be set on make's command line.
fn write_makefile(
    out: &mut impl Write,
    variant: Variant,
    plan: &Plan,
    dir: &std::path::Path,
) -> Result<(), Failure> {
    let rules = variant.rules();
    // A group is done when its last file appears: the files are written in the group's order.
    let target = |group: &[Sector]| -> String {
        let last = group.last().copied().unwrap_or(Sector::start(&rules));
        format!("$(DIR)/{}", file_name(&rules, last))
    };
    let group_of = |s: Sector| -> Option<&Vec<Sector>> { plan.groups().find(|g| g.contains(&s)) };
    writeln!(
        out,
        "# The tablebases of {variant}: one target per group of sectors."
    )?;
    writeln!(
        out,
        "# `make -j N -f FILE` builds the groups of a level side by side."
    )?;
    writeln!(out, "MORRIS ?= morris")?;
    writeln!(out, "DIR ?= {}", dir.display())?;
    writeln!(out, "MEMORY ?= 18432")?;
    let all: Vec<String> = plan.groups().map(|g| target(g)).collect();
    writeln!(out, "\n.PHONY: all\nall: {}\n", all.join(" "))?;
    for group in plan.groups() {
        let mut deps: Vec<String> = Vec::new();
        for s in group {
            for c in s.children(&rules) {
                if group.contains(&c) {
                    continue;
                }
                if let Some(g) = group_of(c) {
                    let t = target(g);
                    if !deps.contains(&t) {
                        deps.push(t);
                    }
                }
            }
        }
        writeln!(out, "{}: {}", target(group), deps.join(" "))?;
        writeln!(
            out,
            "\t$(MORRIS) tb build --variant {} --sectors {} --no-deps --dir $(DIR) --memory $(MEMORY)\n",
            variant.name(),
            group[0]
        )?;
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
            build_with_log(&mut opts, &targets, out)?;
            writeln!(out, "tables in {}", opts.dir.display())?;
        }
        TbCommand::Plan {
            common,
            which,
            format,
        } => {
            let rules = common.variant.rules();
            let plan = Plan::new(&rules, &which.targets(common.variant)?).map_err(Failure)?;
            if format == PlanFormat::Make {
                return write_makefile(out, common.variant, &plan, &common.dir());
            }
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
        TbCommand::Stats {
            common,
            sector,
            all,
        } => {
            let rules = common.variant.rules();
            let tb = Tablebase::new(common.dir(), rules);
            if all {
                let plan = Plan::new(&rules, &[Sector::start(&rules)]).map_err(Failure)?;
                let mut sum = SectorStats::default();
                let (mut count, mut missing, mut positions) = (0, 0, 0u64);
                for &s in plan.groups().flatten() {
                    count += 1;
                    match tb.table(s) {
                        Ok(t) => {
                            let st = t.file().stats();
                            positions += t.index().len();
                            sum = sum + st;
                            writeln!(out, "{}", stats_line(s, t.index().len(), &st))?;
                        }
                        Err(TbError::Missing(_)) => {
                            missing += 1;
                            writeln!(out, "{s} missing")?;
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
                writeln!(
                    out,
                    "total sectors {count} missing {missing} positions {positions} wins {} losses {} draws {} classes wins {} losses {} draws {}",
                    sum.wins,
                    sum.losses,
                    sum.draws,
                    sum.class_wins,
                    sum.class_losses,
                    sum.class_draws
                )?;
                return Ok(());
            }
            let Some(sector) = sector else {
                return Err(Failure("give --sector W-B or --all".into()));
            };
            sector.check(&rules).map_err(Failure)?;
            if !tb.has(sector) {
                if !sector.is_moving() {
                    return Err(Failure(format!(
                        "sector {sector} is not built: run morris tb build --variant {} --sectors {sector}",
                        common.variant.name()
                    )));
                }
                let mut opts = BuildOptions::new(rules, common.dir());
                build_with_log(&mut opts, &[sector], &mut std::io::sink())?;
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
                "classes wins {} losses {} draws {}",
                s.class_wins, s.class_losses, s.class_draws
            )?;
            writeln!(
                out,
                "wins {} losses {} draws {} longest {}",
                s.wins, s.losses, s.draws, s.longest
            )?;
        }
        TbCommand::Probe { position, dir } => {
            let pos = position.position().map_err(Failure)?;
            let tb = Tablebase::new(dir.unwrap_or_else(paths::tablebase_dir), *pos.rules());
            writeln!(out, "value: {}", tb.probe(&pos)?)?;
            for (ply, v) in tb.probe_plies(&pos)? {
                writeln!(out, "{} {v}", ply.display(pos.board()))?;
            }
        }
        TbCommand::Verify {
            common,
            sectors,
            full,
            again,
        } => {
            let rules = common.variant.rules();
            let tb = Tablebase::new_mapped(common.dir(), rules);
            let sectors = if full {
                let plan = Plan::new(&rules, &[Sector::start(&rules)]).map_err(Failure)?;
                let all: Vec<Sector> = plan.groups().flatten().copied().collect();
                let missing: Vec<Sector> = all.iter().copied().filter(|&s| !tb.has(s)).collect();
                if !missing.is_empty() {
                    return Err(Failure(format!(
                        "{} of the {} sectors of {} are not built (first {}): run morris tb build --variant {} --full",
                        missing.len(),
                        all.len(),
                        common.variant,
                        missing[0],
                        common.variant.name()
                    )));
                }
                return verify_full(&tb, &all, again, out);
            } else if sectors.is_empty() {
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
            let bars = Bars::new();
            let n = verify(&tb, &sectors, &bars);
            bars.finish();
            let n = n?;
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

/// `morris tb verify --full`: every sector of the whole game in the plan's order, a line per
/// sector with the share done and the time left, each written to the verification journal
/// as it is done so that a run stopped and started again goes on where it was.
fn verify_full(
    tb: &Tablebase,
    sectors: &[Sector],
    again: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let rules = *tb.rules();
    let journal_path = journal::verify_path(tb.dir(), &rules);
    if again {
        match std::fs::remove_file(&journal_path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Failure(format!(
                    "cannot remove {}: {e}",
                    journal_path.display()
                )));
            }
            _ => {}
        }
    }
    // A sector counts as verified when the journal says so after its file was last written.
    let earlier: std::collections::HashMap<String, (u64, u64)> = journal::read_timed(&journal_path)
        .into_iter()
        .map(|(e, finished)| (e.group, (e.positions, finished)))
        .collect();
    let written = |s: Sector| -> u64 {
        std::fs::metadata(tb.dir().join(file_name(&rules, s)))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(u64::MAX, |d| d.as_secs())
    };
    let total: u64 = sectors.iter().map(|&s| sector_len(&rules, s)).sum();
    let (mut positions, mut done, mut skipped, mut skipped_len) = (0u64, 0u64, 0usize, 0u64);
    let mut todo = Vec::new();
    for &s in sectors {
        match earlier.get(&s.to_string()) {
            Some(&(n, finished)) if finished >= written(s) => {
                positions += n;
                skipped += 1;
                skipped_len += sector_len(&rules, s);
            }
            _ => todo.push(s),
        }
    }
    if skipped > 0 {
        writeln!(
            out,
            "{skipped} of the {} sectors were verified by earlier runs ({}): going on with the other {}",
            sectors.len(),
            journal_path.display(),
            todo.len()
        )?;
        out.flush()?;
    }
    let bars = Bars::with_overall(total, "overall");
    bars.done(skipped_len);
    let start = Instant::now();
    let mut usage = Usage::now();
    for &sector in &todo {
        let began = Instant::now();
        let n = verify(tb, &[sector], &bars);
        // The files of this sector's successors are not needed by the next one as a rule.
        tb.close();
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                bars.finish();
                return Err(e.into());
            }
        };
        let now = Usage::now();
        let entry = journal::Entry {
            group: sector.to_string(),
            positions: n,
            wall_s: began.elapsed().as_secs_f64(),
            cpu_s: now.cpu_s - usage.cpu_s,
            peak_mib: now.peak_mib,
        };
        usage = now;
        if let Err(e) = journal::append(&journal_path, &entry) {
            bars.println(&format!(
                "warning: cannot write {}: {e}",
                journal_path.display()
            ));
        }
        let len = sector_len(&rules, sector);
        bars.done(len);
        positions += n;
        done += len;
        let left = total - skipped_len - done;
        let left = if left > 0 {
            format!(
                ", about {} left",
                duration(left as f64 * start.elapsed().as_secs_f64() / done as f64)
            )
        } else {
            String::new()
        };
        bars.println(&format!(
            "{sector} verified: {n} positions in {:.2} s ({:.1}% of the positions{left})",
            entry.wall_s,
            100.0 * (skipped_len + done) as f64 / total.max(1) as f64
        ));
    }
    bars.finish();
    let (runs, _, wall_s, cpu_s, peak_mib) = journal::totals(&journal::read(&journal_path));
    if runs > 0 {
        writeln!(
            out,
            "over every run in this folder ({}): {runs} sectors verified, wall {}, CPU {}, peak memory {peak_mib:.0} MiB",
            journal_path.display(),
            duration(wall_s),
            duration(cpu_s)
        )?;
    }
    writeln!(
        out,
        "verified {positions} positions in {} sectors in {:.2} s: all agree",
        sectors.len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `morris solve`: the value of the start of a whole game. Three and Six Men's Morris are
/// solved here and now (seconds); the larger games are read from tables built beforehand with
/// `morris tb build --full`, and what is missing is named.
pub fn solve(variant: Variant, dir: Option<PathBuf>, out: &mut impl Write) -> Result<(), Failure> {
    let rules = variant.rules();
    let start_sector = Sector::start(&rules);
    start_sector.check(&rules).map_err(Failure)?;
    let mut opts = BuildOptions::new(rules, dir.unwrap_or_else(paths::tablebase_dir));
    let plan = Plan::new(&rules, &[start_sector]).map_err(Failure)?;
    let all: Vec<Sector> = plan.groups().flatten().copied().collect();
    let positions: u64 = all.iter().map(|&s| sector_len(&rules, s)).sum();
    writeln!(
        out,
        "solving {variant}: {} groups of {} sectors in {} levels, {positions} positions",
        plan.groups().count(),
        all.len(),
        plan.levels.len()
    )?;
    out.flush()?;
    let start = Instant::now();
    let tb = Tablebase::new(&opts.dir, rules);
    if matches!(variant, Variant::Three | Variant::Six) {
        build_with_log(&mut opts, &[start_sector], out)?;
        tb.refresh();
    } else {
        let missing: Vec<Sector> = all.iter().copied().filter(|&s| !tb.has(s)).collect();
        if !missing.is_empty() {
            let left: u64 = missing.iter().map(|&s| sector_len(&rules, s)).sum();
            return Err(Failure(format!(
                "{} of the {} sectors of {variant} are not built in {} ({left} positions, first {}): build them with morris tb build --variant {} --full (hours; it resumes where it stopped)",
                missing.len(),
                all.len(),
                opts.dir.display(),
                missing[0],
                variant.name()
            )));
        }
        writeln!(out, "every sector is built in {}", opts.dir.display())?;
    }
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
