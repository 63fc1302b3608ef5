//! The file of one sector: a header and one byte per index, read through memory mapping.
//!
//! Layout (little-endian), a 96-byte header then the values:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MORRISTB` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | header length (96) |
//! | 16 | 8 | rules: variant, board, pieces, flying threshold, mill removal, double mill, full board, flags |
//! | 24 | 4 | sector: pieces on the board and in hand, side to move first |
//! | 28 | 4 | longest distance in plies |
//! | 32 | 8 | number of indices (values that follow) |
//! | 40 | 8 | wins over every placement (no symmetry reduction) |
//! | 48 | 8 | losses |
//! | 56 | 8 | draws |
//! | 64 | 8 | checksum of the values |
//! | 72 | 24 | reserved, zero |
//!
//! Each value byte is 0 for a draw, 255 for an index that stands for no position, otherwise the
//! distance to the end in plies plus one (odd distances are wins, even ones losses).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use morris_core::{DoubleMill, FullBoard, MillRemoval, Rules, Variant};

use crate::error::TbError;
use crate::sector::Sector;

const MAGIC: &[u8; 8] = b"MORRISTB";
const VERSION: u32 = 1;
/// The length of the header in bytes.
pub const HEADER_LEN: usize = 96;

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
    let flags = u8::from(rules.place_or_move) | (u8::from(rules.line_wins) << 1);
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
    format!("{}{tag}-{sector}.mtb", rules.variant.name())
}

/// The checksum of the values: a 64-bit multiply-rotate hash over 8-byte words.
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
    let mut header = [0u8; HEADER_LEN];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    header[16..24].copy_from_slice(&rules_bytes(rules));
    header[24..28].copy_from_slice(&[sector.us, sector.them, sector.us_hand, sector.them_hand]);
    header[28..32].copy_from_slice(&u32::from(stats.longest).to_le_bytes());
    header[32..40].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[40..48].copy_from_slice(&stats.wins.to_le_bytes());
    header[48..56].copy_from_slice(&stats.losses.to_le_bytes());
    header[56..64].copy_from_slice(&stats.draws.to_le_bytes());
    header[64..72].copy_from_slice(&checksum(values).to_le_bytes());
    let io = |e| TbError::io(&tmp, e);
    let mut f = std::io::BufWriter::new(File::create(&tmp).map_err(io)?);
    f.write_all(&header).map_err(io)?;
    f.write_all(values).map_err(io)?;
    let f = f.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, &path).map_err(|e| TbError::io(&path, e))?;
    Ok(path)
}

/// A sector's file, mapped into memory and checked.
#[derive(Debug)]
pub struct SectorFile {
    map: Mmap,
    stats: SectorStats,
    path: PathBuf,
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

impl SectorFile {
    /// Maps a sector's file and checks its header, size and checksum against the rules, the
    /// sector and the number of indices expected.
    ///
    /// This is the crate's one use of `unsafe`: memory mapping a file is only sound while no
    /// other process changes the file. Tablebase files are written once under a temporary
    /// name and renamed into place, never modified afterwards; every value read is checked
    /// against the checksum at open time.
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
        let file = File::open(path).map_err(|e| TbError::io(path, e))?;
        #[allow(unsafe_code)]
        // SAFETY: see the documentation above: files are immutable once renamed into place,
        // and the contents are validated before use.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TbError::io(path, e))?;
        let corrupt = |reason: String| TbError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let foreign = |reason: String| TbError::Foreign {
            path: path.to_path_buf(),
            reason,
        };
        let b = &map[..];
        if b.len() < HEADER_LEN {
            return Err(corrupt(format!("{} bytes, shorter than a header", b.len())));
        }
        if &b[0..8] != MAGIC {
            return Err(foreign("no tablebase magic".into()));
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(foreign(format!(
                "format version {version}, expected {VERSION}"
            )));
        }
        if u32_at(b, 12) as usize != HEADER_LEN {
            return Err(corrupt("bad header length".into()));
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
        if (b.len() - HEADER_LEN) as u64 != count {
            return Err(corrupt(format!(
                "{} bytes of values, expected {count}",
                b.len() - HEADER_LEN
            )));
        }
        if longest > u32::from(crate::value::MAX_DISTANCE) {
            return Err(corrupt(format!("longest distance {longest} is too long")));
        }
        if b[72..HEADER_LEN].iter().any(|&x| x != 0) {
            return Err(corrupt("reserved header bytes are not zero".into()));
        }
        if checksum(&b[HEADER_LEN..]) != u64_at(b, 64) {
            return Err(corrupt("checksum mismatch".into()));
        }
        let stats = SectorStats {
            wins: u64_at(b, 40),
            losses: u64_at(b, 48),
            draws: u64_at(b, 56),
            longest: longest as u16,
        };
        Ok(SectorFile {
            map,
            stats,
            path: path.to_path_buf(),
        })
    }

    /// The value bytes.
    pub fn values(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// The figures of the header.
    pub fn stats(&self) -> SectorStats {
        self.stats
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
