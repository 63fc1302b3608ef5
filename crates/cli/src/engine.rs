//! `morris engine`: the engine protocol on standard input and output.

use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use morris_engine::{Probe, run_protocol_with_tables};
use morris_tablebase::{BackgroundOptions, EngineTables, default_dir};

/// Opens a tablebase folder for the engine: the 3-3 sector of nine is built at once if missing
/// (a fraction of a second), the other small moving-phase tables in the background on first
/// use.
fn open_tablebase(dir: &Path) -> Result<Arc<dyn Probe>, String> {
    let tables = EngineTables::open(dir).map_err(|e| e.to_string())?;
    Ok(Arc::new(
        tables.with_background(BackgroundOptions::default()),
    ))
}

/// Speaks the protocol until `quit` or the end of the input; without `TablebasePath` the
/// engine uses the data folder.
pub fn run() {
    run_protocol_with_tables(
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
        Box::new(open_tablebase),
        Some(default_dir()),
    );
}
