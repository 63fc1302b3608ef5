//! Notation: points, plies, position strings (the project's and Sanmill's) and game records,
//! both ways, with errors that say what is wrong and where.

use morris_core::{
    Color, FenError, Game, GameRecord, Outcome, ParseFenError, PlyText, Position, Reason, Square,
    TextPlyError, Variant,
    record::{Location, RecordErrorKind},
};

fn nine(fen: &str) -> Result<Position, FenError> {
    Position::from_fen(Variant::Nine.rules(), fen)
}

fn parse_error(variant: Variant, fen: &str) -> ParseFenError {
    match Position::from_fen(variant.rules(), fen) {
        Err(FenError::Parse(e)) => e,
        other => panic!("{fen}: expected a read error, got {other:?}"),
    }
}

#[test]
fn every_square_reads_and_writes_in_either_case() {
    for file in 0..7 {
        for rank in 0..7 {
            let sq = Square::new(file, rank).unwrap();
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
    }
    for bad in ["", "a", "a0", "a8", "h1", "aa", "1a", "a11", "é1"] {
        let e = bad.parse::<Square>().unwrap_err();
        assert!(e.to_string().contains("not a point name"), "{bad}: {e}");
    }
}

#[test]
fn every_point_of_every_board_has_its_name() {
    let expected = [
        (Variant::Nine, 24),
        (Variant::Three, 9),
        (Variant::Six, 16),
        (Variant::Twelve, 24),
    ];
    for (variant, len) in expected {
        let board = variant.board();
        assert_eq!(board.len(), len);
        for p in board.points() {
            let name = board.square(p).to_string();
            assert_eq!(board.point(&name), Some(p), "{variant} {name}");
        }
    }
    assert_eq!(
        Variant::Nine.board().point("d4"),
        None,
        "the centre is no point"
    );
    assert_eq!(Variant::Six.board().point("a2"), None);
    assert_eq!(Variant::Three.board().point("d1"), None);
}

#[test]
fn plies_read_and_write_in_the_rule_book_notation() {
    for text in ["d6", "f2-f4", "d6xa1", "f2-f4xd5", "e4xg7xa1"] {
        assert_eq!(text.parse::<PlyText>().unwrap().to_string(), text);
    }
    assert_eq!(
        "F2-F4XD5".parse::<PlyText>().unwrap().to_string(),
        "f2-f4xd5"
    );
    let bad = [
        ("", "empty"),
        ("d", "point name"),
        ("d6-", "point name"),
        ("d6-d6", "another point"),
        ("d6y", "'x'"),
        ("d6x", "point name"),
        ("d6xa1xb2xc3xd4xe5", "too many"),
    ];
    for (text, what) in bad {
        let e = text.parse::<PlyText>().unwrap_err().to_string();
        assert!(e.contains(what), "{text:?}: {e}");
        assert!(e.starts_with("cannot read ply"), "{e}");
    }
}

#[test]
fn a_ply_that_cannot_be_read_differs_from_one_that_is_not_legal() {
    let pos = Position::start(Variant::Nine);
    assert!(matches!(pos.parse_ply("z9"), Err(TextPlyError::Parse(_))));
    assert!(matches!(pos.parse_ply("d6-"), Err(TextPlyError::Parse(_))));
    for illegal in ["d4", "d6-d7", "d6xa1"] {
        let e = pos.parse_ply(illegal).unwrap_err();
        assert!(
            matches!(e, TextPlyError::Illegal { .. }),
            "{illegal}: {e:?}"
        );
        assert!(e.to_string().starts_with("illegal ply"), "{e}");
    }
    // Three Men's Morris has no d6.
    let three = Position::start(Variant::Three);
    let e = three.parse_ply("d6").unwrap_err().to_string();
    assert!(e.contains("no point d6"), "{e}");
}

#[test]
fn start_position_strings_of_every_variant() {
    let expected = [
        (Variant::Nine, ".../.../.../....../.../.../... w 9 9 0 1"),
        (Variant::Three, ".../.../... w 3 3 0 1"),
        (Variant::Six, ".../.../..../.../... w 6 6 0 1"),
        (
            Variant::Twelve,
            ".../.../.../....../.../.../... w 12 12 0 1",
        ),
        (
            Variant::Morabaraba,
            ".../.../.../....../.../.../... w 12 12 0 1",
        ),
        (
            Variant::Lasker,
            ".../.../.../....../.../.../... w 10 10 0 1",
        ),
    ];
    for (variant, fen) in expected {
        let start = Position::start(variant);
        assert_eq!(start.fen(), fen);
        assert_eq!(Position::from_fen(variant.rules(), fen).unwrap(), start);
    }
}

#[test]
fn position_strings_follow_the_interface_examples() {
    let pos = Position::start(Variant::Nine)
        .play_text("d6")
        .unwrap()
        .play_text("f4")
        .unwrap();
    assert_eq!(pos.fen(), ".../.W./.../....B./.../.../... w 8 8 0 2");
    let read = nine(".../.W./.../....B./.../.../... w 8 8 0 2").unwrap();
    assert_eq!(read, pos);
    // Rows name the points top rank first, left to right.
    let board = read.board();
    assert_eq!(
        read.piece_at(board.point("d6").unwrap()),
        Some(Color::White)
    );
    assert_eq!(
        read.piece_at(board.point("f4").unwrap()),
        Some(Color::Black)
    );
    let six = Position::from_fen(Variant::Six.rules(), "W../.../...B/.../... w 5 5 0 2");
    let six = six.unwrap();
    let b = six.board();
    assert_eq!(six.piece_at(b.point("a5").unwrap()), Some(Color::White));
    assert_eq!(six.piece_at(b.point("e3").unwrap()), Some(Color::Black));
    let three = Position::from_fen(Variant::Three.rules(), "..W/.B./W.. b 1 2 0 2").unwrap();
    let b = three.board();
    assert_eq!(three.piece_at(b.point("c3").unwrap()), Some(Color::White));
    assert_eq!(three.piece_at(b.point("b2").unwrap()), Some(Color::Black));
    assert_eq!(three.piece_at(b.point("a1").unwrap()), Some(Color::White));
}

#[test]
fn unreadable_position_strings_name_the_wrong_field() {
    let cases = [
        (Variant::Nine, "", "board"),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 9 9 0",
            "fields",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 9 9 0 1 7",
            "fields",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../... w 9 9 0 1",
            "board",
        ),
        (
            Variant::Nine,
            ".../.../.../...../.../.../... w 9 9 0 1",
            "board",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../..X w 9 9 0 1",
            "board",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... x 9 9 0 1",
            "side to move",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w a 9 0 1",
            "white in hand",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 9 -1 0 1",
            "black in hand",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 9 9 x 1",
            "plies since removal",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 9 9 0 1.5",
            "move number",
        ),
        (
            Variant::Nine,
            ".../.../.../....../.../.../... w 999 9 0 1",
            "white in hand",
        ),
        (
            Variant::Six,
            ".../.../.../....../.../.../... w 6 6 0 1",
            "board",
        ),
        (Variant::Three, ".../.../.... w 3 3 0 1", "board"),
    ];
    for (variant, fen, field) in cases {
        let e = parse_error(variant, fen);
        assert_eq!(e.field, field, "{fen:?}: {e}");
        let text = e.to_string();
        assert!(text.starts_with("cannot read position string: "), "{text}");
        assert!(text.contains(field), "{text}");
    }
}

