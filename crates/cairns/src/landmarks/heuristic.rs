//! The differential heuristic: lower bounds from a landmark table.

use super::column::DistanceColumn;
use super::table::{Directedness, LandmarkTable, Layout};
use crate::graph::NodeId;
use crate::heuristic::Heuristic;

/// The largest `n` of [`DifferentialHeuristic::with_best`].
pub const MAX_BEST: usize = 8;

/// The differential (landmark, "ALT") heuristic over a [`LandmarkTable`],
/// combined with a base heuristic by taking the larger estimate.
///
/// For a symmetric table with landmarks `L`:
///
/// ```text
/// h(a, z) = max(base(a, z), max_L |d(a, L) - d(z, L)| - margin)
/// ```
///
/// and for a directed one, from the distances to (`d(., L)`) and from
/// (`d(L, .)`) each landmark:
///
/// ```text
/// h(a, z) = max(base(a, z), max_L max(d(a, L) - d(z, L), d(L, z) - d(L, a)) - margin)
/// ```
///
/// where `margin` is the table's [rounding margin](LandmarkTable::margin)
/// and the landmark part is never below 0. Both are admissible when `base`
/// is, and consistent when `base` is, up to `1.5 * margin` of `f64`
/// rounding; see [`LandmarkTable`] for the argument.
///
/// # Unreachable goals
///
/// The estimate is `f64::INFINITY` when the table proves `z` unreachable
/// from `a`: on a symmetric table when exactly one of `d(a, L)`, `d(z, L)`
/// is infinite (they lie in different components); on a directed one when
/// `a` cannot reach a landmark that `z` reaches, or a landmark reaches `a`
/// but not `z`. When no landmark reaches `z` at all (placement leaves small
/// components without one), the table's components decide instead: `a` in
/// another weakly connected component than `z` gets `f64::INFINITY`, and a
/// node of `z`'s own component the base estimate, since every landmark
/// lies elsewhere and bounds nothing there. Both keep the estimate
/// admissible (the true distance is infinite) and consistent (an edge
/// never leaves a component). [`AStar`](crate::search::AStar) then answers
/// `None` without expanding anything.
///
/// # Choosing landmarks per query
///
/// By default every landmark is consulted: `O(k)` per estimate.
/// [`with_best(n)`](Self::with_best) consults only `n` of them, chosen
/// once per query:
///
/// - by [`Heuristic::goal`], which sees only the goal `z`: the `n`
///   landmarks *nearest* the goal (smallest `d(z, L) + d(L, z)`). Since
///   `d(a, z) <= d(a, L) + d(L, z)`, such a landmark guarantees
///   `h(a, z) >= d(a, z) - d(z, L) - d(L, z)` for every `a`, so near
///   landmarks bound every node well; nodes in another component still
///   get an infinite estimate whenever the goal's component holds a
///   chosen landmark;
/// - by [`for_query(start, goal)`](Self::for_query) or the adapter
///   [`for_start(start)`](Self::for_start): the `n` landmarks giving the
///   largest bound for the pair `(start, goal)` itself, the rule of
///   Goldberg and Harrelson. This is usually the better choice.
///
/// # Complexity
///
/// [`goal`](Heuristic::goal) is `O(1)` when every landmark is used and
/// `O(k)` with `with_best`; [`estimate`](Heuristic::estimate) is `O(k)`,
/// or `O(n)` with `with_best(n)`, plus the base heuristic. Nothing
/// allocates.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::{Heuristic, Octile};
/// use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable};
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     .......
///     @@@@@@.
///     .......
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let (a, z) = (graph.node(0, 0).unwrap(), graph.node(0, 2).unwrap());
/// let table = LandmarkTable::build(&graph, &[a], Directedness::Symmetric);
/// let h = DifferentialHeuristic::new(&table, Octile::new(&graph));
/// // Octile sees 2 cells; the landmark at `a` knows the way round the wall.
/// let bound = h.estimate(a, &h.goal(z));
/// assert!(bound > 13.99 && bound <= 14.0);
///
/// let mut cache = SearchCache::new();
/// let path = AStar::new(&graph, h.with_best(1).for_start(a)).search(a, z, &mut cache).unwrap();
/// assert!((path.cost - bound).abs() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DifferentialHeuristic<'t, B> {
    table: &'t LandmarkTable,
    base: B,
    /// How many landmarks a query uses; 0 means all.
    best: u8,
    /// A column consulted on top of the table's landmarks.
    extra: Option<&'t DistanceColumn>,
}

