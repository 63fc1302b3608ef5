//! Playing levels: how deep each level looks and how freely it chooses among good plies.
//!
//! A weaker level never plays a ply that its own search finds clearly bad: it limits its depth
//! and picks among the plies whose score lies within a margin of the best, with a probability
//! that falls with the score. Every level, the strongest too, varies its first plies.

use morris_core::Position;

use crate::score::value::is_mate;

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The deepest iteration, or `None` for no limit.
    pub depth: Option<u32>,
    /// The most nodes per search, or `None` for no limit: it keeps a level as strong on a
    /// fast machine as on a slow one.
    pub nodes: Option<u64>,
    /// Plies within this many centi-pieces of the best may be chosen.
    pub margin: i32,
    /// The spread of the score-weighted choice, in centi-pieces.
    pub temperature: i32,
    /// Whether the quiescence search runs.
    pub quiescence: bool,
    /// Whether every root ply is scored and one chosen at random among the good ones.
    pub choose: bool,
}

/// The plies at the start of a game in which even the strongest level varies its choice.
const OPENING_MOVES: u32 = 2;

/// The profile of a level (1 to 10) in a position.
pub(crate) fn profile(level: u8, pos: &Position) -> Profile {
    let (depth, nodes, margin, temperature) = match level {
        0 | 1 => (1, None, 160, 90),
        2 => (2, None, 130, 70),
        3 => (2, None, 70, 35),
        4 => (3, None, 60, 30),
        5 => (4, None, 45, 22),
        6 => (5, Some(10_000), 32, 16),
        7 => (6, Some(30_000), 22, 11),
        8 => (8, Some(100_000), 14, 7),
        9 => (12, Some(300_000), 8, 4),
        _ => {
            let opening = pos.move_number() <= OPENING_MOVES
                && pos.in_hand(pos.turn()) > 0
                && pos.pieces_by_color().white.count() + pos.pieces_by_color().black.count()
                    < 2 * OPENING_MOVES as usize;
            return Profile {
                depth: None,
                nodes: None,
                margin: 6,
                temperature: 3,
                quiescence: true,
                choose: opening,
            };
        }
    };
    Profile {
        depth: Some(depth),
        nodes,
        margin,
        temperature,
        quiescence: level > 1,
        choose: true,
    }
}

/// A small, fast generator (SplitMix64) for the levels' choices.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Picks the index of a root ply from values sorted best first: one within the margin of the
/// best, weighted by `exp((value - best) / temperature)`.
pub(crate) fn choose(values: &[i32], profile: &Profile, rng: &mut Rng) -> usize {
    let Some(&best) = values.first() else {
        return 0;
    };
    if is_mate(best) {
        // A forced result is never given away by chance.
        return 0;
    }
    let t = f64::from(profile.temperature.max(1));
    let weights: Vec<f64> = values
        .iter()
        .take_while(|&&v| v >= best - profile.margin && !is_mate(v))
        .map(|&v| (f64::from(v - best) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.next_f64() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    0
}

/// The estimated rating of each level, 1 to 10: the differences come from the ladder of
/// matches in which each level played the one below (docs/engine.md: 20 games a step at
/// 100 ms a ply up to level 8, 16 at 500 ms above), the Elo difference of each step's score,
/// rounded to 50, from level 1 put at 700, a beginner who knows the rules.
const RATINGS: [u16; 10] = [700, 1100, 1250, 1650, 2050, 2150, 2300, 2550, 2650, 2900];

/// The estimated rating of a level (brought into 1 to 10), for people choosing one: "about
/// 1650".
///
/// ```
/// assert!(morris_engine::estimated_rating(1) < morris_engine::estimated_rating(10));
/// ```
pub fn estimated_rating(level: u8) -> u16 {
    RATINGS[usize::from(level.clamp(1, 10)) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_core::Variant;

    #[test]
    fn each_level_is_rated_above_the_one_below() {
        for level in 2..=10 {
            assert!(
                estimated_rating(level) > estimated_rating(level - 1),
                "{level}"
            );
        }
        assert_eq!(estimated_rating(0), estimated_rating(1));
    }

    #[test]
    fn chooses_only_within_the_margin() {
        let p = profile(3, &Position::start(Variant::Nine));
        let mut rng = Rng::new(7);
        let values = [50, 40, 45 - p.margin, -200, -900];
        let mut seen = [0; 5];
        for _ in 0..2_000 {
            seen[choose(&values, &p, &mut rng)] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        assert_eq!(seen[3] + seen[4], 0);
    }

    #[test]
    fn never_gives_away_a_forced_win() {
        let p = profile(1, &Position::start(Variant::Nine));
        let mut rng = Rng::new(1);
        let win = crate::score::value::mate_in(3);
        for _ in 0..100 {
            assert_eq!(choose(&[win, 100, 90], &p, &mut rng), 0);
        }
    }

    #[test]
    fn the_strongest_level_varies_only_its_opening() {
        let start = Position::start(Variant::Nine);
        assert!(profile(10, &start).choose);
        assert_eq!(profile(10, &start).depth, None);
        let later = ["d6", "f4", "d2", "b4"]
            .into_iter()
            .try_fold(start, |p, ply| p.play_text(ply))
            .unwrap();
        assert!(!profile(10, &later).choose);
    }
}
