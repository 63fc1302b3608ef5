//! Games against the computer, with the real engine: in the plain mode and in the full-screen
//! state machine, where the engine thinks on its own thread.

use morris_core::{Game, GameRecord, Position, Variant};
use morris_play::{App, Engine, Settings, Sides, draw, run_plain};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn settings(variant: Variant, sides: Sides) -> Settings {
    Settings {
        game: Game::new(Position::start(variant)),
        seats: sides.seats(),
        level: 1,
        seed: 11,
        engine: Some(Engine::builtin()),
    }
}

fn plain(settings: Settings, input: &str) -> String {
    let mut out = Vec::new();
    run_plain(settings, input.as_bytes(), &mut out, false).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_computer_plays_itself_to_the_end_in_every_small_variant() {
    for variant in [Variant::Three, Variant::Six] {
        let out = plain(settings(variant, Sides::None), "");
        let result = out
            .lines()
            .find(|l| l.starts_with("Result: "))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            !result.contains('*'),
            "{variant}: the game must end: {result}"
        );
        // The record at the end reads back as the same finished game.
        let record = &out[out.find("[Event").unwrap()..];
        let game = GameRecord::parse(record).unwrap().game;
        assert!(game.outcome().is_some(), "{record}");
        assert_eq!(game.plies().len(), out.matches(" plays ").count(), "{out}");
    }
}

#[test]
fn a_person_plays_the_computer_line_by_line() {
    let out = plain(
        settings(Variant::Nine, Sides::White),
        "d6\nundo\nhint\nd2\nresign\n",
    );
    assert!(
        out.contains("White: you. Black: computer (level 1)."),
        "{out}"
    );
    let replies = out.matches("Black plays ").count();
    assert_eq!(replies, 2, "{out}");
    assert!(out.contains("Took back 2 plies.\n"), "{out}");
    let hint = out.lines().find(|l| l.starts_with("Hint: ")).unwrap();
    assert!(hint.contains("(cp ") || hint.contains("(mate "), "{hint}");
    assert!(out.contains("Result: 0-1 (White resigned)."), "{out}");
}

#[test]
fn the_computer_plays_black_when_the_person_takes_black() {
    let out = plain(settings(Variant::Nine, Sides::Black), "quit\n");
    assert!(out.contains("White plays "), "{out}");
    assert!(out.contains("Black to place, move 1."), "{out}");
}

fn screen(app: &mut App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 40)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..40 {
        for x in 0..100 {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::from(code));
}

#[test]
fn the_screen_stays_live_while_the_computer_thinks_and_takes_its_reply() {
    let mut app = App::new(settings(Variant::Nine, Sides::White));
    for c in "d6".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter);
    app.tick();
    assert!(app.thinking().is_some());
    let shown = screen(&mut app);
    assert!(shown.contains("Black is thinking"), "{shown}");
    // Keys still work while it thinks: the help opens and closes.
    key(&mut app, KeyCode::Char('?'));
    assert!(screen(&mut app).contains("Press any key to close."));
    key(&mut app, KeyCode::Esc);
    app.wait();
    assert_eq!(app.game().plies().len(), 2);
    let shown = screen(&mut app);
    assert!(shown.contains("White to play: place a piece"), "{shown}");
    // A hint, then a take-back of both plies.
    key(&mut app, KeyCode::Char('h'));
    app.wait();
    let (message, _) = app.message().unwrap();
    assert!(message.starts_with("Hint: "), "{message}");
    key(&mut app, KeyCode::Char('u'));
    assert!(app.game().plies().is_empty());
    assert_eq!(app.message().unwrap().0, "Took back 2 plies");
}

#[test]
fn watching_the_computer_play_itself_paces_and_pauses() {
    let mut app = App::new(settings(Variant::Nine, Sides::None));
    app.tick();
    assert!(app.thinking().is_some(), "White starts at once");
    app.wait();
    assert_eq!(app.game().plies().len(), 1);
    app.tick();
    assert!(app.thinking().is_none(), "the next ply waits a moment");
    key(&mut app, KeyCode::Char('p'));
    assert!(app.paused());
    std::thread::sleep(std::time::Duration::from_millis(700));
    app.tick();
    assert!(app.thinking().is_none(), "paused");
    key(&mut app, KeyCode::Char('p'));
    app.tick();
    assert!(app.thinking().is_some());
    app.wait();
    assert_eq!(app.game().plies().len(), 2);
    // Taking back pauses the watch, so the position can be looked at.
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.game().plies().len(), 1);
    assert!(app.paused());
}
