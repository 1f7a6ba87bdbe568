//! Property tests of the searches with many sources and goals, of budgets
//! with resume, and of distance fields: each against Dijkstra on the same
//! costs (one single-source search per source, the minimum taken here).

use cairns::graph::{Graph, NodeId, Reversed};
use cairns::heuristic::{FnHeuristic, Heuristic, Octile, Zero};
use cairns::movingai::runner::same_cost;
use cairns::open::{OpenSet, PairingHeap};
use cairns::search::{AStar, Budget, Dijkstra, DistanceField, Progress, Search, SearchCache};
use proptest::prelude::*;

use crate::properties::{check_nodes, csr_case, grid_case};

/// Up to `max` node ids for a graph of `bound` nodes, drawn from `raw`; a
/// raw value of 990 or more names a node off the graph, which the searches
/// must ignore.
fn nodes(raw: &[u32], bound: usize, max: usize) -> Vec<NodeId> {
    raw.iter()
        .take(max)
        .map(|&r| {
            if r >= 990 {
                NodeId((bound as u32) + r)
            } else {
                NodeId(r % bound as u32)
            }
        })
        .collect()
}

fn raw_nodes() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0u32..1000, 1..40)
}

/// The distance from every node to each node, by one Dijkstra per row.
fn all_pairs<G: Graph>(graph: &G) -> Vec<Vec<Option<f64>>> {
    let n = graph.node_bound();
    let mut cache = SearchCache::new();
    (0..n as u32)
        .map(|s| {
            Dijkstra::new(graph).all(NodeId(s), &mut cache);
            (0..n as u32).map(|t| cache.g(NodeId(t))).collect()
        })
        .collect()
}

/// `min over sources s, goals t of d(s, t)`, ignoring nodes off the graph.
fn nearest_by_dijkstra(
    d: &[Vec<Option<f64>>], sources: &[NodeId], goals: &[NodeId],
) -> Option<f64> {
    let on = |n: &&NodeId| n.index() < d.len();
    sources
        .iter()
        .filter(on)
        .flat_map(|s| {
            goals
                .iter()
                .filter(on)
                .filter_map(|t| d[s.index()][t.index()])
        })
        .reduce(f64::min)
}

/// Runs a multi-source, multi-goal A* with `heuristic` and checks the
/// result against `d`: the cost is the Dijkstra minimum, the goal is one of
/// `goals` at that distance from a source, and the path in the cache leads
/// from a source to it along real edges.
fn check_nearest<G: Graph, H: Heuristic, Q: OpenSet>(
    graph: &G, heuristic: H, d: &[Vec<Option<f64>>], sources: &[NodeId], goals: &[NodeId],
    cache: &mut SearchCache<Q>,
) -> Result<(), TestCaseError> {
    let expected = nearest_by_dijkstra(d, sources, goals);
    let astar = AStar::new(graph, heuristic);
    let reached = astar.nearest(sources, goals, cache);
    prop_assert!(
        same_cost(reached.map(|r| r.cost), expected),
        "nearest {reached:?}, Dijkstra {expected:?}"
    );
    let Some(reached) = reached else {
        return Ok(());
    };
    prop_assert!(goals.contains(&reached.goal));
    let mut path = Vec::new();
    prop_assert!(cache.path_into(reached.goal, &mut path));
    let first = path[0];
    prop_assert!(
        sources.contains(&first),
        "path starts at {first}, not a source"
    );
    check_nodes(graph, &path, first, reached.goal, reached.cost)
}

