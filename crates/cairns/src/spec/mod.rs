//! One name for a whole search: algorithm, heuristic and OPEN set, and what
//! it builds before its first query.
//!
//! A [`SearchSpec`] is where a name becomes a type. The CLI, the web API,
//! the tests and the benchmarks all parse their `--search`, `--heuristic`
//! and `--open` words here, check the combination once against the graph
//! ([`SearchSpec::resolve`]), build the tables it needs
//! ([`SearchSpec::prepare`], [`Table`]), and hand out ready searchers
//! ([`Prepared::searcher`], or [`Engine::searcher`] from an engine that
//! owns its graph); generic code that knows its types at compile time uses
//! [`crate::search`] directly.
//!
//! One idea per file: `names.rs` (the vocabulary, parsed and printed),
//! `rules.rs` (which combinations run, and the defaults), `tables.rs` (the
//! table kinds: what is built before the first query), `prepare.rs`
//! (preparing a spec on a graph), `construct.rs` (where names become types) and
//! `engine.rs` (the owning engine); `graph.rs` holds the searches on
//! weighted graphs by name ([`GraphSearch`], [`GraphEngine`]).
//!
//! # Names
//!
//! | part | names |
//! |---|---|
//! | [`Algorithm`] | `astar`, `canonical` (A* with canonical ordering), `jps`, `jps+` (jump point search over a precomputed jump table, [`Table::Jumps`]), `jps+bb` (`jps+` with goal bounding, [`Table::Bounds`]), `sub` (subgoal graphs, [`Table::Subgoals`]), `dijkstra`, `bfs`, `theta` (Theta*, any-angle), `focal` (focal search, bounded by its `@W`) |
//! | [`HeuristicSpec`] | `zero`, `manhattan`, `octile`, `euclidean`, `dh:K[:PLACEMENT][:MODE]` (PLACEMENT `sampled`, the default, `farthest`, `avoid` or `random`; MODE `bestN`, `keepM` or `adapt`, see [`LandmarkMode`]) |
//! | [`OpenKind`](crate::open::OpenKind) | the 16 names of [`crate::open`] (`quaternary-heap`, `pairing-heap`, ...) |
//!
//! A whole spec is written `ALGORITHM[/HEURISTIC[/OPEN]][@WEIGHT][+pull]`;
//! the parts left out take their defaults when the spec is resolved for a
//! graph: octile on octile grids and Manhattan on 4-connected ones
//! (Euclidean for `theta`, none for `dijkstra` and `bfs`), and the 4-ary
//! heap ([`QuaternaryHeap`](crate::open::QuaternaryHeap)), or the pairing
//! heap under a landmark heuristic, where it is faster
//! (`docs/differential-heuristics.md`). `@W` bounds the cost by `W`
//! times the optimal one (weighted A*, or the focal list of `focal`);
//! `+pull` straightens each path found by string pulling
//! ([`StringPulled`](crate::search::StringPulled)). On a grid with terrain costs
//! ([`crate::grid::terrain`]), `prepare` and `searcher` also refuse the
//! algorithms that need uniform costs ([`SearchSpec::check_terrain`]).
//!
//! ```
//! use cairns::grid::{Grid, GridGraph, Neighborhood};
//! use cairns::spec::SearchSpec;
//!
//! let graph = GridGraph::new(Grid::from_ascii("
//!     ....@....
//!     .@@.@.@@.
//!     .........
//! ").unwrap(), Neighborhood::Octile);
//! let spec: SearchSpec = "jps/dh:2".parse().unwrap();
//! let spec = spec.resolve(graph.neighborhood()).unwrap();
//! assert_eq!(spec.to_string(), "jps/dh:2:sampled/pairing-heap");
//! let prepared = spec.prepare(&graph).unwrap(); // places 2 landmarks, builds the table
//! let mut searcher = prepared.searcher();
//! let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
//! assert_eq!(searcher.search_cost(start, goal), Some(12.0));
//!
//! // Resolving is idempotent.
//! assert_eq!(spec.resolve(graph.neighborhood()), Ok(spec));
//!
//! // Combinations that cannot work say why.
//! let err = "bfs".parse::<SearchSpec>().unwrap().resolve(Neighborhood::Octile).unwrap_err();
//! assert!(err.to_string().contains("unit costs"), "{err}");
//! ```
//!
//! # Tables
//!
//! | [`TableKind`](crate::saved::TableKind) | built for | [`Table`] variant |
//! |---|---|---|
//! | `landmarks` | `dh:K` (any search that takes a heuristic) | [`Table::Landmarks`] |
//! | `compressed-landmarks` | `dh:K:keepM` (A*) | [`Table::CompressedLandmarks`] |
//! | `jumps` | `jps+` | [`Table::Jumps`] |
//! | `subgoals` | `sub` | [`Table::Subgoals`] |
//! | `bounds` | `jps+bb` | [`Table::Bounds`] |
//! | `hierarchy` | `ch` on a road graph | none: a [`GraphEngine`] saves and loads it |
//! | `hub-labels` | `hl` on a road graph (with its hierarchy) | none: a [`GraphEngine`] saves and loads it |
//!
//! [`Prepared::report`] says what preparation built or took for each, with
//! its seconds and bytes; [`Table::load_for`] reads a saved table of any
//! kind.

