//! The successors of moving-phase positions straight from the sets of points, for the start of
//! a group's solution: which successors lie inside the group, and what the known ones (finished
//! games and positions after a removal, in sectors solved before) are worth.
//!
//! As for [`crate::placing`], the core's positions cost several times more than the values
//! they lead to; under the rules that [`BoardBits`] covers, the plies follow from a few
//! operations on the two sets. The tests of the solver check the tables built this way against
//! a naive solver and against forward generation under each rule option.
//!
//! The positions are visited in the order of their indices (by the class of the side to
//! move's set), so that the solver's state is written in sequence: read in the order of the
//! lower table instead, the writes cost more than the reads they save.

use crate::bits::BoardBits;
use crate::error::TbError;
use crate::index::{Prepared, SectorIndex};
use crate::sector::Sector;
use crate::tables::Table;
use crate::value::Value;

/// What the successors of a position tell at the start of a group's solution.
#[derive(Debug, Default)]
pub(crate) struct Exits {
    /// Successors inside the group that are simply counted (no two share an index).
    pub counted: usize,
    /// Successors inside the group by slot and index, where two may share one.
    pub inside: Vec<(u8, u64)>,
    /// The shortest win through a known successor.
    pub best_win: Option<u16>,
    /// The longest loss through known successors.
    pub longest_loss: u16,
    /// Whether a known successor is a draw.
    pub draw_exit: bool,
    /// Successors in the sector after a removal whose values are still to be read, as the
    /// sets (to move, other side) of their positions: their indices are found later
    /// ([`Exits::locate`]) and their values read after that ([`Exits::read`]), each step for
    /// several positions before the next, so that the waits for what each step reads overlap.
    pub lookups: Vec<(u32, u32)>,
    /// The indices of [`Exits::lookups`] in their table, once found.
    located: Vec<u64>,
}

impl Exits {
    pub fn clear(&mut self) {
        self.counted = 0;
        self.inside.clear();
        self.best_win = None;
        self.longest_loss = 0;
        self.draw_exit = false;
        self.lookups.clear();
        self.located.clear();
    }

    /// Finds the indices in `table` of the successors left in [`Exits::lookups`] and asks the
    /// memory for their values.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] when there are such successors but no table.
    pub fn locate(&mut self, table: Option<&Table>) -> Result<(), TbError> {
        if self.lookups.is_empty() {
            return Ok(());
        }
        let Some(table) = table else {
            return Err(TbError::Unsupported(
                "successors after a removal without their table".into(),
            ));
        };
        self.located.clear();
        for &(mover, other) in &self.lookups {
            let at = table.index().index(mover, other);
            table.file().prefetch(at);
            self.located.push(at);
        }
        Ok(())
    }

    /// Reads the values of the successors that [`Exits::locate`] found in `table`.
    ///
    /// # Errors
    ///
    /// The errors of reading the table.
    pub fn read(&mut self, table: Option<&Table>) -> Result<(), TbError> {
        let Some(table) = table else {
            return Ok(());
        };
        for k in 0..self.located.len() {
            let v = table.value_at(self.located[k])?;
            self.known(v);
        }
        self.lookups.clear();
        self.located.clear();
        Ok(())
    }

    /// A known successor whose value for its side to move is `v`.
    #[inline]
    pub fn known(&mut self, v: Value) {
        match v {
            Value::Loss(e) => self.best_win = Some(self.best_win.map_or(e + 1, |b| b.min(e + 1))),
            Value::Win(e) => self.longest_loss = self.longest_loss.max(e + 1),
            Value::Draw => self.draw_exit = true,
        }
    }
}

/// The successors of the positions of one moving-phase sector of a group.
pub(crate) struct Moving<'a> {
    bits: BoardBits,
    us: usize,
    them: usize,
    /// The sector after a removal (`them - 1` pieces to move against `us`) and its table, when
    /// its positions are not all finished games.
    lower: Option<&'a Table>,
    lower_sector: Sector,
}

/// What the positions with one set for the other side share.
pub(crate) struct MovingThem {
    them: u32,
    /// The other side's set prepared for the index of the partner sector.
    partner: Prepared,
}

