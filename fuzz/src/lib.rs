//! The checks behind the fuzz targets, one function per target.
//!
//! Each function takes any bytes and must not panic on them; it panics (a
//! finding) only when an invariant below fails. It returns what the library
//! returned, so that `crates/cairns/tests/integration/fuzz_corpus.rs`, which
//! includes this file with `#[path]`, can replay the committed corpus on the
//! stable toolchain and check the known-bad inputs' errors. The `osm`
//! target's checks need the `osm` feature (of this crate, on by default, and
//! of `cairns` in the stable test).

#[cfg(feature = "osm")]
use cairns::graph::osm::{OsmGraph, arc_weight, parse_osm};
use cairns::graph::{CsrGraph, Graph, GraphFormat, NodeId, parse_graph_format};
use cairns::grid::{Grid, GridGraph, Neighborhood};
use cairns::heuristic::Octile;
use cairns::landmarks::LandmarkTable;
use cairns::movingai::{
    ParseError, ScenarioFile, parse_map, parse_map_from, parse_scen, parse_scen_from, write_map,
};
use cairns::saved::{FileError, grid_hash};
use cairns::search::{AStar, BiCache, BidirectionalDijkstra, Dijkstra, Search, SearchCache};

/// The longest error message any input may produce: errors quote at most
/// 60 characters of input.
pub const MAX_MESSAGE: usize = 300;

/// Checks what every parse error of in-memory input must satisfy: it names
/// a line (only I/O errors may not, and reading a slice does not fail) and
/// its message is short whatever the input.
fn check_parse_error(e: &ParseError) {
    let message = e.to_string();
    assert!(
        message.len() <= MAX_MESSAGE,
        "a message of {} bytes: {message:.300}",
        message.len()
    );
    assert!(e.line().is_some(), "no line: {message}");
}

/// The outcome of a parse as comparable data: the value or the error's
/// kind and line.
fn outcome<T: PartialEq + Clone, K: PartialEq + Clone>(
    r: &Result<T, ParseError>, f: impl Fn(&ParseError) -> K,
) -> Result<T, K> {
    match r {
        Ok(value) => Ok(value.clone()),
        Err(e) => Err(f(e)),
    }
}

/// Valid UTF-8 parses to the same value or the same error (kind and line)
/// from a `&str` with `parse`, called `name`, as from a reader (`result`).
fn check_same_from_str<T: PartialEq + Clone + std::fmt::Debug>(
    data: &[u8], result: &Result<T, ParseError>, parse: impl Fn(&str) -> Result<T, ParseError>,
    name: &str,
) {
    if let Ok(text) = std::str::from_utf8(data) {
        let key = |e: &ParseError| (e.kind().clone(), e.line());
        assert_eq!(
            outcome(&parse(text), key),
            outcome(result, key),
            "{name} and {name}_from differ"
        );
    }
}

/// `.map` parser: any bytes give a grid or an error naming a line with a
/// short message; a grid written back with `write_map` parses to itself;
/// valid UTF-8 parses the same from a `&str` as from a reader.
///
/// # Panics
///
/// When one of these fails.
pub fn map(data: &[u8]) -> Result<Grid, ParseError> {
    let result = parse_map_from(data);
    match &result {
        Ok(grid) => {
            let again = parse_map(&write_map(grid));
            assert_eq!(
                again.ok().as_ref(),
                Some(grid),
                "write_map does not round-trip"
            );
        }
        Err(e) => check_parse_error(e),
    }
    check_same_from_str(data, &result, parse_map, "parse_map");
    result
}

/// `.scen` parser: any bytes give scenarios or an error naming a line with a
/// short message; scenarios come in file order, on lines of the input, with
/// finite non-negative lengths; valid UTF-8 parses the same from a `&str`.
///
/// # Panics
///
/// When one of these fails.
pub fn scen(data: &[u8]) -> Result<ScenarioFile, ParseError> {
    let result = parse_scen_from(data);
    match &result {
        Ok(file) => {
            let lines = data.split(|&b| b == b'\n').count();
            for pair in file.scenarios.windows(2) {
                assert!(pair[0].line < pair[1].line, "scenarios out of order");
            }
            for s in &file.scenarios {
                assert!(s.line >= 2 && s.line <= lines, "line {} of {lines}", s.line);
                assert!(s.optimal.is_finite() && s.optimal >= 0.0, "{}", s.optimal);
            }
        }
        Err(e) => check_parse_error(e),
    }
    check_same_from_str(data, &result, parse_scen, "parse_scen");
    result
}

