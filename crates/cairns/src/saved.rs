//! Saved tables: one file format family for every kind of table a search
//! builds before its first query (landmark tables, compressed landmark
//! tables, jump tables; a road graph's contraction hierarchy and hub
//! labels).
//!
//! Every saved table starts with the same header: eight magic bytes that
//! name its [`TableKind`], a `u32` format version and the `u64` hash of the
//! map it was built for ([`grid_hash`], or [`graph_hash`] for a road
//! graph); it ends with the FNV-1a 64-bit
//! checksum of every byte before it. Every reader checks the header, the
//! sizes before anything is allocated for them, and the checksum, and fails
//! with one error type, [`FileError`], whose [`kind`](FileError::kind) says
//! what is wrong. [`crate::spec::Table::load_for`] reads a table of any kind by
//! its magic bytes.
//!
//! ```
//! use cairns::grid::{Grid, GridGraph, Neighborhood};
//! use cairns::saved::{FileErrorKind, TableKind, grid_hash};
//! use cairns::search::JumpTable;
//!
//! let grid = Grid::from_ascii("...\n.@.").unwrap();
//! let hash = grid_hash(&grid, Neighborhood::Octile);
//! let graph = GridGraph::new(grid, Neighborhood::Octile);
//! let mut bytes = Vec::new();
//! JumpTable::build(&graph).save(&mut bytes, hash).unwrap();
//! assert_eq!(TableKind::of_bytes(&bytes), Some(TableKind::Jumps));
//!
//! // A jump table handed to the landmark loader says what it is.
//! let err = cairns::landmarks::LandmarkTable::load(&bytes[..], hash).unwrap_err();
//! assert!(matches!(err.kind(), FileErrorKind::WrongKind { found: TableKind::Jumps }));
//! assert_eq!(err.to_string(), "landmark table: the file holds a jump table (`cairns table build MAP --search jps+`)");
//! ```

#![doc = include_str!("saved_formats.md")]

use std::fmt;
use std::io::{self, Read, Write};

use crate::graph::{Graph, NodeId};
use crate::grid::{Grid, Neighborhood};

/// The kinds of table a search builds before its first query, each saved
/// in a file known by its first eight bytes.
///
/// A new kind of precomputed data is one variant here (its name, magic and
/// what writes it, in [`TableKind::info`]) and one of
/// [`Table`](crate::spec::Table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TableKind {
    /// A [`LandmarkTable`](crate::landmarks::LandmarkTable), `CAIRNSLM`.
    Landmarks,
    /// A [`CompressedTable`](crate::landmarks::research::CompressedTable),
    /// `CAIRNSLC`.
    CompressedLandmarks,
    /// A JPS+ [`JumpTable`](crate::search::JumpTable), `CAIRNSJP`.
    Jumps,
    /// A [`SubgoalGraph`](crate::search::SubgoalGraph), `CAIRNSSG`.
    Subgoals,
    /// The boxes of [`GoalBounds`](crate::search::GoalBounds) (goal
    /// bounding on JPS+), `CAIRNSGB`.
    Bounds,
    /// A [`ContractionHierarchy`](crate::search::ContractionHierarchy) of
    /// a road graph, `CAIRNSCH`.
    Hierarchy,
    /// [`HubLabels`](crate::search::HubLabels) of a road graph with the
    /// hierarchy they came from (which finds their paths), `CAIRNSHL`.
    HubLabels,
}

/// What a [`TableKind`] is: one row per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableInfo {
    /// The short name, as reports print it (`landmarks`, `jumps`).
    pub name: &'static str,
    /// What it is, in words (`landmark table`).
    pub noun: &'static str,
    /// The first eight bytes of its file.
    pub magic: [u8; 8],
    /// The command that writes one.
    pub command: &'static str,
    /// The option older command lines loaded it with (`jump-table` for
    /// `--jump-table FILE`), kept as an alias of `--table`.
    pub old_option: Option<&'static str>,
    /// The command older command lines built it with (`jump-table` for
    /// `cairns jump-table build MAP -o FILE`), kept as a spelling of
    /// `cairns table build` with the one search that uses the kind.
    pub old_command: Option<&'static str>,
    /// Whether it is a road graph's table, tagged with a [`graph_hash`]
    /// (a file for another graph is a
    /// [`GraphHashMismatch`](FileErrorKind::GraphHashMismatch)), rather than
    /// a map's.
    pub for_graphs: bool,
}

impl TableKind {
    /// Every kind.
    pub const ALL: [TableKind; 7] = [
        TableKind::Landmarks,
        TableKind::CompressedLandmarks,
        TableKind::Jumps,
        TableKind::Subgoals,
        TableKind::Bounds,
        TableKind::Hierarchy,
        TableKind::HubLabels,
    ];

