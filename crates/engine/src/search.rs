//! The search: iterative deepening over a principal variation search with a transposition
//! table, late-move reductions, a quiescence search of removals, and the draw rules.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use morris_core::{Ply, Position};

use crate::eval::evaluate;
use crate::ordering::{Heuristics, MAX_PLY, Picker};
use crate::score::value::{INFINITE, MATE_BOUND, from_table, is_mate, mate_in, mated_in, to_table};
use crate::tt::{Bound, Entry, Table};
use crate::{Probe, TbValue};

/// How often (in nodes) a worker looks at the clock and the stop flags.
const CHECK_EVERY: u64 = 256;
/// The deepest quiescence line of removals.
const QUIESCENCE_DEPTH: usize = 8;

/// What every search thread shares.
pub(crate) struct Shared<'a> {
    pub tt: &'a Table,
    /// Set by the caller to stop.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to stop the helpers.
    pub abort: &'a AtomicBool,
    /// Nodes over all threads, flushed now and then.
    pub nodes: &'a AtomicU64,
    pub deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub tb: Option<&'a dyn Probe>,
    /// Mixed into every table key so that positions of different rules never meet.
    pub salt: u64,
    /// Hashes of the game's positions before the root, oldest first.
    pub prior: &'a [u64],
    /// Whether the quiescence search runs (weak levels turn it off).
    pub quiescence: bool,
    /// The value of a draw by the game's rules (repetition, N-move rule) for the side to move
    /// at the root: minus the contempt.
    pub draw_value: i32,
    /// Whether the tables are probed in the placing phase too (the strongest level, with
    /// tables that hold it).
    pub placing_tables: bool,
}

impl std::fmt::Debug for Shared<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("deadline", &self.deadline)
            .field("node_limit", &self.node_limit)
            .finish_non_exhaustive()
    }
}

/// A root ply and what the search found for it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub ply: Ply,
    /// The value found in the last iteration that searched it.
    pub value: i32,
    pub pv: Vec<Ply>,
}

/// One search thread.
#[derive(Debug)]
pub(crate) struct Worker<'a> {
    sh: &'a Shared<'a>,
    pub heuristics: Heuristics,
    /// Nodes of this thread.
    pub nodes: u64,
    unflushed: u64,
    pub stopped: bool,
    path: [u64; MAX_PLY + 2],
    pv: Vec<Vec<Ply>>,
    /// Whether the deadline and the node limit apply yet.
    pub armed: bool,
}

impl<'a> Worker<'a> {
    pub fn new(sh: &'a Shared<'a>, heuristics: Heuristics) -> Worker<'a> {
        Worker {
            sh,
            heuristics,
            nodes: 0,
            unflushed: 0,
            stopped: false,
            path: [0; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            armed: false,
        }
    }

    /// Nodes over all threads, as far as known.
    pub fn total_nodes(&self) -> u64 {
        self.sh.nodes.load(Ordering::Relaxed) + self.unflushed
    }

