//! Sanmill's position strings of every version, read against positions reached with the
//! project's own plies and converted by hand; removals still owed; and the strings written.

use morris_core::sanmill::{self, PendingRemoval, RemovalError};
use morris_core::{Color, FenError, ParseFenError, Position, Variant};

fn nine(fen: &str) -> Result<Position, FenError> {
    Position::from_fen(Variant::Nine.rules(), fen)
}

fn played(plies: &[&str]) -> Position {
    plies
        .iter()
        .fold(Position::start(Variant::Nine), |pos, ply| {
            pos.play_text(ply)
                .unwrap_or_else(|e| panic!("{ply} in {pos}: {e}"))
        })
}

fn read_error(fen: &str) -> ParseFenError {
    match nine(fen) {
        Err(FenError::Parse(e)) => e,
        other => panic!("{fen}: expected a read error, got {other:?}"),
    }
}

/// After `1. d6 f4`: White on d6 (middle ring, first point), Black on f4 (middle ring, third).
const AFTER_D6_F4: [&str; 5] = [
    // The current form, with the empty last-mill fields and the extension fields.
    "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 ids:nodes",
    "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 ids:nodes p:3 s:0",
    // 16 fields: last-mill fields (0 for none), no bitmask.
    "********/O*@*****/******** w p p 1 8 1 8 0 0 0 0 0 0 0 2",
    // 12 fields: the two counts of pieces to remove, nothing more.
    "********/O*@*****/******** w p p 1 8 1 8 0 0 0 2",
    // 11 fields: one count of pieces to remove.
    "********/O*@*****/******** w p p 1 8 1 8 0 0 2",
];

#[test]
fn sanmill_strings_of_every_version_read_as_the_position_played() {
    let expected = played(&["d6", "f4"]);
    for text in AFTER_D6_F4 {
        assert_eq!(
            nine(text).unwrap_or_else(|e| panic!("{text}: {e}")),
            expected
        );
    }
}

#[test]
fn the_earliest_eleven_field_form_moves_the_at_sign_first_when_the_string_says_so() {
    // Then the first player was `@`, written `b`, and its counts came first.
    let both = "********/@*O*****/******** b p p 1 8 1 8 0 0 2";
    assert_eq!(nine(both).unwrap(), played(&["d6", "f4"]));
    // One piece placed: the counts match `@` and not `O`.
    let one = "********/@*******/******** w p p 1 8 0 9 0 0 1";
    assert_eq!(nine(one).unwrap(), played(&["d6"]));
    // The later 11-field form of the same position.
    let later = "********/O*******/******** b p p 1 8 0 9 0 0 1";
    assert_eq!(nine(later).unwrap(), played(&["d6"]));
}

#[test]
fn a_moving_phase_string_with_pieces_in_hand_is_refused() {
    let e = read_error("********/O*@*****/******** w m s 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2");
    assert_eq!(e.field, "phase");
    assert!(e.message.contains("in hand"), "{e}");
}

#[test]
fn a_ring_with_the_wrong_number_of_points_is_named() {
    let cases = [
        (
            "*******/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2",
            "inner ring",
        ),
        (
            "********/O*@******/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2",
            "middle ring",
        ),
        (
            "********/O*@*****/**** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2",
            "outer ring",
        ),
        (
            "********/O*@***** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2",
            "board",
        ),
    ];
    for (text, field) in cases {
        let e = read_error(text);
        assert_eq!(e.field, field, "{text}: {e}");
        assert!(e.to_string().contains(field), "{e}");
    }
}

#[test]
fn sanmill_rules_these_rules_do_not_have_are_refused_with_the_reason() {
    let cases = [
        (
            "********/O*@*****/******** w p p 1 8 1 8 -1 0 -1 -1 -1 -1 0 0 2",
            "pieces to remove",
            "own pieces",
        ),
        (
            "********/O*@*****/******** w p p 1 8 1 8 0 1 -1 -1 -1 -1 0 0 2",
            "pieces to remove",
            "Black owes",
        ),
        (
            "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 ids:nodes c:3",
            "extensions",
            "custodian",
        ),
        (
            "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 s:1",
            "extensions",
            "stalemate",
        ),
        (
            "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 99 0 0 2",
            "last mill",
            "not a point",
        ),
        (
            "********/O*@*****/******** w p p 1 8 1 8 1 0 -1 -1 -1 -1 0 0 2",
            "action",
            "not r",
        ),
    ];
    for (text, field, why) in cases {
        let e = read_error(text);
        assert_eq!(e.field, field, "{text}: {e}");
        assert!(e.message.contains(why), "{text}: {e}");
    }
    let e = match Position::from_fen(Variant::Six.rules(), AFTER_D6_F4[0]) {
        Err(FenError::Parse(e)) => e,
        other => panic!("{other:?}"),
    };
    assert!(e.message.contains("24 points"), "{e}");
}

