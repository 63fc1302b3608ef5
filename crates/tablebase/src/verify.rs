//! Verification: every stored value recomputed from forward move generation.

use rayon::prelude::*;

use morris_core::Position;

use crate::error::TbError;
use crate::file::BLOCK;
use crate::forward::{make_position, split, terminal_value};
use crate::index::SectorIndex;
use crate::progress::{Progress, Step};
use crate::sector::Sector;
use crate::tables::{Table, Tablebase};
use crate::value::{Value, decode};

/// Rechecks every stored value of `sectors`: a finished game has its result, any other position
/// the best of its successors' values seen one ply earlier (a win at `d` has a successor lost
/// at `d − 1` and none lost sooner; a loss at `d` has only successors won, the longest at
/// `d − 1`; a draw has no lost successor and a drawn one). Since distances strictly decrease
/// along these links, local agreement everywhere means the tables are right. Returns the
/// number of positions checked.
///
/// # Errors
///
/// [`TbError::Mismatch`] at the first disagreement, and the errors of opening the files the
/// sectors and their successors need.
pub fn verify(tb: &Tablebase, sectors: &[Sector], progress: &dyn Progress) -> Result<u64, TbError> {
    let mut checked = 0;
    for &sector in sectors {
        let loaded = Loaded::open(tb, sector)?;
        let near = loaded.near(tb);
        let values = near.values[0];
        let index = near.tables[0].index();
        let bar = Step::new(progress, index.len(), format!("verify {sector}"));
        checked += values
            .par_chunks(BLOCK)
            .enumerate()
            .try_fold(
                || (0u64, Batch::default()),
                |(mut n, mut batch), (b, chunk)| {
                    let first = (b * BLOCK) as u64;
                    for (k, &byte) in chunk.iter().enumerate() {
                        let i = first + k as u64;
                        n += batch.start(&near, sector, index, i, byte)?;
                        if batch.pending.len() == BATCH {
                            n += batch.finish(&near)?;
                        }
                    }
                    n += batch.finish(&near)?;
                    bar.inc(chunk.len() as u64);
                    Ok((n, batch))
                },
            )
            .map(|r| r.map(|(n, _)| n))
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        drop(bar);
    }
    Ok(checked)
}

/// The tables of one sector and of the sectors its positions reach in one ply, its own first,
/// each read whole into memory and checked against its checksums before any value is used
/// (see [`Table::load`]): every position probes a dozen of their values at random, which costs
/// no check and no page fault there.
struct Loaded {
    tables: Vec<(Sector, Table)>,
}

impl Loaded {
    fn open(tb: &Tablebase, sector: Sector) -> Result<Loaded, TbError> {
        let (dir, rules) = (tb.dir(), tb.rules());
        let mut tables = vec![(sector, Table::load(dir, rules, sector)?)];
        for child in sector.children(rules) {
            if child != sector {
                // A successor sector that cannot be read is left to `Tablebase::probe`,
                // which says why when a position needs it.
                if let Ok(t) = Table::load(dir, rules, child) {
                    tables.push((child, t));
                }
            }
        }
        Ok(Loaded { tables })
    }

    fn near<'a>(&'a self, tb: &'a Tablebase) -> Near<'a> {
        Near {
            tb,
            sectors: self.tables.iter().map(|(s, _)| *s).collect(),
            tables: self.tables.iter().map(|(_, t)| t).collect(),
            values: self
                .tables
                .iter()
                .map(|(_, t)| t.file().checked_values().unwrap_or_default())
                .collect(),
        }
    }
}

/// What the positions of one sector read of [`Loaded`]'s tables, at hand: the sectors, their
/// tables and their checked values.
struct Near<'a> {
    tb: &'a Tablebase,
    sectors: Vec<Sector>,
    tables: Vec<&'a Table>,
    values: Vec<&'a [u8]>,
}

/// How many positions have the values of their successors asked for before the first of them
/// is finished.
const BATCH: usize = 8;

