//! The full-screen game as a state machine: keys and clicks in, a game and what to show out.
//!
//! Nothing here touches the terminal, so the whole app runs under test with ratatui's test
//! backend: [`App::on_key`] and [`App::on_mouse`] take events, [`App::tick`] takes the
//! computer's answers, and [`crate::render::draw`] shows the state.

use std::time::{Duration, Instant};

use morris_core::{Bitboard, Color, Game, Ply, PlyText, Point, Position, Square};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::geometry::{Direction, Geometry, step};
use crate::picker::{Pick, Step};
use crate::record;
use crate::setup::{Seat, Settings, take_back};
use crate::thinker::{Answer, Job, Thinking};

/// How long the computer waits before each ply when it plays itself, so that people can follow.
const WATCH_DELAY: Duration = Duration::from_millis(600);

/// What the line at the bottom is being used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompt {
    /// A ply typed in notation.
    Ply,
    /// The name of a file to save the game to.
    Save,
    /// The name of a file to load a game from.
    Load,
}

/// The kind of a message on the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// News: a ply played, a file saved, a hint.
    Info,
    /// Something did not work.
    Error,
}

/// An action that waits for the same key a second time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Confirm {
    New,
    Resign,
}

/// The state of the full-screen game.
#[derive(Debug)]
pub struct App {
    settings: Settings,
    game: Game,
    step: Step,
    cursor: Point,
    prompt: Prompt,
    input: String,
    message: Option<(String, Tone)>,
    thinking: Option<Thinking>,
    hint: Option<(Ply, String)>,
    confirm: Option<Confirm>,
    help: bool,
    paused: bool,
    quit: bool,
    not_before: Option<Instant>,
    file: String,
    /// Where the board was last drawn, for clicks.
    pub(crate) geometry: Option<Geometry>,
}

fn centre(pos: &Position) -> Point {
    let board = pos.board();
    board.points().nth(board.len() / 2).unwrap_or(Point::ALL[0])
}