    /// The kind's row: name, noun, magic and command.
    pub const fn info(self) -> TableInfo {
        match self {
            TableKind::Landmarks => TableInfo {
                name: "landmarks",
                noun: "landmark table",
                magic: *b"CAIRNSLM",
                command: "cairns landmarks build MAP -k K",
                old_option: Some("landmarks"),
                old_command: None,
                for_graphs: false,
            },
            TableKind::CompressedLandmarks => TableInfo {
                name: "compressed-landmarks",
                noun: "compressed landmark table",
                magic: *b"CAIRNSLC",
                command: "cairns landmarks build MAP -k K --keep M",
                old_option: None,
                old_command: None,
                for_graphs: false,
            },
            TableKind::Jumps => TableInfo {
                name: "jumps",
                noun: "jump table",
                magic: *b"CAIRNSJP",
                command: "cairns table build MAP --search jps+",
                old_option: Some("jump-table"),
                old_command: Some("jump-table"),
                for_graphs: false,
            },
            TableKind::Subgoals => TableInfo {
                name: "subgoals",
                noun: "subgoal graph",
                magic: *b"CAIRNSSG",
                command: "cairns table build MAP --search sub",
                old_option: None,
                old_command: None,
                for_graphs: false,
            },
            TableKind::Bounds => TableInfo {
                name: "bounds",
                noun: "goal-bounding table",
                magic: *b"CAIRNSGB",
                command: "cairns table build MAP --search jps+bb",
                old_option: None,
                old_command: None,
                for_graphs: false,
            },
            TableKind::Hierarchy => TableInfo {
                name: "hierarchy",
                noun: "contraction hierarchy",
                magic: *b"CAIRNSCH",
                command: "cairns graph build GRAPH --search ch",
                old_option: None,
                old_command: None,
                for_graphs: true,
            },
            TableKind::HubLabels => TableInfo {
                name: "hub-labels",
                noun: "hub label table",
                magic: *b"CAIRNSHL",
                command: "cairns graph build GRAPH --search hl",
                old_option: None,
                old_command: None,
                for_graphs: true,
            },
        }
    }

    /// The short name (`landmarks`, `jumps`).
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The first eight bytes of a file of this kind.
    pub const fn magic(self) -> [u8; 8] {
        self.info().magic
    }

    /// The kind of a file that starts with `magic`, if cairns writes it.
    pub fn of(magic: [u8; 8]) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.magic() == magic)
    }

    /// The kind of a saved table held in `bytes`, by its first eight.
    pub fn of_bytes(bytes: &[u8]) -> Option<TableKind> {
        bytes.first_chunk::<8>().and_then(|m| TableKind::of(*m))
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().noun)
    }
}

/// A saved table could not be loaded.
///
/// The [`kind`](FileError::kind) says what is wrong and
/// [`table`](FileError::table) which kind of table was being read; an I/O
/// error other than a premature end of input is available through
/// [`source`](std::error::Error::source). The message reads
/// `landmark table: built for another map (...)`.
#[derive(Debug)]
pub struct FileError {
    table: Option<TableKind>,
    kind: FileErrorKind,
    source: Option<io::Error>,
}

impl FileError {
    /// What is wrong with the file.
    pub fn kind(&self) -> &FileErrorKind {
        &self.kind
    }

    /// The kind of table being read, when known: the one the caller asked
    /// for, or the one the file's magic bytes name.
    pub fn table(&self) -> Option<TableKind> {
        self.table
    }

    /// The error, naming `table` unless a table is named already.
    #[must_use]
    pub(crate) fn reading(mut self, table: TableKind) -> Self {
        self.table.get_or_insert(table);
        self
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.table {
            Some(t) => write!(f, "{t}: {}", self.kind),
            None => write!(f, "saved table: {}", self.kind),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

impl From<FileErrorKind> for FileError {
    fn from(kind: FileErrorKind) -> Self {
        FileError {
            table: None,
            kind,
            source: None,
        }
    }
}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            FileErrorKind::Truncated.into()
        } else {
            FileError {
                table: None,
                kind: FileErrorKind::Io,
                source: Some(e),
            }
        }
    }
}