    pub fn flush(&mut self) {
        self.sh.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if let Some(limit) = self.sh.node_limit.filter(|_| self.armed) {
            if self.total_nodes() >= limit {
                self.stopped = true;
            }
        }
        if self.unflushed >= CHECK_EVERY {
            self.flush();
            if self.sh.stop.load(Ordering::Relaxed)
                || self.sh.abort.load(Ordering::Relaxed)
                || (self.armed && self.sh.deadline.is_some_and(|d| Instant::now() >= d))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn key(&self, pos: &Position) -> u64 {
        pos.hash() ^ self.sh.salt
    }

    /// Whether the position at `ply` repeats: once within the search (the side to move could
    /// repeat it again), or often enough with the game's history to be a draw by itself.
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let needed = pos.rules().repetition as usize;
        if needed == 0 {
            return false;
        }
        let hash = pos.hash();
        let window = pos.plies_since_removal() as usize;
        let mut back = 2;
        while back <= window && back <= ply {
            if self.path[ply - back] == hash {
                return true;
            }
            back += 2;
        }
        let mut count = 1;
        let prior = self.sh.prior;
        while back <= window && back - ply <= prior.len() {
            if prior[prior.len() - (back - ply)] == hash {
                count += 1;
                if count >= needed {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// The value of a node that ends the line: the game is over, or drawn by its rules.
    fn terminal(&self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(outcome) = pos.outcome() {
            return Some(match outcome.winner {
                None => 0,
                Some(c) if c == pos.turn() => mate_in(ply),
                Some(_) => mated_in(ply),
            });
        }
        if pos.n_move_limit_reached() || self.is_repetition(pos, ply) {
            // The root's side moves at even plies.
            return Some(if ply % 2 == 0 {
                self.sh.draw_value
            } else {
                -self.sh.draw_value
            });
        }
        None
    }

    fn set_pv(&mut self, ply: usize, first: Ply) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(first);
        line.extend_from_slice(&tail[0]);
    }

    /// The principal variation search of a node that is not the root.
    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.path[ply] = pos.hash();
        self.pv[ply].clear();
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        if self.count_node() {
            return 0;
        }

        let key = self.key(pos);
        let entry = self.sh.tt.probe(key);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                let v = from_table(e.value, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }

        if let Some(tb) = self.sh.tb {
            let placing = pos.in_hand(pos.turn()) != 0 || pos.in_hand(!pos.turn()) != 0;
            if !placing || self.sh.placing_tables {
                if let Some(value) = tb.probe(pos) {
                    return match value {
                        TbValue::Win(d) => mate_in(ply + d as usize),
                        TbValue::Loss(d) => mated_in(ply + d as usize),
                        TbValue::Draw => 0,
                    };
                }
            }
        }

        let eval = match entry.and_then(|e| e.eval) {
            Some(e) => e,
            None => evaluate(pos),
        };
        // Reverse futility: far above beta near the leaves, a quiet ply will not fall below.
        if !pv_node && depth <= 2 && !is_mate(beta) && eval - 140 * depth >= beta {
            return eval - 140 * depth;
        }

        let plies = pos.legal_plies();
        let count = plies.len();
        let table_index = entry
            .and_then(|e| e.ply_index)
            .map(usize::from)
            .filter(|&i| i < count);
        let mut picker = Picker::new(pos, plies, table_index, &self.heuristics, ply);
        let hands = pos.in_hand(pos.turn()) + pos.in_hand(!pos.turn());
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_index = None;
        // At most this many are remembered; later ones are not penalised.
        let mut quiets_tried: ArrayVec<Ply, 48> = ArrayVec::new();
        let mut n = 0;
        while let Some((child_ply, index, quiet)) = picker.next() {
            let mut child = *pos;
            child.play_unchecked(child_ply);
            let mut new_depth = depth - 1;
            if count == 1 {
                // A forced ply costs nothing to follow further.
                new_depth += 1;
            } else if hands == 1 {
                // The last placement: look at the first plies of the moving phase too.
                new_depth += 1;
            }
            let mut v;
            if n == 0 {
                v = -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 3 && n >= 3 && quiet && !self.heuristics.is_killer(ply, child_ply) {
                    r = 1 + i32::from(n >= 8) + i32::from(depth >= 8 && n >= 16);
                    r = r.min(new_depth - 1).max(0);
                }
                v = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if v > alpha && r > 0 {
                    v = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node {
                    v = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            if self.stopped {
                return 0;
            }
            n += 1;
            if v > best {
                best = v;
                best_index = Some(index);
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        self.set_pv(ply, child_ply);
                    }
                    if v >= beta {
                        if quiet {
                            self.heuristics.reward(
                                pos.turn(),
                                ply,
                                child_ply,
                                &quiets_tried,
                                depth,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(child_ply);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh.tt.store(
            key,
            Entry {
                ply_index: best_index.map(|i| i as u16),
                value: to_table(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                eval: Some(eval),
            },
        );
        best
    }

    /// The quiescence search: the side to move may stand on the evaluation or remove.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
    ) -> i32 {
        self.path[ply] = pos.hash();
        self.pv[ply].clear();
        if qdepth > 0 {
            if let Some(v) = self.terminal(pos, ply) {
                return v;
            }
        }
        if self.count_node() {
            return 0;
        }
        let stand = evaluate(pos);
        if stand >= beta
            || !self.sh.quiescence
            || qdepth >= QUIESCENCE_DEPTH
            || ply >= MAX_PLY - 1
            || pos.mill_points(pos.turn()).is_empty()
        {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut plies = pos.legal_plies();
        plies.retain(|p| p.is_removal());
        let picker_plies = plies;
        let mut picker = Picker::new(pos, picker_plies, None, &self.heuristics, ply);
        while let Some((child_ply, _, _)) = picker.next() {
            let mut child = *pos;
            child.play_unchecked(child_ply);
            let v = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, child_ply);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches the root plies to `depth` in the window, `multi_pv` of them exactly. Updates
    /// the root plies' values and keeps them ordered best first. Returns the best value.
    pub fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        moves: &mut [RootMove],
        multi_pv: usize,
    ) -> i32 {
        self.path[0] = pos.hash();
        self.pv[0].clear();
        self.count_node();
        let k = multi_pv.min(moves.len()).max(1);
        let mut best = -INFINITE;
        // Values of the plies searched in this iteration, best first, to find the k-th.
        let mut found: Vec<i32> = Vec::with_capacity(moves.len());
        let mut new_best: Option<usize> = None;
        for (i, m) in moves.iter_mut().enumerate() {
            let ply = m.ply;
            let mut child = *pos;
            child.play_unchecked(ply);
            let floor = if k == 1 {
                alpha
            } else if found.len() >= k {
                found[k - 1].max(alpha)
            } else {
                alpha
            };
            let mut v;
            if i == 0 || (k > 1 && floor == alpha && found.len() < k) {
                v = -self.search(&child, depth - 1, -beta, -floor, 1, true);
            } else {
                v = -self.search(&child, depth - 1, -floor - 1, -floor, 1, false);
                if v > floor && v < beta && !self.stopped {
                    v = -self.search(&child, depth - 1, -beta, -floor, 1, true);
                }
            }
            if self.stopped {
                break;
            }
            m.value = v;
            m.pv.clear();
            m.pv.push(ply);
            if v > floor {
                m.pv.extend_from_slice(&self.pv[1]);
            }
            let at = found.partition_point(|&x| x >= v);
            found.insert(at, v);
            if v > best {
                best = v;
            }
            if k == 1 && v > alpha {
                alpha = v;
                new_best = Some(i);
                if v >= beta {
                    break;
                }
            }
        }
        if self.stopped {
            // Keep the last iteration's order, but a ply that beat the first one goes first.
            if let Some(i) = new_best.filter(|&i| i > 0) {
                moves[..=i].rotate_right(1);
            }
        } else if k == 1 {
            if let Some(i) = new_best {
                moves[..=i].rotate_right(1);
            }
        } else {
            let searched = found.len().min(moves.len());
            moves[..searched].sort_by_key(|m| std::cmp::Reverse(m.value));
        }
        best
    }
}

/// Whether a value proves a forced end found within `depth` plies, so that deeper iterations
/// cannot change it.
pub(crate) fn is_proven(value: i32, depth: i32) -> bool {
    value.abs() > MATE_BOUND && (crate::score::value::MATE - value.abs()) < depth
}
