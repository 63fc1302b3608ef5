//! The file of one sector: a header, one byte per index, and a checksum per block of values.
//!
//! Layout (little-endian): a 128-byte header, the values, then one 8-byte checksum for each
//! block of [`BLOCK`] values (the last block may be shorter).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MORRISTB` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | header length (128) |
//! | 16 | 8 | rules: variant, board, pieces, flying threshold, mill removal, double mill, full board, flags |
//! | 24 | 4 | sector: pieces on the board and in hand, side to move first |
//! | 28 | 4 | longest distance in plies |
//! | 32 | 8 | number of indices (values that follow) |
//! | 40 | 8 | wins over every placement (no symmetry reduction) |
//! | 48 | 8 | losses |
//! | 56 | 8 | draws |
//! | 64 | 8 | wins over symmetry classes (each class of equivalent positions once) |
//! | 72 | 8 | losses over classes |
//! | 80 | 8 | draws over classes |
//! | 88 | 4 | log2 of the block length (16) |
//! | 92 | 4 | reserved, zero |
//! | 96 | 8 | checksum of the table of block checksums |
//! | 104 | 16 | reserved, zero |
//! | 120 | 8 | checksum of bytes 0–119 of the header |
//!
//! Each value byte is 0 for a draw, 255 for an index that stands for no position, otherwise the
//! distance to the end in plies plus one (odd distances are wins, even ones losses).
//!
//! Opening a file reads and checks the header and the table of block checksums, whose size is
//! a 65,536th of the values: opening is quick whatever the size. Each block of values is checked
//! against its checksum the first time it is read, and a file found damaged then stays refused
//! ([`SectorFile::broken`]).
//!
//! Two ways to read the values: [`SectorFile::open`] reads blocks with positioned reads into a
//! bounded cache shared by the process, so that a file truncated or rewritten by another
//! process is an error and never a crash (a block checked once and since dropped from the cache
//! is read a byte at a time, not whole again); [`SectorFile::map`] maps the file into memory,
//! which is faster but only sound while nobody truncates the file.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{Read, Write};
use std::ops::Deref;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};

use memmap2::Mmap;
use morris_core::{DoubleMill, FullBoard, MillRemoval, Rules, Variant};

use crate::error::TbError;
use crate::sector::Sector;

const MAGIC: &[u8; 8] = b"MORRISTB";
const VERSION: u32 = 2;
/// The length of the header in bytes.
pub const HEADER_LEN: usize = 128;
/// log2 of [`BLOCK`].
const BLOCK_BITS: u32 = 16;
/// The number of values under one checksum, and read at once.
pub const BLOCK: usize = 1 << BLOCK_BITS;

/// What a sector's header records besides its identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SectorStats {
    /// Wins for the side to move over every placement of the sector's pieces.
    pub wins: u64,
    /// Losses, counted the same way.
    pub losses: u64,
    /// Draws, counted the same way.
    pub draws: u64,
    /// The longest distance to the end over wins and losses, in plies.
    pub longest: u16,
    /// Wins over symmetry classes: positions that a symmetry of the board maps onto each other
    /// are counted once.
    pub class_wins: u64,
    /// Losses over symmetry classes.
    pub class_losses: u64,
    /// Draws over symmetry classes.
    pub class_draws: u64,
}

impl std::ops::Add for SectorStats {
    type Output = SectorStats;
    /// The sum of two sectors' figures (the longest distance is the larger one).
    fn add(self, other: SectorStats) -> SectorStats {
        SectorStats {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
            longest: self.longest.max(other.longest),
            class_wins: self.class_wins + other.class_wins,
            class_losses: self.class_losses + other.class_losses,
            class_draws: self.class_draws + other.class_draws,
        }
    }
}

