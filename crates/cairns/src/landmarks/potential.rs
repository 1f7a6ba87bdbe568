//! The average landmark potential of bidirectional ALT (Goldberg and
//! Harrelson 2005, section 5): one query's lower bounds towards its goal
//! and from its start, averaged into one potential that both sides of a
//! bidirectional search can use.

use super::table::{LandmarkTable, Layout};
use crate::graph::NodeId;

/// The most landmarks [`AveragePotential::with_active`] keeps for a query.
pub(crate) const MAX_ACTIVE: usize = 16;

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
        let n = n.min(MAX_ACTIVE);
        let mut chosen = [0u16; MAX_ACTIVE];
        let mut scores = [f64::NEG_INFINITY; MAX_ACTIVE];
        let mut len = 0usize;
        for l in 0..k {
            let s = self.term(self.start, self.goal, l);
            // NaN (no information) ranks below every real bound.
            let s = if s.is_nan() { f64::NEG_INFINITY } else { s };
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

    /// `(π_f(v), π_b(v))` before the margin, each at least 0.
    #[inline]
    fn bounds(&self, v: NodeId) -> (f64, f64) {
        let t = self.table;
        let (to, from) = (t.dist_to(), t.dist_from());
        let (s, z) = (self.start, self.goal);
        // Plain comparisons, not `f64::max`: NaN (both distances infinite,
        // no information) compares false and is skipped, an infinite
        // bound is kept.
        let mut fw = 0f64;
        let mut bw = 0f64;
        let mut add = |to_v: f64, from_v: f64, to_s: f64, from_s: f64, to_z: f64, from_z: f64| {
            let (a, b) = (to_v - to_z, from_z - from_v);
            fw = if a > fw { a } else { fw };
            fw = if b > fw { b } else { fw };
            let (c, d) = (to_s - to_v, from_v - from_s);
            bw = if c > bw { c } else { bw };
            bw = if d > bw { d } else { bw };
        };
        match (self.active, t.layout()) {
            (None, Layout::NodeMajor) => {
                let k = t.landmark_count();
                let row = |values: &'t [f64], n: NodeId| &values[n.index() * k..][..k];
                let (tv, fv) = (row(to, v), row(from, v));
                let (ts, fs) = (row(to, s), row(from, s));
                let (tz, fz) = (row(to, z), row(from, z));
                // Independent lanes, so that the compiler turns the loop
                // into vector instructions (one running maximum is a chain
                // of dependent selects, as in `symmetric_bound`).
                const LANES: usize = 4;
                let (mut lf, mut lb) = ([0f64; LANES], [0f64; LANES]);
                let whole = k - k % LANES;
                for base in (0..whole).step_by(LANES) {
                    for i in 0..LANES {
                        let l = base + i;
                        let (a, b) = (tv[l] - tz[l], fz[l] - fv[l]);
                        lf[i] = if a > lf[i] { a } else { lf[i] };
                        lf[i] = if b > lf[i] { b } else { lf[i] };
                        let (c, d) = (ts[l] - tv[l], fv[l] - fs[l]);
                        lb[i] = if c > lb[i] { c } else { lb[i] };
                        lb[i] = if d > lb[i] { d } else { lb[i] };
                    }
                }
                for l in whole..k {
                    add(tv[l], fv[l], ts[l], fs[l], tz[l], fz[l]);
                }
                for i in 0..LANES {
                    fw = if lf[i] > fw { lf[i] } else { fw };
                    bw = if lb[i] > bw { lb[i] } else { bw };
                }
            }
            (active, _) => {
                let all: &[u16] = &[];
                let (chosen, n) = match &active {
                    Some((chosen, n)) => (&chosen[..usize::from(*n)], usize::from(*n)),
                    None => (all, t.landmark_count()),
                };
                for i in 0..n {
                    let l = chosen.get(i).map_or(i, |&l| usize::from(l));
                    let (sv, ss, sz) = (t.slot(v, l), t.slot(s, l), t.slot(z, l));
                    add(to[sv], from[sv], to[ss], from[ss], to[sz], from[sz]);
                }
            }
        }
        (fw, bw)
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
