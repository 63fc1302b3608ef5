//! The evaluation of positions with pieces in hand straight from the sets of points.
//!
//! Most of the positions of the whole game have pieces in hand, and each of them has a
//! successor for nearly every empty point. Going through the core's [`Position`] for each of
//! them (building it, generating its plies, playing each, asking each successor whether the game
//! is over, finding the successor's sector) costs several times more than reading the
//! successor's value. Under the rules that most games share (a placement is the only ply while
//! pieces are in hand, one removal per ply, no line that wins at once) the successors follow
//! from a few operations on the two sets, which this module does. Every other set of rules goes
//! through the core. The tests check, for every position of several sectors, that both give
//! the same value.
//!
//! [`Position`]: morris_core::Position

use morris_core::Rules;

use crate::bits::BoardBits;

use crate::error::TbError;
use crate::index::{AddOne, Prepared};
use crate::sector::Sector;
use crate::tables::Table;
use crate::value::{NOT_A_POSITION, PARENT_KEY, Value, from_key, key};

/// What a placement leads to, for a side with `pieces` on the board and `hand` in hand to
/// move next.
#[derive(Clone, Copy)]
struct Next<'a> {
    pieces: u8,
    hand: u8,
    /// The table of the sector of the successors, when there are successors that need it.
    table: Option<&'a Table>,
    /// Its values, when they are all in memory and checked.
    values: Option<&'a [u8]>,
    sector: Sector,
}

/// The evaluator of one sector with pieces in hand.
pub(crate) struct Placing<'a> {
    bits: BoardBits,
    /// After a placement that removes nothing, and after one that removes a piece.
    plain: Next<'a>,
    removal: Next<'a>,
    /// The side to move's pieces on the board and in hand.
    us_left: usize,
}

/// What the successors of every position with one set for the other side share: the side to
/// move's part of their indices.
pub(crate) struct Them {
    them: u32,
    plain: Option<Prepared>,
    /// When `them` is the canonical member of its class with no other symmetry: the first
    /// index of the successors without removal (see [`AddOne`]).
    plain_base: Option<u64>,
    /// By point: the prepared set of `them` without the piece on that point.
    removal: Vec<Option<Prepared>>,
}

