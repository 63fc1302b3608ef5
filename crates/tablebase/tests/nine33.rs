//! The 3-3 sector of Nine Men's Morris against the known figures.

use morris_core::Variant;
use morris_tablebase::{BuildOptions, Sector, Tablebase, build, verify};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("morris-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn nine_3_3_has_the_known_figures() {
    let dir = temp_dir("nine33");
    let rules = Variant::Nine.rules();
    let t = std::time::Instant::now();
    build(
        &BuildOptions::new(rules, &dir),
        &[Sector::moving(3, 3)],
        |_| {},
    )
    .unwrap();
    eprintln!("built in {:?}", t.elapsed());
    let tb = Tablebase::new(&dir, rules);
    let s = tb.table(Sector::moving(3, 3)).unwrap().file().stats();
    assert_eq!(
        (s.wins, s.losses, s.draws, s.longest),
        (2_232_160, 455_648, 4_112, 26)
    );
    let t = std::time::Instant::now();
    assert!(verify(&tb, &[Sector::moving(3, 3)], &morris_tablebase::Silent).unwrap() > 0);
    eprintln!("verified in {:?}", t.elapsed());
    std::fs::remove_dir_all(&dir).ok();
}
