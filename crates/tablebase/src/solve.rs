//! The retrograde solver of one group of sectors.
//!
//! Moving-phase sectors `W-B` and `B-W` are solved together: plies without removal go back and
//! forth between them, plies with removal lead to sectors solved before. Each position gets a
//! counter of its distinct successor classes inside the group; positions decided at distance
//! `d` form the work queue of layer `d`, and their un-moves decide or count down their
//! predecessors. Successors in sectors solved before (and finished games) are known at the
//! start: a known lost successor offers a win at a fixed distance, queued for its layer.
//! Sectors with pieces in hand lead only to sectors solved before and are evaluated directly.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use crate::progress::{Progress, Step};
use morris_core::{PlyList, Position, Rules};
use rayon::prelude::*;

use crate::arena::{Arena, Zeroable};
use crate::bits::prefetch;
use crate::error::TbError;
use crate::file::SectorStats;
use crate::forward::{make_position, split, terminal_value, value_from_children};
use crate::index::{AddOne, SectorIndex};
use crate::moving::{Exits, Moving};
use crate::placing::Placing;
use crate::sector::Sector;
use crate::tables::Table;
use crate::unmove::for_each_unmove;
use crate::value::{DRAW, MAX_DISTANCE, NOT_A_POSITION, Value, decode, encode_distance};

/// `aux` of a position with a drawn or lost successor outside the group: it cannot lose.
const CANNOT_LOSE: u8 = 254;
/// `aux` of a finished game or of an index that stands for no position.
const FIXED: u8 = 255;

/// The bytes of memory a group needs while it is solved, per position: value, counter and
/// flags.
pub const BYTES_PER_POSITION: u64 = 3;

/// The bytes of a work-queue entry (slot and index packed in one word).
pub const BYTES_PER_QUEUE_ENTRY: u64 = 4;

/// Decided positions handed to their predecessors this many at a time: the predecessors of
/// the whole batch are found and their state asked of the memory first, then updated, so that
/// the processor waits for their cache misses together rather than one after another (each
/// update is an atomic operation, which would otherwise wait for every access before it).
const PROPAGATE_BATCH: usize = 8;

/// Positions set up this many at a time at the start, for the same reason: the values of
/// their successors after a removal are read from the lower table only once the whole batch
/// has asked for them.
const SETTLE_BATCH: usize = 8;

/// One sector of the group being solved.
struct Slot {
    index: SectorIndex,
    /// Moving-phase sectors: the state of each position, its three bytes side by side so that
    /// one cache line holds them all. Empty for sectors with pieces in hand.
    cells: Arena<Cell>,
    /// Sectors with pieces in hand: the value of each position (`NOT_A_POSITION` until
    /// evaluated, and for indices that stand for no position).
    values: Arena<AtomicU8>,
}

/// The state of a position of a moving-phase sector while its group is solved.
#[repr(C)]
struct Cell {
    /// The value byte (`DRAW` until decided, `NOT_A_POSITION` for an index that stands for
    /// no position).
    value: AtomicU8,
    /// The successors inside the group not yet known to be won for the opponent.
    counter: AtomicU8,
    /// `FIXED`, `CANNOT_LOSE`, or the longest loss through successors outside the group.
    aux: AtomicU8,
}

// SAFETY: `#[repr(C)]` with only `AtomicU8` fields.
#[allow(unsafe_code)]
unsafe impl Zeroable for Cell {}

impl Cell {
    /// Marks an index whose position is not set up (yet): no position, fixed.
    fn set_unused(&self) {
        self.value.store(NOT_A_POSITION, Relaxed);
        self.aux.store(FIXED, Relaxed);
    }
}

/// Zeroed state for `n` positions in memory of its own (see [`Arena`]), set by `init` in
/// parallel.
fn arena<T: Zeroable + Send>(n: usize, init: impl Fn(&T) + Sync) -> Result<Arena<T>, TbError> {
    let a = Arena::zeroed(n)?;
    a.par_chunks(1 << 16)
        .for_each(|chunk| chunk.iter().for_each(&init));
    Ok(a)
}

/// The solver of a group of sectors, given the tables of the sectors it depends on.
pub(crate) struct GroupSolver<'a> {
    pub rules: Rules,
    pub group: Vec<Sector>,
    pub lower: &'a [(Sector, Arc<Table>)],
    pub progress: &'a dyn Progress,
}

