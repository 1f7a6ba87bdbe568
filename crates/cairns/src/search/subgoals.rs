//! Subgoal graphs: a search over the corners of the obstacles, linked
//! where a shortest path runs straight between them.
//!
//! The table ([`SubgoalGraph`]) keeps the map's subgoals and the edges
//! between them, ranked by a contraction hierarchy ([`hierarchy`]); the
//! search ([`SubgoalSearch`]) connects a query's start and goal to it,
//! searches the part of the hierarchy that climbs from the start and
//! descends to the goal on the one best-first loop, and refines each edge
//! into grid moves. Saving and loading the table is in [`file`].

mod bounds;
mod file;
mod hierarchy;
mod repair;
mod search;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::graph::{Graph, NodeId};
use crate::grid::{BitGrid, DIAGONAL, DIAGONAL_SIDES, DIRECTIONS, GridGraph, Neighborhood};
use crate::search::Budgeted;
use bounds::CoreBounds;
use hierarchy::Hierarchy;
pub use search::SubgoalSearch;

/// The subgoal graph of an octile grid (Uras, Koenig and Hernández 2013):
/// its *subgoals*, the passable cells at the corners of obstacles, and an
/// edge between two subgoals wherever the path that moves diagonally first
/// and then straight runs free between them with no subgoal on the way.
/// Each edge costs the octile distance of its ends, which is then their
/// distance on the grid.
///
/// A subgoal is a passable cell with a blocked diagonal neighbour whose two
/// cells beside both (sharing a side with each) are passable: the cells
/// where a shortest path may have to turn. Between any two cells some
/// shortest path can be cut at subgoals into pieces that each move
/// diagonally first and then straight (the path jump point search's
/// canonical ordering keeps turns off a straight run only at such cells),
/// so searching the subgoal graph, with the start and the goal linked to
/// the subgoals they reach that way, finds the grid's distances.
///
/// # Edges
///
/// The edges of a subgoal are found by a sweep ([`SubgoalSearch`] sweeps
/// from a query's start and goal the same way): straight in each of the
/// four directions to the first subgoal or wall, and along each diagonal,
/// from each cell of which it runs straight along the diagonal's two
/// sides. The runs are *clearance* scans over the cells that are neither
/// walls nor subgoals, 64 cells a word ([`BitGrid`]), and each side's
/// run is not followed past where the run of the diagonal's previous cell
/// stopped: a subgoal beyond is reached at the same cost through the
/// subgoal that stopped that run, and after a run stopped by a wall, the
/// next diagonal cell's run stops sooner, at the subgoal by that wall's
/// corner (the pruning of Uras, Koenig and Hernández's sweep). An edge
/// found from either end is kept in both directions: a query links the
/// goal by the goal's own sweep, and its subgoals reach the goal by the
/// reverse of those paths.
///
/// # Hierarchy
///
/// Over the edges the build then contracts the subgoals one by one
/// (a contraction hierarchy, as Uras and Koenig 2018 put one on subgoal
/// graphs): each subgoal taken out gets a rank, and where a shortest path
/// between two of its neighbours runs through it (no *witness* path
/// around it is found), a shortcut edge joins them, remembering the
/// subgoal it passes. The order takes first the subgoals whose removal
/// adds the fewest edges; contraction stops at the first subgoal that
/// would need more than 16 shortcuts or has more than 16 edges, and those
/// left form the *core*. A maze contracts whole; an open or random map
/// keeps a core. [`SubgoalSearch`] searches only edges that climb the
/// ranks from the start, the core, and edges that descend the ranks to
/// the goal.
///
/// # Goal bounding of the core
///
/// Last, each core subgoal gets a box per edge to the rest of the core
/// (Rabin and Sturtevant 2016's goal bounding, on the core): the least
/// and greatest column and row of the core subgoals whose shortest path
/// over the core starts with that edge, from one Dijkstra search over the
/// core per core subgoal. A query leaves out a core edge whose box misses
/// every core subgoal its goal climbs to, and stays optimal (see the
/// `bounds` module). On random512-10-0 (a core of 12,600 subgoals and
/// 215,418 core edges) this cut a query's expansions from 565 to 344 and
/// its edges looked at from 9,747 to 1,388. Past the build's deadline the
/// core subgoals not reached yet get no boxes and prune nothing.
///
/// # Complexity
///
/// [`build`](SubgoalGraph::build) finds the subgoals in `O(cells)` and
/// sweeps from each of them in parallel (rayon), each sweep taking the
/// area it scans over 64. The contraction then runs on one core, a few
/// bounded Dijkstra searches (at most 400 subgoals settled each) per
/// subgoal and evaluation (0.04 s on maze512-1-0, about 6 s on
/// random512-10-0). The core's boxes take `O(C (E + C log C))` for `C`
/// core subgoals and `E` core edges, in parallel: about 6 s on
/// random512-10-0 on 2 cores, under 1.3 s with everything else on the
/// dao, room, street and maze maps of the issue's table. Memory
/// ([`memory_bytes`](SubgoalGraph::memory_bytes)): about 5.5 bits per
/// cell (which cells are subgoals, and the clearance scans' bit grid), 12
/// bytes per subgoal and 5 per edge for the graph (its end, and whether
/// its own sweep found it, which edits read), 12 bytes per subgoal and 16
/// per edge and direction (shortcuts included) for the hierarchy, and 4
/// bytes per subgoal and 8 per core edge and direction for the boxes.
///
/// The graph describes the map it was built from; after
/// [`GridGraph::set_tile`], [`edited`](SubgoalGraph::edited) repairs its
/// subgoals and edges near the changed cells and leaves it flat (every
/// subgoal in the core) until [`contract_within`](SubgoalGraph::contract_within)
/// ranks it again.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::SubgoalGraph;
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     .....
///     ..@..
///     .....
/// ").unwrap(), Neighborhood::Octile);
/// let subgoals = SubgoalGraph::build(&graph);
/// // The four cells diagonal to the wall.
/// let corners: Vec<_> = subgoals.subgoals().iter().map(|&n| graph.coords(n)).collect();
/// assert_eq!(corners, [(1, 0), (3, 0), (1, 2), (3, 2)]);
/// // (1, 0) reaches (3, 0) straight east and (1, 2) straight south; (3, 2)
/// // only past another subgoal.
/// assert_eq!(subgoals.edges(graph.node(1, 0).unwrap()).len(), 2);
/// ```
#[derive(Clone)]
pub struct SubgoalGraph {
    width: u32,
    height: u32,
    /// A bit per cell, in id order: whether it is a subgoal.
    bits: Vec<u64>,
    /// For each word of `bits`, the number of subgoals before it: a
    /// subgoal's index is its rank.
    ranks: Vec<u32>,
    /// The subgoals in id order.
    cells: Vec<NodeId>,
    /// The edges of subgoal `i` are `targets[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<usize>,
    /// Edge ends, by subgoal, each list in id order.
    targets: Vec<NodeId>,
    /// For each entry of `targets`, whether the sweep of the list's own
    /// subgoal found it (else only the other end's did): what an edit
    /// needs to tell which edges outlive it without sweeping the
    /// neighbours of the subgoals it changes.
    found_here: Vec<bool>,
    /// The passable cells that are not subgoals: where a sweep's runs go
    /// on.
    clear: BitGrid,
    /// The subgoals ranked, and the shortcuts that let a query climb the
    /// ranks from its start and descend them to its goal.
    hierarchy: Hierarchy,
    /// The boxes of the core's edges (empty while flat).
    bounds: CoreBounds,
    /// Whether the hierarchy was built over these edges. After an edit
    /// the graph is flat until ranked again: the hierarchy is empty, and
    /// a query follows the edges themselves, every subgoal in the core.
    contracted: bool,
    /// The subgoals in the order the hierarchy ranked them (the core left
    /// out). After an edit, that of the graph edited from (most of them
    /// still subgoals), shared with it, which ranking again follows.
    order: Arc<[NodeId]>,
    /// After edits, the subgoals they made: ranked first when the graph
    /// is ranked again.
    fresh: Vec<NodeId>,
}