/// The eight bytes that identify the rules a table was built for (the draw rules, which the
/// tables ignore, are left out).
pub(crate) fn rules_bytes(rules: &Rules) -> [u8; 8] {
    let variant = Variant::ALL
        .iter()
        .position(|&v| v == rules.variant)
        .unwrap_or(255) as u8;
    let board = rules.board as u8;
    let removal = match rules.mill_removal {
        MillRemoval::UnlessAllInMills => 0,
        MillRemoval::Always => 1,
        MillRemoval::Never => 2,
    };
    let double = match rules.double_mill {
        DoubleMill::One => 0,
        DoubleMill::PerMill => 1,
    };
    let full = match rules.full_board {
        FullBoard::Blocked => 0,
        FullBoard::Draw => 1,
    };
    let flags = u8::from(rules.place_or_move)
        | (u8::from(rules.line_wins) << 1)
        | (u8::from(rules.fly_empty_hand) << 2);
    [
        variant,
        board,
        rules.pieces,
        rules.fly_at,
        removal,
        double,
        full,
        flags,
    ]
}

/// The file name of a sector: `nine-3-3.mtb`, `six-0-0-6-6.mtb`; rule options that differ from
/// the variant's defaults add a tag of the rule bytes.
pub fn file_name(rules: &Rules, sector: Sector) -> String {
    format!("{}{sector}.mtb", file_prefix(rules))
}

/// What the file names of every sector under `rules` begin with: `nine-`, or the variant's
/// name and the tag of the rule bytes.
pub fn file_prefix(rules: &Rules) -> String {
    let defaults = rules_bytes(&rules.variant.rules());
    let mine = rules_bytes(rules);
    let tag = if defaults == mine {
        String::new()
    } else {
        format!(
            "-r{}",
            mine.iter().map(|b| format!("{b:02x}")).collect::<String>()
        )
    };
    format!("{}{tag}-", rules.variant.name())
}

/// A 64-bit multiply-rotate hash over 8-byte words, the checksum of every part of a file.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0x243f_6a88_85a3_08d3 ^ data.len() as u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
    h ^ (h >> 31)
}

/// The number of blocks of `len` values.
fn blocks(len: u64) -> u64 {
    len.div_ceil(BLOCK as u64)
}

/// The table of block checksums as bytes.
fn sums_bytes(sums: &[u64]) -> Vec<u8> {
    sums.iter().flat_map(|s| s.to_le_bytes()).collect()
}

/// Writes a sector's file atomically (to a temporary name, then renamed), so that an
/// interrupted build never leaves a file that looks finished.
///
/// # Errors
///
/// [`TbError::Io`] when the folder or file cannot be written.
pub fn write(
    dir: &Path,
    rules: &Rules,
    sector: Sector,
    values: &[u8],
    stats: &SectorStats,
) -> Result<PathBuf, TbError> {
    std::fs::create_dir_all(dir).map_err(|e| TbError::io(dir, e))?;
    let path = dir.join(file_name(rules, sector));
    let tmp = path.with_extension("mtb.partial");
    let sums: Vec<u64> = values.chunks(BLOCK).map(checksum).collect();
    let sums = sums_bytes(&sums);
    let header = header_bytes(rules, sector, values.len() as u64, stats, checksum(&sums));
    let io = |e| TbError::io(&tmp, e);
    let mut f = std::io::BufWriter::new(File::create(&tmp).map_err(io)?);
    f.write_all(&header).map_err(io)?;
    f.write_all(values).map_err(io)?;
    f.write_all(&sums).map_err(io)?;
    let f = f.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, &path).map_err(|e| TbError::io(&path, e))?;
    Ok(path)
}

/// The header of a file, its own checksum included.
fn header_bytes(
    rules: &Rules,
    sector: Sector,
    len: u64,
    stats: &SectorStats,
    sums_checksum: u64,
) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16..24].copy_from_slice(&rules_bytes(rules));
    h[24..28].copy_from_slice(&[sector.us, sector.them, sector.us_hand, sector.them_hand]);
    h[28..32].copy_from_slice(&u32::from(stats.longest).to_le_bytes());
    h[32..40].copy_from_slice(&len.to_le_bytes());
    h[40..48].copy_from_slice(&stats.wins.to_le_bytes());
    h[48..56].copy_from_slice(&stats.losses.to_le_bytes());
    h[56..64].copy_from_slice(&stats.draws.to_le_bytes());
    h[64..72].copy_from_slice(&stats.class_wins.to_le_bytes());
    h[72..80].copy_from_slice(&stats.class_losses.to_le_bytes());
    h[80..88].copy_from_slice(&stats.class_draws.to_le_bytes());
    h[88..92].copy_from_slice(&BLOCK_BITS.to_le_bytes());
    h[96..104].copy_from_slice(&sums_checksum.to_le_bytes());
    let own = checksum(&h[..120]);
    h[120..128].copy_from_slice(&own.to_le_bytes());
    h
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

