//! The searches on weighted graphs (road networks), by name:
//! [`GraphSearch`], and [`GraphEngine`], which owns a graph and what its
//! search built before the first query, for the command line's `cairns
//! graph` and the bindings.
//!
//! | name | search | built before the first query |
//! |---|---|---|
//! | `dijkstra` | [`Dijkstra`] | nothing |
//! | `astar` | [`AStar`] over the straight line ([`Geometric`]) when the engine has the nodes' coordinates ([`GraphEngine::with_coordinates`]); Dijkstra's search when it has none | the scale of the straight line |
//! | `bidijkstra` | [`BidirectionalDijkstra`] | nothing |
//! | `alt:K` (`alt`: 16) | [`BidirectionalAlt`] over `K` landmarks placed `avoid` | a directed landmark table |
//! | `ch` | [`ContractionHierarchy`] | the hierarchy |
//! | `hl` | [`HubLabels`] (paths through the hierarchy) | the hierarchy and its hub labels |
//! | `astar/fastmap:K` (`astar/fastmap`: 16) | [`AStar`] over a [`FastMap`] embedding of `K` dimensions | the embedding |
//!
//! ```
//! use cairns::graph::{CsrGraph, NodeId};
//! use cairns::spec::{GraphEngine, GraphSearch};
//!
//! let g = CsrGraph::from_edges(4, &[(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 1.0)]).unwrap();
//! let search: GraphSearch = "ch".parse().unwrap();
//! let engine = GraphEngine::new(g, search);
//! let mut cache = engine.cache();
//! assert_eq!(engine.cost(NodeId(0), NodeId(3), &mut cache), Some(4.0));
//! let path = engine.path(NodeId(0), NodeId(3), &mut cache).unwrap();
//! assert_eq!(path.nodes, [NodeId(0), NodeId(2), NodeId(1), NodeId(3)]);
//! assert_eq!(engine.cost(NodeId(3), NodeId(0), &mut cache), None);
//! assert!("jps".parse::<GraphSearch>().is_err()); // a grid search, not a graph one
//! ```

use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::error::{SpecError, SpecErrorKind};
use super::names::{MAX_LANDMARKS, PLACEMENT_SEED, parse_landmark_count};
use crate::graph::{CsrGraph, NodeId, project_lon_lat};
use crate::heuristic::{FastMap, Geometric};
use crate::landmarks::{Directedness, LandmarkTable, Placement, place};
use crate::saved::{FileError, FileErrorKind, TableKind, graph_hash, read_array};
use crate::search::{
    AStar, BiCache, BidirectionalAlt, BidirectionalDijkstra, ChCache, ContractionHierarchy,
    Dijkstra, DistanceMatrix, HubLabels, Path, Search, SearchCache,
};

/// The seed of the random node a [`FastMap`] embedding's first pivot
/// search starts from.
const FASTMAP_SEED: u64 = 1;

/// The dimensions of `astar/fastmap` without a count.
const FASTMAP_DIMS: u8 = 16;

/// A search on a weighted directed graph, by name (`dijkstra`,
/// `astar`, `bidijkstra`, `alt:K`, `ch`, `hl`, `astar/fastmap:K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GraphSearch {
    /// `dijkstra`: Dijkstra's algorithm from the start, stopped at the goal.
    Dijkstra,
    /// `astar`: A* over the straight line between the nodes' coordinates,
    /// scaled to the graph's cheapest cost per unit of length
    /// ([`Geometric`]), when the engine was given them
    /// ([`GraphEngine::with_coordinates`]); without coordinates it has no
    /// heuristic and searches as `dijkstra` does.
    Astar,
    /// `bidijkstra`: bidirectional Dijkstra, forward from the start and
    /// backward from the goal.
    Bidijkstra,
    /// `alt:K`: bidirectional ALT (Goldberg and Harrelson 2005) over a
    /// directed table of `K` landmarks (1 to 64; `alt` is `alt:16`) placed
    /// `avoid`, built before the first query.
    Alt {
        /// The number of landmarks.
        landmarks: u8,
    },
    /// `ch`: contraction hierarchies, built before the first query.
    Ch,
    /// `hl`: hub labels from the contraction hierarchy's order, built
    /// before the first query; a cost is a merge of two sorted labels, a
    /// path the hierarchy's.
    Hl,
    /// `astar/fastmap:K`: A* guided by a [`FastMap`] embedding of `K`
    /// dimensions (1 to 64; `astar/fastmap` is `astar/fastmap:16`), built
    /// before the first query: a heuristic learned from a graph without
    /// coordinates.
    AstarFastmap {
        /// The number of dimensions.
        dims: u8,
    },
}

impl GraphSearch {
    /// Every graph search, in the order named here.
    pub const ALL: [GraphSearch; 7] = [
        GraphSearch::Dijkstra,
        GraphSearch::Astar,
        GraphSearch::Bidijkstra,
        GraphSearch::Alt { landmarks: 16 },
        GraphSearch::Ch,
        GraphSearch::Hl,
        GraphSearch::AstarFastmap { dims: FASTMAP_DIMS },
    ];

