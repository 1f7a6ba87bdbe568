//! Road graph files: the 9th DIMACS challenge's `.gr` and `.co`, arc lists
//! (`a FROM TO WEIGHT`, as the `fast_paths` crate reads them) and PACE 2016
//! `.gr` graphs, read into a [`CsrGraph`].
//!
//! | format | header | a line | ids |
//! |---|---|---|---|
//! | [`GraphFormat::Dimacs`] | `p sp N M` | `a U V W`: an arc `U -> V` of weight `W` | `1..=N` |
//! | [`GraphFormat::Arcs`] | none | `a U V W` | from 0; the node count is the largest id plus one |
//! | [`GraphFormat::Pace`] | `p tw N M` | `U V`: an undirected edge, two arcs | `1..=N` |
//!
//! In every format lines starting with `c` are comments and blank lines are
//! skipped. Node `k` of a 1-based file is [`NodeId`]`(k - 1)`; weights are
//! numbers (integers in the published files) that must be finite and
//! non-negative. PACE graphs carry no weights: [`parse_graph`] gives every
//! edge weight 1, [`parse_pace_with`] asks the caller for each.
//!
//! [`parse_graph`] and [`read_graph`] tell the format from the first line
//! that is not a comment (a `p sp` or `p tw` header, or an `a` line), so the
//! files' shared `.gr` extension does not matter. Compressed input (xz,
//! gzip, bzip2, zstd, told by its first bytes) is refused
//! ([`ParseErrorKind::Compressed`]): the library does not decompress.
//! OpenStreetMap PBF ([`GraphFormat::Osm`]), told by its first bytes (and,
//! for [`read_graph`], by a `.pbf` name), is read by `graph::osm` with the
//! `osm` feature and refused without it ([`ParseErrorKind::OsmDisabled`]).
//!
//! # Errors
//!
//! Nothing here panics on its input. Every error is a [`ParseError`] that
//! names the line (and the file, for the `read_` functions) and what is
//! wrong: a line with too few or too many fields
//! ([`Fields`](ParseErrorKind::Fields)), an id that is not a number or is
//! out of range ([`NodeOutOfRange`](ParseErrorKind::NodeOutOfRange)), a
//! weight that is negative or not finite
//! ([`BadWeight`](ParseErrorKind::BadWeight)), a header whose counts the
//! file contradicts ([`CountMismatch`](ParseErrorKind::CountMismatch), on
//! the last line), a missing or repeated header, an unknown line. A file
//! may declare or imply at most [`MAX_GRAPH_NODES`] nodes, and at most
//! twice its edges plus [`ISOLATED_NODES`]
//! ([`SparseNodes`](ParseErrorKind::SparseNodes)), so that a short file
//! cannot make the reader or a search allocate gigabytes (the header
//! `p sp 268435455 0`, 17 bytes, took 9.4 GB and 21 s in `cairns graph
//! path` before).
//!
//! ```
//! use cairns::graph::{Graph, NodeId, parse_graph};
//!
//! let text = "c a triangle\np sp 3 3\na 1 2 5\na 2 3 1\na 3 1 2\n";
//! let graph = parse_graph(text.as_bytes())?;
//! assert_eq!((graph.node_count(), graph.edge_count()), (3, 3));
//! assert_eq!(graph.successors(NodeId(0)).collect::<Vec<_>>(), [(NodeId(1), 5.0)]);
//!
//! let e = parse_graph("p sp 3 1\na 1 4 5\n".as_bytes()).unwrap_err();
//! assert_eq!(e.to_string(), "line 2: node 4 is out of range (ids 1 to 3)");
//! # Ok::<(), cairns::graph::ParseError>(())
//! ```

use std::io::BufRead;
use std::path::Path;

use super::{CsrGraph, NodeId};
use crate::parse::{LineReader, ParseError, ParseErrorKind, excerpt, load, whole_number};

/// The most nodes a graph file may declare or imply: 2^28 (268 million,
/// ten times the DIMACS USA graph).
pub const MAX_GRAPH_NODES: u64 = 1 << 28;

/// How many nodes beyond twice its edges a graph file may have: 2^20. A
/// node no edge touches is isolated, and every node costs memory in the
/// graph and in every search cache, so a file of a few bytes
/// (`p sp 268435455 0`, or one arc to node 268435454) would otherwise
/// make the reader and the searches allocate gigabytes
/// ([`SparseNodes`](ParseErrorKind::SparseNodes)).
pub const ISOLATED_NODES: u64 = 1 << 20;

/// The most nodes a graph with `edges` edges may have ([`ISOLATED_NODES`]).
fn most_nodes(edges: u64) -> u64 {
    edges.saturating_mul(2).saturating_add(ISOLATED_NODES)
}

/// Refuses `nodes` nodes for `edges` edges above [`most_nodes`], on line
/// `number`.
fn check_sparse(number: usize, nodes: u64, edges: u64) -> Result<(), ParseError> {
    let max = most_nodes(edges);
    if nodes > max {
        return Err(ParseError::new(
            number,
            ParseErrorKind::SparseNodes { nodes, edges, max },
        ));
    }
    Ok(())
}

/// The longest line the readers take, in bytes.
const MAX_GRAPH_LINE: usize = 4096;