/// How a successor is known at the start.
enum Child {
    /// Inside the group: slot and index.
    Inside(u8, u64),
    /// Known: finished game or a sector solved before.
    Known(Value),
}

impl GroupSolver<'_> {
    fn classify(&self, slots: &[Slot], child: &Position) -> Result<Child, TbError> {
        if let Some(v) = terminal_value(child) {
            return Ok(Child::Known(v));
        }
        let (sector, us, them) = split(child);
        if let Some(k) = self.group.iter().position(|&s| s == sector) {
            let slot = slots.get(k).ok_or_else(|| {
                TbError::Unsupported(format!("sector {sector} leads into itself"))
            })?;
            return Ok(Child::Inside(k as u8, slot.index.index(us, them)));
        }
        let table = self
            .lower
            .iter()
            .find_map(|(s, t)| (*s == sector).then_some(t))
            .ok_or(TbError::Missing(sector))?;
        table.value(us, them).map(Child::Known)
    }

    /// Solves the group: the value bytes of each sector, in the group's order.
    pub fn solve(&self) -> Result<Vec<Vec<u8>>, TbError> {
        let slots: Vec<Slot> = self
            .group
            .iter()
            .map(|&s| {
                let index = SectorIndex::new(self.rules.board, s);
                let n = index.len() as usize;
                let (cells, values) = if s.is_moving() {
                    (arena(n, Cell::set_unused)?, Arena::zeroed(0)?)
                } else {
                    let unused = |v: &AtomicU8| v.store(NOT_A_POSITION, Relaxed);
                    (Arena::zeroed(0)?, arena(n, unused)?)
                };
                Ok(Slot {
                    cells,
                    values,
                    index,
                })
            })
            .collect::<Result<_, TbError>>()?;
        let names = self
            .group
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("+");
        if self.group.iter().all(|s| s.is_moving()) {
            self.retrograde(&slots, &names)?;
        } else {
            for slot in &slots {
                self.direct(slot, &names)?;
            }
        }
        Ok(slots
            .into_iter()
            .map(|s| {
                if s.cells.is_empty() {
                    s.values.par_iter().map(|v| v.load(Relaxed)).collect()
                } else {
                    s.cells.par_iter().map(|c| c.value.load(Relaxed)).collect()
                }
            })
            .collect())
    }

    /// Sectors with pieces in hand: every successor is in a sector solved before.
    ///
    /// The positions are visited by the class of the other side's set, which is the side to
    /// move's set in every successor, so that the successors' values are read from a small part
    /// of each lower table at a time (see [`SectorIndex::for_each_by_them`]).
    fn direct(&self, slot: &Slot, names: &str) -> Result<(), TbError> {
        let index = &slot.index;
        let sector = index.sector();
        // Whether the sector's counts make positions at all (its values stay
        // `NOT_A_POSITION` if not): the same for every position of a sector but under the
        // rules where a line wins, which the core's generation handles.
        let occurs = index
            .position(0)
            .is_some_and(|(us, them)| make_position(&self.rules, sector, us, them).is_some());
        if !occurs && !self.rules.line_wins {
            return Ok(());
        }
        let placing = Placing::new(&self.rules, sector, |s| {
            self.lower
                .iter()
                .find_map(|(t, table)| (*t == s).then_some(&**table))
        })?;
        let bar = Step::new(self.progress, index.len(), format!("{names} evaluate"));
        let per_class = index.len() / index.them_classes().max(1) as u64;
        (0..index.them_classes())
            .into_par_iter()
            .try_for_each(|c| {
                let mut result = Ok(());
                let mut store = |us: u32, them: u32, byte: Result<u8, TbError>| match byte {
                    Ok(byte) => slot.values[index.index(us, them) as usize].store(byte, Relaxed),
                    Err(e) => result = Err(e),
                };
                match &placing {
                    Some(placing) => {
                        let mut ctx = None;
                        let mut add = AddOne::default();
                        index.for_each_by_them(c, |us, them| {
                            let ctx = ctx.get_or_insert_with(|| placing.them(them));
                            let byte = placing
                                .value(ctx, us, &mut add)
                                .and_then(|v| encode(v, sector));
                            store(us, them, byte);
                        });
                    }
                    None => index.for_each_by_them(c, |us, them| {
                        store(us, them, self.direct_value(sector, us, them));
                    }),
                }
                bar.inc(per_class);
                result
            })?;
        drop(bar);
        Ok(())
    }

    fn direct_value(&self, sector: Sector, us: u32, them: u32) -> Result<u8, TbError> {
        let Some(pos) = make_position(&self.rules, sector, us, them) else {
            return Ok(NOT_A_POSITION);
        };
        let value = value_from_children(&pos, |c| match self.classify(&[], c)? {
            Child::Known(v) => Ok(v),
            Child::Inside(..) => Err(TbError::Unsupported(format!(
                "sector {sector} leads into itself"
            ))),
        })?;
        encode(value, sector)
    }

    /// Moving-phase groups: counters, un-moves and layers.
    fn retrograde(&self, slots: &[Slot], names: &str) -> Result<(), TbError> {
        let total: u64 = slots.iter().map(|s| s.index.len()).sum();
        if slots
            .iter()
            .any(|s| s.index.len() > u64::from(INDEX_MASK) + 1)
        {
            return Err(TbError::Unsupported(format!(
                "sectors {names}: more than 2^31 indices in one sector"
            )));
        }
        // Pending decisions by distance, as packed (slot, index) entries.
        let pending: Mutex<Vec<Vec<u32>>> = Mutex::new(Vec::new());
        let bar = Step::new(self.progress, total, format!("{names} initialise"));
        for (k, slot) in slots.iter().enumerate() {
            let sector = self.group[k];
            // A ply without removal leads to the partner sector, where the side to move is
            // `them`.
            let partner = Sector::moving(sector.them, sector.us);
            let pk = self
                .group
                .iter()
                .position(|&s| s == partner)
                .ok_or_else(|| {
                    TbError::Unsupported(format!("sector {sector} is solved without {partner}"))
                })?;
            let moving = Moving::new(&self.rules, sector, |s| {
                self.lower
                    .iter()
                    .find_map(|(t, table)| (*t == s).then_some(&**table))
            })?;
            let per_class = slot.index.len() / slot.index.classes().max(1) as u64;
            let lower = moving.as_ref().and_then(Moving::lower);
            (0..slot.index.classes())
                .into_par_iter()
                .with_min_len(16)
                .try_for_each_init(
                    || (Vec::new(), Settling::default()),
                    |(found, batch): &mut (Vec<(u16, u32)>, Settling), c| {
                        let mut result = Ok(());
                        slot.index.for_each_in_class(c, |i, us, them| {
                            if result.is_err() {
                                return;
                            }
                            let exits = batch.next();
                            let start = match &moving {
                                Some(m) => {
                                    let ctx = m.them(them, &slots[pk].index);
                                    m.exits(&ctx, us, &slots[pk].index, pk as u8, exits)
                                }
                                None => self.exits(slots, k, pk, us, them, exits),
                            };
                            result = start.and_then(|start| {
                                batch.push(i, start);
                                if batch.is_full() {
                                    batch.settle(self, slot, sector, k, lower, found)
                                } else {
                                    Ok(())
                                }
                            });
                        });
                        result?;
                        batch.settle(self, slot, sector, k, lower, found)?;
                        bar.inc(per_class);
                        // Hand the class's decisions over at once, so that no large buffer
                        // builds up beside the queues.
                        if !found.is_empty() {
                            let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
                            for (d, e) in found.drain(..) {
                                let d = usize::from(d);
                                if p.len() <= d {
                                    p.resize(d + 1, Vec::new());
                                }
                                p[d].push(e);
                            }
                        }
                        Ok(())
                    },
                )?;
        }
        drop(bar);
        // The slot of each slot's partner sector, where its plies without removal lead.
        let partners = self
            .group
            .iter()
            .map(|s| {
                let partner = Sector::moving(s.them, s.us);
                self.group.iter().position(|&t| t == partner).unwrap_or(0)
            })
            .collect::<Vec<_>>();
        let bar = Step::new(self.progress, total, format!("{names} layers"));
        let overflow = AtomicBool::new(false);
        let mut frontier: Vec<u32> = Vec::new();
        let mut d: u16 = 1;
        loop {
            // Add the pending decisions of this layer.
            let queued = {
                let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
                let later = p.iter().skip(usize::from(d)).any(|l| !l.is_empty());
                if frontier.is_empty() && !later {
                    break;
                }
                if d > MAX_DISTANCE {
                    overflow.store(true, Relaxed);
                    break;
                }
                p.get_mut(usize::from(d))
                    .map(std::mem::take)
                    .unwrap_or_default()
            };
            let code = encode_distance(d);
            for e in queued {
                let (k, i) = unpack(e);
                let slot = &slots[k];
                let cell = &slot.cells[i];
                if cell.aux.load(Relaxed) != FIXED
                    && cell
                        .value
                        .compare_exchange(DRAW, code, Relaxed, Relaxed)
                        .is_ok()
                {
                    frontier.push(e);
                }
            }
            bar.inc(frontier.len() as u64);
            bar.set_message(format!("{names} layer {d}"));
            let next: Vec<u32> = frontier
                .par_chunks(PROPAGATE_BATCH)
                .with_min_len(32)
                .fold(
                    || (Vec::new(), Propagation::default()),
                    |(mut acc, mut scratch), batch| {
                        self.propagate(
                            slots,
                            &partners,
                            batch,
                            d,
                            &pending,
                            &mut scratch,
                            &mut acc,
                        );
                        (acc, scratch)
                    },
                )
                .map(|(acc, _)| acc)
                .reduce(Vec::new, |mut a, b| {
                    a.extend(b);
                    a
                });
            frontier = next;
            d += 1;
        }
        drop(bar);
        if overflow.load(Relaxed) {
            return Err(TbError::TooLong(self.group[0]));
        }
        Ok(())
    }

    /// The successors of the position with `us` to move and `them` in slot `k` by the core's
    /// move generation (`pk` the slot of the partner sector), or its value if the game is over
    /// there or the position cannot occur (`Win(0)`, stored as no position).
    fn exits(
        &self,
        slots: &[Slot],
        k: usize,
        pk: usize,
        us: u32,
        them: u32,
        exits: &mut Exits,
    ) -> Result<Option<Value>, TbError> {
        let Some(pos) = make_position(&self.rules, self.group[k], us, them) else {
            return Ok(Some(Value::Win(0)));
        };
        if let Some(v) = terminal_value(&pos) {
            return Ok(Some(v));
        }
        exits.clear();
        let mut plies = PlyList::new();
        pos.legal_plies_into(&mut plies);
        // In every child without removal the side to move is `them`. Two such children share
        // an index only when a symmetry other than the identity maps one to the other, and so
        // fixes `them`: without such a symmetry they are simply counted.
        let prepared = slots[pk].index.prepare(them);
        let mover = pos.turn();
        for &ply in &plies {
            let c = pos.after_unchecked(ply);
            if ply.is_removal() {
                match self.classify(slots, &c)? {
                    Child::Known(v) => exits.known(v),
                    Child::Inside(s, j) => exits.inside.push((s, j)),
                }
            } else if let Some(v) = terminal_value(&c) {
                exits.known(v);
            } else if prepared.is_asymmetric() {
                exits.counted += 1;
            } else {
                let j = slots[pk].index.index_with(&prepared, c.pieces(mover).0);
                exits.inside.push((pk as u8, j));
            }
        }
        Ok(None)
    }

    /// Sets up position `i` of `slot` from what its successors tell (`start` its value if the
    /// game is over there); returns the distance at which it is decided by what is known at
    /// the start, if any.
    fn settle(
        &self,
        slot: &Slot,
        sector: Sector,
        i: u64,
        start: Option<Value>,
        exits: &mut Exits,
    ) -> Result<Option<u16>, TbError> {
        let cell = &slot.cells[i as usize];
        if let Some(v) = start {
            cell.value.store(encode(v, sector)?, Relaxed);
            cell.aux.store(FIXED, Relaxed);
            return Ok(None);
        }
        exits.inside.sort_unstable();
        exits.inside.dedup();
        let successors = exits.counted + exits.inside.len();
        if successors > 250 {
            return Err(TbError::Unsupported(format!(
                "sector {sector}: more successors than a counter holds"
            )));
        }
        cell.value.store(DRAW, Relaxed);
        cell.counter.store(successors as u8, Relaxed);
        // `aux` keeps the distance of the longest loss through known successors (the longest
        // known win of the opponent plus one, at most MAX_DISTANCE), or says that a known draw
        // is available. A position with a known lost or drawn successor never loses.
        let aux = if exits.draw_exit || exits.best_win.is_some() {
            CANNOT_LOSE
        } else {
            exits.longest_loss.min(MAX_DISTANCE) as u8
        };
        cell.aux.store(aux, Relaxed);
        if let Some(w) = exits.best_win {
            return Ok(Some(w.min(MAX_DISTANCE + 1)));
        }
        if successors == 0 && !exits.draw_exit {
            return Ok(Some(exits.longest_loss.min(MAX_DISTANCE + 1)));
        }
        Ok(None)
    }

    /// Passes the decisions of a batch of positions, decided at distance `d`, to their
    /// predecessors (in the slot of each one's partner sector, `partners`): the predecessors
    /// decided now go to `next`, those decided later to `pending`.
    #[allow(clippy::too_many_arguments)] // the layer's shared state, passed by reference
    fn propagate(
        &self,
        slots: &[Slot],
        partners: &[usize],
        batch: &[u32],
        d: u16,
        pending: &Mutex<Vec<Vec<u32>>>,
        scratch: &mut Propagation,
        next: &mut Vec<u32>,
    ) {
        // First the predecessors' sets, with what ranking them reads asked of the memory;
        // then their indices, with their state asked of the memory; then the updates.
        scratch.sets.clear();
        scratch.ends.clear();
        for &e in batch {
            let (k, i) = unpack(e);
            let slot = &slots[k];
            let Some((us, them)) = slot.index.position(i as u64) else {
                continue;
            };
            let pindex = &slots[partners[k]].index;
            for_each_unmove(&self.rules, us, them, |ru, rt| {
                pindex.prefetch_prepare(ru);
                scratch.sets.push((ru, rt));
            });
            // All predecessors share `us` as the other side's set: two of them share an index
            // only when a symmetry other than the identity fixes it.
            let distinct = slot.index.class_is_asymmetric(i as u64);
            scratch.ends.push((k, scratch.sets.len(), distinct));
        }
        scratch.targets.clear();
        let mut from = 0;
        for &(k, end, distinct) in &scratch.ends {
            let pk = partners[k];
            let pslot = &slots[pk];
            let preds = &mut scratch.preds;
            preds.clear();
            preds.extend(
                scratch.sets[from..end]
                    .iter()
                    .map(|&(ru, rt)| pslot.index.index(ru, rt)),
            );
            from = end;
            if !distinct {
                preds.sort_unstable();
                preds.dedup();
            }
            for &j in preds.iter() {
                prefetch(&pslot.cells[j as usize]);
                scratch.targets.push(pack(pk, j));
            }
        }
        let lost = d % 2 == 0;
        for &t in &scratch.targets {
            let (pk, j) = unpack(t);
            let cell = &slots[pk].cells[j];
            let aux = cell.aux.load(Relaxed);
            if aux == FIXED || cell.value.load(Relaxed) != DRAW {
                continue;
            }
            if lost {
                if cell
                    .value
                    .compare_exchange(DRAW, encode_distance(d + 1), Relaxed, Relaxed)
                    .is_ok()
                {
                    next.push(t);
                }
            } else if aux != CANNOT_LOSE && cell.counter.fetch_sub(1, Relaxed) == 1 {
                // The loss comes after the longest of the wins left to the opponent: this
                // last one inside the group or a known one outside (kept in `aux`).
                let at = u16::from(aux).max(d + 1);
                if at == d + 1 {
                    if cell
                        .value
                        .compare_exchange(DRAW, encode_distance(at), Relaxed, Relaxed)
                        .is_ok()
                    {
                        next.push(t);
                    }
                } else {
                    let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
                    let at = usize::from(at);
                    if p.len() <= at {
                        p.resize(at + 1, Vec::new());
                    }
                    p[at].push(t);
                }
            }
        }
    }
}

