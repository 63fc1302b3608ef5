//! The plain mode: whole games piped in, transcripts checked.

use morris_core::{Game, Position, Variant};
use morris_play::{Settings, Sides, run_plain};

/// A game of Nine Men's Morris that White wins by taking Black below three pieces.
const NINE: &str = "e4 g1 c4 d1 b4 f2 a4xf2 f2 e5 d2 e3xd2 d2 d5 c3 c5xc3 c3 f6 g4 a4-a1 \
    f2-f4 a1-a4xf4 d1-a1 b4-b6 g1-d1 b6-b4xg4 d1-g1 b4-b6 g1-d1 b6-b4xc3 d1-g1 b4-b6 g1-d1 b6-b4xd2";
/// A game of Six Men's Morris that White wins the same way.
const SIX: &str = "d3 e1 b3 c1 a3 d2 d4 c2 c4 e3 b4xe3 e3 a3-a1 c2-b2 b3-a3 d2-c2 a3-a5 c2-d2 \
    b4-b3 d2-c2 b3-b4xe3 e1-e3 c4-c5 c1-e1 c5-c4xe3 e1-c1 c4-c5 c1-e1 c5-c4xb2";

fn play(variant: Variant, input: &str) -> String {
    play_from(variant, input.as_bytes())
}

/// Plays two people's game on any input.
fn play_from(variant: Variant, input: impl std::io::BufRead) -> String {
    let settings = Settings {
        game: Game::new(Position::start(variant)),
        seats: Sides::Both.seats(),
        level: 1,
        seed: 1,
        engine: None,
    };
    let mut out = Vec::new();
    run_plain(settings, input, &mut out, false).unwrap();
    String::from_utf8(out).unwrap()
}

fn lines(plies: &str) -> String {
    plies.split_whitespace().map(|p| format!("{p}\n")).collect()
}

#[test]
fn a_whole_game_ends_with_the_result_and_the_record() {
    let out = play(Variant::Nine, &lines(NINE));
    assert!(
        out.starts_with("Nine Men's Morris. White: player. Black: player.\n"),
        "{out}"
    );
    assert!(out.contains("White plays e4.\n"), "{out}");
    assert!(out.contains("Black plays g1.\n"), "{out}");
    assert!(out.contains("White plays b6-b4xd2.\n"), "{out}");
    // The board after every ply: 33 plies and the start.
    assert_eq!(
        out.matches("   a   b   c    d    e   f   g\n").count(),
        34,
        "{out}"
    );
    assert!(
        out.contains("\nWhite: f6 c5 d5 e5 a4 b4 c4 e4 e3\nBlack: a1 d1\n"),
        "{out}"
    );
    assert!(
        out.contains("\nResult: 1-0 (Black has fewer than three pieces).\n"),
        "{out}"
    );
    assert!(
        out.contains("[Result \"1-0\"]\n[Termination \"fewer_than_three\"]\n"),
        "{out}"
    );
    assert!(out.ends_with("17. b6-b4xd2 1-0\n"), "{out}");
    // Nothing is asked after the end.
    let tail = &out[out.find("White plays b6-b4xd2.").unwrap()..];
    assert!(!tail.contains(" to move"), "{tail}");
}

#[test]
fn other_variants_play_through() {
    let out = play(Variant::Six, &lines(SIX));
    assert!(out.starts_with("Six Men's Morris."), "{out}");
    assert!(
        out.contains("Result: 1-0 (Black has fewer than three pieces)."),
        "{out}"
    );
    assert!(out.contains("[Variant \"six\"]"), "{out}");
    assert!(out.contains("5  W--------.--------.\n"), "{out}");
}

#[test]
fn a_bad_ply_gets_one_error_line_and_the_question_again() {
    let out = play(Variant::Nine, "d6\nd6\nzz\n\nf4\nquit\n");
    let after = &out[out.find("White plays d6.").unwrap()..];
    let expected = "Black to place, move 1.\n\
        error: illegal ply d6: d6 is not empty\n\
        Black to place, move 1.\n\
        error: cannot read ply 'zz': expected a point name a1 to g7\n\
        Black to place, move 1.\n\
        Black to place, move 1.\n\
        Black plays f4.\n";
    assert!(after.contains(expected), "{after}");
    assert!(
        out.contains("Result: * (the game was left unfinished)."),
        "{out}"
    );
    assert!(out.ends_with("1. d6 f4 *\n"), "{out}");
}

#[test]
fn a_line_that_is_not_text_gets_one_error_line_and_play_goes_on() {
    let out = play_from(Variant::Three, &b"b2\n\xff\xfe a1\na1\n"[..]);
    assert_eq!(
        out.matches("error: the line is not UTF-8 text\n").count(),
        1,
        "{out}"
    );
    assert_eq!(out.matches("error:").count(), 1, "{out}");
    assert!(out.contains("Black plays a1.\n"), "{out}");
    assert!(out.ends_with("1. b2 a1 *\n"), "{out}");
}

