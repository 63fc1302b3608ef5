//! The match openings: every early position of a variant, one of each class of symmetric
//! positions, in a seeded order.

use std::collections::HashSet;

use morris_core::{Game, Ply, Position, Variant};

use crate::level::Rng;

/// The openings of `variant` reached in exactly `plies` plies from the start, one per class of
/// symmetric positions, as their plies, shuffled by `seed`. Lines that end the game early are
/// left out.
pub fn openings(variant: Variant, plies: usize, seed: u64) -> Vec<Vec<Ply>> {
    let mut layer: Vec<(Position, Vec<Ply>)> = vec![(Position::start(variant), Vec::new())];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (pos, line) in &layer {
            for ply in pos.legal_plies() {
                let mut child = *pos;
                child.play_unchecked(ply);
                if child.is_over() {
                    continue;
                }
                let (canonical, _) = child.canonical();
                if seen.insert(canonical.to_string()) {
                    let mut line = line.clone();
                    line.push(ply);
                    next.push((child, line));
                }
            }
        }
        layer = next;
    }
    let mut lines: Vec<Vec<Ply>> = layer.into_iter().map(|(_, line)| line).collect();
    let mut rng = Rng::new(seed);
    for i in (1..lines.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        lines.swap(i, j);
    }
    lines
}

/// The game an opening leads to.
pub fn opening_game(variant: Variant, line: &[Ply]) -> Game {
    let mut game = Game::new(Position::start(variant));
    for &ply in line {
        if game.play(ply).is_err() {
            break;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_distinct_up_to_symmetry() {
        // After one placement on the standard board: a corner, a middle of a side, on the
        // outer or inner square (one class) or on the middle square.
        assert_eq!(openings(Variant::Nine, 1, 0).len(), 4);
        let two = openings(Variant::Nine, 2, 5);
        assert!(two.len() > 20, "{}", two.len());
        assert_ne!(two, openings(Variant::Nine, 2, 6));
        for line in &two {
            assert_eq!(opening_game(Variant::Nine, line).plies().len(), 2);
        }
    }
}