#[test]
fn position_strings_that_read_but_cannot_occur_say_every_problem() {
    let cases = [
        (
            ".../.../.../....../.../.../... w 10 10 0 1",
            vec!["White has 10", "Black has 10"],
        ),
        (
            "WWW/WWW/WWW/WWW.../.../.../... w 0 0 0 1",
            vec!["White has more pieces"],
        ),
        (
            ".../.../.../....../.../.../... b 9 9 0 1",
            vec!["do not fit the side to move"],
        ),
        (
            ".W./.../.../....../.../.../... w 8 9 3 0",
            vec!["side to move", "counter", "move number"],
        ),
        (
            "WW./.../.../....../.../.../BB. w 0 0 0 9",
            vec!["both sides"],
        ),
    ];
    for (fen, problems) in cases {
        let e = nine(fen).unwrap_err();
        assert!(matches!(e, FenError::Invalid(_)), "{fen}: {e:?}");
        let text = e.to_string();
        assert!(text.starts_with("invalid position: "), "{text}");
        for p in problems {
            assert!(text.contains(p), "{fen}: '{p}' missing from {text}");
        }
    }
}

const SANMILL_START: &str = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";

#[test]
fn sanmill_position_strings_are_read() {
    for variant in [
        Variant::Nine,
        Variant::Lasker,
        Variant::Twelve,
        Variant::Morabaraba,
    ] {
        let start = Position::from_fen(variant.rules(), SANMILL_START);
        if variant == Variant::Nine {
            assert_eq!(start.unwrap(), Position::start(Variant::Nine));
        } else {
            // Nine pieces in hand under other rules: a position, though not the start.
            assert!(start.is_ok(), "{variant}: {start:?}");
        }
    }
    // Each ring clockwise from the top middle: inner, middle, outer.
    let rings = [
        ["d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"],
        ["d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"],
        ["d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"],
    ];
    for (r, ring) in rings.iter().enumerate() {
        for (i, name) in ring.iter().enumerate() {
            let mut fields = ["********"; 3].map(String::from);
            fields[r].replace_range(i..=i, "O");
            let text = format!("{} b p p 1 8 0 9 0 0 0 0 0 0 0 0 1", fields.join("/"));
            let pos = nine(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let board = pos.board();
            assert_eq!(
                pos.piece_at(board.point(name).unwrap()),
                Some(Color::White),
                "{text}"
            );
            assert_eq!(pos.pieces(Color::White).count(), 1);
        }
    }
    // A moving-phase position with extra trailing fields.
    let text = "OO@*****/O@******/@O@***** b m s 4 0 4 0 0 0 0 0 0 0 0 12 30 extra 7";
    let pos = nine(text).unwrap();
    assert_eq!(pos.fen(), ".BW/.WB/.WW/...B.B/.../.../... b 0 0 12 30");
    assert_eq!(pos.turn(), Color::Black);
}

#[test]
fn sanmill_position_strings_of_older_versions_and_without_a_pending_action_are_read() {
    // Older versions wrote 12 fields, without the last-mill fields and the mills bitmask.
    let old = "OO@*****/O@******/@O@***** b m s 4 0 4 0 0 0 12 30";
    let new = "OO@*****/O@******/@O@***** b m s 4 0 4 0 0 0 0 0 0 0 0 12 30";
    assert_eq!(nine(old).unwrap(), nine(new).unwrap());
    assert_eq!(
        nine("********/********/******** w p p 0 9 0 9 0 0 0 1").unwrap(),
        Position::start(Variant::Nine)
    );
    // `?` is the action when none is pending, `n` the phase before a game.
    let none = "OO@*****/O@******/@O@***** b o ? 4 0 4 0 0 0 0 0 0 0 0 12 30";
    assert_eq!(nine(none).unwrap(), nine(new).unwrap());
    assert!(nine(SANMILL_START.replacen(" p p ", " n p ", 1).as_str()).is_ok());
    // 11, 12, 16 and 17 fields are the versions; nothing between reads.
    for n in [10, 13, 14, 15] {
        let fields: Vec<&str> = new.split(' ').take(n).collect();
        let e = parse_error(Variant::Nine, &fields.join(" "));
        assert_eq!(e.field, "fields", "{n} fields: {e}");
    }
}

#[test]
fn sanmill_position_strings_owing_a_removal_are_refused_with_the_reason() {
    let text = "OOO*****/@@******/******** b p r 3 6 2 7 0 1 0 0 0 0 0 0 3";
    let e = parse_error(Variant::Nine, text);
    assert_eq!(e.field, "action");
    assert!(e.message.contains("removal"), "{e}");
}

#[test]
fn bad_sanmill_position_strings_name_the_wrong_field() {
    let cases = [
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0",
            "fields",
        ),
        (
            "********/********/*******Z w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "board",
        ),
        (
            "********/********/*******X w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "board",
        ),
        (
            "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "side to move",
        ),
        (
            "********/********/******** w q p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "phase",
        ),
        (
            "********/********/******** w p z 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "action",
        ),
        (
            "O*******/********/******** b p p 0 8 0 9 0 0 0 0 0 0 0 0 1",
            "white on board",
        ),
        (
            "********/********/******** w p p 0 9 1 9 0 0 0 0 0 0 0 0 1",
            "black on board",
        ),
        (
            "********/********/******** w p p 0 z 0 9 0 0 0 0 0 0 0 0 1",
            "white in hand",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 q 1",
            "plies since removal",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 q",
            "move number",
        ),
    ];
    for (text, field) in cases {
        let e = parse_error(Variant::Nine, text);
        assert_eq!(e.field, field, "{text}: {e}");
    }
}

