//! Saving landmark tables to disk and loading them back.
//!
//! The format is described at [`LandmarkTable::save`].

use std::io::{self, Read, Write};

use super::table::{Directedness, LandmarkTable};
use crate::graph::{NodeId, Reversible};
use crate::saved::{
    FileError, FileErrorKind, Hashing, HashingWriter, TableKind, check_distances, check_sum,
    read_header, read_node_count, read_table, read_u32, read_words, write_header,
};

impl LandmarkTable {
    /// The version of the file format that [`save`](Self::save) writes;
    /// [`load`](Self::load) reads it and version 1.
    pub const FILE_VERSION: u32 = 2;

    /// Writes the table in its saved format, tagged with
    /// `map_hash` (for a grid, [`grid_hash`](crate::saved::grid_hash)). The distances are written
    /// node-major whatever the table's [`Layout`](super::Layout). Writes in
    /// blocks of 64 KiB; `O(k V)` time.
    ///
    /// The format, `CAIRNSLM`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save(&self, mut w: impl Write, map_hash: u64) -> io::Result<()> {
        let k = self.landmark_count();
        let mut out = HashingWriter::new(&mut w);
        write_header(&mut out, TableKind::Landmarks, Self::FILE_VERSION, map_hash)?;
        out.put(&(self.node_count() as u64).to_le_bytes())?;
        out.put(&(k as u32).to_le_bytes())?;
        let directed = self.directedness() == Directedness::Directed;
        out.put(&u32::from(directed).to_le_bytes())?;
        out.put(&u32::from(self.is_exact()).to_le_bytes())?;
        for l in self.landmarks() {
            out.put(&l.0.to_le_bytes())?;
        }
        let passes: &[bool] = if directed { &[false, true] } else { &[false] };
        for &forward in passes {
            let values = if forward {
                self.dist_from()
            } else {
                self.dist_to()
            };
            for v in 0..self.node_count() as u32 {
                for l in 0..k {
                    let d = values[self.slot(NodeId(v), l)];
                    out.put(&d.to_le_bytes())?;
                }
            }
        }
        out.finish()
    }

    /// Reads a table written by [`save`](Self::save) (which describes the
    /// format), checking that it was
    /// saved with `expected_map_hash`. The table comes back in
    /// [`Layout::NodeMajor`](super::Layout::NodeMajor).
    ///
    /// Any input is safe: every field is checked, sizes before anything is
    /// allocated for them, memory grows only as data actually arrives, and
    /// the checksum is verified before the table is returned. Wrap a file
    /// in a [`BufReader`](std::io::BufReader) for speed.
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind)
    /// names the first problem found, in file order: bad magic, unsupported
    /// version, map hash mismatch, absurd sizes, bad fields, truncation,
    /// checksum mismatch, then invalid distances.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::landmarks::{Directedness, LandmarkTable, grid_hash};
    /// use cairns::saved::FileErrorKind;
    ///
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .@@.
    /// ").unwrap();
    /// let hash = grid_hash(&grid, Neighborhood::Octile);
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let table = LandmarkTable::build(&graph, &[graph.node(0, 1).unwrap()], Directedness::Symmetric);
    ///
    /// let mut bytes = Vec::new();
    /// table.save(&mut bytes, hash).unwrap();
    /// assert_eq!(LandmarkTable::load_for(&bytes[..], &graph, hash).unwrap(), table);
    ///
    /// let err = LandmarkTable::load(&bytes[..], hash ^ 1).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::MapHashMismatch { .. }));
    /// assert!(err.to_string().starts_with("landmark table: built for another map"));
    /// ```
    pub fn load(r: impl Read, expected_map_hash: u64) -> Result<LandmarkTable, FileError> {
        read(r, expected_map_hash, None).map(|(table, _)| table)
    }

    /// Like [`load`](Self::load), and also checks that the table covers
    /// exactly the nodes of `graph` and takes its connected components
    /// (see [`LandmarkTable`]), in `O(V + E)`.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), plus
    /// [`NodeCountMismatch`](FileErrorKind::NodeCountMismatch).
    pub fn load_for<G: Reversible>(
        r: impl Read, graph: &G, expected_map_hash: u64,
    ) -> Result<LandmarkTable, FileError> {
        let (table, exact) = read(r, expected_map_hash, Some(graph.node_bound() as u64))?;
        Ok(adopt(table, exact, graph))
    }
}