/// A position whose successors' values are on their way into the cache.
struct Pending {
    pos: Position,
    stored: Option<Value>,
    /// The best value from the successors already known (finished games, other tables).
    best: Value,
    /// Its part of [`Batch::reads`].
    reads: std::ops::Range<usize>,
}

/// Positions checked a few at a time, in three passes over the batch so that the processor
/// waits for the cache misses of many reads together rather than one after another: the
/// successors of every position are generated and the class entry of each successor's set is
/// asked for, then the successors' indices are found and their bytes asked for, then the
/// bytes are read.
#[derive(Default)]
struct Batch {
    pending: Vec<Pending>,
    /// Which table (of [`Near::values`]) each successor is read from, and its sets.
    reads: Vec<(usize, u32, u32)>,
    /// The index of each successor in its table.
    at: Vec<usize>,
}

impl Batch {
    /// Starts checking the value `byte` stored at index `i`: at once when it stands for no
    /// position or a finished game (whether it stands for a position: 0 or 1), else by
    /// adding the position to the batch (0).
    fn start(
        &mut self,
        near: &Near<'_>,
        sector: Sector,
        index: &SectorIndex,
        i: u64,
        byte: u8,
    ) -> Result<u64, TbError> {
        let tb = near.tb;
        let stored = decode(byte);
        let pos = index
            .position(i)
            .filter(|_| index.is_used(i))
            .and_then(|(us, them)| make_position(tb.rules(), sector, us, them));
        let Some(pos) = pos else {
            if stored.is_some() {
                return Err(TbError::Mismatch {
                    position: format!("index {i} of sector {sector}"),
                    stored: format!("{stored:?}"),
                    computed: "no position".into(),
                });
            }
            return Ok(0);
        };
        if let Some(v) = terminal_value(&pos) {
            check(&pos, stored, v)?;
            return Ok(1);
        }
        let mut best = Value::Loss(0);
        let first = self.reads.len();
        for ply in pos.legal_plies() {
            let child = pos.after_unchecked(ply);
            if let Some(v) = terminal_value(&child) {
                best = best.max(v.parent());
                continue;
            }
            let (s, us, them) = split(&child);
            match near.sectors.iter().position(|&t| t == s) {
                Some(t) => {
                    near.tables[t].index().prefetch_prepare(us);
                    self.reads.push((t, us, them));
                }
                None => best = best.max(tb.probe(&child)?.parent()),
            }
        }
        self.pending.push(Pending {
            pos,
            stored,
            best,
            reads: first..self.reads.len(),
        });
        Ok(0)
    }

    /// Reads the successors' values of every position of the batch and checks each; the
    /// number checked.
    fn finish(&mut self, near: &Near<'_>) -> Result<u64, TbError> {
        self.at.clear();
        for &(t, us, them) in &self.reads {
            let at = near.tables[t].index_of(us, them)? as usize;
            let byte = near.values[t].get(at).ok_or_else(|| {
                TbError::Unsupported(format!(
                    "index {at} is past the values of sector {}",
                    near.sectors[t]
                ))
            })?;
            crate::bits::prefetch(byte);
            self.at.push(at);
        }
        let n = self.pending.len() as u64;
        for p in self.pending.drain(..) {
            let mut best = p.best;
            for k in p.reads {
                let t = self.reads[k].0;
                let v = decode(near.values[t][self.at[k]]).ok_or_else(|| TbError::Mismatch {
                    position: p.pos.to_string(),
                    stored: p.stored.map_or("no position".into(), |v| v.to_string()),
                    computed: format!("a successor of sector {} with no value", near.sectors[t]),
                })?;
                best = best.max(v.parent());
            }
            check(&p.pos, p.stored, best)?;
        }
        self.reads.clear();
        Ok(n)
    }
}

/// Compares a stored value with the one computed.
fn check(pos: &Position, stored: Option<Value>, computed: Value) -> Result<(), TbError> {
    if stored != Some(computed) {
        return Err(TbError::Mismatch {
            position: pos.to_string(),
            stored: stored.map_or("no position".into(), |v| v.to_string()),
            computed: computed.to_string(),
        });
    }
    Ok(())
}
