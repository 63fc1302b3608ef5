//! A board and the rules of play as operations on sets of points, for the solver's fast paths
//! (see [`crate::placing`] and [`crate::moving`]).

use morris_core::{DoubleMill, FullBoard, MillRemoval, Point, Rules};

/// Asks the processor to bring `x` into its cache ahead of its use, so that the waits for
/// many such values overlap: a hint that changes no result. Nothing on processors without the
/// instruction.
#[inline]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch only hints the cache and never faults, whatever the address (here
        // that of a live reference); SSE, which it needs, is part of every x86-64.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The board's lines and mills as bit patterns, with the rules that decide what a ply leads to.
pub(crate) struct BoardBits {
    pub all: u32,
    adjacent: Vec<u32>,
    /// The mills through each point.
    mills_at: Vec<Vec<u32>>,
    mills: Vec<u32>,
    mill_removal: MillRemoval,
    pub full_board_draws: bool,
    fly_at: u8,
}

impl BoardBits {
    /// The sets of a board under `rules`; `None` under rules that the fast paths leave to the
    /// core's move generation: a line that wins at once, more than one removal per ply, or
    /// moves while pieces are still in hand.
    pub fn new(rules: &Rules) -> Option<BoardBits> {
        if rules.place_or_move || rules.line_wins || rules.double_mill != DoubleMill::One {
            return None;
        }
        let board = rules.board();
        let n = board.len();
        let point = |i: usize| Point::new(i as u8).unwrap_or(Point::ALL[0]);
        Some(BoardBits {
            all: board.all().0,
            adjacent: (0..n).map(|i| board.adjacent(point(i)).0).collect(),
            mills_at: (0..n)
                .map(|i| board.mills_at(point(i)).iter().map(|m| m.0).collect())
                .collect(),
            mills: board.mills().iter().map(|m| m.0).collect(),
            mill_removal: rules.mill_removal,
            full_board_draws: rules.full_board == FullBoard::Draw,
            fly_at: rules.fly_at,
        })
    }

    /// The number of points.
    pub fn points(&self) -> usize {
        self.adjacent.len()
    }

    /// The points next to point `x`.
    #[inline]
    pub fn adjacent(&self, x: usize) -> u32 {
        self.adjacent[x]
    }

    /// Whether `set` holds a whole mill through point `p`.
    #[inline]
    pub fn closes(&self, p: usize, set: u32) -> bool {
        self.mills_at[p].iter().any(|&m| m & !set == 0)
    }

    fn in_mills(&self, set: u32) -> u32 {
        self.mills
            .iter()
            .filter(|&&m| m & !set == 0)
            .fold(0, |acc, &m| acc | m)
    }

    /// The pieces that a mill may remove from `victim`; a mill that may remove none is played
    /// as a ply without removal.
    pub fn removable(&self, victim: u32) -> u32 {
        match self.mill_removal {
            MillRemoval::Always => victim,
            MillRemoval::UnlessAllInMills => {
                let free = victim & !self.in_mills(victim);
                if free != 0 { free } else { victim }
            }
            MillRemoval::Never => victim & !self.in_mills(victim),
        }
    }

    /// Whether a side with `left` pieces, all on the board, flies.
    #[inline]
    pub fn flies(&self, left: usize) -> bool {
        self.fly_at != 0 && left == usize::from(self.fly_at)
    }

    /// Whether a side with no piece in hand and `mover` on the board (`left` pieces in all)
    /// has no step to make onto the points `empty`.
    pub fn blocked(&self, mover: u32, left: usize, empty: u32) -> bool {
        if empty == 0 {
            return true;
        }
        if self.flies(left) {
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
