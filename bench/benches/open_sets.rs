//! The standalone OPEN-set experiment of the classic A* writing: add 4,000
//! and then 10,000 items to an empty OPEN set, then remove them all, with
//! every structure of the catalogue. Names read `open/STRUCT/N`.
//!
//! ```text
//! cargo bench -p cairns-bench --bench open_sets [-- FILTER]
//! ```
//!
//! The keys are drawn once, outside the timed closure, from a seeded
//! generator and look like A* keys on an octile grid: `f = a + b sqrt 2`
//! for small integers `a` and `b`, so there are many ties in `f`, and
//! `0 <= g <= f`. All pushes come before the first pop, so the keys are
//! monotone as the bucket and radix queues require. Every iteration checks
//! that the items come out in key order and that all of them come out.

use std::f64::consts::SQRT_2;
use std::hint::black_box;
use std::time::Duration;

use cairns::graph::NodeId;
use cairns::open::{Key, OpenKind, OpenSet};
use cairns::with_open_set;
use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};

/// The sizes of the experiment.
const SIZES: [usize; 2] = [4_000, 10_000];

/// Structures whose push or pop is linear in the size of the set, so that
/// the experiment is quadratic: they get few samples.
const QUADRATIC: [&str; 5] = [
    "unsorted-array",
    "sorted-array",
    "sorted-list",
    "indexed-array",
    "hash-table",
];

/// `n` keys like those of A* on an octile grid, from a fixed seed.
fn keys(n: usize) -> Vec<Key> {
    // xorshift64*: enough for a benchmark and keeps the bench crate free of
    // a random-number dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ n as u64;
    let mut next = move |bound: u64| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) % bound
    };
    (0..n)
        .map(|_| {
            let f = next(400) as f64 + next(200) as f64 * SQRT_2;
            let g = f * next(1001) as f64 / 1000.0;
            Key { f, g }
        })
        .collect()
}

/// Pushes every key (node `i` gets key `i`), pops everything and checks
/// the order and the count.
fn fill_and_drain<Q: OpenSet>(open: &mut Q, keys: &[Key]) {
    open.prepare(keys.len());
    open.clear();
    for (i, &key) in keys.iter().enumerate() {
        open.push(NodeId(i as u32), key);
    }
    assert_eq!(open.len(), keys.len());
    let mut popped = 0;
    let mut last: Option<Key> = None;
    while let Some((node, key)) = open.pop() {
        assert_eq!(keys[node.index()], key, "popped a wrong key");
        if let Some(prev) = last {
            assert!(!key.precedes(prev), "popped {key:?} after {prev:?}");
        }
        last = Some(key);
        popped += 1;
    }
    assert_eq!(popped, keys.len(), "not every item came out");
    black_box(last);
}

fn bench_one<Q: OpenSet + Default>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
    let mut open = Q::default();
    for n in SIZES {
        let keys = keys(n);
        group.bench_function(format!("{name}/{n}"), |b| {
            b.iter(|| fill_and_drain(&mut open, black_box(&keys)));
        });
    }
}

fn bench(c: &mut Criterion) {
    for kind in OpenKind::ALL {
        let info = kind.info();
        let mut group = c.benchmark_group("open");
        group
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        if QUADRATIC.contains(&info.name) {
            group.sample_size(10);
        }
        with_open_set!(kind, |Q| bench_one::<Q>(&mut group, info.name));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
