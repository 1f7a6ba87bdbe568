//! Saving contraction hierarchies and hub labels to disk and loading them
//! back, in the saved-table format every table kind shares
//! ([`crate::saved`]): a magic, a version, the graph's hash
//! ([`graph_hash`](crate::saved::graph_hash)), checked sizes and a
//! trailing checksum.
//!
//! The formats, `CAIRNSCH` and `CAIRNSHL`, are in [the saved-table
//! formats](crate::saved#the-formats). A hub label file holds the hierarchy
//! it came from first, as a `CAIRNSCH` file's body, since `hl` finds its
//! paths through the hierarchy.
//!
//! A file that passes the checksum is still checked for what the queries
//! rely on, so that a crafted one can make no query index out of bounds or
//! loop: the order is a permutation, every edge climbs to a rank that
//! exists, every shortcut's halves are edges to and from a node ranked
//! below both its ends (so unpacking ends), weights are non-negative, and
//! every label's hubs are ranks in increasing order.

use std::io::{self, Read, Write};

use super::hub_labels::Labels;
use super::{
    Adjacency, Climb, ContractionHierarchy, HubLabels, NO_MIDDLE, Packed, Unpacked, UpEdge,
};
use crate::graph::Graph;
use crate::saved::{
    FileError, FileErrorKind, Hashing, HashingWriter, TableKind, check_distances, check_sum,
    read_header, read_node_count, read_table, read_u64, read_words, write_header,
};

impl ContractionHierarchy {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load`](Self::load) reads.
    pub const FILE_VERSION: u32 = 1;

    /// Saves the hierarchy, tagged with `graph_hash` (for a road graph,
    /// [`graph_hash`](crate::saved::graph_hash)), in `O(V + E)` time: 20
    /// bytes an edge of the hierarchy and 12 a node.
    ///
    /// The format, `CAIRNSCH`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Those of `w`.
    pub fn save(&self, w: impl Write, graph_hash: u64) -> io::Result<()> {
        let mut out = HashingWriter::new(w);
        write_header(
            &mut out,
            TableKind::Hierarchy,
            Self::FILE_VERSION,
            graph_hash,
        )?;
        self.put(&mut out)?;
        out.finish()
    }

    /// Reads a hierarchy written by [`save`](Self::save), checking that it
    /// was saved with `expected_graph_hash`.
    ///
    /// Any input is safe: the sizes are checked before anything is
    /// allocated for them (a rank has no more edges than there are ranks
    /// above it), memory grows only as data arrives, the checksum is
    /// verified, and then the structure (see the byte layouts in [`crate::saved`]), so that
    /// queries on what is returned stay in bounds and end. Wrap a file in a
    /// [`BufReader`](std::io::BufReader) for speed.
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind) names the first
    /// problem found: bad magic, unsupported version, graph hash mismatch
    /// ([`GraphHashMismatch`](FileErrorKind::GraphHashMismatch)), absurd sizes
    /// ([`TooLarge`](FileErrorKind::TooLarge),
    /// [`TooManyEdges`](FileErrorKind::TooManyEdges)), truncation, checksum
    /// mismatch, then the structure
    /// ([`BadRank`](FileErrorKind::BadRank),
    /// [`BadDistance`](FileErrorKind::BadDistance) for a weight,
    /// [`BadHierarchyEdge`](FileErrorKind::BadHierarchyEdge)).
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::graph::{CsrGraph, NodeId};
    /// use cairns::saved::{FileErrorKind, graph_hash};
    /// use cairns::search::{ChCache, ContractionHierarchy};
    ///
    /// let g = CsrGraph::from_undirected_edges(4, &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0)]).unwrap();
    /// let hash = graph_hash(&g);
    /// let mut bytes = Vec::new();
    /// ContractionHierarchy::build(&g).save(&mut bytes, hash).unwrap();
    ///
    /// let ch = ContractionHierarchy::load_for(&bytes[..], &g, hash).unwrap();
    /// assert_eq!(ch.search_cost(NodeId(0), NodeId(3), &mut ChCache::new()), Some(3.0));
    ///
    /// let other = CsrGraph::from_undirected_edges(4, &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 2.0)]).unwrap();
    /// let err = ContractionHierarchy::load(&bytes[..], graph_hash(&other)).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::GraphHashMismatch { .. }));
    /// assert!(err.to_string().starts_with("contraction hierarchy: built for another graph"));
    /// ```
    pub fn load(r: impl Read, expected_graph_hash: u64) -> Result<ContractionHierarchy, FileError> {
        read(
            r,
            TableKind::Hierarchy,
            expected_graph_hash,
            None,
            |_, ch| Ok(ch),
        )
    }

