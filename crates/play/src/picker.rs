//! Building a ply point by point, as a player does with the keys or the mouse: choose a piece,
//! drop it, then choose what to remove.
//!
//! The picker knows no rule of its own: every step filters the position's legal plies, which the
//! core computes.

use morris_core::{Bitboard, Ply, Point};

/// How far a ply has been built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step {
    /// Nothing chosen yet: the next point is a placement or the piece to move.
    #[default]
    Start,
    /// A piece on the board is chosen: the next point is where it goes.
    From(Point),
    /// The placement or move is chosen and closes a mill: the next points are the removals.
    Remove {
        /// The ply without its removals.
        base: Ply,
        /// The removals chosen so far.
        chosen: Bitboard,
    },
}

/// What choosing a point did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The ply is not complete yet; the step has moved on.
    Progress,
    /// The ply is complete and legal.
    Done(Ply),
    /// The point does nothing at this step.
    Ignored,
}

fn same_base(a: Ply, b: Ply) -> bool {
    a.from() == b.from() && a.to() == b.to() && a.is_placement() == b.is_placement()
}

impl Step {
    /// The points that the next choice can be: empty points to place on and pieces that can
    /// move, then where the chosen piece can go, then what can be removed.
    pub fn targets(&self, legal: &[Ply]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        match *self {
            Step::Start => {
                for ply in legal {
                    out.insert(ply.from().unwrap_or(ply.to()));
                }
            }
            Step::From(from) => {
                for ply in legal.iter().filter(|p| p.from() == Some(from)) {
                    out.insert(ply.to());
                }
            }
            Step::Remove { base, chosen } => {
                for ply in legal.iter().filter(|p| same_base(**p, base)) {
                    if ply.removals().is_superset(chosen) {
                        out |= ply.removals() - chosen;
                    }
                }
            }
        }
        out
    }

    /// The piece being moved, if one is chosen.
    pub fn from(&self) -> Option<Point> {
        match *self {
            Step::Start => None,
            Step::From(from) => Some(from),
            Step::Remove { base, .. } => base.from(),
        }
    }

    /// Chooses a point. `legal` must be the legal plies of the position the step belongs to.
    pub fn pick(&mut self, legal: &[Ply], point: Point) -> Pick {
        match *self {
            Step::Start => self.start_at(legal, point),
            Step::From(from) => {
                if point == from {
                    *self = Step::Start;
                    return Pick::Progress;
                }
                let base = Ply::Move {
                    from,
                    to: point,
                    remove: Bitboard::EMPTY,
                };
                if legal.iter().any(|p| same_base(*p, base)) {
                    return self.begin(legal, base);
                }
                if legal.iter().any(|p| p.from() == Some(point)) {
                    *self = Step::From(point);
                    return Pick::Progress;
                }
                Pick::Ignored
            }
            Step::Remove { base, mut chosen } => {
                if !self.targets(legal).contains(point) {
                    return Pick::Ignored;
                }
                chosen.insert(point);
                let fits = |p: &&Ply| same_base(**p, base) && p.removals().is_superset(chosen);
                let exact = legal.iter().filter(fits).find(|p| p.removals() == chosen);
                let more = legal.iter().filter(fits).any(|p| p.removals() != chosen);
                match exact {
                    Some(&ply) if !more => {
                        *self = Step::Start;
                        Pick::Done(ply)
                    }
                    _ => {
                        *self = Step::Remove { base, chosen };
                        Pick::Progress
                    }
                }
            }
        }
    }

    fn start_at(&mut self, legal: &[Ply], point: Point) -> Pick {
        let place = Ply::Place {
            to: point,
            remove: Bitboard::EMPTY,
        };
        if legal.iter().any(|p| same_base(*p, place)) {
            return self.begin(legal, place);
        }
        if legal.iter().any(|p| p.from() == Some(point)) {
            *self = Step::From(point);
            return Pick::Progress;
        }
        Pick::Ignored
    }

