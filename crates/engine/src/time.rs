//! Time management: how long to think on a clock or a fixed time per ply.

use std::time::Duration;

use morris_core::Position;

use crate::limits::Limits;

/// Time kept back for the protocol and the operating system, per ply, on a clock.
const OVERHEAD: Duration = Duration::from_millis(30);
/// Time kept back from a fixed time per ply, so that the answer arrives within it.
const MOVETIME_MARGIN: Duration = Duration::from_millis(3);
/// The number of own plies the remaining clock time is spread over.
const PLIES_TO_GO: u32 = 28;

/// Over the last placements the soft limit grows by this factor: they decide who can move.
const LATE_PLACING_FACTOR: f64 = 1.6;
/// A fall of the score by more than this, in centi-pieces, from one iteration to the next...
const SCORE_DROP: i32 = 30;
/// ...grows the soft limit by this factor (once per fall, up to [`MAX_FACTOR`]).
const SCORE_DROP_FACTOR: f64 = 1.5;
/// A change of the best ply grows the soft limit by this factor.
const CHANGE_FACTOR: f64 = 1.3;
/// Each iteration that keeps the best ply, from the fourth on, shrinks it by this factor.
const STABLE_FACTOR: f64 = 0.9;
/// The soft limit never grows beyond this many times its base, nor shrinks below the last.
const MAX_FACTOR: f64 = 3.0;
const MIN_FACTOR: f64 = 0.5;

/// How long a search may take, from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Start no new iteration once about half of this has passed.
    pub soft: Option<Duration>,
    /// Stop at once when this has passed.
    pub hard: Option<Duration>,
}

/// When to stop iterating on a clock: the soft limit, grown on critical plies (the last
/// placements, a falling score, a best ply that changes) and shrunk while the best ply stays.
/// It never lets the search pass the hard limit, and with a fixed time per ply (no clock) it
/// never stops early: the whole `movetime` is used.
#[derive(Clone, Debug)]
pub(crate) struct Pacing {
    budget: Budget,
    clock: bool,
    factor: f64,
    stable: u32,
    last: Option<(usize, i32)>,
}

impl Pacing {
    pub fn new(budget: Budget, limits: &Limits, pos: &Position) -> Pacing {
        let hands = pos.in_hand(pos.turn()) + pos.in_hand(!pos.turn());
        let late_placing = hands > 0 && hands <= 4;
        Pacing {
            budget,
            clock: limits.clock.is_some(),
            factor: if late_placing {
                LATE_PLACING_FACTOR
            } else {
                1.0
            },
            stable: 0,
            last: None,
        }
    }

    /// Takes in a finished iteration: the index of its best ply (in a fixed list of the root's
    /// plies) and its value.
    pub fn iteration(&mut self, best: usize, value: i32, forced: bool) {
        if let Some((last_best, last_value)) = self.last {
            if best != last_best {
                self.factor *= CHANGE_FACTOR;
                self.stable = 0;
            } else {
                self.stable += 1;
                if self.stable >= 3 {
                    self.factor *= STABLE_FACTOR;
                }
            }
            if value < last_value - SCORE_DROP && !crate::score::value::is_mate(last_value) {
                self.factor *= SCORE_DROP_FACTOR;
            }
        }
        if forced {
            self.factor = MIN_FACTOR;
        }
        self.factor = self.factor.clamp(MIN_FACTOR, MAX_FACTOR);
        self.last = Some((best, value));
    }

    /// Whether to start no new iteration after `elapsed` since the start.
    pub fn stop(&self, elapsed: std::time::Duration) -> bool {
        let Some(soft) = self.budget.soft else {
            return false;
        };
        if !self.clock {
            // A fixed time per ply: only the hard limit ends the search.
            return false;
        }
        let soft = soft.mul_f64(self.factor);
        let soft = self.budget.hard.map_or(soft, |h| soft.min(h));
        // An iteration takes about as long as all before it: start one only in the first
        // half of the limit.
        elapsed >= soft * 11 / 20
    }
}

