//! cairns: optimal pathfinding on grid maps and weighted graphs.
//!
//! cairns finds shortest paths with A*, Dijkstra and breadth-first search
//! over a small graph trait with dense `u32` node ids, reusing all of its
//! search memory from one query to the next. The OPEN set and the heuristic
//! are type parameters, so the data structures and lower bounds that the
//! A* literature compares can be swapped in one engine and measured.
//!
//! # Quick example
//!
//! ```
//! use cairns::grid::{Grid, GridGraph, Neighborhood};
//! use cairns::heuristic::Octile;
//! use cairns::search::{AStar, Search, SearchCache};
//!
//! // A map in Moving AI characters: '.' is free, '@' and 'T' are blocked.
//! let grid = Grid::from_ascii("
//!     ..........
//!     .@@@@@@@@.
//!     .@......@.
//!     .@.TTTT.@.
//!     ..........
//! ").unwrap();
//! let graph = GridGraph::new(grid, Neighborhood::Octile);
//! let astar = AStar::new(&graph, Octile::new(&graph));
//! let mut cache = SearchCache::new(); // reuse it for every query
//!
//! let start = graph.node(0, 0).unwrap();
//! let goal = graph.node(4, 2).unwrap();
//! let path = astar.search(start, goal, &mut cache).unwrap();
//! assert_eq!(path.nodes.first(), Some(&start));
//! assert_eq!(path.nodes.last(), Some(&goal));
//! println!("cost {:.3}, {} nodes expanded", path.cost, cache.stats().expanded);
//! ```
//!
//! # The pieces
//!
//! - [`graph`]: the [`Graph`](graph::Graph) trait (dense ids, a
//!   non-allocating successor iterator), [`Reversible`](graph::Reversible)
//!   for reverse searches, [`CsrGraph`](graph::CsrGraph), a weighted
//!   directed graph in compressed sparse rows, and the readers of road
//!   graph files ([`read_graph`](graph::read_graph): DIMACS, arc lists,
//!   PACE, and OpenStreetMap PBF extracts with the `osm` feature, the one
//!   cargo feature, which brings in the `osmpbf` crate: `graph::osm`).
//! - [`grid`]: [`Grid`](grid::Grid) maps, [`GridGraph`](grid::GridGraph)
//!   under one of the movement rules of [`Neighborhood`](grid::Neighborhood)
//!   (4-connected, octile without corner cutting, octile with corner
//!   cutting) and for agents of any square size
//!   ([`with_size`](grid::GridGraph::with_size)), and a seeded
//!   map [`generate`](grid::generate)or.
//! - [`search`]: [`AStar`](search::AStar), [`Dijkstra`](search::Dijkstra),
//!   [`Bfs`](search::Bfs), [`JumpPointSearch`](search::JumpPointSearch)
//!   for octile grids (and, over tables built before the first query,
//!   [`JumpPointSearchPlus`](search::JumpPointSearchPlus) and
//!   [`SubgoalSearch`](search::SubgoalSearch)), for road graphs
//!   [`BidirectionalDijkstra`](search::BidirectionalDijkstra),
//!   [`BidirectionalAlt`](search::BidirectionalAlt) and
//!   [`ContractionHierarchy`](search::ContractionHierarchy) (with
//!   [`HubLabels`](search::HubLabels) over its order and many-to-many
//!   [`DistanceMatrix`](search::DistanceMatrix)es), the reusable [`SearchCache`](search::SearchCache)
//!   and the closure-based [`astar_fn`](search::astar_fn) for ad-hoc graphs.
//! - [`heuristic`]: the [`Heuristic`](heuristic::Heuristic) trait and the
//!   distance heuristics ([`Zero`](heuristic::Zero),
//!   [`Manhattan`](heuristic::Manhattan), [`Octile`](heuristic::Octile),
//!   [`Euclidean`](heuristic::Euclidean)), and
//!   [`Weighted`](heuristic::Weighted) for bounded-suboptimal search.
//! - [`landmarks`]: differential heuristics from landmark tables, their
//!   placement, and tables that follow wall edits.
//! - [`open`]: the [`OpenSet`](open::OpenSet) trait, the 16 OPEN sets and
//!   [`OpenKind`](open::OpenKind), the registry that names them.
//! - [`spec`]: one name for a whole search (`jps+/dh:16/pairing-heap`),
//!   the tables it builds before its first query ([`spec::Table`]), and
//!   [`spec::Engine`], which owns its graph and tables and hands out
//!   searchers to any thread.
//! - [`saved`]: the one file format of every saved table, and its errors.
//! - [`movingai`]: the Moving AI Lab `.map` and `.scen` formats, with errors
//!   that name the line, and the runner that checks a scenario file.
//! - [`rng`]: the one small seeded random number generator, for generated
//!   maps, landmark placement and sampled queries.
//!
//! # Everything by name
//!
//! Every search, heuristic, landmark placement, OPEN set, table kind and
//! movement rule, with the name a
//! [`SearchSpec`](spec::SearchSpec) (and the command line, the web page
//! and the benches) gives it:
//!
//! | searches ([`spec::Algorithm`]) | type |
//! |---|---|
//! | `astar` | [`search::AStar`] |
//! | `canonical` | [`search::AStar`] over [`grid::Canonical`] (canonical ordering) |
//! | `jps` | [`search::JumpPointSearch`] |
//! | `jps+` | [`search::JumpPointSearchPlus`] over a [`search::JumpTable`] |
//! | `jps+bb` | [`search::JumpPointSearchPlus`] over [`search::GoalBounds`] (JPS+ with goal bounding) |
//! | `sub` | [`search::SubgoalSearch`] over a [`search::SubgoalGraph`] (subgoal graphs) |
//! | `dijkstra` | [`search::Dijkstra`] |
//! | `bfs` | [`search::Bfs`] |
//! | `theta` | [`search::ThetaStar`] (any-angle) |
//! | `focal` | [`search::Focal`] (bounded-suboptimal) |
//! | (closures) | [`search::astar_fn`] |
//!
//! | graph searches ([`spec::GraphSearch`], on road graphs) | type |
//! |---|---|
//! | `dijkstra`, `astar` (over the nodes' coordinates), `bidijkstra`, `alt:K` (`alt`: 16 landmarks), `ch`, `hl`, `astar/fastmap:K` (`astar/fastmap`: 16 dimensions) | [`search::Dijkstra`], [`search::AStar`] over [`heuristic::Geometric`], [`search::BidirectionalDijkstra`], [`search::BidirectionalAlt`] (bidirectional ALT), [`search::ContractionHierarchy`] (contraction hierarchies), [`search::HubLabels`] (hub labels), [`search::AStar`] over [`heuristic::FastMap`] |
//!
//! | heuristics ([`spec::HeuristicSpec`]) | type |
//! |---|---|
//! | `zero`, `manhattan`, `octile`, `euclidean` | [`heuristic::Zero`], [`heuristic::Manhattan`], [`heuristic::Octile`], [`heuristic::Euclidean`] |
//! | `dh:K[:PLACEMENT]`, `:bestN` | [`landmarks::DifferentialHeuristic`] over a [`landmarks::LandmarkTable`] |
//! | `dh:K:keepM` | [`landmarks::research::CompressedHeuristic`] over a [`landmarks::research::CompressedTable`] |
//! | `dh:K:adapt` | [`landmarks::research::AdaptiveLandmarks`] |
//! | `@W` (any of them, weighted) | [`heuristic::Weighted`] |
//!
//! | landmark placements ([`spec::PlacementKind`]), the `PLACEMENT` of `dh:K:PLACEMENT` | [`landmarks::Placement`] variant |
//! |---|---|
//! | `random`, `farthest`, `avoid`, `sampled` (the default) | [`Random`](landmarks::Placement::Random), [`Farthest`](landmarks::Placement::Farthest), [`Avoid`](landmarks::Placement::Avoid), [`Sampled`](landmarks::Placement::Sampled) |
//!
//! | OPEN sets ([`open::OpenKind`]) | type |
//! |---|---|
//! | `quaternary-heap` (the default) | [`open::QuaternaryHeap`] |
//! | `indexed-binary-heap`, `classic-binary-heap`, `lazy-binary-heap` | [`open::IndexedBinaryHeap`], [`open::ClassicBinaryHeap`], [`open::LazyBinaryHeap`] |
//! | `pairing-heap`, `splay-tree` | [`open::PairingHeap`], [`open::SplayTree`] |
//! | `hot-queue`, `two-level-queue`, `bucket-queue`, `radix-heap` (monotone keys) | [`open::HotQueue`], [`open::TwoLevelQueue`], [`open::BucketQueue`], [`open::RadixHeap`] |
//! | `unsorted-array`, `sorted-array`, `sorted-list`, `skip-list`, `indexed-array`, `hash-table` | [`open::UnsortedArray`], [`open::SortedArray`], [`open::SortedList`], [`open::SkipList`], [`open::IndexedArray`], [`open::HashTable`] |
//!
//! | table kinds ([`saved::TableKind`]) | built for | [`spec::Table`] variant |
//! |---|---|---|
//! | `landmarks` | `dh:K` | [`spec::Table::Landmarks`] |
//! | `compressed-landmarks` | `dh:K:keepM` | [`spec::Table::CompressedLandmarks`] |
//! | `jumps` | `jps+` | [`spec::Table::Jumps`] |
//! | `subgoals` | `sub` | [`spec::Table::Subgoals`] |
//! | `bounds` | `jps+bb` | [`spec::Table::Bounds`] |
//! | `hierarchy` | `ch` on a road graph | none: [`spec::GraphEngine::save`] and [`spec::GraphEngine::load`] |
//! | `hub-labels` | `hl` on a road graph | none: [`spec::GraphEngine::save`] and [`spec::GraphEngine::load`] |
//!
//! | movement rules ([`grid::Neighborhood`]) | `cairns --neighborhood` |
//! |---|---|
//! | [`Four`](grid::Neighborhood::Four): 4-connected | `4` |
//! | [`Octile`](grid::Neighborhood::Octile): octile without corner cutting (the default, the Moving AI rule) | `8` |
//! | [`OctileCornerCutting`](grid::Neighborhood::OctileCornerCutting): octile with corner cutting | `8-cut` |
//! | [`OctileSqueeze`](grid::Neighborhood::OctileSqueeze): octile squeezing between walls that touch at a corner | `8-squeeze` |
//!
//! # Choosing a search on grids
//!
//! All of these return shortest paths. [`AStar`](search::AStar) expands
//! cells one by one and works with any heuristic and OPEN set. On octile
//! grids, [`GridGraph::with_canonical_ordering`](grid::GridGraph::with_canonical_ordering)
//! prunes the successors A* generates (about 1.5x faster on the dao maps),
//! and [`JumpPointSearch`](search::JumpPointSearch) jumps along straight
//! and diagonal runs (about 6x faster than A* there; see `docs/performance.md`).
//! [`JumpPointSearchPlus`](search::JumpPointSearchPlus) (`jps+`) reads
//! the jumps from a table built in milliseconds, and goal bounding
//! (`jps+bb`) prunes its moves with boxes built for seconds.
//! [`spec::choose`] (`cairns choose`) picks among them for a map from the
//! seconds and bytes that may be spent before the first query, and says
//! why.
//!
//! # Choosing an OPEN set
//!
//! A search's OPEN set is the type parameter of its
//! [`SearchCache`](search::SearchCache):
//! `SearchCache::with_open(cairns::open::PairingHeap::new())`. The default,
//! [`QuaternaryHeap`](open::QuaternaryHeap), is a 4-ary heap with
//! decrease-key and 64-bit keys on the exact grid costs; [`open`] holds the
//! whole catalogue (sorted and unsorted arrays and lists, skip list,
//! indexed array, hash table, binary, lazy and pairing heaps, splay tree,
//! HOT queue, two-level queue, bucket queue and
//! radix heap), each documented with its complexity. Bucket and radix
//! structures require monotone keys (a consistent heuristic).
//!
//! # Choosing a heuristic
//!
//! On octile grids use [`Octile`](heuristic::Octile); on 4-connected grids
//! [`Manhattan`](heuristic::Manhattan). [`Zero`](heuristic::Zero) turns A*
//! into Dijkstra. On maps with walls, a
//! [`DifferentialHeuristic`](landmarks::DifferentialHeuristic) built from a
//! few landmarks ([`landmarks`]) bounds distances far more tightly and
//! expands fewer nodes. Every heuristic states where it is admissible.
//!
//! # Correctness
//!
//! With non-negative costs and an admissible heuristic, A* returns a
//! shortest path; the test suite checks this against Dijkstra on random
//! graphs and against every published optimal length of the Moving AI
//! benchmarks. Library functions return `Option` for "no path" and error
//! types for bad input; they do not panic on user data.
#![deny(missing_docs)]