/// The formats [`parse_graph`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GraphFormat {
    /// The 9th DIMACS challenge's shortest path `.gr`: `p sp N M`, then `M`
    /// lines `a U V W` (directed arcs), ids from 1.
    Dimacs,
    /// A list of `a FROM TO WEIGHT` arcs with ids from 0 and no header (the
    /// `fast_paths` crate's test maps).
    Arcs,
    /// PACE 2016's `.gr` (tree width track): `p tw N M`, then `M` lines
    /// `U V` (undirected, unweighted edges), ids from 1.
    Pace,
    /// An OpenStreetMap PBF extract (`.osm.pbf`), read with the car
    /// profile of `graph::osm` (the `osm` feature; without it such a file
    /// is refused, [`ParseErrorKind::OsmDisabled`]). Ids are the graph's
    /// dense ones, from 0, in the order of the nodes' OSM ids.
    Osm,
}

impl GraphFormat {
    /// The id the format gives the first node: 1 in DIMACS and PACE files,
    /// 0 in arc lists. A node's [`NodeId`] is its id in the file minus this.
    ///
    /// [`NodeId`]: crate::graph::NodeId
    pub fn first_id(self) -> u32 {
        match self {
            GraphFormat::Dimacs | GraphFormat::Pace => 1,
            GraphFormat::Arcs | GraphFormat::Osm => 0,
        }
    }

    /// The format of a file whose first line that is not a comment is
    /// `line`, if it is one of these.
    fn detect(line: &str) -> Option<GraphFormat> {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("p"), Some("sp")) => Some(GraphFormat::Dimacs),
            (Some("p"), Some("tw")) => Some(GraphFormat::Pace),
            (Some("a"), _) => Some(GraphFormat::Arcs),
            _ => None,
        }
    }
}

impl std::fmt::Display for GraphFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GraphFormat::Dimacs => "DIMACS",
            GraphFormat::Arcs => "arc list",
            GraphFormat::Pace => "PACE",
            GraphFormat::Osm => "OSM PBF",
        })
    }
}

/// Parses a road graph in any of the [`GraphFormat`]s, told from its first
/// line that is not a comment; PACE edges weigh 1.
///
/// # Errors
///
/// As the [module](self#errors) says; a first line that is none of the
/// formats' is [`ParseErrorKind::UnknownFormat`], an input with no such
/// line [`ParseErrorKind::Empty`].
pub fn parse_graph(reader: impl BufRead) -> Result<CsrGraph, ParseError> {
    Ok(parse_graph_format(reader)?.0)
}

/// As [`parse_graph`], also saying which format the input was.
///
/// # Errors
///
/// As [`parse_graph`].
pub fn parse_graph_format(reader: impl BufRead) -> Result<(CsrGraph, GraphFormat), ParseError> {
    let read = parse_road_graph(reader)?;
    Ok((read.graph, read.format))
}

/// The graph of any [`GraphFormat`], told by its first bytes (PBF) or its
/// first line that is not a comment, with an extract's places.
fn parse_road_graph(mut reader: impl BufRead) -> Result<RoadGraph, ParseError> {
    let head = reader.fill_buf().map_err(|e| ParseError::io(e, None))?;
    if is_pbf(head) {
        return osm_graph(reader);
    }
    let mut lines = Lines::new(reader)?;
    let Some((number, line)) = lines.next_record()? else {
        return Err(ParseError::new(
            lines.number().max(1),
            ParseErrorKind::Empty,
        ));
    };
    let format = GraphFormat::detect(&line).ok_or_else(|| {
        ParseError::new(
            number,
            ParseErrorKind::UnknownFormat {
                text: excerpt(&line),
            },
        )
    })?;
    let first = Some((number, line));
    let graph = match format {
        GraphFormat::Dimacs => dimacs(lines, first)?,
        GraphFormat::Arcs => arcs(lines, first)?,
        GraphFormat::Pace => pace(lines, first, &mut |_, _| 1.0)?,
        // `detect` reads text lines and never gives `Osm` (PBF is told by
        // its first bytes above).
        GraphFormat::Osm => {
            return Err(ParseError::new(
                number,
                ParseErrorKind::UnknownFormat {
                    text: excerpt(&first.map(|f| f.1).unwrap_or_default()),
                },
            ));
        }
    };
    Ok(RoadGraph {
        graph,
        format,
        lon_lat: None,
    })
}

/// Whether `head`, the first bytes of a file, start an OpenStreetMap PBF
/// file: a blob header length, then the header's first field, its type
/// `OSMHeader` (field 1, a string of 9 bytes: `0A 09`).
pub(crate) fn is_pbf(head: &[u8]) -> bool {
    head.get(4..15) == Some(b"\x0a\x09OSMHeader")
}

/// Whether `path` is named as a PBF file (`.pbf`, so `.osm.pbf` too).
fn pbf_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pbf"))
}

/// The road graph of an OpenStreetMap PBF file, with the `osm` feature.
#[cfg(feature = "osm")]
fn osm_graph(reader: impl BufRead) -> Result<RoadGraph, ParseError> {
    let osm = super::osm::parse_osm(reader)?;
    Ok(RoadGraph {
        graph: osm.graph,
        format: GraphFormat::Osm,
        lon_lat: Some(osm.coordinates),
    })
}

/// Without the `osm` feature a PBF file is refused.
#[cfg(not(feature = "osm"))]
fn osm_graph(reader: impl BufRead) -> Result<RoadGraph, ParseError> {
    drop(reader);
    Err(ParseError::new(1, ParseErrorKind::OsmDisabled))
}