    /// Like [`load`](Self::load), and also checks that the hierarchy has
    /// exactly the nodes of `graph`.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), plus
    /// [`NodeCountMismatch`](FileErrorKind::NodeCountMismatch).
    pub fn load_for<G: Graph + ?Sized>(
        r: impl Read, graph: &G, expected_graph_hash: u64,
    ) -> Result<ContractionHierarchy, FileError> {
        let nodes = Some(graph.node_bound() as u64);
        read(
            r,
            TableKind::Hierarchy,
            expected_graph_hash,
            nodes,
            |_, ch| Ok(ch),
        )
    }

    /// Writes the body of a `CAIRNSCH` file (what follows the header).
    fn put<W: Write>(&self, out: &mut HashingWriter<W>) -> io::Result<()> {
        out.put(&(self.node_count() as u64).to_le_bytes())?;
        out.put(&(self.shortcuts as u64).to_le_bytes())?;
        for &v in &self.node_of {
            out.put(&v.to_le_bytes())?;
        }
        // The file lists the upward edges rank by rank, then the downward
        // ones, and names a shortcut's halves by their places there.
        let file_ids = file_ids(&self.edges);
        let file_id = |id: u32| {
            if id == NO_MIDDLE {
                NO_MIDDLE
            } else {
                file_ids[id as usize]
            }
        };
        let n = self.node_count() as u32;
        for climb in [Climb::Forward, Climb::Backward] {
            for r in 0..n {
                let (_, _, edges) = self.edges.at(r, climb);
                out.put(&(edges.len() as u32).to_le_bytes())?;
            }
            for r in 0..n {
                for (id, e) in self.edges.climbing(r, climb) {
                    let p = self.packed[id as usize];
                    out.put(&e.other.to_le_bytes())?;
                    out.put(&e.weight.to_le_bytes())?;
                    out.put(&file_id(p.first).to_le_bytes())?;
                    out.put(&file_id(p.second).to_le_bytes())?;
                }
            }
        }
        Ok(())
    }
}

impl HubLabels {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load`](Self::load) reads.
    pub const FILE_VERSION: u32 = 1;

    /// Saves the labels with `hierarchy`, the one they were built from
    /// (whose order their hubs are ranks of, and which finds `hl`'s paths),
    /// tagged with `graph_hash` ([`graph_hash`](crate::saved::graph_hash)
    /// for a road graph): 12 bytes a hub and direction after the
    /// hierarchy.
    ///
    /// The format, `CAIRNSHL`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Those of `w`.
    pub fn save(
        &self, w: impl Write, hierarchy: &ContractionHierarchy, graph_hash: u64,
    ) -> io::Result<()> {
        let mut out = HashingWriter::new(w);
        write_header(
            &mut out,
            TableKind::HubLabels,
            Self::FILE_VERSION,
            graph_hash,
        )?;
        hierarchy.put(&mut out)?;
        for side in [&self.forward, &self.backward] {
            for w in side.offsets.windows(2) {
                out.put(&(w[1] - w[0]).to_le_bytes())?;
            }
            for h in &side.hubs {
                out.put(&h.to_le_bytes())?;
            }
            for d in &side.dists {
                out.put(&d.to_le_bytes())?;
            }
        }
        out.finish()
    }

    /// Reads labels and their hierarchy written by [`save`](Self::save),
    /// checking that they were saved with `expected_graph_hash`, with the
    /// hierarchy's checks ([`ContractionHierarchy::load`]) and then the
    /// labels': no label longer than the graph has nodes (before anything
    /// is allocated for it), every hub a rank, in increasing order, every
    /// distance non-negative.
    ///
    /// # Errors
    ///
    /// As [`ContractionHierarchy::load`], plus
    /// [`BadLabel`](FileErrorKind::BadLabel).
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::graph::{CsrGraph, NodeId};
    /// use cairns::saved::graph_hash;
    /// use cairns::search::{ContractionHierarchy, HubLabels};
    ///
    /// let g = CsrGraph::from_edges(3, &[(0, 1, 1.0), (1, 2, 2.0), (2, 0, 4.0)]).unwrap();
    /// let ch = ContractionHierarchy::build(&g);
    /// let mut bytes = Vec::new();
    /// HubLabels::build(&ch).save(&mut bytes, &ch, graph_hash(&g)).unwrap();
    ///
    /// let (_, labels) = HubLabels::load(&bytes[..], graph_hash(&g)).unwrap();
    /// assert_eq!(labels.cost(NodeId(2), NodeId(1)), Some(5.0));
    /// ```
    pub fn load(
        r: impl Read, expected_graph_hash: u64,
    ) -> Result<(ContractionHierarchy, HubLabels), FileError> {
        read(
            r,
            TableKind::HubLabels,
            expected_graph_hash,
            None,
            read_labels,
        )
    }

