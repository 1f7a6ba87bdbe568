//! The search over a [`SubgoalGraph`]: a query's start and goal linked to
//! the table, the part of the hierarchy that climbs from the start and
//! descends to the goal searched on the one best-first loop, each edge
//! refined into grid moves.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use super::{Marks, SubgoalGraph, octile};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL, GridGraph};
use crate::heuristic::{Heuristic, Octile};
use crate::search::boxes::{self, Box4, EMPTY};
use crate::search::jps::legs_between;
use crate::search::{Expand, TowardGoal, grid_table_runs_on};

/// Subgoal graph search (Uras, Koenig and Hernández 2013): A* over a
/// [`SubgoalGraph`] with the query's start and goal linked to it, through
/// the same best-first loop as [`AStar`](crate::search::AStar), with the octile
/// heuristic or any consistent one
/// ([`with_heuristic`](SubgoalSearch::with_heuristic)). The costs are the
/// grid's (optimal), and the paths list every cell.
///
/// A query sweeps from its goal (as [`SubgoalGraph`] sweeps from each
/// subgoal) for the subgoals that reach it, and marks those and every
/// subgoal above them along climbing edges of the hierarchy. The start is
/// expanded by its own sweep; a subgoal by its edges that climb (and,
/// in the core, those to the rest of the core whose box meets the box of
/// the core subgoals the goal climbs to; see [`SubgoalGraph`]'s "Goal
/// bounding of the core"), and, when it is marked,
/// by its edges that descend to marked subgoals; one of the goal's
/// subgoals also reaches the goal. Some shortest path climbs from the
/// start, crosses the core and descends to the goal (the hierarchy's
/// shortcuts keep one), so the search finds the grid's distance. When the
/// path from the start to the goal that moves diagonally first is free,
/// that is the answer, found at once. An edge or shortcut is never
/// shorter than the octile distance of its ends, so an octile (or
/// landmark) heuristic stays consistent and no node is expanded twice.
/// The path's shortcuts are unpacked into edges, and those into cells.
///
/// # Contract
///
/// The graph uses [`Neighborhood::Octile`](crate::grid::Neighborhood::Octile) without terrain costs, and the
/// table was built for it (the constructors check the movement and the
/// size; a table of another map of the same size gives wrong paths, which
/// is why saved tables carry the map's hash).
///
/// # Complexity
///
/// Worst case `O(S log S)` for `S` subgoals, plus the two sweeps of the
/// start and the goal; on maze512-1-0 a query expands 20 nodes on
/// average (every 10th query of its scenario file). Memory: the table and the reusable
/// [`SearchCache`](crate::search::SearchCache), and the goal's subgoals.
///
/// # Example
///
/// ```
/// use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
/// use cairns::search::{Search, SearchCache, SubgoalGraph, SubgoalSearch};
///
/// let grid = Grid::from_ascii("
///     ..........
///     ....@.....
///     ....@.....
///     ....@.....
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let table = SubgoalGraph::build(&graph);
/// let search = SubgoalSearch::new(&graph, &table).unwrap();
/// let mut cache = SearchCache::new();
/// let (start, goal) = (graph.node(0, 2).unwrap(), graph.node(9, 2).unwrap());
/// let path = search.search(start, goal, &mut cache).unwrap();
/// assert_eq!(path.cost, 5.0 + 4.0 * DIAGONAL);
/// // The path lists every cell, not only the subgoals.
/// assert_eq!(path.nodes.len(), 10);
/// ```
pub struct SubgoalSearch<'g, H = Octile> {
    graph: &'g GridGraph,
    table: Cow<'g, SubgoalGraph>,
    heuristic: H,
    /// The goal's subgoals of the last query, kept for the next so that a
    /// query allocates nothing ([`Sweeps`] takes it and gives it back).
    near_goal: Cell<Vec<NodeId>>,
    /// The subgoals the last query's goal climbs to, and the stack that
    /// found them, kept the same way.
    climbed: Cell<Marks>,
    climbing: Cell<Vec<u32>>,
}

impl<H: fmt::Debug> fmt::Debug for SubgoalSearch<'_, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubgoalSearch")
            .field("table", &self.table)
            .field("heuristic", &self.heuristic)
            .finish_non_exhaustive()
    }
}

