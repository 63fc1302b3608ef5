//! `morris engine`: the engine protocol on standard input and output.

use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use morris_engine::{Probe, run_protocol};

/// Opens a tablebase folder; this build has no tablebases.
fn open_tablebase(_: &Path) -> Result<Arc<dyn Probe>, String> {
    Err("tablebases are not available in this build".into())
}

/// Speaks the protocol until `quit` or the end of the input.
pub fn run() {
    run_protocol(
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
        Box::new(open_tablebase),
    );
}
