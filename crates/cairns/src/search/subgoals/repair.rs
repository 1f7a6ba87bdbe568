//! Bringing a subgoal graph up to date after wall edits, near the edits
//! instead of over the whole grid.
//!
//! Whether a cell is a subgoal depends on its 3x3 block, so an edit turns
//! cells into subgoals or out of them only within one cell of it. The
//! edges that change are those a sweep ([`SubgoalGraph`]'s "Edges") finds
//! differently, and a sweep only changes if it read a changed cell: one
//! its runs pass or stop at, or, through the legality of a diagonal move,
//! a cell beside one of those. So the subgoals to sweep again are found by
//! walking the sweeps' paths backwards, on the older graph, from every
//! cell within one of a changed one: back along a straight run, from each
//! of its cells back along the diagonals that have its direction as a
//! side, and back along each diagonal, to the first subgoal. That finds
//! every subgoal whose sweep can have read the cell (and some whose
//! pruned sweep did not), at the cost of the area those paths cover.
//! An edge is kept in both directions, so another subgoal's list changes
//! where a sweep found it before and not now, or now and not before; it
//! is edited without its own sweep (each edge records which end's sweep
//! found it), and every other list is copied as it was.
//!
//! The hierarchy is built over the edges, and shortcuts anywhere may
//! stand for an edge that changed, so it is not repaired: the graph comes
//! back flat (every subgoal in the core, which every query searches),
//! answering optimally at once, and
//! [`contract_within`](SubgoalGraph::contract_within) ranks it again.

use std::sync::Arc;

use super::{SubgoalGraph, is_corner};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL_SIDES, DIRECTIONS, GridGraph, Neighborhood};

impl SubgoalGraph {
    /// This graph after the cells `edited` of `graph` changed (walls added
    /// or removed, in any number and order, with
    /// [`GridGraph::set_tile`]): the subgoals and edges repaired near the
    /// edits, equal to those of [`SubgoalGraph::build`] on `graph`, and
    /// the hierarchy flat (every subgoal in the core) until
    /// [`contract_within`](Self::contract_within) ranks it again
    /// ([`is_contracted`](Self::is_contracted) says which). Queries over
    /// the flat graph are optimal, and slower than over a ranked one. A
    /// cell off the grid is ignored.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::SubgoalGraph;
    ///
    /// let mut graph = GridGraph::new(Grid::from_ascii("......\n.@....\n......").unwrap(), Neighborhood::Octile);
    /// let table = SubgoalGraph::build(&graph);
    /// graph.set_tile(4, 1, Tile::OutOfBounds);
    /// let mut edited = table.edited(&graph, &[graph.node(4, 1).unwrap()]);
    /// let built = SubgoalGraph::build(&graph);
    /// assert_eq!(edited.subgoals(), built.subgoals());
    /// assert!(!edited.is_contracted());
    /// edited.contract_within(&graph, None);
    /// assert!(edited.is_contracted());
    /// assert_eq!(edited.subgoals(), built.subgoals());
    /// ```
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    #[must_use]
    pub fn edited(&self, graph: &GridGraph, edited: &[NodeId]) -> SubgoalGraph {
        assert!(
            self.fits(graph),
            "a subgoal graph edited on a grid of another size"
        );
        if graph.neighborhood() != Neighborhood::Octile || graph.has_terrain() {
            // No subgoals there (and none to repair).
            return SubgoalGraph::build(graph);
        }
        let edited: Vec<usize> = edited
            .iter()
            .map(|e| e.index())
            .filter(|&e| e < graph.node_bound())
            .collect();
        // The cells that turn into subgoals or out of them.
        let flipped: Vec<usize> = graph
            .around(edited.iter().copied())
            .into_iter()
            .filter(|&c| is_corner(graph, NodeId(c as u32)) != self.is_subgoal(NodeId(c as u32)))
            .collect();
        let mut changed = [&edited[..], &flipped].concat();
        changed.sort_unstable();
        changed.dedup();
        let reached = self.reaching(&graph.around(changed.iter().copied()));

        // The new subgoal bits and clear cells.
        let mut bits = self.bits.clone();
        let mut clear = self.clear.clone();
        for &c in &flipped {
            bits[c / 64] ^= 1 << (c % 64);
        }
        let cols = self.width as usize;
        for &c in &changed {
            let subgoal = bits[c / 64] & (1 << (c % 64)) != 0;
            let open = graph.is_passable(NodeId(c as u32)) && !subgoal;
            clear.set((c % cols) as u32, (c / cols) as u32, open);
        }
        // The subgoals: the older ones, less those flipped out, with those
        // flipped in (both increasing).
        let mut cells = Vec::with_capacity(self.cells.len() + flipped.len());
        let mut copied = 0;
        for &f in &flipped {
            let f = NodeId(f as u32);
            let at = self.cells.partition_point(|&c| c < f);
            cells.extend_from_slice(&self.cells[copied..at]);
            if self.cells.get(at) == Some(&f) {
                copied = at + 1;
            } else {
                cells.push(f);
                copied = at;
            }
        }
        cells.extend_from_slice(&self.cells[copied..]);
        let mut table = SubgoalGraph::with_cells(graph, bits, clear, cells);
        table.relink(self, graph, reached, &flipped);
        table.flatten();
        // Ranking again follows the older order, the new subgoals first.
        table.order = Arc::clone(&self.order);
        table.fresh = (self.fresh.iter().copied())
            .chain(flipped.iter().map(|&c| NodeId(c as u32)))
            .filter(|&c| table.is_subgoal(c))
            .collect();
        table
    }