/// The budget for a search of `pos` under `limits`.
pub(crate) fn budget(limits: &Limits, pos: &Position) -> Budget {
    if limits.infinite {
        return Budget::default();
    }
    let mut soft = None;
    let mut hard = None;
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(MOVETIME_MARGIN);
        hard = Some(t);
        soft = Some(t.saturating_mul(2));
    }
    if let Some(clock) = limits.clock {
        let left = *clock.time.get(pos.turn());
        let inc = *clock.inc.get(pos.turn());
        let usable = left.saturating_sub(OVERHEAD.min(left / 2));
        let share = usable / PLIES_TO_GO + inc * 3 / 4;
        let clock_soft = share.min(usable / 2);
        let clock_hard = (clock_soft * 4).min(usable / 3 + inc / 2).min(usable);
        soft = Some(soft.map_or(clock_soft, |s: Duration| s.min(clock_soft)));
        hard = Some(hard.map_or(clock_hard, |h: Duration| h.min(clock_hard)));
    }
    Budget { soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;
    use morris_core::{ByColor, Variant};

    #[test]
    fn a_clock_is_never_overspent() {
        let pos = Position::start(Variant::Nine);
        for ms in [1u64, 10, 50, 200, 1_000, 60_000] {
            let limits = Limits {
                clock: Some(Clock {
                    time: ByColor::splat(Duration::from_millis(ms)),
                    inc: ByColor::splat(Duration::from_millis(ms / 10)),
                }),
                ..Limits::default()
            };
            let b = budget(&limits, &pos);
            let hard = b.hard.unwrap();
            assert!(hard < Duration::from_millis(ms), "{ms}: {hard:?}");
            assert!(b.soft.unwrap() <= hard.max(b.soft.unwrap()));
        }
    }

    fn clock_limits(ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: ByColor::splat(Duration::from_millis(ms)),
                inc: ByColor::splat(Duration::ZERO),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_fixed_time_per_ply_is_used_to_the_end() {
        let pos = Position::start(Variant::Nine);
        let limits = Limits::movetime(Duration::from_millis(1_000));
        let mut pacing = Pacing::new(budget(&limits, &pos), &limits, &pos);
        for i in 0..10 {
            pacing.iteration(0, 50 - i, false);
        }
        assert!(!pacing.stop(Duration::from_millis(990)));
    }

    #[test]
    fn critical_plies_get_more_time_and_settled_ones_less() {
        let start = Position::start(Variant::Nine);
        let limits = clock_limits(60_000);
        let b = budget(&limits, &start);
        let soft = b.soft.unwrap();
        // Where a level search would stop.
        let at = soft * 11 / 20;
        let base = Pacing::new(b, &limits, &start);
        assert!(base.stop(at) && !base.stop(at - Duration::from_millis(5)));

        // The best ply changes, and the score falls: it goes on.
        let mut unsettled = base.clone();
        unsettled.iteration(0, 40, false);
        unsettled.iteration(3, -20, false);
        assert!(!unsettled.stop(at));
        assert!(unsettled.stop(b.hard.unwrap()));

        // The same ply iteration after iteration: it stops sooner.
        let mut settled = base.clone();
        for _ in 0..8 {
            settled.iteration(2, 40, false);
        }
        assert!(settled.stop(at * 3 / 4));

        // A forced ply: sooner still.
        let mut forced = base.clone();
        forced.iteration(0, 40, true);
        assert!(forced.stop(at / 2));

        // The last placements.
        let nine = Variant::Nine.rules();
        let late = Position::from_fen(nine, "WWB/.B./B.B/WB..../.../..B/W.. b 0 1 0 20").unwrap();
        let late = Pacing::new(budget(&limits, &late), &limits, &late);
        assert!(!late.stop(at));
    }

    #[test]
    fn movetime_keeps_a_margin() {
        let pos = Position::start(Variant::Nine);
        let b = budget(&Limits::movetime(Duration::from_millis(200)), &pos);
        assert_eq!(b.hard, Some(Duration::from_millis(197)));
    }
}
