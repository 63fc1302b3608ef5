//! Building the small tables of the moving phase in the background, so that every installation
//! plays those endgames perfectly: the engine asks on its first probe of a variant and keeps
//! searching with whatever is built meanwhile.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use morris_core::Rules;

use crate::build::{BuildOptions, build, names};
use crate::file::file_name;
use crate::sector::{Plan, Sector};

/// The most messages kept for whoever watches; older ones are dropped.
const MAX_NEWS: usize = 32;
/// The most variants waiting for a build.
const MAX_WAITING: usize = 8;
/// A lock file older than this belongs to a build that died: it is taken over.
const STALE_LOCK: Duration = Duration::from_secs(15 * 60);

/// Called before each group of sectors is built; `false` ends the build there. The default
/// lets every group through; a test holds the build with it.
pub type Gate = Box<dyn FnMut(&[Sector]) -> bool + Send>;

/// Told each message of the background build as it is made.
pub type OnNews = Box<dyn Fn(&str) + Send + Sync>;

/// What to build in the background.
pub struct BackgroundOptions {
    /// Every moving-phase sector with at most this many pieces on the board.
    pub max_pieces: u8,
    /// Threads of the solver (the engine keeps the other cores).
    pub threads: usize,
    /// Asked before each group.
    pub gate: Gate,
    /// Told every message as it is made, besides the queue that `Probe::take_news`
    /// empties (a server logs them).
    pub on_news: Option<OnNews>,
}

impl std::fmt::Debug for BackgroundOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundOptions")
            .field("max_pieces", &self.max_pieces)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl Default for BackgroundOptions {
    /// Every moving-phase sector of at most [`BackgroundOptions::PIECES`] pieces.
    fn default() -> BackgroundOptions {
        BackgroundOptions::new(BackgroundOptions::PIECES)
    }
}

impl BackgroundOptions {
    /// The pieces on the board up to which every installation builds the tables: the
    /// moving phase of nine up to ten pieces takes a few minutes and about 170 MB.
    pub const PIECES: u8 = 10;

    /// Every moving-phase sector of at most `max_pieces` pieces, on one thread.
    pub fn new(max_pieces: u8) -> BackgroundOptions {
        BackgroundOptions {
            max_pieces,
            threads: 1,
            gate: Box::new(|_| true),
            on_news: None,
        }
    }
}

/// What the builder thread and its owner share.
struct State {
    news: Mutex<VecDeque<String>>,
    on_news: Option<OnNews>,
    /// Set when the owner is gone: the builder stops after the current group.
    quit: AtomicBool,
    /// Set after each group built, until the owner looks again for new files.
    changed: AtomicBool,
}

impl State {
    fn say(&self, text: String) {
        if let Some(f) = &self.on_news {
            f(&text);
        }
        let mut q = self.news.lock().unwrap_or_else(|e| e.into_inner());
        if q.len() >= MAX_NEWS {
            q.pop_front();
        }
        q.push_back(text);
    }
}

/// A builder of the small moving-phase tables of each variant asked for, one variant after
/// the other, on a thread of its own started on the first request.
pub(crate) struct Background {
    dir: PathBuf,
    state: Arc<State>,
    asked: Mutex<HashSet<[u8; 8]>>,
    start: Mutex<Option<(BackgroundOptions, Receiver<Rules>)>>,
    queue: SyncSender<Rules>,
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Background")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Background {
    pub(crate) fn new(dir: &Path, mut options: BackgroundOptions) -> Background {
        let (queue, waiting) = sync_channel(MAX_WAITING);
        let state = Arc::new(State {
            news: Mutex::new(VecDeque::new()),
            on_news: options.on_news.take(),
            quit: AtomicBool::new(false),
            changed: AtomicBool::new(false),
        });
        Background {
            dir: dir.to_path_buf(),
            state,
            asked: Mutex::new(HashSet::new()),
            start: Mutex::new(Some((options, waiting))),
            queue,
        }
    }

