//! A perfect index of the positions of a sector up to the board's symmetries.
//!
//! A position is a set `U` of points for the side to move and a set `T` for the other side.
//! The sets `U` fall into classes under the board's symmetries; each class has a canonical
//! member (the smallest bit pattern of its images). A position is stored under the canonical
//! member of its `U` class and the smallest image of `T` among the symmetries that map `U` to
//! it; `T` is numbered among the points that `U` leaves free. So each class of symmetric
//! positions has exactly one index. A few indices (those whose `T` is not the smallest image,
//! which happens only where the canonical `U` is itself symmetric) stand for no position; the
//! solver marks them as such.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use morris_core::{BoardKind, MAX_POINTS};

use crate::sector::Sector;

/// The binomial coefficients up to 24 choose 24 (zero where k > n).
static BINOMIAL: [[u64; MAX_POINTS + 1]; MAX_POINTS + 1] = {
    let mut t = [[0u64; MAX_POINTS + 1]; MAX_POINTS + 1];
    let mut n = 0;
    while n <= MAX_POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// n choose k, for n and k up to 24.
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// For each byte `c` of a set of points, each count `k` of points below that byte, and each
/// value of the byte: the byte's share of the set's [`colex_rank`], the sum of `C(p, j)` over
/// its points `p`, the `j`-th point of the set being the `(j - k)`-th of the byte. Every set
/// of at most 24 points is ranked with three look-ups.
static COLEX_BYTES: [[[u32; 256]; 17]; 3] = {
    let mut t = [[[0u32; 256]; 17]; 3];
    let mut c = 0;
    while c < 3 {
        let mut k = 0;
        while k <= 16 {
            let mut b = 0;
            while b < 256 {
                let (mut sum, mut j, mut bit) = (0u64, k + 1, 0);
                while bit < 8 {
                    if b & (1 << bit) != 0 {
                        sum += BINOMIAL[8 * c + bit][j];
                        j += 1;
                    }
                    bit += 1;
                }
                // At most C(24, 12) < 2^32.
                t[c][k][b] = sum as u32;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The rank of a set among the sets of the same size in increasing order of bit pattern.
#[inline]
pub(crate) fn colex_rank(set: u32) -> u64 {
    let (b0, b1, b2) = (set & 0xff, (set >> 8) & 0xff, (set >> 16) & 0xff);
    let k1 = b0.count_ones() as usize;
    // A third byte of more than 16 points below it would make more than 24 points.
    let k2 = (k1 + b1.count_ones() as usize).min(16);
    u64::from(COLEX_BYTES[0][0][b0 as usize])
        + u64::from(COLEX_BYTES[1][k1][b1 as usize])
        + u64::from(COLEX_BYTES[2][k2][b2 as usize])
}

/// The set of `k` points with the given rank (the inverse of [`colex_rank`]).
#[inline]
#[cfg(test)]
pub(crate) fn colex_unrank(mut rank: u64, k: usize, n: usize) -> u32 {
    let mut set = 0u32;
    let mut p = n;
    for j in (1..=k).rev() {
        p -= 1;
        let row = &BINOMIAL[..=p];
        while row[p][j] > rank {
            p -= 1;
        }
        rank -= row[p][j];
        set |= 1 << p;
    }
    set
}

/// The rank of `t` among the points that `u` leaves free: each point of `t` counts as its
/// place less the points of `u` below it.
#[inline]
fn compressed_rank(t: u32, u: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, just checked.
        #[allow(unsafe_code)]
        return colex_rank(unsafe { bmi2::squeeze(t, u) });
    }
    compressed_rank_by_points(t, u)
}

/// [`compressed_rank`] a point at a time, for processors without BMI2.
#[inline]
fn compressed_rank_by_points(mut t: u32, u: u32) -> u64 {
    let mut rank = 0;
    let mut j = 1;
    while t != 0 {
        let p = t.trailing_zeros();
        let q = p - (u & ((1u32 << p) - 1)).count_ones();
        rank += binomial(q as usize, j);
        j += 1;
        t &= t - 1;
    }
    rank
}

/// The squeeze and spread of sets of points in one instruction each (`PEXT`, `PDEP`), on
/// processors with BMI2 (most x86-64 processors since 2013; checked at run time).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod bmi2 {
    use std::arch::x86_64::{_pdep_u32, _pext_u32};

    /// The points of `t` outside `u`, numbered among the points outside `u`.
    ///
    /// # Safety
    ///
    /// The processor must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn squeeze(t: u32, u: u32) -> u32 {
        _pext_u32(t, !u)
    }

    /// The inverse of [`squeeze`]: the bits of `compressed` spread over the points outside
    /// `u`.
    ///
    /// # Safety
    ///
    /// The processor must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn spread(compressed: u32, u: u32) -> u32 {
        _pdep_u32(compressed, !u)
    }
}

/// Spreads the bits of `compressed` over the points that `u` leaves free (the inverse of
/// [`compressed_rank`]'s squeeze), keeping the first `n` points.
#[inline]
fn expand(compressed: u32, u: u32, n: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, just checked.
        #[allow(unsafe_code)]
        return unsafe { bmi2::spread(compressed, u) } & ((1u32 << n) - 1);
    }
    expand_by_gaps(compressed, u, n)
}

