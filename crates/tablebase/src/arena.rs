//! Zeroed memory for the solver's state of every position of a group, asked of the system in
//! huge pages.
//!
//! The solver reads and writes that state at random, a few bytes at a time, over gigabytes: with
//! the ordinary 4 KiB pages nearly every access also misses the processor's table of address
//! translations, and on a virtual machine each such miss walks two levels of page tables. With
//! 2 MiB pages the translations of a whole group fit that table. The memory is an anonymous
//! mapping advised for huge pages (`madvise(MADV_HUGEPAGE)`, which Linux honours when its
//! transparent huge pages are set to `always` or `madvise`); elsewhere it is ordinary memory.

use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::atomic::AtomicU8;

use memmap2::MmapMut;

use crate::error::TbError;

/// Types made only of one-byte atomics: all zero bytes are a value of the type, its alignment
/// is one, and shared references change it only through atomic operations.
///
/// # Safety
///
/// An implementor must be `#[repr(C)]` (or a primitive) with only [`AtomicU8`] fields, so that
/// any zeroed, byte-aligned memory of its size holds a valid value.
#[allow(unsafe_code)]
pub(crate) unsafe trait Zeroable: Sync {}

// SAFETY: an `AtomicU8` is one byte, aligned to one, and every byte is a valid value.
#[allow(unsafe_code)]
unsafe impl Zeroable for AtomicU8 {}

/// `len` values of `T`, all zero bytes at first, in memory of their own.
pub(crate) struct Arena<T: Zeroable> {
    /// The mapping; `None` for no values (a mapping cannot be empty).
    map: Option<MmapMut>,
    len: usize,
    _values: PhantomData<T>,
}

impl<T: Zeroable> std::fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena").field("len", &self.len).finish()
    }
}

impl<T: Zeroable> Arena<T> {
    /// `len` zeroed values.
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] when the system refuses the memory.
    pub fn zeroed(len: usize) -> Result<Arena<T>, TbError> {
        const { assert!(std::mem::align_of::<T>() == 1) };
        let bytes = len.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
            TbError::Unsupported(format!("{len} values do not fit the address space"))
        })?;
        let map = if bytes == 0 {
            None
        } else {
            let map = MmapMut::map_anon(bytes).map_err(|e| TbError::io("memory", e))?;
            // Only a hint: without huge pages the memory works the same, just slower.
            #[cfg(target_os = "linux")]
            let _ = map.advise(memmap2::Advice::HugePage);
            Some(map)
        };
        Ok(Arena {
            map,
            len,
            _values: PhantomData,
        })
    }
}

impl<T: Zeroable> Deref for Arena<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.map {
            // SAFETY: the mapping holds `len * size_of::<T>()` bytes, lives as long as the
            // returned slice's borrow of `self`, and is aligned to a page, more than `T`'s
            // alignment of one; by `Zeroable`, any bytes there are valid values of `T`, and
            // they are changed only through the atomics of the shared slice (the mapping is
            // never borrowed mutably).
            #[allow(unsafe_code)]
            Some(map) => unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<T>(), self.len) },
            None => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn an_arena_starts_zeroed_and_keeps_what_is_stored() {
        let a: Arena<AtomicU8> = Arena::zeroed(5 << 20).unwrap();
        assert_eq!(a.len(), 5 << 20);
        assert!(a.iter().step_by(4093).all(|b| b.load(Relaxed) == 0));
        a[(5 << 20) - 1].store(7, Relaxed);
        a[12345].store(255, Relaxed);
        assert_eq!(a[(5 << 20) - 1].load(Relaxed), 7);
        assert_eq!(a[12345].load(Relaxed), 255);
        let empty: Arena<AtomicU8> = Arena::zeroed(0).unwrap();
        assert!(empty.is_empty());
    }
}