impl<'a> Placing<'a> {
    /// The evaluator of `sector` under `rules`, with `table` finding the tables of the sectors
    /// solved before; `None` when the rules or the sector need the core's move generation.
    ///
    /// # Errors
    ///
    /// [`TbError::Missing`] when a table that successors need is missing.
    pub fn new(
        rules: &Rules,
        sector: Sector,
        table: impl Fn(Sector) -> Option<&'a Table>,
    ) -> Result<Option<Placing<'a>>, TbError> {
        let Some(bits) = BoardBits::new(rules).filter(|_| sector.us_hand > 0) else {
            return Ok(None);
        };
        let next = |pieces: u8| -> Result<Next<'a>, TbError> {
            let sector = Sector {
                us: pieces,
                them: sector.us + 1,
                us_hand: sector.them_hand,
                them_hand: sector.us_hand - 1,
            };
            // Successors where the side to move has fewer than three pieces left are finished
            // games: their sector has no table and needs none.
            let needed = usize::from(pieces) + usize::from(sector.us_hand) >= 3;
            let table = if needed {
                Some(table(sector).ok_or(TbError::Missing(sector))?)
            } else {
                None
            };
            Ok(Next {
                pieces,
                hand: sector.us_hand,
                table,
                values: table.and_then(|t| t.file().checked_values()),
                sector,
            })
        };
        let plain = next(sector.them)?;
        let removal = if sector.them > 0 {
            next(sector.them - 1)?
        } else {
            plain
        };
        Ok(Some(Placing {
            bits,
            plain,
            removal,
            us_left: usize::from(sector.us) + usize::from(sector.us_hand),
        }))
    }

    /// What the positions with `them` for the other side share.
    pub fn them(&self, them: u32) -> Them {
        let prepare = |next: &Next<'_>, set: u32| next.table.map(|t| t.index().prepare(set));
        let mut removal = vec![None; self.bits.points()];
        let mut rest = them;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            removal[r] = prepare(&self.removal, them & !(1 << r));
        }
        let plain = prepare(&self.plain, them);
        let plain_base = self
            .plain
            .table
            .zip(plain)
            .and_then(|(t, p)| t.index().plain_base(&p));
        Them {
            them,
            plain,
            plain_base,
            removal,
        }
    }

    /// The value of the position with `us` to move and `ctx`'s set for the other side
    /// (`add` a buffer for the ranks of its successors).
    ///
    /// # Errors
    ///
    /// The errors of reading the tables of the successors.
    pub fn value(&self, ctx: &Them, us: u32, add: &mut AddOne) -> Result<Value, TbError> {
        let them = ctx.them;
        let them_left = usize::from(self.plain.pieces) + usize::from(self.plain.hand);
        // The game may be over already, by the rules in the order the core applies them.
        if self.us_left < 3 {
            return Ok(Value::Loss(0));
        }
        if them_left < 3 {
            return Ok(Value::Win(0));
        }
        let mut empty = self.bits.all & !(us | them);
        if empty == 0 {
            // Pieces in hand and no point to place them: drawn or blocked.
            return Ok(if self.bits.full_board_draws {
                Value::Draw
            } else {
                Value::Loss(0)
            });
        }
        let removable = self.bits.removable(them);
        if ctx.plain_base.is_some() {
            add.set(us, them);
        }
        // The best successor so far, by its key (see `key`): the larger, the better.
        let mut best = key(Value::Loss(0));
        while empty != 0 {
            let p = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let placed = us | (1 << p);
            let closes = self.bits.closes(p, placed);
            if closes && removable != 0 {
                let mut rs = removable;
                while rs != 0 {
                    let r = rs.trailing_zeros() as usize;
                    rs &= rs - 1;
                    let k = self.child(
                        &self.removal,
                        ctx.removal[r],
                        None,
                        them & !(1 << r),
                        placed,
                    )?;
                    best = best.max(k);
                }
            } else {
                let index = ctx.plain_base.map(|base| base + add.rank(p as u32));
                let k = self.child(&self.plain, ctx.plain, index, them, placed)?;
                best = best.max(k);
            }
        }
        Ok(from_key(best))
    }

    /// The [`key`] of the value, for the side to move before it, of a successor whose side to
    /// move has `mover` on the board (`index` its index if known).
    #[inline(always)]
    fn child(
        &self,
        next: &Next<'_>,
        prepared: Option<Prepared>,
        index: Option<u64>,
        mover: u32,
        other: u32,
    ) -> Result<u16, TbError> {
        if usize::from(next.pieces) + usize::from(next.hand) < 3 {
            return Ok(key(Value::Loss(0).parent()));
        }
        let empty = self.bits.all & !(mover | other);
        if self.bits.full_board_draws && empty == 0 {
            return Ok(key(Value::Draw));
        }
        let left = usize::from(next.pieces);
        if empty == 0 || (next.hand == 0 && self.bits.blocked(mover, left, empty)) {
            return Ok(key(Value::Loss(0).parent()));
        }
        let (Some(table), Some(prepared)) = (next.table, prepared) else {
            return Err(TbError::Missing(next.sector));
        };
        let index = index.unwrap_or_else(|| table.index().index_with(&prepared, other));
        // Straight from memory when the values are there, checked; a byte that stands for no
        // position goes the long way, which says what is wrong.
        if let Some(&byte) = next.values.and_then(|v| v.get(index as usize))
            && byte != NOT_A_POSITION
        {
            return Ok(PARENT_KEY[usize::from(byte)]);
        }
        Ok(key(table.value_at(index)?.parent()))
    }
}