impl fmt::Debug for SubgoalGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubgoalGraph")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("subgoals", &self.cells.len())
            .field("edges", &self.targets.len())
            .field("core", &self.core())
            .field("hierarchy_edges", &self.hierarchy.arc_count())
            .field("core_boxed", &self.bounds.boxed())
            .finish_non_exhaustive()
    }
}

/// Two graphs are equal when they have the same size, subgoals, edges and
/// hierarchy (ranks, shortcuts and costs; the rest follows from those and
/// the map).
impl PartialEq for SubgoalGraph {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height)
            && self.cells == other.cells
            && self.offsets == other.offsets
            && self.targets == other.targets
            && self.hierarchy == other.hierarchy
            && self.bounds == other.bounds
    }
}

impl Eq for SubgoalGraph {}

/// Whether `node` of `graph` is a subgoal: passable, with a diagonal move
/// that is not legal although both straight moves beside it are (so the
/// diagonal cell is blocked and its two sides are open).
fn is_corner(graph: &GridGraph, node: NodeId) -> bool {
    let moves = graph.moves(node);
    DIAGONAL_SIDES.iter().enumerate().any(|(i, &(a, b))| {
        let sides = (1 << a) | (1 << b);
        moves & sides == sides && moves & (1 << (4 + i)) == 0
    })
}