impl<'g> SubgoalSearch<'g> {
    /// Subgoal graph search on `graph` with `table` (borrowed or owned) and
    /// the octile heuristic, or `None` unless the graph uses octile
    /// movement without terrain costs and the table has its size.
    pub fn new(graph: &'g GridGraph, table: impl Into<Cow<'g, SubgoalGraph>>) -> Option<Self> {
        Self::with_heuristic(graph, table, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> SubgoalSearch<'g, H> {
    /// Subgoal graph search on `graph` with `table` guided by `heuristic`,
    /// or `None` unless the graph uses octile movement without terrain
    /// costs ([`GridGraph::has_terrain`]) and the table has its size. Any
    /// admissible and consistent heuristic of the grid keeps the costs
    /// optimal: each edge costs the grid distance of its ends.
    pub fn with_heuristic(
        graph: &'g GridGraph, table: impl Into<Cow<'g, SubgoalGraph>>, heuristic: H,
    ) -> Option<Self> {
        let table = table.into();
        grid_table_runs_on(graph, table.fits(graph)).then(|| SubgoalSearch {
            graph,
            table,
            heuristic,
            near_goal: Cell::new(Vec::new()),
            climbed: Cell::new(Marks::default()),
            climbing: Cell::new(Vec::new()),
        })
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }

    /// The subgoal graph.
    pub fn table(&self) -> &SubgoalGraph {
        &self.table
    }
}

/// The cost of the path from `from` to `to` that moves diagonally first,
/// then straight, when it is free.
pub(super) fn diagonal_first(graph: &GridGraph, from: NodeId, to: NodeId) -> Option<f64> {
    let legs = legs_between(graph.coords(from), graph.coords(to));
    let mut cell = from;
    for (d, len) in [
        (legs.diagonal, legs.diagonal_len),
        (legs.straight, legs.straight_len),
    ] {
        for _ in 0..len {
            if graph.moves(cell) & (1 << d) == 0 {
                return None;
            }
            cell = graph.step(cell, d);
        }
    }
    Some(f64::from(legs.diagonal_len) * DIAGONAL + f64::from(legs.straight_len))
}

/// One query's successors: the start's sweep, the subgoals' edges, and the
/// goal from its subgoals.
pub(crate) struct Sweeps<'s, 'g, H> {
    search: &'s SubgoalSearch<'g, H>,
    goal: NodeId,
    at: (u32, u32),
    /// The subgoals the goal's sweep found, in id order; empty when the
    /// goal is a subgoal (its edges are in the table).
    near: Vec<NodeId>,
    /// The subgoals the goal climbs to: those found by its sweep (or the
    /// goal itself) and every subgoal above them along climbing edges.
    climbed: Marks,
    /// The box of the core subgoals among those: a core edge whose box
    /// misses it is left out.
    exits: Box4,
}

impl<H> Drop for Sweeps<'_, '_, H> {
    fn drop(&mut self) {
        self.search.near_goal.set(std::mem::take(&mut self.near));
        self.search.climbed.set(std::mem::take(&mut self.climbed));
    }
}

impl<H> Expand for Sweeps<'_, '_, H> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.search.graph.node_bound()
    }

    #[inline]
    fn expand(&self, u: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let graph = self.search.graph;
        let table = &*self.search.table;
        if parent == NodeId::NONE
            && let Some(cost) = diagonal_first(graph, u, self.goal)
        {
            // No path through the start is shorter.
            visit(self.goal, cost);
            return;
        }
        match table.index(u) {
            Some(i) if !table.contracted => {
                // Flat: every edge, at the octile distance of its ends.
                let here = graph.coords(u);
                for &t in &table.targets[table.offsets[i]..table.offsets[i + 1]] {
                    visit(t, octile(here, graph.coords(t)));
                }
                if self.near.binary_search(&u).is_ok() {
                    visit(self.goal, octile(here, self.at));
                }
            }
            Some(i) => {
                let here = graph.coords(u);
                let ranks = &table.hierarchy;
                let up = ranks.up(i);
                if let Some(boxes) = table.bounds.of(i, up.len()) {
                    for (a, b) in up.iter().zip(boxes) {
                        if boxes::meet(*b, self.exits) {
                            visit(table.cells[a.to as usize], a.cost);
                        }
                    }
                } else {
                    for a in up {
                        visit(table.cells[a.to as usize], a.cost);
                    }
                }
                if self.climbed.has(i as u32) {
                    for a in ranks.down(i) {
                        if self.climbed.has(a.to) {
                            visit(table.cells[a.to as usize], a.cost);
                        }
                    }
                }
                if self.near.binary_search(&u).is_ok() {
                    visit(self.goal, octile(here, self.at));
                }
            }
            // Only the start is expanded without being a subgoal.
            None => table.sweep(graph, u, &mut visit),
        }
    }
}

/// The cache links subgoals (and the start and goal);
/// [`fill_path`](TowardGoal::fill_path) gives the cells between them.
impl<'g, H: Heuristic> TowardGoal for SubgoalSearch<'g, H> {
    on_grid!(Sweeps<'a, 'g, H>);