    /// Asks for the tables of `rules` (once; later calls do nothing).
    pub(crate) fn request(&self, rules: Rules) {
        let key = crate::file::rules_bytes(&rules);
        if !self
            .asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key)
        {
            return;
        }
        match self.queue.try_send(rules) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.state.say(format!(
                    "not building the tables of {}: too many variants wait",
                    rules.variant
                ));
                return;
            }
            Err(TrySendError::Disconnected(_)) => return,
        }
        let start = self.start.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some((options, waiting)) = start {
            let dir = self.dir.clone();
            let state = Arc::clone(&self.state);
            let spawned = std::thread::Builder::new()
                .name("tablebase-build".into())
                .spawn(move || run(&dir, options, &waiting, &state));
            if let Err(e) = spawned {
                self.state.say(format!(
                    "cannot start building tables in the background: {e}"
                ));
            }
        }
    }

    /// The messages since the last call.
    pub(crate) fn take_news(&self) -> Vec<String> {
        self.state
            .news
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
            .collect()
    }

    /// Whether a group was built since the last call.
    pub(crate) fn take_changed(&self) -> bool {
        self.state.changed.load(Relaxed) && self.state.changed.swap(false, Relaxed)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.state.quit.store(true, Relaxed);
    }
}

/// The groups of the plan whose files are not all there.
fn missing_groups(dir: &Path, rules: &Rules, plan: &Plan) -> Vec<Vec<Sector>> {
    plan.groups()
        .filter(|g| g.iter().any(|&s| !dir.join(file_name(rules, s)).is_file()))
        .cloned()
        .collect()
}

/// A lock on building one variant in a folder, so that two processes do not build the same
/// files; removed when dropped.
struct Lock(PathBuf);

impl Lock {
    fn take(dir: &Path, rules: &Rules) -> Option<Lock> {
        let path = dir.join(format!(".{}building", crate::file::file_prefix(rules)));
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(_) => return Some(Lock(path)),
                Err(_) => {
                    let stale = std::fs::metadata(&path)
                        .and_then(|m| m.modified())
                        .ok()
                        .and_then(|t| SystemTime::now().duration_since(t).ok())
                        .is_some_and(|age| age > STALE_LOCK);
                    if !stale || std::fs::remove_file(&path).is_err() {
                        return None;
                    }
                }
            }
        }
        None
    }

    /// Marks the lock as alive.
    fn touch(&self) {
        let _ = std::fs::write(&self.0, b"");
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The builder thread: each variant asked for in turn, until the owner is gone.
fn run(dir: &Path, mut options: BackgroundOptions, waiting: &Receiver<Rules>, state: &State) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .thread_name(|i| format!("tablebase-build-{i}"))
        .build();
    let pool = match pool {
        Ok(p) => p,
        Err(e) => {
            state.say(format!(
                "cannot start building tables in the background: {e}"
            ));
            return;
        }
    };
    // Wait with a timeout, so that the thread ends soon after its owner.
    while !state.quit.load(Relaxed) {
        let rules = match waiting.recv_timeout(Duration::from_millis(500)) {
            Ok(r) => r,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        };
        pool.install(|| build_variant(dir, &rules, &mut options, state));
    }
}

fn build_variant(dir: &Path, rules: &Rules, options: &mut BackgroundOptions, state: &State) {
    let targets = Sector::moving_up_to(rules, options.max_pieces);
    let Ok(plan) = Plan::new(rules, &targets) else {
        return;
    };
    let todo = missing_groups(dir, rules, &plan);
    if todo.is_empty() {
        return;
    }
    let Some(lock) = Lock::take(dir, rules) else {
        state.say(format!(
            "the tables of {} up to {} pieces are being built by another process in {}",
            rules.variant,
            options.max_pieces,
            dir.display()
        ));
        return;
    };
    state.say(format!(
        "building the tables of {} up to {} pieces in {} in the background ({} groups); searching meanwhile",
        rules.variant,
        options.max_pieces,
        dir.display(),
        todo.len()
    ));
    let opts = BuildOptions::new(*rules, dir);
    for (i, group) in todo.iter().enumerate() {
        if state.quit.load(Relaxed) || !(options.gate)(group) {
            state.say(format!(
                "stopped building the tables of {} after {i} of {} groups",
                rules.variant,
                todo.len()
            ));
            return;
        }
        if let Err(e) = build(&opts, group, |_| {}) {
            state.say(format!(
                "cannot build the tables {} of {}: {e}",
                names(group),
                rules.variant
            ));
            return;
        }
        lock.touch();
        state.changed.store(true, Relaxed);
    }
    state.say(format!(
        "the tables of {} up to {} pieces are ready",
        rules.variant, options.max_pieces
    ));
}