    /// Sets the edges of this graph (new subgoals and clear cells, no
    /// edges yet) from those of `old`, the graph before the edit: the
    /// subgoals `reached` (those whose sweeps may have changed) and the
    /// cells `flipped` that turned into subgoals are swept again; the
    /// lists that one of those sweeps found before and not now, or now
    /// and not before, or that held a subgoal gone, gain and lose them by
    /// what the sweeps find and by which end found each older edge (their
    /// own sweeps did not change); the other lists are copied, a run of
    /// subgoals at a time.
    fn relink(
        &mut self, old: &SubgoalGraph, graph: &GridGraph, reached: Vec<NodeId>, flipped: &[usize],
    ) {
        let table = &*self;
        // The subgoals whose sweeps change, and those that are gone.
        let mut affected: Vec<NodeId> = reached
            .into_iter()
            .chain(flipped.iter().map(|&c| NodeId(c as u32)))
            .filter(|&s| table.is_subgoal(s))
            .collect();
        affected.sort_unstable();
        affected.dedup();
        let removed = flipped
            .iter()
            .map(|&c| NodeId(c as u32))
            .filter(|&c| old.is_subgoal(c));
        let found = table.forward(graph, &affected);
        let cells = table.width as usize * table.height as usize;
        let mut in_affected = vec![0u64; cells.div_ceil(64)];
        for &a in &affected {
            in_affected[a.index() / 64] |= 1 << (a.index() % 64);
        }
        let is_swept = |n: NodeId| in_affected[n.index() / 64] & (1 << (n.index() % 64)) != 0;
        // Every list that changes (a bit per cell, read in id order):
        // those swept again; those a sweep found before and not now, or
        // now and not before; and those linked to a subgoal gone. Any
        // other list is as it was: its own sweep did not change, and
        // neither did any sweep's finding it.
        let mut touched = in_affected.clone();
        let mut touch = |n: NodeId| touched[n.index() / 64] |= 1 << (n.index() % 64);
        for (&a, now) in affected.iter().zip(&found) {
            let (edges, here) = old.list(a);
            let before = edges.iter().zip(here).filter(|p| *p.1).map(|p| *p.0);
            merge_diff(before, now.iter().copied(), &mut touch);
        }
        for r in removed {
            old.edges(r).iter().copied().for_each(&mut touch);
        }
        let (from, sources) = sources_by_rank(&touched, &affected, &found);
        // The new lists, one after the other, each ending at its place in
        // `ends`.
        let mut lists: Vec<(NodeId, bool)> = Vec::new();
        let mut ends: Vec<(NodeId, usize)> = Vec::new();
        let mut scratch = Vec::new();
        // The rank of `u` in `touched`, and of `u` among those swept.
        let (mut i, mut k) = (0, 0);
        for (w, &word) in touched.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let u = NodeId((w * 64) as u32 + rest.trailing_zeros());
                rest &= rest - 1;
                let incoming = sources[from[i]..from[i + 1]].iter().map(|&a| (a, false));
                i += 1;
                if !table.is_subgoal(u) {
                    continue;
                }
                let (edges, here) = old.list(u);
                if is_swept(u) {
                    scratch.clear();
                    merge(incoming, found[k].iter().map(|&t| (t, true)), &mut scratch);
                    k += 1;
                    // Older edges from subgoals not swept again whose own
                    // sweeps found `u` (those sweeps did not change): all
                    // that `u`'s sweep did not find, and those it found
                    // that found it too.
                    let kept = edges.iter().zip(here).filter_map(|(&s, &mine)| {
                        let kept =
                            !is_swept(s) && table.is_subgoal(s) && (!mine || old.found_by(s, u));
                        kept.then_some((s, false))
                    });
                    merge(scratch.iter().copied(), kept, &mut lists);
                } else {
                    // `u`'s own sweep did not change: what it found stays,
                    // and an edge to a subgoal swept again stays if that
                    // sweep found `u` again (in `incoming`).
                    let kept = edges.iter().zip(here).filter_map(|(&e, &mine)| {
                        let kept = table.is_subgoal(e) && (mine || !is_swept(e));
                        kept.then_some((e, mine))
                    });
                    merge(kept, incoming, &mut lists);
                }
                ends.push((u, lists.len()));
            }
        }
        self.set_lists(old, &lists, &ends);
    }

    /// Sets every list in the order of the subgoals: those of `ends`
    /// (each subgoal with the end of its list in `lists`, the lists one
    /// after the other) from `lists`, the others as they were in `old`.
    fn set_lists(
        &mut self, old: &SubgoalGraph, lists: &[(NodeId, bool)], ends: &[(NodeId, usize)],
    ) {
        self.offsets.clear();
        self.offsets.reserve(self.cells.len() + 1);
        self.offsets.push(0);
        self.targets.reserve(old.targets.len() + 64);
        self.found_here.reserve(old.targets.len() + 64);
        let (mut k, mut at) = (0, 0);
        for i in 0..=ends.len() {
            let next = match ends.get(i) {
                Some(&(c, _)) => self.index(c).expect("a list set is a subgoal's"),
                None => self.cells.len(),
            };
            // The lists before `next` are the older ones, copied a run of
            // subgoals (in step in both graphs) at a time.
            while k < next {
                let j = old
                    .index(self.cells[k])
                    .expect("a list not set is an older subgoal's");
                let mut run = 1;
                while k + run < next && old.cells.get(j + run) == Some(&self.cells[k + run]) {
                    run += 1;
                }
                let (from, to) = (old.offsets[j], old.offsets[j + run]);
                let base = self.targets.len();
                self.targets.extend_from_slice(&old.targets[from..to]);
                self.found_here.extend_from_slice(&old.found_here[from..to]);
                self.offsets.extend(
                    old.offsets[j + 1..=j + run]
                        .iter()
                        .map(|&o| o - from + base),
                );
                k += run;
            }
            if let Some(&(_, end)) = ends.get(i) {
                let list = &lists[at..end];
                at = end;
                self.targets.extend(list.iter().map(|e| e.0));
                self.found_here.extend(list.iter().map(|e| e.1));
                self.offsets.push(self.targets.len());
                k += 1;
            }
        }
    }

    /// Whether the sweep of subgoal `from` found `to` (an edge of it).
    fn found_by(&self, from: NodeId, to: NodeId) -> bool {
        let (edges, here) = self.list(from);
        edges.binary_search(&to).is_ok_and(|k| here[k])
    }

    /// The subgoals of this graph whose sweeps may read a cell of `zone`:
    /// the cell itself, and the first subgoal on each path walked back
    /// from it as a sweep walks forward (see the module's doc).
    fn reaching(&self, zone: &[usize]) -> Vec<NodeId> {
        // Bit `d` of a cell: walked back along direction `d` from there.
        let mut walked = vec![0u8; self.width as usize * self.height as usize];
        let mut found = Vec::new();
        for &z in zone {
            if self.is_subgoal(NodeId(z as u32)) {
                found.push(NodeId(z as u32));
            }
            for d in 0..8 {
                self.walk_back(z, d, &mut walked, &mut found);
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Walks back from `from` along direction `d` (0..8) over cells that
    /// are clear, to the first subgoal (pushed on `found`) or wall; back
    /// along a straight direction, also back along the diagonals that have
    /// it as a side from each cell passed. A cell already walked back along
    /// `d` ends the walk: the rest was walked.
    fn walk_back(&self, from: usize, d: usize, walked: &mut [u8], found: &mut Vec<NodeId>) {
        let (cols, rows) = (i64::from(self.width), i64::from(self.height));
        let (dx, dy) = DIRECTIONS[d];
        let (mut x, mut y) = (from as i64 % cols, from as i64 / cols);
        loop {
            (x, y) = (x - i64::from(dx), y - i64::from(dy));
            if !(0..cols).contains(&x) || !(0..rows).contains(&y) {
                return;
            }
            let cell = (y * cols + x) as usize;
            if walked[cell] & (1 << d) != 0 {
                return;
            }
            walked[cell] |= 1 << d;
            if self.is_subgoal(NodeId(cell as u32)) {
                found.push(NodeId(cell as u32));
                return;
            }
            if !self.clear.is_passable(x as u32, y as u32) {
                return;
            }
            if d < 4 {
                for (i, &(a, b)) in DIAGONAL_SIDES.iter().enumerate() {
                    if a == d || b == d {
                        self.walk_back(cell, 4 + i, walked, found);
                    }
                }
            }
        }
    }
}

/// For the `i`-th cell of `touched` (a bit per cell, in id order), the
/// subgoals of `affected` whose sweeps (`found`, in step) found it,
/// increasing: `sources[from[i]..from[i + 1]]` of `(from, sources)`, by
/// a counting sort on that rank.
fn sources_by_rank(
    touched: &[u64], affected: &[NodeId], found: &[Vec<NodeId>],
) -> (Vec<usize>, Vec<NodeId>) {
    let mut rank_before = Vec::with_capacity(touched.len());
    let mut count = 0;
    for word in touched {
        rank_before.push(count);
        count += word.count_ones() as usize;
    }
    let rank = |t: NodeId| {
        let (w, b) = (t.index() / 64, t.index() % 64);
        (touched[w] & (1 << b) != 0)
            .then(|| rank_before[w] + (touched[w] & ((1u64 << b) - 1)).count_ones() as usize)
    };
    let mut from = vec![0usize; count + 1];
    for i in found.iter().flatten().filter_map(|&t| rank(t)) {
        from[i + 1] += 1;
    }
    for i in 1..from.len() {
        from[i] += from[i - 1];
    }
    let mut sources = vec![NodeId(0); from[count]];
    let mut fill = from.clone();
    for (&a, f) in affected.iter().zip(found) {
        for i in f.iter().filter_map(|&t| rank(t)) {
            sources[fill[i]] = a;
            fill[i] += 1;
        }
    }
    (from, sources)
}

/// Calls `out` on each node in one of `a` and `b` (each increasing) but
/// not both, in increasing order.
fn merge_diff(
    a: impl Iterator<Item = NodeId>, b: impl Iterator<Item = NodeId>, out: &mut impl FnMut(NodeId),
) {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (Some(x), Some(y)) if x == y => {
                a.next();
                b.next();
            }
            (Some(x), Some(y)) if x < y => {
                out(x);
                a.next();
            }
            (_, Some(y)) => {
                out(y);
                b.next();
            }
            (Some(x), None) => {
                out(x);
                a.next();
            }
            (None, None) => break,
        }
    }
}

