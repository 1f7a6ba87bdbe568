//! The test matrix: every algorithm x every OPEN set x every heuristic
//! (landmark heuristics with several counts and placements), named and
//! built through [`SearchSpec`] on random octile and 4-connected grids,
//! each cost checked against Dijkstra's; every combination that `resolve`
//! refuses is refused with an error, not a panic. A random-graph part runs
//! A* and Dijkstra over a [`CsrGraph`] with every OPEN set.
//!
//! Runs in debug builds (debug assertions on) in a few seconds: the maps
//! are small and the queries few.

use cairns::graph::{CsrGraph, NodeId, Reversed};
use cairns::grid::{GridGraph, MapKind, Neighborhood};
use cairns::heuristic::{FnHeuristic, Zero};
use cairns::open::{OpenKind, OpenSet};
use cairns::rng::SplitMix64;
use cairns::search::{AStar, Dijkstra, Search, SearchCache};
use cairns::spec::{
    Algorithm, HeuristicSpec, LandmarkMode, PlacementKind, SearchSpec, SpecErrorKind,
};
use cairns::with_open_set;

/// Whether two costs agree up to the rounding of different summation
/// orders.
fn same_cost(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// Every heuristic, landmark ones with 1 to 4 landmarks and every
/// placement, a best-of-2 selection, a compressed table and adaptive
/// landmarks.
fn heuristics() -> Vec<HeuristicSpec> {
    let mut all = HeuristicSpec::DISTANCES.to_vec();
    for (count, placement) in [1, 2, 3, 4].into_iter().zip(PlacementKind::ALL) {
        all.push(HeuristicSpec::Landmarks {
            count: Some(count),
            placement,
            mode: LandmarkMode::All,
        });
    }
    all.push(HeuristicSpec::Landmarks {
        count: Some(4),
        placement: PlacementKind::Farthest,
        mode: LandmarkMode::All,
    });
    // Four landmarks, two consulted per query (`dh:4:sampled:best2`).
    all.push(HeuristicSpec::Landmarks {
        count: Some(4),
        placement: PlacementKind::Sampled,
        mode: LandmarkMode::Best(2),
    });
    // A compressed copy keeping 2 of 4 per cell, and adaptive landmarks.
    for mode in [LandmarkMode::Keep(2), LandmarkMode::Adapt] {
        all.push(HeuristicSpec::Landmarks {
            count: Some(4),
            placement: PlacementKind::Farthest,
            mode,
        });
    }
    all
}

/// Whether `resolve` should accept the combination, by the rules of
/// [`SearchSpec::resolve`] written out independently.
fn accepted(
    algorithm: Algorithm, heuristic: HeuristicSpec, open: Option<OpenKind>,
    neighborhood: Neighborhood,
) -> bool {
    let octile = neighborhood == Neighborhood::Octile;
    let four = neighborhood == Neighborhood::Four;
    let admissible = four || heuristic != HeuristicSpec::Manhattan;
    let (compressed, adaptive) = match heuristic {
        HeuristicSpec::Landmarks { mode, .. } => (
            matches!(mode, LandmarkMode::Keep(_)),
            mode == LandmarkMode::Adapt,
        ),
        _ => (false, false),
    };
    if compressed || adaptive {
        // Searched by A* only; a compressed table's estimates are not
        // consistent, which the monotone queues cannot take.
        return algorithm == Algorithm::AStar
            && !(compressed && open.is_some_and(OpenKind::needs_monotone_keys));
    }
    admissible
        && match algorithm {
            Algorithm::AStar => true,
            // Jump points, scanned or read from a jump table, run on every
            // rule: the octile or dh heuristic on the octile one, any
            // admissible one on the others.
            Algorithm::Jps | Algorithm::JpsPlus if !octile => true,
            Algorithm::Canonical
            | Algorithm::Jps
            | Algorithm::JpsPlus
            | Algorithm::JpsBounds
            | Algorithm::Subgoals => {
                octile
                    && matches!(
                        heuristic,
                        HeuristicSpec::Octile | HeuristicSpec::Landmarks { .. }
                    )
            }
            Algorithm::Dijkstra => heuristic == HeuristicSpec::Zero,
            Algorithm::Bfs => heuristic == HeuristicSpec::Zero && four && open.is_none(),
            Algorithm::Theta => {
                octile && matches!(heuristic, HeuristicSpec::Euclidean | HeuristicSpec::Zero)
            }
            Algorithm::Focal => open.is_none(),
        }
}

/// The grids of the matrix: random obstacles and rooms, octile and
/// 4-connected, and the first under the corner-cutting rules too.
fn grids() -> Vec<(String, GridGraph)> {
    let mut out = Vec::new();
    for (seed, kind) in [
        (
            1,
            MapKind::Random {
                obstacle_percent: 25,
            },
        ),
        (
            2,
            MapKind::Random {
                obstacle_percent: 35,
            },
        ),
        (3, MapKind::Rooms { room_size: 4 }),
    ] {
        // Every rule on the first map, octile and 4-connected on the others.
        let rules = if seed == 1 {
            &Neighborhood::ALL[..]
        } else {
            &[Neighborhood::Octile, Neighborhood::Four][..]
        };
        for &neighborhood in rules {
            let grid = kind.generate(20, 16, seed).expect("a valid size");
            out.push((
                format!("{kind:?} seed {seed} {neighborhood:?}"),
                GridGraph::new(grid, neighborhood),
            ));
        }
    }
    out
}

/// Query pairs among the passable cells of `graph`, from `seed`.
fn queries(graph: &GridGraph, seed: u64, count: usize) -> Vec<(NodeId, NodeId)> {
    cairns::grid::random_queries(graph, count, seed)
}

#[test]
fn every_search_spec_finds_the_dijkstra_cost_or_is_refused() {
    let mut opens: Vec<Option<OpenKind>> = vec![None];
    opens.extend(OpenKind::ALL.map(Some));
    let (mut checked, mut refused) = (0, 0);
    for (name, graph) in grids() {
        let pairs = queries(&graph, 7, 20);
        let mut dijkstra = SearchCache::new();
        let expected: Vec<Option<f64>> = pairs
            .iter()
            .map(|&(s, t)| Dijkstra::new(&graph).search_cost(s, t, &mut dijkstra))
            .collect();
        for heuristic in heuristics() {
            // One landmark table per map and heuristic, shared by every
            // algorithm and OPEN set below.
            let prepared = heuristic.is_landmarks().then(|| {
                SearchSpec::new(Algorithm::AStar)
                    .with_heuristic(heuristic)
                    .prepare(&graph)
                    .unwrap_or_else(|e| panic!("{name}: preparing {heuristic}: {e}"))
            });
            let tables = prepared.as_ref().map_or(&[][..], |p| p.tables());
            for algorithm in Algorithm::ALL {
                for &open in &opens {
                    let mut spec = SearchSpec::new(algorithm).with_heuristic(heuristic);
                    spec.open = open;
                    let resolved = spec.resolve(graph.neighborhood());
                    let want = accepted(algorithm, heuristic, open, graph.neighborhood());
                    let resolved = match (resolved, want) {
                        (Ok(resolved), true) => resolved,
                        (Err(e), false) => {
                            assert!(
                                matches!(
                                    e.kind(),
                                    SpecErrorKind::Unsupported { .. }
                                        | SpecErrorKind::Inadmissible { .. }
                                ),
                                "{name}: {spec}: {e}"
                            );
                            refused += 1;
                            continue;
                        }
                        (got, _) => panic!("{name}: {spec} resolved to {got:?}"),
                    };
                    // `searcher` resolves the spec itself (from the
                    // resolved one, bfs would be refused for its filled-in
                    // OPEN set).
                    let mut searcher = spec
                        .searcher(&graph, tables)
                        .unwrap_or_else(|e| panic!("{name}: {resolved}: {e}"));
                    for (&(s, t), &want) in pairs.iter().zip(&expected) {
                        let got = searcher.search_cost(s, t);
                        let ok = if resolved.any_angle() {
                            // Any-angle lengths: between the straight line
                            // and the octile optimum.
                            match (got, want) {
                                (Some(g), Some(w)) => {
                                    // Diagonal moves cost grid::DIAGONAL,
                                    // 1.7e-8 (relative) below sqrt(2).
                                    g <= w + 2e-8 * (1.0 + w)
                                        && g >= graph.euclidean_distance(s, t) - 2e-8 * (1.0 + w)
                                }
                                (g, w) => g.is_none() && w.is_none(),
                            }
                        } else {
                            same_cost(got, want)
                        };
                        assert!(
                            ok,
                            "{name}: {resolved} from {s} to {t}: {got:?}, Dijkstra {want:?}"
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    // 8 maps x 12 heuristics x every algorithm x 17 OPEN choices.
    assert_eq!(checked + refused, 8 * 12 * Algorithm::ALL.len() * 17);
    assert!(
        checked > 1000 && refused > 1000,
        "{checked} run, {refused} refused"
    );
}

/// Regression guard (issue 10): `dh:4` rounds through `f32` and put `f`
/// below the last popped `f` on den201d, where the monotone queues' debug
/// assertions panicked.
#[test]
fn monotone_queues_under_landmarks_on_den201d() {
    let path = super::data_dir().join("dao/den201d.map");
    let grid = cairns::movingai::read_map(&path).expect("den201d.map");
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let pairs = queries(&graph, 11, 30);
    let mut dijkstra = SearchCache::new();
    let prepared = "astar/dh:4"
        .parse::<SearchSpec>()
        .unwrap()
        .prepare(&graph)
        .unwrap();
    for kind in OpenKind::ALL
        .into_iter()
        .filter(|k| k.needs_monotone_keys())
    {
        for algorithm in [Algorithm::AStar, Algorithm::Jps] {
            let spec = prepared.spec();
            let spec = SearchSpec::new(algorithm)
                .with_heuristic(spec.heuristic_for(Neighborhood::Octile))
                .with_open(kind);
            let mut searcher = spec.searcher(&graph, prepared.tables()).unwrap();
            for &(s, t) in &pairs {
                let want = Dijkstra::new(&graph).search_cost(s, t, &mut dijkstra);
                let got = searcher.search_cost(s, t);
                assert!(
                    same_cost(got, want),
                    "{spec} from {s} to {t}: {got:?}, {want:?}"
                );
            }
        }
    }
}

/// A random digraph of `n` nodes with about `3n` edges of costs 0 to 10.
fn random_graph(rng: &mut SplitMix64, n: u32) -> CsrGraph {
    let edges: Vec<(u32, u32, f64)> = (0..3 * n)
        .map(|_| {
            let (a, b) = (rng.below(n.into()) as u32, rng.below(n.into()) as u32);
            (a, b, rng.below(41) as f64 / 4.0)
        })
        .collect();
    CsrGraph::from_edges(n, &edges).expect("valid edges")
}

/// A* (with no heuristic and with a consistent one, half the exact
/// distance) and Dijkstra, each with `Q`, against Dijkstra with the
/// default heap, reusing the caches across queries.
fn check_graph<Q: OpenSet + Default>(graph: &CsrGraph, seed: u64) {
    let n = graph.node_count();
    let mut rng = SplitMix64::new(seed);
    let mut expected = SearchCache::new();
    let mut exact = SearchCache::new();
    let mut cache = SearchCache::with_open(Q::default());
    for _ in 0..8 {
        let (s, t) = (NodeId(rng.index(n) as u32), NodeId(rng.index(n) as u32));
        let want = Dijkstra::new(graph).search_cost(s, t, &mut expected);
        Dijkstra::new(Reversed(graph)).all(t, &mut exact);
        let half: Vec<f64> = (0..n as u32)
            .map(|v| exact.g(NodeId(v)).map_or(f64::INFINITY, |d| d / 2.0))
            .collect();
        let h = FnHeuristic(|v: NodeId, _| half[v.index()]);
        let name = std::any::type_name::<Q>();
        let dijkstra = Dijkstra::new(graph).search_cost(s, t, &mut cache);
        assert!(
            same_cost(dijkstra, want),
            "Dijkstra with {name} from {s} to {t}"
        );
        let zero = AStar::new(graph, Zero).search_cost(s, t, &mut cache);
        assert!(same_cost(zero, want), "A* with {name} from {s} to {t}");
        let half = AStar::new(graph, h).search_cost(s, t, &mut cache);
        assert!(
            same_cost(half, want),
            "A* (h = d/2) with {name} from {s} to {t}"
        );
    }
}

#[test]
fn every_open_set_on_random_digraphs() {
    for seed in 0..6 {
        let graph = random_graph(&mut SplitMix64::new(seed), 40 + 20 * seed as u32);
        for kind in OpenKind::ALL {
            with_open_set!(kind, |Q| check_graph::<Q>(&graph, seed));
        }
    }
}