impl<'a> Moving<'a> {
    /// The successors of moving-phase sector `sector` under `rules`, with `table` finding the
    /// tables of sectors solved before; `None` under rules that need the core's generation.
    ///
    /// # Errors
    ///
    /// [`TbError::Missing`] when the table after a removal is missing.
    pub fn new(
        rules: &morris_core::Rules,
        sector: Sector,
        table: impl Fn(Sector) -> Option<&'a Table>,
    ) -> Result<Option<Moving<'a>>, TbError> {
        let Some(bits) = BoardBits::new(rules) else {
            return Ok(None);
        };
        if !sector.is_moving() || sector.them == 0 {
            return Ok(None);
        }
        let lower_sector = Sector::moving(sector.them - 1, sector.us);
        let lower = if sector.them > 3 {
            Some(table(lower_sector).ok_or(TbError::Missing(lower_sector))?)
        } else {
            None
        };
        Ok(Some(Moving {
            bits,
            us: usize::from(sector.us),
            them: usize::from(sector.them),
            lower,
            lower_sector,
        }))
    }

    /// What the positions with `them` for the other side share; `partner` is the index of the
    /// sector the plies without removal lead to.
    pub fn them(&self, them: u32, partner: &SectorIndex) -> MovingThem {
        MovingThem {
            them,
            partner: partner.prepare(them),
        }
    }

    /// The table of the sector after a removal, which [`Exits::read`] reads.
    pub fn lower(&self) -> Option<&'a Table> {
        self.lower
    }

    /// The position with `us` to move: its value if the game is over there, or else its
    /// successors in `exits` (those inside the group in slot `pk` of `partner`'s sector, and
    /// those after a removal that [`Exits::read`] is still to read).
    ///
    /// # Errors
    ///
    /// The errors of reading the lower table.
    pub fn exits(
        &self,
        ctx: &MovingThem,
        us: u32,
        partner: &SectorIndex,
        pk: u8,
        exits: &mut Exits,
    ) -> Result<Option<Value>, TbError> {
        let them = ctx.them;
        let bits = &self.bits;
        // The end of the game by the rules in the order the core applies them.
        if self.us < 3 {
            return Ok(Some(Value::Loss(0)));
        }
        if self.them < 3 {
            return Ok(Some(Value::Win(0)));
        }
        let empty = bits.all & !(us | them);
        if bits.full_board_draws && empty == 0 {
            return Ok(Some(Value::Draw));
        }
        if bits.blocked(us, self.us, empty) {
            return Ok(Some(Value::Loss(0)));
        }
        exits.clear();
        let flies = bits.flies(self.us);
        let removable = bits.removable(them);
        let asymmetric = ctx.partner.is_asymmetric();
        let mut from = us;
        while from != 0 {
            let x = from.trailing_zeros() as usize;
            from &= from - 1;
            let rest = us & !(1 << x);
            let mut to = if flies {
                empty
            } else {
                bits.adjacent(x) & empty
            };
            while to != 0 {
                let y = to.trailing_zeros() as usize;
                to &= to - 1;
                let moved = rest | (1 << y);
                if removable != 0 && bits.closes(y, moved) {
                    let mut rs = removable;
                    while rs != 0 {
                        let r = rs.trailing_zeros() as usize;
                        rs &= rs - 1;
                        self.after_removal(ctx, r, moved, exits)?;
                    }
                    continue;
                }
                // The other side to move with the same pieces: blocked, or inside the group.
                let after = bits.all & !(them | moved);
                if bits.blocked(them, self.them, after) {
                    exits.known(Value::Loss(0));
                } else if asymmetric {
                    exits.counted += 1;
                } else {
                    exits
                        .inside
                        .push((pk, partner.index_with(&ctx.partner, moved)));
                }
            }
        }
        Ok(None)
    }

    /// The position after a ply that left `moved` to the other side and removed the piece on
    /// point `r`: its value for its side to move if the game is over there, or else its sets,
    /// left in `exits` to be looked up in the lower table (what ranking them reads is asked
    /// of the memory now).
    #[inline]
    fn after_removal(
        &self,
        ctx: &MovingThem,
        r: usize,
        moved: u32,
        exits: &mut Exits,
    ) -> Result<(), TbError> {
        let mover = ctx.them & !(1 << r);
        let left = self.them - 1;
        if left < 3 {
            exits.known(Value::Loss(0));
            return Ok(());
        }
        let empty = self.bits.all & !(mover | moved);
        if self.bits.full_board_draws && empty == 0 {
            exits.known(Value::Draw);
            return Ok(());
        }
        if self.bits.blocked(mover, left, empty) {
            exits.known(Value::Loss(0));
            return Ok(());
        }
        let Some(table) = self.lower else {
            return Err(TbError::Missing(self.lower_sector));
        };
        table.index().prefetch_prepare(mover);
        exits.lookups.push((mover, moved));
        Ok(())
    }
}
