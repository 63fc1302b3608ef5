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

    // The header is under its own checksum: a changed rules byte or forged counts are caught.
    let mut other = good.clone();
    other[16] = 0; // the variant byte: nine
    std::fs::write(&path, &other).unwrap();
    assert!(matches!(open(), Err(TbError::Corrupt { .. })));
    let mut forged = good.clone();
    forged[40] = forged[40].wrapping_add(1); // one more win over every placement
    std::fs::write(&path, &forged).unwrap();
    assert!(matches!(open(), Err(TbError::Corrupt { .. })));
    std::fs::write(&path, b"not a tablebase file at all, just some text that is long enough to hold a header of a hundred and twenty-eight bytes, or so one would hope").unwrap();
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

/// A file cut short or damaged while the tables are in use is an error for the positions it
/// can no longer answer, said once, and the sector is not opened again on every probe.
#[test]
fn a_file_damaged_in_use_is_reported_once_and_not_reopened() {
    let dir = temp_dir("in-use");
    let rules = Variant::Nine.rules();
    let sector = Sector::moving(3, 3);
    build(&BuildOptions::new(rules, &dir), &[sector], |_| {}).unwrap();
    let path = dir.join(file_name(&rules, sector));
    let good = std::fs::read(&path).unwrap();
    let tb = Tablebase::new(&dir, rules);
    let positions = common::all_positions(&rules, sector);
    assert!(tb.probe(&positions[0]).is_ok());
    assert!(tb.table(sector).unwrap().file().blocks() > 1);

    // Cut the file short under the open table: probing must not crash the process.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(200)
        .unwrap();
    let failed = positions.iter().find_map(|p| tb.probe(p).err());
    let e = failed.expect("some position lies past the cut");
    assert!(matches!(e, TbError::Corrupt { .. }), "{e}");
    let problems = tb.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("cut short"), "{problems:?}");

    // Repaired, it is still refused until the tables are refreshed, and said no more.
    std::fs::write(&path, &good).unwrap();
    assert!(tb.probe(&positions[0]).is_err());
    assert!(tb.take_problems().is_empty());
    tb.refresh();
    assert!(positions.iter().all(|p| tb.probe(p).is_ok()));
    std::fs::remove_dir_all(&dir).ok();
}

/// The counts over symmetry classes in a file's header agree with a naive count: every
/// placement of the sector, grouped by the core's canonical form, each group counted once.
#[test]
fn class_counts_agree_with_a_naive_count_over_all_placements() {
    let dir = temp_dir("classes");
    for (variant, sector) in [
        (Variant::Six, Sector::moving(4, 3)),
        (Variant::Three, Sector::moving(3, 3)),
        (Variant::Nine, Sector::moving(3, 3)),
    ] {
        let rules = variant.rules();
        build(&BuildOptions::new(rules, &dir), &[sector], |_| {}).unwrap();
        let tb = Tablebase::new(&dir, rules);
        let stats = tb.table(sector).unwrap().file().stats();
        let mut seen = std::collections::HashSet::new();
        let (mut wins, mut losses, mut draws) = (0u64, 0u64, 0u64);
        let (mut all_wins, mut all_losses, mut all_draws) = (0u64, 0u64, 0u64);
        for pos in common::all_positions(&rules, sector) {
            let value = tb.probe(&pos).unwrap();
            match value {
                morris_tablebase::Value::Win(_) => all_wins += 1,
                morris_tablebase::Value::Loss(_) => all_losses += 1,
                morris_tablebase::Value::Draw => all_draws += 1,
            }
            if !seen.insert(pos.canonical().0) {
                continue;
            }
            match value {
                morris_tablebase::Value::Win(_) => wins += 1,
                morris_tablebase::Value::Loss(_) => losses += 1,
                morris_tablebase::Value::Draw => draws += 1,
            }
        }
        assert_eq!(
            (stats.class_wins, stats.class_losses, stats.class_draws),
            (wins, losses, draws),
            "{variant} {sector}"
        );
        assert_eq!(
            (stats.wins, stats.losses, stats.draws),
            (all_wins, all_losses, all_draws),
            "{variant} {sector}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
