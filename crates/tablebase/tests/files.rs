//! Damaged or foreign files are errors, never a panic and never a wrong value.

mod common;

use common::temp_dir;
use morris_core::Variant;
use morris_tablebase::{BuildOptions, Sector, Tablebase, TbError, build, file::file_name};

#[test]
fn corrupt_truncated_and_foreign_files_are_refused() {
    let dir = temp_dir("files");
    let rules = Variant::Three.rules();
    let sector = Sector::moving(3, 3);
    build(&BuildOptions::new(rules, &dir), &[sector], |_| {}).unwrap();
    let path = dir.join(file_name(&rules, sector));
    let good = std::fs::read(&path).unwrap();
    let open = || Tablebase::new(&dir, rules).table(sector).map(|_| ());
    assert!(open().is_ok());

    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    assert!(
        matches!(open(), Err(TbError::Corrupt { .. })),
        "{:?}",
        open()
    );

    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    assert!(matches!(open(), Err(TbError::Corrupt { .. })));
    std::fs::write(&path, &good[..10]).unwrap();
    assert!(matches!(open(), Err(TbError::Corrupt { .. })));

    let mut other = good.clone();
    other[16] = 0; // the variant byte: nine
    std::fs::write(&path, &other).unwrap();
    assert!(matches!(open(), Err(TbError::Foreign { .. })));
    std::fs::write(&path, b"not a tablebase file at all, just some text that is long enough to hold a header of ninety-six bytes").unwrap();
    assert!(matches!(open(), Err(TbError::Foreign { .. })));

    // A file of another sector under this sector's name.
    let six = Variant::Six.rules();
    build(&BuildOptions::new(six, &dir), &[sector], |_| {}).unwrap();
    std::fs::copy(dir.join(file_name(&six, sector)), &path).unwrap();
    assert!(matches!(open(), Err(TbError::Foreign { .. })));

    std::fs::write(&path, &good).unwrap();
    assert!(open().is_ok());
    std::fs::remove_dir_all(&dir).ok();
}
