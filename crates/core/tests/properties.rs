//! Invariants of the rules core, as property tests over random positions of every variant and
//! of non-default rule options: generation against the legality check, play and take back,
//! incremental hashing, symmetry, and round-trips of position strings, plies and game records.

mod common;

use std::collections::HashSet;

use common::naive::Rng;
use common::{random_position, random_setup, rule_sets};
use morris_core::{
    Bitboard, Color, Game, GameRecord, Ply, PlyText, Point, Position, Rules, Square, Symmetry,
    Variant, export, import, malom, sanmill,
};
use proptest::prelude::*;

/// A position of one of the rule sets: reached by random play, or a random valid setup.
fn arb_position() -> impl Strategy<Value = Position> {
    let sets = rule_sets();
    let n = sets.len();
    (0..n, any::<u64>(), 0usize..140, any::<bool>()).prop_map(move |(i, seed, plies, setup)| {
        let rules = sets[i].1;
        if setup {
            let mut rng = Rng(seed);
            for _ in 0..50 {
                let naive = random_setup(&rules, &mut rng);
                if let Ok(pos) = Position::from_fen(rules, &naive.fen()) {
                    return pos;
                }
            }
        }
        random_position(rules, seed, plies)
    })
}

/// A variant with its default rules and a seed for a random game.
fn arb_game() -> impl Strategy<Value = (Rules, u64, usize, u8)> {
    (0..Variant::ALL.len(), any::<u64>(), 0usize..120, 0u8..4)
        .prop_map(|(v, seed, plies, end)| (Variant::ALL[v].rules(), seed, plies, end))
}

fn map_ply(sym: &Symmetry, ply: Ply) -> Ply {
    let remove = sym.apply_set(ply.removals());
    match ply {
        Ply::Place { to, .. } => Ply::Place {
            to: sym.apply(to),
            remove,
        },
        Ply::Move { from, to, .. } => Ply::Move {
            from: sym.apply(from),
            to: sym.apply(to),
            remove,
        },
    }
}