    /// The name, without its parameters (`alt` for `alt:16`).
    pub fn name(self) -> &'static str {
        match self {
            GraphSearch::Dijkstra => "dijkstra",
            GraphSearch::Astar => "astar",
            GraphSearch::Bidijkstra => "bidijkstra",
            GraphSearch::Alt { .. } => "alt",
            GraphSearch::Ch => "ch",
            GraphSearch::Hl => "hl",
            GraphSearch::AstarFastmap { .. } => "astar/fastmap",
        }
    }

    /// What it is, in a few words (for `--help`).
    pub fn about(self) -> &'static str {
        match self {
            GraphSearch::Dijkstra => "Dijkstra's algorithm, stopped at the goal",
            GraphSearch::Astar => {
                "A* over the straight line between the nodes' coordinates (Dijkstra's search without them)"
            }
            GraphSearch::Bidijkstra => {
                "bidirectional Dijkstra: from both ends, meeting in the middle"
            }
            GraphSearch::Alt { .. } => {
                "alt:K: bidirectional A* over K landmarks (16 by default), built before the first query"
            }
            GraphSearch::Ch => "contraction hierarchies, built before the first query",
            GraphSearch::Hl => {
                "hub labels over the contraction hierarchy, built before the first query"
            }
            GraphSearch::AstarFastmap { .. } => {
                "astar/fastmap:K: A* over a FastMap embedding of K dimensions (16 by default), built before the first query"
            }
        }
    }
}

impl GraphSearch {
    /// The kind of table the search builds before its first query, which
    /// [`GraphEngine::save`] writes (`None`: it builds nothing).
    pub fn table_kind(self) -> Option<TableKind> {
        match self {
            GraphSearch::Dijkstra
            | GraphSearch::Astar
            | GraphSearch::Bidijkstra
            | GraphSearch::AstarFastmap { .. } => None,
            GraphSearch::Alt { .. } => Some(TableKind::Landmarks),
            GraphSearch::Ch => Some(TableKind::Hierarchy),
            GraphSearch::Hl => Some(TableKind::HubLabels),
        }
    }
}

impl fmt::Display for GraphSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphSearch::Alt { landmarks } => write!(f, "alt:{landmarks}"),
            GraphSearch::AstarFastmap { dims } => write!(f, "astar/fastmap:{dims}"),
            _ => f.write_str(self.name()),
        }
    }
}

impl FromStr for GraphSearch {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(k) = s.strip_prefix("alt:") {
            let landmarks = parse_landmark_count(k)? as u8;
            return Ok(GraphSearch::Alt { landmarks });
        }
        if let Some(k) = s.strip_prefix("astar/fastmap:") {
            let dims = k
                .parse::<u8>()
                .ok()
                .filter(|&k| (1..=FastMap::MAX_DIMS).contains(&usize::from(k)))
                .ok_or_else(|| SpecErrorKind::UnknownName {
                    what: "FastMap dimension count",
                    name: k.chars().take(60).collect(),
                    expected: format!("a number from 1 to {}", FastMap::MAX_DIMS),
                })?;
            return Ok(GraphSearch::AstarFastmap { dims });
        }
        GraphSearch::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                SpecErrorKind::UnknownName {
                    what: "graph search",
                    name: s.chars().take(60).collect(),
                    expected: GraphSearch::ALL.map(GraphSearch::name).join(", "),
                }
                .into()
            })
    }
}

/// What a graph search built before its first query.
#[derive(Clone, Debug)]
enum Built {
    Nothing,
    Hierarchy(ContractionHierarchy),
    /// The landmark table of `alt:K`.
    Landmarks(LandmarkTable),
    /// The labels, and the hierarchy they came from (for paths).
    Labels(ContractionHierarchy, HubLabels),
    /// The embedding of `astar/fastmap:K`.
    Embedding(FastMap),
    /// The straight line of `astar` on a graph with coordinates.
    Straight(Geometric),
}

/// Where a graph's nodes lie, one point a node, for `astar`
/// ([`GraphEngine::with_coordinates`]).
#[derive(Clone, Debug)]
pub enum Coordinates {
    /// Points of a plane (a DIMACS `.co` file's `x y`).
    Planar(Vec<[f64; 2]>),
    /// Longitudes and latitudes in degrees, `[lon, lat]` (an
    /// OpenStreetMap extract's), projected to metres about their mean
    /// latitude.
    LonLat(Vec<[f64; 2]>),
}

impl Coordinates {
    /// The points as given, one a node.
    pub fn points(&self) -> &[[f64; 2]] {
        match self {
            Coordinates::Planar(points) | Coordinates::LonLat(points) => points,
        }
    }

    /// The points on a plane: planar ones as given, longitudes and
    /// latitudes projected to metres ([`project_lon_lat`]).
    pub fn on_plane(&self) -> Vec<[f64; 2]> {
        match self {
            Coordinates::Planar(points) => points.clone(),
            Coordinates::LonLat(points) => project_lon_lat(points),
        }
    }
}

