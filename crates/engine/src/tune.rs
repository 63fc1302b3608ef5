//! Fitting the evaluation's weights to exact values (logistic or "Texel" tuning).
//!
//! Positions come from games of the engine against itself with random early plies. Each one
//! that the tables decide is labelled with its exact result for the side to move (win 1, draw
//! ½, loss 0): positions of the moving phase straight from their sector, positions of the last
//! placements, and of any placement once the whole game is built, from their own sector, else by
//! trying every line to the end of the placing phase ([`exact_wdl`]). The fit finds the weights whose score `S`, read as an
//! expected result `1 / (1 + exp(-S / scale))`, is closest to the labels (least squares), with
//! a pull toward the weights it starts from so that terms the data hardly sees stay put. The
//! games can take removals while placing more often than good play would
//! ([`SampleOptions::placing_removals`]), so that many of them reach the moving phase with few
//! enough pieces for the tables of the moving phase alone to judge their last placements.

use std::collections::HashSet;

use morris_core::{Ply, Position, Variant};

use crate::eval::{TERMS, Weights, phase, terms, weigh};
use crate::level::Rng;
use crate::selfplay::{SelfPlay, spread};
use crate::{Probe, Wdl, terminal_value};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Its phase (an index of [`crate::eval::PHASES`]).
    pub phase: usize,
    /// Its evaluation terms.
    pub terms: [i32; TERMS],
    /// Its exact result for the side to move: 1 won, ½ drawn, 0 lost.
    pub result: f64,
}

