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
                || (0u64, Vec::new()),
                |(mut n, mut reads), b| {
                    let values = file.block(b)?;
                    let first = b * BLOCK as u64;
                    for (k, &byte) in values.iter().enumerate() {
                        let i = first + k as u64;
                        if verify_one(&near, sector, index, i, byte, &mut reads)? {
                            n += 1;
                        }
                    }
                    bar.inc(values.len() as u64);
                    Ok((n, reads))
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

    /// The value of `pos` from its successors' values (as `value_from_children` with
    /// [`Tablebase::probe`]). The indices of the successors are found first and their values
    /// read after, back to back: the reads do not depend on one another, so the processor
    /// waits for their cache misses together rather than one after another. `reads` is room
    /// for them, reused from one position to the next.
    fn value(&self, pos: &Position, reads: &mut Vec<(usize, u64)>) -> Result<Value, TbError> {
        if let Some(v) = terminal_value(pos) {
            return Ok(v);
        }
        let mut best = Value::Loss(0);
        reads.clear();
        for ply in pos.legal_plies() {
            let child = pos.after_unchecked(ply);
            if let Some(v) = terminal_value(&child) {
                best = best.max(v.parent());
                continue;
            }
            let (sector, us, them) = split(&child);
            match self.tables.iter().position(|(s, _)| *s == sector) {
                Some(t) => reads.push((t, self.tables[t].1.index_of(us, them)?)),
                None => best = best.max(self.tb.probe(&child)?.parent()),
            }
        }
        for &(t, i) in reads.iter() {
            best = best.max(self.tables[t].1.value_at(i)?.parent());
        }
        Ok(best)
    }
}

/// Checks the value stored at index `i`; whether it stands for a position.
fn verify_one(
    near: &Near<'_>,
    sector: Sector,
    index: &SectorIndex,
    i: u64,
    byte: u8,
    reads: &mut Vec<(usize, u64)>,
) -> Result<bool, TbError> {
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
        return Ok(false);
    };
    let computed = near.value(&pos, reads)?;
    if stored != Some(computed) {
        return Err(TbError::Mismatch {
            position: pos.to_string(),
            stored: stored.map_or("no position".into(), |v| v.to_string()),
            computed: computed.to_string(),
        });
    }
    Ok(true)
}
