//! The engine's probing trait, implemented for the tables in a folder.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

use morris_core::value::{Probe, Value};
use morris_core::{Position, Variant};

use crate::background::{Background, BackgroundOptions};
use crate::build::{BuildOptions, build};
use crate::error::TbError;
use crate::file::rules_bytes;
use crate::sector::Sector;
use crate::tables::Tablebase;

/// Every table in a folder, whatever the rules, as the engine probes them: a position whose
/// sector is built is answered exactly, any other gets `None`.
///
/// ```no_run
/// use morris_tablebase::EngineTables;
/// let tables = EngineTables::open("tables")?; // builds the 3-3 sectors of nine if missing
/// # Ok::<_, morris_tablebase::TbError>(())
/// ```
#[derive(Debug)]
pub struct EngineTables {
    dir: PathBuf,
    by_rules: RwLock<HashMap<[u8; 8], Arc<Tablebase>>>,
    placing: AtomicBool,
    background: Option<Background>,
    /// What went wrong when the folder was opened, not yet reported.
    opening: std::sync::Mutex<Vec<String>>,
}

impl EngineTables {
    /// Opens a folder of tables, creating it if needed, and builds the 3-3 sector of Nine
    /// Men's Morris if it is missing (a few seconds), so that the three-against-three endgame
    /// is always played perfectly. A 3-3 file that is damaged, or cannot be built (a folder
    /// that cannot be written), is no reason to refuse the folder: that sector is not used,
    /// the others are, and what went wrong is the first of [`Probe::take_problems`].
    ///
    /// # Errors
    ///
    /// When the folder cannot be created.
    pub fn open(dir: impl Into<PathBuf>) -> Result<EngineTables, TbError> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|e| TbError::io(&dir, e))?;
        let nine = Variant::Nine.rules();
        let built = build(
            &BuildOptions::new(nine, &dir),
            &[Sector::moving(3, 3)],
            |_| {},
        );
        let opening = match built {
            Ok(()) => Vec::new(),
            Err(e) => vec![format!("sector 3-3 of nine is not used: {e}")],
        };
        let placing = AtomicBool::new(holds_placing(&dir));
        Ok(EngineTables {
            dir,
            by_rules: RwLock::new(HashMap::new()),
            placing,
            background: None,
            opening: std::sync::Mutex::new(opening),
        })
    }

    /// The same tables, and on the first probe of each variant, the building of its missing
    /// moving-phase tables in the background as [`EngineTables::open_building`] does.
    #[must_use]
    pub fn with_background(mut self, options: BackgroundOptions) -> EngineTables {
        if background_allowed() {
            self.background = Some(Background::new(&self.dir, options));
        }
        self
    }

    /// The tables of a folder (created if needed), and on the first probe of each variant, the
    /// building of its
    /// moving-phase tables of at most `options.max_pieces` pieces that are missing, in the
    /// background, into the same folder (the 3-3 sector of nine among them, rather than at
    /// once as [`EngineTables::open`] does). Probes answer from whatever is built meanwhile, and
    /// each sector is used as soon as its file is there. What the build does is said through
    /// [`Probe::take_news`] (and `options.on_news`); another process building the same
    /// variant in the folder is left to it. With the environment variable
    /// [`NO_BACKGROUND_ENV`] set to `0` nothing is built in the background, and the folder
    /// is opened as [`EngineTables::open`] opens it.
    ///
    /// # Errors
    ///
    /// When the folder cannot be created.
    pub fn open_building(
        dir: impl Into<PathBuf>,
        options: BackgroundOptions,
    ) -> Result<EngineTables, TbError> {
        let dir = dir.into();
        if !background_allowed() {
            return EngineTables::open(dir);
        }
        // The 3-3 sector comes with the rest, in the background.
        std::fs::create_dir_all(&dir).map_err(|e| TbError::io(&dir, e))?;
        let background = Some(Background::new(&dir, options));
        Ok(EngineTables {
            placing: AtomicBool::new(holds_placing(&dir)),
            dir,
            by_rules: RwLock::new(HashMap::new()),
            background,
            opening: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Looks again for files built since the folder was opened (or found missing since).
    pub fn refresh(&self) {
        self.placing.store(holds_placing(&self.dir), Relaxed);
        for tb in self
            .by_rules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
        {
            tb.refresh();
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The tables of a position's rules.
    pub fn tables(&self, pos: &Position) -> Arc<Tablebase> {
        if let Some(bg) = &self.background {
            if bg.take_changed() {
                self.refresh();
            }
        }
        let key = rules_bytes(pos.rules());
        if let Some(t) = self
            .by_rules
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return t.clone();
        }
        let mut map = self.by_rules.write().unwrap_or_else(|e| e.into_inner());
        let tables = map
            .entry(key)
            .or_insert_with(|| Arc::new(Tablebase::new(&self.dir, *pos.rules())))
            .clone();
        drop(map);
        if let Some(bg) = &self.background {
            bg.request(*pos.rules());
        }
        tables
    }

    /// The exact value of a position, if its sector is built.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        self.tables(pos).probe(pos).ok()
    }
}

impl Probe for EngineTables {
    fn probe(&self, pos: &Position) -> Option<Value> {
        self.value(pos)
    }

    fn holds_placing(&self) -> bool {
        self.placing.load(Relaxed)
    }

    fn take_news(&self) -> Vec<String> {
        self.background
            .as_ref()
            .map(Background::take_news)
            .unwrap_or_default()
    }

    fn take_problems(&self) -> Vec<String> {
        let mut problems =
            std::mem::take(&mut *self.opening.lock().unwrap_or_else(|e| e.into_inner()));
        problems.extend(
            self.by_rules
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .values()
                .flat_map(|tb| tb.take_problems()),
        );
        problems
    }
}

/// Whether a folder has a file of a sector with pieces in hand.
fn holds_placing(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let name = e.file_name();
            let Some(name) = name.to_str().and_then(|n| n.strip_suffix(".mtb")) else {
                return false;
            };
            // `nine-2-3-1-1`: a variant's name, maybe a rules tag, then the sector.
            let counts: Vec<&str> = name.rsplitn(5, '-').collect();
            counts.len() == 5
                && format!("{}-{}-{}-{}", counts[3], counts[2], counts[1], counts[0])
                    .parse::<Sector>()
                    .is_ok_and(|s| !s.is_moving())
        })
}

/// The environment variable that, set to `0`, keeps the engine, `morris serve` and `morris
/// play` from building tables in the background (for test runs and machines whose disk is
/// spoken for).
pub const NO_BACKGROUND_ENV: &str = "MORRIS_BUILD_TABLES";

/// Whether background builds are allowed: unless [`NO_BACKGROUND_ENV`] is `0`.
fn background_allowed() -> bool {
    std::env::var_os(NO_BACKGROUND_ENV).is_none_or(|v| v != "0")
}
