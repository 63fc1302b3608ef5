//! The build journal: a line per group solved, kept in the tablebase folder across runs, so
//! that a build stopped and resumed many times still tells what it cost in all.

use std::io::Write;
use std::path::{Path, PathBuf};

use morris_core::Rules;
use morris_tablebase::file::file_prefix;

/// The journal of the builds of `rules` in `dir`.
pub fn path(dir: &Path, rules: &Rules) -> PathBuf {
    dir.join(format!("{}build-journal.tsv", file_prefix(rules)))
}

/// The journal of the verifications of `rules` in `dir`: the same lines, a sector per line.
pub fn verify_path(dir: &Path, rules: &Rules) -> PathBuf {
    dir.join(format!("{}verify-journal.tsv", file_prefix(rules)))
}

const HEADER: &str = "# group\tpositions\twall_s\tcpu_s\tpeak_mib\tfinished_unix_s\n";

/// What this process has cost so far: CPU seconds of all its threads and its peak resident
/// memory in MiB, from `/proc` (zeros where it cannot be read).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// User and system CPU seconds.
    pub cpu_s: f64,
    /// Peak resident set, MiB.
    pub peak_mib: f64,
}

impl Usage {
    /// Now, for this process.
    pub fn now() -> Usage {
        let cpu_s = std::fs::read_to_string("/proc/self/stat")
            .ok()
            .and_then(|s| cpu_from_stat(&s))
            .unwrap_or(0.0);
        let peak_mib = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| peak_from_status(&s))
            .unwrap_or(0.0);
        Usage { cpu_s, peak_mib }
    }
}

/// User plus system time of `/proc/self/stat`, in seconds (Linux counts it in ticks of 1/100 s
/// for every program).
fn cpu_from_stat(stat: &str) -> Option<f64> {
    // The command name is in parentheses and may hold spaces: count the fields after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    // Fields 3 to 13 of the file come first; utime and stime are fields 14 and 15.
    let utime: f64 = fields.nth(11)?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// `VmHWM` of `/proc/self/status`, in MiB.
fn peak_from_status(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// One group solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The group's name, as the build's lines name it.
    pub group: String,
    /// Its positions.
    pub positions: u64,
    /// Wall seconds.
    pub wall_s: f64,
    /// CPU seconds of the process meanwhile.
    pub cpu_s: f64,
    /// The process's peak memory when the group was done, MiB.
    pub peak_mib: f64,
}

/// Adds `entry` to the journal (creating it with its header line).
///
/// # Errors
///
/// When the file cannot be written.
pub fn append(path: &Path, entry: &Entry) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let len = file.metadata()?.len();
    if len == 0 {
        file.write_all(HEADER.as_bytes())?;
    } else if !ends_with_newline(path)? {
        // The last line was cut by a kill: end it, so that it is skipped alone.
        file.write_all(b"\n")?;
    }
    let finished = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    writeln!(
        file,
        "{}\t{}\t{:.2}\t{:.2}\t{:.0}\t{finished}",
        entry.group, entry.positions, entry.wall_s, entry.cpu_s, entry.peak_mib
    )
}

fn ends_with_newline(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Every entry of the journal; lines that do not read (a line cut by a kill) are skipped. A
/// group solved twice (its file deleted and built again) counts twice: the journal tells what
/// was spent.
pub fn read(path: &Path) -> Vec<Entry> {
    read_timed(path).into_iter().map(|(e, _)| e).collect()
}

/// As [`read`], each entry with the time it was written (seconds since 1970).
pub fn read_timed(path: &Path) -> Vec<(Entry, u64)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(parse)
        .collect()
}

fn parse(line: &str) -> Option<(Entry, u64)> {
    let mut f = line.split('\t');
    let entry = Entry {
        group: f.next()?.to_string(),
        positions: f.next()?.parse().ok()?,
        wall_s: f.next()?.parse().ok()?,
        cpu_s: f.next()?.parse().ok()?,
        peak_mib: f.next()?.parse().ok()?,
    };
    let finished = f.next()?.parse::<u64>().ok()?;
    Some((entry, finished))
}

/// The sums of a journal: groups, positions, wall and CPU seconds, and the largest peak.
pub fn totals(entries: &[Entry]) -> (usize, u64, f64, f64, f64) {
    entries.iter().fold((0, 0, 0.0, 0.0, 0.0_f64), |t, e| {
        (
            t.0 + 1,
            t.1 + e.positions,
            t.2 + e.wall_s,
            t.3 + e.cpu_s,
            t.4.max(e.peak_mib),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_cpu_time_after_a_name_with_spaces() {
        let stat = "4242 (tb (build) x) R 1 2 3 4 5 6 7 8 9 10 250 150 0 0 20 0 2";
        assert_eq!(cpu_from_stat(stat), Some(4.0));
        assert_eq!(cpu_from_stat("no parentheses"), None);
    }

    #[test]
    fn reads_the_peak_memory() {
        let status = "Name:\tmorris\nVmPeak:\t  9000 kB\nVmHWM:\t  2048 kB\n";
        assert_eq!(peak_from_status(status), Some(2.0));
        assert_eq!(peak_from_status("Name:\tmorris\n"), None);
    }

    #[test]
    fn keeps_every_run_and_skips_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("morris-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("nine-build-journal.tsv");
        let _ = std::fs::remove_file(&path);
        let entry = |group: &str, wall_s| Entry {
            group: group.into(),
            positions: 10,
            wall_s,
            cpu_s: wall_s * 2.0,
            peak_mib: wall_s * 100.0,
        };
        append(&path, &entry("3-3", 1.5)).unwrap();
        append(&path, &entry("4-3+3-4", 2.0)).unwrap();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(b"5-3+3-5\t12\t0.").unwrap();
        append(&path, &entry("5-3+3-5", 4.0)).unwrap();
        let entries = read(&path);
        let all = vec![
            entry("3-3", 1.5),
            entry("4-3+3-4", 2.0),
            entry("5-3+3-5", 4.0),
        ];
        assert_eq!(entries, all);
        assert_eq!(totals(&entries), (3, 30, 7.5, 15.0, 400.0));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().next(),
            Some(HEADER.trim_end())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
