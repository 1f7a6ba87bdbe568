//! Connected components: which nodes can reach which, answered in `O(1)`.

use std::sync::Arc;

use super::{DIRECTIONS, GridGraph, Neighborhood};
use crate::graph::{NodeId, Reversible};

/// The label of a cell that belongs to no component (a blocked grid cell).
const NONE: u32 = u32::MAX;

/// Nodes per shared chunk of [`Labels`].
const CHUNK: usize = 4096;

/// A label per node, in chunks of [`CHUNK`] that copies share until one of
/// them writes to it: a copy costs a reference count per chunk, not a
/// copy of every label, and a wall edit copies only the chunks it
/// relabels. A landmark table that follows the map takes the map's
/// components after each repair this way.
#[derive(Clone, Debug, Default)]
struct Labels {
    chunks: Vec<Arc<[u32]>>,
    len: usize,
}

impl Labels {
    #[inline]
    fn get(&self, i: usize) -> Option<u32> {
        (i < self.len).then(|| self.chunks[i / CHUNK][i % CHUNK])
    }

    /// Write access for one update.
    fn write(&mut self) -> LabelsMut<'_> {
        LabelsMut {
            chunks: self.chunks.iter_mut().map(Chunk::Shared).collect(),
        }
    }

    #[cfg(test)]
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

impl From<Vec<u32>> for Labels {
    fn from(labels: Vec<u32>) -> Labels {
        Labels {
            chunks: labels.chunks(CHUNK).map(Arc::from).collect(),
            len: labels.len(),
        }
    }
}

impl PartialEq for Labels {
    fn eq(&self, other: &Labels) -> bool {
        self.len == other.len
            && self
                .chunks
                .iter()
                .zip(&other.chunks)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

impl Eq for Labels {}

/// Where [`flood`] reads and writes labels: a plain slice while the
/// components are first labelled, the shared chunks when an edit updates
/// them.
trait LabelStore {
    fn get(&self, i: usize) -> Option<u32>;
    fn set(&mut self, i: usize, label: u32);
    /// Sets the label of `i` to `to` if it is `from`; whether it was.
    fn relabel(&mut self, i: usize, from: u32, to: u32) -> bool;
}

impl LabelStore for [u32] {
    #[inline]
    fn get(&self, i: usize) -> Option<u32> {
        <[u32]>::get(self, i).copied()
    }

    #[inline]
    fn set(&mut self, i: usize, label: u32) {
        self[i] = label;
    }

    #[inline]
    fn relabel(&mut self, i: usize, from: u32, to: u32) -> bool {
        match self.get_mut(i) {
            Some(l) if *l == from => {
                *l = to;
                true
            }
            _ => false,
        }
    }
}

/// Write access to [`Labels`] for one update: a chunk becomes the
/// update's own (copied when shared) at its first write and is written in
/// place after that, so a flood over many cells checks the sharing once
/// per chunk, not once per cell.
struct LabelsMut<'a> {
    chunks: Vec<Chunk<'a>>,
}

enum Chunk<'a> {
    Shared(&'a mut Arc<[u32]>),
    Own(&'a mut [u32]),
}

impl LabelStore for LabelsMut<'_> {
    #[inline]
    fn get(&self, i: usize) -> Option<u32> {
        let labels: &[u32] = match self.chunks.get(i / CHUNK)? {
            Chunk::Shared(chunk) => chunk,
            Chunk::Own(chunk) => chunk,
        };
        labels.get(i % CHUNK).copied()
    }

    #[inline]
    fn set(&mut self, i: usize, label: u32) {
        let slot = &mut self.chunks[i / CHUNK];
        if let Chunk::Own(own) = slot {
            own[i % CHUNK] = label;
            return;
        }
        let own = match std::mem::replace(slot, Chunk::Own(&mut [])) {
            Chunk::Shared(chunk) => Arc::make_mut(chunk),
            Chunk::Own(chunk) => chunk,
        };
        own[i % CHUNK] = label;
        *slot = Chunk::Own(own);
    }

    #[inline]
    fn relabel(&mut self, i: usize, from: u32, to: u32) -> bool {
        let Some(slot) = self.chunks.get_mut(i / CHUNK) else {
            return false;
        };
        match slot {
            Chunk::Own(own) => LabelStore::relabel(&mut **own, i % CHUNK, from, to),
            Chunk::Shared(chunk) => {
                let here = chunk.get(i % CHUNK) == Some(&from);
                if here {
                    self.set(i, to);
                }
                here
            }
        }
    }
}

/// The connected components of a graph: a label per node, equal for two
/// nodes exactly when a path joins them, and the size of each component.
///
/// Two constructors:
///
/// - [`of_grid`](Components::of_grid) labels the passable cells of a
///   [`GridGraph`] by a flood fill over its straight moves. Under octile
///   movement these give the same components as all eight moves, since a
///   diagonal move is legal only when both cells beside it are passable,
///   and then the two straight moves through either of them join the same
///   cells (tested in this module on random grids). Blocked cells have no
///   label. A `GridGraph` keeps its components up to date as tiles change
///   (see [`GridGraph::set_tile`]).
/// - [`of_graph`](Components::of_graph) labels every node of any graph by
///   its *weakly* connected component (edges followed both ways): nodes
///   with different labels have no path between them in either direction;
///   on a directed graph, equal labels do not promise a path.
///
/// Labels are small integers, not necessarily contiguous: after walls
/// change, some labels fall out of use (their size is 0).
///
/// A clone is cheap: the labels are kept in chunks of 4,096 nodes that
/// clones share until one of them changes a chunk (a landmark table takes
/// its map's components after every repair this way).
///
/// # Example
///
/// ```
/// use cairns::grid::{Components, Grid, GridGraph, Neighborhood};
///
/// let grid = Grid::from_ascii("
///     ..@..
///     ..@..
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let c = Components::of_grid(&graph);
/// let (left, right) = (graph.node(0, 0).unwrap(), graph.node(4, 1).unwrap());
/// assert!(!c.connected(left, right));
/// assert_eq!(c.label(graph.node(2, 0).unwrap()), None); // a wall
/// assert_eq!(c.size(c.label(left).unwrap()), 4);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    labels: Labels,
    sizes: Vec<u32>,
}