/// Appends to `out` the entries of `a` and `b` (each increasing by
/// node) in increasing order, a node in both once, found here if either
/// says so.
fn merge(
    a: impl Iterator<Item = (NodeId, bool)>, b: impl Iterator<Item = (NodeId, bool)>,
    out: &mut Vec<(NodeId, bool)>,
) {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) if x.0 == y.0 => {
                a.next();
                b.next();
                (x.0, x.1 || y.1)
            }
            (Some(&x), Some(&y)) if x.0 < y.0 => a.next().unwrap_or(x),
            (_, Some(_)) => match b.next() {
                Some(y) => y,
                None => break,
            },
            (Some(_), None) => match a.next() {
                Some(x) => x,
                None => break,
            },
            (None, None) => break,
        };
        out.push(next);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::grid::Tile;
    use crate::search::SubgoalSearch;
    use crate::search::testing::{flip_cells, matches_dijkstra_from, scattered};

    /// The subgoals, the edges and, once contracted, the whole graph of
    /// `table` are those of a build on `graph`.
    fn same_as_built(table: &SubgoalGraph, graph: &GridGraph) -> Result<(), TestCaseError> {
        let built = SubgoalGraph::build(graph);
        prop_assert_eq!(table.subgoals(), built.subgoals());
        for &s in built.subgoals() {
            prop_assert_eq!(
                table.list(s),
                built.list(s),
                "edges of {:?}",
                graph.coords(s)
            );
        }
        Ok(())
    }

    /// `table` has the subgoals and edges of a build on `graph`, and
    /// answers from `start` as Dijkstra.
    fn answers_as_built(
        table: &SubgoalGraph, graph: &GridGraph, start: NodeId,
    ) -> Result<(), TestCaseError> {
        same_as_built(table, graph)?;
        let search = SubgoalSearch::new(graph, table).unwrap();
        prop_assert_eq!(matches_dijkstra_from(graph, &search, start), Ok(()));
        Ok(())
    }

    /// `table` saved, and loaded for `graph`.
    fn saved_and_loaded(table: &SubgoalGraph, graph: &GridGraph) -> SubgoalGraph {
        let mut bytes = Vec::new();
        table.save(&mut bytes, 7).unwrap();
        SubgoalGraph::load_for(&bytes[..], graph, 7).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// After any sequence of wall edits, the edited graph has the
        /// subgoals and edges of a build, answers as Dijkstra flat and
        /// once ranked again.
        #[test]
        fn edited_graphs_are_built_ones(
            (mut graph, start) in scattered(24, 450),
            batches in proptest::collection::vec(
                proptest::collection::vec((0..24u32, 0..24u32), 1..4),
                1..4,
            ),
        ) {
            let mut table = SubgoalGraph::build(&graph);
            for batch in batches {
                let edited = flip_cells(&mut graph, &batch);
                table = table.edited(&graph, &edited);
                prop_assert_eq!(table.is_contracted(), table.subgoals().is_empty());
                answers_as_built(&table, &graph, start)?;
                // Saved flat, loaded with every subgoal in the core.
                answers_as_built(&saved_and_loaded(&table, &graph), &graph, start)?;
                // Sometimes edited again before it is ranked; ranked again
                // in the older order, it answers as Dijkstra, and saved
                // and loaded it is the same graph.
                if start.0 % 2 == 0 {
                    table.contract_within(&graph, None);
                    prop_assert!(table.is_contracted());
                    answers_as_built(&table, &graph, start)?;
                    prop_assert_eq!(&saved_and_loaded(&table, &graph), &table);
                }
            }
        }
    }

    /// Every cell of sparse maps turned, one at a time: long runs and
    /// diagonals, where an edit changes the sweeps of subgoals far away.
    #[test]
    fn every_single_cell_edit_on_sparse_maps() {
        for (seed, density) in [(1, 2), (2, 4), (3, 8), (4, 15)] {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let mut graph = crate::search::testing::walled(31, 23, |_, _| rng.below(100) < density);
            let table = SubgoalGraph::build(&graph);
            for c in 0..graph.node_bound() as u32 {
                let (x, y) = graph.coords(NodeId(c));
                let was = if graph.is_passable(NodeId(c)) {
                    Tile::Ground
                } else {
                    Tile::OutOfBounds
                };
                let now = if was == Tile::Ground {
                    Tile::OutOfBounds
                } else {
                    Tile::Ground
                };
                graph.set_tile(x, y, now);
                let edited = table.edited(&graph, &[NodeId(c)]);
                let built = SubgoalGraph::build(&graph);
                assert_eq!(
                    edited.subgoals(),
                    built.subgoals(),
                    "seed {seed} ({x}, {y})"
                );
                for &s in built.subgoals() {
                    assert_eq!(
                        edited.list(s),
                        built.list(s),
                        "seed {seed} ({x}, {y}): edges of {:?}",
                        graph.coords(s)
                    );
                }
                graph.set_tile(x, y, was);
            }
        }
    }

    /// Ranked again after edits, a graph keeps the older order among the
    /// older subgoals, ranks those the edits made first, and answers as
    /// Dijkstra.
    #[test]
    fn ranking_again_follows_the_older_order() {
        let mut rng = crate::rng::SplitMix64::new(8);
        let mut graph = crate::search::testing::walled(40, 30, |_, _| rng.below(100) < 20);
        let built = SubgoalGraph::build(&graph);
        assert!(!built.order.is_empty());
        let cells = flip_cells(&mut graph, &[(7, 7), (20, 15), (33, 2)]);
        let mut table = built.edited(&graph, &cells);
        let fresh = table.fresh.clone();
        assert!(!fresh.is_empty(), "the edits made subgoals");
        table.contract_within(&graph, None);
        let after: Vec<NodeId> = table.order.to_vec();
        // The new subgoals come first (as far as they were contracted).
        let ranked_fresh: Vec<NodeId> = fresh
            .iter()
            .copied()
            .filter(|c| after.contains(c))
            .collect();
        assert_eq!(&after[..ranked_fresh.len()], &ranked_fresh[..]);
        // Among the older ones, the older order.
        let older: Vec<NodeId> = after
            .iter()
            .copied()
            .filter(|c| built.order.contains(c))
            .collect();
        let kept: Vec<NodeId> = built
            .order
            .iter()
            .copied()
            .filter(|c| older.contains(c))
            .collect();
        assert_eq!(older, kept);
        assert!(
            older.len() * 10 >= built.order.len() * 9,
            "most stay ranked"
        );
        same_as_built(&table, &graph).unwrap();
        let search = SubgoalSearch::new(&graph, &table).unwrap();
        assert_eq!(matches_dijkstra_from(&graph, &search, NodeId(0)), Ok(()));

        // A wall added and taken away again before the ranking: the
        // subgoals it unmade come back, both in the older order and new
        // to the edits, and are ranked once.
        let built = SubgoalGraph::build(&graph);
        let mut table = built.clone();
        for _ in 0..2 {
            let cells = flip_cells(&mut graph, &[(12, 12)]);
            table = table.edited(&graph, &cells);
        }
        assert!(table.fresh.iter().any(|c| built.order.contains(c)));
        table.contract_within(&graph, None);
        let mut order = table.order.to_vec();
        order.sort_unstable();
        assert!(order.windows(2).all(|w| w[0] != w[1]), "ranked once");
        same_as_built(&table, &graph).unwrap();
        assert_eq!(saved_and_loaded(&table, &graph), table);
    }

    /// A wall that cuts a long straight edge far from either end, and one
    /// taken away that joins two subgoals far apart.
    #[test]
    fn edits_far_from_the_ends_of_an_edge() {
        let mut graph =
            crate::search::testing::walled(40, 9, |x, y| (x == 2 || x == 37) && (y == 1 || y == 7));
        let table = SubgoalGraph::build(&graph);
        for (x, y) in [(20, 0), (20, 8), (1, 4), (38, 4)] {
            for tile in [Tile::OutOfBounds, Tile::Ground] {
                graph.set_tile(x, y, tile);
                let edited = table.edited(&graph, &[graph.node(x, y).unwrap()]);
                let built = SubgoalGraph::build(&graph);
                assert_eq!(edited.subgoals(), built.subgoals(), "({x}, {y}) {tile:?}");
                for &s in built.subgoals() {
                    assert_eq!(edited.list(s), built.list(s), "({x}, {y}) {tile:?}");
                }
            }
        }
    }
}
