//! Probing: a folder of sector files for one set of rules, opened on demand.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use morris_core::{Position, Rules};

use crate::error::TbError;
use crate::file::{SectorFile, file_name, file_prefix, rules_bytes};
use crate::forward::{split, terminal_value};
use crate::index::SectorIndex;
use crate::sector::Sector;
use crate::value::{Value, decode};

/// One sector's index and file.
#[derive(Debug)]
pub struct Table {
    index: SectorIndex,
    file: SectorFile,
}

impl Table {
    /// Opens the file of a sector in a folder.
    ///
    /// # Errors
    ///
    /// [`TbError::Missing`] when there is no file, or the errors of [`SectorFile::open`].
    pub fn open(dir: &Path, rules: &Rules, sector: Sector) -> Result<Table, TbError> {
        Table::with_file(dir, rules, sector, |path, len| {
            SectorFile::open(path, rules, sector, len)
        })
    }

    /// The table of a sector whose file in `dir` is opened by `open` (given its path and
    /// number of values), once the sector is known to fit the rules and its file to exist.
    fn with_file(
        dir: &Path,
        rules: &Rules,
        sector: Sector,
        open: impl FnOnce(&Path, u64) -> Result<SectorFile, TbError>,
    ) -> Result<Table, TbError> {
        sector.check(rules).map_err(TbError::Unsupported)?;
        let path = dir.join(file_name(rules, sector));
        if !path.exists() {
            return Err(TbError::Missing(sector));
        }
        let index = SectorIndex::new(rules.board, sector);
        let file = open(&path, index.len())?;
        Ok(Table { index, file })
    }

    /// Opens the file of a sector in a folder by mapping it into memory (see
    /// [`SectorFile::map`]), for the solver, which reads the files of lower sectors at random.
    ///
    /// # Safety
    ///
    /// As [`SectorFile::map`]: nobody truncates the file while the table is in use.
    ///
    /// # Errors
    ///
    /// As [`Table::open`].
    #[allow(unsafe_code)]
    pub unsafe fn map(dir: &Path, rules: &Rules, sector: Sector) -> Result<Table, TbError> {
        Table::with_file(dir, rules, sector, |path, len| {
            // SAFETY: passed on to the caller.
            unsafe { SectorFile::map(path, rules, sector, len) }
        })
    }

    /// Opens the file of a sector in a folder by reading it whole into memory (see
    /// [`SectorFile::load`]), for the solver of the groups above it.
    ///
    /// # Errors
    ///
    /// As [`Table::open`].
    pub fn load(dir: &Path, rules: &Rules, sector: Sector) -> Result<Table, TbError> {
        Table::with_file(dir, rules, sector, |path, len| {
            SectorFile::load(path, rules, sector, len)
        })
    }

    /// The sector's index.
    pub fn index(&self) -> &SectorIndex {
        &self.index
    }

    /// The sector's file.
    pub fn file(&self) -> &SectorFile {
        &self.file
    }

    /// The value of the position with sets `us` (to move) and `them`.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] when the sets do not fit the sector, [`TbError::Corrupt`] when
    /// the file says the position does not exist.
    pub fn value(&self, us: u32, them: u32) -> Result<Value, TbError> {
        self.value_at(self.index_of(us, them)?)
    }

    /// The index of the position with sets `us` (to move) and `them`.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] when the sets do not fit the sector.
    #[inline]
    pub(crate) fn index_of(&self, us: u32, them: u32) -> Result<u64, TbError> {
        self.index.checked_index(us, them).ok_or_else(|| {
            TbError::Unsupported(format!(
                "the sets {us:#x} and {them:#x} are not a position of sector {}",
                self.index.sector()
            ))
        })
    }

    /// The value stored at index `i`.
    ///
    /// # Errors
    ///
    /// As [`Table::value`].
    #[inline]
    pub(crate) fn value_at(&self, i: u64) -> Result<Value, TbError> {
        decode(self.file.byte(i)?).ok_or_else(|| TbError::Corrupt {
            path: self.file.path().to_path_buf(),
            reason: format!(
                "no value stored for a position of sector {}",
                self.index.sector()
            ),
        })
    }
}

/// The tablebases of one set of rules in one folder: probes positions, opening sector files as
/// they are needed.
///
/// ```no_run
/// use morris_core::{Position, Variant};
/// use morris_tablebase::Tablebase;
/// let tb = Tablebase::new("tables", Variant::Nine.rules());
/// let pos = Position::from_fen(Variant::Nine.rules(), "W../.../.../B..B.W/.../.../.BW w 0 0 0 30")?;
/// println!("{:?}", tb.probe(&pos)?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    rules: Rules,
    open: RwLock<HashMap<Sector, Arc<Table>>>,
    missing: RwLock<HashSet<Sector>>,
    failed: RwLock<HashMap<Sector, Failure>>,
    unreported: Mutex<Vec<String>>,
    mapped: bool,
}

/// Why a sector's file cannot be used, kept so that it is neither opened again on every probe
/// nor reported more than once.
#[derive(Debug, Clone)]
struct Failure {
    path: PathBuf,
    reason: String,
    foreign: bool,
}

impl Failure {
    fn of(e: &TbError, fallback: &Path) -> Failure {
        match e {
            TbError::Corrupt { path, reason } => Failure {
                path: path.clone(),
                reason: reason.clone(),
                foreign: false,
            },
            TbError::Foreign { path, reason } => Failure {
                path: path.clone(),
                reason: reason.clone(),
                foreign: true,
            },
            other => Failure {
                path: fallback.to_path_buf(),
                reason: other.to_string(),
                foreign: false,
            },
        }
    }

