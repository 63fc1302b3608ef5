//! The one way the binary opens a folder of tablebase files for the engine.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use morris_engine::Probe;
use morris_tablebase::{BackgroundOptions, EngineTables, TbError};

use crate::failure::Failure;
use crate::paths;

/// How the missing tables of a folder are built once it is open.
#[derive(Debug)]
pub enum Building {
    /// The 3-3 sector of nine at once, the other small moving-phase tables in the background
    /// on first use.
    ThreeThreeFirst(BackgroundOptions),
    /// Every missing table of the options in the background on first use, the 3-3 sector of
    /// nine among them.
    Background(BackgroundOptions),
}

/// Opens the tables of a folder (created if missing).
///
/// # Errors
///
/// When the folder cannot be created.
pub fn open(dir: &Path, building: Building) -> Result<EngineTables, TbError> {
    match building {
        Building::ThreeThreeFirst(options) => Ok(EngineTables::open(dir)?.with_background(options)),
        Building::Background(options) => EngineTables::open_building(dir, options),
    }
}

/// The tables of the folder given, else of the data folder. A folder given that cannot be
/// opened is an error; the data folder's tables are a bonus, and when they cannot be opened
/// `unavailable` is told why and the engine searches without them.
///
/// # Errors
///
/// When the folder given cannot be opened.
pub fn given_or_data(
    given: Option<&Path>,
    building: Building,
    unavailable: impl FnOnce(&Path, &TbError),
) -> Result<Option<EngineTables>, Failure> {
    let dir: PathBuf = given.map_or_else(paths::tablebase_dir, Path::to_path_buf);
    match open(&dir, building) {
        Ok(tables) => Ok(Some(tables)),
        Err(e) if given.is_some() => Err(Failure(format!(
            "cannot open the tablebases in {}: {e}",
            dir.display()
        ))),
        Err(e) => {
            unavailable(&dir, &e);
            Ok(None)
        }
    }
}

/// The engine protocol's opener of its tablebase folder: the 3-3 sector of nine is built at
/// once if missing (a fraction of a second), the other small moving-phase tables in the
/// background on first use.
///
/// # Errors
///
/// The message of the folder's error.
pub fn for_protocol(dir: &Path) -> Result<Arc<dyn Probe>, String> {
    open(dir, Building::ThreeThreeFirst(BackgroundOptions::default()))
        .map(|t| Arc::new(t) as Arc<dyn Probe>)
        .map_err(|e| e.to_string())
}