/// A record as Sanmill exports it: tags, comments, annotations, variations and a removal
/// written both appended and as its own token.
const SANMILL_RECORD: &str = r#"[Event "Sanmill-Game"]
[Site "Sanmill"]
[White "Human"]
[Black "AI"]
[Result "*"]

1.    d6    f4 {the centre}
2.    d2    b4 $2
3.    f6    (3. a1 a4) b6
4.    f2 xf4 ; White closes f2-f4-f6? No: f4 is Black's.
"#;

#[test]
fn sanmill_style_records_are_read() {
    // f2 does not close a mill here, so the separate removal token is illegal: check the
    // location, then read a record where the removal is earned.
    let e = GameRecord::parse(SANMILL_RECORD).unwrap_err();
    assert!(e.is_illegal(), "{e}");
    assert_eq!(
        e.at,
        Location {
            line: 10,
            column: 7
        }
    );
    let text = "[Event \"Sanmill-Game\"]\n[Result \"*\"]\n\n1. d6 {c} f4 $1\n2. d5 (2. a1 a4 (2... g7)) b4\n3. d7 xb4 b6 4. d5-e5? ; slide later\n*\n";
    let e = GameRecord::parse(text).unwrap_err();
    assert!(e.is_illegal(), "d5-e5 in the placing phase: {e}");
    let text = "[Event \"Sanmill-Game\"]\n[Result \"*\"]\n\n1. d6 {c} f4 $1\n2. d5 (2. a1 a4 (2... g7)) b4\n3. d7 xb4 b6 4. a1 a4\n*\n";
    let record = GameRecord::parse(text).unwrap();
    assert_eq!(
        record.game.ply_texts(),
        ["d6", "f4", "d5", "b4", "d7xb4", "b6", "a1", "a4"]
    );
    assert_eq!(record.tag("Event"), Some("Sanmill-Game"));
    assert_eq!(record.game.outcome(), None);
}