/// Reads a road graph file in any of the [`GraphFormat`]s (see
/// [`parse_graph`]); a file named `.pbf` (`.osm.pbf`) is read as
/// OpenStreetMap PBF whatever its first bytes, so that a truncated or
/// corrupt one is refused as PBF.
///
/// # Errors
///
/// As [`parse_graph`], naming the file ([`ParseError::path`]); a file that
/// cannot be opened or read is [`ParseErrorKind::Io`].
pub fn read_graph(path: &Path) -> Result<CsrGraph, ParseError> {
    Ok(read_graph_format(path)?.0)
}

/// As [`read_graph`], also saying which format the file was (and so where
/// its ids start, [`GraphFormat::first_id`]).
///
/// # Errors
///
/// As [`read_graph`].
pub fn read_graph_format(path: &Path) -> Result<(CsrGraph, GraphFormat), ParseError> {
    let file = read_road_graph(path)?;
    Ok((file.graph, file.format))
}

/// A road graph file as [`read_road_graph`] reads it: the graph, the
/// file's format and, where the file says where its nodes lie, their
/// places.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RoadGraph {
    /// The graph, nodes numbered from 0.
    pub graph: CsrGraph,
    /// The file's format (and so where its ids start).
    pub format: GraphFormat,
    /// Each node's `[longitude, latitude]` in degrees, for an
    /// OpenStreetMap extract; `None` for the text formats, which carry no
    /// places (a DIMACS `.co` file is read apart: [`read_coordinates`]).
    pub lon_lat: Option<Vec<[f64; 2]>>,
}

/// As [`read_graph_format`], keeping the nodes' longitudes and latitudes
/// of an OpenStreetMap extract, read in the same pass.
///
/// # Errors
///
/// As [`read_graph`].
pub fn read_road_graph(path: &Path) -> Result<RoadGraph, ParseError> {
    if pbf_name(path) {
        return load(path, osm_graph);
    }
    load(path, parse_road_graph)
}

/// Parses a 9th DIMACS challenge `.gr` file: comments (`c`), one header
/// `p sp N M`, then `M` arcs `a U V W` with `1 <= U, V <= N`.
///
/// # Errors
///
/// As the [module](self#errors) says; an arc before the header is
/// [`ParseErrorKind::MissingHeader`].
pub fn parse_dimacs(reader: impl BufRead) -> Result<CsrGraph, ParseError> {
    dimacs(Lines::new(reader)?, None)
}

/// Parses an arc list: lines `a FROM TO WEIGHT` with ids from 0 and no
/// header; the graph has one node more than the largest id.
///
/// # Errors
///
/// As the [module](self#errors) says.
pub fn parse_arcs(reader: impl BufRead) -> Result<CsrGraph, ParseError> {
    arcs(Lines::new(reader)?, None)
}

/// Parses a PACE 2016 `.gr` file (`p tw N M`, then `M` edges `U V`) into an
/// undirected graph whose edge `{u, v}` weighs `weight(u, v)` both ways
/// (the ids as [`NodeId`]s, from 0), as given in the file's order.
///
/// ```
/// use cairns::graph::{Graph, NodeId, parse_pace_with};
///
/// let text = "p tw 3 2\n1 2\n2 3\n";
/// let g = parse_pace_with(text.as_bytes(), |u, v| f64::from(u.0 + v.0))?;
/// assert_eq!(g.successors(NodeId(2)).collect::<Vec<_>>(), [(NodeId(1), 3.0)]);
/// # Ok::<(), cairns::graph::ParseError>(())
/// ```
///
/// # Errors
///
/// As the [module](self#errors) says; a weight that `weight` gives negative
/// or not finite is [`ParseErrorKind::BadWeight`] on the edge's line.
pub fn parse_pace_with(
    reader: impl BufRead, mut weight: impl FnMut(NodeId, NodeId) -> f64,
) -> Result<CsrGraph, ParseError> {
    pace(Lines::new(reader)?, None, &mut weight)
}

/// Parses a 9th DIMACS challenge coordinate file (`.co`): comments, an
/// optional header `p aux sp co N`, then one line `v ID X Y` per node of a
/// graph of `nodes` nodes (ids from 1). Returns `[x, y]` by [`NodeId`].
///
/// ```
/// use cairns::graph::parse_coordinates;
///
/// let text = "p aux sp co 2\nv 2 -73530767 41085396\nv 1 -73530538 41086098\n";
/// let xy = parse_coordinates(text.as_bytes(), 2)?;
/// assert_eq!(xy, [[-73530538.0, 41086098.0], [-73530767.0, 41085396.0]]);
/// # Ok::<(), cairns::graph::ParseError>(())
/// ```
///
/// # Errors
///
/// As the [module](self#errors) says; a node given twice is
/// [`ParseErrorKind::DuplicateNode`], a node given none (or a header that
/// disagrees with `nodes`) [`ParseErrorKind::CountMismatch`].
pub fn parse_coordinates(reader: impl BufRead, nodes: usize) -> Result<Vec<[f64; 2]>, ParseError> {
    let mut lines = Lines::new(reader)?;
    let n = nodes as u64;
    let mut xy = vec![[f64::NAN; 2]; nodes];
    let mut found = 0u64;
    let mut header = false;
    while let Some((number, line)) = lines.next_record()? {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "p" => {
                if header {
                    return Err(duplicate_header(number));
                }
                header = true;
                if words.len() != 5 || words[1..4] != ["aux", "sp", "co"] {
                    return Err(bad_header(number, &line));
                }
                let declared = whole_number::<u64>(number, "node count", words[4])?;
                if declared != n {
                    return Err(ParseError::new(
                        number,
                        ParseErrorKind::CountMismatch {
                            what: "coordinates",
                            declared,
                            found: n,
                        },
                    ));
                }
            }
            "v" => {
                fields(number, "coordinate", &words, 4)?;
                let id = node_field(number, words[1], 1, n)?;
                let slot = &mut xy[id as usize];
                if !slot[0].is_nan() {
                    return Err(ParseError::new(
                        number,
                        ParseErrorKind::DuplicateNode {
                            node: u64::from(id) + 1,
                        },
                    ));
                }
                *slot = [
                    coordinate(number, "x", words[2])?,
                    coordinate(number, "y", words[3])?,
                ];
                found += 1;
            }
            _ => return Err(unknown(number, &line, "`c`, `p aux sp co N` or `v ID X Y`")),
        }
    }
    if found != n {
        return Err(ParseError::new(
            lines.number().max(1),
            ParseErrorKind::CountMismatch {
                what: "coordinates",
                declared: n,
                found,
            },
        ));
    }
    Ok(xy)
}