/// Reads `k` landmark ids, each below `nodes`.
pub(super) fn read_landmarks<R: Read>(
    r: &mut Hashing<R>, k: u32, nodes: u64,
) -> Result<Vec<NodeId>, FileError> {
    let mut landmarks = Vec::with_capacity(k as usize);
    for index in 0..k {
        let node = read_u32(r)?;
        if u64::from(node) >= nodes {
            return Err(FileErrorKind::LandmarkOutOfRange { index, node, nodes }.into());
        }
        landmarks.push(NodeId(node));
    }
    Ok(landmarks)
}

/// A table read for `graph`: its components, and exact when the file says
/// its distances were (`exact`) and the graph's costs are on the lattice.
pub(crate) fn adopt<G: Reversible>(
    mut table: LandmarkTable, exact: bool, graph: &G,
) -> LandmarkTable {
    table.set_components(graph);
    if exact && graph.lattice_costs() {
        table.set_exact(true);
    }
    table
}

fn read(
    r: impl Read, expected_map_hash: u64, expected_nodes: Option<u64>,
) -> Result<(LandmarkTable, bool), FileError> {
    read_table(r, TableKind::Landmarks, |r| {
        read_full(r, expected_map_hash, expected_nodes)
    })
}

/// [`read`] after the magic bytes.
fn read_full<R: Read>(
    mut r: Hashing<R>, expected_map_hash: u64, expected_nodes: Option<u64>,
) -> Result<(LandmarkTable, bool), FileError> {
    let versions = (1, LandmarkTable::FILE_VERSION);
    let version = read_header(&mut r, TableKind::Landmarks, versions, expected_map_hash)?;
    let nodes = read_node_count(&mut r, expected_nodes)?;
    let k = read_u32(&mut r)?;
    let too_large = FileErrorKind::TooLarge {
        nodes,
        landmarks: k.into(),
    };
    // Node ids are u32 with u32::MAX reserved; the byte size must fit the
    // address space (twice, for directed tables).
    let values = nodes
        .checked_mul(k.into())
        .filter(|&v| u32::try_from(nodes).is_ok() && v <= (isize::MAX as u64) / 16);
    let Some(values) = values.filter(|_| k as usize <= LandmarkTable::MAX_LANDMARKS) else {
        return Err(too_large.into());
    };
    let directedness = match read_u32(&mut r)? {
        0 => Directedness::Symmetric,
        1 => Directedness::Directed,
        value => return Err(FileErrorKind::BadDirectedness { value }.into()),
    };
    let exact = match version {
        1 => false,
        _ => match read_u32(&mut r)? {
            0 => false,
            1 => true,
            value => return Err(FileErrorKind::BadExactness { value }.into()),
        },
    };
    let landmarks = read_landmarks(&mut r, k, nodes)?;
    let distances = |r: &mut Hashing<R>| -> io::Result<Vec<f64>> {
        if version == 1 {
            read_words(r, values as usize, |b| f64::from(f32::from_le_bytes(b)))
        } else {
            read_words(r, values as usize, f64::from_le_bytes)
        }
    };
    let to = distances(&mut r)?;
    let from = match directedness {
        Directedness::Symmetric => Vec::new(),
        Directedness::Directed => distances(&mut r)?,
    };
    check_sum(r)?;
    check_distances(to.iter().chain(&from).copied())?;
    let table = LandmarkTable::from_node_major(landmarks, nodes as usize, directedness, to, from);
    Ok((table, exact))
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::graph::CsrGraph;
    use crate::grid::{Grid, GridGraph, Neighborhood, Tile};
    use crate::landmarks::Layout;
    use crate::saved::testing::{kind, reseal, small_map, written};
    use crate::saved::{FNV_OFFSET, fnv1a, grid_hash};

    fn grid_table() -> (GridGraph, LandmarkTable, u64) {
        let (g, hash) = small_map();
        let t = LandmarkTable::build(&g, &[NodeId(0), NodeId(17)], Directedness::Symmetric);
        (g, t, hash)
    }

    fn directed_table() -> LandmarkTable {
        let g = CsrGraph::from_edges(4, &[(0, 1, 0.1), (1, 2, 2.5), (2, 0, 1e30)]).unwrap();
        LandmarkTable::build(
            &g,
            &[NodeId(2), NodeId(0), NodeId(3)],
            Directedness::Directed,
        )
    }

    #[test]
    fn round_trips_both_directednesses_and_layouts() {
        let (g, t, hash) = grid_table();
        let b = written(|w| t.save(w, hash));
        assert_eq!(b.len(), 40 + 2 * 4 + 18 * 2 * 8 + 8);
        assert_eq!(&b[..8], b"CAIRNSLM");
        let back = LandmarkTable::load_for(&b[..], &g, hash).unwrap();
        assert_eq!(back, t);
        // Exact, as the table built on the grid is; without its graph the
        // reader cannot tell, and keeps the margin.
        assert!(t.is_exact() && back.is_exact());
        let blind = LandmarkTable::load(&b[..], hash).unwrap();
        assert!(!blind.is_exact() && blind.margin() > 0.0);
        // A landmark-major table writes the same bytes.
        let lm = t.clone().with_layout(Layout::LandmarkMajor);
        assert_eq!(written(|w| lm.save(w, hash)), b);

        let d = directed_table();
        let b = written(|w| d.save(w, 7));
        let back = LandmarkTable::load(&b[..], 7).unwrap();
        assert_eq!(back, d);
        assert_eq!(back.margin(), d.margin());
        // Trailing bytes are left alone.
        let mut longer = b.clone();
        longer.extend_from_slice(b"more");
        assert_eq!(LandmarkTable::load(&longer[..], 7).unwrap(), d);
    }

    #[test]
    fn each_problem_has_its_own_error() {
        let (_, t, hash) = grid_table();
        let good = written(|w| t.save(w, hash));
        let load = |b: &[u8]| kind(LandmarkTable::load(b, hash));
        // Bad magic, another kind and another version: the suite of every
        // saved kind (`spec/tables.rs`).
        let err = LandmarkTable::load(&good[..], 99).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "landmark table: built for another map or agent size (map hash {hash:#018x}, expected 0x0000000000000063)"
            )
        );

        let other = CsrGraph::from_edges(5, &[]).unwrap();
        assert_eq!(
            kind(LandmarkTable::load_for(&good[..], &other, hash)),
            FileErrorKind::NodeCountMismatch {
                expected: 5,
                found: 18
            }
        );

        assert_eq!(load(&good[..good.len() - 1]), FileErrorKind::Truncated);
        assert_eq!(load(&good[..3]), FileErrorKind::Truncated);

        // Declares 2^32 - 1 nodes and 65535 landmarks, then ends: refused
        // before anything is allocated.
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&u64::from(u32::MAX).to_le_bytes());
        b.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(load(&b[..]), FileErrorKind::TooLarge { .. }));
        // A large but possible size on a short input: truncated.
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&u64::from(u32::MAX - 1).to_le_bytes());
        b.extend_from_slice(&64u32.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend_from_slice(&[0; 4 * 64 + 100]);
        assert_eq!(load(&b[..]), FileErrorKind::Truncated);

        let mut b = good.clone();
        b[32] = 3;
        assert_eq!(load(&b[..]), FileErrorKind::BadDirectedness { value: 3 });

        let mut b = good.clone();
        b[36..40].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(load(&b[..]), FileErrorKind::BadExactness { value: 2 });

        let mut b = good.clone();
        b[40..44].copy_from_slice(&18u32.to_le_bytes());
        assert_eq!(
            load(&b[..]),
            FileErrorKind::LandmarkOutOfRange {
                index: 0,
                node: 18,
                nodes: 18
            }
        );
    }

    #[test]
    fn negative_distance_with_a_valid_checksum_is_refused() {
        let (_, t, hash) = grid_table();
        let mut b = written(|w| t.save(w, hash));
        b[48..56].copy_from_slice(&(-1.0f64).to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(LandmarkTable::load(&b[..], hash)),
            FileErrorKind::BadDistance {
                index: 0,
                value: -1.0
            }
        );
    }

    /// A version 1 file (`f32` distances, written before the tables kept
    /// exact ones) still loads, rounded, with the margin.
    #[test]
    fn version_1_files_load_with_the_margin() {
        let (g, t, hash) = grid_table();
        let v2 = written(|w| t.save(w, hash));
        // Version 1: no exactness field, each distance as f32.
        let head = 40 + 2 * 4;
        let mut v1 = v2[..36].to_vec();
        v1.extend_from_slice(&v2[40..head]);
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        for w in v2[head..v2.len() - 8].chunks_exact(8) {
            let d = f64::from_le_bytes(w.try_into().unwrap());
            v1.extend_from_slice(&(d as f32).to_le_bytes());
        }
        let sum = fnv1a(FNV_OFFSET, &v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let old = LandmarkTable::load_for(&v1[..], &g, hash).unwrap();
        assert!(!old.is_exact() && old.margin() > 0.0);
        for v in (0..18).map(NodeId) {
            for l in 0..2 {
                let (a, b) = (old.to_landmark(v, l), t.to_landmark(v, l));
                assert!(a == b || (a - b).abs() <= b * 1e-7, "{a} vs {b}");
            }
        }
        // Saving it again writes version 2, not exact: it loads back equal.
        let again = written(|w| old.save(w, hash));
        assert_eq!(u32::from_le_bytes(again[8..12].try_into().unwrap()), 2);
        assert_eq!(LandmarkTable::load_for(&again[..], &g, hash).unwrap(), old);
    }

    /// A table built for 8-way movement loaded for 4-way used to be
    /// reported as "built for another map"; the message names the two
    /// rules (it said "4-way and 8-way" for octile against octile-cut too).
    #[test]
    fn another_movement_rule_is_named_as_such() {
        let (_, t, octile) = grid_table();
        let grid = Grid::from_ascii(
            "
            ...@..
            .@....
            ...@@.
            ",
        )
        .unwrap();
        assert_eq!(octile, grid_hash(&grid, Neighborhood::Octile));
        let four = grid_hash(&grid, Neighborhood::Four);
        let err = LandmarkTable::load(&written(|w| t.save(w, octile))[..], four).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::MovementMismatch {
                expected: four,
                found: octile
            }
        );
        assert!(
            err.to_string().starts_with(
                "landmark table: built for this map under another movement rule \
                 (4 and octile differ; map hash"
            ),
            "{err}"
        );
        let err = LandmarkTable::load(&written(|w| t.save(w, four))[..], octile).unwrap_err();
        assert_eq!(
            err.kind(),
            &FileErrorKind::MovementMismatch {
                expected: octile,
                found: four
            }
        );
        // Octile against octile with corner cutting is named as such, and
        // a table loads for the rule it was built for, whichever it is.
        let cut = grid_hash(&grid, Neighborhood::OctileCornerCutting);
        let err = LandmarkTable::load(&written(|w| t.save(w, cut))[..], octile).unwrap_err();
        assert!(
            err.to_string()
                .contains("another movement rule (octile and octile-cut differ"),
            "{err}"
        );
        for rule in Neighborhood::ALL {
            let h = grid_hash(&grid, rule);
            assert!(
                LandmarkTable::load(&written(|w| t.save(w, h))[..], h).is_ok(),
                "{rule}"
            );
        }
        // Another map under the other rule is another map.
        let mut other = grid.clone();
        other.set(0, 0, Tile::Tree);
        let err = LandmarkTable::load(
            &written(|w| t.save(w, grid_hash(&other, Neighborhood::Four)))[..],
            octile,
        )
        .unwrap_err();
        assert!(matches!(err.kind(), FileErrorKind::MapHashMismatch { .. }));
    }
}
