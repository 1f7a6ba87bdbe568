//! The average landmark potential of bidirectional ALT (Goldberg and
//! Harrelson 2005, section 5): one query's lower bounds towards its goal
//! and from its start, averaged into one potential that both sides of a
//! bidirectional search can use.

use super::heuristic::top_landmarks;
use super::table::{LandmarkTable, Layout};
use crate::graph::NodeId;

/// The most landmarks [`AveragePotential::with_active`] keeps for a query.
pub(crate) const MAX_ACTIVE: usize = 16;

/// Independent running maxima in the potential's loop over every landmark.
const LANES: usize = 4;

/// The potential `p(v) = (π_f(v) - π_b(v)) / 2` of one query from `start`
/// to `goal` over a [`LandmarkTable`], where
///
/// ```text
/// π_f(v) = max(0, max_L max(d(v, L) - d(goal, L), d(L, goal) - d(L, v))) - margin
/// π_b(v) = max(0, max_L max(d(start, L) - d(v, L), d(L, v) - d(L, start))) - margin
/// ```
///
/// bound `d(v, goal)` and `d(start, v)` from below (the triangle
/// inequality through each landmark, as in
/// [`DifferentialHeuristic`](super::DifferentialHeuristic); `margin` is
/// the table's rounding margin, 0 when it is exact, and neither goes
/// below 0). Each is feasible for its direction (`π_f(u) <= w(u, v) +
/// π_f(v)`, `π_b(v) <= π_b(u) + w(u, v)`), so their half difference is
/// feasible for the forward search and its negation for the backward one:
/// `w(u, v) - p(u) + p(v) = (w - π_f(u) + π_f(v)) / 2 + (w - π_b(v) +
/// π_b(u)) / 2 >= 0`.
///
/// A node that a bound proves off every path from `start` to `goal` (it
/// cannot reach the goal, or the start cannot reach it) gets `NaN`: the
/// bidirectional loop never opens it.
///
/// On a directed graph the table must keep both directions
/// ([`Directedness::Directed`](super::Directedness::Directed)); a
/// symmetric table reads `d(L, v)` as `d(v, L)`, right for symmetric
/// graphs only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AveragePotential<'t> {
    table: &'t LandmarkTable,
    start: NodeId,
    goal: NodeId,
    /// The landmarks the query uses (the first `count`); all when `None`.
    active: Option<([u16; MAX_ACTIVE], u8)>,
}

impl<'t> AveragePotential<'t> {
    /// The potential of the query from `start` to `goal` with every
    /// landmark of `table`.
    ///
    /// # Panics
    ///
    /// When either node is not in the table.
    pub(crate) fn new(table: &'t LandmarkTable, start: NodeId, goal: NodeId) -> Self {
        for v in [start, goal] {
            assert!(
                v.index() < table.node_count(),
                "node {v} is not in the landmark table ({} nodes)",
                table.node_count()
            );
        }
        AveragePotential {
            table,
            start,
            goal,
            active: None,
        }
    }

    /// Keeps only the `n` landmarks (at most [`MAX_ACTIVE`]) whose bound on
    /// `d(start, goal)` is largest, ties to the lower index: the *active
    /// landmarks* of Goldberg and Harrelson, chosen once per query. `n` at
    /// least the table's landmark count keeps them all.
    pub(crate) fn with_active(self, n: usize) -> Self {
        let k = self.table.landmark_count();
        if n >= k {
            return self;
        }
        let (chosen, len) = top_landmarks::<MAX_ACTIVE>(k, n, |l| {
            let s = self.term(self.start, self.goal, l);
            // NaN (no information) ranks below every real bound.
            if s.is_nan() { f64::NEG_INFINITY } else { s }
        });
        AveragePotential {
            active: Some((chosen, len as u8)),
            ..self
        }
    }

    /// The landmarks the query uses, best first when they were chosen.
    #[cfg(test)]
    pub(crate) fn active(&self) -> Option<&[u16]> {
        self.active
            .as_ref()
            .map(|(chosen, len)| &chosen[..usize::from(*len)])
    }