mod choose;
mod construct;
mod engine;
mod error;
mod graph;
mod live;
mod names;
mod prepare;
mod rules;
mod tables;
mod upkeep;

pub use choose::{Allowance, Choice, choose};
pub use construct::BoxedSearcher;
pub use engine::{Engine, EngineSearcher};
pub use error::{SpecError, SpecErrorKind};
pub use graph::{Coordinates, GraphCache, GraphEngine, GraphSearch};
pub use live::{Live, LiveSearcher};
pub use names::{
    ADAPT_PROBABILITY, Algorithm, HeuristicSpec, LandmarkMode, MAX_LANDMARKS, PLACEMENT_SEED,
    PlacementKind, SearchSpec, Weight, parse_landmark_count,
};
pub use prepare::Prepared;
pub use tables::{Given, Table, TableReport, build_table};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::grid::{GridGraph, Neighborhood};
    use crate::heuristic::{Heuristic, Octile};
    use crate::landmarks::Placement;
    use crate::landmarks::research::{CompressedTable, Compression};
    use crate::open::OpenKind;
    use crate::saved::TableKind;
    use crate::search::{Dijkstra, JumpTable, Search, SearchCache, Searcher, SubgoalGraph};

    /// Asserts that `result` is an error whose message contains `says`.
    #[track_caller]
    fn assert_refused<T>(result: Result<T, impl std::fmt::Display>, says: &str) {
        match result {
            Ok(_) => panic!("accepted, where an error saying {says:?} was wanted"),
            Err(err) => assert!(err.to_string().contains(says), "{err}"),
        }
    }

    fn heuristics() -> Vec<HeuristicSpec> {
        let mut all = HeuristicSpec::DISTANCES.to_vec();
        all.extend(
            PlacementKind::ALL.map(|placement| HeuristicSpec::Landmarks {
                count: Some(3),
                placement,
                mode: LandmarkMode::All,
            }),
        );
        // A bare `dh` names no placement: its table comes from a file.
        for (count, placement) in [
            (None, PlacementKind::default()),
            (Some(3), PlacementKind::Sampled),
        ] {
            all.push(HeuristicSpec::Landmarks {
                count,
                placement,
                mode: LandmarkMode::Best(2),
            });
        }
        all
    }

    #[test]
    fn best_of_names_parse_print_and_refuse_out_of_range() {
        for name in ["dh:16:sampled:best4", "dh:best2", "dh:8:farthest:best8"] {
            let h: HeuristicSpec = name.parse().unwrap();
            assert_eq!(h.to_string(), name);
        }
        assert_eq!(
            "dh:16:best4".parse::<HeuristicSpec>().unwrap().to_string(),
            "dh:16:sampled:best4"
        );
        for bad in [
            "dh:16:best0",
            "dh:16:best9",
            "dh:16:bestx",
            "dh:16:best4:sampled",
        ] {
            let err = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
            assert!(
                err.contains("best1 to best8") || err.contains("placement"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn compressed_and_adaptive_names_parse_print_and_are_refused_where_they_cannot_run() {
        for name in [
            "dh:16:sampled:keep4",
            "dh:keep2",
            "dh:8:farthest:adapt",
            "dh:adapt",
        ] {
            let h: HeuristicSpec = name.parse().unwrap();
            assert_eq!(h.to_string(), name);
        }
        for (bad, says) in [
            ("dh:16:keep0", "keep1 to keepK"),
            ("dh:16:keep65", "keep1 to keepK"),
            ("dh:16:keepx", "keep1 to keepK"),
            (
                "dh:4:keep5",
                "keep5 keeps more landmarks per cell than the 4",
            ),
            ("dh:4:adapt:farthest", "placement"),
        ] {
            let err = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        for (bad, says) in [
            ("jps/dh:16:keep4", "searched by astar only"),
            ("canonical/dh:16:adapt", "searched by astar only"),
            ("focal/dh:16:adapt@1.5", "searched by astar only"),
            ("astar/dh:16:keep4@1.5", "not weighted"),
            ("astar/dh:16:keep4/radix-heap", "cannot use radix-heap"),
        ] {
            let spec: SearchSpec = bad.parse().unwrap();
            let err = spec.resolve(Neighborhood::Octile).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        // Weighted adaptive A* is fine: every state of its table is consistent.
        let spec: SearchSpec = "astar/dh:16:adapt@1.5".parse().unwrap();
        assert!(spec.resolve(Neighborhood::Octile).is_ok());
    }

    /// A small octile map of rooms.
    fn rooms() -> GridGraph {
        let grid = crate::grid::MapKind::Rooms { room_size: 5 }
            .generate(30, 20, 2)
            .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    #[test]
    fn every_landmark_mode_answers_no_path_for_a_node_off_the_graph() {
        let graph = rooms();
        let (on, off) = (
            crate::grid::random_queries(&graph, 1, 3)[0].0,
            NodeId(1 << 30),
        );
        for name in [
            "astar/dh:4",
            "astar/dh:4:best2",
            "astar/dh:4:keep2",
            "astar/dh:4:adapt",
        ] {
            let prepared = name.parse::<SearchSpec>().unwrap().prepare(&graph).unwrap();
            let mut searcher = prepared.searcher();
            for (start, goal) in [(off, on), (on, off), (off, off)] {
                assert_eq!(
                    searcher.search_cost(start, goal),
                    None,
                    "{name}: {start} -> {goal}"
                );
            }
        }
    }

    #[test]
    fn estimates_with_a_start_are_those_the_search_of_the_pair_reads() {
        use crate::landmarks::DifferentialHeuristic;
        let graph = rooms();
        let table = build_table(&graph, 6, Placement::Farthest { seed: 1 }).unwrap();
        let spec: HeuristicSpec = "dh:6:best2".parse().unwrap();
        let search_h = DifferentialHeuristic::new(&table, Octile::new(&graph)).with_best(2);
        let mut differ = 0;
        for (start, goal) in crate::grid::random_queries(&graph, 12, 5) {
            let paired = spec
                .estimates(&graph, Some(&table), Some(start), goal)
                .unwrap();
            let target = search_h.goal_for(start, goal);
            for (n, &e) in paired.iter().enumerate() {
                assert_eq!(e, search_h.estimate(NodeId(n as u32), &target), "node {n}");
            }
            let by_goal = spec.estimates(&graph, Some(&table), None, goal).unwrap();
            differ += usize::from(paired != by_goal);
        }
        assert!(
            differ > 0,
            "some pair chooses other landmarks than its goal alone"
        );
    }

    #[test]
    fn the_estimates_of_a_compressed_table_lie_between_octile_and_the_full_table() {
        let graph = rooms();
        let table = build_table(&graph, 6, Placement::Farthest { seed: 1 }).unwrap();
        let goal = crate::grid::random_queries(&graph, 1, 3)[0].1;
        let of = |name: &str| {
            let h: HeuristicSpec = name.parse().unwrap();
            h.estimates(&graph, Some(&table), None, goal).unwrap()
        };
        let (octile, keep, full) = (of("octile"), of("dh:6:keep1"), of("dh:6"));
        let mut weaker = 0;
        for n in 0..octile.len() {
            if !graph.is_passable(NodeId(n as u32)) {
                continue;
            }
            assert!(octile[n] <= keep[n] + 1e-9, "node {n}");
            assert!(keep[n] <= full[n] + 1e-9, "node {n}");
            weaker += usize::from(keep[n] < full[n] - 1e-6);
        }
        assert!(weaker > 0, "one kept landmark of six bounds less somewhere");
        let err = "dh:keep7".parse::<HeuristicSpec>().unwrap().estimates(
            &graph,
            Some(&table),
            None,
            goal,
        );
        assert!(err.unwrap_err().to_string().contains("keep7"));
    }

    #[test]
    fn every_name_prints_back_and_resolving_is_idempotent() {
        for algorithm in Algorithm::ALL {
            for heuristic in heuristics().into_iter().map(Some).chain([None]) {
                for (open, weight) in OpenKind::ALL
                    .into_iter()
                    .map(Some)
                    .chain([None])
                    .zip([None, Weight::new(1.5)].into_iter().cycle())
                {
                    let spec = SearchSpec {
                        algorithm,
                        heuristic,
                        open,
                        weight,
                        pull: weight.is_none() && open.is_none(),
                    };
                    assert_eq!(spec.to_string().parse::<SearchSpec>(), Ok(spec));
                    for nb in [Neighborhood::Octile, Neighborhood::Four] {
                        if let Ok(resolved) = spec.resolve_inadmissible(nb) {
                            assert_eq!(resolved.resolve_inadmissible(nb), Ok(resolved), "{spec}");
                            assert!(resolved.heuristic.is_some(), "{resolved}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn unknown_names_list_the_valid_ones_and_are_clipped() {
        let err = "astar/octile/fibonacci-heap"
            .parse::<SearchSpec>()
            .unwrap_err();
        for kind in OpenKind::ALL {
            assert!(err.to_string().contains(kind.name()), "{err}");
        }
        assert_refused(
            "dfs".parse::<SearchSpec>(),
            "astar, canonical, jps, jps+, jps+bb, sub, dijkstra, bfs",
        );
        let long = "x".repeat(10_000);
        let err = long.parse::<HeuristicSpec>().unwrap_err().to_string();
        assert!(err.len() < 300, "{} bytes", err.len());
        for bad in ["dh:0", "dh:65", "dh:x", "dh:4:nowhere", "dh:4:farthest:1"] {
            assert!(bad.parse::<HeuristicSpec>().is_err(), "{bad}");
        }
    }

    /// A 9x3 octile map with two walls; the shortest path between its top
    /// corners costs 12.
    fn two_walls() -> GridGraph {
        GridGraph::new(
            crate::grid::Grid::from_ascii(
                "
                ....@....
                .@@.@.@@.
                .........
                ",
            )
            .unwrap(),
            Neighborhood::Octile,
        )
    }

    #[test]
    fn a_given_compressed_table_searches_as_dh_keep_m() {
        let graph = two_walls();
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
        let full = build_table(&graph, 4, Placement::Farthest { seed: 1 }).unwrap();
        let compressed = CompressedTable::new(&full, 2, Compression::Nearest);
        let given = |c: &CompressedTable| {
            vec![Given {
                table: c.clone().into(),
                seconds: 0.25,
            }]
        };
        for name in [
            "astar",
            "astar/dh",
            "astar/dh:4",
            "astar/dh:keep2",
            "astar/dh:4:keep2",
        ] {
            let spec: SearchSpec = name.parse().unwrap();
            let prepared = spec.prepare_with(&graph, given(&compressed)).unwrap();
            assert_eq!(prepared.heuristic_label(), "dh:4:keep2", "{name}");
            assert!(prepared.table().is_none());
            assert_eq!(prepared.landmark_nodes(), Some(full.landmarks()));
            assert_eq!(prepared.table_bytes(), compressed.memory_bytes());
            assert!(prepared.preprocess_s() >= 0.25);
            assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        }
        // The same search as compressing the full table here.
        let here: SearchSpec = "astar/dh:4:farthest:keep2".parse().unwrap();
        let from_full = here
            .prepare_with(&graph, [Given::from(Table::from(full.clone()))])
            .unwrap();
        let from_file = "astar/dh:keep2"
            .parse::<SearchSpec>()
            .unwrap()
            .prepare_with(&graph, given(&compressed))
            .unwrap();
        let (mut a, mut b) = (from_full.searcher(), from_file.searcher());
        for (s, z) in [
            (start, goal),
            (goal, start),
            (graph.node(2, 1).unwrap(), goal),
        ] {
            assert_eq!(a.search_cost(s, z), b.search_cost(s, z));
            assert_eq!(a.stats(), b.stats());
        }
        // Refused: another count, another kept count, another mode, another
        // heuristic or search, both kinds of table, another map.
        for (name, says) in [
            ("astar/dh:5", "table has 4"),
            ("astar/dh:keep3", "keep3 asks to keep 3"),
            ("astar/dh:best2", "gives dh:4:keep2, not dh:4:best2"),
            ("astar/dh:adapt", "not dh:4:adapt"),
            ("astar/octile", "heuristic is octile"),
            ("jps/dh", "keep"),
        ] {
            let spec: SearchSpec = name.parse().unwrap();
            let err = spec
                .prepare_with(&graph, given(&compressed))
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{name}: {err}");
        }
        let mut both = given(&compressed);
        both.push(Table::from(full).into());
        assert_refused(SearchSpec::default().prepare_with(&graph, both), "not both");
        let other = crate::grid::testing::open_map(4, 9, Neighborhood::Octile);
        assert_refused(
            SearchSpec::default().prepare_with(&other, given(&compressed)),
            "covers 27 nodes, the map has 36",
        );
    }

    #[test]
    fn jps_plus_builds_its_jump_table_or_takes_a_given_one() {
        let graph = two_walls();
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
        // Without tables: nothing spent, and not the -0.0 of an empty
        // sum of floats (which JSON summaries would print).
        let online = "jps"
            .parse::<SearchSpec>()
            .unwrap()
            .prepare(&graph)
            .unwrap();
        assert_eq!(online.preprocess_s().to_bits(), 0.0f64.to_bits());
        let spec: SearchSpec = "jps+".parse().unwrap();
        let prepared = spec.prepare(&graph).unwrap();
        assert_eq!(prepared.spec().to_string(), "jps+/octile/quaternary-heap");
        assert_eq!(prepared.table_bytes(), 27 * 16);
        assert!(prepared.tables()[0].jumps().is_some());
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));

        assert_eq!(prepared.report().len(), 1);
        assert_eq!(prepared.report()[0].kind, TableKind::Jumps);
        assert!(!prepared.report()[0].given);

        let given = vec![Given {
            table: JumpTable::build(&graph).into(),
            seconds: 0.5,
        }];
        let prepared = spec.prepare_with(&graph, given.clone()).unwrap();
        assert!(prepared.preprocess_s() >= 0.5);
        assert!(prepared.report()[0].given);
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        // With landmarks too: one report line per table, in build order.
        let dh: SearchSpec = "jps+/dh:2".parse().unwrap();
        let prepared = dh.prepare_with(&graph, given.clone()).unwrap();
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        assert_eq!(
            prepared.table_bytes(),
            27 * 16 + prepared.table().unwrap().memory_bytes()
        );
        let kinds: Vec<_> = prepared
            .report()
            .iter()
            .map(|r| (r.kind, r.given))
            .collect();
        assert_eq!(
            kinds,
            [(TableKind::Landmarks, false), (TableKind::Jumps, true)]
        );

        assert_refused(
            SearchSpec::new(Algorithm::Jps).prepare_with(&graph, given.clone()),
            "a jump table is for the jps+ search, not jps",
        );
        assert_refused(
            spec.prepare_with(&graph, [given[0].clone(), given[0].clone()]),
            "a second jump table",
        );
        let other = crate::grid::testing::open_map(3, 9, Neighborhood::Octile);
        let wrong: Vec<Table> = vec![JumpTable::build(&other).into()];
        assert_refused(
            spec.prepare_with(&graph, wrong.iter().cloned().map(Given::from)),
            "3x9 grid, the map is 9x3",
        );
        // Without a prepared table, the searcher builds its own.
        let mut searcher = spec.searcher(&graph, &[]).unwrap();
        assert_eq!(searcher.search_cost(start, goal), Some(12.0));
        // A table kept by the caller gives the same search; one of another
        // size is refused.
        let kept: Vec<Table> = vec![JumpTable::build(&graph).into()];
        let mut borrowing = spec.searcher(&graph, &kept).unwrap();
        assert_eq!(borrowing.search_cost(start, goal), Some(12.0));
        assert_eq!(borrowing.stats(), searcher.stats());
        assert_refused(spec.searcher(&graph, &wrong), "3x9 grid, the map is 9x3");
        // Under another rule, JPS+ takes that rule's table, not this one.
        let four = graph.clone().with_neighborhood(Neighborhood::Four);
        assert_eq!(
            spec.resolve(Neighborhood::Four).unwrap().to_string(),
            "jps+/manhattan/quaternary-heap"
        );
        assert_refused(
            spec.searcher(&four, &kept),
            "the jump table is for octile movement, the map moves by 4-connected",
        );
        let own: Vec<Table> = vec![JumpTable::build(&four).into()];
        let mut four_connected = spec.searcher(&four, &own).unwrap();
        assert_eq!(
            four_connected.search_cost(start, goal),
            Dijkstra::new(&four).search_cost(start, goal, &mut SearchCache::new())
        );
    }

    /// A table of any kind saved by `Table::save` loads back by its magic
    /// alone, and a file of another map or no table is refused with the
    /// kind it was read as.
    #[test]
    fn every_table_kind_saves_and_loads_through_one_loader() {
        let graph = two_walls();
        let hash = crate::saved::grid_hash(graph.grid(), graph.neighborhood());
        let prepared = "jps+/dh:3:keep2"
            .parse::<SearchSpec>()
            .map(|s| SearchSpec {
                algorithm: Algorithm::AStar,
                ..s
            })
            .unwrap()
            .prepare(&graph)
            .unwrap();
        let mut tables = prepared.tables().to_vec();
        tables.push(JumpTable::build(&graph).into());
        tables.push(SubgoalGraph::build(&graph).into());
        tables.push(crate::search::GoalBounds::build(&graph).into());
        let kinds: Vec<TableKind> = tables.iter().map(Table::kind).collect();
        // Every kind but a road graph's, which `GraphEngine::load` reads.
        let grid_kinds: Vec<TableKind> = TableKind::ALL
            .into_iter()
            .filter(|k| !k.info().for_graphs)
            .collect();
        assert_eq!(kinds, grid_kinds);
        for table in &tables {
            let mut bytes = Vec::new();
            table.save(&mut bytes, hash).unwrap();
            assert_eq!(TableKind::of_bytes(&bytes), Some(table.kind()));
            let back = Table::load_for(&bytes[..], &graph, hash).unwrap();
            assert_eq!(back.kind(), table.kind());
            assert_eq!(back.memory_bytes(), table.memory_bytes());
            let err = Table::load_for(&bytes[..], &graph, hash ^ 1).unwrap_err();
            assert_eq!(err.table(), Some(table.kind()));
            assert!(err.to_string().contains("built for another map"), "{err}");
        }
        let err = Table::load_for(&b"NOTATABLEFILE"[..], &graph, hash).unwrap_err();
        assert_eq!(
            err.to_string(),
            "saved table: not a table file cairns writes (bad magic bytes)"
        );
    }

    #[test]
    fn defaults_follow_the_movement_and_the_heuristic() {
        let spec = SearchSpec::new(Algorithm::AStar);
        let octile = spec.resolve(Neighborhood::Octile).unwrap();
        assert_eq!(octile.to_string(), "astar/octile/quaternary-heap");
        let four = spec.resolve(Neighborhood::Four).unwrap();
        assert_eq!(four.to_string(), "astar/manhattan/quaternary-heap");
        let dh: SearchSpec = "astar/dh:4".parse().unwrap();
        assert_eq!(dh.open_kind(), OpenKind::PairingHeap);
        let err = "astar/manhattan"
            .parse::<SearchSpec>()
            .unwrap()
            .resolve(Neighborhood::Octile)
            .unwrap_err();
        assert!(
            matches!(err.kind(), SpecErrorKind::Inadmissible { .. }),
            "{err}"
        );
        // Jump points run 4-connected (JPS4) with Manhattan, scanned or
        // over a jump table; goal bounding does not, and names them.
        let jps: SearchSpec = "jps".parse().unwrap();
        let four = jps.resolve(Neighborhood::Four).unwrap();
        assert_eq!(four.to_string(), "jps/manhattan/quaternary-heap");
        let cut = jps.resolve(Neighborhood::OctileCornerCutting).unwrap();
        assert_eq!(cut.to_string(), "jps/octile/quaternary-heap");
        assert_refused(
            "jps+bb"
                .parse::<SearchSpec>()
                .unwrap()
                .resolve(Neighborhood::Four),
            "there use jps+ (jump points read from a jump table",
        );
    }

    /// `ALL` holds every algorithm, in the order named here (`assert_all_lists_every!`).
    #[test]
    fn algorithm_all_holds_every_algorithm() {
        assert_all_lists_every!(
            Algorithm: AStar, Canonical, Jps, JpsPlus, JpsBounds, Subgoals, Dijkstra, Bfs, Theta, Focal
        );
    }

    /// `ALL` holds every placement, in the order named here (`assert_all_lists_every!`).
    #[test]
    fn placement_all_holds_every_placement() {
        assert_all_lists_every!(
            PlacementKind: Random, Farthest, Avoid, Sampled
        );
    }
}