/// The exact win, draw or loss of a position for the side to move: from the tables, or while
/// pieces are in hand by trying every ply up to `plies` deep, as long as at most `budget`
/// positions are probed. `None` when the tables cannot decide it within that.
pub fn exact_wdl(pos: &Position, tables: &dyn Probe, plies: u32, budget: &mut u32) -> Option<Wdl> {
    if let Some(v) = terminal_value(pos) {
        return Some(v.wdl());
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Some(v) = tables.probe(pos) {
        return Some(v.wdl());
    }
    let placing = pos.in_hand(pos.turn()) > 0 || pos.in_hand(!pos.turn()) > 0;
    if !placing || plies == 0 {
        return None;
    }
    // A ply that wins decides, even when other plies cannot be judged.
    let mut best = Wdl::Loss;
    let mut unknown = false;
    for ply in pos.legal_plies() {
        let child = pos.after_unchecked(ply);
        match exact_wdl(&child, tables, plies - 1, budget) {
            Some(v) if -v == Wdl::Win => return Some(Wdl::Win),
            Some(v) => best = best.max(-v),
            None => unknown = true,
        }
    }
    (!unknown).then_some(best)
}

/// How to draw the positions.
#[derive(Clone, Debug)]
pub struct SampleOptions {
    /// The variant of the games.
    pub variant: Variant,
    /// How many positions to label.
    pub count: usize,
    /// The most games to play for them.
    pub max_games: usize,
    /// The seed of the games (the same seed, the same positions).
    pub seed: u64,
    /// At most this many positions of the moving phase from one game (spread over it); every
    /// labelled placing position is kept.
    pub moving_per_game: usize,
    /// Positions with at most this many pieces in hand, both sides together, are labelled by
    /// trying their lines to the end of the placing phase.
    pub placing_plies: u32,
    /// The chance that a side takes a removal whenever it can while placing, so that games
    /// reach the placing phase's end with few enough pieces for the tables.
    pub placing_removals: f64,
}

impl SampleOptions {
    /// Options for `count` positions of `variant`.
    pub fn new(variant: Variant, count: usize, seed: u64) -> SampleOptions {
        SampleOptions {
            variant,
            count,
            max_games: count.saturating_mul(2).max(50),
            seed,
            moving_per_game: 4,
            placing_plies: 3,
            placing_removals: 1.0,
        }
    }
}

/// Draws and labels positions; `progress` is called after each game with the games played and
/// the positions labelled so far.
pub fn sample(
    options: &SampleOptions,
    tables: &dyn Probe,
    mut progress: impl FnMut(usize, usize),
) -> Vec<Sample> {
    const LEVELS: [u8; 5] = [1, 3, 5, 7, 9];
    let mut rng = Rng::new(options.seed ^ 0x7475_6e65);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for g in 0..options.max_games {
        if out.len() >= options.count {
            break;
        }
        let game = SelfPlay {
            variant: options.variant,
            level: LEVELS[g % LEVELS.len()],
            seed: rng.next_u64(),
            random_plies: 2 + (rng.next_u64() % 10) as usize,
            nodes: 1_500,
        };
        // The share of random placements in this game: more of them leave more mills open.
        let wild = 0.3 + (g % 3) as f64 * 0.3;
        let mut placing = Vec::new();
        let mut moving = Vec::new();
        let pick = |pos: &Position, legal: &[Ply], rng: &mut Rng| {
            if pos.in_hand(pos.turn()) + pos.in_hand(!pos.turn()) == 0 {
                return None;
            }
            let removals: Vec<_> = legal.iter().copied().filter(|p| p.is_removal()).collect();
            if !removals.is_empty() && rng.next_f64() < options.placing_removals {
                // More removals while placing reach the smaller sectors of the moving phase,
                // where the tables decide the last placements.
                return Some(removals[(rng.next_u64() % removals.len() as u64) as usize]);
            }
            if rng.next_f64() < wild {
                // A placement that threatens a mill, where there is one.
                let mover = pos.turn();
                let threats: Vec<_> = legal
                    .iter()
                    .copied()
                    .filter(|&p| pos.after_unchecked(p).mill_points(mover).any())
                    .collect();
                let from = if threats.is_empty() {
                    legal
                } else {
                    &threats[..]
                };
                return Some(from[(rng.next_u64() % from.len() as u64) as usize]);
            }
            None
        };
        game.play(&mut rng, pick, |_, pos| {
            if !seen.insert(pos.hash()) {
                return;
            }
            let hands = u32::from(pos.in_hand(pos.turn())) + u32::from(pos.in_hand(!pos.turn()));
            // Where the placing phase's own tables are built (the whole game), any position is
            // read from them; the lines to the end of the placing phase are tried only near it.
            let plies = if hands > 0 && hands <= options.placing_plies {
                options.placing_plies
            } else {
                0
            };
            let mut budget = 20_000;
            if let Some(wdl) = exact_wdl(pos, tables, plies, &mut budget) {
                let s = Sample {
                    phase: phase(pos),
                    terms: terms(pos),
                    result: match wdl {
                        Wdl::Win => 1.0,
                        Wdl::Draw => 0.5,
                        Wdl::Loss => 0.0,
                    },
                };
                if hands > 0 {
                    placing.push(s)
                } else {
                    moving.push(s)
                }
            }
        });
        out.append(&mut placing);
        out.extend(spread(&moving, options.moving_per_game).cloned());
        out.truncate(options.count);
        progress(g + 1, out.len());
    }
    out
}

/// How the fit went.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The weights found.
    pub weights: Weights,
    /// The mean squared error of the starting weights, per phase (`None` without samples).
    pub before: [Option<f64>; 3],
    /// The mean squared error of the weights found, per phase.
    pub after: [Option<f64>; 3],
    /// The samples of each phase.
    pub counts: [usize; 3],
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of `weights` on the samples of each phase.
pub fn errors(samples: &[Sample], weights: &Weights) -> [Option<f64>; 3] {
    let scale = f64::from(weights.scale);
    let mut sum = [0.0; 3];
    let mut n = [0usize; 3];
    for s in samples {
        let p = sigmoid(f64::from(weigh(&s.terms, s.phase, weights)) / scale);
        sum[s.phase] += (p - s.result).powi(2);
        n[s.phase] += 1;
    }
    std::array::from_fn(|i| (n[i] > 0).then(|| sum[i] / n[i] as f64))
}

/// Fits the weights of every phase to the samples, starting from (and pulled toward) `start`
/// with strength `prior` (the squared error a change of 100 centi-pieces in one weight costs),
/// at `start`'s scale, over `rounds` steps of gradient descent (Adam). Only the phases marked
/// in `phases` change.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    prior: f64,
    rounds: usize,
    phases: [bool; 3],
) -> Fit {
    let scale = f64::from(start.scale);
    let mut weights = start.clone();
    let mut counts = [0usize; 3];
    for s in samples {
        counts[s.phase] += 1;
    }
    for (p, &count) in counts.iter().enumerate() {
        if count == 0 || !phases[p] {
            continue;
        }
        let rows: Vec<(&[i32; TERMS], f64)> = samples
            .iter()
            .filter(|s| s.phase == p)
            .map(|s| (&s.terms, s.result))
            .collect();
        let w0: Vec<f64> = start.phases[p].iter().map(|&w| f64::from(w)).collect();
        // A term that never varies in the data keeps its weight.
        let used: Vec<bool> = (0..TERMS)
            .map(|t| rows.iter().any(|(x, _)| x[t] != rows[0].0[t]) || t == TERMS - 3)
            .collect();
        let mut w = w0.clone();
        let (mut m, mut v) = (vec![0.0; TERMS], vec![0.0; TERMS]);
        let (b1, b2, rate) = (0.9f64, 0.999f64, 2.0);
        let n = rows.len() as f64;
        for round in 1..=rounds {
            let mut grad = [0.0; TERMS];
            for (x, y) in &rows {
                let s: f64 = x.iter().zip(&w).map(|(&a, b)| f64::from(a) * b).sum();
                let q = sigmoid(s / scale);
                let d = 2.0 * (q - y) * q * (1.0 - q) / scale / n;
                for (g, &a) in grad.iter_mut().zip(x.iter()) {
                    *g += d * f64::from(a);
                }
            }
            for t in 0..TERMS {
                if !used[t] {
                    continue;
                }
                let g = grad[t] + 2.0 * prior * (w[t] - w0[t]) / 10_000.0;
                m[t] = b1 * m[t] + (1.0 - b1) * g;
                v[t] = b2 * v[t] + (1.0 - b2) * g * g;
                let mh = m[t] / (1.0 - b1.powi(round as i32));
                let vh = v[t] / (1.0 - b2.powi(round as i32));
                w[t] -= rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        for (out, x) in weights.phases[p].iter_mut().zip(&w) {
            *out = x.round().clamp(-10_000.0, 10_000.0) as i32;
        }
    }
    Fit {
        before: errors(samples, start),
        after: errors(samples, &weights),
        weights,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::SIDE_TERMS;

    #[test]
    fn the_fit_moves_weights_toward_the_labels() {
        // Material decides: one piece more wins, one less loses, equal draws.
        let mut samples = Vec::new();
        for d in -2i32..=2 {
            let mut t = [0; TERMS];
            t[0] = d;
            t[SIDE_TERMS.len()] = 1;
            let result = match d.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            for _ in 0..10 {
                samples.push(Sample {
                    phase: 1,
                    terms: t,
                    result,
                });
            }
        }
        let mut start = Weights::zero();
        start.scale = 100;
        start.phases[1][0] = 20;
        let fit = fit(&samples, &start, 0.0, 400, [true; 3]);
        assert!(
            fit.weights.phases[1][0] > 200,
            "{:?}",
            fit.weights.phases[1]
        );
        assert!(fit.after[1].unwrap() < fit.before[1].unwrap());
        assert_eq!(fit.counts, [0, 50, 0]);
        assert_eq!(fit.weights.phases[0], start.phases[0]);
    }

    #[test]
    fn placements_far_from_the_moving_phase_are_read_from_their_own_tables() {
        // Tables of the whole game (here: every position a draw) label placements with many
        // pieces in hand, where no line is tried to the end of the placing phase.
        struct AllDrawn;
        impl Probe for AllDrawn {
            fn probe(&self, _: &Position) -> Option<crate::TbValue> {
                Some(crate::TbValue::Draw)
            }
        }
        let mut options = SampleOptions::new(Variant::Nine, 60, 3);
        options.placing_plies = 0;
        options.placing_removals = 0.0;
        let samples = sample(&options, &AllDrawn, |_, _| {});
        let placing = samples.iter().filter(|s| s.phase == 0).count();
        assert!(
            placing > 30,
            "{placing} placing positions of {}",
            samples.len()
        );
        assert!(samples.iter().all(|s| s.result == 0.5));
    }

    #[test]
    fn placements_are_decided_from_the_moving_phase() {
        // Tables that know every position without pieces in hand: the side to move wins.
        struct MoverWins;
        impl Probe for MoverWins {
            fn probe(&self, pos: &Position) -> Option<crate::TbValue> {
                (pos.in_hand(pos.turn()) == 0 && pos.in_hand(!pos.turn()) == 0)
                    .then_some(crate::TbValue::Win(5))
            }
        }
        // Black places its last piece. Anywhere but d1, White moves and wins; on d1 it blocks
        // every white piece, and White, to move, has lost.
        let nine = Variant::Nine.rules();
        let pos = Position::from_fen(nine, "WWB/.B./B.B/WB..../.../..B/W.. b 0 1 0 20").unwrap();
        let mut budget = 1_000;
        assert_eq!(exact_wdl(&pos, &MoverWins, 1, &mut budget), Some(Wdl::Win));
        let blocked = pos.play_text("d1").unwrap();
        assert!(blocked.is_over());
        let elsewhere = pos.play_text("g1").unwrap();
        let mut budget = 1_000;
        assert_eq!(
            exact_wdl(&elsewhere, &MoverWins, 1, &mut budget),
            Some(Wdl::Win)
        );
        let mut none = 0;
        assert_eq!(exact_wdl(&pos, &MoverWins, 1, &mut none), None);
        let mut budget = 1_000;
        assert_eq!(exact_wdl(&pos, &MoverWins, 0, &mut budget), None);
    }
}
