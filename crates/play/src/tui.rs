//! Running the app in a real terminal: raw mode, the alternate screen, mouse capture, and the
//! terminal put back as it was on every way out (quit, Ctrl-C, an error, a panic).

use std::io::{self, IsTerminal, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::app::App;
use crate::render::draw;
use crate::setup::Settings;

/// How often the screen is redrawn while nothing happens, for the thinking indicator.
const FRAME: Duration = Duration::from_millis(80);

/// How long to wait for input when nothing else can change the screen.
const IDLE: Duration = Duration::from_millis(500);

/// Whether a signal (SIGINT, SIGTERM, SIGHUP) asked the app to stop.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Whether the terminal is in the app's modes and has to be put back.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether the app has taken the terminal (the watch on it starts then).
static STARTED: AtomicBool = AtomicBool::new(false);

/// How long the loop has to notice a signal before the process ends without it, and how often
/// the terminal is looked at.
const GRACE: Duration = Duration::from_millis(400);

/// Puts the terminal back once: raw mode off, mouse capture off, the cursor shown, the main
/// screen back. A second call does nothing, so that leaving the alternate screen twice does not
/// move the cursor over what was printed in between (a panic's message).
fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(
            stdout(),
            DisableMouseCapture,
            LeaveAlternateScreen,
            ratatui::crossterm::cursor::Show
        );
    }
}

/// Ends the process from another thread than the app's: puts the terminal back if the app
/// still holds it, says why on standard error and exits with status 2.
fn leave(why: &str) -> ! {
    restore();
    eprintln!("error: {why}");
    std::process::exit(2);
}

/// Restores the terminal when dropped: on an early return with an error, and while a panic
/// unwinds.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

/// Plays the full-screen game until the player quits.
///
/// # Errors
///
/// An I/O error of the terminal.
pub fn run(settings: Settings) -> io::Result<()> {
    // A panic of the app puts the terminal back before its message is printed. A panic of the
    // computer's thread leaves the screen alone (a message would tear it): the app tells that
    // the computer found nothing.
    let ui = std::thread::current().id();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == ui {
            restore();
            previous(info);
        } else if !ACTIVE.load(Ordering::SeqCst) {
            previous(info);
        }
    }));
    // In raw mode Ctrl-C arrives as a key; a signal from outside (kill, a closed tmux pane)
    // ends the loop so that the terminal is put back. When the terminal itself is gone, reading
    // it may never return, so the handler ends the process itself if the loop has not done so
    // a moment later. Another handler already set is kept.
    let _ = ctrlc::set_handler(|| {
        SIGNALLED.store(true, Ordering::SeqCst);
        std::thread::sleep(GRACE);
        leave("stopped by a signal");
    });
    // A terminal closed without a signal (its window gone) is noticed here.
    std::thread::spawn(|| {
        while ACTIVE.load(Ordering::SeqCst) || !STARTED.load(Ordering::SeqCst) {
            std::thread::sleep(GRACE);
            if STARTED.load(Ordering::SeqCst) && !io::stdout().is_terminal() {
                leave("the terminal was closed");
            }
        }
    });
    let _restore = Restore;
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    STARTED.store(true, Ordering::SeqCst);
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    let mut app = App::new(settings);
    while !app.should_quit() {
        if SIGNALLED.load(Ordering::SeqCst) {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "stopped by a signal",
            ));
        }
        app.tick();
        terminal.draw(|frame| draw(frame, &mut app))?;
        // Redraw often only while something moves on screen without input.
        let busy = app.thinking().is_some() || !app.human_to_move();
        if event::poll(if busy { FRAME } else { IDLE })? {
            // Take every event waiting, then draw once.
            loop {
                match event::read()? {
                    Event::Key(key) => app.on_key(key),
                    Event::Mouse(mouse) => app.on_mouse(mouse),
                    // The next draw fits the new size.
                    Event::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
                if app.should_quit()
                    || SIGNALLED.load(Ordering::SeqCst)
                    || !event::poll(Duration::ZERO)?
                {
                    break;
                }
            }
        }
    }
    Ok(())
}