/// What a header says, once checked.
struct Header {
    len: u64,
    stats: SectorStats,
    sums_checksum: u64,
}

/// Checks a header against the rules, the sector and the number of values expected.
fn parse_header(
    b: &[u8],
    path: &Path,
    rules: &Rules,
    sector: Sector,
    len: u64,
) -> Result<Header, TbError> {
    let corrupt = |reason: String| TbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let foreign = |reason: String| TbError::Foreign {
        path: path.to_path_buf(),
        reason,
    };
    if b.len() < 16 || &b[0..8] != MAGIC {
        if b.len() >= 8 && &b[0..8] == MAGIC {
            return Err(corrupt(format!("{} bytes, shorter than a header", b.len())));
        }
        return Err(foreign("no tablebase magic".into()));
    }
    let version = u32_at(b, 8);
    if version != VERSION {
        return Err(foreign(format!(
            "format version {version}, expected {VERSION} (rebuild it with morris tb build)"
        )));
    }
    if u32_at(b, 12) as usize != HEADER_LEN {
        return Err(corrupt("bad header length".into()));
    }
    if b.len() < HEADER_LEN {
        return Err(corrupt(format!("{} bytes, shorter than a header", b.len())));
    }
    if checksum(&b[..120]) != u64_at(b, 120) {
        return Err(corrupt("header checksum mismatch".into()));
    }
    if b[16..24] != rules_bytes(rules) {
        return Err(foreign(format!(
            "built for other rules than {}",
            rules.variant
        )));
    }
    let stored = Sector {
        us: b[24],
        them: b[25],
        us_hand: b[26],
        them_hand: b[27],
    };
    if stored != sector {
        return Err(foreign(format!("holds sector {stored}, expected {sector}")));
    }
    let longest = u32_at(b, 28);
    let count = u64_at(b, 32);
    if count != len {
        return Err(corrupt(format!("{count} values, expected {len}")));
    }
    if longest > u32::from(crate::value::MAX_DISTANCE) {
        return Err(corrupt(format!("longest distance {longest} is too long")));
    }
    if u32_at(b, 88) != BLOCK_BITS {
        return Err(corrupt(format!(
            "blocks of 2^{} values, expected 2^{BLOCK_BITS}",
            u32_at(b, 88)
        )));
    }
    if b[92..96].iter().chain(&b[104..120]).any(|&x| x != 0) {
        return Err(corrupt("reserved header bytes are not zero".into()));
    }
    let stats = SectorStats {
        wins: u64_at(b, 40),
        losses: u64_at(b, 48),
        draws: u64_at(b, 56),
        longest: longest as u16,
        class_wins: u64_at(b, 64),
        class_losses: u64_at(b, 72),
        class_draws: u64_at(b, 80),
    };
    let classes = stats.class_wins + stats.class_losses + stats.class_draws;
    if classes > count || stats.wins < stats.class_wins || stats.losses < stats.class_losses {
        return Err(corrupt("the counts of the header do not add up".into()));
    }
    Ok(Header {
        len: count,
        stats,
        sums_checksum: u64_at(b, 96),
    })
}

/// How the values are reached.
enum Source {
    /// Mapped into memory; `checked` has a bit per block already compared with its checksum.
    Mapped {
        map: Mmap,
        checked: Box<[AtomicU64]>,
    },
    /// Read block by block through the process's cache; `checked` as for a mapped file. A byte
    /// of a block already checked but no longer in the cache is read alone, rather than its
    /// whole block again: probes at random (the engine's) mostly land on such blocks.
    Read {
        file: File,
        id: u64,
        checked: Box<[AtomicU64]>,
    },
}

