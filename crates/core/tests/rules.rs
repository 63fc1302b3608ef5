//! One test for each rule of the rule book, named after it: removals, double mills, the phase
//! change, blocking, fewer than three, flying, re-formed mills, the variants' special rules,
//! setup validation, and the game's draw rules and results.

use morris_core::{
    Color, DoubleMill, FullBoard, Game, GameError, MillRemoval, Outcome, Position, Reason, Rules,
    Setup, SetupProblem, TextPlyError, Variant,
};

fn position(rules: Rules, fen: &str) -> Position {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn nine(fen: &str) -> Position {
    position(Variant::Nine.rules(), fen)
}

fn with(variant: Variant, f: impl FnOnce(&mut Rules)) -> Rules {
    let mut rules = variant.rules();
    f(&mut rules);
    rules
}

/// The legal plies as text, sorted.
fn plies(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_plies()
        .iter()
        .map(|p| p.display(pos.board()).to_string())
        .collect();
    out.sort();
    out
}

/// The legal plies whose text starts with `prefix`.
fn plies_from(pos: &Position, prefix: &str) -> Vec<String> {
    plies(pos)
        .into_iter()
        .filter(|p| p.starts_with(prefix))
        .collect()
}

fn illegal_reason(pos: &Position, ply: &str) -> String {
    match pos.parse_ply(ply) {
        Err(TextPlyError::Illegal { reason, .. }) => reason,
        other => panic!("{ply} in {pos}: expected an illegal ply, got {other:?}"),
    }
}

/// White can close a7-d7-g7 and d5-d6-d7 with d7; Black has a mill a1-d1-g1 and b2 outside it.
const DOUBLE_MILL: &str = "W.W/.W./.W./....../.../B../BBB w 5 5 0 5";
/// As above, but every black piece stands in a mill (a1-d1-g1 and d1-d2-d3).
const ALL_IN_MILLS: &str = "W.W/.W./.W./.W..../.B./.B./BBB w 4 4 0 6";

#[test]
fn a_mill_may_not_remove_a_piece_in_a_mill_while_others_stand_outside() {
    let pos = nine(DOUBLE_MILL);
    assert_eq!(plies_from(&pos, "d7"), ["d7xb2"]);
    assert!(illegal_reason(&pos, "d7xa1").contains("mill"));
    assert!(illegal_reason(&pos, "d7").contains("closes a mill"));
}

#[test]
fn a_mill_may_remove_from_a_mill_when_every_opposing_piece_stands_in_one() {
    let pos = nine(ALL_IN_MILLS);
    assert_eq!(
        plies_from(&pos, "d7"),
        ["d7xa1", "d7xd1", "d7xd2", "d7xd3", "d7xg1"]
    );
}

#[test]
fn removal_option_always_removes_any_piece() {
    let pos = position(
        with(Variant::Nine, |r| r.mill_removal = MillRemoval::Always),
        DOUBLE_MILL,
    );
    assert_eq!(plies_from(&pos, "d7"), ["d7xa1", "d7xb2", "d7xd1", "d7xg1"]);
}

#[test]
fn removal_option_never_spares_mills_and_removes_nothing_when_all_stand_in_mills() {
    let rules = with(Variant::Nine, |r| r.mill_removal = MillRemoval::Never);
    assert_eq!(plies_from(&position(rules, DOUBLE_MILL), "d7"), ["d7xb2"]);
    let pos = position(rules, ALL_IN_MILLS);
    assert_eq!(plies_from(&pos, "d7"), ["d7"]);
    assert!(pos.parse_ply("d7xa1").is_err());
}

#[test]
fn a_double_mill_removes_one_piece() {
    let pos = nine(DOUBLE_MILL);
    assert_eq!(
        illegal_reason(&pos, "d7xb2xa1"),
        "it removes 1 piece, not 2"
    );
    let after = pos.play_text("d7xb2").unwrap();
    assert_eq!(after.pieces(Color::Black).count(), 3);
}

#[test]
fn a_double_mill_removes_one_piece_per_mill_with_the_option() {
    let rules = with(Variant::Nine, |r| r.double_mill = DoubleMill::PerMill);
    let pos = position(rules, DOUBLE_MILL);
    // b2 first, the only piece outside a mill; then all stand in a mill and any may go.
    assert_eq!(plies_from(&pos, "d7"), ["d7xb2xa1", "d7xb2xd1", "d7xb2xg1"]);
    assert_eq!(illegal_reason(&pos, "d7xb2"), "it removes 2 pieces, not 1");
    assert!(
        pos.parse_ply("d7xa1xb2").is_ok(),
        "the order written does not matter"
    );
    assert!(
        pos.parse_ply("d7xa1xd1").is_err(),
        "b2 must go while it stands outside a mill"
    );
    let after = pos.play_text("d7xg1xb2").unwrap();
    assert_eq!(after.pieces(Color::Black).count(), 2);
    // With a single opposing piece on the board, a double mill removes just that one.
    let lone = position(rules, "W.W/.W./.W./....../.../B../... w 5 5 0 5");
    assert_eq!(plies_from(&lone, "d7"), ["d7xb2"]);
}

#[test]
fn a_mill_removes_nothing_when_the_opponent_has_no_piece_on_the_board() {
    let pos = nine("WW./.../.../....../.../.../... w 7 7 0 3");
    assert!(plies(&pos).contains(&"g7".to_string()));
    assert_eq!(
        illegal_reason(&pos, "g7xa1"),
        "it closes a mill, but no opposing piece may be removed"
    );
    assert_eq!(
        illegal_reason(&pos, "c5xa1"),
        "it closes no mill, so it removes nothing"
    );
}

#[test]
fn a_mill_closed_by_the_last_placement_removes_before_the_moving_phase() {
    // Black's last piece in hand closes a1-d1-g1; every white piece stands in a mill.
    let pos = nine("WWW/WWW/WWW/....../BBB/BBB/BB. b 0 1 0 9");
    let list = plies(&pos);
    assert_eq!(list.len(), 6 + 9, "{list:?}");
    assert_eq!(plies_from(&pos, "g1").len(), 9);
    let after = pos.play_text("g1xd7").unwrap();
    assert_eq!(after.turn(), Color::White);
    assert_eq!(
        (after.in_hand(Color::White), after.in_hand(Color::Black)),
        (0, 0)
    );
    assert_eq!(after.pieces(Color::White).count(), 8);
    // White makes the first move of the moving phase, into the gap the removal left.
    let moves = plies(&after);
    assert!(moves.iter().all(|p| p.contains('-')), "{moves:?}");
    for m in ["a7-a4", "d6-d7xc3", "g7-d7xg1"] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    assert!(after.outcome().is_none());
}

#[test]
fn the_first_player_of_the_moving_phase_loses_when_blocked() {
    // Black places the last piece; every white piece is walled in unless a4 stays empty.
    let pos = nine(".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9");
    assert_eq!(plies(&pos).len(), 7);
    let blocked = pos.play_text("a4").unwrap();
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(Color::Black, Reason::Blocked))
    );
    assert!(blocked.legal_plies().is_empty());
    let free = pos.play_text("a7").unwrap();
    assert_eq!(free.outcome(), None);
    assert_eq!(plies(&free), ["b4-a4"]);
}

