//! The full-screen game without a terminal: key sequences and clicks drive the state machine,
//! and the buffer of ratatui's test backend is checked for the board and its highlights.

use morris_core::{Game, Position, Variant};
use morris_play::{App, Settings, Sides, Step, TARGET, Tone, draw, min_terminal};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

fn app(variant: Variant) -> App {
    App::new(Settings {
        game: Game::new(Position::start(variant)),
        seats: Sides::Both.seats(),
        level: 1,
        seed: 1,
        engine: None,
    })
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '<' => KeyCode::Left,
            '>' => KeyCode::Right,
            '^' => KeyCode::Up,
            'v' => KeyCode::Down,
            '!' => KeyCode::Esc,
            c => KeyCode::Char(c),
        };
        app.on_key(KeyEvent::from(code));
    }
}

fn screen(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        for x in 0..area.width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn plies(app: &App) -> Vec<String> {
    app.game().ply_texts()
}

/// The screen cell of a point, where the app last drew the board.
fn cell(app: &App, name: &str) -> (u16, u16) {
    let board = app.game().position().board();
    let geo = app.geometry().expect("the board is drawn");
    geo.cell(board.square(board.point(name).unwrap()))
}

#[test]
fn places_by_typing_and_by_arrows_and_enter() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "d6\n");
    assert_eq!(plies(&app), ["d6"]);
    // The cursor stays on d6: up is d7, then right is g7.
    keys(&mut app, "^>\n");
    assert_eq!(plies(&app), ["d6", "g7"]);
    keys(&mut app, "v\n");
    assert_eq!(plies(&app), ["d6", "g7", "g4"]);
    // Enter again on g4, which is taken now: an error, and nothing played.
    keys(&mut app, "\n");
    assert_eq!(plies(&app), ["d6", "g7", "g4"]);
    assert_eq!(app.message().map(|m| m.1), Some(Tone::Error));
}

#[test]
fn a_mill_asks_for_the_removal_and_the_board_shows_it() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "a1\ng7\na4\ng1\n");
    keys(&mut app, "a7\n");
    assert!(matches!(app.step(), Step::Remove { .. }));
    let buffer = screen(&mut app, 100, 40);
    let screen_text = text(&buffer);
    assert!(
        screen_text.contains("White: remove a Black piece"),
        "{screen_text}"
    );
    // The pending piece is drawn on a7, the removable pieces are tinted.
    let (x, y) = cell(&app, "a7");
    assert_eq!(buffer[(x, y)].symbol(), "○");
    let (gx, gy) = cell(&app, "g7");
    assert_eq!(buffer[(gx, gy)].symbol(), "●");
    assert_ne!(buffer[(gx, gy)].bg, buffer[(x, y)].bg);
    // Removing by arrows: a7 → d7 → g7, Enter.
    keys(&mut app, ">>\n");
    assert_eq!(plies(&app), ["a1", "g7", "a4", "g1", "a7xg7"]);
    let screen_text = text(&screen(&mut app, 100, 40));
    assert!(screen_text.contains("3. a7xg7"), "{screen_text}");
}

#[test]
fn a_typed_ply_without_its_removal_goes_on_to_the_removal() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "a1\ng7\na4\ng1\na7\n");
    assert!(matches!(app.step(), Step::Remove { .. }));
    keys(&mut app, "!");
    assert_eq!(app.step(), Step::Start);
    keys(&mut app, "a7xg1\n");
    assert_eq!(plies(&app).last().unwrap(), "a7xg1");
}

#[test]
fn moves_a_piece_with_the_highlights_of_each_step() {
    let mut app = app(Variant::Three);
    keys(&mut app, "a1\nb2\nc1\nb1\nb3\nc3\n");
    assert_eq!(app.game().position().in_hand(morris_core::Color::White), 0);
    // White to move: the pieces that can move are the targets.
    let board = app.game().position().board();
    let names = |set: morris_core::Bitboard| -> Vec<String> {
        set.into_iter()
            .map(|p| board.square(p).to_string())
            .collect()
    };
    assert_eq!(names(app.targets()), ["b3", "a1", "c1"]);
    keys(&mut app, "c2\n");
    assert_eq!(
        app.message().map(|m| m.1),
        Some(Tone::Error),
        "no piece in hand"
    );
    let _ = screen(&mut app, 100, 30);
    let (x, y) = cell(&app, "c1");
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.step(), Step::From(board.point("c1").unwrap()));
    assert_eq!(names(app.targets()), ["c2"]);
    let buffer = screen(&mut app, 100, 30);
    let (tx, ty) = cell(&app, "c2");
    assert_eq!(buffer[(tx, ty)].symbol(), TARGET);
    // The cursor brackets stand around c1.
    let row: String = (0..100)
        .map(|x| buffer[(x, y)].symbol().to_string())
        .collect();
    assert!(row.contains('[') && row.contains(']'), "{row}");
    keys(&mut app, "c1-c2\n");
    assert_eq!(plies(&app).last().unwrap(), "c1-c2");
}