/// A sector's file, opened and checked.
pub struct SectorFile {
    source: Source,
    len: u64,
    sums: Box<[u64]>,
    stats: SectorStats,
    path: PathBuf,
    broken: OnceLock<String>,
}

impl std::fmt::Debug for SectorFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SectorFile")
            .field("path", &self.path)
            .field("len", &self.len)
            .field("mapped", &matches!(self.source, Source::Mapped { .. }))
            .field("broken", &self.broken.get())
            .finish_non_exhaustive()
    }
}

/// The values of one block: borrowed from a mapping or shared from the cache.
#[derive(Debug)]
pub enum BlockData<'a> {
    /// Part of a mapped file.
    Mapped(&'a [u8]),
    /// A block read into the cache.
    Cached(Arc<[u8]>),
}

impl Deref for BlockData<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            BlockData::Mapped(s) => s,
            BlockData::Cached(a) => a,
        }
    }
}

impl SectorFile {
    /// Opens a sector's file for reading block by block, and checks its header and the table
    /// of block checksums against the rules, the sector and the number of indices expected.
    /// Values are checked block by block as they are first read.
    ///
    /// The file may be replaced, truncated or damaged while it is open: reading then gives an
    /// error (and the file is marked [broken](SectorFile::broken)), never a crash.
    ///
    /// # Errors
    ///
    /// [`TbError::Io`] when the file cannot be read, [`TbError::Corrupt`] when it is damaged,
    /// [`TbError::Foreign`] when it belongs to other rules, another sector or another version.
    pub fn open(
        path: &Path,
        rules: &Rules,
        sector: Sector,
        len: u64,
    ) -> Result<SectorFile, TbError> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        let mut file = File::open(path).map_err(|e| TbError::io(path, e))?;
        let mut head = Vec::with_capacity(HEADER_LEN);
        (&mut file)
            .take(HEADER_LEN as u64)
            .read_to_end(&mut head)
            .map_err(|e| TbError::io(path, e))?;
        let header = parse_header(&head, path, rules, sector, len)?;
        let size = file.metadata().map_err(|e| TbError::io(path, e))?.len();
        let sums = read_sums(&file, path, &header, size)?;
        let words = sums.len().div_ceil(64);
        Ok(SectorFile {
            source: Source::Read {
                file,
                id: NEXT_ID.fetch_add(1, Relaxed),
                checked: (0..words).map(|_| AtomicU64::new(0)).collect(),
            },
            len: header.len,
            sums,
            stats: header.stats,
            path: path.to_path_buf(),
            broken: OnceLock::new(),
        })
    }

    /// Maps a sector's file into memory, with the same checks as [`SectorFile::open`]. Reading
    /// a mapped file costs no system call, which the solver needs for the files of the sectors
    /// it depends on.
    ///
    /// # Safety
    ///
    /// No process may truncate the file while it is mapped: reading a page that is no longer
    /// in the file kills the process with `SIGBUS`. Replacing the file by renaming another one
    /// onto its name is fine (the mapping keeps the old file), and so is any change of its
    /// contents (the block checksums catch it, or the values read are those of the new file).
    /// The tablebase builder writes every file under a temporary name and renames it into
    /// place, and never writes to a finished file.
    ///
    /// # Errors
    ///
    /// As [`SectorFile::open`].
    #[allow(unsafe_code)]
    pub unsafe fn map(
        path: &Path,
        rules: &Rules,
        sector: Sector,
        len: u64,
    ) -> Result<SectorFile, TbError> {
        let file = File::open(path).map_err(|e| TbError::io(path, e))?;
        // SAFETY: the caller promises that the file is not truncated while it is mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TbError::io(path, e))?;
        let header = parse_header(&map[..map.len().min(HEADER_LEN)], path, rules, sector, len)?;
        let sums = read_sums(&file, path, &header, map.len() as u64)?;
        let words = sums.len().div_ceil(64);
        Ok(SectorFile {
            source: Source::Mapped {
                map,
                checked: (0..words).map(|_| AtomicU64::new(0)).collect(),
            },
            len: header.len,
            sums,
            stats: header.stats,
            path: path.to_path_buf(),
            broken: OnceLock::new(),
        })
    }

    /// Reads a sector's whole file into memory of the process's own, advised for huge pages
    /// (2 MiB, where the system gives them), and checks every block at once, in parallel: for
    /// the solver, which reads the values of the sectors below a group at random, millions of
    /// times a second, and finds them faster there than in the page cache's small pages.
    ///
    /// # Errors
    ///
    /// As [`SectorFile::open`], and [`TbError::Corrupt`] when any block does not match its
    /// checksum.
    pub fn load(
        path: &Path,
        rules: &Rules,
        sector: Sector,
        len: u64,
    ) -> Result<SectorFile, TbError> {
        use rayon::prelude::*;
        let mut file = File::open(path).map_err(|e| TbError::io(path, e))?;
        let size = file.metadata().map_err(|e| TbError::io(path, e))?.len();
        // The size a file of `len` values has, before any memory is taken for it.
        let expected = HEADER_LEN as u64 + len + 8 * blocks(len);
        if size != expected {
            return Err(TbError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("{size} bytes, expected {expected}"),
            });
        }
        let mut data =
            memmap2::MmapMut::map_anon(size.max(1) as usize).map_err(|e| TbError::io(path, e))?;
        #[cfg(target_os = "linux")]
        let _ = data.advise(memmap2::Advice::HugePage);
        file.read_exact(&mut data[..size as usize])
            .map_err(|e| TbError::io(path, e))?;
        let map = data.make_read_only().map_err(|e| TbError::io(path, e))?;
        let header = parse_header(
            &map[..(size as usize).min(HEADER_LEN)],
            path,
            rules,
            sector,
            len,
        )?;
        let sums = read_sums(&file, path, &header, size)?;
        let values = &map[HEADER_LEN..HEADER_LEN + header.len as usize];
        if let Some(b) = values
            .par_chunks(BLOCK)
            .zip(sums.par_iter())
            .position_any(|(block, &sum)| checksum(block) != sum)
        {
            return Err(TbError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("checksum mismatch in block {b}"),
            });
        }
        let words = sums.len().div_ceil(64);
        Ok(SectorFile {
            source: Source::Mapped {
                map,
                checked: (0..words).map(|_| AtomicU64::new(u64::MAX)).collect(),
            },
            len: header.len,
            sums,
            stats: header.stats,
            path: path.to_path_buf(),
            broken: OnceLock::new(),
        })
    }

    /// The number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file holds no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of blocks of values.
    pub fn blocks(&self) -> u64 {
        self.sums.len() as u64
    }

    /// The figures of the header.
    pub fn stats(&self) -> SectorStats {
        self.stats
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the file was found damaged while it was read, if it was.
    pub fn broken(&self) -> Option<&str> {
        self.broken.get().map(String::as_str)
    }

    fn corrupt(&self, reason: String) -> TbError {
        let reason = self.broken.get_or_init(|| reason).clone();
        TbError::Corrupt {
            path: self.path.clone(),
            reason,
        }
    }

    /// The value byte at an index.
    ///
    /// # Errors
    ///
    /// [`TbError::Unsupported`] for an index past the end, [`TbError::Corrupt`] when the
    /// block of the index does not match its checksum or can no longer be read in full.
    #[inline]
    pub fn byte(&self, i: u64) -> Result<u8, TbError> {
        if i >= self.len {
            return Err(TbError::Unsupported(format!(
                "index {i} is past the {} values of {}",
                self.len,
                self.path.display()
            )));
        }
        let b = i >> BLOCK_BITS;
        let is_checked =
            |checked: &[AtomicU64]| checked[(b / 64) as usize].load(Relaxed) & (1 << (b % 64)) != 0;
        match &self.source {
            Source::Mapped { map, checked } if is_checked(checked) => {
                return Ok(map[HEADER_LEN + i as usize]);
            }
            Source::Read { file, id, checked }
                if is_checked(checked) && self.broken.get().is_none() =>
            {
                return match cache().get((*id, b)) {
                    Some(data) => Ok(data[(i & (BLOCK as u64 - 1)) as usize]),
                    None => self.read_byte(file, i),
                };
            }
            _ => {}
        }
        let block = self.block(b)?;
        Ok(block[(i & (BLOCK as u64 - 1)) as usize])
    }

    /// Every value of the file, when all of them are in memory and checked (a file read whole
    /// by [`SectorFile::load`], or mapped and read through): read from there, a value costs
    /// no check.
    pub fn checked_values(&self) -> Option<&[u8]> {
        match &self.source {
            Source::Mapped { map, checked } => {
                let blocks = self.sums.len();
                let all = checked.iter().enumerate().all(|(w, word)| {
                    let bits = (blocks - 64 * w).min(64);
                    let want = if bits == 64 {
                        u64::MAX
                    } else {
                        (1 << bits) - 1
                    };
                    word.load(Relaxed) & want == want
                });
                all.then(|| &map[HEADER_LEN..HEADER_LEN + self.len as usize])
            }
            Source::Read { .. } => None,
        }
    }

    /// Asks the processor to bring the value byte at index `i` of a mapped file into its cache
    /// ahead of [`SectorFile::byte`], so that the waits for many such bytes overlap. Does
    /// nothing for a file read block by block or for an index past the end.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        if let Source::Mapped { map, .. } = &self.source
            && let Some(byte) = map.get(HEADER_LEN + i as usize)
        {
            crate::bits::prefetch(byte);
        }
    }

    /// The byte at index `i`, read alone from a block checked before.
    fn read_byte(&self, file: &File, i: u64) -> Result<u8, TbError> {
        let mut one = [0u8];
        loop {
            match file.read_at(&mut one, HEADER_LEN as u64 + i) {
                Ok(0) => {
                    return Err(
                        self.corrupt(format!("the file was cut short while in use (index {i})"))
                    );
                }
                Ok(_) => return Ok(one[0]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.corrupt(format!("index {i} cannot be read: {e}"))),
            }
        }
    }

    /// The values of block `b` (indices `b × BLOCK` on), checked against its checksum.
    ///
    /// # Errors
    ///
    /// As [`SectorFile::byte`].
    pub fn block(&self, b: u64) -> Result<BlockData<'_>, TbError> {
        if let Some(reason) = self.broken.get() {
            return Err(TbError::Corrupt {
                path: self.path.clone(),
                reason: reason.clone(),
            });
        }
        let Some(&sum) = self.sums.get(b as usize) else {
            return Err(TbError::Unsupported(format!(
                "block {b} is past the {} blocks of {}",
                self.sums.len(),
                self.path.display()
            )));
        };
        let start = b * BLOCK as u64;
        let end = (start + BLOCK as u64).min(self.len);
        match &self.source {
            Source::Mapped { map, checked } => {
                let range = HEADER_LEN + start as usize..HEADER_LEN + end as usize;
                let data = &map[range];
                let word = &checked[(b / 64) as usize];
                if word.load(Relaxed) & (1 << (b % 64)) == 0 {
                    if checksum(data) != sum {
                        return Err(self.corrupt(format!("checksum mismatch in block {b}")));
                    }
                    word.fetch_or(1 << (b % 64), Relaxed);
                }
                Ok(BlockData::Mapped(data))
            }
            Source::Read { file, id, checked } => {
                let key = (*id, b);
                if let Some(data) = cache().get(key) {
                    return Ok(BlockData::Cached(data));
                }
                let mut data = vec![0u8; (end - start) as usize];
                let mut done = 0;
                while done < data.len() {
                    match file.read_at(&mut data[done..], HEADER_LEN as u64 + start + done as u64) {
                        Ok(0) => {
                            return Err(self.corrupt(format!(
                                "the file was cut short while in use (block {b})"
                            )));
                        }
                        Ok(n) => done += n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            return Err(self.corrupt(format!("block {b} cannot be read: {e}")));
                        }
                    }
                }
                if checksum(&data) != sum {
                    return Err(self.corrupt(format!("checksum mismatch in block {b}")));
                }
                let data: Arc<[u8]> = data.into();
                cache().insert(key, data.clone());
                checked[(b / 64) as usize].fetch_or(1 << (b % 64), Relaxed);
                Ok(BlockData::Cached(data))
            }
        }
    }
}

