//! Building sectors of Nine Men's Morris from scratch, on every core.
//!
//! `cargo bench -p morris-tablebase` — each sample builds into a fresh folder; the 3-3 sample
//! checks the known figures, the larger ones check that every group was solved. The last one is
//! the whole game in small: the placing-phase sector with two pieces in hand each and three on
//! the board, and the 18 groups of both phases it needs (95 million positions).

use criterion::{Criterion, criterion_group, criterion_main};
use morris_core::Variant;
use morris_tablebase::{BuildOptions, Sector, Tablebase, build};

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("morris-tb-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds `targets` and what they depend on; returns the number of groups solved.
fn build_all(name: &str, targets: &[Sector]) -> usize {
    let dir = fresh_dir(name);
    let rules = Variant::Nine.rules();
    let mut solved = 0;
    build(&BuildOptions::new(rules, &dir), targets, |r| {
        assert!(r.solved);
        solved += 1;
    })
    .expect("build");
    if targets == [Sector::moving(3, 3)] {
        let s = Tablebase::new(&dir, rules)
            .table(Sector::moving(3, 3))
            .expect("3-3")
            .file()
            .stats();
        assert_eq!(
            (s.wins, s.losses, s.draws, s.longest),
            (2_232_160, 455_648, 4_112, 26)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
    solved
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("nine");
    group.sample_size(10);
    group.bench_function("sector 3-3", |b| {
        b.iter(|| assert_eq!(build_all("33", &[Sector::moving(3, 3)]), 1))
    });
    group.bench_function("sectors up to 5-4 and 4-5", |b| {
        // 3-3, 3-4+4-3, 3-5+5-3, 4-4, 4-5+5-4.
        b.iter(|| assert_eq!(build_all("54", &[Sector::moving(5, 4)]), 5))
    });
    group.bench_function("placing sector 3-3-2-2 and what it needs", |b| {
        let target: Sector = "3-3-2-2".parse().expect("sector");
        b.iter(|| assert_eq!(build_all("3322", &[target]), 19))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
