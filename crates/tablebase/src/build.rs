//! Building tables: the plan, resuming what is already built, memory bounds and files.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use morris_core::Rules;

use crate::error::TbError;
use crate::file::{SectorStats, write};
use crate::index::SectorIndex;
use crate::progress::{Progress, Silent};
use crate::sector::{Plan, Sector};
use crate::solve::{BYTES_PER_POSITION, BYTES_PER_QUEUE_ENTRY, GroupSolver, sector_stats};
use crate::tables::Table;

/// How to build.
#[derive(Clone)]
pub struct BuildOptions {
    /// The rules.
    pub rules: Rules,
    /// The folder of the files.
    pub dir: PathBuf,
    /// Whether to build the sectors the targets depend on (otherwise they must be built).
    pub dependencies: bool,
    /// The most memory a group may use while it is solved, in bytes.
    pub memory_limit: u64,
    /// Where the steps of solving each group are reported.
    pub progress: Arc<dyn Progress>,
}

impl std::fmt::Debug for BuildOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .field("dependencies", &self.dependencies)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

impl BuildOptions {
    /// Options for `rules` and `dir`: dependencies built, progress unreported, memory up to
    /// three quarters of 24 GiB.
    pub fn new(rules: Rules, dir: impl Into<PathBuf>) -> BuildOptions {
        BuildOptions {
            rules,
            dir: dir.into(),
            dependencies: true,
            memory_limit: 18 << 30,
            progress: Arc::new(Silent),
        }
    }
}

/// What happened to one group of sectors.
#[derive(Debug, Clone)]
pub struct GroupReport {
    /// The sectors.
    pub sectors: Vec<Sector>,
    /// Their figures.
    pub stats: Vec<SectorStats>,
    /// Indices stored (all sectors of the group).
    pub positions: u64,
    /// Seconds spent; 0 when the files were there already.
    pub seconds: f64,
    /// Whether the group was solved now (rather than found built).
    pub solved: bool,
}

/// The number of indices of a sector (its file's values).
pub fn sector_len(rules: &Rules, sector: Sector) -> u64 {
    SectorIndex::new(rules.board, sector).len()
}

/// The memory a group needs while it is solved, in bytes: its own state and the values of the
/// sectors it reads, which it holds in memory meanwhile (see [`crate::Table::load`]).
pub fn memory_needed(rules: &Rules, group: &[Sector]) -> u64 {
    let own: u64 = group
        .iter()
        .map(|&s| {
            let n = sector_len(rules, s);
            if s.is_moving() {
                // Value, counter and flags, plus the work queues: at worst every position
                // waits in a queue once (decisions known at the start), and a layer's queue
                // and the next one hold a fraction of the sector besides.
                n * (BYTES_PER_POSITION + BYTES_PER_QUEUE_ENTRY)
            } else {
                n
            }
        })
        .sum();
    let mut read: Vec<Sector> = group
        .iter()
        .flat_map(|s| s.children(rules))
        .filter(|c| !group.contains(c))
        .collect();
    read.sort_unstable();
    read.dedup();
    own + read.iter().map(|&s| sector_len(rules, s)).sum::<u64>()
}

/// Builds the groups of `targets` (and, if asked, what they depend on) that are not built yet,
/// calling `report` after each group.
///
/// A build interrupted at any point resumes where it stopped: finished sectors are files, and
/// a file appears only once complete.
///
/// # Errors
///
/// [`TbError::Missing`] when a dependency is missing and not to be built, [`TbError::TooBig`]
/// when a group needs more memory than allowed, and the errors of solving and writing.
#[allow(unsafe_code)]
pub fn build(
    opts: &BuildOptions,
    targets: &[Sector],
    mut report: impl FnMut(&GroupReport),
) -> Result<(), TbError> {
    let rules = &opts.rules;
    let plan = Plan::new(rules, targets).map_err(TbError::Unsupported)?;
    let target_groups: Vec<Vec<Sector>> = targets.iter().map(Sector::group).collect();
    for group in plan.groups() {
        let existing: Result<Vec<Table>, TbError> = group
            .iter()
            // SAFETY: see `map_built`.
            .map(|&s| unsafe { map_built(&opts.dir, rules, s) })
            .collect();
        match existing {
            Ok(tables) => {
                let stats = tables.iter().map(|t| t.file().stats()).collect();
                let positions = tables.iter().map(|t| t.index().len()).sum();
                report(&GroupReport {
                    sectors: group.clone(),
                    stats,
                    positions,
                    seconds: 0.0,
                    solved: false,
                });
                continue;
            }
            Err(TbError::Missing(s)) if !opts.dependencies && !target_groups.contains(group) => {
                return Err(TbError::Missing(s));
            }
            Err(TbError::Missing(_)) => {}
            Err(e) => return Err(e),
        }
        let r = solve_group(opts, group)?;
        report(&r);
    }
    Ok(())
}

/// Maps a built sector's file for the solver, which reads the files of lower sectors at
/// random and would be slowed down by a system call per read.
///
/// # Safety
///
/// As [`Table::map`]: the files of the folder being built are written once under a temporary
/// name and renamed into place, and never written to again; the folder is the build's own
/// while it runs, and nobody may truncate a file in it meanwhile.
#[allow(unsafe_code)]
unsafe fn map_built(dir: &Path, rules: &Rules, sector: Sector) -> Result<Table, TbError> {
    // SAFETY: passed on to the caller.
    unsafe { Table::map(dir, rules, sector) }
}

/// Solves one group from the tables of the sectors it depends on and writes its files.
fn solve_group(opts: &BuildOptions, group: &[Sector]) -> Result<GroupReport, TbError> {
    let rules = &opts.rules;
    let needed = memory_needed(rules, group);
    if needed > opts.memory_limit {
        return Err(TbError::TooBig {
            sectors: names(group),
            needed,
            limit: opts.memory_limit,
        });
    }
    let start = Instant::now();
    let mut lower: Vec<(Sector, Arc<Table>)> = Vec::new();
    for s in group {
        for c in s.children(rules) {
            if group.contains(&c) || lower.iter().any(|(s, _)| *s == c) {
                continue;
            }
            // Read whole into memory for the time of this group: the solver reads them at
            // random, and finds them faster there than through a mapping of the files.
            lower.push((c, Arc::new(Table::load(&opts.dir, rules, c)?)));
        }
    }
    let solver = GroupSolver {
        rules: *rules,
        group: group.to_vec(),
        lower: &lower,
        progress: &*opts.progress,
    };
    let values = solver.solve()?;
    let mut stats = Vec::new();
    let mut positions = 0;
    for (&s, v) in group.iter().zip(&values) {
        let index = SectorIndex::new(rules.board, s);
        let st = sector_stats(&index, v);
        write(&opts.dir, rules, s, v, &st)?;
        stats.push(st);
        positions += v.len() as u64;
    }
    Ok(GroupReport {
        sectors: group.to_vec(),
        stats,
        positions,
        seconds: start.elapsed().as_secs_f64(),
        solved: true,
    })
}

/// The names of sectors joined with `+`.
pub fn names(group: &[Sector]) -> String {
    group
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("+")
}
