//! The engine: options, the transposition table, and the search driver with its threads.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use morris_core::{Game, Ply, Position};

use crate::level::{self, Rng};
use crate::limits::{EngineOptions, Info, Limits, SearchResult};
use crate::ordering::{Heuristics, MAX_PLY, Picker};
use crate::score::Score;
use crate::score::value::{INFINITE, is_mate, to_score};
use crate::search::{RootMove, Shared, Worker, is_proven};
use crate::time::{self, Budget};
use crate::tt::Table;
use crate::{Probe, TbValue, score_plies};

/// A root ply ahead of every other by more than this (in centi-pieces) counts as forced for
/// the clock.
const FORCED_MARGIN: i32 = 300;

/// The deepest iteration.
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;

/// A Morris engine: it owns its transposition table and searches games' positions.
///
/// ```
/// use morris_core::{Game, Position, Variant};
/// use morris_engine::{Engine, EngineOptions, Limits};
///
/// let mut engine = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
/// let game = Game::new(Position::start(Variant::Nine));
/// let result = engine.search(&game, &Limits::depth(3), &mut |_| {});
/// assert!(game.position().is_legal(result.best.unwrap()));
/// ```
pub struct Engine {
    options: EngineOptions,
    tt: Table,
    tb: Option<Arc<dyn Probe>>,
    heuristics: Heuristics,
    entropy: u64,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("options", &self.options)
            .field("tablebase", &self.tb.is_some())
            .finish_non_exhaustive()
    }
}

fn fresh_entropy() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    Rng::new(nanos ^ n.rotate_left(32) ^ u64::from(std::process::id())).next_u64()
}

/// A key for the rules, mixed into the table's keys.
fn rules_salt(pos: &Position) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    pos.rules().hash(&mut h);
    h.finish()
}

/// What the main thread's iterations found.
struct Iterations {
    moves: Vec<RootMove>,
    depth: u32,
}