/// Reads a DIMACS coordinate file (see [`parse_coordinates`]).
///
/// # Errors
///
/// As [`parse_coordinates`], naming the file.
pub fn read_coordinates(path: &Path, nodes: usize) -> Result<Vec<[f64; 2]>, ParseError> {
    load(path, |reader| parse_coordinates(reader, nodes))
}

/// The lines of a graph file that are records: not blank, not comments.
struct Lines<R> {
    inner: LineReader<R>,
}

impl<R: BufRead> Lines<R> {
    /// Refuses compressed input by its first bytes, then reads lines.
    fn new(mut reader: R) -> Result<Self, ParseError> {
        let head = reader.fill_buf().map_err(|e| ParseError::io(e, None))?;
        let compressed = [
            (&b"\xFD7zXZ\x00"[..], "xz"),
            (b"\x1F\x8B", "gzip"),
            (b"BZh", "bzip2"),
            (b"\x28\xB5\x2F\xFD", "zstd"),
        ];
        if let Some(&(_, format)) = compressed.iter().find(|(magic, _)| head.starts_with(magic)) {
            return Err(ParseError::new(1, ParseErrorKind::Compressed { format }));
        }
        Ok(Lines {
            inner: LineReader::new(reader, MAX_GRAPH_LINE),
        })
    }

    /// The next line that is neither blank nor a comment, trimmed, with its
    /// number.
    fn next_record(&mut self) -> Result<Option<(usize, String)>, ParseError> {
        while let Some((number, line)) = self.inner.next_line()? {
            let line = line.trim();
            if line.is_empty() || line.starts_with('c') {
                continue;
            }
            return Ok(Some((number, line.to_owned())));
        }
        Ok(None)
    }

    /// The number of the last line read.
    fn number(&self) -> usize {
        self.inner.number()
    }
}

/// A record already read (the first, read to tell the format) and then the
/// rest of them.
fn records<R: BufRead>(
    lines: &mut Lines<R>, first: &mut Option<(usize, String)>,
) -> Result<Option<(usize, String)>, ParseError> {
    match first.take() {
        Some(record) => Ok(Some(record)),
        None => lines.next_record(),
    }
}

/// A `p KIND N M` header: the node and edge counts, checked against
/// [`MAX_GRAPH_NODES`] and [`most_nodes`].
fn header(number: usize, words: &[&str]) -> Result<(u64, u64), ParseError> {
    if words.len() != 4 {
        return Err(ParseError::new(
            number,
            ParseErrorKind::Fields {
                record: "problem",
                expected: 4,
                found: words.len(),
            },
        ));
    }
    let nodes = whole_number::<u64>(number, "node count", words[2])?;
    let edges = whole_number::<u64>(number, "edge count", words[3])?;
    if nodes > MAX_GRAPH_NODES {
        return Err(ParseError::new(
            number,
            ParseErrorKind::TooManyNodes {
                nodes,
                max: MAX_GRAPH_NODES,
            },
        ));
    }
    check_sparse(number, nodes, edges)?;
    Ok((nodes, edges))
}

fn dimacs<R: BufRead>(
    mut lines: Lines<R>, mut first: Option<(usize, String)>,
) -> Result<CsrGraph, ParseError> {
    let mut declared: Option<(u64, u64)> = None;
    let mut edges = Vec::new();
    while let Some((number, line)) = records(&mut lines, &mut first)? {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "p" => {
                if declared.is_some() {
                    return Err(duplicate_header(number));
                }
                if words.get(1) != Some(&"sp") {
                    return Err(bad_header(number, &line));
                }
                let (n, m) = header(number, &words)?;
                // Room for the arcs declared, within reason for a header
                // that may lie.
                edges.reserve(m.min(1 << 24) as usize);
                declared = Some((n, m));
            }
            "a" => {
                let Some((n, _)) = declared else {
                    return Err(ParseError::new(
                        number,
                        ParseErrorKind::MissingHeader {
                            expected: "p sp N M",
                        },
                    ));
                };
                edges.push(arc(number, &words, 1, n)?);
            }
            _ => return Err(unknown(number, &line, "`c`, `p sp N M` or `a U V W`")),
        }
    }
    let Some((n, m)) = declared else {
        return Err(ParseError::new(
            lines.number().max(1),
            ParseErrorKind::MissingHeader {
                expected: "p sp N M",
            },
        ));
    };
    check_count(&lines, "arcs", m, edges.len())?;
    build(&lines, n, &edges)
}

