//! A query through the C API against the same query through the Rust API:
//! the same spec on the same map, `cairns_search_cost` (the C entry point,
//! called with raw pointers and handles as C calls it) beside
//! `EngineSearcher::search_cost` (the owning engine the C API wraps), on
//! the same queries in the same process, the first of the two alternating
//! from query to query; every cost checked against the published optimal
//! length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench capi -- [SET...] [--every N] [--specs jps,astar]
//! ```
//!
//! Defaults: the `dao` set, every 4th scenario, specs `astar` and `jps`.
//! Per map and spec it prints the median time per query of each and the
//! median over the queries of the per-query ratio (C API / Rust); at the
//! end, per spec, the geometric mean of those ratios over the maps.
//!
//! Wall time on a loaded machine is noisy; instruction counts are not. With
//! `--only rust` or `--only capi` the bench runs one side once, untimed,
//! through a function of its own (`rust_side`, `capi_side`), so that
//! callgrind can count the instructions of that side alone
//! (docs/engines.md gives the commands).

use std::ptr::null_mut;

use cairns::grid::GridGraph;
use cairns::movingai::runner::{Checker, Instance, Query, Reference};
use cairns::search::Searcher;
use cairns::spec::{Engine, EngineSearcher};
use cairns_bench::{BenchArgs, RatioTable, Timed, load_set};
use cairns_capi::cairns_status::{CAIRNS_NO_PATH, CAIRNS_OK};
use cairns_capi::{
    cairns_engine, cairns_engine_free, cairns_engine_new, cairns_map_free, cairns_map_from_walls,
    cairns_search_cost, cairns_searcher, cairns_searcher_free, cairns_searcher_new,
};

/// An engine and a searcher of the C API on `graph`, made as C makes them
/// (the map from one byte per cell).
struct CSide {
    engine: *mut cairns_engine,
    searcher: *mut cairns_searcher,
}

impl CSide {
    fn new(graph: &GridGraph, spec: &str) -> CSide {
        let walls: Vec<u8> = (0..graph.grid().len() as u32)
            .map(|i| u8::from(!graph.is_passable(cairns::graph::NodeId(i))))
            .collect();
        let spec = std::ffi::CString::new(spec).unwrap();
        let (mut map, mut engine, mut searcher) = (null_mut(), null_mut(), null_mut());
        // SAFETY: `walls` holds `len` bytes, the out-pointers are valid, the
        // handles are live when passed on and the map is freed once.
        unsafe {
            let status = cairns_map_from_walls(
                walls.as_ptr(),
                walls.len(),
                graph.width(),
                graph.height(),
                8,
                &raw mut map,
            );
            assert_eq!(status, CAIRNS_OK);
            assert_eq!(
                cairns_engine_new(map, spec.as_ptr(), &raw mut engine),
                CAIRNS_OK
            );
            assert_eq!(cairns_searcher_new(engine, &raw mut searcher), CAIRNS_OK);
            cairns_map_free(map);
        }
        CSide { engine, searcher }
    }

    /// One query through the C entry point.
    #[inline(never)]
    fn cost(&mut self, (sx, sy): (u32, u32), (gx, gy): (u32, u32)) -> Option<f64> {
        let mut cost = 0.0;
        // SAFETY: a live searcher used by this thread only, an out-pointer.
        let status = unsafe {
            cairns_search_cost(
                self.searcher,
                sx as i32,
                sy as i32,
                gx as i32,
                gy as i32,
                &raw mut cost,
            )
        };
        assert!(status == CAIRNS_OK || status == CAIRNS_NO_PATH);
        (status == CAIRNS_OK).then_some(cost)
    }
}

impl Drop for CSide {
    fn drop(&mut self) {
        // SAFETY: handles made by `new`, freed once.
        unsafe {
            cairns_searcher_free(self.searcher);
            cairns_engine_free(self.engine);
        }
    }
}

/// Every query of `inst` once through the Rust API, checked.
#[inline(never)]
fn rust_side(inst: &Instance, searcher: &mut EngineSearcher, checker: &mut Checker<'_>) {
    for q in &inst.queries {
        assert!(checker.check(q, searcher.search_cost(q.start, q.goal)));
    }
}

/// Every query of `inst` once through the C API, checked.
#[inline(never)]
fn capi_side(inst: &Instance, side: &mut CSide, checker: &mut Checker<'_>) {
    let g = &inst.graph;
    for q in &inst.queries {
        let cost = side.cost(g.coords(q.start), g.coords(q.goal));
        assert!(checker.check(q, cost));
    }
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--specs", "--only"]);
    let sets = args.sets_or(&["dao"]);
    let every = args.every.unwrap_or(4);
    let only: Option<String> = args.get("--only");
    let (names, specs) = args.specs_or(&["astar", "jps"]);
    let mut table = RatioTable::new(&names, ["rust", "c api"]);
    for set in &sets {
        let instances = load_set(set, every);
        let header = table.start_set();
        if only.is_none() {
            println!("\n== {set}: every {every} scenario(s); median us per query ==\n{header}");
        }
        for inst in &instances {
            let graph = &inst.graph;
            for (k, spec) in specs.iter().enumerate() {
                let engine = Engine::new(graph.clone(), spec).expect("the spec runs on the map");
                let mut rust = engine.searcher();
                let mut capi = CSide::new(graph, &names[k]);
                let mut checker = Checker::new(graph, Reference::Published);
                match only.as_deref() {
                    Some("rust") => {
                        rust_side(inst, &mut rust, &mut checker);
                        continue;
                    }
                    Some("capi") => {
                        capi_side(inst, &mut capi, &mut checker);
                        continue;
                    }
                    Some(other) => panic!("--only {other}: expected rust or capi"),
                    None => {}
                }
                let mut first = |q: &Query| rust.search_cost(q.start, q.goal);
                let mut second = |q: &Query| capi.cost(q.start_xy, q.goal_xy);
                let searches: [Timed; 2] = [&mut first, &mut second];
                println!("{}", table.timed_row(k, inst, &mut checker, searches));
            }
        }
        if only.is_none() {
            println!("{}", table.summary(set).join("\n"));
        }
    }
}