/// The query of `astar` run once without a limit, then again in runs of
/// `k` expansions for several `k`: the same goal and cost (bit for bit) and
/// the same total expansions and generations each time. Every pause names a
/// best node that the search reached, with a path from a source in the
/// cache.
fn check_chunks<G: Graph, H: Heuristic>(
    astar: &AStar<G, H>, sources: &[NodeId], goals: &[NodeId],
) -> Result<(), TestCaseError> {
    let mut cache = SearchCache::new();
    let whole = astar
        .query(sources, goals)
        .run(&mut cache, Budget::UNLIMITED);
    let whole_stats = cache.stats();
    prop_assert!(!matches!(whole, Progress::Paused { .. }), "{:?}", whole);
    for k in [0, 1, 2, 3, 7, 40] {
        let mut query = astar.query(sources, goals);
        let mut runs = 0;
        let end = loop {
            runs += 1;
            prop_assert!(runs <= 10_000, "k = {k}: no end");
            let step = query.run(&mut cache, Budget::expansions(k));
            let Progress::Paused { closest, g, h } = step else {
                break step;
            };
            // Expanded (or reopened since, under an inconsistent heuristic).
            prop_assert!(cache.is_reached(closest));
            prop_assert!(h.is_finite() && g.is_finite());
            let mut path = Vec::new();
            prop_assert!(cache.path_into(closest, &mut path));
            prop_assert!(sources.contains(&path[0]));
            if k == 0 {
                // Nothing can be done with no expansions: go on unlimited.
                break query.run(&mut cache, Budget::UNLIMITED);
            }
        };
        prop_assert_eq!(end, whole, "k = {}", k);
        prop_assert_eq!(cache.stats().expanded, whole_stats.expanded, "k = {}", k);
        prop_assert_eq!(cache.stats().generated, whole_stats.generated, "k = {}", k);
        // A run after the end gives the end again.
        prop_assert_eq!(query.run(&mut cache, Budget::expansions(1)), whole);
    }
    // Through the stateless `Search::search_budgeted` (what runtime
    // searchers, the Python and C bindings call): each call with the same
    // sources and goals takes up the query the cache holds paused, with the
    // same end and the same total expansions.
    let mut runs = 0;
    let end = loop {
        runs += 1;
        prop_assert!(runs <= 10_000, "search_budgeted: no end");
        let step = astar
            .search_budgeted(sources, goals, &mut cache, Budget::expansions(3))
            .expect("A* takes a budget");
        if !matches!(step, Progress::Paused { .. }) {
            break step;
        }
    };
    prop_assert_eq!(end, whole);
    prop_assert_eq!(cache.stats().expanded, whole_stats.expanded);
    // Another search in the same cache between runs: the query starts over
    // and still ends the same.
    let mut query = astar.query(sources, goals);
    let mut runs = 0;
    let end = loop {
        runs += 1;
        prop_assert!(runs <= 10_000);
        let step = query.run(&mut cache, Budget::expansions(2));
        if !matches!(step, Progress::Paused { .. }) {
            break step;
        }
        if runs == 2 {
            // Once, the cache runs another search.
            astar.nearest(goals, sources, &mut cache);
        }
    };
    prop_assert_eq!(end, whole);
    // A cap on f just below the cost proves there is no cheaper path; a cap
    // at the cost (then none) finds it.
    if let Progress::Found(reached) = whole
        && reached.cost > 1e-6
    {
        let mut query = astar.query(sources, goals);
        let below = reached.cost * (1.0 - 1e-9) - 1e-9;
        let step = query.run(&mut cache, Budget::max_f(below));
        prop_assert!(matches!(step, Progress::Paused { .. }), "{:?}", step);
        // Pausing on f puts the popped entry back, which may break ties
        // among equal keys another way: the same cost, maybe another goal.
        let Progress::Found(again) = query.run(&mut cache, Budget::UNLIMITED) else {
            return Err(TestCaseError::fail("no goal after the f cap"));
        };
        prop_assert!(same_cost(Some(again.cost), Some(reached.cost)));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn nearest_on_grids_is_the_dijkstra_minimum(
        (graph, _, _) in grid_case(),
        raw_sources in raw_nodes(),
        raw_goals in raw_nodes(),
        few in 1usize..4,
        many_goals in any::<bool>(),
    ) {
        let bound = graph.node_bound();
        let sources = nodes(&raw_sources, bound, few);
        // More goals than MIN_OVER_GOALS switches to Dijkstra inside.
        let goals = nodes(&raw_goals, bound, if many_goals { 40 } else { 3 });
        let d = all_pairs(&graph);
        let mut cache = SearchCache::new();
        check_nearest(&graph, Octile::new(&graph), &d, &sources, &goals, &mut cache)?;
        check_nearest(&graph, Zero, &d, &sources, &goals, &mut cache)?;
        check_nearest(&graph, Octile::new(&graph), &d, &sources, &goals,
            &mut SearchCache::with_open(PairingHeap::new()))?;
        let by_dijkstra = Dijkstra::new(&graph).search_nearest(&sources, &goals, &mut cache);
        prop_assert!(same_cost(by_dijkstra.map(|r| r.cost), nearest_by_dijkstra(&d, &sources, &goals)));
        check_chunks(&AStar::new(&graph, Octile::new(&graph)), &sources, &goals)?;
    }

    #[test]
    fn nearest_on_digraphs_is_the_dijkstra_minimum(
        (graph, _, _) in csr_case(),
        raw_sources in raw_nodes(),
        raw_goals in raw_nodes(),
        factors in prop::collection::vec(0.0f64..=1.0, 24),
        few in 1usize..5,
    ) {
        let bound = graph.node_bound();
        let sources = nodes(&raw_sources, bound, few);
        let goals = nodes(&raw_goals, bound, 1 + raw_goals.len() % 20);
        let d = all_pairs(&graph);
        // Exact distance to each goal, scaled by a factor per node: an
        // admissible heuristic that is in general not consistent, so that
        // the minimum over goals reopens nodes.
        let h = FnHeuristic(|n: NodeId, t: NodeId| {
            d[n.index()][t.index()].map_or(f64::INFINITY, |x| x * factors[n.index()])
        });
        let mut cache = SearchCache::new();
        check_nearest(&graph, h, &d, &sources, &goals, &mut cache)?;
        check_nearest(&graph, Zero, &d, &sources, &goals, &mut cache)?;
        check_chunks(&AStar::new(&graph, h), &sources, &goals)?;
        check_chunks(&AStar::new(&graph, Zero), &sources, &goals)?;
    }

    #[test]
    fn dijkstra_from_many_sources_is_the_minimum(
        (graph, _, _) in csr_case(),
        raw_sources in raw_nodes(),
    ) {
        let bound = graph.node_bound();
        let sources = nodes(&raw_sources, bound, 5);
        let d = all_pairs(&graph);
        let mut cache = SearchCache::new();
        Dijkstra::new(&graph).all_from(&sources, &mut cache);
        for t in 0..bound as u32 {
            let t = NodeId(t);
            let expected = nearest_by_dijkstra(&d, &sources, &[t]);
            prop_assert!(same_cost(cache.g(t), expected), "{t}: {:?} vs {expected:?}", cache.g(t));
        }
    }

    #[test]
    fn distance_fields_are_dijkstra_distances_and_flows_follow_them(
        (graph, _, _) in grid_case(),
        (csr, _, _) in csr_case(),
        raw_goals in raw_nodes(),
        count in 1usize..4,
    ) {
        check_field(&graph, &nodes(&raw_goals, graph.node_bound(), count))?;
        check_field(&csr, &nodes(&raw_goals, csr.node_bound(), count))?;
    }
}

/// Every node's field value is its Dijkstra distance to the nearest goal,
/// and following the flow from it walks real edges to a goal, each step
/// costing what the distance drops, the whole walk costing the distance.
fn check_field<G>(graph: &G, goals: &[NodeId]) -> Result<(), TestCaseError>
where
    G: cairns::graph::Reversible,
{
    let d = all_pairs(graph);
    let field = DistanceField::build(graph, goals, &mut SearchCache::new());
    prop_assert_eq!(field.node_bound(), graph.node_bound());
    for n in 0..graph.node_bound() as u32 {
        let n = NodeId(n);
        let expected = nearest_by_dijkstra(&d, &[n], goals);
        let got = field.distance(n);
        prop_assert!(
            same_cost(got, expected),
            "{n}: field {got:?}, Dijkstra {expected:?}"
        );
        match field.path_from(n) {
            None => prop_assert!(expected.is_none()),
            Some(path) => {
                let end = *path.nodes.last().unwrap_or(&n);
                prop_assert!(goals.contains(&end) && field.is_goal(end));
                check_nodes(graph, &path.nodes, n, end, path.cost)?;
                for w in path.nodes.windows(2) {
                    let step = graph
                        .successors(w[0])
                        .filter(|&(v, _)| v == w[1])
                        .map(|(_, c)| c)
                        .reduce(f64::min);
                    let drop = field
                        .distance(w[0])
                        .zip(field.distance(w[1]))
                        .map(|(a, b)| a - b);
                    prop_assert!(
                        same_cost(step, drop),
                        "{} -> {}: {step:?} vs {drop:?}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }
    // The reversed graph's distances from the goals, the other way round.
    let mut cache = SearchCache::new();
    Dijkstra::new(Reversed(graph)).all_from(goals, &mut cache);
    for n in 0..graph.node_bound() as u32 {
        prop_assert_eq!(cache.g(NodeId(n)), field.distance(NodeId(n)));
    }
    Ok(())
}