/// [`expand`] a gap at a time, for processors without BMI2: a gap is opened at each point of
/// `u`, lowest first.
#[inline]
fn expand_by_gaps(mut compressed: u32, mut u: u32, n: usize) -> u32 {
    while u != 0 {
        let below = (u & u.wrapping_neg()) - 1;
        compressed = (compressed & below) | ((compressed & !below) << 1);
        u &= u - 1;
    }
    compressed & ((1u32 << n) - 1)
}

/// The ranks, among the points that a set `free_of` leaves free, of the sets `set ∪ {p}` for
/// the points `p` outside both: the indices of the successors of the placements from one
/// position, found with a few operations each rather than a rank computed afresh.
pub(crate) struct AddOne {
    free_of: u32,
    /// `set` squeezed to the free points.
    squeezed: u32,
    /// By the number `m` of points of the squeezed set below the added one: the rank's part
    /// from those points, and from the points above (each one place higher in order).
    low: [u64; MAX_POINTS + 1],
    high: [u64; MAX_POINTS + 1],
}

impl Default for AddOne {
    fn default() -> AddOne {
        AddOne {
            free_of: 0,
            squeezed: 0,
            low: [0; MAX_POINTS + 1],
            high: [0; MAX_POINTS + 1],
        }
    }
}

impl AddOne {
    #[cfg(test)]
    pub(crate) fn new(set: u32, free_of: u32) -> AddOne {
        let mut add = AddOne::default();
        add.set(set, free_of);
        add
    }

    /// Makes this the ranks of `set ∪ {p}` among the points `free_of` leaves free, in place:
    /// one is set up for every position, and moving its tables around would cost more than
    /// filling them.
    #[inline]
    pub(crate) fn set(&mut self, set: u32, free_of: u32) {
        let mut squeezed = set;
        let mut u = free_of;
        while u != 0 {
            let high = 31 - u.leading_zeros();
            let below = (1u32 << high) - 1;
            squeezed = (squeezed & below) | ((squeezed >> 1) & !below);
            u &= below;
        }
        let mut points = [0usize; MAX_POINTS];
        let mut k = 0;
        let mut rest = squeezed;
        while rest != 0 {
            points[k] = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            k += 1;
        }
        self.free_of = free_of;
        self.squeezed = squeezed;
        self.low[0] = 0;
        for m in 1..=k {
            self.low[m] = self.low[m - 1] + binomial(points[m - 1], m);
        }
        self.high[k] = 0;
        for m in (1..=k).rev() {
            self.high[m - 1] = self.high[m] + binomial(points[m - 1], m + 1);
        }
    }

    /// The rank of `set ∪ {p}` (`p` in neither set).
    #[inline]
    pub(crate) fn rank(&self, p: u32) -> u64 {
        let q = p - (self.free_of & ((1u32 << p) - 1)).count_ones();
        let m = (self.squeezed & ((1u32 << q) - 1)).count_ones() as usize;
        self.low[m] + binomial(q as usize, m + 1) + self.high[m]
    }
}