/// The map the landmark target loads tables for (4x3, 10 free cells).
pub const LANDMARK_MAP: &str = "
    ....
    .@@.
    ....
";

/// Landmark-file loader: the bytes are loaded as a table for
/// [`LANDMARK_MAP`] under 4-way and under 8-way movement (in that order).
/// Any bytes give a table or an error; a table covers the map's nodes and
/// saving it gives a file that loads back to the same table.
///
/// # Panics
///
/// When one of these fails.
pub fn landmarks(data: &[u8]) -> [Result<LandmarkTable, FileError>; 2] {
    let grid = Grid::from_ascii(LANDMARK_MAP).expect("the landmark map parses");
    [Neighborhood::Four, Neighborhood::Octile].map(|neighborhood| {
        let hash = grid_hash(&grid, neighborhood);
        let graph = GridGraph::new(grid.clone(), neighborhood);
        let result = LandmarkTable::load_for(data, &graph, hash);
        match &result {
            Ok(table) => {
                assert_eq!(table.node_count(), graph.node_bound());
                let mut saved = Vec::new();
                table.save(&mut saved, hash).expect("saving to a Vec");
                let again = LandmarkTable::load_for(&saved[..], &graph, hash);
                assert_eq!(again.ok().as_ref(), Some(table), "save does not round-trip");
            }
            Err(e) => assert!(e.to_string().len() <= MAX_MESSAGE, "{e}"),
        }
        result
    })
}

/// The most cells the search target searches, to keep each run fast.
pub const MAX_SEARCH_CELLS: usize = 1 << 12;

/// A search on a parsed map: the first four bytes pick the start and the
/// goal (two little-endian `u16`s, modulo the cell count), the rest is a
/// `.map` file. On an octile graph of that map, A* with the octile
/// heuristic and Dijkstra agree on whether a path exists and on its cost,
/// and A*'s path runs from the start to the goal by moves of the graph
/// whose costs add up to the path's cost.
///
/// Returns the two costs, `None` for input that is not a map of at most
/// [`MAX_SEARCH_CELLS`] cells.
///
/// # Panics
///
/// When one of these fails.
pub fn search(data: &[u8]) -> Option<(Option<f64>, Option<f64>)> {
    let (head, text) = data.split_at_checked(4)?;
    let grid = parse_map_from(text).ok()?;
    if grid.len() > MAX_SEARCH_CELLS {
        return None;
    }
    let cells = grid.len() as u32;
    let pick = |lo: u8, hi: u8| NodeId(u32::from(u16::from_le_bytes([lo, hi])) % cells);
    let (start, goal) = (pick(head[0], head[1]), pick(head[2], head[3]));
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let mut cache = SearchCache::new();
    let path = AStar::new(&graph, Octile::new(&graph)).search(start, goal, &mut cache);
    let dijkstra = Dijkstra::new(&graph).search_cost(start, goal, &mut cache);
    let astar = path.as_ref().map(|p| p.cost);
    match (astar, dijkstra) {
        (Some(a), Some(d)) => assert!((a - d).abs() <= 1e-9 * d.max(1.0), "A* {a}, Dijkstra {d}"),
        (None, None) => {}
        _ => panic!("A* {astar:?}, Dijkstra {dijkstra:?} from {start:?} to {goal:?}"),
    }
    if let Some(path) = &path {
        assert_eq!(path.nodes.first(), Some(&start));
        assert_eq!(path.nodes.last(), Some(&goal));
        let mut cost = 0.0;
        for pair in path.nodes.windows(2) {
            let step = graph
                .successors(pair[0])
                .find(|&(v, _)| v == pair[1])
                .unwrap_or_else(|| panic!("{:?} -> {:?} is not a move", pair[0], pair[1]));
            cost += step.1;
        }
        assert!(
            (cost - path.cost).abs() <= 1e-9 * cost.max(1.0),
            "{cost} vs {}",
            path.cost
        );
    }
    Some((astar, dijkstra))
}

/// The most nodes of a parsed graph the graph target searches, to keep each
/// run fast.
pub const MAX_GRAPH_SEARCH_NODES: usize = 1 << 12;