#[test]
fn a_placement_is_always_possible_with_pieces_in_hand_and_an_empty_point() {
    // White's pieces on the board are walled in, but White still has pieces to place.
    let pos = nine(".../BBW/BWB/..WWWB/BWB/WBW/... w 1 1 0 9");
    assert_eq!(pos.outcome(), None);
    assert_eq!(plies(&pos).len(), 8);
}

#[test]
fn a_side_below_three_pieces_counting_those_in_hand_loses() {
    // One on the board and one in hand: two pieces left.
    let lost = nine("W../.../.../....../.../.../BBB w 1 1 0 9");
    assert_eq!(
        lost.outcome(),
        Some(Outcome::win(Color::Black, Reason::FewerThanThree))
    );
    assert!(lost.legal_plies().is_empty());
    // Two on the board and one in hand: three left, the game goes on.
    let alive = nine("WW./.../.../....../.../.../BBB w 1 1 0 9");
    assert_eq!(alive.outcome(), None);
    // In the moving phase a removal that leaves two pieces ends the game at once.
    let pos = nine("W../.W./.../.....B/..W/B.B/BB. b 0 0 0 20");
    let after = pos.play_text("g4-g1xa7").unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Color::Black, Reason::FewerThanThree))
    );
    assert!(after.legal_plies().is_empty());
}