impl Components {
    /// The components of the passable cells of `graph`, 4-connected (the
    /// same as 8-connected with or without corner cutting), or 8-connected
    /// under the rule that squeezes between walls. `O(cells)`.
    pub fn of_grid(graph: &GridGraph) -> Components {
        let mut labels = vec![NONE; graph.grid().len()];
        let mut sizes = Vec::new();
        let mut stack = Vec::new();
        for v in 0..labels.len() as u32 {
            if labels[v as usize] == NONE && graph.is_passable(NodeId(v)) {
                let label = sizes.len() as u32;
                let n = flood(labels.as_mut_slice(), v, NONE, label, &mut stack, |u| {
                    joining(graph, u)
                });
                sizes.push(n);
            }
        }
        Components {
            labels: labels.into(),
            sizes,
        }
    }

    /// The weakly connected components of any graph: every node gets a
    /// label, an isolated node its own. `O(V + E)`.
    pub fn of_graph<G: Reversible>(graph: &G) -> Components {
        let mut labels = vec![NONE; graph.node_bound()];
        let mut sizes = Vec::new();
        let mut stack = Vec::new();
        for v in 0..labels.len() as u32 {
            if labels[v as usize] == NONE {
                let label = sizes.len() as u32;
                let n = flood(labels.as_mut_slice(), v, NONE, label, &mut stack, |u| {
                    let u = NodeId(u);
                    graph
                        .successors(u)
                        .chain(graph.predecessors(u))
                        .map(|(w, _)| w.0)
                });
                sizes.push(n);
            }
        }
        Components {
            labels: labels.into(),
            sizes,
        }
    }

    /// The label of `node`'s component, or `None` for a blocked grid cell
    /// or a node off the graph.
    #[inline]
    pub fn label(&self, node: NodeId) -> Option<u32> {
        self.labels.get(node.index()).filter(|&l| l != NONE)
    }

    /// Whether a path may join `a` and `b`: `true` when they are the same
    /// node, or labelled alike. `false` is a proof that no path exists.
    #[inline]
    pub fn connected(&self, a: NodeId, b: NodeId) -> bool {
        a == b || self.label(a).is_some_and(|l| Some(l) == self.label(b))
    }

    /// The number of nodes in the component labelled `label` (0 for a label
    /// out of use or out of range).
    pub fn size(&self, label: u32) -> usize {
        self.sizes.get(label as usize).map_or(0, |&s| s as usize)
    }