/// What is wrong with a saved table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// The input does not start with the magic bytes of any table cairns
    /// writes.
    #[error("not a table file cairns writes (bad magic bytes)")]
    BadMagic,
    /// A table of another kind than the one asked for (a jump table given
    /// to the landmark loader, a compressed landmark table to the full
    /// one's).
    #[error("the file holds a {found} (`{}`)", found.info().command)]
    WrongKind {
        /// The kind in the file.
        found: TableKind,
    },
    /// A format version this library cannot read.
    #[error(
        "unsupported file version {found} (this library reads {}; build the table again with `{command}`)",
        versions(*oldest, *supported)
    )]
    UnsupportedVersion {
        /// The file's version.
        found: u32,
        /// The oldest version this library reads.
        oldest: u32,
        /// The newest version this library reads.
        supported: u32,
        /// The command that builds the table again.
        command: &'static str,
    },
    /// The file's map hash is not the expected one (and not that of the
    /// same map under the other movement rule, which is
    /// [`MovementMismatch`](Self::MovementMismatch)).
    #[error(
        "built for another map or agent size (map hash {found:#018x}, expected {expected:#018x})"
    )]
    MapHashMismatch {
        /// The hash the caller expected.
        expected: u64,
        /// The hash in the file.
        found: u64,
    },
    /// A road graph's table (one whose kind is
    /// [`for_graphs`](TableInfo::for_graphs)) built for another graph: the
    /// file's [`graph_hash`] is not the expected one.
    #[error("built for another graph (graph hash {found:#018x}, expected {expected:#018x})")]
    GraphHashMismatch {
        /// The hash the caller expected.
        expected: u64,
        /// The hash in the file.
        found: u64,
    },
    /// The file was built for the same map under another movement rule
    /// (found from the two map hashes when the expected one is a
    /// [`grid_hash`]).
    #[error(
        "built for this map under another movement rule \
         ({} differ; map hash {found:#018x}, expected {expected:#018x})",
        rule_pair(*expected, *found)
    )]
    MovementMismatch {
        /// The hash the caller expected.
        expected: u64,
        /// The hash in the file.
        found: u64,
    },
    /// The file covers a different number of nodes than the graph.
    #[error("the file has {found} nodes, the graph has {expected}")]
    NodeCountMismatch {
        /// The graph's node bound.
        expected: u64,
        /// The file's node count.
        found: u64,
    },
    /// The file's grid has another size than the graph's.
    #[error("the file is for a {found_width}x{found_height} grid, the graph is {width}x{height}")]
    SizeMismatch {
        /// The graph's width.
        width: u32,
        /// The graph's height.
        height: u32,
        /// The file's width.
        found_width: u32,
        /// The file's height.
        found_height: u32,
    },
    /// The input ends before the file does.
    #[error("the file is truncated")]
    Truncated,
    /// The file names a movement rule by a code no rule has.
    #[error(
        "movement rule code {code} is not one of 4, 8, 9 and 10 (4-connected, octile, octile-cut, octile-squeeze)"
    )]
    BadMovement {
        /// The code in the file.
        code: u32,
    },
    /// The trailing checksum does not match the contents.
    #[error("the file is corrupt (checksum {found:#018x}, contents hash to {computed:#018x})")]
    ChecksumMismatch {
        /// The checksum stored in the file.
        found: u64,
        /// The hash of the bytes read.
        computed: u64,
    },
    /// The declared sizes are beyond what a table can hold; nothing was
    /// allocated for them.
    #[error("the file declares an unsupported size: {nodes} nodes, {landmarks} landmarks")]
    TooLarge {
        /// Declared node count.
        nodes: u64,
        /// Declared landmark count.
        landmarks: u64,
    },
    /// The declared grid size is not one of a grid; nothing was allocated
    /// for it.
    #[error("the file declares an unsupported size {width}x{height}")]
    BadSize {
        /// Declared width.
        width: u32,
        /// Declared height.
        height: u32,
    },
    /// A landmark id is not below the node count.
    #[error("landmark {index} is node {node}, but the file has {nodes} nodes")]
    LandmarkOutOfRange {
        /// Position in the landmark list.
        index: u32,
        /// The id.
        node: u32,
        /// The node count.
        nodes: u64,
    },
    /// The directedness field is neither 0 nor 1.
    #[error("unknown directedness {value} (0 or 1)")]
    BadDirectedness {
        /// The field's value.
        value: u32,
    },
    /// The exactness field (landmark tables, version 2) is neither 0 nor 1.
    #[error("unknown exactness {value} (0 or 1)")]
    BadExactness {
        /// The field's value.
        value: u32,
    },
    /// A distance is negative or NaN.
    #[error("distance {index} is {value}, not a non-negative number")]
    BadDistance {
        /// Position among the distances.
        index: u64,
        /// The value.
        value: f64,
    },
    /// A compressed table keeps more landmarks per node than it has, or
    /// none, or has more landmarks than a compressed table may.
    #[error("keeps {kept} of {landmarks} landmarks per node")]
    BadKept {
        /// Landmarks kept per node.
        kept: u32,
        /// Landmarks in the table.
        landmarks: u32,
    },
    /// An entry of a compressed table names a landmark the table does not
    /// have.
    #[error("entry {entry} names landmark {value}, but the file has {landmarks}")]
    BadLandmarkIndex {
        /// Position among the entries.
        entry: u64,
        /// The landmark index found.
        value: u8,
        /// The number of landmarks.
        landmarks: u32,
    },
    /// A jump table entry leads off the grid.
    #[error("entry {value} of ({x}, {y}) in direction {direction} leads off the grid")]
    BadEntry {
        /// Column of the cell.
        x: u32,
        /// Row of the cell.
        y: u32,
        /// The direction, 0..8.
        direction: u8,
        /// The entry.
        value: i32,
    },
    /// A subgoal graph names a cell that is not one of the map's subgoals
    /// (or not in order, or leaves one out), or an edge to such a cell.
    #[error("entry {index} names cell {node}, which is not the map's subgoal there")]
    BadSubgoal {
        /// Position among the subgoals, then the edges after them.
        index: u64,
        /// The cell id found (or, for a subgoal the file leaves out, the
        /// one expected).
        node: u32,
    },
    /// An edge of a subgoal graph's hierarchy does not fit it: it does not
    /// climb the ranks, or is out of order, or is a shortcut whose middle
    /// is not ranked below both ends or not linked to them, or is not an
    /// edge of the graph (or the subgoal's rank is out of range).
    #[error("edge {edge} of subgoal {subgoal} does not fit the hierarchy")]
    BadShortcut {
        /// The subgoal's index.
        subgoal: u32,
        /// Position among its climbing edges (past the last for a bad
        /// rank).
        edge: u64,
    },
    /// The boxes of a subgoal graph's core do not fit its hierarchy: a
    /// subgoal outside the core has boxes, or a subgoal's boxes are not
    /// where the file's order puts them, or the file holds more or fewer
    /// boxes than the edges they bound.
    #[error("the boxes of subgoal {subgoal} do not fit the hierarchy's core")]
    BadCoreBoxes {
        /// The subgoal's index (the number of subgoals when the count of
        /// boxes is wrong).
        subgoal: u32,
    },
    /// A goal-bounding table counts another number of jump points than
    /// the map has, or marks one past the map's last.
    #[error("the file's jump points go up to {found}, but the map has {expected}")]
    JumpPointCount {
        /// The map's jump points.
        expected: u64,
        /// The file's count, or one more than the index of its mark past
        /// the map's last.
        found: u64,
    },
    /// A contraction hierarchy's order is not a permutation of the nodes:
    /// a rank holds a node off the graph or one another rank holds.
    #[error("rank {rank} is node {node}, which is off the graph or has another rank")]
    BadRank {
        /// The rank.
        rank: u32,
        /// The node the file gives it.
        node: u32,
    },
    /// A rank of a contraction hierarchy has more edges than there are
    /// ranks above it, or the edges so far are more than a hierarchy's
    /// edge ids can number.
    #[error("rank {rank} has {count} edges, more than the hierarchy can hold there")]
    TooManyEdges {
        /// The rank.
        rank: u32,
        /// Its edges, or the edges up to it for the total.
        count: u64,
    },
    /// An edge of a contraction hierarchy does not fit it: its other end
    /// is not above it, or it is a shortcut whose halves are not edges to
    /// and from a middle node ranked below both ends.
    #[error("edge {edge} does not fit the hierarchy")]
    BadHierarchyEdge {
        /// The edge's id (its place among the upward, then the downward
        /// edges).
        edge: u64,
    },
    /// A hub label lists hubs off the graph or not in increasing order, or
    /// the labels are longer than a graph's labels can be.
    #[error("the label of node {node} does not fit the graph")]
    BadLabel {
        /// The node (counted on through the backward labels after the
        /// forward ones).
        node: u64,
    },
    /// A landmark table whose distances are not directed, which
    /// bidirectional ALT on a directed graph cannot use.
    #[error(
        "a symmetric landmark table; alt on a road graph needs a directed one (`cairns graph build GRAPH --search alt:K`)"
    )]
    Symmetric,
    /// Reading failed; the I/O error is the [`source`](std::error::Error::source).
    #[error("i/o error while reading the file")]
    Io,
}