/// White has three pieces (a7, d6, e3), Black five.
const WHITE_THREE: &str = "W../.W./.../.....B/..W/B.B/BB. w 0 0 0 20";

#[test]
fn a_side_with_three_pieces_flies() {
    let pos = nine(WHITE_THREE);
    let list = plies(&pos);
    assert_eq!(list.len(), 3 * 16, "{list:?}");
    assert!(list.contains(&"a7-g7".to_string()));
    assert!(list.contains(&"e3-a4".to_string()));
    // Black, with five pieces, only slides.
    let black = nine("W../.W./.../.....B/..W/B.B/BB. b 0 0 0 20");
    let board = black.board();
    for ply in black.legal_plies() {
        let from = ply.from().expect("a move");
        assert!(
            board.adjacent(from).contains(ply.to()),
            "{}",
            ply.display(board)
        );
    }
}

#[test]
fn a_side_with_four_pieces_does_not_fly() {
    let pos = nine("W../.W./.../W....B/..W/B.B/BB. w 0 0 0 20");
    let board = pos.board();
    assert!(!pos.can_fly(Color::White));
    for ply in pos.legal_plies() {
        assert!(board.adjacent(ply.from().unwrap()).contains(ply.to()));
    }
}

#[test]
fn flying_follows_the_threshold_of_the_rules() {
    let no_flying = position(with(Variant::Nine, |r| r.fly_at = 0), WHITE_THREE);
    assert!(!no_flying.can_fly(Color::White));
    assert!(!plies(&no_flying).contains(&"a7-g7".to_string()));
    let at_four = position(
        with(Variant::Nine, |r| r.fly_at = 4),
        "W../.W./.../W....B/..W/B.B/BB. w 0 0 0 20",
    );
    assert!(plies(&at_four).contains(&"a7-g7".to_string()));
    // Six Men's Morris does not fly by default.
    assert_eq!(Variant::Six.rules().fly_at, 0);
    let six = position(Variant::Six.rules(), "W../.../W..W/.../BBB w 0 0 0 20");
    assert!(!six.can_fly(Color::White));
    assert_eq!(plies(&six), ["a3-b3", "a5-c5", "e3-d3", "e3-e5"]);
}

#[test]
fn a_mill_reformed_by_moving_out_and_back_removes_again() {
    let start = nine("WWW/.../.../...BB./W../BB./... w 0 0 0 20");
    let mut game = Game::new(start);
    game.play_text("d7-d6").unwrap();
    game.play_text("b2-b4").unwrap();
    let pos = *game.position();
    assert!(illegal_reason(&pos, "d6-d7").contains("closes a mill"));
    assert_eq!(
        plies_from(&pos, "d6-d7"),
        ["d6-d7xb4", "d6-d7xd2", "d6-d7xe4", "d6-d7xf4"]
    );
    game.play_text("d6-d7xe4").unwrap();
    assert_eq!(game.position().pieces(Color::Black).count(), 3);
    assert_eq!(game.position().plies_since_removal(), 0);
}

#[test]
fn three_a_line_wins_at_once_in_the_placing_phase() {
    let pos = position(Variant::Three.rules(), ".B./W.W/.B. w 1 1 0 3");
    let list = plies(&pos);
    assert!(
        list.iter().all(|p| !p.contains('x')),
        "no removals: {list:?}"
    );
    let after = pos.play_text("b2").unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Color::White, Reason::Line))
    );
    assert!(after.legal_plies().is_empty());
}

#[test]
fn three_pieces_slide_along_every_line_diagonals_included_and_never_fly() {
    let pos = position(Variant::Three.rules(), "BW./B.W/W.B w 0 0 0 4");
    assert!(!pos.can_fly(Color::White));
    assert_eq!(
        plies(&pos),
        ["a1-b1", "a1-b2", "b3-b2", "b3-c3", "c2-b2", "c2-c3"]
    );
    assert!(pos.parse_ply("a1-c3").is_err(), "a1 and c3 are not joined");
}