/// A graph and one search over it, with what the search built: the owning
/// counterpart of [`Engine`](super::Engine) for weighted graphs. Queries
/// take `&self` and a [`GraphCache`] each, so threads share one engine;
/// [`with_cache`](Self::with_cache) lends one of the engine's own.
#[derive(Clone, Debug)]
pub struct GraphEngine {
    graph: CsrGraph,
    search: GraphSearch,
    built: Built,
    preprocess_s: f64,
    /// Whether `built` was read from a file ([`GraphEngine::load`]).
    loaded: bool,
    /// The caches [`with_cache`](Self::with_cache) lends, shared by clones.
    idle: Arc<Mutex<Vec<GraphCache>>>,
}

/// The memory of a [`GraphEngine`]'s queries, reused from one to the next:
/// allocate one per thread with [`GraphEngine::cache`].
#[derive(Clone, Debug)]
pub struct GraphCache {
    one: SearchCache,
    two: BiCache,
    ch: ChCache,
}

impl Default for GraphCache {
    fn default() -> Self {
        GraphCache {
            one: SearchCache::new(),
            two: BiCache::new(),
            ch: ChCache::new(),
        }
    }
}

impl GraphEngine {
    /// `search` on `graph`, with what it builds before its first query
    /// built now (timed: [`preprocess_s`](Self::preprocess_s)).
    pub fn new(graph: CsrGraph, search: GraphSearch) -> GraphEngine {
        Self::built(graph, search, Instant::now(), None)
    }

    /// `search` on `graph` whose nodes lie at `coordinates`, which `astar`
    /// takes for its heuristic (the other searches do not use them).
    ///
    /// # Errors
    ///
    /// [`SpecErrorKind::Unsupported`] when there is not one finite point
    /// a node of the graph.
    pub fn with_coordinates(
        graph: CsrGraph, coordinates: &Coordinates, search: GraphSearch,
    ) -> Result<GraphEngine, SpecError> {
        let t0 = Instant::now();
        let Some(straight) = Geometric::planar(&graph, coordinates.on_plane()) else {
            let given = coordinates.points().len();
            return Err(SpecErrorKind::Unsupported {
                algorithm: "astar",
                reason: format!(
                    "needs one finite point a node: {given} points for {} nodes, or a point not finite",
                    graph.node_count()
                ),
            }
            .into());
        };
        let straight = (search == GraphSearch::Astar).then_some(straight);
        Ok(Self::built(graph, search, t0, straight))
    }

    /// The engine, with what `search` builds built (the straight line
    /// given), timed from `t0`.
    fn built(
        graph: CsrGraph, search: GraphSearch, t0: Instant, straight: Option<Geometric>,
    ) -> GraphEngine {
        let built = match search {
            GraphSearch::Astar => straight.map_or(Built::Nothing, Built::Straight),
            GraphSearch::Dijkstra | GraphSearch::Bidijkstra => Built::Nothing,
            GraphSearch::Alt { .. } if graph.node_count() == 0 => Built::Nothing,
            GraphSearch::Alt { landmarks } => {
                let seed = PLACEMENT_SEED;
                let at = place(&graph, usize::from(landmarks), Placement::Avoid { seed });
                Built::Landmarks(LandmarkTable::build(&graph, &at, Directedness::Directed))
            }
            GraphSearch::Ch => Built::Hierarchy(ContractionHierarchy::build(&graph)),
            GraphSearch::Hl => {
                let ch = ContractionHierarchy::build(&graph);
                let labels = HubLabels::build(&ch);
                Built::Labels(ch, labels)
            }
            GraphSearch::AstarFastmap { dims } => {
                Built::Embedding(FastMap::build(&graph, usize::from(dims), FASTMAP_SEED))
            }
        };
        let preprocess_s = t0.elapsed().as_secs_f64();
        GraphEngine {
            graph,
            search,
            built,
            preprocess_s,
            loaded: false,
            idle: Arc::default(),
        }
    }