/// The subgoal bits of `graph`, a word per 64 cells, found in parallel:
/// none unless it uses octile movement without terrain.
fn subgoal_bits(graph: &GridGraph) -> Vec<u64> {
    let cells = graph.node_bound();
    let mut bits = vec![0u64; cells.div_ceil(64)];
    if graph.neighborhood() != Neighborhood::Octile || graph.has_terrain() {
        return bits;
    }
    bits.par_iter_mut().enumerate().for_each(|(w, word)| {
        for b in 0..64 {
            let c = w * 64 + b;
            if c < cells && is_corner(graph, NodeId(c as u32)) {
                *word |= 1 << b;
            }
        }
    });
    bits
}

/// The octile distance from `(ax, ay)` to `(bx, by)`, as the sum of the
/// moves' costs (exact: see [`DIAGONAL`]).
#[inline]
fn octile((ax, ay): (u32, u32), (bx, by): (u32, u32)) -> f64 {
    let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
    f64::from(dx.min(dy)) * DIAGONAL + f64::from(dx.max(dy) - dx.min(dy))
}

impl Budgeted for SubgoalGraph {
    /// The build budget of the graph a spec (`sub`) builds on `graph`
    /// ([`build_within`](Self::build_within)): 8 seconds times the grid's
    /// cells over `512 * 512`, from 0.5 to 8 seconds, the budget of
    /// [`Allowance::default`](crate::spec::Allowance) (issue 32's build
    /// target on 512x512 game, room and street maps). It bounds the
    /// contraction and then the core's boxes. Built whole
    /// (`cairns table build --search sub --seconds 120`, on one core), every
    /// map of `../shared` takes under 2.5 s but `random512-10-0` (19.3 s;
    /// 12.6 s on 2 cores), `random512-15-0` (9.1 s), `random512-20-0`
    /// (4.2 s), `Boston_0_512` (5.2 s), `TheFrozenSea` (17.8 s) and the
    /// 1024x1024 street maps (10.5 to 43.2 s); where this budget cuts such
    /// a build, part of the core stays without boxes. On `random512-10-0`,
    /// cut at 8 s, queries took 151.6 us where the whole table's took 85.0
    /// (`docs/notes/2026-11-29-sub-core-goal-bounding.md`).
    fn spec_budget(graph: &GridGraph) -> Duration {
        let share = graph.node_bound() as f64 / f64::from(512 * 512);
        Duration::from_secs_f64((8.0 * share).clamp(0.5, 8.0))
    }