    /// One more than the largest label.
    pub fn label_bound(&self) -> usize {
        self.sizes.len()
    }

    /// The number of components (labels in use).
    pub fn count(&self) -> usize {
        self.sizes.iter().filter(|&&s| s > 0).count()
    }

    /// Updates the labels after the cell `node` of `graph` became passable
    /// (its moves and its neighbours' already updated): it joins the
    /// components of its straight neighbours, relabelling all but the
    /// largest of them. `O(1)` unless components merge, then `O(size of
    /// the smaller ones)`.
    pub(crate) fn opened(&mut self, graph: &GridGraph, node: NodeId) {
        let v = node.0;
        let sizes = &mut self.sizes;
        let mut labels = self.labels.write();
        debug_assert_eq!(label_at(&labels, v), NONE);
        let mut around = [NONE; 8];
        let mut len = 0;
        for w in joining(graph, v) {
            let l = label_at(&labels, w);
            if !around[..len].contains(&l) {
                around[len] = l;
                len += 1;
            }
        }
        let Some(&keep) = around[..len].iter().max_by_key(|&&l| sizes[l as usize]) else {
            labels.set(v as usize, fresh(sizes, 1));
            return;
        };
        labels.set(v as usize, keep);
        sizes[keep as usize] += 1;
        let mut stack = Vec::new();
        for w in joining(graph, v) {
            let l = label_at(&labels, w);
            if l != keep {
                let n = flood(&mut labels, w, l, keep, &mut stack, |u| joining(graph, u));
                sizes[keep as usize] += n;
                sizes[l as usize] = 0;
            }
        }
    }

    /// Updates the labels after the cell `node` of `graph` became blocked
    /// (moves already updated): its component may split where the cell
    /// joined its straight neighbours. When the neighbours stay joined
    /// around the cell (through the ring of its eight neighbours) nothing
    /// splits, in `O(1)`. Otherwise a search grows from each neighbour, in
    /// lock-step (see [`split`]), until all but one group of them have met
    /// or run out: `O(size of the smaller parts)` per neighbour, not of the
    /// whole component.
    pub(crate) fn closed(&mut self, graph: &GridGraph, node: NodeId) {
        let v = node.0;
        let sizes = &mut self.sizes;
        let mut labels = self.labels.write();
        let old = label_at(&labels, v);
        if old == NONE {
            return;
        }
        labels.set(v as usize, NONE);
        sizes[old as usize] -= 1;
        // The ring argument holds for straight joins only.
        if !squeezes(graph) && joined_around(graph, node) {
            return;
        }
        let (x, y) = graph.coords(node);
        // The straight directions come first in the one table of them.
        let reach = if squeezes(graph) { 8 } else { 4 };
        let starts: Vec<u32> = DIRECTIONS[..reach]
            .iter()
            .filter_map(|&(dx, dy)| cell(graph, x, y, dx.into(), dy.into()))
            .filter(|&w| label_at(&labels, w) == old)
            .collect();
        if starts.len() > 1 {
            split(&mut labels, sizes, old, &starts, |u| joining(graph, u));
        }
    }
}

/// The first of the labels that [`split`] gives its searches while they
/// run: search `i` marks its cells `SEARCH - i`. Real labels are indices
/// into the sizes, far below.
const SEARCH: u32 = NONE - 1;

