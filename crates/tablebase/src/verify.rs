//! Verification: every stored value recomputed from forward move generation.

use rayon::prelude::*;

use crate::error::TbError;
use crate::file::BLOCK;
use crate::forward::{make_position, value_from_children};
use crate::index::SectorIndex;
use crate::progress::{Progress, Step};
use crate::sector::Sector;
use crate::tables::Tablebase;
use crate::value::decode;

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
        let table = tb.table(sector)?;
        let index = table.index();
        let file = table.file();
        let len = index.len();
        let bar = Step::new(progress, len, format!("verify {sector}"));
        checked += (0..file.blocks())
            .into_par_iter()
            .try_fold(
                || 0u64,
                |mut n, b| {
                    let values = file.block(b)?;
                    let first = b * BLOCK as u64;
                    for (k, &byte) in values.iter().enumerate() {
                        let i = first + k as u64;
                        if verify_one(tb, sector, index, i, byte)? {
                            n += 1;
                        }
                    }
                    bar.inc(values.len() as u64);
                    Ok(n)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        drop(bar);
    }
    Ok(checked)
}

/// Checks the value stored at index `i`; whether it stands for a position.
fn verify_one(
    tb: &Tablebase,
    sector: Sector,
    index: &SectorIndex,
    i: u64,
    byte: u8,
) -> Result<bool, TbError> {
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
    let computed = value_from_children(&pos, |c| tb.probe(c))?;
    if stored != Some(computed) {
        return Err(TbError::Mismatch {
            position: pos.to_string(),
            stored: stored.map_or("no position".into(), |v| v.to_string()),
            computed: computed.to_string(),
        });
    }
    Ok(true)
}
