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

use morris_core::{DoubleMill, FullBoard, MillRemoval, Point, Rules};

use crate::error::TbError;
use crate::index::{AddOne, Prepared};
use crate::sector::Sector;
use crate::tables::Table;
use crate::value::Value;

/// What a placement leads to, for a side with `pieces` on the board and `hand` in hand to
/// move next.
#[derive(Clone, Copy)]
struct Next<'a> {
    pieces: u8,
    hand: u8,
    /// The table of the sector of the successors, when there are successors that need it.
    table: Option<&'a Table>,
    sector: Sector,
}

/// The evaluator of one sector with pieces in hand.
pub(crate) struct Placing<'a> {
    all: u32,
    adjacent: Vec<u32>,
    /// The mills through each point.
    mills_at: Vec<Vec<u32>>,
    mills: Vec<u32>,
    mill_removal: MillRemoval,
    full_board_draws: bool,
    fly_at: u8,
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
        let covered = !rules.place_or_move
            && !rules.line_wins
            && rules.double_mill == DoubleMill::One
            && sector.us_hand > 0;
        if !covered {
            return Ok(None);
        }
        let board = rules.board();
        let n = board.len();
        let point = |i: usize| Point::new(i as u8).unwrap_or(Point::ALL[0]);
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
            all: board.all().0,
            adjacent: (0..n).map(|i| board.adjacent(point(i)).0).collect(),
            mills_at: (0..n)
                .map(|i| board.mills_at(point(i)).iter().map(|m| m.0).collect())
                .collect(),
            mills: board.mills().iter().map(|m| m.0).collect(),
            mill_removal: rules.mill_removal,
            full_board_draws: rules.full_board == FullBoard::Draw,
            fly_at: rules.fly_at,
            plain,
            removal,
            us_left: usize::from(sector.us) + usize::from(sector.us_hand),
        }))
    }

    /// What the positions with `them` for the other side share.
    pub fn them(&self, them: u32) -> Them {
        let prepare = |next: &Next<'_>, set: u32| next.table.map(|t| t.index().prepare(set));
        let mut removal = vec![None; self.adjacent.len()];
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

    fn in_mills(&self, set: u32) -> u32 {
        self.mills
            .iter()
            .filter(|&&m| set & m == m)
            .fold(0, |acc, &m| acc | m)
    }

    /// The pieces that a mill may remove from `victim`.
    fn removable(&self, victim: u32) -> u32 {
        match self.mill_removal {
            MillRemoval::Always => victim,
            MillRemoval::UnlessAllInMills => {
                let free = victim & !self.in_mills(victim);
                if free != 0 { free } else { victim }
            }
            MillRemoval::Never => victim & !self.in_mills(victim),
        }
    }

    /// The value of the position with `us` to move and `ctx`'s set for the other side.
    ///
    /// # Errors
    ///
    /// The errors of reading the tables of the successors.
    pub fn value(&self, ctx: &Them, us: u32) -> Result<Value, TbError> {
        let them = ctx.them;
        let them_left = usize::from(self.plain.pieces) + usize::from(self.plain.hand);
        // The game may be over already, by the rules in the order the core applies them.
        if self.us_left < 3 {
            return Ok(Value::Loss(0));
        }
        if them_left < 3 {
            return Ok(Value::Win(0));
        }
        let mut empty = self.all & !(us | them);
        if empty == 0 {
            // Pieces in hand and no point to place them: drawn or blocked.
            return Ok(if self.full_board_draws {
                Value::Draw
            } else {
                Value::Loss(0)
            });
        }
        let removable = self.removable(them);
        let ranks = ctx.plain_base.map(|base| (base, AddOne::new(us, them)));
        let mut best = Value::Loss(0);
        while empty != 0 {
            let p = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let placed = us | (1 << p);
            let closes = self.mills_at[p].iter().any(|&m| m & !placed == 0);
            if closes && removable != 0 {
                let mut rs = removable;
                while rs != 0 {
                    let r = rs.trailing_zeros() as usize;
                    rs &= rs - 1;
                    let v = self.child(
                        &self.removal,
                        ctx.removal[r],
                        None,
                        them & !(1 << r),
                        placed,
                    )?;
                    best = best.max(v.parent());
                }
            } else {
                let index = ranks.as_ref().map(|(base, add)| base + add.rank(p as u32));
                let v = self.child(&self.plain, ctx.plain, index, them, placed)?;
                best = best.max(v.parent());
            }
        }
        Ok(best)
    }

    /// The value of a successor for its side to move, who has `mover` on the board (`index`
    /// its index if known).
    #[inline]
    fn child(
        &self,
        next: &Next<'_>,
        prepared: Option<Prepared>,
        index: Option<u64>,
        mover: u32,
        other: u32,
    ) -> Result<Value, TbError> {
        if usize::from(next.pieces) + usize::from(next.hand) < 3 {
            return Ok(Value::Loss(0));
        }
        let empty = self.all & !(mover | other);
        if self.full_board_draws && empty == 0 {
            return Ok(Value::Draw);
        }
        if empty == 0 || (next.hand == 0 && self.blocked(next, mover, empty)) {
            return Ok(Value::Loss(0));
        }
        let (Some(table), Some(prepared)) = (next.table, prepared) else {
            return Err(TbError::Missing(next.sector));
        };
        table.value_at(index.unwrap_or_else(|| table.index().index_with(&prepared, other)))
    }

    /// Whether a side with no piece in hand and `mover` on the board has no step to make.
    fn blocked(&self, next: &Next<'_>, mover: u32, empty: u32) -> bool {
        let flies = self.fly_at != 0 && next.pieces == self.fly_at;
        if flies {
            // Flying needs only a piece and an empty point (and, under some rules, an empty
            // hand, which it is).
            return mover == 0;
        }
        let mut rest = mover;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.adjacent[x] & empty != 0 {
                return false;
            }
        }
        true
    }
}