#[test]
fn three_a_line_wins_at_once_in_the_moving_phase() {
    let pos = position(Variant::Three.rules(), "W.W/.BB/B.W b 0 0 3 5");
    let after = pos.play_text("a1-a2").unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Color::Black, Reason::Line))
    );
    assert!(after.legal_plies().is_empty());
}

/// Twelve Men's Morris with one point left (d7) and Black's last piece to place.
const TWELVE_ONE_LEFT: &str = "W.B/BWW/WBB/BWBBWW/WBW/BWB/WWB b 0 1 0 12";

#[test]
fn twelve_a_board_filled_in_the_placing_phase_is_a_draw() {
    let pos = position(Variant::Twelve.rules(), TWELVE_ONE_LEFT);
    assert_eq!(plies(&pos), ["d7"]);
    let full = pos.play_text("d7").unwrap();
    assert_eq!(full.outcome(), Some(Outcome::draw(Reason::FullBoard)));
    let mora = position(Variant::Morabaraba.rules(), TWELVE_ONE_LEFT)
        .play_text("d7")
        .unwrap();
    assert_eq!(mora.outcome(), Some(Outcome::draw(Reason::FullBoard)));
    // With the option, a full board blocks the side to move instead.
    let rules = with(Variant::Twelve, |r| r.full_board = FullBoard::Blocked);
    let blocked = position(rules, TWELVE_ONE_LEFT).play_text("d7").unwrap();
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(Color::Black, Reason::Blocked))
    );
}

#[test]
fn twelve_mills_run_along_the_diagonals() {
    let pos = position(
        Variant::Twelve.rules(),
        "W../W../.../....../.../.../BB. w 10 10 0 3",
    );
    assert_eq!(plies_from(&pos, "c5"), ["c5xa1", "c5xd1"]);
    let nine_board = position(
        Variant::Nine.rules(),
        "W../W../.../....../.../.../BB. w 7 7 0 3",
    );
    assert_eq!(plies_from(&nine_board, "c5"), ["c5"]);
}

#[test]
fn lasker_a_player_may_place_or_move_from_the_first_turn() {
    let pos = Position::start(Variant::Lasker)
        .play_text("d6")
        .unwrap()
        .play_text("f4")
        .unwrap();
    let list = plies(&pos);
    assert_eq!(list.len(), 22 + 4, "{list:?}");
    for m in ["d6-d7", "d6-b6", "d6-f6", "d6-d5", "a1"] {
        assert!(list.contains(&m.to_string()), "{m}");
    }
    let moved = pos.play_text("d6-d7").unwrap();
    assert_eq!(moved.in_hand(Color::White), 9);
    assert_eq!(moved.plies_since_removal(), 1);
    // Without the option, a player with pieces in hand must place.
    let nine = Position::start(Variant::Nine)
        .play_text("d6")
        .unwrap()
        .play_text("f4")
        .unwrap();
    assert!(illegal_reason(&nine, "d6-d7").contains("must place"));
}

/// Lasker: White has a7 and g1 on the board and one piece in hand, three pieces left.
const LASKER_THREE_LEFT: &str = "W../B.B/.../....../.../.../..W w 1 3 0 8";

#[test]
fn lasker_a_player_with_three_pieces_left_flies_also_with_pieces_in_hand() {
    let pos = position(Variant::Lasker.rules(), LASKER_THREE_LEFT);
    assert_eq!(pos.pieces_left(Color::White), 3);
    assert!(pos.can_fly(Color::White));
    let list = plies_from(&pos, "a7-");
    assert_eq!(list.len(), 20, "a7 flies to every empty point: {list:?}");
    assert!(list.contains(&"a7-e3".to_string()));
    // Placing stays possible, and Black with five pieces left does not fly.
    assert!(plies(&pos).contains(&"e3".to_string()));
    assert!(!pos.can_fly(Color::Black));
}