/// `version 2`, or `versions 1 to 2`.
fn versions(oldest: u32, supported: u32) -> String {
    if oldest == supported {
        format!("version {supported}")
    } else {
        format!("versions {oldest} to {supported}")
    }
}

/// A 64-bit hash of a grid map and movement rule, to tie a saved table to
/// the map it was built for: FNV-1a over the width and height (`u32`,
/// little-endian), the tiles as their map characters in row-major order,
/// and the number of move directions (one byte, 4 or 8).
///
/// Two maps that differ in any tile, or the same map under another
/// neighborhood, get different hashes (barring a one in `2^64` accident).
///
/// ```
/// use cairns::grid::{Grid, Neighborhood, Tile};
/// use cairns::saved::grid_hash;
///
/// let mut grid = Grid::from_ascii("
///     ..@
///     ...
/// ").unwrap();
/// let h = grid_hash(&grid, Neighborhood::Octile);
/// assert_ne!(h, grid_hash(&grid, Neighborhood::Four));
/// grid.set(0, 1, Tile::Tree);
/// assert_ne!(h, grid_hash(&grid, Neighborhood::Octile));
/// ```
pub fn grid_hash(grid: &Grid, neighborhood: Neighborhood) -> u64 {
    let mut h = fnv1a(FNV_OFFSET, &grid.width().to_le_bytes());
    h = fnv1a(h, &grid.height().to_le_bytes());
    for &t in grid.tiles() {
        h = fnv1a(h, &[t.to_char() as u8]);
    }
    fnv1a(h, &[movement_code(neighborhood)])
}