/// A board's symmetries as byte-wise lookup tables.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// The number of points.
    pub n: usize,
    tables: Vec<[[u32; 256]; 3]>,
}

impl Geometry {
    /// The geometry of a board, built once.
    pub fn of(kind: BoardKind) -> &'static Geometry {
        static CACHE: [OnceLock<Geometry>; 4] = [const { OnceLock::new() }; 4];
        let slot = match kind {
            BoardKind::Standard => 0,
            BoardKind::Diagonal => 1,
            BoardKind::Six => 2,
            BoardKind::Three => 3,
        };
        CACHE[slot].get_or_init(|| {
            let board = kind.board();
            let tables = board
                .symmetries()
                .iter()
                .map(|sym| {
                    let mut t = [[0u32; 256]; 3];
                    for (byte, table) in t.iter_mut().enumerate() {
                        for (v, slot) in table.iter_mut().enumerate() {
                            let set = (v as u32) << (8 * byte);
                            *slot = sym.apply_set(morris_core::Bitboard(set & board.all().0)).0;
                        }
                    }
                    t
                })
                .collect();
            Geometry {
                n: board.len(),
                tables,
            }
        })
    }

    /// The number of symmetries (the first is the identity).
    pub fn symmetries(&self) -> usize {
        self.tables.len()
    }

    /// The image of a set under symmetry `s`.
    #[inline]
    pub fn apply(&self, s: usize, set: u32) -> u32 {
        let t = &self.tables[s];
        t[0][(set & 0xff) as usize]
            | t[1][((set >> 8) & 0xff) as usize]
            | t[2][(set >> 16) as usize]
    }
}

/// The bits of a class in [`Classes::of_set`]: more than the sets of 12 of 24 points.
const CLASS_BITS: u32 = (1 << 23) - 1;
/// The bit of [`Classes::of_set`] that says only the identity fixes the class's canonical
/// member.
const ASYMMETRIC: u32 = 1 << 23;

/// The classes of the sets of `k` points under a board's symmetries.
#[derive(Debug)]
struct Classes {
    /// For each set (by rank): its class (the low 23 bits, [`CLASS_BITS`]), whether only the
    /// identity fixes the class's canonical member ([`ASYMMETRIC`]) and a symmetry that maps
    /// the set to that member (the top 8 bits), together so that preparing a set reads one
    /// word; four bytes rather than eight, so that twice as many stay in the processor's
    /// caches (the solver prepares a set for nearly every predecessor it finds).
    of_set: Vec<u32>,
    /// The canonical member of each class.
    reps: Vec<u32>,
    /// For each class: the symmetries that fix its canonical member, as a bit mask.
    stab: Vec<u16>,
}

impl Classes {
    fn get(kind: BoardKind, k: usize) -> Arc<Classes> {
        type Cache = Mutex<HashMap<(BoardKind, usize), Arc<Classes>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(c) = cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(kind, k))
        {
            return c.clone();
        }
        let built = Arc::new(Classes::build(Geometry::of(kind), k));
        cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((kind, k))
            .or_insert(built)
            .clone()
    }

    fn build(g: &Geometry, k: usize) -> Classes {
        let count = binomial(g.n, k) as usize;
        let mut class_of = vec![u32::MAX; count];
        let mut sym_of = vec![0u8; count];
        let mut reps = Vec::new();
        let mut stab = Vec::new();
        let mut min_image = vec![0u32; count];
        for (rank, set) in sets(k, g.n).enumerate() {
            let mut best = set;
            let mut best_sym = 0;
            let mut fix = 0u16;
            for s in 0..g.symmetries() {
                let img = g.apply(s, set);
                if img < best {
                    best = img;
                    best_sym = s;
                }
                if img == set {
                    fix |= 1 << s;
                }
            }
            min_image[rank] = best;
            sym_of[rank] = best_sym as u8;
            if best == set {
                class_of[rank] = reps.len() as u32;
                reps.push(set);
                stab.push(fix);
            }
        }
        assert!(reps.len() <= CLASS_BITS as usize + 1, "too many classes");
        let of_set = (0..count)
            .map(|rank| {
                let class = class_of[colex_rank(min_image[rank]) as usize];
                let asymmetric = if stab[class as usize] == 1 {
                    ASYMMETRIC
                } else {
                    0
                };
                class | asymmetric | u32::from(sym_of[rank]) << 24
            })
            .collect();
        Classes { of_set, reps, stab }
    }
}