/// `1. d6 f4 2. d7 b4 3. d5`: d5 closes d5-d6-d7 and White is still to remove.
const WHITE_OWES: &str = "O*******/O*@***@*/O******* w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3 ids:nodes";

#[test]
fn a_string_owing_a_removal_reads_as_the_moment_before_the_removal() {
    let pending = PendingRemoval::from_fen(Variant::Nine.rules(), WHITE_OWES).unwrap();
    assert_eq!(pending.remover(), Color::White);
    assert_eq!(pending.owed(), 1);
    let board = Variant::Nine.board();
    let names: Vec<String> = pending
        .removable()
        .into_iter()
        .map(|p| board.square(p).to_string())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, ["b4", "f4"]);
    for removal in ["xf4", "f4", "XF4"] {
        let after = pending.remove_text(removal).unwrap();
        assert_eq!(
            after,
            played(&["d6", "f4", "d7", "b4", "d5xf4"]),
            "{removal}"
        );
    }
    assert_eq!(pending.legal_removals().len(), 2);
    assert!(matches!(
        pending.remove_text("xd6"),
        Err(RemovalError::Illegal(_))
    ));
    assert!(matches!(
        pending.remove_text("xz9"),
        Err(RemovalError::Parse(_))
    ));
    // Written back, the same moment.
    let written = pending.to_sanmill().unwrap();
    assert_eq!(written, WHITE_OWES);
    // Where only whole plies are held, the string is refused with the reason.
    let e = read_error(WHITE_OWES);
    assert_eq!(e.field, "action");
    assert!(e.message.contains("owes a removal"), "{e}");
    // Without a count, the action alone says a removal is owed, as Sanmill reads it.
    let no_count = WHITE_OWES.replacen(" 1 0 -1", " 0 0 -1", 1);
    assert_eq!(
        PendingRemoval::from_fen(Variant::Nine.rules(), &no_count).unwrap(),
        pending
    );
}

#[test]
fn black_owing_a_removal_completes_the_move_before_the_number_grows() {
    // 1. d6 f4 2. a1 f6 3. a7 f2: f2 closes f2-f4-f6, Black to remove.
    let text = "********/O@@@****/*****O*O b p r 3 6 3 6 0 1 -1 -1 -1 -1 0 0 3";
    let pending = PendingRemoval::from_fen(Variant::Nine.rules(), text).unwrap();
    assert_eq!(pending.remover(), Color::Black);
    let after = pending.remove_text("xd6").unwrap();
    assert_eq!(after, played(&["d6", "f4", "a1", "f6", "a7", "f2xd6"]));
    assert_eq!(pending.to_sanmill().unwrap(), format!("{text} ids:nodes"));
}

#[test]
fn a_removal_owed_without_a_mill_cannot_occur() {
    let text = "********/O*@***@*/O******* w p r 2 7 2 7 1 0 -1 -1 -1 -1 0 0 3";
    let e = PendingRemoval::from_fen(Variant::Nine.rules(), text).unwrap_err();
    assert!(matches!(e, FenError::Invalid(_)), "{e:?}");
    assert!(e.to_string().contains("no mill"), "{e}");
    let e = PendingRemoval::from_fen(Variant::Nine.rules(), AFTER_D6_F4[0]).unwrap_err();
    assert!(e.to_string().contains("owes no removal"), "{e}");
}

#[test]
fn positions_are_written_as_current_sanmill_strings() {
    assert_eq!(
        sanmill::write(&played(&["d6", "f4"])).unwrap(),
        AFTER_D6_F4[0]
    );
    let moving = nine(".BW/.WB/.WW/...B.B/.../.../... b 0 0 12 30").unwrap();
    let text = sanmill::write(&moving).unwrap();
    assert_eq!(
        text,
        "OO@*****/O@******/@O@***** b m s 4 0 4 0 0 0 -1 -1 -1 -1 0 12 30 ids:nodes"
    );
    assert_eq!(nine(&text).unwrap(), moving);
    let e = sanmill::write(&Position::start(Variant::Three)).unwrap_err();
    assert!(e.to_string().contains("24 points"), "{e}");
}