/// Every set of up to `k` points of `of`.
fn subsets(of: Bitboard, k: usize) -> Vec<Bitboard> {
    let points: Vec<Point> = of.into_iter().collect();
    let mut out = vec![Bitboard::EMPTY];
    for p in points {
        let more: Vec<Bitboard> = out
            .iter()
            .filter(|s| s.count() < k)
            .map(|s| *s | Bitboard::from_point(p))
            .collect();
        out.extend(more);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_generated_ply_is_legal_and_no_other_ply_is(pos in arb_position()) {
        let legal: HashSet<Ply> = pos.legal_plies().into_iter().collect();
        prop_assert_eq!(legal.len(), pos.legal_plies().len(), "a ply is listed twice");
        let board = pos.board();
        for &ply in &legal {
            prop_assert!(pos.is_legal(ply));
            let text = ply.display(board).to_string();
            prop_assert_eq!(pos.parse_ply(&text).ok(), Some(ply), "{} does not read back", text);
            prop_assert!(pos.play(ply).is_ok());
        }
        let bare: HashSet<Ply> = legal.iter().map(|p| p.with_removals(Bitboard::EMPTY)).collect();
        let victim = pos.pieces(!pos.turn());
        let most = if pos.rules().double_mill == morris_core::DoubleMill::PerMill { 3 } else { 2 };
        let wide = subsets(victim, most);
        let singles: Vec<Bitboard> = std::iter::once(Bitboard::EMPTY)
            .chain(Point::ALL.iter().map(|&p| Bitboard::from_point(p)))
            .collect();
        let froms = std::iter::once(None).chain(Point::ALL.iter().map(|&p| Some(p)));
        for from in froms {
            for to in Point::ALL {
                let step = match from {
                    None => Ply::Place { to, remove: Bitboard::EMPTY },
                    Some(from) => Ply::Move { from, to, remove: Bitboard::EMPTY },
                };
                let sets = if bare.contains(&step) { &wide } else { &singles };
                for &remove in sets.iter().chain(&singles) {
                    let ply = step.with_removals(remove);
                    prop_assert_eq!(
                        pos.is_legal(ply),
                        legal.contains(&ply),
                        "{:?} in {}", ply, pos
                    );
                }
            }
        }
    }

    #[test]
    fn playing_and_taking_back_restores_the_position_and_hash(
        pos in arb_position(), seed in any::<u64>(), plies in 1usize..30,
    ) {
        let mut game = Game::new(pos);
        let mut rng = Rng(seed);
        for _ in 0..plies {
            let list = game.legal_plies();
            if list.is_empty() {
                break;
            }
            let before = *game.position();
            let ply = list[rng.below(list.len())];
            game.play(ply).unwrap();
            let mut copy = before;
            copy.play_unchecked(ply);
            prop_assert_eq!(&copy, game.position());
        }
        while game.undo().is_some() {}
        prop_assert_eq!(game.position(), &pos);
        prop_assert_eq!(game.position().hash(), pos.hash());
        prop_assert!(game.plies().is_empty());
    }

    #[test]
    fn the_incremental_hash_equals_a_full_recomputation(
        pos in arb_position(), seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let mut pos = pos;
        for _ in 0..40 {
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            let read = Position::from_fen(*pos.rules(), &pos.fen()).unwrap();
            prop_assert_eq!(read.hash(), pos.hash());
            let list = pos.legal_plies();
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[rng.below(list.len())]);
        }
    }

    #[test]
    fn all_symmetric_images_of_a_position_have_the_same_legal_plies(pos in arb_position()) {
        let board = pos.board();
        let expected = if board.len() == 9 { 8 } else { 16 };
        prop_assert_eq!(board.symmetries().len(), expected);
        let plies: HashSet<Ply> = pos.legal_plies().into_iter().collect();
        let canonical = pos.canonical().0;
        for sym in board.symmetries() {
            let image = pos.transform(sym);
            prop_assert_eq!(image.legal_plies().len(), plies.len());
            prop_assert_eq!(image.count_legal(), plies.len());
            let mapped: HashSet<Ply> = plies.iter().map(|&p| map_ply(sym, p)).collect();
            let theirs: HashSet<Ply> = image.legal_plies().into_iter().collect();
            prop_assert_eq!(mapped, theirs);
            prop_assert_eq!(image.outcome(), pos.outcome());
            prop_assert_eq!(image.hash(), image.compute_hash());
            prop_assert_eq!(image.canonical().0, canonical);
        }
        let (canon, index) = pos.canonical();
        prop_assert_eq!(pos.transform(&board.symmetries()[index]), canon);
    }

    #[test]
    fn every_position_string_round_trips(pos in arb_position()) {
        let text = pos.fen();
        let read = Position::from_fen(*pos.rules(), &text).unwrap();
        prop_assert_eq!(read, pos);
        prop_assert_eq!(read.fen(), text);
        prop_assert_eq!(pos.to_setup().into_position().unwrap(), pos);
    }

    #[test]
    fn every_position_written_as_a_sanmill_string_reads_back(pos in arb_position()) {
        match morris_core::sanmill::write(&pos) {
            Ok(text) => {
                let read = Position::from_fen(*pos.rules(), &text);
                prop_assert_eq!(read, Ok(pos), "{}", text);
            }
            Err(e) => prop_assert_ne!(pos.board().len(), 24, "{}", e),
        }
    }

    #[test]
    fn a_removal_owed_as_sanmill_writes_it_completes_as_the_ply_it_belongs_to(pos in arb_position()) {
        let board = pos.board();
        for ply in pos.legal_plies().into_iter().filter(|p| p.is_removal()) {
            // The moment between: the piece placed or moved, nothing removed yet.
            let us = pos.turn();
            let mut setup = pos.to_setup();
            let own = setup.pieces.get_mut(us);
            if let Some(from) = ply.from() {
                own.remove(from);
            } else {
                *setup.in_hand.get_mut(us) -= 1;
            }
            own.insert(ply.to());
            let owed = ply.removals().count() as u8;
            let pending = sanmill::PendingRemoval::new(setup, owed)
                .unwrap_or_else(|e| panic!("{pos:?} {}: {e}", ply.display(board)));
            // Sanmill's strings hold boards of 24 points; the others are checked without them.
            let (read, text) = match pending.to_sanmill() {
                Ok(text) => (sanmill::PendingRemoval::from_fen(*pos.rules(), &text).unwrap(), text),
                Err(_) => (pending, pos.fen()),
            };
            prop_assert_eq!(read, pending, "{}", text);
            let mut after = pos.after_unchecked(ply);
            let completed = read.remove(ply.removals()).unwrap();
            // The counter restarts at the removal, as it does after the whole ply.
            prop_assert_eq!(completed.plies_since_removal(), 0);
            after = Position::from_fen(*pos.rules(), &after.fen()).unwrap();
            prop_assert_eq!(completed, after, "{}", text);
        }
    }

    #[test]
    fn every_game_record_round_trips((rules, seed, plies, end) in arb_game(), from_setup in any::<bool>()) {
        let start = if from_setup {
            random_position(rules, seed ^ 0x55, (seed % 20) as usize)
        } else {
            Position::new(rules)
        };
        let mut game = Game::new(start);
        let mut rng = Rng(seed);
        for _ in 0..plies {
            let list = game.legal_plies();
            if list.is_empty() {
                break;
            }
            game.play(list[rng.below(list.len())]).unwrap();
        }
        match end {
            0 => game.resign(Color::White),
            1 => game.agree_draw(),
            _ => {}
        }
        let mut record = GameRecord::new(game.clone());
        record.tags.push(("Event".into(), "Round \"trip\" \\ test".into()));
        let text = record.to_string();
        let read = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&read.game, &game, "{}", text);
        prop_assert_eq!(read.game.outcome(), game.outcome());
        prop_assert_eq!(read.tag("Event"), Some("Round \"trip\" \\ test"));
        prop_assert_eq!(read.to_string(), text);
    }

    #[test]
    fn every_game_written_in_any_format_imports_back_as_the_same_game(
        set in 0..rule_sets().len(), seed in any::<u64>(), plies in 0usize..120,
        end in 0u8..4, from_setup in any::<bool>(),
    ) {
        let rules = rule_sets()[set].1;
        let start = if from_setup {
            random_position(rules, seed ^ 0x55, (seed % 20) as usize)
        } else {
            Position::new(rules)
        };
        let mut game = Game::new(start);
        let mut rng = Rng(seed);
        for _ in 0..plies {
            let list = game.legal_plies();
            if list.is_empty() {
                break;
            }
            game.play(list[rng.below(list.len())]).unwrap();
        }
        match end {
            0 => game.resign(Color::Black),
            1 => game.agree_draw(),
            _ => {}
        }
        let record = GameRecord::new(game.clone());
        let mut texts = vec![record.to_string()];
        texts.extend(export::sanmill_record(&record).ok());
        texts.extend(export::playok_record(&record).ok());
        if rules.board().len() == 24 {
            prop_assert!(texts.len() >= 2);
        }
        for text in texts {
            let read = import::read_game(&text, Variant::Nine.rules())
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(&read.record.game, &game, "{}", text);
            prop_assert_eq!(read.record.game.outcome(), game.outcome());
            prop_assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        }
        let last = *game.position();
        for text in [sanmill::write(&last).ok(), malom::write(&last).ok()].into_iter().flatten() {
            let read = import::read_game(&text, rules).unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(read.record.game.start(), &last, "{}", text);
        }
    }

    #[test]
    fn repetitions_count_every_earlier_occurrence_of_the_same_position(
        pos in arb_position(), seed in any::<u64>(),
    ) {
        let mut rules = *pos.rules();
        rules.repetition = 0;
        rules.n_move = 0;
        let start = Position::from_fen(rules, &pos.fen()).unwrap();
        let mut game = Game::new(start);
        let mut rng = Rng(seed);
        // Same pieces, side to move and pieces in hand: the position string without counters.
        let key = |p: &Position| p.fen().rsplitn(3, ' ').nth(2).unwrap().to_string();
        for _ in 0..60 {
            let now = key(game.position());
            let expected = game.positions().iter().filter(|p| key(p) == now).count();
            prop_assert_eq!(game.repetitions(), expected);
            let list = game.legal_plies();
            if list.is_empty() {
                break;
            }
            // Prefer moving back where the own previous ply came from, so that positions repeat.
            let back = game.plies().len().checked_sub(2).and_then(|i| match game.plies()[i] {
                Ply::Move { from, to, .. } => Some(Ply::Move { from: to, to: from, remove: Bitboard::EMPTY }),
                Ply::Place { .. } => None,
            });
            let ply = match back {
                Some(back) if rng.below(4) > 0 && list.contains(&back) => back,
                _ => list[rng.below(list.len())],
            };
            game.play(ply).unwrap();
        }
    }

    #[test]
    fn every_ply_text_round_trips(
        from in proptest::option::of((0u8..7, 0u8..7)),
        to in (0u8..7, 0u8..7),
        remove in proptest::collection::vec((0u8..7, 0u8..7), 0..=4),
        upper in any::<bool>(),
    ) {
        let square = |(f, r): (u8, u8)| Square::new(f, r).unwrap();
        prop_assume!(from.map(square) != Some(square(to)));
        let text = PlyText {
            from: from.map(square),
            to: square(to),
            remove: remove.into_iter().map(square).collect(),
        };
        let written = text.to_string();
        let input = if upper { written.to_uppercase() } else { written.clone() };
        let read: PlyText = input.parse().unwrap();
        prop_assert_eq!(read, text);
    }
}
