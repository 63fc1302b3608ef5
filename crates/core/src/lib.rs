//! The rules of Nine Men's Morris and its family, exact and fast.
//!
//! Boards and variants are data ([`Board`], [`Variant`], [`Rules`]); a [`Position`] knows its
//! legal [`Ply`]s, plays them and tells when the game is over; a [`Game`] adds the draw rules
//! that need history. Points, plies, position strings and game records read and write the
//! notation of the rule book. Other programs' games and positions are read by [`import`]
//! (Sanmill, PlayOK, GoldToken, Malom) and written by [`export`], [`sanmill`] and [`malom`].
//!
//! ```
//! use morris_core::{perft, Game, Position, Variant};
//!
//! let start = Position::start(Variant::Nine);
//! assert_eq!(perft(&start, 2), 552);
//!
//! let mut game = Game::new(start);
//! for ply in ["d6", "f4", "d2", "b4", "d7", "b6", "d1"] {
//!     game.play_text(ply)?;
//! }
//! assert!(game.position().legal_plies().len() > 0);
//! # Ok::<_, morris_core::GameError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
mod board;
mod color;
pub mod export;
pub mod fen;
mod game;
pub mod import;
pub mod malom;
mod movetext;
mod outcome;
mod perft;
pub mod ply;
mod point;
mod position;
pub mod record;
pub mod sanmill;
mod setup;
pub mod value;
mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, BoardKind, MAX_MILLS, MAX_SYMMETRIES, Symmetry};
pub use color::{ByColor, Color, ParseColorError};
pub use fen::{FenError, ParseFenError, draw_board};
pub use game::{Game, GameError};
pub use outcome::{Outcome, Reason};
pub use perft::{divide, perft};
pub use ply::{MAX_REMOVALS, ParsePlyError, Ply, PlyText};
pub use point::{MAX_POINTS, ParseSquareError, Point, Square};
pub use position::{PlayError, PlyList, Position, TextPlyError};
pub use record::{GameRecord, RecordError};
pub use setup::{Setup, SetupError, SetupProblem};
pub use variant::{
    DoubleMill, FullBoard, MAX_PIECES, MillRemoval, OPTION_TAGS, ParseVariantError, Rules,
    RulesError, Variant,
};
