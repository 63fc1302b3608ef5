//! Perfect play for Nine Men's Morris and its family, computed by retrograde analysis.
//!
//! The state space is split into [`Sector`]s by the pieces on the board and in hand of the side
//! to move and of the other side; colours are normalised so that the side to move is "us".
//! Inside a sector, a [`SectorIndex`] numbers the classes of positions under the board's
//! symmetries. The solver works group by group in the order of a [`Plan`], writes one file per
//! sector ([`mod@file`]) and a [`Tablebase`] probes them. Values ignore the draw rules: each
//! position is won, lost or drawn, with the distance in plies to the end of the game.
//!
//! ```
//! use morris_core::Variant;
//! use morris_tablebase::{BuildOptions, Sector, Tablebase, build};
//! let dir = std::env::temp_dir().join(format!("morris-tb-doc-{}", std::process::id()));
//! let rules = Variant::Three.rules();
//! build(&BuildOptions::new(rules, &dir), &[Sector::moving(3, 3)], |_| {})?;
//! let tb = Tablebase::new(&dir, rules);
//! let stats = tb.table(Sector::moving(3, 3))?.file().stats();
//! assert!(stats.wins > 0 && stats.losses > 0);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<_, morris_tablebase::TbError>(())
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod arena;
mod background;
mod bits;
mod build;
mod engine_probe;
mod error;
pub mod file;
mod forward;
mod index;
mod moving;
mod placing;
mod progress;
mod sector;
mod solve;
mod tables;
mod unmove;
mod value;
mod verify;

pub use background::{BackgroundOptions, Gate, OnNews};
pub use build::{BuildOptions, GroupReport, build, memory_needed, names, sector_len};
pub use engine_probe::{EngineTables, NO_BACKGROUND_ENV};
pub use error::TbError;
pub use file::{SectorFile, SectorStats};
pub use index::SectorIndex;
pub use progress::{Progress, Silent};
pub use sector::{ParseSectorError, Plan, Sector};
pub use tables::{Table, Tablebase};
pub use value::{MAX_DISTANCE, Plies, Value, Wdl};
pub use verify::verify;
