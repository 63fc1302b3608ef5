//! Running the app in a real terminal: raw mode, the alternate screen, mouse capture, and the
//! terminal put back as it was on every way out (quit, Ctrl-C, an error, a panic).

use std::io::{self, stdout};
use std::time::Duration;

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

use crate::app::App;
use crate::render::draw;
use crate::setup::Settings;

/// How often the screen is redrawn while nothing happens, for the thinking indicator.
const FRAME: Duration = Duration::from_millis(80);

/// Puts the terminal back: leaves the alternate screen and raw mode, stops mouse capture.
fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Restores the terminal when dropped, so that an early return or an unwinding panic leaves the
/// terminal usable.
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
    // ratatui's own hook restores the screen before the panic is reported; this one also stops
    // the mouse capture.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    execute!(stdout(), EnableMouseCapture)?;
    let mut app = App::new(settings);
    while !app.should_quit() {
        app.tick();
        terminal.draw(|frame| draw(frame, &mut app))?;
        if event::poll(FRAME)? {
            // Take every event waiting, then draw once.
            loop {
                match event::read()? {
                    Event::Key(key) => app.on_key(key),
                    Event::Mouse(mouse) => app.on_mouse(mouse),
                    // The next draw fits the new size.
                    Event::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
                if app.should_quit() || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
    Ok(())
}