    /// The search on `graph` whose table is saved in `r` (by
    /// [`save`](Self::save)), told by the file's magic bytes: `ch` for a
    /// contraction hierarchy, `hl` for hub labels (with their hierarchy),
    /// `alt:K` for a directed landmark table of `K` landmarks (which may be
    /// fewer than the `alt:K` it was built for asked, on a small graph).
    /// Each is read
    /// with its kind's checks, against `graph`'s
    /// [`graph_hash`](crate::saved::graph_hash) and node count; the
    /// seconds it took are [`preprocess_s`](Self::preprocess_s).
    ///
    /// # Errors
    ///
    /// A [`FileError`]: [`BadMagic`](FileErrorKind::BadMagic), a map's
    /// table ([`WrongKind`](FileErrorKind::WrongKind)), a table of another
    /// graph ([`GraphHashMismatch`](FileErrorKind::GraphHashMismatch)), a
    /// symmetric landmark table ([`Symmetric`](FileErrorKind::Symmetric))
    /// or one of more landmarks than `alt:K` takes, or the first problem
    /// the kind's loader finds.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::graph::{CsrGraph, NodeId};
    /// use cairns::saved::FileErrorKind;
    /// use cairns::spec::{GraphEngine, GraphSearch};
    ///
    /// let g = CsrGraph::from_edges(3, &[(0, 1, 4.0), (1, 2, 1.0), (0, 2, 6.0)]).unwrap();
    /// let mut bytes = Vec::new();
    /// GraphEngine::new(g.clone(), GraphSearch::Hl).save(&mut bytes).unwrap();
    ///
    /// let engine = GraphEngine::load(g.clone(), &bytes[..]).unwrap();
    /// assert_eq!(engine.search(), GraphSearch::Hl);
    /// assert_eq!(engine.cost(NodeId(0), NodeId(2), &mut engine.cache()), Some(5.0));
    ///
    /// let other = CsrGraph::from_edges(3, &[(0, 1, 4.0), (1, 2, 1.0)]).unwrap();
    /// let err = GraphEngine::load(other, &bytes[..]).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::GraphHashMismatch { .. }));
    ///
    /// // Dijkstra builds nothing, so there is nothing to save.
    /// let err = GraphEngine::new(g, GraphSearch::Dijkstra).save(&mut Vec::new()).unwrap_err();
    /// assert_eq!(err.to_string(), "dijkstra builds no table to save");
    /// ```
    pub fn load(graph: CsrGraph, r: impl Read) -> Result<GraphEngine, FileError> {
        let t0 = Instant::now();
        let hash = graph_hash(&graph);
        let mut r = r;
        let magic = read_array::<8>(&mut r)?;
        let whole = (&magic[..]).chain(r);
        let (search, built) = match TableKind::of(magic) {
            Some(TableKind::Hierarchy) => (
                GraphSearch::Ch,
                Built::Hierarchy(ContractionHierarchy::load_for(whole, &graph, hash)?),
            ),
            Some(TableKind::HubLabels) => {
                let (ch, labels) = HubLabels::load_for(whole, &graph, hash)?;
                (GraphSearch::Hl, Built::Labels(ch, labels))
            }
            Some(TableKind::Landmarks) => {
                let table = load_landmarks(whole, &graph, hash)?;
                // A table of none (`place` found no node to put one on)
                // searches as `alt:1` would.
                let landmarks = table.landmark_count().max(1) as u8;
                (GraphSearch::Alt { landmarks }, Built::Landmarks(table))
            }
            Some(found) => return Err(FileErrorKind::WrongKind { found }.into()),
            None => return Err(FileErrorKind::BadMagic.into()),
        };
        Ok(GraphEngine {
            graph,
            search,
            built,
            preprocess_s: t0.elapsed().as_secs_f64(),
            loaded: true,
            idle: Arc::default(),
        })
    }