#[test]
fn clicks_choose_points() {
    let mut app = app(Variant::Nine);
    let _ = screen(&mut app, 100, 40);
    let (x, y) = cell(&app, "b2");
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x + 1,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(plies(&app), ["b2"]);
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(plies(&app), ["b2"], "a click beside the board does nothing");
}

#[test]
fn takes_back_and_starts_again() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "d6\nf4\n");
    keys(&mut app, "u");
    assert_eq!(plies(&app), ["d6"]);
    keys(&mut app, "n");
    assert_eq!(plies(&app), ["d6"], "a new game waits for a second n");
    keys(&mut app, "n");
    assert!(plies(&app).is_empty());
}

#[test]
fn saves_and_loads_a_record() {
    let path = std::env::temp_dir().join(format!("morris-play-test-{}.txt", std::process::id()));
    let path = path.to_str().unwrap().to_string();
    let mut app = app(Variant::Six);
    keys(&mut app, "a1\ne5\n");
    keys(&mut app, "s");
    // The prompt starts with a default name: erase it and type ours.
    for _ in 0..40 {
        app.on_key(KeyEvent::from(KeyCode::Backspace));
    }
    keys(&mut app, &format!("{path}\n"));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("[Variant \"six\"]"), "{saved}");
    assert!(saved.contains("1. a1 e5 *"), "{saved}");
    let mut other = self::app(Variant::Nine);
    keys(&mut other, "l");
    for _ in 0..40 {
        other.on_key(KeyEvent::from(KeyCode::Backspace));
    }
    keys(&mut other, &format!("{path}\n"));
    assert_eq!(plies(&other), ["a1", "e5"]);
    assert_eq!(other.game().position().rules().variant, Variant::Six);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn draws_every_variant_with_its_labels_and_says_when_the_terminal_is_too_small() {
    for variant in Variant::ALL {
        let mut app = app(variant);
        let size = app.game().position().board().size();
        let (w, h) = min_terminal(size);
        let screen_text = text(&screen(&mut app, w, h));
        assert!(screen_text.contains(variant.title()), "{screen_text}");
        let last_file = char::from(b'a' + size - 1);
        assert!(screen_text.contains(last_file), "{screen_text}");
        assert!(
            !screen_text.contains("too small"),
            "{variant}: {screen_text}"
        );
        let screen_text = text(&screen(&mut app, w - 1, h));
        assert!(screen_text.contains("too small"), "{screen_text}");
        assert!(
            screen_text.contains(&format!("at least {w}×{h}")),
            "{screen_text}"
        );
    }
}

#[test]
fn ctrl_c_and_q_quit() {
    let mut app = app(Variant::Nine);
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.should_quit());
    let mut app = self::app(Variant::Nine);
    keys(&mut app, "q");
    assert!(app.should_quit());
}

#[test]
fn draws_at_every_size_without_going_outside_the_screen() {
    for variant in Variant::ALL {
        let mut app = app(variant);
        keys(&mut app, "?");
        for width in (1..=130).step_by(7) {
            for height in (1..=45).step_by(4) {
                let _ = screen(&mut app, width, height);
            }
        }
        keys(&mut app, "!");
        for width in (40..=130).step_by(3) {
            for height in (15..=45).step_by(2) {
                let _ = screen(&mut app, width, height);
            }
        }
    }
}

#[test]
fn keys_with_control_or_alt_are_not_commands() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "d6\n");
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    app.on_key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT));
    assert_eq!(plies(&app), ["d6"]);
    assert!(!app.should_quit());
    // While typing, Ctrl-U clears the line.
    keys(&mut app, "f4");
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert_eq!(app.input().1, "");
}

