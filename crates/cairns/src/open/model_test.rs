//! A model-based property test that every OPEN set runs: random push /
//! pop / decrease-key / clear sequences, checked against a plain list after
//! each step.

use std::f64::consts::SQRT_2;

use proptest::prelude::*;

use super::{Key, OpenSet};
use crate::graph::NodeId;

/// One step of a test sequence. Keys are built as `a + b * sqrt(2)` above
/// the last popped `f`, as in an octile A* with a consistent heuristic, so
/// monotone structures (bucket, radix) take the same sequences as the rest.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    Push { node: u32, a: u8, b: u8, depth: u8 },
    Pop,
    Decrease { pick: usize, by: u8 },
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0u32..64, 0u8..12, 0u8..8, 0u8..6).prop_map(|(node, a, b, depth)| Op::Push { node, a, b, depth }),
        4 => Just(Op::Pop),
        3 => (any::<usize>(), 0u8..8).prop_map(|(pick, by)| Op::Decrease { pick, by }),
        1 => Just(Op::Clear),
    ]
}

pub(crate) fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(op(), 0..300)
}

/// Runs `ops` on `open` and on a reference list, comparing after every
/// step. Returns a description of the first difference.
pub(crate) fn check<Q: OpenSet>(open: &mut Q, ops: &[Op]) -> Result<(), String> {
    const NODES: usize = 64;
    open.prepare(NODES);
    let mut model: Vec<(NodeId, Key)> = Vec::new();
    let mut floor = 0.0f64;
    for (step, op) in ops.iter().enumerate() {
        match *op {
            Op::Push { node, a, b, depth } => {
                let node = NodeId(node);
                if model.iter().any(|e| e.0 == node) {
                    continue;
                }
                let f = floor + f64::from(a) + f64::from(b) * SQRT_2;
                let g = (f - f64::from(depth)).max(0.0);
                let key = Key { f, g };
                open.push(node, key);
                model.push((node, key));
            }
            Op::Pop => {
                let got = open.pop();
                let best = model
                    .iter()
                    .enumerate()
                    .fold(None::<(usize, Key)>, |best, (i, e)| match best {
                        Some((_, k)) if !e.1.precedes(k) => best,
                        _ => Some((i, e.1)),
                    });
                match (got, best) {
                    (None, None) => {}
                    (Some((node, key)), Some((_, best_key))) => {
                        if key != best_key {
                            return Err(format!(
                                "step {step}: popped {key:?}, best is {best_key:?}"
                            ));
                        }
                        let Some(i) = model.iter().position(|e| e.0 == node && e.1 == key) else {
                            return Err(format!(
                                "step {step}: popped {node} {key:?}, not in the set"
                            ));
                        };
                        model.swap_remove(i);
                        floor = key.f;
                    }
                    (got, best) => {
                        return Err(format!("step {step}: popped {got:?}, model had {best:?}"));
                    }
                }
            }
            Op::Decrease { pick, by } => {
                if model.is_empty() {
                    continue;
                }
                let i = pick % model.len();
                let (node, old) = model[i];
                // A lower f, never below the last pop, with g raised by the
                // same amount as f fell (a shorter path to the same node).
                let f = (old.f - f64::from(by) * 0.5).max(floor);
                let key = Key {
                    f,
                    g: old.g + (old.f - f),
                };
                if !(key.precedes(old) || key == old) {
                    continue;
                }
                open.decrease_key(node, key);
                model[i].1 = key;
            }
            Op::Clear => {
                open.clear();
                model.clear();
                floor = 0.0;
            }
        }
        if open.len() != model.len() {
            return Err(format!(
                "step {step}: len {} but model has {}",
                open.len(),
                model.len()
            ));
        }
        for n in 0..NODES as u32 {
            let want = model.iter().find(|e| e.0 == NodeId(n)).map(|e| e.1);
            let got = open.key(NodeId(n));
            if want != got {
                return Err(format!(
                    "step {step}: key of {n} is {got:?}, model says {want:?}"
                ));
            }
        }
    }
    Ok(())
}

/// The tie order every structure documents, on a fixed sequence: smaller
/// `f` first, larger `g` first among equal `f`, a decrease-key that moves a
/// node to the front, and membership forgotten once popped.
pub(crate) fn check_tie_order<Q: OpenSet>(mut q: Q) {
    q.prepare(10);
    q.push(NodeId(1), Key { f: 5.0, g: 1.0 });
    q.push(NodeId(2), Key { f: 3.0, g: 0.0 });
    q.push(NodeId(3), Key { f: 5.0, g: 4.0 });
    q.push(NodeId(4), Key { f: 9.0, g: 0.0 });
    q.decrease_key(NodeId(4), Key { f: 1.0, g: 0.5 });
    assert_eq!(q.key(NodeId(3)), Some(Key { f: 5.0, g: 4.0 }));
    let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|(n, _)| n.0).collect();
    assert_eq!(order, [4, 2, 3, 1]);
    assert_eq!(q.key(NodeId(3)), None);
}

/// Declares the model test for an OPEN set type built by an expression.
macro_rules! model_test {
    ($name:ident, $make:expr) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
            #[test]
            fn $name(ops in $crate::open::model_test::ops()) {
                let mut open = $make;
                if let Err(e) = $crate::open::model_test::check(&mut open, &ops) {
                    proptest::prop_assert!(false, "{}", e);
                }
            }
        }
    };
}
pub(crate) use model_test;

model_test!(
    indexed_binary_heap_matches_model,
    super::IndexedBinaryHeap::new()
);