/// A 64-bit hash of a weighted directed graph, to tie a saved table to the
/// graph it was built for (as [`grid_hash`] does for a map): FNV-1a over
/// the node bound (`u64`, little-endian) and then every arc in node order
/// and in the order of its successors, as its tail and head (`u32`) and the
/// bits of its weight (`u64`).
///
/// Two graphs that differ in any arc or weight (one bit of it), or only in
/// the number of nodes without arcs, get different hashes (barring a one
/// in `2^64` accident). `O(V + E)`: milliseconds on a city's road graph.
///
/// ```
/// use cairns::graph::CsrGraph;
/// use cairns::saved::graph_hash;
///
/// let g = CsrGraph::from_edges(3, &[(0, 1, 1.0), (1, 2, 2.0)]).unwrap();
/// let other_weight = CsrGraph::from_edges(3, &[(0, 1, 1.0), (1, 2, 2.5)]).unwrap();
/// let other_way = CsrGraph::from_edges(3, &[(1, 0, 1.0), (1, 2, 2.0)]).unwrap();
/// let one_more_node = CsrGraph::from_edges(4, &[(0, 1, 1.0), (1, 2, 2.0)]).unwrap();
/// let h = graph_hash(&g);
/// for other in [&other_weight, &other_way, &one_more_node] {
///     assert_ne!(h, graph_hash(other));
/// }
/// assert_eq!(h, graph_hash(&g.clone()));
/// ```
pub fn graph_hash<G: Graph + ?Sized>(graph: &G) -> u64 {
    let mut h = fnv1a(FNV_OFFSET, &(graph.node_bound() as u64).to_le_bytes());
    for u in 0..graph.node_bound() as u32 {
        for (v, w) in graph.successors(NodeId(u)) {
            h = fnv1a(h, &u.to_le_bytes());
            h = fnv1a(h, &v.0.to_le_bytes());
            h = fnv1a(h, &w.to_bits().to_le_bytes());
        }
    }
    h
}

/// The byte a movement rule adds to a [`grid_hash`]: its number of
/// directions for the two rules of the first formats (so their hashes are
/// unchanged), 9 for octile with corner cutting, 10 for octile squeezing
/// between walls (the XOR of any two codes differs from every other pair's,
/// which [`movement_rules`] needs).
pub(crate) fn movement_code(neighborhood: Neighborhood) -> u8 {
    match neighborhood {
        Neighborhood::Four => 4,
        Neighborhood::Octile => 8,
        Neighborhood::OctileCornerCutting => 9,
        Neighborhood::OctileSqueeze => 10,
    }
}

/// The movement rule whose [`movement_code`] is `code`.
pub(crate) fn movement_of_code(code: u32) -> Option<Neighborhood> {
    Neighborhood::ALL
        .into_iter()
        .find(|&n| u32::from(movement_code(n)) == code)
}

/// The inverse of [`FNV_PRIME`] modulo `2^64` (the prime is odd, so it has
/// one): multiplying by it undoes the last step of [`fnv1a`].
const FNV_PRIME_INVERSE: u64 = inverse(FNV_PRIME);

