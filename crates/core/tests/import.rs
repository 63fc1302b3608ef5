//! A corpus of games and positions in the formats players bring, each made from plies played
//! with the project's own rules and converted by hand; each is read and checked ply by ply, and
//! every format morris writes is read back as the same game.

use morris_core::import::{self, Format, ImportWarning, ImportedGame, RuleChange};
use morris_core::record::RecordErrorKind;
use morris_core::{
    Color, Game, GameRecord, MillRemoval, Outcome, Position, Reason, Rules, Variant, export, malom,
    sanmill,
};

/// The game most of the corpus writes: White closes d5-d6-d7 with 4. d5 and removes b4.
const GAME_A: [&str; 8] = ["d6", "f4", "d2", "b4", "d7", "b6", "d5xb4", "f6"];

fn nine() -> Rules {
    Variant::Nine.rules()
}

fn game_from(start: Position, plies: &[&str]) -> Game {
    let mut game = Game::new(start);
    for ply in plies {
        game.play_text(ply).unwrap_or_else(|e| panic!("{ply}: {e}"));
    }
    game
}

fn game_a() -> Game {
    game_from(Position::start(Variant::Nine), &GAME_A)
}

fn read(text: &str, rules: Rules) -> ImportedGame {
    import::read_game(text, rules).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Checks the imported game ply by ply against the plies expected.
fn assert_plies(imported: &ImportedGame, plies: &[&str]) {
    let texts = imported.record.game.ply_texts();
    assert_eq!(texts.len(), plies.len(), "{texts:?}");
    for (i, (got, want)) in texts.iter().zip(plies).enumerate() {
        assert_eq!(got, want, "ply {}", i + 1);
    }
}

const SANMILL_EXPORTS: [&str; 4] = [
    // Quality marks glued to the plies, before a removal too; CR LF line ends.
    "[Event \"Sanmill-Game\"]\r\n[Site \"Sanmill\"]\r\n[Date \"2026.1.5\"]\r\n[Round \"1\"]\r\n[White \"Human\"]\r\n[Black \"AI\"]\r\n[Result \"*\"]\r\n[Variant \"Nine Men's Morris\"]\r\n[PlyCount \"8\"]\r\n\r\n1.    d6    f4\r\n2.    d2?    b4!\r\n3.    d7    b6\r\n4.    d5!xb4    f6 *",
    // The removal written with a slash, and Sanmill's variant id.
    "[Variant \"standard_9mm\"]\n\n1. d6 f4 2. d2 b4 3. d7 b6 4. d5/xb4 f6",
    // With a hyphen and a slash.
    "1. d6 f4 2. d2 b4 3. d7 b6 4. d5-/xb4 f6",
    // As its own token.
    "1. d6 f4 2. d2 b4 3. d7 b6 4. d5 xb4 f6",
];

#[test]
fn sanmill_exports_are_read_ply_by_ply() {
    for text in SANMILL_EXPORTS {
        let imported = read(text, nine());
        assert_eq!(imported.format, Format::Record, "{text}");
        assert_plies(&imported, &GAME_A);
        assert_eq!(imported.record.game, game_a(), "{text}");
        assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    }
    let tagged = read(SANMILL_EXPORTS[0], nine());
    assert_eq!(tagged.record.tag("Black"), Some("AI"));
}

#[test]
fn sanmill_result_words_end_the_game_as_written() {
    let cases = [
        ("white win", Outcome::win(Color::White, Reason::Resignation)),
        ("black", Outcome::win(Color::Black, Reason::Resignation)),
        ("draw", Outcome::draw(Reason::Agreement)),
        (
            "black resign",
            Outcome::win(Color::White, Reason::Resignation),
        ),
    ];
    for (words, outcome) in cases {
        let text = format!("1. d6 f4 2. d2 b4 3. d7 b6 4. d5xb4 f6 {words}");
        let imported = read(&text, nine());
        assert_plies(&imported, &GAME_A);
        assert_eq!(imported.record.game.outcome(), Some(outcome), "{words}");
    }
    let e = import::read_game("1. d6 f4 white win d2", nine()).unwrap_err();
    assert!(e.to_string().contains("after the result"), "{e}");
}

#[test]
fn sanmill_variant_ids_name_the_variants() {
    for (id, variant) in [
        ("standard_9mm", Variant::Nine),
        ("twelve_mens_morris", Variant::Twelve),
        ("lasker_morris", Variant::Lasker),
        ("Morabaraba", Variant::Morabaraba),
    ] {
        let imported = read(&format!("[Variant \"{id}\"]\n\n1. d6 *"), nine());
        assert_eq!(
            imported.record.game.start().rules().variant,
            variant,
            "{id}"
        );
    }
}

#[test]
fn a_custom_variant_is_read_with_the_rule_tags_that_follow() {
    let text = "[Variant \"Custom\"]\n[FlyAt \"0\"]\n[DoubleMill \"per_mill\"]\n\n1. d6 f4 *";
    let imported = read(text, nine());
    let rules = imported.record.game.start().rules();
    assert_eq!(rules.fly_at, 0);
    assert_eq!(rules.double_mill, morris_core::DoubleMill::PerMill);
    assert!(imported.warnings.is_empty());
    // Sanmill's own setting names are read too.
    let text = "[Variant \"Custom\"]\n[piecesCount \"12\"]\n[hasDiagonalLines \"true\"]\n\n1. d6 *";
    let rules = *read(text, nine()).record.game.start().rules();
    assert_eq!(
        (rules.pieces, rules.board),
        (12, morris_core::BoardKind::Diagonal)
    );
    // Without rule tags the default rules are assumed, and said so.
    let imported = read("[Variant \"Custom\"]\n\n1. d6 *", nine());
    assert_eq!(imported.warnings, [ImportWarning::CustomRulesAssumed]);
    let e = import::read_game("[Variant \"Custom\"]\n[FlyAt \"many\"]\n\n1. d6", nine());
    assert!(e.unwrap_err().to_string().contains("FlyAt"));
}

const PLAYOK: &str = "[Event \"Mill\"]
[Site \"PlayOK\"]
[Date \"2026.01.05\"]
[Round \"-\"]
[White \"anna\"]
[Black \"bert\"]
[Result \"0-1\"]
[TimeControl \"300\"]
[WhiteElo \"1450\"]
[BlackElo \"1512\"]

1. 5 14 2. 20 11 3. 2 4 4. 8x11 6 0-1
";

#[test]
fn playok_numeric_records_are_read_with_their_tags() {
    let imported = read(PLAYOK, nine());
    assert_eq!(imported.format, Format::PlayOk);
    assert_plies(&imported, &GAME_A);
    assert_eq!(imported.record.tag("TimeControl"), Some("300"));
    assert_eq!(imported.record.tag("WhiteElo"), Some("1450"));
    assert_eq!(imported.record.tag("BlackElo"), Some("1512"));
    assert_eq!(
        imported.record.game.outcome(),
        Some(Outcome::win(Color::Black, Reason::Resignation))
    );
    // Written in names, with its PlayOK tags, it reads back as names.
    let names = read(&imported.record.to_string(), nine());
    assert_eq!(names.format, Format::Record);
    assert_eq!(names.record.game, imported.record.game);
    let for_sanmill = export::sanmill_record(&imported.record).unwrap();
    assert!(!for_sanmill.contains("PlayOK"), "{for_sanmill}");
    assert!(
        for_sanmill.contains("[TimeControl \"300\"]"),
        "{for_sanmill}"
    );
    // Without the site tag, numbers alone tell the format.
    let bare = read("1. 5 14 2. 20 11 3. 2 4 4. 8 x11 6 *", nine());
    assert_eq!(bare.format, Format::PlayOk);
    assert_eq!(bare.record.game, game_a());
    let e = import::read_game("[Site \"PlayOK\"]\n\n1. 5 25", nine()).unwrap_err();
    assert!(e.to_string().contains("1 to 24"), "{e}");
}

#[test]
fn goldtoken_move_lists_are_read() {
    let text = "GoldToken Nine Men's Morris game 4711\n\n1\tPlace to d6\tPlace to f4\n2\tPlace to d2\tPlace to b4\n3\tPlace to d7\tPlace to b6\n4\tPlace to d5, take b4\tPlace to f6\nQuick Jump: 1 2 3 4\n";
    let imported = read(text, nine());
    assert_eq!(imported.format, Format::GoldToken);
    assert_plies(&imported, &GAME_A);
    // Moves written with an arrow, in Lasker Morris where a piece may move at once.
    let text = "1\tPlace to d6\tPlace to f4\n2\td6 -> d7\tf4 -> f6\n";
    let imported = read(text, Variant::Lasker.rules());
    assert_plies(&imported, &["d6", "f4", "d6-d7", "f4-f6"]);
}

#[test]
fn early_sanmill_engine_coordinates_are_read_or_refused_with_the_reason() {
    // (ring, point): ring 1 inner, 2 middle, 3 outer; points clockwise from the top middle.
    let text = "(2,1) (2,3) (2,5) (2,7) (3,1) (2,8) (1,1) -(2,7) (2,2)";
    let imported = read(text, nine());
    assert_eq!(imported.format, Format::SanmillCoordinates);
    assert_plies(&imported, &GAME_A);
    let moves = "(2,1) (2,3) (2,1)->(3,1)";
    let imported = read(moves, Variant::Lasker.rules());
    assert_plies(&imported, &["d6", "f4", "d6-d7"]);
    // The record reader refuses them rather than skip them as a variation.
    let e = GameRecord::parse("(2,1) (2,3)").unwrap_err();
    assert!(e.to_string().contains("engine coordinates"), "{e}");
    for bad in ["(2,1) (4,1)", "(2,1) (2,9)", "(2,1) d6"] {
        let e = import::read_game(bad, nine()).unwrap_err();
        assert!(e.to_string().contains("engine coordinate"), "{bad}: {e}");
    }
}

const MALOM_AFTER_D6_F4: &str = "-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,0,0,1,1,1,1,1,False,2,2";

#[test]
fn malom_positions_are_read_and_written() {
    let expected = game_from(Position::start(Variant::Nine), &["d6", "f4"]);
    let pos = malom::read(nine(), MALOM_AFTER_D6_F4).unwrap();
    assert_eq!(&pos, expected.position());
    assert_eq!(malom::write(&pos).unwrap(), MALOM_AFTER_D6_F4);
    let imported = read(MALOM_AFTER_D6_F4, nine());
    assert_eq!(imported.format, Format::Malom);
    assert_eq!(imported.record.game.start(), expected.position());
    // A removal owed: White has closed d5-d6-d7 (after 1. d6 f4 2. d7 b4 3. d5).
    let owed = "-1,-1,0,-1,-1,-1,-1,-1,1,-1,0,-1,1,-1,-1,-1,-1,-1,0,-1,-1,-1,-1,-1,0,0,0,1,3,2,3,2,True,4,4";
    let e = malom::read(nine(), owed).unwrap_err();
    assert!(e.to_string().contains("owes a removal"), "{e}");
    let pending = malom::read_pending(nine(), owed).unwrap();
    let after = pending.remove_text("xf4").unwrap();
    let played = game_from(
        Position::start(Variant::Nine),
        &["d6", "f4", "d7", "b4", "d5xf4"],
    );
    assert_eq!(&after, played.position());
    let wrong = MALOM_AFTER_D6_F4.replacen(",1,1,1,1,False", ",1,1,2,1,False", 1);
    assert!(
        malom::read(nine(), &wrong)
            .unwrap_err()
            .to_string()
            .contains("white on board")
    );
}

#[test]
fn position_strings_import_as_games_that_start_there() {
    let after = game_from(Position::start(Variant::Nine), &["d6", "f4"]);
    for text in [
        "********/O*@*****/******** w p p 1 8 1 8 0 0 -1 -1 -1 -1 0 0 2 ids:nodes",
        ".../.W./.../....B./.../.../... w 8 8 0 2",
    ] {
        let imported = read(text, nine());
        assert_eq!(imported.format, Format::Position, "{text}");
        assert_eq!(imported.record.game.start(), after.position());
    }
}

#[test]
fn a_record_from_a_position_owing_a_removal_starts_after_it() {
    let text = "[SetUp \"1\"]\n[FEN \"O*******/O*@***@*/O******* w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3 ids:nodes\"]\n\n3. xf4 f6 *";
    let imported = read(text, nine());
    let played = game_from(
        Position::start(Variant::Nine),
        &["d6", "f4", "d7", "b4", "d5xf4"],
    );
    assert_eq!(imported.record.game.start(), played.position());
    assert_plies(&imported, &["f6"]);
    assert_eq!(
        imported.warnings,
        [ImportWarning::StartsAfterRemoval {
            removal: "xf4".into()
        }]
    );
    let e = import::read_game(&text.replace("3. xf4 ", ""), nine()).unwrap_err();
    assert!(e.to_string().contains("does not begin with it"), "{e}");
}

#[test]
fn a_ply_legal_only_under_another_rule_option_is_kept_under_it_and_said() {
    // d7 closes a mill; a1 stands in one while b2 does not.
    let text = "[FEN \"W.W/.W./.W./....../.../B../BBB w 5 5 0 5\"]\n\n5. d7xa1 *";
    let imported = read(text, nine());
    assert_plies(&imported, &["d7xa1"]);
    assert_eq!(
        imported.record.game.start().rules().mill_removal,
        MillRemoval::Always
    );
    assert_eq!(
        imported.warnings,
        [ImportWarning::RuleChanged {
            ply: 1,
            change: RuleChange::RemoveFromMills
        }]
    );
    // Lasker as Sanmill plays it forbids this flight with a piece in hand; the rule book
    // allows it.
    let text = "[Variant \"lasker_morris\"]\n[FlyEmptyHand \"true\"]\n[FEN \"W../B.B/.../....../.../.../..W w 1 3 0 8\"]\n\n8. a7-e3 *";
    let imported = read(text, nine());
    assert_plies(&imported, &["a7-e3"]);
    assert_eq!(
        imported.warnings,
        [ImportWarning::RuleChanged {
            ply: 1,
            change: RuleChange::FlyEmptyHand(false)
        }]
    );
    // A ply legal under no option is an error that says where.
    let e = import::read_game("1. d6 d6", nine()).unwrap_err();
    assert!(e.error.is_illegal(), "{e}");
    assert!(matches!(
        e.error.kind,
        RecordErrorKind::Ply { number: 2, .. }
    ));
}

/// Black to move, with a4 blocking White.
const BLOCKING: &str = ".../BBW/BWB/.WWWWB/BWB/WBW/... b 0 1 0 9";

#[test]
fn a_record_playing_on_after_the_end_stops_there_and_says_so() {
    let text = format!("[FEN \"{BLOCKING}\"]\n\n9... a4 10. b4-a4 *");
    let imported = read(&text, nine());
    assert_plies(&imported, &["a4"]);
    assert_eq!(
        imported.warnings,
        [ImportWarning::StoppedAtEnd {
            ply: 2,
            outcome: Outcome::win(Color::Black, Reason::Blocked),
            dropped: 1
        }]
    );
}

#[test]
fn a_written_result_the_rules_do_not_give_is_kept_out_and_said() {
    let text = format!("[FEN \"{BLOCKING}\"]\n[Result \"1-0\"]\n\n9... a4 1-0");
    let imported = read(&text, nine());
    let rules_end = Outcome::win(Color::Black, Reason::Blocked);
    assert_eq!(imported.record.game.outcome(), Some(rules_end));
    assert_eq!(
        imported.warnings,
        [ImportWarning::ResultDisagrees {
            written: "1-0",
            outcome: rules_end
        }]
    );
    assert!(imported.warnings[0].to_string().contains("1-0"));
}

#[test]
fn files_with_several_games_read_each() {
    let text = format!(
        "{}\r\n\r\n{}\n\n[Event \"third\"]\n\n1. d6 d6 *\n",
        SANMILL_EXPORTS[0], SANMILL_EXPORTS[1]
    );
    let games = import::read_games(&text, nine());
    assert_eq!(games.len(), 3);
    for game in &games[..2] {
        assert_eq!(game.as_ref().unwrap().record.game, game_a());
    }
    let e = games[2].as_ref().unwrap_err();
    assert_eq!(e.game, 3);
    let line = text
        .lines()
        .position(|l| l.starts_with("1. d6 d6"))
        .unwrap()
        + 1;
    assert_eq!(e.error.at.line, line, "{e}");
    // Move lists without tags, each ended by its result.
    let bare = "1. d6 f4 1-0\n1. d2 b4 2. d7 *\n";
    let games = import::read_games(bare, nine());
    assert_eq!(games.len(), 2);
    assert_plies(games[1].as_ref().unwrap(), &["d2", "b4", "d7"]);
    // A file of positions, one a line.
    let positions = format!("{MALOM_AFTER_D6_F4}\n{MALOM_AFTER_D6_F4}\n");
    assert_eq!(import::read_games(&positions, nine()).len(), 2);
}

/// A game through every phase: placing, a mill in the placing phase, moving.
fn long_game(variant: Variant) -> Game {
    let mut game = Game::new(Position::start(variant));
    let mut seed = 7u64;
    while game.plies().len() < 60 {
        let plies = game.legal_plies();
        if plies.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let ply = plies[(seed >> 33) as usize % plies.len()];
        game.play(ply).unwrap();
    }
    game
}

#[test]
fn every_format_morris_writes_reads_back_as_the_same_game() {
    for variant in [Variant::Nine, Variant::Twelve, Variant::Lasker] {
        let game = long_game(variant);
        let record = GameRecord::new(game.clone());
        let texts = [
            (record.to_string(), Format::Record),
            (export::sanmill_record(&record).unwrap(), Format::Record),
            (export::playok_record(&record).unwrap(), Format::PlayOk),
        ];
        for (text, format) in texts {
            let back = read(&text, Variant::Nine.rules());
            assert_eq!(back.format, format, "{text}");
            assert_eq!(back.record.game, game, "{text}");
            assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        }
    }
    // A set-up game: Sanmill's record carries the start in its FEN tag.
    let start = Position::from_fen(nine(), BLOCKING).unwrap();
    let game = game_from(start, &["a4"]);
    let record = GameRecord::new(game.clone());
    let text = export::sanmill_record(&record).unwrap();
    assert!(
        text.contains("[FEN \"O@O@O@O@/@OOO@OO@/**@***** b p p 9 0 8 1 "),
        "{text}"
    );
    assert!(text.contains("9... a4 0-1"), "{text}");
    assert_eq!(read(&text, nine()).record.game, game);
    assert!(export::playok_record(&record).is_err());
    // Positions in Sanmill's and Malom's strings.
    let pos = *game_a().position();
    assert_eq!(
        Position::from_fen(nine(), &sanmill::write(&pos).unwrap()),
        Ok(pos)
    );
    assert_eq!(malom::read(nine(), &malom::write(&pos).unwrap()), Ok(pos));
}