/// The sets of `k` of the first `n` points in increasing order of bit pattern.
pub(crate) fn sets(k: usize, n: usize) -> impl Iterator<Item = u32> {
    let limit = 1u64 << n;
    let mut next = if k == 0 {
        Some(0u64)
    } else {
        Some((1u64 << k) - 1)
    };
    std::iter::from_fn(move || {
        let cur = next?;
        if cur >= limit {
            return None;
        }
        next = if cur == 0 {
            None
        } else {
            let c = cur & cur.wrapping_neg();
            let r = cur + c;
            Some((((r ^ cur) >> 2) / c) | r)
        };
        Some(cur as u32)
    })
}

/// The part of an index that depends only on the side to move's set (see
/// [`SectorIndex::prepare`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prepared {
    class: u32,
    sym: u8,
    stab: u16,
}

impl Prepared {
    /// Whether no symmetry but the identity fixes the set: positions that share it then have
    /// distinct indices.
    #[inline]
    pub(crate) fn is_asymmetric(&self) -> bool {
        self.stab == 1
    }
}

/// The index of one sector: a bijection between the classes of symmetric positions and a
/// range of numbers (with a few unused numbers, see the module documentation).
#[derive(Debug, Clone)]
pub struct SectorIndex {
    sector: Sector,
    geometry: &'static Geometry,
    classes: Arc<Classes>,
    /// The classes of the other side's sets, for visiting the positions by them.
    them_classes: Arc<Classes>,
    combos: u64,
    /// The other side's sets among the free points by rank, made when first needed (see
    /// [`SectorIndex::position`]).
    unranked: Unranked,
}

/// The table of [`SectorIndex::position`], made when first needed; shown by its size alone.
#[derive(Clone, Default)]
struct Unranked(OnceLock<Arc<[u32]>>);

impl std::fmt::Debug for Unranked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Unranked({:?} sets)", self.0.get().map(|t| t.len()))
    }
}

/// The sets of `k` of `n` points in increasing order of bit pattern, made once per process:
/// the solver finds the position stored at an index for every position it decides, and
/// looking the set up costs less than unranking it point by point.
fn unranked(n: usize, k: usize) -> Arc<[u32]> {
    type Cache = Mutex<HashMap<(usize, usize), Arc<[u32]>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((n, k))
        .or_insert_with(|| sets(k, n).collect())
        .clone()
}

impl SectorIndex {
    /// The index of a sector on a board.
    pub fn new(kind: BoardKind, sector: Sector) -> SectorIndex {
        let geometry = Geometry::of(kind);
        let classes = Classes::get(kind, sector.us as usize);
        let them_classes = Classes::get(kind, sector.them as usize);
        let combos = binomial(geometry.n - sector.us as usize, sector.them as usize);
        SectorIndex {
            sector,
            geometry,
            classes,
            them_classes,
            combos,
            unranked: Unranked::default(),
        }
    }

    /// The sector.
    pub fn sector(&self) -> Sector {
        self.sector
    }

    /// The number of indices.
    pub fn len(&self) -> u64 {
        self.classes.reps.len() as u64 * self.combos
    }

    /// Whether the sector has no index (never for a sector that fits its board).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the position with `us` for the side to move and `them` for the other side
    /// (bit patterns of points), or `None` when the sets do not fit the sector (wrong counts,
    /// overlapping, off the board).
    pub fn checked_index(&self, us: u32, them: u32) -> Option<u64> {
        let all = (1u32 << self.geometry.n) - 1;
        let fits = us & them == 0
            && (us | them) & !all == 0
            && us.count_ones() == u32::from(self.sector.us)
            && them.count_ones() == u32::from(self.sector.them);
        fits.then(|| self.index(us, them))
    }