    /// Goes on from a placement or move without removals: done if it removes nothing, else on
    /// to the removals. `base` must be the base of a legal ply.
    pub fn begin(&mut self, legal: &[Ply], base: Ply) -> Pick {
        let plain = legal
            .iter()
            .find(|p| same_base(**p, base) && !p.is_removal());
        match plain {
            Some(&ply) => {
                *self = Step::Start;
                Pick::Done(ply)
            }
            None if legal.iter().any(|p| same_base(*p, base)) => {
                *self = Step::Remove {
                    base: base.with_removals(Bitboard::EMPTY),
                    chosen: Bitboard::EMPTY,
                };
                Pick::Progress
            }
            None => Pick::Ignored,
        }
    }

    /// Goes one step back: from the removals to the piece chosen (or the start), from the
    /// piece to the start.
    pub fn back(&mut self) {
        *self = match *self {
            Step::Remove { base, chosen } if chosen.any() => Step::Remove {
                base,
                chosen: Bitboard::EMPTY,
            },
            Step::Remove {
                base: Ply::Move { from, .. },
                ..
            } => Step::From(from),
            _ => Step::Start,
        };
    }
}

#[cfg(test)]
mod tests {
    use morris_core::{Game, Position, Variant};

    use super::*;

    fn game(variant: Variant, plies: &str) -> Game {
        let mut game = Game::new(Position::start(variant));
        for ply in plies.split_whitespace() {
            game.play_text(ply).unwrap();
        }
        game
    }

    fn pt(game: &Game, name: &str) -> Point {
        game.position().board().point(name).unwrap()
    }

    fn text(game: &Game, ply: Ply) -> String {
        ply.display(game.position().board()).to_string()
    }

    #[test]
    fn places_with_one_pick_and_removes_with_a_second() {
        let g = game(Variant::Nine, "a1 g7 a4 g1");
        let legal = g.legal_plies();
        let mut step = Step::Start;
        assert_eq!(step.targets(&legal).count(), 20);
        assert_eq!(step.pick(&legal, pt(&g, "a7")), Pick::Progress);
        let targets: Vec<_> = step.targets(&legal).into_iter().collect();
        assert_eq!(targets, [pt(&g, "g7"), pt(&g, "g1")]);
        assert_eq!(step.pick(&legal, pt(&g, "a1")), Pick::Ignored);
        match step.pick(&legal, pt(&g, "g1")) {
            Pick::Done(ply) => assert_eq!(text(&g, ply), "a7xg1"),
            other => panic!("{other:?}"),
        }
        assert_eq!(step, Step::Start);
    }

    #[test]
    fn moves_by_choosing_a_piece_then_a_point_and_can_change_its_mind() {
        let g = game(Variant::Six, "a1 e5 c1 a5 b2 b4 d2 d4 e3 a3 c4 d3");
        let legal = g.legal_plies();
        let mut step = Step::Start;
        let names = |set: Bitboard| -> Vec<String> {
            set.into_iter()
                .map(|p| g.position().board().square(p).to_string())
                .collect()
        };
        assert_eq!(names(step.targets(&legal)), ["c4", "e3", "b2", "d2", "c1"]);
        assert_eq!(step.pick(&legal, pt(&g, "e5")), Pick::Ignored, "not ours");
        assert_eq!(step.pick(&legal, pt(&g, "e3")), Pick::Progress);
        assert_eq!(step, Step::From(pt(&g, "e3")));
        assert_eq!(names(step.targets(&legal)), ["e1"]);
        assert_eq!(
            step.pick(&legal, pt(&g, "a1")),
            Pick::Ignored,
            "a1 cannot move"
        );
        assert_eq!(
            step.pick(&legal, pt(&g, "b2")),
            Pick::Progress,
            "another piece"
        );
        match step.pick(&legal, pt(&g, "c2")) {
            Pick::Done(ply) => assert_eq!(text(&g, ply), "b2-c2"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn goes_back_a_step() {
        let g = game(Variant::Nine, "a1 g7 a4 g1");
        let legal = g.legal_plies();
        let mut step = Step::Start;
        step.pick(&legal, pt(&g, "a7"));
        assert!(matches!(step, Step::Remove { .. }));
        step.back();
        assert_eq!(step, Step::Start);
    }
}