#[test]
fn the_move_list_numbers_plies_in_pairs_from_any_start() {
    let mut game = Game::new(
        Position::from_fen(
            Variant::Nine.rules(),
            ".../.W./.../....../.../.../... b 8 9 0 1",
        )
        .unwrap(),
    );
    for ply in ["f4", "d2", "b4"] {
        game.play_text(ply).unwrap();
    }
    assert_eq!(
        morris_play::move_rows(&game),
        ["  1. …          f4", "  2. d2         b4"]
    );
}

#[test]
fn tab_jumps_between_the_targets() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "a1\ng7\na4\ng1\na7\n");
    // Removing: the targets are g7 and g1, in the board's order.
    let board = app.game().position().board();
    let name = |app: &App| board.square(app.cursor()).to_string();
    app.on_key(KeyEvent::from(KeyCode::Tab));
    assert_eq!(name(&app), "g7");
    app.on_key(KeyEvent::from(KeyCode::Tab));
    assert_eq!(name(&app), "g1");
    app.on_key(KeyEvent::from(KeyCode::Tab));
    assert_eq!(name(&app), "g7");
    app.on_key(KeyEvent::from(KeyCode::BackTab));
    assert_eq!(name(&app), "g1");
    keys(&mut app, "\n");
    assert_eq!(plies(&app).last().unwrap(), "a7xg1");
}

#[test]
fn typed_points_build_a_ply_as_clicks_do() {
    let mut app = app(Variant::Three);
    keys(&mut app, "a1\nb2\nc1\nb1\nb3\nc3\n");
    // Moving: a point picks up the piece, another drops it.
    keys(&mut app, "c1\n");
    let board = app.game().position().board();
    assert_eq!(app.step(), Step::From(board.point("c1").unwrap()));
    keys(&mut app, "c2\n");
    assert_eq!(plies(&app).last().unwrap(), "c1-c2");
    // A point that cannot be played gets the rules' own reason.
    // (Black to move; a1 is White's.)
    keys(&mut app, "a1\n");
    let (message, tone) = app.message().unwrap();
    assert_eq!(tone, Tone::Error);
    assert!(message.starts_with("illegal ply a1"), "{message}");
}

#[test]
fn a_removal_can_be_typed_with_or_without_its_x() {
    for removal in ["g7", "xg7"] {
        let mut app = app(Variant::Nine);
        keys(&mut app, "a1\ng7\na4\ng1\na7\n");
        keys(&mut app, &format!("{removal}\n"));
        assert_eq!(plies(&app).last().unwrap(), "a7xg7");
    }
}

#[test]
fn function_keys_f1_to_f7_type_the_points_f1_to_f7() {
    let mut app = app(Variant::Nine);
    app.on_key(KeyEvent::from(KeyCode::F(4)));
    keys(&mut app, "\n");
    assert_eq!(plies(&app), ["f4"]);
    keys(&mut app, "f");
    app.on_key(KeyEvent::from(KeyCode::Char('2')));
    keys(&mut app, "\n");
    app.on_key(KeyEvent::from(KeyCode::F(4)));
    keys(&mut app, "-");
    app.on_key(KeyEvent::from(KeyCode::F(6)));
    assert_eq!(app.input().1, "f4-f6");
}

#[test]
fn the_last_ply_is_marked_where_it_left_arrived_and_removed() {
    let mut app = app(Variant::Nine);
    keys(&mut app, "a1\ng7\na4\ng1\na7xg7\n");
    let buffer = screen(&mut app, 100, 40);
    let (x, y) = cell(&app, "g7");
    assert_eq!(buffer[(x, y)].symbol(), morris_play::REMOVED);
    let (x, y) = cell(&app, "a7");
    assert!(
        buffer[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED)
    );
    // A move leaves its mark where it started (Three Men's Morris, moving phase).
    let mut app = self::app(Variant::Three);
    keys(&mut app, "a1\nb2\nc1\nb1\nb3\nc3\nc1-c2\n");
    let buffer = screen(&mut app, 100, 30);
    let (x, y) = cell(&app, "c1");
    assert_eq!(buffer[(x, y)].symbol(), morris_play::LEFT);
    let (x, y) = cell(&app, "c2");
    assert_eq!(buffer[(x, y)].symbol(), morris_play::WHITE_PIECE);
}
