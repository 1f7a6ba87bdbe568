//! The data-driven suite: the Moving AI scenario files, every optimal length
//! checked with `movingai::lengths_match`.
//!
//! Every scenario file of every set is parsed in full; the searches run on
//! every line of the smaller files and on an even sample (`step_by`) of the
//! larger ones, with a cap per file chosen per set (see
//! [`published_lengths`]). One test per set, so the test harness spreads
//! them over the cores. Any mismatch is reported as `set/file.scen:line`.

use std::path::Path;

use cairns::graph::NodeId;
use cairns::grid::GridGraph;
use cairns::heuristic::{Euclidean, Heuristic, Octile, Zero};
use cairns::movingai::{Scenario, ScenarioErrorKind, lengths_match};
use cairns::open::{
    BucketQueue, ClassicBinaryHeap, HashTable, HotQueue, IndexedArray, IndexedBinaryHeap,
    LazyBinaryHeap, OpenSet, PairingHeap, QuaternaryHeap, RadixHeap, SkipList, SortedArray,
    SortedList, SplayTree, TwoLevelQueue, UnsortedArray,
};
use cairns::search::{AStar, Dijkstra, JumpPointSearch, Search, SearchCache};

use super::{load, scen_files, sets, short};

/// Every `step`-th scenario, with `step` chosen so that at most `max` remain.
fn sample(scenarios: &[Scenario], max: usize) -> impl Iterator<Item = &Scenario> {
    let step = scenarios.len().div_ceil(max).max(1);
    scenarios.iter().step_by(step)
}

/// Runs A* with `heuristic` and OPEN set `Q` on `scenarios` and describes
/// every cost that does not match the published length. Returns the number
/// of searches run.
fn check_published<'a, H: Heuristic, Q: OpenSet>(
    file: &Path,
    graph: &GridGraph,
    heuristic: H,
    cache: &mut SearchCache<Q>,
    scenarios: impl Iterator<Item = &'a Scenario>,
    mismatches: &mut Vec<String>,
) -> usize {
    let astar = AStar::new(graph, heuristic);
    check_search(
        "A*",
        file,
        graph,
        |s, t| astar.search_cost(s, t, cache),
        scenarios,
        mismatches,
    )
}

/// Runs `search` on `scenarios` and describes every cost that does not
/// match the published length. Returns the number of searches run.
fn check_search<'a>(
    what: &str,
    file: &Path,
    graph: &GridGraph,
    mut search: impl FnMut(NodeId, NodeId) -> Option<f64>,
    scenarios: impl Iterator<Item = &'a Scenario>,
    mismatches: &mut Vec<String>,
) -> usize {
    let mut runs = 0;
    for s in scenarios {
        let (start, goal) = match s.endpoints(graph.grid()) {
            Ok(e) => e,
            Err(e) => {
                mismatches.push(format!("{}: {e}", short(file)));
                continue;
            }
        };
        runs += 1;
        let cost = search(start, goal);
        if !cost.is_some_and(|c| lengths_match(c, s.optimal, s.decimals)) {
            mismatches.push(format!(
                "{}:{}: {what} from {:?} to {:?}: published {} ({} decimals), found {cost:?}",
                short(file),
                s.line,
                s.start,
                s.goal,
                s.optimal,
                s.decimals
            ));
        }
    }
    runs
}