#[test]
fn sanmill_records_with_annotation_symbols_as_their_own_tokens_are_read() {
    // Sanmill writes a move, a space and its annotation symbols, then its comments, and
    // appends the removal right after them; lines end in CR LF.
    let records = [
        "[FEN \"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\"]\r\n[SetUp \"1\"]\r\n\r\n1.    d6 !?    f4 {centre}\r\n2.    d5 ?    b4\r\n3.    d7 !xb4    b6 $7\r\n4.    a1    a4",
        "1. d6 f4 2. d5 b4 3. d7 ! {a mill}xb4 b6 ?? 4. a1 !! a4 *",
    ];
    for text in records {
        let record = GameRecord::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            record.game.ply_texts(),
            ["d6", "f4", "d5", "b4", "d7xb4", "b6", "a1", "a4"],
            "{text}"
        );
    }
    let e = GameRecord::parse("1. d6 f4\r\n2. d5 ?? zz").unwrap_err();
    assert_eq!(
        e.at,
        Location {
            line: 2,
            column: 10
        }
    );
}

#[test]
fn records_with_a_sanmill_fen_tag_start_from_it() {
    let text = format!("[SetUp \"1\"]\n[FEN \"{SANMILL_START}\"]\n\n1. d6 f4 *");
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.game.start(), &Position::start(Variant::Nine));
    assert_eq!(record.game.plies().len(), 2);
}

#[test]
fn records_are_written_and_read_back_in_every_variant() {
    for variant in Variant::ALL {
        let mut game = Game::new(Position::start(variant));
        let mut n = 0;
        while let Some(&ply) = game.legal_plies().first() {
            game.play(ply).unwrap();
            n += 1;
            if n == 40 {
                break;
            }
        }
        let text = GameRecord::new(game.clone()).to_string();
        assert!(text.contains(&format!("[Variant \"{variant}\"]")), "{text}");
        assert!(text.contains("1. "), "{text}");
        assert!(text.lines().all(|l| l.len() <= 90), "{text}");
        let read = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read.game, game, "{text}");
    }
}