    /// Like [`load`](Self::load), and also checks that the file has exactly
    /// the nodes of `graph`.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), plus
    /// [`NodeCountMismatch`](FileErrorKind::NodeCountMismatch).
    pub fn load_for<G: Graph + ?Sized>(
        r: impl Read, graph: &G, expected_graph_hash: u64,
    ) -> Result<(ContractionHierarchy, HubLabels), FileError> {
        let nodes = Some(graph.node_bound() as u64);
        read(
            r,
            TableKind::HubLabels,
            expected_graph_hash,
            nodes,
            read_labels,
        )
    }
}

/// Reads a file of `kind` holding a hierarchy: the magic, the header, the
/// hierarchy's body, what `rest` reads after it, the checksum, and then
/// the hierarchy's structure and `rest`'s (the checks after the checksum
/// that `rest` returns).
fn read<R: Read, T>(
    r: R, kind: TableKind, expected_graph_hash: u64, expected_nodes: Option<u64>,
    rest: impl FnOnce(&mut Hashing<R>, ContractionHierarchy) -> Result<T, FileError>,
) -> Result<T, FileError>
where
    T: Checked,
{
    read_table(r, kind, |mut r| {
        let version = ContractionHierarchy::FILE_VERSION;
        read_header(&mut r, kind, (version, version), expected_graph_hash)?;
        let ch = read_hierarchy(&mut r, expected_nodes)?;
        let mut out = rest(&mut r, ch)?;
        check_sum(r)?;
        out.check()?;
        Ok(out)
    })
}

/// What a loader returns, checked once the checksum is, and then made
/// ready for queries (the hierarchy's edges unpacked, which relies on
/// the checks: each shortcut's halves end below it).
trait Checked {
    fn check(&mut self) -> Result<(), FileError>;
}

/// Checks the structure of a hierarchy read, then lists its edges' paths.
fn check_and_unpack(ch: &mut ContractionHierarchy) -> Result<(), FileError> {
    check_hierarchy(ch)?;
    ch.unpacked = Unpacked::new(&ch.packed, &ch.node_of);
    Ok(())
}

impl Checked for ContractionHierarchy {
    fn check(&mut self) -> Result<(), FileError> {
        check_and_unpack(self)
    }
}

impl Checked for (ContractionHierarchy, HubLabels) {
    fn check(&mut self) -> Result<(), FileError> {
        check_and_unpack(&mut self.0)?;
        let n = self.0.node_count() as u64;
        let mut node = 0u64;
        for side in [&self.1.forward, &self.1.backward] {
            for v in 0..side.offsets.len() - 1 {
                let (hubs, _) = side.at(v);
                let climbs = hubs.windows(2).all(|w| w[0] < w[1]);
                if !climbs || hubs.last().is_some_and(|&h| u64::from(h) >= n) {
                    return Err(FileErrorKind::BadLabel { node }.into());
                }
                node += 1;
            }
        }
        check_distances(
            self.1
                .forward
                .dists
                .iter()
                .chain(&self.1.backward.dists)
                .copied(),
        )
    }
}