    fn expander(&self, goal: NodeId) -> Sweeps<'_, 'g, H> {
        let mut near = self.near_goal.take();
        near.clear();
        let table = &*self.table;
        let mut climbed = self.climbed.take();
        climbed.reset(table.cells.len());
        // The marked subgoals still to climb from.
        let mut stack = self.climbing.take();
        if goal.index() < self.graph.node_bound() && self.graph.is_passable(goal) {
            if let Some(i) = table.index(goal) {
                stack.push(i as u32);
            } else {
                table.sweep(self.graph, goal, |n, _| near.push(n));
                near.sort_unstable();
                near.dedup();
                stack.extend(
                    near.iter()
                        .filter_map(|&n| table.index(n))
                        .map(|i| i as u32),
                );
            }
        }
        // Every subgoal above the goal's along climbing edges (not along
        // the core's edges, which the search follows anyway); a flat graph
        // has no climbing edges.
        if !table.contracted {
            stack.clear();
        }
        let mut exits = EMPTY;
        while let Some(i) = stack.pop() {
            if climbed.mark(i) {
                let rank = table.hierarchy.rank[i as usize];
                if rank == u32::MAX {
                    let (x, y) = self.graph.coords(table.cells[i as usize]);
                    // Boxes exist only on grids whose coordinates fit.
                    boxes::grow(&mut exits, (x as u16, y as u16));
                    // Nothing ranks above the core.
                    continue;
                }
                for a in table.hierarchy.up(i as usize) {
                    if table.hierarchy.rank[a.to as usize] > rank && !climbed.has(a.to) {
                        stack.push(a.to);
                    }
                }
            }
        }
        self.climbing.set(stack);
        Sweeps {
            search: self,
            goal,
            at: self.graph.coords(goal),
            near,
            climbed,
            exits,
        }
    }

    fn fill_path(&self, path: &mut Vec<NodeId>) {
        self.table.unpack(path);
        refine(self.graph, path);
    }
}

impl SubgoalGraph {
    /// Turns each shortcut between two subgoals of `path` into the
    /// subgoals it stands for, in place.
    fn unpack(&self, path: &mut Vec<NodeId>) {
        if !self.contracted {
            // No shortcuts in a flat graph.
            return;
        }
        let linked = std::mem::take(path);
        let mut between = Vec::new();
        for (k, &n) in linked.iter().enumerate() {
            let pair = k
                .checked_sub(1)
                .and_then(|p| self.index(linked[p]))
                .zip(self.index(n));
            match pair {
                Some((i, j)) => {
                    between.clear();
                    self.hierarchy.unpack(i as u32, j as u32, &mut between);
                    path.extend(between.iter().map(|&b| self.cells[b as usize]));
                }
                None => path.push(n),
            }
        }
    }
}

/// Turns the linked nodes in `out` (start first) into every cell of the
/// path, in place from the back. Each link is a free path that moves
/// diagonally first and then straight, or the reverse of one (an edge
/// found from its other end): the first is taken when free, else the
/// second.
fn refine(graph: &GridGraph, out: &mut Vec<NodeId>) {
    let links = out.len();
    let mut cells = 0;
    for i in 1..links {
        let legs = legs_between(graph.coords(out[i - 1]), graph.coords(out[i]));
        cells += (legs.diagonal_len + legs.straight_len) as usize;
    }
    let total = cells + 1;
    out.resize(total.max(links), NodeId::NONE);
    let mut write = total;
    for i in (1..links).rev() {
        let (from, to) = (out[i - 1], out[i]);
        let legs = legs_between(graph.coords(from), graph.coords(to));
        let straight = (legs.straight, legs.straight_len);
        let diagonal = (legs.diagonal, legs.diagonal_len);
        // Written from `to` back: the last leg first.
        let order = if diagonal_first(graph, from, to).is_some() {
            [straight, diagonal]
        } else {
            [diagonal, straight]
        };
        let mut n = to;
        for (d, len) in order {
            for _ in 0..len {
                write -= 1;
                out[write] = n;
                n = graph.step_back(n, d);
            }
        }
    }
    out.truncate(total);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Search, SearchCache};

    /// A query allocates nothing once the goal's list has room: the list
    /// goes back to the search after each query.
    #[test]
    fn the_goal_list_is_reused() {
        let graph = crate::search::testing::walled(20, 20, |x, y| (x % 4 == 2) && (y % 5 != 0));
        let table = SubgoalGraph::build(&graph);
        let search = SubgoalSearch::new(&graph, &table).unwrap();
        let mut cache = SearchCache::new();
        let goal = graph.node(19, 19).unwrap();
        assert!(search.search_cost(NodeId(0), goal, &mut cache).is_some());
        let kept = search.near_goal.take();
        assert!(kept.capacity() > 0);
        search.near_goal.set(kept);
    }
}