/// Splits the component labelled `old` where it may have come apart
/// (after one of its cells was removed): `starts` (2 to 8 cells labelled
/// `old`) are the cells that joined there.
///
/// A search grows from each start, one cell each in turn, marking its
/// cells with a label of its own. When a search reaches another's cell,
/// the two are one part (their groups are joined). A group whose searches
/// have all run out has found the whole of its part, which gets a fresh
/// label. The searches stop as soon as at most one group is still
/// growing: everything not yet found is that group's part, which keeps
/// `old` (its cells found so far get it back). So the work is bounded by
/// the number of starts times the cells of the parts that split off, not
/// by the whole component's, and nothing is relabelled when the starts
/// all meet.
fn split<S: LabelStore + ?Sized, I: Iterator<Item = u32>>(
    labels: &mut S, sizes: &mut Vec<u32>, old: u32, starts: &[u32], neighbours: impl Fn(u32) -> I,
) {
    debug_assert!((2..=8).contains(&starts.len()));
    // Search `i`'s cells to visit, its cells found, and its group (a tiny
    // union-find over the searches).
    let mut stacks: Vec<Vec<u32>> = vec![Vec::new(); starts.len()];
    let mut found: Vec<Vec<u32>> = vec![Vec::new(); starts.len()];
    let mut group: Vec<usize> = (0..starts.len()).collect();
    for (i, &start) in starts.iter().enumerate() {
        match labels.get(start as usize) {
            Some(label) if label == old => {
                labels.set(start as usize, SEARCH - i as u32);
                stacks[i].push(start);
                found[i].push(start);
            }
            // A start another search already holds joins it.
            Some(label) => join(&mut group, i, (SEARCH - label) as usize),
            None => {}
        }
    }
    while growing(&stacks, &group) > 1 {
        for (i, stack) in stacks.iter_mut().enumerate() {
            let Some(cell) = stack.pop() else {
                continue;
            };
            let mine = SEARCH - i as u32;
            for next in neighbours(cell) {
                if labels.relabel(next as usize, old, mine) {
                    stack.push(next);
                    found[i].push(next);
                } else if let Some(theirs) = labels.get(next as usize).filter(|&l| l != mine) {
                    debug_assert!(SEARCH - theirs < starts.len() as u32, "{theirs}");
                    join(&mut group, i, (SEARCH - theirs) as usize);
                }
            }
        }
    }
    // Each group that ran out is a part of its own; the one still growing
    // (if any) keeps `old`.
    for top in (0..starts.len()).filter(|&i| root(&group, i) == i) {
        let members: Vec<usize> = (0..starts.len())
            .filter(|&i| root(&group, i) == top)
            .collect();
        let done = members.iter().all(|&i| stacks[i].is_empty());
        let label = if done { fresh(sizes, 0) } else { old };
        let mut count = 0;
        for &i in &members {
            for &cell in &found[i] {
                labels.set(cell as usize, label);
            }
            count += found[i].len() as u32;
        }
        if done {
            sizes[label as usize] = count;
            sizes[old as usize] -= count;
        }
    }
}

/// The group of search `i` in the union-find `group`.
fn root(group: &[usize], mut i: usize) -> usize {
    while group[i] != i {
        i = group[i];
    }
    i
}

/// Joins the groups of searches `i` and `j`.
fn join(group: &mut [usize], i: usize, j: usize) {
    let (a, b) = (root(group, i), root(group, j));
    group[a] = b;
}

/// How many groups of searches still have cells to visit.
fn growing(stacks: &[Vec<u32>], group: &[usize]) -> usize {
    let mut tops = [usize::MAX; 8];
    let mut n = 0;
    for (i, stack) in stacks.iter().enumerate() {
        let top = root(group, i);
        if !stack.is_empty() && !tops[..n].contains(&top) {
            tops[n] = top;
            n += 1;
        }
    }
    n
}

/// The label of node `w` in `labels`, [`NONE`] off the graph.
fn label_at<S: LabelStore + ?Sized>(labels: &S, w: u32) -> u32 {
    labels.get(w as usize).unwrap_or(NONE)
}

/// A fresh label for a component of `size` cells, whose size goes into
/// `sizes`.
fn fresh(sizes: &mut Vec<u32>, size: u32) -> u32 {
    sizes.push(size);
    (sizes.len() - 1) as u32
}

/// Relabels the connected region of nodes labelled `from` around `start`
/// (which must be labelled `from`) as `to`, and returns its size.
/// `neighbours` lists a node's neighbours; those with another label are
/// skipped.
fn flood<S: LabelStore + ?Sized, I: Iterator<Item = u32>>(
    labels: &mut S, start: u32, from: u32, to: u32, stack: &mut Vec<u32>,
    neighbours: impl Fn(u32) -> I,
) -> u32 {
    debug_assert_eq!(labels.get(start as usize), Some(from));
    debug_assert_ne!(from, to);
    stack.clear();
    stack.push(start);
    labels.set(start as usize, to);
    let mut count = 1;
    while let Some(u) = stack.pop() {
        for w in neighbours(u) {
            if labels.relabel(w as usize, from, to) {
                count += 1;
                stack.push(w);
            }
        }
    }
    count
}