impl App {
    /// A new app playing `settings.game`.
    pub fn new(settings: Settings) -> App {
        let game = settings.game.clone();
        let mut app = App {
            cursor: centre(game.position()),
            game,
            settings,
            step: Step::Start,
            prompt: Prompt::Ply,
            input: String::new(),
            message: None,
            thinking: None,
            hint: None,
            confirm: None,
            help: false,
            paused: false,
            quit: false,
            not_before: None,
            file: "morris-game.txt".into(),
            geometry: None,
        };
        if app.settings.engine.is_none()
            && Color::ALL
                .iter()
                .any(|&c| *app.settings.seats.get(c) == Seat::Computer)
        {
            app.say_error("no engine is built in: only people can play".into());
        }
        app
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The settings: seats, level, engine.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How far the ply being built has come.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The point under the cursor.
    pub fn cursor(&self) -> Point {
        self.cursor
    }

    /// What the bottom line is for, and what has been typed there.
    pub fn input(&self) -> (Prompt, &str) {
        (self.prompt, &self.input)
    }

    /// The message on the status line, if any.
    pub fn message(&self) -> Option<(&str, Tone)> {
        self.message.as_ref().map(|(m, t)| (m.as_str(), *t))
    }

    /// The computer's search, if one runs.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }

    /// The last hint, while it still applies.
    pub fn hint(&self) -> Option<&(Ply, String)> {
        self.hint.as_ref()
    }

    /// Where the board was last drawn, if it fitted.
    pub fn geometry(&self) -> Option<Geometry> {
        self.geometry
    }

    /// Whether the help is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether the computer is held from moving (when it plays itself, or after a failure).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the player has asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Whether a person is to move now (and the game goes on).
    pub fn human_to_move(&self) -> bool {
        self.game.outcome().is_none()
            && *self.settings.seats.get(self.game.position().turn()) == Seat::Human
    }

    /// The points the next choice can be, highlighted on the board.
    pub fn targets(&self) -> Bitboard {
        if !self.human_to_move() || self.thinking_about(Job::Move) {
            return Bitboard::EMPTY;
        }
        self.step.targets(&self.game.legal_plies())
    }

    fn thinking_about(&self, job: Job) -> bool {
        self.thinking.as_ref().is_some_and(|t| t.job() == job)
    }

    fn say(&mut self, text: String) {
        self.message = Some((text, Tone::Info));
    }

    fn say_error(&mut self, text: String) {
        self.message = Some((text, Tone::Error));
    }

    /// Takes a key.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c' | 'C' | 'd' | 'D')) {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        let confirm = self.confirm.take();
        if self.prompt != Prompt::Ply || !self.input.is_empty() {
            if ctrl && matches!(key.code, KeyCode::Char('u' | 'U')) {
                self.input.clear();
            } else {
                self.edit(key.code);
            }
            return;
        }
        if ctrl || key.modifiers.contains(KeyModifiers::ALT) {
            return;
        }
        match key.code {
            KeyCode::Up => self.move_cursor(Direction::Up),
            KeyCode::Down => self.move_cursor(Direction::Down),
            KeyCode::Left => self.move_cursor(Direction::Left),
            KeyCode::Right => self.move_cursor(Direction::Right),
            KeyCode::Tab => self.next_target(true),
            KeyCode::BackTab => self.next_target(false),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick(self.cursor),
            KeyCode::Esc | KeyCode::Backspace => {
                if self.step == Step::Start {
                    self.message = None;
                } else {
                    self.step.back();
                }
            }
            KeyCode::Char(c @ ('a'..='g' | 'A'..='G' | '1'..='7')) => {
                self.input.push(c.to_ascii_lowercase());
            }
            // Scripts that drive a terminal (tmux's send-keys) turn the text "f4" into the
            // function key F4: read F1 to F7 as the points f1 to f7.
            KeyCode::F(n @ 1..=7) => self.input.push_str(&format!("f{n}")),
            KeyCode::Char('u' | 'U') => self.undo(),
            KeyCode::Char('h' | 'H') => self.ask_hint(),
            KeyCode::Char('n' | 'N') => {
                if confirm == Some(Confirm::New) || self.game.plies().is_empty() {
                    self.new_game();
                } else {
                    self.confirm = Some(Confirm::New);
                    self.say("Press n again to start a new game".into());
                }
            }
            KeyCode::Char('r' | 'R') => self.resign(confirm == Some(Confirm::Resign)),
            KeyCode::Char('s' | 'S') => {
                self.prompt = Prompt::Save;
                self.input = self.file.clone();
            }
            KeyCode::Char('l' | 'L') => {
                self.prompt = Prompt::Load;
                self.input = self.file.clone();
            }
            KeyCode::Char('p' | 'P') => {
                self.paused = !self.paused;
                self.say(if self.paused { "Paused" } else { "Resumed" }.into());
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q' | 'Q') => self.quit = true,
            _ => {}
        }
    }

    fn edit(&mut self, code: KeyCode) {
        match code {
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                let prompt = std::mem::replace(&mut self.prompt, Prompt::Ply);
                match prompt {
                    // Typed while the computer thinks: kept for when it is the player's turn.
                    Prompt::Ply if self.game.outcome().is_none() && !self.human_to_move() => {
                        self.input = text;
                        self.say_error("Wait: it is the computer's turn".into());
                    }
                    Prompt::Ply => self.submit(&text),
                    Prompt::Save => self.save(text.trim()),
                    Prompt::Load => self.load(text.trim()),
                }
            }
            KeyCode::Esc => {
                self.input.clear();
                self.prompt = Prompt::Ply;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Char(c) if self.input.chars().count() < 200 => {
                self.input.push(c);
            }
            KeyCode::F(n @ 1..=7) if self.prompt == Prompt::Ply => {
                self.input.push_str(&format!("f{n}"));
            }
            _ => {}
        }
    }

    /// Takes a mouse event: a left click chooses a point, a right click goes a step back.
    pub fn on_mouse(&mut self, event: MouseEvent) {
        if self.help {
            if matches!(event.kind, MouseEventKind::Down(_)) {
                self.help = false;
            }
            return;
        }
        match event.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let board = self.game.position().board();
                if let Some(point) = self
                    .geometry
                    .and_then(|g| g.hit(board, event.column, event.row))
                {
                    self.cursor = point;
                    self.pick(point);
                }
            }
            MouseEventKind::Down(MouseButton::Right) => self.step.back(),
            _ => {}
        }
    }

    /// Moves the cursor to the next (or previous) point the next choice can be, in the
    /// board's order.
    fn next_target(&mut self, forward: bool) {
        let targets: Vec<Point> = self.targets().into_iter().collect();
        let here = self.cursor;
        let next = if forward {
            targets.iter().find(|p| **p > here).or(targets.first())
        } else {
            targets.iter().rev().find(|p| **p < here).or(targets.last())
        };
        if let Some(&p) = next {
            self.cursor = p;
        }
    }

    fn move_cursor(&mut self, direction: Direction) {
        self.cursor = step(self.game.position().board(), self.cursor, direction);
    }

    fn can_play(&mut self) -> bool {
        if let Some(outcome) = self.game.outcome() {
            self.say_error(format!(
                "The game is over: {outcome}. Press n for a new one"
            ));
            return false;
        }
        if !self.human_to_move() {
            self.say_error("Wait: it is the computer's turn".into());
            return false;
        }
        true
    }

    fn pick(&mut self, point: Point) {
        if !self.can_play() {
            return;
        }
        let legal = self.game.legal_plies();
        match self.step.pick(&legal, point) {
            Pick::Done(ply) => self.play(ply),
            Pick::Progress => {
                if let Step::Remove { .. } = self.step {
                    self.say("Mill! Choose a piece to remove".into());
                } else {
                    self.message = None;
                }
            }
            Pick::Ignored => {
                let name = self.game.position().board().square(point);
                let what = match self.step {
                    Step::Start => "nothing to play there",
                    Step::From(_) => "the piece cannot go there",
                    Step::Remove { .. } => "that piece cannot be removed",
                };
                self.say_error(format!("{name}: {what}"));
            }
        }
    }

    fn submit(&mut self, text: &str) {
        if text.trim().is_empty() || !self.can_play() {
            return;
        }
        // A single point typed goes on with the ply being built, as a click on it would: it
        // places, picks up or drops a piece, or removes one (written `g7` or `xg7`).
        let trimmed = text.trim();
        let point_text = match self.step {
            Step::Remove { .. } => trimmed.strip_prefix(['x', 'X']).unwrap_or(trimmed),
            _ => trimmed,
        };
        let board = self.game.position().board();
        if let Some(point) = point_text
            .parse::<Square>()
            .ok()
            .and_then(|sq| board.point_at(sq))
        {
            let mut step = self.step;
            if self.step != Step::Start
                || step.pick(&self.game.legal_plies(), point) != Pick::Ignored
            {
                self.cursor = point;
                return self.pick(point);
            }
        }
        let parsed: PlyText = match text.trim().parse() {
            Ok(parsed) => parsed,
            Err(e) => return self.say_error(e.to_string()),
        };
        let pos = *self.game.position();
        let board = pos.board();
        let legal = self.game.legal_plies();
        // A ply typed without its removal goes on to the removal, as if clicked.
        let to = board.point_at(parsed.to);
        let from = parsed.from.map(|sq| board.point_at(sq));
        let base = match (to, from) {
            (Some(to), None) => Some(Ply::Place {
                to,
                remove: Bitboard::EMPTY,
            }),
            (Some(to), Some(Some(from))) => Some(Ply::Move {
                from,
                to,
                remove: Bitboard::EMPTY,
            }),
            _ => None,
        };
        if let (Some(base), true) = (base, parsed.remove.is_empty()) {
            let mut step = Step::Start;
            if step.begin(&legal, base) == Pick::Progress {
                self.step = step;
                self.cursor = base.to();
                self.say("Mill! Choose a piece to remove".into());
                return;
            }
        }
        match pos.ply_from_text(&parsed) {
            Ok(ply) => self.play(ply),
            Err(e) => self.say_error(e.to_string()),
        }
    }

    fn play(&mut self, ply: Ply) {
        let board = self.game.position().board();
        let mover = self.game.position().turn();
        if let Err(e) = self.game.play(ply) {
            return self.say_error(e.to_string());
        }
        self.step = Step::Start;
        self.hint = None;
        self.cursor = ply.to();
        match self.game.outcome() {
            Some(outcome) => self.say(format!("{} — {outcome}", outcome.result())),
            None => self.say(format!("{} played {}", mover.title(), ply.display(board))),
        }
        if Color::ALL
            .iter()
            .all(|&c| *self.settings.seats.get(c) == Seat::Computer)
        {
            self.not_before = Some(Instant::now() + WATCH_DELAY);
        }
    }

    fn undo(&mut self) {
        self.thinking = None;
        self.step = Step::Start;
        self.hint = None;
        let seats = self.settings.seats;
        let anyone = Color::ALL.iter().any(|&c| *seats.get(c) == Seat::Human);
        let taken = take_back(&mut self.game, seats);
        if taken == 0 {
            return self.say_error("Nothing to take back".into());
        }
        if !anyone {
            self.paused = true;
        }
        if let Some(&last) = self.game.plies().last() {
            self.cursor = last.to();
        }
        self.say(match taken {
            1 => "Took back one ply".into(),
            n => format!("Took back {n} plies"),
        });
    }

    fn ask_hint(&mut self) {
        let Some(engine) = self.settings.engine.clone() else {
            return self.say_error("No engine is built in: no hints".into());
        };
        if !self.can_play() || self.thinking.is_some() {
            return;
        }
        let time = self.settings.hint_time();
        self.thinking = Some(Thinking::start(
            engine,
            Job::Hint,
            &self.game,
            self.settings.level,
            time,
            self.seed(),
        ));
        self.say("Looking for a hint…".into());
    }

    fn resign(&mut self, confirmed: bool) {
        if !self.can_play() {
            return;
        }
        if !confirmed {
            self.confirm = Some(Confirm::Resign);
            return self.say("Press r again to resign".into());
        }
        let turn = self.game.position().turn();
        self.game.resign(turn);
        self.step = Step::Start;
        if let Some(outcome) = self.game.outcome() {
            self.say(format!("{} — {outcome}", outcome.result()));
        }
    }

    fn reset(&mut self, game: Game) {
        self.thinking = None;
        self.step = Step::Start;
        self.hint = None;
        self.paused = false;
        self.not_before = None;
        self.cursor = centre(game.position());
        self.game = game;
    }

    fn new_game(&mut self) {
        self.reset(Game::new(*self.settings.game.start()));
        self.say("New game".into());
    }

    fn save(&mut self, path: &str) {
        if path.is_empty() {
            return;
        }
        self.file = path.to_string();
        match record::save(path, &self.game, &self.settings) {
            Ok(()) => self.say(format!("Saved to {path}")),
            Err(e) => self.say_error(e),
        }
    }

    fn load(&mut self, path: &str) {
        if path.is_empty() {
            return;
        }
        self.file = path.to_string();
        match record::load(path, *self.game.position().rules()) {
            Ok(game) => {
                let plies = game.plies().len();
                self.settings.game = game.clone();
                self.reset(game);
                self.say(format!("Loaded {path}: {plies} plies"));
            }
            Err(e) => self.say_error(e),
        }
    }

    fn seed(&self) -> u64 {
        self.settings
            .seed
            .wrapping_add(self.game.plies().len() as u64)
    }

    /// Takes the computer's answer if it has come, and starts it thinking when it is its turn.
    pub fn tick(&mut self) {
        if let Some(answer) = self.thinking.as_ref().and_then(Thinking::poll) {
            self.thinking = None;
            self.take(answer);
        }
        let turn = self.game.position().turn();
        let due = self.not_before.is_none_or(|t| Instant::now() >= t);
        let Some(engine) = self.settings.engine.clone() else {
            return;
        };
        if self.thinking.is_none()
            && !self.paused
            && due
            && self.game.outcome().is_none()
            && *self.settings.seats.get(turn) == Seat::Computer
        {
            self.step = Step::Start;
            self.thinking = Some(Thinking::start(
                engine,
                Job::Move,
                &self.game,
                self.settings.level,
                self.settings.movetime(),
                self.seed(),
            ));
        }
    }

    /// Waits for the computer's answer, if it is thinking, and takes it: for tests and for
    /// the plain mode.
    pub fn wait(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            let answer = thinking.wait();
            self.take(answer);
        }
    }

    fn take(&mut self, answer: Answer) {
        match answer {
            Answer::Move(Some(ply)) => {
                let before = self.game.plies().len();
                self.play(ply);
                // An answer that could not be played is not asked for again and again.
                if self.game.plies().len() == before {
                    self.paused = true;
                }
            }
            Answer::Move(None) => {
                self.paused = true;
                self.say_error("The computer found no ply; press p to let it try again".into());
            }
            Answer::Hint(Some((ply, score))) => {
                let board = self.game.position().board();
                self.cursor = ply.from().unwrap_or(ply.to());
                self.say(format!("Hint: {} ({score})", ply.display(board)));
                self.hint = Some((ply, score));
            }
            Answer::Hint(None) => self.say_error("No hint: there is no ply to play".into()),
        }
    }
}
