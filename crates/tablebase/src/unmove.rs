//! Un-move generation for the moving phase: the positions one ply before a given one, by a
//! ply that removed nothing.
//!
//! Forward generation is the core's; this is its inverse within a group of moving sectors and
//! is checked against it in the tests.

use morris_core::{Bitboard, MillRemoval, Point, Rules};

/// Calls `f(us, them)` for every predecessor of the moving-phase position with `us` to move and
/// `them` the other side: the other side moved a piece from an empty point `x` to one of its
/// points `y`, closing no mill that removes (or, in Three Men's Morris, possibly a line). The
/// predecessor has `them - y + x` to move and `us` as the other side.
///
/// Predecessors that are themselves finished games are included; the solver skips them.
pub(crate) fn for_each_unmove(rules: &Rules, us: u32, them: u32, mut f: impl FnMut(u32, u32)) {
    let board = rules.board();
    let all = board.all().0;
    let empty = all & !(us | them);
    let flies = rules.fly_at != 0 && them.count_ones() == u32::from(rules.fly_at);
    // A mill closed by the move would have removed one of `us`, unless the rules allow
    // nothing to be removed (only when pieces in mills are never removable and all of `us`
    // stand in mills).
    let mill_may_remove_nothing = !rules.line_wins
        && rules.mill_removal == MillRemoval::Never
        && (Bitboard(us) - board.in_mills(Bitboard(us))).is_empty();
    let mut ys = them;
    while ys != 0 {
        let y = ys.trailing_zeros();
        ys &= ys - 1;
        let point = Point::new(y as u8).unwrap_or(Point::ALL[0]);
        if !rules.line_wins
            && !mill_may_remove_nothing
            && board.mills_closed_at(point, Bitboard(them)) > 0
        {
            continue;
        }
        let mut xs = if flies {
            empty
        } else {
            board.adjacent(point).0 & empty
        };
        let rest = them & !(1 << y);
        while xs != 0 {
            let x = xs.trailing_zeros();
            xs &= xs - 1;
            f(rest | (1 << x), us);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::{make_position, split, terminal_value};
    use crate::index::sets;
    use crate::sector::Sector;
    use morris_core::Variant;
    use std::collections::BTreeSet;

    /// For every position R of sectors (b, w) and every ply without removal from it, the child
    /// P lists R among its un-moves, and every un-move of P is such an R.
    fn check(variant: Variant, w: u8, b: u8, limit: usize) {
        let rules = variant.rules();
        let n = rules.board().len();
        let sector = Sector::moving(w, b);
        let pred_sector = Sector::moving(b, w);
        let mut forward: BTreeSet<(u32, u32, u32, u32)> = BTreeSet::new();
        let mut children: BTreeSet<(u32, u32)> = BTreeSet::new();
        for (i, ru) in sets(b as usize, n).enumerate().take(limit) {
            let _ = i;
            for rt in sets(w as usize, n).filter(|t| t & ru == 0).take(limit) {
                let Some(r) = make_position(&rules, pred_sector, ru, rt) else {
                    continue;
                };
                if terminal_value(&r).is_some() {
                    continue;
                }
                for ply in r.legal_plies() {
                    if ply.is_removal() {
                        continue;
                    }
                    let mut c = r;
                    c.play_unchecked(ply);
                    let (s, pu, pt) = split(&c);
                    assert_eq!(s, sector);
                    forward.insert((pu, pt, ru, rt));
                    children.insert((pu, pt));
                }
            }
        }
        for &(pu, pt) in &children {
            let mut back = BTreeSet::new();
            for_each_unmove(&rules, pu, pt, |ru, rt| {
                back.insert((ru, rt));
            });
            let fwd: BTreeSet<(u32, u32)> = forward
                .range((pu, pt, 0, 0)..=(pu, pt, u32::MAX, u32::MAX))
                .map(|&(_, _, ru, rt)| (ru, rt))
                .collect();
            // Every forward predecessor found must be an un-move; un-moves outside the
            // enumerated range are allowed, but each must play forward to P.
            assert!(fwd.is_subset(&back), "{variant} {pu:b} {pt:b}");
            for (ru, rt) in back {
                // An un-move may name no position that can occur (Three Men's Morris: the side
                // to move with a line); the solver skips those like finished games.
                let Some(r) = make_position(&rules, pred_sector, ru, rt) else {
                    continue;
                };
                if terminal_value(&r).is_some() {
                    continue;
                }
                let reaches = r.legal_plies().into_iter().any(|ply| {
                    let mut c = r;
                    c.play_unchecked(ply);
                    !ply.is_removal() && split(&c) == (sector, pu, pt)
                });
                assert!(
                    reaches,
                    "{variant}: un-move {ru:b} {rt:b} does not reach {pu:b} {pt:b}"
                );
            }
        }
    }

    #[test]
    fn unmoves_invert_forward_generation() {
        check(Variant::Three, 3, 3, usize::MAX);
        check(Variant::Six, 4, 3, 60);
        check(Variant::Nine, 3, 3, 40);
        check(Variant::Nine, 4, 5, 25);
    }
}