/// Road graph reader ([`parse_graph_format`], which tells DIMACS, PACE and
/// arc lists apart): any bytes give a graph or an error naming a line with
/// a short message. A graph's arcs end at its nodes and cost a finite
/// non-negative amount; on a graph of at most
/// [`MAX_GRAPH_SEARCH_NODES`] nodes, Dijkstra from the first node and
/// bidirectional Dijkstra agree on every node's distance.
///
/// # Panics
///
/// When one of these fails.
pub fn graph(data: &[u8]) -> Result<(CsrGraph, GraphFormat), ParseError> {
    let result = parse_graph_format(data);
    match &result {
        Ok((g, _)) => {
            let n = g.node_count();
            let mut arcs = 0;
            for u in 0..n as u32 {
                for (v, w) in g.successors(NodeId(u)) {
                    assert!(v.index() < n, "an arc {u} -> {v:?} beyond {n} nodes");
                    assert!(w.is_finite() && w >= 0.0, "an arc of weight {w}");
                    arcs += 1;
                }
            }
            assert_eq!(arcs, g.edge_count(), "edge_count");
            if (1..=MAX_GRAPH_SEARCH_NODES).contains(&n) {
                let mut cache = SearchCache::new();
                Dijkstra::new(g).all(NodeId(0), &mut cache);
                let one: Vec<Option<f64>> = (0..n as u32).map(|v| cache.g(NodeId(v))).collect();
                let bi = BidirectionalDijkstra::new(g);
                let mut bicache = BiCache::new();
                for (v, want) in one.iter().enumerate() {
                    let got = bi.search_cost(NodeId(0), NodeId(v as u32), &mut bicache);
                    let same = match (got, *want) {
                        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * b.max(1.0),
                        (a, b) => a == b,
                    };
                    assert!(same, "to {v}: bidirectional {got:?}, Dijkstra {want:?}");
                }
            }
        }
        Err(e) => check_parse_error(e),
    }
    result
}

/// OpenStreetMap PBF reader ([`parse_osm`], the `osm` feature): any bytes give a road graph or
/// an error that names a blob and its byte with a short message. A graph
/// has a coordinate and an OSM id for each node, the ids increasing, every
/// node on some arc, every arc's weight the [`arc_weight`] of its ends; the
/// same bytes read through [`parse_graph_format`] (told PBF by the first
/// bytes) give the same graph or error; on a graph of at most
/// [`MAX_GRAPH_SEARCH_NODES`] nodes the checks of [`graph`] hold.
///
/// # Panics
///
/// When one of these fails.
#[cfg(feature = "osm")]
pub fn osm(data: &[u8]) -> Result<OsmGraph, ParseError> {
    let result = parse_osm(data);
    match &result {
        Ok(osm) => {
            let g = &osm.graph;
            let n = g.node_count();
            assert_eq!((osm.coordinates.len(), osm.osm_ids.len()), (n, n));
            assert!(
                osm.osm_ids.windows(2).all(|w| w[0] < w[1]),
                "OSM ids out of order"
            );
            let mut touched = vec![false; n];
            for u in 0..n as u32 {
                for (v, w) in g.successors(NodeId(u)) {
                    let (a, b) = (osm.coordinates[u as usize], osm.coordinates[v.index()]);
                    assert_eq!(w, arc_weight(a, b), "{u} -> {v:?}");
                    touched[u as usize] = true;
                    touched[v.index()] = true;
                }
            }
            assert!(touched.iter().all(|&t| t), "a node on no arc");
        }
        Err(e) => {
            check_parse_error(e);
            assert!(e.byte().is_some(), "no byte: {e}");
        }
    }
    if data.get(4..15) == Some(b"\x0a\x09OSMHeader") {
        let key = |e: &ParseError| (e.kind().clone(), e.line(), e.byte());
        let via = parse_graph_format(data);
        assert_eq!(
            via.as_ref().map(|(g, f)| (g, *f)).map_err(key),
            result
                .as_ref()
                .map(|o| (&o.graph, GraphFormat::Osm))
                .map_err(key),
            "parse_graph_format differs from parse_osm"
        );
        if let Ok((g, _)) = via
            && g.node_count() <= MAX_GRAPH_SEARCH_NODES
        {
            let mut text = Vec::new();
            for u in 0..g.node_count() as u32 {
                for (v, w) in g.successors(NodeId(u)) {
                    text.extend(format!("a {u} {} {w:e}\n", v.0).bytes());
                }
            }
            let _ = graph(&text);
        }
    }
    result
}
