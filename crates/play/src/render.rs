//! The screen: the board on the left, the players and the moves on the right, the status, the
//! line to type on and the keys at the bottom.

use morris_core::{Color as Side, Game};
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, Prompt, Tone};
use crate::board_view::{Marks, WOOD, draw_board, piece_glyph, piece_style};
use crate::geometry::Geometry;
use crate::picker::Step;
use crate::setup::Seat;
use crate::thinker::Job;

/// The width of the panel beside the board.
const PANEL: u16 = 34;
/// Rows above and below the board: the title, and the status, input and key lines.
const CHROME: u16 = 4;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The smallest terminal (columns, rows) the app needs for a board of this grid size.
pub fn min_terminal(size: u8) -> (u16, u16) {
    let (w, h) = Geometry::min_size(size);
    (w + PANEL + 1, h.max(14) + CHROME)
}

/// Draws the app into a frame.
pub fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let area = frame.area();
    let pos = *app.game().position();
    let (min_w, min_h) = min_terminal(pos.board().size());
    if area.width < min_w || area.height < min_h {
        app.geometry = None;
        let text = vec![
            Line::from("The terminal is too small.".bold()),
            Line::from(format!(
                "It is {}×{}; morris needs at least {min_w}×{min_h}.",
                area.width, area.height
            )),
            Line::from("Enlarge the window, or press q to quit."),
        ];
        let para = Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true });
        let y = area.height.saturating_sub(3) / 2;
        frame.render_widget(
            para,
            Rect::new(area.x, area.y + y, area.width, area.height - y),
        );
        return;
    }
    let [title, middle, status, input, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [mut board_area, mut panel] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(PANEL)]).areas(middle);
    let [mut title, mut status, mut input, mut keys] = [title, status, input, keys];
    // On a wide terminal the board and the panel stand together in the middle.
    if let Some(geo) = Geometry::fit(pos.board(), board_area) {
        let used = (geo.frame().width + 4).min(board_area.width);
        let spare = board_area.width.saturating_sub(used) / 2;
        board_area = Rect::new(middle.x + spare, middle.y, used, middle.height);
        panel = Rect::new(board_area.right(), middle.y, PANEL, middle.height);
        for line in [&mut title, &mut status, &mut input, &mut keys] {
            *line = Rect::new(board_area.x, line.y, used + PANEL, 1);
        }
    }

    draw_title(frame, app, title);
    let geo = Geometry::fit(pos.board(), board_area);
    app.geometry = geo;
    if let Some(geo) = geo {
        let marks = marks(app);
        draw_board(frame.buffer_mut(), &geo, &pos, &marks);
    }
    draw_panel(frame, app, panel);
    draw_status(frame, app, status);
    draw_input(frame, app, input);
    draw_keys(frame, app, keys);
    if app.help_shown() {
        draw_help(frame, area);
    }
}

fn marks(app: &App) -> Marks {
    let step = app.step();
    Marks {
        cursor: app.human_to_move().then_some(app.cursor()),
        targets: app.targets(),
        selected: step.from(),
        removing: match step {
            Step::Remove { chosen, .. } => chosen,
            _ => morris_core::Bitboard::EMPTY,
        },
        last: app.game().plies().last().copied(),
        hint: app.hint().map(|h| h.0),
        pending: match step {
            Step::Remove { base, .. } => Some(base),
            _ => None,
        },
    }
}

fn piece(side: Side) -> Span<'static> {
    Span::styled(piece_glyph(side), piece_style(side))
}