/// The labels after the hierarchy in a `CAIRNSHL` file: forward then
/// backward, each every node's label length (no more than the nodes, and
/// all of them fewer than `2^32`), then the hubs, then the distances.
fn read_labels<R: Read>(
    r: &mut Hashing<R>, ch: ContractionHierarchy,
) -> Result<(ContractionHierarchy, HubLabels), FileError> {
    let n = ch.node_count();
    let mut side = |first_node: u64| -> Result<Labels, FileError> {
        let lengths = read_words(r, n, u32::from_le_bytes)?;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        let mut total = 0u64;
        for (v, &len) in lengths.iter().enumerate() {
            total += u64::from(len);
            if len as usize > n || total > u64::from(u32::MAX) {
                let node = first_node + v as u64;
                return Err(FileErrorKind::BadLabel { node }.into());
            }
            offsets.push(total as u32);
        }
        let hubs = read_words(r, total as usize, u32::from_le_bytes)?;
        let dists = read_words(r, total as usize, f64::from_le_bytes)?;
        Ok(Labels {
            offsets,
            hubs,
            dists,
        })
    };
    let forward = side(0)?;
    let backward = side(n as u64)?;
    Ok((ch, HubLabels { forward, backward }))
}

/// The body of a `CAIRNSCH` file: the node count (checked against
/// `expected_nodes`), the shortcuts added, the order, then the upward and
/// the downward edges, each rank's count checked before its edges are
/// read. The structure is checked after the checksum,
/// by [`check_hierarchy`].
fn read_hierarchy<R: Read>(
    r: &mut Hashing<R>, expected_nodes: Option<u64>,
) -> Result<ContractionHierarchy, FileError> {
    let nodes = read_node_count(r, expected_nodes)?;
    // Ranks and node ids are u32, with u32::MAX reserved.
    let Some(n) = u32::try_from(nodes).ok().filter(|&n| n < u32::MAX) else {
        return Err(FileErrorKind::TooLarge {
            nodes,
            landmarks: 0,
        }
        .into());
    };
    let shortcuts = read_u64(r)?;
    let node_of = read_words(r, n as usize, u32::from_le_bytes)?;
    // Checked to be the order's inverse by `check_hierarchy`.
    let mut rank = vec![u32::MAX; n as usize];
    for (at, &v) in node_of.iter().enumerate() {
        if let Some(slot) = rank.get_mut(v as usize) {
            *slot = at as u32;
        }
    }
    let up = read_side(r, n, 0)?;
    let down = read_side(r, n, up.edges.len() as u64)?;
    let (edges, packed) = interleave(&up, &down);
    Ok(ContractionHierarchy {
        rank,
        node_of,
        edges,
        packed,
        // Listed once the structure is checked (`Checked::check`).
        unpacked: Unpacked::default(),
        shortcuts: usize::try_from(shortcuts).unwrap_or(usize::MAX),
    })
}

/// One side's edges as a file lists them, rank by rank: `(other, weight,
/// first, second)`, the halves by their places in the file.
struct FileSide {
    offsets: Vec<u32>,
    edges: Vec<(u32, f64, u32, u32)>,
}

/// The ids of `edges` in the order a saved file lists them, the upward
/// edges rank by rank and then the downward ones, each with whether it is
/// upward.
fn in_file_order(edges: &Adjacency) -> impl Iterator<Item = (u32, bool)> + '_ {
    [true, false].into_iter().flat_map(move |upward| {
        (0..edges.ranks() as u32).flat_map(move |r| {
            let (down, up) = edges.ranges(r);
            if upward { up } else { down }.map(move |id| (id, upward))
        })
    })
}

/// Each edge's place in a saved file, by its id in `edges`.
fn file_ids(edges: &Adjacency) -> Vec<u32> {
    let mut places = vec![0; edges.edges.len()];
    for (place, (id, _)) in in_file_order(edges).enumerate() {
        places[id as usize] = place as u32;
    }
    places
}

