//! `morris engine`: the engine protocol on standard input and output.

use std::io::BufReader;

use morris_engine::run_protocol_with_tables;

use crate::paths;
use crate::tables;

/// Speaks the protocol until `quit` or the end of the input; without `TablebasePath` the
/// engine uses the data folder.
pub fn run() {
    run_protocol_with_tables(
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
        Box::new(tables::for_protocol),
        Some(paths::tablebase_dir()),
    );
}