    /// The index of the position with `us` for the side to move and `them` for the other side
    /// (given as bit patterns of points). The caller guarantees that the counts fit the sector
    /// and the sets are disjoint.
    #[inline]
    pub(crate) fn index(&self, us: u32, them: u32) -> u64 {
        self.index_with(&self.prepare(us), them)
    }

    /// Asks the processor to bring what [`SectorIndex::prepare`] reads for the set `us` into
    /// its cache (see [`crate::bits::prefetch`]): the table it reads has an entry for every
    /// set of the sector's size, megabytes that random sets miss in the cache.
    #[inline]
    pub(crate) fn prefetch_prepare(&self, us: u32) {
        if let Some(word) = self.classes.of_set.get(colex_rank(us) as usize) {
            crate::bits::prefetch(word);
        }
    }

    /// What the index of every position with the side to move's set `us` shares: computed once
    /// for many sets of the other side.
    #[inline]
    pub(crate) fn prepare(&self, us: u32) -> Prepared {
        let rank = colex_rank(us) as usize;
        let word = self.classes.of_set[rank];
        let class = word & CLASS_BITS;
        Prepared {
            class,
            sym: (word >> 24) as u8,
            stab: if word & ASYMMETRIC != 0 {
                1
            } else {
                self.classes.stab[class as usize]
            },
        }
    }