/// One side's edges (upward, or downward): each rank's count, at most the
/// ranks above it and all of them with the `before` edges of the sides
/// read before fewer than `2^32 - 1` (the ids, with [`NO_MIDDLE`]
/// reserved), then the edges, 20 bytes each.
fn read_side<R: Read>(r: &mut Hashing<R>, n: u32, before: u64) -> Result<FileSide, FileError> {
    let counts = read_words(r, n as usize, u32::from_le_bytes)?;
    let mut offsets = Vec::with_capacity(n as usize + 1);
    offsets.push(0u32);
    let mut total = 0u64;
    for (at, &count) in counts.iter().enumerate() {
        total += u64::from(count);
        if u64::from(count) >= u64::from(n) - at as u64 || before + total >= u64::from(NO_MIDDLE) {
            let rank = at as u32;
            let count = u64::from(count);
            return Err(FileErrorKind::TooManyEdges { rank, count }.into());
        }
        offsets.push(total as u32);
    }
    let edges = read_words(r, total as usize, |b: [u8; 20]| {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut weight = [0u8; 8];
        weight.copy_from_slice(&b[4..12]);
        (word(0), f64::from_le_bytes(weight), word(12), word(16))
    })?;
    Ok(FileSide { offsets, edges })
}

/// The hierarchy's edges from a file's two sides: each rank's downward
/// edges then its upward ones, and their table, with the halves' places in
/// the file turned into ids (a place off the file is left as it is, past
/// the last id, for [`check_hierarchy`] to refuse).
fn interleave(up: &FileSide, down: &FileSide) -> (Adjacency, Vec<Packed>) {
    let n = up.offsets.len() - 1;
    let total = up.edges.len() + down.edges.len();
    let mut adjacency = Adjacency::with_capacity(n, total);
    let mut packed = Vec::with_capacity(total);
    for at in 0..n {
        for (side, upward) in [(down, false), (up, true)] {
            let run = side.offsets[at] as usize..side.offsets[at + 1] as usize;
            for &(other, weight, first, second) in &side.edges[run] {
                let edge = UpEdge { weight, other };
                adjacency.push(&mut packed, at as u32, upward, edge, (first, second));
            }
            adjacency.end_run();
        }
    }
    // The id at each place in the file.
    let id_of: Vec<u32> = in_file_order(&adjacency).map(|(id, _)| id).collect();
    let id = |place: u32| id_of.get(place as usize).copied().unwrap_or(place);
    for p in &mut packed {
        p.first = id(p.first);
        p.second = id(p.second);
    }
    (adjacency, packed)
}