    /// Writes what the search built in its saved format ([`crate::saved`]),
    /// tagged with the graph's [`graph_hash`](crate::saved::graph_hash), for
    /// [`load`](Self::load): a `CAIRNSCH` file for `ch`, `CAIRNSHL` (the
    /// labels and their hierarchy) for `hl`, `CAIRNSLM` (a directed
    /// landmark table) for `alt:K`.
    ///
    /// # Errors
    ///
    /// Those of `w`, and one of kind
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) for a search that
    /// builds nothing (`dijkstra`, `bidijkstra`, `alt:K` on a graph without
    /// nodes), whose message says so.
    pub fn save(&self, w: impl Write) -> io::Result<()> {
        let hash = graph_hash(&self.graph);
        match &self.built {
            Built::Nothing | Built::Straight(_) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} builds no table to save", self.search),
            )),
            Built::Embedding(fastmap) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: a FastMap embedding is not saved; it is built again (3 Dijkstra searches a dimension, {} bytes)",
                    self.search,
                    fastmap.memory_bytes()
                ),
            )),
            Built::Hierarchy(ch) => ch.save(w, hash),
            Built::Landmarks(table) => table.save(w, hash),
            Built::Labels(ch, labels) => labels.save(w, ch, hash),
        }
    }

    /// The kind of table the engine holds (what [`save`](Self::save)
    /// writes), `None` when it holds none.
    pub fn table_kind(&self) -> Option<TableKind> {
        match &self.built {
            Built::Nothing | Built::Embedding(_) | Built::Straight(_) => None,
            Built::Hierarchy(_) => Some(TableKind::Hierarchy),
            Built::Landmarks(_) => Some(TableKind::Landmarks),
            Built::Labels(..) => Some(TableKind::HubLabels),
        }
    }

    /// What the engine's table holds beyond its kind and bytes, as `(label,
    /// count)` rows for reports: a hierarchy's `edges` and the `shortcuts`
    /// added while contracting, hub labels' `hubs` (label entries, both
    /// directions) after their hierarchy's, a landmark table's `landmarks`;
    /// none without a table.
    pub fn table_details(&self) -> Vec<(&'static str, u64)> {
        let hierarchy = |ch: &ContractionHierarchy| {
            [
                ("edges", ch.edge_count() as u64),
                ("shortcuts", ch.shortcut_count() as u64),
            ]
        };
        match &self.built {
            Built::Nothing | Built::Straight(_) => Vec::new(),
            Built::Embedding(fastmap) => vec![("dimensions", fastmap.dims() as u64)],
            Built::Hierarchy(ch) => hierarchy(ch).to_vec(),
            Built::Landmarks(table) => vec![("landmarks", table.landmark_count() as u64)],
            Built::Labels(ch, labels) => {
                let mut rows = hierarchy(ch).to_vec();
                rows.push(("hubs", labels.entry_count() as u64));
                rows
            }
        }
    }

    /// Whether what the search needs was read from a file
    /// ([`load`](Self::load)) rather than built.
    pub fn is_loaded(&self) -> bool {
        self.loaded
    }

    /// The graph searched.
    pub fn graph(&self) -> &CsrGraph {
        &self.graph
    }

    /// The search.
    pub fn search(&self) -> GraphSearch {
        self.search
    }

    /// The seconds spent building before the first query, or loading what
    /// it builds ([`load`](Self::load)); 0 for a search that builds
    /// nothing.
    pub fn preprocess_s(&self) -> f64 {
        self.preprocess_s
    }

    /// The bytes of what was built (0 for a search that builds nothing).
    pub fn table_bytes(&self) -> usize {
        match &self.built {
            Built::Nothing => 0,
            Built::Hierarchy(ch) => ch.memory_bytes(),
            Built::Landmarks(table) => table.memory_bytes(),
            Built::Labels(ch, labels) => ch.memory_bytes() + labels.memory_bytes(),
            Built::Embedding(fastmap) => fastmap.memory_bytes(),
            Built::Straight(straight) => straight.memory_bytes(),
        }
    }

    /// A new cache for this engine's queries (one per thread).
    pub fn cache(&self) -> GraphCache {
        GraphCache::default()
    }

    /// Runs `f` with a cache of the engine's (a new one when each of them
    /// is in use), which goes back to the engine after: for callers that
    /// answer a query a call and keep no cache (Python's
    /// `GraphEngine.cost`), so that a call does not allocate memory for
    /// every node of the graph. At most as many caches are kept as have
    /// been in use at once.
    pub fn with_cache<T>(&self, f: impl FnOnce(&mut GraphCache) -> T) -> T {
        let pooled = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut cache = pooled.unwrap_or_else(|| self.cache());
        let out = f(&mut cache);
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(cache);
        }
        out
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either is off the graph.
    pub fn cost(&self, start: NodeId, goal: NodeId, cache: &mut GraphCache) -> Option<f64> {
        match (&self.built, self.search) {
            (Built::Labels(_, labels), _) => labels.cost(start, goal),
            (Built::Hierarchy(ch), _) => ch.search_cost(start, goal, &mut cache.ch),
            (Built::Landmarks(table), _) => {
                BidirectionalAlt::new(&self.graph, table).search_cost(start, goal, &mut cache.two)
            }
            (Built::Nothing, GraphSearch::Bidijkstra) => {
                BidirectionalDijkstra::new(&self.graph).search_cost(start, goal, &mut cache.two)
            }
            (Built::Embedding(fastmap), _) => {
                AStar::new(&self.graph, fastmap).search_cost(start, goal, &mut cache.one)
            }
            (Built::Straight(straight), _) => {
                AStar::new(&self.graph, straight).search_cost(start, goal, &mut cache.one)
            }
            (Built::Nothing, _) => {
                Dijkstra::new(&self.graph).search_cost(start, goal, &mut cache.one)
            }
        }
    }

    /// A shortest path from `start` to `goal`: its nodes, start to goal, and
    /// its cost.
    pub fn path(&self, start: NodeId, goal: NodeId, cache: &mut GraphCache) -> Option<Path> {
        let mut nodes = Vec::new();
        if let Built::Labels(ch, _) = &self.built {
            let cost = ch.search_cost(start, goal, &mut cache.ch)?;
            return ch
                .path_into(&mut cache.ch, &mut nodes)
                .then_some(Path { nodes, cost });
        }
        let cost = self.cost(start, goal, cache)?;
        let found = match (&self.built, self.search) {
            (Built::Labels(ch, _) | Built::Hierarchy(ch), _) => {
                ch.path_into(&mut cache.ch, &mut nodes)
            }
            (Built::Landmarks(_), _) | (Built::Nothing, GraphSearch::Bidijkstra) => {
                cache.two.path_into(&mut nodes)
            }
            (Built::Nothing | Built::Embedding(_) | Built::Straight(_), _) => {
                cache.one.path_into(goal, &mut nodes)
            }
        };
        found.then_some(Path { nodes, cost })
    }

    /// The nodes the last query on `cache` settled (took off its OPEN sets
    /// for good); 0 for a hub label cost query, which settles none.
    pub fn settled(&self, cache: &GraphCache) -> u64 {
        match (&self.built, self.search) {
            (Built::Labels(..), _) => 0,
            (Built::Hierarchy(_), _) => cache.ch.settled(),
            (Built::Landmarks(_), _) | (Built::Nothing, GraphSearch::Bidijkstra) => {
                cache.two.stats().expanded
            }
            (Built::Nothing | Built::Embedding(_) | Built::Straight(_), _) => {
                cache.one.stats().expanded
            }
        }
    }
}