    /// Stops contracting once `deadline` has passed: the subgoals not yet
    /// contracted stay in the core, which every query searches, so the
    /// costs stay optimal and the queries are only slower. Finding the
    /// subgoals and their edges is not cut short.
    fn build_until(graph: &GridGraph, deadline: Option<Instant>) -> SubgoalGraph {
        let mut table = SubgoalGraph::with_subgoals(graph, subgoal_bits(graph));
        if table.cells.is_empty() {
            return table;
        }
        // Each subgoal's sweep, then every edge in both directions.
        let found = table.forward(graph, &table.cells);
        let mut lists = found.clone();
        let reverse: Vec<(usize, NodeId)> = lists
            .iter()
            .enumerate()
            .flat_map(|(i, list)| {
                let from = table.cells[i];
                list.iter().map(move |&to| (to, from))
            })
            .filter_map(|(to, from)| table.index(to).map(|j| (j, from)))
            .collect();
        for (j, from) in reverse {
            lists[j].push(from);
        }
        lists.par_iter_mut().for_each(|list| {
            list.sort_unstable();
            list.dedup();
        });
        table.set_edges(&lists);
        table.set_found(&found);
        table.rank(graph, deadline);
        table
    }
}

impl SubgoalGraph {
    /// Builds the subgoal graph of `graph`, in parallel. Meant for octile
    /// graphs without terrain ([`SubgoalSearch`] refuses the others; on
    /// them the graph has no subgoals). [`Budgeted::build_within`] builds
    /// within a budget.
    pub fn build(graph: &GridGraph) -> SubgoalGraph {
        SubgoalGraph::build_until(graph, None)
    }

    /// For each subgoal of `from`, the subgoals its sweep finds, in id
    /// order; the sweeps run on every core.
    fn forward(&self, graph: &GridGraph, from: &[NodeId]) -> Vec<Vec<NodeId>> {
        from.par_iter()
            .map(|&s| {
                let mut found = Vec::new();
                self.sweep(graph, s, |n, _| found.push(n));
                found.sort_unstable();
                found.dedup();
                found
            })
            .collect()
    }

    /// Sets [`found_here`](Self::found_here) from each subgoal's sweep
    /// (`found`, by subgoal, in id order).
    fn set_found(&mut self, found: &[Vec<NodeId>]) {
        self.found_here = (0..self.cells.len())
            .flat_map(|i| {
                let list = &self.targets[self.offsets[i]..self.offsets[i + 1]];
                list.iter().map(move |t| found[i].binary_search(t).is_ok())
            })
            .collect();
    }

    /// The edges of subgoal `node` (none for a cell that is not one), and
    /// for each whether `node`'s own sweep found it.
    fn list(&self, node: NodeId) -> (&[NodeId], &[bool]) {
        match self.index(node) {
            Some(i) => {
                let range = self.offsets[i]..self.offsets[i + 1];
                (&self.targets[range.clone()], &self.found_here[range])
            }
            None => (&[], &[]),
        }
    }

    /// The subgoals in the core of the hierarchy: those left uncontracted,
    /// which every query may search (all of them while the graph is flat).
    pub fn core(&self) -> usize {
        if self.contracted {
            self.hierarchy.core()
        } else {
            self.cells.len()
        }
    }

    /// The core subgoals whose edges have their boxes (see "Goal bounding
    /// of the core"): all of the core after a build that finished within
    /// its budget, fewer after one cut short, none while the graph is flat.
    pub fn core_boxed(&self) -> usize {
        self.bounds.boxed()
    }

    /// Whether the hierarchy was built over the graph's edges: `false`
    /// after [`edited`](Self::edited), until
    /// [`contract_within`](Self::contract_within).
    pub fn is_contracted(&self) -> bool {
        self.contracted
    }