/// What a query relies on in a hierarchy read: the order a permutation
/// of the nodes, every edge's other end a
/// rank above the one it is listed at (so both searches and the path's
/// edges climb), its weight non-negative, and every shortcut's halves
/// edges from its tail to a middle below both ends and from there to its
/// head (so unpacking ends: each half's lower end is below the shortcut's).
fn check_hierarchy(ch: &ContractionHierarchy) -> Result<(), FileError> {
    let n = ch.node_count() as u64;
    // The order a permutation: each rank's node has that rank (a node
    // off the graph or ranked twice has not, at one of its ranks).
    for (at, &node) in ch.node_of.iter().enumerate() {
        if ch.rank.get(node as usize) != Some(&(at as u32)) {
            let rank = at as u32;
            return Err(FileErrorKind::BadRank { rank, node }.into());
        }
    }
    // In the file's order (upward edges rank by rank, then downward),
    // so that an error names an edge by its place in the file.
    check_distances(in_file_order(&ch.edges).map(|(id, _)| ch.edges.edges[id as usize].weight))?;
    for (place, (id, upward)) in in_file_order(&ch.edges).enumerate() {
        let p = &ch.packed[id as usize];
        let (low, high) = if upward {
            (p.tail, p.head)
        } else {
            (p.head, p.tail)
        };
        let climbs = low < high && u64::from(high) < n;
        let halves = match (p.first, p.second) {
            (NO_MIDDLE, NO_MIDDLE) => true,
            (first, second) => match (
                ch.packed.get(first as usize),
                ch.packed.get(second as usize),
            ) {
                (Some(a), Some(b)) => {
                    a.tail == p.tail && b.head == p.head && a.head == b.tail && a.head < low
                }
                _ => false,
            },
        };
        if !(climbs && halves) {
            return Err(FileErrorKind::BadHierarchyEdge { edge: place as u64 }.into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::{CsrGraph, NodeId};
    use crate::saved::graph_hash;
    use crate::saved::testing::{kind, reseal, written};
    use crate::search::ChCache;
    use crate::search::bidirectional::testing::directed_graph;

    /// A saved hierarchy and labels read back answer each of `pairs` (all
    /// of them when `None`) exactly as the built ones do: the same cost and
    /// the same path, and the same labels' cost.
    #[expect(
        clippy::many_single_char_names,
        reason = "a graph, its ends and three caches"
    )]
    fn check_round_trip(g: &CsrGraph, pairs: Option<&[(u32, u32)]>) -> Result<(), TestCaseError> {
        let hash = graph_hash(g);
        let ch = ContractionHierarchy::build(g);
        let labels = HubLabels::build(&ch);
        let ch_bytes = written(|w| ch.save(w, hash));
        let hl_bytes = written(|w| labels.save(w, &ch, hash));
        let back = ContractionHierarchy::load_for(&ch_bytes[..], g, hash).unwrap();
        let (back_ch, back_labels) = HubLabels::load_for(&hl_bytes[..], g, hash).unwrap();
        prop_assert_eq!(back.shortcut_count(), ch.shortcut_count());
        prop_assert_eq!(back.memory_bytes(), ch.memory_bytes());
        prop_assert_eq!(back_labels.memory_bytes(), labels.memory_bytes());
        let n = g.node_count() as u32;
        let all: Vec<(u32, u32)> = (0..n).flat_map(|s| (0..n).map(move |t| (s, t))).collect();
        let (mut a, mut b, mut c) = (ChCache::new(), ChCache::new(), ChCache::new());
        for &(s, t) in pairs.unwrap_or(&all) {
            let (s, t) = (NodeId(s), NodeId(t));
            let want = ch.search(s, t, &mut a);
            prop_assert_eq!(&back.search(s, t, &mut b), &want, "{} to {}", s, t);
            prop_assert_eq!(&back_ch.search(s, t, &mut c), &want, "{} to {}", s, t);
            prop_assert_eq!(back_labels.cost(s, t), labels.cost(s, t), "{} to {}", s, t);
        }
        let ids: Vec<NodeId> = (0..n.min(20)).map(NodeId).collect();
        let (got, want) = (back.matrix(&ids, &ids), ch.matrix(&ids, &ids));
        prop_assert_eq!(got.as_slice(), want.as_slice());
        Ok(())
    }

    #[test]
    fn bremen_round_trips_answer_as_built() {
        let g = crate::graph::testing::road_graph("fast_paths/bremen_dist.gr");
        let mut rng = crate::rng::SplitMix64::new(11);
        let n = g.node_count() as u64;
        let pairs: Vec<(u32, u32)> = (0..300)
            .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
            .collect();
        check_round_trip(&g, Some(&pairs)).unwrap();
    }

    /// A small graph whose hierarchy has shortcuts, its hash, and its two
    /// files.
    fn small() -> (CsrGraph, u64, Vec<u8>, Vec<u8>) {
        let edges: Vec<_> = (0..7).map(|i| (i, i + 1, f64::from(i % 3 + 1))).collect();
        let g = CsrGraph::from_undirected_edges(8, &edges).unwrap();
        let hash = graph_hash(&g);
        let ch = ContractionHierarchy::build(&g);
        assert!(ch.shortcut_count() > 0);
        let labels = HubLabels::build(&ch);
        let ch_bytes = written(|w| ch.save(w, hash));
        let hl_bytes = written(|w| labels.save(w, &ch, hash));
        (g, hash, ch_bytes, hl_bytes)
    }

    fn load_ch(b: &[u8], g: &CsrGraph, hash: u64) -> Result<ContractionHierarchy, FileError> {
        ContractionHierarchy::load_for(b, g, hash)
    }

    fn load_hl(b: &[u8], g: &CsrGraph, hash: u64) -> Result<(), FileError> {
        HubLabels::load_for(b, g, hash).map(drop)
    }

    #[test]
    fn every_truncation_and_a_flipped_byte_are_refused() {
        let (g, hash, ch_bytes, hl_bytes) = small();
        for n in 0..ch_bytes.len() {
            assert_eq!(
                kind(load_ch(&ch_bytes[..n], &g, hash)),
                FileErrorKind::Truncated,
                "{n}"
            );
        }
        for n in 0..hl_bytes.len() {
            assert_eq!(
                kind(load_hl(&hl_bytes[..n], &g, hash)),
                FileErrorKind::Truncated,
                "{n}"
            );
        }
        for at in [20, 40, ch_bytes.len() - 9] {
            let mut b = ch_bytes.clone();
            b[at] ^= 4;
            let err = kind(load_ch(&b, &g, hash));
            assert!(
                matches!(
                    err,
                    FileErrorKind::ChecksumMismatch { .. }
                        | FileErrorKind::NodeCountMismatch { .. }
                ),
                "{at}: {err:?}"
            );
        }
        let mut b = hl_bytes.clone();
        b[hl_bytes.len() - 12] ^= 1;
        assert!(matches!(
            kind(load_hl(&b, &g, hash)),
            FileErrorKind::ChecksumMismatch { .. }
        ));
    }

    #[test]
    fn a_file_for_another_graph_says_so() {
        let (g, hash, ch_bytes, hl_bytes) = small();
        let other = CsrGraph::from_undirected_edges(8, &[(0, 1, 1.0)]).unwrap();
        let other_hash = graph_hash(&other);
        let err = ContractionHierarchy::load_for(&ch_bytes[..], &other, other_hash).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::GraphHashMismatch {
                expected: other_hash,
                found: hash
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "contraction hierarchy: built for another graph (graph hash {hash:#018x}, expected {other_hash:#018x})"
            )
        );
        let err = HubLabels::load_for(&hl_bytes[..], &other, other_hash).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("hub label table: built for another graph"),
            "{err}"
        );
        // Of another size, under the right hash (as a caller's own hash
        // might be): the node count says so.
        let bigger = CsrGraph::from_undirected_edges(9, &[(0, 1, 1.0)]).unwrap();
        let err = ContractionHierarchy::load_for(&ch_bytes[..], &bigger, hash).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::NodeCountMismatch {
                expected: 9,
                found: 8
            }
        );
        // A labels file to the hierarchy's loader, and back.
        let err = ContractionHierarchy::load(&hl_bytes[..], hash).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::WrongKind {
                found: TableKind::HubLabels
            }
        );
        assert!(
            err.to_string()
                .contains("cairns graph build GRAPH --search hl"),
            "{err}"
        );
        let _ = g;
    }

    /// Where the parts of a `CAIRNSCH` file of `n` nodes start: the order,
    /// the upward counts, the upward edges.
    fn offsets(n: usize) -> (usize, usize, usize) {
        let order = 20 + 16;
        (order, order + 4 * n, order + 8 * n)
    }

    fn put_u32(b: &mut [u8], at: usize, v: u32) {
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    fn get_u32(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    /// Crafted files that pass the checksum are refused for what would
    /// send a query out of bounds or round a loop.
    #[test]
    fn resealed_files_that_break_the_structure_are_refused() {
        let (g, hash, good, hl_good) = small();
        let n = g.node_count();
        let (order, counts, edges) = offsets(n);
        let edit = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            reseal(&mut b);
            kind(load_ch(&b, &g, hash))
        };
        // Two ranks of one node.
        let first = get_u32(&good, order);
        assert_eq!(
            edit(&|b| put_u32(b, order + 4, first)),
            FileErrorKind::BadRank {
                rank: 0,
                node: first
            }
        );
        // A node off the graph.
        assert_eq!(
            edit(&|b| put_u32(b, order, 8)),
            FileErrorKind::BadRank { rank: 0, node: 8 }
        );
        // More edges at the last rank than the ranks above it (none).
        assert_eq!(
            edit(&|b| put_u32(b, counts + 4 * (n - 1), 1)),
            FileErrorKind::TooManyEdges { rank: 7, count: 1 }
        );
        assert_eq!(
            edit(&|b| put_u32(b, counts, u32::MAX)),
            FileErrorKind::TooManyEdges {
                rank: 0,
                count: u64::from(u32::MAX)
            }
        );
        // The first upward edge: its other end below it, off the graph,
        // a NaN and a negative weight, a shortcut whose halves are not.
        let rank0 = get_u32(&good, counts) as usize;
        assert!(rank0 > 0, "rank 0 has an upward edge");
        for other in [0, 8, u32::MAX] {
            assert_eq!(
                edit(&|b| put_u32(b, edges, other)),
                FileErrorKind::BadHierarchyEdge { edge: 0 },
                "{other}"
            );
        }
        for w in [f64::NAN, -1.0] {
            let err = edit(&|b| b[edges + 4..edges + 12].copy_from_slice(&w.to_le_bytes()));
            assert!(
                matches!(err, FileErrorKind::BadDistance { index: 0, .. }),
                "{err:?}"
            );
        }
        for (first, second) in [(0, 0), (0, NO_MIDDLE), (1, 2), (u32::MAX - 1, 0)] {
            let err = edit(&|b| {
                put_u32(b, edges + 12, first);
                put_u32(b, edges + 16, second);
            });
            assert_eq!(
                err,
                FileErrorKind::BadHierarchyEdge { edge: 0 },
                "{first} {second}"
            );
        }
        // Every shortcut's halves, pointed at itself: refused (unpacking
        // would loop).
        let total: usize = (0..n)
            .map(|r| get_u32(&good, counts + 4 * r) as usize)
            .sum();
        let shortcut = (0..total).find(|&i| get_u32(&good, edges + 20 * i + 12) != NO_MIDDLE);
        if let Some(i) = shortcut {
            let err = edit(&|b| {
                put_u32(b, edges + 20 * i + 12, i as u32);
                put_u32(b, edges + 20 * i + 16, i as u32);
            });
            assert_eq!(err, FileErrorKind::BadHierarchyEdge { edge: i as u64 });
        }
        // Labels: a hub off the graph, hubs out of order, a label longer
        // than the graph has nodes.
        let labels_at = good.len() - 8;
        let edit_hl = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = hl_good.clone();
            f(&mut b);
            reseal(&mut b);
            kind(load_hl(&b, &g, hash))
        };
        let len0 = get_u32(&hl_good, labels_at) as usize;
        let hubs = labels_at + 4 * n;
        assert!(len0 >= 2, "node 0's label has two hubs");
        assert_eq!(
            edit_hl(&|b| put_u32(b, hubs, 8)),
            FileErrorKind::BadLabel { node: 0 }
        );
        let (h0, h1) = (get_u32(&hl_good, hubs), get_u32(&hl_good, hubs + 4));
        assert_eq!(
            edit_hl(&|b| {
                put_u32(b, hubs, h1);
                put_u32(b, hubs + 4, h0);
            }),
            FileErrorKind::BadLabel { node: 0 }
        );
        assert_eq!(
            edit_hl(&|b| put_u32(b, labels_at, 9)),
            FileErrorKind::BadLabel { node: 0 }
        );
    }

    proptest! {
        #[test]
        fn round_trips_answer_every_query_as_built(g in directed_graph(12)) {
            check_round_trip(&g, None)?;
        }

        /// Random bytes after a valid header of either kind are refused
        /// without a panic.
        #[test]
        fn random_bodies_are_refused(body in prop::collection::vec(any::<u8>(), 0..400)) {
            let (g, hash, ch_bytes, hl_bytes) = small();
            for good in [&ch_bytes, &hl_bytes] {
                let mut b = good[..20].to_vec();
                b.extend_from_slice(&body);
                prop_assert!(load_ch(&b, &g, hash).is_err());
                prop_assert!(load_hl(&b, &g, hash).is_err());
            }
        }
    }
}