/// The per-query value of a [`DifferentialHeuristic`]: the goal node, the
/// base heuristic's goal and, with [`with_best`](DifferentialHeuristic::with_best),
/// the indices of the landmarks chosen for the query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DifferentialGoal<G> {
    node: NodeId,
    base: G,
    active: [u16; MAX_BEST],
    /// Number of entries of `active` in use; `None` means every landmark.
    count: Option<u8>,
    /// The goal's component label when no landmark shares its component
    /// (and the table knows components): nodes of other components are
    /// then told apart by label, since no landmark can prove it.
    lonely: Option<u32>,
    /// The landmark nearest the goal (smallest `d(L, goal)`) and that
    /// distance, for the tie-break; `None` when no landmark reaches it.
    near: Option<(usize, f64)>,
}

impl<G> DifferentialGoal<G> {
    /// The goal node.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The base heuristic's goal value.
    pub fn base(&self) -> &G {
        &self.base
    }

    /// The indices of the landmarks the query uses, best first, or `None`
    /// when it uses all of them.
    pub fn active(&self) -> Option<&[u16]> {
        self.count.map(|c| &self.active[..usize::from(c)])
    }
}

impl<'t, B: Heuristic> DifferentialHeuristic<'t, B> {
    /// The heuristic of `table` combined with `base`, using every landmark.
    /// The table must have been built for the graph being searched; use
    /// [`Zero`](crate::heuristic::Zero) as `base` for landmarks alone.
    pub fn new(table: &'t LandmarkTable, base: B) -> Self {
        DifferentialHeuristic {
            table,
            base,
            best: 0,
            extra: None,
        }
    }

    /// Also consults `column`, an extra landmark at
    /// [`column.node()`](DistanceColumn::node) that is not in the table,
    /// typically the distances of a search that has already run (see
    /// [`DistanceColumn`]). Every query uses it, on top of the table's
    /// landmarks or the [`with_best`](Self::with_best) selection, and its
    /// own rounding margin is subtracted from its bound. Replaces any
    /// previous extra column.
    ///
    /// # Panics
    ///
    /// When the column covers another number of nodes than the table.
    #[must_use]
    pub fn with_extra(self, column: &'t DistanceColumn) -> Self {
        assert_eq!(
            column.node_count(),
            self.table.node_count(),
            "the column covers another number of nodes than the table"
        );
        DifferentialHeuristic {
            extra: Some(column),
            ..self
        }
    }

    /// Drops the extra column of [`with_extra`](Self::with_extra).
    #[must_use]
    pub fn without_extra(self) -> Self {
        DifferentialHeuristic {
            extra: None,
            ..self
        }
    }

    /// Uses only `n` landmarks per query, chosen when the query starts (see
    /// the type's docs). With `n` at least the table's landmark count, every
    /// landmark is used, ordered best first.
    ///
    /// # Panics
    ///
    /// When `n` is 0 or above [`MAX_BEST`].
    #[must_use]
    pub fn with_best(self, n: usize) -> Self {
        assert!(
            (1..=MAX_BEST).contains(&n),
            "with_best takes 1 to {MAX_BEST} landmarks, not {n}"
        );
        DifferentialHeuristic {
            best: n as u8,
            ..self
        }
    }

    /// Uses every landmark again.
    #[must_use]
    pub fn with_all(self) -> Self {
        DifferentialHeuristic { best: 0, ..self }
    }