impl Engine {
    /// An engine with these options (brought into their ranges).
    pub fn new(options: EngineOptions) -> Engine {
        let mut options = options.clamped();
        let tt = Table::new(options.hash_mb);
        options.hash_mb = options.hash_mb.min(tt.mb().max(1));
        Engine {
            tt,
            options,
            tb: None,
            heuristics: Heuristics::new(),
            entropy: fresh_entropy(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the options; a new hash size replaces the table (and forgets it). A table that
    /// cannot be allocated is made as large as it can be, and `options().hash_mb` says so.
    pub fn set_options(&mut self, options: EngineOptions) {
        let mut options = options.clamped();
        if options.hash_mb != self.options.hash_mb {
            // Free the old table first, so that its memory can be used for the new one.
            self.tt = Table::new(1);
            self.tt = Table::new(options.hash_mb);
            options.hash_mb = options.hash_mb.min(self.tt.mb().max(1));
        }
        self.options = options;
    }

    /// Sets or removes the tablebase the search probes.
    pub fn set_tablebase(&mut self, tb: Option<Arc<dyn Probe>>) {
        self.tb = tb;
    }

    /// The problems the tablebase met since the last call (a damaged file found while
    /// probing, say), each given once.
    pub fn take_tablebase_problems(&self) -> Vec<String> {
        self.tb
            .as_ref()
            .map(|t| t.take_problems())
            .unwrap_or_default()
    }

    /// What the tablebase has to say since the last call (a build begun or finished in the
    /// background), each said once.
    pub fn take_tablebase_news(&self) -> Vec<String> {
        self.tb.as_ref().map(|t| t.take_news()).unwrap_or_default()
    }

    /// Whether a tablebase is set.
    pub fn has_tablebase(&self) -> bool {
        self.tb.is_some()
    }

    /// Forgets what earlier games taught: the table and the history of plies; a new game also
    /// draws new random choices unless a seed is set.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.heuristics = Heuristics::new();
        self.entropy = fresh_entropy();
    }

    /// Searches the game's current position (the history is used for repetition).
    ///
    /// Calls `on_info` after every finished iteration of the main thread, once per line of
    /// analysis. When the game is over, returns at once with `best: None`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let pos = *game.position();
        if let Some(outcome) = game.outcome() {
            let score = match outcome.winner {
                None => Score::Cp(0),
                Some(_) => Score::Mate(0),
            };
            return SearchResult {
                best: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                root: Vec::new(),
            };
        }
        let profile = level::profile(self.options.level, &pos);
        let multi_pv = if profile.choose {
            usize::MAX
        } else {
            self.options.multi_pv
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .min(profile.depth.unwrap_or(MAX_DEPTH))
            .clamp(1, MAX_DEPTH);
        let budget = time::budget(limits, &pos);
        let positions = game.positions();
        let window = (pos.plies_since_removal() as usize).min(positions.len() - 1);
        let prior: Vec<u64> = positions[positions.len() - 1 - window..positions.len() - 1]
            .iter()
            .map(Position::hash)
            .collect();

        self.tt.new_search();
        self.heuristics.age();
        let abort = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared = Shared {
            tt: &self.tt,
            stop: &limits.stop,
            abort: &abort,
            nodes: &nodes,
            deadline: budget.hard.map(|d| start + d),
            node_limit: match (limits.nodes, profile.nodes) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            tb: self.tb.as_deref(),
            draw_value: -self.contempt(&pos),
            placing_tables: self.options.level >= EngineOptions::MAX_LEVEL
                && self.tb.as_ref().is_some_and(|t| t.holds_placing()),
            salt: rules_salt(&pos),
            prior: &prior,
            quiescence: profile.quiescence,
        };
        let root_moves = self.root_moves(&pos, &shared);
        let threads = self.options.threads;
        let report_lines = self.options.multi_pv;
        let mut heuristics = std::mem::take(&mut self.heuristics);
        let order = root_moves.iter().map(|m| m.ply).collect();
        let job = Job {
            order,
            pos: &pos,
            max_depth,
            multi_pv,
            report_lines,
            budget,
            start,
            limits,
        };
        let outcome = std::thread::scope(|scope| {
            for helper in 1..threads {
                let shared = &shared;
                let moves = root_moves.clone();
                let job = &job;
                scope.spawn(move || {
                    let mut worker = Worker::new(shared, Heuristics::new());
                    iterate(&mut worker, job, moves, helper, None);
                    worker.flush();
                });
            }
            let mut worker = Worker::new(&shared, std::mem::take(&mut heuristics));
            let outcome = iterate(&mut worker, &job, root_moves, 0, Some(on_info));
            abort.store(true, Ordering::Relaxed);
            worker.flush();
            heuristics = std::mem::take(&mut worker.heuristics);
            outcome
        });
        self.heuristics = heuristics;

        let mut moves = outcome.moves;
        let mut chosen = 0;
        if profile.choose && outcome.depth > 0 {
            let seed = self.options.seed.unwrap_or(self.entropy)
                ^ pos.hash()
                ^ (game.plies().len() as u64).rotate_left(40);
            let mut rng = Rng::new(seed);
            let values: Vec<i32> = moves.iter().map(|m| m.value).collect();
            chosen = level::choose(&values, &profile, &mut rng);
        }
        let root = if multi_pv > 1 && outcome.depth > 0 {
            moves.iter().map(|m| (m.ply, to_score(m.value))).collect()
        } else {
            Vec::new()
        };
        let best = moves.swap_remove(chosen);
        SearchResult {
            best: Some(best.ply),
            score: if outcome.depth > 0 {
                to_score(best.value)
            } else {
                Score::Cp(0)
            },
            depth: outcome.depth,
            nodes: nodes.load(Ordering::Relaxed),
            pv: best.pv,
            root,
        }
    }

    /// The contempt for draws by the rules in a search of `pos`: the option scaled by the
    /// level, and none where the tables say the position is a draw anyway.
    fn contempt(&self, pos: &Position) -> i32 {
        let c = self.options.contempt * i32::from(self.options.level)
            / i32::from(EngineOptions::MAX_LEVEL);
        if c != 0 {
            if let Some(tb) = &self.tb {
                if tb.probe(pos) == Some(TbValue::Draw) {
                    return 0;
                }
            }
        }
        c
    }

    /// The root plies in a first order: the table's ply, removals, blocks, history.
    fn root_moves(&self, pos: &Position, shared: &Shared<'_>) -> Vec<RootMove> {
        let plies = pos.legal_plies();
        let table = shared
            .tt
            .probe(pos.hash() ^ shared.salt)
            .and_then(|e| e.ply_index)
            .map(usize::from)
            .filter(|&i| i < plies.len());
        let mut picker = Picker::new(pos, plies, table, &self.heuristics, 0);
        let mut moves = Vec::with_capacity(picker.len());
        while let Some((ply, _, _)) = picker.next() {
            moves.push(RootMove {
                ply,
                value: 0,
                pv: vec![ply],
            });
        }
        if let Some(tb) = shared.tb {
            let strongest = self.options.level >= EngineOptions::MAX_LEVEL;
            keep_table_best(pos, tb, strongest, &mut moves);
        }
        moves
    }
}

/// Where the tablebase holds every child of the root, keeps only the plies that are best by
/// it: the shortest win, the longest resistance, a draw rather than a loss. The search then
/// only chooses among perfect plies, however little time it has. Among plies that keep a
/// draw, the strongest level keeps the one that sets the opponent the best traps
/// ([`trap_weight`]), so that a fallible opponent can go wrong. Weaker levels use the tables
/// only once the pieces are all placed, and choose freely among drawing plies.
fn keep_table_best(pos: &Position, tb: &dyn Probe, strongest: bool, moves: &mut Vec<RootMove>) {
    let placing = pos.in_hand(pos.turn()) != 0 || pos.in_hand(!pos.turn()) != 0;
    if placing && !(strongest && tb.holds_placing()) {
        return;
    }
    let Ok(scored) = score_plies(pos, |c| tb.probe(c).ok_or(())) else {
        return;
    };
    let Some(&(_, best)) = scored.first() else {
        return;
    };
    let mut keep: Vec<Ply> = scored
        .iter()
        .take_while(|&&(_, v)| v == best)
        .map(|&(p, _)| p)
        .collect();
    if strongest && best == TbValue::Draw && keep.len() > 1 {
        let weights: Vec<f64> = keep
            .iter()
            .map(|&p| trap_weight(&pos.after_unchecked(p), tb))
            .collect();
        let top = weights.iter().copied().fold(0.0, f64::max);
        if top > 0.0 {
            let mut w = weights.into_iter();
            keep.retain(|_| w.next().is_some_and(|x| x >= top));
        }
    }
    moves.retain(|m| keep.contains(&m.ply));
}

/// How likely the side to move in `pos`, a drawn position, is to go wrong: the share of its
/// plies that lose, each weighted by how natural it looks (a softmax of the static evaluation
/// of the position it reaches, 60 centipawns apart for a factor e). A ply that the evaluation
/// likes and the tables call lost is the best trap. Zero when a ply cannot be probed.
pub fn trap_weight(pos: &Position, tb: &dyn Probe) -> f64 {
    const TEMPERATURE: f64 = 60.0;
    let mut looks = Vec::new();
    for ply in pos.legal_plies() {
        let child = pos.after_unchecked(ply);
        let value = match crate::terminal_value(&child) {
            Some(v) => v,
            None => match tb.probe(&child) {
                Some(v) => v,
                None => return 0.0,
            },
        };
        // The evaluation is the child's side's; the mover sees it negated.
        let look = -f64::from(crate::eval::evaluate(&child));
        looks.push((look, value.parent().wdl() == crate::Wdl::Loss));
    }
    let Some(best) = looks.iter().map(|&(l, _)| l).reduce(f64::max) else {
        return 0.0;
    };
    let (mut total, mut losing) = (0.0, 0.0);
    for (look, loses) in looks {
        let w = ((look - best) / TEMPERATURE).exp();
        total += w;
        if loses {
            losing += w;
        }
    }
    if total > 0.0 { losing / total } else { 0.0 }
}

/// What every thread's iterations share.
struct Job<'a> {
    pos: &'a Position,
    max_depth: u32,
    multi_pv: usize,
    report_lines: usize,
    budget: Budget,
    start: Instant,
    limits: &'a Limits,
    /// The root's plies in a fixed order, to tell one best ply from another.
    order: Vec<Ply>,
}

/// Iterative deepening with an aspiration window, in one thread.
fn iterate(
    worker: &mut Worker<'_>,
    job: &Job<'_>,
    mut moves: Vec<RootMove>,
    helper: usize,
    mut on_info: Option<&mut dyn FnMut(&Info)>,
) -> Iterations {
    let mut completed = 0;
    let mut pacing = time::Pacing::new(job.budget, job.limits, job.pos);
    let mut last_moves = moves.clone();
    let mut previous = 0;
    for depth in 1..=job.max_depth {
        if helper % 2 == 1 && depth > 2 && depth % 2 == 0 {
            continue;
        }
        let d = depth as i32;
        // The first iteration always finishes, so that there is a ply to play.
        worker.armed = completed > 0;
        let single = job.multi_pv == 1;
        let mut delta = 30;
        let (mut alpha, mut beta) = if single && depth >= 4 && !is_mate(previous) {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        let value = loop {
            let v = worker.root(job.pos, d, alpha, beta, &mut moves, job.multi_pv);
            if worker.stopped {
                break v;
            }
            if v <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta && beta < INFINITE {
                beta = (v + delta).min(INFINITE);
            } else {
                break v;
            }
            delta *= 2;
            if delta > 400 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        };
        if worker.stopped {
            if completed == 0 {
                last_moves = moves;
            } else if moves.first().map(|m| m.ply) != last_moves.first().map(|m| m.ply)
                && job.multi_pv == 1
            {
                // A ply that beat the last best within this unfinished iteration.
                last_moves = moves;
            }
            break;
        }
        previous = value;
        completed = depth;
        last_moves.clone_from(&moves);
        if let Some(report) = on_info.as_deref_mut() {
            let nodes = worker.total_nodes();
            let time = job.start.elapsed();
            for (i, m) in moves.iter().take(job.report_lines).enumerate() {
                report(&Info {
                    depth,
                    multipv: i + 1,
                    score: to_score(m.value),
                    nodes,
                    nps: nps(nodes, time),
                    time,
                    pv: m.pv.clone(),
                });
            }
        }
        if helper > 0 {
            continue;
        }
        if !job.limits.infinite {
            if is_proven(value, d) && job.multi_pv == 1 {
                break;
            }
            if moves.len() == 1 && job.limits.clock.is_some() {
                break;
            }
            if let Some(best) = moves.first() {
                let index = job.order.iter().position(|&p| p == best.ply).unwrap_or(0);
                // One ply far ahead of every other is as good as forced.
                let forced = moves.len() > 1
                    && job.multi_pv == 1
                    && moves[1..].iter().all(|m| m.value < value - FORCED_MARGIN);
                pacing.iteration(index, value, forced);
            }
            if pacing.stop(job.start.elapsed()) {
                break;
            }
        }
    }
    Iterations {
        moves: last_moves,
        depth: completed,
    }
}

/// Nodes per second.
pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics::new()
    }
}