    /// Builds the hierarchy over the edges again: contraction stops once
    /// `budget` (when given) has passed, the rest staying in the core.
    /// Meant for a graph [`edited`](Self::edited) (flat until then). It
    /// ranks the subgoals in the order of the graph edited from (the
    /// subgoals new to the edits first), with no priorities to compute,
    /// so it takes a fraction of a build's ranking; a subgoal that now
    /// needs more shortcuts than a build allows stays in the core. Any
    /// other graph is ranked as [`build_within`](Self::build_within)
    /// ranks it, and then equals a build of `graph` within the same
    /// budget.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn contract_within(&mut self, graph: &GridGraph, budget: Option<Duration>) {
        assert!(
            self.fits(graph),
            "a subgoal graph contracted on a grid of another size"
        );
        let deadline = budget.map(|b| Instant::now() + b);
        self.rank(graph, deadline);
    }

    /// Builds the hierarchy over the edges, then the boxes of its core,
    /// both stopping at `deadline`.
    fn rank(&mut self, graph: &GridGraph, deadline: Option<Instant>) {
        self.contracted = true;
        if self.cells.is_empty() {
            self.hierarchy = Hierarchy::default();
            self.bounds = CoreBounds::default();
            return;
        }
        let lists = self.weighted_edges(graph);
        let fresh = std::mem::take(&mut self.fresh);
        let hierarchy = if self.order.is_empty() {
            Hierarchy::build(lists, deadline)
        } else {
            // The subgoals new to the edits, then those of the older
            // order that are still subgoals.
            let order: Vec<u32> = fresh
                .iter()
                .chain(self.order.iter())
                .filter_map(|&c| self.index(c).map(|i| i as u32))
                .collect();
            Hierarchy::build_in_order(lists, &order, deadline)
        };
        self.set_ranked(graph, hierarchy, deadline);
    }

    /// For tests: ranks the graph again with only the first `count`
    /// subgoals of its order contracted, the rest in the core (boxed
    /// whole): maps as small as the property tests' contract whole.
    #[cfg(test)]
    pub(crate) fn with_core_after(mut self, graph: &GridGraph, count: usize) -> SubgoalGraph {
        let order: Vec<u32> = self.hierarchy.order();
        let hierarchy = Hierarchy::build_in_order(
            self.weighted_edges(graph),
            &order[..count.min(order.len())],
            None,
        );
        self.set_ranked(graph, hierarchy, None);
        self
    }

    /// Each subgoal's edges as `(other end's index, cost)`.
    fn weighted_edges(&self, graph: &GridGraph) -> Vec<Vec<(u32, f64)>> {
        (0..self.cells.len())
            .into_par_iter()
            .map(|i| {
                let here = graph.coords(self.cells[i]);
                self.targets[self.offsets[i]..self.offsets[i + 1]]
                    .iter()
                    .map(|&t| {
                        let j = self.index(t).expect("edges end at subgoals") as u32;
                        (j, octile(here, graph.coords(t)))
                    })
                    .collect()
            })
            .collect()
    }

    /// Sets the hierarchy a ranking built, then boxes its core until
    /// `deadline`.
    fn set_ranked(&mut self, graph: &GridGraph, hierarchy: Hierarchy, deadline: Option<Instant>) {
        self.set_hierarchy(hierarchy);
        self.bounds = CoreBounds::default();
        if let Some(at) = self.boxed_cells(graph) {
            self.bounds = CoreBounds::build(&self.hierarchy, &at, deadline);
        }
    }

    /// Each subgoal's cell as a box's coordinates, or `None` when the grid
    /// is too large for them (it then gets no boxes).
    fn boxed_cells(&self, graph: &GridGraph) -> Option<Vec<(u16, u16)>> {
        (u16::try_from(self.width).is_ok() && u16::try_from(self.height).is_ok()).then(|| {
            self.cells
                .iter()
                .map(|&c| {
                    let (x, y) = graph.coords(c);
                    (x as u16, y as u16)
                })
                .collect()
        })
    }

    /// Sets the hierarchy, and the order it ranked the subgoals in.
    fn set_hierarchy(&mut self, hierarchy: Hierarchy) {
        self.order = hierarchy
            .order()
            .iter()
            .map(|&i| self.cells[i as usize])
            .collect();
        self.hierarchy = hierarchy;
    }

    /// Leaves the graph flat: no hierarchy, every subgoal in the core
    /// with all its edges (a query then follows the edges themselves).
    fn flatten(&mut self) {
        self.hierarchy = Hierarchy::default();
        self.bounds = CoreBounds::default();
        // Nothing to rank without subgoals: as a build leaves it.
        self.contracted = self.cells.is_empty();
    }

    /// The table of `graph` with the subgoals of `bits` (a bit per cell)
    /// and no edges yet.
    fn with_subgoals(graph: &GridGraph, bits: Vec<u64>) -> SubgoalGraph {
        let width = graph.width();
        let clear = BitGrid::from_fn(width, graph.height(), |x, y| {
            let c = y as usize * width as usize + x as usize;
            graph.is_passable(NodeId(c as u32)) && bits[c / 64] & (1 << (c % 64)) == 0
        });
        SubgoalGraph::from_parts(graph, bits, clear)
    }

    /// The table of `graph` with the subgoals of `bits` and the clear
    /// cells of `clear` (the passable cells that are not subgoals), and no
    /// edges yet.
    fn from_parts(graph: &GridGraph, bits: Vec<u64>, clear: BitGrid) -> SubgoalGraph {
        let mut cells = Vec::new();
        for (w, &word) in bits.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                cells.push(NodeId((w * 64) as u32 + rest.trailing_zeros()));
                rest &= rest - 1;
            }
        }
        let mut table = SubgoalGraph::with_cells(graph, bits, clear, cells);
        table.offsets = vec![0; table.cells.len() + 1];
        table
    }

    /// [`from_parts`](Self::from_parts) given the subgoals' `cells` too
    /// (those of `bits`, increasing), and no offsets either.
    fn with_cells(
        graph: &GridGraph, bits: Vec<u64>, clear: BitGrid, cells: Vec<NodeId>,
    ) -> SubgoalGraph {
        let mut ranks = Vec::with_capacity(bits.len());
        let mut count = 0;
        for word in &bits {
            ranks.push(count);
            count += word.count_ones();
        }
        debug_assert_eq!(count as usize, cells.len());
        let (width, height) = (graph.width(), graph.height());
        SubgoalGraph {
            width,
            height,
            offsets: Vec::new(),
            bits,
            ranks,
            cells,
            targets: Vec::new(),
            found_here: Vec::new(),
            clear,
            hierarchy: Hierarchy::default(),
            bounds: CoreBounds::default(),
            contracted: true,
            order: Arc::from([]),
            fresh: Vec::new(),
        }
    }

    /// Sets the edges, one list per subgoal.
    fn set_edges(&mut self, lists: &[Vec<NodeId>]) {
        self.offsets.clear();
        self.offsets.push(0);
        self.targets.clear();
        self.targets.reserve(lists.iter().map(Vec::len).sum());
        for list in lists {
            self.targets.extend_from_slice(list);
            self.offsets.push(self.targets.len());
        }
    }

    /// Whether `node` is a subgoal (`false` off the grid).
    #[inline]
    pub fn is_subgoal(&self, node: NodeId) -> bool {
        let i = node.index();
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The index of subgoal `node` among the subgoals, `None` for a cell
    /// that is not one.
    #[inline]
    fn index(&self, node: NodeId) -> Option<usize> {
        let i = node.index();
        let word = *self.bits.get(i / 64)?;
        let below = word & ((1u64 << (i % 64)) - 1);
        (word & (1 << (i % 64)) != 0)
            .then(|| self.ranks[i / 64] as usize + below.count_ones() as usize)
    }

    /// The subgoals, in id order.
    pub fn subgoals(&self) -> &[NodeId] {
        &self.cells
    }

    /// The subgoals linked to `node` by an edge, in id order (none for a
    /// cell that is not a subgoal).
    pub fn edges(&self, node: NodeId) -> &[NodeId] {
        match self.index(node) {
            Some(i) => &self.targets[self.offsets[i]..self.offsets[i + 1]],
            None => &[],
        }
    }

    /// The number of edges, each direction counted.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// Width of the grid the graph was built for.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of the grid the graph was built for.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Bytes of the graph in memory: subgoal bits and ranks, subgoals,
    /// edges, and the bit grid its sweeps scan.
    pub fn memory_bytes(&self) -> usize {
        self.bits.len() * 8
            + self.ranks.len() * 4
            + self.cells.len() * 4
            + self.offsets.len() * std::mem::size_of::<usize>()
            + self.targets.len() * 4
            + self.found_here.len()
            + self.clear.memory_bytes()
            + self.hierarchy.memory_bytes()
            + self.bounds.memory_bytes()
            + (self.order.len() + self.fresh.len()) * 4
    }

    /// Whether the graph has the size of `graph`.
    pub fn fits(&self, graph: &GridGraph) -> bool {
        self.width == graph.width() && self.height == graph.height()
    }

    /// The subgoal `k` straight moves in direction `d` from `(x, y)`, if
    /// that cell is on the grid and a subgoal.
    #[inline]
    fn subgoal_at(&self, (x, y): (u32, u32), d: usize, k: u32) -> Option<NodeId> {
        let (dx, dy) = DIRECTIONS[d];
        let nx = i64::from(x) + i64::from(dx) * i64::from(k);
        let ny = i64::from(y) + i64::from(dy) * i64::from(k);
        if nx < 0 || ny < 0 || nx >= i64::from(self.width) || ny >= i64::from(self.height) {
            return None;
        }
        let node = NodeId((ny * i64::from(self.width) + nx) as u32);
        self.is_subgoal(node).then_some(node)
    }

    /// The sweep from `from` (a passable cell of `graph`): calls
    /// `found(subgoal, cost)` for each subgoal that the path moving
    /// diagonally first, then straight, reaches with no subgoal before it,
    /// but those the pruning of [`SubgoalGraph`]'s "Edges" skips. A
    /// subgoal may be found twice.
    fn sweep(&self, graph: &GridGraph, from: NodeId, mut found: impl FnMut(NodeId, f64)) {
        let here = graph.coords(from);
        // Where each straight run from `from` stops: the offset of the
        // first wall or subgoal.
        let mut stops = [0u32; 4];
        for (d, stop) in stops.iter_mut().enumerate() {
            let run = self.clear.run(d, here.0, here.1, u32::MAX);
            *stop = run + 1;
            if let Some(s) = self.subgoal_at(here, d, run + 1) {
                found(s, f64::from(run + 1));
            }
        }
        for (i, &(a, b)) in DIAGONAL_SIDES.iter().enumerate() {
            let d = 4 + i;
            let (dx, dy) = DIRECTIONS[d];
            // How far each side's runs may go: not past where the run of
            // the previous cell of the diagonal stopped.
            let mut limits = [stops[a], stops[b]];
            let (mut cell, mut at, mut steps) = (from, here, 0u32);
            while graph.moves(cell) & (1 << d) != 0 {
                cell = graph.step(cell, d);
                at = (at.0.wrapping_add_signed(dx), at.1.wrapping_add_signed(dy));
                steps += 1;
                let diagonal = f64::from(steps) * DIAGONAL;
                if self.is_subgoal(cell) {
                    found(cell, diagonal);
                    break;
                }
                for (limit, side) in limits.iter_mut().zip([a, b]) {
                    let run = self.clear.run(side, at.0, at.1, *limit);
                    if run < *limit {
                        *limit = run + 1;
                        if let Some(s) = self.subgoal_at(at, side, run + 1) {
                            found(s, diagonal + f64::from(run + 1));
                        }
                    }
                }
            }
        }
    }
}

