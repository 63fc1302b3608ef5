//! The load test tool itself, at a small scale: it plays its games without error and counts
//! every ply. (`morris loadtest --games 1000` is the real run; see the README.)

use std::time::Duration;

use morris_server::loadtest::{LoadConfig, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_test_plays_its_games_without_error() {
    let config = LoadConfig {
        games: 8,
        plies: 12,
        duration: Duration::from_secs(60),
        think: Duration::from_millis(5),
        target: None,
    };
    let report = run(&config, |_, _| {}).await.unwrap();
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.plies, 8 * 12, "{report}");
    assert_eq!(report.round_trips.len(), 8 * 12);
    assert!(report.games >= 8);
    assert!(report.percentile(99.0) > 0.0);
    assert!(report.to_string().contains("errors 0"));
}
