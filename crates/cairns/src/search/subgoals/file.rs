//! Saving subgoal graphs to disk and loading them back, in the saved-table
//! format every table kind shares ([`crate::saved`]): a magic, a version,
//! the map's hash, checked sizes and a trailing checksum.
//!
//! The format is described at [`SubgoalGraph::save`].

use std::io::{self, Write};

use super::bounds::CoreBounds;
use super::hierarchy::{Hierarchy, NO_MIDDLE};
use super::{SubgoalGraph, octile, subgoal_bits};
use crate::graph::NodeId;
use crate::grid::GridGraph;
use crate::saved::{
    FileError, FileErrorKind, Hashing, TableKind, grid_table_writer, read_cells, read_grid_table,
    read_u32, read_words,
};
use crate::search::boxes::{Box4, box_bytes, box_from_bytes};

/// The kind of a subgoal graph's file.
const KIND: TableKind = TableKind::Subgoals;

impl SubgoalGraph {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load_for`](Self::load_for) reads.
    pub const FILE_VERSION: u32 = 3;

    /// Writes the graph in its saved format, tagged with `map_hash` (for a
    /// grid, [`grid_hash`](crate::saved::grid_hash) of the grid under
    /// octile movement). Writes in blocks of 64 KiB; `O(subgoals + edges)`
    /// time.
    ///
    /// The format, `CAIRNSSG`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save(&self, w: impl Write, map_hash: u64) -> io::Result<()> {
        let header = (KIND, Self::FILE_VERSION, map_hash);
        let mut out = grid_table_writer(w, header, (self.width, self.height))?;
        out.put_cells(&self.cells)?;
        for pair in self.offsets.windows(2) {
            out.put(&((pair[1] - pair[0]) as u32).to_le_bytes())?;
        }
        for t in &self.targets {
            out.put(&t.0.to_le_bytes())?;
        }
        let ranks = &self.hierarchy;
        let n = self.cells.len();
        if self.contracted {
            for r in &ranks.rank {
                out.put(&r.to_le_bytes())?;
            }
            for i in 0..n {
                out.put(&(ranks.up(i).len() as u32).to_le_bytes())?;
            }
            for i in 0..n {
                for (to, middle) in ranks.saved_arcs(i) {
                    out.put(&to.to_le_bytes())?;
                    out.put(&middle.to_le_bytes())?;
                }
            }
        } else {
            // Flat (edited, not ranked again): every subgoal in the core,
            // its edges all climbing, none a shortcut.
            for _ in 0..n {
                out.put(&u32::MAX.to_le_bytes())?;
            }
            for pair in self.offsets.windows(2) {
                out.put(&((pair[1] - pair[0]) as u32).to_le_bytes())?;
            }
            for t in &self.targets {
                // Edges end at subgoals, so the index is always found.
                let to = self.index(*t).map_or(u32::MAX, |i| i as u32);
                out.put(&to.to_le_bytes())?;
                out.put(&NO_MIDDLE.to_le_bytes())?;
            }
        }
        // The core's boxes: none on a flat graph, nor where the budget
        // left the core without them.
        let (first, boxes) = self.bounds.parts();
        out.put(&(boxes.len() as u32).to_le_bytes())?;
        if first.is_empty() {
            for _ in 0..n {
                out.put(&u32::MAX.to_le_bytes())?;
            }
        } else {
            for f in first {
                out.put(&f.to_le_bytes())?;
            }
        }
        for &b in boxes {
            out.put(&box_bytes(b))?;
        }
        out.finish()
    }

    /// Reads a graph written by [`save`](Self::save) (which describes the
    /// format) for `graph`, checking that it was saved with
    /// `expected_map_hash` and has the graph's size.
    ///
    /// Any input is safe: every field is checked, the sizes before
    /// anything is allocated for them, memory grows only as data arrives,
    /// the checksum is verified, and so is every cell the file names: the
    /// subgoals must be exactly those of `graph` and every edge must end at
    /// one, so a search never reads outside the graph. The core's boxes
    /// must lie where the hierarchy puts them; their values are not
    /// searched again (that is a build), so a file written to mislead
    /// could make a query drop an edge it needs and answer with a longer
    /// path or none, but never walk through a wall. Wrap a file in a
    /// [`BufReader`](std::io::BufReader) for speed.
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind) names the first
    /// problem found, in file order: bad magic, unsupported version, map
    /// hash mismatch, size mismatch or bad size, truncation, checksum
    /// mismatch, then a cell that is not one of the map's subgoals
    /// ([`BadSubgoal`](FileErrorKind::BadSubgoal)), an edge that does not
    /// fit the hierarchy ([`BadShortcut`](FileErrorKind::BadShortcut)),
    /// and boxes that do not fit its core
    /// ([`BadCoreBoxes`](FileErrorKind::BadCoreBoxes)).
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::saved::{FileErrorKind, grid_hash};
    /// use cairns::search::SubgoalGraph;
    ///
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .@@.
    ///     ....
    /// ").unwrap();
    /// let hash = grid_hash(&grid, Neighborhood::Octile);
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let table = SubgoalGraph::build(&graph);
    ///
    /// let mut bytes = Vec::new();
    /// table.save(&mut bytes, hash).unwrap();
    /// assert_eq!(SubgoalGraph::load_for(&bytes[..], &graph, hash).unwrap(), table);
    ///
    /// let err = SubgoalGraph::load_for(&bytes[..], &graph, hash ^ 1).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::MapHashMismatch { .. }));
    /// ```
    pub fn load_for(
        r: impl io::Read, graph: &GridGraph, expected_map_hash: u64,
    ) -> Result<SubgoalGraph, FileError> {
        let header = (KIND, Self::FILE_VERSION, expected_map_hash);
        read_grid_table(r, header, graph, read_graph, |read| {
            check_graph(read, graph)
        })
    }
}

