//! `morris engine`: the engine protocol on standard input and output.

use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use morris_engine::{Probe, run_protocol};
use morris_tablebase::EngineTables;

/// Opens a tablebase folder for the engine (building the 3-3 sector of nine there if missing).
fn open_tablebase(dir: &Path) -> Result<Arc<dyn Probe>, String> {
    let tables = EngineTables::open(dir).map_err(|e| e.to_string())?;
    Ok(Arc::new(tables))
}

/// Speaks the protocol until `quit` or the end of the input.
pub fn run() {
    run_protocol(
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
        Box::new(open_tablebase),
    );
}
