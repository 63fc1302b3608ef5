//! Tablebase files: whatever the bytes of a file, opening it as a sector's file (or reading it
//! whole, as the solver does) and reading its values never panics, and a file that opens gives
//! only values that its block checksums vouch for.
//!
//! The input: a byte for the sector (3-3 of Three Men's Morris, whose file is small, or one of
//! a few small sectors of nine), then the file's bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::Variant;
use morris_tablebase::{Sector, SectorFile, sector_len};

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let (rules, sector) = match first % 3 {
        0 => (Variant::Three.rules(), Sector::moving(3, 3)),
        1 => (Variant::Nine.rules(), Sector::moving(3, 3)),
        _ => (Variant::Six.rules(), Sector::moving(3, 3)),
    };
    let path = std::env::temp_dir().join(format!("morris-fuzz-tb-{}.mtb", std::process::id()));
    if std::fs::write(&path, bytes).is_err() {
        return;
    }
    let len = sector_len(&rules, sector);
    if let Ok(file) = SectorFile::open(&path, &rules, sector, len) {
        assert_eq!(file.len(), len);
        let _ = file.stats();
        for b in 0..file.blocks() {
            if let Ok(block) = file.block(b) {
                assert!(block.len() <= 65_536);
            }
        }
        let _ = file.byte(0);
        let _ = file.byte(len.saturating_sub(1));
        assert!(file.byte(len).is_err());
    }
    // Read whole, a file either is refused or gives every value, each vouched for by its block.
    if let Ok(file) = SectorFile::load(&path, &rules, sector, len) {
        let values = file.checked_values().expect("a file read whole is checked whole");
        assert_eq!(values.len() as u64, len);
        for b in 0..file.blocks() {
            let block = file.block(b).expect("every block was checked");
            let start = b as usize * morris_tablebase::file::BLOCK;
            assert_eq!(&*block, &values[start..start + block.len()]);
        }
    }
    let _ = std::fs::remove_file(&path);
});
