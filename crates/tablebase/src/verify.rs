//! Verification: every stored value recomputed from forward move generation.

use rayon::prelude::*;

use crate::error::TbError;
use crate::forward::{make_position, value_from_children};
use crate::sector::Sector;
use crate::solve::progress_bar;
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
pub fn verify(tb: &Tablebase, sectors: &[Sector], progress: bool) -> Result<u64, TbError> {
    let rules = *tb.rules();
    let mut checked = 0;
    for &sector in sectors {
        let table = tb.table(sector)?;
        let index = table.index();
        let values = table.file().values();
        let len = index.len();
        let bar = progress_bar(progress, len, format!("verify {sector}"));
        checked += (0..len as usize)
            .into_par_iter()
            .with_min_len(1024)
            .try_fold(
                || 0u64,
                |n, i| {
                    let i = i as u64;
                    if i % 4096 == 0 {
                        bar.inc(4096.min(len - i));
                    }
                    let stored = decode(values[i as usize]);
                    let pos = index
                        .position(i)
                        .filter(|_| index.is_used(i))
                        .and_then(|(us, them)| make_position(&rules, sector, us, them));
                    let Some(pos) = pos else {
                        if stored.is_some() {
                            return Err(TbError::Mismatch {
                                position: format!("index {i} of sector {sector}"),
                                stored: format!("{stored:?}"),
                                computed: "no position".into(),
                            });
                        }
                        return Ok(n);
                    };
                    let computed = value_from_children(&pos, |c| tb.probe(c))?;
                    if stored != Some(computed) {
                        return Err(TbError::Mismatch {
                            position: pos.to_string(),
                            stored: stored.map_or("no position".into(), |v| v.to_string()),
                            computed: computed.to_string(),
                        });
                    }
                    Ok(n + 1)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        bar.finish_and_clear();
    }
    Ok(checked)
}