/// The lists of a subgoal graph's file, as read.
struct Lists {
    cells: Vec<u32>,
    degrees: Vec<u32>,
    targets: Vec<u32>,
    ranks: Vec<u32>,
    /// The hierarchy's climbing edges, `(other end, middle)`, by subgoal.
    climbing: Vec<Vec<(u32, u32)>>,
    /// Where each subgoal's core boxes start, and the boxes.
    first_box: Vec<u32>,
    boxes: Vec<Box4>,
}

/// The sum of `degrees`, a count of items still to read: each is at least
/// 4 bytes of input, and more than the address space holds cannot arrive,
/// so a count that does not fit is a truncated file.
fn total(degrees: &[u32]) -> Result<usize, FileError> {
    let sum: u64 = degrees.iter().map(|&d| u64::from(d)).sum();
    usize::try_from(sum).map_err(|_| FileErrorKind::Truncated.into())
}

/// [`SubgoalGraph::load_for`]'s body: the subgoals, their degrees and the
/// edges' ends.
fn read_graph<R: io::Read>(r: &mut Hashing<R>, size: (u32, u32)) -> Result<Lists, FileError> {
    let cells = read_cells(r, size)?;
    let degrees = read_words(r, cells.len(), u32::from_le_bytes)?;
    let targets = read_words(r, total(&degrees)?, u32::from_le_bytes)?;
    let ranks = read_words(r, cells.len(), u32::from_le_bytes)?;
    let climbing_degrees = read_words(r, cells.len(), u32::from_le_bytes)?;
    let pairs = read_words(r, total(&climbing_degrees)?, |b: [u8; 8]| {
        let [a0, a1, a2, a3, m0, m1, m2, m3] = b;
        (
            u32::from_le_bytes([a0, a1, a2, a3]),
            u32::from_le_bytes([m0, m1, m2, m3]),
        )
    })?;
    let mut rest = &pairs[..];
    let climbing = climbing_degrees
        .iter()
        .map(|&d| {
            let (here, after) = rest.split_at(d as usize);
            rest = after;
            here.to_vec()
        })
        .collect();
    let count = read_u32(r)?;
    let first_box = read_words(r, cells.len(), u32::from_le_bytes)?;
    let boxes = read_words(r, count as usize, box_from_bytes)?;
    Ok(Lists {
        cells,
        degrees,
        targets,
        ranks,
        climbing,
        first_box,
        boxes,
    })
}