    /// The bound of landmark `l` on `d(a, z)`: may be negative, infinite or
    /// NaN (no information).
    #[inline]
    fn term(&self, a: NodeId, z: NodeId, l: usize) -> f64 {
        let t = self.table;
        let (to, from) = (t.dist_to(), t.dist_from());
        let (sa, sz) = (t.slot(a, l), t.slot(z, l));
        (to[sa] - to[sz]).max(from[sz] - from[sa])
    }

    /// `(π_f(node), π_b(node))` before the margin, each at least 0.
    #[inline]
    fn bounds(&self, node: NodeId) -> (f64, f64) {
        let table = self.table;
        let (to, from) = (table.dist_to(), table.dist_from());
        let (toward, back) = match (self.active, table.layout()) {
            (None, Layout::NodeMajor) => {
                let count = table.landmark_count();
                let row = |values: &'t [f64], at: NodeId| &values[at.index() * count..][..count];
                let node_rows = (row(to, node), row(from, node));
                let start_rows = (row(to, self.start), row(from, self.start));
                let goal_rows = (row(to, self.goal), row(from, self.goal));
                // Independent lanes, so that the compiler turns the loop
                // into vector instructions (one running maximum is a chain
                // of dependent selects, as in `symmetric_bound`).
                let mut lanes = [(0f64, 0f64); LANES];
                let whole = count - count % LANES;
                for base in (0..whole).step_by(LANES) {
                    for (i, lane) in lanes.iter_mut().enumerate() {
                        let at = |rows: (&[f64], &[f64])| (rows.0[base + i], rows.1[base + i]);
                        raise(lane, at(node_rows), at(start_rows), at(goal_rows));
                    }
                }
                let mut acc = (0f64, 0f64);
                for l in whole..count {
                    let at = |rows: (&[f64], &[f64])| (rows.0[l], rows.1[l]);
                    raise(&mut acc, at(node_rows), at(start_rows), at(goal_rows));
                }
                lanes.iter().fold(acc, |acc, lane| {
                    (larger(acc.0, lane.0), larger(acc.1, lane.1))
                })
            }
            (active, _) => {
                let mut acc = (0f64, 0f64);
                let chosen = active
                    .as_ref()
                    .map(|(chosen, len)| &chosen[..usize::from(*len)]);
                let count = chosen.map_or(table.landmark_count(), <[u16]>::len);
                for i in 0..count {
                    let l = chosen.map_or(i, |chosen| usize::from(chosen[i]));
                    let at = |v: NodeId| {
                        let slot = table.slot(v, l);
                        (to[slot], from[slot])
                    };
                    raise(&mut acc, at(node), at(self.start), at(self.goal));
                }
                acc
            }
        };
        (toward, back)
    }

    /// `p(v)`, or `NaN` when a bound proves `v` on no path from the start
    /// to the goal.
    #[inline]
    pub(crate) fn at(&self, v: NodeId) -> f64 {
        let (fw, bw) = self.bounds(v);
        if fw == f64::INFINITY || bw == f64::INFINITY {
            return f64::NAN;
        }
        let m = self.table.margin();
        0.5 * ((fw - m).max(0.0) - (bw - m).max(0.0))
    }

    /// `π_f(v)` and `π_b(v)` after the margin, for the tests.
    #[cfg(test)]
    pub(crate) fn sides(&self, v: NodeId) -> (f64, f64) {
        let (fw, bw) = self.bounds(v);
        let m = self.table.margin();
        ((fw - m).max(0.0), (bw - m).max(0.0))
    }
}

/// The larger of `a` and `b` by a plain comparison: NaN in `b` (both
/// distances infinite, no information) compares false and is skipped, an
/// infinite bound is kept.
#[inline]
fn larger(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}

/// Raises `acc = (π_f, π_b)` by one landmark's bounds on `d(node, goal)`
/// and `d(start, node)`, from its `(d(., L), d(L, .))` at the node, the
/// start and the goal.
#[inline]
fn raise(acc: &mut (f64, f64), node: (f64, f64), start: (f64, f64), goal: (f64, f64)) {
    let toward = larger(larger(acc.0, node.0 - goal.0), goal.1 - node.1);
    let back = larger(larger(acc.1, start.0 - node.0), node.1 - start.1);
    *acc = (toward, back);
}