    /// The table.
    pub fn table(&self) -> &'t LandmarkTable {
        self.table
    }

    /// The base heuristic.
    pub fn base(&self) -> &B {
        &self.base
    }

    /// The goal value for a query from `start` to `goal`: with
    /// [`with_best(n)`](Self::with_best), the `n` landmarks whose bound on
    /// `d(start, goal)` is largest (ties to the lower index; a landmark
    /// proving the pair unreachable comes first); otherwise the same as
    /// [`goal`](Heuristic::goal).
    ///
    /// # Panics
    ///
    /// When either node is not in the table.
    pub fn for_query(&self, start: NodeId, goal: NodeId) -> DifferentialGoal<B::Goal> {
        self.check(start);
        self.select(goal, |l| {
            let b = self.term(start, goal, l);
            // NaN (no information) ranks below every real bound.
            if b.is_nan() { f64::NEG_INFINITY } else { b }
        })
    }

    /// A heuristic that picks its landmarks with
    /// [`for_query(start, goal)`](Self::for_query) when A* asks for the
    /// goal: build one per query, as in `AStar::new(&graph, h.for_start(s))`.
    pub fn for_start(&self, start: NodeId) -> ForStart<'_, 't, B> {
        ForStart {
            heuristic: self,
            start,
        }
    }

    fn check(&self, node: NodeId) {
        assert!(
            node.index() < self.table.node_count(),
            "node {node} is not in the landmark table ({} nodes)",
            self.table.node_count()
        );
    }

    /// The goal value with the `best` landmarks of highest `score` (all
    /// landmarks when `best` is 0).
    fn select(&self, goal: NodeId, score: impl Fn(usize) -> f64) -> DifferentialGoal<B::Goal> {
        self.check(goal);
        let mut out = DifferentialGoal {
            node: goal,
            base: self.base.goal(goal),
            active: [0; MAX_BEST],
            count: None,
            lonely: self.lonely(goal),
            near: self.nearest(goal),
        };
        if self.best == 0 {
            return out;
        }
        let n = usize::from(self.best).min(self.table.landmark_count());
        let len;
        (out.active, len) = top_landmarks(self.table.landmark_count(), n, score);
        out.count = Some(len as u8);
        out
    }

    /// The landmark nearest `goal`, `L` with the smallest `d(L, goal)`,
    /// and that distance; `None` when none reaches it. `O(k)`.
    fn nearest(&self, goal: NodeId) -> Option<(usize, f64)> {
        let t = self.table;
        let from = t.dist_from();
        (0..t.landmark_count())
            .map(|l| (l, from[t.slot(goal, l)]))
            .filter(|&(_, d)| d < f64::INFINITY)
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The component label of `goal` if no landmark reaches it (so none
    /// shares its component) and the table knows components. `O(k)`.
    fn lonely(&self, goal: NodeId) -> Option<u32> {
        let t = self.table;
        let to = t.dist_to();
        (0..t.landmark_count())
            .all(|l| to[t.slot(goal, l)] == f64::INFINITY)
            .then(|| t.component(goal))
            .flatten()
    }

    /// The bound of landmark `l` on `d(a, z)`, before the margin: may be
    /// negative, infinite or NaN (no information).
    #[inline]
    fn term(&self, a: NodeId, z: NodeId, l: usize) -> f64 {
        let t = self.table;
        let (sa, sz) = (t.slot(a, l), t.slot(z, l));
        let to = t.dist_to();
        match t.directedness() {
            Directedness::Symmetric => (to[sa] - to[sz]).abs(),
            Directedness::Directed => {
                let from = t.dist_from();
                (to[sa] - to[sz]).max(from[sz] - from[sa])
            }
        }
    }

    /// The largest landmark bound on `d(node, goal)` over the goal's
    /// landmarks, at least 0, before the margin.
    #[inline]
    fn landmark_bound(&self, node: NodeId, goal: &DifferentialGoal<B::Goal>) -> f64 {
        // `f64::max` ignores NaN, the "both infinite" case, and keeps an
        // infinite bound: exactly the rules in the type's docs.
        let target = goal.node;
        if let Some(active) = goal.active() {
            return active.iter().fold(0.0, |best, &l| {
                best.max(self.term(node, target, usize::from(l)))
            });
        }
        let table = self.table;
        let k = table.landmark_count();
        let row = |values: &'t [f64], v: NodeId| &values[v.index() * k..][..k];
        match (table.layout(), table.directedness()) {
            (Layout::NodeMajor, Directedness::Symmetric) => {
                let to = table.dist_to();
                symmetric_bound(row(to, node), row(to, target))
            }
            (Layout::NodeMajor, Directedness::Directed) => {
                let (to, from) = (table.dist_to(), table.dist_from());
                row(to, node)
                    .iter()
                    .zip(row(to, target))
                    .zip(row(from, node).iter().zip(row(from, target)))
                    .fold(0.0, |best, ((&to_n, &to_t), (&from_n, &from_t))| {
                        best.max(to_n - to_t).max(from_t - from_n)
                    })
            }
            (Layout::LandmarkMajor, _) => {
                (0..k).fold(0.0, |best, l| best.max(self.term(node, target, l)))
            }
        }
    }
}

/// `max(0, max_i |a[i] - b[i]|)`, ignoring NaN (both distances infinite)
/// and keeping an infinite difference, as `f64::max` would; written over
/// eight independent lanes with plain comparisons so that the compiler
/// turns it into vector instructions (a fold over `f64::max` stays scalar).
#[inline]
fn symmetric_bound(a: &[f64], b: &[f64]) -> f64 {
    const LANES: usize = 8;
    let mut acc = [0f64; LANES];
    let (chunks_a, rest_a) = a.as_chunks::<LANES>();
    let (chunks_b, rest_b) = b.as_chunks::<LANES>();
    for (x, y) in chunks_a.iter().zip(chunks_b) {
        for i in 0..LANES {
            let d = (x[i] - y[i]).abs();
            // NaN compares false and is skipped.
            acc[i] = if d > acc[i] { d } else { acc[i] };
        }
    }
    let mut best = 0f64;
    for (x, y) in rest_a.iter().zip(rest_b) {
        let d = (x - y).abs();
        best = if d > best { d } else { best };
    }
    for v in acc {
        best = if v > best { v } else { best };
    }
    best
}

impl<B: Heuristic> Heuristic for DifferentialHeuristic<'_, B> {
    type Goal = DifferentialGoal<B::Goal>;

    /// Prepares a query to `goal`; with [`with_best(n)`](Self::with_best),
    /// chooses the `n` landmarks nearest the goal.
    ///
    /// # Panics
    ///
    /// When `goal` is not in the table.
    fn goal(&self, goal: NodeId) -> Self::Goal {
        let t = self.table;
        self.select(goal, |l| {
            let near = t.dist_to()[t.slot(goal, l)] + t.dist_from()[t.slot(goal, l)];
            -near
        })
    }

    /// With [`with_best(n)`](Self::with_best), the `n` landmarks best for
    /// the pair ([`for_query`](Self::for_query)); otherwise
    /// [`goal`](Heuristic::goal). A `start` outside the table falls back
    /// to the goal's choice.
    fn goal_for(&self, start: NodeId, goal: NodeId) -> Self::Goal {
        if self.best > 0 && start.index() < self.table.node_count() {
            self.for_query(start, goal)
        } else {
            self.goal(goal)
        }
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        let t = self.table;
        if self.best == 0
            && self.extra.is_none()
            && goal.lonely.is_none()
            && t.layout() == Layout::NodeMajor
            && t.directedness() == Directedness::Symmetric
        {
            // The common case, kept small enough to inline into the search
            // loop: every landmark of a symmetric node-major table. Its tail
            // repeats `estimate_general`'s on purpose: moving this case into
            // `landmark_bound` and sharing one tail (with its extra-column
            // branch) cost 155 instead of 147 instructions per estimate
            // (callgrind, dh:16 on brc202d, every 10th scenario).
            let k = t.landmark_count();
            let to = t.dist_to();
            let lm = symmetric_bound(
                &to[node.index() * k..][..k],
                &to[goal.node.index() * k..][..k],
            );
            if lm == f64::INFINITY {
                return f64::INFINITY;
            }
            let lm = (lm - t.margin()).max(0.0);
            return self.base.estimate(node, &goal.base).max(lm);
        }
        self.estimate_general(node, goal)
    }

    /// The way round through the landmark nearest the goal,
    /// `d(node, L) + d(L, goal)` (infinite when `L` does not reach the
    /// node, or when the goal has no landmark).
    ///
    /// Why it helps: on a plateau of equal `f` some nodes are flattered
    /// (their true distance is longer: the estimate cannot see the wall
    /// between them and the goal), and taking the larger `g` first leads
    /// the search into them, diagonal moves first (a diagonal move adds
    /// more to `g` than a straight one), across whole triangles of open
    /// ground beside a wall. The middle of the bracket `[h, upper]` tells
    /// them apart: a diagonal step into such a triangle lowers `h` by as
    /// much as `g` rises, but the way round through a landmark beside the
    /// goal does not shrink with it. With 16 landmarks this order expands
    /// 11% (bg512) to 60% (maze) fewer nodes than the larger `g` first
    /// (docs/differential-heuristics.md).
    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        let Some((l, d)) = goal.near else {
            return f64::INFINITY;
        };
        let t = self.table;
        t.dist_to()[t.slot(node, l)] + d
    }
}