/// The inverse of an odd `a` modulo `2^64`, by Newton's iteration
/// `x <- x (2 - a x)`, which doubles the correct low bits each step
/// (`x = a` is right to 3 bits, since `a * a = 1 mod 8` for odd `a`).
const fn inverse(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// Whether `expected` and `found` are the [`grid_hash`]es of one map under
/// the two movement rules.
///
/// The movement rule is the last byte hashed, so the hash of the same map
/// under the other rule follows from either hash alone: undo the last FNV
/// step (multiply by the prime's inverse), swap the byte (XOR with `4 ^ 8`)
/// and redo the step. The swap is symmetric, so this tells that the rules
/// differ but not which hash has which. For hashes that are not grid
/// hashes a false match has the odds of a 64-bit collision.
fn other_movement(expected: u64, found: u64) -> bool {
    movement_rules(expected, found).is_some()
}

/// The two movement rules that the [`grid_hash`]es `expected` and `found`
/// of one map differ by, in [`Neighborhood::ALL`] order; `None` when they
/// are not the hashes of one map under two rules.
///
/// The hashes tell which two rules differ (the XOR of their codes, 4, 8,
/// 9 and 10, is different for each pair) but not which hash has which rule:
/// the caller, who knows the rule it expected, does.
///
/// ```
/// use cairns::grid::{Grid, Neighborhood};
/// use cairns::saved::{grid_hash, movement_rules};
///
/// let grid = Grid::from_ascii("..@\n...").unwrap();
/// let cut = grid_hash(&grid, Neighborhood::OctileCornerCutting);
/// let octile = grid_hash(&grid, Neighborhood::Octile);
/// assert_eq!(
///     movement_rules(octile, cut),
///     Some([Neighborhood::Octile, Neighborhood::OctileCornerCutting])
/// );
/// assert_eq!(movement_rules(octile, octile), None);
/// ```
pub fn movement_rules(expected: u64, found: u64) -> Option<[Neighborhood; 2]> {
    let before = expected.wrapping_mul(FNV_PRIME_INVERSE);
    let rules = Neighborhood::ALL;
    rules.iter().enumerate().find_map(|(i, &a)| {
        rules[i + 1..].iter().find_map(|&b| {
            let flip = u64::from(movement_code(a) ^ movement_code(b));
            ((before ^ flip).wrapping_mul(FNV_PRIME) == found).then_some([a, b])
        })
    })
}

/// `4 and octile`: the two rules of [`movement_rules`], for messages.
fn rule_pair(expected: u64, found: u64) -> String {
    match movement_rules(expected, found) {
        Some([a, b]) => format!("{a} and {b}"),
        None => "the rules".to_string(),
    }
}

/// Reads a saved table of `kind` from `r`: checks the magic bytes, then
/// reads the rest with `body` through a hashing reader; any error names
/// `kind` (the one place every format's loader starts).
pub(crate) fn read_table<R: Read, T>(
    r: R, kind: TableKind, body: impl FnOnce(Hashing<R>) -> Result<T, FileError>,
) -> Result<T, FileError> {
    let mut r = Hashing::new(r);
    read_magic(&mut r, kind)
        .and_then(|()| body(r))
        .map_err(|e| e.reading(kind))
}

/// Reads the magic bytes and checks that they name `kind`.
fn read_magic<R: Read>(r: &mut Hashing<R>, kind: TableKind) -> Result<(), FileError> {
    let magic = read_array::<8>(r)?;
    match TableKind::of(magic) {
        Some(found) if found == kind => Ok(()),
        Some(found) => Err(FileErrorKind::WrongKind { found }.into()),
        None => Err(FileErrorKind::BadMagic.into()),
    }
}

/// Reads the version and the map hash that follow the magic bytes, and
/// checks them against `oldest..=supported` and `expected_map_hash`.
pub(crate) fn read_header<R: Read>(
    r: &mut Hashing<R>, kind: TableKind, (oldest, supported): (u32, u32), expected_map_hash: u64,
) -> Result<u32, FileError> {
    let version = read_u32(r)?;
    if !(oldest..=supported).contains(&version) {
        return Err(FileErrorKind::UnsupportedVersion {
            found: version,
            oldest,
            supported,
            command: kind.info().command,
        }
        .into());
    }
    let map_hash = read_u64(r)?;
    if kind.info().for_graphs && map_hash != expected_map_hash {
        return Err(FileErrorKind::GraphHashMismatch {
            expected: expected_map_hash,
            found: map_hash,
        }
        .into());
    }
    if other_movement(expected_map_hash, map_hash) {
        return Err(FileErrorKind::MovementMismatch {
            expected: expected_map_hash,
            found: map_hash,
        }
        .into());
    }
    if map_hash != expected_map_hash {
        return Err(FileErrorKind::MapHashMismatch {
            expected: expected_map_hash,
            found: map_hash,
        }
        .into());
    }
    Ok(version)
}

/// Writes the header every saved table starts with: the magic bytes of
/// `kind`, `version` and `map_hash`.
pub(crate) fn write_header<W: Write>(
    out: &mut HashingWriter<W>, kind: TableKind, version: u32, map_hash: u64,
) -> io::Result<()> {
    out.put(&kind.magic())?;
    out.put(&version.to_le_bytes())?;
    out.put(&map_hash.to_le_bytes())
}

/// Starts writing a grid-sized table to `w`: its header
/// ([`write_header`]) and the grid's width and height (`u32` each), which
/// [`read_grid_size`] reads; the kind's body follows, then
/// [`HashingWriter::finish`].
pub(crate) fn grid_table_writer<W: Write>(
    w: W, (kind, version, map_hash): (TableKind, u32, u64), (width, height): (u32, u32),
) -> io::Result<HashingWriter<W>> {
    let mut out = HashingWriter::new(w);
    write_header(&mut out, kind, version, map_hash)?;
    out.put(&width.to_le_bytes())?;
    out.put(&height.to_le_bytes())?;
    Ok(out)
}

/// Reads a grid-sized table of `kind` for `graph` written at `version`
/// with [`grid_table_writer`]: the magic, the header (checked against
/// `version` and `expected_map_hash`) and the grid's size (against
/// `graph`'s), then the kind's body with `body`, given the size, then the
/// checksum; then `check` checks what was read against the map. Any error
/// names `kind`.
pub(crate) fn read_grid_table<R: Read, D, T>(
    r: R, (kind, version, expected_map_hash): (TableKind, u32, u64),
    graph: &crate::grid::GridGraph,
    body: impl FnOnce(&mut Hashing<R>, (u32, u32)) -> Result<D, FileError>,
    check: impl FnOnce(D) -> Result<T, FileError>,
) -> Result<T, FileError> {
    read_table(r, kind, |mut r| {
        read_header(&mut r, kind, (version, version), expected_map_hash)?;
        let size = read_grid_size(&mut r, Some((graph.width(), graph.height())))?;
        let data = body(&mut r, size)?;
        check_sum(r)?;
        check(data)
    })
}

/// Reads a list of cells as [`HashingWriter::put_cells`] writes it: a
/// count, which no grid of `width` by `height` can exceed (checked before
/// anything is allocated), then the cells.
pub(crate) fn read_cells<R: Read>(
    r: &mut Hashing<R>, (width, height): (u32, u32),
) -> Result<Vec<u32>, FileError> {
    let count = read_u32(r)?;
    if u64::from(count) > u64::from(width) * u64::from(height) {
        return Err(FileErrorKind::BadSize { width, height }.into());
    }
    Ok(read_words(r, count as usize, u32::from_le_bytes)?)
}

/// Reads the width and height of a grid-sized table (`u32` each) and
/// checks them against `expected`, when given (the searched graph's).
pub(crate) fn read_grid_size<R: Read>(
    r: &mut Hashing<R>, expected: Option<(u32, u32)>,
) -> Result<(u32, u32), FileError> {
    let width = read_u32(r)?;
    let height = read_u32(r)?;
    if let Some((w, h)) = expected
        && (w, h) != (width, height)
    {
        return Err(FileErrorKind::SizeMismatch {
            width: w,
            height: h,
            found_width: width,
            found_height: height,
        }
        .into());
    }
    Ok((width, height))
}

/// Reads the node count and checks it against `expected`.
pub(crate) fn read_node_count<R: Read>(
    r: &mut Hashing<R>, expected: Option<u64>,
) -> Result<u64, FileError> {
    let nodes = read_u64(r)?;
    if let Some(expected) = expected
        && nodes != expected
    {
        return Err(FileErrorKind::NodeCountMismatch {
            expected,
            found: nodes,
        }
        .into());
    }
    Ok(nodes)
}

/// The first distance that is negative or NaN, as an error.
pub(crate) fn check_distances<T: Into<f64>>(
    values: impl IntoIterator<Item = T>,
) -> Result<(), FileError> {
    match values
        .into_iter()
        .map(Into::into)
        .enumerate()
        .find(|(_, d)| d.is_nan() || *d < 0.0)
    {
        Some((index, value)) => Err(FileErrorKind::BadDistance {
            index: index as u64,
            value,
        }
        .into()),
        None => Ok(()),
    }
}

/// Reads the trailing checksum and compares it with the hash of what was
/// read before it.
pub(crate) fn check_sum<R: Read>(r: Hashing<R>) -> Result<(), FileError> {
    let (found, computed) = r.checksums()?;
    if found != computed {
        return Err(FileErrorKind::ChecksumMismatch { found, computed }.into());
    }
    Ok(())
}

/// FNV-1a 64-bit offset basis.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
pub(crate) const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, continuing from `hash`.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// A reader that hashes what passes through it.
pub(crate) struct Hashing<R> {
    /// The reader.
    pub(crate) inner: R,
    /// FNV-1a of every byte read so far.
    pub(crate) hash: u64,
}

impl<R> Hashing<R> {
    pub(crate) fn new(inner: R) -> Self {
        Hashing {
            inner,
            hash: FNV_OFFSET,
        }
    }
}

impl<R: Read> Hashing<R> {
    /// Reads the trailing checksum, which is not hashed: `(found,
    /// computed)`, the stored checksum and the hash of everything read
    /// before it.
    pub(crate) fn checksums(mut self) -> io::Result<(u64, u64)> {
        let computed = self.hash;
        let found = read_u64(&mut self.inner)?;
        Ok((found, computed))
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash = fnv1a(self.hash, &buf[..n]);
        Ok(n)
    }
}

pub(crate) fn read_array<const N: usize>(r: &mut impl Read) -> io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}