#[test]
fn records_carry_the_result_and_its_reason() {
    let start = nine(".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9").unwrap();
    let mut game = Game::new(start);
    game.play_text("a4").unwrap();
    let text = GameRecord::new(game.clone()).to_string();
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    assert!(
        text.contains("[FEN \".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9\"]"),
        "{text}"
    );
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("[Termination \"blocked\"]"), "{text}");
    assert!(text.contains("9... a4 0-1"), "{text}");
    let read = GameRecord::parse(&text).unwrap();
    assert_eq!(
        read.game.outcome(),
        Some(Outcome::win(Color::Black, Reason::Blocked))
    );

    // A resignation is not visible in the plies: the result and termination carry it.
    let mut game = Game::new(Position::start(Variant::Nine));
    game.play_text("d6").unwrap();
    game.resign(Color::Black);
    let text = GameRecord::new(game.clone()).to_string();
    let read = GameRecord::parse(&text).unwrap();
    assert_eq!(
        read.game.outcome(),
        Some(Outcome::win(Color::White, Reason::Resignation))
    );
    // A bare result token without tags reads as a resignation or an agreed draw.
    let read = GameRecord::parse("1. d6 f4 1/2-1/2").unwrap();
    assert_eq!(read.game.outcome(), Some(Outcome::draw(Reason::Agreement)));
}

#[test]
fn record_errors_say_where_and_tell_unreadable_from_illegal() {
    let cases: [(&str, usize, usize, bool); 12] = [
        ("1. d6 d6", 1, 7, true),
        ("1. d6 f4\n2. d2 zz", 2, 7, false),
        ("1. d6 {open", 1, 7, false),
        ("1. d6 f4 (2. d2", 1, 10, false),
        ("1. d6 f4 )", 1, 10, false),
        ("1. d6 f4 }", 1, 10, false),
        ("[Variant \"ten\"]\n1. d6", 1, 1, false),
        ("[FEN \"bad\"]\n1. d6", 1, 1, false),
        (
            "[FEN \".../.../.../....../.../.../... b 9 9 0 1\"]\n1. d6",
            1,
            1,
            true,
        ),
        ("[Variant \"nine\"\n1. d6", 1, 1, false),
        ("1. d6 f4 1-0 d2", 1, 14, false),
        ("1. d6 f4\n[Event \"late\"]", 2, 1, false),
    ];
    for (text, line, column, illegal) in cases {
        let e = GameRecord::parse(text).unwrap_err();
        assert_eq!(e.at, Location { line, column }, "{text:?}: {e}");
        assert_eq!(e.is_illegal(), illegal, "{text:?}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("line {line}, column {column}: ")),
            "{e}"
        );
    }
    let e = GameRecord::parse("1. d6 f4 2. d2 zz").unwrap_err();
    assert!(
        matches!(
            e.kind,
            RecordErrorKind::Ply {
                number: 4,
                error: TextPlyError::Parse(_)
            }
        ),
        "{e:?}"
    );
}

#[test]
fn a_ply_after_the_end_of_the_game_is_refused() {
    let text =
        "[SetUp \"1\"]\n[FEN \".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9\"]\n\n9... a4 10. b4-a4";
    let e = GameRecord::parse(text).unwrap_err();
    assert!(
        matches!(e.kind, RecordErrorKind::AfterEnd { number: 2, .. }),
        "{e:?}"
    );
    assert!(e.is_illegal());
    assert_eq!(
        e.at,
        Location {
            line: 4,
            column: 13
        }
    );
}

#[test]
fn boards_are_drawn_with_their_lines_and_pieces() {
    let pos = nine(".../.W./.../....B./.../.../... w 8 8 0 2").unwrap();
    let drawing = morris_core::draw_board(&pos);
    assert_eq!(drawing.lines().count(), 14);
    assert_eq!(drawing.matches('W').count(), 1);
    assert_eq!(drawing.matches('B').count(), 1);
    assert_eq!(drawing.matches('.').count(), 22);
    assert!(drawing.lines().all(|l| l == l.trim_end()), "{drawing}");
    assert!(
        drawing.lines().nth(2).unwrap().contains("W"),
        "d6 on rank 6:\n{drawing}"
    );
    assert!(
        !drawing.contains('\\'),
        "no diagonals on the standard board"
    );
    // Twelve Men's Morris shows its four diagonals.
    let twelve = morris_core::draw_board(&Position::start(Variant::Twelve));
    assert_eq!(
        twelve.matches('\\').count() + twelve.matches('/').count(),
        8,
        "{twelve}"
    );
    let three = morris_core::draw_board(&Position::start(Variant::Three));
    assert_eq!(three.matches('.').count(), 9, "{three}");
    let six = morris_core::draw_board(&Position::start(Variant::Six));
    assert_eq!(six.matches('.').count(), 16, "{six}");
}