impl GraphEngine {
    /// The nodes the last query on `cache` searched, in id order: those it
    /// settled (on either side, for `bidijkstra` and `alt:K`), or for `ch`
    /// those its two upward searches reached; none for `hl`, whose cost
    /// query merges two labels. Scans the cache: meant for drawing a
    /// query (`cairns graph render`), not for hot loops.
    pub fn searched_nodes(&self, cache: &GraphCache) -> Vec<NodeId> {
        match (&self.built, self.search) {
            (Built::Labels(..), _) => Vec::new(),
            (Built::Hierarchy(ch), _) => ch.reached_nodes(&cache.ch),
            (Built::Landmarks(_), _) | (Built::Nothing, GraphSearch::Bidijkstra) => {
                cache.two.closed_nodes().collect()
            }
            (Built::Nothing | Built::Embedding(_) | Built::Straight(_), _) => {
                cache.one.closed_nodes().collect()
            }
        }
    }
}

/// The directed landmark table of `alt:K` on `graph`, saved with `hash`:
/// a symmetric one, or one of more landmarks than `alt:K` takes, is
/// refused, and a table of another graph is named as one.
fn load_landmarks(r: impl Read, graph: &CsrGraph, hash: u64) -> Result<LandmarkTable, FileError> {
    let table = LandmarkTable::load_for(r, graph, hash).map_err(|e| match *e.kind() {
        FileErrorKind::MapHashMismatch { expected, found } => {
            FileError::from(FileErrorKind::GraphHashMismatch { expected, found })
                .reading(TableKind::Landmarks)
        }
        _ => e,
    })?;
    let refuse = |kind: FileErrorKind| Err(FileError::from(kind).reading(TableKind::Landmarks));
    if table.directedness() != Directedness::Directed {
        return refuse(FileErrorKind::Symmetric);
    }
    let k = table.landmark_count();
    if k > MAX_LANDMARKS {
        return refuse(FileErrorKind::TooLarge {
            nodes: table.node_count() as u64,
            landmarks: k as u64,
        });
    }
    Ok(table)
}