fn assert_none(what: &str, mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{what}: {} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// Octile A* with the default OPEN set, on the plain grid and with canonical
/// ordering, and jump point search, on every file of `set`, at most
/// `max_per_file` lines of each (evenly spread; smaller files in full).
///
/// The caps keep each set's test at a few seconds in a test build (the
/// library is built with `opt-level = 3`, see the workspace Cargo.toml): the
/// long maze, room, random, sc1 and street paths cost 5 to 15 ms a query
/// there, the dao and bg512 ones about 1 ms.
fn published_lengths(set: &str, max_per_file: usize) {
    let mut mismatches = Vec::new();
    let mut runs = 0;
    let mut cache = SearchCache::new();
    for file in scen_files(set) {
        let (graph, scen) = load(&file);
        assert!(!scen.scenarios.is_empty(), "{}: no scenarios", short(&file));
        runs += check_published(
            &file,
            &graph,
            Octile::new(&graph),
            &mut cache,
            sample(&scen.scenarios, max_per_file),
            &mut mismatches,
        );
        // The same lines with canonical ordering pruning the successors.
        let canonical = graph.clone().with_canonical_ordering(true);
        runs += check_published(
            &file,
            &canonical,
            Octile::new(&canonical),
            &mut cache,
            sample(&scen.scenarios, max_per_file),
            &mut mismatches,
        );
        // And jump point search on the same lines.
        let jps = JumpPointSearch::new(&graph).expect("octile grid");
        runs += check_search(
            "jump point search",
            &file,
            &graph,
            |s, t| jps.search_cost(s, t, &mut cache),
            sample(&scen.scenarios, max_per_file),
            &mut mismatches,
        );
    }
    assert!(runs > 0);
    assert_none(
        &format!("{set}: octile A* (plain, canonical) and jump point search, {runs} searches"),
        &mismatches,
    );
}

#[test]
fn bg512_published_lengths() {
    published_lengths("bg512", 400);
}

#[test]
fn da2_published_lengths() {
    published_lengths("da2", 1000);
}

#[test]
fn dao_published_lengths() {
    published_lengths("dao", 400);
}

#[test]
fn maze_published_lengths() {
    published_lengths("maze", 60);
}

#[test]
fn random_published_lengths() {
    published_lengths("random", 100);
}

#[test]
fn room_published_lengths() {
    published_lengths("room", 100);
}

#[test]
fn sc1_published_lengths() {
    published_lengths("sc1", 80);
}

#[test]
fn street_published_lengths() {
    published_lengths("street", 80);
}

/// Every set of the data directory is covered by a test above (or by the
/// wc3maps512 test), so a set added to the data is not silently ignored.
#[test]
fn every_set_is_tested() {
    assert_eq!(
        sets(),
        [
            "bg512",
            "da2",
            "dao",
            "maze",
            "random",
            "room",
            "sc1",
            "street",
            "wc3maps512"
        ]
    );
}

/// wc3maps512's published lengths are wrong (INVENTORY.md), so its pairs are
/// checked against Dijkstra instead, and the lines with a blocked endpoint
/// must come out as `ScenarioError`s: 15, 24 and 56 of them.
#[test]
fn wc3maps512_against_dijkstra_and_blocked_endpoints() {
    const MAX_DIJKSTRA: usize = 40;
    let expected_errors = [
        ("battleground.map.scen", 15),
        ("divideandconquer.map.scen", 24),
        ("losttemple.map.scen", 56),
    ];
    let files = scen_files("wc3maps512");
    assert_eq!(files.len(), expected_errors.len());
    let mut mismatches = Vec::new();
    let mut cache = SearchCache::new();
    let mut reference = SearchCache::new();
    for (file, (name, errors)) in files.iter().zip(expected_errors) {
        assert!(file.ends_with(name), "{}", file.display());
        let (graph, scen) = load(file);
        let mut valid = Vec::new();
        let mut blocked = 0;
        for s in &scen.scenarios {
            match s.endpoints(graph.grid()) {
                Ok(pair) => valid.push(pair),
                Err(e) => {
                    assert_eq!(e.line(), Some(s.line));
                    assert!(
                        matches!(e.kind(), ScenarioErrorKind::Blocked { .. }),
                        "{}: {e}",
                        short(file)
                    );
                    assert!(e.to_string().contains("is on a blocked tile"), "{e}");
                    blocked += 1;
                }
            }
        }
        assert_eq!(blocked, errors, "{}: blocked endpoints", short(file));
        let astar = AStar::new(&graph, Octile::new(&graph));
        let dijkstra = Dijkstra::new(&graph);
        let step = valid.len().div_ceil(MAX_DIJKSTRA);
        for &(start, goal) in valid.iter().step_by(step) {
            let a = astar.search_cost(start, goal, &mut cache);
            let d = dijkstra.search_cost(start, goal, &mut reference);
            let same = match (a, d) {
                (Some(a), Some(d)) => (a - d).abs() <= 1e-9 * d.max(1.0),
                (a, d) => a.is_none() && d.is_none(),
            };
            if !same {
                mismatches.push(format!(
                    "{}: from {:?} to {:?}: A* {a:?}, Dijkstra {d:?}",
                    short(file),
                    graph.coords(start),
                    graph.coords(goal)
                ));
            }
        }
    }
    assert_none("wc3maps512: octile A* against Dijkstra", &mismatches);
}

/// One scenario file of each set (the first by name), with `per_set` of its
/// lines whose published length is below `max_length`, evenly spread.
fn open_set_sample(
    per_set: usize,
    max_length: f64,
) -> Vec<(std::path::PathBuf, GridGraph, Vec<Scenario>)> {
    sets()
        .iter()
        .filter(|set| *set != "wc3maps512")
        .map(|set| {
            let file = scen_files(set).swap_remove(0);
            let (graph, scen) = load(&file);
            let short: Vec<Scenario> = scen
                .scenarios
                .into_iter()
                .filter(|s| s.optimal < max_length)
                .collect();
            let chosen = sample(&short, per_set).cloned().collect();
            (file, graph, chosen)
        })
        .collect()
}

fn check_open_set<Q: OpenSet>(
    name: &str,
    make: impl Fn() -> Q,
    sample: &[(std::path::PathBuf, GridGraph, Vec<Scenario>)],
    failures: &mut Vec<String>,
) {
    let mut runs = 0;
    for (file, graph, scenarios) in sample {
        // A fresh cache per map, then reused for every line of it.
        let mut cache = SearchCache::with_open(make());
        let mut mismatches = Vec::new();
        runs += check_published(
            file,
            graph,
            Octile::new(graph),
            &mut cache,
            scenarios.iter(),
            &mut mismatches,
        );
        failures.extend(mismatches.into_iter().map(|m| format!("{name}: {m}")));
    }
    assert!(runs > 0, "{name}: no scenarios run");
}

/// Every OPEN set of `cairns::open` finds the published lengths: 12 lines
/// of each set for the logarithmic ones, 8 lines shorter than 120 for those
/// with linear-time operations.
#[test]
fn every_open_set_matches_published_lengths() {
    let all = open_set_sample(12, f64::INFINITY);
    let short_lines = open_set_sample(8, 120.0);
    let mut failures = Vec::new();
    let f = &mut failures;
    // Logarithmic or better.
    check_open_set("IndexedBinaryHeap", IndexedBinaryHeap::new, &all, f);
    check_open_set("ClassicBinaryHeap", ClassicBinaryHeap::new, &all, f);
    check_open_set("LazyBinaryHeap", LazyBinaryHeap::new, &all, f);
    check_open_set("QuaternaryHeap", QuaternaryHeap::new, &all, f);
    check_open_set("PairingHeap", PairingHeap::new, &all, f);
    check_open_set("SplayTree", SplayTree::new, &all, f);
    check_open_set("SkipList", SkipList::new, &all, f);
    check_open_set("BucketQueue", BucketQueue::new, &all, f);
    check_open_set("HotQueue", HotQueue::new, &all, f);
    check_open_set("RadixHeap", RadixHeap::new, &all, f);
    check_open_set("TwoLevelQueue", TwoLevelQueue::new, &all, f);
    // Linear-time pop or push: short scenarios only.
    check_open_set("UnsortedArray", UnsortedArray::new, &short_lines, f);
    check_open_set("IndexedArray", IndexedArray::new, &short_lines, f);
    check_open_set("SortedArray", SortedArray::new, &short_lines, f);
    check_open_set("SortedList", SortedList::new, &short_lines, f);
    check_open_set("HashTable", HashTable::new, &short_lines, f);
    assert_none("OPEN sets", &failures);
}

/// Each heuristic admissible for octile movement finds the published
/// lengths: Octile and Euclidean on 20 lines of one file per set, Zero
/// (Dijkstra) on 8 lines shorter than 120.
#[test]
fn every_admissible_heuristic_matches_published_lengths() {
    let all = open_set_sample(20, f64::INFINITY);
    let short_lines = open_set_sample(8, 120.0);
    let mut mismatches = Vec::new();
    let mut cache = SearchCache::new();
    for (file, graph, scenarios) in &all {
        for heuristic in ["octile", "euclidean"] {
            let before = mismatches.len();
            match heuristic {
                "octile" => check_published(
                    file,
                    graph,
                    Octile::new(graph),
                    &mut cache,
                    scenarios.iter(),
                    &mut mismatches,
                ),
                _ => check_published(
                    file,
                    graph,
                    Euclidean::new(graph),
                    &mut cache,
                    scenarios.iter(),
                    &mut mismatches,
                ),
            };
            for m in &mut mismatches[before..] {
                *m = format!("{heuristic}: {m}");
            }
        }
    }
    for (file, graph, scenarios) in &short_lines {
        let before = mismatches.len();
        check_published(
            file,
            graph,
            Zero,
            &mut cache,
            scenarios.iter(),
            &mut mismatches,
        );
        for m in &mut mismatches[before..] {
            *m = format!("zero: {m}");
        }
    }
    assert_none("heuristics", &mismatches);
}

/// The path A* leaves in the cache is a real path of the published length:
/// consecutive cells are legal moves whose costs add up to the cost.
#[test]
fn paths_on_a_real_map_are_valid() {
    use cairns::graph::Graph;
    let file = scen_files("dao")
        .into_iter()
        .find(|f| f.ends_with("den520d.map.scen"))
        .expect("dao/den520d.map.scen");
    let (graph, scen) = load(&file);
    let astar = AStar::new(&graph, Octile::new(&graph));
    let mut cache = SearchCache::new();
    let mut nodes: Vec<NodeId> = Vec::new();
    for s in scen.scenarios.iter().step_by(45) {
        let (start, goal) = s.endpoints(graph.grid()).unwrap();
        let cost = astar.search_cost(start, goal, &mut cache).unwrap();
        assert!(cache.path_into(goal, &mut nodes));
        assert_eq!((nodes.first(), nodes.last()), (Some(&start), Some(&goal)));
        let sum: f64 = nodes
            .windows(2)
            .map(|w| {
                graph
                    .successors(w[0])
                    .find(|&(n, _)| n == w[1])
                    .unwrap_or_else(|| panic!("line {}: {} -> {} is no move", s.line, w[0], w[1]))
                    .1
            })
            .sum();
        assert!(
            (sum - cost).abs() < 1e-9,
            "line {}: {sum} vs {cost}",
            s.line
        );
        assert!(lengths_match(cost, s.optimal, s.decimals));
    }
}
