//! The data-driven suite: the Moving AI scenario files through the
//! library's scenario runner (`movingai::runner`), every cost checked
//! against the published length (or Dijkstra, for wc3maps512).
//!
//! Every scenario file of every set is loaded in full (a scenario that does
//! not fit its map is a failure); the searches run on every line of the
//! smaller files and on an even sample of the larger ones, with a cap per
//! file chosen per set (see [`published_lengths`]). Searches are named by
//! their spec (`jps/octile`, `astar/octile/pairing-heap`) and built by
//! `SearchSpec`, as the CLI builds them. One test per set, so the test
//! harness spreads them over the cores. Any mismatch is reported as
//! `set/file.scen: SPEC: line N: ...`.

use std::path::Path;
use std::time::Duration;

use cairns::graph::{Graph, NodeId};
use cairns::movingai::ScenarioErrorKind;
use cairns::movingai::runner::{self, Instance, Reference};
use cairns::open::OpenKind;
use cairns::search::{Budgeted, GoalBounds, SubgoalGraph};
use cairns::spec::{Given, SearchSpec, Table};

use super::{scen_files, sets, short};

/// A scenario file with its map, every line.
fn load(file: &Path) -> Instance {
    Instance::load(file, None, 1).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs the search named `spec` on every query of `inst`, checking each
/// cost against `reference`, and describes every mismatch. Returns the
/// number of searches run.
fn check(spec: &str, inst: &Instance, reference: Reference, mismatches: &mut Vec<String>) -> usize {
    check_with(spec, inst, reference, None, mismatches)
}

/// The time the goal-bounding table of `jps+bb` and the subgoal graph of
/// `sub` are given to build on each map here, so that both whole and cut
/// tables have their costs checked (a jump point without boxes prunes
/// nothing; subgoals left uncontracted stay in the core, which every query
/// searches, and core subgoals without boxes prune nothing). In a test
/// build on the 2-core development machine, the subgoal graph was whole on
/// most bg512, da2, dao, maze, room and wc3maps512 maps and cut on the
/// random, sc1 and street ones (cut on 25 of 59 files). With the default
/// budgets, of up to 8 s each, the two tables took most of this file's
/// time on the large maps, where they are cut short all the same.
const TABLE_BUDGET: Duration = Duration::from_millis(300);

/// `jps+bb` over a goal-bounding table and `sub` over a subgoal graph,
/// each built within [`TABLE_BUDGET`].
fn check_budgeted(inst: &Instance, reference: Reference, mismatches: &mut Vec<String>) -> usize {
    let bounds = GoalBounds::build_within(&inst.graph, Some(TABLE_BUDGET));
    let subgoals = SubgoalGraph::build_within(&inst.graph, Some(TABLE_BUDGET));
    check_with(
        "jps+bb/octile",
        inst,
        reference,
        Some(bounds.into()),
        mismatches,
    ) + check_with(
        "sub/octile",
        inst,
        reference,
        Some(subgoals.into()),
        mismatches,
    )
}

/// [`check`] with a table `given` instead of the one the spec builds.
fn check_with(
    spec: &str, inst: &Instance, reference: Reference, given: Option<Table>,
    mismatches: &mut Vec<String>,
) -> usize {
    let parsed: SearchSpec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
    let given = given.into_iter().map(Given::from);
    let prepared = parsed
        .prepare_with(&inst.graph, given)
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let mut searcher = prepared.searcher();
    let summary = runner::run(inst, &mut *searcher, reference, &mut |_| {});
    let file = short(&inst.scen_path);
    mismatches.extend(
        summary
            .mismatches
            .iter()
            .map(|m| format!("{file}: {spec}: {m}")),
    );
    summary.queries
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
/// ordering, jump point search (online, JPS+ and JPS+ with goal bounding)
/// and subgoal graphs (the tables cut by [`check_budgeted`]'s budget), on
/// every file of `set`, at most
/// `max_per_file` lines of each (evenly spread; smaller files in full).
///
/// The caps keep each set's test at a few seconds in a test build (the
/// library is built with `opt-level = 3`, see the workspace Cargo.toml): the
/// long maze, room, random, sc1 and street paths cost 5 to 15 ms a query
/// there, the dao and bg512 ones about 1 ms.
fn published_lengths(set: &str, max_per_file: usize) {
    let mut mismatches = Vec::new();
    let mut runs = 0;
    for file in scen_files(set) {
        let mut inst = load(&file);
        assert!(!inst.queries.is_empty(), "{}: no scenarios", short(&file));
        mismatches.extend(
            inst.data_errors
                .iter()
                .map(|e| format!("{}: {e}", short(&file))),
        );
        inst.keep_at_most(max_per_file);
        for spec in [
            "astar/octile",
            "canonical/octile",
            "jps/octile",
            "jps+/octile",
        ] {
            runs += check(spec, &inst, Reference::Published, &mut mismatches);
        }
        runs += check_budgeted(&inst, Reference::Published, &mut mismatches);
    }
    assert!(runs > 0);
    assert_none(
        &format!(
            "{set}: octile A* (plain, canonical), jump point search (jps, jps+, jps+bb) and subgoal graphs (sub), {runs} searches"
        ),
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
/// Agents of `size` x `size` cells ([`Instance::for_size`]) on the first
/// scenario file of every set: A*, jump point search (online, JPS+, JPS+
/// with goal bounding) and subgoal graphs (the tables cut by
/// [`check_budgeted`]'s budget) on up to 25 of the queries whose endpoints
/// are open to the agent, every cost checked against Dijkstra on the same
/// graph. (The block rule itself is checked against a search that moves
/// the block over the map, in `sizes.rs`.)
fn sized_against_dijkstra(size: u32) {
    let mut mismatches = Vec::new();
    let (mut runs, mut kept) = (0, 0);
    for set in sets() {
        let file = &scen_files(&set)[0];
        let mut inst = load(file)
            .for_size(size)
            .unwrap_or_else(|e| panic!("{}: {e}", short(file)));
        assert_eq!(inst.graph.size(), size);
        assert_eq!(inst.reference(Reference::Published), Reference::Dijkstra);
        inst.keep_at_most(25);
        kept += inst.queries.len();
        for spec in ["astar/octile", "jps/octile", "jps+/octile"] {
            runs += check(spec, &inst, Reference::Dijkstra, &mut mismatches);
        }
        runs += check_budgeted(&inst, Reference::Dijkstra, &mut mismatches);
    }
    assert!(kept > 100, "only {kept} queries fit agents of size {size}");
    assert_none(
        &format!("size {size}: astar, jps, jps+, jps+bb and sub, {runs} searches"),
        &mismatches,
    );
}

#[test]
fn agents_of_size_two_against_dijkstra() {
    sized_against_dijkstra(2);
}

#[test]
fn agents_of_size_three_against_dijkstra() {
    sized_against_dijkstra(3);
}

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
    for (file, (name, errors)) in files.iter().zip(expected_errors) {
        assert!(file.ends_with(name), "{}", file.display());
        let mut inst = load(file);
        for e in &inst.data_errors {
            assert!(
                matches!(e.kind(), ScenarioErrorKind::Blocked { .. }),
                "{}: {e}",
                short(file)
            );
            assert!(e.to_string().contains("is on a blocked tile"), "{e}");
        }
        assert_eq!(
            inst.data_errors.len(),
            errors,
            "{}: blocked endpoints",
            short(file)
        );
        inst.keep_at_most(MAX_DIJKSTRA);
        for spec in ["astar/octile", "jps+/octile"] {
            check(spec, &inst, Reference::Dijkstra, &mut mismatches);
        }
        check_budgeted(&inst, Reference::Dijkstra, &mut mismatches);
    }
    assert_none(
        "wc3maps512: octile A*, JPS+ (plain and goal-bounded) and subgoals against Dijkstra",
        &mismatches,
    );
}

/// One scenario file of each set (the first by name), with `per_set` of its
/// lines whose published length is below `max_length`, evenly spread.
fn open_set_sample(per_set: usize, max_length: f64) -> Vec<Instance> {
    sets()
        .iter()
        .filter(|set| *set != "wc3maps512")
        .map(|set| {
            let mut inst = load(&scen_files(set).swap_remove(0));
            inst.queries.retain(|q| q.optimal < max_length);
            inst.keep_at_most(per_set);
            inst
        })
        .collect()
}

/// Runs `spec` on every instance of `sample` and checks that it ran.
fn check_sample(spec: &str, sample: &[Instance], mismatches: &mut Vec<String>) {
    let runs: usize = sample
        .iter()
        .map(|inst| check(spec, inst, Reference::Published, mismatches))
        .sum();
    assert!(runs > 0, "{spec}: no scenarios run");
}

/// Every OPEN set of `cairns::open` finds the published lengths: 12 lines
/// of each set for the logarithmic ones, 8 lines shorter than 120 for those
/// with linear-time operations.
#[test]
fn every_open_set_matches_published_lengths() {
    const LINEAR: [OpenKind; 5] = [
        OpenKind::UnsortedArray,
        OpenKind::IndexedArray,
        OpenKind::SortedArray,
        OpenKind::SortedList,
        OpenKind::HashTable,
    ];
    let all = open_set_sample(12, f64::INFINITY);
    let short_lines = open_set_sample(8, 120.0);
    let mut failures = Vec::new();
    for kind in OpenKind::ALL {
        let sample = if LINEAR.contains(&kind) {
            &short_lines
        } else {
            &all
        };
        check_sample(&format!("astar/octile/{kind}"), sample, &mut failures);
    }
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
    check_sample("astar/octile", &all, &mut mismatches);
    check_sample("astar/euclidean", &all, &mut mismatches);
    check_sample("astar/zero", &short_lines, &mut mismatches);
    assert_none("heuristics", &mismatches);
}

/// Bounded-suboptimal search keeps its guarantee on every sampled query:
/// weighted A* and weighted jump points with weights 1.5 and 3 return
/// costs at least the published length and at most the weight times it
/// (the runner's checker applies the searcher's bound), and the optimal
/// search is never beaten.
#[test]
fn weighted_searches_stay_within_their_bound() {
    let sample = open_set_sample(40, f64::INFINITY);
    let mut failures = Vec::new();
    for spec in [
        "astar/octile@1.5",
        "astar/octile@3",
        "jps/octile@1.5",
        "astar/dh:4@2",
    ] {
        check_sample(spec, &sample, &mut failures);
    }
    assert_none("weighted searches", &failures);
}

/// The path A* leaves in the cache is a real path of the published length:
/// consecutive cells are legal moves whose costs add up to the cost.
#[test]
fn paths_on_a_real_map_are_valid() {
    let file = scen_files("dao")
        .into_iter()
        .find(|f| f.ends_with("den520d.map.scen"))
        .expect("dao/den520d.map.scen");
    let inst = Instance::load(&file, None, 45).unwrap_or_else(|e| panic!("{e}"));
    let graph = &inst.graph;
    let prepared = SearchSpec::default().prepare(graph).unwrap();
    let mut searcher = prepared.searcher();
    let mut nodes: Vec<NodeId> = Vec::new();
    assert!(!inst.queries.is_empty());
    for q in &inst.queries {
        let cost = searcher.search_cost(q.start, q.goal).unwrap();
        assert!(searcher.path_into(q.goal, &mut nodes));
        assert_eq!(
            (nodes.first(), nodes.last()),
            (Some(&q.start), Some(&q.goal))
        );
        let sum: f64 = nodes
            .windows(2)
            .map(|w| {
                graph
                    .successors(w[0])
                    .find(|&(n, _)| n == w[1])
                    .unwrap_or_else(|| panic!("line {}: {} -> {} is no move", q.line, w[0], w[1]))
                    .1
            })
            .sum();
        assert!(
            (sum - cost).abs() < 1e-9,
            "line {}: {sum} vs {cost}",
            q.line
        );
        assert!(q.matches(Some(cost)));
    }
}

/// The differential heuristic's tie-break ([`Heuristic::upper_bound`]:
/// among equal `f`, the smaller middle of `[h, upper]`) on a room map: with
/// the default `dh:16` table of `32room_000`, every 20th scenario, the
/// search that breaks ties so expands at least 10% fewer nodes than the
/// same heuristic with the larger `g` first (22% on the room family,
/// docs/differential-heuristics.md), and both return the published
/// lengths.
///
/// [`Heuristic::upper_bound`]: cairns::heuristic::Heuristic::upper_bound
#[test]
fn landmark_tie_break_saves_expansions_on_a_room_map() {
    use cairns::heuristic::{Octile, Untied};
    use cairns::landmarks::DifferentialHeuristic;
    use cairns::search::{AStar, Search, SearchCache};

    let file = super::data_dir().join("room/32room_000.map.scen");
    let inst = Instance::load(&file, None, 20).unwrap_or_else(|e| panic!("{e}"));
    let spec: SearchSpec = "astar/dh:16".parse().unwrap();
    let prepared = spec.prepare(&inst.graph).unwrap();
    let table = prepared.table().expect("dh:16 builds a table");
    let graph = &inst.graph;
    let h = DifferentialHeuristic::new(table, Octile::new(graph));
    let mut cache = SearchCache::new();
    let (mut tied, mut untied) = (0, 0);
    for q in &inst.queries {
        let a = AStar::new(graph, &h).search_cost(q.start, q.goal, &mut cache);
        tied += cache.stats().expanded;
        let b = AStar::new(graph, Untied(&h)).search_cost(q.start, q.goal, &mut cache);
        untied += cache.stats().expanded;
        for cost in [a, b] {
            let cost = cost.expect("every scenario has a path");
            assert!(
                (cost - q.optimal).abs() <= 1e-4 * q.optimal.max(1.0),
                "line {}: {cost} against {}",
                q.line,
                q.optimal
            );
        }
    }
    assert!(
        tied * 10 <= untied * 9,
        "{tied} expansions with the tie-break against {untied} without"
    );
}
