//! Search speed: fixed-depth searches of bench positions, and the time to answer
//! `go movetime`. Run with `cargo bench -p morris-engine`.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use morris_core::{Game, Position};
use morris_engine::bench::BENCH_POSITIONS;
use morris_engine::{Engine, EngineOptions, Limits};

fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (i, (variant, fen)) in BENCH_POSITIONS.iter().enumerate().take(4) {
        let game = Game::new(Position::from_fen(variant.rules(), fen).unwrap());
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        group.bench_function(format!("{variant}-{i}-depth-8"), |b| {
            b.iter(|| {
                engine.new_game();
                let r = engine.search(&game, &Limits::depth(8), &mut |_| {});
                assert!(r.best.is_some() && r.nodes > 0);
                r.nodes
            });
        });
    }
    group.finish();
}

fn movetime(c: &mut Criterion) {
    let mut group = c.benchmark_group("movetime");
    group.sample_size(10);
    let (variant, fen) = BENCH_POSITIONS[2];
    let game = Game::new(Position::from_fen(variant.rules(), fen).unwrap());
    let mut engine = Engine::new(EngineOptions::default());
    group.bench_function("go-movetime-100", |b| {
        b.iter(|| {
            let r = engine.search(
                &game,
                &Limits::movetime(Duration::from_millis(100)),
                &mut |_| {},
            );
            assert!(r.best.is_some());
        });
    });
    group.finish();
}

criterion_group!(benches, fixed_depth, movetime);
criterion_main!(benches);