/// The reused buffers of [`GroupSolver::propagate`].
#[derive(Default)]
struct Propagation {
    /// The predecessors of the batch as sets of points (to move, other side).
    sets: Vec<(u32, u32)>,
    /// For each position of the batch: its slot, the end of its predecessors in `sets`, and
    /// whether they have distinct indices.
    ends: Vec<(usize, usize, bool)>,
    /// The predecessors of one position, by index in the partner sector.
    preds: Vec<u64>,
    /// The predecessors of the whole batch, as queue entries.
    targets: Vec<u32>,
}

/// Positions being set up at the start of a group's solution, a batch at a time (see
/// [`SETTLE_BATCH`]).
#[derive(Default)]
struct Settling {
    /// The successors of each position of the batch (reused buffers, the first
    /// `items.len()` in use).
    exits: Vec<Exits>,
    /// Each position's index, and its value if the game is over there.
    items: Vec<(u64, Option<Value>)>,
}

impl Settling {
    /// The buffer for the successors of the next position of the batch, cleared.
    fn next(&mut self) -> &mut Exits {
        let n = self.items.len();
        if self.exits.len() <= n {
            self.exits.push(Exits::default());
        }
        let exits = &mut self.exits[n];
        exits.clear();
        exits
    }

    /// Adds position `i`, whose successors [`Settling::next`] gave, to the batch.
    fn push(&mut self, i: u64, start: Option<Value>) {
        self.items.push((i, start));
    }