fn draw_title(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let variant = app.game().position().rules().variant;
    let settings = app.settings();
    let line = Line::from(vec![
        Span::styled(
            format!(" {} ", variant.title()),
            Style::new().fg(Color::Indexed(16)).bg(WOOD).bold(),
        ),
        Span::raw("  "),
        piece(Side::White),
        Span::raw(format!(" White: {}   ", settings.player_name(Side::White))),
        piece(Side::Black),
        Span::raw(format!(" Black: {}", settings.player_name(Side::Black))),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// What the side to move does next, in words.
fn task(app: &App) -> String {
    let pos = app.game().position();
    let side = pos.turn().title();
    match app.step() {
        Step::Remove { .. } => format!("{side}: remove a {} piece", (!pos.turn()).title()),
        Step::From(from) => format!(
            "{side}: move {} to a marked point",
            pos.board().square(from)
        ),
        Step::Start => {
            let places = pos.in_hand(pos.turn()) > 0;
            let moves = pos.rules().place_or_move || !places;
            let what = match (places, moves) {
                (true, true) => "place a piece or choose one to move",
                (true, false) => "place a piece",
                _ if pos.can_fly(pos.turn()) => "choose a piece to fly",
                _ => "choose a piece to move",
            };
            format!("{side} to play: {what}")
        }
    }
}

fn side_lines(app: &App, side: Side) -> Vec<Line<'static>> {
    let pos = app.game().position();
    let turn = pos.turn() == side && app.game().outcome().is_none();
    let marker = if turn { "▶ " } else { "  " };
    let name = app.settings().player_name(side);
    let on_board = pos.pieces(side).count();
    let in_hand = pos.in_hand(side);
    let style = if turn {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    vec![
        Line::from(vec![
            Span::styled(marker, Style::new().fg(Color::Indexed(214)).bold()),
            piece(side),
            Span::styled(format!(" {}  ", side.title()), style),
            Span::styled(name, Style::new().fg(Color::Indexed(248))),
        ]),
        Line::from(vec![
            Span::raw("    "),
            Span::styled(
                piece_glyph(side).repeat(usize::from(in_hand)),
                piece_style(side),
            ),
            Span::raw(format!(
                "{}{in_hand} in hand",
                if in_hand > 0 { " " } else { "" }
            )),
        ]),
        Line::from(format!(
            "    {on_board} on board{}",
            if pos.can_fly(side) && in_hand == 0 {
                ", flying"
            } else {
                ""
            }
        )),
    ]
}

/// The moves as rows of a numbered list: `12. d6xa1   f2-f4`.
pub fn move_rows(game: &Game) -> Vec<String> {
    let board = game.start().board();
    let mut rows: Vec<String> = Vec::new();
    for (i, (pos, ply)) in game.positions().iter().zip(game.plies()).enumerate() {
        let text = ply.display(board).to_string();
        match pos.turn() {
            Side::White => rows.push(format!("{:>3}. {text:<11}", pos.move_number())),
            Side::Black if i > 0 => {
                if let Some(row) = rows.last_mut() {
                    row.push_str(&text);
                }
            }
            Side::Black => rows.push(format!("{:>3}. {:<11}{text}", pos.move_number(), "…")),
        }
    }
    rows
}

fn draw_panel(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let block = Block::new()
        .borders(Borders::LEFT)
        .border_type(BorderType::Plain)
        .border_style(Style::new().fg(Color::Indexed(240)));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = side_lines(app, Side::White);
    lines.extend(side_lines(app, Side::Black));
    lines.push(Line::default());
    let game = app.game();
    if let Some(outcome) = game.outcome() {
        lines.push(Line::from(Span::styled(
            format!(" {}  Game over", outcome.result()),
            Style::new().fg(Color::Indexed(214)).bold(),
        )));
        for part in wrap(&outcome.to_string(), inner.width.saturating_sub(2).into()) {
            lines.push(Line::from(format!(" {part}")));
        }
        lines.push(Line::default());
    } else if let Some(thinking) = app.thinking() {
        let spin = SPINNER[(thinking.elapsed().as_millis() / 100) as usize % SPINNER.len()];
        let who = game.position().turn().title();
        let what = match thinking.job() {
            Job::Move => format!("{who} is thinking"),
            Job::Hint => "Looking for a hint".into(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!(" {spin} "), Style::new().fg(Color::Indexed(214))),
            Span::raw(format!("{what}… {:.1} s", thinking.elapsed().as_secs_f32())),
        ]));
        lines.push(Line::default());
    } else if app.human_to_move() {
        for part in wrap(&task(app), inner.width.saturating_sub(2).into()) {
            lines.push(Line::from(format!(" {part}")).bold());
        }
        lines.push(Line::default());
    } else {
        let who = game.position().turn().title();
        let why = if app.paused() {
            "paused: press p"
        } else {
            "to play"
        };
        lines.push(Line::from(format!(
            " {who} ({}) {why}",
            match app.settings().seats.get(game.position().turn()) {
                Seat::Computer => "computer",
                Seat::Human => "player",
            }
        )));
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled(
        " Moves",
        Style::new().fg(Color::Indexed(244)).bold(),
    )));
    let head = lines.len() as u16;
    let room = inner.height.saturating_sub(head) as usize;
    let rows = move_rows(game);
    let skip = rows.len().saturating_sub(room);
    for row in &rows[skip..] {
        lines.push(Line::from(format!(" {row}")));
    }
    if rows.is_empty() {
        lines.push(Line::from("   no moves yet").fg(Color::Indexed(244)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Breaks text into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn draw_status(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let line = match app.message() {
        Some((text, Tone::Error)) => Line::from(Span::styled(
            format!(" ✗ {text}"),
            Style::new().fg(Color::Indexed(203)).bold(),
        )),
        Some((text, Tone::Info)) => Line::from(format!(" {text}")),
        None => Line::from(format!(" {}", status_hint(app))),
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// What the status line says when there is no message: how to go on.
fn status_hint(app: &App) -> String {
    if app.game().outcome().is_some() {
        return "Press n for a new game, u to take back, s to save".into();
    }
    if app.human_to_move() {
        return "Use the arrows and Enter, click, or type a ply such as d6 or f2-f4".into();
    }
    String::new()
}

fn draw_input(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let (prompt, text) = app.input();
    let label = match prompt {
        Prompt::Ply => " Ply: ",
        Prompt::Save => " Save to: ",
        Prompt::Load => " Load from: ",
    };
    let line = Line::from(vec![
        Span::styled(label, Style::new().fg(Color::Indexed(244))),
        Span::styled(text.to_string(), Style::new().bold()),
        Span::styled("▏", Style::new().fg(Color::Indexed(214))),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_keys(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let editing = app.input().0 != Prompt::Ply || !app.input().1.is_empty();
    // Each key with its rank: when the line is too narrow the highest ranks go first.
    let mut pairs: Vec<(&str, &str, u8)> = if editing {
        vec![
            ("Enter", "done", 0),
            ("Esc", "cancel", 0),
            ("Backspace", "erase", 1),
        ]
    } else {
        vec![
            ("←↑↓→", "move", 2),
            ("Enter", "choose", 1),
            ("Tab", "next", 4),
            ("Esc", "back", 3),
            ("u", "undo", 1),
            ("h", "hint", 2),
            ("n", "new", 3),
            ("s", "save", 4),
            ("l", "load", 4),
            ("?", "help", 0),
            ("q", "quit", 0),
        ]
    };
    let watching = !editing
        && [Side::White, Side::Black]
            .iter()
            .all(|&c| *app.settings().seats.get(c) == Seat::Computer);
    if watching {
        pairs.retain(|p| !matches!(p.1, "move" | "choose" | "next" | "back" | "hint"));
        pairs.insert(0, ("p", "pause", 0));
    }
    let width = |pairs: &[(&str, &str, u8)]| -> usize {
        1 + pairs
            .iter()
            .map(|(k, w, _)| k.chars().count() + w.chars().count() + 3)
            .sum::<usize>()
    };
    while width(&pairs) > usize::from(area.width) {
        let Some(worst) = pairs.iter().map(|p| p.2).max().filter(|&r| r > 0) else {
            break;
        };
        if let Some(i) = pairs.iter().rposition(|p| p.2 == worst) {
            pairs.remove(i);
        }
    }
    let mut spans = vec![Span::raw(" ")];
    for (key, what, _) in pairs {
        spans.push(Span::styled(
            key,
            Style::new().fg(Color::Indexed(16)).bg(Color::Indexed(250)),
        ));
        spans.push(Span::styled(
            format!(" {what}  "),
            Style::new().fg(Color::Indexed(248)),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

const HELP: &[&str] = &[
    "Play a ply with the arrow keys and Enter (or Space),",
    "by clicking the points, or by typing it and Enter:",
    "  d6  places a piece on d6",
    "  f2-f4  moves the piece on f2 to f4",
    "  f2-f4xd5  moves it and removes the piece on d5",
    "A ply that closes a mill asks which piece to remove.",
    "A point typed alone picks up, drops or removes, as a click.",
    "",
    "Marks: [ ] cursor, • where a piece can go,",
    "  ○ White, ● Black, × just removed, ◌ just left.",
    "",
    "Tab, Shift-Tab  jump to the next or previous marked point",
    "Esc or right click  one step back",
    "u  take back (your last ply and the reply)",
    "h  hint         n  new game      r  resign",
    "s  save game    l  load game     p  pause the computer",
    "q or Ctrl-C  quit",
    "",
    "Press any key to close.",
];

fn draw_help(frame: &mut Frame<'_>, area: Rect) {
    let width =
        (HELP.iter().map(|l| l.chars().count()).max().unwrap_or(40) as u16 + 4).min(area.width);
    let height = (HELP.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" Help ")
        .title_alignment(Alignment::Center);
    let text: Vec<Line<'_>> = HELP.iter().map(|l| Line::from(format!(" {l}"))).collect();
    frame.render_widget(Paragraph::new(text).block(block), rect);
}
