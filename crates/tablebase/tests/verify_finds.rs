//! Verification finds a stored value that is wrong, even when the file's checksums are right.

use morris_core::Variant;
use morris_tablebase::{BuildOptions, Sector, Silent, Tablebase, TbError, build, file, verify};

#[test]
fn a_wrong_distance_is_found_though_the_checksums_are_right() {
    let dir = std::env::temp_dir().join(format!("morris-tb-verify-finds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Variant::Six.rules();
    let sector = Sector::moving(3, 3);
    build(&BuildOptions::new(rules, &dir), &[sector], |_| {}).unwrap();
    let (mut values, stats) = {
        let tb = Tablebase::new(&dir, rules);
        assert!(verify(&tb, &[sector], &Silent).unwrap() > 0);
        let table = tb.table(sector).unwrap();
        let f = table.file();
        let values: Vec<u8> = (0..f.blocks())
            .flat_map(|b| f.block(b).unwrap().to_vec())
            .collect();
        (values, f.stats())
    };
    // A win at distance d ≥ 3 (stored as d + 1, odd d) said to be a win at d + 2: a subtle
    // lie that every check of a byte's form lets through.
    let i = values
        .iter()
        .position(|&b| b != 0 && b != 255 && b >= 4 && (b - 1) % 2 == 1)
        .expect("a win of at least three plies");
    values[i] += 2;
    file::write(&dir, &rules, sector, &values, &stats).unwrap();
    match verify(&Tablebase::new(&dir, rules), &[sector], &Silent) {
        Err(TbError::Mismatch {
            stored, computed, ..
        }) => {
            assert_ne!(stored, computed);
        }
        other => panic!("the changed value went unnoticed: {other:?}"),
    }
    std::fs::remove_dir_all(&dir).ok();
}
