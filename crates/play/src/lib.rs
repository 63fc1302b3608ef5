//! The terminal app of morris: a full-screen game for the console and a plain line mode for
//! scripts and screen readers.
//!
//! The full-screen game is a state machine ([`App`]) that takes keys, clicks and the
//! computer's answers, drawn by [`draw`] with ratatui; [`run`] puts it on a real terminal. The
//! plain mode ([`run_plain`]) plays the same game one line at a time. The computer thinks on
//! its own thread ([`Thinking`]) through an [`Engine`], so the screen stays live.
//!
//! ```
//! use morris_core::{Game, Position, Variant};
//! use morris_play::{run_plain, Settings, Sides};
//!
//! let settings = Settings {
//!     game: Game::new(Position::start(Variant::Three)),
//!     seats: Sides::Both.seats(),
//!     level: 1,
//!     seed: 0,
//!     engine: None,
//! };
//! let mut out = Vec::new();
//! run_plain(settings, "b2\na1\na3\nc3\nc1\n".as_bytes(), &mut out, false)?;
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("Result: 1-0 (White completed a line of three)."));
//! # Ok::<_, std::io::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod app;
mod board_view;
mod geometry;
mod picker;
mod plain;
mod record;
mod render;
mod setup;
mod thinker;
mod tui;

pub use app::{App, Prompt, Tone};
pub use board_view::{BLACK_PIECE, LEFT, REMOVED, TARGET, WHITE_PIECE};
pub use geometry::{Direction, Geometry};
pub use picker::{Pick, Step};
pub use plain::run_plain;
pub use record::{MAX_RECORD_BYTES, load, record, save};
pub use render::{draw, min_terminal, move_rows};
pub use setup::{Engine, MAX_LEVEL, MIN_LEVEL, ParseSidesError, Seat, Settings, Sides, take_back};
pub use thinker::{Answer, Job, Thinking};
pub use tui::run;
