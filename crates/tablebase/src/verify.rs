//! Verification: every stored value recomputed from forward move generation.

use rayon::prelude::*;

use std::sync::Arc;

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
        let near = Near::open(tb, sector)?;
        let table = near.tables[0].1.clone();
        let index = table.index();
        let file = table.file();
        let len = index.len();
        let bar = Step::new(progress, len, format!("verify {sector}"));
        checked += (0..file.blocks())
            .into_par_iter()
            .try_fold(
                || (0u64, Batch::default()),
                |(mut n, mut batch), b| {
                    let values = file.block(b)?;
                    let first = b * BLOCK as u64;
                    for (k, &byte) in values.iter().enumerate() {
                        let i = first + k as u64;
                        n += batch.start(&near, sector, index, i, byte)?;
                        if batch.pending.len() == BATCH {
                            n += batch.finish(&near)?;
                        }
                    }
                    n += batch.finish(&near)?;
                    bar.inc(values.len() as u64);
                    Ok((n, batch))
                },
            )
            .map(|r| r.map(|(n, _)| n))
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        drop(bar);
    }
    Ok(checked)
}

/// The tables that the positions of one sector reach in one ply, its own first, held at hand
/// so that each of the dozen probes of a position costs no lookup under a lock.
struct Near<'a> {
    tb: &'a Tablebase,
    tables: Vec<(Sector, Arc<Table>)>,
}

impl<'a> Near<'a> {
    fn open(tb: &'a Tablebase, sector: Sector) -> Result<Near<'a>, TbError> {
        let mut tables = vec![(sector, tb.table(sector)?)];
        for child in sector.children(tb.rules()) {
            if child != sector {
                // A successor sector that cannot be opened is left to `Tablebase::probe`,
                // which says why when a position needs it.
                if let Ok(t) = tb.table(child) {
                    tables.push((child, t));
                }
            }
        }
        Ok(Near { tb, tables })
    }
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

/// Positions checked a few at a time: the indices of their successors are found and their
/// bytes asked for first, and read when the last position of the batch has asked for its own.
/// The reads do not depend on one another, so the processor waits for their cache misses
/// together rather than one after another.
#[derive(Default)]
struct Batch {
    pending: Vec<Pending>,
    /// Which table (of [`Near::tables`]) and index each successor is read from.
    reads: Vec<(usize, u64)>,
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
            match near.tables.iter().position(|(t, _)| *t == s) {
                Some(t) => {
                    let table = &near.tables[t].1;
                    let at = table.index_of(us, them)?;
                    table.file().prefetch(at);
                    self.reads.push((t, at));
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
        let n = self.pending.len() as u64;
        for p in self.pending.drain(..) {
            let mut best = p.best;
            for &(t, at) in &self.reads[p.reads] {
                best = best.max(near.tables[t].1.value_at(at)?.parent());
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