/// Checks what [`read_graph`] read against `graph`: the subgoals must be
/// the map's, in order, and the edges must end at one.
fn check_graph(read: Lists, graph: &GridGraph) -> Result<SubgoalGraph, FileError> {
    let mut table = SubgoalGraph::with_subgoals(graph, subgoal_bits(graph));
    let bad = |index: usize, node: u32| -> FileError {
        FileErrorKind::BadSubgoal {
            index: index as u64,
            node,
        }
        .into()
    };
    for (i, &c) in read.cells.iter().enumerate() {
        if table.cells.get(i) != Some(&NodeId(c)) {
            return Err(bad(i, c));
        }
    }
    if table.cells.len() != read.cells.len() {
        let missing = table.cells[read.cells.len()].0;
        return Err(bad(read.cells.len(), missing));
    }
    for (i, &t) in read.targets.iter().enumerate() {
        if !table.is_subgoal(NodeId(t)) {
            return Err(bad(read.cells.len() + i, t));
        }
    }
    table.offsets.clear();
    table.offsets.push(0);
    let mut end = 0;
    for &d in &read.degrees {
        end += d as usize;
        table.offsets.push(end);
    }
    table.targets = read.targets.into_iter().map(NodeId).collect();
    // Which end of each edge found it is not saved: the sweeps say.
    let found = table.forward(graph, &table.cells);
    table.set_found(&found);
    let base = |i: usize, j: u32| {
        let to = *table.cells.get(j as usize)?;
        table.edges(table.cells[i]).binary_search(&to).ok()?;
        Some(octile(graph.coords(table.cells[i]), graph.coords(to)))
    };
    let hierarchy =
        Hierarchy::from_saved(read.ranks, &read.climbing, base).map_err(|(subgoal, edge)| {
            FileError::from(FileErrorKind::BadShortcut {
                subgoal: subgoal as u32,
                edge,
            })
        })?;
    table.set_hierarchy(hierarchy);
    let unboxed = read.first_box.iter().all(|&f| f == u32::MAX) && read.boxes.is_empty();
    if !unboxed {
        table.bounds = CoreBounds::from_parts(&table.hierarchy, read.first_box, read.boxes)
            .map_err(|subgoal| FileError::from(FileErrorKind::BadCoreBoxes { subgoal }))?;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saved::testing::{kind, reseal, small_map_table, written};
    use crate::search::Budgeted;
    use crate::search::testing::large_map;

    fn table() -> (GridGraph, SubgoalGraph, u64) {
        small_map_table(SubgoalGraph::build)
    }

    #[test]
    fn round_trips() {
        let (g, t, hash) = table();
        assert!(!t.subgoals().is_empty() && t.edge_count() > 0);
        let b = written(|w| t.save(w, hash));
        let n = t.subgoals().len();
        let climbing: usize = (0..n).map(|i| t.hierarchy.up(i).len()).sum();
        assert!(climbing > 0);
        assert_eq!(
            b.len(),
            32 + 8 * n + 4 * t.edge_count() + 8 * n + 8 * climbing + 4 * n + 4 + 8
        );
        assert_eq!(&b[..8], b"CAIRNSSG");
        assert_eq!(SubgoalGraph::load_for(&b[..], &g, hash).unwrap(), t);
        // With a core and its boxes.
        let cored = t.with_core_after(&g, n / 2);
        let boxes = cored.bounds.parts().1.len();
        assert!(boxes > 0);
        let b = written(|w| cored.save(w, hash));
        let climbing: usize = (0..n).map(|i| cored.hierarchy.up(i).len()).sum();
        assert_eq!(
            b.len(),
            32 + 8 * n + 4 * cored.edge_count() + 8 * n + 8 * climbing + 4 * n + 4 + 8 * boxes + 8
        );
        assert_eq!(SubgoalGraph::load_for(&b[..], &g, hash).unwrap(), cored);
        // Cut before any box: a core without boxes.
        let cut = SubgoalGraph::build_within(&g, Some(std::time::Duration::ZERO));
        assert_eq!((cut.core(), cut.core_boxed()), (n, 0));
        let b = written(|w| cut.save(w, hash));
        assert_eq!(SubgoalGraph::load_for(&b[..], &g, hash).unwrap(), cut);
        // A larger map crosses the write blocks.
        let big = large_map();
        let t = SubgoalGraph::build(&big);
        let b = written(|w| t.save(w, 5));
        assert!(b.len() > 1 << 16);
        assert_eq!(SubgoalGraph::load_for(&b[..], &big, 5).unwrap(), t);
    }

    /// A checksum protects against accidents, not against a file written
    /// to mislead: a subgoal that is not the map's, or an edge to a cell
    /// that is no subgoal, would let a search walk through walls, so each
    /// is checked.
    #[test]
    fn cells_that_are_not_the_maps_subgoals_are_refused() {
        let (g, t, hash) = table();
        let mut b = written(|w| t.save(w, hash));
        // The first subgoal moved to cell 3, a wall.
        b[32..36].copy_from_slice(&3u32.to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(SubgoalGraph::load_for(&b[..], &g, hash)),
            FileErrorKind::BadSubgoal { index: 0, node: 3 }
        );
        let n = t.subgoals().len();
        let mut b = written(|w| t.save(w, hash));
        let edge = 32 + 8 * n;
        b[edge..edge + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(SubgoalGraph::load_for(&b[..], &g, hash)),
            FileErrorKind::BadSubgoal {
                index: n as u64,
                node: u32::MAX
            }
        );
    }

    /// The hierarchy steers which edges a query follows and how a path is
    /// unpacked: a shortcut whose middle is not below its ends could
    /// unpack without end, one with a made-up middle would cross walls, so
    /// each is checked and its cost computed again.
    #[test]
    fn edges_that_do_not_fit_the_hierarchy_are_refused() {
        let graph = large_map();
        let (t, hash) = (SubgoalGraph::build(&graph), 5);
        let count = t.subgoals().len();
        let climbing_at = 32 + 8 * count + 4 * t.edge_count() + 8 * count;
        // The subgoal and position of the first shortcut, and its offset.
        let (mut at, mut found) = (climbing_at, None);
        for i in 0..count {
            for (k, (_, middle)) in t.hierarchy.saved_arcs(i).enumerate() {
                if middle != super::super::hierarchy::NO_MIDDLE && found.is_none() {
                    found = Some((i, k, at));
                }
                at += 8;
            }
        }
        let (owner, k, offset) = found.expect("the large map has a shortcut");
        let refused = |b: &[u8]| {
            assert_eq!(
                kind(SubgoalGraph::load_for(b, &graph, hash)),
                FileErrorKind::BadShortcut {
                    subgoal: owner as u32,
                    edge: k as u64
                }
            );
        };
        let original = written(|w| t.save(w, hash));
        // Its middle made the subgoal itself: not ranked below it.
        let mut b = original.clone();
        b[offset + 4..offset + 8].copy_from_slice(&(owner as u32).to_le_bytes());
        reseal(&mut b);
        refused(&b);
        // Its middle dropped: an edge the graph does not have.
        let mut b = original.clone();
        b[offset + 4..offset + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut b);
        refused(&b);
        // A rank out of range names the subgoal, past its last edge.
        let mut b = original;
        let rank_at = 32 + 8 * count + 4 * t.edge_count();
        b[rank_at..rank_at + 4].copy_from_slice(&(count as u32).to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(SubgoalGraph::load_for(&b[..], &graph, hash)),
            FileErrorKind::BadShortcut {
                subgoal: 0,
                edge: t.hierarchy.up(0).len() as u64
            }
        );
    }

    /// The boxes of the core prune the core's edges: boxes where the
    /// file's order does not put them, or on a subgoal outside the core,
    /// would drop edges the queries need, so their places are checked.
    #[test]
    fn boxes_that_do_not_fit_the_core_are_refused() {
        let graph = large_map();
        let n = SubgoalGraph::build(&graph).subgoals().len();
        let t = SubgoalGraph::build(&graph).with_core_after(&graph, n / 2);
        let hash = 5;
        let climbing: usize = (0..n).map(|i| t.hierarchy.up(i).len()).sum();
        let count_at = 32 + 8 * n + 4 * t.edge_count() + 8 * n + 8 * climbing;
        let firsts = count_at + 4;
        let (first, boxes) = t.bounds.parts();
        let boxed: Vec<usize> = (0..n).filter(|&i| first[i] != u32::MAX).collect();
        assert!(boxed.len() > 1 && boxed.len() < n);
        let original = written(|w| t.save(w, hash));
        let refused = |b: &mut Vec<u8>, subgoal: u32| {
            reseal(b);
            assert_eq!(
                kind(SubgoalGraph::load_for(&b[..], &graph, hash)),
                FileErrorKind::BadCoreBoxes { subgoal }
            );
        };
        // Boxes on a subgoal outside the core.
        let outside = (0..n).find(|&i| t.hierarchy.rank[i] != u32::MAX).unwrap();
        let mut b = original.clone();
        let at = firsts + 4 * outside;
        b[at..at + 4].copy_from_slice(&0u32.to_le_bytes());
        refused(&mut b, outside as u32);
        // The second boxed subgoal's boxes where the first's start.
        let mut b = original.clone();
        let at = firsts + 4 * boxed[1];
        b[at..at + 4].copy_from_slice(&0u32.to_le_bytes());
        refused(&mut b, boxed[1] as u32);
        // One box short: the count no longer fits.
        let mut b = original.clone();
        b[count_at..count_at + 4].copy_from_slice(&(boxes.len() as u32 - 1).to_le_bytes());
        b.drain(firsts + 4 * n..firsts + 4 * n + 8);
        refused(&mut b, n as u32);
        // Every subgoal without boxes loads, as a table with none.
        let mut b = original;
        for i in 0..n {
            b[firsts + 4 * i..firsts + 4 * i + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        b[count_at..count_at + 4].copy_from_slice(&0u32.to_le_bytes());
        b.drain(firsts + 4 * n..firsts + 4 * n + 8 * boxes.len());
        reseal(&mut b);
        let loaded = SubgoalGraph::load_for(&b[..], &graph, hash).unwrap();
        assert_eq!(loaded.bounds.boxed(), 0);
    }
}