pub(crate) fn read_u32(r: &mut impl Read) -> io::Result<u32> {
    read_array(r).map(u32::from_le_bytes)
}

pub(crate) fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    read_array(r).map(u64::from_le_bytes)
}

/// Reads `count` values of `N` bytes each, decoded by `decode`
/// (`i32::from_le_bytes`, `i16::from_le_bytes`), growing the vector only
/// as data arrives.
pub(crate) fn read_words<const N: usize, T>(
    r: &mut impl Read, count: usize, decode: impl Fn([u8; N]) -> T,
) -> io::Result<Vec<T>> {
    let chunk = (1 << 14) / N.max(1);
    let mut out = Vec::with_capacity(count.min(chunk));
    let mut buf = [0u8; 1 << 14];
    while out.len() < count {
        let n = (count - out.len()).min(chunk);
        r.read_exact(&mut buf[..N * n])?;
        out.extend(buf[..N * n].chunks_exact(N).map(|c| {
            let mut word = [0u8; N];
            word.copy_from_slice(c);
            decode(word)
        }));
    }
    Ok(out)
}

/// Writes in blocks of 64 KiB, hashing every byte, and ends with the
/// checksum.
pub(crate) struct HashingWriter<W> {
    inner: W,
    buf: Vec<u8>,
    hash: u64,
}