#[test]
fn control_characters_of_a_line_are_escaped_in_its_answer() {
    let out = play(
        Variant::Three,
        "\u{1b}[2J\u{1b}]0;title\u{7}b2\nsave /nonexistent/\u{1b}[31m\n",
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    for line in errors {
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(line.contains("\\u{1b}"), "{line:?}");
    }
    assert!(!out.contains('\u{1b}'), "{out:?}");
}

#[test]
fn a_line_too_long_is_dropped_with_one_error_line() {
    // 200 MB of a single line, never held whole, then a ply.
    struct Endless(u64);
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = (buf.len() as u64).min(self.0) as usize;
            buf[..n].fill(b'x');
            self.0 -= n as u64;
            Ok(n)
        }
    }
    let input = std::io::Read::chain(Endless(200_000_000), &b"\nb2\n"[..]);
    let out = play_from(Variant::Three, std::io::BufReader::new(input));
    assert_eq!(
        out.matches("error: the line is longer than 4096 bytes\n")
            .count(),
        1,
        "{out}"
    );
    assert!(out.contains("White plays b2.\n"), "{out}");
    assert!(out.len() < 10_000, "the long line is not echoed");
}

#[test]
fn a_mill_without_its_removal_is_refused_with_the_reason() {
    let out = play(Variant::Nine, "a1\ng7\na4\ng1\na7\na7xg7\n");
    assert!(
        out.contains("error: illegal ply a7: it closes a mill: add the piece to remove"),
        "{out}"
    );
    assert!(out.contains("White plays a7xg7."), "{out}");
}

#[test]
fn commands_undo_new_moves_board_help_and_resign() {
    let out = play(
        Variant::Three,
        "b2\na1\nundo\nmoves\nhelp\nboard\nnew\nb2\nresign\n",
    );
    assert!(out.contains("Took back 1 ply.\n"), "{out}");
    assert!(
        out.contains("Legal plies: a3 b3 c3 a2 c2 a1 b1 c1.\n"),
        "{out}"
    );
    assert!(out.contains("Commands: moves (the legal plies)"), "{out}");
    assert!(out.contains("New game.\n"), "{out}");
    assert!(out.contains("Result: 1-0 (Black resigned).\n"), "{out}");
    assert!(out.ends_with("1. b2 1-0\n"), "{out}");
}

#[test]
fn saves_a_record_that_loads_back() {
    let path = std::env::temp_dir().join(format!("morris-plain-{}.txt", std::process::id()));
    let name = path.to_str().unwrap();
    let out = play(
        Variant::Nine,
        &format!("d6\nf4\nsave {name}\nsave\nsave /nonexistent-dir/x.txt\nquit\n"),
    );
    assert!(out.contains(&format!("Saved to {name}.\n")), "{out}");
    assert!(out.contains("error: save needs a file name\n"), "{out}");
    assert!(
        out.contains("error: cannot write /nonexistent-dir/x.txt"),
        "{out}"
    );
    let game = morris_play::load(name, Variant::Nine.rules()).unwrap();
    assert_eq!(game.ply_texts(), ["d6", "f4"]);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn without_an_engine_the_computer_side_is_refused() {
    let settings = Settings {
        game: Game::new(Position::start(Variant::Nine)),
        seats: Sides::White.seats(),
        level: 1,
        seed: 1,
        engine: None,
    };
    let mut out = Vec::new();
    run_plain(settings, "d6\n".as_bytes(), &mut out, false).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("error: no engine is built in"), "{out}");
}

#[test]
fn the_diagonal_boards_show_their_diagonals() {
    let out = play(Variant::Twelve, "a7\nquit\n");
    assert!(out.starts_with("Twelve Men's Morris."), "{out}");
    assert!(
        out.contains("7  W------------.------------.\n   | \\          |          / |\n"),
        "{out}"
    );
    assert!(
        out.contains("   | /          |          \\ |\n1  .------------.------------.\n"),
        "{out}"
    );
}

#[test]
fn loads_only_regular_files_within_the_bound() {
    let rules = Variant::Nine.rules();
    let dir = std::env::temp_dir().join(format!("morris-play-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in ["/dev/null", "/dev/zero", dir.to_str().unwrap()] {
        let e = morris_play::load(path, rules).unwrap_err();
        assert!(e.contains("not a regular file"), "{path}: {e}");
    }
    // A valid record padded with a comment beyond the bound.
    let big = dir.join("big.txt");
    let padding = "x".repeat(morris_play::MAX_RECORD_BYTES as usize);
    std::fs::write(&big, format!("1. d6 {{{padding}}} f4 *\n")).unwrap();
    let e = morris_play::load(big.to_str().unwrap(), rules).unwrap_err();
    assert!(e.contains("at most 1 MiB"), "{e}");
    // Just within the bound it reads.
    let padding = "x".repeat(morris_play::MAX_RECORD_BYTES as usize - 100);
    std::fs::write(&big, format!("1. d6 {{{padding}}} f4 *\n")).unwrap();
    let game = morris_play::load(big.to_str().unwrap(), rules).unwrap();
    assert_eq!(game.plies().len(), 2);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, b"1. d6 \xff *\n").unwrap();
    let e = morris_play::load(bad.to_str().unwrap(), rules).unwrap_err();
    assert!(e.contains("not UTF-8"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
