//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two atomic words: the key XOR the data, and the data. A reader accepts an
//! entry only when the two agree with its key, so an entry torn by two threads writing at once
//! is simply missed. Entries come in buckets of [`BUCKET`]; a store replaces the entry of the
//! same position, else an empty one, else the one of least worth (shallow and old).

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
const BUCKET: usize = 4;
/// Bytes per entry.
const ENTRY_BYTES: usize = 16;

/// What a stored value bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most this.
    Upper = 1,
    /// The true value is at least this.
    Lower = 2,
    /// The true value.
    Exact = 3,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The index of the best ply in the position's list of legal plies, if one is known.
    pub ply_index: Option<u16>,
    /// The value, relative to the node (see `score::value::to_table`).
    pub value: i32,
    /// The depth searched.
    pub depth: u8,
    /// What the value bounds.
    pub bound: Bound,
    /// The static evaluation, if computed.
    pub eval: Option<i32>,
}

const NO_INDEX: u64 = 0xFFFF;
const NO_EVAL: i16 = i16::MIN;

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let index = self.ply_index.map_or(NO_INDEX, u64::from);
        let value = u64::from(self.value.clamp(-32_000, 32_000) as i16 as u16);
        let eval = self
            .eval
            .map_or(NO_EVAL, |e| e.clamp(-32_000, 32_000) as i16);
        index
            | value << 16
            | u64::from(self.depth) << 32
            | (self.bound as u64) << 40
            | u64::from(generation & 0x3F) << 42
            | u64::from(eval as u16) << 48
    }

    fn unpack(data: u64) -> Option<(Entry, u8)> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        let index = data & 0xFFFF;
        let eval = (data >> 48) as u16 as i16;
        Some((
            Entry {
                ply_index: (index != NO_INDEX).then_some(index as u16),
                value: i32::from((data >> 16) as u16 as i16),
                depth: (data >> 32) as u8,
                bound,
                eval: (eval != NO_EVAL).then_some(i32::from(eval)),
            },
            ((data >> 42) & 0x3F) as u8,
        ))
    }
}

/// The table.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<[AtomicU64; 2]>,
    buckets: usize,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `mb` MiB (rounded down to a power of two buckets, at least one), or
    /// the largest smaller power of two that can be allocated.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let mut buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut slots: Vec<[AtomicU64; 2]> = Vec::new();
        while slots.try_reserve_exact(buckets * BUCKET).is_err() && buckets > 1 {
            buckets /= 2;
        }
        slots.extend((0..buckets * BUCKET).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Table {
            slots,
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    /// The size in MiB.
    pub fn mb(&self) -> usize {
        (self.slots.len() * ENTRY_BYTES) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries lose worth.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0x3F) as u8
    }

    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let start = (key as usize & (self.buckets - 1)) * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// The entry of a position, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == key {
                if let Some((entry, _)) = Entry::unpack(data) {
                    return Some(entry);
                }
            }
        }
        None
    }

    /// Stores an entry for a position.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let Some((old, old_generation)) = Entry::unpack(data) else {
                victim = i;
                break;
            };
            if slot[0].load(Ordering::Relaxed) ^ data == key {
                // Keep a known best ply, and a deeper result of this search.
                if entry.ply_index.is_none() {
                    entry.ply_index = old.ply_index;
                }
                if entry.bound != Bound::Exact
                    && old_generation == generation
                    && i32::from(old.depth) > i32::from(entry.depth) + 2
                {
                    return;
                }
                victim = i;
                break;
            }
            let age = i32::from(generation.wrapping_sub(old_generation) & 0x3F);
            let worth = i32::from(old.depth) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = entry.pack(generation);
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let table = Table::new(1);
        let entry = Entry {
            ply_index: Some(7),
            value: -29_990,
            depth: 12,
            bound: Bound::Lower,
            eval: Some(-35),
        };
        table.store(0xDEAD_BEEF_1234_5678, entry);
        assert_eq!(table.probe(0xDEAD_BEEF_1234_5678), Some(entry));
        assert_eq!(table.probe(0xDEAD_BEEF_1234_5679), None);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF_1234_5678), None);
    }

    #[test]
    fn replaces_the_shallowest_when_full() {
        let table = Table::new(1);
        // Keys that differ only in their high bits share a bucket.
        let key = |i: u64| (i << 40) | 5;
        let mut e = Entry {
            ply_index: None,
            value: 0,
            depth: 0,
            bound: Bound::Exact,
            eval: None,
        };
        for i in 0..BUCKET as u64 {
            e.depth = 10 + i as u8;
            table.store(key(i), e);
        }
        e.depth = 20;
        table.store(key(99), e);
        assert!(table.probe(key(99)).is_some());
        assert!(table.probe(key(0)).is_none(), "the shallowest went");
        for i in 1..BUCKET as u64 {
            assert!(table.probe(key(i)).is_some());
        }
    }
}
