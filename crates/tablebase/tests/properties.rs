//! Invariants of the tables as property tests, on small sectors of nine and six built once.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::{position, temp_dir};
use morris_core::{Position, Variant};
use morris_tablebase::{BuildOptions, Sector, Tablebase, Value, build};
use proptest::prelude::*;

fn tables(variant: Variant) -> &'static Tablebase {
    static NINE: OnceLock<Tablebase> = OnceLock::new();
    static SIX: OnceLock<Tablebase> = OnceLock::new();
    let (cell, sectors, name): (_, &[Sector], _) = match variant {
        Variant::Nine => (&NINE, &[Sector::moving(3, 3)], "prop-nine"),
        _ => (
            &SIX,
            &[Sector::moving(4, 3), Sector::moving(4, 4)],
            "prop-six",
        ),
    };
    cell.get_or_init(|| {
        let rules = variant.rules();
        let dir: PathBuf = temp_dir(name);
        build(&BuildOptions::new(rules, &dir), sectors, |_| {}).unwrap();
        Tablebase::new(dir, rules)
    })
}

/// A position of a moving sector of `variant` chosen by a shuffle of the points.
fn pick(variant: Variant, us: u8, them: u8, order: &[usize]) -> Option<Position> {
    let rules = variant.rules();
    let n = rules.board().len();
    let points: Vec<usize> = order.iter().copied().filter(|&p| p < n).collect();
    let set = |r: &[usize]| r.iter().fold(0u32, |s, &p| s | 1 << p);
    let (u, t) = (us as usize, them as usize);
    position(
        &rules,
        Sector::moving(us, them),
        set(&points[..u]),
        set(&points[u..u + t]),
    )
}

fn cases() -> impl Strategy<Value = (Variant, u8, u8, Vec<usize>)> {
    let order = Just((0..24).collect::<Vec<usize>>()).prop_shuffle();
    prop_oneof![
        order.clone().prop_map(|o| (Variant::Nine, 3, 3, o)),
        order.clone().prop_map(|o| (Variant::Six, 4, 3, o)),
        order.clone().prop_map(|o| (Variant::Six, 3, 4, o)),
        order.prop_map(|o| (Variant::Six, 4, 4, o)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn values_follow_from_the_successors((variant, us, them, order) in cases()) {
        let tb = tables(variant);
        let Some(pos) = pick(variant, us, them, &order) else { return Ok(()); };
        let v = tb.probe(&pos).unwrap();
        for sym in pos.board().symmetries() {
            prop_assert_eq!(tb.probe(&pos.transform(sym)).unwrap(), v);
        }
        let kids: Vec<Value> = pos
            .legal_plies()
            .into_iter()
            .map(|ply| {
                let mut c = pos;
                c.play_unchecked(ply);
                tb.probe(&c).unwrap()
            })
            .collect();
        match v {
            Value::Win(d) => {
                prop_assert_eq!(d % 2, 1);
                prop_assert!(kids.contains(&Value::Loss(d - 1)));
                prop_assert!(!kids.iter().any(|&k| matches!(k, Value::Loss(e) if e + 1 < d)));
            }
            Value::Loss(d) => {
                prop_assert_eq!(d % 2, 0);
                if d == 0 {
                    prop_assert!(pos.is_over());
                } else {
                    prop_assert!(kids.iter().all(|&k| matches!(k, Value::Win(e) if e < d)));
                    prop_assert!(kids.contains(&Value::Win(d - 1)));
                }
            }
            Value::Draw => {
                prop_assert!(kids.contains(&Value::Draw));
                prop_assert!(!kids.iter().any(|k| matches!(k, Value::Loss(_))));
            }
        }
    }
}