    fn is_full(&self) -> bool {
        self.items.len() >= SETTLE_BATCH
    }

    /// Finds the successors after a removal in `lower`, then reads them, and sets up every
    /// position of the batch in `slot` (slot `k` of the group); the distances at which they are decided go to
    /// `found`.
    #[allow(clippy::too_many_arguments)] // the class's shared state, passed by reference
    fn settle(
        &mut self,
        solver: &GroupSolver<'_>,
        slot: &Slot,
        sector: Sector,
        k: usize,
        lower: Option<&Table>,
        found: &mut Vec<(u16, u32)>,
    ) -> Result<(), TbError> {
        for (exits, (_, start)) in self.exits.iter_mut().zip(&self.items) {
            if start.is_none() {
                exits.locate(lower)?;
            }
        }
        for (n, (i, start)) in self.items.drain(..).enumerate() {
            let exits = &mut self.exits[n];
            if start.is_none() {
                exits.read(lower)?;
            }
            if let Some(d) = solver.settle(slot, sector, i, start, exits)? {
                found.push((d, pack(k, i)));
            }
        }
        Ok(())
    }
}

/// The bits of a queue entry that hold the index; the top bit holds the slot (0 or 1).
const INDEX_MASK: u32 = (1 << 31) - 1;

/// A queue entry: slot `k` of the group (0 or 1) and index `i` (below 2^31) in one word.
fn pack(k: usize, i: u64) -> u32 {
    ((k as u32) << 31) | (i as u32 & INDEX_MASK)
}