impl<W: Write> HashingWriter<W> {
    pub(crate) fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            buf: Vec::with_capacity(1 << 16),
            hash: FNV_OFFSET,
        }
    }

    /// Adds `bytes`, writing out a full block.
    pub(crate) fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 1 << 16 {
            self.flush_block()?;
        }
        Ok(())
    }

    /// Adds a list of cells: their count (`u32`), then each cell's id.
    pub(crate) fn put_cells(&mut self, cells: &[crate::graph::NodeId]) -> io::Result<()> {
        self.put(&(cells.len() as u32).to_le_bytes())?;
        for c in cells {
            self.put(&c.0.to_le_bytes())?;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> io::Result<()> {
        self.hash = fnv1a(self.hash, &self.buf);
        let r = self.inner.write_all(&self.buf);
        self.buf.clear();
        r
    }

    /// Writes what is left and the FNV-1a checksum of everything written.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.flush_block()?;
        self.inner.write_all(&self.hash.to_le_bytes())
    }
}

/// What the tests of every saved format share.
#[cfg(test)]
pub(crate) mod testing {
    use std::io::{self, Read};

    use super::{FNV_OFFSET, fnv1a, grid_hash};
    use crate::grid::{Grid, GridGraph, Neighborhood};

    /// The 6x3 octile map the format tests save tables of, and its hash.
    pub(crate) fn small_map() -> (GridGraph, u64) {
        let grid = Grid::from_ascii(
            "
            ...@..
            .@....
            ...@@.
            ",
        )
        .expect("a valid map");
        let hash = grid_hash(&grid, Neighborhood::Octile);
        (GridGraph::new(grid, Neighborhood::Octile), hash)
    }

    /// [`small_map`] with the table `build` makes of it, and its hash.
    pub(crate) fn small_map_table<T>(build: impl FnOnce(&GridGraph) -> T) -> (GridGraph, T, u64) {
        let (graph, hash) = small_map();
        let table = build(&graph);
        (graph, table, hash)
    }

    /// Replaces the checksum after an edit, so that the check after it is
    /// the one that fires.
    pub(crate) fn reseal(b: &mut [u8]) {
        let body = b.len() - 8;
        let sum = fnv1a(FNV_OFFSET, &b[..body]);
        b[body..].copy_from_slice(&sum.to_le_bytes());
    }

    /// The bytes `save` writes.
    pub(crate) fn written(save: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> Vec<u8> {
        let mut out = Vec::new();
        save(&mut out).expect("writing to memory");
        out
    }

    /// The kind of the error `r` holds.
    pub(crate) fn kind<T: std::fmt::Debug>(r: Result<T, super::FileError>) -> super::FileErrorKind {
        r.unwrap_err().kind().clone()
    }

    /// A reader whose every read fails.
    pub(crate) struct Broken;

    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TableKind;
    use crate::grid::{Grid, Neighborhood, Tile};

    #[test]
    fn each_table_kind_is_known_by_its_own_magic_and_name() {
        for kind in TableKind::ALL {
            assert_eq!(TableKind::of(kind.magic()), Some(kind));
            let same_name = TableKind::ALL.iter().filter(|k| k.name() == kind.name());
            assert_eq!(same_name.count(), 1, "{kind}");
        }
        assert_eq!(TableKind::of(*b"CAIRNSXX"), None);
        assert_eq!(TableKind::of_bytes(b"CAIRNS"), None);
    }

    #[test]
    fn grid_hash_sees_tiles_size_and_movement() {
        let a = Grid::from_ascii("...\n.@.").unwrap();
        let b = Grid::from_ascii("....\n.@..").unwrap();
        let mut c = a.clone();
        c.set(2, 0, Tile::Swamp);
        let hashes = [
            super::grid_hash(&a, Neighborhood::Octile),
            super::grid_hash(&b, Neighborhood::Octile),
            super::grid_hash(&c, Neighborhood::Octile),
            super::grid_hash(&a, Neighborhood::Four),
        ];
        for i in 0..4 {
            for j in 0..i {
                assert_ne!(hashes[i], hashes[j]);
            }
        }
        assert_eq!(
            hashes[0],
            super::grid_hash(&a.clone(), Neighborhood::Octile)
        );
    }

    #[test]
    fn fnv_prime_inverse_is_its_inverse() {
        assert_eq!(super::FNV_PRIME.wrapping_mul(super::FNV_PRIME_INVERSE), 1);
    }

    /// `ALL` holds every table kind, in the order named here (`assert_all_lists_every!`).
    #[test]
    fn all_holds_every_table_kind() {
        assert_all_lists_every!(
            TableKind: Landmarks, CompressedLandmarks, Jumps, Subgoals, Bounds, Hierarchy,
            HubLabels
        );
    }
}