fn arcs<R: BufRead>(
    mut lines: Lines<R>, mut first: Option<(usize, String)>,
) -> Result<CsrGraph, ParseError> {
    let mut edges = Vec::new();
    let mut nodes = 0u64;
    while let Some((number, line)) = records(&mut lines, &mut first)? {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] != "a" {
            return Err(unknown(number, &line, "`a FROM TO WEIGHT`"));
        }
        // Any id below the limit; the node count follows from the largest.
        let (u, v, w) = arc(number, &words, 0, MAX_GRAPH_NODES)?;
        nodes = nodes.max(u64::from(u.max(v)) + 1);
        edges.push((u, v, w));
    }
    build(&lines, nodes, &edges)
}

fn pace<R: BufRead>(
    mut lines: Lines<R>, mut first: Option<(usize, String)>,
    weight: &mut dyn FnMut(NodeId, NodeId) -> f64,
) -> Result<CsrGraph, ParseError> {
    let mut declared: Option<(u64, u64)> = None;
    let mut edges = Vec::new();
    let mut found = 0usize;
    while let Some((number, line)) = records(&mut lines, &mut first)? {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "p" {
            if declared.is_some() {
                return Err(duplicate_header(number));
            }
            if words.get(1) != Some(&"tw") {
                return Err(bad_header(number, &line));
            }
            let (n, m) = header(number, &words)?;
            edges.reserve(2 * m.min(1 << 24) as usize);
            declared = Some((n, m));
            continue;
        }
        let Some((n, _)) = declared else {
            return Err(ParseError::new(
                number,
                ParseErrorKind::MissingHeader {
                    expected: "p tw N M",
                },
            ));
        };
        if !words[0].starts_with(|c: char| c.is_ascii_digit()) {
            return Err(unknown(number, &line, "`c`, `p tw N M` or `U V`"));
        }
        fields(number, "edge", &words, 2)?;
        let u = node_field(number, words[0], 1, n)?;
        let v = node_field(number, words[1], 1, n)?;
        let w = weight(NodeId(u), NodeId(v));
        if !(w.is_finite() && w >= 0.0) {
            return Err(ParseError::new(
                number,
                ParseErrorKind::BadWeight {
                    text: w.to_string(),
                },
            ));
        }
        edges.push((u, v, w));
        edges.push((v, u, w));
        found += 1;
    }
    let Some((n, m)) = declared else {
        return Err(ParseError::new(
            lines.number().max(1),
            ParseErrorKind::MissingHeader {
                expected: "p tw N M",
            },
        ));
    };
    check_count(&lines, "edges", m, found)?;
    build(&lines, n, &edges)
}

/// An arc line `a U V W` with ids from `first` on `nodes` nodes, as 0-based
/// ids and a checked weight.
fn arc(
    number: usize, words: &[&str], first: u64, nodes: u64,
) -> Result<(u32, u32, f64), ParseError> {
    fields(number, "arc", words, 4)?;
    let u = node_field(number, words[1], first, nodes)?;
    let v = node_field(number, words[2], first, nodes)?;
    let bad = || {
        ParseError::new(
            number,
            ParseErrorKind::BadWeight {
                text: excerpt(words[3]),
            },
        )
    };
    let w: f64 = words[3].parse().map_err(|_| bad())?;
    if !(w.is_finite() && w >= 0.0) {
        return Err(bad());
    }
    Ok((u, v, w))
}

/// Checks that a record has `expected` fields.
fn fields(
    number: usize, record: &'static str, words: &[&str], expected: usize,
) -> Result<(), ParseError> {
    if words.len() == expected {
        Ok(())
    } else {
        Err(ParseError::new(
            number,
            ParseErrorKind::Fields {
                record,
                expected,
                found: words.len(),
            },
        ))
    }
}

/// A node id in `first..first + nodes`, as a 0-based id.
fn node_field(number: usize, text: &str, first: u64, nodes: u64) -> Result<u32, ParseError> {
    let id = whole_number::<u64>(number, "node id", text)?;
    if id < first || id - first >= nodes {
        return Err(ParseError::new(
            number,
            ParseErrorKind::NodeOutOfRange {
                node: id,
                first,
                nodes,
            },
        ));
    }
    // Below MAX_GRAPH_NODES, so within u32.
    Ok((id - first) as u32)
}

/// A finite coordinate.
fn coordinate(number: usize, field: &'static str, text: &str) -> Result<f64, ParseError> {
    text.parse::<f64>()
        .ok()
        .filter(|c| c.is_finite())
        .ok_or_else(|| ParseError::bad_number(number, field, text))
}

fn check_count<R: BufRead>(
    lines: &Lines<R>, what: &'static str, declared: u64, found: usize,
) -> Result<(), ParseError> {
    if declared == found as u64 {
        return Ok(());
    }
    Err(ParseError::new(
        lines.number().max(1),
        ParseErrorKind::CountMismatch {
            what,
            declared,
            found: found as u64,
        },
    ))
}