/// Reads and checks the table of block checksums at the end of a file of `size` bytes.
fn read_sums(file: &File, path: &Path, header: &Header, size: u64) -> Result<Box<[u64]>, TbError> {
    let n = blocks(header.len);
    let expected = HEADER_LEN as u64 + header.len + 8 * n;
    if size != expected {
        return Err(TbError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("{size} bytes, expected {expected}"),
        });
    }
    let mut raw = vec![0u8; 8 * n as usize];
    file.read_exact_at(&mut raw, HEADER_LEN as u64 + header.len)
        .map_err(|e| TbError::io(path, e))?;
    if checksum(&raw) != header.sums_checksum {
        return Err(TbError::Corrupt {
            path: path.to_path_buf(),
            reason: "the table of block checksums does not match the header".into(),
        });
    }
    Ok(raw.chunks_exact(8).map(|c| u64_at(c, 0)).collect())
}

/// The blocks read by every [`SectorFile::open`]ed file of the process, up to a bound.
struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    shard_bytes: usize,
}

#[derive(Default)]
struct Shard {
    map: HashMap<(u64, u64), Arc<[u8]>>,
    order: VecDeque<(u64, u64)>,
    bytes: usize,
}

const SHARDS: usize = 16;

/// The most bytes the cache of read blocks holds: 64 MiB unless `MORRIS_TB_CACHE_MB` says
/// otherwise when the first block is read.
fn cache() -> &'static BlockCache {
    static CACHE: OnceLock<BlockCache> = OnceLock::new();
    CACHE.get_or_init(|| {
        let mb = std::env::var("MORRIS_TB_CACHE_MB")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(64)
            .clamp(1, 1 << 20);
        BlockCache {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            shard_bytes: (mb << 20) / SHARDS,
        }
    })
}