#[test]
fn lasker_with_the_empty_hand_option_flies_only_once_the_hand_is_empty() {
    let rules = with(Variant::Lasker, |r| r.fly_empty_hand = true);
    let pos = position(rules, LASKER_THREE_LEFT);
    assert!(!pos.can_fly(Color::White));
    assert_eq!(plies_from(&pos, "a7-"), ["a7-a4", "a7-d7"]);
    assert!(illegal_reason(&pos, "a7-e3").contains("not next to"));
    // Once the last piece is placed, the three fly.
    let placed = pos.play_text("e3").unwrap().play_text("b6-b4").unwrap();
    assert_eq!(placed.in_hand(Color::White), 0);
    assert!(placed.can_fly(Color::White));
    assert!(placed.parse_ply("a7-c5").is_ok());
}

#[test]
fn setup_validation_lists_every_problem() {
    let rules = Variant::Nine.rules();
    let board = rules.board();
    let p = |n: &str| board.point(n).unwrap();
    let mut setup = Setup::start(rules);
    setup.pieces.white.insert(p("a7"));
    setup.pieces.black.insert(p("a7"));
    setup.in_hand.white = 13;
    setup.in_hand.black = 4;
    setup.plies_since_removal = 5;
    setup.move_number = 0;
    let problems = setup.problems();
    for expected in [
        SetupProblem::Overlap,
        SetupProblem::TooManyInHand(Color::White, 13),
        SetupProblem::HandsDoNotAlternate,
        SetupProblem::CounterInPlacing,
        SetupProblem::MoveNumberZero,
    ] {
        assert!(
            problems.contains(&expected),
            "{expected:?} missing from {problems:?}"
        );
    }
    let error = setup.into_position().unwrap_err();
    assert_eq!(error.problems, problems);
    let text = error.to_string();
    assert_eq!(text.matches("; ").count(), problems.len() - 1, "{text}");
    assert!(
        text.contains("both sides") || text.contains("pieces in hand"),
        "{text}"
    );

    // Pieces off a small board, too many pieces, both sides below three.
    let three = Variant::Three.rules();
    let mut setup = Setup::start(three);
    setup.in_hand = morris_core::ByColor::new(0, 0);
    setup.pieces.white = morris_core::Bitboard(1 << 20 | 1);
    setup.pieces.black = morris_core::Bitboard(0b1_1110);
    let problems = setup.problems();
    assert!(
        problems.contains(&SetupProblem::OffBoard(Color::White)),
        "{problems:?}"
    );
    assert!(
        problems.contains(&SetupProblem::TooManyPieces(Color::Black)),
        "{problems:?}"
    );
    setup.pieces.black = morris_core::Bitboard(0b10);
    assert!(setup.problems().contains(&SetupProblem::BothBelowThree));

    // A side to move that already has a line in Three Men's Morris.
    let line = Position::from_fen(three, "WWW/BB./B.. w 0 0 0 4").unwrap_err();
    assert!(line.to_string().contains("line of three"), "{line}");

    // Rules that do not fit together are the one problem reported.
    let bad_rules = with(Variant::Nine, |r| r.pieces = 2);
    let problems = Setup::start(bad_rules).problems();
    assert!(
        matches!(problems.as_slice(), [SetupProblem::Rules(_)]),
        "{problems:?}"
    );

    // Lasker lets hands differ in any way.
    assert!(
        Position::from_fen(
            Variant::Lasker.rules(),
            ".../.W./.../....../.../.../... w 9 10 3 2"
        )
        .is_ok()
    );
}

/// A moving-phase position where both sides can shuffle without closing mills.
const SHUFFLE: &str = "WWW/.../.../...BB./W../BB./... w 0 0 0 20";
const SHUFFLE_PLIES: [&str; 4] = ["c3-d3", "e4-e3", "d3-c3", "e3-e4"];

#[test]
fn threefold_repetition_draws() {
    let mut game = Game::new(nine(SHUFFLE));
    for _ in 0..7 {
        for ply in SHUFFLE_PLIES {
            if game.plies().len() == 7 {
                break;
            }
            game.play_text(ply).unwrap();
        }
    }
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    game.play_text("e3-e4").unwrap();
    assert_eq!(game.repetitions(), 3);
    let draw = Outcome::draw(Reason::Repetition);
    assert_eq!(game.outcome(), Some(draw));
    assert!(game.legal_plies().is_empty());
    assert_eq!(game.play_text("c3-d3"), Err(GameError::Over(draw)));
    // Taking the ply back undoes the draw.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn repetition_option_off_never_draws() {
    let rules = with(Variant::Nine, |r| r.repetition = 0);
    let mut game = Game::new(position(rules, SHUFFLE));
    for _ in 0..5 {
        for ply in SHUFFLE_PLIES {
            game.play_text(ply).unwrap();
        }
    }
    assert_eq!(game.repetitions(), 6);
    assert_eq!(game.outcome(), None);
}