/// The slot and index of a queue entry.
fn unpack(e: u32) -> (usize, usize) {
    ((e >> 31) as usize, (e & INDEX_MASK) as usize)
}

/// The byte of a decided value.
fn encode(v: Value, sector: Sector) -> Result<u8, TbError> {
    match v {
        Value::Draw => Ok(DRAW),
        Value::Win(0) => Ok(NOT_A_POSITION),
        Value::Win(d) | Value::Loss(d) if d <= MAX_DISTANCE => Ok(encode_distance(d)),
        _ => Err(TbError::TooLong(sector)),
    }
}

/// The figures of a solved sector over every placement (each class weighted by its size) and
/// over symmetry classes (each class once).
pub(crate) fn sector_stats(index: &SectorIndex, values: &[u8]) -> SectorStats {
    (0..index.len() as usize)
        .into_par_iter()
        .with_min_len(4096)
        .fold(SectorStats::default, |mut s, i| {
            let i = i as u64;
            let byte = values[i as usize];
            if byte == NOT_A_POSITION {
                return s;
            }
            let w = index.class_size(i);
            match decode(byte) {
                Some(Value::Win(d)) => {
                    s.wins += w;
                    s.class_wins += 1;
                    s.longest = s.longest.max(d);
                }
                Some(Value::Loss(d)) => {
                    s.losses += w;
                    s.class_losses += 1;
                    s.longest = s.longest.max(d);
                }
                Some(Value::Draw) => {
                    s.draws += w;
                    s.class_draws += 1;
                }
                None => {}
            }
            s
        })
        .reduce(SectorStats::default, std::ops::Add::add)
}
