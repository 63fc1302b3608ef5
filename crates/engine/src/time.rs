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

/// How long a search may take, from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Start no new iteration once about half of this has passed.
    pub soft: Option<Duration>,
    /// Stop at once when this has passed.
    pub hard: Option<Duration>,
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

    #[test]
    fn movetime_keeps_a_margin() {
        let pos = Position::start(Variant::Nine);
        let b = budget(&Limits::movetime(Duration::from_millis(200)), &pos);
        assert_eq!(b.hard, Some(Duration::from_millis(197)));
    }
}