/// A set of subgoals (by index), emptied in `O(1)`: those whose stamp is
/// the current one.
#[derive(Default)]
struct Marks {
    stamp: u32,
    at: Vec<u32>,
}

impl Marks {
    /// Empties the set, sized for `n` subgoals.
    fn reset(&mut self, n: usize) {
        if self.at.len() != n || self.stamp == u32::MAX {
            self.at.clear();
            self.at.resize(n, 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// Marks `i`; whether it was not marked before.
    #[inline]
    fn mark(&mut self, i: u32) -> bool {
        let new = self.at[i as usize] != self.stamp;
        self.at[i as usize] = self.stamp;
        new
    }

    #[inline]
    fn has(&self, i: u32) -> bool {
        self.at[i as usize] == self.stamp
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::search::diagonal_first;
    use super::*;
    use crate::grid::testing::dense_map;
    use crate::search::testing::{
        matches_dijkstra_from, open_grids_match_dijkstra, proptest_against_dijkstra,
        refuses_other_grids, walled as grid,
    };

    /// Checks subgoal search against Dijkstra from `start` to every cell of
    /// `graph`.
    fn check_all_from(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        let table = SubgoalGraph::build(graph);
        let search = SubgoalSearch::new(graph, &table).unwrap();
        matches_dijkstra_from(graph, &search, start)
    }

    /// Like [`check_all_from`], on a hierarchy that contracts only the
    /// first `share` (of 4) of the build's order and boxes the rest, its
    /// core: the maps here are small enough to contract whole.
    fn check_core_from(graph: &GridGraph, start: NodeId, share: usize) -> Result<(), String> {
        let table = SubgoalGraph::build(graph);
        let count = table.subgoals().len() * share / 4;
        let table = table.with_core_after(graph, count);
        let search = SubgoalSearch::new(graph, &table).unwrap();
        matches_dijkstra_from(graph, &search, start)
    }

    fn check_half_core_from(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        check_core_from(graph, start, 2)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random maps dense with walls (the shared strategy).
        #[test]
        fn dense_maps_match_dijkstra((graph, start) in dense_map()) {
            prop_assert_eq!(check_all_from(&graph, start), Ok(()));
        }

        /// The same with a boxed core of any size, from every subgoal (none
        /// contracted) to a quarter of them.
        #[test]
        fn boxed_cores_match_dijkstra((graph, start) in dense_map(), share in 0usize..4) {
            prop_assert_eq!(check_core_from(&graph, start, share), Ok(()));
        }
    }

    /// The larger grids again, half of each map's subgoals in a boxed core.
    mod boxed_core {
        use super::*;

        proptest_against_dijkstra! {
            check_half_core_from, cases = 200, scattered(40, 450), rooms(7, 30)
        }
    }

    // Larger grids than the other searches': long runs, many subgoals,
    // pruned sweeps, and long walls where the sweeps' pruning has to reach
    // around corners.
    proptest_against_dijkstra! { check_all_from, cases = 300, scattered(40, 450), rooms(7, 30) }

    #[test]
    fn single_cells_rows_and_open_maps() {
        let sizes = [(1, 1), (1, 7), (7, 1), (2, 2), (9, 9)];
        open_grids_match_dijkstra(check_all_from, &sizes);
        for (w, h) in sizes {
            let graph = grid(w, h, |_, _| false);
            assert!(SubgoalGraph::build(&graph).subgoals().is_empty());
        }
    }

    /// Every edge joins two subgoals whose diagonal-first path, one way or
    /// the other, is free, and is kept in both directions.
    #[test]
    fn edges_are_free_and_both_ways() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let graph = grid(60, 50, |_, _| rng.below(100) < 20);
        let table = SubgoalGraph::build(&graph);
        assert!(table.subgoals().len() > 100);
        for &u in table.subgoals() {
            assert!(is_corner(&graph, u));
            for &v in table.edges(u) {
                assert!(table.is_subgoal(v));
                assert!(table.edges(v).contains(&u), "{u} -> {v} one way");
                assert!(
                    diagonal_first(&graph, u, v).is_some()
                        || diagonal_first(&graph, v, u).is_some(),
                    "{u} -> {v}"
                );
            }
        }
    }

    #[test]
    fn the_goal_next_to_a_wall_and_a_subgoal_goal() {
        let graph = grid(12, 9, |x, y| (x == 5 && y < 7) || (x == 8 && y > 2));
        for s in 0..graph.node_bound() as u32 {
            assert_eq!(check_all_from(&graph, NodeId(s)), Ok(()), "from {s}");
        }
    }

    #[test]
    fn tables_of_another_size_and_four_connected_grids_are_refused() {
        refuses_other_grids(SubgoalGraph::build, |g, t| {
            SubgoalSearch::new(g, t).is_some()
        });
        let four = crate::grid::testing::open_map(4, 3, Neighborhood::Four);
        assert!(SubgoalGraph::build(&four).subgoals().is_empty());
    }
}