#[test]
fn n_move_rule_draws_after_a_hundred_plies_without_placement_or_removal() {
    let mut game = Game::new(nine("WWW/.../.../...BB./W../BB./... w 0 0 98 60"));
    game.play_text("c3-d3").unwrap();
    assert_eq!(game.outcome(), None);
    game.play_text("e4-e3").unwrap();
    assert!(game.position().n_move_limit_reached());
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::NMoveRule)));
    // The counter alone is not a rule of play: perft and legal plies ignore it.
    assert!(!game.position().legal_plies().is_empty());
    // 0 turns the rule off.
    let rules = with(Variant::Nine, |r| r.n_move = 0);
    let mut off = Game::new(position(
        rules,
        "WWW/.../.../...BB./W../BB./... w 0 0 98 60",
    ));
    off.play_text("c3-d3").unwrap();
    off.play_text("e4-e3").unwrap();
    assert_eq!(off.outcome(), None);
}

#[test]
fn a_removal_or_placement_resets_the_n_move_counter() {
    let pos = nine("WWW/.../.../...BB./W../BB./... w 0 0 40 60");
    let moved = pos.play_text("c3-d3").unwrap();
    assert_eq!(moved.plies_since_removal(), 41);
    let out = pos.play_text("d7-d6").unwrap().play_text("b2-b4").unwrap();
    assert_eq!(out.plies_since_removal(), 42);
    assert_eq!(out.play_text("d6-d7xb4").unwrap().plies_since_removal(), 0);
    let placed = Position::start(Variant::Lasker)
        .play_text("d6")
        .unwrap()
        .play_text("f4")
        .unwrap()
        .play_text("d6-d7")
        .unwrap();
    assert_eq!(placed.plies_since_removal(), 1);
    assert_eq!(placed.play_text("a1").unwrap().plies_since_removal(), 0);
}

#[test]
fn a_game_plays_takes_back_and_reports_its_result_with_the_reason() {
    let start = nine(".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9");
    let mut game = Game::new(start);
    game.play_text("a4").unwrap();
    let over = game.outcome().unwrap();
    assert_eq!(over, Outcome::win(Color::Black, Reason::Blocked));
    assert_eq!(over.result(), "0-1");
    assert_eq!(over.describe(), "White is blocked");
    assert_eq!(
        game.undo()
            .map(|p| p.display(start.board()).to_string())
            .as_deref(),
        Some("a4")
    );
    assert_eq!(game.position(), &start);
    assert_eq!(game.undo(), None, "nothing to take back at the start");

    game.resign(Color::Black);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Reason::Resignation))
    );
    assert_eq!(game.outcome().unwrap().result(), "1-0");
    assert!(game.play_text("a7").is_err());
    game.undo();
    assert_eq!(game.outcome(), None, "taking back clears a resignation");
    game.agree_draw();
    assert_eq!(game.outcome().unwrap().result(), "1/2-1/2");
    assert_eq!(game.outcome().unwrap().reason, Reason::Agreement);
}

#[test]
fn an_illegal_ply_hands_the_position_back() {
    let pos = Position::start(Variant::Nine);
    let board = pos.board();
    let ply = morris_core::Ply::Move {
        from: board.point("d6").unwrap(),
        to: board.point("d7").unwrap(),
        remove: morris_core::Bitboard::EMPTY,
    };
    assert!(!pos.is_legal(ply));
    let error = pos.play(ply).unwrap_err();
    assert_eq!(error.position, pos);
    assert_eq!(error.ply, ply);
    assert!(matches!(
        pos.parse_ply("d6-d7"),
        Err(TextPlyError::Illegal { .. })
    ));
    assert!(matches!(pos.parse_ply("d6-"), Err(TextPlyError::Parse(_))));
}