    fn error(&self) -> TbError {
        let (path, reason) = (self.path.clone(), self.reason.clone());
        if self.foreign {
            TbError::Foreign { path, reason }
        } else {
            TbError::Corrupt { path, reason }
        }
    }
}

impl Tablebase {
    /// The tables of `rules` in folder `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>, rules: Rules) -> Tablebase {
        Tablebase {
            dir: dir.into(),
            rules,
            open: RwLock::new(HashMap::new()),
            missing: RwLock::new(HashSet::new()),
            failed: RwLock::new(HashMap::new()),
            unreported: Mutex::new(Vec::new()),
            mapped: false,
        }
    }

    /// The tables of `rules` in folder `dir`, each file mapped into memory when it is first
    /// used rather than read block by block through the process's bounded cache: for opening
    /// every file of a folder (finding whether the whole game is there before verifying it)
    /// and probing them at random, where the cache would read and check the same blocks
    /// again and again.
    ///
    /// The folder must be one that only the tablebase builder writes, as the solver's own
    /// reads assume: it writes each file once under a temporary name and renames it into
    /// place. A file truncated by someone else while it is mapped kills the process.
    pub fn new_mapped(dir: impl Into<PathBuf>, rules: Rules) -> Tablebase {
        Tablebase {
            mapped: true,
            ..Tablebase::new(dir, rules)
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table of a sector, opened on first use. A sector found missing is remembered as
    /// missing, and one whose file is damaged or foreign as unusable, so that probing stays
    /// cheap; [`Tablebase::refresh`] forgets both.
    ///
    /// # Errors
    ///
    /// As [`Table::open`].
    pub fn table(&self, sector: Sector) -> Result<Arc<Table>, TbError> {
        if self
            .missing
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&sector)
        {
            return Err(TbError::Missing(sector));
        }
        if let Some(f) = self
            .failed
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&sector)
        {
            return Err(f.error());
        }
        if let Some(t) = self
            .open
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&sector)
        {
            return Ok(t.clone());
        }
        let opened = if self.mapped {
            // SAFETY: see `new_mapped`: the builder never truncates a file of its folder.
            #[allow(unsafe_code)]
            unsafe {
                Table::map(&self.dir, &self.rules, sector)
            }
        } else {
            Table::open(&self.dir, &self.rules, sector)
        };
        let table = match opened {
            Ok(t) => Arc::new(t),
            Err(TbError::Missing(s)) => {
                self.missing
                    .write()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(s);
                return Err(TbError::Missing(s));
            }
            Err(e) => {
                self.fail(sector, &e);
                return Err(e);
            }
        };
        let mut open = self.open.write().unwrap_or_else(|e| e.into_inner());
        Ok(open.entry(sector).or_insert(table).clone())
    }

    /// Remembers that a sector's file cannot be used, and queues the reason to be reported.
    fn fail(&self, sector: Sector, e: &TbError) {
        let failure = Failure::of(e, &self.dir.join(file_name(&self.rules, sector)));
        self.open
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&sector);
        let mut failed = self.failed.write().unwrap_or_else(|e| e.into_inner());
        if failed.insert(sector, failure).is_none() {
            self.unreported
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(format!("sector {sector} is not used: {e}"));
        }
    }

    /// The problems met with files since the last call, each said once: a damaged, foreign or
    /// unreadable file found while probing, which is not tried again until
    /// [`Tablebase::refresh`].
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut *self.unreported.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Forgets which sectors were found missing or unusable, so that files built or repaired
    /// since are found.
    pub fn refresh(&self) {
        self.missing
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.failed
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Closes every open file (a mapped one is unmapped); each is opened again when it is next
    /// needed. Whoever still holds a [`Table`] keeps it open.
    pub fn close(&self) {
        self.open.write().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The sectors whose files are in the folder (by name; opening checks them), in order.
    pub fn built_sectors(&self) -> Vec<Sector> {
        let prefix = file_prefix(&self.rules);
        let mut out: Vec<Sector> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let sector: Sector = name
                    .strip_prefix(&prefix)?
                    .strip_suffix(".mtb")?
                    .parse()
                    .ok()?;
                (file_name(&self.rules, sector) == name).then_some(sector)
            })
            .collect();
        out.sort();
        out
    }

    /// Whether a sector's file is present and sound.
    pub fn has(&self, sector: Sector) -> bool {
        self.table(sector).is_ok()
    }

    /// The value of a position with perfect play, draw rules ignored.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] for a position of other rules, [`TbError::Missing`] when its
    /// sector is not built, and the errors of opening a file.
    pub fn probe(&self, pos: &Position) -> Result<Value, TbError> {
        if rules_bytes(pos.rules()) != rules_bytes(&self.rules) {
            return Err(TbError::Unsupported(format!(
                "the position is of {} but the tables are of {}",
                pos.rules().variant,
                self.rules.variant
            )));
        }
        if let Some(v) = terminal_value(pos) {
            return Ok(v);
        }
        let (sector, us, them) = split(pos);
        let table = self.table(sector)?;
        table.value(us, them).inspect_err(|e| {
            if table.file().broken().is_some() {
                self.fail(sector, e);
            }
        })
    }

    /// Every legal ply with the value of the position it leads to, for the side that plays it
    /// (the negation of the child's value one ply further), best first.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::probe`] for any child.
    pub fn probe_plies(&self, pos: &Position) -> Result<Vec<(morris_core::Ply, Value)>, TbError> {
        morris_core::value::score_plies(pos, |c| self.probe(c))
    }
}
