//! Where the binary keeps its data: the library crates take paths, and this module alone
//! decides their defaults.

use std::ffi::OsString;
use std::path::PathBuf;

/// The data folder of morris: `$XDG_DATA_HOME/morris`, else `~/.local/share/morris`; `None`
/// when neither variable is set (or either is empty).
fn data_folder() -> Option<PathBuf> {
    let env = |name| std::env::var_os(name).filter(|v: &OsString| !v.is_empty());
    if let Some(data) = env("XDG_DATA_HOME") {
        return Some(PathBuf::from(data).join("morris"));
    }
    env("HOME").map(|home| PathBuf::from(home).join(".local/share/morris"))
}

/// The default folder of tablebase files: `$XDG_DATA_HOME/morris/tablebases`, else
/// `~/.local/share/morris/tablebases`, else `morris-tablebases` in the working folder.
pub fn tablebase_dir() -> PathBuf {
    data_folder().map_or_else(
        || PathBuf::from("morris-tablebases"),
        |d| d.join("tablebases"),
    )
}

/// The database file used when none is given: `$XDG_DATA_HOME/morris/morris.db`, else
/// `~/.local/share/morris/morris.db`, else `morris.db` in the working folder.
pub fn database() -> PathBuf {
    data_folder().map_or_else(|| PathBuf::from("morris.db"), |d| d.join("morris.db"))
}