impl GraphEngine {
    /// The costs from every one of `sources` to every one of `targets`, by
    /// row: the hierarchy's bucket method for `ch`, label merges for `hl`,
    /// one query a pair (on this thread) otherwise. Ids off the graph have
    /// no path.
    pub fn matrix(&self, sources: &[NodeId], targets: &[NodeId]) -> DistanceMatrix {
        match &self.built {
            Built::Hierarchy(ch) => ch.matrix(sources, targets),
            Built::Labels(_, labels) => labels.matrix(sources, targets),
            Built::Nothing | Built::Landmarks(_) | Built::Embedding(_) | Built::Straight(_) => {
                let mut cache = self.cache();
                let costs = sources
                    .iter()
                    .flat_map(|&s| targets.iter().map(move |&t| (s, t)))
                    .map(|(s, t)| self.cost(s, t, &mut cache).unwrap_or(f64::INFINITY))
                    .collect();
                DistanceMatrix::new(sources.len(), targets.len(), costs)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::search::bidirectional::testing::{directed_graph, path_cost};

    #[test]
    fn names_round_trip_and_unknown_ones_list_the_known() {
        for s in GraphSearch::ALL {
            assert_eq!(s.to_string().parse::<GraphSearch>(), Ok(s));
            assert_eq!(s.name().parse::<GraphSearch>(), Ok(s));
        }
        assert_eq!("alt:4".parse(), Ok(GraphSearch::Alt { landmarks: 4 }));
        assert_eq!(GraphSearch::Alt { landmarks: 4 }.to_string(), "alt:4");
        assert!("alt:0".parse::<GraphSearch>().is_err());
        let e = "chh".parse::<GraphSearch>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown graph search \"chh\" (expected dijkstra, astar, bidijkstra, alt, ch, hl, astar/fastmap)"
        );
        assert_eq!(
            "astar/fastmap".parse(),
            Ok(GraphSearch::AstarFastmap { dims: 16 })
        );
        assert_eq!(
            "astar/fastmap:3".parse(),
            Ok(GraphSearch::AstarFastmap { dims: 3 })
        );
        for bad in ["astar/fastmap:0", "astar/fastmap:65", "astar/fastmap:x"] {
            let e = bad.parse::<GraphSearch>().unwrap_err().to_string();
            assert!(e.contains("from 1 to 64"), "{bad}: {e}");
        }
    }

    /// What each search searched, as drawn: the start and goal of a query
    /// with a path among them (one of them for a bidirectional search,
    /// whose sides may meet first; none for `hl`), the nodes a one-way search
    /// expanded and its goal, at most as many as a bidirectional one settled
    /// (a node both sides settled is one), and for Dijkstra exactly the
    /// nodes no further from the start than the goal.
    #[test]
    fn searched_nodes_are_what_each_search_settled() {
        let arcs = "a 0 1 1\na 1 2 1\na 2 3 1\na 0 4 5\na 4 3 5\na 3 5 1\n";
        let g = crate::graph::parse_arcs(arcs.as_bytes()).unwrap();
        for search in GraphSearch::ALL {
            let engine = GraphEngine::new(g.clone(), search);
            let mut cache = engine.cache();
            assert_eq!(engine.cost(NodeId(0), NodeId(3), &mut cache), Some(3.0));
            let nodes = engine.searched_nodes(&cache);
            assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{search}: {nodes:?}");
            if search == GraphSearch::Hl {
                assert!(nodes.is_empty());
                continue;
            }
            let ends = [NodeId(0), NodeId(3)].map(|v| nodes.contains(&v));
            let settled = engine.settled(&cache) as usize;
            match search {
                // The hierarchy's upward searches start at both ends.
                GraphSearch::Ch => assert_eq!(ends, [true, true], "{search}: {nodes:?}"),
                // The sides may meet before one settles its root.
                GraphSearch::Bidijkstra | GraphSearch::Alt { .. } => {
                    assert!(ends.contains(&true), "{search}: {nodes:?}");
                    assert!(nodes.len() <= settled, "{search}: {nodes:?}, {settled}");
                }
                // The goal is taken off OPEN but not expanded.
                _ => {
                    assert_eq!(ends, [true, true], "{search}: {nodes:?}");
                    assert_eq!(nodes.len(), settled + 1, "{search}: {nodes:?}");
                }
            }
            if search == GraphSearch::Dijkstra {
                assert_eq!(nodes, [NodeId(0), NodeId(1), NodeId(2), NodeId(3)]);
            }
        }
        // A query off the graph leaves nothing searched.
        let engine = GraphEngine::new(g, GraphSearch::Bidijkstra);
        let mut cache = engine.cache();
        assert_eq!(engine.cost(NodeId(0), NodeId(9), &mut cache), None);
        assert!(engine.searched_nodes(&cache).is_empty());
    }

    #[test]
    fn astar_takes_the_straight_line_only_with_a_point_a_node() {
        let g = crate::graph::testing::corridor(4);
        let line: Vec<[f64; 2]> = (0..5).map(|i| [f64::from(i), 0.0]).collect();
        let on_line = Coordinates::Planar(line.clone());
        let astar = GraphEngine::with_coordinates(g.clone(), &on_line, GraphSearch::Astar).unwrap();
        let mut cache = astar.cache();
        assert_eq!(astar.cost(NodeId(0), NodeId(4), &mut cache), Some(4.0));
        // The straight line is exact on a line: only the nodes of the path
        // before the goal are expanded.
        assert_eq!(astar.settled(&cache), 4);
        assert_eq!(astar.table_bytes(), 5 * 16);
        let blind = GraphEngine::new(g.clone(), GraphSearch::Astar);
        assert_eq!(blind.cost(NodeId(0), NodeId(4), &mut cache), Some(4.0));
        assert_eq!(blind.table_bytes(), 0);
        let short = Coordinates::Planar(line[..4].to_vec());
        let e = GraphEngine::with_coordinates(g, &short, GraphSearch::Astar).unwrap_err();
        assert_eq!(
            e.to_string(),
            "astar needs one finite point a node: 4 points for 5 nodes, or a point not finite"
        );
    }

    #[test]
    fn lent_caches_go_back_and_only_as_many_as_were_in_use_at_once() {
        let g = crate::graph::testing::corridor(10);
        let engine = GraphEngine::new(g, GraphSearch::Ch);
        let idle = |e: &GraphEngine| e.idle.lock().unwrap().len();
        assert_eq!(idle(&engine), 0);
        let cost = |c: &mut GraphCache| engine.cost(NodeId(0), NodeId(10), c);
        assert_eq!(engine.with_cache(cost), Some(10.0));
        assert_eq!(engine.with_cache(cost), Some(10.0));
        assert_eq!(idle(&engine), 1, "one cache, lent twice");
        let nested = engine.with_cache(|outer| (cost(outer), engine.with_cache(cost)));
        assert_eq!(nested, (Some(10.0), Some(10.0)));
        assert_eq!(idle(&engine), 2, "two in use at once");
    }

    #[test]
    fn engines_without_a_table_say_so_and_a_maps_table_is_refused() {
        let g = crate::graph::testing::corridor(4);
        for search in [GraphSearch::Dijkstra, GraphSearch::Bidijkstra] {
            assert_eq!(search.table_kind(), None);
            let engine = GraphEngine::new(g.clone(), search);
            assert_eq!(engine.table_kind(), None);
            let err = engine.save(&mut Vec::new()).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            assert_eq!(err.to_string(), format!("{search} builds no table to save"));
        }
        let (map, hash) = crate::saved::testing::small_map();
        let mut bytes = Vec::new();
        crate::search::JumpTable::build(&map)
            .save(&mut bytes, hash)
            .unwrap();
        let err = GraphEngine::load(g.clone(), &bytes[..]).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::WrongKind {
                found: TableKind::Jumps
            }
        );
        let err = GraphEngine::load(g.clone(), &b"CAIRNS"[..]).unwrap_err();
        assert_eq!(err.kind(), &FileErrorKind::Truncated);
        // A symmetric landmark table, and a directed one of another graph.
        let symmetric = LandmarkTable::build(&g, &[NodeId(0)], Directedness::Symmetric);
        let mut bytes = Vec::new();
        symmetric.save(&mut bytes, graph_hash(&g)).unwrap();
        let err = GraphEngine::load(g.clone(), &bytes[..]).unwrap_err();
        assert_eq!(err.kind(), &FileErrorKind::Symmetric);
        let mut bytes = Vec::new();
        GraphEngine::new(g.clone(), GraphSearch::Alt { landmarks: 2 })
            .save(&mut bytes)
            .unwrap();
        let other = crate::graph::testing::corridor(5);
        let err = GraphEngine::load(other, &bytes[..]).unwrap_err();
        assert!(
            matches!(err.kind(), FileErrorKind::GraphHashMismatch { .. }),
            "{err}"
        );
        assert!(
            err.to_string()
                .starts_with("landmark table: built for another graph"),
            "{err}"
        );
    }

    proptest! {
        /// A saved engine loads back with its search, and answers every
        /// pair as the built one: the same cost, path and matrix.
        #[test]
        fn saved_engines_answer_as_built(g in directed_graph(12)) {
            let n = g.node_count() as u32;
            let ids: Vec<NodeId> = (0..n).map(NodeId).collect();
            for search in [GraphSearch::Ch, GraphSearch::Hl, GraphSearch::Alt { landmarks: 3 }] {
                let built = GraphEngine::new(g.clone(), search);
                let mut bytes = Vec::new();
                built.save(&mut bytes).unwrap();
                prop_assert_eq!(TableKind::of_bytes(&bytes), search.table_kind());
                let loaded = GraphEngine::load(g.clone(), &bytes[..]).unwrap();
                prop_assert!(loaded.is_loaded() && !built.is_loaded());
                prop_assert_eq!(loaded.search().name(), search.name());
                prop_assert_eq!(loaded.table_kind(), search.table_kind());
                prop_assert_eq!(loaded.table_bytes(), built.table_bytes());
                let (mut a, mut b) = (built.cache(), loaded.cache());
                for &s in &ids {
                    for &t in &ids {
                        prop_assert_eq!(loaded.path(s, t, &mut b), built.path(s, t, &mut a));
                        prop_assert_eq!(loaded.cost(s, t, &mut b), built.cost(s, t, &mut a));
                    }
                }
                let (got, want) = (loaded.matrix(&ids, &ids), built.matrix(&ids, &ids));
                prop_assert_eq!(got.as_slice(), want.as_slice());
            }
        }

        /// Every graph search answers every pair as Dijkstra does, with a
        /// path along the graph's edges of that cost.
        #[test]
        fn every_search_answers_as_dijkstra(g in directed_graph(12)) {
            let n = g.node_count() as u32;
            let mut searches = GraphSearch::ALL.to_vec();
            searches.push(GraphSearch::Alt { landmarks: 2 });
            searches.push(GraphSearch::AstarFastmap { dims: 2 });
            let mut engines: Vec<GraphEngine> =
                searches.iter().map(|&s| GraphEngine::new(g.clone(), s)).collect();
            // astar over points of a 3-wide lattice, and over longitudes
            // and latitudes.
            let points: Vec<[f64; 2]> = (0..n).map(|i| [f64::from(i % 3), f64::from(i / 3)]).collect();
            for at in [Coordinates::Planar(points.clone()), Coordinates::LonLat(points)] {
                engines.push(GraphEngine::with_coordinates(g.clone(), &at, GraphSearch::Astar).unwrap());
            }
            let mut caches: Vec<GraphCache> = engines.iter().map(GraphEngine::cache).collect();
            let mut reference = SearchCache::new();
            let ids: Vec<NodeId> = (0..n).map(NodeId).collect();
            let matrices: Vec<DistanceMatrix> = engines.iter().map(|e| e.matrix(&ids, &ids)).collect();
            for s in 0..n {
                Dijkstra::new(&g).all(NodeId(s), &mut reference);
                for t in 0..n {
                    let want = reference.g(NodeId(t));
                    for m in &matrices {
                        prop_assert_eq!(m.get(s as usize, t as usize), want);
                    }
                    for (engine, cache) in engines.iter().zip(&mut caches) {
                        let (s, t) = (NodeId(s), NodeId(t));
                        prop_assert_eq!(engine.cost(s, t, cache), want, "{}", engine.search());
                        let path = engine.path(s, t, cache);
                        prop_assert_eq!(path.as_ref().map(|p| p.cost), want);
                        if let Some(p) = path {
                            prop_assert_eq!(p.nodes.first(), Some(&s));
                            prop_assert_eq!(p.nodes.last(), Some(&t));
                            prop_assert_eq!(path_cost(&g, &p.nodes), want);
                        }
                    }
                }
            }
        }
    }
}