/// Asserts that `$ty::ALL` lists every variant of `$ty`, in the order
/// given: what the docs' lists are checked against
/// (`tests/integration/docs_lists.rs`). The match is exhaustive, so a new
/// variant does not compile here until it is named in its place, and then
/// the assertion fails until `ALL` lists it there.
#[cfg(test)]
macro_rules! assert_all_lists_every {
    ($ty:ident: $($variant:ident),+ $(,)?) => {{
        fn name(kind: $ty) -> &'static str {
            match kind {
                $($ty::$variant => stringify!($variant),)+
            }
        }
        let names = [$(stringify!($variant)),+];
        assert_eq!($ty::ALL.len(), names.len());
        for (kind, want) in $ty::ALL.into_iter().zip(names) {
            assert_eq!(name(kind), want, "{kind:?} is not at its position in ALL");
        }
    }};
}

pub mod graph;
pub mod grid;
pub mod heuristic;
pub mod landmarks;
pub mod movingai;
pub mod open;
mod parse;
pub mod rng;
pub mod saved;
pub mod search;
pub mod spec;

/// The examples of README.md, compiled and run as doctests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The examples of docs/guide.md (the library tour), compiled and run as
/// doctests.
#[doc = include_str!("../../../docs/guide.md")]
#[cfg(doctest)]
pub struct GuideDoctests;