/// The graph of the edges read, which the readers have checked.
fn build<R: BufRead>(
    lines: &Lines<R>, nodes: u64, edges: &[(u32, u32, f64)],
) -> Result<CsrGraph, ParseError> {
    // Every id and weight was checked line by line; what is left is a node
    // count far above the edges (an arc list's largest id), and a count of
    // edges beyond `u32` offsets, reported on the last line.
    check_sparse(lines.number().max(1), nodes, edges.len() as u64)?;
    CsrGraph::from_edges(nodes as u32, edges).map_err(|_| {
        ParseError::new(
            lines.number().max(1),
            ParseErrorKind::TooManyNodes {
                nodes: nodes.max(edges.len() as u64),
                max: u64::from(u32::MAX - 1),
            },
        )
    })
}

fn duplicate_header(number: usize) -> ParseError {
    ParseError::new(number, ParseErrorKind::DuplicateHeader { field: "p" })
}

fn bad_header(number: usize, line: &str) -> ParseError {
    ParseError::new(
        number,
        ParseErrorKind::BadHeader {
            text: excerpt(line),
        },
    )
}

fn unknown(number: usize, line: &str, expected: &'static str) -> ParseError {
    ParseError::new(
        number,
        ParseErrorKind::UnknownRecord {
            text: excerpt(line),
            expected,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::movingai::test_data::assert_fails;

    fn edges(g: &CsrGraph) -> Vec<(u32, u32, f64)> {
        (0..g.node_count() as u32)
            .flat_map(|u| g.successors(NodeId(u)).map(move |(v, w)| (u, v.0, w)))
            .collect()
    }

    #[test]
    fn each_format_reads_and_is_told_apart() {
        let dimacs = "c x\n\np sp 3 2\nc y\na 1 2 5\na 3 1 0\n";
        let (g, format) = parse_graph_format(dimacs.as_bytes()).unwrap();
        assert_eq!(format, GraphFormat::Dimacs);
        assert_eq!(edges(&g), [(0, 1, 5.0), (2, 0, 0.0)]);
        assert_eq!(g.node_count(), 3);

        let arcs = "a 0 4 7\r\na 4 0 2.5\n";
        let (g, format) = parse_graph_format(arcs.as_bytes()).unwrap();
        assert_eq!(format, GraphFormat::Arcs);
        assert_eq!(edges(&g), [(0, 4, 7.0), (4, 0, 2.5)]);
        assert_eq!(g.node_count(), 5);
        assert_eq!(edges(&parse_arcs(arcs.as_bytes()).unwrap()), edges(&g));

        let pace = "c hi\np tw 4 2\n1 2\n4 2\n";
        let (g, format) = parse_graph_format(pace.as_bytes()).unwrap();
        assert_eq!(format, GraphFormat::Pace);
        assert_eq!(
            edges(&g),
            [(0, 1, 1.0), (1, 0, 1.0), (1, 3, 1.0), (3, 1, 1.0)]
        );
        assert!(g.unit_costs());
        let g = parse_pace_with(pace.as_bytes(), |u, v| f64::from(10 * u.0 + v.0)).unwrap();
        assert_eq!(
            edges(&g),
            [(0, 1, 1.0), (1, 0, 1.0), (1, 3, 31.0), (3, 1, 31.0)]
        );
        assert_eq!(
            edges(&parse_dimacs(dimacs.as_bytes()).unwrap()),
            [(0, 1, 5.0), (2, 0, 0.0)]
        );
    }

    #[test]
    fn malformed_dimacs_names_the_line() {
        let p = |text: &str| parse_graph(text.as_bytes());
        assert_fails(
            p("p sp 2 1\na 1 2\n"),
            2,
            ParseErrorKind::Fields {
                record: "arc",
                expected: 4,
                found: 3,
            },
            "line 2: arc line has 3 fields, expected 4",
        );
        assert_fails(
            p("p sp 2 1\na 1 2 3 4\n"),
            2,
            ParseErrorKind::Fields {
                record: "arc",
                expected: 4,
                found: 5,
            },
            "line 2: arc line has 5 fields, expected 4",
        );
        assert_fails(
            p("p sp 2 1\na 0 2 3\n"),
            2,
            ParseErrorKind::NodeOutOfRange {
                node: 0,
                first: 1,
                nodes: 2,
            },
            "line 2: node 0 is out of range (ids 1 to 2)",
        );
        assert_fails(
            p("p sp 2 1\n\na 1 2 -3\n"),
            3,
            ParseErrorKind::BadWeight { text: "-3".into() },
            "line 3: weight \"-3\" is not a finite non-negative number",
        );
        for weight in ["inf", "NaN", "x", "1e999"] {
            let e = p(&format!("p sp 2 1\na 1 2 {weight}\n")).unwrap_err();
            assert_eq!(e.line(), Some(2), "{weight}");
            assert!(matches!(e.kind(), ParseErrorKind::BadWeight { .. }), "{e}");
        }
        assert_fails(
            p("p sp 2 3\na 1 2 1\na 2 1 1\n"),
            3,
            ParseErrorKind::CountMismatch {
                what: "arcs",
                declared: 3,
                found: 2,
            },
            "line 3: header declares 3 arcs, the file has 2",
        );
    }

    #[test]
    fn malformed_dimacs_headers_name_the_line() {
        let p = |text: &str| parse_graph(text.as_bytes());
        assert_fails(
            p("p sp 2 1\np sp 2 1\n"),
            2,
            ParseErrorKind::DuplicateHeader { field: "p" },
            "line 2: duplicate header line 'p'",
        );
        assert_fails(
            p("p sp 2 1\nq 1 2 3\n"),
            2,
            ParseErrorKind::UnknownRecord {
                text: "q 1 2 3".into(),
                expected: "`c`, `p sp N M` or `a U V W`",
            },
            "line 2: unknown line \"q 1 2 3\" (expected `c`, `p sp N M` or `a U V W`)",
        );
        assert_fails(
            parse_dimacs("c\na 1 2 3\n".as_bytes()),
            2,
            ParseErrorKind::MissingHeader {
                expected: "p sp N M",
            },
            "line 2: missing header line 'p sp N M'",
        );
        assert_fails(
            p("p sp -2 1\n"),
            1,
            ParseErrorKind::BadNumber {
                field: "node count",
                text: "-2".into(),
            },
            "line 1: bad node count \"-2\"",
        );
        assert_fails(
            p("p sp 99999999999 1\n"),
            1,
            ParseErrorKind::TooManyNodes {
                nodes: 99_999_999_999,
                max: MAX_GRAPH_NODES,
            },
            "line 1: 99999999999 nodes is more than the 268435456 a graph file may have",
        );
        assert_fails(
            p("p sp 2\n"),
            1,
            ParseErrorKind::Fields {
                record: "problem",
                expected: 4,
                found: 3,
            },
            "line 1: problem line has 3 fields, expected 4",
        );
    }

    #[test]
    fn malformed_arcs_and_pace_name_the_line() {
        let p = |text: &str| parse_graph(text.as_bytes());
        assert_fails(
            p("a 0 1 1\nb 1 2 3\n"),
            2,
            ParseErrorKind::UnknownRecord {
                text: "b 1 2 3".into(),
                expected: "`a FROM TO WEIGHT`",
            },
            "line 2: unknown line \"b 1 2 3\" (expected `a FROM TO WEIGHT`)",
        );
        assert_fails(
            p("a 0 1 1\na 1 268435456 3\n"),
            2,
            ParseErrorKind::NodeOutOfRange {
                node: 268_435_456,
                first: 0,
                nodes: MAX_GRAPH_NODES,
            },
            "line 2: node 268435456 is out of range (ids 0 to 268435455)",
        );
        assert_fails(
            p("p tw 3 1\n1 4\n"),
            2,
            ParseErrorKind::NodeOutOfRange {
                node: 4,
                first: 1,
                nodes: 3,
            },
            "line 2: node 4 is out of range (ids 1 to 3)",
        );
        assert_fails(
            p("p tw 3 1\n1\n"),
            2,
            ParseErrorKind::Fields {
                record: "edge",
                expected: 2,
                found: 1,
            },
            "line 2: edge line has 1 fields, expected 2",
        );
        assert_fails(
            p("p tw 3 1\n1 2\n2 3\n"),
            3,
            ParseErrorKind::CountMismatch {
                what: "edges",
                declared: 1,
                found: 2,
            },
            "line 3: header declares 1 edges, the file has 2",
        );
        assert_fails(
            parse_pace_with("p tw 3 1\n1 2\n".as_bytes(), |_, _| -1.0),
            2,
            ParseErrorKind::BadWeight { text: "-1".into() },
            "line 2: weight \"-1\" is not a finite non-negative number",
        );
        assert_fails(
            p("c only\n\n"),
            2,
            ParseErrorKind::Empty,
            "line 2: file is empty",
        );
        assert_fails(
            p("p xy 3 1\n"),
            1,
            ParseErrorKind::UnknownFormat {
                text: "p xy 3 1".into(),
            },
            "line 1: unknown graph format \"p xy 3 1\" (expected a DIMACS `p sp`, a PACE `p tw` or an `a FROM TO WEIGHT` line)",
        );
        assert_fails(
            parse_graph(&b"\xFD7zXZ\x00\x00"[..]),
            1,
            ParseErrorKind::Compressed { format: "xz" },
            "line 1: the input is xz-compressed: decompress it first",
        );
        let e = parse_graph(&b"\x1F\x8B\x08"[..]).unwrap_err();
        assert_eq!(e.kind(), &ParseErrorKind::Compressed { format: "gzip" });
    }

    #[test]
    fn coordinates_read_and_refuse() {
        let text = "c\np aux sp co 3\nv 3 5 6\nv 1 1 2\nv 2 3 4\n";
        let xy = parse_coordinates(text.as_bytes(), 3).unwrap();
        assert_eq!(xy, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]);
        let c = |text: &str| parse_coordinates(text.as_bytes(), 2);
        assert_fails(
            c("v 1 1 2\nv 1 1 2\n"),
            2,
            ParseErrorKind::DuplicateNode { node: 1 },
            "line 2: node 1 already has coordinates",
        );
        assert_fails(
            c("v 1 1 2\n"),
            1,
            ParseErrorKind::CountMismatch {
                what: "coordinates",
                declared: 2,
                found: 1,
            },
            "line 1: header declares 2 coordinates, the file has 1",
        );
        assert_fails(
            c("v 1 1 nan\n"),
            1,
            ParseErrorKind::BadNumber {
                field: "y",
                text: "nan".into(),
            },
            "line 1: bad y \"nan\"",
        );
        assert_fails(
            c("v 3 1 1\n"),
            1,
            ParseErrorKind::NodeOutOfRange {
                node: 3,
                first: 1,
                nodes: 2,
            },
            "line 1: node 3 is out of range (ids 1 to 2)",
        );
        assert_fails(
            c("p aux sp co 5\n"),
            1,
            ParseErrorKind::CountMismatch {
                what: "coordinates",
                declared: 5,
                found: 2,
            },
            "line 1: header declares 5 coordinates, the file has 2",
        );
    }

    #[test]
    fn file_errors_name_the_file() {
        let missing = Path::new("/nonexistent/cairns/x.gr");
        let e = read_graph(missing).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/nonexistent/cairns/x.gr: cannot read the file"
        );
        let dir = std::env::temp_dir().join(format!("cairns-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.gr");
        std::fs::write(&bad, "p sp 2 1\na 1 3 1\n").unwrap();
        let e = read_graph(&bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: line 2: node 3 is out of range (ids 1 to 2)",
                bad.display()
            )
        );
        assert_eq!(e.path(), Some(bad.as_path()));
        std::fs::remove_dir_all(&dir).unwrap();
        let xz = cairns_testdata::road_file("pace16/NY.gr.xz");
        let e = read_graph(&xz).unwrap_err();
        assert_eq!(
            (e.kind(), e.line(), e.path()),
            (
                &ParseErrorKind::Compressed { format: "xz" },
                Some(1),
                Some(xz.as_path())
            )
        );
    }

    /// One row of the road data's README table: file, nodes, arcs, and
    /// whether the arcs are undirected edges (PACE: two arcs each).
    fn readme_rows() -> Vec<(String, usize, usize, bool)> {
        let readme = std::fs::read_to_string(cairns_testdata::roads_dir().join("README.md"))
            .expect("the road data's README.md");
        let number = |cell: &str| cell.trim().replace(',', "").parse::<usize>();
        readme
            .lines()
            .filter_map(|line| {
                let cells: Vec<&str> = line.split('|').collect();
                let file = cells.get(1)?.trim().trim_matches('`');
                let nodes = number(cells.get(2)?).ok()?;
                let arcs_cell = cells.get(3)?.trim();
                let undirected = arcs_cell.ends_with("undirected");
                let arcs = number(arcs_cell.trim_end_matches("undirected")).ok()?;
                Some((file.to_owned(), nodes, arcs, undirected))
            })
            .collect()
    }

    /// Every graph file of `../shared/data/roads` (`.gr`, `.gr.xz`) reads
    /// with the node and arc counts its README's table gives, and the table
    /// names no graph file that is not there. Guards the readers against
    /// the real files (the PACE ones through `xz -dc`).
    #[test]
    #[expect(
        clippy::case_sensitive_file_extension_comparisons,
        reason = "the data's file names, as its README writes them"
    )]
    fn every_road_file_has_its_readme_counts() {
        let rows = readme_rows();
        assert!(rows.len() >= 9, "the README table parsed to {rows:?}");
        let root = cairns_testdata::roads_dir();
        let files: Vec<String> = cairns_testdata::road_files()
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|p| p.ends_with(".gr") || p.ends_with(".gr.xz"))
            .collect();
        assert!(files.len() >= 9, "{files:?}");
        for (file, ..) in &rows {
            assert!(
                files.contains(file),
                "{file} in the README but not in {}",
                root.display()
            );
        }
        for file in &files {
            let &(_, nodes, arcs, undirected) = rows
                .iter()
                .find(|r| &r.0 == file)
                .unwrap_or_else(|| panic!("{file} has no row in the README table"));
            let g = crate::graph::testing::road_graph(file);
            let want_arcs = if undirected { 2 * arcs } else { arcs };
            assert_eq!(
                (g.node_count(), g.edge_count()),
                (nodes, want_arcs),
                "{file}: nodes and arcs against the README"
            );
            assert!(
                (0..g.node_count() as u32).any(|u| g.successors(NodeId(u)).next().is_some()),
                "{file} has arcs"
            );
        }
    }

    mod no_panic {
        use proptest::prelude::*;

        use super::super::{parse_coordinates, parse_graph};

        /// Lines made of the formats' words, so that the parsers get past
        /// their first checks.
        fn line() -> impl Strategy<Value = String> {
            let word = prop_oneof![
                Just("a".to_owned()),
                Just("p".to_owned()),
                Just("sp".to_owned()),
                Just("tw".to_owned()),
                Just("v".to_owned()),
                Just("c".to_owned()),
                Just("-1".to_owned()),
                Just("inf".to_owned()),
                (0u64..6).prop_map(|n| n.to_string()),
                any::<u64>().prop_map(|n| n.to_string()),
                "[ -~]{0,4}",
            ];
            prop::collection::vec(word, 0..6).prop_map(|w| w.join(" "))
        }

        proptest! {
            #[test]
            fn graph_parsers_never_panic(lines in prop::collection::vec(line(), 0..8)) {
                let text = lines.join("\n");
                if let Ok(g) = parse_graph(text.as_bytes()) {
                    prop_assert!(g.node_count() as u64 <= super::MAX_GRAPH_NODES);
                }
                let _ = parse_coordinates(text.as_bytes(), 3);
            }

            #[test]
            fn bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
                let _ = parse_graph(&bytes[..]);
            }
        }
    }
}