    /// The index of the position with the prepared set for the side to move and `them` for
    /// the other side.
    #[inline]
    pub(crate) fn index_with(&self, prepared: &Prepared, them: u32) -> u64 {
        let g = self.geometry;
        let c = prepared.class as usize;
        let rep = self.classes.reps[c];
        let mut t = g.apply(usize::from(prepared.sym), them);
        if prepared.stab != 1 {
            let base = t;
            let mut bits = prepared.stab & !1;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                t = t.min(g.apply(s, base));
                bits &= bits - 1;
            }
        }
        c as u64 * self.combos + compressed_rank(t, rep)
    }

    /// The first index of the positions with the prepared set for the side to move, when that
    /// set is its class's canonical member and no other symmetry fixes it: the index of the
    /// position with `them` for the other side is then this plus the rank of `them` among the
    /// free points (see [`AddOne`]).
    #[inline]
    pub(crate) fn plain_base(&self, prepared: &Prepared) -> Option<u64> {
        (prepared.sym == 0 && prepared.stab == 1).then(|| u64::from(prepared.class) * self.combos)
    }

    /// Whether the positions with index `index`'s set for the side to move are all distinct
    /// classes: no symmetry but the identity fixes that set, so no two positions that share it
    /// have the same index.
    #[inline]
    pub(crate) fn class_is_asymmetric(&self, index: u64) -> bool {
        let c = (index / self.combos) as usize;
        self.classes.stab.get(c).is_some_and(|&s| s == 1)
    }

    /// The position stored at an index, as `(us, them)` bit patterns; `None` out of range.
    #[inline]
    pub fn position(&self, index: u64) -> Option<(u32, u32)> {
        if index >= self.len() {
            return None;
        }
        let c = (index / self.combos) as usize;
        let rep = self.classes.reps[c];
        let free = self.geometry.n - self.sector.us as usize;
        let sets = self
            .unranked
            .0
            .get_or_init(|| unranked(free, usize::from(self.sector.them)));
        let t = sets[(index % self.combos) as usize];
        Some((rep, expand(t, rep, self.geometry.n)))
    }

    /// The number of distinct positions in the class stored at an index (the board's
    /// symmetries divided by those that fix the position), 0 for an unused index.
    pub fn class_size(&self, index: u64) -> u64 {
        let g = self.geometry;
        if index < self.len() && self.class_is_asymmetric(index) {
            // Only the identity fixes the side to move's set, so every index stands for a
            // class of as many positions as the board has symmetries.
            return g.symmetries() as u64;
        }
        let Some((us, them)) = self.position(index) else {
            return 0;
        };
        if self.index(us, them) != index {
            return 0;
        }
        let c = (index / self.combos) as usize;
        let stab = self.classes.stab[c];
        let fixed = (0..g.symmetries())
            .filter(|&s| stab & (1 << s) != 0 && g.apply(s, them) == them)
            .count();
        (g.symmetries() / fixed) as u64
    }

    /// The number of classes of the side to move's sets (the index is class × combinations).
    pub(crate) fn classes(&self) -> usize {
        self.classes.reps.len()
    }

    /// Calls `f(index, us, them)` for every index of class `c` of the side to move's sets that
    /// stands for a position, in order, `us` and `them` the position stored there.
    #[inline]
    pub(crate) fn for_each_in_class(&self, c: usize, mut f: impl FnMut(u64, u32, u32)) {
        let rep = self.classes.reps[c];
        let trivial = self.classes.stab[c] == 1;
        let free = self.geometry.n - self.sector.us as usize;
        let base = c as u64 * self.combos;
        for (r, t) in sets(self.sector.them as usize, free).enumerate() {
            let i = base + r as u64;
            let them = expand(t, rep, self.geometry.n);
            if trivial || self.index(rep, them) == i {
                f(i, rep, them);
            }
        }
    }

    /// The number of classes of the other side's sets (see [`SectorIndex::for_each_by_them`]).
    pub(crate) fn them_classes(&self) -> usize {
        self.them_classes.reps.len()
    }

    /// Calls `f(us, them)` once for each class of positions whose other side's set falls in
    /// class `c` of those sets, with `them` that class's canonical member.
    ///
    /// Every ply leads to a position where `them` (or `them` less a removed piece) is the
    /// side to move, which the tables store by the class of that set: visited this way, the
    /// successors of one call after another are read from one small part of each table rather
    /// than from all over it.
    pub(crate) fn for_each_by_them(&self, c: usize, mut f: impl FnMut(u32, u32)) {
        let g = self.geometry;
        let them = self.them_classes.reps[c];
        // Symmetries other than the identity that fix `them`: of the positions they map onto
        // one another, only the one with the smallest `us` is visited.
        let stab = self.them_classes.stab[c] & !1;
        let free = g.n - self.sector.them as usize;
        for u in sets(self.sector.us as usize, free) {
            let us = expand(u, them, g.n);
            let mut bits = stab;
            let mut smallest = true;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if g.apply(s, us) < us {
                    smallest = false;
                    break;
                }
            }
            if smallest {
                f(us, them);
            }
        }
    }

    /// Whether an index stands for a position (its `them` set is the canonical one).
    pub fn is_used(&self, index: u64) -> bool {
        let c = (index / self.combos) as usize;
        if self.classes.stab.get(c).is_none_or(|&s| s == 1) {
            return index < self.len();
        }
        self.position(index)
            .is_some_and(|(us, them)| self.index(us, them) == index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank by its definition: a binomial coefficient per point.
    fn colex_rank_by_points(mut set: u32) -> u64 {
        let mut rank = 0;
        let mut j = 1;
        while set != 0 {
            rank += binomial(set.trailing_zeros() as usize, j);
            j += 1;
            set &= set - 1;
        }
        rank
    }

    /// The compressed rank by squeezing the points of `u` out of `t`, highest first.
    fn compressed_rank_by_squeezing(mut t: u32, mut u: u32) -> u64 {
        while u != 0 {
            let high = 31 - u.leading_zeros();
            let below = (1u32 << high) - 1;
            t = (t & below) | ((t >> 1) & !below);
            u &= below;
        }
        colex_rank_by_points(t)
    }

    #[test]
    fn the_ranks_by_table_are_the_ranks_by_definition() {
        // Every set of up to 24 points is too many; a spread of sets of every size, the
        // extremes included, and every pair of a set and a disjoint one drawn from them.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut sets: Vec<u32> = (0..=24).map(|k| ((1u64 << k) - 1) as u32).collect();
        sets.extend((0..=24).map(|k| (((1u64 << k) - 1) << (24 - k)) as u32));
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            sets.push((x as u32 & (x >> 32) as u32 | (x >> 40) as u32) & 0xff_ffff);
        }
        for &s in &sets {
            assert_eq!(colex_rank(s), colex_rank_by_points(s), "{s:#x}");
        }
        for w in sets.windows(2) {
            let (t, u) = (w[0] & !w[1], w[1]);
            let rank = compressed_rank_by_squeezing(t, u);
            assert_eq!(compressed_rank(t, u), rank, "{t:#x} {u:#x}");
            assert_eq!(compressed_rank_by_points(t, u), rank, "{t:#x} {u:#x}");
            // Squeezed and spread again, `t` comes back, whichever way it is spread.
            let squeezed =
                colex_unrank(rank, t.count_ones() as usize, 24 - u.count_ones() as usize);
            assert_eq!(expand(squeezed, u, 24), t, "{t:#x} {u:#x}");
            assert_eq!(expand_by_gaps(squeezed, u, 24), t, "{t:#x} {u:#x}");
        }
    }

    #[test]
    fn ranks_round_trip() {
        for k in 0..=4 {
            for (i, set) in sets(k, 10).enumerate() {
                assert_eq!(colex_rank(set), i as u64);
                assert_eq!(colex_unrank(i as u64, k, 10), set);
            }
            assert_eq!(sets(k, 10).count() as u64, binomial(10, k));
        }
    }

    #[test]
    fn adding_one_point_ranks_like_a_rank_afresh() {
        for (set, free_of) in [(0b1011_0000_0101, 0b0100_0010_1000), (0, 0b11), (0b1, 0)] {
            let add = AddOne::new(set, free_of);
            for p in 0..24 {
                if (set | free_of) & (1 << p) == 0 {
                    assert_eq!(add.rank(p), compressed_rank(set | 1 << p, free_of), "{p}");
                }
            }
        }
        for us in sets(3, 12).step_by(7) {
            for them in sets(4, 12).filter(|t| t & us == 0).step_by(5) {
                let add = AddOne::new(them, us);
                for p in (0..12).filter(|p| (us | them) & (1 << p) == 0) {
                    assert_eq!(add.rank(p), compressed_rank(them | 1 << p, us));
                }
            }
        }
    }

    #[test]
    fn every_position_has_one_index_and_symmetric_ones_share_it() {
        let kind = BoardKind::Three;
        let g = Geometry::of(kind);
        let idx = SectorIndex::new(kind, Sector::moving(3, 2));
        let mut seen = vec![0u64; idx.len() as usize];
        for us in sets(3, 9) {
            for them in sets(2, 9).filter(|t| t & us == 0) {
                let i = idx.index(us, them);
                assert!(i < idx.len());
                let (cu, ct) = idx.position(i).unwrap();
                assert_eq!(idx.index(cu, ct), i);
                seen[i as usize] += 1;
                for s in 0..g.symmetries() {
                    assert_eq!(idx.index(g.apply(s, us), g.apply(s, them)), i);
                }
            }
        }
        assert_eq!(idx.checked_index(0b111, 0b11), None, "overlap");
        assert_eq!(idx.checked_index(0b1111, 0b1_1000_0000), None, "count");
        assert_eq!(idx.checked_index(0b111, 0b11 << 9), None, "off the board");
        assert_eq!(
            idx.checked_index(0b111, 0b11 << 7),
            Some(idx.index(0b111, 0b11 << 7))
        );
        let mut by_them = vec![0u32; idx.len() as usize];
        for c in 0..idx.them_classes() {
            idx.for_each_by_them(c, |us, them| by_them[idx.index(us, them) as usize] += 1);
        }
        for i in 0..idx.len() {
            let used = u32::from(idx.is_used(i));
            assert_eq!(by_them[i as usize], used, "index {i} visited by them");
        }
        let total: u64 = (0..idx.len()).map(|i| idx.class_size(i)).sum();
        assert_eq!(total, binomial(9, 3) * binomial(6, 2));
        for i in 0..idx.len() {
            assert_eq!(seen[i as usize], idx.class_size(i), "index {i}");
            assert_eq!(idx.is_used(i), seen[i as usize] > 0);
        }
    }
}