/// Whether the graph's rule joins cells by diagonal moves that no two
/// straight moves go round: squeezing between two walls. Under the other
/// rules a diagonal move's cells are joined through a straight neighbour
/// too, so the components are the 4-connected ones.
fn squeezes(graph: &GridGraph) -> bool {
    graph.neighborhood() == Neighborhood::OctileSqueeze
}

/// The ids of the cells one move from `v` that the components join by: its
/// straight moves, and its diagonal ones too when the rule
/// [`squeezes`].
#[inline]
fn joining(graph: &GridGraph, v: u32) -> impl Iterator<Item = u32> + use<'_> {
    let along = if squeezes(graph) { 0xFF } else { 0x0F };
    let mut mask = graph.moves(NodeId(v)) & along;
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(graph.step(NodeId(v), d).0)
    })
}

/// The id of the passable cell at `(x + dx, y + dy)`, if any.
fn cell(graph: &GridGraph, x: u32, y: u32, dx: i64, dy: i64) -> Option<u32> {
    let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
    let (nx, ny) = (u32::try_from(nx).ok()?, u32::try_from(ny).ok()?);
    graph
        .cell_passable(nx, ny)
        .then(|| graph.grid().node(nx, ny).0)
}

/// Whether the passable straight neighbours of the (now blocked) cell
/// `node` are joined by a path through its eight neighbours. Consecutive
/// cells of the ring are orthogonally adjacent, so each run of passable
/// ring cells is connected; the neighbours are joined when all of them lie
/// in one run.
fn joined_around(graph: &GridGraph, node: NodeId) -> bool {
    const RING: [(i64, i64); 8] = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let (x, y) = graph.coords(node);
    let open = RING.map(|(dx, dy)| cell(graph, x, y, dx, dy).is_some());
    let Some(gap) = open.iter().position(|&o| !o) else {
        return true;
    };
    // Walk the ring from a blocked cell, numbering the runs.
    let mut run = 0;
    let mut seen = None;
    for i in 1..=8 {
        let j = (gap + i) % 8;
        if !open[j] {
            run += 1;
        } else if j % 2 == 0 {
            match seen {
                None => seen = Some(run),
                Some(r) if r != run => return false,
                Some(_) => {}
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::grid::{Grid, Neighborhood, Tile};
    use crate::rng::SplitMix64;
    use crate::search::{Bfs, SearchCache};

    /// A random grid with walls at `density` percent, so that it falls into
    /// pockets.
    fn random_grid(rng: &mut SplitMix64, w: u32, h: u32, density: u64) -> Grid {
        let walls = (0..w * h).map(|_| rng.below(100) < density);
        Grid::from_walls(w, h, walls).unwrap()
    }

    /// Whether two labellings are the same partition, up to renaming.
    fn same_partition(a: &Components, b: &Components) -> bool {
        let mut map = std::collections::HashMap::new();
        let mut back = std::collections::HashMap::new();
        a.labels.len == b.labels.len
            && a.labels
                .iter()
                .zip(b.labels.iter())
                .all(|(x, y)| *map.entry(x).or_insert(y) == y && *back.entry(y).or_insert(x) == x)
    }

    /// Checks `c` against a fresh labelling and breadth-first search.
    fn check(g: &GridGraph, c: &Components) {
        let fresh = Components::of_grid(g);
        assert!(same_partition(c, &fresh), "labels differ from a fresh fill");
        for l in 0..c.label_bound() as u32 {
            let n = c.labels.iter().filter(|&x| x == l).count();
            assert_eq!(c.size(l), n, "size of label {l}");
        }
        let mut cache = SearchCache::new();
        for s in (0..g.node_bound() as u32).step_by(7) {
            Bfs::new(g).all(NodeId(s), &mut cache);
            for t in 0..g.node_bound() as u32 {
                let reached = cache.g(NodeId(t)).is_some();
                assert_eq!(c.connected(NodeId(s), NodeId(t)), reached, "{s} -> {t}");
            }
        }
    }

    /// Two cells that touch only at a corner, between two walls: one
    /// component when squeezing, two under every other rule.
    #[test]
    fn squeezing_joins_cells_that_touch_at_a_corner() {
        let grid = Grid::from_ascii(".@\n@.").unwrap();
        for nb in Neighborhood::ALL {
            let g = GridGraph::new(grid.clone(), nb);
            let joined = g.components().connected(NodeId(0), NodeId(3));
            assert_eq!(joined, nb == Neighborhood::OctileSqueeze, "{nb}");
            check(&g, g.components());
        }
    }

    #[test]
    fn octile_components_are_the_four_connected_ones() {
        let mut rng = SplitMix64::new(11);
        for density in [20, 35, 45, 55] {
            let grid = random_grid(&mut rng, 23, 17, density);
            let octile = GridGraph::new(grid.clone(), Neighborhood::Octile);
            let four = GridGraph::new(grid, Neighborhood::Four);
            // All eight moves, followed generically, against straight moves.
            let all = Components::of_graph(&octile);
            let straight = Components::of_grid(&four);
            let passable: Vec<bool> = (0..octile.node_bound() as u32)
                .map(|v| octile.is_passable(NodeId(v)))
                .collect();
            for a in 0..passable.len() {
                for b in 0..passable.len() {
                    if passable[a] && passable[b] {
                        let (a, b) = (NodeId(a as u32), NodeId(b as u32));
                        assert_eq!(all.connected(a, b), straight.connected(a, b));
                    }
                }
            }
            check(&octile, octile.components());
        }
    }

    /// Opens or closes a random cell of `g` and checks that its components
    /// are those of a fresh labelling.
    fn random_edit(rng: &mut SplitMix64, g: &mut GridGraph, what: &str) {
        let x = rng.below(u64::from(g.width())) as u32;
        let y = rng.below(u64::from(g.height())) as u32;
        let tile = if rng.below(2) == 0 {
            Tile::Ground
        } else {
            Tile::Tree
        };
        g.set_tile(x, y, tile);
        let fresh = Components::of_grid(g);
        assert!(same_partition(g.components(), &fresh), "{what}");
    }

    #[test]
    fn wall_edits_merge_and_split_components() {
        let mut rng = SplitMix64::new(5);
        for round in 0..16 {
            let nb = Neighborhood::ALL[round % Neighborhood::ALL.len()];
            let mut g = GridGraph::new(random_grid(&mut rng, 14, 11, 40), nb);
            for _ in 0..60 {
                random_edit(&mut rng, &mut g, &format!("round {round}"));
            }
            check(&g, g.components());
        }
    }

    /// A copy of the components (as a landmark table takes after each
    /// repair) shares the label chunks and keeps its labels while the map
    /// changes; the map's own stay right, across several chunks.
    #[test]
    fn a_copy_keeps_its_labels_while_the_map_changes() {
        let mut rng = SplitMix64::new(9);
        let (width, height) = (130, 90);
        assert!((width * height) as usize > 2 * CHUNK, "several chunks");
        let grid = random_grid(&mut rng, width, height, 35);
        let mut g = GridGraph::new(grid, Neighborhood::Octile);
        let mut copies = Vec::new();
        for step in 0..200 {
            if step % 20 == 0 {
                let copy = g.components().clone();
                assert_eq!(copy, *g.components());
                copies.push((copy, Components::of_grid(&g)));
            }
            random_edit(&mut rng, &mut g, &format!("step {step}"));
            for (copy, then) in &copies {
                assert!(same_partition(copy, then), "a copy changed at step {step}");
            }
        }
        check(&g, g.components());
    }

    /// Every search answers a query between two components at once (no
    /// expansion) and agrees with one-to-all Dijkstra on every pair.
    #[test]
    fn searches_answer_across_components_without_expanding() {
        use crate::heuristic::Octile;
        use crate::search::{AStar, Dijkstra, JumpPointSearch, Search};
        let mut rng = SplitMix64::new(3);
        let mut cache = SearchCache::new();
        let mut truth = SearchCache::new();
        for _ in 0..4 {
            let grid = random_grid(&mut rng, 12, 9, 42);
            let octile = GridGraph::new(grid.clone(), Neighborhood::Octile);
            let four = GridGraph::new(grid, Neighborhood::Four);
            let n = octile.node_bound() as u32;
            for s in 0..n {
                let s = NodeId(s);
                Dijkstra::new(&octile).all(s, &mut truth);
                let d8: Vec<_> = (0..n).map(|t| truth.g(NodeId(t))).collect();
                Dijkstra::new(&four).all(s, &mut truth);
                let d4: Vec<_> = (0..n).map(|t| truth.g(NodeId(t))).collect();
                for t in (0..n).map(NodeId) {
                    let apart = !octile.may_reach(s, t);
                    assert_eq!(apart, !four.may_reach(s, t));
                    assert_eq!(apart, d8[t.index()].is_none() && s != t);
                    let costs = [
                        AStar::new(&octile, Octile::new(&octile)).search_cost(s, t, &mut cache),
                        Dijkstra::new(&octile).search_cost(s, t, &mut cache),
                        JumpPointSearch::new(&octile)
                            .unwrap()
                            .search_cost(s, t, &mut cache),
                    ];
                    for cost in costs {
                        let same = match (cost, d8[t.index()]) {
                            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
                            (a, b) => a == b,
                        };
                        assert!(same, "{s} -> {t}: {cost:?} vs {:?}", d8[t.index()]);
                    }
                    assert_eq!(Bfs::new(&four).search_cost(s, t, &mut cache), d4[t.index()]);
                    if apart {
                        assert_eq!(cache.stats().expanded, 0);
                        let c =
                            AStar::new(&octile, Octile::new(&octile)).search_cost(s, t, &mut cache);
                        assert_eq!((c, cache.stats().expanded), (None, 0));
                    }
                }
            }
        }
    }

    /// Closing a cell whose neighbours meet again the long way round
    /// relabels nothing; closing the centre of a cross whose arms do not
    /// meet splits it in four, the largest arm keeping its label and the
    /// others getting their own.
    #[test]
    fn splits_relabel_only_the_parts_that_split_off() {
        let grid = Grid::from_ascii(
            "
            ......
            .@@@@.
            .@@@@.
            ......
            ",
        )
        .unwrap();
        let mut g = GridGraph::new(grid, Neighborhood::Octile);
        let before = g.components().clone();
        // (0, 1)'s neighbours (0, 0) and (0, 2) meet around the loop.
        g.set_tile(0, 1, Tile::Tree);
        let after = g.components();
        assert_eq!(after.count(), 1);
        for v in 0..g.node_bound() as u32 {
            if v != g.node(0, 1).unwrap().0 {
                assert_eq!(after.label(NodeId(v)), before.label(NodeId(v)), "{v}");
            }
        }

        let cross = Grid::from_ascii(
            "
            @@@.@@@@
            @@@.@@@@
            .......@
            @@@.@@@@
            @@@.@@@@
            @@@.@@@@
            ",
        )
        .unwrap();
        let mut g = GridGraph::new(cross, Neighborhood::Octile);
        let label = g.components().label(g.node(3, 2).unwrap()).unwrap();
        g.set_tile(3, 2, Tile::Tree);
        let c = g.components();
        assert_eq!(c.count(), 4);
        assert!(same_partition(c, &Components::of_grid(&g)));
        // Every arm's size is right; at most one keeps the label.
        let arms = [(0, 2, 3), (3, 0, 2), (4, 2, 3), (3, 5, 3)];
        let mut kept = 0;
        for (x, y, n) in arms {
            let l = c.label(g.node(x, y).unwrap()).unwrap();
            assert_eq!(c.size(l), n, "arm at ({x}, {y})");
            kept += usize::from(l == label);
        }
        assert!(kept <= 1);
        assert_eq!(c.size(label), if kept == 1 { 3 } else { 0 });
    }

    #[test]
    fn closing_a_corridor_splits_and_reopening_merges() {
        let grid = Grid::from_ascii(
            "
            ...@...
            .......
            ...@...
            ",
        )
        .unwrap();
        let mut g = GridGraph::new(grid, Neighborhood::Octile);
        let (a, z) = (g.node(0, 0).unwrap(), g.node(6, 2).unwrap());
        assert!(g.components().connected(a, z));
        assert_eq!(g.components().count(), 1);
        g.set_tile(3, 1, Tile::OutOfBounds);
        assert!(!g.components().connected(a, z));
        assert_eq!(g.components().count(), 2);
        assert_eq!(g.components().size(g.components().label(a).unwrap()), 9);
        g.set_tile(3, 1, Tile::Ground);
        assert!(g.components().connected(a, z));
        assert_eq!(g.components().size(g.components().label(z).unwrap()), 19);
        // A blocked cell reaches only itself.
        let wall = g.node(3, 0).unwrap();
        assert!(g.components().connected(wall, wall));
        assert!(!g.components().connected(wall, a));
    }
}