impl<B: Heuristic> DifferentialHeuristic<'_, B> {
    /// [`Heuristic::estimate`] for every table, selection and extra column.
    #[inline(never)]
    fn estimate_general(&self, node: NodeId, goal: &DifferentialGoal<B::Goal>) -> f64 {
        if goal.lonely.is_some() && self.table.component(node) != goal.lonely {
            return f64::INFINITY;
        }
        let lm = self.landmark_bound(node, goal);
        if lm == f64::INFINITY {
            return f64::INFINITY;
        }
        let mut lm = (lm - self.table.margin()).max(0.0);
        if let Some(column) = self.extra {
            let e = column.term(node, goal.node);
            if e == f32::INFINITY {
                return f64::INFINITY;
            }
            // `max` drops the NaN of "both unreachable".
            lm = lm.max(f64::from(e) - column.margin());
        }
        self.base.estimate(node, &goal.base).max(lm)
    }
}

/// A [`DifferentialHeuristic`] bound to a query's start, which picks its
/// landmarks with [`for_query`](DifferentialHeuristic::for_query); made
/// by [`for_start`](DifferentialHeuristic::for_start).
#[derive(Clone, Copy, Debug)]
pub struct ForStart<'h, 't, B> {
    heuristic: &'h DifferentialHeuristic<'t, B>,
    start: NodeId,
}