impl BlockCache {
    fn shard(&self, key: (u64, u64)) -> &Mutex<Shard> {
        let h = (key.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ key.1).wrapping_mul(0xff51_afd7);
        &self.shards[(h >> 40) as usize % SHARDS]
    }

    fn get(&self, key: (u64, u64)) -> Option<Arc<[u8]>> {
        let shard = self.shard(key).lock().unwrap_or_else(|e| e.into_inner());
        shard.map.get(&key).cloned()
    }

    fn insert(&self, key: (u64, u64), data: Arc<[u8]>) {
        let mut shard = self.shard(key).lock().unwrap_or_else(|e| e.into_inner());
        let len = data.len();
        if shard.map.insert(key, data).is_some() {
            return;
        }
        shard.order.push_back(key);
        shard.bytes += len;
        while shard.bytes > self.shard_bytes && shard.order.len() > 1 {
            let Some(old) = shard.order.pop_front() else {
                break;
            };
            if let Some(d) = shard.map.remove(&old) {
                shard.bytes -= d.len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    fn write_sample(name: &str, len: usize) -> (PathBuf, Rules, Sector, Vec<u8>) {
        let dir = std::env::temp_dir().join(format!("morris-file-{name}-{}", std::process::id()));
        let rules = Variant::Nine.rules();
        let sector = Sector::moving(3, 3);
        let values = sample(len);
        let stats = SectorStats {
            wins: 10,
            losses: 5,
            draws: 1,
            longest: 7,
            class_wins: 3,
            class_losses: 2,
            class_draws: 1,
        };
        let path = write(&dir, &rules, sector, &values, &stats).unwrap();
        (path, rules, sector, values)
    }

    #[test]
    fn both_ways_of_reading_give_the_values_and_the_figures() {
        let len = 2 * BLOCK + 1234;
        let (path, rules, sector, values) = write_sample("read", len);
        let read = SectorFile::open(&path, &rules, sector, len as u64).unwrap();
        #[allow(unsafe_code)]
        // SAFETY: the test's own file, never truncated.
        let mapped = unsafe { SectorFile::map(&path, &rules, sector, len as u64) }.unwrap();
        let loaded = SectorFile::load(&path, &rules, sector, len as u64).unwrap();
        assert_eq!(loaded.checked_values(), Some(&values[..]));
        assert_eq!(read.checked_values(), None);
        assert_eq!(mapped.checked_values(), None, "no block read yet");
        for f in [&read, &mapped, &loaded] {
            assert_eq!(f.blocks(), 3);
            assert_eq!(f.stats().class_wins, 3);
            for i in [0, 1, BLOCK - 1, BLOCK, 2 * BLOCK + 1233] {
                assert_eq!(f.byte(i as u64).unwrap(), values[i]);
            }
            assert!(f.byte(len as u64).is_err());
            assert_eq!(&*f.block(2).unwrap(), &values[2 * BLOCK..]);
        }
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_damaged_block_is_found_when_read_and_the_verdict_is_kept() {
        let len = 3 * BLOCK;
        let (path, rules, sector, _) = write_sample("damaged", len);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + BLOCK + 5] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        // Reading the whole file checks every block at once.
        let e = SectorFile::load(&path, &rules, sector, len as u64).unwrap_err();
        assert!(
            matches!(&e, TbError::Corrupt { reason, .. } if reason.contains("block 1")),
            "{e}"
        );
        // A file of the wrong size is refused before any of it is read.
        let cut = path.with_extension("cut");
        std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
        let e = SectorFile::load(&cut, &rules, sector, len as u64).unwrap_err();
        assert!(
            matches!(&e, TbError::Corrupt { reason, .. } if reason.contains("expected")),
            "{e}"
        );
        // Opening reads only the header and the checksums: the damage is found on reading.
        let f = SectorFile::open(&path, &rules, sector, len as u64).unwrap();
        assert!(f.byte(0).is_ok());
        assert!(f.broken().is_none());
        let e = f.byte(BLOCK as u64 + 1).unwrap_err();
        assert!(matches!(e, TbError::Corrupt { .. }), "{e}");
        assert!(f.broken().unwrap().contains("block 1"));
        // Once broken, every read is refused at once.
        assert!(f.byte(0).is_err());
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn a_file_cut_short_while_open_is_an_error_not_a_crash() {
        let len = 4 * BLOCK;
        let (path, rules, sector, values) = write_sample("truncated", len);
        let f = SectorFile::open(&path, &rules, sector, len as u64).unwrap();
        assert_eq!(f.byte(1).unwrap(), values[1]);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(HEADER_LEN as u64 + BLOCK as u64)
            .unwrap();
        let e = f.byte(3 * BLOCK as u64).unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    /// Forgets every block of the process's cache.
    fn empty_the_cache() {
        for shard in &cache().shards {
            let mut shard = shard.lock().unwrap();
            shard.map.clear();
            shard.order.clear();
            shard.bytes = 0;
        }
    }

    #[test]
    fn a_checked_block_gone_from_the_cache_is_read_byte_by_byte() {
        let len = 4 * BLOCK;
        let (path, rules, sector, values) = write_sample("bytewise", len);
        let f = SectorFile::open(&path, &rules, sector, len as u64).unwrap();
        let at = |k: usize| 3 * BLOCK + k;
        assert_eq!(f.byte(at(5) as u64).unwrap(), values[at(5)]);
        empty_the_cache();
        for k in [0, 6, 1000, BLOCK - 1] {
            assert_eq!(f.byte(at(k) as u64).unwrap(), values[at(k)], "{k}");
        }
        // Read alone, a byte of a file cut short is an error too.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(HEADER_LEN as u64 + BLOCK as u64)
            .unwrap();
        empty_the_cache();
        let e = f.byte(at(7) as u64).unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
        assert!(f.broken().is_some());
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn every_header_byte_is_covered() {
        let len = 100;
        let (path, rules, sector, _) = write_sample("header", len);
        let good = std::fs::read(&path).unwrap();
        for at in 0..HEADER_LEN {
            let mut bad = good.clone();
            bad[at] ^= 0x04;
            std::fs::write(&path, &bad).unwrap();
            assert!(
                SectorFile::open(&path, &rules, sector, len as u64).is_err(),
                "a change at header byte {at} went unnoticed"
            );
        }
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}
