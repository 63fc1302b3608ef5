//! Perft speed from the start of each variant.

use criterion::{Criterion, criterion_group, criterion_main};
use morris_core::{Position, Variant, perft};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let nine = Position::start(Variant::Nine);
    group.bench_function("nine depth 5", |b| {
        b.iter(|| assert_eq!(perft(&nine, 5), 5_140_800));
    });
    // The figure the rules core is held to: perft 7 from the start of nine on one core.
    group.measurement_time(std::time::Duration::from_secs(20));
    group.bench_function("nine depth 7", |b| {
        b.iter(|| assert_eq!(perft(&nine, 7), 1_873_562_112));
    });
    group.measurement_time(std::time::Duration::from_secs(5));
    let twelve = Position::start(Variant::Twelve);
    group.bench_function("twelve depth 4", |b| {
        b.iter(|| perft(&twelve, 4));
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