impl<B: Heuristic> Heuristic for ForStart<'_, '_, B> {
    type Goal = DifferentialGoal<B::Goal>;

    fn goal(&self, goal: NodeId) -> Self::Goal {
        self.heuristic.for_query(self.start, goal)
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        self.heuristic.estimate(node, goal)
    }

    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        self.heuristic.upper_bound(node, goal)
    }
}

/// The `n` (at most `M`) of landmarks `0..k` whose `score` is largest,
/// best first, ties to the lower index, and how many there are
/// (`n.min(k)`): an insertion into a short sorted list, `k * n` steps at
/// most.
pub(crate) fn top_landmarks<const M: usize>(
    k: usize, n: usize, score: impl Fn(usize) -> f64,
) -> ([u16; M], usize) {
    let n = n.min(M);
    let mut chosen = [0u16; M];
    let mut scores = [f64::NEG_INFINITY; M];
    let mut len = 0;
    for l in 0..k {
        let s = score(l);
        let mut i = len;
        while i > 0 && s > scores[i - 1] {
            i -= 1;
        }
        if i < n {
            let end = len.min(n - 1);
            scores.copy_within(i..end, i + 1);
            chosen.copy_within(i..end, i + 1);
            scores[i] = s;
            chosen[i] = l as u16;
            len = (len + 1).min(n);
        }
    }
    (chosen, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{CsrGraph, Graph};
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::heuristic::{Octile, Zero};
    use crate::landmarks::Layout;
    use crate::search::Search;
    use crate::search::{AStar, SearchCache};

    fn two_rooms() -> GridGraph {
        let grid = Grid::from_ascii(
            "
            ...@...
            ...@...
            ...@...
            ",
        )
        .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    #[test]
    fn lane_bound_equals_the_plain_fold() {
        let inf = f64::INFINITY;
        let cases: [(&[f64], &[f64]); 4] = [
            (&[1.0, 5.0, 2.0], &[2.0, 1.0, 2.0]),
            (&[0.0; 17], &[0.0; 17]),
            (
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, inf, 0.5],
                &[9.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, inf, 0.0],
            ),
            (
                &[1.0, inf, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                &[1.0, 2.0, inf, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            ),
        ];
        for (a, b) in cases {
            let fold = a
                .iter()
                .zip(b)
                .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
            assert_eq!(symmetric_bound(a, b), fold, "{a:?} {b:?}");
        }
    }

    #[test]
    fn unreachable_goal_is_answered_without_expanding() {
        let g = two_rooms();
        let (left, right) = (g.node(0, 0).unwrap(), g.node(6, 2).unwrap());
        let table = LandmarkTable::build(&g, &[left], Directedness::Symmetric);
        let mut cache = SearchCache::new();
        for table in [table.clone(), table.with_layout(Layout::LandmarkMajor)] {
            let h = DifferentialHeuristic::new(&table, Octile::new(&g));
            for h in [h, h.with_best(1)] {
                let astar = AStar::new(&g, h);
                assert_eq!(astar.search(left, right, &mut cache), None);
                assert_eq!(cache.stats().expanded, 0);
                assert_eq!(astar.search(right, left, &mut cache), None);
                assert_eq!(cache.stats().expanded, 0);
                let astar = AStar::new(&g, h.for_start(right));
                assert_eq!(astar.search(right, left, &mut cache), None);
                assert_eq!(cache.stats().expanded, 0);
            }
        }
    }

    #[test]
    fn directed_table_proves_one_way_unreachability() {
        // 0 -> 1 -> 2, and 3 isolated: 2 cannot get back to 0.
        let g = CsrGraph::from_edges(4, &[(0, 1, 1.0), (1, 2, 1.0)]).unwrap();
        let table = LandmarkTable::build(&g, &[NodeId(1)], Directedness::Directed);
        let h = DifferentialHeuristic::new(&table, Zero);
        let mut cache = SearchCache::new();
        let astar = AStar::new(&g, h);
        assert_eq!(
            astar.search_cost(NodeId(0), NodeId(2), &mut cache),
            Some(2.0)
        );
        assert_eq!(astar.search_cost(NodeId(2), NodeId(0), &mut cache), None);
        assert_eq!(cache.stats().expanded, 0);
        // 0 reaches the landmark, 3 does not.
        assert_eq!(h.estimate(NodeId(3), &h.goal(NodeId(0))), f64::INFINITY);
        // The landmark reaches 1 but not 0 (only the from-landmark term sees it).
        assert_eq!(h.estimate(NodeId(1), &h.goal(NodeId(0))), f64::INFINITY);
        // No landmark reaches the isolated node 3: the table's components
        // tell that node 0 lies in another one.
        assert_eq!(h.estimate(NodeId(0), &h.goal(NodeId(3))), f64::INFINITY);
        assert_eq!(h.estimate(NodeId(3), &h.goal(NodeId(3))), 0.0);
    }

    #[test]
    fn landmark_on_the_goal_gives_the_exact_distance() {
        let g = two_rooms();
        let z = g.node(2, 1).unwrap();
        let table = LandmarkTable::build(&g, &[z], Directedness::Symmetric);
        let h = DifferentialHeuristic::new(&table, Zero);
        let goal = h.goal(z);
        let a = g.node(0, 2).unwrap();
        let exact = 1.0 + crate::grid::DIAGONAL;
        let est = h.estimate(a, &goal);
        assert!(est <= exact && est > exact - 1e-5, "{est}");
        assert_eq!(h.estimate(z, &goal), 0.0);
    }

    #[test]
    fn the_tie_break_saves_expansions_among_rooms_and_keeps_costs() {
        // 5 x 5 rooms of 15 x 15 cells, each wall with one door, whose
        // place moves from wall to wall: many equal-cost routes, and
        // pockets that the landmark bound flatters.
        let (rooms, side) = (5, 16);
        let width = rooms * side + 1;
        let mut rows = vec![vec![b'.'; width]; width];
        for (y, row) in rows.iter_mut().enumerate() {
            if y % side == 0 {
                row.fill(b'@');
            }
            for x in (0..width).step_by(side) {
                row[x] = b'@';
            }
        }
        for r in 0..rooms {
            for c in 0..rooms {
                let (x0, y0) = (side * c, side * r);
                let door = 1 + (3 * r + 5 * c) % (side - 1);
                if c + 1 < rooms {
                    rows[y0 + door][x0 + side] = b'.';
                }
                if r + 1 < rooms {
                    rows[y0 + side][x0 + 1 + (door + 6) % (side - 1)] = b'.';
                }
            }
        }
        let text: Vec<String> = rows
            .iter()
            .map(|r| String::from_utf8(r.clone()).unwrap())
            .collect();
        let graph = GridGraph::new(
            Grid::from_ascii(&text.join("\n")).unwrap(),
            Neighborhood::Octile,
        );
        let landmarks = crate::landmarks::place(
            &&graph,
            8,
            crate::landmarks::Placement::Farthest { seed: 1 },
        );
        let table = LandmarkTable::build(&&graph, &landmarks, Directedness::Symmetric);
        let dh = DifferentialHeuristic::new(&table, Octile::new(&graph));
        let cells: Vec<NodeId> = (0..graph.node_bound() as u32)
            .map(NodeId)
            .filter(|&v| graph.is_passable(v))
            .collect();
        let (mut tied, mut untied) = (0, 0);
        let mut cache = SearchCache::new();
        for i in 0..300 {
            let (s, t) = (
                cells[(i * 7919) % cells.len()],
                cells[(i * 104_729 + 17) % cells.len()],
            );
            let with = AStar::new(&graph, &dh).search_cost(s, t, &mut cache);
            tied += cache.stats().expanded;
            let without =
                AStar::new(&graph, crate::heuristic::Untied(&dh)).search_cost(s, t, &mut cache);
            untied += cache.stats().expanded;
            assert_eq!(with, without, "{s:?} -> {t:?}");
        }
        // Fewer, not by much on so small a map: the room maps of the
        // benchmark save 14.5% (tests/integration/scenarios.rs checks 32room_000).
        assert!(tied < untied, "{tied} against {untied} expansions");
    }

    #[test]
    fn costs_off_the_lattice_get_a_margin() {
        // 0.1 is not a multiple of 2^-23: its sums may round, so the table
        // is not exact and its bounds are lowered by the margin.
        let g = CsrGraph::from_undirected_edges(2, &[(0, 1, 0.1)]).unwrap();
        let table = LandmarkTable::build(&g, &[NodeId(0)], Directedness::Symmetric);
        assert!(!table.is_exact() && table.margin() > 0.0);
        let h = DifferentialHeuristic::new(&table, Zero);
        let est = h.estimate(NodeId(1), &h.goal(NodeId(0)));
        assert!(est <= 0.1 && est > 0.1 - 1e-7, "{est}");
    }

    #[test]
    fn with_best_picks_the_tightest_landmarks_for_the_pair() {
        // A path 0 - 1 - 2 - 3 - 4 with landmarks at 0, 2 and 4.
        let g = crate::graph::testing::corridor(4);
        let lms = [NodeId(2), NodeId(0), NodeId(4)];
        let table = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let h = DifferentialHeuristic::new(&table, Zero).with_best(1);
        // 3 -> 4: landmark 0 (node 2) bounds it by 1 and so does node 0's
        // landmark; the lower index wins the tie.
        assert_eq!(
            h.for_query(NodeId(3), NodeId(4)).active(),
            Some(&[0u16][..])
        );
        // 1 -> 3: only landmarks at the ends see the full distance 2.
        assert_eq!(
            h.for_query(NodeId(1), NodeId(3)).active(),
            Some(&[1u16][..])
        );
        // By goal alone, the landmark nearest node 3 is... node 2 or 4 (tie: 2).
        assert_eq!(h.goal(NodeId(3)).active(), Some(&[0u16][..]));
        assert_eq!(h.goal(NodeId(4)).active(), Some(&[2u16][..]));
        let h3 = h.with_best(8);
        assert_eq!(
            h3.for_query(NodeId(0), NodeId(4)).active(),
            Some(&[1u16, 2, 0][..])
        );
        assert_eq!(h3.with_all().goal(NodeId(4)).active(), None);
    }

    #[test]
    #[should_panic(expected = "with_best takes 1 to 8")]
    fn with_best_rejects_too_many() {
        let g = CsrGraph::from_edges(1, &[]).unwrap();
        let table = LandmarkTable::build(&g, &[], Directedness::Symmetric);
        let _ = DifferentialHeuristic::new(&table, Zero).with_best(9);
    }
}
