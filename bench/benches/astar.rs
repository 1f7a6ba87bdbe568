//! Criterion micro-benchmarks: a fixed batch of scenario queries per map,
//! cairns beside the `pathfinding` crate. Names read
//! `astar/IMPL/MAP`. Every iteration checks every result.

mod common;

use std::hint::black_box;

use cairns::graph::NodeId;
use cairns::heuristic::Octile;
use cairns::movingai::runner::{Checker, Reference};
use cairns::search::{AStar, Search, SearchCache};
use cairns_bench::load_file;
use criterion::{Criterion, criterion_group, criterion_main};

const MAPS: [&str; 3] = ["dao/den520d", "dao/ost003d", "dao/brc202d"];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("astar");
    group.sample_size(10);
    for map in MAPS {
        let inst = load_file(&format!("{map}.map.scen"), 20);
        let mut checker = Checker::new(&inst.graph, Reference::Published);
        let name = map.rsplit('/').next().unwrap_or(map);
        let astar = AStar::new(&inst.graph, Octile::new(&inst.graph));
        let mut cache = SearchCache::new();
        let mut path: Vec<NodeId> = Vec::new();
        group.bench_function(format!("cairns/{name}"), |b| {
            b.iter(|| {
                for q in &inst.queries {
                    let cost = astar.search_cost(q.start, q.goal, &mut cache);
                    cache.path_into(q.goal, &mut path);
                    assert!(checker.check(q, black_box(cost)));
                }
            });
        });
        group.bench_function(format!("pathfinding/{name}"), |b| {
            b.iter(|| {
                for q in &inst.queries {
                    let cost = common::pathfinding_astar(&inst.graph, q.start, q.goal);
                    assert!(checker.check(q, black_box(cost)));
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
